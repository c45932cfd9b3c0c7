"""Python's built-in functions for the evaluator: ``range``, ``len``, ``sorted``, ``min``,
``isinstance``, ``str``... as CPython gives them, over the evaluator's values (plain data,
numpy arrays, generators, instances of the script's classes through their own methods).

What CPython raises is raised in the script as the same exception (``int("x")`` is a
``ValueError`` the script may catch); what cannot be known statically is an ``Unknown`` with the
reason. The built-ins the front end calls by hidden names (``%format`` for f-strings,
``%decorate``, ``%exception_matches``, ``%raise_value`` and the ``%match_*`` helpers of
``match`` statements) live here too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import ThrowSignal
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.registry import registering
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    BuiltinFn,
    ClassValue,
    Closure,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)
from parsers.evaluator.python import numpy_lib as npl
from parsers.evaluator.python.classes import (
    call_method,
    class_named,
    enum_members,
    enum_value,
    exception,
    has_method,
    instance_of,
    marker,
    namedtuple_values,
    plain_instance,
    raise_error,
    subclass_of,
    unhashable,
)
from parsers.evaluator.python.methods import sorted_items
from parsers.evaluator.python.text import py_format, py_repr, py_str

if TYPE_CHECKING:
    from parsers.evaluator.python.lib import Python

_MAX_SIZE = 1_000_000


class LazyIterator:
    """What ``enumerate``, ``zip``, ``map``, ``filter``, ``reversed`` and ``iter`` give:
    single use, lazy (a loop over ``enumerate(range(10**9))`` is cut by the loop cap)."""

    __slots__ = ("items", "name")

    def __init__(self, name: str, items: Iterator[Value]) -> None:
        self.name = name
        self.items = items


#: ``%missing``: a dataclass field's default that is made per instance (``default_factory``).
MISSING = Namespace("%missing")


def iterable(ctx: CallContext, value: Value, what: str) -> Iterator[Value] | Unknown:
    """The items of ``value`` for a built-in, or an ``Unknown`` saying why there are none."""
    items = ctx.interp.iterate(value, "of")
    if items is None:
        if isinstance(value, Unknown):
            return value
        if not isinstance(value, Record | ClassValue):
            raise_error(ctx, "TypeError", f"'{type_name(value)}' object is not iterable")
        return Unknown(f"{what} of a {type_name(value)}", ctx.line)
    return iter(items)


def collected(ctx: CallContext, value: Value, what: str) -> list[Value] | Unknown:
    items = iterable(ctx, value, what)
    if isinstance(items, Unknown):
        return items
    return list(itertools.islice(items, ctx.interp.limits.max_collection))


#: Python's built-in functions by name, registered by ``@py_builtin`` (the front end's hidden
#: helpers, ``%format`` and the like, among them); ``python_globals`` adds those made by a
#: factory (``list``, ``min``, ``float``...) and the constants.
_BUILTINS: Final[dict[str, BuiltinFn]] = {}


#: ``@py_builtin("range")``: the decorated function is that built-in.
py_builtin = registering(_BUILTINS)


def _numbers(args: list[Value]) -> list[float | int] | Unknown:
    result = []
    for value in args:
        if type(value) is Record:
            value = enum_value(value)
        if isinstance(value, Unknown):
            return value
        if npl.is_array(value) and value.native.size == 1:
            value = npl.wrap(value.native.ravel()[0])
        if not is_number(value) and not isinstance(value, bool):
            return Unknown(f"a {type_name(value)} where a number is expected")
        result.append(value)
    return result


@py_builtin("range")
def range_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    values = _numbers(args)
    if isinstance(values, Unknown):
        return values
    if not all(isinstance(v, int) for v in values) or not 1 <= len(values) <= 3:
        raise_error(ctx, "TypeError", "range() takes integers")
    if len(values) == 3 and values[2] == 0:
        raise_error(ctx, "ValueError", "range() arg 3 must not be zero")
    return range(*values)  # type: ignore[arg-type]


@py_builtin("enumerate")
def enumerate_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    items = iterable(ctx, arg(args, 0, kwargs, "iterable"), "enumerate")
    start = arg(args, 1, kwargs, "start")
    if isinstance(items, Unknown):
        return items
    first = start if isinstance(start, int) else 0
    return LazyIterator("enumerate", ((i, v) for i, v in enumerate(items, first)))


@py_builtin("zip")
def zip_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    sources = [iterable(ctx, a, "zip") for a in args]
    for source in sources:
        if isinstance(source, Unknown):
            return source
    return LazyIterator("zip", (tuple(t) for t in zip(*sources, strict=False)))


@py_builtin("reversed")
def reversed_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, list | tuple | str | range):
        return LazyIterator("reversed", iter(value[::-1]))
    if isinstance(value, dict):
        return LazyIterator("reversed", iter(list(value)[::-1]))
    if npl.is_array(value):
        return LazyIterator("reversed", iter(list(npl.array_items(value))[::-1]))
    if isinstance(value, Record) and has_method(value, "__reversed__"):
        return call_method(ctx, value, "__reversed__", [])
    return Unknown("reversed of a value that cannot be known statically", ctx.line)


@py_builtin("next")
def next_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    source, default = arg(args, 0), arg(args, 1)
    items: Iterator[Value] | None = None
    if isinstance(source, Generator):
        items = source
    elif isinstance(source, LazyIterator):
        items = source.items
    elif isinstance(source, Record) and has_method(source, "__next__"):
        return call_method(ctx, source, "__next__", [])
    if items is None:
        if isinstance(source, Unknown):
            return source
        raise_error(ctx, "TypeError", f"'{type_name(source)}' object is not an iterator")
    try:
        return next(items)
    except StopIteration:
        if default is UNDEFINED:
            raise_error(ctx, "StopIteration")
        return default


@py_builtin("iter")
def iter_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    source = arg(args, 0)
    if isinstance(source, Generator | LazyIterator):
        return source
    items = iterable(ctx, source, "iter")
    return items if isinstance(items, Unknown) else LazyIterator("iter", items)


def _length(ctx: CallContext, value: Value) -> Value:
    if isinstance(value, list | tuple | str | dict | range | set | frozenset):
        return len(value)
    if npl.is_array(value):
        if not value.native.ndim:
            raise_error(ctx, "TypeError", "len() of unsized object")
        return int(value.native.shape[0])
    if isinstance(value, Record) and value.cls is not None:
        values = namedtuple_values(value)
        if values is not None:
            return len(values)
        if has_method(value, "__len__"):
            return call_method(ctx, value, "__len__", [])
    if isinstance(value, ClassValue):
        members = enum_members(value)
        if members is not None:
            return len(members)
    if isinstance(value, Unknown):
        return value
    return Unknown(f"len of a {type_name(value)}", ctx.line)


@py_builtin("len")
def len_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _length(ctx, arg(args, 0))


def _collect(name: str, build: Callable[[list[Value]], Value]) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if not args:
            return build([])
        items = collected(ctx, args[0], name)
        if isinstance(items, Unknown):
            return items
        try:
            return build(items)
        except TypeError as error:
            return unhashable(ctx, items, error)

    return Builtin(name, call)


@py_builtin("sorted")
def sorted_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    items = collected(ctx, arg(args, 0), "sorted")
    if isinstance(items, Unknown):
        return items
    if any(isinstance(v, Unknown) for v in items):
        return Unknown("sorted of values that cannot be known statically", ctx.line)
    return sorted_items(ctx, items, kwargs.get("key", UNDEFINED), kwargs.get("reverse", False))


def _extreme(name: str, pick: Callable[..., Any]) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        source: Value = list(args) if len(args) > 1 else arg(args, 0)
        items = collected(ctx, source, name)
        if isinstance(items, Unknown):
            return items
        if not items:
            if "default" in kwargs:
                return kwargs["default"]
            raise_error(ctx, "ValueError", f"{name}() arg is an empty sequence")
        key = kwargs.get("key", UNDEFINED)
        keys = items if key in (UNDEFINED, None) else [ctx.call(key, [v]) for v in items]
        if any(isinstance(k, Unknown) for k in keys):
            return Unknown(f"{name} of values that cannot be known statically", ctx.line)
        best = 0
        for i in range(1, len(items)):
            if pick(ctx, keys[i], keys[best]):
                best = i
        return items[best]

    return Builtin(name, call)


def _less(ctx: CallContext, a: Value, b: Value) -> bool:
    truth = ctx.truthy(ctx.interp.binary("<", a, b, ctx.line, ctx.col))
    if truth is None:
        raise_error(ctx, "TypeError", "'<' between values that cannot be ordered")
    return truth


@py_builtin("sum")
def sum_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    items = collected(ctx, arg(args, 0), "sum")
    if isinstance(items, Unknown):
        return items
    total: Value = arg(args, 1, kwargs, "start")
    total = 0 if total is UNDEFINED else total
    for item in items:
        total = ctx.interp.binary("+", total, item, ctx.line, ctx.col)
        if isinstance(total, Unknown):
            return total
    return total


def _truth_of(name: str, wanted: bool) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = iterable(ctx, arg(args, 0), name)
        if isinstance(items, Unknown):
            return items
        undecided = False
        for item in itertools.islice(items, ctx.interp.limits.max_collection):
            truth = ctx.interp.truth(item, ctx.line, ctx.col)
            if truth is None:
                undecided = True
            elif truth is wanted:
                return wanted
        if undecided:
            return Unknown(f"{name} of values that cannot be known statically", ctx.line)
        return not wanted

    return Builtin(name, call)


def _number_of(name: str, convert: Callable[[Any], Value]) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = enum_value(arg(args, 0))
        if value is UNDEFINED:
            return convert(0)
        if isinstance(value, Unknown):
            return value
        if npl.is_array(value):
            if value.native.size != 1:
                raise_error(ctx, "TypeError", f"only size-1 arrays can be converted to {name}")
            value = value.native.ravel()[0].item()
        if isinstance(value, Record) and has_method(value, f"__{name}__"):
            return call_method(ctx, value, f"__{name}__", [])
        base = arg(args, 1, kwargs, "base")
        try:
            if name == "int" and base is not UNDEFINED:
                if not isinstance(value, str) or not isinstance(base, int):
                    return Unknown("int() with a base of values that cannot be known")
                return int(value, base)
            if not isinstance(value, int | float | str | bool):
                raise_error(
                    ctx,
                    "TypeError",
                    f"{name}() argument must be a string or a number, not '{type_name(value)}'",
                )
            return convert(value)
        except ValueError:
            raise_error(ctx, "ValueError", f"could not convert string to {name}: {value!r}")
        except OverflowError as error:
            raise_error(ctx, "OverflowError", str(error))

    return Builtin(name, call)


@py_builtin("abs")
def abs_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = enum_value(arg(args, 0))
    if isinstance(value, Unknown):
        return value
    if npl.is_array(value):
        return npl.wrap(abs(value.native))
    if isinstance(value, Record) and has_method(value, "__abs__"):
        return call_method(ctx, value, "__abs__", [])
    if not is_number(value) and not isinstance(value, bool):
        raise_error(ctx, "TypeError", f"bad operand type for abs(): '{type_name(value)}'")
    return abs(value)


@py_builtin("round")
def round_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value, digits = enum_value(arg(args, 0)), arg(args, 1, kwargs, "ndigits")
    if isinstance(value, Unknown) or isinstance(digits, Unknown):
        return value if isinstance(value, Unknown) else digits
    if npl.is_array(value):
        return npl.wrap(value.native.round(int(digits) if isinstance(digits, int) else 0))
    if isinstance(value, Record) and has_method(value, "__round__"):
        return call_method(ctx, value, "__round__", [] if digits is UNDEFINED else [digits])
    try:
        return round(value) if digits in (UNDEFINED, None) else round(value, digits)
    except (TypeError, ValueError, OverflowError) as error:
        raise_error(ctx, "TypeError", str(error))


@py_builtin("divmod")
def divmod_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    values = _numbers(args[:2])
    if isinstance(values, Unknown):
        return values
    try:
        return divmod(values[0], values[1])
    except ZeroDivisionError as error:
        raise_error(ctx, "ZeroDivisionError", str(error))


@py_builtin("pow")
def pow_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    values = _numbers(args[:3])
    if isinstance(values, Unknown):
        return values
    if len(values) == 3:
        try:
            return pow(int(values[0]), int(values[1]), int(values[2]))
        except (ValueError, ZeroDivisionError) as error:
            raise_error(ctx, "ValueError", str(error))
    return ctx.interp.binary("**", values[0], values[1], ctx.line, ctx.col)


def _integer_text(name: str, convert: Callable[[int], str]) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = enum_value(arg(args, 0))
        if isinstance(value, Unknown):
            return value
        if not isinstance(value, int):
            raise_error(
                ctx,
                "TypeError",
                f"'{type_name(value)}' object cannot be interpreted as an integer",
            )
        return convert(value)

    return Builtin(name, call)


@py_builtin("chr")
def chr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, int) and 0 <= value <= 0x10FFFF:
        return chr(value)
    return value if isinstance(value, Unknown) else Unknown("chr of this value", ctx.line)


@py_builtin("ord")
def ord_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, str) and len(value) == 1:
        return ord(value)
    return value if isinstance(value, Unknown) else Unknown("ord of this value", ctx.line)


@py_builtin("str")
def str_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return "" if not args else py_str(ctx, args[0])


@py_builtin("repr")
def repr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return py_repr(ctx, arg(args, 0))


@py_builtin("bool")
def bool_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if not args:
        return False
    truth = ctx.interp.truth(args[0], ctx.line, ctx.col)
    return Unknown("truth of a value that cannot be known", ctx.line) if truth is None else truth


@py_builtin("format")
def format_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    spec = arg(args, 1)
    return py_format(ctx, arg(args, 0), spec if isinstance(spec, str) else "")


@py_builtin("%format")
def fstring_part(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """An f-string's ``{value!conversion:spec}``."""
    value, spec, conversion = arg(args, 0), arg(args, 1), arg(args, 2)
    if isinstance(spec, Unknown):
        return spec
    if conversion in ("r", "a"):
        value = py_repr(ctx, value)
    elif conversion == "s":
        value = py_str(ctx, value)
    return py_format(ctx, value, spec if isinstance(spec, str) else "")


