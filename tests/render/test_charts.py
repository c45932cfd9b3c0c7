"""Benchmark charts: which language is marked best and worst, ranks, and what each draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("matplotlib")
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation

from render.charts import (
    CellScore,
    Standings,
    TierScore,
    best_and_worst,
    language_color,
    language_ranks,
    rank_heatmap,
    score_bars,
    tier_breakdown,
)
from spatialbabel import LANGUAGES


def cell(model: str, language: str, mean: float) -> CellScore:
    return CellScore(model, language, mean, mean - 0.05, mean + 0.05, 10)


CELLS = [
    cell("m1", "threejs", 0.6),
    cell("m1", "unity", 0.4),
    cell("m1", "json", 0.8),
    cell("m1", "dsl", 0.8),
    cell("m2", "threejs", 0.3),
    cell("m2", "unity", 0.7),
    cell("m2", "json", math.nan),
]


def test_best_and_worst_per_model_with_ties_in_language_order() -> None:
    # m1: json and dsl tie for best; json comes first in the benchmark's order.
    assert best_and_worst(CELLS) == {"m1": ("json", "unity"), "m2": ("unity", "threejs")}


def test_a_model_with_one_scored_language_or_all_equal_has_no_marks() -> None:
    assert best_and_worst([cell("m", "json", 0.5), cell("m", "dsl", math.nan)]) == {}
    assert best_and_worst([cell("m", "json", 0.5), cell("m", "dsl", 0.5)]) == {}


def test_language_ranks_share_ties_and_skip_missing_cells() -> None:
    models, languages, ranks = language_ranks(CELLS)
    assert models == ["m1", "m2"]
    assert languages == ["threejs", "unity", "json", "dsl"]
    np.testing.assert_array_equal(ranks[0], [3, 4, 1, 1])
    assert ranks[1, 0] == 2 and ranks[1, 1] == 1
    assert np.isnan(ranks[1, 2]) and np.isnan(ranks[1, 3])


def bars_of(ax: Axes) -> list[Rectangle]:
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_bars_carry_one_best_and_one_worst_mark_per_model() -> None:
    figure = score_bars(CELLS)
    ax = figure.axes[0]
    labels = sorted(t.get_text() for t in ax.texts)
    assert labels == ["▲ best", "▲ best", "▼ worst", "▼ worst"]
    heights = sorted(round(p.get_height(), 6) for p in bars_of(ax))
    assert heights == sorted([0.6, 0.4, 0.8, 0.8, 0.3, 0.7])  # the NaN cell draws no bar
    assert [t.get_text() for t in ax.get_xticklabels()] == ["m1", "m2"]


def test_bar_marks_sit_over_the_best_and_worst_bars() -> None:
    ax = score_bars(CELLS).axes[0]
    bars = {round(p.get_x() + p.get_width() / 2, 6): p.get_height() for p in bars_of(ax)}
    marks = [t for t in ax.texts if isinstance(t, Annotation)]
    assert len(marks) == 4
    for text in marks:
        x = float(text.xy[0])
        centre = min(bars, key=lambda b: abs(b - x))
        assert abs(centre - x) < 1e-6
        group = [h for x, h in bars.items() if round(x) == round(centre)]  # the model's bars
        expected = max(group) if text.get_text() == "▲ best" else min(group)
        assert bars[centre] == pytest.approx(expected)


def test_heatmap_writes_rank_and_score_in_each_cell() -> None:
    ax = rank_heatmap(CELLS).axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert "1\n0.800" in texts and "4\n0.400" in texts and "2\n0.300" in texts
    assert texts.count("-") == 2


def test_tier_breakdown_has_a_panel_per_model_and_a_pooled_line() -> None:
    tiers = [
        TierScore(m, lang, t, 0.9 - 0.1 * t, 0.85 - 0.1 * t, 0.95 - 0.1 * t, 5)
        for m in ("m1", "m2", "m3", "m4")
        for lang in ("json", "dsl", "all")
        for t in (1, 2, 3)
    ]
    figure = tier_breakdown(tiers)
    visible = [ax for ax in figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["m1", "m2", "m3", "m4"]
    pooled = [line for line in visible[0].lines if line.get_color() == "black"]
    assert len(pooled) == 1 and np.asarray(pooled[0].get_xdata()).tolist() == [1, 2, 3]


def test_each_benchmark_language_keeps_one_colour() -> None:
    assert len({language_color(lang) for lang in LANGUAGES}) == len(LANGUAGES)
    assert language_color("fortran") == language_color("fortran")


def test_mode_difference_bars_mark_the_differences_whose_ci_leaves_out_zero() -> None:
    from render.charts import mode_difference_bars, significant_difference

    differences = [
        CellScore("m1", "json", 0.12, 0.05, 0.2, 6),  # a clear gain
        CellScore("m1", "dsl", -0.03, -0.09, 0.02, 6),  # inside the noise
        CellScore("m2", "json", -0.2, -0.3, -0.1, 6),  # a clear loss
        CellScore("m2", "dsl", math.nan, math.nan, math.nan, 0),  # no difference: no bar
    ]
    assert [significant_difference(c) for c in differences] == [True, False, True, False]
    ax = mode_difference_bars(differences).axes[0]
    bars = bars_of(ax)
    assert sorted(round(p.get_height(), 6) for p in bars) == [-0.2, -0.03, 0.12]
    hatched = {round(p.get_height(), 6) for p in bars if p.get_hatch()}
    assert hatched == {-0.03}
    assert sorted(t.get_text() for t in ax.texts) == ["*", "*"]
    low, high = ax.get_ylim()
    assert low < -0.3 and high > 0.3 and low == pytest.approx(-high)
    assert any(np.asarray(line.get_ydata()).tolist() == [0.0, 0.0] for line in ax.lines)


# The scorer's paired bootstrap: in m1 json is significantly best and unity worst, threejs and
# dsl tie in the middle; in m2 nothing is significant.
STANDINGS = {
    "m1": Standings("json", "unity", {"threejs": 2, "unity": 4, "json": 1, "dsl": 2}),
    "m2": Standings(None, None, {"threejs": None, "unity": None}),
}


def test_with_standings_only_significant_ends_are_marked() -> None:
    ax = score_bars(CELLS, standings=STANDINGS).axes[0]
    assert sorted(t.get_text() for t in ax.texts) == ["▲ best", "▼ worst"]


def test_with_standings_the_heatmap_ranks_significant_differences_and_greys_ties() -> None:
    _models, _languages, ranks = language_ranks(CELLS, STANDINGS)
    np.testing.assert_array_equal(ranks[0], [2, 4, 1, 2])
    assert ranks[1, 0] == 0 and ranks[1, 1] == 0  # tied with all
    ax = rank_heatmap(CELLS, standings=STANDINGS).axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert "tied\n0.300" in texts and "tied\n0.700" in texts and "2\n0.800" in texts
    drawn = ax.images[0].get_array()
    assert drawn is not None
    # Tied cells are drawn in the "bad" colour, not the colour of any rank.
    assert np.ma.is_masked(drawn[1, 0]) or np.isnan(drawn[1, 0])
