"""What carries control flow through the interpreter's Python stack: ``return``, ``break``,
``continue`` and the script's own ``throw`` as exceptions, and the names the interpreter binds
in a function's scope (``this``, the class a method belongs to, the class ``new`` was called
with).
"""

from __future__ import annotations

from parsers.evaluator.core.values import Value


class ReturnSignal(Exception):
    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        self.value = value


class BreakSignal(Exception):
    """``break``; ``label`` names the statement it leaves (None: the innermost loop or
    switch)."""

    __slots__ = ("label",)

    def __init__(self, label: str | None = None) -> None:
        self.label = label


class ContinueSignal(Exception):
    __slots__ = ("label",)

    def __init__(self, label: str | None = None) -> None:
        self.label = label


class ThrowSignal(Exception):
    """A ``throw``/``raise`` in the script; caught by the script's ``try`` or at the top."""

    def __init__(self, value: Value, line: int) -> None:
        super().__init__(value)
        self.value = value
        self.line = line


THIS = "this"


HOME = "%home"
NEW_TARGET = "%new_target"
