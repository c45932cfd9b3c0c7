"""C# literals for the C# front end: the value of a numeric literal (suffixes, hex, binary,
digit separators) and the escapes of string and character literals.
"""

from __future__ import annotations

import re

from parsers.evaluator.lowering import C_ESCAPES

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


def csharp_number(text: str) -> int | float:
    """The value of a C# numeric literal (``2.5f``, ``0x1F``, ``1_000``, ``10L``, ``3.5e2``)."""
    plain = _PLAIN_NUMBER.fullmatch(text)
    if plain is not None:
        digits, suffix = plain.groups()
        return float(digits) if suffix or "." in digits else int(digits)
    clean = text.replace("_", "")
    lower = clean.lower()
    if lower.startswith("0x"):
        return int(lower[2:].rstrip("ul"), 16)
    if lower.startswith("0b"):
        return int(lower[2:].rstrip("ul"), 2)
    if lower[-1:] in ("f", "d", "m"):
        return float(lower[:-1])
    stripped = lower.rstrip("ul")
    if re.fullmatch(r"\d+", stripped):
        return int(stripped)
    return float(stripped)
