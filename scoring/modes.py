"""The effect of a prompting mode: per model and language, a mode's score minus the baseline
mode's (``nl_cot`` − ``direct``), paired by scene.

Only scenes answered in both modes count. Each metric's difference is its cell mean in the
mode minus its cell mean in the baseline, both over those scenes and each by the metric's own
rule (a paired-scope metric averages over the replies with a pair). Its 95% CI is the shared
seeded paired bootstrap (``spatialbabel.stats.paired_bootstrap_differences``) of the
per-scene differences of influence values (``scoring.aggregate.composite_values``): one value
per scene and mode whose mean is exactly the cell mean, so the differences' mean is exactly
the difference of the means, and resampling scenes moves both modes of a scene together.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from scoring.aggregate import (
    _estimate_dict,
    composite_values,
    estimates_from_dict,
    order_languages,
)
from scoring.metrics import COMPOSITES, Composite, Metric
from scoring.reply import ReplyScore
from spatialbabel.files import JsonFields
from spatialbabel.stats import Estimate, paired_bootstrap_differences

#: The mode every other mode is compared with.
BASELINE_MODE: Final = "direct"


@dataclass(frozen=True)
class ModeDifference:
    """``mode`` minus ``baseline`` for one model and language, over the ``n_scenes`` scenes
    answered in both; ``estimates`` holds each metric's and composite's difference with its
    CI (``Estimate.n`` is the number of scenes whose difference is defined)."""

    model: str
    language: str
    mode: str
    baseline: str
    n_scenes: int
    estimates: dict[str, Estimate]

    def estimate(self, name: str) -> Estimate | None:
        return self.estimates.get(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "language": self.language,
            "mode": self.mode,
            "baseline": self.baseline,
            "n_scenes": self.n_scenes,
            "estimates": {name: _estimate_dict(e) for name, e in self.estimates.items()},
        }

    @classmethod
    def from_dict(cls, data: object, fields: JsonFields, where: str) -> ModeDifference:
        """A difference as ``to_dict`` writes it; errors name the file and ``where``."""
        d = fields.mapping(data, where)
        return cls(
            fields.text(d, "model", where),
            fields.text(d, "language", where),
            fields.text(d, "mode", where),
            fields.text(d, "baseline", where),
            fields.integer(d, "n_scenes", where) or 0,
            estimates_from_dict(d, fields, where),
        )


def significant(estimate: Estimate) -> bool:
    """Whether the difference's CI leaves out 0."""
    return estimate.n > 1 and (estimate.low > 0.0 or estimate.high < 0.0)


def mode_differences(
    replies: Sequence[ReplyScore],
    metrics: Sequence[Metric],
    *,
    seed: int,
    resamples: int,
    baseline: str = BASELINE_MODE,
) -> tuple[ModeDifference, ...]:
    """Every (model, language, mode) that shares scenes with the same model and language in
    ``baseline``: its difference from the baseline per metric and composite."""
    by_cell: dict[tuple[str, str, str], dict[str, ReplyScore]] = defaultdict(dict)
    for reply in replies:
        # The scorer keeps one reply per (scene, model, language, mode); the first one wins.
        by_cell[(reply.model, reply.language, reply.mode)].setdefault(reply.scene_id, reply)
    items = [
        *(Composite(m.name, m.label, (m.name,), m.description) for m in metrics),
        *COMPOSITES,
    ]
    rank = {lang: i for i, lang in enumerate(order_languages({k[1] for k in by_cell}))}
    found = []
    for model, language, mode in sorted(by_cell, key=lambda k: (k[2], k[0], rank[k[1]])):
        if mode == baseline or (model, language, baseline) not in by_cell:
            continue
        treated, base = by_cell[(model, language, mode)], by_cell[(model, language, baseline)]
        scenes = sorted(set(treated) & set(base))
        if not scenes:
            continue
        before = np.array([composite_values([base[s] for s in scenes], i) for i in items])
        after = np.array([composite_values([treated[s] for s in scenes], i) for i in items])
        estimates = [
            d.difference
            for d in paired_bootstrap_differences(
                before, after, groups=scenes, seed=seed, resamples=resamples
            )
        ]
        found.append(
            ModeDifference(
                model,
                language,
                mode,
                baseline,
                len(scenes),
                {item.name: e for item, e in zip(items, estimates, strict=True)},
            )
        )
    return tuple(found)


__all__ = ["BASELINE_MODE", "ModeDifference", "mode_differences", "significant"]
