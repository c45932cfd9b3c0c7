"""From reply scores to the benchmark's numbers: cell means with bootstrap CIs, per-model
gaps across languages and a per-tier breakdown.

A cell is one (model, language, mode). Each metric's cell mean runs over the replies its scope
names (``scoring.metrics``), with a 95% percentile bootstrap CI that resamples scenes
(``spatialbabel.stats.bootstrap_mean``, seeded; ``bootstrap_means`` does a cell's metrics together). A composite (the Reconstruct Score) is the
mean of its parts' cell means; its CI bootstraps the parts' influence values
(``composite_values``), whose mean is exactly that composite and whose resampling varies like
it to first order, so the parts still move together scene by scene.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from scoring.metrics import COMPOSITES, Composite, Metric
from scoring.reply import ReplyScore, registered_metrics
from spatialbabel import LANGUAGES
from spatialbabel.stats import DEFAULT_RESAMPLES, Estimate, bootstrap_means

if TYPE_CHECKING:
    from scoring.gaps import LanguageGap
    from scoring.modes import ModeDifference
    from spatialbabel.files import JsonFields

#: ``language`` of the per-tier cells that pool every language of a model.
ALL_LANGUAGES: Final = "all"

#: Metrics estimated in the (model, language, mode, tier) cells, besides the composites; the
#: pooled (model, mode, tier) cells and the main cells estimate every metric.
LANGUAGE_TIER_METRICS: Final = (
    "parse",
    "f1",
    "class_accuracy",
    "position_fidelity",
    "scale_fidelity",
    "color_accuracy",
)


def composite_values(replies: Sequence[ReplyScore], item: Composite) -> NDArray[np.float64]:
    """Per-reply influence values of a composite: their mean is the composite of the cell means.

    For part p with mean m_p over the n_p replies where it is defined (of n), reply i gets
    ``mean_p(m_p + [defined_pi] * (n / n_p) * (x_pi - m_p))``. A part defined nowhere (no reply
    of the cell parsed) counts 0; a one-part composite (a lone metric, as the paired
    comparisons use) defined nowhere gives NaN.
    """
    return composite_influence(_columns(replies, item.parts))


def _columns(replies: Sequence[ReplyScore], names: Sequence[str]) -> NDArray[np.float64]:
    """Each named metric's values over the replies (one row per name), NaN where undefined."""
    table = np.array([[r.values.get(name) for name in names] for r in replies], dtype=float)
    return np.ascontiguousarray(table.reshape(len(replies), len(names)).T)


def composite_influence(parts: NDArray[np.float64]) -> NDArray[np.float64]:
    """``composite_values`` from a table of the parts' values (one row per part; NaN where
    undefined), for callers that hold values rather than replies. A lone metric (one part)
    defined for no reply has no mean: its values are all NaN."""
    n = parts.shape[1]
    if len(parts) == 1 and np.isnan(parts[0]).all():
        return np.full(n, math.nan)
    result = np.zeros(n)
    for raw in parts:
        defined = ~np.isnan(raw)
        count = int(defined.sum())
        if count == 0:
            continue
        mean = float(raw[defined].mean())
        result += mean
        result[defined] += (n / count) * (raw[defined] - mean)
    return result / len(parts)


@dataclass(frozen=True)
class CellSummary:
    """The estimates of one cell: every metric and composite by name; ``n_truncated`` counts
    its replies cut at the token limit."""

    model: str
    language: str
    mode: str
    tier: int | None
    n: int
    n_parsed: int
    estimates: dict[str, Estimate]
    n_truncated: int = 0

    def mean(self, name: str) -> float:
        return self.estimates[name].mean

    def estimate(self, name: str) -> Estimate | None:
        return self.estimates.get(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "language": self.language,
            "mode": self.mode,
            "tier": self.tier,
            "n": self.n,
            "n_parsed": self.n_parsed,
            "n_truncated": self.n_truncated,
            "estimates": {k: _estimate_dict(v) for k, v in self.estimates.items()},
        }

    @classmethod
    def from_dict(cls, data: object, fields: JsonFields, where: str) -> CellSummary:
        """A cell as ``to_dict`` writes it; errors name the file and ``where`` (``cells[3]``)."""
        d = fields.mapping(data, where)
        return cls(
            fields.text(d, "model", where),
            fields.text(d, "language", where),
            fields.text(d, "mode", where),
            fields.integer(d, "tier", where),
            fields.integer(d, "n", where) or 0,
            fields.integer(d, "n_parsed", where) or 0,
            estimates_from_dict(d, fields, where),
            n_truncated=fields.integer(d, "n_truncated", where) or 0,
        )


