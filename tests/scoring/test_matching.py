"""Hungarian matching: explicit pairs, the unmatched on both sides, and the gated variant."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import match_centres, match_within_gate
from scoring.matching import match_admissible


def test_pairs_and_unmatched_on_both_sides() -> None:
    predicted = np.array([[5.0, 0, 0], [0.1, 0, 0], [2.0, 0, 0]])
    true = np.array([[0.0, 0, 0], [2.2, 0, 0]])
    m = match_centres(predicted, true)
    assert [(p.predicted, p.true) for p in m.pairs] == [(1, 0), (2, 1)]
    assert [p.distance for p in m.pairs] == pytest.approx([0.1, 0.2])
    assert m.unmatched_predicted == (0,)
    assert m.unmatched_true == ()
    assert (m.precision, m.recall, m.f1) == pytest.approx((2 / 3, 1.0, 0.8))


def test_more_true_than_predicted() -> None:
    m = match_centres(np.array([[1.0, 0, 0]]), np.array([[0.0, 0, 0], [1.1, 0, 0], [3.0, 0, 0]]))
    assert [(p.predicted, p.true) for p in m.pairs] == [(0, 1)]
    assert m.unmatched_true == (0, 2)
    assert m.recall == pytest.approx(1 / 3)


def test_minimises_the_total_distance_not_greedy() -> None:
    # Greedy would pair p0 with t0 (0.9) and leave p1 to t1 (3.0); the optimum is 1.1 + 1.0.
    predicted = np.array([[0.0, 0, 0], [2.0, 0, 0]])
    true = np.array([[0.9, 0, 0], [-1.1, 0, 0]])
    m = match_centres(predicted, true)
    assert {(p.predicted, p.true) for p in m.pairs} == {(0, 1), (1, 0)}


def test_empty_sides() -> None:
    m = match_centres(np.zeros((0, 3)), np.array([[0.0, 0, 0]]))
    assert m.pairs == () and m.unmatched_true == (0,) and m.f1 == 0.0
    m = match_centres(np.array([[0.0, 0, 0]]), np.zeros((0, 3)))
    assert m.unmatched_predicted == (0,) and m.precision == 0.0


def test_gate_keeps_as_many_pairs_as_possible() -> None:
    # p0-t0 = 0.9 and p1-t1 = 0.9 are both within the gate (sum 1.8); the least total distance
    # instead pairs p0-t1 = 1.05 (over the gate) and p1-t0 = 0.5 (sum 1.55).
    x = (1.05**2 - 0.9**2 + 1.4**2) / (2 * 1.4)
    predicted = np.array([[0.0, 0.0, 0.0], [1.4, 0.0, 0.0]])
    true = np.array([[0.9, 0.0, 0.0], [x, np.sqrt(1.05**2 - x**2), 0.0]])
    distances = np.linalg.norm(predicted[:, None] - true[None], axis=2)
    assert distances == pytest.approx(np.array([[0.9, 1.05], [0.5, 0.9]]))
    plain = match_centres(predicted, true)
    assert {(p.predicted, p.true) for p in plain.pairs} == {(0, 1), (1, 0)}
    gated = match_within_gate(predicted, true, 1.0)
    assert {(p.predicted, p.true) for p in gated.pairs} == {(0, 0), (1, 1)}
    assert gated.f1 == 1.0


def test_gate_drops_far_pairs() -> None:
    gated = match_within_gate(
        np.array([[0.0, 0, 0], [5.0, 0, 0]]), np.array([[0.5, 0, 0], [9.0, 0, 0]]), 1.0
    )
    assert [(p.predicted, p.true) for p in gated.pairs] == [(0, 0)]
    assert gated.unmatched_predicted == (1,) and gated.unmatched_true == (1,)
    with pytest.raises(ValueError, match="gate"):
        match_within_gate(np.zeros((1, 3)), np.zeros((1, 3)), 0.0)


def test_admissible_matching_with_nothing_admissible() -> None:
    m = match_admissible(np.zeros((2, 2)), np.zeros((2, 2), dtype=bool), np.ones((2, 2)))
    assert m.pairs == () and m.unmatched_predicted == (0, 1) and m.unmatched_true == (0, 1)
