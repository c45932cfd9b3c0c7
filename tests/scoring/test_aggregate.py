"""Cell means with bootstrap CIs, the Reconstruct Score of a cell, per-model gaps, tiers."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from parsers import parse
from scoring import (
    ALL_LANGUAGES,
    COMPOSITES,
    ReplyScore,
    ScoreOptions,
    aggregate,
    composite_values,
    score_reply,
)
from tests.scoring.helpers import layout, moved, value
from tests.scoring.test_metrics import HAND_POSITION, HAND_SCALE, hand_example


def jittered_replies(
    n: int, *, seed: int = 0, model: str = "m", language: str = "json"
) -> list[ReplyScore]:
    rng = np.random.default_rng(seed)
    replies = []
    for i in range(n):
        truth = replace(layout(1000 + i, count=4), scene_id=f"s{i:03d}", meta={"tier": i % 5 + 1})
        prediction = moved(truth, rng.normal(0, rng.uniform(0.05, 0.6), (4, 3)))
        replies.append(
            replace(score_reply(prediction, truth), model=model, language=language, mode="m0")
        )
    return replies


def test_ci_contains_the_mean_and_narrows_as_n_grows() -> None:
    widths = []
    for n in (10, 40, 160):
        cell = aggregate(jittered_replies(n), seed=0).cells[0]
        for name in ("score", "position_fidelity"):
            e = cell.estimates[name]
            assert e.low <= e.mean <= e.high and e.n == n
        widths.append(
            cell.estimates["position_fidelity"].high - cell.estimates["position_fidelity"].low
        )
    assert widths[0] > widths[1] > widths[2] > 0


def test_bootstrap_is_seeded() -> None:
    replies = jittered_replies(20)
    a = aggregate(replies, seed=3).cells[0].estimates["score"]
    b = aggregate(replies, seed=3).cells[0].estimates["score"]
    c = aggregate(replies, seed=4).cells[0].estimates["score"]
    assert a == b and (a.low, a.high) != (c.low, c.high) and a.mean == c.mean


def hand_cell(options: ScoreOptions) -> list[ReplyScore]:
    truth, prediction = hand_example()
    good = replace(
        score_reply(prediction, truth, options=options), model="m", language="json", mode="x"
    )
    failed = replace(
        score_reply(parse("no scene", "json"), truth, options=options),
        model="m",
        language="json",
        mode="x",
        scene_id="hand2",
    )
    return [good, failed]


def test_paper_rule_averages_class_and_fidelities_over_parsed_replies() -> None:
    cell = aggregate(hand_cell(ScoreOptions()), seed=0).cells[0]
    assert cell.mean("parse") == 0.5
    assert cell.mean("f1") == pytest.approx(0.4, abs=1e-12)
    assert cell.mean("class_accuracy") == 0.5
    assert cell.mean("position_fidelity") == pytest.approx(HAND_POSITION, abs=1e-12)
    expected = (0.5 + 0.4 + 0.5 + HAND_POSITION + HAND_SCALE) / 5
    assert cell.mean("score") == pytest.approx(expected, abs=1e-9)
    assert cell.n == 2 and cell.n_parsed == 1


def test_failed_as_zero_averages_everything_over_every_reply() -> None:
    cell = aggregate(hand_cell(ScoreOptions(failed_as_zero=True)), seed=0).cells[0]
    assert cell.mean("class_accuracy") == 0.25
    expected = (0.5 + 0.4 + 0.25 + HAND_POSITION / 2 + HAND_SCALE / 2) / 5
    assert cell.mean("score") == pytest.approx(expected, abs=1e-9)


def test_composite_values_average_to_the_mean_of_the_part_means() -> None:
    replies = jittered_replies(12) + hand_cell(ScoreOptions())
    values = composite_values(replies, COMPOSITES[0])
    parts = []
    for name in COMPOSITES[0].parts:
        defined = [value(r, name) for r in replies if r.values[name] is not None]
        parts.append(sum(defined) / len(defined))
    assert values.mean() == pytest.approx(sum(parts) / 5, abs=1e-12)


def test_a_cell_where_nothing_parsed_scores_from_parse_and_f1_only() -> None:
    truth, _ = hand_example()
    failed = [replace(score_reply(parse("", "json"), truth), model="m", language="json", mode="x")]
    cell = aggregate(failed, seed=0).cells[0]
    assert cell.mean("score") == 0.0
    assert math.isnan(cell.mean("class_accuracy"))


def test_delta_best_and_worst_language_per_model() -> None:
    replies = []
    for language, noise_seed in (("threejs", 1), ("json", 2), ("dsl", 3)):
        for r in jittered_replies(6, seed=noise_seed, language=language):
            replies.append(r)
    summary = aggregate(replies, seed=0)
    model = summary.models[0]
    scores = {c.language: c.mean("score") for c in summary.cells}
    assert list(model.scores) == ["threejs", "json", "dsl"]  # the benchmark's language order
    assert model.best == max(scores, key=scores.__getitem__)
    assert model.worst == min(scores, key=scores.__getitem__)
    assert model.delta == pytest.approx(max(scores.values()) - min(scores.values()), abs=1e-15)


def test_per_tier_breakdown() -> None:
    replies = jittered_replies(20, language="json") + jittered_replies(20, seed=5, language="dsl")
    summary = aggregate(replies, seed=0)
    assert sorted((c.language, c.tier, c.n) for c in summary.tiers) == sorted(
        (lang, t, 4) for lang in ("json", "dsl") for t in range(1, 6)
    )
    pooled = [c for c in summary.model_tiers if c.tier == 2]
    assert len(pooled) == 1 and pooled[0].language == ALL_LANGUAGES and pooled[0].n == 8
    tier2 = [r for r in replies if r.tier == 2]
    assert pooled[0].mean("position_fidelity") == pytest.approx(
        np.mean([value(r, "position_fidelity") for r in tier2]), abs=1e-12
    )
