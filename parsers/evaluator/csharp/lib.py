"""C# semantics for the evaluator (Unity scripts): integers stay integers and divide by
truncation, ``+`` concatenates strings, ``==`` compares values, lists and dictionaries have
C#'s members (``Add``, ``Count``, ``Length``...). The global names (``System.Math``, ``String``,
``Array``'s statics..., and the C# front end's helpers ``%init``, ``%array``, ``%cast``) are
``globals``'s.

Engine structs (Unity's ``Vector3``, ``Color``) bring their own operators: an engine table
hands them over as ``operators`` (a function returning ``NotImplemented`` for other values).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterable
from typing import Any

from parsers.evaluator.core.arguments import Args, Kwargs, arg
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
    EnumMember,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)
from parsers.evaluator.csharp.globals import EXCEPTION_BASES, csharp_globals
from parsers.evaluator.csharp.linq import Grouping, Linq
from parsers.evaluator.csharp.linq import Operator as Operator
from parsers.evaluator.csharp.numerics import (
    INT_MAX,
    INT_MIN,
    LONG_MAX,
    LONG_MIN,
    NUMERIC_TYPES,
    Char,
    Long,
    Single,
    convert,
    general,
    single,
    wrap,
)
from parsers.evaluator.csharp.text import format_number as format_number_text
from parsers.evaluator.csharp.text import (
    string_members as text_string_members,
)
from parsers.evaluator.csharp.values import MAX_TEXT, RectangularArray, set_out

Operators = Callable[[str, Value, Value], Value]

#: Operators whose result on two doubles (or a float's two values) is Python's own; on two
#: ints too, the result then wrapped to 32 bits.
_FAST: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "===": operator.eq,
    "!==": operator.ne,
}
_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    op: _FAST[op] for op in ("<", "<=", ">", ">=")
}
#: The static method a C# operator declaration is lowered to (its CLR name).
_OPERATOR_METHODS = {
    "+": "op_Addition",
    "-": "op_Subtraction",
    "*": "op_Multiply",
    "/": "op_Division",
    "%": "op_Modulus",
    "==": "op_Equality",
    "===": "op_Equality",
    "!=": "op_Inequality",
    "!==": "op_Inequality",
    "<": "op_LessThan",
    ">": "op_GreaterThan",
    "<=": "op_LessThanOrEqual",
    ">=": "op_GreaterThanOrEqual",
    "&": "op_BitwiseAnd",
    "|": "op_BitwiseOr",
    "^": "op_ExclusiveOr",
}

#: The items of an iterator LINQ reads at most.
_MAX_ITEMS = 100_000


def format_number(value: float | int) -> str:
    """C#'s default ``ToString`` of a number as Mono writes it: ``2`` for 2.0, ``0.3`` for
    0.1 + 0.2 (15 significant digits for a double, 7 for a float), ``1E+15``."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    return general(value)


def _number_kind(value: Value) -> int:
    """The C# numeric type of a value, widening in this order: int 0, long 1, float 2,
    double 3 (a char is an int in arithmetic)."""
    kind = type(value)
    if kind is float:
        return 3
    if kind is Single:
        return 2
    if kind is Long:
        return 1
    return 0


def _throw_overflow() -> Value:
    raise ThrowSignal(
        Record("OverflowException", {"Message": "Arithmetic operation resulted in an overflow."}),
        0,
    )


def _integral_result(value: int, wide: bool, checked: bool) -> Value:
    """An int or long result: wrapped (C#'s unchecked default) or, when checked, an
    ``OverflowException`` past the type's range."""
    if wide:
        if LONG_MIN <= value <= LONG_MAX:
            return Long(value)
        return _throw_overflow() if checked else Long(wrap(value, 64))
    if INT_MIN <= value <= INT_MAX:
        return value
    return _throw_overflow() if checked else wrap(value, 32)


def _real_division(left: float, right: float) -> float:
    """IEEE division, as C# divides doubles and floats: by zero gives an infinity or NaN."""
    if right != 0:
        return left / right
    if left == 0 or math.isnan(left):
        return math.nan
    return math.copysign(math.inf, left) * math.copysign(1.0, right)


