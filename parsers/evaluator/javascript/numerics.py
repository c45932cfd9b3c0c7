"""JavaScript's numbers as text and text as numbers, as ECMAScript specifies them (and ``**``,
whose edge cases Python's power does not share):
``Number::toString`` (shortest digits, exponent from 1e21 and below 1e-6), ``toFixed``,
``toPrecision`` and ``toExponential`` (which round the exact binary value, a tie going up),
``toString(radix)`` (V8's digits for fractions), ``Number(text)`` and ``parseInt``.

Python's ``repr`` gives the shortest digits that read back as the same double, which is what
ECMAScript asks for; ``Decimal`` holds a double's exact value for the rounding methods.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import ROUND_HALF_UP, Context, Decimal

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: The white space JavaScript trims and skips before a number (WhiteSpace and LineTerminator).
JS_WHITESPACE = " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_DECIMAL_LITERAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_PREFIXED = re.compile(r"0([xXoObB])([0-9a-zA-Z]+)")
#: Room for every digit of a double's exact value (at most 767 significant digits) rounded
#: to 100 places.
_EXACT = Context(prec=1200, rounding=ROUND_HALF_UP)


def js_pow(x: float, y: float) -> float:
    """``x ** y``: NaN for a NaN exponent, for 1 to an infinite power and for a negative base
    to a fractional power (Python gives 1.0 or a complex number)."""
    if math.isnan(y) or (abs(x) == 1 and math.isinf(y)):
        return math.nan
    if x < 0 and math.isfinite(y) and not y.is_integer():
        return math.nan
    try:
        return float(x**y)
    except OverflowError:
        return math.inf if x > 0 or y % 2 == 0 else -math.inf
    except ZeroDivisionError:
        return math.copysign(math.inf, x) if y % 2 == 1 else math.inf


def _shortest(value: float) -> tuple[str, int]:
    """The shortest digits ``s`` (no trailing zero) and ``n`` with ``0.s * 10**n == value``
    for a finite positive ``value``."""
    _, digits, exponent = Decimal(repr(value)).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    return text, len(digits) + exponent


def number_text(value: float) -> str:
    """``Number::toString(value)``: ``1`` not ``1.0``, ``1e+21``, ``1e-7``, ``-0`` is ``0``."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if value == 0:
        return "0"
    if value < 0:
        return "-" + number_text(-value)
    if math.isinf(value):
        return "Infinity"
    if value < 2**53 and value.is_integer():  # the integer's digits are its shortest ones
        return str(int(value))
    digits, n = _shortest(value)
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    exponent = n - 1
    sign = "+" if exponent >= 0 else "-"
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{sign}{abs(exponent)}"


