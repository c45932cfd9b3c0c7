"""Numeric items spread so that no typical answer beats a guess drawn from the answers.

A numeric task's constant answers (the median answer, the typical rate times the printed span;
``suites.spatialmind.shortcuts``) are properties of the whole set of items, so no candidate can
be judged alone. After the balanced pick (``suites.spatialmind.build.balance``), ``spread``
swaps picked items for other candidates of the same clip (another interval, target or future
frame) while one of those shortcuts, or persistence where it is one, scores above the set's
chance: the exact mean MRA of another item's written answer, over every pair of distinct
items of the same unit, and never above ``CHANCE_RISE`` times the balanced pick's (bunching
the answers would raise it). Each swap taken is the one of a slot's alternatives that lowers the
summed excess most; the rounds stop when it is 0 or no swap lowers it. Then, if a shortcut
still wins, the items it wins are dropped, the drop that lowers the excess most first (at most
``MAX_DROPPED`` of them).

Answers are written here with ``numpy.round`` to the task's decimals, which may differ from
``serialize`` on a value a hair from a rounding tie: the estimates steer the choice only, the
battery itself is graded on the real replies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from suites.numeric import mra_many
from suites.spatialmind.tasks import DECIMALS, PERSISTENCE_TASKS, RATE_TASKS, Candidate

Array = NDArray[np.float64]

#: Rounds over the picked items, and alternatives tried for each (seeded).
ROUNDS: Final = 12
TRIES: Final = 24
#: How far (a factor) the set's chance may rise above the balanced pick's while spreading.
CHANCE_RISE: Final = 1.25
#: The largest share of a task's picked items dropped when no swap brings a shortcut down.
MAX_DROPPED: Final = 0.25


@dataclass
class _Set:
    """The picked items of one task as arrays, with the pair sums that make its chance."""

    task: str
    values: Array
    written: Array
    scales: Array
    persistence: Array
    units: list[str]
    pairs: Array  # pairs[i, j]: MRA of item j's written answer on item i (same unit, i != j)
    kept: NDArray[np.bool_]  # False: dropped

    @classmethod
    def of(cls, task: str, candidates: Sequence[Candidate]) -> _Set:
        facts = [_facts(c) for c in candidates]
        chosen = cls(
            task,
            np.array([f.value for f in facts]),
            np.array([f.written for f in facts]),
            np.array([f.scale for f in facts]),
            np.array([f.persistence for f in facts]),
            [f.unit for f in facts],
            np.zeros((len(facts), len(facts))),
            np.ones(len(facts), dtype=bool),
        )
        for i in range(len(facts)):
            chosen.pairs[i, :] = chosen._row(i, facts[i])
        return chosen

    def _same(self, i: int, unit: str) -> NDArray[np.bool_]:
        same = np.array([u == unit for u in self.units])
        same[i] = False
        return same

    def _row(self, i: int, f: _Facts) -> Array:
        return np.where(self._same(i, f.unit), mra_many(self.written, f.value), 0.0)

    def _column(self, i: int, f: _Facts) -> Array:
        return np.where(self._same(i, f.unit), mra_many(f.written, self.values), 0.0)

    def _groups(self) -> list[tuple[str, NDArray[np.bool_]]]:
        """Each unit and its kept items."""
        units = np.array(self.units)
        return [(unit, (units == unit) & self.kept) for unit in sorted(set(self.units))]

    def replace(self, i: int, f: _Facts) -> None:
        self.values[i], self.written[i], self.scales[i] = f.value, f.written, f.scale
        self.persistence[i], self.units[i] = f.persistence, f.unit
        self.pairs[i, :] = self._row(i, f)
        self.pairs[:, i] = self._column(i, f)

    def copy(self) -> _Set:
        return _Set(
            self.task,
            self.values.copy(),
            self.written.copy(),
            self.scales.copy(),
            self.persistence.copy(),
            list(self.units),
            self.pairs.copy(),
            self.kept.copy(),
        )

    def chance(self) -> float:
        """The mean over items of the mean MRA of another same-unit item's written answer."""
        total = 0.0
        for _, mine in self._groups():
            count = int(mine.sum())
            if count > 1:
                total += float(self.pairs[np.ix_(mine, mine)].sum()) / (count - 1)
        return total / max(1, int(self.kept.sum()))

    def means(self) -> dict[str, float]:
        """Each set-wide shortcut's mean score on the set."""
        scores: dict[str, Array] = {"median": np.zeros(len(self.units))}
        if self.task in RATE_TASKS:
            scores["typical_rate"] = np.zeros(len(self.units))
        for unit, mine in self._groups():
            if not mine.any():
                continue
            values = self.values[mine]
            middle = np.full(len(values), np.round(np.median(values), DECIMALS[unit]))
            scores["median"][mine] = mra_many(middle, values)
            if "typical_rate" in scores:
                scales = self.scales[mine]
                typical = np.round(np.median(values / scales) * scales, DECIMALS[unit])
                scores["typical_rate"][mine] = mra_many(typical, values)
        count = max(1, int(self.kept.sum()))
        means = {name: float(s[self.kept].sum()) / count for name, s in scores.items()}
        if self.task in PERSISTENCE_TASKS:
            means["persistence"] = float(self.persistence[self.kept].sum()) / count
        return means

    def excess(self, ceiling: float = 1.0) -> float:
        """The shortcuts' summed excess over the set's chance, or over ``ceiling`` if lower."""
        chance = min(self.chance(), ceiling)
        return sum(max(0.0, mean - chance) for mean in self.means().values())


