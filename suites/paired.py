"""Paired per-item comparisons of two variants of one model (CoT against direct, with against
without extra evidence), the same for every suite.

Two variants answered by one model grade the same items, so their difference is read item by
item, on the items both were asked (``Suite.asks``): McNemar's exact test on the discordant
items (the one variant right and the other not; ``scipy.stats.binomtest`` with p = 1/2,
two-sided) and a paired bootstrap CI of the accuracy difference (``variant - baseline``) that
draws whole scenes, as the suite's own CIs do, the same draw for both variants. Overall, the
difference is the suite's aggregation (the macro mean over tasks by default) of the per-item
differences, which equals the difference of the two aggregated accuracies over those items.
"Right" for McNemar is a score of 1; a suite's partial scores count in the bootstrap only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.stats import Estimate, bootstrap_macro_mean, paired_bootstrap_difference
from suites.base import Item, Suite

#: The scope of a comparison over all its paired items.
OVERALL: Final = "overall"


#: What a comparison reads of one graded reply: the item, the model, the variant, the score.
Scored = tuple[Item, str, str, float]


@dataclass(frozen=True)
class McNemar:
    """The discordant items of a pair and the exact two-sided p-value of their split."""

    variant_only: int
    baseline_only: int
    p_value: float

    @property
    def discordant(self) -> int:
        return self.variant_only + self.baseline_only


def mcnemar_exact(variant_right: Sequence[bool], baseline_right: Sequence[bool]) -> McNemar:
    """McNemar's exact test of paired right/wrong outcomes: under no difference each discordant
    item is equally likely to favour either side, so the count favouring the variant is
    Binomial(discordant, 1/2). No discordant item gives p = 1."""
    from scipy.stats import binomtest

    if len(variant_right) != len(baseline_right):
        raise ValueError(f"{len(variant_right)} and {len(baseline_right)} outcomes do not pair")
    b = sum(1 for v, w in zip(variant_right, baseline_right, strict=True) if v and not w)
    c = sum(1 for v, w in zip(variant_right, baseline_right, strict=True) if w and not v)
    p = 1.0 if b + c == 0 else float(binomtest(b, b + c, 0.5, alternative="two-sided").pvalue)
    return McNemar(b, c, p)


@dataclass(frozen=True)
class Comparison:
    """One model's ``variant`` against its ``baseline`` variant over one scope (a task, or
    ``overall``): both accuracies on the paired items, the difference with its paired CI, and
    McNemar's test."""

    model: str
    variant: str
    baseline: str
    scope: str
    accuracy: float
    baseline_accuracy: float
    difference: Estimate
    mcnemar: McNemar

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "variant": self.variant,
            "baseline": self.baseline,
            "scope": self.scope,
            "n": self.difference.n,
            "accuracy": self.accuracy,
            "baseline_accuracy": self.baseline_accuracy,
            "difference": self.difference.to_dict(),
            "variant_only": self.mcnemar.variant_only,
            "baseline_only": self.mcnemar.baseline_only,
            "p_value": self.mcnemar.p_value,
        }


def _mean(values: NDArray[np.float64], tasks: Sequence[str], macro: bool) -> float:
    if not macro:
        return float(values.mean())
    per_task: dict[str, list[float]] = defaultdict(list)
    for value, task in zip(values, tasks, strict=True):
        per_task[task].append(float(value))
    return float(np.mean([np.mean(v) for v in per_task.values()]))


def _compare(
    suite: Suite,
    model: str,
    pair: tuple[str, str],
    scope: str,
    rows: Sequence[tuple[Item, float, float]],
) -> Comparison:
    rule = suite.aggregation
    new = np.array([r[1] for r in rows])
    base = np.array([r[2] for r in rows])
    scenes = [r[0].scene_id for r in rows] if rule.resample == "scenes" else None
    tasks = [r[0].task for r in rows]
    if scope == OVERALL:
        macro = rule.overall == "macro"
        difference = bootstrap_macro_mean(
            new - base, tasks, groups=scenes, macro=macro, seed=rule.seed, resamples=rule.resamples
        )
        accuracy, baseline_accuracy = _mean(new, tasks, macro), _mean(base, tasks, macro)
    else:
        paired = paired_bootstrap_difference(
            base, new, groups=scenes, seed=rule.seed, resamples=rule.resamples
        )
        difference, accuracy, baseline_accuracy = paired.difference, paired.new, paired.base
    test = mcnemar_exact(list(new == 1.0), list(base == 1.0))
    return Comparison(model, pair[0], pair[1], scope, accuracy, baseline_accuracy, difference, test)


def compare(suite: Suite, graded: Sequence[Scored]) -> list[Comparison]:
    """Every comparison the suite asks for (``Suite.comparisons``) of every model that answered
    both variants: over all paired items, then per task in the suite's order."""
    scores: dict[tuple[str, str], dict[str, tuple[Item, float]]] = defaultdict(dict)
    for item, model, variant, score in graded:
        scores[(model, variant)][item.item_id] = (item, score)
    found: list[Comparison] = []
    for model in sorted({model for model, _ in scores}):
        answered = [variant for m, variant in scores if m == model]
        for pair in suite.comparisons(answered):
            new, base = scores[(model, pair[0])], scores[(model, pair[1])]
            rows = [
                (item, score, base[key][1]) for key, (item, score) in new.items() if key in base
            ]
            if not rows:
                continue
            found.append(_compare(suite, model, pair, OVERALL, rows))
            per_task: Mapping[str, list[tuple[Item, float, float]]] = defaultdict(list)
            for row in rows:
                per_task[row[0].task].append(row)
            found += [
                _compare(suite, model, pair, task, per_task[task])
                for task in suite.tasks
                if task in per_task
            ]
    return found


def markdown_comparisons(comparisons: Sequence[Comparison]) -> str:
    """The comparisons as a table, scores in percent."""
    header = (
        "| model | variant | baseline | scope | n | variant % | baseline % | difference [95% CI] "
        "| discordant (variant, baseline) | McNemar p |\n|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = [
        f"| {c.model} | {c.variant} | {c.baseline} | {c.scope} | {c.difference.n} | "
        f"{100 * c.accuracy:.1f} | {100 * c.baseline_accuracy:.1f} | "
        f"{100 * c.difference.mean:+.1f} [{100 * c.difference.low:+.1f}, "
        f"{100 * c.difference.high:+.1f}] | {c.mcnemar.variant_only}, {c.mcnemar.baseline_only} "
        f"| {c.mcnemar.p_value:.3g} |\n"
        for c in comparisons
    ]
    return header + "".join(lines)


__all__ = [
    "OVERALL",
    "Comparison",
    "McNemar",
    "Scored",
    "compare",
    "markdown_comparisons",
    "mcnemar_exact",
]