def to_fixed_text(value: float, digits: int) -> str:
    """``value.toFixed(digits)`` (``digits`` in 0..100): the exact value rounded, ties up."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if abs(value) >= 1e21 or math.isinf(value):
        return number_text(value)
    sign = "-" if value < 0 else ""
    exact = Decimal(abs(value)).quantize(Decimal(1).scaleb(-digits), context=_EXACT)
    return sign + f"{exact:f}"


def _significant(value: float, precision: int) -> tuple[str, int]:
    """The ``precision`` digits of ``value`` (> 0), the exact value rounded with ties up, and
    the exponent ``e`` of the first digit (``d.ddd * 10**e``)."""
    exact = Decimal(value)
    exponent = exact.adjusted()
    rounded = exact.quantize(Decimal(1).scaleb(exponent - precision + 1), context=_EXACT)
    if rounded.adjusted() > exponent:  # 9.99 -> 10.0: one more digit before the point
        exponent += 1
        rounded = exact.quantize(Decimal(1).scaleb(exponent - precision + 1), context=_EXACT)
    digits = "".join(map(str, rounded.as_tuple().digits))
    return digits[:precision].ljust(precision, "0"), exponent


def _exponent_suffix(exponent: int) -> str:
    return f"e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def to_precision_text(value: float, precision: int) -> str:
    """``value.toPrecision(precision)`` (``precision`` in 1..100)."""
    value = float(value)
    if not math.isfinite(value):
        return number_text(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value == 0:
        digits, exponent = "0" * precision, 0
    else:
        digits, exponent = _significant(value, precision)
    if exponent < -6 or exponent >= precision:
        mantissa = digits[0] + ("." + digits[1:] if precision > 1 else "")
        return sign + mantissa + _exponent_suffix(exponent)
    if exponent == precision - 1:
        return sign + digits
    if exponent >= 0:
        return sign + digits[: exponent + 1] + "." + digits[exponent + 1 :]
    return sign + "0." + "0" * (-exponent - 1) + digits


def to_exponential_text(value: float, fraction: int | None) -> str:
    """``value.toExponential(fraction)``; ``None``: as many digits as the value needs."""
    value = float(value)
    if not math.isfinite(value):
        return number_text(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value == 0:
        digits, exponent = "0" * ((fraction or 0) + 1), 0
    elif fraction is None:
        digits, n = _shortest(value)
        exponent = n - 1
    else:
        digits, exponent = _significant(value, fraction + 1)
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return sign + mantissa + _exponent_suffix(exponent)


def _next_up(value: float) -> float:
    return math.nextafter(value, math.inf)


def radix_text(value: float, radix: int) -> str:
    """``value.toString(radix)`` for a radix other than 10, digit for digit as V8 writes it
    (``DoubleToRadixCString``: fraction digits until the double is told apart, rounded to
    even)."""
    value = float(value)
    if radix == 10 or not math.isfinite(value):
        return number_text(value)
    negative = value < 0
    value = -value if negative else value
    integer = math.floor(value)
    fraction = value - integer
    delta = max(0.5 * (_next_up(value) - value), _next_up(0.0))
    fraction_digits: list[int] = []
    if fraction >= delta:
        while True:
            fraction *= radix
            delta *= radix
            digit = int(fraction)
            fraction_digits.append(digit)
            fraction -= digit
            if (fraction > 0.5 or (fraction == 0.5 and digit & 1)) and fraction + delta > 1:
                # Round up, carrying through the digits written so far.
                while True:
                    if not fraction_digits:
                        integer += 1
                        break
                    last = fraction_digits.pop() + 1
                    if last < radix:
                        fraction_digits.append(last)
                        break
                break
            if fraction < delta:
                break
    integer_digits: list[str] = []
    whole = float(integer)
    while math.frexp(whole / radix)[1] > 53:  # digits below the double's precision are zero
        whole /= radix
        integer_digits.append("0")
    while True:
        remainder = math.fmod(whole, radix)
        integer_digits.append(_DIGITS[int(remainder)])
        whole = (whole - remainder) / radix
        if whole <= 0:
            break
    text = "".join(reversed(integer_digits))
    if fraction_digits:
        text += "." + "".join(_DIGITS[d] for d in fraction_digits)
    return ("-" if negative else "") + text


def string_to_number(text: str) -> float:
    """``Number(text)``: decimal, ``0x``/``0o``/``0b`` integers, ``Infinity``; else NaN."""
    text = text.strip(JS_WHITESPACE)
    if not text:
        return 0.0
    prefixed = _PREFIXED.fullmatch(text)
    if prefixed:
        base = {"x": 16, "o": 8, "b": 2}[prefixed.group(1).lower()]
        try:
            return float(int(prefixed.group(2), base))
        except ValueError:
            return math.nan
    if text in ("Infinity", "+Infinity"):
        return math.inf
    if text == "-Infinity":
        return -math.inf
    if _DECIMAL_LITERAL.fullmatch(text):
        return float(text)
    return math.nan


def parse_float_text(text: str) -> float:
    """``parseFloat(text)``: the longest decimal prefix (after white space), else NaN."""
    text = text.lstrip(JS_WHITESPACE)
    for word, value in (("Infinity", math.inf), ("+Infinity", math.inf), ("-Infinity", -math.inf)):
        if text.startswith(word):
            return value
    match = _DECIMAL_LITERAL.match(text)
    return float(match.group(0)) if match else math.nan


def parse_int_text(text: str, radix: int) -> float:
    """``parseInt(text, radix)`` (``radix`` 0 when not given): the longest prefix of digits
    of the radix, ``0x`` read as hexadecimal when the radix is 0 or 16."""
    text = text.lstrip(JS_WHITESPACE)
    sign = 1.0
    if text[:1] in "+-" and text:
        sign = -1.0 if text[0] == "-" else 1.0
        text = text[1:]
    if radix == 0:
        radix = 10
        if text[:2].lower() == "0x":
            radix, text = 16, text[2:]
    elif radix == 16 and text[:2].lower() == "0x":
        text = text[2:]
    if not 2 <= radix <= 36:
        return math.nan
    allowed = _DIGITS[:radix]
    end = 0
    while end < len(text) and text[end].lower() in allowed:
        end += 1
    if end == 0:
        return math.nan
    return sign * float(int(text[:end], radix))


_CBRT_P = (
    1.87595182427177009643,
    -1.88497979543377169875,
    1.621429720105354466140,
    -0.758397934778766047437,
    0.145996192886612446982,
)


def _bits(value: float) -> int:
    return int.from_bytes(struct.pack("<d", value), "little")


def _double(bits: int) -> float:
    return float(struct.unpack("<d", (bits & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little"))[0])


def js_cbrt(x: float) -> float:
    """``Math.cbrt`` as V8 computes it (fdlibm's ``cbrt``, FreeBSD's msun): exact on perfect
    cubes, where Python's ``math.cbrt`` may be one ulp off."""
    bits = _bits(x)
    high = bits >> 32
    sign = high & 0x80000000
    high ^= sign
    if high >= 0x7FF00000 or x == 0:
        return x + x if high >= 0x7FF00000 else x
    if high < 0x00100000:  # subnormal: scale by 2**54 first
        t = _double(0x43500000 << 32) * x
        t = _double((sign | ((_bits(t) >> 32) & 0x7FFFFFFF) // 3 + 696219795) << 32)
    else:
        t = _double((sign | high // 3 + 715094163) << 32)
    p0, p1, p2, p3, p4 = _CBRT_P
    r = (t * t) * (t / x)
    t = t * ((p0 + r * (p1 + r * p2)) + ((r * r) * r) * (p3 + r * p4))
    t = _double((_bits(t) + 0x80000000) & 0xFFFFFFFFC0000000)
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    return t + t * r


def js_hypot(values: list[float]) -> float:
    """``Math.hypot`` as V8 computes it: each value over the largest, squares summed with
    Kahan's compensation, the root times the largest."""
    magnitudes = [abs(v) for v in values]
    if any(math.isinf(m) for m in magnitudes):
        return math.inf
    if any(math.isnan(m) for m in magnitudes):
        return math.nan
    largest = max(magnitudes, default=0.0)
    if largest == 0:
        return 0.0
    total = compensation = 0.0
    for magnitude in magnitudes:
        n = magnitude / largest
        summand = n * n - compensation
        preliminary = total + summand
        compensation = (preliminary - total) - summand
        total = preliminary
    return math.sqrt(total) * largest
