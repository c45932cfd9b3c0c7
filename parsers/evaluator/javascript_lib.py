"""JavaScript semantics for the evaluator: numbers are doubles, ``+`` concatenates strings,
empty arrays are truthy, and the parts of the standard library scene scripts use
(``Math``, array methods, ``Object.assign``, ``Array.from``, ``Number``, ``String``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from parsers.evaluator.context import CallContext
from parsers.evaluator.dialect import Dialect
from parsers.evaluator.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
)

Method = Callable[[CallContext, Any, list[Value], dict[str, Value]], Value]


def js_number_text(value: float) -> str:
    """``String(n)`` for a JS number (``1`` not ``1.0``, ``1e+21``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if float(value).is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(float(value))
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        return f"{mantissa.removesuffix('.0')}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"
    return text


def _int32(value: float) -> int:
    if not math.isfinite(value):
        return 0
    number = int(value) & 0xFFFFFFFF
    return number - 0x100000000 if number >= 0x80000000 else number


def _arg(args: list[Value], i: int) -> Value:
    return args[i] if i < len(args) else UNDEFINED


class JavaScript(Dialect):
    name = "javascript"

    def __init__(self) -> None:
        self._list_methods = _list_methods(self)
        self._string_methods = _string_methods(self)
        self._function_methods = _function_methods()

    # --- conversions ----------------------------------------------------------------------------
    def truthy(self, value: Value) -> bool | None:
        if isinstance(value, Unknown):
            return None
        if value is None or value is UNDEFINED or value is False:
            return False
        if value is True:
            return True
        if is_number(value):
            return value != 0 and not math.isnan(value)
        if isinstance(value, str):
            return len(value) > 0
        return True

    def to_number(self, value: Value) -> float | None:
        if isinstance(value, bool):
            return float(value)
        if is_number(value):
            return float(value)
        if value is None:
            return 0.0
        if value is UNDEFINED:
            return math.nan
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return 0.0
            try:
                return float(int(text, 16)) if text.lower().startswith("0x") else float(text)
            except ValueError:
                return math.nan
        if isinstance(value, list):
            if not value:
                return 0.0
            if len(value) == 1:
                return self.to_number(value[0])
            return math.nan
        return None if isinstance(value, Unknown) else math.nan

    def to_string(self, value: Value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if is_number(value):
            return js_number_text(float(value))
        if value is None:
            return "null"
        if value is UNDEFINED:
            return "undefined"
        if isinstance(value, str):
            return value
        if isinstance(value, list | tuple):
            return ",".join("" if v is None or v is UNDEFINED else self.to_string(v) for v in value)
        if isinstance(value, dict | Record):
            return "[object Object]"
        return str(value)

    def _primitive(self, value: Value) -> Value:
        if isinstance(value, list | tuple | dict | Record):
            return self.to_string(value)
        return value

    # --- operators --------------------------------------------------------------------------------
    def binary(self, op: str, left: Value, right: Value) -> Value:
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        if op in ("===", "!=="):
            same = self._strict_equals(left, right)
            return same if op == "===" else not same
        if op in ("==", "!="):
            same = self._loose_equals(left, right)
            return same if op == "==" else not same
        if op == "in":
            if isinstance(right, dict):
                return self.to_string(left) in right
            if isinstance(right, Record):
                return isinstance(left, str) and left in right.fields
            if isinstance(right, list):
                number = self.to_number(left)
                return number is not None and number.is_integer() and 0 <= number < len(right)
            return Unknown("'in' on a value that is not an object")
        if op == "+":
            a, b = self._primitive(left), self._primitive(right)
            if isinstance(a, str) or isinstance(b, str):
                text = self.to_string(a) + self.to_string(b)
                return text if len(text) <= 1_000_000 else Unknown("a string too long to build")
            left, right = a, b
        x, y = self.to_number(left), self.to_number(right)
        if x is None or y is None:
            return Unknown(f"{op} on values that are not numbers")
        if op in ("<", "<=", ">", ">="):
            if isinstance(left, str) and isinstance(right, str):
                x_s, y_s = left, right
                return {"<": x_s < y_s, "<=": x_s <= y_s, ">": x_s > y_s, ">=": x_s >= y_s}[op]
            if math.isnan(x) or math.isnan(y):
                return False
            return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
        try:
            if op == "+":
                return x + y
            if op == "-":
                return x - y
            if op == "*":
                return x * y
            if op == "/":
                if y == 0:
                    if x == 0 or math.isnan(x):
                        return math.nan
                    return math.copysign(math.inf, x) * math.copysign(1.0, y)
                return x / y
            if op == "%":
                if y == 0 or math.isinf(x):
                    return math.nan
                return math.fmod(x, y)
            if op == "**":
                try:
                    return float(x**y)
                except OverflowError:
                    return math.inf
                except ZeroDivisionError:
                    return math.inf
            if op in ("&", "|", "^", "<<", ">>", ">>>"):
                a_i, b_i = _int32(x), _int32(y)
                if op == "&":
                    return float(a_i & b_i)
                if op == "|":
                    return float(a_i | b_i)
                if op == "^":
                    return float(a_i ^ b_i)
                shift = b_i & 31
                if op == "<<":
                    return float(_int32(a_i << shift))
                if op == ">>":
                    return float(a_i >> shift)
                return float((a_i & 0xFFFFFFFF) >> shift)
        except (OverflowError, ValueError):
            return Unknown(f"{op} overflows")
        if isinstance(x, complex) or isinstance(y, complex):
            return math.nan
        return Unknown(f"operator {op} is not supported")

    def _strict_equals(self, left: Value, right: Value) -> bool:
        if is_number(left) and is_number(right):
            return bool(float(left) == float(right))
        if isinstance(left, bool) or isinstance(right, bool):
            return left is right
        if isinstance(left, str) and isinstance(right, str):
            return left == right
        return left is right

    def _loose_equals(self, left: Value, right: Value) -> bool:
        nullish = (None, UNDEFINED)
        if left in nullish or right in nullish:
            return left in nullish and right in nullish
        if type(left) is type(right) or (is_number(left) and is_number(right)):
            return self._strict_equals(left, right)
        a, b = self._primitive(left), self._primitive(right)
        if isinstance(a, str) and isinstance(b, str):
            return a == b
        x, y = self.to_number(a), self.to_number(b)
        return x is not None and y is not None and x == y

    def equals(self, left: Value, right: Value) -> bool | None:
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return None
        return self._strict_equals(left, right)

    def unary(self, op: str, operand: Value) -> Value:
        if isinstance(operand, Unknown):
            return operand
        if op == "not":
            truth = self.truthy(operand)
            return Unknown("negation of an unknown value") if truth is None else not truth
        number = self.to_number(operand)
        if number is None:
            return Unknown(f"unary {op} of a value that is not a number")
        if op == "-":
            return -number
        if op == "+":
            return number
        if op == "~":
            return float(~_int32(number))
        return Unknown(f"unary {op} is not supported")

    def typeof(self, value: Value) -> Value:
        if isinstance(value, Unknown):
            return value
        if value is UNDEFINED:
            return "undefined"
        if isinstance(value, bool):
            return "boolean"
        if is_number(value):
            return "number"
        if isinstance(value, str):
            return "string"
        if isinstance(value, Closure | Builtin | BoundMethod | ClassValue | EngineClass):
            return "function"
        return "object"

    # --- members ----------------------------------------------------------------------------------
    def get_member(self, ctx: CallContext, obj: Value, name: str) -> Value:
        if isinstance(obj, list | tuple):
            if name == "length":
                return float(len(obj))
            method = self._list_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if isinstance(obj, dict):
            if name in obj:
                return obj[name]
            if name == "hasOwnProperty":
                return BoundMethod(
                    obj,
                    Builtin("hasOwnProperty", lambda c, o, a, k: self.to_string(_arg(a, 0)) in o),
                )
            return UNDEFINED
        if isinstance(obj, str):
            if name == "length":
                return float(len(obj))
            method = self._string_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if is_number(obj):
            if name == "toFixed":
                return BoundMethod(obj, Builtin("toFixed", _to_fixed))
            if name == "toString":
                return BoundMethod(obj, Builtin("toString", lambda c, o, a, k: self.to_string(o)))
            return UNDEFINED
        if isinstance(obj, Closure | Builtin | BoundMethod):
            method = self._function_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if obj is None or obj is UNDEFINED:
            return Unknown(f"reading {name} of {self.to_string(obj)}")
        return UNDEFINED

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        if isinstance(obj, dict):
            obj[name] = value
        elif isinstance(obj, list) and name == "length":
            number = self.to_number(value)
            if number is not None and number.is_integer() and 0 <= number <= len(obj):
                del obj[int(number) :]

    def _index_number(self, key: Value) -> int | None:
        number = key if is_number(key) else self.to_number(key) if isinstance(key, str) else None
        if number is None or not math.isfinite(number) or not float(number).is_integer():
            return None
        return int(number)

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        if isinstance(obj, list | tuple | str):
            i = self._index_number(index)
            if i is None:
                return self.get_member(ctx, obj, self.to_string(index))
            return obj[i] if 0 <= i < len(obj) else UNDEFINED
        if isinstance(obj, dict):
            return obj.get(self.to_string(index), UNDEFINED)
        return self.get_member(ctx, obj, self.to_string(index))

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if isinstance(obj, list):
            i = self._index_number(index)
            if i is None or i < 0:
                return
            if i >= len(obj):
                if i > ctx.interp.limits.max_collection:
                    ctx.warning("eval.too_large", "an array index too large to follow; ignored")
                    return
                obj.extend([UNDEFINED] * (i + 1 - len(obj)))
            obj[i] = value
        elif isinstance(obj, dict):
            obj[self.to_string(index)] = value

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if isinstance(value, Unknown):
            return None
        if mode == "in":
            if isinstance(value, dict):
                return list(value.keys())
            if isinstance(value, list | tuple | str):
                return [str(i) for i in range(len(value))]
            if isinstance(value, Record):
                return list(value.fields.keys())
            return None
        if isinstance(value, list | tuple | str):
            return iter(value)
        if isinstance(value, _JsIterator):
            return iter(value.items)
        return None

    def globals(self) -> dict[str, Value]:
        return _js_globals(self)


class _JsIterator:
    """What ``entries()``, ``keys()`` and ``values()`` return: iterable, spreadable."""

    __slots__ = ("items",)

    def __init__(self, items: list[Value]) -> None:
        self.items = items


def _to_fixed(
    ctx: CallContext, number: Value, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    digits = int(ctx.number(_arg(args, 0), "toFixed digits", 0))
    return f"{float(number):.{max(0, min(digits, 100))}f}"


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


def _list_methods(js: JavaScript) -> dict[str, Builtin]:
    def push(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(lst, list):
            if len(lst) + len(args) > ctx.interp.limits.max_collection:
                ctx.warning("eval.too_large", "an array grows too large; push ignored")
            else:
                lst.extend(args)
            return float(len(lst))
        return UNDEFINED

    def pop(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return lst.pop() if isinstance(lst, list) and lst else UNDEFINED

    def shift(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return lst.pop(0) if isinstance(lst, list) and lst else UNDEFINED

    def unshift(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(lst, list):
            lst[0:0] = args
        return float(len(lst))

    def for_each(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        for _ in _callback(ctx, _arg(args, 0), list(lst), lst, "forEach"):
            pass
        return UNDEFINED

    def map_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return [result for _, _, result in _callback(ctx, _arg(args, 0), list(lst), lst, "map")]

    def filter_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        kept = []
        for _, item, result in _callback(ctx, _arg(args, 0), list(lst), lst, "filter"):
            truth = js.truthy(result)
            if truth is None:
                ctx.warning(
                    "eval.unknown_condition",
                    "filter condition cannot be decided statically; item kept",
                )
            if truth is not False:
                kept.append(item)
        return kept

    def find(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        for _, item, result in _callback(ctx, _arg(args, 0), list(lst), lst, "find"):
            if js.truthy(result):
                return item
        return UNDEFINED

    def find_index(
        ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        for i, _, result in _callback(ctx, _arg(args, 0), list(lst), lst, "findIndex"):
            if js.truthy(result):
                return float(i)
        return -1.0

    def some(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return any(
            js.truthy(result)
            for _, _, result in _callback(ctx, _arg(args, 0), list(lst), lst, "some")
        )

    def every(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return all(
            js.truthy(result)
            for _, _, result in _callback(ctx, _arg(args, 0), list(lst), lst, "every")
        )

    def reduce(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = list(lst)
        fn = _arg(args, 0)
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

    def slice_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        n = len(lst)
        start = int(ctx.number(_arg(args, 0), "slice start", 0))
        end = (
            int(ctx.number(_arg(args, 1), "slice end", n)) if _arg(args, 1) is not UNDEFINED else n
        )
        result = lst[start:end]
        return list(result) if not isinstance(result, str) else result

    def concat(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        result = list(lst)
        for arg in args:
            if isinstance(arg, list | tuple):
                result.extend(arg)
            else:
                result.append(arg)
        return result[: ctx.interp.limits.max_collection]

    def index_of(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        target = _arg(args, 0)
        for i, item in enumerate(lst):
            if js._strict_equals(item, target):
                return float(i)
        return -1.0

    def includes(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return index_of(ctx, lst, args, kwargs) != -1.0

    def join(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        separator = _arg(args, 0)
        sep = "," if separator is UNDEFINED else js.to_string(separator)
        if any(isinstance(v, Unknown) for v in lst):
            return Unknown("join of unknown values")
        return sep.join("" if v is None or v is UNDEFINED else js.to_string(v) for v in lst)

    def reverse(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(lst, list):
            lst.reverse()
        return lst

    def fill(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(lst, list):
            for i in range(len(lst)):
                lst[i] = _arg(args, 0)
        return lst

    def flat(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        result: list[Value] = []
        for item in lst:
            if isinstance(item, list):
                result.extend(item)
            else:
                result.append(item)
        return result

    def flat_map(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return flat(ctx, map_(ctx, lst, args, kwargs), [], {})

    def at(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        i = int(ctx.number(_arg(args, 0), "at index", 0))
        return lst[i] if -len(lst) <= i < len(lst) else UNDEFINED

    def splice(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if not isinstance(lst, list):
            return []
        start = int(ctx.number(_arg(args, 0), "splice start", 0))
        if start < 0:
            start = max(0, len(lst) + start)
        count = (
            len(lst) - start
            if len(args) < 2
            else max(0, int(ctx.number(args[1], "splice count", 0)))
        )
        removed = lst[start : start + count]
        lst[start : start + count] = args[2:]
        return removed

    def sort(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(lst, list) and not args and all(isinstance(v, str) for v in lst):
            lst.sort()
        elif isinstance(lst, list) and args:
            ctx.info("eval.sort_ignored", "sort with a comparator is not followed; order kept")
        return lst

    def entries(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _JsIterator([[float(i), v] for i, v in enumerate(lst)])

    def keys(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _JsIterator([float(i) for i in range(len(lst))])

    def values(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _JsIterator(list(lst))

    table: dict[str, Method] = {
        "push": push,
        "pop": pop,
        "shift": shift,
        "unshift": unshift,
        "forEach": for_each,
        "map": map_,
        "filter": filter_,
        "find": find,
        "findIndex": find_index,
        "some": some,
        "every": every,
        "reduce": reduce,
        "slice": slice_,
        "concat": concat,
        "indexOf": index_of,
        "includes": includes,
        "join": join,
        "reverse": reverse,
        "fill": fill,
        "flat": flat,
        "flatMap": flat_map,
        "at": at,
        "splice": splice,
        "sort": sort,
        "entries": entries,
        "keys": keys,
        "values": values,
    }
    return {name: Builtin(f"Array.{name}", fn) for name, fn in table.items()}


def _string_methods(js: JavaScript) -> dict[str, Builtin]:
    def text_arg(args: list[Value], i: int) -> str:
        value = _arg(args, i)
        return "" if value is UNDEFINED else js.to_string(value)

    def simple(fn: Callable[[str, list[Value]], Value]) -> Method:
        return lambda ctx, s, args, kwargs: fn(s, args)

    def repeat(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        count = int(ctx.number(_arg(args, 0), "repeat count", 0))
        if count * len(s) > 1_000_000 or count < 0:
            return Unknown("a string too long to build")
        return s * count

    def pad(start: bool) -> Method:
        def fn(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
            width = min(int(ctx.number(_arg(args, 0), "pad width", 0)), 10_000)
            fill = text_arg(args, 1) or " "
            if len(s) >= width:
                return s
            padding = (fill * width)[: width - len(s)]
            return padding + s if start else s + padding

        return fn

    def split(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        separator = _arg(args, 0)
        if separator is UNDEFINED:
            return [s]
        sep = js.to_string(separator)
        return list(s) if sep == "" else s.split(sep)

    def slice_(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        start = int(ctx.number(_arg(args, 0), "slice start", 0))
        end = _arg(args, 1)
        return (
            s[start:] if end is UNDEFINED else s[start : int(ctx.number(end, "slice end", len(s)))]
        )

    def substring(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        a = max(0, int(ctx.number(_arg(args, 0), "substring start", 0)))
        end = _arg(args, 1)
        b = len(s) if end is UNDEFINED else max(0, int(ctx.number(end, "substring end", len(s))))
        return s[min(a, b) : max(a, b)]

    table: dict[str, Method] = {
        "toUpperCase": simple(lambda s, a: s.upper()),
        "toLowerCase": simple(lambda s, a: s.lower()),
        "trim": simple(lambda s, a: s.strip()),
        "includes": simple(lambda s, a: text_arg(a, 0) in s),
        "startsWith": simple(lambda s, a: s.startswith(text_arg(a, 0))),
        "endsWith": simple(lambda s, a: s.endswith(text_arg(a, 0))),
        "indexOf": simple(lambda s, a: float(s.find(text_arg(a, 0)))),
        "charAt": simple(
            lambda s, a: s[int(a[0])] if a and is_number(a[0]) and 0 <= int(a[0]) < len(s) else ""
        ),
        "replace": simple(
            lambda s, a: (
                s.replace(text_arg(a, 0), text_arg(a, 1), 1) if isinstance(_arg(a, 0), str) else s
            )
        ),
        "replaceAll": simple(lambda s, a: s.replace(text_arg(a, 0), text_arg(a, 1))),
        "concat": simple(lambda s, a: s + "".join(js.to_string(v) for v in a)),
        "toString": simple(lambda s, a: s),
        "repeat": repeat,
        "padStart": pad(True),
        "padEnd": pad(False),
        "split": split,
        "slice": slice_,
        "substring": substring,
    }
    return {name: Builtin(f"String.{name}", fn) for name, fn in table.items()}


def _function_methods() -> dict[str, Builtin]:
    def call(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return ctx.interp.call_value(fn, list(args[1:]), {}, ctx.line, ctx.col, _arg(args, 0))

    def apply(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        rest = _arg(args, 1)
        items = list(rest) if isinstance(rest, list | tuple) else []
        return ctx.interp.call_value(fn, items, {}, ctx.line, ctx.col, _arg(args, 0))

    def bind(ctx: CallContext, fn: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(fn, Closure) and not args[1:]:
            return Closure(fn.fn, fn.env, fn.home, _arg(args, 0))
        bound_args = list(args[1:])
        this = _arg(args, 0)
        return Builtin(
            "bound",
            lambda c, a, k: c.interp.call_value(fn, [*bound_args, *a], k, c.line, c.col, this),
        )

    return {
        "call": Builtin("call", call),
        "apply": Builtin("apply", apply),
        "bind": Builtin("bind", bind),
    }


_PARSE_FLOAT = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _js_globals(js: JavaScript) -> dict[str, Value]:
    def number_fn(fn: Callable[..., float], arity: int = 1) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            values = []
            for i in range(arity):
                value = _arg(args, i)
                if isinstance(value, Unknown):
                    return value
                number = js.to_number(value)
                values.append(math.nan if number is None else number)
            try:
                return float(fn(*values))
            except (ValueError, OverflowError, ZeroDivisionError):
                return math.nan

        return Builtin(fn.__name__, call)

    def variadic(name: str, fn: Callable[[list[float]], float]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            numbers = []
            for value in args:
                if isinstance(value, Unknown):
                    return value
                number = js.to_number(value)
                numbers.append(math.nan if number is None else number)
            if any(math.isnan(n) for n in numbers):
                return math.nan
            return float(fn(numbers))

        return Builtin(name, call)

    def random(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("Math.random() has no static value", ctx.line)

    def js_round(x: float) -> float:
        return math.floor(x + 0.5) if math.isfinite(x) else x

    def sign(x: float) -> float:
        return x if x == 0 or math.isnan(x) else math.copysign(1.0, x)

    def trunc(x: float) -> float:
        return float(math.trunc(x)) if math.isfinite(x) else x

    def floor(x: float) -> float:
        return float(math.floor(x)) if math.isfinite(x) else x

    def ceil(x: float) -> float:
        return float(math.ceil(x)) if math.isfinite(x) else x

    def cbrt(x: float) -> float:
        return math.copysign(abs(x) ** (1 / 3), x)

    def js_pow(x: float, y: float) -> float:
        try:
            return float(x**y)
        except OverflowError:
            return math.inf

    math_ns = Namespace(
        "Math",
        {
            "PI": math.pi,
            "E": math.e,
            "SQRT2": math.sqrt(2),
            "SQRT1_2": math.sqrt(0.5),
            "LN2": math.log(2),
            "LN10": math.log(10),
            "LOG2E": 1 / math.log(2),
            "LOG10E": 1 / math.log(10),
            "abs": number_fn(abs),
            "sin": number_fn(math.sin),
            "cos": number_fn(math.cos),
            "tan": number_fn(math.tan),
            "asin": number_fn(math.asin),
            "acos": number_fn(math.acos),
            "atan": number_fn(math.atan),
            "atan2": number_fn(math.atan2, 2),
            "sinh": number_fn(math.sinh),
            "cosh": number_fn(math.cosh),
            "tanh": number_fn(math.tanh),
            "sqrt": number_fn(math.sqrt),
            "cbrt": number_fn(cbrt),
            "exp": number_fn(math.exp),
            "log": number_fn(math.log),
            "log2": number_fn(math.log2),
            "log10": number_fn(math.log10),
            "floor": number_fn(floor),
            "ceil": number_fn(ceil),
            "round": number_fn(js_round),
            "trunc": number_fn(trunc),
            "sign": number_fn(sign),
            "pow": number_fn(js_pow, 2),
            "hypot": variadic("hypot", lambda xs: math.hypot(*xs)),
            "min": variadic("min", lambda xs: min(xs) if xs else math.inf),
            "max": variadic("max", lambda xs: max(xs) if xs else -math.inf),
            "random": Builtin("random", random),
        },
    )

    def assign(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        target = _arg(args, 0)
        for source in args[1:]:
            items = (
                source.items()
                if isinstance(source, dict)
                else source.fields.items()
                if isinstance(source, Record)
                else ()
            )
            for key, value in list(items):
                if isinstance(target, dict):
                    target[key] = value
                else:
                    ctx.set_member(target, str(key), value)
        return target

    def keys(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = _arg(args, 0)
        if isinstance(obj, dict):
            return [js.to_string(k) for k in obj]
        if isinstance(obj, list):
            return [str(i) for i in range(len(obj))]
        return Unknown("Object.keys of a value that is not an object")

    def values(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = _arg(args, 0)
        if isinstance(obj, dict):
            return list(obj.values())
        if isinstance(obj, list):
            return list(obj)
        return Unknown("Object.values of a value that is not an object")

    def entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = _arg(args, 0)
        if isinstance(obj, dict):
            return [[js.to_string(k), v] for k, v in obj.items()]
        if isinstance(obj, list):
            return [[str(i), v] for i, v in enumerate(obj)]
        return Unknown("Object.entries of a value that is not an object")

    def from_entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = js.iterate(_arg(args, 0), "of")
        result: dict[str, Value] = {}
        for item in items or ():
            if isinstance(item, list | tuple) and len(item) >= 2:
                result[js.to_string(item[0])] = item[1]
        return result

    def identity(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _arg(args, 0)

    object_ns = Namespace(
        "Object",
        {
            "assign": Builtin("Object.assign", assign),
            "keys": Builtin("Object.keys", keys),
            "values": Builtin("Object.values", values),
            "entries": Builtin("Object.entries", entries),
            "fromEntries": Builtin("Object.fromEntries", from_entries),
            "freeze": Builtin("Object.freeze", identity),
            "seal": Builtin("Object.seal", identity),
        },
    )

    def array_from(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        source = _arg(args, 0)
        fn = _arg(args, 1)
        items: list[Value]
        if isinstance(source, dict) and "length" in source:
            length = ctx.number(source["length"], "Array.from length", 0)
            count = int(length)
            if count > ctx.interp.limits.max_loop_iterations:
                ctx.warning(
                    "eval.loop_limit",
                    f"Array.from of {count} items cut to {ctx.interp.limits.max_loop_iterations}",
                )
                count = ctx.interp.limits.max_loop_iterations
            items = [UNDEFINED] * max(0, count)
        else:
            found = js.iterate(source, "of")
            if found is None:
                return Unknown("Array.from of a value that cannot be known statically")
            items = list(found)
        if fn is UNDEFINED:
            return items
        result = []
        for i, item in enumerate(items):
            ctx.interp.budget.step()
            result.append(ctx.call(fn, [item, float(i)]))
        return result

    def array_new(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if len(args) == 1 and is_number(args[0]):
            count = int(args[0])
            if count > ctx.interp.limits.max_collection or count < 0:
                return Unknown("an array too large to build")
            return [UNDEFINED] * count
        return list(args)

    array_cls = EngineClass("Array", lambda ctx, args, kwargs: array_new(ctx, args, kwargs))
    array_cls.static.update(
        {
            "from": Builtin("Array.from", array_from),
            "isArray": Builtin("Array.isArray", lambda c, a, k: isinstance(_arg(a, 0), list)),
            "of": Builtin("Array.of", lambda c, a, k: list(a)),
        }
    )

    def parse_float(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = _arg(args, 0)
        if isinstance(value, Unknown) or is_number(value):
            return value
        match = _PARSE_FLOAT.match(js.to_string(value))
        return float(match.group(0)) if match else math.nan

    def parse_int(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = parse_float(ctx, args, kwargs)
        return float(math.trunc(value)) if is_number(value) and math.isfinite(value) else value

    def to_number(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = _arg(args, 0)
        if isinstance(value, Unknown):
            return value
        number = js.to_number(value)
        return math.nan if number is None else number

    number_cls = EngineClass("Number", lambda ctx, args, kwargs: to_number(ctx, args, kwargs))
    number_cls.static.update(
        {
            "parseFloat": Builtin("parseFloat", parse_float),
            "parseInt": Builtin("parseInt", parse_int),
            "isInteger": Builtin(
                "isInteger",
                lambda c, a, k: is_number(_arg(a, 0)) and float(_arg(a, 0)).is_integer(),
            ),
            "isFinite": Builtin(
                "isFinite", lambda c, a, k: is_number(_arg(a, 0)) and math.isfinite(_arg(a, 0))
            ),
            "EPSILON": 2.0**-52,
            "MAX_SAFE_INTEGER": 2.0**53 - 1,
        }
    )

    def to_string(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = _arg(args, 0)
        return value if isinstance(value, Unknown) else js.to_string(value)

    def to_boolean(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        truth = js.truthy(_arg(args, 0))
        return Unknown("Boolean of an unknown value") if truth is None else truth

    def nothing(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return UNDEFINED

    console = Namespace("console", missing=lambda name: Builtin(f"console.{name}", nothing))

    def stringify(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("JSON.stringify is not followed")

    def json_parse(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        import json

        text = _arg(args, 0)
        if not isinstance(text, str):
            return Unknown("JSON.parse of an unknown text")
        try:
            data = json.loads(text)
        except ValueError:
            return Unknown("JSON.parse of invalid JSON")
        return _from_json(data)

    return {
        "Math": math_ns,
        "Object": object_ns,
        "Array": array_cls,
        "Number": number_cls,
        "String": Builtin("String", to_string),
        "Boolean": Builtin("Boolean", to_boolean),
        "parseFloat": Builtin("parseFloat", parse_float),
        "parseInt": Builtin("parseInt", parse_int),
        "isNaN": Builtin(
            "isNaN",
            lambda c, a, k: (
                math.isnan(js.to_number(_arg(a, 0)) or 0.0)
                if not isinstance(_arg(a, 0), Unknown)
                else _arg(a, 0)
            ),
        ),
        "isFinite": Builtin(
            "isFinite", lambda c, a, k: math.isfinite(js.to_number(_arg(a, 0)) or math.nan)
        ),
        "Infinity": math.inf,
        "NaN": math.nan,
        "undefined": UNDEFINED,
        "console": console,
        "JSON": Namespace(
            "JSON",
            {
                "stringify": Builtin("JSON.stringify", stringify),
                "parse": Builtin("JSON.parse", json_parse),
            },
        ),
    }


def _from_json(data: Any) -> Value:
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    if isinstance(data, int | float):
        return float(data)
    if isinstance(data, list):
        return [_from_json(v) for v in data]
    if isinstance(data, dict):
        return {str(k): _from_json(v) for k, v in data.items()}
    return Unknown("unsupported JSON value")
