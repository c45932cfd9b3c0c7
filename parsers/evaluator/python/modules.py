"""The standard-library modules Python scene scripts import, for the evaluator: ``math``,
``random`` (whose numbers are unknown), ``itertools``, ``functools``, ``collections``,
``dataclasses``, ``enum``, ``typing`` and ``copy``.

Functions run Python's own implementations over the evaluator's values, lazily where Python
is lazy (``itertools.count()`` is endless: the loop cap stops it), calling back into the script
for its functions (``functools.reduce``, ``itertools.groupby(key=...)``). Modules are
namespaces a script may assign into: ``module_builders()`` make the run's own, over functions made
once.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.scope import Scope
from parsers.evaluator.core.values import (
    UNDEFINED,
    Builtin,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)
from parsers.evaluator.python.builtin_functions import LazyIterator, collected, iterable
from parsers.evaluator.python.classes import (
    Auto,
    enum_base,
    enum_value,
    fields_of,
    raise_error,
    replace,
    tuple_class,
)


def _numbers(ctx: CallContext, values: list[Value], what: str) -> list[float | int] | Unknown:
    result = []
    for value in values:
        value = enum_value(value)
        if isinstance(value, Unknown):
            return value
        if not is_number(value) and not isinstance(value, bool):
            raise_error(ctx, "TypeError", f"{what}: must be real number, not {type_name(value)}")
        result.append(value)
    return result


def _math_fn(name: str, fn: Callable[..., Any], arity: int | None = 1) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        values = _numbers(ctx, args if arity is None else args[:arity], f"math.{name}")
        if isinstance(values, Unknown):
            return values
        try:
            return fn(*values)
        except ValueError:
            raise_error(ctx, "ValueError", "math domain error")
        except OverflowError:
            raise_error(ctx, "OverflowError", "math range error")
        except ZeroDivisionError as error:
            raise_error(ctx, "ZeroDivisionError", str(error))
        except TypeError as error:
            raise_error(ctx, "TypeError", str(error))

    return Builtin(f"math.{name}", call)


def _over_items(name: str, fn: Callable[[list[Any]], Value]) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = collected(ctx, arg(args, 0), f"math.{name}")
        if isinstance(items, Unknown):
            return items
        values = _numbers(ctx, items, f"math.{name}")
        return values if isinstance(values, Unknown) else fn(values)

    return Builtin(f"math.{name}", call)


def _dist(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    p, q = collected(ctx, arg(args, 0), "math.dist"), collected(ctx, arg(args, 1), "math.dist")
    if isinstance(p, Unknown) or isinstance(q, Unknown):
        return p if isinstance(p, Unknown) else q
    a, b = _numbers(ctx, p, "math.dist"), _numbers(ctx, q, "math.dist")
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return a if isinstance(a, Unknown) else b
    return math.dist(a, b)


def _isclose(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    values = _numbers(ctx, args[:2], "math.isclose")
    if isinstance(values, Unknown):
        return values
    options = {k: v for k, v in kwargs.items() if k in ("rel_tol", "abs_tol") and is_number(v)}
    return math.isclose(values[0], values[1], **options)


@cache
def _math_members() -> dict[str, Value]:
    one = (
        "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "sqrt", "exp", "expm1", "log10", "log2", "log1p",
        "floor", "ceil", "fabs", "trunc", "isfinite", "isnan", "isinf", "factorial", "modf",
        "frexp", "erf", "erfc", "gamma", "lgamma", "isqrt",
    )  # fmt: skip
    two = ("atan2", "pow", "copysign", "fmod", "remainder", "ldexp", "comb", "perm")
    return {
        "pi": math.pi,
        "e": math.e,
        "tau": math.tau,
        "inf": math.inf,
        "nan": math.nan,
        **{name: _math_fn(name, getattr(math, name)) for name in one},
        **{name: _math_fn(name, getattr(math, name), 2) for name in two},
        "log": _math_fn("log", math.log, 2),
        "hypot": _math_fn("hypot", math.hypot, None),
        "gcd": _math_fn("gcd", math.gcd, None),
        "lcm": _math_fn("lcm", math.lcm, None),
        "prod": _over_items("prod", math.prod),
        "fsum": _over_items("fsum", math.fsum),
        "dist": Builtin("math.dist", _dist),
        "isclose": Builtin("math.isclose", _isclose),
    }  # fmt: skip


def _random_value(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return Unknown("a random number has no static value", ctx.line)


# --- itertools ------------------------------------------------------------------------------------


def _lazy(
    name: str,
    make: Callable[[CallContext, list[Value], dict[str, Value]], Iterator[Value] | Unknown],
) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = make(ctx, args, kwargs)
        return items if isinstance(items, Unknown) else LazyIterator(name, items)

    return Builtin(f"itertools.{name}", call)


def _sources(ctx: CallContext, values: list[Value], what: str) -> list[Iterator[Value]] | Unknown:
    result = []
    for value in values:
        items = iterable(ctx, value, what)
        if isinstance(items, Unknown):
            return items
        result.append(items)
    return result


def _finite(ctx: CallContext, values: list[Value], what: str) -> list[list[Value]] | Unknown:
    result = []
    for value in values:
        items = collected(ctx, value, what)
        if isinstance(items, Unknown):
            return items
        result.append(items)
    return result


def _product(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    pools = _finite(ctx, args, "product")
    if isinstance(pools, Unknown):
        return pools
    repeat = kwargs.get("repeat", 1)
    return itertools.product(*pools, repeat=repeat if isinstance(repeat, int) else 1)


def _choose(kind: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Value] | Unknown]:
    def make(
        ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
    ) -> Iterator[Value] | Unknown:
        pool = collected(ctx, arg(args, 0), kind.__name__)
        if isinstance(pool, Unknown):
            return pool
        r = arg(args, 1, kwargs, "r")
        return kind(pool, r) if isinstance(r, int) else kind(pool)

    return make


def _chain(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    sources = _sources(ctx, args, "chain")
    return sources if isinstance(sources, Unknown) else itertools.chain(*sources)


def _chain_from(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    outer = iterable(ctx, arg(args, 0), "chain.from_iterable")
    if isinstance(outer, Unknown):
        return outer

    def items() -> Iterator[Value]:
        for inner in outer:
            source = iterable(ctx, inner, "chain.from_iterable")
            if isinstance(source, Unknown):
                ctx.warning("eval.unknown_iterable", f"chain.from_iterable: {source.reason}")
                return
            yield from source

    return LazyIterator("chain", items())


def _islice(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    source = iterable(ctx, arg(args, 0), "islice")
    if isinstance(source, Unknown):
        return source
    bounds = args[1:]
    if not all(b is None or isinstance(b, int) for b in bounds):
        return Unknown("islice with bounds that cannot be known", ctx.line)
    return itertools.islice(source, *bounds)


def _count(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    start, step = arg(args, 0, kwargs, "start"), arg(args, 1, kwargs, "step")
    values = _numbers(
        ctx, [0 if start is UNDEFINED else start, 1 if step is UNDEFINED else step], "count"
    )
    return values if isinstance(values, Unknown) else itertools.count(*values)


def _cycle(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    pool = collected(ctx, arg(args, 0), "cycle")
    return pool if isinstance(pool, Unknown) else itertools.cycle(pool)


def _repeat(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    times = arg(args, 1, kwargs, "times")
    if times is UNDEFINED:
        return itertools.repeat(arg(args, 0))
    if not isinstance(times, int):
        return Unknown("repeat a number of times that cannot be known", ctx.line)
    return itertools.repeat(arg(args, 0), times)


def _accumulate(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    source = iterable(ctx, arg(args, 0), "accumulate")
    if isinstance(source, Unknown):
        return source
    function = arg(args, 1, kwargs, "func")
    initial = kwargs.get("initial")

    def combine(a: Value, b: Value) -> Value:
        if function is UNDEFINED or function is None:
            return ctx.interp.binary("+", a, b, ctx.line, ctx.col)
        return ctx.call(function, [a, b])

    return itertools.accumulate(source, combine, initial=initial)


def _zip_longest(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    sources = _sources(ctx, args, "zip_longest")
    if isinstance(sources, Unknown):
        return sources
    return (tuple(t) for t in itertools.zip_longest(*sources, fillvalue=kwargs.get("fillvalue")))


def _groupby(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    source = iterable(ctx, arg(args, 0), "groupby")
    if isinstance(source, Unknown):
        return source
    key = arg(args, 1, kwargs, "key")
    keyed = [(v if key in (UNDEFINED, None) else ctx.call(key, [v]), v) for v in source]
    groups: list[tuple[Value, list[Value]]] = []
    for k, v in keyed:
        if groups and ctx.interp.dialect.equals(groups[-1][0], k):
            groups[-1][1].append(v)
        else:
            groups.append((k, [v]))
    return ((k, LazyIterator("grouper", iter(vs))) for k, vs in groups)


def _starmap(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    function, source = arg(args, 0), iterable(ctx, arg(args, 1), "starmap")
    if isinstance(source, Unknown):
        return source

    def items() -> Iterator[Value]:
        for item in source:
            values = collected(ctx, item, "starmap")
            yield values if isinstance(values, Unknown) else ctx.call(function, values)

    return items()


def _pairwise(
    ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
) -> Iterator[Value] | Unknown:
    source = iterable(ctx, arg(args, 0), "pairwise")
    return source if isinstance(source, Unknown) else itertools.pairwise(source)


def _predicate(name: str, kind: Callable[..., Iterator[Any]]) -> Builtin:
    def make(
        ctx: CallContext, args: list[Value], kwargs: dict[str, Value]
    ) -> Iterator[Value] | Unknown:
        function, source = arg(args, 0), iterable(ctx, arg(args, 1), name)
        if isinstance(source, Unknown):
            return source
        return kind(lambda v: bool(ctx.truthy(ctx.call(function, [v]))), source)

    return _lazy(name, make)


@cache
def _itertools_members() -> dict[str, Value]:
    chain = _lazy("chain", _chain)
    return {
        "product": _lazy("product", _product),
        "combinations": _lazy("combinations", _choose(itertools.combinations)),
        "combinations_with_replacement": _lazy(
            "combinations_with_replacement", _choose(itertools.combinations_with_replacement)
        ),
        "permutations": _lazy("permutations", _choose(itertools.permutations)),
        "chain": chain,
        "islice": _lazy("islice", _islice),
        "count": _lazy("count", _count),
        "cycle": _lazy("cycle", _cycle),
        "repeat": _lazy("repeat", _repeat),
        "accumulate": _lazy("accumulate", _accumulate),
        "zip_longest": _lazy("zip_longest", _zip_longest),
        "groupby": _lazy("groupby", _groupby),
        "starmap": _lazy("starmap", _starmap),
        "pairwise": _lazy("pairwise", _pairwise),
        "takewhile": _predicate("takewhile", itertools.takewhile),
        "dropwhile": _predicate("dropwhile", itertools.dropwhile),
        "filterfalse": _predicate("filterfalse", itertools.filterfalse),
    }


# --- functools ------------------------------------------------------------------------------------


def _partial(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    function, bound, named = arg(args, 0), list(args[1:]), dict(kwargs)

    def call(inner: CallContext, more: list[Value], more_named: dict[str, Value]) -> Value:
        return inner.call(function, [*bound, *more], {**named, **more_named})

    return Builtin(f"partial({type_name(function)})", call)


def _reduce(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    function, source = arg(args, 0), iterable(ctx, arg(args, 1), "reduce")
    if isinstance(source, Unknown):
        return source
    total = arg(args, 2)
    if total is UNDEFINED:
        try:
            total = next(source)
        except StopIteration:
            raise_error(ctx, "TypeError", "reduce() of empty iterable with no initial value")
    for item in source:
        total = ctx.call(function, [total, item])
    return total


def _identity_decorator(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``@dataclass`` read as a function (the front end reads the decorator itself): the class."""
    first = arg(args, 0)
    if args and not kwargs and not isinstance(first, int | type(None)):
        return first
    return Builtin("decorator", lambda c, a, k: arg(a, 0))


