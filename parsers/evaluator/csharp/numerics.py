"""C#'s numeric types for the static evaluator, as Mono runs them.

Evaluator values are plain Python numbers; C# needs three more distinctions, each a subclass
that behaves as its base everywhere else:

- ``Single``: a C# ``float``. Its value is always exactly a 32-bit float (``2.5f``,
  ``float h = 3;``); arithmetic between singles and integers is rounded back to single
  precision after each operation, as the CLR does; with a ``double`` it widens to double.
  ``0.1f + 0.2f`` is 0.300000011920929 and ``(double)0.1f`` is 0.100000001490116.
- ``Long``: a C# ``long`` (and ``uint``/``ulong``, whose values fit a Python int); integer
  arithmetic wraps at 64 bits for longs and at 32 bits for ints (unchecked, C#'s default);
  ``checked`` arithmetic throws ``OverflowException`` instead.
- ``Char``: a C# ``char``, a one-character string that is a number in arithmetic
  (``'a' + 1`` is 98, ``(char)98`` is ``'b'``).

Text of numbers follows Mono (6.8, the runtime these rules were measured against, and the one
Unity's scripting runs on): a ``double`` is formatted from its 15 significant digits, a
``float`` from its 7 (``0.1 + 0.2`` prints ``0.3``, ``1.0 / 3`` prints ``0.333333333333333``),
``G`` switches to ``1E+15`` notation from an exponent of the precision or below -5, and every
other format (``F2``, ``N1``, ``0.##``) rounds those digits half away from zero: ``(1.005)
.ToString("F2")`` is ``1.01`` on Mono (.NET Core 3.0 and later print ``1.00``).
"""

from __future__ import annotations

import math
import struct
from decimal import ROUND_HALF_UP, Decimal, localcontext


class Single(float):
    """A C# ``float``: a Python float whose value is exactly a 32-bit float."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{float(self)!r}f"


class Long(int):
    """A C# ``long`` (64-bit): its arithmetic wraps at 64 bits, not 32."""

    __slots__ = ()


class Char(str):
    """A C# ``char``: text when printed or concatenated with text, a number in arithmetic."""

    __slots__ = ()


_FLOAT = struct.Struct("<f")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


_PACK, _UNPACK = _FLOAT.pack, _FLOAT.unpack


def single(value: float) -> Single:
    """``value`` rounded to the nearest 32-bit float (to infinity past float's range)."""
    try:
        return Single(_UNPACK(_PACK(value))[0])
    except OverflowError:
        return Single(math.copysign(math.inf, value))


def wrap(value: int, bits: int, signed: bool = True) -> int:
    """``value`` wrapped to a ``bits``-wide two's-complement integer, as unchecked C# does."""
    size = 1 << bits
    value &= size - 1
    if signed and value >= size >> 1:
        value -= size
    return value


#: C# integral types: (bits, signed).
INTEGRAL_TYPES: dict[str, tuple[int, bool]] = {
    "sbyte": (8, True),
    "byte": (8, False),
    "short": (16, True),
    "ushort": (16, False),
    "int": (32, True),
    "uint": (32, False),
    "long": (64, True),
    "ulong": (64, False),
    "SByte": (8, True),
    "Byte": (8, False),
    "Int16": (16, True),
    "UInt16": (16, False),
    "Int32": (32, True),
    "UInt32": (32, False),
    "Int64": (64, True),
    "UInt64": (64, False),
}
SINGLE_TYPES = frozenset({"float", "Single"})
DOUBLE_TYPES = frozenset({"double", "Double", "decimal", "Decimal"})
CHAR_TYPES = frozenset({"char", "Char"})


def integral(value: int, type_name: str) -> int:
    """An integer converted (unchecked) to the integral type ``type_name``."""
    bits, signed = INTEGRAL_TYPES[type_name]
    wrapped = wrap(value, bits, signed)
    return Long(wrapped) if bits == 64 or (bits == 32 and not signed) else wrapped


#: The numeric types whose values the C# front end converts where a value of another type is
#: stored (``float h = 3;`` holds 3f): all but ``int``, whose values need no conversion.
CONVERTED_TYPES = (
    (frozenset(INTEGRAL_TYPES) - {"int", "Int32"}) | SINGLE_TYPES | DOUBLE_TYPES | CHAR_TYPES
)
NUMERIC_TYPES = frozenset(INTEGRAL_TYPES) | SINGLE_TYPES | DOUBLE_TYPES | CHAR_TYPES


