"""What a build says about the model's own data: the filter's pass rate and rejection reasons,
how much of each true scene the pseudo-ground truth covers, the pseudo-ground truth's own
Reconstruct Score and F1 against the true scenes (the scorer's, ``scoring.score_reply``), and
the records per task and per view. ``build`` writes these as ``stats.json``; ``stats`` prints
them as tables (``format_tables``) and ``s3ft.report`` draws them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from s3ft.pseudo import ReplyVerdict
from s3ft.quality import REJECTION_TEXT, REJECTIONS
from s3ft.records import DESCRIPTION_TASK, PARAPHRASE_TASK, QA_PREFIX, Record
from s3ft.replies import ReplySet
from s3ft.tasks import TASK_NAMES
from spatialbabel.qa import CATEGORIES
from spatialbabel.stats import Estimate, bootstrap_mean

KIND: Final = "spatialbabel-s3ft"


@dataclass(frozen=True)
class SceneQuality:
    """The pseudo-ground truth of one scene measured against the true scene."""

    scene_id: str
    predicted: int
    true: int
    reconstruct_score: float | None
    f1: float | None

    @property
    def coverage(self) -> float:
        return self.predicted / self.true if self.true else math.nan


def _estimate(estimate: Estimate) -> dict[str, float | int | None]:
    """The hub's estimate as JSON: NaN (no value) as null, means to four decimals."""
    return {
        k: (None if math.isnan(v) else round(v, 4)) if isinstance(v, float) else v
        for k, v in estimate.to_dict().items()
    }


def _mean(values: Sequence[float | None], seed: int) -> dict[str, float | int | None]:
    data = [math.nan if v is None else float(v) for v in values]
    return _estimate(bootstrap_mean(data, seed=seed))


#: The order tasks are listed in: the nine structured ones as numbered, then the QA pairs by
#: category, the description and the code-prompt paraphrases.
TASK_ORDER: Final[tuple[str, ...]] = (
    *TASK_NAMES,
    *(QA_PREFIX + c for c in CATEGORIES),
    DESCRIPTION_TASK,
    PARAPHRASE_TASK,
)


def task_order(tasks: set[str]) -> list[str]:
    known = [t for t in TASK_ORDER if t in tasks]
    return known + sorted(tasks - set(known))


def view_order(views: set[str]) -> list[str]:
    return sorted(views, key=lambda v: (v != "front", len(v), v))


def filter_stats(verdicts: Sequence[ReplyVerdict]) -> dict[str, Any]:
    judged = len(verdicts)
    passed = sum(v.passed for v in verdicts)
    primary = Counter(v.rejections[0] for v in verdicts if v.rejections)
    every = Counter(reason for v in verdicts for reason in v.rejections)
    dropped: Counter[str] = Counter()
    for v in verdicts:
        dropped.update(v.dropped)
    return {
        "replies": judged,
        "passed": passed,
        "pass_rate": round(passed / judged, 4) if judged else None,
        "rejected": judged - passed,
        "rejections": {r: primary.get(r, 0) for r in REJECTIONS},
        "failed_checks": {r: every.get(r, 0) for r in REJECTIONS},
        "no_objects": sum(v.status == "no_objects" for v in verdicts),
        "kept": sum(v.status == "kept" for v in verdicts),
        "truncated": sum(v.truncated for v in verdicts),
        "truncated_kept": sum(v.truncated and v.status == "kept" for v in verdicts),
        "dropped_objects": dict(sorted(dropped.items())),
    }


def pseudo_truth_stats(scenes: Sequence[SceneQuality], seed: int) -> dict[str, Any]:
    predicted = sum(s.predicted for s in scenes)
    true = sum(s.true for s in scenes)
    return {
        "scenes": len(scenes),
        "coverage": {
            "mean_ratio": _mean([s.coverage for s in scenes], seed),
            "predicted_per_scene": round(predicted / len(scenes), 3) if scenes else None,
            "true_per_scene": round(true / len(scenes), 3) if scenes else None,
            "ratio_of_totals": round(predicted / true, 4) if true else None,
        },
        "reconstruct_score": _mean([s.reconstruct_score for s in scenes], seed),
        "f1": _mean([s.f1 for s in scenes], seed),
        "per_scene": [
            {
                "scene_id": s.scene_id,
                "predicted": s.predicted,
                "true": s.true,
                "reconstruct_score": None
                if s.reconstruct_score is None
                else round(s.reconstruct_score, 4),
                "f1": None if s.f1 is None else round(s.f1, 4),
            }
            for s in scenes
        ],
    }