def _cached(function: Value) -> Builtin:
    """A function whose results are kept by their arguments, as ``functools.lru_cache``
    keeps them (a call with arguments seen before does not run the function again)."""
    kept: dict[Any, Value] = {}

    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            key = (tuple(args), tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:
            return ctx.call(function, args, kwargs)
        if key not in kept:
            kept[key] = ctx.call(function, args, kwargs)
        return kept[key]

    return Builtin(f"lru_cache({type_name(function)})", call)


def _lru_cache(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``@lru_cache``, ``@lru_cache(maxsize=None)``, ``@cache``."""
    first = arg(args, 0)
    if args and not isinstance(first, int | type(None)):
        return _cached(first)
    return Builtin("lru_cache", lambda c, a, k: _cached(arg(a, 0)))


@cache
def _functools_members() -> dict[str, Value]:
    return {
        "partial": Builtin("functools.partial", _partial),
        "reduce": Builtin("functools.reduce", _reduce),
        "lru_cache": Builtin("functools.lru_cache", _lru_cache),
        "cache": Builtin("functools.cache", _lru_cache),
        "wraps": Builtin(
            "functools.wraps", lambda c, a, k: Builtin("wraps", lambda c2, a2, k2: arg(a2, 0))
        ),
    }


# --- collections, dataclasses, copy, typing ----------------------------------------------------------


def _namedtuple(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    name, names = arg(args, 0, kwargs, "typename"), arg(args, 1, kwargs, "field_names")
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    if (
        not isinstance(name, str)
        or not isinstance(names, list | tuple)
        or not all(isinstance(n, str) for n in names)
    ):
        return Unknown("a namedtuple whose fields cannot be known statically", ctx.line)
    defaults = kwargs.get("defaults", ())
    defaults = tuple(defaults) if isinstance(defaults, list | tuple) else ()
    return tuple_class(name, tuple(names), defaults, Scope(None))


def _asdict(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    record = arg(args, 0)
    names = fields_of(record) if isinstance(record, Record) else None
    if names is None:
        raise_error(ctx, "TypeError", "asdict() should be called on dataclass instances")
    return {
        name: copy.deepcopy(record.fields.get(name))
        if _plain(record.fields.get(name))
        else record.fields.get(name)
        for name in names
    }


def _astuple(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    record = arg(args, 0)
    names = fields_of(record) if isinstance(record, Record) else None
    if names is None:
        raise_error(ctx, "TypeError", "astuple() should be called on dataclass instances")
    return tuple(record.fields.get(name) for name in names)


def _replace(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    record = arg(args, 0)
    if not isinstance(record, Record) or fields_of(record) is None:
        raise_error(ctx, "TypeError", "replace() should be called on dataclass instances")
    return replace(ctx, record, kwargs)


def _plain(value: Value) -> bool:
    return value is None or isinstance(value, bool | int | float | str | list | tuple | dict)


def _copy(deep: bool) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        if isinstance(value, Record):
            if value.kind and value.cls is None:
                return value.copy()
            made = Record(value.kind, dict(value.fields), value.cls, copy.copy(value.native))
            if deep:
                made.fields = {k: call(ctx, [v], {}) for k, v in made.fields.items()}
            return made
        if deep and _plain(value):
            if isinstance(value, list):
                return [call(ctx, [v], {}) for v in value]
            if isinstance(value, tuple):
                return tuple(call(ctx, [v], {}) for v in value)
            if isinstance(value, dict):
                return {k: call(ctx, [v], {}) for k, v in value.items()}
            return value
        if isinstance(value, list | dict | set):
            return copy.copy(value)
        return value

    return Builtin("copy.deepcopy" if deep else "copy.copy", call)


def _field(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    # The front end reads ``field(...)`` in a dataclass's body itself; elsewhere it is a marker.
    return kwargs.get("default", UNDEFINED)


def _defaultdict(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return DefaultDict(arg(args, 0))


class DefaultDict(dict[Any, Value]):
    """``collections.defaultdict``: a dict whose missing keys the script's factory fills."""

    def __init__(self, factory: Value) -> None:
        super().__init__()
        self.factory = factory


def _typing_missing(name: str) -> Value:
    return Unknown(f"typing.{name} has no run-time value")


def builtin_members() -> dict[tuple[str, str], Value]:
    """Members of built-in functions: ``itertools.chain.from_iterable``."""
    return {
        ("itertools.chain", "from_iterable"): Builtin("itertools.chain.from_iterable", _chain_from)
    }


def _enum_module() -> Namespace:
    enum_classes = {k: enum_base(k) for k in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag")}
    return Namespace("enum", {**enum_classes, "auto": Builtin("enum.auto", lambda c, a, k: Auto())})


@cache
def module_builders() -> dict[str, Callable[[], Value]]:
    """How to make each standard module for a run (a script may assign into a module)."""
    return {
        "math": lambda: Namespace("math", dict(_math_members())),
        "random": lambda: Namespace(
            "random", missing=lambda name: Builtin(f"random.{name}", _random_value)
        ),
        "itertools": lambda: Namespace("itertools", dict(_itertools_members())),
        "functools": lambda: Namespace("functools", dict(_functools_members())),
        "collections": lambda: Namespace(
            "collections",
            {
                "namedtuple": Builtin("collections.namedtuple", _namedtuple),
                "defaultdict": Builtin("collections.defaultdict", _defaultdict),
                "OrderedDict": Builtin(
                    "collections.OrderedDict",
                    lambda c, a, k: dict(a[0]) if a and isinstance(a[0], dict) else {**k},
                ),
            },
        ),
        "dataclasses": lambda: Namespace(
            "dataclasses",
            {
                "dataclass": Builtin("dataclasses.dataclass", _identity_decorator),
                "field": Builtin("dataclasses.field", _field),
                "asdict": Builtin("dataclasses.asdict", _asdict),
                "astuple": Builtin("dataclasses.astuple", _astuple),
                "replace": Builtin("dataclasses.replace", _replace),
            },
        ),
        "enum": _enum_module,
        "typing": lambda: Namespace("typing", missing=_typing_missing),
        "copy": lambda: Namespace("copy", {"copy": _copy(False), "deepcopy": _copy(True)}),
    }


__all__ = ["DefaultDict", "builtin_members", "module_builders"]