_NULLABLE_MEMBERS = frozenset({"HasValue", "Value", "GetValueOrDefault"})


class ValueTuple(tuple):  # type: ignore[type-arg]
    """A C# tuple whose type names its elements (``(int count, float mean)``)."""

    names: tuple[str, ...]

    def __new__(cls, items: Iterable[Value], names: tuple[str, ...]) -> ValueTuple:
        made = super().__new__(cls, items)
        made.names = names
        return made


def _tuple_type(text: str) -> tuple[list[str], tuple[str, ...]]:
    """The element types and names of a tuple type written ``(int count, float mean)``."""
    types: list[str] = []
    names: list[str] = []
    depth = 0
    part = ""
    for char in text.strip()[1:-1] + ",":
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            words = part.split()
            types.append(words[0] if words else "")
            names.append(words[1] if len(words) > 1 else "")
            part = ""
        else:
            part += char
    return types, tuple(names)


def _culture_key(text: str) -> tuple[str, str]:
    return (text.casefold(), text.swapcase())


def _is_int(value: Value) -> bool:
    return type(value) is int


_BUILTIN_TYPE_TESTS: dict[str, Callable[[Value], bool]] = {
    "int": _is_int,
    "Int32": _is_int,
    "long": lambda v: type(v) is Long,
    "Int64": lambda v: type(v) is Long,
    "float": lambda v: type(v) is Single,
    "Single": lambda v: type(v) is Single,
    "double": lambda v: type(v) is float,
    "Double": lambda v: type(v) is float,
    "decimal": lambda v: type(v) is float,
    "string": lambda v: isinstance(v, str) and type(v) is not Char,
    "String": lambda v: isinstance(v, str) and type(v) is not Char,
    "char": lambda v: type(v) is Char,
    "Char": lambda v: type(v) is Char,
    "bool": lambda v: isinstance(v, bool),
    "Boolean": lambda v: isinstance(v, bool),
}
_COLLECTION_TYPES: dict[str, type | tuple[type, ...]] = {
    "List": list,
    "IList": list,
    "IEnumerable": (list, tuple, dict, str),
    "ICollection": (list, dict),
    "Array": list,
    "Dictionary": dict,
    "IDictionary": dict,
}
_NUMERIC_RANK = {
    **{name: 0 for name in ("int", "Int32", "short", "byte", "sbyte", "ushort")},
    **{name: 1 for name in ("long", "Int64", "uint", "ulong")},
    **{name: 2 for name in ("float", "Single")},
}


