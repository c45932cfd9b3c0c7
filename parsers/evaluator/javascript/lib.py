"""JavaScript semantics for the evaluator: numbers are doubles, ``+`` concatenates strings,
empty arrays are truthy, and the parts of the standard library scene scripts use
(``Math``, array methods, ``Object.assign``, ``Array.from``, ``Number``, ``String``).

The ``JavaScript`` dialect (conversions, operators, members, iteration) is here; the members of
arrays, strings, numbers and functions are in ``javascript.methods``, Map, Set, the order of
keys and JSON in ``javascript.keyed_collections``, numbers as text in ``javascript.numerics``, the
global names in ``javascript.globals``.

A user class instance with its own ``toString`` or ``valueOf`` converts through it (``${v}``,
``'' + v``, ``v * 2``): the dialect calls back into the interpreter it is attached to."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.dialect import Dialect
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.values import (
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
from parsers.evaluator.javascript.globals import ERROR_CLASSES, js_globals
from parsers.evaluator.javascript.keyed_collections import (
    JsMap,
    JsSet,
    map_member,
    map_methods,
    object_keys,
    own_keys,
    set_member,
    set_methods,
)
from parsers.evaluator.javascript.methods import (
    JsIterator,
    TypedArray,
    function_methods,
    generator_methods,
    list_methods,
    number_methods,
    stored_element,
    string_methods,
)
from parsers.evaluator.javascript.numerics import js_pow, number_text, string_to_number

if TYPE_CHECKING:
    pass

#: ``String(n)`` for a JS number (``1`` not ``1.0``, ``1e+21``).
js_number_text = number_text


def _int32(value: float) -> int:
    if not math.isfinite(value):
        return 0
    number = int(value) & 0xFFFFFFFF
    return number - 0x100000000 if number >= 0x80000000 else number


@dataclass(frozen=True)
class _Tables:
    """The dialect's library, the same for every run (its built-ins find their run's dialect
    through the call, ``javascript.methods.dialect_of``): built once, on first use."""

    list_methods: dict[str, Builtin]
    string_methods: dict[str, Builtin]
    number_methods: dict[str, Builtin]
    function_methods: dict[str, Builtin]
    generator_methods: dict[str, Builtin]
    map_methods: dict[str, Builtin]
    set_methods: dict[str, Builtin]
    globals: dict[str, Value]


@cache
def _tables() -> _Tables:
    return _Tables(
        list_methods(),
        string_methods(),
        number_methods(),
        function_methods(),
        generator_methods(),
        map_methods(),
        set_methods(),
        js_globals(),
    )


class JavaScript(Dialect):
    name = "javascript"

    def __init__(self) -> None:
        tables = _tables()
        self._list_methods = tables.list_methods
        self._string_methods = tables.string_methods
        self._number_methods = tables.number_methods
        self._function_methods = tables.function_methods
        self._generator_methods = tables.generator_methods
        self.map_methods = tables.map_methods
        self.set_methods = tables.set_methods
        #: Objects passed to ``Object.freeze`` (by identity; the value keeps each alive).
        self.frozen: dict[int, Value] = {}

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
            return string_to_number(value)
        if isinstance(value, Record) and value.cls is not None:
            primitive = self._user_primitive(value, "number")
            if primitive is not value:
                return self.to_number(primitive)
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
        if isinstance(value, Record) and value.cls is not None:
            primitive = self._user_primitive(value, "string")
            if primitive is not value and not isinstance(primitive, Unknown):
                return self.to_string(primitive)
        if isinstance(value, Record) and value.kind in ERROR_CLASSES:
            name = self.to_string(value.fields.get("name", "Error"))
            message = self.to_string(value.fields.get("message", ""))
            return f"{name}: {message}" if name and message else name or message
        if isinstance(value, dict | Record):
            return "[object Object]"
        if isinstance(value, JsMap):
            return "[object Map]"
        if isinstance(value, JsSet):
            return "[object Set]"
        if isinstance(value, Generator):
            return "[object Generator]"
        return str(value)

    def format_value(self, value: Value) -> str | None:
        if isinstance(value, Record) and value.cls is not None:
            primitive = self._user_primitive(value, "string")
            if isinstance(primitive, Unknown):
                return None
        return super().format_value(value)

    def _user_primitive(self, value: Record, hint: str) -> Value:
        """``value`` converted by its class's own ``toString``/``valueOf`` (``valueOf`` first
        unless the hint is ``string``); ``value`` itself when its class defines neither."""
        cls = value.cls
        if cls is None or self.interpreter is None:
            return value
        order = ("toString", "valueOf") if hint == "string" else ("valueOf", "toString")
        for name in order:
            found = cls.find_method(name)
            if found is None:
                continue
            fn, home = found
            result = self.interpreter.call_value(Closure(fn, home.env, home), [], {}, 0, 0, value)
            if not isinstance(result, list | tuple | dict | Record):
                return result
        return value

    def _primitive(self, value: Value) -> Value:
        kind = type(value)
        if kind is float or kind is str:  # the common case, decided at once
            return value
        if kind is Record and value.cls is not None:
            primitive = self._user_primitive(value, "default")
            if primitive is not value:
                return primitive
        if isinstance(value, list | tuple | dict | Record | JsMap | JsSet):
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
            if isinstance(a, Unknown):
                return a
            if isinstance(b, Unknown):
                return b
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
                return js_pow(x, y)
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

    def instance_of(self, value: Value, cls: Value) -> bool | None:
        if not isinstance(cls, EngineClass | Namespace):  # ``Object`` is a namespace
            return None if isinstance(value, Record) else False
        name = cls.name
        if name == "Object":
            return not (
                value is None
                or value is UNDEFINED
                or isinstance(value, bool | str)
                or is_number(value)
            )
        if name == "Array":
            return isinstance(value, list)
        if name == "Map":
            return isinstance(value, JsMap)
        if name == "Set":
            return isinstance(value, JsSet)
        if name == "Function":
            return isinstance(value, Closure | Builtin | BoundMethod | ClassValue | EngineClass)
        return None if isinstance(value, Record) else False

    def class_member(self, ctx: CallContext, cls: ClassValue, name: str) -> Value:
        if name == "name":
            return cls.name
        return UNDEFINED

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
                    Builtin("hasOwnProperty", lambda c, o, a, k: self.to_string(arg(a, 0)) in o),
                )
            if name == "toString":
                return BoundMethod(obj, Builtin("toString", lambda c, o, a, k: "[object Object]"))
            return UNDEFINED
        if isinstance(obj, str):
            if name == "length":
                return float(len(obj))
            method = self._string_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if is_number(obj):
            method = self._number_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if isinstance(obj, Closure | Builtin | BoundMethod):
            method = self._function_methods.get(name)
            if method is not None:
                return BoundMethod(obj, method)
            if isinstance(obj, Closure):
                return self._function_member(obj, name)
            return UNDEFINED
        if isinstance(obj, JsMap):
            return map_member(self, obj, name)
        if isinstance(obj, JsSet):
            return set_member(self, obj, name)
        if isinstance(obj, Generator):
            method = self._generator_methods.get(name)
            return BoundMethod(obj, method) if method is not None else UNDEFINED
        if isinstance(obj, JsIterator):
            return (
                BoundMethod(obj, Builtin("Iterator.next", lambda c, it, a, k: it.step()))
                if name == "next"
                else UNDEFINED
            )
        if obj is None or obj is UNDEFINED:
            return Unknown(f"reading {name} of {self.to_string(obj)} (a TypeError)")
        return UNDEFINED

    @staticmethod
    def _function_member(fn: Closure, name: str) -> Value:
        if name == "length":
            count = 0
            for param in fn.fn.params:
                if param.default is not None or param.kind != "positional":
                    break
                count += 1
            return float(count)
        if name == "name":
            if fn.fn.name:
                return fn.fn.name
            return Unknown("the name JavaScript infers for an anonymous function")
        if name == "prototype":
            return Unknown("a function's prototype is not followed")
        return UNDEFINED

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        if isinstance(obj, dict):
            if id(obj) not in self.frozen:
                obj[name] = value
        elif isinstance(obj, list) and name == "length":
            number = self.to_number(value)
            if number is not None and number.is_integer() and 0 <= number <= len(obj):
                del obj[int(number) :]
            elif number is not None and number.is_integer() and number > len(obj):
                self.set_index(ctx, obj, number - 1, UNDEFINED)
        elif obj is None or obj is UNDEFINED:
            ctx.warning(
                "eval.ignored_assignment",
                f"setting {name} of {self.to_string(obj)} throws a TypeError; ignored",
            )
        elif isinstance(obj, list | Closure | Builtin | BoundMethod | JsMap | JsSet):
            what = (
                "an array"
                if isinstance(obj, list)
                else "a Map or Set"
                if isinstance(obj, JsMap | JsSet)
                else "a function"
            )
            ctx.warning(
                "eval.ignored_assignment",
                f"a property {name} set on {what} is not followed; ignored",
            )

    def unknown_target(self, ctx: CallContext, target: Unknown, what: str) -> None:
        if not target.inert:
            ctx.warning(
                "eval.unknown_target",
                f"{what} ({target.reason}); the assignment is not followed",
            )

    def unfollowed_call(self, ctx: CallContext, name: str, why: Unknown) -> None:
        if not why.inert:
            ctx.warning(
                "eval.unknown_target",
                f"{name}() cannot be followed ({why.reason}); what it does is left out",
            )

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
            if i is None or i < 0:  # a property, not an element (``length``, ``arr.name``)
                self.set_member(ctx, obj, self.to_string(index), value)
                return
            if isinstance(obj, TypedArray):
                if i < len(obj):  # a typed array never grows
                    obj[i] = stored_element(self, obj, value)
                return
            if i >= len(obj):
                if i > ctx.interp.limits.max_collection:
                    ctx.warning("eval.too_large", "an array index too large to follow; ignored")
                    return
                obj.extend([UNDEFINED] * (i + 1 - len(obj)))
            obj[i] = value
        elif isinstance(obj, dict):
            if id(obj) not in self.frozen:
                obj[self.to_string(index)] = value
        else:
            self.set_member(ctx, obj, self.to_string(index), value)

    def delete_index(self, ctx: CallContext, obj: Value, index: Value) -> None:
        if isinstance(obj, dict):
            if id(obj) not in self.frozen:
                obj.pop(self.to_string(index), None)
        elif isinstance(obj, Record) and ctx.interp.engine.owns(obj):
            ctx.warning(
                "eval.ignored_delete",
                f"deleting {self.to_string(index)} of an engine object ({obj.kind}) is not"
                " followed: the object keeps it",
            )
        elif isinstance(obj, Record):
            obj.fields.pop(self.to_string(index), None)
        elif isinstance(obj, list):
            i = self._index_number(index)
            if i is not None and 0 <= i < len(obj):
                obj[i] = UNDEFINED  # the length stays
                ctx.warning(
                    "eval.array_hole",
                    "delete leaves a hole in an array, read as undefined (iteration methods"
                    " and 'in' would skip it)",
                )
        else:
            ctx.warning("eval.ignored_delete", "this deletion is not modelled; ignored")

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if isinstance(value, Unknown):
            return None
        if mode == "in":
            keys = object_keys(value)
            if keys is not None:
                return keys
            if isinstance(value, list | tuple | str):
                return [str(i) for i in range(len(value))]
            if isinstance(value, Record):
                return own_keys(k for k in value.fields if not k.startswith("#"))
            if isinstance(value, JsMap | JsSet):
                return []
            return None
        if isinstance(value, list | tuple | str):
            return iter(value)
        if isinstance(value, JsIterator):
            return value
        if isinstance(value, Generator):
            return value
        if isinstance(value, JsMap):
            return None if value.unknown else [[k, v] for k, v in value.entries.values()]
        if isinstance(value, JsSet):
            return None if value.unknown else list(value.entries.values())
        return None

    def globals(self) -> dict[str, Value]:
        # The library is built once per process; a namespace a script can write into
        # (``Math.foo = 1``) is this run's own copy.
        return {
            name: Namespace(value.name, dict(value.members), value.missing)
            if isinstance(value, Namespace)
            else value
            for name, value in _tables().globals.items()
        }
