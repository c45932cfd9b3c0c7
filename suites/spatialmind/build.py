"""Items of a clip set: which candidates become items, deterministically.

Every task's candidates come from its own stream (``SeedSequence([seed, clip index, task
number])``), with distinct keys (an interval or a pair drawn twice is one candidate). Each
task is then picked over the whole set (docs/spatialmind.md, "Items and balance"): candidates
are pooled by class (a label; for numbers, the unit and the answer's bin on a log scale) and
taken in rounds, one per class a round (the class with the fewest items so far first, then the
rarest), at most ``per_clip`` per clip and task, no option more than ``LABEL_LEAD`` ahead of the
rarest; a candidate that would take a shortcut known from the ground truth (persistence,
keep_going) above its quota is passed over, and a clip left with none gets no item of the task.
The numeric tasks are then spread against the set-wide shortcuts (``suites.spatialmind.spread``).
The label histograms are in ``labels.json`` and in the build's output.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from spatialbabel.clip import Clip
from spatialbabel.files import FileFormatError, read_json
from suites.base import Item, SuiteError
from suites.choices import letter
from suites.spatialmind.options import SpatialMindOptions
from suites.spatialmind.spread import spread
from suites.spatialmind.stamps import stamped_inputs
from suites.spatialmind.tasks import (
    BUILDERS,
    OPTIONS,
    TASKS,
    Candidate,
    ClipFacts,
    oracle_exact,
    serialize,
)

CLIP_SET_KIND: Final = "spatialbabel-clips"
SUITE_NAME: Final = "spatialmind"


def load_clip_set(root: Path) -> list[Clip]:
    """The clips of a finished clip set, in index order; a SuiteError names what is wrong."""
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        raise SuiteError(
            f"{root}: no manifest.json: not a finished clip set (run spatialbabel clips)"
        )
    try:
        manifest = read_json(manifest_path)
    except FileFormatError as error:
        raise SuiteError(str(error)) from None
    if manifest.get("kind") != CLIP_SET_KIND:
        raise SuiteError(
            f"{manifest_path}: a {manifest.get('kind')!r}, not a clip set: SpatialMind reads "
            "the clips of 'spatialbabel clips'"
        )
    paths = sorted((root / "clips").glob("clip_*.json"))
    if not paths:
        raise SuiteError(f"{root}: no clips/clip_*.json")
    return [Clip.load(path) for path in paths]


def _labels_of(task: str) -> list[str]:
    return list(OPTIONS[task])


#: Numeric answers are spread over bins of this width on a log scale (a ratio of 1.5: MRA's
#: tolerance reaches from half the truth to 1.5 times it).
BIN_RATIO: Final = 1.5
#: The share of a numeric task's items on which a shortcut known from the ground truth may
#: score, on average (persistence's MRA on future distances): about what a guess drawn from a
#: spread task scores.
NUMBER_QUOTA: Final = 0.2


#: How many items an option of a multiple-choice task may run ahead of its rarest option.
LABEL_LEAD: Final = 3


def bin_of(candidate: Candidate) -> str:
    """A numeric candidate's class in the balance: its unit and the bin of its answer on a log
    scale."""
    assert candidate.value is not None
    return f"{candidate.unit}:{math.floor(math.log(candidate.value) / math.log(BIN_RATIO)):+03d}"


def _class_of(candidate: Candidate) -> str:
    return candidate.label if candidate.label is not None else bin_of(candidate)


def balance(
    candidates: Mapping[str, Sequence[Candidate]],
    task: str,
    per_clip: int,
    rng: np.random.Generator,
) -> dict[str, list[Candidate]]:
    """Candidates of one task picked in rounds over their classes (see module); a candidate
    that would take a shortcut known from the ground truth (``Candidate.shortcut_scores``)
    over its quota is passed over."""
    pools: dict[str, list[tuple[str, Candidate]]] = defaultdict(list)
    for clip_id in sorted(candidates):
        for candidate in candidates[clip_id]:
            pools[_class_of(candidate)].append((clip_id, candidate))
    for label in pools:
        shuffled = rng.permutation(len(pools[label]))
        pools[label] = [pools[label][int(k)] for k in shuffled]
    order = _labels_of(task) if task in OPTIONS else sorted(pools)
    quota = 1.0 / len(OPTIONS[task]) if task in OPTIONS else NUMBER_QUOTA
    # A clip that offers a rare class is kept for it: each pick takes, among the clips still
    # open, the one whose other classes are the least rare (then the pool's random order).
    offers: dict[str, set[str]] = defaultdict(set)
    for label, pool in pools.items():
        for clip_id, _ in pool:
            offers[clip_id].add(label)
    spread = {label: len({c for c, _ in pool}) for label, pool in pools.items()}

    def value_elsewhere(clip_id: str, label: str) -> float:
        return sum(1.0 / spread[other] for other in offers[clip_id] if other != label)

    total = per_clip * len(candidates)
    taken: Counter[str] = Counter()
    per: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    picked: dict[str, list[Candidate]] = defaultdict(list)
    count = 0

    def excess(candidate: Candidate) -> float:
        """How far the shortcuts would go over their quota with this candidate taken."""
        allowed = quota * count + 1.0  # the quota's share, and one hit of slack
        return sum(
            max(0.0, hits[name] + score - allowed)
            for name, score in candidate.shortcut_scores().items()
        )

    while count < total:
        progressed = False
        round_order = sorted(
            (label for label in order if pools[label]),
            key=lambda label: (taken[label], spread[label], order.index(label)),
        )
        if task in OPTIONS:
            # No option runs more than LABEL_LEAD items ahead of the rarest one the set
            # offers: past that, the most frequent option would beat a guess.
            rarest = min(taken[label] for label in order if label in spread)
            round_order = [label for label in round_order if taken[label] < rarest + LABEL_LEAD]
        for label in round_order:
            pool = pools[label]
            open_ = [k for k, (clip_id, _) in enumerate(pool) if per[clip_id] < per_clip]
            if not open_:
                pool.clear()
                continue
            # A candidate that would take a shortcut over its quota is not taken (now).
            within = [k for k in open_ if excess(pool[k][1]) <= 1e-9]
            if not within:
                continue
            choice = min(within, key=lambda k: (value_elsewhere(pool[k][0], label), k))
            clip_id, candidate = pool.pop(choice)
            picked[clip_id].append(candidate)
            hits.update(candidate.shortcut_scores())
            per[clip_id] += 1
            taken[label] += 1
            count += 1
            progressed = True
            if count >= total:
                break
        if not progressed:
            break
    return picked


def _item(clip: Clip, candidate: Candidate, inputs: tuple[str, ...], timestamps: str) -> Item:
    facts: dict[str, Any] = dict(candidate.facts)
    options: tuple[str, ...] = ()
    if candidate.label is not None:
        keys = _labels_of(candidate.task)
        options = tuple(OPTIONS[candidate.task][k] for k in keys)
        answer: Any = letter(keys.index(candidate.label))
        answer_text = answer
        facts["label"] = candidate.label
        persistence = letter(keys.index(candidate.persistence))
        shortcuts = {name: letter(keys.index(key)) for name, key in candidate.shortcuts.items()}
    else:
        assert candidate.value is not None and candidate.unit is not None
        answer = candidate.value
        answer_text = serialize(candidate.value, candidate.unit)
        facts["unit"] = candidate.unit
        persistence = candidate.persistence
        shortcuts = dict(candidate.shortcuts)
    facts["fps"] = clip.fps
    facts["timestamps"] = timestamps
    facts["observed_until"] = clip.frames[clip.last_observed].time
    facts["answer_text"] = answer_text
    facts["persistence"] = persistence
    if shortcuts:
        facts["shortcuts"] = shortcuts
    facts["chain"] = {**candidate.sections, "ANSWER": answer_text}
    group = {"level": candidate.level}
    if candidate.kind:
        group["kind"] = candidate.kind
    return Item(
        SUITE_NAME,
        f"{clip.clip_id}-{candidate.task}-{candidate.key}",
        clip.clip_id,
        candidate.task,
        candidate.question,
        answer,
        inputs=inputs,
        options=options,
        group=group,
        facts=facts,
    )


def _inputs(root: Path, out: Path, clip: Clip, kind: str) -> tuple[str, ...]:
    files = clip.meta.get("files", {})
    names = [files.get("video")] if kind == "video" else list(files.get("frames", []))
    if not names or any(not isinstance(n, str) for n in names):
        what = "an MP4 (it was made with --no-video)" if kind == "video" else "frames"
        raise SuiteError(f"{root / 'clips' / (clip.clip_id + '.json')}: the clip has no {what}")
    return tuple(os.path.relpath(root / name, out) for name in names)


def build_items(
    root: Path, out: Path, options: SpatialMindOptions
) -> tuple[list[Item], dict[str, dict[str, int]]]:
    """The items of a clip set, and the label histogram of each multiple-choice task."""
    clips = load_clip_set(root)
    per_task: dict[str, dict[str, list[Candidate]]] = {task: {} for task in TASKS}
    for clip in clips:
        if "manoeuvre_onset" not in clip.meta:
            version = clip.meta.get("generator", {}).get("version")
            raise SuiteError(
                f"{root / 'clips' / (clip.clip_id + '.json')}: made by clip generator {version}, "
                "whose future manoeuvre may begin unseen: render the clips again"
            )
        index = int(clip.meta.get("index", int(clip.clip_id.rsplit("_", 1)[-1])))
        facts = ClipFacts(
            clip, max(1, round(options.min_visible * clip.camera.width * clip.camera.height))
        )
        for number, (task, builder) in enumerate(BUILDERS.items()):
            rng = np.random.default_rng(np.random.SeedSequence([options.seed, index, number]))
            # Distinct keys: an interval or a pair drawn twice is one candidate.
            unique: dict[str, Candidate] = {}
            for candidate in builder(facts, rng):
                if oracle_exact(candidate):
                    unique.setdefault(candidate.key, candidate)
            per_task[task][clip.clip_id] = list(unique.values())
    for number, task in enumerate(TASKS):
        rng = np.random.default_rng(np.random.SeedSequence([options.seed, 1 << 20, number]))
        picked = balance(per_task[task], task, options.per_clip, rng)
        if task not in OPTIONS:
            picked = spread(task, picked, per_task[task], rng)
        per_task[task] = {c.clip_id: picked.get(c.clip_id, []) for c in clips}
    items: list[Item] = []
    for clip in clips:
        inputs = _inputs(root, out, clip, options.inputs)
        if options.timestamps == "overlay" and any(per_task[t].get(clip.clip_id) for t in TASKS):
            inputs = stamped_inputs(root, out, clip, options.inputs == "video")
        for task in TASKS:
            for candidate in per_task[task].get(clip.clip_id, []):
                items.append(_item(clip, candidate, inputs, options.timestamps))
    histograms = {
        task: {
            label: sum(1 for i in items if i.task == task and i.facts.get("label") == label)
            for label in OPTIONS[task]
        }
        for task in OPTIONS
    }
    return items, histograms


__all__ = [
    "CLIP_SET_KIND",
    "balance",
    "build_items",
    "load_clip_set",
]
