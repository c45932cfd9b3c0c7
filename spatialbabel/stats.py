"""Uncertainty shared by every scorer: seeded percentile bootstrap over scenes.

``bootstrap_mean`` and ``bootstrap_means`` estimate one mean; ``paired_bootstrap_difference``
(and ``paired_bootstrap_differences`` for many rows at once) compares two measurements of the
same units (two runs, two modes, two languages answering the same scenes) by resampling the
units once for both, so what the units share cancels out; ``paired_bootstrap_means`` gives the
resampled means of several such columns, from the same draws, for statistics of more than two
(the gap between a model's best and worst language).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from spatialbabel.files import JsonFields

DEFAULT_RESAMPLES: Final = 1000
DEFAULT_CONFIDENCE: Final = 0.95
#: An interval must clear 0 by more than this to exclude it: values built by different float
#: operations from equal inputs (influence values of two runs of one reply) differ by ~1e-16.
ZERO_TOLERANCE: Final = 1e-12


@dataclass(frozen=True)
class Estimate:
    """A mean with its percentile-bootstrap confidence interval over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}

    @classmethod
    def from_dict(cls, data: object, fields: JsonFields, where: str) -> Estimate:
        """An estimate as written to JSON (NaN as null); errors name ``where`` in the file."""
        e = fields.mapping(data, where)
        return cls(
            fields.number(e.get("mean"), f"{where}.mean"),
            fields.number(e.get("low"), f"{where}.low"),
            fields.number(e.get("high"), f"{where}.high"),
            fields.integer(e, "n", where) or 0,
        )

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly above or below 0, by more than float noise
        (``ZERO_TOLERANCE``; never for NaN bounds)."""
        return self.above_zero or self.below_zero

    @property
    def above_zero(self) -> bool:
        return self.low > ZERO_TOLERANCE

    @property
    def below_zero(self) -> bool:
        return self.high < -ZERO_TOLERANCE


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
    alpha = (1.0 - confidence) / 2.0
    if labels is None:
        means = data[_draws(seed, resamples, data.size)].mean(axis=1)
    else:
        unique, inverse = np.unique(labels, return_inverse=True)
        sums = np.bincount(inverse, weights=data, minlength=unique.size)
        counts = np.bincount(inverse, minlength=unique.size).astype(float)
        draws = _draws(seed, resamples, unique.size)
        means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return Estimate(mean, float(min(low, mean)), float(max(high, mean)), int(data.size))


def bootstrap_means(
    columns: Sequence[Sequence[float]] | NDArray[np.float64],
    *,
    groups: Sequence[str],
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[Estimate]:
    """``bootstrap_mean`` of each column (a sequence of values, one per label of ``groups``),
    to the last bit, done together: columns whose NaNs fall in the same places share one
    grouping and one set of draws (a table of many metrics over the same scenes)."""
    data = np.asarray(columns, dtype=float).reshape(len(columns), len(groups))
    labels = np.asarray(groups)
    defined = ~np.isnan(data)
    estimates: list[Estimate] = [Estimate(math.nan, math.nan, math.nan, 0)] * len(data)
    alpha = (1.0 - confidence) / 2.0
    patterns: dict[bytes, list[int]] = defaultdict(list)
    for index, row in enumerate(defined):
        patterns[row.tobytes()].append(index)
    for rows in patterns.values():
        keep = defined[rows[0]]
        kept = data[rows][:, keep]
        size = kept.shape[1]
        if size == 0:
            continue
        means = [float(row.mean()) for row in kept]
        if size == 1:
            for index, mean in zip(rows, means, strict=True):
                estimates[index] = Estimate(mean, mean, mean, 1)
            continue
        unique, inverse = np.unique(labels[keep], return_inverse=True)
        sums = np.stack([np.bincount(inverse, weights=row, minlength=unique.size) for row in kept])
        counts = np.bincount(inverse, minlength=unique.size).astype(float)
        draws = _draws(seed, resamples, unique.size)
        # np.take keeps each resample's values contiguous, so each sum runs in the same order
        # as bootstrap_mean's (numpy's pairwise summation depends on the memory layout).
        resampled = np.take(sums, draws, axis=1).sum(axis=2) / counts[draws].sum(axis=1)
        lows, highs = np.quantile(resampled, [alpha, 1.0 - alpha], axis=1)
        for index, mean, low, high in zip(rows, means, lows, highs, strict=True):
            estimates[index] = Estimate(mean, float(min(low, mean)), float(max(high, mean)), size)
    return estimates


def bootstrap_macro_mean(
    values: Sequence[float] | NDArray[np.float64],
    strata: Sequence[str],
    *,
    groups: Sequence[str] | None = None,
    macro: bool = True,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Estimate:
    """The mean of ``values`` over ``strata`` (e.g. task types) with a percentile bootstrap CI.

    ``macro``: the unweighted mean of the per-stratum means, so each stratum counts once;
    else the mean over all values. With ``groups`` (e.g. the scene of each value) whole groups
    are resampled, the same draw for every stratum, so a scene's values move together; without,
    values are resampled inside each stratum (a stratified bootstrap). A stratum that a draw
    leaves empty is left out of that draw's macro mean. NaNs are left out.
    """
    data = np.asarray(values, dtype=float)
    labels = np.asarray(strata)
    if labels.shape != data.shape:
        raise ValueError(f"{data.size} values but {labels.size} strata")
    keep = ~np.isnan(data)
    data, labels = data[keep], labels[keep]
    if data.size == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    names, where = np.unique(labels, return_inverse=True)
    counts = np.bincount(where, minlength=names.size).astype(float)
    sums = np.bincount(where, weights=data, minlength=names.size)
    mean = float((sums / counts).mean()) if macro else float(data.mean())
    alpha = (1.0 - confidence) / 2.0
    if groups is not None:
        group_labels = np.asarray(groups)[keep]
        group_names, group_of = np.unique(group_labels, return_inverse=True)
        if group_names.size == 1:
            return Estimate(mean, mean, mean, int(data.size))
        cell_sums = np.zeros((names.size, group_names.size))
        cell_counts = np.zeros((names.size, group_names.size))
        np.add.at(cell_sums, (where, group_of), data)
        np.add.at(cell_counts, (where, group_of), 1.0)
        draws = _draws(seed, resamples, group_names.size)
        drawn_sums = cell_sums[:, draws].sum(axis=2)
        drawn_counts = cell_counts[:, draws].sum(axis=2)
        if macro:
            with np.errstate(invalid="ignore", divide="ignore"):
                per_stratum = drawn_sums / drawn_counts
            means = np.nanmean(per_stratum, axis=0)
        else:
            means = drawn_sums.sum(axis=0) / drawn_counts.sum(axis=0)
    else:
        rng = np.random.default_rng(seed)
        per_stratum = np.empty((names.size, resamples))
        for index in range(names.size):
            members = data[where == index]
            per_stratum[index] = members[
                rng.integers(0, members.size, size=(resamples, members.size))
            ].mean(axis=1)
        if macro:
            means = per_stratum.mean(axis=0)
        else:
            means = (per_stratum * counts[:, None]).sum(axis=0) / counts.sum()
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return Estimate(mean, float(min(low, mean)), float(max(high, mean)), int(data.size))


def _draws(seed: int, resamples: int, size: int) -> NDArray[np.int64]:
    """The resampled indices: a fresh generator seeded with ``seed`` draws the same ones every
    time, so a table of many cells and metrics draws each size once (read-only, shared)."""
    if isinstance(seed, int):
        return _cached_draws(seed, resamples, size)
    return np.random.default_rng(seed).integers(0, size, size=(resamples, size))


@lru_cache(maxsize=32)
def _cached_draws(seed: int, resamples: int, size: int) -> NDArray[np.int64]:
    draws = np.random.default_rng(seed).integers(0, size, size=(resamples, size))
    draws.flags.writeable = False
    return draws


@dataclass(frozen=True)
class PairedDifference:
    """Two measurements of the same units: each one's mean over the units both measured, and
    the difference ``new - base`` with its paired percentile-bootstrap CI (``difference.n``:
    the paired values)."""

    base: float
    new: float
    difference: Estimate

    @property
    def significant(self) -> bool:
        """Whether the CI of the difference excludes 0."""
        return self.difference.excludes_zero


def paired_bootstrap_differences(
    base: Sequence[Sequence[float]] | NDArray[np.float64],
    new: Sequence[Sequence[float]] | NDArray[np.float64],
    *,
    groups: Sequence[str] | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[PairedDifference]:
    """Row by row, ``mean(new) - mean(base)`` over the same units, with a paired CI.

    ``base[k][j]`` and ``new[k][j]`` measure the same unit ``groups[j]`` (a scene; default: each
    position its own unit). The CI is the percentile bootstrap of the per-unit differences
    (``bootstrap_means``; ``bootstrap_mean`` without groups, to the last bit): each resample
    draws units once for both sides, so what a unit does to both cancels and only the change is
    left to vary. A unit where either side is NaN is left out of both means and the
    difference. Identical rows differ by exactly 0 with the interval [0, 0].

    Callers whose measurement of a cell is not a plain mean over its units (the Reconstruct
    Score, a metric defined on some replies only) pass per-unit values whose mean is that
    measurement (``scoring.aggregate.composite_values``), so that the difference of the means
    is exactly the difference of the cell measurements.
    """
    a = np.asarray(base, dtype=float)
    b = np.asarray(new, dtype=float)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"paired rows differ in shape: {a.shape} and {b.shape}")
    differences = b - a
    if groups is None:
        estimates = [
            bootstrap_mean(row, seed=seed, resamples=resamples, confidence=confidence)
            for row in differences
        ]
    else:
        if len(groups) != a.shape[1]:
            raise ValueError(f"{len(groups)} group labels for {a.shape[1]} values per row")
        estimates = bootstrap_means(
            differences, groups=groups, seed=seed, resamples=resamples, confidence=confidence
        )
    found = []
    for row_a, row_b, estimate in zip(a, b, estimates, strict=True):
        both = ~np.isnan(row_a) & ~np.isnan(row_b)
        if not both.any():
            found.append(PairedDifference(math.nan, math.nan, estimate))
            continue
        found.append(
            PairedDifference(float(row_a[both].mean()), float(row_b[both].mean()), estimate)
        )
    return found


def paired_bootstrap_difference(
    base: Sequence[float] | NDArray[np.float64],
    new: Sequence[float] | NDArray[np.float64],
    *,
    groups: Sequence[str] | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> PairedDifference:
    """``paired_bootstrap_differences`` of one pair of columns."""
    a = np.asarray(base, dtype=float).ravel()
    b = np.asarray(new, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired columns differ in length: {a.size} and {b.size}")
    (found,) = paired_bootstrap_differences(
        a[None, :],
        b[None, :],
        groups=groups,
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )
    return found


def paired_bootstrap_means(
    columns: Sequence[Sequence[float]] | NDArray[np.float64],
    *,
    groups: Sequence[str] | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> tuple[NDArray[np.float64], NDArray[np.float64], int]:
    """The means of several columns over the same units and their means under each bootstrap
    resample of the units, one resample for all columns (so differences between columns are
    paired): ``(means (k), resampled (k x resamples), units)``.

    Value ``j`` of every column belongs to unit ``groups[j]`` (default: each value its own
    unit, e.g. one per scene); whole units are drawn, with ``bootstrap_mean``'s draws. NaNs are
    left out of their column's means; a mean with no value is NaN. With one unit every
    resampled mean is the mean itself.
    """
    data = np.asarray(columns, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"expected a table of columns (k x n values), got shape {data.shape}")
    size = data.shape[1]
    labels = np.arange(size) if groups is None else np.asarray(groups)
    if len(labels) != size:
        raise ValueError(f"{len(labels)} group labels for {size} values per column")
    defined = ~np.isnan(data)
    values = np.where(defined, data, 0.0)
    unique, inverse = np.unique(labels, return_inverse=True)
    sums = np.stack([np.bincount(inverse, weights=row, minlength=unique.size) for row in values])
    counts = np.stack([np.bincount(inverse, weights=row, minlength=unique.size) for row in defined])
    totals = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(totals > 0, sums.sum(axis=1) / totals, np.nan)
    if unique.size <= 1:
        return means, np.repeat(means[:, None], resamples, axis=1), int(unique.size)
    draws = _draws(seed, resamples, unique.size)
    resampled = np.empty((len(data), resamples))
    for k in range(len(data)):
        drawn = counts[k][draws].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            resampled[k] = np.where(drawn > 0, sums[k][draws].sum(axis=1) / drawn, np.nan)
    return means, resampled, int(unique.size)


def percentile_estimate(
    point: float, samples: NDArray[np.float64], n: int, *, confidence: float = DEFAULT_CONFIDENCE
) -> Estimate:
    """``point`` with the percentile interval of its bootstrap ``samples`` (NaN samples, where
    a resample had no value, are left out), widened to hold ``point`` as ``bootstrap_mean``'s
    intervals are."""
    if math.isnan(point):
        return Estimate(math.nan, math.nan, math.nan, n)
    finite = samples[~np.isnan(samples)]
    if finite.size == 0:
        return Estimate(point, point, point, n)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(finite, [alpha, 1.0 - alpha])
    return Estimate(point, float(min(low, point)), float(max(high, point)), n)