@py_builtin("isinstance")
def isinstance_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    answer = instance_of(ctx, arg(args, 0), arg(args, 1))
    if answer is None:
        return Unknown("isinstance that cannot be decided statically", ctx.line)
    return answer


@py_builtin("issubclass")
def issubclass_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    cls, base = arg(args, 0), arg(args, 1)
    bases = base if isinstance(base, tuple) else (base,)
    if isinstance(cls, ClassValue) and all(isinstance(b, ClassValue) for b in bases):
        return any(subclass_of(cls, b) for b in bases)
    if isinstance(cls, Builtin) and all(isinstance(b, Builtin) for b in bases):
        return any(cls.name == b.name or (cls.name == "bool" and b.name == "int") for b in bases)
    return Unknown("issubclass that cannot be decided statically", ctx.line)


@py_builtin("type")
def type_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, Record) and value.cls is not None:
        return value.cls
    for name in ("bool", "int", "float", "str", "list", "tuple", "dict", "set", "frozenset"):
        if plain_instance(value, name) and type(value).__name__ == name:
            return ctx.interp.globals.vars.get(name, Unknown(name))
    if value is None or value is UNDEFINED:
        return Unknown("the type of None is not modelled", ctx.line)
    return Unknown(f"the type of a {type_name(value)} is not modelled", ctx.line)


