"""Per-reply metrics: small pure functions registered with what aggregation needs to know.

Each metric reads a ``ReplyContext`` (the predicted and true scenes, the Hungarian matching and
the scene's extent, computed once) and returns a number, or ``None`` where it is undefined.
Its ``Metric`` record says whether higher is better and over which replies the cell mean runs:
``scope="all"`` over every reply (a failed parse counts with its value, e.g. F1 = 0),
``scope="paired"`` over replies with at least one matched pair (the paper's rule for class
accuracy and the fidelities). The five ``role="component"`` metrics make the Reconstruct Score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from parsers.partial_reading import reads_in_part
from scoring.alignment import AXIS_MAPS
from scoring.boxes import box_iou, iou_upper_bounds
from scoring.facts import SceneFacts, truth_facts, within_limits
from scoring.matching import (
    Matching,
    centre_distances,
    match_admissible,
    match_distances,
    match_distances_within_gate,
    matching_of,
)
from spatialbabel import Registry, Scene
from spatialbabel.frames import Matrix

Scope = Literal["all", "paired"]
Role = Literal["component", "variant", "diagnostic"]
MetricFn = Callable[["ReplyContext"], float | None]
Indices = NDArray[np.intp]

#: The paper's F1 variant gate: a pair counts only if its centres lie within this (scene units).
DEFAULT_GATE: Final = 1.0
#: The IoU variant's threshold on the oriented-box 3D IoU of a pair.
DEFAULT_IOU_THRESHOLD: Final = 0.5


@dataclass(frozen=True)
class ScoreOptions:
    """``failed_as_zero``: a failed parse scores 0 on every higher-is-better metric instead of
    being left out of the paired ones (lower-is-better diagnostics stay undefined: a reply with
    no object has no error to measure)."""

    failed_as_zero: bool = False
    gate: float = DEFAULT_GATE
    iou_threshold: float = DEFAULT_IOU_THRESHOLD

    def __post_init__(self) -> None:
        if not self.gate > 0:
            raise ValueError(f"gate must be positive, got {self.gate}")
        if not 0.0 < self.iou_threshold <= 1.0:
            raise ValueError(f"iou_threshold must lie in (0, 1], got {self.iou_threshold}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "failed_as_zero": self.failed_as_zero,
            "gate": self.gate,
            "iou_threshold": self.iou_threshold,
        }


@dataclass(frozen=True)
class Alignment:
    """The axis map (``scoring.alignment.AXIS_MAPS``) under which the reply scores best, with
    the matching and the components it gives."""

    axis_map: str
    matching: Matching
    class_accuracy: float
    position_fidelity: float
    scale_fidelity: float


class ReplyContext:
    """What every metric of one reply reads; derived facts are computed once, on first use."""

    def __init__(
        self,
        prediction: Scene,
        truth: Scene,
        *,
        parsed: bool,
        options: ScoreOptions,
        diagnostics: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        if not truth.objects:
            raise ValueError(f"true scene {truth.scene_id!r} has no objects to score against")
        self.prediction = within_limits(prediction)
        self.truth = truth
        self.parsed = parsed
        self.options = options
        #: The parse's diagnostics (``Diagnostic.to_dict``); none for a scene built otherwise.
        self.diagnostics = diagnostics
        self.predicted = SceneFacts(self.prediction)
        self.true = truth_facts(truth)

    @cached_property
    def distances(self) -> Matrix:
        """Centre distances (predicted x true), shared by every matching."""
        return centre_distances(self.predicted.positions, self.true.positions)

    @cached_property
    def matching(self) -> Matching:
        return match_distances(self.distances)

    @cached_property
    def pair_indices(self) -> tuple[Indices, Indices]:
        return self.matching.indices()

    @cached_property
    def same_class(self) -> NDArray[np.bool_]:
        """Whether each (predicted, true) pair's classes are synonyms (predicted x true)."""
        mine, theirs = self.predicted.classes[:, None], self.true.classes[None, :]
        # An unrecognised class ("") equals nothing, not even another unrecognised one.
        same = (mine == theirs) & (theirs != "")
        if self.truth.domain == "open":
            # A true NYU40 catch-all is matched by any class the taxonomy files under it.
            within = self.predicted.class_groups[:, None] == theirs
            same |= within & self.true.catch_alls[None, :]
        return np.asarray(same, dtype=bool)

    @cached_property
    def size_errors(self) -> Matrix:
        """Each (predicted, true) pair's RMSE between size vectors."""
        difference = self.predicted.sizes[:, None, :] - self.true.sizes[None, :, :]
        return np.asarray(np.sqrt(np.einsum("ijk,ijk->ij", difference, difference) / 3.0))

    @cached_property
    def alignment(self) -> Alignment | None:
        if not self.matching.pairs:
            return None
        # Every map's moved centres and distances in one array operation each (the distances
        # to the last bit what centre_distances gives map by map).
        moved = np.stack([self.predicted.positions @ m.matrix.T for m in AXIS_MAPS])
        difference = moved[:, :, None, :] - self.true.positions[None, None, :, :]
        distances = np.sqrt(np.einsum("aijk,aijk->aij", difference, difference))
        best: tuple[float, int, Indices, Indices, tuple[float, float, float]] | None = None
        for index, mapping in enumerate(AXIS_MAPS):
            if mapping.name == "identity":
                rows, cols = self.pair_indices
            else:
                rows, cols = linear_sum_assignment(distances[index])
            parts = (
                _class_accuracy(self.same_class, rows, cols),
                _position_fidelity(moved[index], self.true.positions, rows, cols, self.true.extent),
                _scale_fidelity(self.size_errors, rows, cols),
            )
            total = sum(parts)
            # Strictly better only, so ties keep the earlier map (identity first).
            if best is None or total > best[0] + 1e-12:
                best = (total, index, rows, cols, parts)
        assert best is not None
        _, index, rows, cols, parts = best
        mapping = AXIS_MAPS[index]
        if mapping.name == "identity":
            matching = self.matching
        else:
            matching = matching_of(rows, cols, distances[index])
        return Alignment(mapping.name, matching, *parts)

    @cached_property
    def gated_matching(self) -> Matching:
        return match_distances_within_gate(self.distances, self.options.gate)

    @cached_property
    def iou(self) -> Matrix:
        """Oriented-box 3D IoU of each (predicted, true) pair whose cheap bound reaches the
        threshold; 0 for the others (they cannot reach it)."""
        threshold = self.options.iou_threshold
        iou = np.zeros((len(self.predicted), len(self.true)))
        # The exact IoU costs a convex hull; most pairs are ruled out by the cheap bound.
        bounds = iou_upper_bounds(self.predicted.box_bounds, self.true.box_bounds)
        for i, j in zip(*np.nonzero(bounds >= threshold), strict=True):
            iou[i, j] = box_iou(self.predicted.box(i), self.true.box(j))
        return iou

    @cached_property
    def iou_matching(self) -> Matching:
        admissible = self.iou >= self.options.iou_threshold
        return match_admissible(1.0 - self.iou, admissible, self.distances)

    @cached_property
    def class_iou_matching(self) -> Matching:
        """Pairs that agree in class (synonym-aware) and reach the IoU threshold: the paper's
        S3-FT matching."""
        admissible = (self.iou >= self.options.iou_threshold) & self.same_class
        return match_admissible(1.0 - self.iou, admissible, self.distances)


