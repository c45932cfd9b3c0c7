"""The protocol checks of an items folder, per task: oracle drawings parse back to the truth,
perturbed oracle drawings still do, wrong drawings grade wrong (also under each single
perturbation), empty and all-ink images are noncompliance, and true text answers score 1.

``python -m suites.provise.checks ITEMS [--json FILE]`` prints the table (rates in percent).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from suites.base import Grade, Item, Reply
from suites.items import ItemSet, read_items
from suites.provise import SUITE
from suites.provise.grade import grade_drawing, grade_reply
from suites.provise.oracle import COMBINED, PERTURBATIONS, Oracle
from suites.provise.protocols import Protocol, protocol

#: Diagnostic "correct" (paper §E.4): precision at least 0.5 for affordance, else a full score.
PASS_MARK = {"affordance": 0.5}


def correct(item: Item, grade: Grade) -> bool:
    return grade.status in ("correct", "partial", "incorrect") and grade.score >= PASS_MARK.get(
        item.task, 0.999
    )


@dataclass
class TaskChecks:
    """Counts per check of one task; ``failures`` names the items that failed a check."""

    items: int = 0
    passed: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    read: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def rate(self, check: str) -> float:
        return 100.0 * self.passed[check] / self.items if self.items else 0.0

    def record(self, check: str, item: Item, ok: bool, grade: Grade, *, read: bool = False) -> None:
        self.passed[check] += ok
        self.read[check] += read
        if not ok:
            self.failures[check].append(f"{item.item_id}: {grade.status} {grade.reason}".strip())


def perturbation_rng(item: Item, index: int, seed: int = 0) -> np.random.Generator:
    """The seeded draws of one perturbation of one item."""
    return np.random.default_rng([seed, index, *item.item_id.encode()])


CHECKS = ("oracle", *PERTURBATIONS, "wrong", "wrong_perturbed", "empty", "full", "text")
#: The single perturbations: correct drawings must keep their grade under each (98% overall,
#: 95% in every task).
SINGLE = tuple(name for name in PERTURBATIONS if name not in COMBINED)


def _grade_image(rules: Protocol, item: Item, source: Any, truth: Any, image: Any) -> Grade:
    return grade_drawing(rules, item, image, source, truth)


def run_checks(items: ItemSet, *, seed: int = 0) -> dict[str, TaskChecks]:
    SUITE.prepare(items.folder, items.items)
    oracle = Oracle(items)
    results: dict[str, TaskChecks] = defaultdict(TaskChecks)
    for item in items.items:
        rules = protocol(item.task)
        source, truth = oracle.source(item), oracle.truth(item)
        checks = results[item.task]
        checks.items += 1

        grade = functools.partial(_grade_image, rules, item, source, truth)

        drawing = oracle.draw(item)
        got = grade(drawing)
        checks.record("oracle", item, correct(item, got), got, read=got.status != "noncompliance")
        wrong = oracle.draw(item, wrong=True)
        for k, (name, perturb) in enumerate(PERTURBATIONS.items()):
            got = grade(perturb(drawing, perturbation_rng(item, k, seed), item, oracle, False))
            read = got.status in ("correct", "partial", "incorrect")
            checks.record(name, item, correct(item, got), got, read=read)
        got = grade(wrong)
        checks.record("wrong", item, not correct(item, got) and got.status != "noncompliance", got)
        stays = True
        for k, (name, perturb) in enumerate(PERTURBATIONS.items()):
            if name not in SINGLE:
                continue
            got = grade(perturb(wrong, perturbation_rng(item, k, seed), item, oracle, True))
            if correct(item, got):
                stays = False
                checks.failures["wrong_perturbed"].append(f"{item.item_id}: {name} reads right")
        checks.passed["wrong_perturbed"] += stays
        for name, image in (("empty", oracle.empty(item)), ("full", oracle.full(item))):
            got = grade(image)
            checks.record(name, item, got.status == "noncompliance", got)
        reply = Reply(item.item_id, "oracle", "text", output=oracle.text(item))
        got = grade_reply(items.folder, item, reply)
        checks.record("text", item, got.score == 1.0, got)
    return dict(results)


def overall(results: dict[str, TaskChecks], check: str) -> float:
    """The share of all items, every task together, that pass ``check``, in percent."""
    items = sum(c.items for c in results.values())
    return 100.0 * sum(c.passed[check] for c in results.values()) / items if items else 0.0


def table(results: dict[str, TaskChecks], tasks: Sequence[str]) -> str:
    """One row per check, one column per task (and all items together)."""
    present = [task for task in tasks if task in results]
    header = ["check", *present, "all"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    counts = [str(results[task].items) for task in present]
    lines.append("| items | " + " | ".join(counts) + f" | {sum(map(int, counts))} |")
    for check in CHECKS:
        cells = [f"{results[task].rate(check):.1f}" for task in present]
        lines.append(f"| {check} | " + " | ".join(cells) + f" | {overall(results, check):.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites.provise.checks", description=__doc__)
    parser.add_argument("items", type=Path, help="a built ProVisE items folder")
    parser.add_argument("--json", type=Path, help="also write every rate and failure here")
    args = parser.parse_args(argv)
    items = read_items(args.items, SUITE)
    results = run_checks(items)
    print(table(results, SUITE.tasks), end="")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    task: {
                        "items": c.items,
                        "rates": {k: c.rate(k) for k in CHECKS},
                        "read": {k: c.read[k] for k in CHECKS},
                        "failures": {k: v for k, v in c.failures.items() if v},
                    }
                    for task, c in results.items()
                },
                indent=2,
            )
        )
    failed = any(
        c.failures.get(k)
        for c in results.values()
        for k in ("oracle", "wrong", "wrong_perturbed", "empty", "full", "text")
    ) or any(
        overall(results, k) < 98.0 or any(c.rate(k) < 95.0 for c in results.values())
        for k in SINGLE
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
