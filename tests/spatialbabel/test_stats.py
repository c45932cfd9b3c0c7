"""The shared seeded bootstrap: one mean, and the paired difference of two measurements of
the same units that every comparison (two runs, two modes, two languages) uses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from spatialbabel.stats import (
    Estimate,
    bootstrap_mean,
    paired_bootstrap_difference,
    paired_bootstrap_differences,
    paired_bootstrap_means,
)


def noisy(n: int, seed: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    rng = np.random.default_rng(seed)
    scene = rng.uniform(0.2, 0.9, n)  # how hard each scene is, shared by both runs
    return scene + rng.normal(0, 0.02, n), scene + rng.normal(0, 0.02, n)


def test_identical_columns_differ_by_exactly_zero() -> None:
    a, _ = noisy(40, 0)
    found = paired_bootstrap_difference(a, a.copy())
    assert (found.difference.mean, found.difference.low, found.difference.high) == (0.0, 0.0, 0.0)
    assert found.base == found.new == pytest.approx(a.mean()) and not found.significant


def test_without_gaps_it_is_the_bootstrap_of_the_per_unit_differences() -> None:
    a, b = noisy(50, 1)
    found = paired_bootstrap_difference(a, b + 0.01, seed=3, resamples=500)
    direct = bootstrap_mean(b + 0.01 - a, seed=3, resamples=500)
    assert found.difference.mean == pytest.approx(direct.mean, abs=1e-12)
    assert found.difference.low == pytest.approx(direct.low, abs=1e-12)
    assert found.difference.high == pytest.approx(direct.high, abs=1e-12)
    assert found.difference.n == 50


def test_pairing_removes_what_the_units_share() -> None:
    a, b = noisy(60, 2)
    shifted = b - 0.02
    paired = paired_bootstrap_difference(a, shifted, resamples=500)
    # The scenes vary far more than the change; unpaired intervals would hide it.
    alone = bootstrap_mean(shifted, resamples=500)
    assert paired.significant and paired.difference.high < 0
    assert paired.difference.high - paired.difference.low < (alone.high - alone.low) / 5


def test_a_unit_missing_on_either_side_is_left_out_of_both() -> None:
    a = np.array([0.5, np.nan, 0.7, 0.9])
    b = np.array([0.6, 0.8, np.nan, 1.0])
    found = paired_bootstrap_difference(a, b, resamples=200)
    assert found.base == pytest.approx(0.7) and found.new == pytest.approx(0.8)
    assert found.difference.mean == pytest.approx(0.1) and found.difference.n == 2
    assert found.difference.low == found.difference.high == found.difference.mean  # both 0.1 apart


def test_many_rows_at_once_are_each_row_alone() -> None:
    rng = np.random.default_rng(9)
    base, new = rng.uniform(0, 1, (3, 20)), rng.uniform(0, 1, (3, 20))
    groups = [f"s{k}" for k in range(20)]
    together = paired_bootstrap_differences(base, new, groups=groups, seed=2, resamples=300)
    for k in range(3):
        alone = paired_bootstrap_difference(base[k], new[k], groups=groups, seed=2, resamples=300)
        assert together[k] == alone


def test_groups_resample_whole_units_and_the_draws_are_seeded() -> None:
    a, b = noisy(30, 4)
    groups = [f"s{k // 3}" for k in range(30)]
    one = paired_bootstrap_difference(a, b, groups=groups, seed=5, resamples=300)
    again = paired_bootstrap_difference(a, b, groups=groups, seed=5, resamples=300)
    other = paired_bootstrap_difference(a, b, groups=groups, seed=6, resamples=300)
    assert one == again and one.difference.n == 30  # paired values, drawn in 10 groups
    assert (one.difference.low, one.difference.high) != (
        other.difference.low,
        other.difference.high,
    )


def test_means_of_many_columns_share_one_set_of_resamples() -> None:
    rng = np.random.default_rng(8)
    columns = rng.uniform(0, 1, (4, 25))
    means, resampled, units = paired_bootstrap_means(columns, seed=1, resamples=200)
    assert units == 25 and resampled.shape == (4, 200)
    np.testing.assert_allclose(means, columns.mean(axis=1))
    # Column 3 is column 0 plus 0.1 everywhere: every resample keeps the gap exactly.
    columns[3] = columns[0] + 0.1
    _means, resampled, _ = paired_bootstrap_means(columns, seed=1, resamples=200)
    np.testing.assert_allclose(resampled[3] - resampled[0], 0.1, atol=1e-12)


def test_edge_cases() -> None:
    one = paired_bootstrap_difference([0.5], [0.7])
    assert one.difference.mean == pytest.approx(0.2) and one.difference.low == one.difference.high
    empty = paired_bootstrap_difference([], [])
    assert math.isnan(empty.difference.mean) and empty.difference.n == 0
    with pytest.raises(ValueError, match="differ in length"):
        paired_bootstrap_difference([1.0, 2.0], [1.0])


def test_float_noise_does_not_exclude_zero() -> None:
    # Influence values of one reply in two runs can differ in the last bit (~1e-16).
    assert not Estimate(-1e-16, -2e-16, -1e-17, 6).excludes_zero
    assert Estimate(-0.02, -0.04, -1e-6, 6).excludes_zero
    assert Estimate(0.02, 1e-6, 0.04, 6).above_zero
