"""Methods of Python's plain values: lists, tuples, dicts, sets, strings and generators, run
by Python itself on the evaluator's values where the values are plain (so the results are
CPython's), with keys and comparisons that call back into the script (``sort(key=...)``).
What Python raises (``list.remove`` of a missing item, ``dict.pop`` of a missing key) is raised
in the script as the same exception."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.registry import registering
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


#: Methods of the plain types by their dotted name (``list.append``), registered by
#: ``@python_method``; ``methods_of`` sorts them into a table per type.
_METHOD_FUNCTIONS: Final[dict[str, Method]] = {}


#: ``@python_method("list.index", "tuple.index")``: the decorated function is those methods.
python_method = registering(_METHOD_FUNCTIONS)


def _items_of(ctx: CallContext, value: Value) -> Iterable[Value] | None:
    return ctx.interp.iterate(value, "of")


@python_method("list.append")
def list_append(
    ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    lst.append(arg(args, 0))
    return None


@python_method("list.extend")
def list_extend(
    ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    items = _items_of(ctx, arg(args, 0))
    if items is None:
        ctx.warning(
            "eval.unknown_iterable",
            "list.extend with items that cannot be known; nothing added",
        )
    else:
        lst.extend(itertools.islice(items, MAX_SIZE))
    return None


@python_method("list.insert")
def list_insert(
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


@python_method("list.pop", "dict.pop")
def container_pop(
    ctx: CallContext, container: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
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


@python_method("list.remove")
def list_remove(
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


@python_method("list.index", "tuple.index")
def sequence_index(
    ctx: CallContext, seq: Any, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    try:
        return seq.index(*args[:3])
    except ValueError as error:
        raise_error(ctx, "ValueError", str(error))
    except TypeError:
        return Unknown("index of a value that cannot be known", ctx.line)


@python_method("list.sort")
def list_sort(
    ctx: CallContext, lst: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    ordered = sorted_items(
        ctx, list(lst), kwargs.get("key", UNDEFINED), kwargs.get("reverse", False)
    )
    if isinstance(ordered, Unknown):
        ctx.warning("eval.unknown_value", f"list.sort left the list as it was: {ordered.reason}")
    else:
        lst[:] = ordered
    return None


@python_method("dict.get")
def dict_get(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    key = arg(args, 0)
    try:
        return d.get(key, None if len(args) < 2 else args[1])
    except TypeError:
        return Unknown("a key that cannot be hashed", ctx.line)


@python_method("dict.update")
def dict_update(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    source = arg(args, 0)
    if isinstance(source, dict):
        d.update(source)
    elif source is not UNDEFINED:
        items = _items_of(ctx, source)
        for pair in items or ():
            if isinstance(pair, list | tuple) and len(pair) == 2:
                d[pair[0]] = pair[1]
    d.update(kwargs)
    return None


@python_method("dict.setdefault")
def dict_setdefault(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return d.setdefault(arg(args, 0), None if len(args) < 2 else args[1])


@python_method("str.format")
def text_format(ctx: CallContext, text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return str_format(ctx, text, args, kwargs)


@python_method("str.join")
def text_join(ctx: CallContext, text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    items = _items_of(ctx, arg(args, 0))
    parts = list(itertools.islice(items, MAX_SIZE)) if items is not None else None
    if parts is None or not all(isinstance(p, str) for p in parts):
        if parts is not None and not any(isinstance(p, Unknown) for p in parts):
            raise_error(ctx, "TypeError", "sequence item: expected str instance")
        return Unknown("join of values that are not all known text", ctx.line)
    return text.join(parts)


def _text_method(name: str) -> Builtin:
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

    return Builtin(f"str.{name}", call)


def _set_method(name: str) -> Builtin:
    takes_items = name not in ("add", "discard", "remove", "pop", "clear", "copy")

    def call(ctx: CallContext, s: set[Any], args: list[Value], kwargs: dict[str, Value]) -> Value:
        others = []
        for value in args:
            if not takes_items:
                if isinstance(value, Unknown):
                    return Unknown(f"set.{name} of a value that cannot be known", ctx.line)
                others.append(value)
                continue
            items = _items_of(ctx, value)
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

    return Builtin(f"set.{name}", call)


@python_method("generator.send")
def generator_send(
    ctx: CallContext, gen: Generator, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    try:
        return gen.send(arg(args, 0))
    except StopIteration:
        raise_error(ctx, "StopIteration", gen.result if gen.result is not UNDEFINED else None)


@python_method("generator.close")
def generator_close(
    ctx: CallContext, gen: Generator, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    gen.done = True
    return None


@python_method("list.count")
def list_count(
    ctx: CallContext, s: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.count(arg(args, 0))


@python_method("list.copy")
def list_copy(
    ctx: CallContext, s: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return list(s)


@python_method("list.reverse")
def list_reverse(
    ctx: CallContext, s: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.reverse()


@python_method("list.clear")
def list_clear(
    ctx: CallContext, s: list[Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return s.clear()


@python_method("dict.items")
def dict_items(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return [(key, value) for key, value in d.items()]


@python_method("dict.keys")
def dict_keys(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return list(d.keys())


@python_method("dict.values")
def dict_values(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return list(d.values())


@python_method("dict.popitem")
def dict_popitem(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return d.popitem() if d else Unknown("popitem of an empty dict")


@python_method("dict.copy")
def dict_copy(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return dict(d)


@python_method("dict.clear")
def dict_clear(
    ctx: CallContext, d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return d.clear()


@python_method("generator.__next__")
def generator_next(
    ctx: CallContext, gen: Generator, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return generator_send(ctx, gen, [None], kwargs)


def _methods(py: Python) -> dict[type, dict[str, Builtin]]:
    """The table of each plain type's methods, made once per dialect class."""

    def method(name: str) -> Builtin:
        return Builtin(name, _METHOD_FUNCTIONS[name])

    list_methods = {
        "append": method("list.append"),
        "extend": method("list.extend"),
        "insert": method("list.insert"),
        "pop": method("list.pop"),
        "remove": method("list.remove"),
        "index": method("list.index"),
        "count": method("list.count"),
        "copy": method("list.copy"),
        "reverse": method("list.reverse"),
        "sort": method("list.sort"),
        "clear": method("list.clear"),
    }
    tuple_methods = {"index": method("tuple.index"), "count": list_methods["count"]}
    dict_methods = {
        **python2_dict_methods(),
        "get": method("dict.get"),
        "items": method("dict.items"),
        "keys": method("dict.keys"),
        "values": method("dict.values"),
        "update": method("dict.update"),
        "setdefault": method("dict.setdefault"),
        "pop": method("dict.pop"),
        "popitem": method("dict.popitem"),
        "copy": method("dict.copy"),
        "clear": method("dict.clear"),
    }
    str_methods = {
        "format": method("str.format"),
        "join": method("str.join"),
        **{
            name: _text_method(name)
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
        name: _set_method(name)
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
        "send": method("generator.send"),
        "close": method("generator.close"),
        "__next__": method("generator.__next__"),
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
