"""ProVisE's per-sample metrics (paper §E.4), each a score in [0, 1], pure numpy.

Points and paths are in pixel coordinates of the source image unless said otherwise; masks and
label maps are at the source's size.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Points = NDArray[np.float64]


def normalise_label(value: object) -> str:
    """Answers compared after normalisation: case, outer spaces, booleans and integers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    return str(value).strip().lower()


def exact_match(parsed: object, answer: object) -> float:
    return 1.0 if normalise_label(parsed) == normalise_label(answer) else 0.0


def _pixel(point: Sequence[float], shape: tuple[int, ...]) -> tuple[int, int] | None:
    x, y = int(np.floor(point[0])), int(np.floor(point[1]))
    if not (0 <= x < shape[1] and 0 <= y < shape[0]):
        return None
    return x, y


def point_in_mask(point: Sequence[float], mask: NDArray[np.bool_]) -> float:
    """1 when the pixel holding ``point`` is in the mask (a point off the image is outside)."""
    pixel = _pixel(point, mask.shape)
    return 1.0 if pixel is not None and bool(mask[pixel[1], pixel[0]]) else 0.0


def mask_precision(predicted: NDArray[np.bool_], truth: NDArray[np.bool_]) -> float:
    """|M̂ ∩ M| / |M̂|; an empty M̂ scores 0 (the paper's ε only keeps it defined)."""
    area = int(np.count_nonzero(predicted))
    if area == 0:
        return 0.0
    return int(np.count_nonzero(predicted & truth)) / area


def points_precision(points: Points, truth: NDArray[np.bool_]) -> float:
    """The share of the points that fall in the mask: precision over a predicted point set."""
    if len(points) == 0:
        return 0.0
    return float(np.mean([point_in_mask(p, truth) for p in points]))


def discrete_frechet(a: Points, b: Points) -> float:
    """Discrete Fréchet distance between two polylines (min over couplings of the max gap),
    by dynamic programming along the anti-diagonals."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    gaps = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    n, m = gaps.shape
    best = np.full((n, m), np.inf)
    best[0, 0] = gaps[0, 0]
    for i in range(1, n):
        best[i, 0] = max(best[i - 1, 0], gaps[i, 0])
    for j in range(1, m):
        best[0, j] = max(best[0, j - 1], gaps[0, j])
    for i in range(1, n):
        row = np.minimum(best[i - 1, 1:], best[i - 1, :-1])
        for j in range(1, m):
            best[i, j] = max(min(row[j - 1], best[i, j - 1]), gaps[i, j])
    return float(best[-1, -1])


def path_crossing(path: Points, blocked: NDArray[np.bool_]) -> int:
    """How many pixels of a polyline (pixel coordinates), walked in steps of half a pixel, lie
    in ``blocked``; points off the image count as not blocked."""
    path = np.asarray(path, float)
    if len(path) < 2:
        return 0
    steps = np.hypot(*np.diff(path, axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    count = max(2, int(np.ceil(along[-1] * 2.0)) + 1)
    targets = np.linspace(0.0, along[-1], count)
    xs = np.floor(np.interp(targets, along, path[:, 0])).astype(int)
    ys = np.floor(np.interp(targets, along, path[:, 1])).astype(int)
    inside = (xs >= 0) & (xs < blocked.shape[1]) & (ys >= 0) & (ys < blocked.shape[0])
    hits = {(int(x), int(y)) for x, y in zip(xs[inside], ys[inside], strict=True) if blocked[y, x]}
    return len(hits)


def normalised(points: Points, width: int, height: int) -> Points:
    return np.asarray(points, float) / np.array([width, height], float)


__all__ = [
    "discrete_frechet",
    "exact_match",
    "mask_precision",
    "normalise_label",
    "normalised",
    "path_crossing",
    "point_in_mask",
    "points_precision",
]
