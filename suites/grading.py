"""Grading a suite's replies and aggregating the grades into one table, the same for every suite.

Each (model, variant) is a row; so is each baseline the suite defines (``baseline:<name>``)
and each shortcut of its battery (``shortcut:<name>``, on the tasks it answers).
A row's score per task is the mean of its items' scores; its overall score is the suite's
``Aggregation`` of them (by default the unweighted mean of the per-task means); every mean
carries a seeded bootstrap CI (``spatialbabel.stats``). Breakdown columns (level, relation,
frame, ...) are the same aggregation over the items whose ``group`` has that value.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import SCHEMA_VERSION, atomic_write_text, write_json
from spatialbabel.stats import Estimate, bootstrap_macro_mean, bootstrap_mean
from suites.answers import UngradedLine
from suites.base import STATUSES, Grade, Item, Reply, Suite
from suites.items import ItemSet

BASELINE_PREFIX: Final = "baseline:"
SHORTCUT_PREFIX: Final = "shortcut:"
BASELINE_VARIANT: Final = "-"
SCORES_FILE: Final = "scores.json"
TABLE_FILE: Final = "table.md"
CSV_FILE: Final = "table.csv"


@dataclass(frozen=True)
class Graded:
    item: Item
    reply: Reply
    grade: Grade

    def to_dict(self) -> dict[str, Any]:
        return {
            "item_id": self.item.item_id,
            "scene_id": self.item.scene_id,
            "task": self.item.task,
            "model": self.reply.model,
            "variant": self.reply.variant,
            "truncated": self.reply.truncated,
            "line": self.reply.line,
            **self.grade.to_dict(),
        }


def grade_reply(suite: Suite, item: Item, reply: Reply) -> Grade:
    """The suite's verdict, after the checks every suite shares: a failed or missing request is
    a generation failure before the suite sees it. Every grade carries the item's protocol
    (``Suite.protocol_of``) when the suite has one."""
    if reply.error is not None:
        grade = Grade.unread("generation_failure", reply.error)
    elif reply.image is None and not reply.output.strip():
        grade = Grade.unread("generation_failure", "the reply is empty")
    else:
        grade = suite.grade(item, reply)
    protocol = suite.protocol_of(item)
    return grade if protocol is None else grade.with_protocol(protocol)


def grade_all(suite: Suite, items: ItemSet, replies: Sequence[Reply]) -> list[Graded]:
    """Every reply graded, then every baseline of the suite and every shortcut of its battery
    (seed 42, the paper's)."""
    by_id = items.by_id()
    suite.prepare(items.folder, items.items)
    graded = [Graded(by_id[r.item_id], r, grade_reply(suite, by_id[r.item_id], r)) for r in replies]
    return graded + grade_references(suite, items.items)


def grade_references(suite: Suite, items: Sequence[Item], seed: int = 42) -> list[Graded]:
    """The suite's baselines on every item, and each shortcut on the items of its tasks, as
    rows ``baseline:<name>`` and ``shortcut:<name>``. The suite must be prepared."""
    graded: list[Graded] = []
    references: list[tuple[str, Mapping[str, Reply], tuple[str, ...] | None]] = [
        (BASELINE_PREFIX + name, answers, None)
        for name, answers in suite.baselines(items, seed).items()
    ]
    references += [
        (SHORTCUT_PREFIX + shortcut.name, shortcut.answers, shortcut.tasks)
        for shortcut in suite.shortcuts(items, seed)
    ]
    for model, answers, tasks in references:
        for item in items:
            if tasks is not None and item.task not in tasks:
                continue
            given = answers.get(item.item_id)
            reply = Reply(
                item.item_id,
                model,
                BASELINE_VARIANT,
                output="" if given is None else given.output,
                image=None if given is None else given.image,
                error="no guess" if given is None else given.error,
            )
            graded.append(Graded(item, reply, grade_reply(suite, item, reply)))
    return graded


@dataclass(frozen=True)
class Row:
    """One model and variant (or a baseline) over all items."""

    model: str
    variant: str
    overall: Estimate
    tasks: Mapping[str, Estimate]
    breakdowns: Mapping[str, Mapping[str, Estimate]]
    statuses: Mapping[str, int]
    truncated: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "variant": self.variant,
            "overall": self.overall.to_dict(),
            "tasks": {task: e.to_dict() for task, e in self.tasks.items()},
            "breakdowns": {
                key: {value: e.to_dict() for value, e in values.items()}
                for key, values in self.breakdowns.items()
            },
            "statuses": dict(self.statuses),
            "truncated": self.truncated,
        }