@py_builtin("callable")
def callable_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, Unknown):
        return value
    if isinstance(value, Record):
        return has_method(value, "__call__")
    return isinstance(value, Closure | Builtin | BoundMethod | ClassValue | EngineClass)


@py_builtin("getattr")
def getattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj, name, default = arg(args, 0), arg(args, 1), arg(args, 2)
    if not isinstance(name, str):
        return Unknown(
            name.reason if isinstance(name, Unknown) else "getattr with a name that is not text"
        )
    value = ctx.member(obj, name)
    if value is UNDEFINED:
        if default is UNDEFINED:
            raise_error(
                ctx, "AttributeError", f"'{type_name(obj)}' object has no attribute '{name}'"
            )
        return default
    if isinstance(value, Unknown) and default is not UNDEFINED:
        return default
    return value


@py_builtin("hasattr")
def hasattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj, name = arg(args, 0), arg(args, 1)
    if not isinstance(name, str):
        return Unknown("hasattr with a name that cannot be known", ctx.line)
    value = ctx.member(obj, name)
    if isinstance(value, Unknown):
        return Unknown("hasattr that cannot be decided statically", ctx.line)
    return value is not UNDEFINED


@py_builtin("setattr")
def setattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj, name = arg(args, 0), arg(args, 1)
    if isinstance(name, str):
        ctx.set_member(obj, name, arg(args, 2))
    else:
        ctx.warning("eval.unknown_value", "setattr with a name that cannot be known; ignored")
    return None


