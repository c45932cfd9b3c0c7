"""C# semantics for the evaluator (Unity scripts): integers stay integers and divide by
truncation, ``+`` concatenates strings, ``==`` compares values, lists and dictionaries have
C#'s members (``Add``, ``Count``, ``Length``...), and ``System.Math`` is provided. The C# front
end's helpers (``%init``, ``%array``, ``%cast``, ``%list_of``) live here too.

Engine structs (Unity's ``Vector3``, ``Color``) bring their own operators: an engine table
hands them over as ``operators`` (a function returning ``NotImplemented`` for other values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from parsers.evaluator.arguments import Args, Kwargs, arg
from parsers.evaluator.context import CallContext
from parsers.evaluator.csharp_linq import Grouping, Linq, enumerable_namespace_members
from parsers.evaluator.csharp_linq import Operator as Operator
from parsers.evaluator.csharp_text import (
    char_namespace,
    composite_format,
    enum_cast,
    enum_namespace,
    format_item,
    globalization,
    type_value,
)
from parsers.evaluator.csharp_text import format_number as format_number_text
from parsers.evaluator.csharp_text import (
    string_members as text_string_members,
)
from parsers.evaluator.dialect import Dialect
from parsers.evaluator.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    EnumMember,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)

Operators = Callable[[str, Value, Value], Value]

_MAX_TEXT = 1_000_000
_INTEGER_TYPES = frozenset(
    {"int", "long", "short", "byte", "uint", "ulong", "ushort", "sbyte", "char", "Int32", "Int64"}
)
_FLOAT_TYPES = frozenset({"float", "double", "decimal", "Single", "Double"})
#: ``System.Math`` (and Unity's ``Mathf``) functions that are Python's ``math`` function of
#: the lower-case name.
PYTHON_MATH_NAMES = ("Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sqrt", "Exp", "Floor", "Log10")


def set_out(ctx: CallContext, values: list[Value]) -> None:
    """Hand a built-in's ``out`` values to the call site (see the C# front end)."""
    ctx.interp.globals.vars["%out"] = list(values)


