"""The conformance suite's ``console.log``: prints what node prints for the values the
evaluator holds, keeping each line in a ``Transcript``.

node's ``console.log`` joins its arguments with spaces, strings as they are and everything
else through ``util.inspect`` with its defaults (depth 2, ``breakLength`` 80, ``compact`` 3).
This module follows node's ``lib/internal/util/inspect.js`` for what the evaluator's values
can be: primitives (``-0``, quoted strings inside objects), arrays (grouped in columns past
six items), plain objects (integer keys first, keys quoted when they are no identifier),
class instances (``Foo { x: 1 }``), nesting past depth 2 (``[Object]``), one line when it fits
in 80 columns. Anything else (a function, an engine record, a value the evaluator could not
know, a format string with ``%``) is printed as best it can be, with a warning at the call:
a difference there is never silent.
"""

from __future__ import annotations

import math
import re

from parsers.evaluator import UNDEFINED, Builtin, CallContext, Record, Unknown, Value, is_number
from parsers.evaluator.javascript.lib import js_number_text
from tests.conformance.harness import Printed, Transcript

_IDENTIFIER = re.compile(r"^[a-zA-Z_][a-zA-Z_0-9]*$")
_ARRAY_INDEX = re.compile(r"^(?:0|[1-9][0-9]*)$")
_META = {
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
    "\x0b": "\\x0B",
    "\\": "\\\\",
}
DEPTH = 2
BREAK_LENGTH = 80
COMPACT = 3


class Unmodelled(Exception):
    """A value whose formatting by node this module does not follow."""


def js_key_order(keys: list[str]) -> list[str]:
    """Property keys in JavaScript's order: array indices ascending, then the rest as added."""
    indices = [k for k in keys if _ARRAY_INDEX.match(k) and int(k) < 2**32 - 1]
    if not indices:
        return keys
    others = [k for k in keys if not (_ARRAY_INDEX.match(k) and int(k) < 2**32 - 1)]
    return sorted(indices, key=int) + others


