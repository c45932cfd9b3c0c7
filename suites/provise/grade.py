"""Grading one ProVisE reply: a drawn image run through its task's protocol, or a text answer
read in the protocol's text contract, then scored by the protocol's metric.

Failure attribution follows the paper's precedence: a missing drawn image file is a generation
failure; a reply that breaks the contract (no image where one is asked, no mark, a tie, the
invalid-output rules) is noncompliance; an image that cannot be decoded, or evidence that
cannot be turned into an answer, is a parser failure; else the answer is scored. The drawn
image is cut of letterbox bars, resized to the source's size (paper §1) and, when it is an edit
of the input, registered to the input before parsing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from suites.base import Grade, Item, Reply
from suites.grading import BASELINE_VARIANT
from suites.provise.geometry import resample_path
from suites.provise.metrics import (
    discrete_frechet,
    exact_match,
    mask_precision,
    normalised,
    path_crossing,
    point_in_mask,
    points_precision,
)
from suites.provise.ops import Context, Noncompliance, ParserFailure, run_step
from suites.provise.protocols import Protocol, protocol
from suites.provise.text import TextUnreadable, read_text

#: The variant whose replies are drawn images; the other answers in text.
VISUAL = "visual"


@dataclass(frozen=True)
class Outcome:
    """What a protocol read from a drawing: the result, or why there is none."""

    value: Any = None
    status: str = "read"
    reason: str = ""


def check_invalid(rule: Mapping[str, Any], value: Any) -> None:
    from suites.provise import pixels

    check, limit = rule["check"], rule["value"]
    if check == "min_value":
        bad = float(value) < limit
    elif check == "max_value":
        bad = float(value) > limit
    elif check == "min_pixels":
        bad = int(np.count_nonzero(value)) < limit
    elif check == "max_fraction":
        bad = float(np.count_nonzero(value)) / value.size > limit
    else:
        bad = pixels.midtone_fraction(value, 40, 215) > limit
    if bad:
        raise Noncompliance(rule["reason"])


def run_protocol(rules: Protocol, drawn: Any, source: Any, truth: Any, context: Context) -> Outcome:
    """Run a protocol's parser on a drawn image (already at the source's size)."""
    values: dict[str, Any] = {"drawn": drawn, "source": source, "truth": truth}
    by_name: dict[str, list[Mapping[str, Any]]] = {}
    for rule in rules.invalid:
        by_name.setdefault(rule["of"], []).append(rule)
    try:
        for rule in by_name.get("drawn", ()):
            check_invalid(rule, drawn)
        for step in rules.steps:
            values[step["out"]] = run_step(step, values, context)
            for rule in by_name.get(step["out"], ()):
                check_invalid(rule, values[step["out"]])
    except Noncompliance as error:
        return Outcome(status="noncompliance", reason=str(error))
    except ParserFailure as error:
        return Outcome(status="parser_failure", reason=str(error))
    except Exception as error:  # a kernel's failure on strange input is the parser's
        return Outcome(status="parser_failure", reason=f"{type(error).__name__}: {error}")
    return Outcome(values[rules.result])


@lru_cache(maxsize=64)
def _source(path: Path) -> Any:
    from suites.provise import pixels

    return pixels.read_image(path)


@lru_cache(maxsize=64)
def _labels(path: Path) -> Any:
    from suites.provise import pixels

    return pixels.read_labels(path)


def item_context(item: Item, width: int, height: int) -> Context:
    points = {
        name: (float(x) * width, float(y) * height)
        for name, (x, y) in item.facts.get("points", {}).items()
    }
    letters = tuple("ABCDEFGH"[: len(item.options)])
    return Context(points, letters)


def _score(
    rules: Protocol, item: Item, value: Any, truth: Any, size: tuple[int, int], *, text: bool
) -> Grade:
    """Score a read answer; ``text`` answers carry normalised coordinates."""
    width, height = size
    scale = np.array([width, height], float)
    if rules.metric == "exact_match":
        parsed = value if isinstance(value, str) else int(value)
        return Grade.read(exact_match(parsed, item.answer), parsed)
    region = truth == 1
    if rules.metric == "point_in_mask":
        point = np.asarray(value, float) * (scale if text else 1.0)
        where = [round(float(v), 4) for v in point / scale]
        return Grade.read(point_in_mask((float(point[0]), float(point[1])), region), where)
    if rules.metric == "mask_precision":
        if text:
            points = np.asarray(value, float) * scale
            precision = points_precision(points, region)
            return Grade.read(precision, {"points": len(points), "precision": round(precision, 6)})
        precision = mask_precision(value, region)
        return Grade.read(
            precision, {"pixels": int(np.count_nonzero(value)), "precision": round(precision, 6)}
        )
    path = np.asarray(value, float) if text else normalised(value, width, height)
    reference = np.asarray(item.answer, float)
    distance = discrete_frechet(resample_path(path, len(reference)), reference)
    threshold = rules.threshold if rules.threshold is not None else 0.0
    trace: dict[str, Any] = {
        "dfd": round(distance, 6),
        "path": [[round(float(c), 4) for c in p] for p in resample_path(path, len(reference))],
    }
    success = distance < threshold
    if rules.metric == "path_success":
        ends = item.facts["points"]
        gaps = [
            float(np.hypot(*(path[0] - np.asarray(ends["S"], float)))),
            float(np.hypot(*(path[-1] - np.asarray(ends["G"], float)))),
        ]
        crossing = path_crossing(path * scale, _obstacles(truth, rules, width))
        trace.update(start_gap=round(gaps[0], 4), end_gap=round(gaps[1], 4), over_objects=crossing)
        success = success and max(gaps) <= rules.metric_params["end_radius"] and crossing == 0
    return Grade.read(1.0 if success else 0.0, trace)


def _obstacles(truth: Any, rules: Protocol, width: int) -> Any:
    """The objects' pixels a path may not run over: every object, shrunk by the protocol's
    clearance (pixels at 512 wide), so a path that grazes an outline is not taken as crossing."""
    from suites.provise import pixels

    shrink = round(rules.metric_params["clearance"] * width / 512.0)
    objects = truth > 0
    return pixels.morph(objects, "erode", 2 * shrink + 1) if shrink else objects


def grade_reply(folder: Path, item: Item, reply: Reply) -> Grade:
    """One reply's grade (never raises on a bad reply)."""
    return _grade(folder, protocol(item.task), item, reply)


