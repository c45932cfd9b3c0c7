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
from typing import Any, Final

from parsers.evaluator.core.arguments import Args, arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.registry import registering
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
        """Every registered operator (``OPERATORS``), bound to this dialect's ``iterate`` and
        ``equals``."""
        return {name: functools.partial(fn, self) for name, fn in OPERATORS.items()}


#: The function of an operator: (the operators' ``Linq``, context, source items, arguments).
LinqFunction = Callable[[Linq, CallContext, list[Value], Args], Value]

#: operator name (``Where``, ``OrderBy``, ``List<T>.Sort``...) -> its function.
OPERATORS: Final[dict[str, LinqFunction]] = {}

_EMPTY = "of an empty sequence (it throws InvalidOperationException)"


#: ``@linq_operator("Where", "FindAll")``: the decorated function is those operators.
linq_operator = registering(OPERATORS)


@linq_operator("Where", "FindAll")
def where(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
    return Unknown("Where of a condition that cannot be decided") if kept is None else kept


@linq_operator("Select")
def select(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    function = arg(args, 0)
    return [linq._apply(ctx, function, item, i) for i, item in enumerate(items)]


@linq_operator("SelectMany")
def select_many(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    out: list[Value] = []
    for i, item in enumerate(items):
        inner = linq.iterate(linq._apply(ctx, arg(args, 0), item, i))
        if inner is None:
            return Unknown("SelectMany of a sequence that cannot be known")
        out.extend(inner)
    return out


@linq_operator("OrderBy")
def order_by(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return linq._sorted(ctx, list(items), [(arg(args, 0), False)])


@linq_operator("OrderByDescending")
def order_by_descending(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return linq._sorted(ctx, list(items), [(arg(args, 0), True)])


def _then(linq: Linq, ctx: CallContext, items: list[Value], args: Args, descending: bool) -> Value:
    if isinstance(items, Ordered):
        return linq._sorted(ctx, items.source, [*items.keys, (arg(args, 0), descending)])
    return linq._sorted(ctx, list(items), [(arg(args, 0), descending)])


@linq_operator("ThenBy")
def then_by(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _then(linq, ctx, items, args, False)


@linq_operator("ThenByDescending")
def then_by_descending(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _then(linq, ctx, items, args, True)


@linq_operator("GroupBy")
def group_by(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    groups: list[Grouping] = []
    element = arg(args, 1)
    for item in items:
        key = ctx.call(arg(args, 0), [item])
        if isinstance(key, Unknown):
            return Unknown("GroupBy of keys that cannot be known")
        value = item if element is UNDEFINED else ctx.call(element, [item])
        for group in groups:
            if linq.equals(group.key, key):
                group.append(value)
                break
        else:
            groups.append(Grouping(key, [value]))
    return groups


def _first(
    linq: Linq,
    ctx: CallContext,
    items: list[Value],
    args: Args,
    *,
    last: bool,
    default: bool,
    single: bool = False,
) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
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
        return Unknown(f"First {_EMPTY}")
    return kept[-1] if last else kept[0]


@linq_operator("First")
def first(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=False, default=False)


@linq_operator("FirstOrDefault", "Find")
def first_or_default(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=False, default=True)


@linq_operator("Last")
def last(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=True, default=False)


@linq_operator("LastOrDefault", "FindLast")
def last_or_default(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=True, default=True)


@linq_operator("Single")
def single(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=False, default=False, single=True)


@linq_operator("SingleOrDefault")
def single_or_default(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _first(linq, ctx, items, args, last=False, default=True, single=True)


@linq_operator("Count", "LongCount")
def count(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
    return Unknown("Count of a condition that cannot be decided") if kept is None else len(kept)


@linq_operator("Any", "Exists")
def any_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
    return Unknown("Any of a condition that cannot be decided") if kept is None else bool(kept)


@linq_operator("All", "TrueForAll")
def all_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
    return (
        Unknown("All of a condition that cannot be decided")
        if kept is None
        else len(kept) == len(items)
    )


def _numbers(ctx: CallContext, items: list[Value], args: Args) -> list[Value] | None:
    function = arg(args, 0)
    values = (
        [ctx.call(function, [item]) for item in items] if function is not UNDEFINED else list(items)
    )
    return values if all(is_number(v) for v in values) else None


def _aggregate(
    ctx: CallContext,
    items: list[Value],
    args: Args,
    name: str,
    fn: Callable[[list[Any]], Value],
    on_empty: Value,
) -> Value:
    values = _numbers(ctx, items, args)
    if values is None:
        return Unknown(f"{name} of values that are not all numbers")
    if not values:
        return on_empty
    return fn(values)


@linq_operator("Sum")
def sum_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _aggregate(ctx, items, args, "Sum", sum, 0)


@linq_operator("Max")
def max_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _aggregate(ctx, items, args, "Max", max, Unknown(f"Max {_EMPTY}"))


@linq_operator("Min")
def min_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _aggregate(ctx, items, args, "Min", min, Unknown(f"Min {_EMPTY}"))


@linq_operator("Average")
def average(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    def mean(values: list[Any]) -> Value:
        return float(sum(values)) / len(values)

    return _aggregate(ctx, items, args, "Average", mean, Unknown(f"Average {_EMPTY}"))


@linq_operator("Take")
def take(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    n = arg(args, 0)
    return list(items[: max(n, 0)]) if isinstance(n, int) else Unknown("Take of an unknown count")


@linq_operator("Skip")
def skip(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    n = arg(args, 0)
    return list(items[max(n, 0) :]) if isinstance(n, int) else Unknown("Skip of an unknown count")


@linq_operator("Distinct")
def distinct(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    out: list[Value] = []
    for item in items:
        if not any(linq.equals(item, seen) for seen in out):
            out.append(item)
    return out


@linq_operator("Concat")
def concat(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    more = linq.iterate(arg(args, 0))
    return Unknown("Concat of a sequence that cannot be known") if more is None else [*items, *more]


@linq_operator("Union")
def union(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return distinct(linq, ctx, concat(linq, ctx, items, args), ())  # type: ignore[arg-type]


@linq_operator("Zip")
def zip_(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    other = linq.iterate(arg(args, 0))
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


@linq_operator("Aggregate")
def fold(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    if len(args) >= 2:
        accumulated, function = args[0], args[1]
        rest = items
    elif items:
        accumulated, function, rest = items[0], args[0], items[1:]
    else:
        return Unknown(f"Aggregate {_EMPTY}")
    for item in rest:
        accumulated = ctx.call(function, [accumulated, item])
    return accumulated


def _element_at(items: list[Value], args: Args, default: bool) -> Value:
    index = arg(args, 0)
    if isinstance(index, int) and 0 <= index < len(items):
        return items[index]
    return None if default else Unknown("ElementAt out of range (it throws)")


@linq_operator("ElementAt")
def element_at(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _element_at(items, args, False)


@linq_operator("ElementAtOrDefault")
def element_at_or_default(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return _element_at(items, args, True)


@linq_operator("ToDictionary")
def to_dictionary(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    out: dict[Any, Value] = {}
    for item in items:
        key = ctx.call(arg(args, 0), [item])
        if isinstance(key, Unknown | list | dict | Record):
            return Unknown("ToDictionary of keys that cannot be known")
        out[key] = item if arg(args, 1) is UNDEFINED else ctx.call(arg(args, 1), [item])
    return out


@linq_operator("ToList", "ToArray", "Cast", "OfType")
def to_list(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return list(items)


@linq_operator("AsEnumerable")
def as_enumerable(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    return items


@linq_operator("ForEach")
def for_each(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    for item in list(items):
        ctx.call(arg(args, 0), [item])
    return None


@linq_operator("RemoveAll")
def remove_all(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    kept = linq._filter(ctx, items, arg(args, 0))
    if kept is None:
        return Unknown("RemoveAll of a condition that cannot be decided")
    removed = [item for item in items if not any(item is k for k in kept)]
    items[:] = removed
    return len(kept)


@linq_operator("Sort")
def sort(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    function = arg(args, 0)
    if function is UNDEFINED:
        found = [_key(item) for item in items]
        keys = [k for k in found if k is not None]
        if len(keys) != len(items):
            return Unknown("Sort of values that cannot be ordered statically")
        items[:] = [item for _, item in sorted(zip(keys, items, strict=True), key=lambda p: p[0])]
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


@linq_operator("FindIndex")
def find_index(linq: Linq, ctx: CallContext, items: list[Value], args: Args) -> Value:
    for index, item in enumerate(items):
        truth = linq._test(ctx, arg(args, 0), item)
        if truth is None:
            return Unknown("FindIndex of a condition that cannot be decided")
        if truth:
            return index
    return -1


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


__all__ = [
    "OPERATORS",
    "Grouping",
    "Linq",
    "Ordered",
    "enumerable_namespace_members",
    "linq_operator",
]