def _estimate_dict(estimate: Estimate) -> dict[str, float | int | None]:
    return {
        k: (None if isinstance(v, float) and math.isnan(v) else v)
        for k, v in estimate.to_dict().items()
    }


def estimates_from_dict(
    data: Mapping[str, Any], fields: JsonFields, where: str
) -> dict[str, Estimate]:
    """The ``estimates`` object of a cell or difference, by name (absent: none)."""
    found = fields.mapping(data.get("estimates", {}), f"{where}.estimates")
    return {
        name: Estimate.from_dict(value, fields, f"{where}.estimates.{name}")
        for name, value in found.items()
    }


@dataclass(frozen=True)
class ModelSummary:
    """One model in one mode across languages: the Reconstruct Score per language, its gap
    Δ = max - min over languages, and the best and worst language."""

    model: str
    mode: str
    scores: dict[str, float]
    delta: float
    best: str
    worst: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "scores": {k: None if math.isnan(v) else v for k, v in self.scores.items()},
            "delta": None if math.isnan(self.delta) else self.delta,
            "best_language": self.best,
            "worst_language": self.worst,
        }


@dataclass(frozen=True)
class Aggregate:
    cells: tuple[CellSummary, ...]
    models: tuple[ModelSummary, ...]
    tiers: tuple[CellSummary, ...]
    model_tiers: tuple[CellSummary, ...]
    metrics: tuple[Metric, ...]
    seed: int
    resamples: int
    #: Each mode against ``direct`` per model and language, paired by scene (scoring.modes).
    mode_differences: tuple[ModeDifference, ...] = ()
    #: Per (model, mode) with two languages or more: Δ with its paired CI, significant marks.
    gaps: tuple[LanguageGap, ...] = ()

    @property
    def modes(self) -> list[str]:
        return sorted({c.mode for c in self.cells})

    @property
    def languages(self) -> list[str]:
        return order_languages({c.language for c in self.cells})

    def model_names(self, mode: str) -> list[str]:
        return sorted({c.model for c in self.cells if c.mode == mode})

    def cell(self, model: str, language: str, mode: str) -> CellSummary | None:
        for c in self.cells:
            if (c.model, c.language, c.mode) == (model, language, mode):
                return c
        return None

    def model_summary(self, model: str, mode: str) -> ModelSummary | None:
        for m in self.models:
            if (m.model, m.mode) == (model, mode):
                return m
        return None

    def gap(self, model: str, mode: str) -> LanguageGap | None:
        for g in self.gaps:
            if (g.model, g.mode) == (model, mode):
                return g
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "resamples": self.resamples,
            "metrics": [m.to_dict() for m in self.metrics],
            "composites": [c.to_dict() for c in COMPOSITES],
            "cells": [c.to_dict() for c in self.cells],
            "models": [m.to_dict() for m in self.models],
            "tiers": [c.to_dict() for c in self.tiers],
            "model_tiers": [c.to_dict() for c in self.model_tiers],
            "mode_differences": [d.to_dict() for d in self.mode_differences],
            "language_gaps": [g.to_dict() for g in self.gaps],
        }


def order_languages(languages: Iterable[str]) -> list[str]:
    """The benchmark's language order, then any other in alphabetical order."""
    present = set(languages)
    return [lang for lang in LANGUAGES if lang in present] + sorted(present - set(LANGUAGES))


def summarise(
    replies: Sequence[ReplyScore],
    metrics: Sequence[Metric],
    *,
    seed: int,
    resamples: int,
) -> dict[str, Estimate]:
    """Every metric's and composite's mean and CI over ``replies``, resampling scenes."""
    groups = [r.scene_id for r in replies]
    names = [item.name for item in metrics]
    needed = list(dict.fromkeys([*names, *(part for comp in COMPOSITES for part in comp.parts)]))
    table = _columns(replies, needed)
    row = {name: i for i, name in enumerate(needed)}
    columns = [table[row[name]] for name in names]
    for comp in COMPOSITES:
        columns.append(composite_influence(table[[row[part] for part in comp.parts]]))
        names.append(comp.name)
    found = bootstrap_means(np.array(columns), seed=seed, resamples=resamples, groups=groups)
    return dict(zip(names, found, strict=True))


