"""Uncertainty shared by every scorer: seeded percentile bootstrap over scenes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

DEFAULT_RESAMPLES: Final = 1000
DEFAULT_CONFIDENCE: Final = 0.95


@dataclass(frozen=True)
class Estimate:
    """A mean with its percentile-bootstrap confidence interval over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def bootstrap_mean(
    values: Sequence[float] | NDArray[np.float64],
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    groups: Sequence[str] | None = None,
) -> Estimate:
    """Mean of ``values`` with a percentile bootstrap CI.

    With ``groups`` (one label per value, e.g. the scene id) whole groups are resampled, so
    several values of one scene move together. NaNs are left out; an empty input gives NaNs.
    """
    data = np.asarray(values, dtype=float)
    labels = None if groups is None else np.asarray(groups)
    keep = ~np.isnan(data)
    data = data[keep]
    if labels is not None:
        labels = labels[keep]
    if data.size == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    mean = float(data.mean())
    if data.size == 1:
        return Estimate(mean, mean, mean, 1)
    rng = np.random.default_rng(seed)
    alpha = (1.0 - confidence) / 2.0
    if labels is None:
        draws = rng.integers(0, data.size, size=(resamples, data.size))
        means = data[draws].mean(axis=1)
    else:
        unique, inverse = np.unique(labels, return_inverse=True)
        sums = np.bincount(inverse, weights=data, minlength=unique.size)
        counts = np.bincount(inverse, minlength=unique.size).astype(float)
        draws = rng.integers(0, unique.size, size=(resamples, unique.size))
        means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return Estimate(mean, float(min(low, mean)), float(max(high, mean)), int(data.size))
