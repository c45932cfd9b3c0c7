"""C#'s text library for the static evaluator: the members of strings and chars, composite
formatting (``String.Format``, ``$"{x,5:F2}"``), ``TextInfo.ToTitleCase``, and enums as text
(``Shape.Cone.ToString()``, ``Enum.GetValues``, ``Enum.Parse``, casts to an enum).

Models build the names of their stand-ins with these (``char.ToUpper(s[0]) + s.Substring(1)``,
``$"{color}{shape}"``, ``CultureInfo.CurrentCulture.TextInfo.ToTitleCase(name)``), and the
name is what tells a Unity stand-in's class. Each function follows .NET's documented behaviour:
``ToTitleCase`` upper-cases the first letter of each word and lower-cases the rest, except in
words with no lower-case letter (acronyms); a word starts at a letter and runs on through
letters, digits and apostrophes. Numbers format with the standard format strings F, N, D, E,
X, G and R and the custom ones made of ``0``, ``#``, ``.`` and ``,`` (invariant culture),
rounded as .NET does: halves of the exact binary value away from zero.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, localcontext

from parsers.evaluator.core.arguments import Args, Kwargs, arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import (
    Builtin,
    ClassValue,
    EngineClass,
    EnumMember,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
)
from parsers.evaluator.csharp.numerics import Char, general, round_trip, rounded

ToString = Callable[[Value], str]

#: Unicode categories that end a word in ``ToTitleCase`` (.NET's word separator mask).
_SEPARATORS = frozenset(
    ["Zs", "Zl", "Zp", "Cc", "Cf", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So"]
)
_ITEM = re.compile(r"\{\{|\}\}|\{(\d+)(?:\s*,\s*(-?\d+))?(?::([^}]*))?\}")


def title_case(text: str) -> str:
    """``TextInfo.ToTitleCase`` (see the module doc)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if not char.isalpha():
            out.append(char)
            i += 1
            continue
        has_lower = unicodedata.category(char) == "Ll"
        out.append(char.upper())
        i += 1
        start = i
        while i < len(text):
            category = unicodedata.category(text[i])
            if text[i].isalpha():
                has_lower = has_lower or category == "Ll"
            elif text[i] == "'":
                pass
            elif category in _SEPARATORS:
                break
            i += 1
        word = text[start:i]
        out.append(word.lower() if has_lower else word)
    return "".join(out)


def _group(digits: str) -> str:
    sign = "-" if digits.startswith("-") else ""
    body = digits.lstrip("-")
    whole, _, fraction = body.partition(".")
    grouped = f"{int(whole):,}" if whole else "0"
    return sign + grouped + (f".{fraction}" if fraction else "")


def _custom(value: float, fmt: str) -> str | None:
    """Custom numeric formats of ``0``, ``#``, ``.`` and ``,`` (``"0.00"``, ``"#.##"``)."""
    if not fmt or any(c not in "0#.," for c in fmt):
        return None
    whole, _, fraction = fmt.partition(".")
    required = fraction.count("0")
    optional = fraction.count("#")
    text = _fixed(abs(value), required + optional)
    if optional:
        head, _, tail = text.partition(".")
        tail = tail[: required + optional]
        while len(tail) > required and tail.endswith("0"):
            tail = tail[:-1]
        text = head + ("." + tail if tail else "")
    head, dot, tail = text.partition(".")
    minimum = whole.replace(",", "").count("0")
    head = head.lstrip("0").rjust(minimum, "0") if minimum or head != "0" else ""
    if "," in whole and head:
        head = f"{int(head):,}"
    text = head + (dot + tail if tail else "")
    if not text:
        text = "0" if minimum else ""
    return ("-" if value < 0 and text.strip("0.") else "") + text


def _fixed(value: float | int | Decimal, places: int, spec: str = "f") -> str:
    """``value`` with ``places`` decimals, rounded as Mono rounds in formatting: from the
    value's 15 significant digits (7 for a float), halves away from zero (``1.25`` ->
    ``"1.3"``, ``2.675`` -> ``"2.68"``, ``1.005`` -> ``"1.01"``, though 1.005 is
    1.00499... in binary; .NET Core 3.0 and later round the exact binary value instead)."""
    exact = (
        value
        if isinstance(value, Decimal)
        else Decimal(value)
        if isinstance(value, int)
        else rounded(value)
    )
    with localcontext() as context:
        context.rounding = ROUND_HALF_UP
        context.prec = 400
        return format(exact, f".{places}{spec}")


