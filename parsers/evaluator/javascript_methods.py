"""The members of JavaScript's plain values for the JavaScript dialect: array methods
(``push``, ``forEach``/``map``/``filter`` callbacks under the loop cap, ``reduce``, ``splice``,
``sort``...), string methods, ``Number.prototype.toFixed``, and ``call``/``apply``/``bind`` of
functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from parsers.evaluator.arguments import arg
from parsers.evaluator.context import CallContext
from parsers.evaluator.values import UNDEFINED, Builtin, Closure, Unknown, Value, is_number

if TYPE_CHECKING:
    from parsers.evaluator.javascript_lib import JavaScript

Method = Callable[[CallContext, Any, list[Value], dict[str, Value]], Value]


class JsIterator:
    """What ``entries()``, ``keys()`` and ``values()`` return: iterable, spreadable."""

    __slots__ = ("items",)

    def __init__(self, items: list[Value]) -> None:
        self.items = items


def to_fixed(ctx: CallContext, number: Value, args: list[Value], kwargs: dict[str, Value]) -> Value:
    digits = int(ctx.number(arg(args, 0), "toFixed digits", 0))
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


def list_methods(js: JavaScript) -> dict[str, Builtin]:
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
        for _ in _callback(ctx, arg(args, 0), list(lst), lst, "forEach"):
            pass
        return UNDEFINED

    def map_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return [result for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "map")]

    def filter_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
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

    def find(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        for _, item, result in _callback(ctx, arg(args, 0), list(lst), lst, "find"):
            if js.truthy(result):
                return item
        return UNDEFINED

    def find_index(
        ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        for i, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "findIndex"):
            if js.truthy(result):
                return float(i)
        return -1.0

    def some(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return any(
            js.truthy(result)
            for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "some")
        )

    def every(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return all(
            js.truthy(result)
            for _, _, result in _callback(ctx, arg(args, 0), list(lst), lst, "every")
        )

    def reduce(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
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

    def slice_(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        n = len(lst)
        start = int(ctx.number(arg(args, 0), "slice start", 0))
        end = int(ctx.number(arg(args, 1), "slice end", n)) if arg(args, 1) is not UNDEFINED else n
        result = lst[start:end]
        return list(result) if not isinstance(result, str) else result

    def concat(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        result = list(lst)
        for part in args:
            if isinstance(part, list | tuple):
                result.extend(part)
            else:
                result.append(part)
        return result[: ctx.interp.limits.max_collection]

    def index_of(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        target = arg(args, 0)
        for i, item in enumerate(lst):
            if js._strict_equals(item, target):
                return float(i)
        return -1.0

    def includes(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return index_of(ctx, lst, args, kwargs) != -1.0

    def join(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        separator = arg(args, 0)
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
                lst[i] = arg(args, 0)
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
        i = int(ctx.number(arg(args, 0), "at index", 0))
        return lst[i] if -len(lst) <= i < len(lst) else UNDEFINED

    def splice(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if not isinstance(lst, list):
            return []
        start = int(ctx.number(arg(args, 0), "splice start", 0))
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
        return JsIterator([[float(i), v] for i, v in enumerate(lst)])

    def keys(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return JsIterator([float(i) for i in range(len(lst))])

    def values(ctx: CallContext, lst: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return JsIterator(list(lst))

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


def string_methods(js: JavaScript) -> dict[str, Builtin]:
    def text_arg(args: list[Value], i: int) -> str:
        value = arg(args, i)
        return "" if value is UNDEFINED else js.to_string(value)

    def simple(fn: Callable[[str, list[Value]], Value]) -> Method:
        return lambda ctx, s, args, kwargs: fn(s, args)

    def repeat(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        count = int(ctx.number(arg(args, 0), "repeat count", 0))
        if count * len(s) > 1_000_000 or count < 0:
            return Unknown("a string too long to build")
        return s * count

    def pad(start: bool) -> Method:
        def fn(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
            width = min(int(ctx.number(arg(args, 0), "pad width", 0)), 10_000)
            fill = text_arg(args, 1) or " "
            if len(s) >= width:
                return s
            padding = (fill * width)[: width - len(s)]
            return padding + s if start else s + padding

        return fn

    def split(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        separator = arg(args, 0)
        if separator is UNDEFINED:
            return [s]
        sep = js.to_string(separator)
        return list(s) if sep == "" else s.split(sep)

    def slice_(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        start = int(ctx.number(arg(args, 0), "slice start", 0))
        end = arg(args, 1)
        return (
            s[start:] if end is UNDEFINED else s[start : int(ctx.number(end, "slice end", len(s)))]
        )

    def substring(ctx: CallContext, s: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        a = max(0, int(ctx.number(arg(args, 0), "substring start", 0)))
        end = arg(args, 1)
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
                s.replace(text_arg(a, 0), text_arg(a, 1), 1) if isinstance(arg(a, 0), str) else s
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