def record_stats(records: Sequence[Record]) -> dict[str, Any]:
    tasks = task_order({r.task for r in records})
    views = view_order({r.view for r in records})
    by_task = {t: {v: 0 for v in views} for t in tasks}
    for r in records:
        by_task[r.task][r.view] += 1
    splits = Counter(r.split for r in records)
    scenes: dict[str, set[str]] = {}
    for r in records:
        scenes.setdefault(r.split, set()).add(r.scene_id)
    lengths: dict[str, list[int]] = {t: [] for t in tasks}
    for r in records:
        lengths[r.task].append(len(r.system or "") + len(r.instruction) + len(r.answer))
    return {
        "total": len(records),
        "by_task": by_task,
        "characters": {
            t: {"median": int(np.median(v)), "max": max(v)} for t, v in lengths.items() if v
        },
        "by_view": {v: sum(by_task[t][v] for t in tasks) for v in views},
        "by_kind": dict(Counter(r.kind for r in records)),
        "view_invariant": sum(r.view_invariant for r in records),
        "by_split": dict(sorted(splits.items())),
        "scenes_by_split": {k: len(v) for k, v in sorted(scenes.items())},
    }


def build_stats(
    *,
    replies: ReplySet,
    verdicts: Sequence[ReplyVerdict],
    scenes: Sequence[SceneQuality],
    records: Sequence[Record],
    options: Mapping[str, Any],
    phase1_scenes: int,
    seconds: float,
    seed: int = 0,
) -> dict[str, Any]:
    return {
        "kind": KIND,
        "model": replies.model,
        "mode": replies.mode,
        "phase1_prompt": replies.phase1_prompt,
        "replies_file": str(replies.path),
        "replies_format": replies.format,
        "options": dict(options),
        "input": {
            "phase1_scenes": phase1_scenes,
            "unanswered_scenes": len(replies.unanswered),
            "problems": replies.problem_counts(),
            "problem_lines": [p.to_dict() for p in replies.problems],
            "other_models": dict(replies.other_models),
            "other_modes": dict(replies.other_modes),
        },
        "filter": filter_stats(verdicts),
        "pseudo_truth": pseudo_truth_stats(scenes, seed),
        "records": record_stats(records),
        "seconds": round(seconds, 3),
    }


# --------------------------------------------------------------------------- tables


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(estimate: Mapping[str, Any], digits: int = 3) -> str:
    if estimate.get("mean") is None:
        return "-"
    return (
        f"{_num(estimate['mean'], digits)} [{_num(estimate['low'], digits)}, "
        f"{_num(estimate['high'], digits)}]"
    )


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        return "  ".join(
            [
                str(first).ljust(widths[0]),
                *(str(c).rjust(w) for c, w in zip(rest, widths[1:], strict=True)),
            ]
        )

    return "\n".join([line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])


def prompt_name(stats: Mapping[str, Any]) -> str:
    """Which prompt the replies answered: ``phase-1`` (the paper's route) or the benchmark's
    reconstruction prompt in its mode."""
    if stats.get("phase1_prompt", False):
        return "phase-1"
    return f"reconstruct {stats.get('mode', '?')}"


OLD_ROUTE_NOTE: Final = (
    "note: these replies answer the benchmark's reconstruction prompt, which asks for the objects "
    "only (no scene, lights or camera): a reply that obeys it fails the filter. The paper's route "
    "is S3-FT's phase-1 prompt: spatialbabel prompts --task s3ft-phase1 (docs/s3ft.md)."
)