def format_number(value: float | int, fmt: str, to_string: ToString) -> str | None:
    """``value.ToString(fmt)``, or None for a format not modelled."""
    if not fmt or fmt.upper() == "G" or (fmt.upper() == "R" and isinstance(value, int)):
        return to_string(value)
    if fmt.upper() == "R":
        return round_trip(value)
    letter, precision_text = fmt[0], fmt[1:]
    if precision_text and not precision_text.isdigit():
        return _custom(value if isinstance(value, float) else float(value), fmt)
    precision = int(precision_text) if precision_text else None
    upper = letter.upper()
    if upper == "G":
        if isinstance(value, int):
            return to_string(value)
        text = general(value, precision)
        return text if letter == "G" else text.replace("E", "e")
    if upper == "P":
        percent = (Decimal(value) if isinstance(value, int) else rounded(value)) * 100
        return _group(_fixed(percent, 2 if precision is None else precision)) + " %"
    if upper == "F":
        return _fixed(value, 2 if precision is None else precision)
    if upper == "N":
        return _group(_fixed(value, 2 if precision is None else precision))
    if upper == "E":
        text = _fixed(value, 6 if precision is None else precision, "e")
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        text = f"{mantissa}E{sign}{exponent.lstrip('+-').rjust(3, '0')}"
        return text if letter == "E" else text.lower()
    if upper in ("D", "X"):
        if not isinstance(value, int):
            return None
        if upper == "D":
            digits = str(abs(value)).rjust(precision or 0, "0")
            return ("-" if value < 0 else "") + digits
        digits = format(value & 0xFFFFFFFF if value < 0 else value, "X" if letter == "X" else "x")
        return digits.rjust(precision or 0, "0")
    return _custom(value if isinstance(value, float) else float(value), fmt)


def format_item(value: Value, alignment: Value, fmt: Value, to_string: ToString) -> Value:
    """One item of a composite format: ``{value,alignment:fmt}``."""
    if isinstance(value, Unknown):
        return value
    text: str | None
    if isinstance(fmt, str) and fmt and is_number(value) and not isinstance(value, EnumMember):
        text = format_number(value, fmt, to_string)
        if text is None:
            return Unknown(f"the number format {fmt!r} is not modelled")
    else:
        text = to_string(value)
    width = 0
    if isinstance(alignment, str) and re.fullmatch(r"-?\d+", alignment.strip()):
        width = int(alignment)
    elif isinstance(alignment, int):
        width = alignment
    if width > 0:
        return text.rjust(width)
    if width < 0:
        return text.ljust(-width)
    return text


def composite_format(template: str, values: list[Value], to_string: ToString) -> Value:
    """``String.Format(template, values...)``: ``{0}``, ``{1,-8}``, ``{2:F2}``, ``{{``."""
    out: list[str] = []
    position = 0
    for match in _ITEM.finditer(template):
        out.append(template[position : match.start()])
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            out.append(token[0])
            continue
        index = int(match.group(1))
        if index >= len(values):
            return Unknown("String.Format with fewer values than its items")
        item = format_item(values[index], match.group(2), match.group(3), to_string)
        if isinstance(item, Unknown):
            return item
        out.append(item)
    out.append(template[position:])
    return "".join(out)


# --- strings and chars -------------------------------------------------------------------------------
def _chars(args: Args) -> str | None:
    """The characters a Trim/TrimStart/TrimEnd call names (none: whitespace)."""
    found = ""
    for value in args:
        if isinstance(value, str):
            found += value
        elif isinstance(value, list):
            found += "".join(v for v in value if isinstance(v, str))
    return found or None


def _split(s: str, args: Args) -> Value:
    separators = [a for a in args if isinstance(a, str)]
    for value in args:
        if isinstance(value, list):
            separators += [v for v in value if isinstance(v, str)]
    remove_empty = any(
        a == "RemoveEmptyEntries" or a == 1 for a in args[1:] if not isinstance(a, bool)
    )
    if not separators:
        parts = re.split(r"\s", s)
    else:
        parts = re.split("|".join(re.escape(p) for p in separators), s)
    return [p for p in parts if p] if remove_empty else parts


