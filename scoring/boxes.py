"""Oriented boxes: exact 3D IoU of two boxes, and the spatial extent of a true scene.

The IoU is computed by clipping: the intersection of two convex polyhedra is the convex hull of
the corners of each that lie inside the other and of the points where the edges of each cross
the faces of the other; scipy's ``ConvexHull`` (qhull) gives its volume.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import ConvexHull, QhullError

from spatialbabel import SceneObject
from spatialbabel.frames import Matrix
from spatialbabel.geometry.bounds import scene_aabb

#: The extent of a true scene is never taken below this (scene units), so a scene of one small
#: object does not turn a centimetre of error into a lost position fidelity.
EXTENT_FLOOR: Final = 1.0

_SIGNS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
# Corner index pairs joined by an edge: corners differing in exactly one sign.
_EDGES = np.array(
    [(i, j) for i in range(8) for j in range(i + 1, 8) if int(np.sum(_SIGNS[i] != _SIGNS[j])) == 1]
)


@dataclass(frozen=True)
class OrientedBox:
    """A box: ``centre``, ``axes`` (3x3, columns are the box's unit local axes) and ``half``
    extents along them."""

    centre: Matrix
    axes: Matrix
    half: Matrix

    @classmethod
    def of(cls, obj: SceneObject) -> OrientedBox:
        """The oriented box of an object: its local bounding box placed in the world."""
        return cls(
            np.asarray(obj.position, dtype=float),
            obj.rotation_matrix,
            0.5 * np.asarray(obj.size, dtype=float),
        )

    @cached_property
    def volume(self) -> float:
        hx, hy, hz = (float(h) for h in self.half)
        return 8.0 * hx * hy * hz

    @property
    def corners(self) -> Matrix:
        """The 8 corners (8x3)."""
        return np.asarray((_SIGNS * self.half) @ self.axes.T + self.centre, dtype=float)

    def aabb(self) -> tuple[Matrix, Matrix]:
        reach = np.abs(self.axes) @ self.half
        return self.centre - reach, self.centre + reach

    def contains(self, points: Matrix, tolerance: float) -> NDArray[np.bool_]:
        """Boolean mask of the points (N x 3) inside the box or within ``tolerance`` of it."""
        local = (points - self.centre) @ self.axes
        return np.asarray(np.all(np.abs(local) <= self.half + tolerance, axis=1))


def _edge_face_crossings(edges_of: OrientedBox, faces_of: OrientedBox) -> Matrix:
    """Points where the 12 edges of one box cross the 6 face planes of the other (unfiltered)."""
    corners = edges_of.corners
    start = corners[_EDGES[:, 0]]
    direction = corners[_EDGES[:, 1]] - start
    normals = faces_of.axes.T  # one row per local axis
    offsets = normals @ faces_of.centre
    # Plane k+-: n_k . x = n_k . c +- half_k; solve start + t * direction on it.
    along = direction @ normals.T  # 12 x 3
    at_start = start @ normals.T  # 12 x 3
    points = []
    for sign in (-1.0, 1.0):
        level = offsets + sign * faces_of.half
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (level - at_start) / along
        ok = np.isfinite(t) & (t >= 0.0) & (t <= 1.0)
        rows, cols = np.nonzero(ok)
        points.append(start[rows] + t[rows, cols, None] * direction[rows])
    return np.concatenate(points)


#: Two box axes closer to parallel than this (1 - |cos|) are treated as one direction.
PARALLEL_TOLERANCE: Final = 1e-12


def _clip_to_rectangle(
    polygon: list[tuple[float, float]], hx: float, hy: float
) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of a convex polygon inside [-hx, hx] x [-hy, hy]."""
    for axis, sign, limit in ((0, 1.0, hx), (0, -1.0, hx), (1, 1.0, hy), (1, -1.0, hy)):
        if not polygon:
            break
        clipped: list[tuple[float, float]] = []
        for k, current in enumerate(polygon):
            previous = polygon[k - 1]
            inside_now = sign * current[axis] <= limit
            inside_before = sign * previous[axis] <= limit
            if inside_now != inside_before:
                t = (limit - sign * previous[axis]) / (sign * (current[axis] - previous[axis]))
                clipped.append(
                    (
                        previous[0] + t * (current[0] - previous[0]),
                        previous[1] + t * (current[1] - previous[1]),
                    )
                )
            if inside_now:
                clipped.append(current)
        polygon = clipped
    return polygon


def _polygon_area(polygon: list[tuple[float, float]]) -> float:
    return 0.5 * abs(
        sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
        )
    )


