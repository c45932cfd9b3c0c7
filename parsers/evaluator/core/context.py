"""What a built-in sees of the evaluator: where it is called from, how to report, how to call
back into user code, and how to read arguments that may be unknown."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsers.evaluator.core.values import UNDEFINED, Unknown, Value, is_number, type_name
from parsers.result import Diagnostics, Severity

if TYPE_CHECKING:
    from parsers.evaluator.core.interpreter import Interpreter
    from parsers.evaluator.core.interpreter_state import InterpreterState


@dataclass(slots=True)
class _Remark:
    severity: Severity
    code: str
    message: str
    line: int | None
    col: int | None
    count: int = 1


class Reporter:
    """Collects diagnostics, folding repeats of one remark at one place (a loop body runs a
    thousand times; its warning is given once, with the count)."""

    def __init__(self) -> None:
        self._items: dict[tuple[str, int | None, int | None, str], _Remark] = {}

    def add(
        self, severity: Severity, code: str, message: str, line: int | None, col: int | None
    ) -> None:
        key = (code, line, col, message)
        found = self._items.get(key)
        if found is None:
            self._items[key] = _Remark(severity, code, message, line, col)
        else:
            found.count += 1

    def flush(self, diagnostics: Diagnostics) -> None:
        """Hand every remark to ``diagnostics`` (which maps code lines to reply lines)."""
        for remark in self._items.values():
            text = remark.message + (f" ({remark.count} times)" if remark.count > 1 else "")
            diagnostics.add(remark.severity, remark.code, text, remark.line, remark.col)
        self._items.clear()

    def codes(self) -> set[str]:
        return {key[0] for key in self._items}

    def warning_count(self) -> int:
        """How many distinct warnings and errors were reported so far (in the run's order:
        a conformance harness notes it at each printed line)."""
        return sum(1 for remark in self._items.values() if remark.severity != "info")


class CallContext:
    """Handed to every built-in: the interpreter, the call's position, and helpers."""

    __slots__ = ("col", "interp", "line")

    def __init__(self, interp: InterpreterState, line: int, col: int) -> None:
        # The interpreter's parts make contexts for the whole: an ``InterpreterState`` is only
        # ever an ``Interpreter``.
        self.interp: Interpreter = interp  # type: ignore[assignment]
        self.line = line
        self.col = col

    @property
    def language(self) -> str:
        return self.interp.dialect.name

    def report(self, severity: Severity, code: str, message: str) -> None:
        self.interp.reporter.add(severity, code, message, self.line, self.col)

    def info(self, code: str, message: str) -> None:
        self.report("info", code, message)

    def warning(self, code: str, message: str) -> None:
        self.report("warning", code, message)

    def error(self, code: str, message: str) -> None:
        self.report("error", code, message)

    def call(
        self, function: Value, args: list[Value], kwargs: dict[str, Value] | None = None
    ) -> Value:
        """Call a user function (a callback handed to ``forEach``, ``traverse``...)."""
        return self.interp.call_value(function, args, kwargs or {}, self.line, self.col)

    def member(self, obj: Value, name: str) -> Value:
        return self.interp.get_member(obj, name, self.line, self.col)

    def set_member(self, obj: Value, name: str, value: Value) -> None:
        self.interp.set_member(obj, name, value, self.line, self.col)

    def truthy(self, value: Value) -> bool | None:
        return self.interp.dialect.truthy(value)

    def number(
        self, value: Value, what: str, default: float, *, code: str = "eval.unknown_value"
    ) -> float:
        """``value`` as a finite float; otherwise ``default``, with a warning naming ``what``."""
        if type(value) is float and math.isfinite(value):
            return value  # the common case, without the isinstance chain
        if is_number(value) and math.isfinite(value):
            return float(value)
        if value is UNDEFINED:
            return default
        if isinstance(value, Unknown):
            self.warning(
                code, f"{what} cannot be known statically ({value.reason}); {default:g} used"
            )
        elif is_number(value):
            self.warning(code, f"{what} is {value}; {default:g} used")
        else:
            converted = self.interp.dialect.to_number(value)
            if converted is not None and math.isfinite(converted):
                return converted
            self.warning(code, f"{what} is a {type_name(value)}, not a number; {default:g} used")
        return default

    def optional_number(
        self, value: Value, what: str, *, code: str = "eval.unknown_value"
    ) -> float | None:
        """``value`` as a finite float, None when absent; an unusable value is reported."""
        if value is UNDEFINED or value is None:
            return None
        if is_number(value) and math.isfinite(value):
            return float(value)
        self.number(value, what, 0.0, code=code)
        return None

    def frames(self) -> list[tuple[str, list[Value]]]:
        """The user functions being run when the built-in is called, innermost first, each
        with the arguments it was called with (an engine reads the words a helper's name and
        its enum and string arguments carry)."""
        return self.interp.frames[::-1]

    def iterate(self, value: Value) -> list[Value] | None:
        items = self.interp.iterate(value, "of")
        return None if items is None else list(items)


BuiltinImpl = Callable[[CallContext, list[Value], dict[str, Value]], Value]