def _truth(folder: Path, item: Item) -> Any:
    name = item.facts.get("truth")
    return None if name is None else _labels(folder / name)


def _grade(folder: Path, rules: Protocol, item: Item, reply: Reply) -> Grade:
    from suites.provise import pixels

    source = _source(folder / item.inputs[0])
    height, width = source.shape[:2]
    truth = _truth(folder, item)
    # References (baselines, shortcuts) come without a variant; those with an image drew it.
    visual = reply.variant == VISUAL or (
        reply.variant == BASELINE_VARIANT and reply.image is not None
    )
    if not visual:
        try:
            value = read_text(reply.output, rules.text_form, len(item.options))
        except TextUnreadable as error:
            return Grade.unread("parser_failure", str(error))
        return _score(rules, item, value, truth, (width, height), text=True)
    if reply.image is None:
        return Grade.unread("noncompliance", "no drawn image: the visual protocol asks for one")
    if not reply.image.is_file():
        return Grade.unread("generation_failure", f"the drawn image {reply.image} is missing")
    try:
        drawn = pixels.read_image(reply.image)
    except pixels.ImageUnreadable as error:
        return Grade.unread("parser_failure", str(error))
    return grade_drawing(rules, item, drawn, source, truth)


def grade_drawing(rules: Protocol, item: Item, drawn: Any, source: Any, truth: Any) -> Grade:
    """Grade a decoded drawing against its item (the kernel the benchmark times). The drawing
    is first brought onto the source's pixel grid (``pixels.register``, as the protocol's
    ``registration`` says), and a read grade records the transform found."""
    from suites.provise import pixels

    height, width = source.shape[:2]
    drawn, registration = pixels.register(drawn, source, edit=rules.registration == "ecc")
    outcome = run_protocol(rules, drawn, source, truth, item_context(item, width, height))
    if outcome.status != "read":
        if outcome.status == "noncompliance":
            return Grade.unread("noncompliance", outcome.reason)
        return Grade.unread("parser_failure", outcome.reason)
    grade = _score(rules, item, outcome.value, truth, (width, height), text=False)
    parsed = {"answer": grade.parsed, "registration": registration.to_dict()}
    return Grade(grade.score, grade.status, parsed, grade.reason)


__all__ = ["VISUAL", "Outcome", "grade_drawing", "grade_reply", "run_protocol"]
