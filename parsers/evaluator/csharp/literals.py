"""C# literals for the C# front end: the value of a numeric literal (suffixes, hex, binary,
digit separators) and the escapes of string and character literals.
"""

from __future__ import annotations

import re

from parsers.evaluator.core.lowering import C_ESCAPES
from parsers.evaluator.csharp.numerics import Long, integral, single

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{1,4}|[\s\S])")


def unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body[0] in "uUx" and len(body) > 1:
            return chr(min(int(body[1:], 16), 0x10FFFF))
        return C_ESCAPES.get(body, body)

    return _ESCAPE.sub(one, text) if "\\" in text else text


#: A plain decimal, perhaps with a real suffix (most literals of scene code).
_PLAIN_NUMBER = re.compile(r"([0-9]*\.[0-9]+|[0-9]+\.?[0-9]*)([fFdDmM]?)")


def _integer(value: int, suffix: str) -> int:
    """An integer literal's value in its C# type: ``int`` when it fits, else ``uint``, ``long``,
    ``ulong``; an ``L`` or ``U`` suffix asks for the wider types."""
    if not suffix and -(2**31) <= value < 2**31:
        return value
    return Long(value) if value < 2**64 else integral(value, "ulong")


def csharp_number(text: str) -> int | float:
    """The value of a C# numeric literal (``2.5f``, ``0x1F``, ``1_000``, ``10L``, ``3.5e2``): a
    ``float`` literal is a ``Single`` (rounded to single precision), a ``long`` a ``Long``."""
    plain = _PLAIN_NUMBER.fullmatch(text)
    if plain is not None:
        digits, suffix = plain.groups()
        if suffix in ("f", "F"):
            return single(float(digits))
        return float(digits) if suffix or "." in digits else _integer(int(digits), "")
    clean = text.replace("_", "")
    lower = clean.lower()
    if lower.startswith("0x"):
        body = lower[2:]
        return _integer(int(body.rstrip("ul"), 16), body[len(body.rstrip("ul")) :])
    if lower.startswith("0b"):
        body = lower[2:]
        return _integer(int(body.rstrip("ul"), 2), body[len(body.rstrip("ul")) :])
    if lower[-1:] == "f":
        return single(float(lower[:-1]))
    if lower[-1:] in ("d", "m"):
        return float(lower[:-1])
    stripped = lower.rstrip("ul")
    if re.fullmatch(r"\d+", stripped):
        return _integer(int(stripped), lower[len(stripped) :])
    return float(stripped)