def _overall(suite: Suite, rows: Sequence[Graded]) -> Estimate:
    rule = suite.aggregation
    return bootstrap_macro_mean(
        [g.grade.score for g in rows],
        [g.item.task for g in rows],
        groups=[g.item.scene_id for g in rows] if rule.resample == "scenes" else None,
        macro=rule.overall == "macro",
        seed=rule.seed,
        resamples=rule.resamples,
    )


def _task(suite: Suite, rows: Sequence[Graded]) -> Estimate:
    rule = suite.aggregation
    scores = [g.grade.score for g in rows]
    if rule.resample == "scenes":
        return bootstrap_mean(
            scores, groups=[g.item.scene_id for g in rows], seed=rule.seed, resamples=rule.resamples
        )
    return bootstrap_mean(scores, seed=rule.seed, resamples=rule.resamples)


def _reference_rank(model: str) -> int:
    return 1 if model.startswith(BASELINE_PREFIX) else 2 if model.startswith(SHORTCUT_PREFIX) else 0


def aggregate(suite: Suite, graded: Sequence[Graded]) -> list[Row]:
    """One row per (model, variant), models first in name order, then the baselines, then the
    shortcuts."""
    by_row: dict[tuple[str, str], list[Graded]] = defaultdict(list)
    for entry in graded:
        by_row[(entry.reply.model, entry.reply.variant)].append(entry)
    order = sorted(by_row, key=lambda key: (_reference_rank(key[0]), key))
    rows: list[Row] = []
    for model, variant in order:
        entries = by_row[(model, variant)]
        per_task: dict[str, list[Graded]] = defaultdict(list)
        for entry in entries:
            per_task[entry.item.task].append(entry)
        breakdowns: dict[str, dict[str, Estimate]] = {}
        for key in suite.breakdowns:
            values: dict[str, list[Graded]] = defaultdict(list)
            for entry in entries:
                if key in entry.item.group:
                    values[entry.item.group[key]].append(entry)
            breakdowns[key] = {value: _overall(suite, values[value]) for value in sorted(values)}
        statuses = Counter(entry.grade.status for entry in entries)
        rows.append(
            Row(
                model=model,
                variant=variant,
                overall=_overall(suite, entries),
                tasks={
                    task: _task(suite, per_task[task]) for task in suite.tasks if task in per_task
                },
                breakdowns=breakdowns,
                statuses={status: statuses.get(status, 0) for status in STATUSES},
                truncated=sum(entry.reply.truncated for entry in entries),
            )
        )
    return rows


def _pct(estimate: Estimate | None, *, ci: bool = False) -> str:
    if estimate is None or estimate.n == 0:
        return "-"
    text = f"{100 * estimate.mean:.1f}"
    return f"{text} [{100 * estimate.low:.1f}, {100 * estimate.high:.1f}]" if ci else text


def _columns(suite: Suite, rows: Sequence[Row]) -> list[tuple[str, str, str | None]]:
    """(header, kind, key): the overall score, every task, then every breakdown value."""
    columns: list[tuple[str, str, str | None]] = [("overall", "overall", None)]
    columns += [(task, "task", task) for task in suite.tasks if any(task in r.tasks for r in rows)]
    for key in suite.breakdowns:
        values = sorted({value for row in rows for value in row.breakdowns.get(key, {})})
        columns += [(f"{key}={value}", key, value) for value in values]
    return columns


def _cell(row: Row, kind: str, key: str | None, *, ci: bool = False) -> str:
    if kind == "overall":
        return _pct(row.overall, ci=ci)
    if kind == "task":
        return _pct(row.tasks.get(key or ""), ci=ci)
    return _pct(row.breakdowns.get(kind, {}).get(key or ""), ci=ci)


