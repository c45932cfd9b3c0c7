"""The global names of the C# dialect: ``System`` and what a script reaches without naming it
(``Math``/``MathF``, ``String``/``string``, ``Console``, ``char``, ``Enum``, ``Enumerable``,
``StringBuilder``, ``Array``'s statics, ``float``/``double``/``int``/``long`` as types,
``Convert``, ``ReferenceEquals``, the exception classes, ``MidpointRounding``,
``CultureInfo``), and the hidden helpers the C# front end lowers to (``%init``, ``%array``,
``%cast``, ``%format``, ``%overload``...).

Each built-in is a module-level function registered by ``@cs_builtin(owner, member)``;
``csharp_globals`` assembles the namespaces afresh for each run (a script may assign into
one).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from parsers.evaluator.core.arguments import Args, Kwargs, arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.registry import BuiltinsByOwner
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    BuiltinFn,
    ClassValue,
    Closure,
    EngineClass,
    EnumMember,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
)
from parsers.evaluator.csharp.linq import enumerable_namespace_members
from parsers.evaluator.csharp.numerics import INTEGRAL_TYPES, NUMERIC_TYPES, Single, convert
from parsers.evaluator.csharp.text import (
    char_namespace,
    composite_format,
    enum_cast,
    enum_namespace,
    format_item,
    globalization,
    type_value,
)
from parsers.evaluator.csharp.values import MAX_TEXT, RectangularArray, set_out

if TYPE_CHECKING:
    from parsers.evaluator.csharp.lib import CSharp

#: ``System.Math`` (and Unity's ``Mathf``) functions that are Python's ``math`` function of
#: the lower-case name.
PYTHON_MATH_NAMES = ("Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sqrt", "Exp", "Floor", "Log10")

#: .NET's exception classes a script throws or catches, each with its base.
EXCEPTION_BASES: dict[str, str | None] = {
    "Exception": None,
    "SystemException": "Exception",
    "ApplicationException": "Exception",
    "ArgumentException": "SystemException",
    "ArgumentNullException": "ArgumentException",
    "ArgumentOutOfRangeException": "ArgumentException",
    "ArithmeticException": "SystemException",
    "OverflowException": "ArithmeticException",
    "DivideByZeroException": "ArithmeticException",
    "FormatException": "SystemException",
    "IndexOutOfRangeException": "SystemException",
    "InvalidCastException": "SystemException",
    "InvalidOperationException": "SystemException",
    "KeyNotFoundException": "SystemException",
    "NotImplementedException": "SystemException",
    "NotSupportedException": "SystemException",
    "NullReferenceException": "SystemException",
    "MissingReferenceException": "SystemException",
    "UnassignedReferenceException": "SystemException",
}

_BUILTINS: Final = BuiltinsByOwner()

#: ``@cs_builtin("Math", "min")``: the decorated function is that member of the namespace.
cs_builtin = _BUILTINS.register
_registered = _BUILTINS.builtins


def dialect_of(ctx: CallContext) -> CSharp:
    """The dialect the calling interpreter runs with: the built-ins are module-level
    functions, so one that needs the dialect's conversions (``to_string``, ``iterate``,
    ``convert``) or its LINQ finds it through the call."""
    return ctx.interp.dialect  # type: ignore[return-value]  # only CSharp installs them


# --- Math ---------------------------------------------------------------------------------------
def _clamp(value: float, lo: float, hi: float) -> float:
    return min(max(value, lo), hi)


#: Math's functions of numbers that are Python's: (member, function, arity).
_MATH_FUNCTIONS: Final[tuple[tuple[str, Callable[..., float], int], ...]] = (
    *((name, getattr(math, name.lower()), 1) for name in PYTHON_MATH_NAMES),
    ("Ceiling", math.ceil, 1),
    ("Abs", abs, 1),
    ("Truncate", math.trunc, 1),
    ("Atan2", math.atan2, 2),
    ("Pow", math.pow, 2),
    ("Min", min, 2),
    ("Max", max, 2),
    ("Clamp", _clamp, 3),
    ("Log", math.log, 1),
)


def _math_function(fn: Callable[..., float], arity: int) -> Builtin:
    """A ``Math`` function of ``arity`` numbers; outside its domain (``Sqrt(-1)``) unknown,
    since .NET's NaN or exception is not modelled."""

    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        values = [ctx.number(a, "Math argument", 0.0) for a in args[:arity]]
        try:
            return fn(*values)
        except (ValueError, OverflowError, ZeroDivisionError, TypeError):
            return Unknown("a math function of values outside its domain")

    return Builtin("Math", call)


