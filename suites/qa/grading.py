"""Grading a reply to a spatial question: one verdict, by the same rules for every mode.

Per category (the reading rules are in ``suites.qa.reading``):
- counting: the integer after a marker, else the last integer; correct when equal.
- existence: yes/no after a marker, else the last yes/no word.
- localization: the first three numbers of the committed segment; correct when the Euclidean
  distance to the true centre is at most the tolerance (the question's, unless overridden).
- relationship: which of the two relations the committed segment names (with synonyms:
  "closer" for in front, "beneath" for below...). A negated mention ("not left") does not
  count; both named is a hedge. When the reply makes the reference object the subject ("the
  blue sphere is to the right of the red cube") the relation is turned round.
- comparison: which of the two objects the segment names, by the words that tell them apart
  (colour, shape, with synonyms), or as "the first"/"the former", "the second"/"the latter".
  "A is larger than B" names A; an inverse comparative turns
  it round ("B is smaller than A"); both named with no comparative is a hedge.
Within the committed segment the first clause is read first (up to a sentence end, a
parenthesis or "because"), the whole segment only when the clause names no option.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from spatialbabel.classes import canonical_class
from spatialbabel.colors import color_from_name
from spatialbabel.geometry.relations import OPPOSITE, Relation
from spatialbabel.palette import nearest_palette_name, palette_distance
from spatialbabel.qa import ObjectMention, Question
from suites.qa.reading import (
    Reading,
    answer_text,
    committed_windows,
    read_integer,
    read_vector,
    read_yes_no,
)

Status = Literal["correct", "wrong", "no_answer", "hedged"]

#: Words naming each relation in a reply.
RELATION_WORDS: Final[dict[Relation, str]] = {
    "left": r"\bleft(?:most)?\b",
    "right": r"\bright(?:most)?\b",
    "in front": r"\bin\s+front\b|\bfront\b|\bcloser\b|\bnearer\b|\bforeground\b",
    "behind": r"\bbehind\b|\bin\s+back\b|\bback\b|\bfarther\b|\bfurther\b|\bbackground\b",
    "above": r"\babove\b|\bon\s+top\b|\batop\b|\bover\b|\bhigher\b",
    "below": r"\bbelow\b|\bbeneath\b|\bunder(?:neath)?\b|\blower\b",
}

#: Comparatives that name the winner (+1) or the loser (-1) of each comparison.
COMPARATIVES: Final[dict[str, tuple[str, str]]] = {
    "larger": (
        r"\b(?:larger|largest|bigger|biggest|greater|bulkier|more\s+volume|more\s+voluminous)\b",
        r"\b(?:smaller|smallest|tinier|tiniest|less\s+volume)\b",
    ),
    "taller": (r"\b(?:taller|tallest|higher|highest)\b", r"\b(?:shorter|shortest|lower|lowest)\b"),
    "closer": (
        r"\b(?:closer|closest|nearer|nearest|in\s+front)\b",
        r"\b(?:farther|farthest|further|furthest|behind)\b",
    ),
}

#: A colour word names a palette colour when it lies this close to it in CIELAB.
COLOR_WORD_DISTANCE: Final = 30.0

#: Words naming a comparison's options by their place in the question.
ORDINALS: Final[tuple[str, str]] = (r"\b(?:first|former)\b", r"\b(?:second|latter)\b")

_NEGATION = re.compile(r"(?:\b(?:not|never|no)|n't)\s+(?:[\w']+\s+){0,2}$", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r"(?<!\d)[.!?;](?!\d)|\n|\(|\b(?:because|since|whereas|while|given\s+that|due\s+to)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Verdict:
    """The grade of one reply: whether it is right, what was read, from where."""

    correct: bool
    status: Status
    answer: Any
    source: str
    error: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "correct": self.correct,
            "status": self.status,
            "answer": self.answer,
            "source": self.source,
        }
        if self.error is not None:
            data["error"] = self.error
        return data


def _mentions(pattern: str, text: str) -> list[int]:
    """Start positions of non-negated matches."""
    return [
        m.start()
        for m in re.finditer(pattern, text, re.IGNORECASE)
        if not _NEGATION.search(text[: m.start()])
    ]


def _color_of(word: str) -> str | None:
    rgb = color_from_name(word)
    if rgb is None or palette_distance(rgb) > COLOR_WORD_DISTANCE:
        return None
    return nearest_palette_name(rgb)


def object_mentions(objects: Sequence[ObjectMention], text: str) -> list[int | None]:
    """For each object, where the text first names it (None if it does not) by the words that
    tell it apart from the others: its colour where colours differ, its shape where shapes do.
    Negated names ("not the blue sphere") do not count."""
    colors_differ = len({o.color for o in objects}) > 1
    shapes_differ = len({o.shape for o in objects}) > 1
    words = list(_WORD.finditer(text))
    first: list[int | None] = [None] * len(objects)
    for i, word in enumerate(words):
        if _NEGATION.search(text[: word.start()]):
            continue
        color = _color_of(word.group(0)) if colors_differ else None
        shapes = {canonical_class(word.group(0))}
        if i + 1 < len(words):
            shapes.add(canonical_class(word.group(0) + words[i + 1].group(0)))
        for k, obj in enumerate(objects):
            named = (color is not None and color == obj.color) or (
                shapes_differ and obj.shape in shapes
            )
            if named and first[k] is None:
                first[k] = word.start()
    return first


def _windows(text: str) -> list[str]:
    result: list[str] = []
    for window in committed_windows(text):
        head = _CLAUSE_END.split(window, maxsplit=1)[0]
        result += [head, window]
    return result


def _read_relation(question: Question, text: str) -> Reading:
    options: list[Relation] = [c for c in question.choices if c in RELATION_WORDS]
    if len(options) != 2:
        raise ValueError(
            f"{question.question_id}: relationship choices {question.choices!r} are not relations"
        )
    windows = _windows(text)
    for window in windows:
        found = {option: _mentions(RELATION_WORDS[option], window) for option in options}
        named = [option for option in options if found[option]]
        if not named:
            continue
        if len(named) == 2:
            return Reading(None, True, window)
        relation = named[0]
        position = found[relation][0]
        if len(question.objects) == 2:
            target, anchor = object_mentions(question.objects, window)
            # "The blue sphere is to the right of the red cube": the reference object is the
            # subject, so the relation is the target's seen the other way round.
            if anchor is not None and anchor < position and (target is None or target > position):
                relation = OPPOSITE[relation]
        return Reading(relation, False, window)
    return Reading(None, False, windows[-1] if windows else "")


def _read_choice(question: Question, text: str) -> Reading:
    if len(question.objects) != 2:
        raise ValueError(f"{question.question_id}: a comparison needs its two objects")
    positive, negative = COMPARATIVES[question.kind]
    windows = _windows(text)
    for window in windows:
        mentions = object_mentions(question.objects, window)
        if all(m is None for m in mentions):
            ordinal = [found[0] if (found := _mentions(p, window)) else None for p in ORDINALS]
            mentions = ordinal
        named = [(position, k) for k, position in enumerate(mentions) if position is not None]
        if not named:
            continue
        subject = min(named)[1]
        polarity = None
        words = [(m.start(), +1) for m in re.finditer(positive, window, re.IGNORECASE)]
        words += [(m.start(), -1) for m in re.finditer(negative, window, re.IGNORECASE)]
        if words:
            polarity = min(words)[1]
        if len(named) == 2 and polarity is None:
            return Reading(None, True, window)
        chosen = subject if polarity != -1 else 1 - subject
        return Reading(question.choices[chosen], False, window)
    return Reading(None, False, windows[-1] if windows else "")


def read_answer(question: Question, reply: str) -> Reading:
    """What the reply answers to ``question``, by the category's rule."""
    text = answer_text(reply)
    if question.category == "counting":
        return read_integer(text)
    if question.category == "existence":
        return read_yes_no(text)
    if question.category == "localization":
        return read_vector(text)
    if question.category == "relationship":
        return _read_relation(question, text)
    return _read_choice(question, text)


