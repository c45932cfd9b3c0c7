"""Exact geometry the items are built from, pure numpy: the rays of pixel centres, the depth at
a pixel by casting its ray against the object's own mesh (the tessellation Blender rendered,
``synth.meshes``), the flat top faces of objects in the image, the ground's depth, footprint
distances on the ground, and polylines resampled by arc length.

Pixel coordinates follow ``spatialbabel.Camera``: x right, y down, pixel centres at
half-integers; depth is the distance along the view axis.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, SceneObject, object_affine
from spatialbabel.geometry.footprints import Footprint
from synth.meshes import unit_mesh

Array = NDArray[np.float64]

#: Classes with a flat, upward top face when standing (the only ones a thing can be set on).
FLAT_TOPPED = frozenset({"cube", "cylinder"})


def pixel_rays(camera: Camera, points: Array) -> tuple[Array, Array]:
    """World origin and directions of the rays through pixel points (N x 2); a direction
    has length 1 along the view axis, so a ray's parameter is its depth."""
    k = camera.intrinsics
    points = np.atleast_2d(np.asarray(points, float))
    local = np.column_stack(
        [
            (points[:, 0] - k[0, 2]) / k[0, 0],
            -(points[:, 1] - k[1, 2]) / k[1, 1],
            -np.ones(len(points)),
        ]
    )
    pose = camera.pose
    return pose[:3, 3], local @ pose[:3, :3].T


@cache
def _unit_triangles(class_name: str) -> Array:
    mesh = unit_mesh(class_name)
    fans = [(face[0], face[i], face[i + 1]) for face in mesh.faces for i in range(1, len(face) - 1)]
    return mesh.vertices[np.array(fans)]


def triangles(obj: SceneObject) -> Array:
    """The object's rendered mesh as world triangles (T x 3 x 3)."""
    affine = object_affine(obj)
    unit = _unit_triangles(obj.class_name)
    return unit @ affine[:3, :3].T + affine[:3, 3]


def ray_hit(origin: Array, direction: Array, tris: Array) -> float | None:
    """The nearest positive parameter at which the ray meets a triangle (Möller-Trumbore)."""
    v0, e1, e2 = tris[:, 0], tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-9)
    return float(t[hit].min()) if hit.any() else None


def depth_at(camera: Camera, obj: SceneObject, point: tuple[float, float]) -> float | None:
    """Depth of ``obj``'s surface seen through the pixel point, None when the ray misses it."""
    origin, directions = pixel_rays(camera, np.array([point]))
    return ray_hit(origin, directions[0], triangles(obj))


def plane_points(camera: Camera, points: Array, height: float) -> Array:
    """Where the rays through pixel points meet the horizontal plane y = ``height`` (N x 3)."""
    origin, directions = pixel_rays(camera, points)
    t = (height - origin[1]) / directions[:, 1]
    return origin + t[:, None] * directions


def ground_depth(camera: Camera, height: float, width: int, rows: int) -> Array:
    """Depth of the plane y = ``height`` at every pixel centre (0 where the ray never meets it)."""
    ys, xs = np.mgrid[0:rows, 0:width]
    origin, directions = pixel_rays(camera, np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5]))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (height - origin[1]) / directions[:, 1]
    t = np.where(np.isfinite(t) & (t > 0), t, 0.0)
    return t.reshape(rows, width)


def top_face(obj: SceneObject) -> Array | None:
    """World vertices of the flat top face of a standing cube or cylinder, else None."""
    if obj.class_name not in FLAT_TOPPED:
        return None
    mesh = unit_mesh(obj.class_name)
    for face in mesh.faces:
        ring = mesh.vertices[list(face)]
        if len(face) >= 4 and np.allclose(ring[:, 1], 0.5):
            affine = object_affine(obj)
            return ring @ affine[:3, :3].T + affine[:3, 3]
    return None


def convex_polygon_mask(polygon: Array, width: int, height: int) -> NDArray[np.bool_]:
    """Pixels whose centres lie inside a convex image polygon (either winding)."""
    xs, ys = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    a, b = polygon, np.roll(polygon, -1, axis=0)
    cross = (b[:, 0] - a[:, 0])[:, None, None] * (ys - a[:, 1][:, None, None]) - (
        b[:, 1] - a[:, 1]
    )[:, None, None] * (xs - a[:, 0][:, None, None])
    return np.all(cross >= 0, axis=0) | np.all(cross <= 0, axis=0)


def footprint_distance(points: Array, foot: Footprint) -> Array:
    """Distance on the ground from (x, z) points to a footprint (0 inside it)."""
    points = np.atleast_2d(points)
    if foot.radius is not None:
        return np.maximum(np.hypot(*(points - np.asarray(foot.centre)).T) - foot.radius, 0.0)
    assert foot.polygon is not None
    a, b = foot.polygon, np.roll(foot.polygon, -1, axis=0)
    edge = b - a
    rel = points[:, None, :] - a[None, :, :]
    t = np.clip(np.einsum("nkd,kd->nk", rel, edge) / np.einsum("kd,kd->k", edge, edge), 0.0, 1.0)
    nearest = a[None] + t[..., None] * edge[None]
    distance = np.min(np.hypot(*(points[:, None, :] - nearest).transpose(2, 0, 1)), axis=1)
    cross = edge[None, :, 0] * rel[:, :, 1] - edge[None, :, 1] * rel[:, :, 0]
    inside = np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)
    return np.where(inside, 0.0, distance)


def resample_path(points: Array, count: int) -> Array:
    """``count`` points evenly spaced by arc length along a polyline."""
    points = np.asarray(points, dtype=float)
    if len(points) == 1:
        return np.repeat(points, count, axis=0)
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    if along[-1] == 0.0:
        return np.repeat(points[:1], count, axis=0)
    targets = np.linspace(0.0, along[-1], count)
    return np.column_stack([np.interp(targets, along, points[:, k]) for k in range(2)])


__all__ = [
    "FLAT_TOPPED",
    "convex_polygon_mask",
    "depth_at",
    "footprint_distance",
    "ground_depth",
    "pixel_rays",
    "plane_points",
    "ray_hit",
    "resample_path",
    "top_face",
    "triangles",
]