def _prism_intersection(a: OrientedBox, b: OrientedBox, in_a: Matrix, k: int, m: int) -> float:
    """Intersection volume when a's axis ``k`` and b's axis ``m`` are parallel: the overlap of
    the two cross-section rectangles (in a's frame) times the overlap along that axis.
    ``in_a`` holds b's axes in a's frame (a.axes.T @ b.axes)."""
    offset = (a.axes.T @ (b.centre - a.centre)).tolist()  # b's centre in a's frame
    half_a, half_b, axes = a.half.tolist(), b.half.tolist(), in_a.tolist()
    along = min(half_a[k], offset[k] + half_b[m]) - max(-half_a[k], offset[k] - half_b[m])
    if along <= 0.0:
        return 0.0
    # Plain floats from here: numpy's per-call cost dominates on 2-vectors.
    i, j = (axis for axis in range(3) if axis != k)
    p, q = (axis for axis in range(3) if axis != m)
    ux, uy = axes[i][p] * half_b[p], axes[j][p] * half_b[p]
    vx, vy = axes[i][q] * half_b[q], axes[j][q] * half_b[q]
    cx, cy = offset[i], offset[j]
    polygon = [
        (cx + ux + vx, cy + uy + vy),
        (cx - ux + vx, cy - uy + vy),
        (cx - ux - vx, cy - uy - vy),
        (cx + ux - vx, cy + uy - vy),
    ]
    return _polygon_area(_clip_to_rectangle(polygon, half_a[i], half_a[j])) * along


def intersection_volume(a: OrientedBox, b: OrientedBox) -> float:
    """Volume of the intersection of two oriented boxes."""
    if a.volume <= 0.0 or b.volume <= 0.0:
        return 0.0
    in_a = a.axes.T @ b.axes
    cosines = np.abs(in_a)
    k, m = divmod(int(np.argmax(cosines)), 3)  # the row and column of the 3x3 maximum
    if cosines[k, m] >= 1.0 - PARALLEL_TOLERANCE:
        # The usual case (both boxes turned about the vertical only): a prism, no hull needed.
        return _prism_intersection(a, b, in_a, k, m)
    return _hull_intersection(a, b)


def _hull_intersection(a: OrientedBox, b: OrientedBox) -> float:
    lo_a, hi_a = a.aabb()
    lo_b, hi_b = b.aabb()
    if (np.minimum(hi_a, hi_b) <= np.maximum(lo_a, lo_b)).any():
        return 0.0
    scale = float(max(np.max(a.half), np.max(b.half)))
    tolerance = 1e-9 * scale
    corners_a, corners_b = a.corners, b.corners
    candidates = np.concatenate(
        [
            corners_a[b.contains(corners_a, tolerance)],
            corners_b[a.contains(corners_b, tolerance)],
            _edge_face_crossings(a, b),
            _edge_face_crossings(b, a),
        ]
    )
    inside = a.contains(candidates, tolerance) & b.contains(candidates, tolerance)
    points = candidates[inside]
    if len(points) < 4:
        return 0.0
    try:
        return float(ConvexHull(points).volume)
    except QhullError:  # the points are flat: the boxes only touch
        return 0.0


def box_iou(a: OrientedBox, b: OrientedBox) -> float:
    """Intersection over union of the volumes of two oriented boxes (0 when both are empty)."""
    inter = intersection_volume(a, b)
    union = a.volume + b.volume - inter
    return 0.0 if union <= 0.0 else min(1.0, inter / union)


def oriented_iou(a: SceneObject, b: SceneObject) -> float:
    """3D IoU of the oriented boxes (position, rotation, local size) of two objects."""
    return box_iou(OrientedBox.of(a), OrientedBox.of(b))


def iou_upper_bounds(a: tuple[Matrix, Matrix, Matrix], b: tuple[Matrix, Matrix, Matrix]) -> Matrix:
    """Cheap bounds on IoU (N x M) of N boxes against M, each side given as its world AABBs
    (lo, hi) and volumes: the intersection lies in both AABBs and holds at most the smaller
    volume. Pairs whose bound is below a threshold need no exact IoU."""
    lo_a, hi_a, vol_a = a
    lo_b, hi_b, vol_b = b
    sides = np.minimum(hi_a[:, None, :], hi_b[None, :, :]) - np.maximum(
        lo_a[:, None, :], lo_b[None, :, :]
    )
    overlap = np.prod(np.clip(sides, 0.0, None), axis=2)
    inter = np.minimum(overlap, np.minimum(vol_a[:, None], vol_b[None, :]))
    union = vol_a[:, None] + vol_b[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(union > 0.0, inter / union, 0.0)
    return np.asarray(bound, dtype=float)


def scene_extent(objects: Sequence[SceneObject]) -> float:
    """The spatial extent of a true scene: the diagonal of the exact world AABB of all its
    objects' geometry, at least ``EXTENT_FLOOR``. Position errors are measured against it."""
    if not objects:
        return EXTENT_FLOOR
    lo, hi = scene_aabb(tuple(objects))
    return max(EXTENT_FLOOR, float(np.linalg.norm(hi - lo)))
