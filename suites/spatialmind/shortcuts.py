"""SpatialMind's reference answers: the baselines (``persistence``, ``chance``) and the shortcut
battery, each answer a program over the items alone (their facts and references), so that
``suite score`` can grade them beside the models.

A shortcut is what a test-taker could answer without the skill a task claims: the task's most
frequent option, the typical number of the task, the typical rate times the time span the
question prints, the state now copied into the future, the observer's last step carried on.
``suites.shortcuts.check_shortcuts`` holds each to the ``chance`` baseline's CI on every task.

For numbers, chance is another item's reference of the same task and unit (never the item's
own): a guess drawn from the task's own answers. A constant guess (the median) beats that draw
only where the answers crowd within MRA's tolerance (a ratio of 0.5 to 1.5 of the truth), so a
numeric task is at chance when its answers spread widely on a log scale; the builder spreads
them (``suites.spatialmind.build``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import numpy as np

from suites.base import Item, Reply, Shortcut
from suites.choices import LETTERS, letter
from suites.numeric import mra_many
from suites.spatialmind.tasks import (
    OPTIONS,
    PERSISTENCE_TASKS,
    RATE_TASKS,
    TASKS,
    serialize,
)
from suites.spatialmind.tasks import scale as span_scale

CHOICE_TASKS: Final = tuple(OPTIONS)
NUMBER_TASKS: Final = tuple(task for task in TASKS if task not in OPTIONS)

Kind = tuple[str, str]


def _answer(item: Item, text: str) -> Reply:
    return Reply(item.item_id, "", "", output=f"Answer: {text}")


def kind(item: Item) -> Kind:
    """Numbers are pooled by task and unit (a motion-state item asks for m/s or degrees)."""
    return item.task, str(item.facts.get("unit", ""))


def _by_kind(items: Sequence[Item]) -> dict[Kind, list[Item]]:
    pools: dict[Kind, list[Item]] = {}
    for item in items:
        pools.setdefault(kind(item), []).append(item)
    return pools


def scale(item: Item) -> float:
    """What a rate is multiplied by to give the item's answer: its printed span (s), or 1."""
    task, unit = kind(item)
    return span_scale(task, unit, item.facts.get("span"))


#: Deals of a numeric task's answers tried for the chance baseline.
DEALS: Final = 64


def derangement(count: int, rng: np.random.Generator) -> list[int]:
    """A random permutation with no fixed point (Sattolo's algorithm: one cycle), so each of
    ``count`` >= 2 items gets another's position."""
    order = list(range(count))
    for i in range(count - 1, 0, -1):
        j = int(rng.integers(i))
        order[i], order[j] = order[j], order[i]
    return order


def chance(items: Sequence[Item], seed: int) -> dict[str, Reply]:
    """A guess's expected score, laid out on the items so its CI is the items' alone.

    Multiple choice: right on a random ``round(n / options)`` of a task's ``n`` items (what a
    uniform guess gets right, on average), a random wrong option on the others. Numbers: the
    references of each task and unit dealt out again among its items, none getting its own
    (a derangement: the guesses follow the answers' distribution); of ``DEALS`` seeded deals,
    the one whose mean MRA is nearest the exact mean over every pair of distinct items. An item
    alone in its pool gets no guess: it scores 0."""
    rng = np.random.default_rng(seed)
    answers: dict[str, Reply] = {}
    for (task, unit), pool in _by_kind(items).items():
        if task in CHOICE_TASKS:
            options = len(pool[0].options)
            right = set(rng.permutation(len(pool))[: round(len(pool) / options)].tolist())
            for k, item in enumerate(pool):
                truth = LETTERS.index(str(item.answer))
                wrong = [n for n in range(options) if n != truth]
                guess = truth if k in right else wrong[int(rng.integers(len(wrong)))]
                answers[item.item_id] = _answer(item, letter(guess))
        elif len(pool) > 1:
            guesses = np.array([float(serialize(float(i.answer), unit)) for i in pool])
            truths = np.array([float(i.answer) for i in pool])
            pairs = mra_many(guesses[None, :], truths[:, None])
            expected = (pairs.sum() - np.trace(pairs)) / (len(pool) * (len(pool) - 1))
            deals = [derangement(len(pool), rng) for _ in range(DEALS)]
            rows = np.arange(len(pool))
            deal = min(deals, key=lambda d: abs(float(pairs[rows, d].mean()) - expected))
            for item, other in zip(pool, deal, strict=True):
                answers[item.item_id] = _answer(item, serialize(float(pool[other].answer), unit))
    return answers


