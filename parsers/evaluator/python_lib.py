"""Python semantics for the evaluator (Blender and Open3D scripts): integers stay integers,
``range``/``enumerate``/``zip`` are lazy (so a loop over ``range(10**9)`` is cut by the loop
cap, not built), empty containers are false, and the ``math`` module and list/dict/str
methods scene scripts use are provided. The Python front end lowers onto the same ``ir``."""

from __future__ import annotations

import contextlib
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar

from parsers.evaluator import numpy_lib as npl
from parsers.evaluator.arguments import arg
from parsers.evaluator.context import CallContext
from parsers.evaluator.dialect import Dialect
from parsers.evaluator.generators import Generator
from parsers.evaluator.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)

_MAX_POWER_BITS = 4096
_MAX_TEXT = 1_000_000


class _LazyIterator:
    """What ``enumerate``, ``zip``, ``map``, ``reversed`` and generators give: single use."""

    __slots__ = ("items", "name")

    def __init__(self, name: str, items: Iterator[Value]) -> None:
        self.name = name
        self.items = items


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Python(Dialect):
    name = "python"
    assignment_declares_local = True
    #: What the engine's history says of Python 2 code (``py.python2`` remarks): the language
    #: of the engine sets it.
    python2_note: ClassVar[str] = "Python 3 has none"

    #: Method tables and globals, built once per dialect class: building them is a good part
    #: of a short reply's parse. They hold no state of a run (see ``globals``).
    _shared: ClassVar[dict[type, tuple[dict[type, dict[str, Builtin]], dict[str, Value]]]] = {}

    def __init__(self) -> None:
        shared = Python._shared.get(type(self))
        if shared is None:
            shared = (_methods(self), _python_globals(self))
            Python._shared[type(self)] = shared
        self._methods, self._globals = shared

    def to_string(self, value: Value) -> str:
        if value is None or value is UNDEFINED:
            return "None"
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
            return repr(value)
        if isinstance(value, list | tuple | dict | str | int | float | bool):
            return str(value) if not isinstance(value, list | tuple | dict) else repr(value)
        return f"<{type_name(value)}>"

    def to_number(self, value: Value) -> float | None:
        if isinstance(value, bool):
            return float(value)
        if is_number(value):
            return float(value)
        return None

    def binary(self, op: str, left: Value, right: Value) -> Value:
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        array_result = npl.array_binary(op, left, right)
        if array_result is not NotImplemented:
            return array_result
        if op in ("==", "!="):
            same = self._equal(left, right)
            if same is None:
                return Unknown("comparison of unknown values")
            return same if op == "==" else not same
        if op in ("is", "is not"):
            same = (
                left is right
                or (left is None and right is UNDEFINED)
                or (left is UNDEFINED and right is None)
            )
            return same if op == "is" else not same
        if op in ("in", "not in"):
            try:
                found = left in right if not isinstance(right, Record) else left in right.fields
            except TypeError:
                return Unknown(f"'{op}' on a {type_name(right)}")
            return found if op == "in" else not found
        if isinstance(left, Record) or isinstance(right, Record):
            return Unknown(f"{op} on engine objects is not modelled")
        if op == "**":
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and right > 0
                and abs(left) > 1
                and right * abs(left).bit_length() > _MAX_POWER_BITS
            ):
                return Unknown("a power too large to compute")
            try:
                result = left**right
            except (OverflowError, ZeroDivisionError, TypeError):
                return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)} fails")
            return Unknown("a complex power") if isinstance(result, complex) else result
        if op in ("*", "<<") and not (is_number(left) and is_number(right) and op == "*"):
            size = 0
            if isinstance(left, str | list | tuple) and isinstance(right, int):
                size = len(left) * right
            elif isinstance(right, str | list | tuple) and isinstance(left, int):
                size = len(right) * left
            elif op == "<<" and isinstance(right, int):
                size = right
            if size > _MAX_TEXT:
                return Unknown("a value too large to build")
        if (
            op == "+"
            and isinstance(left, str | list | tuple)
            and isinstance(right, str | list | tuple)
            and len(left) + len(right) > _MAX_TEXT
        ):
            return Unknown("a value too large to build")
        function = _BINARY.get(op)
        if function is None:
            return Unknown(f"operator {op} is not supported")
        try:
            return function(left, right)
        except ZeroDivisionError:
            return Unknown("division by zero")
        except (TypeError, ValueError, OverflowError):
            return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)} fails")

    def augmented(self, op: str, current: Value, value: Value) -> Value:
        # ``xs += ys`` extends the list itself: every alias of it sees the new items.
        if op == "+" and isinstance(current, list) and not isinstance(value, Unknown):
            items = self.iterate(value, "of")
            if items is not None:
                current.extend(itertools.islice(items, max(0, _MAX_TEXT - len(current))))
                return current
        return self.binary(op, current, value)

    def _equal(self, left: Value, right: Value) -> bool | None:
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return None
        if isinstance(left, Record) or isinstance(right, Record):
            return left is right
        try:
            return bool(left == right)
        except (TypeError, ValueError):
            return left is right

    def equals(self, left: Value, right: Value) -> bool | None:
        return self._equal(left, right)

    def unary(self, op: str, operand: Value) -> Value:
        if isinstance(operand, Unknown):
            return operand
        array_result = npl.array_unary(op, operand)
        if array_result is not NotImplemented:
            return array_result
        if op == "not":
            truth = self.truthy(operand)
            return Unknown("negation of an unknown value") if truth is None else not truth
        if not is_number(operand) and not isinstance(operand, bool):
            return Unknown(f"unary {op} of a {type_name(operand)}")
        if op == "-":
            return -operand
        if op == "+":
            return +operand
        if op == "~" and isinstance(operand, int):
            return ~operand
        return Unknown(f"unary {op} is not supported")

    def typeof(self, value: Value) -> Value:
        return type_name(value)

    # --- members ----------------------------------------------------------------------------------
    def get_member(self, ctx: CallContext, obj: Value, name: str) -> Value:
        for kind, table in self._methods.items():
            if isinstance(obj, kind):
                method = table.get(name)
                if method is not None:
                    return BoundMethod(obj, method)
                break
        return Unknown(f"{type_name(obj)}.{name} is not known")

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        ctx.info("eval.ignored_assignment", f"cannot set {name} on a {type_name(obj)}; ignored")

    def truthy(self, value: Value) -> bool | None:
        if npl.is_array(value):
            # numpy refuses the truth of an array of many values.
            return bool(value.native.ravel()[0]) if value.native.size == 1 else None
        return super().truthy(value)

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        if npl.is_array(obj):
            return npl.array_get(obj, index)
        try:
            if isinstance(obj, dict):
                return obj[index] if index in obj else Unknown(f"key {index!r} is missing")
            if isinstance(obj, list | tuple | str | range) and isinstance(index, int | bool):
                return obj[index]
            if (
                isinstance(obj, list | tuple | str)
                and isinstance(index, float)
                and index.is_integer()
            ):
                return obj[int(index)]
        except (IndexError, TypeError):
            return Unknown(f"index {index!r} is out of range")
        return Unknown(f"index {index!r} of a {type_name(obj)} is not known")

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if npl.is_array(obj):
            npl.array_set(ctx, obj, index, value)
            return
        try:
            if (isinstance(obj, list) and isinstance(index, int)) or isinstance(obj, dict):
                obj[index] = value
        except (IndexError, TypeError):
            ctx.warning("eval.bad_index", f"index {index!r} out of range; assignment ignored")

    def slice(self, ctx: CallContext, obj: Value, lower: Value, upper: Value, step: Value) -> Value:
        parts = [None if v is UNDEFINED or v is None else v for v in (lower, upper, step)]
        if npl.is_array(obj):
            if all(p is None or isinstance(p, int) for p in parts):
                return npl.array_get(obj, slice(*parts))
            return Unknown("a slice that cannot be known statically")
        if not all(p is None or isinstance(p, int) for p in parts) or not isinstance(
            obj, list | tuple | str | range
        ):
            return Unknown("a slice that cannot be known statically")
        if parts[2] == 0:
            return Unknown("a slice with step 0")
        result = obj[slice(*parts)]
        return list(result) if isinstance(result, range) else result

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if npl.is_array(value):
            return npl.array_items(value)
        if isinstance(value, list | tuple | str | range):
            return iter(value)
        if isinstance(value, dict):
            return iter(list(value))
        if isinstance(value, _LazyIterator):
            return value.items
        if isinstance(value, Generator):
            return value
        return None

    def globals(self) -> dict[str, Value]:
        # Modules are namespaces a script may assign into: each run gets its own copies.
        table = dict(self._globals)
        modules = table.get("%modules")
        if isinstance(modules, dict):
            table["%modules"] = {
                name: Namespace(m.name, dict(m.members), m.missing)
                if isinstance(m, Namespace)
                else m
                for name, m in modules.items()
            }
        return table


