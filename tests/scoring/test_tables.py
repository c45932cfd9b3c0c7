"""The tables: the printed one, Markdown, LaTeX and CSV carry the aggregate's numbers."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import replace
from pathlib import Path

import pytest

from scoring import SplitScenes, score_outputs, text_table
from scoring.aggregate import aggregate
from scoring.inputs import PredictionSet
from scoring.metrics import ScoreOptions
from scoring.pipeline import ScoreRun
from scoring.tables import cells_csv, latex_escape, render_latex, render_markdown
from tests.scoring.test_aggregate import jittered_replies


def two_language_run() -> ScoreRun:
    replies = [
        *jittered_replies(8, seed=1, model="model_a", language="json"),
        *jittered_replies(8, seed=2, model="model_a", language="threejs"),
        *jittered_replies(8, seed=3, model="b_model", language="json"),
    ]
    summary = aggregate(replies, seed=0, resamples=200)
    split = SplitScenes(Path("splits/demo"), "eval", {}, frozenset())
    predictions = PredictionSet(Path("replies.jsonl"), (), (), ())
    return ScoreRun(split, predictions, ScoreOptions(), tuple(replies), summary)


def test_printed_table_is_models_by_languages_with_delta() -> None:
    run = two_language_run()
    lines = text_table(run.aggregate, "m0").splitlines()
    assert lines[0].split() == ["model", "threejs", "json", "Δ", "best", "worst"]
    a = run.aggregate.model_summary("model_a", "m0")
    gap = run.aggregate.gap("model_a", "m0")
    assert a is not None and gap is not None
    row = lines[[line.split()[0] for line in lines].index("model_a")].split()
    e = gap.delta
    assert row[1:6] == [
        f"{a.scores['threejs']:.3f}",
        f"{a.scores['json']:.3f}",
        f"{e.mean:.3f}",
        f"[{e.low:.3f},",
        f"{e.high:.3f}]",
    ]
    # Every scene answered in both languages: the paired Δ is the gap of the cell scores.
    assert e.mean == pytest.approx(a.delta, abs=1e-12)
    # Eight noisy scenes: the two languages are not significantly apart, so neither is named.
    assert not gap.significant and row[6:] == ["tied", "tied"]
    b_row = lines[[line.split()[0] for line in lines].index("b_model")].split()
    b = run.aggregate.model_summary("b_model", "m0")
    assert b is not None
    # No threejs reply: no cell; one language: no gap, no best or worst.
    assert b_row == ["b_model", "–", f"{b.scores['json']:.3f}", "–", "–", "–"]


def test_markdown_and_latex_carry_the_scores() -> None:
    run = two_language_run()
    cell = run.aggregate.cell("model_a", "json", "m0")
    assert cell is not None
    e = cell.estimates["score"]
    assert f"{e.mean:.3f} [{e.low:.3f}, {e.high:.3f}]" in render_markdown(run)
    latex = render_latex(run)
    assert r"model\_a &" in latex and r"b\_model &" in latex
    assert f"& {cell.mean('score'):.3f} &" in latex or f"& {cell.mean('score'):.3f} \\\\" in latex


def test_csv_holds_the_exact_estimates() -> None:
    run = two_language_run()
    rows = list(csv.DictReader(io.StringIO(cells_csv(run.aggregate, run.aggregate.cells))))
    assert len(rows) == 3
    for row in rows:
        cell = run.aggregate.cell(row["model"], row["language"], row["mode"])
        assert cell is not None
        for name, estimate in cell.estimates.items():
            if math.isnan(estimate.mean):
                assert row[name] == ""
            else:
                assert (
                    float(row[name]) == estimate.mean and float(row[f"{name}_low"]) == estimate.low
                )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a_b", r"a\_b"), ("50%", r"50\%"), ("x&y", r"x\&y"), ("~", r"\textasciitilde{}")],
)
def test_latex_escape(text: str, expected: str) -> None:
    assert latex_escape(text) == expected


def test_score_outputs_keeps_input_order() -> None:
    replies = jittered_replies(3)
    assert [r.scene_id for r in replies] == ["s000", "s001", "s002"]
    assert score_outputs([], {}) == []
    assert replace(replies[0], line=7).line == 7
