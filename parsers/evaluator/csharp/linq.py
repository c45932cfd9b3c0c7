"""C#'s LINQ (``System.Linq``) and ``List<T>``'s delegate methods over the evaluator's lists.

Scene scripts filter and order their object lists (``specs.Where(s => s.size > 1)
.OrderBy(s => s.y).ToList()``, ``GroupBy(s => s.shape)``). Each operator follows the .NET
documentation: ``OrderBy``/``ThenBy`` sort stably (equal keys keep their order),
``GroupBy`` yields the groups in the order of their keys' first elements and each group's
elements in their source order, ``First``/``Single``/``Max`` of nothing throw
(``InvalidOperationException``; here an unknown value), ``FirstOrDefault`` gives the default,
``Select``/``Where`` pass the index to a two-parameter selector, ``Average`` is a double and the
``Sum`` of ints an int. Operators are evaluated at once, not deferred: a query is read where it
is written (a source changed between building a query and enumerating it is the one
difference). ``List<T>.Sort`` is read as a stable sort (.NET's is not stable; equal elements
may come out in another order there).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from parsers.evaluator.core.arguments import Args, arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Closure,
    EnumMember,
    Record,
    Unknown,
    Value,
    is_number,
)

Iterate = Callable[[Value], list[Value] | None]
Equals = Callable[[Value, Value], bool | None]
Operator = Callable[[CallContext, list[Value], Args], Value]


def _is_plain_number(value: Value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool | EnumMember)


class Grouping(list):  # type: ignore[type-arg]
    """One group of ``GroupBy``: its elements, and its ``Key``."""

    def __init__(self, key: Value, items: list[Value]) -> None:
        super().__init__(items)
        self.key = key


class Ordered(list):  # type: ignore[type-arg]
    """The result of ``OrderBy``: its elements, and the source and keys ``ThenBy`` refines."""

    def __init__(
        self, items: list[Value], source: list[Value], keys: list[tuple[Value, bool]]
    ) -> None:
        super().__init__(items)
        self.source = source
        self.keys = keys


def _arity(function: Value) -> int:
    """How many positional parameters a selector takes (a lambda, method or method group)."""
    if isinstance(function, BoundMethod):
        function = function.function
    if isinstance(function, Closure):
        return sum(1 for p in function.fn.params if p.kind == "positional")
    return 1


def _key(value: Value) -> tuple[int, Any] | None:
    """A sort key of a value, or None when it cannot be ordered statically."""
    if isinstance(value, bool):
        return (0, int(value))
    if is_number(value):
        return (0, value)
    if isinstance(value, str):
        return (1, value)
    if value is None:
        return (-1, 0)
    return None


class Linq:
    """The operators, over a dialect's ``iterate`` and ``equals``."""

    def __init__(self, iterate: Iterate, equals: Equals) -> None:
        self.iterate = iterate
        self.equals = equals

    # --- helpers ------------------------------------------------------------------------------
    def _apply(self, ctx: CallContext, function: Value, item: Value, index: int) -> Value:
        if _arity(function) >= 2:
            return ctx.call(function, [item, index])
        return ctx.call(function, [item])

    def _test(self, ctx: CallContext, function: Value, item: Value, index: int = 0) -> bool | None:
        return ctx.truthy(self._apply(ctx, function, item, index))

    def _filter(self, ctx: CallContext, items: list[Value], predicate: Value) -> list[Value] | None:
        if predicate is UNDEFINED:
            return list(items)
        kept = []
        for index, item in enumerate(items):
            truth = self._test(ctx, predicate, item, index)
            if truth is None:
                return None
            if truth:
                kept.append(item)
        return kept

    def _sorted(
        self, ctx: CallContext, source: list[Value], keys: list[tuple[Value, bool]]
    ) -> Value:
        rows = []
        for item in source:
            row = []
            for function, _ in keys:
                key = _key(ctx.call(function, [item]))
                if key is None:
                    return Unknown("OrderBy of keys that cannot be ordered statically")
                row.append(key)
            rows.append((row, item))

        def compare(a: tuple[list[Any], Value], b: tuple[list[Any], Value]) -> int:
            for (ka, kb), (_, descending) in zip(zip(a[0], b[0], strict=True), keys, strict=True):
                if ka != kb:
                    try:
                        less = ka < kb
                    except TypeError:
                        less = str(ka) < str(kb)
                    result = -1 if less else 1
                    return -result if descending else result
            return 0

        ordered = sorted(rows, key=functools.cmp_to_key(compare))
        return Ordered([item for _, item in ordered], source, keys)

    # --- operators ------------------------------------------------------------------------------
    def operators(self) -> dict[str, Operator]:
        empty = "of an empty sequence (it throws InvalidOperationException)"

        def where(ctx: CallContext, items: list[Value], args: Args) -> Value:
            kept = self._filter(ctx, items, arg(args, 0))
            return Unknown("Where of a condition that cannot be decided") if kept is None else kept

        def select(ctx: CallContext, items: list[Value], args: Args) -> Value:
            function = arg(args, 0)
            return [self._apply(ctx, function, item, i) for i, item in enumerate(items)]

        def select_many(ctx: CallContext, items: list[Value], args: Args) -> Value:
            out: list[Value] = []
            for i, item in enumerate(items):
                inner = self.iterate(self._apply(ctx, arg(args, 0), item, i))
                if inner is None:
                    return Unknown("SelectMany of a sequence that cannot be known")
                out.extend(inner)
            return out

        def order(descending: bool) -> Operator:
            return lambda ctx, items, args: self._sorted(
                ctx, list(items), [(arg(args, 0), descending)]
            )

        def then(descending: bool) -> Operator:
            def call(ctx: CallContext, items: list[Value], args: Args) -> Value:
                if isinstance(items, Ordered):
                    return self._sorted(
                        ctx, items.source, [*items.keys, (arg(args, 0), descending)]
                    )
                return self._sorted(ctx, list(items), [(arg(args, 0), descending)])

            return call

        def group_by(ctx: CallContext, items: list[Value], args: Args) -> Value:
            groups: list[Grouping] = []
            element = arg(args, 1)
            for item in items:
                key = ctx.call(arg(args, 0), [item])
                if isinstance(key, Unknown):
                    return Unknown("GroupBy of keys that cannot be known")
                value = item if element is UNDEFINED else ctx.call(element, [item])
                for group in groups:
                    if self.equals(group.key, key):
                        group.append(value)
                        break
                else:
                    groups.append(Grouping(key, [value]))
            return groups

        def first(last: bool, default: bool, single: bool = False) -> Operator:
            def call(ctx: CallContext, items: list[Value], args: Args) -> Value:
                kept = self._filter(ctx, items, arg(args, 0))
                if kept is None:
                    return Unknown("a condition that cannot be decided")
                if single and len(kept) > 1:
                    return Unknown("Single of more than one element (it throws)")
                if not kept:
                    # default(T): 0 of the elements' number type, else null.
                    if default:
                        sample = items[0] if items else None
                        if isinstance(sample, int | float) and _is_plain_number(sample):
                            return type(sample)(0)
                        return None
                    return Unknown(f"First {empty}")
                return kept[-1] if last else kept[0]

            return call

        def count(ctx: CallContext, items: list[Value], args: Args) -> Value:
            kept = self._filter(ctx, items, arg(args, 0))
            return (
                Unknown("Count of a condition that cannot be decided")
                if kept is None
                else len(kept)
            )

        def any_(ctx: CallContext, items: list[Value], args: Args) -> Value:
            kept = self._filter(ctx, items, arg(args, 0))
            return (
                Unknown("Any of a condition that cannot be decided") if kept is None else bool(kept)
            )

        def all_(ctx: CallContext, items: list[Value], args: Args) -> Value:
            kept = self._filter(ctx, items, arg(args, 0))
            return (
                Unknown("All of a condition that cannot be decided")
                if kept is None
                else len(kept) == len(items)
            )

        def numbers(ctx: CallContext, items: list[Value], args: Args) -> list[Value] | None:
            function = arg(args, 0)
            values = (
                [ctx.call(function, [item]) for item in items]
                if function is not UNDEFINED
                else list(items)
            )
            return values if all(is_number(v) for v in values) else None

        def aggregate(name: str, fn: Callable[[list[Any]], Value], on_empty: Value) -> Operator:
            def call(ctx: CallContext, items: list[Value], args: Args) -> Value:
                values = numbers(ctx, items, args)
                if values is None:
                    return Unknown(f"{name} of values that are not all numbers")
                if not values:
                    return on_empty
                return fn(values)

            return call

        def take(ctx: CallContext, items: list[Value], args: Args) -> Value:
            n = arg(args, 0)
            return (
                list(items[: max(n, 0)])
                if isinstance(n, int)
                else Unknown("Take of an unknown count")
            )

        def skip(ctx: CallContext, items: list[Value], args: Args) -> Value:
            n = arg(args, 0)
            return (
                list(items[max(n, 0) :])
                if isinstance(n, int)
                else Unknown("Skip of an unknown count")
            )

        def distinct(ctx: CallContext, items: list[Value], args: Args) -> Value:
            out: list[Value] = []
            for item in items:
                if not any(self.equals(item, seen) for seen in out):
                    out.append(item)
            return out

        def concat(ctx: CallContext, items: list[Value], args: Args) -> Value:
            more = self.iterate(arg(args, 0))
            return (
                Unknown("Concat of a sequence that cannot be known")
                if more is None
                else [*items, *more]
            )

        def zip_(ctx: CallContext, items: list[Value], args: Args) -> Value:
            other = self.iterate(arg(args, 0))
            if other is None:
                return Unknown("Zip with a sequence that cannot be known")
            function = arg(args, 1)
            pairs = list(zip(items, other, strict=False))
            if function is UNDEFINED:
                return [
                    Record("ValueTuple", {"Item1": a, "Item2": b, "First": a, "Second": b})
                    for a, b in pairs
                ]
            return [ctx.call(function, [a, b]) for a, b in pairs]

        def fold(ctx: CallContext, items: list[Value], args: Args) -> Value:
            if len(args) >= 2:
                accumulated, function = args[0], args[1]
                rest = items
            elif items:
                accumulated, function, rest = items[0], args[0], items[1:]
            else:
                return Unknown(f"Aggregate {empty}")
            for item in rest:
                accumulated = ctx.call(function, [accumulated, item])
            return accumulated

        def element_at(default: bool) -> Operator:
            def call(ctx: CallContext, items: list[Value], args: Args) -> Value:
                index = arg(args, 0)
                if isinstance(index, int) and 0 <= index < len(items):
                    return items[index]
                return None if default else Unknown("ElementAt out of range (it throws)")

            return call

        def to_dictionary(ctx: CallContext, items: list[Value], args: Args) -> Value:
            out: dict[Any, Value] = {}
            for item in items:
                key = ctx.call(arg(args, 0), [item])
                if isinstance(key, Unknown | list | dict | Record):
                    return Unknown("ToDictionary of keys that cannot be known")
                out[key] = item if arg(args, 1) is UNDEFINED else ctx.call(arg(args, 1), [item])
            return out

        def for_each(ctx: CallContext, items: list[Value], args: Args) -> Value:
            for item in list(items):
                ctx.call(arg(args, 0), [item])
            return None

        def remove_all(ctx: CallContext, items: list[Value], args: Args) -> Value:
            kept = self._filter(ctx, items, arg(args, 0))
            if kept is None:
                return Unknown("RemoveAll of a condition that cannot be decided")
            removed = [item for item in items if not any(item is k for k in kept)]
            items[:] = removed
            return len(kept)

        def sort(ctx: CallContext, items: list[Value], args: Args) -> Value:
            function = arg(args, 0)
            if function is UNDEFINED:
                found = [_key(item) for item in items]
                keys = [k for k in found if k is not None]
                if len(keys) != len(items):
                    return Unknown("Sort of values that cannot be ordered statically")
                items[:] = [
                    item for _, item in sorted(zip(keys, items, strict=True), key=lambda p: p[0])
                ]
                return None
            failed = False

            def compare(a: Value, b: Value) -> int:
                nonlocal failed
                result = ctx.call(function, [a, b])
                if not is_number(result):
                    failed = True
                    return 0
                return (result > 0) - (result < 0)

            ordered = sorted(items, key=functools.cmp_to_key(compare))
            if not failed:
                items[:] = ordered
            return None

        def find_index(ctx: CallContext, items: list[Value], args: Args) -> Value:
            for index, item in enumerate(items):
                truth = self._test(ctx, arg(args, 0), item)
                if truth is None:
                    return Unknown("FindIndex of a condition that cannot be decided")
                if truth:
                    return index
            return -1

        def average(values: list[Any]) -> Value:
            return float(sum(values)) / len(values)

        return {
            "Where": where,
            "Select": select,
            "SelectMany": select_many,
            "OrderBy": order(False),
            "OrderByDescending": order(True),
            "ThenBy": then(False),
            "ThenByDescending": then(True),
            "GroupBy": group_by,
            "First": first(False, False),
            "FirstOrDefault": first(False, True),
            "Last": first(True, False),
            "LastOrDefault": first(True, True),
            "Single": first(False, False, single=True),
            "SingleOrDefault": first(False, True, single=True),
            "Find": first(False, True),
            "FindLast": first(True, True),
            "FindAll": where,
            "Exists": any_,
            "TrueForAll": all_,
            "Count": count,
            "LongCount": count,
            "Any": any_,
            "All": all_,
            "Sum": aggregate("Sum", sum, 0),
            "Max": aggregate("Max", max, Unknown(f"Max {empty}")),
            "Min": aggregate("Min", min, Unknown(f"Min {empty}")),
            "Average": aggregate("Average", average, Unknown(f"Average {empty}")),
            "Take": take,
            "Skip": skip,
            "Distinct": distinct,
            "Concat": concat,
            "Union": lambda ctx, items, args: distinct(ctx, concat(ctx, items, args), ()),  # type: ignore[arg-type]
            "Zip": zip_,
            "Aggregate": fold,
            "ElementAt": element_at(False),
            "ElementAtOrDefault": element_at(True),
            "ToDictionary": to_dictionary,
            "ToList": lambda ctx, items, args: list(items),
            "ToArray": lambda ctx, items, args: list(items),
            "AsEnumerable": lambda ctx, items, args: items,
            "Cast": lambda ctx, items, args: list(items),
            "OfType": lambda ctx, items, args: list(items),
            "ForEach": for_each,
            "RemoveAll": remove_all,
            "Sort": sort,
            "FindIndex": find_index,
        }


def enumerable_namespace_members() -> dict[str, Callable[[CallContext, Args], Value]]:
    """``Enumerable.Range``, ``Enumerable.Repeat`` and ``Enumerable.Empty``."""

    def range_(ctx: CallContext, args: Args) -> Value:
        start, count = arg(args, 0), arg(args, 1)
        if not isinstance(start, int) or not isinstance(count, int) or not 0 <= count <= 100_000:
            return Unknown("Enumerable.Range of bounds that cannot be known")
        return list(range(start, start + count))

    def repeat(ctx: CallContext, args: Args) -> Value:
        count = arg(args, 1)
        if not isinstance(count, int) or not 0 <= count <= 100_000:
            return Unknown("Enumerable.Repeat of a count that cannot be known")
        return [arg(args, 0)] * count

    return {"Range": range_, "Repeat": repeat, "Empty": lambda ctx, args: []}


__all__ = ["Grouping", "Linq", "Ordered", "enumerable_namespace_members"]