# Component formulas, shared by the raw metrics and the alignment diagnostic.


def _class_accuracy(same_class: NDArray[np.bool_], rows: Indices, cols: Indices) -> float:
    return float(np.count_nonzero(same_class[rows, cols])) / len(rows)


def _position_rmse(predicted: Matrix, true: Matrix, rows: Indices, cols: Indices) -> float:
    difference = predicted[rows] - true[cols]
    return math.sqrt(float(np.einsum("ij,ij->", difference, difference)) / len(rows))


def _position_fidelity(
    predicted: Matrix, true: Matrix, rows: Indices, cols: Indices, extent: float
) -> float:
    d_pos = _position_rmse(predicted, true, rows, cols) / extent
    return max(0.0, 1.0 - min(d_pos, 1.0))


def _scale_fidelity(size_errors: Matrix, rows: Indices, cols: Indices) -> float:
    d_scale = float(size_errors[rows, cols].sum()) / len(rows)
    return max(0.0, 1.0 - min(d_scale, 1.0))


@dataclass(frozen=True)
class Metric:
    """A per-reply metric and how to aggregate it."""

    name: str
    fn: MetricFn
    label: str
    higher_is_better: bool | None
    scope: Scope
    role: Role
    description: str

    @property
    def zero_when_failed(self) -> bool:
        """Whether ``--failed-as-zero`` gives a failed parse 0 here instead of no value."""
        return self.scope == "paired" and self.higher_is_better is True

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "higher_is_better": self.higher_is_better,
            "scope": self.scope,
            "role": self.role,
            "description": self.description,
        }