def localization_error(answer: Sequence[float], truth: Sequence[float]) -> float:
    return math.dist([float(v) for v in answer], [float(v) for v in truth])


def answers_agree(
    question: Question, value: Any, *, tolerance: float | None = None
) -> tuple[bool, float | None]:
    """Whether ``value`` is the question's answer (localization: within the tolerance), and
    for localization the distance."""
    if question.category == "localization":
        limit = tolerance if tolerance is not None else question.tolerance
        assert limit is not None
        error = localization_error(value, question.answer)
        return error <= limit, error
    return bool(value == question.answer), None


def grade(question: Question, reply: str, *, tolerance: float | None = None) -> Verdict:
    """The verdict on ``reply``; ``tolerance`` overrides a localization question's own."""
    reading = read_answer(question, reply)
    if reading.hedged:
        return Verdict(False, "hedged", reading.value, reading.source)
    if reading.value is None:
        return Verdict(False, "no_answer", None, reading.source)
    correct, error = answers_agree(question, reading.value, tolerance=tolerance)
    return Verdict(correct, "correct" if correct else "wrong", reading.value, reading.source, error)


__all__ = [
    "COMPARATIVES",
    "RELATION_WORDS",
    "Verdict",
    "answers_agree",
    "grade",
    "object_mentions",
    "read_answer",
]
