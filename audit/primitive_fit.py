"""Which canonical unit primitive an engine's freshly created mesh is, measured from its vertices.

Blender's and Open3D's primitives share one layout in their own local frame: the axis of
revolution along local +Z (torus ring in the XY plane). Each fit reads the shape's dimensions
off the vertices the engine produced (never off the arguments the model passed, whose defaults
are what the parsers must get right) and returns ``P``, the 4x4 affine taking the canonical unit
primitive (axis +Y, spec in docs/conventions.md) onto those vertices.

Later edits are recovered by least squares: the final vertices of a mesh are an affine image of
the vertices it was created with (``affine_between``), so ``final = A @ P`` on the unit primitive.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS

Array = NDArray[np.float64]

#: Canonical +Y (the unit primitives' axis) onto local +Z: a quarter turn about X.
Y_TO_Z: Array = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)

#: Relative tolerance when deciding that a vertex sits on a cap, an apex or the axis.
_TOL = 1e-5


def _rz(radians: float) -> Array:
    c, s = math.cos(radians), math.sin(radians)
    m = np.eye(4)
    m[:2, :2] = [[c, -s], [s, c]]
    return m


def _affine(centre: Array, linear: Array) -> Array:
    m = np.eye(4)
    m[:3, :3] = linear
    m[:3, 3] = centre
    return m


def _bbox(vertices: Array) -> tuple[Array, Array]:
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    return (lo + hi) / 2.0, hi - lo


def _cap_radii(vertices: Array, centre: Array) -> tuple[float, float]:
    """Largest distance from the Z axis of the vertices on the bottom cap and on the top cap."""
    z = vertices[:, 2]
    lo, hi = float(z.min()), float(z.max())
    span = max(hi - lo, 1e-12)
    radial = np.hypot(vertices[:, 0] - centre[0], vertices[:, 1] - centre[1])
    bottom = radial[np.abs(z - lo) <= _TOL * span]
    top = radial[np.abs(z - hi) <= _TOL * span]
    return float(bottom.max(initial=0.0)), float(top.max(initial=0.0))


def fit_unit_to_local(class_name: str, vertices: Array, *, up: str = "z") -> Array:
    """``P`` for a mesh of ``class_name`` with its axis along local +Z (see the module doc).

    ``up`` is the engine's up axis ('y' or 'z'); boxes and spheres, which have no axis of their
    own, keep their local up there, so a box reads as sized rather than turned.
    """
    v = np.asarray(vertices, dtype=float)
    centre, extent = _bbox(v)
    level = Y_TO_Z if up == "z" else np.eye(4)
    if class_name == "sphere":
        radius = float(np.linalg.norm(v - centre, axis=1).max())
        return _affine(centre, np.eye(3) * 2.0 * radius) @ level
    if class_name == "cylinder":
        radius = float(np.hypot(v[:, 0] - centre[0], v[:, 1] - centre[1]).max())
        return _affine(centre, np.diag([2 * radius, 2 * radius, extent[2]])) @ Y_TO_Z
    if class_name in ("cone", "pyramid"):
        bottom, top = _cap_radii(v, centre)
        flip = np.diag([1.0, 1.0, 1.0]) if bottom >= top else np.diag([1.0, -1.0, -1.0])
        radius = max(bottom, top)
        if class_name == "cone":
            return _affine(centre, flip @ np.diag([2 * radius, 2 * radius, extent[2]])) @ Y_TO_Z
        # Unit pyramid corners sit at 45 degrees from the local axes once Y is turned onto Z.
        base_z = v[:, 2].min() if bottom >= top else v[:, 2].max()
        corner = v[
            np.argmax(
                np.where(
                    np.abs(v[:, 2] - base_z) <= _TOL * max(extent[2], 1e-12),
                    np.hypot(v[:, 0] - centre[0], v[:, 1] - centre[1]),
                    -1.0,
                )
            )
        ]
        angle = math.atan2(corner[1] - centre[1], corner[0] - centre[0])
        turn = (angle - math.pi / 4) % (math.pi / 2)
        side = radius * math.sqrt(2.0)
        linear = _rz(turn)[:3, :3] @ flip @ np.diag([side, side, extent[2]])
        return _affine(centre, linear) @ Y_TO_Z
    if class_name == "torus":
        radial = np.hypot(v[:, 0] - centre[0], v[:, 1] - centre[1])
        outer = float(radial.max())
        thickness = float(extent[2])
        unit_outer = TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS
        unit_thickness = UNIT_EXTENTS["torus"][1]
        scale = np.diag([outer / unit_outer, outer / unit_outer, thickness / unit_thickness])
        return _affine(centre, scale) @ Y_TO_Z
    # cube, and anything unknown, by its bounding box.
    return _affine(centre, np.diag(extent)) @ level


def affine_between(before: Array, after: Array) -> tuple[Array, float]:
    """The 4x4 affine ``M`` with ``after ≈ M @ before`` (least squares) and the largest residual."""
    b = np.asarray(before, dtype=float)
    a = np.asarray(after, dtype=float)
    if b.shape != a.shape or b.shape[0] == 0:
        raise ValueError(f"vertex arrays differ in shape: {b.shape} vs {a.shape}")
    homogeneous = np.hstack([b, np.ones((b.shape[0], 1))])
    solution, *_ = np.linalg.lstsq(homogeneous, a, rcond=None)
    m = np.eye(4)
    m[:3, :] = solution.T
    residual = float(np.abs(homogeneous @ solution - a).max())
    return m, residual


def classify_custom_mesh(vertices: Array) -> str:
    """Class of a mesh a model built vertex by vertex: a box of 8 corners or a square pyramid
    of 5 points (base square along local XY, apex on the axis); anything else is unknown."""
    v = np.asarray(vertices, dtype=float)
    centre, extent = _bbox(v)
    if len(v) == 8 and np.all(extent > 0):
        corners = np.abs(np.abs(v - centre) - extent / 2.0)
        if float(corners.max()) <= _TOL * float(extent.max()):
            return "cube"
    if len(v) == 5 and extent[2] > 0:
        z = v[:, 2]
        for base_z in (z.min(), z.max()):
            on_base = np.abs(z - base_z) <= _TOL * extent[2]
            if int(on_base.sum()) == 4:
                apex = v[~on_base][0]
                base = v[on_base]
                middle = base.mean(axis=0)
                if np.hypot(apex[0] - middle[0], apex[1] - middle[1]) <= _TOL * float(extent.max()):
                    return "pyramid"
    return "unknown"