METRICS: Final[Registry[Metric]] = Registry("metric")
_ORDER: list[str] = []


def metric(
    name: str,
    *,
    label: str,
    higher_is_better: bool | None,
    scope: Scope,
    role: Role,
    description: str,
) -> Callable[[MetricFn], MetricFn]:
    """Register a metric function under ``name`` with its aggregation metadata."""

    def decorate(fn: MetricFn) -> MetricFn:
        METRICS.add(name, Metric(name, fn, label, higher_is_better, scope, role, description))
        _ORDER.append(name)
        return fn

    return decorate


def metric_names(role: Role | None = None) -> list[str]:
    """Registered metrics in registration (display) order, optionally of one role."""
    return [n for n in _ORDER if role is None or METRICS.get(n).role == role]


def _paired(ctx: ReplyContext) -> bool:
    return bool(ctx.matching.pairs)


@metric(
    "parse",
    label="Parse",
    higher_is_better=True,
    scope="all",
    role="component",
    description="1 when the reply yields at least one object, else 0",
)
def parse_rate(ctx: ReplyContext) -> float:
    return 1.0 if ctx.parsed else 0.0


@metric(
    "f1",
    label="F1",
    higher_is_better=True,
    scope="all",
    role="component",
    description="F1 of precision and recall over the Hungarian pairs; 0 for a failed parse",
)
def f1(ctx: ReplyContext) -> float:
    return ctx.matching.f1


@metric(
    "class_accuracy",
    label="Class",
    higher_is_better=True,
    scope="paired",
    role="component",
    description="share of matched pairs whose classes are synonyms (box = cube)",
)
def class_accuracy(ctx: ReplyContext) -> float | None:
    return _class_accuracy(ctx.same_class, *ctx.pair_indices) if _paired(ctx) else None


@metric(
    "position_fidelity",
    label="Position",
    higher_is_better=True,
    scope="paired",
    role="component",
    description="1 - min(d_pos, 1), d_pos = RMSE of matched centre errors / scene extent",
)
def position_fidelity(ctx: ReplyContext) -> float | None:
    if not _paired(ctx):
        return None
    return _position_fidelity(
        ctx.predicted.positions, ctx.true.positions, *ctx.pair_indices, ctx.true.extent
    )


@metric(
    "scale_fidelity",
    label="Scale",
    higher_is_better=True,
    scope="paired",
    role="component",
    description="1 - min(d_scale, 1), d_scale = per-object RMSE of size vectors, averaged over pairs",
)
def scale_fidelity(ctx: ReplyContext) -> float | None:
    return _scale_fidelity(ctx.size_errors, *ctx.pair_indices) if _paired(ctx) else None


@metric(
    "color_accuracy",
    label="Colour",
    higher_is_better=True,
    scope="paired",
    role="variant",
    description="share of matched pairs with the same palette colour",
)
def color_accuracy(ctx: ReplyContext) -> float | None:
    judged = [
        ctx.predicted.colors[p.predicted] == ctx.true.colors[p.true]
        for p in ctx.matching.pairs
        if ctx.true.colors[p.true] is not None
    ]
    return sum(judged) / len(judged) if judged else None


@metric(
    "precision",
    label="Precision",
    higher_is_better=True,
    scope="all",
    role="variant",
    description="pairs / predicted objects (0 for a failed parse)",
)
def precision(ctx: ReplyContext) -> float:
    return ctx.matching.precision


@metric(
    "recall",
    label="Recall",
    higher_is_better=True,
    scope="all",
    role="variant",
    description="pairs / true objects",
)
def recall(ctx: ReplyContext) -> float:
    return ctx.matching.recall


@metric(
    "f1_gated",
    label="F1@gate",
    higher_is_better=True,
    scope="all",
    role="variant",
    description="F1 counting only pairs whose centres lie within the gate (default 1 unit)",
)
def f1_gated(ctx: ReplyContext) -> float:
    return ctx.gated_matching.f1


@metric(
    "f1_iou",
    label="F1@IoU",
    higher_is_better=True,
    scope="all",
    role="variant",
    description="F1 counting only pairs whose oriented boxes have 3D IoU >= 0.5",
)
def f1_iou(ctx: ReplyContext) -> float:
    return ctx.iou_matching.f1