def format_number(value: float | int) -> str:
    """C#'s default ``ToString`` of a number: ``2`` for 2.0, ``0.5`` for 0.5."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


class CSharp(Dialect):
    name = "csharp"
    implicit_this = True

    def __init__(self, operators: Operators | None = None) -> None:
        self.operators = operators
        #: LINQ's operators, made on first use (most scripts use none).
        self._linq: dict[str, Operator] | None = None
        self._members = self._member_table()
        #: The built-in of each (type, member) read so far (a loop reads ``list.Add`` often).
        self._bound: dict[tuple[type, str], Builtin] = {}

    def _items(self, value: Value) -> list[Value] | None:
        items = self.iterate(value, "of")
        return None if items is None else list(items)

    # --- conversions --------------------------------------------------------------------------
    def to_string(self, value: Value) -> str:
        if value is None or value is UNDEFINED:
            return ""
        if isinstance(value, EnumMember):
            return value.member
        if isinstance(value, bool) or is_number(value):
            return format_number(value)
        if isinstance(value, str):
            return value
        if isinstance(value, Record):
            name = value.fields.get("name")
            return str(name) if isinstance(name, str) else type_name(value)
        return type_name(value)

    def format_value(self, value: Value) -> str | None:
        if isinstance(value, Unknown):
            return None
        return self.to_string(value)

    def to_number(self, value: Value) -> float | None:
        # ``i++`` on an int stays an int (C# keeps integer types).
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return super().to_number(value)

    # --- operators ------------------------------------------------------------------------------
    def binary(self, op: str, left: Value, right: Value) -> Value:
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        if self.operators is not None and (isinstance(left, Record) or isinstance(right, Record)):
            result = self.operators(op, left, right)
            if result is not NotImplemented:
                return result
        if op in ("===", "!==", "==", "!="):
            same = self.equals(left, right)
            if same is None:
                return Unknown("comparison of unknown values")
            return same if op in ("===", "==") else not same
        if op == "+" and (isinstance(left, str) or isinstance(right, str)):
            text = self.to_string(left) + self.to_string(right)
            return text if len(text) <= _MAX_TEXT else Unknown("a string too long to build")
        if not (is_number(left) or isinstance(left, bool)) or not (
            is_number(right) or isinstance(right, bool)
        ):
            return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)}")
        both_int = isinstance(left, int) and isinstance(right, int)
        try:
            if op == "+":
                return left + right
            if op == "-":
                return left - right
            if op == "*":
                return left * right
            if op == "/":
                if right == 0:
                    return Unknown("division by zero")
                if both_int:
                    quotient = abs(left) // abs(right)
                    return quotient if (left >= 0) == (right >= 0) else -quotient
                return float(left) / float(right)
            if op == "%":
                if right == 0:
                    return Unknown("division by zero")
                return math.fmod(left, right) if not both_int else int(math.fmod(left, right))
            if op in ("<", "<=", ">", ">="):
                return {
                    "<": left < right,
                    "<=": left <= right,
                    ">": left > right,
                    ">=": left >= right,
                }[op]
            if both_int and op in ("&", "|", "^", "<<", ">>"):
                if op == "<<" and right > 64:
                    return Unknown("a shift too large")
                return {
                    "&": left & right,
                    "|": left | right,
                    "^": left ^ right,
                    "<<": left << right,
                    ">>": left >> right,
                }[op]
        except (OverflowError, ValueError):
            return Unknown(f"{op} overflows")
        return Unknown(f"operator {op} is not supported")

    def unary(self, op: str, operand: Value) -> Value:
        if isinstance(operand, Unknown):
            return operand
        if self.operators is not None and isinstance(operand, Record):
            result = self.operators("neg" if op == "-" else op, operand, None)
            if result is not NotImplemented:
                return result
        if op == "not":
            truth = self.truthy(operand)
            return Unknown("negation of an unknown value") if truth is None else not truth
        if not is_number(operand) and not isinstance(operand, bool):
            return Unknown(f"unary {op} of a {type_name(operand)}")
        if op == "-":
            return -operand
        if op == "+":
            return operand
        if op == "~" and isinstance(operand, int):
            return ~operand
        return Unknown(f"unary {op} is not supported")

    def equals(self, left: Value, right: Value) -> bool | None:
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return None
        if left is UNDEFINED:
            left = None
        if right is UNDEFINED:
            right = None
        if (
            isinstance(left, Record)
            and isinstance(right, Record)
            and left.value_type
            and right.value_type
        ):
            return left.kind == right.kind and left.fields == right.fields
        if isinstance(left, Record) or isinstance(right, Record):
            return left is right
        if is_number(left) and is_number(right):
            return bool(left == right)
        return type(left) is type(right) and bool(left == right)

    # --- members of plain values ------------------------------------------------------------------
    def _member_table(self) -> dict[type, dict[str, Callable[[CallContext, Any, Args], Value]]]:
        def add(ctx: CallContext, items: list[Value], args: Args) -> Value:
            items.append(arg(args, 0))
            return None

        def add_range(ctx: CallContext, items: list[Value], args: Args) -> Value:
            more = self.iterate(arg(args, 0), "of")
            if more is not None:
                items.extend(more)
            return None

        def remove(ctx: CallContext, items: list[Value], args: Args) -> Value:
            target = arg(args, 0)
            for i, item in enumerate(items):
                if item is target or self.equals(item, target):
                    del items[i]
                    return True
            return False

        def remove_at(ctx: CallContext, items: list[Value], args: Args) -> Value:
            index = arg(args, 0)
            if isinstance(index, int) and 0 <= index < len(items):
                del items[index]
            return None

        def insert(ctx: CallContext, items: list[Value], args: Args) -> Value:
            index = arg(args, 0)
            if isinstance(index, int):
                items.insert(index, arg(args, 1))
            return None

        def to_string(ctx: CallContext, value: Value, args: Args) -> Value:
            fmt = arg(args, 0)
            if isinstance(value, EnumMember):
                # An enum's "D" format is its number; every other its name.
                return str(int(value)) if fmt in ("D", "d") else value.member
            if is_number(value) and isinstance(fmt, str) and fmt:
                text = format_number_text(value, fmt, self.to_string)
                return (
                    Unknown(f"the number format {fmt!r} is not modelled") if text is None else text
                )
            return self.to_string(value)

        list_members: dict[str, Callable[[CallContext, Any, Args], Value]] = {
            "Add": add,
            "AddRange": add_range,
            "Remove": remove,
            "RemoveAt": remove_at,
            "Insert": insert,
            "Clear": lambda ctx, items, args: items.clear(),
            "Contains": lambda ctx, items, args: any(self.equals(i, arg(args, 0)) for i in items),
            "IndexOf": lambda ctx, items, args: next(
                (i for i, v in enumerate(items) if self.equals(v, arg(args, 0))), -1
            ),
            "ToArray": lambda ctx, items, args: list(items),
            "ToList": lambda ctx, items, args: list(items),
            "Reverse": lambda ctx, items, args: items.reverse(),
            "First": lambda ctx, items, args: (
                items[0] if items else Unknown("First of an empty list")
            ),
            "Last": lambda ctx, items, args: (
                items[-1] if items else Unknown("Last of an empty list")
            ),
            "ToString": to_string,
        }
        # LINQ's operators (``_linq_member``) stand in for these with a predicate too.
        for name in ("First", "Last", "ToArray", "ToList"):
            del list_members[name]
        dict_members: dict[str, Callable[[CallContext, Any, Args], Value]] = {
            "Add": lambda ctx, d, args: d.__setitem__(arg(args, 0), arg(args, 1)),
            "ContainsKey": lambda ctx, d, args: arg(args, 0) in d,
            "Remove": lambda ctx, d, args: d.pop(arg(args, 0), None) is not None,
            "Clear": lambda ctx, d, args: d.clear(),
            "TryGetValue": self._try_get_value,
        }

        string_members: dict[str, Callable[[CallContext, Any, Args], Value]] = {
            "ToUpper": lambda ctx, s, args: s.upper(),
            "ToLower": lambda ctx, s, args: s.lower(),
            "Trim": lambda ctx, s, args: s.strip(),
            "Contains": lambda ctx, s, args: isinstance(arg(args, 0), str) and arg(args, 0) in s,
            "StartsWith": lambda ctx, s, args: (
                isinstance(arg(args, 0), str) and s.startswith(arg(args, 0))
            ),
            "EndsWith": lambda ctx, s, args: (
                isinstance(arg(args, 0), str) and s.endswith(arg(args, 0))
            ),
            "Replace": lambda ctx, s, args: (
                s.replace(arg(args, 0), arg(args, 1))
                if isinstance(arg(args, 0), str) and isinstance(arg(args, 1), str)
                else Unknown("Replace of unknown text")
            ),
            "Split": self._split,
            "Substring": lambda ctx, s, args: (
                s[
                    arg(args, 0) : (arg(args, 0) + arg(args, 1))
                    if isinstance(arg(args, 1), int)
                    else None
                ]
                if isinstance(arg(args, 0), int)
                else Unknown("Substring of unknown bounds")
            ),
            "ToString": to_string,
            **text_string_members(self.to_string),
        }
        number_members: dict[str, Callable[[CallContext, Any, Args], Value]] = {
            "ToString": to_string
        }
        return {
            list: list_members,
            dict: dict_members,
            str: string_members,
            int: number_members,
            float: number_members,
        }

    @staticmethod
    def _split(ctx: CallContext, text: str, args: Args) -> Value:
        """``text.Split(',')`` (or several separators, or none: white space), as an array."""
        separators = [a for a in args if isinstance(a, str)]
        if any(isinstance(a, Unknown) for a in args):
            return Unknown("Split by an unknown separator")
        if not separators:
            return text.split()
        parts = [text]
        for separator in separators:
            if separator:
                parts = [piece for part in parts for piece in part.split(separator)]
        return parts

    def _try_get_value(self, ctx: CallContext, d: dict[Any, Value], args: Args) -> Value:
        key = arg(args, 0)
        found = key in d if not isinstance(key, Unknown) else False
        set_out(ctx, [d.get(key) if found else None])
        return found

    def _linq_operators(self) -> dict[str, Operator]:
        if self._linq is None:
            self._linq = Linq(self._items, lambda a, b: self.equals(a, b)).operators()
        return self._linq

    def _linq_member(self, obj: Value, name: str) -> Value:
        """LINQ's ``name`` over a list, array or dictionary (its key-value pairs), or None.
        ``List<T>``'s own members are looked up first; a dictionary has no ``List<T>`` methods."""
        op = self._linq_operators().get(name)
        if op is None or (
            isinstance(obj, dict) and name in ("ForEach", "RemoveAll", "Sort", "FindIndex")
        ):
            return None
        key = (type(obj) if isinstance(obj, dict) else list, f"linq.{name}")
        builtin = self._bound.get(key)
        if builtin is None:
            if isinstance(obj, dict):
                builtin = Builtin(name, lambda c, o, a, k, op=op: op(c, self._items(o) or [], a))
            else:
                builtin = Builtin(name, lambda c, o, a, k, op=op: op(c, o, a))
            self._bound[key] = builtin
        return BoundMethod(obj, builtin)

    def get_method(self, ctx: CallContext, obj: Value, name: str) -> Value:
        # ``list.Count()`` is LINQ's method (``list.Count`` the property).
        if name in ("Count", "LongCount") and isinstance(obj, list | tuple | dict):
            return self._linq_member(obj if not isinstance(obj, tuple) else list(obj), "Count")
        return self.get_member(ctx, obj, name)

    def get_member(self, ctx: CallContext, obj: Value, name: str) -> Value:
        if isinstance(obj, Grouping) and name == "Key":
            return obj.key
        if isinstance(obj, list | tuple) and name in ("Count", "Length"):
            return len(obj)
        if isinstance(obj, dict):
            if name == "Count":
                return len(obj)
            if name == "Keys":
                return list(obj.keys())
            if name == "Values":
                return list(obj.values())
        if isinstance(obj, str) and name == "Length":
            return len(obj)
        for kind, table in self._members.items():
            if isinstance(obj, kind) and not isinstance(obj, bool):
                key = (kind, name)
                builtin = self._bound.get(key)
                if builtin is None:
                    method = table.get(name)
                    if method is None:
                        if isinstance(obj, list | tuple | dict):
                            found = self._linq_member(
                                list(obj) if isinstance(obj, tuple) else obj, name
                            )
                            if found is not None:
                                return found
                        break
                    builtin = self._bound[key] = Builtin(
                        f"{kind.__name__}.{name}", lambda c, o, a, k, m=method: m(c, o, a)
                    )
                return BoundMethod(obj, builtin)
        return Unknown(f"{type_name(obj)}.{name} is not known")

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        ctx.info("eval.ignored_assignment", f"cannot set {name} on a {type_name(obj)}; ignored")

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        if isinstance(obj, dict):
            return obj[index] if index in obj else Unknown(f"key {index!r} is missing")
        if isinstance(index, float) and index.is_integer():
            index = int(index)
        if (
            isinstance(obj, list | tuple | str)
            and isinstance(index, int)
            and not isinstance(index, bool)
        ):
            if 0 <= index < len(obj):
                return obj[index]
            return Unknown(f"index {index} is out of range")
        if isinstance(obj, list) and isinstance(index, tuple):
            current: Value = obj
            for i in index:
                current = self.get_index(ctx, current, i)
            return current
        return Unknown(f"index {index!r} of a {type_name(obj)} is not known")

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if (isinstance(obj, dict) and not isinstance(index, Unknown)) or (
            isinstance(obj, list) and isinstance(index, int) and 0 <= index < len(obj)
        ):
            obj[index] = value
        elif isinstance(obj, list) and isinstance(index, tuple) and index:
            inner = self.get_index(ctx, obj, index[:-1]) if len(index) > 1 else obj
            self.set_index(ctx, inner, index[-1], value)
        else:
            ctx.warning("eval.bad_index", f"index {index!r} out of range; assignment ignored")

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if isinstance(value, list | tuple | str):
            return iter(value)
        if isinstance(value, dict):
            return iter([Record("KeyValuePair", {"Key": k, "Value": v}) for k, v in value.items()])
        return None

    def typeof(self, value: Value) -> Value:
        return type_name(value)

    # --- library ----------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        def init(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            created, payload = arg(args, 0), arg(args, 1)
            if not isinstance(payload, tuple) or len(payload) != 3:
                return created
            members, items, keyed = payload
            if isinstance(created, list):
                created.extend(items)
                return created
            if isinstance(created, dict):
                for pair in keyed:
                    if (
                        isinstance(pair, tuple)
                        and len(pair) == 2
                        and not isinstance(pair[0], Unknown)
                    ):
                        created[pair[0]] = pair[1]
                return created
            for name, value in members.items():
                ctx.set_member(created, name, value)
            for pair in keyed:
                if isinstance(pair, tuple) and len(pair) == 2:
                    ctx.interp.set_index(created, pair[0], pair[1], ctx.line, ctx.col)
            return created

        def array(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            sizes, default = arg(args, 0), arg(args, 1)
            if (
                not isinstance(sizes, tuple)
                or not sizes
                or not all(isinstance(s, int) and 0 <= s <= 100_000 for s in sizes)
            ):
                return Unknown("an array of a size that cannot be known statically")
            if len(sizes) == 1:
                return [ctx.call(default, []) for _ in range(sizes[0])]
            return [[ctx.call(default, []) for _ in range(sizes[1])] for _ in range(sizes[0])]

        def cast(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            type_name_, value = arg(args, 0), arg(args, 1)
            if isinstance(value, Unknown) or not (is_number(value) or isinstance(value, bool)):
                return value
            if type_name_ in _INTEGER_TYPES:
                return int(value)
            if type_name_ in _FLOAT_TYPES:
                return float(value)
            return enum_cast(ctx, type_name_, value)

        def list_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            items = self.iterate(arg(args, 0), "of")
            return list(items) if items is not None else []

        def math_fn(fn: Callable[..., float], arity: int = 1) -> Builtin:
            def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
                values = [ctx.number(a, "Math argument", 0.0) for a in args[:arity]]
                try:
                    return fn(*values)
                except (ValueError, OverflowError, ZeroDivisionError, TypeError):
                    return Unknown("a math function of values outside its domain")

            return Builtin("Math", call)

        def clamp(value: float, lo: float, hi: float) -> float:
            return min(max(value, lo), hi)

        math_members: dict[str, Value] = {
            "PI": math.pi,
            "E": math.e,
            **{name: math_fn(getattr(math, name.lower())) for name in PYTHON_MATH_NAMES},
            "Ceiling": math_fn(math.ceil),
            "Abs": math_fn(abs),
            "Round": math_fn(round),
            "Atan2": math_fn(math.atan2, 2),
            "Pow": math_fn(math.pow, 2),
            "Min": math_fn(min, 2),
            "Max": math_fn(max, 2),
            "Clamp": math_fn(clamp, 3),
            "Log": math_fn(math.log, 1),
        }
        math_namespace = Namespace("Math", math_members)

        def string_format(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            template = arg(args, 0)
            if not isinstance(template, str) or any(isinstance(a, Unknown) for a in args):
                return Unknown("String.Format of unknown values")
            values = list(args[1:])
            if len(values) == 1 and isinstance(values[0], list):
                values = list(values[0])  # String.Format(text, params object[] args)
            return composite_format(template, values, self.to_string)

        string_namespace = Namespace(
            "String",
            {
                "Format": Builtin("String.Format", string_format),
                "IsNullOrEmpty": Builtin(
                    "String.IsNullOrEmpty", lambda ctx, a, k: arg(a, 0) in (None, "", UNDEFINED)
                ),
                "Concat": Builtin(
                    "String.Concat", lambda ctx, a, k: "".join(self.to_string(v) for v in a)
                ),
                "Join": Builtin(
                    "String.Join",
                    lambda ctx, a, k: self.to_string(arg(a, 0)).join(
                        self.to_string(v) for v in (self.iterate(arg(a, 1), "of") or [])
                    ),
                ),
                "Empty": "",
            },
        )
        enumerable = Namespace(
            "Enumerable",
            {
                name: Builtin(f"Enumerable.{name}", lambda ctx, a, k, fn=fn: fn(ctx, a))
                for name, fn in enumerable_namespace_members().items()
            },
        )
        text_globals = globalization(self.to_string)
        char = char_namespace()
        enum = enum_namespace()
        inert = Namespace(
            "Console", missing=lambda name: Builtin(f"Console.{name}", lambda ctx, a, k: None)
        )
        system = Namespace(
            "System",
            {
                "Math": math_namespace,
                "MathF": math_namespace,
                "String": string_namespace,
                "Console": inert,
                "Char": char,
                "Enum": enum,
                "Linq": Namespace("System.Linq", {"Enumerable": enumerable}),
                "Globalization": Namespace("System.Globalization", dict(text_globals)),
                "Threading": Namespace("System.Threading", dict(text_globals)),
            },
            missing=lambda name: Namespace(f"System.{name}"),
        )
        parse = self._number_type("float", float)
        whole = self._number_type("int", int)
        convert = self._convert_namespace()
        system.members["Convert"] = convert
        for name, namespace in (("Single", parse), ("Double", parse), ("Int32", whole)):
            system.members[name] = namespace
        return {
            "%typeof": Builtin("%typeof", type_value),
            "%anonymous": Builtin(
                "%anonymous",
                lambda ctx, a, k: (
                    Record("Anonymous", dict(arg(a, 0)))
                    if isinstance(arg(a, 0), dict)
                    else Unknown("an anonymous object that cannot be built")
                ),
            ),
            "%format": Builtin(
                "%format",
                lambda ctx, a, k: format_item(arg(a, 0), arg(a, 1), arg(a, 2), self.to_string),
            ),
            "char": char,
            "Char": char,
            "Enum": enum,
            "Enumerable": enumerable,
            **text_globals,
            "%init": Builtin("%init", init),
            "%array": Builtin("%array", array),
            "%cast": Builtin("%cast", cast),
            "%list_of": Builtin("%list_of", list_of),
            "%out": None,
            "Math": math_namespace,
            "MathF": math_namespace,
            "String": string_namespace,
            "string": string_namespace,
            "Console": inert,
            "System": system,
            "float": parse,
            "int": whole,
            "long": whole,
            "double": parse,
            "Convert": convert,
            "true": True,
            "false": False,
        }

    @staticmethod
    def _parse_number(value: Value, kind: type = float) -> Value:
        """``float.Parse(text)``, ``int.Parse(text)``: numbers written as text (a format
        provider such as ``CultureInfo.InvariantCulture`` after it changes nothing here)."""
        if isinstance(value, str):
            try:
                number = float(value.strip().rstrip("fFdDmM"))
            except ValueError:
                return Unknown(f"{value!r} is not a number")
            if kind is int:
                return int(number) if number.is_integer() else Unknown(f"{value!r} is no integer")
            return number
        if isinstance(value, Unknown):
            return value
        return Unknown("Parse of a value that is not text")

    def _number_type(self, name: str, kind: type) -> Namespace:
        """``float``/``int`` as C# scripts use them for numbers written as text: ``Parse`` and
        ``TryParse`` (its result through ``out``)."""

        def parse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            return self._parse_number(arg(args, 0), kind)

        def try_parse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            value = self._parse_number(arg(args, 0), kind)
            ok = not isinstance(value, Unknown)
            set_out(ctx, [value if ok else kind(0)])
            return ok

        return Namespace(
            name,
            {
                "Parse": Builtin(f"{name}.Parse", parse),
                "TryParse": Builtin(f"{name}.TryParse", try_parse),
                "MaxValue": math.inf if kind is float else 2**31 - 1,
                "MinValue": -math.inf if kind is float else -(2**31),
            },
        )

    def _convert_namespace(self) -> Namespace:
        """``System.Convert.ToSingle``/``ToDouble``/``ToInt32``: text or numbers as numbers
        (``ToInt32`` of a number rounds half to even, as .NET does)."""

        def to(kind: type) -> Callable[[CallContext, Args, Kwargs], Value]:
            def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
                value = arg(args, 0)
                if isinstance(value, bool):
                    return kind(value)
                if is_number(value):
                    return round(value) if kind is int else float(value)
                return self._parse_number(value, kind)

            return call

        return Namespace(
            "Convert",
            {
                "ToSingle": Builtin("Convert.ToSingle", to(float)),
                "ToDouble": Builtin("Convert.ToDouble", to(float)),
                "ToInt32": Builtin("Convert.ToInt32", to(int)),
                "ToInt64": Builtin("Convert.ToInt64", to(int)),
            },
        )


__all__ = ["CSharp", "Operators", "format_number", "set_out"]