def summary_rows(stats_list: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """One row per build (model): the filter, coverage, and the pseudo-ground truth's scores."""
    header = [
        "model",
        "prompt",
        "replies",
        "passed",
        "pass rate",
        "no objects",
        "kept",
        "coverage",
        "objects (pred / true)",
        "Reconstruct Score",
        "F1",
    ]
    rows = []
    for stats in stats_list:
        f, p = stats["filter"], stats["pseudo_truth"]
        coverage = p["coverage"]
        rows.append(
            [
                stats["model"] or "-",
                prompt_name(stats),
                str(f["replies"]),
                str(f["passed"]),
                _pct(f["pass_rate"]),
                str(f["no_objects"]),
                str(f["kept"]),
                _pct(coverage["mean_ratio"]["mean"]),
                f"{_num(coverage['predicted_per_scene'], 1)} / {_num(coverage['true_per_scene'], 1)}",
                _ci(p["reconstruct_score"]),
                _ci(p["f1"]),
            ]
        )
    return header, rows


def rejection_rows(stats_list: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["reason", *[s["model"] or "-" for s in stats_list]]
    rows = [
        [REJECTION_TEXT[r], *[str(s["filter"]["rejections"].get(r, 0)) for s in stats_list]]
        for r in REJECTIONS
    ]
    rows.append(
        ["passed the filter, no object", *[str(s["filter"]["no_objects"]) for s in stats_list]]
    )
    return header, rows


def record_rows(stats: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    by_task: Mapping[str, Mapping[str, int]] = stats["records"]["by_task"]
    views = view_order({v for counts in by_task.values() for v in counts})
    header = ["task", *views, "total"]
    rows = [
        [task, *(str(counts.get(v, 0)) for v in views), str(sum(counts.values()))]
        for task, counts in by_task.items()
    ]
    totals = stats["records"]["by_view"]
    rows.append(["all", *(str(totals.get(v, 0)) for v in views), str(stats["records"]["total"])])
    return header, rows


def problem_rows(stats_list: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    kinds = list(stats_list[0]["input"]["problems"]) if stats_list else []
    header = ["input problem", *[s["model"] or "-" for s in stats_list]]
    rows = [[k, *[str(s["input"]["problems"].get(k, 0)) for s in stats_list]] for k in kinds]
    rows.append(
        [
            "phase1 scenes without a reply",
            *[str(s["input"]["unanswered_scenes"]) for s in stats_list],
        ]
    )
    return header, rows


def _scenes(count: int) -> str:
    return f"{count} scene" if count == 1 else f"{count} scenes"


def format_summary(stats: Mapping[str, Any]) -> str:
    """What ``build`` prints: the summary table and a line on the records."""
    records = stats["records"]
    split = ", ".join(f"{name} {count}" for name, count in records["by_split"].items())
    note = "" if stats.get("phase1_prompt", False) else f"\n\n{OLD_ROUTE_NOTE}"
    return (
        f"S3-FT pseudo-ground truth\n{text_table(*summary_rows([stats]))}\n\n"
        f"{records['total']} records ({split}; {records['view_invariant']} view-invariant) "
        f"over {_scenes(sum(records['scenes_by_split'].values()))}{note}"
    )


def format_tables(stats_list: Sequence[Mapping[str, Any]]) -> str:
    """Every table of ``stats`` as plain text, for the terminal."""
    parts = [
        "S3-FT pseudo-ground truth",
        text_table(*summary_rows(stats_list)),
        "",
        "Rejections (each reply under its first failed check)",
        text_table(*rejection_rows(stats_list)),
        "",
        text_table(*problem_rows(stats_list)),
    ]
    for stats in stats_list:
        records = stats["records"]
        split = ", ".join(
            f"{name} {count} ({_scenes(records['scenes_by_split'].get(name, 0))})"
            for name, count in records["by_split"].items()
        )
        parts += [
            "",
            f"Records of {stats['model'] or '-'} by task and view: {split}",
            text_table(*record_rows(stats)),
        ]
    return "\n".join(parts)


__all__ = [
    "KIND",
    "OLD_ROUTE_NOTE",
    "SceneQuality",
    "build_stats",
    "filter_stats",
    "format_summary",
    "format_tables",
    "problem_rows",
    "prompt_name",
    "pseudo_truth_stats",
    "record_rows",
    "record_stats",
    "rejection_rows",
    "summary_rows",
    "task_order",
    "text_table",
    "view_order",
]
