"""Choosing a split's items among each scene's drafts so that no shortcut passes a task.

Every scene offers, per task, up to ``build.DRAFTS`` drafts (best first). Each is worded once
and answered by every shortcut of ``suites.spacecast.shortcuts``; then, task by task, the split
keeps the most drafts (at most one per scene) such that every shortcut's expected score on the
task lies within ``SLACK`` items of chance (``tasks.CHANCE``; for attachment, no less than a
uniform spread over the answer sets its candidates reach), and no label is right more often
than chance over the items that offer it: an integer program, then a few swaps or drops where
the measures that are not linear in the choice (a median, the majority's ties) still exceed.
Since every label is held to chance, the labels come out balanced per task, as the answer
positions are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import Bounds, LinearConstraint, milp

from spatialbabel import Camera, Scene
from suites.base import Item
from suites.spacecast.build import Draft
from suites.spacecast.shortcuts import (
    SHORTCUTS,
    Guess,
    Truth,
    hit,
    item_guesses,
    label_of,
    offered,
)
from suites.spacecast.tasks import CHANCE, TASKS
from suites.spacecast.wording import word

#: Items of a shortcut's score a task may hold above chance: none (the score's check holds a
#: shortcut to the seeded guess's CI, which an unlucky guess pulls below chance).
SLACK: Final = 0.0
#: The same for a label over the items that offer it: none, so that the labels come out even
#: (where several tie as the most often right, the majority label is the first of them offered,
#: which even labels make right at chance).
LABEL_SLACK: Final = 0.0
#: Seconds the integer program of one task may take (it takes well under one).
MILP_SECONDS: Final = 20.0


@dataclass
class _Candidate:
    scene: int
    draft: Draft
    item: Item
    label: str
    hits: dict[str, float]
    #: The lone occlusion target's visible area in its view (``larger_area``), else None.
    area: int | None
    #: ``larger_area``'s hit when the target is judged large, and when small.
    area_hits: tuple[float, float]


def _truth(scene: Scene, drafts: Sequence[Draft]) -> Truth:
    cameras: dict[str, Camera] = {}
    for draft in drafts:
        for camera in draft.views:
            cameras.setdefault(camera.name, camera)
    return Truth(replace(scene, cameras=tuple(cameras.values())))


def _candidate(scene_index: int, scene: Scene, draft: Draft, truth: Truth, k: int) -> _Candidate:
    item = word(draft, scene, [c.name for c in draft.views])
    item = replace(item, item_id=f"c{scene_index}-{k}")
    guesses = item_guesses(item, truth)
    hits = {name: hit(item, guess) for name, guess in guesses.items()}
    area: int | None = None
    area_hits = (0.0, 0.0)
    roles = item.facts["roles"]
    if item.group["relation"] == "occlusion":
        camera = item.facts["views"][0]
        target = truth.area(camera, roles["target"])
        if "occluder" in roles:
            bigger = truth.area(camera, roles["occluder"]) > target
            guess: Guess = offered(item, "partly occluded" if bigger else "not occluded")
            hits["larger_area"] = hit(item, guess)
        else:
            area = target
            area_hits = (
                hit(item, offered(item, "not occluded")),
                hit(item, offered(item, "partly occluded")),
            )
    return _Candidate(scene_index, draft, item, label_of(item), hits, area, area_hits)


class _Task:
    """One task's candidates as arrays, and the total excess of a choice of them."""

    def __init__(self, options: list[list[_Candidate]]) -> None:
        self.flat = [c for scene in options for c in scene]
        first = self.flat[0]
        attachment = first.draft.task.relation == "attachment"
        labels = sorted({c.label for c in self.flat})
        self.labels = labels
        ids = {label: k for k, label in enumerate(labels)}
        self.label = np.array([ids[c.label] for c in self.flat], dtype=np.intp)
        # The labels each candidate offers (an attachment item: every answer set the task has).
        width = len(labels) if attachment else max(len(c.item.options) for c in self.flat)
        self.offered = np.full((len(self.flat), width), -1, dtype=np.intp)
        for k, c in enumerate(self.flat):
            row = labels if attachment else [o for o in c.item.options if o in ids]
            self.offered[k, : len(row)] = [ids[o] for o in row]
        self.names = [
            n for n in SHORTCUTS if n not in ("majority_label", "larger_area", "option_order")
        ]
        self.names = [n for n in self.names if any(n in c.hits for c in self.flat)]
        self.hits = np.array(
            [[c.hits.get(n, np.nan) for n in self.names] for c in self.flat], dtype=float
        ).reshape(len(self.flat), len(self.names))
        self.pair_area = np.array([c.hits.get("larger_area", np.nan) for c in self.flat])
        self.area = np.array([np.nan if c.area is None else c.area for c in self.flat])
        self.area_hits = np.array([c.area_hits for c in self.flat], dtype=float)
        base = CHANCE[first.draft.task.relation]
        # A task whose answer sets are fewer than its chance assumes (attachment on scenes
        # whose supports hold one object each) is held to a uniform spread over those it has.
        self.chance = max(base, 1.0 / len(labels)) if attachment else base
        self.areas = bool(np.isfinite(self.pair_area).any() or np.isfinite(self.area).any())

    def excess(self, chosen: NDArray[np.intp]) -> tuple[float, float]:
        """How far, in items, the shortcuts' expected scores over ``chosen`` (candidate
        numbers) lie above chance in total, and above chance and ``SLACK``."""
        if not len(chosen):
            return 0.0, 0.0
        over: list[NDArray[np.float64]] = []
        hits = self.hits[chosen]
        answered = np.isfinite(hits)
        sums = np.where(answered, hits, 0.0).sum(axis=0)
        over.append(sums - self.chance * answered.sum(axis=0))
        # majority_label, held by every label: no label may be right more often than chance
        # over the items that offer it (then no rule that prefers some labels passes).
        size = len(self.labels)
        counts = np.bincount(self.label[chosen], minlength=size)
        offered = self.offered[chosen]
        offers = np.bincount(offered[offered >= 0], minlength=size)
        over.append(counts - self.chance * offers)
        labels = len(over) - 1
        # ... and the shortcut itself: per item, the first offered of the labels most often
        # right (``shortcuts.choice``).
        held = np.where(offered >= 0, counts[np.maximum(offered, 0)], -1)
        first = np.argmax(held == held.max(axis=1)[:, None], axis=1)
        right = offered[np.arange(len(chosen)), first] == self.label[chosen]
        over.append(np.array([float(right.sum()) - self.chance * len(chosen)]))
        if self.areas:
            pair = self.pair_area[chosen]
            lone = self.area[chosen]
            alone = np.isfinite(lone)
            found = float(np.nansum(pair))
            if alone.any():
                large = lone[alone] >= np.median(lone[alone])
                picks = self.area_hits[chosen][alone]
                found += float(np.where(large, picks[:, 0], picks[:, 1]).sum())
            n = int(np.isfinite(pair).sum() + alone.sum())
            over.append(np.array([found - self.chance * n]))
        slack = [np.full(len(x), LABEL_SLACK if k == labels else SLACK) for k, x in enumerate(over)]
        every = np.concatenate(over)
        past = every - np.concatenate(slack)
        return float(np.maximum(every, 0.0).sum()), float(np.maximum(past, 0.0).sum())


