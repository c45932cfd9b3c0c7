"""Methods of Python's plain values: lists, tuples, dicts, sets, strings and generators, run
by Python itself on the evaluator's values where the values are plain (so the results are
CPython's), with keys and comparisons that call back into the script (``sort(key=...)``).
What Python raises (``list.remove`` of a missing item, ``dict.pop`` of a missing key) is raised
in the script as the same exception."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.values import UNDEFINED, Builtin, Unknown, Value, type_name
from parsers.evaluator.python.classes import raise_error, unhashable
from parsers.evaluator.python.text import is_plain, str_format

if TYPE_CHECKING:
    from parsers.evaluator.python.lib import Python

#: Largest text or list a method may build.
MAX_SIZE = 1_000_000

Method = Callable[[CallContext, Any, list[Value], dict[str, Value]], Value]


def sort_key(ctx: CallContext, key: Value) -> Callable[[Value], Any] | None:
    """A Python sort key calling the script's ``key`` function (None: the items themselves)."""
    if key is UNDEFINED or key is None:
        return None
    return lambda item: ctx.call(key, [item])


def sorted_items(
    ctx: CallContext, items: list[Value], key: Value, reverse: Value
) -> list[Value] | Unknown:
    """``sorted(items, key=key, reverse=reverse)``, stable, as Python sorts."""
    function = sort_key(ctx, key)
    keys = items if function is None else [function(item) for item in items]
    if any(isinstance(k, Unknown) for k in keys):
        return Unknown("sorted by keys that cannot be known statically", ctx.line)
    order = list(range(len(items)))
    # Plain data sorts as Python sorts it; anything else compares through the dialect.
    native = all(is_plain(k) for k in keys)
    try:
        order.sort(
            key=(lambda i: keys[i]) if native else (lambda i: _Ordered(ctx, keys[i])),
            reverse=bool(ctx.truthy(reverse)),
        )
    except TypeError as error:
        raise_error(ctx, "TypeError", str(error))
    return [items[i] for i in order]


class _Ordered:
    """A value compared with ``<`` as the script's dialect compares it (user ``__lt__``)."""

    __slots__ = ("ctx", "value")

    def __init__(self, ctx: CallContext, value: Value) -> None:
        self.ctx, self.value = ctx, value

    def __lt__(self, other: _Ordered) -> bool:
        result = self.ctx.interp.binary("<", self.value, other.value, self.ctx.line, self.ctx.col)
        truth = self.ctx.truthy(result)
        if truth is None:
            raise TypeError("an order that cannot be known statically")
        return truth


