"""Reading text answers in each protocol's text contract: the last ``Answer:`` line (or a reply
that is nothing but the answer), in one of six forms: count, option, boolean, point, points,
path. Points are normalised image coordinates, x from the left and y from the top."""

from __future__ import annotations

import re
from typing import Final

import numpy as np
from numpy.typing import NDArray

from suites.choices import read_letters

_ANSWER: Final = re.compile(r"^[\s>*_#`-]*answer\s*[:：]\s*(?P<rest>.*)$", re.IGNORECASE)
_NUMBER: Final = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_PAIR: Final = re.compile(
    rf"\(\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\)|\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]"
)
_BOOLEANS: Final = {"true": "true", "yes": "true", "false": "false", "no": "false"}


class TextUnreadable(ValueError):
    """No answer of the contract's form could be read."""


def answer_text(reply: str) -> str:
    """The text after the last 'Answer:' line, or the whole reply when it is one line."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    for line in reversed(lines):
        match = _ANSWER.match(line)
        if match:
            return match.group("rest").strip().strip("*_`").strip()
    if len(lines) == 1:
        return lines[0].strip("*_`").strip()
    raise TextUnreadable("no 'Answer:' line")


def _pairs(text: str) -> NDArray[np.float64]:
    found = []
    for match in _PAIR.finditer(text):
        x, y = (float(g) for g in match.groups() if g is not None)
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise TextUnreadable(f"point ({x}, {y}) lies outside [0, 1]")
        found.append((x, y))
    return np.array(found, dtype=float).reshape(-1, 2)


def read_text(reply: str, form: str, options: int) -> object:
    """The answer of ``reply`` in ``form``; ``TextUnreadable`` says why not."""
    text = answer_text(reply)
    if form == "count":
        match = re.fullmatch(r"\(?(\d+)\)?\.?(?:\s+\w+)?", text)
        if not match:
            raise TextUnreadable(f"not a whole number: {text!r}")
        return int(match.group(1))
    if form == "option":
        letters = read_letters(f"Answer: {text}", options)
        if letters is None or len(letters) != 1:
            raise TextUnreadable(f"not one of the option letters: {text!r}")
        return next(iter(letters))
    if form == "boolean":
        word = text.lower().strip(".! ")
        if word not in _BOOLEANS:
            raise TextUnreadable(f"not true or false: {text!r}")
        return _BOOLEANS[word]
    points = _pairs(text)
    if form == "point":
        if len(points) != 1:
            raise TextUnreadable(f"expected one point (x, y), found {len(points)}")
        return points[0]
    if form == "points":
        if len(points) == 0:
            raise TextUnreadable("no point (x, y)")
        return points
    if form == "path":
        if len(points) < 2:
            raise TextUnreadable(f"a path needs at least two points, found {len(points)}")
        return points
    raise ValueError(f"unknown text form {form!r}")


__all__ = ["TextUnreadable", "answer_text", "read_text"]