def convert(type_name: str, value: object) -> object:
    """``value`` converted to the numeric type ``type_name`` as a C# cast converts it (an
    implicit conversion is the same, where C# allows one): integers wrap, a float is rounded
    to single precision, a char is its code; ``None`` (what an ``out`` of a missing entry
    leaves) is the type's default. A value that is no number is returned as it is; a real
    number out of an integral type's range gives None (C# leaves the result undefined)."""
    kind = type(value)
    # The commonest conversions first: to float, from an int, a double or a float.
    if type_name == "float":
        if kind is Single:
            return value
        if kind is float or kind is int:
            return single(value)  # type: ignore[arg-type]
    elif type_name == "double" and (kind is float or kind is int or kind is Single):
        return float(value)  # type: ignore[arg-type]
    if isinstance(value, Char):
        value = ord(value)
    elif value is None:
        if type_name in SINGLE_TYPES:
            return Single(0.0)
        if type_name in DOUBLE_TYPES:
            return 0.0
        if type_name in CHAR_TYPES:
            return Char("\0")
        return 0 if type_name in INTEGRAL_TYPES else None
    if not isinstance(value, int | float) or isinstance(value, bool):
        return value
    if type_name in SINGLE_TYPES:
        return value if type(value) is Single else single(float(value))
    if type_name in DOUBLE_TYPES:
        return float(value)
    if type_name in INTEGRAL_TYPES or type_name in CHAR_TYPES:
        if isinstance(value, float):
            if not math.isfinite(value) or abs(value) >= 2.0**63:
                return None
            value = int(value)
        if type_name in CHAR_TYPES:
            return Char(chr(wrap(int(value), 16, signed=False)))
        return integral(int(value), type_name)
    return value


def significant_digits(value: float) -> int:
    """How many significant digits Mono formats a value from: 7 for a float, 15 for a double."""
    return 7 if isinstance(value, Single) else 15


def rounded(value: float) -> Decimal:
    """The decimal Mono formats ``value`` from: its 15 (double) or 7 (float) significant digits."""
    if value == 0:
        return Decimal(0)
    return Decimal(format(value, f".{significant_digits(value) - 1}e"))


def general(value: float, precision: int | None = None) -> str:
    """.NET's ``G`` format of a double or float (``ToString()``): at most ``precision``
    significant digits (15 for a double, 7 for a float; fewer are rounded from those, halves
    away from zero), trailing zeros dropped, exponent notation (``1E+15``, ``1.5E-07``) when
    the exponent is at least the precision or below -5."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    natural = significant_digits(value)
    wanted = precision or natural
    if value == 0:
        return "0"
    exact = Decimal(format(abs(value), f".{max(wanted, natural) - 1}e"))
    if wanted < natural:
        with localcontext() as context:
            context.prec = wanted
            context.rounding = ROUND_HALF_UP
            exact = context.plus(exact)
    _, digit_tuple, exponent_of_last = exact.normalize().as_tuple()
    assert isinstance(exponent_of_last, int)
    digits = "".join(map(str, digit_tuple))
    exponent = exponent_of_last + len(digits) - 1
    sign = "-" if value < 0 else ""
    if exponent >= wanted or exponent < -5:
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}E{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"
    if exponent < 0:
        return f"{sign}0.{'0' * (-exponent - 1)}{digits}"
    whole = digits[: exponent + 1].ljust(exponent + 1, "0")
    fraction = digits[exponent + 1 :]
    return sign + whole + ("." + fraction if fraction else "")


def round_trip(value: float) -> str:
    """.NET's ``R`` format: the ``G`` text when it reads back as the same value, else the
    longer one (17 digits for a double, 9 for a float)."""
    text = general(value)
    if math.isnan(value) or math.isinf(value):
        return text
    parsed = float(text.replace("E", "e"))
    if isinstance(value, Single):
        if single(parsed) == value:
            return text
        return general(value, 9)
    return text if parsed == value else general(value, 17)


__all__ = [
    "CHAR_TYPES",
    "CONVERTED_TYPES",
    "DOUBLE_TYPES",
    "INTEGRAL_TYPES",
    "INT_MAX",
    "INT_MIN",
    "LONG_MAX",
    "LONG_MIN",
    "NUMERIC_TYPES",
    "SINGLE_TYPES",
    "Char",
    "Long",
    "Single",
    "convert",
    "general",
    "integral",
    "round_trip",
    "rounded",
    "significant_digits",
    "single",
    "wrap",
]
