"""One-to-one matching of predicted to true objects with scipy's Hungarian solver.

The benchmark's matching pairs objects by the Euclidean distance between their centres in the
canonical frame, minimising the total distance; every object of the smaller side is matched.
The stricter variants keep only pairs passing a test (within a distance gate, oriented-box IoU
at least a threshold) and match as many such pairs as possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from spatialbabel.frames import Matrix


@dataclass(frozen=True)
class Pair:
    """A predicted object (index into the prediction) matched to a true one; ``distance``
    between their centres."""

    predicted: int
    true: int
    distance: float

    def to_dict(self) -> dict[str, Any]:
        return {"predicted": self.predicted, "true": self.true, "distance": self.distance}


@dataclass(frozen=True)
class Matching:
    """Pairs (ordered by true index) and the objects left unmatched on both sides."""

    pairs: tuple[Pair, ...]
    unmatched_predicted: tuple[int, ...]
    unmatched_true: tuple[int, ...]

    @property
    def n_predicted(self) -> int:
        return len(self.pairs) + len(self.unmatched_predicted)

    @property
    def n_true(self) -> int:
        return len(self.pairs) + len(self.unmatched_true)

    @property
    def precision(self) -> float:
        return len(self.pairs) / self.n_predicted if self.n_predicted else 0.0

    @property
    def recall(self) -> float:
        return len(self.pairs) / self.n_true if self.n_true else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall: ``2 |pairs| / (n_predicted + n_true)``."""
        total = self.n_predicted + self.n_true
        return 2.0 * len(self.pairs) / total if total else 0.0

    def indices(self) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """The pairs as index arrays (predicted, true)."""
        rows = np.fromiter((p.predicted for p in self.pairs), dtype=np.intp, count=len(self.pairs))
        cols = np.fromiter((p.true for p in self.pairs), dtype=np.intp, count=len(self.pairs))
        return rows, cols

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": [p.to_dict() for p in self.pairs],
            "unmatched_predicted": list(self.unmatched_predicted),
            "unmatched_true": list(self.unmatched_true),
        }


def centre_distances(predicted: Matrix, true: Matrix) -> Matrix:
    """Euclidean distances (N x M) between predicted (N x 3) and true (M x 3) centres."""
    p = np.asarray(predicted, dtype=float).reshape(-1, 3)
    t = np.asarray(true, dtype=float).reshape(-1, 3)
    difference = p[:, None, :] - t[None, :, :]
    return np.asarray(np.sqrt(np.einsum("ijk,ijk->ij", difference, difference)), dtype=float)


def matching_of(rows: NDArray[np.intp], cols: NDArray[np.intp], distances: Matrix) -> Matching:
    """The matching of an assignment (index arrays from the solver) on a distance matrix."""
    n, m = distances.shape
    # Plain ints and floats (each as int()/float() of the array element), in true-index order.
    predicted, true = rows.tolist(), cols.tolist()
    apart = distances[rows, cols].tolist()
    order = sorted(range(len(true)), key=true.__getitem__)
    pairs = tuple(Pair(predicted[k], true[k], apart[k]) for k in order)
    used_p = {p.predicted for p in pairs}
    used_t = {p.true for p in pairs}
    return Matching(
        pairs,
        tuple(i for i in range(n) if i not in used_p),
        tuple(j for j in range(m) if j not in used_t),
    )


def assign_centres(
    predicted: Matrix, true: Matrix
) -> tuple[NDArray[np.intp], NDArray[np.intp], Matrix]:
    """The benchmark's assignment as index arrays (predicted, true), and the distance matrix."""
    distances = centre_distances(predicted, true)
    if distances.size == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), distances
    rows, cols = linear_sum_assignment(distances)
    return rows, cols, distances


def match_centres(predicted: Matrix, true: Matrix) -> Matching:
    """The benchmark's matching: minimum total centre distance, ``min(N, M)`` pairs."""
    return matching_of(*assign_centres(predicted, true))


def match_distances(distances: Matrix) -> Matching:
    """``match_centres`` from the centre distances already computed."""
    if distances.size == 0:
        return matching_of(np.zeros(0, np.intp), np.zeros(0, np.intp), distances)
    rows, cols = linear_sum_assignment(distances)
    return matching_of(rows, cols, distances)


def match_admissible(cost: Matrix, admissible: NDArray[np.bool_], distances: Matrix) -> Matching:
    """The most pairs among ``admissible`` ones, then the least total ``cost`` among those.

    ``cost`` of admissible pairs must lie in [0, 1]. Inadmissible pairs cost more than any
    ``min(N, M)`` admissible pairs together, so the solver takes one more admissible pair
    whenever it can; the inadmissible pairs it is forced to take are then left out.
    """
    cost = np.asarray(cost, dtype=float)
    allowed = np.asarray(admissible, dtype=bool)
    if cost.size == 0 or not allowed.any():
        return matching_of(np.zeros(0, int), np.zeros(0, int), distances)
    penalty = float(min(cost.shape) + 1)
    rows, cols = linear_sum_assignment(np.where(allowed, cost, penalty))
    keep = allowed[rows, cols]
    return matching_of(rows[keep], cols[keep], distances)


def match_within_gate(predicted: Matrix, true: Matrix, gate: float) -> Matching:
    """The most pairs whose centres lie within ``gate`` of each other (then the least total
    distance): the stricter F1's matching."""
    return match_distances_within_gate(centre_distances(predicted, true), gate)


def match_distances_within_gate(distances: Matrix, gate: float) -> Matching:
    """``match_within_gate`` from the centre distances already computed."""
    if gate <= 0:
        raise ValueError(f"gate must be positive, got {gate}")
    return match_admissible(distances / gate, distances <= gate, distances)
