"""Recognise a primitive in a mesh a model built vertex by vertex.

Blender's ``bpy.data.meshes.new(...).from_pydata(verts, ...)`` and Unity's ``mesh.vertices =
new Vector3[] {...}`` are how models make the shapes their engine lacks (a pyramid, mostly)
or a box by hand. Two shapes are recognised from the vertices alone: the 8 corners of an
axis-aligned box, and a square (or rectangular) pyramid of 5 points in any orientation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]

#: Canonical +Y onto local +Z: how a Z-up engine's box keeps its up axis.
_Y_TO_Z = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)
_TOLERANCE = 1e-6


def _box(v: Matrix, up: str) -> Matrix | None:
    lo, hi = v.min(axis=0), v.max(axis=0)
    extent = hi - lo
    if len(v) != 8 or np.any(extent <= 0):
        return None
    offsets = np.abs(np.abs(v - (lo + hi) / 2) - extent / 2)
    corners = {tuple(np.round((row - lo) / extent).astype(int)) for row in v}
    if float(offsets.max()) > _TOLERANCE * float(extent.max()) or len(corners) != 8:
        return None
    affine = np.eye(4)
    affine[:3, :3] = np.diag(extent)
    affine[:3, 3] = (lo + hi) / 2
    return affine @ _Y_TO_Z if up == "z" else affine


def _pyramid(v: Matrix) -> Matrix | None:
    if len(v) != 5:
        return None
    size = float(np.ptp(v, axis=0).max())
    if size <= 0:
        return None
    for apex_index in range(5):
        base = np.delete(v, apex_index, axis=0)
        apex = v[apex_index]
        centre = base.mean(axis=0)
        # The base must be planar, a parallelogram with equal diagonals (a rectangle), and the
        # apex must stand over its centre.
        normal = np.cross(base[1] - base[0], base[2] - base[0])
        if np.linalg.norm(normal) < _TOLERANCE * size * size:
            normal = np.cross(base[2] - base[0], base[3] - base[0])
        norm = float(np.linalg.norm(normal))
        if norm < _TOLERANCE * size * size:
            continue
        normal /= norm
        if float(np.abs((base - centre) @ normal).max()) > _TOLERANCE * size:
            continue
        height = apex - centre
        if (
            float(np.linalg.norm(np.cross(height, normal))) > _TOLERANCE * size
            or float(np.linalg.norm(height)) < _TOLERANCE * size
        ):
            continue
        order = np.argsort(np.linalg.norm(base - base[0], axis=1))
        near_a, near_b, far = base[order[1]], base[order[2]], base[order[3]]
        first, second = near_a - base[0], near_b - base[0]
        if float(np.linalg.norm(base[0] + first + second - far)) > _TOLERANCE * size:
            continue
        if abs(float(first @ second)) > _TOLERANCE * size * size:
            continue
        affine = np.eye(4)
        affine[:3, 0], affine[:3, 1], affine[:3, 2] = first, height, second
        affine[:3, 3] = centre + height / 2
        return affine
    return None


def primitive_from_vertices(
    vertices: Sequence[Sequence[float]] | Matrix, *, up: str = "y"
) -> tuple[str, Matrix] | None:
    """``(class, unit_to_local)`` of a box or pyramid given by its vertices, or None.

    ``unit_to_local`` takes the canonical unit primitive onto the vertices (in the mesh's own
    frame); ``up`` ('y' or 'z') is the engine's up axis, kept as a box's up.
    """
    try:
        v = np.asarray(vertices, dtype=float).reshape(-1, 3)
    except (TypeError, ValueError):
        return None
    if not np.all(np.isfinite(v)):
        return None
    box = _box(v, up)
    if box is not None:
        return "cube", box
    pyramid = _pyramid(v)
    if pyramid is not None:
        return "pyramid", pyramid
    return None


def bounding_affine(
    vertices: Sequence[Sequence[float]] | Matrix, *, up: str = "y"
) -> Matrix | None:
    """The unit cube onto the vertices' bounding box (for a mesh whose class came from its
    name), or None when there are no usable vertices."""
    try:
        v = np.asarray(vertices, dtype=float).reshape(-1, 3)
    except (TypeError, ValueError):
        return None
    if len(v) == 0 or not np.all(np.isfinite(v)):
        return None
    lo, hi = v.min(axis=0), v.max(axis=0)
    affine = np.eye(4)
    affine[:3, :3] = np.diag(hi - lo)
    affine[:3, 3] = (lo + hi) / 2
    return affine @ _Y_TO_Z if up == "z" else affine
