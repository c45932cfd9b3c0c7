"""The members of JavaScript's plain values for the JavaScript dialect: array methods
(``push``, ``forEach``/``map``/``filter`` callbacks under the loop cap, ``reduce``, ``splice``,
``sort`` with the default string order or a comparator...), string methods, number methods
(``toFixed``, ``toString(radix)``, ``toPrecision``, ``toExponential``), and
``call``/``apply``/``bind`` of functions.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any, Final, Literal

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.registry import registering
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    Unknown,
    Value,
    is_number,
)
from parsers.evaluator.javascript.numerics import (
    JS_WHITESPACE,
    radix_text,
    to_exponential_text,
    to_fixed_text,
    to_precision_text,
)

if TYPE_CHECKING:
    from parsers.evaluator.javascript.lib import JavaScript

Method = Callable[[CallContext, Any, list[Value], dict[str, Value]], Value]


def dialect_of(ctx: CallContext) -> JavaScript:
    """The dialect the calling interpreter runs with. The library's tables are built once per
    process and shared, so a built-in finds its dialect (its frozen objects, its interpreter
    for user ``toString``) through the call."""
    return ctx.interp.dialect  # type: ignore[return-value]  # only JavaScript installs them


class JsIterator:
    """What ``entries()``, ``keys()`` and ``values()`` return: iterable, spreadable, and
    stepped by ``next()``. Iterating it consumes it, as in JavaScript."""

    __slots__ = ("items", "position")

    def __init__(self, items: list[Value]) -> None:
        self.items = items
        self.position = 0

    def __iter__(self) -> JsIterator:
        return self

    def __next__(self) -> Value:
        if self.position >= len(self.items):
            raise StopIteration
        self.position += 1
        return self.items[self.position - 1]

    def step(self) -> Value:
        """``next()``: ``{value, done}``."""
        for item in self:
            return {"value": item, "done": False}
        return {"value": UNDEFINED, "done": True}


class TypedArray(list[Value]):
    """A typed array (``Float32Array``...): a plain array to the evaluator and the engines,
    whose elements are stored as the type stores them (``convert``) and whose length is
    fixed."""

    __slots__ = ("convert", "kind")

    def __init__(
        self, kind: str, convert: Callable[[float], float], items: Iterable[Value]
    ) -> None:
        super().__init__(items)
        self.kind = kind
        self.convert = convert


class _Undecided(Exception):
    """A sort comparator gave a value that cannot be known."""


def _digits(ctx: CallContext, value: Value, what: str, low: int, high: int) -> int | None:
    """An integer argument of a number method, None when out of range (a RangeError)."""
    number = ctx.number(value, what, 0.0)
    count = math.trunc(number)
    return count if low <= count <= high else None


def stored_element(js: JavaScript, array: TypedArray, value: Value) -> Value:
    """``value`` as the typed array stores it (an unknown stays unknown)."""
    if isinstance(value, Unknown):
        return value
    number = js.to_number(value)
    return array.convert(math.nan if number is None else number)


def number_methods() -> dict[str, Builtin]:
    def to_fixed(ctx: CallContext, n: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        digits = _digits(ctx, arg(args, 0), "toFixed digits", 0, 100)
        if digits is None:
            return Unknown("toFixed with digits out of range throws a RangeError", ctx.line)
        return to_fixed_text(n, digits)

    def to_string(ctx: CallContext, n: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        js = dialect_of(ctx)
        if arg(args, 0) is UNDEFINED:
            return js.to_string(n)
        radix = _digits(ctx, arg(args, 0), "toString radix", 2, 36)
        if radix is None:
            return Unknown("toString with a radix out of range throws a RangeError", ctx.line)
        return radix_text(n, radix)

    def to_precision(
        ctx: CallContext, n: Any, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        js = dialect_of(ctx)
        if arg(args, 0) is UNDEFINED or not math.isfinite(n):
            return js.to_string(n)
        precision = _digits(ctx, arg(args, 0), "toPrecision precision", 1, 100)
        if precision is None:
            return Unknown("toPrecision out of range throws a RangeError", ctx.line)
        return to_precision_text(n, precision)

    def to_exponential(
        ctx: CallContext, n: Any, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        if arg(args, 0) is UNDEFINED:
            return to_exponential_text(n, None)
        fraction = _digits(ctx, arg(args, 0), "toExponential digits", 0, 100)
        if fraction is None:
            return Unknown("toExponential out of range throws a RangeError", ctx.line)
        return to_exponential_text(n, fraction)

    table: dict[str, Method] = {
        "toFixed": to_fixed,
        "toString": to_string,
        "toPrecision": to_precision,
        "toExponential": to_exponential,
        "valueOf": lambda ctx, n, args, kwargs: n,
    }
    return {name: Builtin(f"Number.{name}", fn) for name, fn in table.items()}


def _callback(
    ctx: CallContext, fn: Value, items: list[Value], receiver: Value, limit_note: str
) -> Iterable[tuple[int, Value, Value]]:
    """Call ``fn(item, index, array)`` for each item, within the loop cap."""
    limit = ctx.interp.limits.max_loop_iterations
    for i, item in enumerate(items):
        if i >= limit:
            ctx.warning("eval.loop_limit", f"{limit_note} stopped after {limit} items")
            return
        ctx.interp.budget.step()
        yield i, item, ctx.call(fn, [item, float(i), receiver])


#: The members of arrays by name (``push``, ``map``...), registered by ``@array_method`` in the
#: order ``list_methods`` lists them.
ARRAY_METHODS: Final[dict[str, Method]] = {}


#: ``@array_method("push")``: the decorated function is that member of arrays.
array_method = registering(ARRAY_METHODS)


def _start_index(ctx: CallContext, value: Value, length: int, default: int) -> int:
    """A relative index argument (negative counts from the end), clamped to the array."""
    if value is UNDEFINED:
        return default
    number = ctx.number(value, "array index", 0.0)
    index = math.trunc(number) if math.isfinite(number) else (length if number > 0 else 0)
    return max(0, length + index) if index < 0 else min(index, length)


def _flatten(items: Iterable[Value], depth: float, into: list[Value], limit: int) -> None:
    for item in items:
        if len(into) >= limit:
            return
        if isinstance(item, list) and depth >= 1:
            _flatten(item, depth - 1, into, limit)
        else:
            into.append(item)


def _ordered(ctx: CallContext, items: list[Value], fn: Value) -> list[Value] | None:
    """``items`` in the order ``array_sort(fn)`` gives (stable; undefined last), or None with a
    warning when the order cannot be known."""
    js = dialect_of(ctx)
    present = [v for v in items if v is not UNDEFINED]
    missing = [UNDEFINED] * (len(items) - len(present))
    if len(items) > ctx.interp.limits.max_loop_iterations:
        ctx.warning("eval.loop_limit", "an array too long to sort; order kept")
        return None
    if fn is UNDEFINED:
        if any(isinstance(v, Unknown) for v in present):
            ctx.warning(
                "eval.unknown_value",
                "sort of values that cannot be known statically; order kept",
            )
            return None
        return sorted(present, key=js.to_string) + missing

    def compare(a: Value, b: Value) -> int:
        result = ctx.call(fn, [a, b])
        if isinstance(result, Unknown):
            raise _Undecided(result.reason)
        number = js.to_number(result)
        if number is None or math.isnan(number) or number == 0:
            return 0
        return -1 if number < 0 else 1

    try:
        return sorted(present, key=cmp_to_key(compare)) + missing
    except _Undecided as undecided:
        ctx.warning(
            "eval.unknown_value",
            f"sort comparator cannot be decided statically ({undecided}); order kept",
        )
        return None


@array_method("push")
def array_push(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if isinstance(lst, list):
        if len(lst) + len(args) > ctx.interp.limits.max_collection:
            ctx.warning("eval.too_large", "an array grows too large; push ignored")
        else:
            lst.extend(args)
        return float(len(lst))
    return UNDEFINED


@array_method("pop")
def array_pop(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return lst.pop() if isinstance(lst, list) and lst else UNDEFINED


@array_method("shift")
def array_shift(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return lst.pop(0) if isinstance(lst, list) and lst else UNDEFINED


@array_method("unshift")
def array_unshift(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if isinstance(lst, list):
        lst[0:0] = args
    return float(len(lst))


@array_method("forEach")
def array_for_each(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    for _ in _callback(ctx, arg(args, 0), list(lst), lst, "forEach"):
        pass
    return UNDEFINED


@array_method("map")
def array_map(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    mapped = [result for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "map")]
    if isinstance(lst, TypedArray):  # a typed array maps to one of its type
        return TypedArray(lst.kind, lst.convert, [stored_element(js, lst, v) for v in mapped])
    return mapped


@array_method("filter")
def array_filter(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    kept = []
    for _, item, result in _callback(ctx, arg(args, 0), list(lst), lst, "filter"):
        truth = js.truthy(result)
        if truth is None:
            ctx.warning(
                "eval.unknown_condition",
                "filter condition cannot be decided statically; item kept",
            )
        if truth is not False:
            kept.append(item)
    return kept


@array_method("find")
def array_find(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    for _, item, result in _callback(ctx, arg(args, 0), list(lst), lst, "find"):
        if js.truthy(result):
            return item
    return UNDEFINED


@array_method("findIndex")
def array_find_index(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    js = dialect_of(ctx)
    for i, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "findIndex"):
        if js.truthy(result):
            return float(i)
    return -1.0


@array_method("some")
def array_some(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    return any(
        js.truthy(result) for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "some")
    )


@array_method("every")
def array_every(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    return all(
        js.truthy(result) for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "every")
    )


@array_method("reduce")
def array_reduce(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    items = list(lst)
    fn = arg(args, 0)
    if len(args) > 1:
        acc = args[1]
    elif items:
        acc = items.pop(0)
    else:
        return Unknown("reduce of an empty array")
    for i, item in enumerate(items[: ctx.interp.limits.max_loop_iterations]):
        ctx.interp.budget.step()
        acc = ctx.call(fn, [acc, item, float(i), lst])
    return acc


@array_method("slice")
def array_slice(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    n = len(lst)
    start = int(ctx.number(arg(args, 0), "slice start", 0))
    end = int(ctx.number(arg(args, 1), "slice end", n)) if arg(args, 1) is not UNDEFINED else n
    result = lst[start:end]
    return list(result) if not isinstance(result, str) else result


@array_method("concat")
def array_concat(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    result = list(lst)
    for part in args:
        if isinstance(part, list | tuple):
            result.extend(part)
        else:
            result.append(part)
    return result[: ctx.interp.limits.max_collection]


@array_method("indexOf")
def array_index_of(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    js = dialect_of(ctx)
    target = arg(args, 0)
    for i in range(_start_index(ctx, arg(args, 1), len(lst), 0), len(lst)):
        if js._strict_equals(lst[i], target):
            return float(i)
    return -1.0


@array_method("lastIndexOf")
def array_last_index_of(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    js = dialect_of(ctx)
    target = arg(args, 0)
    start = len(lst) - 1
    if len(args) > 1:
        number = ctx.number(args[1], "lastIndexOf start", 0.0)
        start = (
            min(math.trunc(number), len(lst) - 1) if number >= 0 else len(lst) + math.trunc(number)
        )
    for i in range(start, -1, -1):
        if js._strict_equals(lst[i], target):
            return float(i)
    return -1.0


@array_method("includes")
def array_includes(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    target = arg(args, 0)
    if is_number(target) and math.isnan(target):  # SameValueZero: NaN is found
        return any(is_number(v) and math.isnan(v) for v in lst)
    return array_index_of(ctx, lst, [target, arg(args, 1)], kwargs) != -1.0


def _last_match(ctx: CallContext, lst: Any, args: list[Value]) -> int:
    """The index of the last element the callback accepts, or -1 (``findLast``'s search)."""
    js = dialect_of(ctx)
    for i in range(len(lst) - 1, -1, -1):
        ctx.interp.budget.step()
        if js.truthy(ctx.call(arg(args, 0), [lst[i], float(i), lst])):
            return i
    return -1


@array_method("findLast")
def array_find_last(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    found = _last_match(ctx, lst, args)
    return lst[found] if found >= 0 else UNDEFINED


@array_method("findLastIndex")
def array_find_last_index(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return float(_last_match(ctx, lst, args))


@array_method("reduceRight")
def array_reduce_right(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    items = list(lst)
    fn = arg(args, 0)
    indices = list(range(len(items) - 1, -1, -1))
    if len(args) > 1:
        acc = args[1]
    elif items:
        acc = items[indices.pop(0)]
    else:
        return Unknown("reduceRight of an empty array throws a TypeError")
    for i in indices[: ctx.interp.limits.max_loop_iterations]:
        ctx.interp.budget.step()
        acc = ctx.call(fn, [acc, items[i], float(i), lst])
    return acc


@array_method("toSorted")
def array_to_sorted(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    result = _ordered(ctx, list(lst), arg(args, 0))
    return Unknown("toSorted of values whose order cannot be known") if result is None else result


@array_method("toString")
def array_to_string(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return dialect_of(ctx).to_string(lst)


@array_method("set")
def array_set_from(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """A typed array's ``set(values, offset)`` (typed arrays are plain arrays here)."""
    js = dialect_of(ctx)
    source = js.iterate(arg(args, 0), "of")
    offset = 0 if arg(args, 1) is UNDEFINED else int(ctx.number(arg(args, 1), "offset", 0))
    if source is None or not isinstance(lst, list):
        ctx.warning("eval.unknown_value", "set() of values that cannot be known; ignored")
        return UNDEFINED
    values = list(source)
    if offset < 0 or offset + len(values) > len(lst):
        return Unknown("set() past the end of the array throws a RangeError", ctx.line)
    if isinstance(lst, TypedArray):
        values = [stored_element(js, lst, v) for v in values]
    lst[offset : offset + len(values)] = values
    return UNDEFINED


@array_method("toReversed")
def array_to_reversed(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return list(reversed(lst))


@array_method("join")
def array_join(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    separator = arg(args, 0)
    sep = "," if separator is UNDEFINED else js.to_string(separator)
    if any(isinstance(v, Unknown) for v in lst):
        return Unknown("join of unknown values")
    return sep.join("" if v is None or v is UNDEFINED else js.to_string(v) for v in lst)


@array_method("reverse")
def array_reverse(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if isinstance(lst, list):
        lst.reverse()
    return lst


@array_method("fill")
def array_fill(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    if isinstance(lst, list):
        start = _start_index(ctx, arg(args, 1), len(lst), 0)
        end = _start_index(ctx, arg(args, 2), len(lst), len(lst))
        value = (
            stored_element(js, lst, arg(args, 0)) if isinstance(lst, TypedArray) else arg(args, 0)
        )
        for i in range(start, end):
            lst[i] = value
    return lst


@array_method("flat")
def array_flat(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    depth = 1.0 if arg(args, 0) is UNDEFINED else js.to_number(arg(args, 0))
    if depth is None or math.isnan(depth):
        depth = 0.0
    result: list[Value] = []
    _flatten(lst, min(depth, 64.0), result, ctx.interp.limits.max_collection)
    return result


@array_method("flatMap")
def array_flat_map(
    ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return array_flat(ctx, array_map(ctx, lst, args, kwargs), [], {})


@array_method("at")
def array_at(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    i = int(ctx.number(arg(args, 0), "at index", 0))
    return lst[i] if -len(lst) <= i < len(lst) else UNDEFINED


@array_method("splice")
def array_splice(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if not isinstance(lst, list):
        return []
    start = int(ctx.number(arg(args, 0), "splice start", 0))
    if start < 0:
        start = max(0, len(lst) + start)
    count = (
        len(lst) - start if len(args) < 2 else max(0, int(ctx.number(args[1], "splice count", 0)))
    )
    removed = lst[start : start + count]
    lst[start : start + count] = args[2:]
    return removed


@array_method("sort")
def array_sort(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if isinstance(lst, list):
        result = _ordered(ctx, lst, arg(args, 0))
        if result is not None:
            lst[:] = result
    return lst


@array_method("entries")
def array_entries(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return JsIterator([[float(i), v] for i, v in enumerate(lst)])


@array_method("keys")
def array_keys(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return JsIterator([float(i) for i in range(len(lst))])


@array_method("values")
def array_values(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return JsIterator(list(lst))


def list_methods() -> dict[str, Builtin]:
    return {name: Builtin(f"Array.{name}", fn) for name, fn in ARRAY_METHODS.items()}


_COLLATABLE = re.compile(r"[A-Za-z0-9 ]*")
#: A pattern ``search`` reads as plain text (no regular expression syntax).
_PLAIN_PATTERN = re.compile(r"[^\\^$.*+?()[\]{}|/]*")


#: ``normalize``'s forms (none given: NFC).
_FORMS: dict[str, Literal["NFC", "NFD", "NFKC", "NFKD"]] = {
    "": "NFC",
    "NFC": "NFC",
    "NFD": "NFD",
    "NFKC": "NFKC",
    "NFKD": "NFKD",
}


def _collation_key(text: str) -> tuple[str, str]:
    return text.lower(), text.swapcase()


#: The members of strings by name (``split``, ``padStart``...), registered by
#: ``@string_method`` in the order ``string_methods`` lists them.
STRING_METHODS: Final[dict[str, Method]] = {}


#: ``@string_method("trimStart", "trimLeft")``: the decorated function is those members of strings.
string_method = registering(STRING_METHODS)


def _text_arg(ctx: CallContext, args: list[Value], i: int) -> str:
    value = arg(args, i)
    return "" if value is UNDEFINED else dialect_of(ctx).to_string(value)


def _position(ctx: CallContext, value: Value, length: int, default: int) -> int:
    """A position argument (ToIntegerOrInfinity), clamped to 0..length."""
    js = dialect_of(ctx)
    if value is UNDEFINED:
        return default
    number = js.to_number(value)
    if number is None or math.isnan(number):
        return 0
    return max(
        0,
        min(
            length,
            math.trunc(number) if math.isfinite(number) else int(math.copysign(length, number)),
        ),
    )


def _relative(ctx: CallContext, value: Value, length: int, default: int) -> int:
    """A relative position (negative counts from the end), clamped to 0..length."""
    js = dialect_of(ctx)
    if value is UNDEFINED:
        return default
    number = js.to_number(value)
    if number is None or math.isnan(number):
        return 0
    index = math.trunc(number) if math.isfinite(number) else int(math.copysign(length, number))
    return max(0, length + index) if index < 0 else min(index, length)


def _pad(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value], start: bool
) -> Value:
    width = min(int(ctx.number(arg(args, 0), "pad width", 0)), 10_000)
    fill = _text_arg(ctx, args, 1) if arg(args, 1) is not UNDEFINED else " "
    if len(s) >= width or not fill:
        return s
    padding = (fill * width)[: width - len(s)]
    return padding + s if start else s + padding


def _replace(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value], every: bool
) -> Value:
    js = dialect_of(ctx)
    pattern, replacement = arg(args, 0), arg(args, 1)
    if not isinstance(pattern, str):
        return Unknown("replace with a regular expression is not followed", ctx.line)
    if not isinstance(replacement, str) and not callable_value(replacement):
        replacement = js.to_string(replacement)
    if isinstance(replacement, str) and "$" in replacement:
        return Unknown("replace with $ patterns is not followed", ctx.line)
    out, start = [], 0
    while True:
        found = s.find(pattern, start) if (start <= len(s)) else -1
        if found < 0:
            break
        out.append(s[start:found])
        if isinstance(replacement, str):
            out.append(replacement)
        else:
            value = ctx.call(replacement, [pattern, float(found), s])
            if isinstance(value, Unknown):
                return value
            out.append(js.to_string(value))
        start = found + len(pattern)
        if not every:
            break
        if not pattern:
            if start < len(s):
                out.append(s[start])
            start += 1
    out.append(s[start:])
    return "".join(out)


def _trim(s: str, start: bool, end: bool) -> Value:
    if start:
        s = s.lstrip(JS_WHITESPACE)
    return s.rstrip(JS_WHITESPACE) if end else s


@string_method("toUpperCase")
def string_to_upper_case(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.upper()


@string_method("toLowerCase")
def string_to_lower_case(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.lower()


@string_method("trim")
def string_trim(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _trim(s, True, True)


@string_method("trimStart", "trimLeft")
def string_trim_start(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return _trim(s, True, False)


@string_method("trimEnd", "trimRight")
def string_trim_end(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _trim(s, False, True)


@string_method("includes")
def string_includes(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return s.find(_text_arg(ctx, args, 0), _position(ctx, arg(args, 1), len(s), 0)) >= 0


@string_method("startsWith")
def string_starts_with(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.startswith(_text_arg(ctx, args, 0), _position(ctx, arg(args, 1), len(s), 0))


@string_method("endsWith")
def string_ends_with(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s[: _position(ctx, arg(args, 1), len(s), len(s))].endswith(_text_arg(ctx, args, 0))


@string_method("indexOf")
def string_index_of(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return float(s.find(_text_arg(ctx, args, 0), _position(ctx, arg(args, 1), len(s), 0)))


@string_method("lastIndexOf")
def string_last_index_of(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    needle = _text_arg(ctx, args, 0)
    start = _position(ctx, arg(args, 1), len(s), len(s))
    return float(s.rfind(needle, 0, start + len(needle)))


@string_method("charAt")
def string_char_at(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    number = js.to_number(arg(args, 0)) if arg(args, 0) is not UNDEFINED else 0.0
    i = math.trunc(number) if number is not None and math.isfinite(number) else -1
    return s[i] if 0 <= i < len(s) else ""


@string_method("charCodeAt")
def string_char_code_at(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    char = string_char_at(ctx, s, args, kwargs)
    if not char:
        return math.nan
    code = ord(char)
    if code > 0xFFFF:
        return Unknown("a UTF-16 code unit of a character outside the basic plane", ctx.line)
    return float(code)


@string_method("codePointAt")
def string_code_point_at(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return float(ord(c)) if (c := string_char_at(ctx, s, args, kwargs)) else UNDEFINED


@string_method("at")
def string_at(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    i = int(ctx.number(arg(args, 0), "at index", 0))
    return s[i] if -len(s) <= i < len(s) else UNDEFINED


@string_method("replace")
def string_replace(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _replace(ctx, s, args, kwargs, False)


@string_method("replaceAll")
def string_replace_all(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return _replace(ctx, s, args, kwargs, True)


@string_method("search")
def string_search(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    pattern = arg(args, 0)
    if isinstance(pattern, str) and _PLAIN_PATTERN.fullmatch(pattern):
        return float(s.find(pattern))
    return Unknown("search with a regular expression is not followed", ctx.line)


@string_method("localeCompare")
def string_locale_compare(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    other = _text_arg(ctx, args, 0)
    if not (_COLLATABLE.fullmatch(s) and _COLLATABLE.fullmatch(other)):
        return Unknown("localeCompare of text beyond letters, digits and spaces", ctx.line)
    a, b = _collation_key(s), _collation_key(other)
    return float((a > b) - (a < b))


@string_method("normalize")
def string_normalize(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return (
        unicodedata.normalize(_FORMS[_text_arg(ctx, args, 0)], s)
        if _text_arg(ctx, args, 0) in _FORMS
        else Unknown("normalize with an unknown form throws a RangeError")
    )


@string_method("concat")
def string_concat(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return s + "".join(dialect_of(ctx).to_string(v) for v in args)


@string_method("toString", "valueOf")
def string_value_of(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return s


@string_method("repeat")
def string_repeat(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    count = int(ctx.number(arg(args, 0), "repeat count", 0))
    if count * len(s) > 1_000_000 or count < 0:
        return Unknown("a string too long to build")
    return s * count


@string_method("padStart")
def string_pad_start(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return _pad(ctx, s, args, kwargs, True)


@string_method("padEnd")
def string_pad_end(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _pad(ctx, s, args, kwargs, False)


@string_method("split")
def string_split(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    separator = arg(args, 0)
    limit = arg(args, 1)
    count = (
        2**32 - 1 if limit is UNDEFINED else int(ctx.number(limit, "split limit", 0)) & 0xFFFFFFFF
    )
    if separator is UNDEFINED:
        return [s][:count]
    sep = js.to_string(separator)
    parts = list(s) if sep == "" else s.split(sep)
    return parts[:count]


@string_method("slice")
def string_slice(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    start = _relative(ctx, arg(args, 0), len(s), 0)
    end = _relative(ctx, arg(args, 1), len(s), len(s))
    return s[start:end]


@string_method("substring")
def string_substring(
    ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    a = _position(ctx, arg(args, 0), len(s), 0)
    b = _position(ctx, arg(args, 1), len(s), len(s))
    return s[min(a, b) : max(a, b)]


@string_method("substr")
def string_substr(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
    start = _relative(ctx, arg(args, 0), len(s), 0)
    length = _position(ctx, arg(args, 1), len(s), len(s))
    return s[start : start + length]


def string_methods() -> dict[str, Builtin]:
    return {name: Builtin(f"String.{name}", fn) for name, fn in STRING_METHODS.items()}


def callable_value(value: Value) -> bool:
    return isinstance(value, Closure | Builtin | BoundMethod | ClassValue)


def function_methods() -> dict[str, Builtin]:
    def call(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return ctx.interp.call_value(fn, list(args[1:]), {}, ctx.line, ctx.col, arg(args, 0))

    def apply(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        rest = arg(args, 1)
        items = list(rest) if isinstance(rest, list | tuple) else []
        return ctx.interp.call_value(fn, items, {}, ctx.line, ctx.col, arg(args, 0))

    def bind(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(fn, Closure) and not args[1:]:
            return Closure(fn.fn, fn.env, fn.home, arg(args, 0))
        bound_args = list(args[1:])
        this = arg(args, 0)
        return Builtin(
            "bound",
            lambda c, a, k: c.interp.call_value(fn, [*bound_args, *a], k, c.line, c.col, this),
        )

    return {
        "call": Builtin("call", call),
        "apply": Builtin("apply", apply),
        "bind": Builtin("bind", bind),
    }


def generator_methods() -> dict[str, Builtin]:
    """``next(v)``, ``return(v)`` and ``throw(e)`` of a generator object: each step is
    ``{value, done}``."""

    def step(ctx: CallContext, gen: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if gen.done:
            return {"value": UNDEFINED, "done": True}
        try:
            item = gen.send(arg(args, 0))
        except StopIteration:
            result, gen.result = gen.result, UNDEFINED
            return {"value": result, "done": True}
        return {"value": item, "done": False}

    def finish(ctx: CallContext, gen: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if not gen.done:
            ctx.warning(
                "eval.unsupported",
                "return() of a suspended generator ends it without running its finally blocks",
            )
            gen.abandon()
        return {"value": arg(args, 0), "done": True}

    def throw(ctx: CallContext, gen: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("throw() into a generator is not followed", ctx.line)

    return {
        "next": Builtin("Generator.next", step),
        "return": Builtin("Generator.return", finish),
        "throw": Builtin("Generator.throw", throw),
    }