@metric(
    "f1_class_iou",
    label="F1@IoU+class",
    higher_is_better=True,
    scope="all",
    role="variant",
    description="F1 counting only pairs of the same class (synonym-aware) whose oriented boxes "
    "have 3D IoU >= 0.5: the paper's class-matched F1 at IoU 0.5 (S3-FT)",
)
def f1_class_iou(ctx: ReplyContext) -> float:
    return ctx.class_iou_matching.f1


@metric(
    "count_error",
    label="|ΔN|",
    higher_is_better=False,
    scope="all",
    role="diagnostic",
    description="absolute difference between the predicted and true object counts",
)
def count_error(ctx: ReplyContext) -> float:
    return float(abs(len(ctx.prediction.objects) - len(ctx.truth.objects)))


@metric(
    "count_bias",
    label="ΔN",
    higher_is_better=None,
    scope="all",
    role="diagnostic",
    description="predicted minus true object count (negative: objects missed)",
)
def count_bias(ctx: ReplyContext) -> float:
    return float(len(ctx.prediction.objects) - len(ctx.truth.objects))


@metric(
    "position_rmse",
    label="Pos RMSE",
    higher_is_better=False,
    scope="paired",
    role="diagnostic",
    description="RMSE of matched centre errors in scene units (before dividing by the extent)",
)
def position_rmse(ctx: ReplyContext) -> float | None:
    if not _paired(ctx):
        return None
    return _position_rmse(ctx.predicted.positions, ctx.true.positions, *ctx.pair_indices)


@metric(
    "world_extent_error",
    label="Extent err",
    higher_is_better=False,
    scope="paired",
    role="diagnostic",
    description="per-pair RMSE between the exact world AABB extents, averaged over pairs: sees a "
    "wrong orientation that the local size vector cannot",
)
def world_extent_error(ctx: ReplyContext) -> float | None:
    if not _paired(ctx):
        return None
    rows, cols = ctx.pair_indices
    difference = ctx.predicted.world_extents[rows] - ctx.true.world_extents[cols]
    errors = np.sqrt(np.mean(difference**2, axis=1))
    return float(np.mean(errors))


@metric(
    "partial_reading",
    label="Read in part",
    higher_is_better=False,
    scope="all",
    role="diagnostic",
    description="1 when the parse warns that it skipped a construct or could not follow a value "
    "that may change an object (parsers.partial_reading), else 0: the cell mean is the share of "
    "replies whose score rests on a partial reading",
)
def partial_reading(ctx: ReplyContext) -> float:
    return 1.0 if reads_in_part(ctx.diagnostics) else 0.0


@metric(
    "aligned_class_accuracy",
    label="Class*",
    higher_is_better=True,
    scope="paired",
    role="diagnostic",
    description="class accuracy after the best global axis swap/flip",
)
def aligned_class_accuracy(ctx: ReplyContext) -> float | None:
    return None if ctx.alignment is None else ctx.alignment.class_accuracy


@metric(
    "aligned_position_fidelity",
    label="Position*",
    higher_is_better=True,
    scope="paired",
    role="diagnostic",
    description="position fidelity after the best global axis swap/flip",
)
def aligned_position_fidelity(ctx: ReplyContext) -> float | None:
    return None if ctx.alignment is None else ctx.alignment.position_fidelity


@metric(
    "aligned_scale_fidelity",
    label="Scale*",
    higher_is_better=True,
    scope="paired",
    role="diagnostic",
    description="scale fidelity after the best global axis swap/flip",
)
def aligned_scale_fidelity(ctx: ReplyContext) -> float | None:
    return None if ctx.alignment is None else ctx.alignment.scale_fidelity


@dataclass(frozen=True)
class Composite:
    """A score that is the mean of several metrics' cell means (not of per-reply values: the
    parts may average over different replies)."""

    name: str
    label: str
    parts: tuple[str, ...]
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "parts": list(self.parts),
            "description": self.description,
        }


COMPOSITES: Final[tuple[Composite, ...]] = (
    Composite(
        "score",
        "Reconstruct Score",
        tuple(metric_names("component")),
        "mean of parse, F1, class accuracy, position fidelity and scale fidelity",
    ),
    Composite(
        "aligned_score",
        "Score*",
        (
            "parse",
            "f1",
            "aligned_class_accuracy",
            "aligned_position_fidelity",
            "aligned_scale_fidelity",
        ),
        "the Reconstruct Score after the best global axis swap/flip of each reply",
    ),
)


def composite(name: str) -> Composite:
    for item in COMPOSITES:
        if item.name == name:
            return item
    raise KeyError(f"unknown composite {name!r}; known: {', '.join(c.name for c in COMPOSITES)}")