@cs_builtin("Math", "Round")
def math_round(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``Math.Round(x[, digits][, mode])`` as Mono computes it: ``x`` scaled by ``10**digits``,
    rounded to the nearest integer (halves to even, or away from zero with
    ``MidpointRounding.AwayFromZero``), scaled back."""
    value = arg(args, 0)
    if not is_number(value) or isinstance(value, bool):
        return Unknown("Math.Round of a value that cannot be known")
    digits, away = 0, False
    for extra in args[1:3]:
        if isinstance(extra, EnumMember) and extra.enum == "MidpointRounding":
            away = int(extra) == 1
        elif isinstance(extra, int) and not isinstance(extra, bool):
            digits = extra
        else:
            return Unknown("Math.Round with arguments that cannot be known")
    if isinstance(value, int):
        return value
    if not math.isfinite(value):
        return float(value)
    scale = 10.0**digits
    scaled = value * scale
    rounded = math.copysign(math.floor(abs(scaled) + 0.5), scaled) if away else round(scaled)
    return float(rounded) / scale if digits else float(rounded)


@cs_builtin("Math", "Sign")
def math_sign(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    value = arg(args, 0)
    if is_number(value) and not math.isnan(value):
        return (value > 0) - (value < 0)
    return Unknown("Math.Sign of a value that cannot be known")


_MIDPOINT: Final[dict[str, Value]] = {
    name: EnumMember(value, "MidpointRounding", name)
    for value, name in enumerate(("ToEven", "AwayFromZero"))
}


# --- String -------------------------------------------------------------------------------------
@cs_builtin("String", "Format")
def string_format(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    template = arg(args, 0)
    if not isinstance(template, str) or any(isinstance(a, Unknown) for a in args):
        return Unknown("String.Format of unknown values")
    values = list(args[1:])
    if len(values) == 1 and isinstance(values[0], list):
        values = list(values[0])  # String.Format(text, params object[] args)
    return composite_format(template, values, dialect_of(ctx).to_string)


@cs_builtin("String", "IsNullOrEmpty")
def string_is_null_or_empty(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return arg(args, 0) in (None, "", UNDEFINED)


@cs_builtin("String", "Concat")
def string_concat(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    cs = dialect_of(ctx)
    return "".join(cs.to_string(v) for v in args)


@cs_builtin("String", "Join")
def string_join(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    cs = dialect_of(ctx)
    # The separator's text is made before the items are read (a user ToString may print).
    return cs.to_string(arg(args, 0)).join(
        cs.to_string(v) for v in (cs.iterate(arg(args, 1), "of") or [])
    )


# --- StringBuilder ------------------------------------------------------------------------------
def new_string_builder(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    """``System.Text.StringBuilder``: ``Append``, ``AppendLine``, ``AppendFormat``,
    ``Insert``, ``Clear``, ``Length``, ``ToString``; its methods return it for chaining. Each
    builder's methods hold its text, so they are made with it."""
    cs = dialect_of(ctx)
    parts: list[str] = []
    first = arg(args, 0)
    if isinstance(first, str):
        parts.append(first)
    builder = Record("StringBuilder")

    def append(*texts: Value) -> Value:
        for text in texts:
            made = cs.text(text)
            if isinstance(made, Unknown):
                builder.fields["%unknown"] = made
                return builder
            parts.append(made)
        builder.fields["Length"] = sum(len(p) for p in parts)
        return builder

    def to_string(c: CallContext, a: Args, k: Kwargs) -> Value:
        unknown = builder.fields.get("%unknown")
        return unknown if isinstance(unknown, Unknown) else "".join(parts)

    def insert(c: CallContext, a: Args, k: Kwargs) -> Value:
        index, text = arg(a, 0), cs.text(arg(a, 1))
        whole = "".join(parts)
        if not isinstance(index, int) or isinstance(text, Unknown):
            return append(Unknown("Insert of values that cannot be known"))
        parts[:] = [whole[:index] + text + whole[index:]]
        return append()

    def clear(c: CallContext, a: Args, k: Kwargs) -> Value:
        parts.clear()
        builder.fields.pop("%unknown", None)
        return append()

    builder.fields.update(
        {
            "Append": Builtin("Append", lambda c, a, k: append(*a)),
            "AppendLine": Builtin("AppendLine", lambda c, a, k: append(*a, "\n")),
            "AppendFormat": Builtin(
                "AppendFormat",
                lambda c, a, k: append(
                    composite_format(a[0], list(a[1:]), cs.to_string)
                    if a and isinstance(a[0], str)
                    else Unknown("AppendFormat of a format that cannot be known")
                ),
            ),
            "Insert": Builtin("Insert", insert),
            "Clear": Builtin("Clear", clear),
            "ToString": Builtin("ToString", to_string),
            "Length": len(first) if isinstance(first, str) else 0,
        }
    )
    return builder


# --- Array --------------------------------------------------------------------------------------
def _on_items(ctx: CallContext, args: Args, operator: str) -> Value:
    """``Array.Sort(items, ...)`` and the others that are LINQ's or ``List<T>``'s operator of
    the same name over the array."""
    items = arg(args, 0)
    if not isinstance(items, list):
        return Unknown(f"Array.{operator} of an array that cannot be known")
    return dialect_of(ctx).linq_operators()[operator](ctx, items, list(args[1:]))


def _items_operator(operator: str) -> BuiltinFn:
    """``Array.<operator>(items, ...)``: LINQ's list operator of that name on ``items``."""
    return lambda ctx, args, kwargs: _on_items(ctx, args, operator)


for _operator in ("Sort", "Find", "FindAll", "FindIndex", "ForEach", "Exists"):
    cs_builtin("Array", _operator)(_items_operator(_operator))


@cs_builtin("Array", "TrueForAll")
def array_true_for_all(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return dialect_of(ctx).linq_operators()["All"](ctx, arg(args, 0), list(args[1:]))


@cs_builtin("Array", "ConvertAll")
def array_convert_all(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return dialect_of(ctx).linq_operators()["Select"](ctx, arg(args, 0), list(args[1:]))


@cs_builtin("Array", "Reverse")
def array_reverse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    items = arg(args, 0)
    if isinstance(items, list):
        items.reverse()
    return None


@cs_builtin("Array", "IndexOf")
def array_index_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    cs = dialect_of(ctx)
    items, target = arg(args, 0), arg(args, 1)
    if not isinstance(items, list):
        return Unknown("IndexOf in an array that cannot be known")
    return next((i for i, v in enumerate(items) if cs.equals(v, target)), -1)


@cs_builtin("Array", "Copy")
def array_copy(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    source, target, count = arg(args, 0), arg(args, 1), arg(args, 2)
    if (
        isinstance(source, list)
        and isinstance(target, list)
        and isinstance(count, int)
        and count <= min(len(source), len(target))
    ):
        target[:count] = source[:count]
    else:
        ctx.warning("cs.unsupported", "Array.Copy of arrays that cannot be known")
    return None


@cs_builtin("Array", "Clear")
def array_clear(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    items = arg(args, 0)
    start, count = arg(args, 1), arg(args, 2)
    if isinstance(items, list):
        start = start if isinstance(start, int) else 0
        count = count if isinstance(count, int) else len(items)
        for i in range(start, min(start + count, len(items))):
            item = items[i]
            items[i] = type(item)(0) if is_number(item) and not isinstance(item, bool) else None
    return None


@cs_builtin("Array", "Resize")
def array_resize(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``Array.Resize(ref items, size)``: the new array goes back through ``ref``."""
    items, size = arg(args, 0), arg(args, 1)
    if not isinstance(size, int) or size < 0:
        set_out(ctx, [Unknown("Array.Resize to a size that cannot be known")])
        return None
    items = items if isinstance(items, list) else []
    filler = type(items[0])(0) if items and is_number(items[0]) else None
    set_out(ctx, [items[:size] + [filler] * max(0, size - len(items))])
    return None


@cs_builtin("Array", "Empty")
def array_empty(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return []


# --- numbers as types, and Convert --------------------------------------------------------------
def parse_number(value: Value, type_name: str = "double") -> Value:
    """``float.Parse(text)``, ``int.Parse(text)``: numbers written as text, of the type
    parsed (a format provider such as ``CultureInfo.InvariantCulture`` after it changes
    nothing here)."""
    if isinstance(value, str):
        try:
            number = float(value.strip().rstrip("fFdDmM"))
        except ValueError:
            return Unknown(f"{value!r} is not a number")
        if type_name in INTEGRAL_TYPES:
            if not number.is_integer():
                return Unknown(f"{value!r} is no integer")
            return convert(type_name, int(number))
        return convert(type_name, number)
    if isinstance(value, Unknown):
        return value
    return Unknown("Parse of a value that is not text")


def _is_nan(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return is_number(arg(args, 0)) and math.isnan(arg(args, 0))


def _is_infinity(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return is_number(arg(args, 0)) and math.isinf(arg(args, 0))


def _number_type(type_name: str) -> Namespace:
    """``float``, ``double``, ``int``, ``long`` as types: ``Parse``, ``TryParse`` (its result
    through ``out``), ``MaxValue``, ``MinValue`` and the real types' ``Epsilon``,
    ``PositiveInfinity``, ``NaN``. One per type, as each parses to its own."""

    def parse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        return parse_number(arg(args, 0), type_name)

    def try_parse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        value = parse_number(arg(args, 0), type_name)
        ok = not isinstance(value, Unknown)
        set_out(ctx, [value if ok else convert(type_name, 0)])
        return ok

    members: dict[str, Value] = {
        "Parse": Builtin(f"{type_name}.Parse", parse),
        "TryParse": Builtin(f"{type_name}.TryParse", try_parse),
    }
    if type_name in INTEGRAL_TYPES:
        bits, signed = INTEGRAL_TYPES[type_name]
        low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
        members["MaxValue"] = convert(type_name, high)
        members["MinValue"] = convert(type_name, low)
    else:
        largest, smallest = (
            (3.4028234663852886e38, 1.401298464324817e-45)
            if type_name == "float"
            else (1.7976931348623157e308, 5e-324)
        )
        made = Single if type_name == "float" else float
        members.update(
            {
                "MaxValue": made(largest),
                "MinValue": made(-largest),
                "Epsilon": made(smallest),
                "PositiveInfinity": made(math.inf),
                "NegativeInfinity": made(-math.inf),
                "NaN": made(math.nan),
                "IsNaN": Builtin(f"{type_name}.IsNaN", _is_nan),
                "IsInfinity": Builtin(f"{type_name}.IsInfinity", _is_infinity),
            }
        )
    return Namespace(type_name, members)


#: The CLR names ``System`` gives the number types (``System.Single.Parse``).
_CLR_NUMBER_TYPES: Final = (
    ("Single", "float"),
    ("Double", "double"),
    ("Int32", "int"),
    ("Int64", "long"),
)


def _convert_to(type_name: str, value: Value) -> Value:
    """``System.Convert.ToSingle``/``ToDouble``/``ToInt32``/``ToInt64``: text or numbers as
    numbers (``ToInt32`` of a number rounds half to even, as .NET does)."""
    if isinstance(value, bool):
        return convert(type_name, int(value))
    if is_number(value):
        if type_name in INTEGRAL_TYPES and isinstance(value, float):
            if not math.isfinite(value):
                return Unknown(f"Convert of {value} throws OverflowException")
            value = round(value)
        return convert(type_name, value)
    return parse_number(value, type_name)


@cs_builtin("Convert", "ToSingle")
def convert_to_single(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _convert_to("float", arg(args, 0))


@cs_builtin("Convert", "ToDouble")
def convert_to_double(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _convert_to("double", arg(args, 0))


@cs_builtin("Convert", "ToInt32")
def convert_to_int32(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _convert_to("int", arg(args, 0))


@cs_builtin("Convert", "ToInt64")
def convert_to_int64(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _convert_to("long", arg(args, 0))


# --- exceptions, Console, Enumerable ------------------------------------------------------------
def _exception(name: str) -> Callable[[CallContext, Args, Kwargs], Record]:
    def construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        message = arg(args, 0, kwargs, "message")
        if not isinstance(message, str):
            message = f"Exception of type 'System.{name}' was thrown."
        return Record(name, {"Message": message, "InnerException": arg(args, 1)})

    return construct


_EXCEPTIONS: Final[dict[str, Value]] = {
    name: EngineClass(name, _exception(name)) for name in EXCEPTION_BASES
}


def _nothing(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return None


def _console_member(name: str) -> Value:
    """Any member of the dialect's ``Console`` does nothing (an engine that captures the
    console brings its own)."""
    return Builtin(f"Console.{name}", _nothing)


def _system_member(name: str) -> Value:
    return Namespace(f"System.{name}")


def _enumerable_static(fn: Callable[[CallContext, Args], Value]) -> BuiltinFn:
    """One of LINQ's ``Enumerable`` statics as a built-in (they take no keywords)."""
    return lambda ctx, args, kwargs: fn(ctx, args)


# --- ReferenceEquals and the front end's helpers ------------------------------------------------
@cs_builtin("", "ReferenceEquals")
def reference_equals(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return arg(args, 0) is arg(args, 1)


@cs_builtin("", "%anonymous")
def anonymous(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``new { Name = n }``: a record of the members given."""
    members = arg(args, 0)
    if isinstance(members, dict):
        return Record("Anonymous", dict(members))
    return Unknown("an anonymous object that cannot be built")


@cs_builtin("", "%format")
def format_hole(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """One hole of an interpolated string: ``{value,alignment:format}``."""
    return format_item(arg(args, 0), arg(args, 1), arg(args, 2), dialect_of(ctx).to_string)


@cs_builtin("", "%init")
def init(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%init(created, (members, items, keyed))``: an object, collection or dictionary
    initialiser applied to what ``new`` made."""
    created, payload = arg(args, 0), arg(args, 1)
    if not isinstance(payload, tuple) or len(payload) != 3:
        return created
    members, items, keyed = payload
    if isinstance(created, list):
        created.extend(items)
        return created
    if isinstance(created, dict):
        for pair in keyed:
            if isinstance(pair, tuple) and len(pair) == 2 and not isinstance(pair[0], Unknown):
                created[pair[0]] = pair[1]
        return created
    for name, value in members.items():
        ctx.set_member(created, name, value)
    for pair in keyed:
        if isinstance(pair, tuple) and len(pair) == 2:
            ctx.interp.set_index(created, pair[0], pair[1], ctx.line, ctx.col)
    return created


@cs_builtin("", "%array")
def new_array(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%array(sizes, default)``: ``new T[n]`` or ``new T[n, m]``, each item the default."""
    sizes, default = arg(args, 0), arg(args, 1)
    if (
        not isinstance(sizes, tuple)
        or not sizes
        or not all(isinstance(s, int) and 0 <= s <= 100_000 for s in sizes)
    ):
        return Unknown("an array of a size that cannot be known statically")
    if len(sizes) == 1:
        return [ctx.call(default, []) for _ in range(sizes[0])]
    if len(sizes) == 2:
        return RectangularArray(
            [ctx.call(default, []) for _ in range(sizes[1])] for _ in range(sizes[0])
        )
    return Unknown("an array of more than two dimensions is not modelled")


@cs_builtin("", "%cast")
def cast(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%cast(type, value)``: ``(T)value``, a numeric conversion or a number as an enum."""
    type_name_, value = arg(args, 0), arg(args, 1)
    if isinstance(value, Unknown) or not isinstance(type_name_, str):
        return value
    if type_name_ in NUMERIC_TYPES:
        return dialect_of(ctx).convert(type_name_, value)
    if not (is_number(value) or isinstance(value, bool)):
        return value
    return enum_cast(ctx, type_name_, value)


@cs_builtin("", "%list_of")
def list_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    items = dialect_of(ctx).iterate(arg(args, 0), "of")
    return list(items) if items is not None else []


@cs_builtin("", "%overload")
def overload(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%overload(args, kwargs, table)``: the index of the overload a call takes."""
    return dialect_of(ctx).choose_overload(ctx, args, kwargs)


@cs_builtin("", "%params")
def params_array(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """A ``params`` parameter given one array: the array itself, as C# passes it."""
    given = arg(args, 0)
    if isinstance(given, list) and len(given) == 1 and isinstance(given[0], list):
        return given[0]
    return given


@cs_builtin("", "%extension")
def extension(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``receiver.Name(args)`` where the code declares an extension method ``Name``: the
    receiver's own member when it has one, else the extension called with the receiver."""
    receiver, name, static = arg(args, 0), arg(args, 1), arg(args, 2)
    rest = list(args[3:])
    if isinstance(receiver, ClassValue | Namespace | EngineClass) and isinstance(name, str):
        return ctx.call(ctx.member(receiver, name), rest, kwargs)
    if isinstance(receiver, Record) and isinstance(name, str):
        own = ctx.member(receiver, name)
        if isinstance(own, BoundMethod | Closure | Builtin):
            return ctx.call(own, rest, kwargs)
    return ctx.call(static, [receiver, *rest], kwargs)


@cs_builtin("", "%rectangular")
def rectangular(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%rectangular(rows, dimensions)``: an initialised ``int[,]`` as a rectangular array."""
    items, dimensions = arg(args, 0), arg(args, 1)
    if not isinstance(items, list) or not isinstance(dimensions, int):
        return items
    return _as_rectangular(items, dimensions)


def _as_rectangular(items: list[Value], dimensions: int) -> RectangularArray:
    if dimensions > 2:
        return RectangularArray(
            _as_rectangular(row, dimensions - 1) if isinstance(row, list) else row for row in items
        )
    return RectangularArray(items)


@cs_builtin("", "%param")
def parameter(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%param(args, kwargs, index, name, rest)``: a chosen overload's parameter from the
    dispatcher's arguments (undefined when the call leaves it out)."""
    given, named, index, name, rest = (arg(args, i) for i in range(5))
    if not isinstance(given, list) or not isinstance(index, int):
        return UNDEFINED
    if rest:
        return list(given[index:])
    if index < len(given):
        return given[index]
    if isinstance(named, dict) and name in named:
        return named[name]
    return UNDEFINED


@cs_builtin("", "%is")
def is_type(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``%is(value, type, subtypes)``: ``value is T``."""
    return dialect_of(ctx).is_type(ctx, arg(args, 0), arg(args, 1), arg(args, 2))


@cs_builtin("", "%new_string")
def new_string(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``new string('-', 5)`` and ``new string(chars)``."""
    first, count = arg(args, 0), arg(args, 1)
    if isinstance(first, str) and isinstance(count, int) and 0 <= count <= MAX_TEXT:
        return first * count
    if isinstance(first, list) and all(isinstance(c, str) for c in first):
        return "".join(first)
    return Unknown("a string that cannot be built statically")


@cs_builtin("", "%from_end")
def from_end(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``items[^n]``: the n-th item from the end."""
    items, count = arg(args, 0), arg(args, 1)
    if isinstance(items, list | tuple | str) and isinstance(count, int) and 0 < count <= len(items):
        return dialect_of(ctx).get_index(ctx, items, len(items) - count)
    return Unknown("an index from the end that cannot be known or is out of range")


@cs_builtin("", "%with")
def with_changes(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``record with { X = 5 }``: a copy of the record with those members set."""
    record, changes = arg(args, 0), arg(args, 1)
    if not isinstance(record, Record) or not isinstance(changes, dict):
        return Unknown("a with-expression on a value that cannot be known")
    made = Record(record.kind, dict(record.fields), record.cls, record.native, record.value_type)
    for name, value in changes.items():
        ctx.set_member(made, name, value)
    return made


def csharp_globals(dialect: CSharp) -> dict[str, Value]:
    """The global names, assembled from the registered built-ins (``@cs_builtin``)."""
    math_ns = Namespace(
        "Math",
        {
            "PI": math.pi,
            "E": math.e,
            **{name: _math_function(fn, arity) for name, fn, arity in _MATH_FUNCTIONS},
            **_registered("Math"),
        },
    )
    string_ns = Namespace("String", {**_registered("String"), "Empty": ""})
    enumerable = Namespace(
        "Enumerable",
        {
            name: Builtin(f"Enumerable.{name}", _enumerable_static(fn))
            for name, fn in enumerable_namespace_members().items()
        },
    )
    # CultureInfo's TextInfo writes values as this dialect does.
    text_globals = globalization(dialect.to_string)
    char = char_namespace()
    enum = enum_namespace()
    console = Namespace("Console", missing=_console_member)
    string_builder = EngineClass("StringBuilder", new_string_builder)
    number_types = {name: _number_type(name) for name in ("float", "double", "int", "long")}
    convert_ns = Namespace("Convert", _registered("Convert"))
    system = Namespace(
        "System",
        {
            "Math": math_ns,
            "MathF": math_ns,
            "String": string_ns,
            "Console": console,
            "Char": char,
            "Enum": enum,
            "Linq": Namespace("System.Linq", {"Enumerable": enumerable}),
            "Text": Namespace("System.Text", {"StringBuilder": string_builder}),
            "Globalization": Namespace("System.Globalization", dict(text_globals)),
            "Threading": Namespace("System.Threading", dict(text_globals)),
            "Convert": convert_ns,
            **{clr: number_types[name] for clr, name in _CLR_NUMBER_TYPES},
        },
        missing=_system_member,
    )
    return {
        **_EXCEPTIONS,
        "MidpointRounding": Namespace("MidpointRounding", dict(_MIDPOINT)),
        "StringBuilder": string_builder,
        "Array": Namespace("Array", _registered("Array")),
        "char": char,
        "Char": char,
        "Enum": enum,
        "Enumerable": enumerable,
        **text_globals,
        "%typeof": Builtin("%typeof", type_value),
        **_registered(""),
        "%out": None,
        "Math": math_ns,
        "MathF": math_ns,
        "String": string_ns,
        "string": string_ns,
        "Console": console,
        "System": system,
        **number_types,
        "Convert": convert_ns,
        "true": True,
        "false": False,
    }


__all__ = [
    "EXCEPTION_BASES",
    "PYTHON_MATH_NAMES",
    "cs_builtin",
    "csharp_globals",
    "dialect_of",
    "new_string_builder",
    "parse_number",
]