def string_members(to_string: ToString) -> dict[str, Callable[[CallContext, str, Args], Value]]:
    """The members of a C# string the text library adds."""

    def substring(ctx: CallContext, s: str, args: Args) -> Value:
        start, length = arg(args, 0), arg(args, 1)
        if not isinstance(start, int) or not 0 <= start <= len(s):
            return Unknown("Substring of bounds that cannot be known or are out of range")
        if isinstance(length, int):
            return (
                s[start : start + length]
                if start + length <= len(s)
                else Unknown("Substring past the end of the string")
            )
        return s[start:]

    def index_of(ctx: CallContext, s: str, args: Args) -> Value:
        target = arg(args, 0)
        return s.find(target) if isinstance(target, str) else -1

    def pad(left: bool) -> Callable[[CallContext, str, Args], Value]:
        def call(ctx: CallContext, s: str, args: Args) -> Value:
            width, fill = arg(args, 0), arg(args, 1)
            fill = fill if isinstance(fill, str) and len(fill) == 1 else " "
            if not isinstance(width, int):
                return Unknown("a padding width that cannot be known")
            return s.rjust(width, fill) if left else s.ljust(width, fill)

        return call

    def remove(ctx: CallContext, s: str, args: Args) -> Value:
        start, count = arg(args, 0), arg(args, 1)
        if not isinstance(start, int):
            return Unknown("Remove of a position that cannot be known")
        return s[:start] + (s[start + count :] if isinstance(count, int) else "")

    def insert(ctx: CallContext, s: str, args: Args) -> Value:
        index, text = arg(args, 0), arg(args, 1)
        if not isinstance(index, int) or not isinstance(text, str):
            return Unknown("Insert of values that cannot be known")
        return s[:index] + text + s[index:]

    return {
        "ToUpperInvariant": lambda ctx, s, args: s.upper(),
        "ToLowerInvariant": lambda ctx, s, args: s.lower(),
        "Substring": substring,
        "IndexOf": index_of,
        "LastIndexOf": lambda ctx, s, args: (
            s.rfind(arg(args, 0)) if isinstance(arg(args, 0), str) else -1
        ),
        "Trim": lambda ctx, s, args: s.strip(_chars(args)),
        "TrimStart": lambda ctx, s, args: s.lstrip(_chars(args)),
        "TrimEnd": lambda ctx, s, args: s.rstrip(_chars(args)),
        "Split": lambda ctx, s, args: _split(s, args),
        "PadLeft": pad(True),
        "PadRight": pad(False),
        "Remove": remove,
        "Insert": insert,
        "ToCharArray": lambda ctx, s, args: [Char(c) for c in s],
        "Equals": lambda ctx, s, args: s == arg(args, 0),
        "Normalize": lambda ctx, s, args: s,
    }


def _char_function(fn: Callable[[str], Value]) -> Builtin:
    """A ``char`` static: ``char.ToUpper(c)``, or ``char.IsUpper(s, i)`` of ``s[i]``."""

    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        value, index = arg(args, 0), arg(args, 1)
        if isinstance(value, str) and isinstance(index, int) and 0 <= index < len(value):
            value = value[index]
        if isinstance(value, str) and len(value) == 1:
            result = fn(value)
            return Char(result) if isinstance(result, str) and len(result) == 1 else result
        return Unknown("a char that cannot be known statically")

    return Builtin("char", call)


def char_namespace() -> Namespace:
    """``char.ToUpper(c)`` and the other statics of ``System.Char``."""
    return Namespace(
        "Char",
        {
            "ToUpper": _char_function(str.upper),
            "ToLower": _char_function(str.lower),
            "ToUpperInvariant": _char_function(str.upper),
            "ToLowerInvariant": _char_function(str.lower),
            "IsUpper": _char_function(str.isupper),
            "IsLower": _char_function(str.islower),
            "IsDigit": _char_function(str.isdigit),
            "IsLetter": _char_function(str.isalpha),
            "IsLetterOrDigit": _char_function(str.isalnum),
            "IsWhiteSpace": _char_function(str.isspace),
        },
    )