class CSharp(Dialect):
    name = "csharp"
    implicit_this = True
    statics_belong_to_declaring_class = True
    #: User classes and structs take part in operators (``operator +``), deconstruction
    #: (``Deconstruct``) and ``System.Object``'s members through the record protocols.
    record_protocols = True

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
        text = self.text(value)
        return text if isinstance(text, str) else type_name(value)

    def text(self, value: Value) -> str | Unknown:
        """``value.ToString()`` as C# calls it when printing or concatenating: a class's own
        ``ToString`` is called; unknown when it gives nothing known."""
        if value is None or value is UNDEFINED:
            return ""
        if isinstance(value, EnumMember):
            return value.member
        if isinstance(value, bool) or is_number(value):
            return format_number(value)
        if isinstance(value, str):
            return value
        if isinstance(value, Unknown):
            return value
        if isinstance(value, tuple):
            parts = [self.text(v) for v in value]
            unknown = next((p for p in parts if isinstance(p, Unknown)), None)
            return unknown or "(" + ", ".join(str(p) for p in parts) + ")"
        if isinstance(value, Record):
            if value.cls is not None and self.interpreter is not None:
                method = value.cls.find_method("ToString")
                if method is not None:
                    fn, home = method
                    made = self.interpreter.call_value(
                        BoundMethod(value, Closure(fn, home.env, home)), [], {}, 0, 0
                    )
                    return made if isinstance(made, str) else Unknown("ToString gives no text")
            if value.kind == "KeyValuePair":
                key, item = self.text(value.fields.get("Key")), self.text(value.fields.get("Value"))
                if isinstance(key, Unknown) or isinstance(item, Unknown):
                    return Unknown("a pair that cannot be known")
                return f"[{key}, {item}]"
            if value.value_type:
                return Unknown(
                    f"the text of a {value.kind} depends on the engine's version, which is not"
                    " modelled"
                )
            name = value.fields.get("name")
            return str(name) if isinstance(name, str) else type_name(value)
        if isinstance(value, list | dict):
            return Unknown(
                "a collection's text is its type's name, which the evaluator does not model"
            )
        return type_name(value)

    def format_value(self, value: Value) -> str | None:
        text = self.text(value)
        return text if isinstance(text, str) else None

    def to_number(self, value: Value) -> float | None:
        # ``i++`` on an int stays an int, on a float a float (C# keeps numeric types).
        if is_number(value):
            return value
        if type(value) is Char:
            return ord(value)
        return super().to_number(value)

    # --- operators ------------------------------------------------------------------------------
    def binary(self, op: str, left: Value, right: Value) -> Value:
        left_type, right_type = type(left), type(right)
        # The commonest cases first: two doubles, two ints, floats with floats or ints.
        if left_type is float and right_type is float:
            fast = _FAST.get(op)
            if fast is not None:
                return fast(left, right)
            if op == "/":
                return _real_division(left, right)
        elif left_type is int and right_type is int:
            fast = _FAST.get(op)
            if fast is not None:
                made = fast(left, right)
                return made if type(made) is bool or INT_MIN <= made <= INT_MAX else wrap(made, 32)
        elif (left_type is float and (right_type is Single or right_type is int)) or (
            right_type is float and (left_type is Single or left_type is int)
        ):
            # A double with a float or an int: double arithmetic.
            fast = _FAST.get(op)
            if fast is not None:
                return fast(float(left), float(right))
            if op == "/":
                return _real_division(float(left), float(right))
        elif (left_type is Single or left_type is int) and (
            right_type is Single or right_type is int
        ):
            fast = _FAST.get(op)
            if fast is not None:
                made = fast(float(left), float(right))
                return made if type(made) is bool else single(made)
            if op == "/":
                return single(_real_division(float(left), float(right)))
        if left_type is Unknown:
            return left
        if right_type is Unknown:
            return right
        if (
            self.operators is not None
            and (isinstance(left, Record) or isinstance(right, Record))
            and not (op == "+" and (type(left) is str or type(right) is str))
        ):
            result = self.operators(op, left, right)
            if result is not NotImplemented:
                return result
        checked = op[0] == "c"
        if checked:
            op = op[7:]
        if op in ("===", "!==", "==", "!="):
            same = self.equals(left, right)
            if same is None:
                return Unknown("comparison of unknown values")
            return same if op in ("===", "==") else not same
        left_char, right_char = type(left) is Char, type(right) is Char
        if (
            op == "+"
            and (isinstance(left, str) or isinstance(right, str))
            and not (left_char and not isinstance(right, str))
            and not (right_char and not isinstance(left, str))
            and not (left_char and right_char)
        ):
            left_text, right_text = self.text(left), self.text(right)
            if isinstance(left_text, Unknown):
                return left_text
            if isinstance(right_text, Unknown):
                return right_text
            text = left_text + right_text
            return text if len(text) <= MAX_TEXT else Unknown("a string too long to build")
        if left_char:
            left = ord(left)
        if right_char:
            right = ord(right)
        if isinstance(left, bool) and isinstance(right, bool) and op in ("&", "|", "^"):
            return {"&": left and right, "|": left or right, "^": left != right}[op]
        if not is_number(left) or not is_number(right):
            if op in ("<", "<=", ">", ">=") and isinstance(left, str) and isinstance(right, str):
                return Unknown("strings have no < in C#")
            return Unknown(f"{op} of a {type_name(left)} and a {type_name(right)}")
        kind = max(_number_kind(left), _number_kind(right))
        result = self._numeric(op, left, right, kind, checked)
        if isinstance(result, int) and not isinstance(result, bool):
            # An enum plus or minus a number is of the enum; two enums' difference is a number.
            if isinstance(left, EnumMember) and op in ("+", "-", "|", "&", "^"):
                if not (op == "-" and isinstance(right, EnumMember)):
                    return self._enum_value(left, result)
            elif isinstance(right, EnumMember) and op in ("+", "|", "&", "^"):
                return self._enum_value(right, result)
        return result

    def _numeric(self, op: str, left: Value, right: Value, kind: int, checked: bool) -> Value:
        """``left op right`` for two numbers of the C# type ``kind`` (``_number_kind``)."""
        if kind >= 2:
            a, b = float(left), float(right)
            if op == "+":
                value = a + b
            elif op == "-":
                value = a - b
            elif op == "*":
                value = a * b
            elif op == "/":
                value = _real_division(a, b)
            elif op == "%":
                value = math.fmod(a, b) if b != 0 and math.isfinite(a) else math.nan
            elif op in _COMPARISONS:
                return _COMPARISONS[op](a, b)
            else:
                return Unknown(f"operator {op} of a floating-point number")
            return value if kind == 3 else single(value)
        a_int, b_int = int(left), int(right)
        wide = kind == 1
        if op == "+":
            return _integral_result(a_int + b_int, wide, checked)
        if op == "-":
            return _integral_result(a_int - b_int, wide, checked)
        if op == "*":
            return _integral_result(a_int * b_int, wide, checked)
        if op in ("/", "%"):
            if b_int == 0:
                return Unknown("division by zero (C# throws DivideByZeroException)")
            quotient = abs(a_int) // abs(b_int)
            if (a_int >= 0) != (b_int >= 0):
                quotient = -quotient
            if op == "/":
                return _integral_result(quotient, wide, checked)
            return _integral_result(a_int - b_int * quotient, wide, checked)
        if op in _COMPARISONS:
            return _COMPARISONS[op](a_int, b_int)
        if op in ("&", "|", "^"):
            value = a_int & b_int if op == "&" else a_int | b_int if op == "|" else a_int ^ b_int
            return _integral_result(value, wide, False)
        if op in ("<<", ">>"):
            count = b_int & (63 if wide else 31)
            value = a_int << count if op == "<<" else a_int >> count
            return Long(wrap(value, 64)) if wide else wrap(value, 32)
        return Unknown(f"operator {op} is not supported")

    def _enum_value(self, like: EnumMember, value: int) -> Value:
        """The member of ``like``'s enum numbered ``value`` (``Shape.Cube + 1``), or a value of
        that enum with no name of its own (it prints as its number)."""
        interpreter = self.interpreter
        if interpreter is not None:
            found, cls = interpreter.globals.lookup(like.enum)
            if found and isinstance(cls, ClassValue):
                for member in cls.static.values():
                    if isinstance(member, EnumMember) and int(member) == value:
                        return member
        return EnumMember(value, like.enum, str(value))

    def record_binary(self, ctx: CallContext, op: str, left: Value, right: Value) -> Value:
        """A C# class's or struct's own operator (``public static V operator +(V a, V b)``,
        lowered to a static method ``op_Addition``), called with both operands; text joined to
        an object is C#'s string concatenation, not an operator of the object."""
        if op == "+" and (isinstance(left, str) or isinstance(right, str)):
            return NotImplemented
        name = _OPERATOR_METHODS.get(op.removeprefix("checked"))
        if name is None:
            return NotImplemented
        for owner in (left, right):
            if isinstance(owner, Record) and owner.cls is not None:
                cls: Value = owner.cls
                while isinstance(cls, ClassValue):
                    method = cls.static.get(name)
                    if method is not None:
                        return ctx.call(method, [left, right])
                    cls = cls.base
        if op in ("!=", "!==") and name == "op_Inequality":
            equal = self.record_binary(ctx, "==", left, right)
            if equal is not NotImplemented:
                truth = self.truthy(equal)
                return Unknown("an unknown comparison") if truth is None else not truth
        return NotImplemented

    def record_unary(self, ctx: CallContext, op: str, operand: Record) -> Value:
        """``-v`` and ``!v`` of a class or struct declaring the operator."""
        name = {"-": "op_UnaryNegation", "not": "op_LogicalNot", "+": "op_UnaryPlus"}.get(op)
        cls = operand.cls
        method = cls.static.get(name) if cls is not None and name is not None else None
        return ctx.call(method, [operand]) if method is not None else NotImplemented

    def record_items(self, ctx: CallContext, value: Record) -> Iterable[Value] | None:
        """Deconstruction (``var (a, b) = value``) calls its ``Deconstruct``, which hands its
        ``out`` parameters back."""
        method = value.cls.find_method("Deconstruct") if value.cls is not None else None
        if method is None:
            return None
        fn, home = method
        globals_ = ctx.interp.globals.vars
        globals_["%out"] = None
        ctx.call(BoundMethod(value, Closure(fn, home.env, home)), [])
        handed = globals_.get("%out")
        return iter(handed) if isinstance(handed, list) else None

    def unary(self, op: str, operand: Value) -> Value:
        if op[0] == "(":
            # A conversion to a declared type (``float h = 3;``): numbers the commonest.
            kind = type(operand)
            if kind is Single or kind is float or kind is int:
                made = convert(op[1:-1], operand)
                if made is not None:
                    return made
            return self.convert(op[1:-1], operand)
        if isinstance(operand, Unknown):
            return operand
        if isinstance(operand, Record) and self.operators is not None:
            result = self.operators("neg" if op == "-" else op, operand, None)
            if result is not NotImplemented:
                return result
        if op == "not":
            truth = self.truthy(operand)
            return Unknown("negation of an unknown value") if truth is None else not truth
        if type(operand) is Char:
            operand = ord(operand)
        if not is_number(operand) or isinstance(operand, bool):
            return Unknown(f"unary {op} of a {type_name(operand)}")
        if op == "+":
            return operand if not isinstance(operand, EnumMember) else int(operand)
        if op == "-":
            rank = _number_kind(operand)
            if rank == 3:
                return -operand
            if rank == 2:
                return Single(-operand)
            return _integral_result(-int(operand), rank == 1, False)
        if op == "~" and isinstance(operand, int):
            return Long(~operand) if type(operand) is Long else ~int(operand)
        return Unknown(f"unary {op} is not supported")

    def convert(self, type_name_: str, value: Value) -> Value:
        """``value`` converted to a numeric type, as a C# cast (``csharp.numerics.convert``); a
        tuple to a tuple type, element by element, keeping the type's element names."""
        if isinstance(value, Unknown):
            return value
        if type_name_.startswith("("):
            if not isinstance(value, tuple):
                return value
            types, names = _tuple_type(type_name_)
            items = [
                self.convert(t, v) if t in NUMERIC_TYPES else v
                for t, v in zip(types, value, strict=False)
            ]
            return ValueTuple(items, names) if any(names) else tuple(items)
        converted = convert(type_name_, value)
        if converted is None and value is not None and value is not UNDEFINED:
            return Unknown(f"({type_name_}) of {value} is undefined in C#")
        return converted

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
            if left.kind != right.kind or left.cls is not right.cls:
                return False
            if left.fields.keys() != right.fields.keys():
                return False
            for key, value in left.fields.items():
                same = self.equals(value, right.fields[key])
                if not same:
                    return same
            return True
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
            "Clone": lambda ctx, items, args: type(items)(items),
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

        def compare_to(ctx: CallContext, value: Value, args: Args) -> Value:
            other = arg(args, 0)
            if isinstance(value, str) and isinstance(other, str):
                # The invariant culture's order: letters before their case (a < A < b).
                a, b = _culture_key(value), _culture_key(other)
                return (a > b) - (a < b)
            if is_number(value) and is_number(other):
                return (value > other) - (value < other)
            return Unknown("CompareTo of values that cannot be compared statically")

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
            "CompareTo": compare_to,
            **text_string_members(self.to_string),
        }

        number_members: dict[str, Callable[[CallContext, Any, Args], Value]] = {
            "ToString": to_string,
            "CompareTo": compare_to,
            "Equals": lambda ctx, value, args: self.equals(value, arg(args, 0)),
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

    def linq_operators(self) -> dict[str, Operator]:
        if self._linq is None:
            self._linq = Linq(self._items, lambda a, b: self.equals(a, b)).operators()
        return self._linq

    def _linq_member(self, obj: Value, name: str) -> Value:
        """LINQ's ``name`` over a list, array or dictionary (its key-value pairs), or None.
        ``List<T>``'s own members are looked up first; a dictionary has no ``List<T>`` methods."""
        op = self.linq_operators().get(name)
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
        if name in _NULLABLE_MEMBERS and (obj is None or is_number(obj) or isinstance(obj, bool)):
            return self._nullable_member(obj, name)
        if isinstance(obj, Closure | Builtin | BoundMethod) and name in ("Invoke", "DynamicInvoke"):
            return obj
        if type(obj) is Generator:
            # An iterator's LINQ runs over its items (LINQ runs at once here).
            return self._linq_member(list(itertools.islice(obj, _MAX_ITEMS)), name) or Unknown(
                f"an iterator's {name} is not modelled"
            )
        if isinstance(obj, tuple) and name.startswith("Item") and name[4:].isdigit():
            index = int(name[4:]) - 1
            return obj[index] if 0 <= index < len(obj) else Unknown(f"a tuple has no {name}")
        if isinstance(obj, ValueTuple) and name in obj.names:
            return obj[obj.names.index(name)]
        if isinstance(obj, RectangularArray):
            if name in ("Length", "LongLength"):
                return len(obj.cells())
            if name == "Rank":
                return 2
            if name == "GetLength":
                return BoundMethod(
                    obj,
                    Builtin(
                        "GetLength",
                        lambda c, o, a, k: (
                            obj.length(a[0])
                            if a and isinstance(a[0], int)
                            else Unknown("GetLength of an unknown dimension")
                        ),
                    ),
                )
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

    @staticmethod
    def _nullable_member(value: Value, name: str) -> Value:
        """``HasValue``, ``Value`` and ``GetValueOrDefault`` of a nullable number."""
        if name == "HasValue":
            return value is not None
        if name == "Value":
            return value if value is not None else Unknown("Value of a null (it throws)")

        def get(ctx: CallContext, receiver: Value, args: Args, kwargs: Kwargs) -> Value:
            if value is not None:
                return value
            return args[0] if args else Unknown("the default of a nullable of unknown type")

        return BoundMethod(value, Builtin("GetValueOrDefault", get))

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        if isinstance(obj, tuple):
            ctx.warning(
                "cs.unsupported",
                f"a tuple's {name} is set: tuples are values here; the assignment is ignored",
            )
            return
        ctx.info("eval.ignored_assignment", f"cannot set {name} on a {type_name(obj)}; ignored")

    def record_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        """``System.Object``'s members on an instance of a user class or struct: ``Equals``
        (field by field for a struct, identity for a class), ``ToString``, ``GetType``."""

        def equals(c: CallContext, receiver: Value, args: Args, kwargs: Kwargs) -> Value:
            other = arg(args, 0)
            if record.value_type and isinstance(other, Record):
                same = self.equals(record, other)
                return Unknown("an unknown comparison") if same is None else same
            return record is other

        methods: dict[str, Callable[[CallContext, Value, Args, Kwargs], Value]] = {
            "Equals": equals,
            "ToString": lambda c, r, a, k: self.text(record),
            "GetType": lambda c, r, a, k: Record(
                "Type",
                {"Name": type_name(record), "FullName": Unknown("namespaces are not kept")},
                native=record.cls,
            ),
            "GetHashCode": lambda c, r, a, k: Unknown("a hash code has no static value"),
        }
        method = methods.get(name)
        if method is None:
            return Unknown(f"{type_name(record)}.{name} is not declared")
        return BoundMethod(record, Builtin(f"object.{name}", method))

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
                item = obj[index]
                return Char(item) if isinstance(obj, str) else item
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
        if type(value) is Generator:
            return value
        if isinstance(value, str):
            return (Char(c) for c in value)
        if isinstance(value, RectangularArray):
            return iter(value.cells())
        if isinstance(value, list | tuple):
            return iter(value)
        if isinstance(value, dict):
            return iter([Record("KeyValuePair", {"Key": k, "Value": v}) for k, v in value.items()])
        return None

    def typeof(self, value: Value) -> Value:
        return type_name(value)

    # --- types -------------------------------------------------------------------------------------
    def is_type(self, ctx: CallContext, value: Value, type_name_: Value, subtypes: Value) -> Value:
        """``value is T``: a number of that C# type, text, a list or dictionary, an instance of
        a class deriving from T or implementing it (``subtypes``: the declared types that are
        T's), an engine object of T's kind, or an exception of T's family; never null."""
        if isinstance(value, Unknown):
            return value
        if value is None or value is UNDEFINED or not isinstance(type_name_, str):
            return False
        name = type_name_.rstrip("?")
        if name in ("object", "Object"):
            return True
        builtin = _BUILTIN_TYPE_TESTS.get(name)
        if builtin is not None:
            return builtin(value)
        if isinstance(value, Record):
            names = subtypes if isinstance(subtypes, frozenset) else frozenset({name})
            cls: Value = value.cls
            while isinstance(cls, ClassValue):
                if cls.name in names:
                    return True
                cls = cls.base
            if value.kind and value.kind in EXCEPTION_BASES:
                kind: str | None = value.kind
                while kind is not None:
                    if kind == name:
                        return True
                    kind = EXCEPTION_BASES.get(kind)
                return False
            if value.kind:
                return ctx.interp.engine.is_a(value, name) or value.kind == name
            return False
        if name in _COLLECTION_TYPES:
            return isinstance(value, _COLLECTION_TYPES[name])
        return False

    def choose_overload(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        """Which overload fits a call: the first whose parameters take the arguments' number
        and names, preferring one whose declared types the arguments have; -1 when none."""
        given, named, table = arg(args, 0), arg(args, 1), arg(args, 2)
        if not isinstance(given, list) or not isinstance(table, tuple):
            return -1
        names_given = set(named) if isinstance(named, dict) else set()
        best, best_score = -1, -1
        for index, (names, types, required, rest) in enumerate(table):
            count = len(given) + len(names_given)
            if count < required or (not rest and count > len(names)):
                continue
            if not names_given <= set(names[len(given) :]):
                continue
            score = 0
            fits = True
            for value, type_name_ in zip(given, types, strict=False):
                if not type_name_ or isinstance(value, Unknown):
                    continue
                matched = self._fits(ctx, value, type_name_)
                if matched is None:
                    fits = False
                    break
                score += matched
            if fits and score > best_score:
                best, best_score = index, score
        return best

    def _fits(self, ctx: CallContext, value: Value, type_name_: str) -> int | None:
        """How well an argument fits a parameter type: 2 exactly, 1 by a conversion C# makes
        implicitly (an int to a float), None not at all."""
        if type_name_.endswith("[]"):
            return 2 if isinstance(value, list) else 1 if value is None else None
        if value is None:
            return None if type_name_ in NUMERIC_TYPES or type_name_ == "bool" else 1
        kind = _number_kind(value) if is_number(value) and not isinstance(value, bool) else None
        if type_name_ in NUMERIC_TYPES and type(value) is not Char:
            if kind is None:
                return None
            wanted = _NUMERIC_RANK.get(type_name_, 3)
            return 2 if wanted == kind else 1 if wanted > kind else None
        test = self.is_type(ctx, value, type_name_, None)
        if test is True:
            return 2
        if isinstance(value, Record) and value.cls is not None:
            # A class deriving from the parameter's: the declared bases decide.
            return 1 if type_name_ not in _BUILTIN_TYPE_TESTS else None
        if type_name_ in _BUILTIN_TYPE_TESTS:
            return None
        return 1

    # --- library ----------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        return csharp_globals(self)


__all__ = ["CSharp", "Operators", "format_number", "set_out"]
