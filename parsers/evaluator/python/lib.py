"""Python semantics for the evaluator (Blender and Open3D scripts): integers stay integers,
``range``/``enumerate``/``zip`` are lazy (so a loop over ``range(10**9)`` is cut by the loop
cap, not built), empty containers are false, sets are sets, and what CPython raises
(``ZeroDivisionError``, a missing key) is raised in the script. The Python front end lowers
onto the same ``ir``.

The dialect is assembled from its parts: ``python.builtin_functions`` (the built-in functions),
``python.methods`` (methods of lists, dicts, sets, strings), ``python.text`` (``str``, ``repr``,
formatting), ``python.classes`` (exceptions, dataclasses, named tuples, enums, the protocols of
user classes) and ``python.modules`` (``math``, ``itertools``, ``functools``...).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import numpy as np

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import ThrowSignal
from parsers.evaluator.core.dialect import Dialect
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)
from parsers.evaluator.python import numpy_lib as npl
from parsers.evaluator.python.builtin_functions import LazyIterator, python_globals
from parsers.evaluator.python.classes import (
    EXCEPTIONS,
    OPERATOR_METHODS,
    UNARY_METHODS,
    ExceptionClasses,
    call_method,
    dataclass_option,
    enum_kind,
    enum_lookup,
    enum_members,
    enum_value,
    exception,
    fields_of,
    has_method,
    make_members,
    namedtuple_values,
    raise_error,
    record_member,
    unhashable,
)
from parsers.evaluator.python.methods import methods_of, unbound_method
from parsers.evaluator.python.modules import DefaultDict, builtin_members, module_builders
from parsers.evaluator.python.text import is_plain, plain_text, py_str

_MAX_POWER_BITS = 4096
_MAX_TEXT = 1_000_000

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
_ORDER = frozenset({"<", "<=", ">", ">="})
#: Operators on two plain numbers that Python computes as is (``**`` and shifts are capped).
_NUMBER_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    **{op: _BINARY[op] for op in ("+", "-", "*", "/", "//", "%", "<", "<=", ">", ">=")},
    "==": operator.eq,
    "!=": operator.ne,
}
_NUMPY_BOOL = np.bool_


class Python(Dialect):
    name = "python"
    assignment_declares_local = True
    defaults_at_definition = True
    rebinds_definitions = True
    record_protocols = True
    #: What the engine's history says of Python 2 code (``py.python2`` remarks): the language
    #: of the engine sets it.
    python2_note: ClassVar[str] = "Python 3 has none"

    #: Method tables and built-ins, made once per dialect class: making them is a good part of
    #: a short reply's parse. They hold no state of a run (see ``globals``).
    _shared: ClassVar[dict[type, tuple[dict[type, dict[str, Builtin]], dict[str, Value]]]] = {}

    def __init__(self) -> None:
        shared = Python._shared.get(type(self))
        if shared is None:
            shared = (methods_of(self), python_globals(self))
            Python._shared[type(self)] = shared
        self._methods, self._globals = shared
        #: The run's built-in exception classes, made when first named (``globals`` resets).
        self.exceptions = ExceptionClasses()
        #: The names the run starts with and their values (``globals()`` leaves them out).
        self.given_names: dict[str, Value] = {}
        #: Members of built-in functions (``itertools.chain.from_iterable``).
        self._builtin_members: dict[tuple[str, str], Value] = builtin_members()

    # --- conversions ------------------------------------------------------------------------------
    def to_string(self, value: Value) -> str:
        if value is None or value is UNDEFINED:
            return "None"
        if is_plain(value):
            return repr(value) if isinstance(value, list | tuple | dict) else str(value)
        return f"<{type_name(value)}>"

    def to_number(self, value: Value) -> float | None:
        if type(value) is Record:
            value = enum_value(value)
        if isinstance(value, bool) or is_number(value):
            return float(value)
        return None

    def truthy(self, value: Value) -> bool | None:
        if npl.is_array(value):
            # numpy refuses the truth of an array of many values.
            return bool(value.native.ravel()[0]) if value.native.size == 1 else None
        if isinstance(value, set | frozenset | range):
            return len(value) > 0
        return super().truthy(value)

    def _throw(self, name: str, message: str) -> ThrowSignal:
        return ThrowSignal(Record("", {"args": (message,)}, cls=self.exceptions[name]), 0)

    # --- operators --------------------------------------------------------------------------------
    def binary(self, op: str, left: Value, right: Value) -> Value:
        # Numbers (most of a scene script's arithmetic), decided first.
        kind_left, kind_right = type(left), type(right)
        if (kind_left is float or kind_left is int) and (kind_right is float or kind_right is int):
            function = _NUMBER_OPERATORS.get(op)
            if function is not None:
                try:
                    return function(left, right)
                except ZeroDivisionError as error:
                    raise self._throw("ZeroDivisionError", str(error)) from None
                except OverflowError:
                    return Unknown(f"{op} of numbers too large to compute")
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
        if op == "%" and isinstance(left, str) and not is_plain(right):
            return Unknown("%-formatting of values that are not plain data")
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
            except ZeroDivisionError:
                raise self._throw(
                    "ZeroDivisionError", "0.0 cannot be raised to a negative power"
                ) from None
            except (OverflowError, TypeError):
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
            result = function(left, right)
            # numpy scalars compare to numpy booleans: Python's own are what the script sees.
            return bool(result) if type(result) is _NUMPY_BOOL else result
        except ZeroDivisionError as error:
            raise self._throw("ZeroDivisionError", str(error)) from None
        except TypeError as error:
            if _typed(left) and _typed(right):
                raise self._throw("TypeError", str(error)) from None
            return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)} fails")
        except (ValueError, OverflowError):
            return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)} fails")

    def augmented(self, op: str, current: Value, value: Value) -> Value:
        # ``xs += ys`` extends the list itself: every alias of it sees the new items.
        if op == "+" and isinstance(current, list) and not isinstance(value, Unknown):
            items = self.iterate(value, "of")
            if items is not None:
                current.extend(itertools.islice(items, max(0, _MAX_TEXT - len(current))))
                return current
        if npl.is_array(current):
            # ``verts -= centre`` changes the array itself, as numpy does.
            return npl.array_in_place(op, current, value)
        if isinstance(current, set) and op in ("|", "&", "-", "^"):
            result = self.binary(op, current, value)
            if isinstance(result, set):
                current.clear()
                current.update(result)
                return current
            return result
        return self.binary(op, current, value)

    def _equal(self, left: Value, right: Value) -> bool | None:
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return None
        if left is UNDEFINED:
            left = None
        if right is UNDEFINED:
            right = None
        if isinstance(left, Record) or isinstance(right, Record):
            return left is right
        try:
            return bool(left == right)
        except (TypeError, ValueError):
            return left is right

    def equals(self, left: Value, right: Value) -> bool | None:
        left, right = enum_value(left), enum_value(right)
        if isinstance(left, Record) and isinstance(right, Record | tuple):
            values = namedtuple_values(left)
            if values is not None:
                left = values
        if isinstance(right, Record) and isinstance(left, tuple):
            values = namedtuple_values(right)
            if values is not None:
                right = values
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

    # --- instances of user classes: their own protocols --------------------------------------------
    def record_binary(self, ctx: CallContext, op: str, left: Value, right: Value) -> Value:
        plain_left, plain_right = enum_value(left), enum_value(right)
        if plain_left is not left or plain_right is not right:
            return ctx.interp.binary(op, plain_left, plain_right, ctx.line, ctx.col)
        if op in ("in", "not in") and isinstance(right, Record) and right.cls is not None:
            found = self._contains(ctx, right, left)
            if isinstance(found, bool):
                return found if op == "in" else not found
            return found
        if op in ("in", "not in") and isinstance(left, Record) and isinstance(right, list | tuple):
            # An object is in a list when it is one of its items (or equal by its own __eq__).
            found = any(item is left or self._equal_objects(ctx, item, left) for item in right)
            return found if op == "in" else not found
        methods = OPERATOR_METHODS.get(op)
        if methods is None:
            return NotImplemented
        name, reflected = methods
        if isinstance(left, Record) and left.cls is not None:
            result = call_method(ctx, left, name, [right])
            if result is not NotImplemented and not _not_implemented(result):
                return result
        if reflected and isinstance(right, Record) and right.cls is not None:
            result = call_method(ctx, right, reflected, [left])
            if result is not NotImplemented and not _not_implemented(result):
                return result
        if op == "!=":
            same = self.record_binary(ctx, "==", left, right)
            if same is not NotImplemented:
                truth = ctx.truthy(same)
                return Unknown("comparison of unknown values") if truth is None else not truth
        return self._generated_binary(ctx, op, left, right)

    def _equal_objects(self, ctx: CallContext, item: Value, value: Record) -> bool:
        """Whether two instances are equal by their class's own ``__eq__`` (or a dataclass's)."""
        if not isinstance(item, Record) or item.cls is None or value.cls is None:
            return False
        same = self.record_binary(ctx, "==", item, value)
        return same is not NotImplemented and ctx.truthy(same) is True

    def _generated_binary(self, ctx: CallContext, op: str, left: Value, right: Value) -> Value:
        """What a dataclass (``eq``, ``order``) or a named tuple compares by."""
        for a, b in ((left, right), (right, left)):
            if isinstance(a, Record) and namedtuple_values(a) is not None:
                values_a = namedtuple_values(a)
                values_b = namedtuple_values(b) if isinstance(b, Record) else b
                if values_b is None:
                    return NotImplemented
                ordered = (values_a, values_b) if a is left else (values_b, values_a)
                return ctx.interp.binary(op, ordered[0], ordered[1], ctx.line, ctx.col)
        if not (isinstance(left, Record) and isinstance(right, Record)):
            return NotImplemented
        names = fields_of(left)
        if names is None or left.cls is not right.cls:
            return NotImplemented
        wanted = "eq" if op in ("==", "!=") else "order" if op in _ORDER else None
        if wanted is None or not dataclass_option(left, wanted):
            return NotImplemented
        a = tuple(left.fields.get(n) for n in names)
        b = tuple(right.fields.get(n) for n in names)
        return ctx.interp.binary(op, a, b, ctx.line, ctx.col)

    def _contains(self, ctx: CallContext, container: Record, value: Value) -> Value:
        if has_method(container, "__contains__"):
            truth = ctx.truthy(call_method(ctx, container, "__contains__", [value]))
            return Unknown("membership that cannot be known") if truth is None else truth
        items = self.record_items(ctx, container)
        if items is None:
            return Unknown(f"'in' on a {type_name(container)}")
        for item in items:
            same = self.equals(item, value)
            if same is None:
                return Unknown("membership that cannot be known")
            if same:
                return True
        return False

    def record_unary(self, ctx: CallContext, op: str, operand: Record) -> Value:
        plain = enum_value(operand)
        if plain is not operand:
            return self.unary(op, plain)
        if operand.cls is None:
            return NotImplemented
        if op == "not":
            truth = self.record_truthy(ctx, operand)
            return Unknown("negation of an unknown value") if truth is None else not truth
        name = UNARY_METHODS.get(op)
        if name is None:
            return NotImplemented
        return call_method(ctx, operand, name, [])

    def record_truthy(self, ctx: CallContext, value: Record) -> bool | None:
        if value.cls is None:
            return self.truthy(value)
        plain = enum_value(value)
        if plain is not value:
            return self.truthy(plain)
        for name in ("__bool__", "__len__"):
            if has_method(value, name):
                return ctx.truthy(call_method(ctx, value, name, []))
        values = namedtuple_values(value)
        return bool(values) if values is not None else True

    def record_items(self, ctx: CallContext, value: Record) -> Iterable[Value] | None:
        if value.cls is None:
            return None
        values = namedtuple_values(value)
        if values is not None:
            return iter(values)
        if has_method(value, "__iter__"):
            items = call_method(ctx, value, "__iter__", [])
            return ctx.interp.iterate(items, "of")
        return None

    def instantiate(
        self, ctx: CallContext, cls: ClassValue, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        if enum_kind(cls) is not None and enum_members(cls) is not None:
            return enum_lookup(ctx, cls, args[0] if args else UNDEFINED)
        return NotImplemented

    def class_defined(self, ctx: CallContext, cls: ClassValue) -> Value:
        cls.static.setdefault("__name__", cls.name)
        if enum_kind(cls) is not None and cls.static.get("%enum") is None:
            make_members(cls)
        return cls

    # --- members ----------------------------------------------------------------------------------
    def get_member(self, ctx: CallContext, obj: Value, name: str) -> Value:
        table = self._methods.get(type(obj))
        if table is None:
            for kind, methods in self._methods.items():
                if isinstance(obj, kind):
                    table = methods
                    break
        if table is not None:
            method = table.get(name)
            if method is not None:
                return BoundMethod(obj, method)
        member = self._builtin_members.get(
            (type_name(obj) if not isinstance(obj, Builtin) else obj.name, name)
        )
        if member is not None:
            return member
        if isinstance(obj, float):
            return _float_member(obj, name)
        if name == "__name__" and isinstance(obj, Closure | Builtin):
            return obj.fn.name or "<lambda>" if isinstance(obj, Closure) else obj.name
        if isinstance(obj, Builtin) and obj.name in ("str", "list", "dict", "tuple", "set"):
            return unbound_method(self._methods, obj.name, name)
        return Unknown(f"{type_name(obj)}.{name} is not known")

    def record_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        return record_member(ctx, record, name)

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        ctx.warning("eval.ignored_assignment", f"cannot set {name} on a {type_name(obj)}; ignored")

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        kind = type(obj)
        if (kind is list or kind is tuple) and type(index) is int:
            # The commonest index, decided first.
            try:
                return obj[index]
            except IndexError:
                raise_error(ctx, "IndexError", f"{type_name(obj)} index out of range")
        if npl.is_array(obj):
            return npl.array_get(obj, index)
        if type(index) is Record:
            index = enum_value(index)
        if isinstance(obj, dict):
            try:
                if index in obj:
                    return obj[index]
            except TypeError as error:
                return unhashable(ctx, [index], error)
            if isinstance(obj, DefaultDict) and obj.factory not in (None, UNDEFINED):
                made = obj[index] = ctx.call(obj.factory, [])
                return made
            raise_error(ctx, "KeyError", index)
        if isinstance(obj, Record) and obj.cls is not None:
            values = namedtuple_values(obj)
            if values is not None:
                obj = values
            elif has_method(obj, "__getitem__"):
                return call_method(ctx, obj, "__getitem__", [index])
        if isinstance(obj, list | tuple | str | range):
            if isinstance(index, float) and index.is_integer():
                return Unknown(f"index {index!r} of a {type_name(obj)}", ctx.line)
            if isinstance(index, slice):
                return self.slice(ctx, obj, index.start, index.stop, index.step)
            if isinstance(index, int):
                try:
                    return obj[index]
                except IndexError:
                    raise_error(ctx, "IndexError", f"{type_name(obj)} index out of range")
            if isinstance(index, Unknown):
                return index
            raise_error(ctx, "TypeError", f"indices must be integers, not {type_name(index)}")
        return Unknown(f"index {index!r} of a {type_name(obj)} is not known")

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if npl.is_array(obj):
            npl.array_set(ctx, obj, index, value)
            return
        if isinstance(obj, dict):
            try:
                obj[enum_value(index) if type(index) is Record else index] = value
            except TypeError as error:
                unhashable(ctx, [index], error)
            return
        if isinstance(obj, Record) and obj.cls is not None and has_method(obj, "__setitem__"):
            call_method(ctx, obj, "__setitem__", [index, value])
            return
        if isinstance(obj, list):
            if isinstance(index, int):
                try:
                    obj[index] = value
                except IndexError:
                    raise_error(ctx, "IndexError", "list assignment index out of range")
                return
            if isinstance(index, slice):
                items = ctx.interp.iterate(value, "of")
                if items is None:
                    ctx.warning(
                        "eval.unknown_value", "slice assigned items that cannot be known; ignored"
                    )
                    return
                try:
                    obj[index] = list(itertools.islice(items, _MAX_TEXT))
                except ValueError as error:
                    raise_error(ctx, "ValueError", str(error))
                return
        ctx.warning(
            "eval.ignored_assignment",
            f"cannot set item {index!r} of a {type_name(obj)}; ignored",
        )

    def delete_index(self, ctx: CallContext, obj: Value, index: Value) -> None:
        if isinstance(obj, dict):
            if index not in obj:
                raise_error(ctx, "KeyError", index)
            del obj[index]
            return
        if isinstance(obj, list) and isinstance(index, int | slice):
            try:
                del obj[index]
            except IndexError:
                raise_error(ctx, "IndexError", "list assignment index out of range")
            return
        if isinstance(obj, Record) and obj.cls is not None and has_method(obj, "__delitem__"):
            call_method(ctx, obj, "__delitem__", [index])
            return
        super().delete_index(ctx, obj, index)

    def slice(self, ctx: CallContext, obj: Value, lower: Value, upper: Value, step: Value) -> Value:
        parts = [None if v is UNDEFINED or v is None else v for v in (lower, upper, step)]
        if npl.is_array(obj):
            if all(p is None or isinstance(p, int) for p in parts):
                return npl.array_get(obj, slice(*parts))
            return Unknown("a slice that cannot be known statically")
        if isinstance(obj, Record):
            values = namedtuple_values(obj)
            if values is not None:
                obj = values
        if not all(p is None or isinstance(p, int) for p in parts) or not isinstance(
            obj, list | tuple | str | range
        ):
            return Unknown("a slice that cannot be known statically")
        if parts[2] == 0:
            raise_error(ctx, "ValueError", "slice step cannot be zero")
        return obj[slice(*parts)]

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if npl.is_array(value):
            return npl.array_items(value)
        if isinstance(value, list | tuple | str | range):
            return iter(value)
        if isinstance(value, dict):
            return iter(list(value))
        if isinstance(value, set | frozenset):
            return iter(list(value))
        if isinstance(value, LazyIterator):
            return value.items
        if isinstance(value, Generator):
            return value
        if isinstance(value, ClassValue):
            members = enum_members(value)
            return None if members is None else iter(members)
        return None

    def rest_arguments(self, values: list[Value]) -> Value:
        return tuple(values)

    def comprehension(
        self, kind: str, items: list[Value], pairs: list[tuple[Value, Value]]
    ) -> Value:
        if kind == "set":
            try:
                return set(items)
            except TypeError:
                return Unknown("a set of values that cannot be hashed")
        return super().comprehension(kind, items, pairs)

    def format_value(self, value: Value) -> str | None:
        # f-string fields without a spec or conversion: plain values here, the rest through
        # ``format_with_context`` (objects' own ``__str__``).
        kind = type(value)
        if kind is str:
            return value
        if kind is int or kind is float or kind is bool:
            return repr(value)
        if value is None or value is UNDEFINED:
            return "None"
        return plain_text(value)

    def format_with_context(self, ctx: CallContext, value: Value) -> str | None:
        text = py_str(ctx, value)
        return text if isinstance(text, str) else None

    def globals(self) -> dict[str, Value]:
        table = dict(self._globals)
        # Classes and modules are values a script may change: each run gets its own, made when
        # first used (most scripts use none of them).
        self.exceptions = ExceptionClasses()
        table["%modules"] = RunModules()
        self.given_names = table
        return table

    builtin_names = frozenset(EXCEPTIONS)

    def builtin_value(self, name: str) -> Value:
        return self.exceptions[name]


def _float_member(value: float, name: str) -> Value:
    """Methods of floats (and of numpy's ``float64``: ``round``, ``item``)."""
    if name == "is_integer":
        return Builtin("float.is_integer", lambda c, a, k: value.is_integer())
    if isinstance(value, np.floating) and name in ("round", "item", "tolist"):
        method = getattr(value, name)
        return Builtin(f"numpy.float64.{name}", lambda c, a, k: npl.wrap(method(*a)))
    return Unknown(f"float.{name} is not known")


def _typed(value: Value) -> bool:
    """Whether CPython would raise the same ``TypeError`` for this value (plain data)."""
    return value is None or isinstance(value, bool | int | float | str | list | tuple | dict | set)


def _not_implemented(value: Value) -> bool:
    return isinstance(value, Unknown) and value.reason == "NotImplemented"


def python2_remark(ctx: CallContext, name: str, now: str) -> None:
    """The ``py.python2`` remark: ``name`` is Python 2, read as ``now``."""
    dialect = ctx.interp.dialect
    note = dialect.python2_note if isinstance(dialect, Python) else Python.python2_note
    ctx.info("py.python2", f"{name} is Python 2 ({note}); read as {now}")


class RunModules(dict[str, Value]):
    """The standard modules of one run, each made when first imported."""

    def get(self, name: str, default: Value = None) -> Value:
        if name not in self:
            made = module_builders().get(name)
            if made is None:
                return default
            self[name] = made()
        return self[name]


def python_module(ctx: CallContext, module: str) -> Value | None:
    """A standard-library module the Python dialect provides (``math``, ``random``,
    ``itertools``...), or None; an engine's ``resolve_import`` asks this first."""
    table = ctx.interp.globals.vars.get("%modules")
    if isinstance(table, dict):
        return table.get(module)
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


__all__ = ["Python", "exception", "python2_remark", "python_module", "resolve_python_import"]
