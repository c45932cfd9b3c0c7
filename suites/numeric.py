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
(``150 cm`` for metres reads 1.5), else in the requested unit. A range (``3-4 m``), no number,
or a unit of another kind (``3 m/s`` for metres) cannot be read: a parser failure, scoring 0.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from suites.base import Grade
from suites.choices import ANSWER_LINE

#: The MRA confidence thresholds c; an answer hits c when its relative error is at most 1 - c.
THRESHOLDS: Final = tuple(round(0.50 + 0.05 * k, 2) for k in range(10))
_SLACK: Final = 1e-9

_NUMBER: Final = r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_FIRST_NUMBER: Final = re.compile(_NUMBER)
_RANGE: Final = re.compile(rf"{_NUMBER}\s*(?:-|–|—|to)\s*{_NUMBER}")


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
)
_SPEED: Final = (
    ("metres per second", 1.0),
    ("meters per second", 1.0),
    ("kilometres per hour", 1 / 3.6),
    ("kilometers per hour", 1 / 3.6),
    ("km/h", 1 / 3.6),
    ("kph", 1 / 3.6),
    ("cm/s", 0.01),
    ("m/s", 1.0),
    ("mps", 1.0),
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
UNITS: Final = {
    "m": Unit("m", "length", _LENGTH),
    "m/s": Unit("m/s", "speed", _SPEED),
    "deg": Unit("deg", "angle", _ANGLE),
}


def mra(predicted: float, truth: float) -> float:
    """Mean relative accuracy of one answer over ``THRESHOLDS``."""
    if not math.isfinite(predicted):
        return 0.0
    error = abs(predicted - truth)
    scale = abs(truth)
    hits = sum(error <= (1.0 - c) * scale + _SLACK * scale for c in THRESHOLDS)
    return hits / len(THRESHOLDS)


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


def read_quantity(text: str, unit: str) -> tuple[float | None, str]:
    """The number a final answer gives, in ``unit``, or None and why it cannot be read."""
    wanted = UNITS[unit]
    if _RANGE.search(text):
        return None, f"a range, not one number: {text!r}"
    match = _FIRST_NUMBER.search(text)
    if match is None:
        return None, f"no number in the answer {text!r}"
    value = float(match.group().replace("−", "-"))
    named = _unit_after(text[match.end() :], list(UNITS.values()))
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


__all__ = ["THRESHOLDS", "UNITS", "Unit", "final_answer", "grade_number", "mra", "read_quantity"]