def markdown_table(suite: Suite, rows: Sequence[Row]) -> str:
    """Scores in percent; the overall column with its 95% CI."""
    columns = _columns(suite, rows)
    header = ["model", "variant", *(name for name, _, _ in columns), "unread", "truncated"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        unread = sum(
            n
            for status, n in row.statuses.items()
            if status not in ("correct", "partial", "incorrect")
        )
        cells = [
            row.model,
            row.variant,
            *(_cell(row, kind, key, ci=kind == "overall") for _, kind, key in columns),
            str(unread),
            str(row.truncated),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def csv_table(suite: Suite, rows: Sequence[Row]) -> str:
    import csv
    import io

    columns = _columns(suite, rows)
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    header = ["model", "variant"]
    for name, _, _ in columns:
        header += [name, f"{name}_low", f"{name}_high", f"{name}_n"]
    writer.writerow(header + [*STATUSES, "truncated"])
    for row in rows:
        values: list[object] = [row.model, row.variant]
        for _, kind, key in columns:
            estimate = (
                row.overall
                if kind == "overall"
                else row.tasks.get(key or "")
                if kind == "task"
                else row.breakdowns.get(kind, {}).get(key or "")
            )
            if estimate is None or estimate.n == 0:
                values += ["", "", "", 0]
            else:
                values += [
                    f"{estimate.mean:.6f}",
                    f"{estimate.low:.6f}",
                    f"{estimate.high:.6f}",
                    estimate.n,
                ]
        writer.writerow(values + [row.statuses.get(s, 0) for s in STATUSES] + [row.truncated])
    return stream.getvalue()


def write_scores(
    out: Path,
    suite: Suite,
    items: ItemSet,
    graded: Sequence[Graded],
    rows: Sequence[Row],
    problems: Sequence[UngradedLine],
    *,
    answers: Path | None,
) -> list[Path]:
    """``scores.json`` (every grade, every row, every problem, the shortcut battery's
    verdicts, the paired comparisons of variants), ``table.md`` (with the verdicts, the
    comparisons and the suite's summary under the table) and ``table.csv``."""
    from suites.paired import compare, markdown_comparisons
    from suites.shortcuts import check_rows, markdown_checks

    checks = check_rows(suite, rows)
    comparisons = compare(
        suite,
        [
            (g.item, g.reply.model, g.reply.variant, g.grade.score)
            for g in graded
            if not _reference_rank(g.reply.model)
        ],
    )
    summary = suite.summary(items.items)
    write_json(
        out / SCORES_FILE,
        {
            "schema_version": SCHEMA_VERSION,
            "suite": suite.name,
            "suite_version": suite.version,
            "items_sha256": items.manifest.get("items_sha256"),
            "answers": None if answers is None else str(answers),
            "aggregation": {
                "overall": suite.aggregation.overall,
                "resample": suite.aggregation.resample,
                "resamples": suite.aggregation.resamples,
                "seed": suite.aggregation.seed,
            },
            "rows": [row.to_dict() for row in rows],
            **({"shortcuts": [check.to_dict() for check in checks]} if checks else {}),
            **({"comparisons": [c.to_dict() for c in comparisons]} if comparisons else {}),
            "problems": [problem.to_dict() for problem in problems],
            "grades": [entry.to_dict() for entry in graded],
        },
    )
    battery = "\nShortcut battery (each must not beat chance):\n\n" + markdown_checks(checks)
    paired = (
        "\nPaired comparisons (variant - baseline on the items both were asked; McNemar's exact "
        "test on the discordant items):\n\n" + markdown_comparisons(comparisons)
    )
    atomic_write_text(
        out / TABLE_FILE,
        markdown_table(suite, rows)
        + (battery if checks else "")
        + (paired if comparisons else "")
        + (f"\n{summary}" if summary else ""),
    )
    atomic_write_text(out / CSV_FILE, csv_table(suite, rows))
    return [out / SCORES_FILE, out / TABLE_FILE, out / CSV_FILE]


__all__ = [
    "BASELINE_PREFIX",
    "SHORTCUT_PREFIX",
    "Graded",
    "Row",
    "aggregate",
    "csv_table",
    "grade_all",
    "grade_references",
    "grade_reply",
    "markdown_table",
    "write_scores",
]