def _methods(py: Python) -> dict[type, dict[str, Builtin]]:
    def m(
        name: str, fn: Callable[[CallContext, Any, list[Value], dict[str, Value]], Value]
    ) -> Builtin:
        return Builtin(name, fn)

    def items_of(ctx: CallContext, value: Value) -> Iterable[Value] | None:
        return ctx.interp.iterate(value, "of")

    def append(
        ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        lst.append(arg(args, 0))
        return None

    def extend(
        ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        items = items_of(ctx, arg(args, 0))
        if items is None:
            ctx.warning(
                "eval.unknown_iterable",
                "list.extend with items that cannot be known; nothing added",
            )
        else:
            lst.extend(itertools.islice(items, MAX_SIZE))
        return None

    def insert(
        ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        if isinstance(arg(args, 0), int):
            lst.insert(args[0], arg(args, 1))
        else:
            ctx.warning(
                "eval.unknown_value",
                "list.insert at a position that cannot be known; nothing inserted",
            )
        return None

    def pop(ctx: CallContext, container: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(container, dict):
            key = arg(args, 0)
            if key in container:
                return container.pop(key)
            if len(args) > 1:
                return args[1]
            raise_error(ctx, "KeyError", key)
        try:
            return container.pop(*args[:1])
        except IndexError as error:
            raise_error(ctx, "IndexError", str(error))
        except (KeyError, TypeError):
            return Unknown("pop of an item that cannot be known", ctx.line)

    def remove(
        ctx: CallContext, container: Any, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        value = arg(args, 0)
        for i, item in enumerate(container):
            same = ctx.interp.dialect.equals(item, value)
            if same is None:
                return Unknown("remove of a value that cannot be compared", ctx.line)
            if same:
                del container[i]
                return None
        raise_error(ctx, "ValueError", "list.remove(x): x not in list")

    def index(ctx: CallContext, seq: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            return seq.index(*args[:3])
        except ValueError as error:
            raise_error(ctx, "ValueError", str(error))
        except TypeError:
            return Unknown("index of a value that cannot be known", ctx.line)

    def sort(
        ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        ordered = sorted_items(
            ctx, list(lst), kwargs.get("key", UNDEFINED), kwargs.get("reverse", False)
        )
        if isinstance(ordered, Unknown):
            ctx.warning(
                "eval.unknown_value", f"list.sort left the list as it was: {ordered.reason}"
            )
        else:
            lst[:] = ordered
        return None

    def get(
        ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        key = arg(args, 0)
        try:
            return d.get(key, None if len(args) < 2 else args[1])
        except TypeError:
            return Unknown("a key that cannot be hashed", ctx.line)

    def update(
        ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        source = arg(args, 0)
        if isinstance(source, dict):
            d.update(source)
        elif source is not UNDEFINED:
            items = items_of(ctx, source)
            for pair in items or ():
                if isinstance(pair, list | tuple) and len(pair) == 2:
                    d[pair[0]] = pair[1]
        d.update(kwargs)
        return None

    def setdefault(
        ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        return d.setdefault(arg(args, 0), None if len(args) < 2 else args[1])

    def fmt(ctx: CallContext, text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return str_format(ctx, text, args, kwargs)

    def join(ctx: CallContext, text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = items_of(ctx, arg(args, 0))
        parts = list(itertools.islice(items, MAX_SIZE)) if items is not None else None
        if parts is None or not all(isinstance(p, str) for p in parts):
            if parts is not None and not any(isinstance(p, Unknown) for p in parts):
                raise_error(ctx, "TypeError", "sequence item: expected str instance")
            return Unknown("join of values that are not all known text", ctx.line)
        return text.join(parts)

    def text_method(name: str) -> Builtin:
        def call(ctx: CallContext, text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
            plain = [*args, *kwargs.values()]
            if not all(isinstance(a, str | int | tuple) or a is None for a in plain):
                return Unknown(f"str.{name} of arguments that cannot be known", ctx.line)
            try:
                result = getattr(text, name)(*args, **kwargs)
            except (TypeError, ValueError) as error:
                raise_error(
                    ctx, "ValueError" if isinstance(error, ValueError) else "TypeError", str(error)
                )
            if isinstance(result, str) and len(result) > MAX_SIZE:
                return Unknown("a text too long to build", ctx.line)
            return result

        return m(f"str.{name}", call)

    def set_method(name: str) -> Builtin:
        takes_items = name not in ("add", "discard", "remove", "pop", "clear", "copy")

        def call(
            ctx: CallContext, s: set[Any], args: list[Value], kwargs: dict[str, Value]
        ) -> Value:
            others = []
            for value in args:
                if not takes_items:
                    if isinstance(value, Unknown):
                        return Unknown(f"set.{name} of a value that cannot be known", ctx.line)
                    others.append(value)
                    continue
                items = items_of(ctx, value)
                if items is None:
                    return Unknown(f"set.{name} of items that cannot be known", ctx.line)
                others.append(list(itertools.islice(items, MAX_SIZE)))
            try:
                result = getattr(s, name)(*others)
            except TypeError as error:
                flat = [v for o in others for v in (o if isinstance(o, list) else [o])]
                return unhashable(ctx, flat, error)
            except KeyError as error:
                raise_error(ctx, "KeyError", error.args[0] if error.args else None)
            return result

        return m(f"set.{name}", call)

    def send(
        ctx: CallContext, gen: Generator, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        try:
            return gen.send(arg(args, 0))
        except StopIteration:
            raise_error(ctx, "StopIteration", gen.result if gen.result is not UNDEFINED else None)

    def close(
        ctx: CallContext, gen: Generator, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        gen.done = True
        return None

    list_methods = {
        "append": m("list.append", append),
        "extend": m("list.extend", extend),
        "insert": m("list.insert", insert),
        "pop": m("list.pop", pop),
        "remove": m("list.remove", remove),
        "index": m("list.index", index),
        "count": m("list.count", lambda c, s, a, k: s.count(arg(a, 0))),
        "copy": m("list.copy", lambda c, s, a, k: list(s)),
        "reverse": m("list.reverse", lambda c, s, a, k: s.reverse()),
        "sort": m("list.sort", sort),
        "clear": m("list.clear", lambda c, s, a, k: s.clear()),
    }
    tuple_methods = {"index": m("tuple.index", index), "count": list_methods["count"]}
    dict_methods = {
        **python2_dict_methods(),
        "get": m("dict.get", get),
        "items": m("dict.items", lambda c, d, a, k: [(key, value) for key, value in d.items()]),
        "keys": m("dict.keys", lambda c, d, a, k: list(d.keys())),
        "values": m("dict.values", lambda c, d, a, k: list(d.values())),
        "update": m("dict.update", update),
        "setdefault": m("dict.setdefault", setdefault),
        "pop": m("dict.pop", pop),
        "popitem": m(
            "dict.popitem",
            lambda c, d, a, k: d.popitem() if d else Unknown("popitem of an empty dict"),
        ),
        "copy": m("dict.copy", lambda c, d, a, k: dict(d)),
        "clear": m("dict.clear", lambda c, d, a, k: d.clear()),
    }
    str_methods = {
        "format": m("str.format", fmt),
        "join": m("str.join", join),
        **{
            name: text_method(name)
            for name in (
                "upper",
                "lower",
                "strip",
                "lstrip",
                "rstrip",
                "title",
                "capitalize",
                "swapcase",
                "casefold",
                "startswith",
                "endswith",
                "replace",
                "find",
                "rfind",
                "index",
                "rindex",
                "count",
                "zfill",
                "center",
                "ljust",
                "rjust",
                "split",
                "rsplit",
                "splitlines",
                "partition",
                "rpartition",
                "isdigit",
                "isalpha",
                "isalnum",
                "isspace",
                "islower",
                "isupper",
                "isnumeric",
                "isdecimal",
                "isidentifier",
                "istitle",
                "removeprefix",
                "removesuffix",
                "expandtabs",
                "encode",
            )
        },
    }
    set_methods = {
        name: set_method(name)
        for name in (
            "add", "discard", "remove", "pop", "clear", "union", "intersection", "difference",
            "symmetric_difference", "issubset", "issuperset", "isdisjoint", "update",
            "intersection_update", "difference_update", "copy",
        )
    }  # fmt: skip
    frozenset_methods = {
        name: method
        for name, method in set_methods.items()
        if name not in ("add", "discard", "remove", "pop", "clear", "update")
        and not name.endswith("_update")
    }
    generator_methods = {
        "send": m("generator.send", send),
        "close": m("generator.close", close),
        "__next__": m("generator.__next__", lambda c, g, a, k: send(c, g, [None], k)),
    }
    return {
        list: list_methods,
        tuple: tuple_methods,
        dict: dict_methods,
        str: str_methods,
        set: set_methods,
        frozenset: frozenset_methods,
        Generator: generator_methods,
    }


def unbound_method(methods: dict[type, dict[str, Builtin]], owner: str, name: str) -> Value:
    """``str.lower``, ``list.append``...: the method of a type read from the type, called with
    the instance first (``sorted(words, key=str.lower)``)."""
    types = {"str": str, "list": list, "dict": dict, "tuple": tuple, "set": set}
    python_type = types.get(owner)
    method = methods.get(python_type, {}).get(name) if python_type is not None else None
    if method is None:
        return Unknown(f"{owner}.{name} is not known")

    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        receiver = arg(args, 0)
        if not isinstance(receiver, python_type):  # type: ignore[arg-type]
            return Unknown(f"{owner}.{name} of a {type_name(receiver)}", ctx.line)
        return method.fn(ctx, receiver, list(args[1:]), kwargs)

    return Builtin(f"{owner}.{name}", call)


def python2_dict_methods() -> dict[str, Builtin]:
    """Python 2's dict methods (``iteritems``, ``itervalues``, ``iterkeys``), read as their
    Python 3 forms, with a remark."""
    from parsers.evaluator.python.lib import python2_remark

    def renamed(name: str, now: str, fn: Callable[[dict[Any, Value]], Value]) -> Builtin:
        def call(ctx: CallContext, d: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
            python2_remark(ctx, f"dict.{name}()", f"dict.{now}()")
            return fn(d)

        return Builtin(f"dict.{name}", call)

    return {
        "iteritems": renamed("iteritems", "items", lambda d: list(d.items())),
        "itervalues": renamed("itervalues", "values", lambda d: list(d.values())),
        "iterkeys": renamed("iterkeys", "keys", lambda d: list(d.keys())),
    }


methods_of = _methods