@py_builtin("vars")
def vars_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    value = arg(args, 0)
    if isinstance(value, Record) and value.cls is not None:
        return value.fields
    return Unknown("vars of this value is not modelled", ctx.line)


def _globals_builtin(py: Python) -> Builtin:
    """``globals()``: the names a run made, without those it was given (``py``'s)."""

    def globals_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        table = ctx.interp.globals.vars
        given = py.given_names
        return {
            k: v
            for k, v in table.items()
            if not k.startswith("%") and given.get(k, MISSING) is not v
        }

    return Builtin("globals", globals_)


@py_builtin("map")
def map_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    function = arg(args, 0)
    sources = [iterable(ctx, a, "map") for a in args[1:]]
    for source in sources:
        if isinstance(source, Unknown):
            return source
    return LazyIterator("map", (ctx.call(function, list(t)) for t in zip(*sources, strict=False)))


@py_builtin("filter")
def filter_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    function, items = arg(args, 0), iterable(ctx, arg(args, 1), "filter")
    if isinstance(items, Unknown):
        return items

    def keep(value: Value) -> bool:
        test = value if function is None else ctx.call(function, [value])
        truth = ctx.interp.truth(test, ctx.line, ctx.col)
        if truth is None:
            ctx.warning(
                "eval.unknown_condition",
                "filter of a value that cannot be decided statically; left out",
            )
        return bool(truth)

    return LazyIterator("filter", (v for v in items if keep(v)))


