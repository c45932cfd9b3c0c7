"""Code-CoT in each model's best and worst language against answering directly.

The paper's QA table sets Code-CoT in the model's primitive-best language (mode iii) and in its
primitive-worst (mode iv) beside direct answering. Per model, with the picks of
``suites.qa.code_cot_languages``, each difference (``code_cot:<best> - direct``,
``code_cot:<worst> - direct``) is over the questions answered in both modes, with a paired
percentile-bootstrap CI that resamples whole scenes (``spatialbabel.stats``): a scene's
questions share its image, and both modes are drawn with the same scenes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from spatialbabel.stats import PairedDifference, paired_bootstrap_difference
from suites.qa.code_cot_languages import LanguagePick

BASELINE: Final = "direct"


@dataclass(frozen=True)
class BestWorstRow:
    """One model: the picks, and each end's accuracy against direct on the paired questions."""

    pick: LanguagePick
    best: PairedDifference | None
    worst: PairedDifference | None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.pick.to_dict(),
            "best_minus_direct": _difference(self.best),
            "worst_minus_direct": _difference(self.worst),
        }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _difference(found: PairedDifference | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {
        "direct": _number(found.base),
        "code_cot": _number(found.new),
        "difference": {
            k: v if isinstance(v, int) else _number(v)
            for k, v in found.difference.to_dict().items()
        },
        "significant": found.significant,
    }


def _paired(
    rows: list[dict[str, Any]], mode: str, seed: int, resamples: int
) -> PairedDifference | None:
    base = {r["question_id"]: r for r in rows if r["mode"] == BASELINE}
    new = {r["question_id"]: r for r in rows if r["mode"] == mode}
    shared = sorted(set(base) & set(new))
    if not shared:
        return None
    return paired_bootstrap_difference(
        [float(base[q]["correct"]) for q in shared],
        [float(new[q]["correct"]) for q in shared],
        groups=[base[q]["scene_id"] for q in shared],
        seed=seed,
        resamples=resamples,
    )


def best_worst_rows(
    details: Iterable[dict[str, Any]],
    picks: Mapping[str, LanguagePick],
    *,
    seed: int = 0,
    resamples: int = 1000,
) -> list[BestWorstRow]:
    """One row per model that has a pick and answers in the scored details."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in details:
        by_model.setdefault(row["model"], []).append(row)
    return [
        BestWorstRow(
            picks[model],
            _paired(rows, picks[model].best_mode, seed, resamples),
            _paired(rows, picks[model].worst_mode, seed, resamples),
        )
        for model, rows in sorted(by_model.items())
        if model in picks
    ]


def _cell(found: PairedDifference | None) -> str:
    if found is None:
        return "-"
    d = found.difference
    mark = " *" if found.significant else ""
    return f"{found.new:.3f} ({d.mean:+.3f} [{d.low:+.2f}, {d.high:+.2f}] n={d.n}){mark}"


def format_best_worst(rows: Iterable[BestWorstRow]) -> str:
    """The table: per model the direct accuracy, each end's language and accuracy with its
    difference from direct; a tie among languages is said beside the language."""
    table = [["model", "direct", "best language", "best: acc (- direct)", "worst language",
              "worst: acc (- direct)"]]  # fmt: skip
    for row in rows:
        direct = row.best or row.worst
        table.append(
            [
                row.pick.model,
                f"{direct.base:.3f}" if direct is not None else "-",
                row.pick.text("best"),
                _cell(row.best),
                row.pick.text("worst"),
                _cell(row.worst),
            ]
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = ["Code-CoT in each model's best and worst reconstruction language, against direct"]
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in table
    ]
    lines.append(
        "(- direct): paired difference over the questions answered in both modes, 95% CI "
        "resampling scenes; * its CI excludes 0; tied: not significantly apart in the "
        "reconstruction table"
    )
    return "\n".join(lines)


__all__ = ["BestWorstRow", "best_worst_rows", "format_best_worst"]