def persistence(items: Sequence[Item]) -> dict[str, Reply]:
    """The state at the start of what is asked, from the ground truth, copied forward."""
    return {i.item_id: _answer(i, str(i.facts["persistence"])) for i in items}


def majority(items: Sequence[Item]) -> dict[str, Reply]:
    """Each multiple-choice task's most frequent right option (the first letter on a tie)."""
    answers: dict[str, Reply] = {}
    for (task, _), pool in _by_kind(items).items():
        if task not in CHOICE_TASKS:
            continue
        counts = Counter(str(i.answer) for i in pool)
        top = min(counts, key=lambda a: (-counts[a], a))
        answers.update({i.item_id: _answer(i, top) for i in pool})
    return answers


def median(items: Sequence[Item]) -> dict[str, Reply]:
    """The median reference of each numeric task and unit."""
    answers: dict[str, Reply] = {}
    for (task, unit), pool in _by_kind(items).items():
        if task not in NUMBER_TASKS:
            continue
        middle = serialize(float(np.median([float(i.answer) for i in pool])), unit)
        answers.update({i.item_id: _answer(i, middle) for i in pool})
    return answers


def typical_rate(items: Sequence[Item]) -> dict[str, Reply]:
    """The median rate of the task and unit (answer per second of the printed span, or the
    speed itself) times the item's span: "people walk at 1.3 m/s, so in 4 s about 5 m"."""
    answers: dict[str, Reply] = {}
    for (task, unit), pool in _by_kind(items).items():
        if task not in RATE_TASKS:
            continue
        rate = float(np.median([float(i.answer) / scale(i) for i in pool]))
        answers.update({i.item_id: _answer(i, serialize(rate * scale(i), unit)) for i in pool})
    return answers


def from_facts(name: str) -> Callable[[Sequence[Item]], dict[str, Reply]]:
    """The answer the builder computed for shortcut ``name`` (``facts["shortcuts"]``)."""

    def answers(items: Sequence[Item]) -> dict[str, Reply]:
        return {
            i.item_id: _answer(i, str(i.facts["shortcuts"][name]))
            for i in items
            if name in i.facts.get("shortcuts", {})
        }

    return answers


#: The battery: name, what the test-taker does, the tasks it answers, its answers.
BATTERY: Final[
    tuple[tuple[str, str, tuple[str, ...], Callable[[Sequence[Item]], Mapping[str, Reply]]], ...]
] = (
    (
        "persistence",
        "the state at the last observed frame copied forward: the distance now, the band now, "
        "the observer's last interval of the same length, 'approximately unchanged'",
        PERSISTENCE_TASKS,
        persistence,
    ),
    (
        "keep_going",
        "the observer keeps doing what it does in the last frame: its last step's speed and "
        "turn rate carried over the future interval",
        ("ego_future",),
        from_facts("keep_going"),
    ),
    ("majority", "the task's most frequent right option", CHOICE_TASKS, majority),
    ("median", "the median answer of the task and unit", NUMBER_TASKS, median),
    (
        "typical_rate",
        "the task's median rate (speed, turn rate) times the time span the question prints",
        RATE_TASKS,
        typical_rate,
    ),
)


def battery(items: Sequence[Item]) -> list[Shortcut]:
    shortcuts = []
    for name, description, tasks, answer in BATTERY:
        mine = [item for item in items if item.task in tasks]
        if mine:
            shortcuts.append(Shortcut(name, description, tasks, answer(mine)))
    return shortcuts


__all__ = [
    "BATTERY",
    "CHOICE_TASKS",
    "NUMBER_TASKS",
    "PERSISTENCE_TASKS",
    "RATE_TASKS",
    "battery",
    "chance",
    "derangement",
    "kind",
    "majority",
    "median",
    "persistence",
    "scale",
    "typical_rate",
]
