"""The base of the interpreter: its state (dialect, engine, limits, budget, globals,
reporter), the dispatch of each statement and expression to its handler, blocks (with
function declarations hoisted), the loop cap, the stop at the budget, and reporting.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import CallContext, Reporter
from parsers.evaluator.core.control_flow import HOME
from parsers.evaluator.core.dialect import Dialect
from parsers.evaluator.core.engine import Engine
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.limits import Budget, BudgetExceeded, Limits
from parsers.evaluator.core.scope import Scope
from parsers.evaluator.core.values import (
    UNDEFINED,
    ClassValue,
    Closure,
    Record,
    Unknown,
    Value,
    type_name,
)


class InterpreterState:
    """What every part of the interpreter shares."""

    #: The handler of each expression and statement node type (filled by ``Interpreter``).
    _eval: dict[type, Callable[[Any, Scope], Value]]
    _exec: dict[type, Callable[[Any, Scope], None]]

    def __init__(
        self,
        dialect: Dialect,
        engine: Engine,
        *,
        limits: Limits | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.dialect = dialect
        self.engine = engine
        self.limits = limits or Limits()
        self.budget = budget or Budget(self.limits)
        self.reporter = Reporter()
        self.globals = Scope(None, function=True)
        dialect.attach(self)  # type: ignore[arg-type]  # only ever an Interpreter
        # Neither table declares constants: plain entries of the fresh global scope.
        self.globals.vars.update(dialect.globals())
        self.globals.vars.update(engine.globals())
        self.depth = 0
        #: The user functions being run, innermost last: (name, arguments).
        self.frames: list[tuple[str, list[Value]]] = []
        #: Whether the engine reads helpers without a body (``Engine.object_count``).
        self.reads_helpers = engine.object_count() is not None
        self.stopped: str | None = None
        #: The expression of the expression statement being run (a call whose value is
        #: dropped: one made for what it does).
        self.statement_expr: ir.Expr | None = None
        #: For each derived constructor being run, where its super() call leaves ``this``.
        self._pending_this: list[dict[str, Value]] = []
        #: Defaults of functions evaluated at their first call (``defaults_of``), by function
        #: and scope, with both kept alive.
        self._defaults: dict[tuple[int, int], tuple[ir.FunctionExpr, Scope, tuple[Value, ...]]] = {}
        #: Functions with no default, by id (kept alive here).
        self._without_defaults: dict[int, ir.FunctionExpr] = {}
        #: The dialect's ``record_protocols``, read once (asked at every operator).
        self.protocols = dialect.record_protocols
        #: Generator bodies started in this run (abandoned at its end if still suspended).
        self.generators: list[Generator] = []
        #: True while those are abandoned: no more of the script runs (no ``finally``).
        self.abandoning = False

    # --- entry points -----------------------------------------------------------------------
    def context(self, line: int = 0, col: int = 0) -> CallContext:
        return CallContext(self, line, col)

    def _stop(self, line: int, stop: BudgetExceeded) -> None:
        self.stopped = reason = str(stop)
        if stop.deadline:
            self.warning(
                "eval.deadline",
                f"evaluation stopped here after {reason}; the objects built until then are kept,"
                " and this result depends on the machine's speed",
                line,
                0,
            )
            return
        self.warning(
            "eval.budget",
            f"evaluation stopped here after {reason}; the objects built until then are kept",
            line,
            0,
        )

    # --- reporting ----------------------------------------------------------------------------
    def warning(self, code: str, message: str, line: int | None, col: int | None) -> None:
        self.reporter.add("warning", code, message, line, col)

    def info(self, code: str, message: str, line: int | None, col: int | None) -> None:
        self.reporter.add("info", code, message, line, col)

    @staticmethod
    def _describe(value: Value) -> str:
        if isinstance(value, str):
            return repr(value[:60])
        if isinstance(value, Record):
            message = value.fields.get("message")
            return (
                f"{type_name(value)}({message!r})" if isinstance(message, str) else type_name(value)
            )
        return type_name(value)

    # --- statements ---------------------------------------------------------------------------
    def exec(self, stmt: ir.Stmt, env: Scope) -> None:
        self.budget.step()
        self._exec[type(stmt)](stmt, env)

    def exec_block(self, body: tuple[ir.Stmt, ...], env: Scope) -> None:
        self._hoist(body, env)
        execute = self._exec
        step = self.budget.step
        for stmt in body:
            step()
            execute[type(stmt)](stmt, env)

    def _hoist(self, body: tuple[ir.Stmt, ...], env: Scope) -> None:
        """Function declarations are visible in their whole block (JS hoisting)."""
        for stmt in body:
            if type(stmt) is ir.FunctionDecl and stmt.fn.name:
                # Defaults evaluated at definition wait for the definition itself.
                env.declare(stmt.fn.name, self._closure(stmt.fn, env, defaults=False))

    def _loop_limit(self, node: ir.Node) -> None:
        self.warning(
            "eval.loop_limit",
            f"loop stopped after {self.limits.max_loop_iterations} iterations; the program goes on after it",
            node.line,
            node.col,
        )

    # --- expressions ----------------------------------------------------------------------------
    def eval(self, expr: ir.Expr, env: Scope) -> Value:
        return self._eval[type(expr)](expr, env)

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        """The items a loop, spread or destructuring visits: a generator's, lazily, in every
        language; otherwise the dialect's (None when not iterable or unknown)."""
        if type(value) is Generator:
            return value
        items = self.dialect.iterate(value, mode)
        if items is None and self.protocols and type(value) is Record:
            return self.dialect.record_items(CallContext(self, 0, 0), value)
        return items

    def _spread(self, spread: ir.Spread, env: Scope, into: list[Value]) -> None:
        """``...xs`` / ``*xs``: the items of ``xs`` appended to ``into`` (at most the collection
        cap), or one unknown when they cannot be known."""
        value = self.eval(spread.value, env)
        items = self.iterate(value, "of")
        if items is None:
            into.append(
                Unknown(value.reason if isinstance(value, Unknown) else "spread of a non-iterable")
            )
        else:
            into.extend(itertools.islice(items, self.limits.max_collection))

    def _closure(self, fn: ir.FunctionExpr, env: Scope, *, defaults: bool = True) -> Closure:
        found, home = env.lookup(HOME)
        closure = Closure(fn, env, home if found and isinstance(home, ClassValue) else None)
        if defaults and self.dialect.defaults_at_definition and _has_defaults(fn):
            closure.defaults = self._evaluate_defaults(fn, env)
        return closure

    def _evaluate_defaults(self, fn: ir.FunctionExpr, env: Scope) -> tuple[Value, ...]:
        return tuple(
            UNDEFINED if p.default is None else self.eval(p.default, env) for p in fn.params
        )

    def defaults_of(self, closure: Closure) -> tuple[Value, ...] | None:
        """The defaults a call of ``closure`` binds: those of its definition; for a method (or
        a function called before its definition ran) evaluated at its first call and kept."""
        if closure.defaults is not None or not self.dialect.defaults_at_definition:
            return closure.defaults
        fn = closure.fn
        known = self._without_defaults
        if id(fn) in known:
            return None
        if not _has_defaults(fn):
            known[id(fn)] = fn
            return None
        key = (id(fn), id(closure.env))
        kept = self._defaults.get(key)
        if kept is None:
            kept = self._defaults[key] = (fn, closure.env, self._evaluate_defaults(fn, closure.env))
        return kept[2]

    def truth(self, value: Value, line: int, col: int) -> bool | None:
        """Truth of a value, a user class's own for its instances (Python's ``__bool__``)."""
        if self.protocols and type(value) is Record:
            return self.dialect.record_truthy(CallContext(self, line, col), value)
        return self.dialect.truthy(value)

    def binary(self, op: str, left: Value, right: Value, line: int, col: int) -> Value:
        """``left op right``, through a user class's own operators for its instances."""
        if self.protocols and (type(left) is Record or type(right) is Record):
            result = self.dialect.record_binary(CallContext(self, line, col), op, left, right)
            if result is not NotImplemented:
                return result
        return self.dialect.binary(op, left, right)


def _has_defaults(fn: ir.FunctionExpr) -> bool:
    return any(param.default is not None for param in fn.params)
