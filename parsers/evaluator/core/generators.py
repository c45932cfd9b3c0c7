"""Generators for every language: a generator function's body (Python ``def`` with ``yield``,
JavaScript ``function*``, a C# iterator with ``yield return``) runs lazily, a step at a time,
as its consumer asks for items, so that what the body does and what the consumer does between
two items interleave as they do in the language.

The interpreter walks the program tree on the Python stack, so a body suspended at a ``yield``
needs a stack of its own: each body runs in a greenlet (``greenlet`` from PyPI), which a
``yield`` switches away from and the next request switches back into. Python generator
expressions need no stack of their own (nothing suspends inside them): they are
``Generator``s over a plain Python iterator.

A generator is single use, as in every language. What the consumer sends in (Python's
``send``, JavaScript's ``next(v)``) is the value of the ``yield`` expression; plain iteration
sends ``UNDEFINED`` (read as ``None`` in Python). A ``return`` ends the generator and its
value is ``result`` (the value of a Python ``yield from``). An error thrown in the body reaches
the consumer where it asked for the item. When the run ends, bodies still suspended are
abandoned without running any more of the script (no ``finally`` of theirs runs then).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from greenlet import GreenletExit, getcurrent, greenlet

from parsers.evaluator.core.control_flow import BreakSignal, ContinueSignal, ReturnSignal
from parsers.evaluator.core.values import UNDEFINED, Value

if TYPE_CHECKING:
    from parsers.evaluator.core import ir
    from parsers.evaluator.core.interpreter_state import InterpreterState
    from parsers.evaluator.core.scope import Scope

#: What a body's greenlet hands back when it yields, to tell an item from the body's end.
_YIELDED: Final = object()


class Abandoned(GreenletExit):
    """Thrown into a suspended body when the run ends: it unwinds without running the script."""


class _Body(greenlet):
    """The greenlet a generator function's body runs in."""

    def __init__(self, generator: Generator) -> None:
        super().__init__(self._run)
        self.generator = generator

    def _run(self, sent: Value) -> Value:
        gen = self.generator
        body, scope = gen.body, gen.scope
        assert body is not None and scope is not None
        try:
            gen.interp.exec_block(body.body, scope)
        except ReturnSignal as returned:
            gen.result = returned.value
        except (BreakSignal, ContinueSignal):
            pass
        return gen

    def suspend(self, item: Value) -> Value:
        """Hand ``item`` to the consumer; what it sends back when it asks for the next one."""
        consumer = self.parent
        assert consumer is not None
        return consumer.switch((_YIELDED, item))


class Generator(Iterator[Value]):
    """A generator: a function body run by steps (``body`` with its ``scope``), or the items
    of a generator expression (``items``). Iterating it sends ``UNDEFINED`` at each step."""

    __slots__ = ("_greenlet", "body", "done", "frame", "interp", "items", "result", "scope")

    def __init__(
        self,
        interp: InterpreterState,
        *,
        body: ir.Block | None = None,
        scope: Scope | None = None,
        frame: tuple[str, list[Value]] = ("<generator>", []),
        items: Iterator[Value] | None = None,
    ) -> None:
        self.interp = interp
        self.body = body
        self.scope = scope
        self.frame = frame
        self.items = items
        self.done = False
        self.result: Value = UNDEFINED
        self._greenlet: _Body | None = None

    def __repr__(self) -> str:
        return f"<generator {self.frame[0]}>"

    def __next__(self) -> Value:
        return self.send(UNDEFINED)

    def send(self, sent: Value) -> Value:
        """The next item, ``sent`` being the value of the ``yield`` the body stopped at;
        ``StopIteration`` when the generator is done."""
        if self.done:
            raise StopIteration
        if self.items is not None:
            try:
                return next(self.items)
            except BaseException:
                self.done = True
                raise
        body = self._greenlet
        if body is None:
            body = self._greenlet = _Body(self)
            self.interp.generators.append(self)
        elif _running(body):
            # A body asking for its own next item (Python: "generator already executing").
            self.interp.warning(
                "eval.generator_running",
                f"{self.frame[0]}() asks for its own next item while it runs; none given",
                None,
                None,
            )
            raise StopIteration
        body.parent = getcurrent()
        interp = self.interp
        depth, frames = interp.depth, len(interp.frames)
        # The body runs one call deeper than whoever asks for its item, with its own frame.
        interp.depth = depth + 1
        interp.frames.append(self.frame)
        try:
            message = body.switch(sent)
        except BaseException:
            self.done = True
            raise
        finally:
            interp.depth = depth
            del interp.frames[frames:]
        if isinstance(message, tuple) and len(message) == 2 and message[0] is _YIELDED:
            return message[1]
        self.done = True
        raise StopIteration

    def abandon(self) -> None:
        """End a suspended body without running any more of it (the run is over)."""
        self.done = True
        body = self._greenlet
        if body is not None and body and not body.dead:
            body.parent = getcurrent()
            body.throw(Abandoned)


def _running(body: _Body) -> bool:
    """Whether ``body`` is being run (it or a greenlet it switched into asks for an item)."""
    current: greenlet | None = getcurrent()
    while current is not None:
        if current is body:
            return True
        current = current.parent
    return False


def current_body() -> _Body | None:
    """The generator body being run, if the code runs inside one."""
    current = getcurrent()
    return current if isinstance(current, _Body) else None


def run_yield(interp: InterpreterState, expr: ir.Yield, value: Value) -> Value:
    """Evaluate a ``yield`` (``delegate``: every item of ``value`` in turn) in the body being
    run; what the consumer sends back is its value (for a delegation to a generator, that
    generator's return value)."""
    body = current_body()
    if body is None:
        interp.warning(
            "eval.yield_outside_generator",
            "yield outside a generator function; ignored",
            expr.line,
            expr.col,
        )
        return UNDEFINED
    if not expr.delegate:
        return body.suspend(value)
    if isinstance(value, Generator):
        sent: Value = UNDEFINED
        while True:
            try:
                item = value.send(sent)
            except StopIteration:
                return value.result
            sent = body.suspend(item)
    items = interp.iterate(value, "of")
    if items is None:
        interp.warning(
            "eval.unknown_iterable",
            "yield from a value that cannot be known statically; nothing yielded",
            expr.line,
            expr.col,
        )
        return UNDEFINED
    for item in items:
        body.suspend(item)
    return UNDEFINED


def abandon_all(interp: InterpreterState) -> None:
    """End every body still suspended when the run ends (nothing of the script runs)."""
    interp.abandoning = True
    try:
        for generator in interp.generators:
            generator.abandon()
    finally:
        interp.generators.clear()
        interp.abandoning = False