def _cell(
    key: tuple[str, str, str, int | None],
    replies: list[ReplyScore],
    metrics: Sequence[Metric],
    seed: int,
    resamples: int,
) -> CellSummary:
    model, language, mode, tier = key
    estimates = summarise(replies, metrics, seed=seed, resamples=resamples)
    return CellSummary(
        model,
        language,
        mode,
        tier,
        len(replies),
        sum(r.parsed for r in replies),
        estimates,
        n_truncated=sum(r.truncated for r in replies),
    )


def _tier_key(tier: int | None) -> int:
    return -1 if tier is None else tier


def aggregate(
    replies: Sequence[ReplyScore],
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    extra_metrics: Sequence[Metric] = (),
) -> Aggregate:
    """Cells, per-model gaps and the per-tier breakdown of scored replies.

    The replies are taken in one canonical order (scene, model, language, mode), so that the
    tables are the same bits however the predictions file was ordered: float sums and the
    bootstrap's group sums follow that order."""
    metrics = (*registered_metrics(), *extra_metrics)
    replies = sorted(replies, key=lambda r: (r.scene_id, r.model, r.language, r.mode))
    by_cell: dict[tuple[str, str, str], list[ReplyScore]] = defaultdict(list)
    by_tier: dict[tuple[str, str, str, int | None], list[ReplyScore]] = defaultdict(list)
    by_model_tier: dict[tuple[str, str, str, int | None], list[ReplyScore]] = defaultdict(list)
    for reply in replies:
        by_cell[(reply.model, reply.language, reply.mode)].append(reply)
        by_tier[(reply.model, reply.language, reply.mode, reply.tier)].append(reply)
        by_model_tier[(reply.model, ALL_LANGUAGES, reply.mode, reply.tier)].append(reply)
    rank = {lang: i for i, lang in enumerate(order_languages({k[1] for k in by_cell}))}

    def cell_order(key: tuple[str, str, str, int | None]) -> tuple[str, str, int, int]:
        return (key[2], key[0], rank.get(key[1], -1), _tier_key(key[3]))

    cells = tuple(
        _cell((*key, None), by_cell[key], metrics, seed, resamples)
        for key in sorted(by_cell, key=lambda k: cell_order((*k, None)))
    )
    # Bootstraps cost; the many per-language tier cells get the score and its parts only.
    tier_metrics = [m for m in metrics if m.name in LANGUAGE_TIER_METRICS]
    tiers = tuple(
        _cell(key, by_tier[key], tier_metrics, seed, resamples)
        for key in sorted(by_tier, key=cell_order)
    )
    model_tiers = tuple(
        _cell(key, by_model_tier[key], metrics, seed, resamples)
        for key in sorted(by_model_tier, key=cell_order)
    )
    # scoring.modes and scoring.gaps build on this module's influence values, so they are
    # imported here.
    from scoring.gaps import language_gaps
    from scoring.modes import mode_differences

    differences = mode_differences(replies, metrics, seed=seed, resamples=resamples)
    return Aggregate(
        cells,
        _model_summaries(cells),
        tiers,
        model_tiers,
        tuple(metrics),
        seed,
        resamples,
        mode_differences=differences,
        gaps=language_gaps(replies, seed=seed, resamples=resamples),
    )


def _model_summaries(cells: Sequence[CellSummary]) -> tuple[ModelSummary, ...]:
    grouped: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for c in cells:
        grouped[(c.model, c.mode)][c.language] = c.mean("score")
    summaries = []
    for (model, mode), scores in sorted(grouped.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        ordered = {lang: scores[lang] for lang in order_languages(scores)}
        finite = {k: v for k, v in ordered.items() if not math.isnan(v)}
        if not finite:
            continue
        # max/min keep the first language of the benchmark's order on a tie.
        best = max(finite, key=lambda k: finite[k])
        worst = min(finite, key=lambda k: finite[k])
        # A gap needs two languages; with one it is undefined, not zero.
        delta = finite[best] - finite[worst] if len(finite) > 1 else math.nan
        summaries.append(ModelSummary(model, mode, ordered, delta, best, worst))
    return tuple(summaries)