def _methods(py: Python) -> dict[type, dict[str, Builtin]]:
    def m(name: str, fn: Callable[[Any, list[Value], dict[str, Value]], Value]) -> Builtin:
        return Builtin(name, lambda ctx, obj, args, kwargs: fn(obj, args, kwargs))

    def append(lst: list[Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        lst.append(arg(args, 0))
        return None

    def extend(lst: list[Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = py.iterate(arg(args, 0), "of")
        if items is not None:
            lst.extend(itertools.islice(items, _MAX_TEXT))
        return None

    def insert(lst: list[Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        if isinstance(arg(args, 0), int):
            lst.insert(args[0], arg(args, 1))
        return None

    def pop(container: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            if isinstance(container, dict):
                return container.pop(arg(args, 0), *args[1:2])
            return container.pop(*args[:1])
        except (IndexError, KeyError, TypeError):
            return Unknown("pop of a missing item")

    def index(seq: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            return seq.index(arg(args, 0))
        except ValueError:
            return Unknown("index of a missing item")

    def sort(lst: list[Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        if "key" not in kwargs:
            with contextlib.suppress(TypeError):
                lst.sort(reverse=bool(kwargs.get("reverse", False)))
        return None

    def get(d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        key = arg(args, 0)
        try:
            return d.get(key, None if len(args) < 2 else args[1])
        except TypeError:
            return Unknown("a key that cannot be hashed")

    def update(d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        source = arg(args, 0)
        if isinstance(source, dict):
            d.update(source)
        d.update(kwargs)
        return None

    def setdefault(d: dict[Any, Value], args: list[Value], kwargs: dict[str, Value]) -> Value:
        return d.setdefault(arg(args, 0), None if len(args) < 2 else args[1])

    def fmt(text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if any(isinstance(v, Unknown) for v in [*args, *kwargs.values()]):
            return Unknown("format of unknown values")
        try:
            return text.format(*args, **kwargs)
        except (IndexError, KeyError, ValueError, TypeError, AttributeError):
            return Unknown("a format string that cannot be filled")

    def join(text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = py.iterate(arg(args, 0), "of")
        parts = list(items) if items is not None else None
        if parts is None or not all(isinstance(p, str) for p in parts):
            return Unknown("join of values that are not all text")
        return text.join(parts)

    def split(text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        separator = arg(args, 0)
        return text.split(separator if isinstance(separator, str) else None)

    def text_method(name: str) -> Builtin:
        def call(text: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
            if not all(isinstance(a, str | int) for a in args):
                return Unknown(f"str.{name} of unknown arguments")
            try:
                return getattr(text, name)(*args)
            except (TypeError, ValueError):
                return Unknown(f"str.{name} fails")

        return m(f"str.{name}", call)

    list_methods = {
        "append": m("list.append", append),
        "extend": m("list.extend", extend),
        "insert": m("list.insert", insert),
        "pop": m("list.pop", pop),
        "index": m("list.index", index),
        "count": m("list.count", lambda s, a, k: s.count(arg(a, 0))),
        "copy": m("list.copy", lambda s, a, k: list(s)),
        "reverse": m("list.reverse", lambda s, a, k: s.reverse()),
        "sort": m("list.sort", sort),
        "clear": m("list.clear", lambda s, a, k: s.clear()),
    }
    tuple_methods = {"index": m("tuple.index", index), "count": list_methods["count"]}
    dict_methods = {
        **python2_dict_methods(),
        "get": m("dict.get", get),
        "items": m("dict.items", lambda d, a, k: [(key, value) for key, value in d.items()]),
        "keys": m("dict.keys", lambda d, a, k: list(d.keys())),
        "values": m("dict.values", lambda d, a, k: list(d.values())),
        "update": m("dict.update", update),
        "setdefault": m("dict.setdefault", setdefault),
        "pop": m("dict.pop", pop),
        "copy": m("dict.copy", lambda d, a, k: dict(d)),
    }
    str_methods = {
        "format": m("str.format", fmt),
        "join": m("str.join", join),
        "split": m("str.split", split),
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
                "startswith",
                "endswith",
                "replace",
                "find",
                "zfill",
            )
        },
    }

    def send(gen: Generator, args: list[Value], kwargs: dict[str, Value]) -> Value:
        try:
            return gen.send(arg(args, 0))
        except StopIteration:
            return Unknown("send to a generator that is done")

    def close(gen: Generator, args: list[Value], kwargs: dict[str, Value]) -> Value:
        gen.done = True
        return None

    generator_methods = {
        "send": m("generator.send", send),
        "close": m("generator.close", close),
        "__next__": m("generator.__next__", lambda g, a, k: send(g, [None], k)),
    }
    return {
        list: list_methods,
        tuple: tuple_methods,
        dict: dict_methods,
        str: str_methods,
        Generator: generator_methods,
    }


def _python_globals(py: Python) -> dict[str, Value]:
    def numbers(args: list[Value]) -> list[float | int] | Unknown:
        result = []
        for value in args:
            if isinstance(value, Unknown):
                return value
            if not is_number(value) and not isinstance(value, bool):
                return Unknown(f"a {type_name(value)} where a number is expected")
            result.append(value)
        return result

    def range_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        values = numbers(args)
        if isinstance(values, Unknown):
            return values
        if not all(isinstance(v, int) for v in values) or not 1 <= len(values) <= 3:
            return Unknown("range of values that are not integers")
        if len(values) == 3 and values[2] == 0:
            return Unknown("range with step 0")
        return range(*values)  # type: ignore[arg-type]

    def iterable(value: Value, what: str) -> Iterator[Value] | Unknown:
        items = py.iterate(value, "of")
        if items is None:
            return Unknown(
                value.reason if isinstance(value, Unknown) else f"{what} of a {type_name(value)}"
            )
        return iter(items)

    def enumerate_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = iterable(arg(args, 0), "enumerate")
        start = arg(args, 1, kwargs, "start")
        if isinstance(items, Unknown):
            return items
        return _LazyIterator(
            "enumerate",
            ((i, v) for i, v in enumerate(items, start if isinstance(start, int) else 0)),
        )

    def zip_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        sources = [iterable(a, "zip") for a in args]
        for source in sources:
            if isinstance(source, Unknown):
                return source
        return _LazyIterator("zip", (tuple(t) for t in zip(*sources, strict=False)))

    def reversed_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        if isinstance(value, list | tuple | str | range):
            return _LazyIterator("reversed", iter(value[::-1]))
        return Unknown("reversed of a value that cannot be known statically")

    def next_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        source, default = arg(args, 0), arg(args, 1)
        if isinstance(source, Generator):
            items: Iterator[Value] | Unknown = source
        elif isinstance(source, _LazyIterator):
            items = source.items
        else:
            items = Unknown(
                source.reason
                if isinstance(source, Unknown)
                else f"next of a {type_name(source)}, which is no iterator"
            )
        if isinstance(items, Unknown):
            return items
        try:
            return next(items)
        except StopIteration:
            if default is UNDEFINED:
                return Unknown("next of an exhausted iterator", ctx.line)
            return default

    def iter_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        source = arg(args, 0)
        if isinstance(source, Generator | _LazyIterator):
            return source
        items = iterable(source, "iter")
        return items if isinstance(items, Unknown) else _LazyIterator("iter", items)

    def len_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        if isinstance(value, list | tuple | str | dict | range):
            return len(value)
        if npl.is_array(value) and value.native.ndim:
            return int(value.native.shape[0])
        return Unknown(
            value.reason if isinstance(value, Unknown) else f"len of a {type_name(value)}"
        )

    def collect(name: str, build: Callable[[list[Value]], Value]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            if not args:
                return build([])
            items = iterable(args[0], name)
            if isinstance(items, Unknown):
                return items
            return build(list(itertools.islice(items, ctx.interp.limits.max_collection)))

        return Builtin(name, call)

    def reducer(name: str, fn: Callable[[list[Any]], Value]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            source: Value = args if len(args) > 1 else arg(args, 0)
            items = iterable(source, name)
            if isinstance(items, Unknown):
                return items
            values = list(itertools.islice(items, ctx.interp.limits.max_collection))
            if any(isinstance(v, Unknown) for v in values):
                return Unknown(f"{name} of unknown values")
            try:
                return fn(values)
            except (TypeError, ValueError):
                return Unknown(f"{name} fails on these values")

        return Builtin(name, call)

    def convert(name: str, fn: Callable[[Any], Value]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            value = arg(args, 0)
            if value is UNDEFINED:
                return fn(0) if name != "str" else ""
            if isinstance(value, Unknown):
                return value
            if npl.is_array(value):
                if name == "abs":
                    return npl.wrap(abs(value.native))
                if value.native.size != 1:
                    return Unknown(f"{name}() of an array of many values")
                value = value.native.ravel()[0].item()
            try:
                return fn(value)
            except (TypeError, ValueError, OverflowError):
                return Unknown(f"{name}() of a {type_name(value)}")

        return Builtin(name, call)

    def round_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        values = numbers(args)
        if isinstance(values, Unknown):
            return values
        try:
            if len(values) == 1:
                return round(values[0])
            return round(values[0], int(values[1]))
        except (TypeError, ValueError, OverflowError):
            return Unknown("round of these values")

    def isinstance_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value, kind = arg(args, 0), arg(args, 1)
        python_types = {
            "int": int,
            "float": (int, float),
            "str": str,
            "list": list,
            "tuple": tuple,
            "dict": dict,
            "bool": bool,
        }
        if isinstance(kind, Builtin) and kind.name in python_types:
            return isinstance(value, python_types[kind.name])  # type: ignore[arg-type]
        if isinstance(kind, ClassValue) and isinstance(value, Record):
            current = value.cls
            while isinstance(current, ClassValue):
                if current is kind:
                    return True
                current = current.base
            return False
        if isinstance(kind, EngineClass) and isinstance(value, Record):
            return ctx.interp.engine.is_a(value, kind.name)
        return Unknown("isinstance that cannot be decided statically")

    def print_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return None

    def int_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value, base = arg(args, 0), arg(args, 1, kwargs, "base")
        if value is UNDEFINED:
            return 0
        if isinstance(value, Unknown) or isinstance(base, Unknown):
            return value if isinstance(value, Unknown) else base
        if npl.is_array(value):
            if value.native.size != 1:
                return Unknown("int() of an array of many values")
            value = value.native.ravel()[0].item()
        try:
            if base is not UNDEFINED and isinstance(value, str) and isinstance(base, int):
                return int(value, base)
            return int(value)
        except (TypeError, ValueError, OverflowError):
            return Unknown(f"int() of a {type_name(value)}")

    def getattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj, name, default = arg(args, 0), arg(args, 1), arg(args, 2)
        if not isinstance(name, str):
            return Unknown(
                name.reason if isinstance(name, Unknown) else "getattr with a name that is not text"
            )
        value = ctx.member(obj, name)
        if (value is UNDEFINED or isinstance(value, Unknown)) and default is not UNDEFINED:
            return default
        return value

    def hasattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = getattr_(ctx, [*args[:2]], {})
        if isinstance(value, Unknown):
            return Unknown("hasattr that cannot be decided statically")
        return value is not UNDEFINED

    def setattr_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj, name = arg(args, 0), arg(args, 1)
        if isinstance(name, str):
            ctx.set_member(obj, name, arg(args, 2))
        return None

    def map_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        function = arg(args, 0)
        sources = [iterable(a, "map") for a in args[1:]]
        for source in sources:
            if isinstance(source, Unknown):
                return source
        return _LazyIterator(
            "map", (ctx.call(function, list(t)) for t in zip(*sources, strict=False))
        )

    def filter_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        function, items = arg(args, 0), iterable(arg(args, 1), "filter")
        if isinstance(items, Unknown):
            return items
        if function is None:
            return _LazyIterator("filter", (v for v in items if py.truthy(v)))
        return _LazyIterator("filter", (v for v in items if py.truthy(ctx.call(function, [v]))))

    def format_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value, spec = arg(args, 0), arg(args, 1)
        if isinstance(value, Unknown):
            return value
        if not isinstance(spec, str) or not spec or not isinstance(value, int | float | str | bool):
            return py.format_value(value)
        try:
            return format(value, spec)
        except (TypeError, ValueError):
            return py.format_value(value)

    def import_all(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """``from module import *``: every member the module is known to hold."""
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

    def dict_(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        result: dict[Any, Value] = {}
        source = arg(args, 0)
        if isinstance(source, dict):
            result.update(source)
        elif source is not UNDEFINED:
            items = iterable(source, "dict")
            if isinstance(items, Unknown):
                return items
            for pair in items:
                if isinstance(pair, list | tuple) and len(pair) == 2:
                    result[pair[0]] = pair[1]
        result.update(kwargs)
        return result

    def math_fn(name: str, fn: Callable[..., float], arity: int = 1) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            values = numbers(args[:arity])
            if isinstance(values, Unknown):
                return values
            try:
                return fn(*values)
            except (TypeError, ValueError, OverflowError, ZeroDivisionError):
                return Unknown(f"math.{name} of these values")

        return Builtin(f"math.{name}", call)

    math_module = Namespace(
        "math",
        {
            "pi": math.pi,
            "e": math.e,
            "tau": math.tau,
            "inf": math.inf,
            **{
                name: math_fn(name, getattr(math, name))
                for name in (
                    "radians",
                    "degrees",
                    "sin",
                    "cos",
                    "tan",
                    "asin",
                    "acos",
                    "atan",
                    "sqrt",
                    "exp",
                    "log10",
                    "log2",
                    "floor",
                    "ceil",
                    "fabs",
                    "trunc",
                    "isfinite",
                )
            },
            "atan2": math_fn("atan2", math.atan2, 2),
            "hypot": math_fn("hypot", math.hypot, 3),
            "pow": math_fn("pow", math.pow, 2),
            "log": math_fn("log", math.log, 2),
            "copysign": math_fn("copysign", math.copysign, 2),
            "fmod": math_fn("fmod", math.fmod, 2),
        },
    )

    def random_value(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("a random number has no static value", ctx.line)

    random_module = Namespace(
        "random", missing=lambda name: Builtin(f"random.{name}", random_value)
    )

    return {
        "range": Builtin("range", range_),
        **python2_names(range_, convert, int_),
        "enumerate": Builtin("enumerate", enumerate_),
        "zip": Builtin("zip", zip_),
        "reversed": Builtin("reversed", reversed_),
        "len": Builtin("len", len_),
        "next": Builtin("next", next_),
        "iter": Builtin("iter", iter_),
        "list": collect("list", list),
        "tuple": collect("tuple", tuple),
        "sorted": collect(
            "sorted",
            lambda items: (
                sorted(items)
                if all(is_number(v) for v in items) or all(isinstance(v, str) for v in items)
                else items
            ),
        ),
        "set": collect("set", lambda items: list(dict.fromkeys(items))),
        "dict": Builtin("dict", dict_),
        "sum": reducer("sum", lambda xs: sum(xs)),
        "min": reducer("min", min),
        "max": reducer("max", max),
        "any": reducer("any", lambda xs: any(py.truthy(x) for x in xs)),
        "all": reducer("all", lambda xs: all(py.truthy(x) for x in xs)),
        "abs": convert("abs", abs),
        "float": convert("float", float),
        "int": Builtin("int", int_),
        "getattr": Builtin("getattr", getattr_),
        "hasattr": Builtin("hasattr", hasattr_),
        "setattr": Builtin("setattr", setattr_),
        "map": Builtin("map", map_),
        "filter": Builtin("filter", filter_),
        "%import_all": Builtin("%import_all", import_all),
        "format": Builtin("format", format_),
        "str": convert("str", py.to_string),
        "bool": convert("bool", lambda v: bool(py.truthy(v))),
        "round": Builtin("round", round_),
        "isinstance": Builtin("isinstance", isinstance_),
        "print": Builtin("print", print_),
        "True": True,
        "False": False,
        "None": None,
        "__name__": "__main__",
        "%modules": {"math": math_module, "random": random_module},
    }


def _python2(ctx: CallContext, name: str, now: str) -> None:
    dialect = ctx.interp.dialect
    note = dialect.python2_note if isinstance(dialect, Python) else Python.python2_note
    ctx.info("py.python2", f"{name} is Python 2 ({note}); read as {now}")


def python2_names(
    range_: Callable[..., Value], convert: Callable[..., Builtin], int_: Callable[..., Value]
) -> dict[str, Value]:
    """Python 2's built-ins that models still write (``xrange``, ``unicode``, ``long``), each
    read as the Python 3 built-in it became, with a remark."""

    def renamed(name: str, now: str, function: Callable[..., Value]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            _python2(ctx, name, now)
            return function(ctx, args, kwargs)

        return Builtin(name, call)

    as_string = convert("str", lambda v: v if isinstance(v, str) else str(v)).fn

    def print_statement(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        _python2(ctx, "a print statement", "print()")
        return None

    return {
        "%print_statement": Builtin("%print_statement", print_statement),
        "xrange": renamed("xrange", "range", range_),
        "unicode": renamed("unicode", "str", as_string),
        "long": renamed("long", "int", int_),
    }


def python2_dict_methods() -> dict[str, Value]:
    """Python 2's dict methods (``iteritems``, ``itervalues``, ``iterkeys``), read as their
    Python 3 forms, with a remark."""

    def renamed(name: str, now: str, fn: Callable[[dict[Any, Value]], Value]) -> Builtin:
        def call(ctx: CallContext, d: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
            _python2(ctx, f"dict.{name}()", f"dict.{now}()")
            return fn(d)

        return Builtin(f"dict.{name}", call)

    return {
        "iteritems": renamed("iteritems", "items", lambda d: list(d.items())),
        "itervalues": renamed("itervalues", "values", lambda d: list(d.values())),
        "iterkeys": renamed("iterkeys", "keys", lambda d: list(d.keys())),
    }


def python_module(ctx: CallContext, module: str) -> Value | None:
    """A standard-library module the Python dialect provides (``math``, ``random``), or None;
    an engine's ``resolve_import`` asks this first."""
    modules = ctx.interp.globals.vars.get("%modules")
    if isinstance(modules, dict):
        return modules.get(module)
    return None


def resolve_python_import(
    ctx: CallContext,
    module: str,
    name: str | None,
    *,
    packages: Mapping[str, Callable[[], Value]],
    modules: Mapping[str, Callable[[], Value]],
    unknown_code: str,
) -> Value:
    """What a Python engine's ``import module`` (``name`` None) or ``from module import name``
    binds: one of the engine's ``packages`` (a dotted module is read member by member from the
    top-level one: ``bpy.ops.mesh``), one of its ``modules`` (by exact name), a standard module
    the dialect provides, or an ``Unknown``, reported with ``unknown_code``."""
    found: Value
    top = module.split(".")[0]
    if top in packages:
        found = packages[top]()
        for part in module.split(".")[1:]:
            found = ctx.member(found, part)
    elif module in modules:
        found = modules[module]()
    else:
        standard = python_module(ctx, module)
        if standard is None:
            ctx.info(unknown_code, f"module {module!r} is not modelled; what it gives is unknown")
            return Unknown(f"module {module!r} is not known")
        found = standard
    return found if name is None else ctx.member(found, name)
