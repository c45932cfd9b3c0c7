"""The decorator that registers a language's built-ins by name in a table, so that each is a
module-level function findable by its name (``@array_method("push")``) and the table is
filled in the order the functions are written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

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
