"""The decorator that registers a language's built-ins by name in a table, so that each is a
module-level function findable by its name (``@array_method("push")``) and the table is
filled in the order the functions are written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from parsers.evaluator.core.values import Builtin, BuiltinFn

F = TypeVar("F", bound=Callable[..., object])


def registering(table: dict[str, F]) -> Callable[..., Callable[[F], F]]:
    """A decorator factory: ``@register("a", "b")`` puts the decorated function in ``table``
    under each of the names."""

    def under(*names: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            for name in names:
                table[name] = fn
            return fn

        return register

    return under


class BuiltinsByOwner:
    """Built-ins registered under the namespace that owns them (``Math``, ``Array``; ``""``
    for a global name), kept in the order registered, which is the order each namespace lists
    its members. A language's globals register with ``register`` and assemble each namespace
    from ``builtins(owner)``."""

    def __init__(self) -> None:
        #: owner -> member -> (the built-in's name, its function).
        self._table: dict[str, dict[str, tuple[str, BuiltinFn]]] = {}

    def register(
        self, owner: str, *members: str, name: str | None = None
    ) -> Callable[[BuiltinFn], BuiltinFn]:
        """Registers the decorated function as ``owner.member`` for each of ``members`` (its
        name ``owner.member``, or ``name``)."""

        def register(fn: BuiltinFn) -> BuiltinFn:
            for member in members:
                shown = name or (f"{owner}.{member}" if owner else member)
                self._table.setdefault(owner, {})[member] = (shown, fn)
            return fn

        return register

    def builtins(self, owner: str) -> dict[str, Builtin]:
        return {member: Builtin(shown, fn) for member, (shown, fn) in self._table[owner].items()}
