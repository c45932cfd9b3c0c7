"""World geometry of scene objects: affines, oriented-box corners and exact bounding boxes."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final

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
    rotation = euler_to_matrix(tuple(float(a) for a in rotation_deg))  # type: ignore[attr-defined]
    return placed_unit(class_name, position, rotation, size)


def placed_unit(class_name: str, position: object, rotation: Matrix, size: object) -> Matrix:
    """``unit_to_world`` with the rotation already a matrix (a caller that holds it)."""
    unit = np.asarray(UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0)), dtype=float)
    scale = np.asarray(size, dtype=float) / unit
    return compose(np.asarray(position, dtype=float), rotation, scale)


def placed_units(
    class_names: Sequence[str], positions: Matrix, rotations: Matrix, sizes: Matrix
) -> Matrix:
    """``placed_unit`` of n objects at once ((n x 4 x 4) from n x 3 positions and sizes and
    n x 3 x 3 rotations), each equal to the one-object result to the last bit."""
    units = np.array(
        [UNIT_EXTENTS.get(name, (1.0, 1.0, 1.0)) for name in class_names], dtype=float
    ).reshape(-1, 3)
    scales = np.zeros((len(units), 3, 3))
    scales[:, [0, 1, 2], [0, 1, 2]] = np.asarray(sizes, dtype=float).reshape(-1, 3) / units
    affines = np.zeros((len(units), 4, 4))
    # A stacked matmul, as compose's R @ diag(scale) one object at a time.
    affines[:, :3, :3] = np.asarray(rotations, dtype=float).reshape(-1, 3, 3) @ scales
    affines[:, :3, 3] = np.asarray(positions, dtype=float).reshape(-1, 3)
    affines[:, 3, 3] = 1.0
    return affines


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
    lo, hi = primitive_aabbs((class_name,), np.asarray(affine, dtype=float)[None])
    return lo[0], hi[0]


def primitive_aabbs(class_names: Sequence[str], affines: Matrix) -> tuple[Matrix, Matrix]:
    """``primitive_aabb`` of n primitives at once: (n x 3) mins and maxes of (n x 4 x 4)
    affines, each class's closed form applied to all of its objects in one array operation."""
    m = np.asarray(affines, dtype=float).reshape(-1, 4, 4)
    if len(class_names) != len(m):
        raise ValueError(f"{len(class_names)} class names for {len(m)} affines")
    a, t = m[:, :3, :3], m[:, :3, 3]
    lo, hi = np.empty((len(m), 3)), np.empty((len(m), 3))
    groups: dict[str, list[int]] = {}
    for index, name in enumerate(class_names):
        groups.setdefault(name if name in _CLOSED_FORMS else "cube", []).append(index)
    for name, indices in groups.items():
        pick = np.array(indices)
        mine, centre = a[pick], t[pick]
        if name == "pyramid" or name == "cube":
            corners = _PYRAMID_VERTICES if name == "pyramid" else _UNIT_CORNERS
            points = corners @ mine.transpose(0, 2, 1) + centre[:, None, :]
            lo[pick], hi[pick] = points.min(axis=1), points.max(axis=1)
            continue
        if name == "sphere":
            # The Euclidean norm of each row, as np.linalg.norm sums it.
            half = 0.5 * np.sqrt(np.add.reduce(mine * mine, axis=2))
            lo[pick], hi[pick] = centre - half, centre + half
            continue
        disc = np.hypot(mine[:, :, 0], mine[:, :, 2])
        if name == "cylinder":
            half = 0.5 * disc + 0.5 * np.abs(mine[:, :, 1])
            lo[pick], hi[pick] = centre - half, centre + half
        elif name == "cone":
            apex = centre + 0.5 * mine[:, :, 1]
            base = centre - 0.5 * mine[:, :, 1]
            lo[pick] = np.minimum(apex, base - 0.5 * disc)
            hi[pick] = np.maximum(apex, base + 0.5 * disc)
        else:  # torus
            reach = TORUS_MAJOR_RADIUS * disc + TORUS_MINOR_RADIUS * np.hypot(disc, mine[:, :, 1])
            lo[pick], hi[pick] = centre - reach, centre + reach
    return lo, hi


#: Classes with their own closed form in ``primitive_aabbs``; any other is a unit cube.
_CLOSED_FORMS: Final = ("pyramid", "sphere", "cylinder", "cone", "torus")


def world_aabb(obj: SceneObject) -> tuple[Matrix, Matrix]:
    """(min, max) of the object's exact geometry in the world."""
    return primitive_aabb(obj.class_name, object_affine(obj))


@lru_cache(maxsize=4096)
def cached_world_aabb(obj: SceneObject) -> tuple[Matrix, Matrix]:
    """``world_aabb`` cached by the object's value (objects are frozen), for code that asks
    about the same objects many times (the states a question suite tries); read-only arrays."""
    low, high = world_aabb(obj)
    low.flags.writeable = False
    high.flags.writeable = False
    return low, high


def scene_aabb(objects: list[SceneObject] | tuple[SceneObject, ...]) -> tuple[Matrix, Matrix]:
    """(min, max) over the exact geometry of several objects; raises on an empty list."""
    if not objects:
        raise ValueError("no objects to bound")
    boxes = [world_aabb(o) for o in objects]
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)
