"""Footprints: the outline of an object seen from straight above, in the ground's XZ plane.

An object turned only about the vertical axis occupies the prism over its footprint, so two
such objects at the same height intersect exactly when their footprints do. Round classes
(sphere, cylinder, cone, torus) standing upright with equal x and z sizes have a disc;
everything else has the convex outline of its oriented box, which is exact for cubes and
pyramids and covers any other shape (an object a model turned, say).

The generator keeps footprints apart (``clearance``) and a resting object's footprint inside its
support's top (``contains``); the stacking relation asks whether two footprints overlap
(``clearance`` 0) and how deep a point lies inside one (``depth_inside``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbabel.geometry.bounds import world_aabb, world_corners
from spatialbabel.scene import SceneObject

ROUND_CLASSES = frozenset({"sphere", "cylinder", "cone", "torus"})


@dataclass(frozen=True)
class Footprint:
    """A disc (``radius`` set) or a convex polygon (``polygon``: k x 2 counter-clockwise, in
    (x, z) coordinates) on the ground."""

    centre: tuple[float, float]
    radius: float | None = None
    polygon: NDArray[np.float64] | None = None


def footprint(obj: SceneObject) -> Footprint:
    x, _, z = obj.position
    rotation = obj.rotation_matrix
    upright = bool(np.allclose(rotation[:, 1], (0.0, 1.0, 0.0), atol=1e-9))
    if obj.class_name in ROUND_CLASSES and upright and math.isclose(obj.size[0], obj.size[2]):
        lo, hi = world_aabb(obj)
        return Footprint((x, z), radius=float(hi[0] - lo[0]) / 2.0)
    corners = world_corners(obj)[:, [0, 2]]
    return Footprint((x, z), polygon=_convex_hull(corners))


def _convex_hull(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Counter-clockwise hull (Andrew's monotone chain) of 2D points, duplicates removed."""
    unique = sorted({(round(float(p[0]), 12), round(float(p[1]), 12)) for p in points})
    if len(unique) < 3:
        return np.array(unique, float)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        chain: list[tuple[float, float]] = []
        for p in seq:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(unique), half(unique[::-1])
    return np.array(lower[:-1] + upper[:-1], float)


def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segment_distance(
    p: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64]
) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-300), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def _inside(p: NDArray[np.float64], polygon: NDArray[np.float64]) -> bool:
    if len(polygon) < 3:
        return False  # a degenerate outline (a point or a segment) has no inside
    edges = np.roll(polygon, -1, axis=0) - polygon
    rel = p - polygon
    return bool(np.all(edges[:, 0] * rel[:, 1] - edges[:, 1] * rel[:, 0] >= 0.0))


def _point_polygon_distance(p: NDArray[np.float64], polygon: NDArray[np.float64]) -> float:
    if _inside(p, polygon):
        return 0.0
    following = np.roll(polygon, -1, axis=0)
    return min(_segment_distance(p, a, b) for a, b in zip(polygon, following, strict=True))


def _polygons_overlap(a: NDArray[np.float64], b: NDArray[np.float64]) -> bool:
    """Separating-axis test for two convex polygons (touching counts as overlapping)."""
    tested = False
    for polygon in (a, b):
        edges = np.roll(polygon, -1, axis=0) - polygon
        for normal in np.column_stack([-edges[:, 1], edges[:, 0]]):
            if not normal.any():
                continue  # a degenerate outline's zero-length edge separates nothing
            tested = True
            pa, pb = a @ normal, b @ normal
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    # Two single points have no edges at all: they overlap only where they coincide.
    return tested or bool(np.array_equal(a, b))


def _edge_depths(p: NDArray[np.float64], polygon: NDArray[np.float64]) -> NDArray[np.float64]:
    """Signed distances of ``p`` to the lines of a counter-clockwise polygon's edges (positive
    on the inner side)."""
    edges = np.roll(polygon, -1, axis=0) - polygon
    rel = p - polygon
    lengths = np.maximum(np.hypot(edges[:, 0], edges[:, 1]), 1e-300)
    return np.asarray((edges[:, 0] * rel[:, 1] - edges[:, 1] * rel[:, 0]) / lengths)


def depth_inside(point: tuple[float, float], fp: Footprint) -> float:
    """Signed distance of a ground point (x, z) to the footprint's outline: how far inside it
    lies (positive), or minus how far outside."""
    p = np.asarray(point, dtype=float)
    if fp.radius is not None:
        return fp.radius - math.dist(point, fp.centre)
    assert fp.polygon is not None
    if _inside(p, fp.polygon):
        # The polygon is the intersection of its edges' half-planes, so the nearest way out is
        # through the nearest edge line.
        return float(_edge_depths(p, fp.polygon).min())
    return -_point_polygon_distance(p, fp.polygon)


def contains(outer: Footprint, inner: Footprint, inset: float = 0.0) -> bool:
    """Whether ``inner`` lies within ``outer`` and at least ``inset`` from its outline. Both
    are convex, so it is enough that the inner disc's centre lies deep enough, or every
    vertex of the inner polygon does."""
    if inner.radius is not None:
        return depth_inside(inner.centre, outer) >= inner.radius + inset
    assert inner.polygon is not None
    return all(depth_inside((float(x), float(z)), outer) >= inset for x, z in inner.polygon)


def clearance(a: Footprint, b: Footprint) -> float:
    """Distance between two footprints on the ground; 0 when they touch or overlap."""
    if a.radius is not None and b.radius is not None:
        gap = math.dist(a.centre, b.centre) - a.radius - b.radius
        return max(gap, 0.0)
    if a.radius is not None or b.radius is not None:
        disc, other = (a, b) if a.radius is not None else (b, a)
        assert disc.radius is not None and other.polygon is not None
        gap = _point_polygon_distance(np.asarray(disc.centre), other.polygon) - disc.radius
        return max(gap, 0.0)
    assert a.polygon is not None and b.polygon is not None
    if _polygons_overlap(a.polygon, b.polygon):
        return 0.0
    gaps = [_point_polygon_distance(p, b.polygon) for p in a.polygon]
    gaps += [_point_polygon_distance(p, a.polygon) for p in b.polygon]
    return min(gaps)