def globalization(to_string: ToString) -> dict[str, Value]:
    """``CultureInfo`` (current, invariant, ``new CultureInfo("en-US")``) with its ``TextInfo``,
    and ``Thread.CurrentThread.CurrentCulture``: every culture titlecases and changes case as
    the invariant one does (what differs, Turkish dotted i and Dutch IJ, is no scene name)."""

    def text_info() -> Record:
        return Record(
            "TextInfo",
            {
                "ToTitleCase": Builtin(
                    "TextInfo.ToTitleCase",
                    lambda ctx, a, k: (
                        title_case(arg(a, 0))
                        if isinstance(arg(a, 0), str)
                        else Unknown("ToTitleCase of text that cannot be known")
                    ),
                ),
                "ToUpper": Builtin(
                    "TextInfo.ToUpper", lambda ctx, a, k: to_string(arg(a, 0)).upper()
                ),
                "ToLower": Builtin(
                    "TextInfo.ToLower", lambda ctx, a, k: to_string(arg(a, 0)).lower()
                ),
            },
        )

    def culture_record(name: Value = None) -> Record:
        return Record("CultureInfo", {"TextInfo": text_info(), "Name": name})

    def culture(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        return culture_record(arg(args, 0))

    statics: dict[str, Value] = {
        "CurrentCulture": culture_record(),
        "CurrentUICulture": culture_record(),
        "InvariantCulture": culture_record(""),
        "GetCultureInfo": Builtin("CultureInfo.GetCultureInfo", culture),
    }
    culture_info = EngineClass("CultureInfo", culture, statics)
    thread = Namespace(
        "Thread",
        {
            "CurrentThread": Record(
                "Thread", {"CurrentCulture": culture_record(), "CurrentUICulture": culture_record()}
            )
        },
    )
    return {"CultureInfo": culture_info, "Thread": thread}


# --- enums as text -----------------------------------------------------------------------------------
def enum_class(value: Value) -> ClassValue | None:
    """The enum a ``typeof(T)`` value or the enum's own class names, when the code declares it."""
    if isinstance(value, Record) and value.kind == "Type":
        value = value.native
    if isinstance(value, ClassValue) and any(
        isinstance(v, EnumMember) for v in value.static.values()
    ):
        return value
    return None


def enum_members(cls: ClassValue) -> list[EnumMember]:
    return [v for v in cls.static.values() if isinstance(v, EnumMember)]


def enum_of(cls: ClassValue, value: Value) -> Value:
    """The member of ``cls`` with the number ``value`` (a cast ``(Shape)2``), or the number."""
    if isinstance(value, int) and not isinstance(value, bool):
        for member in enum_members(cls):
            if int(member) == int(value):
                return member
    return value


def enum_namespace() -> Namespace:
    """``System.Enum``: ``GetValues``, ``GetNames``, ``GetName``, ``Parse``, ``TryParse``,
    ``IsDefined``."""

    def members_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> list[EnumMember] | None:
        cls = enum_class(arg(args, 0))
        types = kwargs.get("%types")
        if cls is None and isinstance(types, tuple) and types:
            cls = _declared_enum(ctx, types[0])
        return None if cls is None else enum_members(cls)

    def parse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        cls = enum_class(arg(args, 0))
        text = arg(args, 1) if cls is not None else arg(args, 0)
        ignore_case = arg(args, 2) is True if cls is not None else arg(args, 1) is True
        if cls is None:
            types = kwargs.get("%types")
            cls = _declared_enum(ctx, types[0]) if isinstance(types, tuple) and types else None
        if cls is None or not isinstance(text, str):
            return Unknown("Enum.Parse of a type or text that cannot be known")
        for member in enum_members(cls):
            if member.member == text.strip() or (
                ignore_case and member.member.lower() == text.strip().lower()
            ):
                return member
        return Unknown(f"{text!r} is no member of {cls.name} (Enum.Parse throws)")

    def get_name(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        cls = enum_class(arg(args, 0))
        value = arg(args, 1)
        if cls is None:
            return (
                value.member
                if isinstance(value, EnumMember)
                else Unknown("Enum.GetName of an unknown enum")
            )
        member = enum_of(cls, value)
        return member.member if isinstance(member, EnumMember) else None

    return Namespace(
        "Enum",
        {
            "GetValues": Builtin(
                "Enum.GetValues",
                lambda ctx, a, k: (
                    members_of(ctx, a, k)
                    or Unknown("Enum.GetValues of an enum that is not declared")
                ),
            ),
            "GetNames": Builtin(
                "Enum.GetNames",
                lambda ctx, a, k: (
                    [m.member for m in members_of(ctx, a, k) or []]
                    or Unknown("Enum.GetNames of an enum that is not declared")
                ),
            ),
            "GetName": Builtin("Enum.GetName", get_name),
            "Parse": Builtin("Enum.Parse", parse),
            "IsDefined": Builtin(
                "Enum.IsDefined",
                lambda ctx, a, k: any(
                    m.member == arg(a, 1) or int(m) == arg(a, 1)
                    for m in members_of(ctx, a, k) or []
                ),
            ),
        },
    )


def _declared_enum(ctx: CallContext, name: object) -> ClassValue | None:
    if not isinstance(name, str):
        return None
    found, value = ctx.interp.globals.lookup(name)
    return enum_class(value) if found else None


def type_value(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``typeof(T)`` (lowered to ``%typeof("T", T)``): a ``Type`` naming T, holding its class."""
    name, cls = arg(args, 0), arg(args, 1)
    held = cls if isinstance(cls, ClassValue) else None
    fields: dict[str, Value] = {
        "Name": name,
        "FullName": Unknown("a type's full name has the namespaces the evaluator does not keep"),
        "Namespace": Unknown("a type's namespace is not kept"),
    }
    return Record("Type", fields, native=held)


def enum_cast(ctx: CallContext, type_name: Value, value: Value) -> Value:
    """``(Shape)2``: the enum member with that number, when ``Shape`` is declared."""
    cls = _declared_enum(ctx, type_name)
    return enum_of(cls, value) if cls is not None else value


__all__ = [
    "char_namespace",
    "composite_format",
    "enum_cast",
    "enum_namespace",
    "format_item",
    "format_number",
    "globalization",
    "string_members",
    "title_case",
    "type_value",
]