def _largest(task: _Task, starts: NDArray[np.intp]) -> NDArray[np.intp]:
    """The most candidates (at most one per scene, the scenes' best first on ties) whose
    shortcuts' expected scores lie within ``SLACK`` items of chance, as an integer program
    (scipy's ``milp``, HiGHS): per shortcut, the sum over the chosen of (hit - chance); per
    label, of (right - chance where offered). ``larger_area``'s median is held at all the
    candidates' (the search afterwards settles the chosen's)."""
    count = len(task.flat)
    rows: list[NDArray[np.float64]] = []
    hits = np.where(np.isfinite(task.hits), task.hits - task.chance, 0.0)
    rows.extend(hits.T)
    onehot = np.zeros((count, len(task.labels)))
    onehot[np.arange(count), task.label] = 1.0
    offers = np.zeros((count, len(task.labels)))
    for k, row in enumerate(task.offered):
        offers[k, row[row >= 0]] = 1.0
    bounds = [SLACK] * len(rows) + [LABEL_SLACK] * len(task.labels)
    rows.extend((onehot - task.chance * offers).T)
    if task.areas:
        area = np.where(np.isfinite(task.pair_area), task.pair_area - task.chance, 0.0)
        lone = np.isfinite(task.area)
        if lone.any():
            large = task.area >= np.median(task.area[lone])
            picks = np.where(large, task.area_hits[:, 0], task.area_hits[:, 1])
            area = area + np.where(lone, picks - task.chance, 0.0)
        rows.append(area)
        bounds.append(SLACK)
    scenes = np.zeros((len(starts) - 1, count))
    for s in range(len(starts) - 1):
        scenes[s, starts[s] : starts[s + 1]] = 1.0
    first = np.isin(np.arange(count), starts[:-1])
    found = milp(
        c=-(1.0 + 1e-3 * first),
        constraints=[
            LinearConstraint(np.array(rows), -np.inf, np.array(bounds)),
            LinearConstraint(scenes, 0.0, 1.0),
        ],
        integrality=np.ones(count),
        bounds=Bounds(0.0, 1.0),
        options={"time_limit": MILP_SECONDS},
    )
    picked = np.full(len(starts) - 1, -1)
    if found.x is not None:
        for k in np.flatnonzero(found.x > 0.5):
            picked[int(np.searchsorted(starts, k, side="right")) - 1] = int(k)
    return picked


