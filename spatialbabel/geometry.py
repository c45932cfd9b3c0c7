"""World geometry of scene objects: affines, oriented-box corners and exact bounding boxes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.frames import Matrix, compose, euler_to_matrix

if TYPE_CHECKING:
    from spatialbabel.scene import SceneObject

_UNIT_CORNERS = np.array(
    [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)], dtype=float
)
_PYRAMID_VERTICES = np.array(
    [[0.0, 0.5, 0.0], [-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [-0.5, -0.5, 0.5]]
)


def unit_to_world(class_name: str, position: object, rotation_deg: object, size: object) -> Matrix:
    """4x4 affine taking the class's unit primitive to the world: ``T R S(size / unit extent)``."""
    unit = np.asarray(UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0)), dtype=float)
    rotation = euler_to_matrix(tuple(float(a) for a in rotation_deg))  # type: ignore[attr-defined]
    scale = np.asarray(size, dtype=float) / unit
    return compose(np.asarray(position, dtype=float), rotation, scale)


def object_affine(obj: SceneObject) -> Matrix:
    return unit_to_world(obj.class_name, obj.position, obj.rotation, obj.size)


def box_corners(position: object, rotation: Matrix, size: object) -> Matrix:
    """The 8 world corners (8x3) of an oriented box centred at ``position``."""
    half = _UNIT_CORNERS * np.asarray(size, dtype=float)
    return half @ np.asarray(rotation, dtype=float).T + np.asarray(position, dtype=float)


def world_corners(obj: SceneObject) -> Matrix:
    """The 8 world corners of the object's oriented box (its local extents ``size``)."""
    return box_corners(obj.position, obj.rotation_matrix, obj.size)


def box_aabb(obj: SceneObject) -> tuple[Matrix, Matrix]:
    """(min, max) of the object's oriented-box corners."""
    corners = world_corners(obj)
    return corners.min(axis=0), corners.max(axis=0)


def primitive_aabb(class_name: str, affine: Matrix) -> tuple[Matrix, Matrix]:
    """(min, max) of the exact (untessellated) unit primitive of ``class_name`` under ``affine``.

    Closed forms: an affine image of a disc of radius r in the local XZ plane spans
    ``r * hypot(A[i, 0], A[i, 2])`` along world axis i; the torus adds its tube around that.
    Unknown classes use the unit cube.
    """
    m = np.asarray(affine, dtype=float)
    a, t = m[:3, :3], m[:3, 3]
    if class_name == "pyramid":
        points = _PYRAMID_VERTICES @ a.T + t
        return points.min(axis=0), points.max(axis=0)
    if class_name == "sphere":
        half = 0.5 * np.linalg.norm(a, axis=1)
        return t - half, t + half
    disc = np.hypot(a[:, 0], a[:, 2])
    if class_name == "cylinder":
        half = 0.5 * disc + 0.5 * np.abs(a[:, 1])
        return t - half, t + half
    if class_name == "cone":
        apex = t + 0.5 * a[:, 1]
        base = t - 0.5 * a[:, 1]
        lo: Matrix = np.minimum(apex, base - 0.5 * disc)
        hi: Matrix = np.maximum(apex, base + 0.5 * disc)
        return lo, hi
    if class_name == "torus":
        reach: Matrix = TORUS_MAJOR_RADIUS * disc + TORUS_MINOR_RADIUS * np.hypot(disc, a[:, 1])
        return t - reach, t + reach
    points = _UNIT_CORNERS @ a.T + t
    return points.min(axis=0), points.max(axis=0)


def world_aabb(obj: SceneObject) -> tuple[Matrix, Matrix]:
    """(min, max) of the object's exact geometry in the world."""
    return primitive_aabb(obj.class_name, object_affine(obj))


def scene_aabb(objects: list[SceneObject] | tuple[SceneObject, ...]) -> tuple[Matrix, Matrix]:
    """(min, max) over the exact geometry of several objects; raises on an empty list."""
    if not objects:
        raise ValueError("no objects to bound")
    boxes = [world_aabb(o) for o in objects]
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)