@py_builtin("dict")
def dict_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    result: dict[Any, Value] = {}
    source = arg(args, 0)
    if isinstance(source, dict):
        result.update(source)
    elif source is not UNDEFINED:
        items = iterable(ctx, source, "dict")
        if isinstance(items, Unknown):
            return items
        for pair in items:
            if isinstance(pair, list | tuple) and len(pair) == 2:
                result[pair[0]] = pair[1]
            else:
                return Unknown("dict of items that are no pairs", ctx.line)
    result.update(kwargs)
    return result


@py_builtin("%decorate")
def decorate(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``@decorator`` on a function: the decorator's result, or the function itself when
    the decorator is not known (it is reported)."""
    decorator, function = arg(args, 0), arg(args, 1)
    if isinstance(decorator, Unknown):
        ctx.warning(
            "py.unknown_decorator",
            f"decorator not known ({decorator.reason}); the function is used undecorated",
        )
        return function
    return ctx.call(decorator, [function])


@py_builtin("%exception_matches")
def exception_matches(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """Whether the caught exception is an instance of an ``except`` clause's class(es)."""
    caught, kind = arg(args, 0), arg(args, 1)
    answer = instance_of(ctx, caught, kind)
    if answer is None:
        ctx.warning(
            "eval.unknown_condition",
            "whether this except clause catches the exception cannot be known; it is taken",
        )
        return True
    return answer


@py_builtin("%raise_value")
def raise_value(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """What ``raise X`` throws: ``X()`` when ``X`` is a class."""
    value = arg(args, 0)
    if isinstance(value, ClassValue):
        return ctx.call(value, [])
    return value


@py_builtin("%import_all")
def import_all(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``from module import *``: every member the module is known to hold."""
    from parsers.evaluator.python.lib import python_module

    module = arg(args, 0)
    if not isinstance(module, str):
        return None
    found = python_module(ctx, module)
    if found is None:
        found = ctx.interp.engine.resolve_import(ctx, module, None)
    if isinstance(found, Namespace):
        for name, value in found.members.items():
            if not name.startswith("_"):
                ctx.interp.globals.declare(name, value)
    else:
        ctx.info(
            "eval.unknown_module", f"from {module} import *: the names it brings are not known"
        )
    return None


@py_builtin("print")
def print_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return None


def _dynamic(name: str) -> Builtin:
    """``eval``, ``exec``, ``compile``: code made at run time, which is not read."""

    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        ctx.warning(
            "py.dynamic_code",
            f"{name}() runs code built while the script runs, which is not read; what it"
            " does is unknown",
        )
        return Unknown(f"the result of {name}() is not known", ctx.line)

    return Builtin(name, call)


@py_builtin("%assert")
def assert_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    truth = ctx.interp.truth(arg(args, 0), ctx.line, ctx.col)
    if truth is None:
        ctx.warning(
            "eval.unknown_condition",
            "this assertion cannot be decided statically; it is assumed to hold",
        )
    elif not truth:
        message = arg(args, 1)
        raise ThrowSignal(
            exception(ctx, "AssertionError", *(() if message is UNDEFINED else (message,))),
            ctx.line,
        )
    return None


def python_globals(py: Python) -> dict[str, Value]:
    """The built-ins, made once per dialect class: they hold nothing of a run. The registered
    functions (``@py_builtin``) by name, in the order of this table, with those made by a
    factory and the constants."""

    def builtin(name: str) -> Builtin:
        return Builtin(name, _BUILTINS[name])

    table: dict[str, Value] = {
        "range": builtin("range"),
        "enumerate": builtin("enumerate"),
        "zip": builtin("zip"),
        "reversed": builtin("reversed"),
        "len": builtin("len"),
        "next": builtin("next"),
        "iter": builtin("iter"),
        "list": _collect("list", list),
        "tuple": _collect("tuple", tuple),
        "set": _collect("set", set),
        "frozenset": _collect("frozenset", frozenset),
        "sorted": builtin("sorted"),
        "dict": builtin("dict"),
        "sum": builtin("sum"),
        "min": _extreme("min", lambda ctx, a, b: _less(ctx, a, b)),
        "max": _extreme("max", lambda ctx, a, b: _less(ctx, b, a)),
        "any": _truth_of("any", True),
        "all": _truth_of("all", False),
        "abs": builtin("abs"),
        "float": _number_of("float", float),
        "int": _number_of("int", int),
        "round": builtin("round"),
        "divmod": builtin("divmod"),
        "pow": builtin("pow"),
        "hex": _integer_text("hex", hex),
        "bin": _integer_text("bin", bin),
        "oct": _integer_text("oct", oct),
        "chr": builtin("chr"),
        "ord": builtin("ord"),
        "str": builtin("str"),
        "repr": builtin("repr"),
        "bool": builtin("bool"),
        "format": builtin("format"),
        "isinstance": builtin("isinstance"),
        "issubclass": builtin("issubclass"),
        "type": builtin("type"),
        "callable": builtin("callable"),
        "getattr": builtin("getattr"),
        "hasattr": builtin("hasattr"),
        "setattr": builtin("setattr"),
        "vars": builtin("vars"),
        "globals": _globals_builtin(py),
        "map": builtin("map"),
        "filter": builtin("filter"),
        "print": builtin("print"),
        "eval": _dynamic("eval"),
        "exec": _dynamic("exec"),
        "compile": _dynamic("compile"),
        "object": Builtin("object", lambda ctx, a, k: Unknown("object() has no static use")),
        "True": True,
        "False": False,
        "None": None,
        "NotImplemented": Unknown("NotImplemented"),
        "__name__": "__main__",
        "%import_all": builtin("%import_all"),
        "%format": builtin("%format"),
        "%decorate": builtin("%decorate"),
        "%exception_matches": builtin("%exception_matches"),
        "%raise_value": builtin("%raise_value"),
        "%assert": builtin("%assert"),
        "%missing": MISSING,
        **match_helpers(),
    }
    table.update(python2_names(range_, table["str"], table["int"]))
    return table


def match_helpers() -> dict[str, Value]:
    """The built-ins a ``match`` statement's patterns are lowered onto (``python.match``)."""

    def sequence(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, count, starred = arg(args, 0), arg(args, 1), arg(args, 2)
        if isinstance(subject, Unknown):
            return subject
        values = subject
        if isinstance(subject, Record):
            values = namedtuple_values(subject)
            if values is None:
                return False
        if not isinstance(values, list | tuple | range):
            return False
        return len(values) >= count if starred else len(values) == count

    def star(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, before, after = arg(args, 0), arg(args, 1), arg(args, 2)
        values = namedtuple_values(subject) if isinstance(subject, Record) else subject
        if not isinstance(values, list | tuple | range):
            return Unknown("a starred capture of something that is not a sequence", ctx.line)
        return list(values[before : len(values) - after])

    def mapping(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, keys = arg(args, 0), arg(args, 1)
        if isinstance(subject, Unknown):
            return subject
        if not isinstance(subject, dict):
            return False
        try:
            return all(key in subject for key in keys)
        except TypeError:
            return Unknown("a mapping pattern with a key that cannot be known", ctx.line)

    def rest(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, keys = arg(args, 0), arg(args, 1)
        if not isinstance(subject, dict):
            return Unknown("the rest of something that is not a mapping", ctx.line)
        return {k: v for k, v in subject.items() if k not in keys}

    def class_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, cls, positional, keywords = arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3)
        answer = instance_of(ctx, subject, cls)
        if answer is None:
            return Unknown("a class pattern that cannot be decided statically", ctx.line)
        if not answer:
            return False
        if isinstance(cls, Builtin):
            if positional > 1:
                raise_error(ctx, "TypeError", f"{cls.name}() accepts 1 positional sub-pattern")
            return True
        names = _match_args(cls)
        if positional and (names is None or positional > len(names)):
            raise_error(
                ctx,
                "TypeError",
                f"{class_named(cls)}() accepts {len(names or ())} positional sub-patterns",
            )
        for name in (*(names or ())[:positional], *keywords):
            if ctx.member(subject, name) is UNDEFINED:
                return False
        return True

    def attribute(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        subject, cls, index = arg(args, 0), arg(args, 1), arg(args, 2)
        if isinstance(cls, Builtin):
            return subject
        names = _match_args(cls)
        if names is None or not isinstance(index, int) or index >= len(names):
            return Unknown("a positional sub-pattern of a class without __match_args__", ctx.line)
        return ctx.member(subject, names[index])

    return {
        "%match_sequence": Builtin("%match_sequence", sequence),
        "%match_star": Builtin("%match_star", star),
        "%match_mapping": Builtin("%match_mapping", mapping),
        "%match_rest": Builtin("%match_rest", rest),
        "%match_class": Builtin("%match_class", class_),
        "%match_attribute": Builtin("%match_attribute", attribute),
    }


def _match_args(cls: Value) -> tuple[str, ...] | None:
    if not isinstance(cls, ClassValue):
        return None
    names = marker(cls, "__match_args__")
    if isinstance(names, tuple | list) and all(isinstance(n, str) for n in names):
        return tuple(names)
    fields = marker(cls, "%fields")
    return fields if isinstance(fields, tuple) else None


def python2_names(range_: Callable[..., Value], str_: Builtin, int_: Builtin) -> dict[str, Value]:
    """Python 2's built-ins that models still write (``xrange``, ``unicode``, ``long``), each
    read as the Python 3 built-in it became, with a remark."""
    from parsers.evaluator.python.lib import python2_remark

    def renamed(name: str, now: str, function: Callable[..., Value]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            python2_remark(ctx, name, now)
            return function(ctx, args, kwargs)

        return Builtin(name, call)

    def print_statement(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        python2_remark(ctx, "a print statement", "print()")
        return None

    return {
        "%print_statement": Builtin("%print_statement", print_statement),
        "xrange": renamed("xrange", "range", range_),
        "unicode": renamed("unicode", "str", str_.fn),
        "long": renamed("long", "int", int_.fn),
    }


__all__ = ["MISSING", "LazyIterator", "collected", "iterable", "python_globals"]