def quote(text: str) -> str:
    """A string as ``util.inspect`` writes it inside an object (``strEscape``)."""
    mark = "'"
    if "'" in text:
        if '"' not in text:
            mark = '"'
        elif "`" not in text and "${" not in text:
            mark = "`"
    out = []
    for char in text:
        if char == mark or char in _META:
            out.append("\\" + char if char == mark else _META[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02X}")
        else:
            out.append(char)
    return mark + "".join(out) + mark


class Inspector:
    """One ``util.inspect`` call: its indentation and the depth last entered (which decide
    whether an object fits on one line)."""

    def __init__(self) -> None:
        self.indentation = 0
        self.current_depth = 0

    def value(self, value: Value, recurse: int) -> str:
        if value is None:
            return "null"
        if value is UNDEFINED:
            return "undefined"
        if value is True or value is False:
            return "true" if value else "false"
        if is_number(value):
            number = float(value)
            return (
                "-0" if number == 0 and math.copysign(1.0, number) < 0 else js_number_text(number)
            )
        if isinstance(value, str):
            if len(value) > 16 and "\n" in value:
                raise Unmodelled("a long string of several lines")
            return quote(value)
        if isinstance(value, list | tuple):
            return self.raw(value, recurse, "[", "]", "Array")
        if isinstance(value, dict):
            return self.raw(value, recurse, "{", "}", "Object")
        if isinstance(value, Record) and value.cls is not None and not value.kind:
            name = value.cls.name
            return self.raw(value.fields, recurse, f"{name} {{", "}", name)
        if isinstance(value, Unknown):
            raise Unmodelled(f"a value the evaluator cannot know ({value.reason})")
        raise Unmodelled(f"the formatting of a {type(value).__name__} value")

    def raw(
        self,
        value: list[Value] | tuple[Value, ...] | dict[str, Value],
        recurse: int,
        open_: str,
        close: str,
        name: str,
    ) -> str:
        # An empty array or object is shown as such at any depth.
        if not value:
            return "[]" if open_ == "[" else f"{open_}}}"
        if recurse > DEPTH:
            return f"[{name}]"
        recurse += 1
        self.current_depth = recurse
        output: list[str] = []
        is_array = not isinstance(value, dict)
        if is_array:
            items = list(value)
            if len(items) > 100:
                raise Unmodelled("an array of more than 100 items")
            for item in items:
                output.append(self.property(item, recurse))
        else:
            assert isinstance(value, dict)
            keys = js_key_order([str(k) for k in value])
            table = {str(k): v for k, v in value.items()}
            for key in keys:
                shown = key if _IDENTIFIER.match(key) else quote(key)
                output.append(f"{shown}: {self.property(table[key], recurse)}")
        return self.reduce(output, open_, close, recurse, items if is_array else None)

    def property(self, value: Value, recurse: int) -> str:
        self.indentation += 2
        try:
            return self.value(value, recurse)
        finally:
            self.indentation -= 2

    def reduce(
        self, output: list[str], open_: str, close: str, recurse: int, items: list[Value] | None
    ) -> str:
        entries = len(output)
        if items is not None and entries > 6:
            output = self.group(output, items)
        if self.current_depth - recurse < COMPACT and entries == len(output):
            start = len(output) + self.indentation + len(open_) + 10
            if self.below_break_length(output, start):
                joined = ", ".join(output)
                if "\n" not in joined:
                    return f"{open_} {joined} {close}"
        indentation = "\n" + " " * self.indentation
        return (
            f"{open_}{indentation}  " + f",{indentation}  ".join(output) + f"{indentation}{close}"
        )

    @staticmethod
    def below_break_length(output: list[str], start: int) -> bool:
        total = len(output) + start
        if total + len(output) > BREAK_LENGTH:
            return False
        for entry in output:
            total += len(entry)
            if total > BREAK_LENGTH:
                return False
        return True

    def group(self, output: list[str], items: list[Value]) -> list[str]:
        """``groupArrayElements``: short entries of a long array in aligned columns."""
        separator = 2
        lengths = [len(entry) for entry in output]
        total = sum(length + separator for length in lengths)
        longest = max(lengths)
        actual = longest + separator
        if not (
            actual * 3 + self.indentation < BREAK_LENGTH and (total / actual > 5 or longest <= 6)
        ):
            return output
        bias = math.sqrt(actual - total / len(output))
        biased = max(actual - 3 - bias, 1)
        columns = min(
            _js_round(math.sqrt(2.5 * biased * len(output)) / biased),
            (BREAK_LENGTH - self.indentation) // actual,
            COMPACT * 4,
            15,
        )
        if columns <= 1:
            return output
        widths = [
            max(lengths[j] for j in range(i, len(output), columns)) + separator
            for i in range(columns)
        ]
        numbers = all(is_number(item) for item in items)
        grouped = []
        for i in range(0, len(output), columns):
            last = min(i + columns, len(output))
            line = ""
            for j in range(i, last - 1):
                cell = f"{output[j]}, "
                line += cell.rjust(widths[j - i]) if numbers else cell.ljust(widths[j - i])
            j = last - 1
            line += output[j].rjust(widths[j - i] - separator) if numbers else output[j]
            grouped.append(line)
        return grouped


def _js_round(x: float) -> int:
    return math.floor(x + 0.5)


def format_log(args: list[Value]) -> str:
    """What ``console.log(...args)`` prints; raises ``Unmodelled`` for what it cannot follow."""
    if args and isinstance(args[0], str) and "%" in args[0] and len(args) > 1:
        raise Unmodelled("a format string with %")
    parts = []
    for value in args:
        parts.append(value if isinstance(value, str) else Inspector().value(value, 0))
    return " ".join(parts)


def console_log(transcript: Transcript) -> Builtin:
    """A ``console.log`` that prints into ``transcript``, warning at a value it cannot print
    as node would."""

    def log(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            text = format_log(args)
        except Unmodelled as unmodelled:
            ctx.warning("conformance.console", f"console.log of {unmodelled}")
            text = " ".join(ctx.interp.dialect.to_string(v) for v in args)
        before = ctx.interp.reporter.warning_count()
        for line in text.split("\n"):
            transcript.lines.append(Printed(line, before))
        return UNDEFINED

    return Builtin("console.log", log)
