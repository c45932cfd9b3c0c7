"""Numeric answers, shared by the suites: reading one number in a requested unit from a reply's
final answer, and grading it by mean relative accuracy (MRA).

MRA (VSI-Bench's rule, which SpatialMind follows): over the thresholds C = {0.50, 0.55, ...,
0.95}, the share with ``|pred - truth| <= (1 - c) * |truth|``; a relative error under 5 %
scores 1, one of 30 % scores 0.4, one of 50 % or more scores 0. Each comparison allows a
relative slack of 1e-9, so an answer written with exactly the boundary error (1.05 x truth)
is not lost to binary rounding.

The final answer is the text after the reply's last ``Answer:`` line (any case, so the state
chain's ``ANSWER:`` too; markdown emphasis allowed); a reply of a single line with no such
line is read whole (the ``direct`` variants ask for the number only). The first number there
is the answer, in the unit written after it when that is a unit of the requested kind
(``150 cm`` for metres reads 1.5, ``16.8 ft`` 5.12, ``3 mph`` for m/s 1.34), else in the
requested unit. A decimal comma is read as a decimal point (``1,38`` is 1.38) and thousands
groups as such (``1,234.5``, ``1,234,567``); a lone comma before three digits (``1,380``) may
be either and cannot be read. A range (``3-4 m``, ``between 4 and 6``, ``4 or 5``), no
number, or a unit of another kind (``3 m/s`` or ``5 minutes`` for metres) cannot be read
either: a parser failure, scoring 0.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from suites.base import Grade
from suites.choices import ANSWER_LINE

#: The MRA confidence thresholds c; an answer hits c when its relative error is at most 1 - c.
THRESHOLDS: Final = tuple(round(0.50 + 0.05 * k, 2) for k in range(10))
_SLACK: Final = 1e-9

#: A number as a person writes it: thousands groups (``1,234.5``), a decimal point or comma.
_NUMBER: Final = (
    r"[-+−]?(?:\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?|\d+(?:[.,]\d+)?|\d+\.|[.,]\d+)"
    r"(?:[eE][-+]?\d+)?"
)
_FIRST_NUMBER: Final = re.compile(_NUMBER)
#: What after a number makes it the start of a range: perhaps a unit, then a joining word or
#: dash, then another number ("3-4 m", "4 m to 5 m", "between 4 and 6", "4 or 5").
_RANGE_TAIL: Final = re.compile(
    rf"\s*(?:[^\W\d_]+(?:/[^\W\d_]+)?\.?\s*|°\s*)?(?:-|–|—|~|\bto\b|\band\b|\bor\b)\s*{_NUMBER}",
    re.IGNORECASE,
)
_THOUSANDS: Final = re.compile(r"\d{1,3}(?:,\d{3})+")


@dataclass(frozen=True)
class Unit:
    """A unit a question can ask for: its kind and the words that name it or its kin, each with
    the factor that turns it into this unit."""

    name: str
    kind: str
    words: tuple[tuple[str, float], ...]


_LENGTH: Final = (
    ("millimetres", 0.001),
    ("millimeters", 0.001),
    ("centimetres", 0.01),
    ("centimeters", 0.01),
    ("kilometres", 1000.0),
    ("kilometers", 1000.0),
    ("metres", 1.0),
    ("meters", 1.0),
    ("metre", 1.0),
    ("meter", 1.0),
    ("mm", 0.001),
    ("cm", 0.01),
    ("km", 1000.0),
    ("m", 1.0),
    ("inches", 0.0254),
    ("inch", 0.0254),
    ("feet", 0.3048),
    ("foot", 0.3048),
    ("ft", 0.3048),
    ("yards", 0.9144),
    ("yard", 0.9144),
    ("yd", 0.9144),
    ("miles", 1609.344),
    ("mile", 1609.344),
    ("mi", 1609.344),
)
_SPEED: Final = (
    ("metres per second", 1.0),
    ("meters per second", 1.0),
    ("kilometres per hour", 1 / 3.6),
    ("kilometers per hour", 1 / 3.6),
    ("metres/second", 1.0),
    ("meters/second", 1.0),
    ("km/h", 1 / 3.6),
    ("km/hr", 1 / 3.6),
    ("kmh", 1 / 3.6),
    ("kph", 1 / 3.6),
    ("cm/s", 0.01),
    ("m/s", 1.0),
    ("m/sec", 1.0),
    ("mps", 1.0),
    ("miles per hour", 0.44704),
    ("mph", 0.44704),
    ("feet per second", 0.3048),
    ("ft/s", 0.3048),
    ("ft/sec", 0.3048),
    ("knots", 1852 / 3600),
    ("knot", 1852 / 3600),
    ("kn", 1852 / 3600),
)
_ANGLE: Final = (
    ("degrees", 1.0),
    ("degree", 1.0),
    ("deg", 1.0),
    ("°", 1.0),
    ("radians", 180.0 / math.pi),
    ("radian", 180.0 / math.pi),
    ("rad", 180.0 / math.pi),
)
_TIME: Final = (
    ("seconds", 1.0),
    ("second", 1.0),
    ("secs", 1.0),
    ("sec", 1.0),
    ("s", 1.0),
    ("minutes", 60.0),
    ("minute", 60.0),
    ("min", 60.0),
    ("hours", 3600.0),
    ("hour", 3600.0),
    ("hr", 3600.0),
    ("h", 3600.0),
)
UNITS: Final = {
    "m": Unit("m", "length", _LENGTH),
    "m/s": Unit("m/s", "speed", _SPEED),
    "deg": Unit("deg", "angle", _ANGLE),
    "s": Unit("s", "time", _TIME),
}


#: The relative errors the thresholds allow, 1 - c.
_ALLOWED: Final = tuple(1.0 - c for c in THRESHOLDS)


def mra(predicted: float, truth: float) -> float:
    """Mean relative accuracy of one answer over ``THRESHOLDS``."""
    if not math.isfinite(predicted):
        return 0.0
    error = abs(predicted - truth)
    scale = abs(truth)
    return sum(error <= a * scale + _SLACK * scale for a in _ALLOWED) / len(_ALLOWED)


def mra_many(predicted: ArrayLike, truth: ArrayLike) -> NDArray[np.float64]:
    """``mra`` elementwise over broadcast arrays (a non-finite prediction scores 0)."""
    predicted, truth = np.broadcast_arrays(np.asarray(predicted, float), np.asarray(truth, float))
    error = np.abs(predicted - truth)[..., None]
    scale = np.abs(truth)[..., None]
    with np.errstate(invalid="ignore"):
        hits = (error <= np.array(_ALLOWED) * scale + _SLACK * scale).sum(axis=-1)
    return np.where(np.isfinite(predicted), hits / len(_ALLOWED), 0.0)


def final_answer(text: str) -> str | None:
    """The text of the reply's last ``Answer:`` line, or the reply itself when it is one line."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    for line in reversed(lines):
        match = ANSWER_LINE.match(line)
        if match:
            return match.group("rest").strip().strip("*_`").strip()
    return lines[0].strip("*_`").strip() if len(lines) == 1 else None