def _choose(options: list[list[_Candidate]]) -> list[_Candidate]:
    """One task's choice: per scene at most one candidate, the shortcuts held to chance.

    The integer program (``_largest``) chooses; then, while the excess past the slack is not
    gone (the median of ``larger_area``, or the majority label's ties, may move with the
    choice), steps follow: the swap or drop that lowers the excess past the slack most (or
    keeps it and lowers the excess over chance); where none does, the drop that leaves the
    least of it."""
    task = _Task(options)
    starts = np.cumsum([0] + [len(scene) for scene in options])
    picked = _largest(task, starts)
    now = task.excess(picked[picked >= 0])
    while now[1] > 1e-9:
        steps = []
        for s in np.flatnonzero(picked >= 0).tolist():
            for alternative in [*range(starts[s], starts[s + 1]), -1]:
                if alternative == picked[s]:
                    continue
                trial = picked.copy()
                trial[s] = alternative
                # Swaps before drops, then the scene order (deterministic).
                steps.append((*task.excess(trial[trial >= 0]), alternative < 0, s, alternative))
        # (past the slack, over chance) falls with every step but a forced drop, and a drop
        # leaves one item fewer: the search ends.
        better = [
            x
            for x in steps
            if x[1] < now[1] - 1e-9 or (x[1] <= now[1] + 1e-9 and x[0] < now[0] - 1e-9)
        ]
        if better:
            step = min(better, key=lambda x: (x[1], x[0], x[2], x[3], x[4]))
        else:
            step = min((x for x in steps if x[2]), key=lambda x: (x[1], x[0], x[3]))
        picked[step[3]] = step[4]
        now = (step[0], step[1])
    return [task.flat[k] for k in picked.tolist() if k >= 0]


def select(planned: Sequence[tuple[Scene, list[list[Draft]]]]) -> list[tuple[Scene, list[Draft]]]:
    """Each scene with the drafts the split keeps (at most one per task, in task order)."""
    by_task: dict[str, list[list[_Candidate]]] = {}
    for s, (scene, per_task) in enumerate(planned):
        truth = _truth(scene, [d for drafts in per_task for d in drafts])
        for drafts in per_task:
            for k, draft in enumerate(drafts):
                name = draft.task.name
                by_task.setdefault(name, [[] for _ in planned])
                by_task[name][s].append(_candidate(s, scene, draft, truth, k))
    kept: list[list[Draft]] = [[] for _ in planned]
    for name in TASKS:
        if name not in by_task:
            continue
        for candidate in _choose(by_task[name]):
            kept[candidate.scene].append(candidate.draft)
    return [(scene, kept[s]) for s, (scene, _) in enumerate(planned)]


__all__ = ["SLACK", "select"]
