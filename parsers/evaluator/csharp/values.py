"""C# values the dialect's members and its globals share: rectangular arrays (``int[,]``), the
``out`` values a built-in hands back (``set_out``), and the longest text a built-in builds.
Both ``lib`` (the dialect) and ``globals`` (its global names) build on this module, which
imports neither."""

from __future__ import annotations

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import Value

#: The longest string a built-in builds (``new string('-', n)``, concatenation).
MAX_TEXT = 1_000_000


def set_out(ctx: CallContext, values: list[Value]) -> None:
    """Hand a built-in's ``out`` values to the call site (see the C# front end)."""
    ctx.interp.globals.vars["%out"] = list(values)


class RectangularArray(list):  # type: ignore[type-arg]
    """A C# rectangular array (``int[,]``): rows of items, indexed ``a[i, j]``, whose
    ``Length`` counts every item and whose ``foreach`` visits them row by row."""

    def cells(self) -> list[Value]:
        found: list[Value] = []
        for row in self:
            if isinstance(row, list):
                found.extend(row.cells() if isinstance(row, RectangularArray) else row)
        return found

    def length(self, dimension: int) -> int:
        current: Value = self
        for _ in range(dimension):
            current = current[0] if isinstance(current, list) and current else []
        return len(current) if isinstance(current, list) else 0


__all__ = ["MAX_TEXT", "RectangularArray", "set_out"]