def _unit_after(rest: str, units: Sequence[Unit]) -> tuple[Unit, float] | None:
    """The unit named at the start of ``rest`` (longest name first), with its factor."""
    text = rest.strip().lower()
    best: tuple[int, Unit, float] | None = None
    for unit in units:
        for word, factor in unit.words:
            whole = text.startswith(word) and not text[len(word) : len(word) + 1].isalpha()
            if whole and (best is None or len(word) > best[0]):
                best = (len(word), unit, factor)
    return None if best is None else (best[1], best[2])


def _number(token: str) -> tuple[float | None, str]:
    """A number token as a person reads it (see module), or None and why not."""
    token = token.replace("−", "-")
    if "," in token:
        digits = token.lstrip("+-").split("e")[0].split("E")[0]
        if _THOUSANDS.fullmatch(digits.split(".")[0]) and ("." in digits or digits.count(",") > 1):
            token = token.replace(",", "")
        elif _THOUSANDS.fullmatch(digits):
            return None, (
                f"{token!r}: a comma before three digits is a decimal comma or a thousands "
                "separator"
            )
        else:
            token = token.replace(",", ".")
    return float(token), ""


def read_quantity(text: str, unit: str) -> tuple[float | None, str]:
    """The number a final answer gives, in ``unit``, or None and why it cannot be read."""
    wanted = UNITS[unit]
    match = _FIRST_NUMBER.search(text)
    if match is None:
        return None, f"no number in the answer {text!r}"
    if _RANGE_TAIL.match(text, match.end()):
        return None, f"a range, not one number: {text!r}"
    value, why = _number(match.group())
    if value is None:
        return None, why
    named = _unit_after(text[match.end() :].lstrip("-"), list(UNITS.values()))
    if named is None:
        return value, ""
    found, factor = named
    if found.kind != wanted.kind:
        return None, f"answer in {found.name} ({found.kind}), not in {wanted.name}"
    return value * factor, ""


def grade_number(output: str, truth: float, unit: str) -> Grade:
    """MRA of the reply's final answer against ``truth`` (both in ``unit``)."""
    answer = final_answer(output)
    if answer is None:
        return Grade.unread("parser_failure", "no 'Answer: <number>' line")
    value, why = read_quantity(answer, unit)
    if value is None:
        return Grade.unread("parser_failure", why)
    return Grade.read(mra(value, truth), value)


__all__ = [
    "THRESHOLDS",
    "UNITS",
    "Unit",
    "final_answer",
    "grade_number",
    "mra",
    "mra_many",
    "read_quantity",
]
