"""A model's gap between languages: Δ with its paired CI over the scenes every language
answered, and best, worst and ranks only where the paired differences are significant."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from scoring import ReplyScore, SplitScenes, aggregate
from scoring.aggregate import composite_values
from scoring.gaps import GAP_COMPOSITE, language_gaps
from scoring.inputs import PredictionSet
from scoring.metrics import ScoreOptions
from scoring.pipeline import ScoreRun
from scoring.tables import gaps_csv, render_latex, render_markdown, text_table
from spatialbabel.stats import paired_bootstrap_difference
from tests.scoring.test_aggregate import jittered_replies

N = 30


def as_language(
    replies: list[ReplyScore],
    language: str,
    *,
    shift: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
) -> list[ReplyScore]:
    """The same replies in another language, position fidelity moved by ``shift`` plus noise."""
    rng = np.random.default_rng(seed)
    out = []
    for r in replies:
        values = dict(r.values)
        if values["position_fidelity"] is not None:
            values["position_fidelity"] += shift + float(rng.normal(0.0, noise))
        out.append(replace(r, language=language, values=values))
    return out


def test_languages_a_thousandth_apart_are_tied() -> None:
    base = jittered_replies(N, seed=1, language="threejs")
    replies = [
        *base,
        *as_language(base, "json", shift=-0.005, noise=0.05, seed=2),  # score -0.001 on average
        *as_language(base, "dsl", noise=0.05, seed=3),
    ]
    gap = aggregate(replies, seed=0, resamples=400).gap("m", "m0")
    assert gap is not None and gap.scenes == N
    assert 0 < gap.delta.mean < 0.01 and not gap.significant
    assert gap.best is None and gap.worst is None
    assert gap.best_text() == "tied" and gap.worst_text() == "tied"
    assert {gap.rank(lang) for lang in gap.languages} == {None}
    assert {gap.standing(lang) for lang in gap.languages} == {"tied"}


def test_a_clearly_worse_language_is_the_worst_and_the_rest_tie_for_best() -> None:
    base = jittered_replies(N, seed=1, language="threejs")
    replies = [
        *base,
        *as_language(base, "unity", noise=0.02, seed=2),
        *as_language(base, "json", shift=-0.3, noise=0.02, seed=3),
    ]
    gap = aggregate(replies, seed=0, resamples=400).gap("m", "m0")
    assert gap is not None
    assert gap.bottom == "json" and gap.worst == "json" and gap.significant
    assert gap.delta.low > 0.04
    assert gap.best is None and set(gap.tied_best) == {"threejs", "unity"}
    assert gap.best_text() in ("tied: threejs, unity", "tied: unity, threejs")
    assert [gap.rank(lang) for lang in ("threejs", "unity", "json")] == [1, 1, 3]
    assert gap.standing("json") == "worst" and gap.standing("threejs") == ""


def test_delta_runs_over_the_scenes_every_language_answered() -> None:
    base = jittered_replies(N, seed=1, language="threejs")
    other = as_language(base, "json", shift=-0.2, noise=0.05, seed=4)
    replies = [*base, *other[3:]]  # json lacks three scenes
    (gap,) = language_gaps(replies, seed=0, resamples=300)
    assert gap.scenes == N - 3
    shared = base[3:]
    expected = paired_bootstrap_difference(
        composite_values(other[3:], GAP_COMPOSITE),
        composite_values(shared, GAP_COMPOSITE),
        groups=[r.scene_id for r in shared],
        seed=0,
        resamples=300,
    )
    # The gap is the paired difference of the two languages, to the last bit of its bounds.
    assert gap.top == "threejs" and gap.bottom == "json"
    assert gap.delta.mean == pytest.approx(expected.difference.mean, abs=1e-12)
    assert (gap.delta.low, gap.delta.high) == pytest.approx(
        (expected.difference.low, expected.difference.high), abs=1e-12
    )
    assert gap.scores["threejs"] == pytest.approx(expected.new, abs=1e-12)


def test_with_every_scene_shared_the_gap_scores_are_the_cell_scores() -> None:
    replies = [
        *jittered_replies(12, seed=1, language="threejs"),
        *jittered_replies(12, seed=2, language="json"),
    ]
    summary = aggregate(replies, seed=0, resamples=200)
    gap = summary.gap("m", "m0")
    assert gap is not None
    for language in gap.languages:
        cell = summary.cell("m", language, "m0")
        assert cell is not None
        assert gap.scores[language] == pytest.approx(cell.mean("score"), abs=1e-12)


def test_one_language_has_no_gap() -> None:
    assert language_gaps(jittered_replies(5), seed=0, resamples=50) == ()


def run_of(replies: list[ReplyScore]) -> ScoreRun:
    summary = aggregate(replies, seed=0, resamples=400)
    split = SplitScenes(Path("splits/demo"), "eval", {}, frozenset())
    predictions = PredictionSet(Path("replies.jsonl"), (), (), ())
    return ScoreRun(split, predictions, ScoreOptions(), tuple(replies), summary)


def marked_run() -> ScoreRun:
    base = jittered_replies(N, seed=1, language="threejs")
    tied = [*base, *as_language(base, "json", shift=-0.005, noise=0.05, seed=2)]
    apart = [
        replace(r, model="apart")
        for r in [
            *base,
            *as_language(base, "json", shift=0.1, noise=0.02, seed=5),
            *as_language(base, "dsl", shift=-0.25, noise=0.02, seed=6),
        ]
    ]
    return run_of([*tied, *apart])


def test_tables_name_best_and_worst_only_where_significant() -> None:
    run = marked_run()
    lines = text_table(run.aggregate, "m0").splitlines()
    tied = next(line for line in lines if line.startswith("m "))
    apart = next(line for line in lines if line.startswith("apart"))
    assert tied.split()[-2:] == ["tied", "tied"]
    assert apart.split()[-2:] == ["json", "dsl"]
    markdown = render_markdown(run)
    cell = run.aggregate.cell("apart", "json", "m0")
    assert cell is not None
    e = cell.estimates["score"]
    assert f"**{e.mean:.3f} [{e.low:.3f}, {e.high:.3f}]**" in markdown
    assert "### Language ranks (significant differences only)" in markdown
    assert "| m | tied | tied | – |" in markdown and "| apart | 2 | 1 | 3 |" in markdown
    latex = render_latex(run)
    assert rf"\textbf{{{e.mean:.3f}}}" in latex and r"$^\dagger$" in latex
    m_row = next(line for line in latex.splitlines() if line.startswith("m &"))
    assert r"\textbf" not in m_row and r"\dagger" not in m_row


def test_gaps_csv_has_a_row_per_language_with_rank_and_standing() -> None:
    run = marked_run()
    rows = list(csv.DictReader(io.StringIO(gaps_csv(run.aggregate))))
    by_key = {(r["model"], r["language"]): r for r in rows}
    assert len(rows) == 5
    assert by_key[("apart", "json")]["standing"] == "best"
    assert by_key[("apart", "dsl")]["standing"] == "worst"
    assert by_key[("apart", "threejs")]["rank"] == "2"
    assert by_key[("m", "json")]["standing"] == "tied" and by_key[("m", "json")]["rank"] == ""
    assert by_key[("m", "json")]["delta_significant"] == "0"
    gap = run.aggregate.gap("apart", "m0")
    assert gap is not None and float(by_key[("apart", "dsl")]["delta_low"]) == gap.delta.low