@dataclass(frozen=True)
class _Facts:
    value: float
    written: float
    unit: str
    scale: float
    persistence: float


def _facts(candidate: Candidate) -> _Facts:
    assert candidate.value is not None and candidate.unit is not None
    return _Facts(
        candidate.value,
        float(np.round(candidate.value, DECIMALS[candidate.unit])),
        candidate.unit,
        candidate.value / candidate.rate,
        candidate.shortcut_scores().get("persistence", 0.0),
    )


def excess(task: str, candidates: Sequence[Candidate]) -> float:
    """How far the set's shortcuts score above its chance, summed (0: every one at chance)."""
    return _Set.of(task, candidates).excess() if candidates else 0.0


def spread(
    task: str,
    picked: Mapping[str, Sequence[Candidate]],
    candidates: Mapping[str, Sequence[Candidate]],
    rng: np.random.Generator,
) -> dict[str, list[Candidate]]:
    """``picked`` (by clip) with items swapped for other candidates of their clip while a
    typical answer of the set beats its chance (see module)."""
    slots = [(clip_id, c) for clip_id in sorted(picked) for c in picked[clip_id]]
    current = [c for _, c in slots]
    if not slots:
        return {}
    chosen = _Set.of(task, current)
    # Held to little more than the balanced pick's chance too: bunching the answers would
    # raise the chance of a guess drawn from them, and so hide a typical answer instead of
    # defeating it.
    ceiling = CHANCE_RISE * chosen.chance()
    worst = chosen.excess(ceiling)
    for _ in range(ROUNDS):
        if worst <= 0.0:
            break
        changed = False
        for slot in rng.permutation(len(slots)).tolist():
            clip_id = slots[slot][0]
            taken = {current[k].key for k, (c, _) in enumerate(slots) if c == clip_id}
            others = [c for c in candidates[clip_id] if c.key not in taken]
            best: tuple[Candidate, _Set] | None = None
            for k in rng.permutation(len(others))[:TRIES].tolist():
                trial = chosen.copy()
                trial.replace(slot, _facts(others[k]))
                value = trial.excess(ceiling)
                if value < worst - 1e-12:
                    best, worst = (others[k], trial), value
            if best is not None:
                current[slot], chosen = best
                changed = True
            if worst <= 0.0:
                break
        if not changed:
            break
    # Where no swap is left, the items a shortcut wins are dropped, the best drop first.
    for _ in range(int(MAX_DROPPED * len(slots))):
        if worst <= 0.0:
            break
        best_drop: tuple[int, _Set] | None = None
        for slot in np.flatnonzero(chosen.kept).tolist():
            trial = chosen.copy()
            trial.kept[slot] = False
            value = trial.excess(ceiling)
            if value < worst - 1e-12:
                best_drop, worst = (slot, trial), value
        if best_drop is None:
            break
        chosen = best_drop[1]
    result: dict[str, list[Candidate]] = {}
    for (clip_id, _), candidate, kept in zip(slots, current, chosen.kept, strict=True):
        if kept:
            result.setdefault(clip_id, []).append(candidate)
    return result


__all__ = ["CHANCE_RISE", "MAX_DROPPED", "ROUNDS", "TRIES", "excess", "spread"]
