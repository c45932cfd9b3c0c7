"""Holding a suite's shortcut battery to chance.

A task measures a skill only if no shortcut passes it: answering from the printed coordinates
alone, returning the unchanged input, always naming the option nearest the camera, always
giving the task's majority label. ``check_shortcuts`` grades every shortcut of a suite
(``Suite.shortcuts``) on the items of its tasks, beside the suite's chance baseline
(``Suite.chance_baseline``) on the same items, and finds, per shortcut and task, whether the
shortcut's mean stays inside or under the baseline's bootstrap CI. A shortcut above it is a
build defect: the builder drops or rebalances the items that allow it, and ``suite score``
shows the verdicts beside the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spatialbabel.stats import Estimate
from suites.base import Item, Suite, SuiteError
from suites.grading import (
    BASELINE_PREFIX,
    SHORTCUT_PREFIX,
    Row,
    aggregate,
    grade_references,
)


@dataclass(frozen=True)
class ShortcutCheck:
    """One shortcut on one task, against the chance baseline on the same items."""

    shortcut: str
    task: str
    score: Estimate
    chance: Estimate

    @property
    def at_chance(self) -> bool:
        """The shortcut does no better than the upper end of chance's CI."""
        return self.score.mean <= self.chance.high + 1e-12

    def to_dict(self) -> dict[str, Any]:
        return {
            "shortcut": self.shortcut,
            "task": self.task,
            "score": self.score.to_dict(),
            "chance": self.chance.to_dict(),
            "at_chance": self.at_chance,
        }

    def __str__(self) -> str:
        verdict = "at chance" if self.at_chance else "ABOVE CHANCE"
        return (
            f"{self.shortcut} on {self.task}: {100 * self.score.mean:.1f}% "
            f"(chance {100 * self.chance.mean:.1f}% "
            f"[{100 * self.chance.low:.1f}, {100 * self.chance.high:.1f}], n={self.score.n}): "
            f"{verdict}"
        )


def check_rows(suite: Suite, rows: Sequence[Row]) -> list[ShortcutCheck]:
    """The verdicts read from an aggregated table that holds the shortcut rows and the chance
    baseline's row (``suites.grading.aggregate`` of ``grade_all``)."""
    by_model: Mapping[str, Row] = {row.model: row for row in rows}
    chance = by_model.get(BASELINE_PREFIX + suite.chance_baseline)
    shortcuts = [row for row in rows if row.model.startswith(SHORTCUT_PREFIX)]
    if chance is None:
        if shortcuts:
            raise SuiteError(
                f"suite {suite.name!r} has shortcuts but no chance baseline "
                f"{suite.chance_baseline!r} to hold them to"
            )
        return []
    checks: list[ShortcutCheck] = []
    for row in shortcuts:
        for task, score in row.tasks.items():
            if task in chance.tasks and score.n:
                checks.append(
                    ShortcutCheck(
                        row.model.removeprefix(SHORTCUT_PREFIX), task, score, chance.tasks[task]
                    )
                )
    return checks


def check_shortcuts(suite: Suite, items: Sequence[Item], seed: int = 42) -> list[ShortcutCheck]:
    """Every shortcut of ``suite`` on every task it answers, held to chance. The suite must be
    prepared for ``items`` (``Suite.prepare``) when its grading reads the items' files."""
    return check_rows(suite, aggregate(suite, grade_references(suite, items, seed)))


def above_chance(checks: Sequence[ShortcutCheck]) -> list[ShortcutCheck]:
    return [check for check in checks if not check.at_chance]


def markdown_checks(checks: Sequence[ShortcutCheck]) -> str:
    """The battery's verdicts as a table, one line per shortcut and task."""
    lines = [
        "| shortcut | task | score | chance [95% CI] | n | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for c in checks:
        lines.append(
            f"| {c.shortcut} | {c.task} | {100 * c.score.mean:.1f} | "
            f"{100 * c.chance.mean:.1f} [{100 * c.chance.low:.1f}, {100 * c.chance.high:.1f}] | "
            f"{c.score.n} | {'at chance' if c.at_chance else 'above chance'} |"
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "ShortcutCheck",
    "above_chance",
    "check_rows",
    "check_shortcuts",
    "markdown_checks",
]
