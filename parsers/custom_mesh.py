"""Recognise a primitive in a mesh a model built vertex by vertex, in any language.

Engines lack shapes (Unity has no cone, pyramid or torus) and models build them from vertex
lists: Blender's ``from_pydata``, Unity's ``mesh.vertices = list.ToArray()``, three.js's
``BufferGeometry`` with a ``position`` attribute, Open3D's ``mesh.vertices =
Vector3dVector(...)``. Every parser hands the vertices it computed statically to this one module:

- ``affine_image(before, after)``: when a model rewrites the vertices of a primitive it made
  (``np.asarray(mesh.vertices) * size``), an affine image of them keeps the primitive's class;
- ``shape_from_vertices(vertices)``: otherwise the class is read from the vertices alone. The
  shapes recognised are the 8 corners of a box; an apex over 4 corners (a pyramid, its turn
  from the corners) or over a ring (a cone, also with intermediate rings); rings of one radius
  (a cylinder); points at one distance from a centre (a sphere); a ring of rings (a torus).
  Duplicated vertices (one copy per face, for flat shading) and the centre vertices of caps are
  allowed. The reading is the ideal shape the vertices are taken from: a ring's radius is the
  distance of its vertices from the axis, a torus's radii the circle its tube's vertices lie on.

Each reading is ``unit_to_local``: the affine taking the canonical unit primitive
(docs/conventions.md) onto the vertices, in the mesh's own frame.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS

Matrix = NDArray[np.float64]

#: Canonical +Y onto local +Z: how a Z-up engine's box keeps its up axis.
_Y_TO_Z = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)
#: Relative tolerance (of the mesh's size) for two vertices to be one.
_SAME_POINT = 1e-6
#: Relative tolerance for a shape's structure: hand-typed vertices (0.707 for √½) still fit.
_SHAPE = 2e-3
#: Largest residual (relative to the mesh's size) of an affine image.
_AFFINE = 1e-6
#: Fewest points on a ring for a cone or cylinder (4 make a pyramid or a square prism).
_MIN_RING = 5


@dataclass(frozen=True)
class VertexShape:
    """A primitive read from vertices: its class, the unit primitive onto the vertices, and
    what in the vertices showed it (for the diagnostic)."""

    class_name: str
    unit_to_local: Matrix
    how: str


def _as_points(vertices: Sequence[Sequence[float]] | Matrix) -> Matrix | None:
    try:
        v = np.asarray(vertices, dtype=float).reshape(-1, 3)
    except (TypeError, ValueError):
        return None
    if len(v) == 0 or not np.all(np.isfinite(v)):
        return None
    return v


def _unique(v: Matrix, size: float) -> Matrix:
    """The distinct points of ``v`` in their first order (faces often repeat vertices)."""
    keys = np.round(v / max(size * _SAME_POINT, 1e-300)).astype(np.int64)
    _, first = np.unique(keys, axis=0, return_index=True)
    return v[np.sort(first)]


def _affine(columns: tuple[Matrix, Matrix, Matrix], centre: Matrix) -> Matrix:
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2] = columns
    m[:3, 3] = centre
    return m


# --- boxes and pyramids of few points ----------------------------------------------------------------
def _box(v: Matrix, up: str) -> Matrix | None:
    lo, hi = v.min(axis=0), v.max(axis=0)
    extent = hi - lo
    if len(v) != 8 or np.any(extent <= 0):
        return None
    offsets = np.abs(np.abs(v - (lo + hi) / 2) - extent / 2)
    corners = {tuple(np.round((row - lo) / extent).astype(int)) for row in v}
    if float(offsets.max()) > _SHAPE * float(extent.max()) or len(corners) != 8:
        return None
    affine = np.eye(4)
    affine[:3, :3] = np.diag(extent)
    affine[:3, 3] = (lo + hi) / 2
    return affine @ _Y_TO_Z if up == "z" else affine


def _pyramid_from(apex: Matrix, base: Matrix, size: float) -> Matrix | None:
    """The unit pyramid onto an apex over 4 base corners (any order), or None when the base is
    no rectangle or the apex does not stand over its centre."""
    centre = base.mean(axis=0)
    tol = _SHAPE * size
    order = np.argsort(np.linalg.norm(base - base[0], axis=1))
    near_a, near_b, far = base[order[1]], base[order[2]], base[order[3]]
    first, second = near_a - base[0], near_b - base[0]
    # A parallelogram with a right angle is a rectangle.
    if float(np.linalg.norm(base[0] + first + second - far)) > tol:
        return None
    if abs(float(first @ second)) > tol * size:
        return None
    normal = np.cross(first, second)
    norm = float(np.linalg.norm(normal))
    if norm < tol * size:
        return None
    normal /= norm
    height = apex - centre
    if float(np.linalg.norm(np.cross(height, normal))) > tol or float(np.linalg.norm(height)) < tol:
        return None
    return _affine((first, height, second), centre + height / 2)


def _pyramid(v: Matrix, size: float) -> Matrix | None:
    """A pyramid of 5 points (or 6 with its base centre) in any orientation."""
    if len(v) not in (5, 6):
        return None
    for apex_index in range(len(v)):
        rest = np.delete(v, apex_index, axis=0)
        if len(rest) == 5:
            # The base's centre is the point nearest the mean of the others.
            centre_index = int(
                np.argmin(
                    [
                        np.linalg.norm(np.delete(rest, i, axis=0).mean(axis=0) - rest[i])
                        for i in range(5)
                    ]
                )
            )
            base = np.delete(rest, centre_index, axis=0)
            if np.linalg.norm(base.mean(axis=0) - rest[centre_index]) > _SHAPE * size:
                continue
        else:
            base = rest
        found = _pyramid_from(v[apex_index], base, size)
        if found is not None:
            return found
    return None


# --- shapes of revolution -------------------------------------------------------------------------
@dataclass
class _Level:
    height: float
    centre_points: int
    radius: float
    ring: Matrix


def _perpendicular(axis: Matrix) -> Matrix:
    """A unit vector perpendicular to ``axis``: the coordinate axis most perpendicular to it
    (X first), so that a shape along a coordinate axis reads without a turn about it."""
    basis = np.eye(3)
    index = int(np.argmin(np.abs(basis @ axis) + np.array([0.0, 2e-9, 1e-9])))
    x = basis[index] - (basis[index] @ axis) * axis
    return x / np.linalg.norm(x)


def _frame(axis: Matrix) -> tuple[Matrix, Matrix, Matrix]:
    x = _perpendicular(axis)
    return x, axis, np.cross(x, axis)


def _canonical_sign(axis: Matrix) -> Matrix:
    """An axis with no direction of its own (cylinder, torus) pointed along its largest
    positive component."""
    return -axis if axis[int(np.argmax(np.abs(axis)))] < 0 else axis


def _levels(rel: Matrix, axis: Matrix, size: float) -> list[_Level] | None:
    heights = rel @ axis
    radial = rel - np.outer(heights, axis)
    rho = np.linalg.norm(radial, axis=1)
    tol = _SHAPE * size
    order = np.argsort(heights)
    groups: list[list[int]] = [[int(order[0])]]
    for previous, index in itertools.pairwise(order):
        if heights[index] - heights[previous] > tol:
            groups.append([])
        groups[-1].append(int(index))
    levels = []
    for group in groups:
        indices = np.asarray(group)
        on_axis = rho[indices] <= tol
        ring = indices[~on_axis]
        radius = float(rho[ring].max()) if len(ring) else 0.0
        if len(ring) and float(radius - rho[ring].min()) > tol:
            return None
        levels.append(_Level(float(heights[indices].mean()), int(on_axis.sum()), radius, rel[ring]))
    return levels


def _cone(
    centre: Matrix, axis: Matrix, levels: list[_Level], size: float
) -> tuple[str, Matrix, str] | None:
    tol = _SHAPE * size
    for apex, rest in ((levels[-1], levels[:-1]), (levels[0], levels[1:])):
        if len(apex.ring) or apex.centre_points != 1 or not rest:
            continue
        base = rest[0] if apex is levels[-1] else rest[-1]
        counts = {len(level.ring) for level in rest}
        if len(counts) != 1 or min(counts) < 3:
            continue
        if any(level.centre_points for level in rest if level is not base):
            continue
        height = apex.height - base.height
        # Intermediate rings shrink linearly to the apex (open3d's ``split``).
        if any(
            abs(level.radius - base.radius * (apex.height - level.height) / height) > tol
            for level in rest
        ):
            continue
        direction = axis if height > 0 else -axis
        base_centre = centre + base.height * axis
        count = len(base.ring)
        if count == 4:
            found = _pyramid_from(centre + apex.height * axis, base.ring + centre, size)
            if found is None:
                return None
            return "pyramid", found, "an apex over 4 corners"
        if count < _MIN_RING:
            return None
        x, y, z = _frame(direction)
        affine = _affine(
            (x * 2 * base.radius, y * abs(height), z * 2 * base.radius),
            base_centre + direction * abs(height) / 2,
        )
        return "cone", affine, f"an apex over a ring of {count} points"
    return None


def _cylinder(
    centre: Matrix, axis: Matrix, levels: list[_Level], size: float
) -> tuple[str, Matrix, str] | None:
    tol = _SHAPE * size
    if len(levels) < 2 or any(not len(level.ring) for level in levels):
        return None
    if any(level.centre_points for level in levels[1:-1]):
        return None
    counts = {len(level.ring) for level in levels}
    radius = max(level.radius for level in levels)
    if counts == {4} and len(levels) == 2:
        return _square_prism(centre, axis, levels, size)
    if len(counts) != 1 or min(counts) < _MIN_RING:
        return None
    if any(radius - level.radius > tol for level in levels):
        return None
    middle = centre + axis * (levels[0].height + levels[-1].height) / 2
    height = levels[-1].height - levels[0].height
    x, y, z = _frame(_canonical_sign(axis))
    affine = _affine((x * 2 * radius, y * height, z * 2 * radius), middle)
    return "cylinder", affine, f"{len(levels)} rings of {min(counts)} points"


def _square_prism(
    centre: Matrix, axis: Matrix, levels: list[_Level], size: float
) -> tuple[str, Matrix, str] | None:
    """Two rectangles of 4 corners, one over the other: a box in any orientation."""
    bottom, top = levels
    if bottom.centre_points or top.centre_points:
        return None
    height = top.height - bottom.height
    lifted = bottom.ring + axis * height
    if any(float(np.linalg.norm(top.ring - p, axis=1).min()) > _SHAPE * size for p in lifted):
        return None
    base = bottom.ring
    order = np.argsort(np.linalg.norm(base - base[0], axis=1))
    first, second = base[order[1]] - base[0], base[order[2]] - base[0]
    if float(np.linalg.norm(base[0] + first + second - base[order[3]])) > _SHAPE * size:
        return None
    if abs(float(first @ second)) > _SHAPE * size * size:
        return None
    up = axis * height
    if float(np.cross(first, up) @ second) < 0:
        second = -second
    middle = centre + axis * (bottom.height + top.height) / 2
    return "cube", _affine((first, up, second), middle), "the 8 corners of a box"


def _torus(
    rel: Matrix, centre: Matrix, axis: Matrix, size: float
) -> tuple[str, Matrix, str] | None:
    heights = rel @ axis
    rho = np.linalg.norm(rel - np.outer(heights, axis), axis=1)
    tol = _SHAPE * size
    if len(rel) < 3 * _MIN_RING or float(rho.min()) <= tol:
        return None
    # The tube's vertices lie on circles (rho - R)^2 + h^2 = r^2: rho^2 + h^2 = 2 R rho + k.
    design = np.column_stack([2 * rho, np.ones_like(rho)])
    solution, *_ = np.linalg.lstsq(design, rho**2 + heights**2, rcond=None)
    major = float(solution[0])
    minor_squared = float(solution[1]) + major**2
    if minor_squared <= 0:
        return None
    minor = float(np.sqrt(minor_squared))
    if not tol < minor < major:
        return None
    if float(np.abs(np.hypot(rho - major, heights) - minor).max()) > tol:
        return None
    # The tube's cross-section is a circle sampled at several angles, around its centre.
    profile = np.unique(np.round(np.column_stack([rho, heights]) / tol).astype(np.int64), axis=0)
    if len(profile) < 4 or not (rho.min() < major - tol < major + tol < rho.max()):
        return None
    # A ring of rings: the tube's circles at several angles around the axis.
    turns = np.arctan2(*_in_plane(rel, axis)) % (2 * np.pi)
    steps = np.round(turns / 1e-4).astype(np.int64) % round(2 * np.pi / 1e-4)
    rings = len(np.unique(steps))
    if rings < 3:
        return None
    axis = _canonical_sign(axis)
    x, y, z = _frame(axis)
    outer = 2 * (major + minor)
    unit_outer = 2 * (TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS)
    unit_thickness = UNIT_EXTENTS["torus"][1]
    affine = _affine(
        (x * outer / unit_outer, y * 2 * minor / unit_thickness, z * outer / unit_outer), centre
    )
    tube = len(rel) // rings if rings else 0
    return "torus", affine, f"a ring of {rings} rings of {tube} points"


def _in_plane(rel: Matrix, axis: Matrix) -> tuple[Matrix, Matrix]:
    x, _, z = _frame(axis)
    return rel @ z, rel @ x


def _sphere(v: Matrix, size: float) -> tuple[str, Matrix, str] | None:
    if len(v) < 6:
        return None
    # |p|^2 = 2 c.p + k for points on a sphere of centre c.
    design = np.column_stack([2 * v, np.ones(len(v))])
    solution, *_ = np.linalg.lstsq(design, (v**2).sum(axis=1), rcond=None)
    centre = solution[:3]
    distances = np.linalg.norm(v - centre, axis=1)
    radius = float(distances.max())
    if radius <= 0 or float(radius - distances.min()) > _SHAPE * size:
        return None
    # Points on a sphere that also lie in a plane are a ring, and on two planes two rings (a
    # cylinder or a frustum's ends): a sphere has points at three heights at least along any
    # of its axes.
    for axis in _candidate_axes(v - centre, "y"):
        heights = np.round((v - centre) @ axis / (_SHAPE * size)).astype(np.int64)
        if len(np.unique(heights)) < 3:
            return None
    affine = np.eye(4)
    affine[:3, :3] = np.eye(3) * 2 * radius
    affine[:3, 3] = centre
    return "sphere", affine, f"{len(v)} points at one distance from a centre"


def _candidate_axes(rel: Matrix, up: str) -> list[Matrix]:
    """The principal axes of the points (an axis of revolution is one), then the coordinate
    axes (for shapes whose spread is the same along every axis), without repeats."""
    _, vectors = np.linalg.eigh(rel.T @ rel)
    preferred = [2, 1, 0] if up == "z" else [1, 2, 0]
    candidates = [vectors[:, i] for i in range(3)] + [np.eye(3)[i] for i in preferred]
    found: list[Matrix] = []
    for axis in candidates:
        axis = axis / np.linalg.norm(axis)
        if all(abs(float(axis @ other)) < 1 - 1e-9 for other in found):
            found.append(axis)
    return found


def _revolution(v: Matrix, size: float, up: str) -> tuple[str, Matrix, str] | None:
    centre = v.mean(axis=0)
    rel = v - centre
    for axis in _candidate_axes(rel, up):
        levels = _levels(rel, axis, size)
        if levels is not None:
            found = _cone(centre, axis, levels, size) or _cylinder(centre, axis, levels, size)
            if found is not None:
                return found
        found = _torus(rel, centre, axis, size)
        if found is not None:
            return found
    return None


def shape_from_vertices(
    vertices: Sequence[Sequence[float]] | Matrix, *, up: str = "y"
) -> VertexShape | None:
    """The primitive the vertices are, or None (see the module doc). ``up`` ('y' or 'z') is the
    engine's up axis: a box keeps it as its own up, and axes of revolution are tried along it
    first."""
    v = _as_points(vertices)
    if v is None:
        return None
    size = float(np.ptp(v, axis=0).max())
    if size <= 0:
        return None
    v = _unique(v, size)
    box = _box(v, up)
    if box is not None:
        return VertexShape("cube", box, "the 8 corners of a box")
    pyramid = _pyramid(v, size)
    if pyramid is not None:
        return VertexShape("pyramid", pyramid, "an apex over 4 corners")
    found = _revolution(v, size, up) or _sphere(v, size)
    if found is None:
        return None
    return VertexShape(*found)


def primitive_from_vertices(
    vertices: Sequence[Sequence[float]] | Matrix, *, up: str = "y"
) -> tuple[str, Matrix] | None:
    """``(class, unit_to_local)`` of ``shape_from_vertices``, or None."""
    found = shape_from_vertices(vertices, up=up)
    return None if found is None else (found.class_name, found.unit_to_local)


def affine_between(before: Matrix, after: Matrix) -> tuple[Matrix, float]:
    """The 4x4 affine ``M`` with ``after ≈ M @ before`` (least squares) and the largest residual."""
    b = np.asarray(before, dtype=float).reshape(-1, 3)
    a = np.asarray(after, dtype=float).reshape(-1, 3)
    homogeneous = np.hstack([b, np.ones((len(b), 1))])
    solution, *_ = np.linalg.lstsq(homogeneous, a, rcond=None)
    m = np.eye(4)
    m[:3, :] = solution.T
    return m, float(np.abs(homogeneous @ solution - a).max(initial=0.0))


def affine_image(
    before: Sequence[Sequence[float]] | Matrix, after: Sequence[Sequence[float]] | Matrix
) -> Matrix | None:
    """The affine taking the vertices ``before`` onto ``after`` vertex by vertex, when ``after``
    is such an image of ``before`` (a primitive's vertices moved, turned or scaled), else None."""
    b, a = _as_points(before), _as_points(after)
    if b is None or a is None or b.shape != a.shape or len(b) < 4:
        return None
    matrix, residual = affine_between(b, a)
    scale = max(float(np.abs(a).max()), float(np.ptp(a, axis=0).max()), 1e-12)
    if residual > _AFFINE * scale or abs(float(np.linalg.det(matrix[:3, :3]))) < 1e-12:
        return None
    return matrix


def bounding_affine(
    vertices: Sequence[Sequence[float]] | Matrix, *, up: str = "y"
) -> Matrix | None:
    """The unit cube onto the vertices' bounding box (for a mesh whose class came from its
    name), or None when there are no usable vertices."""
    v = _as_points(vertices)
    if v is None:
        return None
    lo, hi = v.min(axis=0), v.max(axis=0)
    affine = np.eye(4)
    affine[:3, :3] = np.diag(hi - lo)
    affine[:3, 3] = (lo + hi) / 2
    return affine @ _Y_TO_Z if up == "z" else affine
