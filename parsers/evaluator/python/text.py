"""Python's text of values: ``str()``, ``repr()``, ``format()``, f-strings and ``str.format``,
as CPython writes them.

Plain values are written by Python itself (``repr`` of a float, of a string); containers item by
item; numpy arrays by numpy; instances of user classes through their own ``__str__``/``__repr__``,
else as the dataclass, named tuple, enum member or exception they are. What has no text that
can be known statically (an object's address in ``<Foo object at 0x...>``, an unknown value)
is an ``Unknown`` saying why, never a made-up text.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import (
    UNDEFINED,
    Builtin,
    ClassValue,
    EngineClass,
    Record,
    Unknown,
    Value,
    type_name,
)
from parsers.evaluator.python import numpy_lib as npl
from parsers.evaluator.python.classes import (
    call_method,
    enum_kind,
    fields_of,
    has_method,
    is_exception,
    marker,
    namedtuple_values,
)

#: Deeper nesting than this in one value is written as CPython writes a cycle.
_MAX_DEPTH = 60


class _Unwritable(Exception):
    """A part of the value has no text that can be known; carries the reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def py_str(ctx: CallContext, value: Value) -> str | Unknown:
    """``str(value)``."""
    try:
        return _text(ctx, value, False, 0)
    except _Unwritable as error:
        return Unknown(error.reason, ctx.line)


def py_repr(ctx: CallContext, value: Value) -> str | Unknown:
    """``repr(value)``."""
    try:
        return _text(ctx, value, True, 0)
    except _Unwritable as error:
        return Unknown(error.reason, ctx.line)


def plain_text(value: Value) -> str | None:
    """``str(value)`` of plain data (no object whose text needs the script), else None."""
    if not is_plain(value):
        return None
    try:
        return _text(None, value, False, 0)
    except _Unwritable:
        return None


def py_format(ctx: CallContext, value: Value, spec: str) -> str | Unknown:
    """``format(value, spec)`` (an f-string's ``{value:spec}``)."""
    if isinstance(value, Unknown):
        return value
    if isinstance(value, Record):
        inner = _enum_or_plain(value)
        if inner is not value:
            return py_format(ctx, inner, spec)
        if not spec:
            return py_str(ctx, value)
        if npl.is_array(value):
            return Unknown("an array formatted with a format specification", ctx.line)
        return Unknown(f"a {type_name(value)} formatted with {spec!r}", ctx.line)
    if value is UNDEFINED:
        value = None
    if not spec:
        return py_str(ctx, value)
    if isinstance(value, int | float | str | bool) or value is None:
        try:
            return format(value, spec)
        except (TypeError, ValueError) as error:
            return Unknown(f"format {spec!r}: {error}", ctx.line)
    return Unknown(f"a {type_name(value)} formatted with {spec!r}", ctx.line)


def _enum_or_plain(record: Record) -> Value:
    """An ``IntEnum`` member formats as its number (``format(Level.HIGH)`` is ``'5'``)."""
    if enum_kind(record.cls) in ("IntEnum", "IntFlag", "StrEnum"):
        return record.fields.get("value")
    return record


def _text(ctx: CallContext | None, value: Value, as_repr: bool, depth: int) -> str:
    if depth > _MAX_DEPTH:
        raise _Unwritable("a value nested too deeply to write")
    kind = type(value)
    if kind is str:
        return repr(value) if as_repr else value
    if kind is float or kind is int or kind is bool:
        return repr(value)
    if value is None or value is UNDEFINED:
        return "None"
    if kind is list:
        return "[" + ", ".join(_text(ctx, v, True, depth + 1) for v in value) + "]"
    if kind is tuple:
        items = [_text(ctx, v, True, depth + 1) for v in value]
        return "(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    if kind is dict:
        return _dict_text(ctx, value, depth)
    if kind is set or kind is frozenset:
        return _set_text(ctx, value, depth)
    if kind is range:
        return repr(value)
    if isinstance(value, Unknown):
        raise _Unwritable(value.reason)
    if isinstance(value, Record):
        if ctx is None:
            raise _Unwritable("an object's text needs the script")
        return _record_text(ctx, value, as_repr, depth)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, ClassValue):
        return f"<class '__main__.{value.name}'>"
    if isinstance(value, Builtin) and value.name in (
        "int",
        "float",
        "str",
        "list",
        "dict",
        "tuple",
        "bool",
        "set",
    ):
        return f"<class '{value.name}'>"
    if isinstance(value, EngineClass):
        raise _Unwritable(f"the text of the class {value.name} is not modelled")
    raise _Unwritable(f"the text of a {type_name(value)} holds its address in memory")


def _dict_text(ctx: CallContext | None, value: Mapping[Any, Value], depth: int) -> str:
    parts = [
        _text(ctx, k, True, depth + 1) + ": " + _text(ctx, v, True, depth + 1)
        for k, v in value.items()
    ]
    return "{" + ", ".join(parts) + "}"


