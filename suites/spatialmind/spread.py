"""Numeric items spread so that no typical answer beats a guess drawn from the answers.

A numeric task's constant answers (the median answer, the typical rate times the printed span;
``suites.spatialmind.shortcuts``) are properties of the whole set of items, so no single
candidate can be judged alone. After the balanced pick (``suites.spatialmind.build.balance``),
``spread`` swaps picked items for other candidates of the same clip (another interval, target
or future frame) while one of those shortcuts, or persistence where it is one, scores above
the exact mean of the chance guess on the set (another item's answer, every pair of distinct
items of the task and unit), taking each round the swap that lowers the excess most.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from suites.numeric import mra_many
from suites.spatialmind.tasks import PERSISTENCE_TASKS, RATE_TASKS, Candidate, serialize

Array = NDArray[np.float64]

#: Rounds over the picked items, and alternatives tried for each (seeded).
ROUNDS: Final = 8
TRIES: Final = 24


def written(values: Array, unit: str) -> Array:
    """Numbers as a reply writes them (``serialize``), read back."""
    return np.array([float(serialize(float(v), unit)) for v in values])


def median_guesses(values: Array, unit: str) -> Array:
    """The median answer, as written, for every item of one task and unit."""
    return np.full(len(values), float(serialize(float(np.median(values)), unit)))


def typical_guesses(values: Array, scales: Array, unit: str) -> Array:
    """The median rate (answer over scale) times each item's scale, as written."""
    return written(float(np.median(values / scales)) * scales, unit)


def pair_chance(values: Array, unit: str) -> float:
    """The mean MRA of another item's written answer, over every pair of distinct items."""
    if len(values) < 2:
        return 0.0
    pairs = mra_many(written(values, unit)[None, :], values[:, None])
    return float((pairs.sum() - np.trace(pairs)) / (len(values) * (len(values) - 1)))


@dataclass(frozen=True)
class _Facts:
    value: float
    unit: str
    scale: float
    persistence: float


def _facts(candidate: Candidate) -> _Facts:
    assert candidate.value is not None and candidate.unit is not None
    scores = candidate.shortcut_scores()
    return _Facts(
        candidate.value,
        candidate.unit,
        candidate.value / candidate.rate,
        scores.get("persistence", 0.0),
    )


def _means(task: str, chosen: Sequence[_Facts]) -> tuple[dict[str, float], float]:
    """The set's shortcut means and its chance (pooled over units by item count)."""
    totals: dict[str, float] = {"median": 0.0}
    if task in RATE_TASKS:
        totals["typical_rate"] = 0.0
    if task in PERSISTENCE_TASKS:
        totals["persistence"] = sum(f.persistence for f in chosen)
    chance = 0.0
    for unit in sorted({f.unit for f in chosen}):
        group = [f for f in chosen if f.unit == unit]
        values = np.array([f.value for f in group])
        totals["median"] += float(mra_many(median_guesses(values, unit), values).sum())
        if "typical_rate" in totals:
            scales = np.array([f.scale for f in group])
            guesses = typical_guesses(values, scales, unit)
            totals["typical_rate"] += float(mra_many(guesses, values).sum())
        chance += pair_chance(values, unit) * len(group)
    n = max(1, len(chosen))
    return {name: total / n for name, total in totals.items()}, chance / n


def excess(task: str, chosen: Sequence[_Facts], chance: float) -> float:
    means, _ = _means(task, chosen)
    return sum(max(0.0, mean - chance) for mean in means.values())


def spread(
    task: str,
    picked: Mapping[str, Sequence[Candidate]],
    candidates: Mapping[str, Sequence[Candidate]],
    rng: np.random.Generator,
) -> dict[str, list[Candidate]]:
    """``picked`` (by clip) with items swapped for other candidates of their clip while a
    typical answer of the set beats its chance (see module)."""
    slots = [(clip_id, c) for clip_id in sorted(picked) for c in picked[clip_id]]
    chosen = [_facts(c) for _, c in slots]
    current = [c for _, c in slots]
    facts = {id(c): _facts(c) for cs in candidates.values() for c in cs}
    for _ in range(ROUNDS):
        _, chance = _means(task, chosen)
        worst = excess(task, chosen, chance)
        if worst <= 0.0:
            break
        changed = False
        for slot in rng.permutation(len(slots)).tolist():
            clip_id = slots[slot][0]
            taken = {current[k].key for k, (c, _) in enumerate(slots) if c == clip_id}
            others = [c for c in candidates[clip_id] if c.key not in taken]
            best, best_excess = None, worst
            for k in rng.permutation(len(others))[:TRIES].tolist():
                trial = chosen.copy()
                trial[slot] = facts[id(others[k])]
                value = excess(task, trial, chance)
                if value < best_excess - 1e-12:
                    best, best_excess = others[k], value
            if best is not None:
                current[slot], chosen[slot] = best, facts[id(best)]
                worst, changed = best_excess, True
            if worst <= 0.0:
                break
        if not changed:
            break
    result: dict[str, list[Candidate]] = {}
    for (clip_id, _), candidate in zip(slots, current, strict=True):
        result.setdefault(clip_id, []).append(candidate)
    return result


__all__ = [
    "ROUNDS",
    "TRIES",
    "excess",
    "median_guesses",
    "pair_chance",
    "spread",
    "typical_guesses",
    "written",
]
