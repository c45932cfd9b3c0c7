"""Lexical scopes: a chain of name tables, each marked as a function scope or a block."""

from __future__ import annotations

from parsers.evaluator.core.values import Value


class Scope:
    __slots__ = ("constants", "function", "outer_names", "parent", "vars")

    def __init__(self, parent: Scope | None, *, function: bool = False) -> None:
        self.parent = parent
        self.function = function or parent is None
        self.vars: dict[str, Value] = {}
        self.constants: set[str] | None = None
        #: Python's ``global``/``nonlocal`` names of this function scope.
        self.outer_names: set[str] | None = None

    def lookup(self, name: str) -> tuple[bool, Value]:
        scope: Scope | None = self
        while scope is not None:
            found = scope.vars.get(name, _MISSING)
            if found is not _MISSING:
                return True, found
            scope = scope.parent
        return False, None

    def owner(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.vars:
                return scope
            scope = scope.parent
        return None

    def function_scope(self) -> Scope:
        scope = self
        while not scope.function and scope.parent is not None:
            scope = scope.parent
        return scope

    def root(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def declare(self, name: str, value: Value, *, constant: bool = False) -> None:
        self.vars[name] = value
        if constant:
            if self.constants is None:
                self.constants = set()
            self.constants.add(name)
        elif self.constants is not None:
            self.constants.discard(name)

    def copy(self) -> Scope:
        """A scope with the same parent and the same bindings, each now its own (a ``for``
        loop's ``let`` variables for its next iteration)."""
        fresh = Scope(self.parent, function=self.function)
        fresh.vars = dict(self.vars)
        if self.constants is not None:
            fresh.constants = set(self.constants)
        return fresh

    def is_constant(self, name: str) -> bool:
        return self.constants is not None and name in self.constants


_MISSING = object()