def _set_text(ctx: CallContext | None, value: set[Any] | frozenset[Any], depth: int) -> str:
    if any(isinstance(v, str) for v in value):
        # CPython orders a set of strings by their hashes, which change from run to run.
        raise _Unwritable("the order of a set of strings differs from run to run")
    items = ", ".join(_text(ctx, v, True, depth + 1) for v in value)
    if isinstance(value, frozenset):
        return f"frozenset({{{items}}})" if value else "frozenset()"
    return "{" + items + "}" if value else "set()"


def _record_text(ctx: CallContext, record: Record, as_repr: bool, depth: int) -> str:
    if npl.is_array(record):
        array = np.asarray(record.native)
        return repr(array) if as_repr else str(array)
    cls = record.cls
    if cls is None:
        raise _Unwritable(f"the text of a {type_name(record)} is not modelled")
    for name in ("__repr__",) if as_repr else ("__str__", "__repr__"):
        if has_method(record, name):
            text = call_method(ctx, record, name, [])
            if isinstance(text, str):
                return text
            raise _Unwritable(text.reason if isinstance(text, Unknown) else f"{name} gives no text")
    kind = enum_kind(cls)
    if kind is not None:
        member, value = record.fields.get("name"), record.fields.get("value")
        if as_repr:
            return f"<{cls.name}.{member}: {_text(ctx, value, True, depth + 1)}>"
        if kind in ("IntEnum", "IntFlag", "StrEnum"):
            return _text(ctx, value, False, depth + 1)
        return f"{cls.name}.{member}"
    if is_exception(record):
        return _exception_text(ctx, record, as_repr, depth)
    fields = fields_of(record)
    if fields is not None and (marker(cls, "%namedtuple") is True or _dataclass_repr(cls)):
        values = namedtuple_values(record)
        shown = zip(
            fields,
            values if values is not None else (record.fields.get(f) for f in fields),
            strict=False,
        )
        items = ", ".join(
            f"{f}={_text(ctx, v, True, depth + 1)}" for f, v in shown if _in_repr(cls, f)
        )
        return f"{cls.name}({items})"
    raise _Unwritable(f"the text of a {cls.name} object holds its address in memory")


def _dataclass_repr(cls: ClassValue) -> bool:
    options = marker(cls, "%dataclass")
    return isinstance(options, dict) and options.get("repr", True) is not False


def _in_repr(cls: ClassValue, field: str) -> bool:
    hidden = marker(cls, "%hidden_fields")
    return not (isinstance(hidden, tuple) and field in hidden)


def _exception_text(ctx: CallContext, record: Record, as_repr: bool, depth: int) -> str:
    args = record.fields.get("args", ())
    items = list(args) if isinstance(args, list | tuple) else [args]
    name = record.cls.name if record.cls is not None else "Exception"
    if as_repr:
        return f"{name}({', '.join(_text(ctx, a, True, depth + 1) for a in items)})"
    if not items:
        return ""
    if len(items) == 1:
        key_error = record.cls is not None and _is_key_error(record.cls)
        return _text(ctx, items[0], key_error, depth + 1)
    return _text(ctx, tuple(items), True, depth + 1)


def _is_key_error(cls: ClassValue) -> bool:
    current: Value = cls
    while isinstance(current, ClassValue):
        if current.name == "KeyError" and current.find_static("%exception") is not None:
            return True
        current = current.base
    return False


class _Formatter(string.Formatter):
    """``str.format`` over evaluator values: fields, conversions and specs written as
    ``py_str``/``py_repr``/``py_format`` write them."""

    def __init__(self, ctx: CallContext) -> None:
        self.ctx = ctx

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        first, rest = string._string.formatter_field_name_split(field_name)  # type: ignore[attr-defined]
        value = self.get_value(first, args, kwargs)
        for is_attribute, key in rest:
            value = self.ctx.member(value, key) if is_attribute else _item(self.ctx, value, key)
        return value, first

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is None:
            return value
        text = py_repr(self.ctx, value) if conversion in ("r", "a") else py_str(self.ctx, value)
        if isinstance(text, Unknown):
            raise _Unwritable(text.reason)
        return text

    def format_field(self, value: Any, format_spec: str) -> str:
        text = py_format(self.ctx, value, format_spec)
        if isinstance(text, Unknown):
            raise _Unwritable(text.reason)
        return text


def _item(ctx: CallContext, value: Value, key: Any) -> Value:
    return ctx.interp.dialect.get_index(ctx, value, key)


def str_format(
    ctx: CallContext, template: str, args: list[Value], kwargs: dict[str, Value]
) -> str | Unknown:
    """``template.format(*args, **kwargs)``."""
    try:
        return _Formatter(ctx).vformat(template, args, kwargs)
    except _Unwritable as error:
        return Unknown(error.reason, ctx.line)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError) as error:
        return Unknown(f"a format string that cannot be filled ({error})", ctx.line)


def is_plain(value: Value, depth: int = 0) -> bool:
    """Whether Python itself writes ``value`` as CPython would (plain data only)."""
    if value is None or isinstance(value, bool | int | float | str | range):
        return True
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, list | tuple):
        return all(is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(is_plain(k, depth + 1) and is_plain(v, depth + 1) for k, v in value.items())
    return False
