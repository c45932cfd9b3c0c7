"""The fixed set of global axis swaps and flips tried by the alignment diagnostic.

A reply that scores well only after one of these maps has the layout right in a wrong frame
convention (a Z-up scene written in a Y-up language, a left-handed z); one that scores badly
under all of them has the layout wrong. Each map is a signed permutation of the axes, applied
about the world origin to the whole predicted scene.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from spatialbabel import Scene, matrix_to_euler
from spatialbabel.frames import Matrix


@dataclass(frozen=True)
class AxisMap:
    """``canonical' = matrix @ canonical``; ``reason`` says which mistake it undoes."""

    name: str
    matrix: Matrix
    reason: str

    @property
    def proper(self) -> bool:
        return bool(np.linalg.det(self.matrix) > 0)


def _map(name: str, rows: list[list[float]], reason: str) -> AxisMap:
    return AxisMap(name, np.array(rows, dtype=float), reason)


#: The set, in the order ties are broken (identity first, so a reply that needs no map keeps it).
AXIS_MAPS: Final[tuple[AxisMap, ...]] = (
    _map("identity", [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "no change"),
    _map("mirror_x", [[-1, 0, 0], [0, 1, 0], [0, 0, 1]], "left and right swapped"),
    _map(
        "mirror_z", [[1, 0, 0], [0, 1, 0], [0, 0, -1]], "a left-handed z (front and back swapped)"
    ),
    _map("turn_y_180", [[-1, 0, 0], [0, 1, 0], [0, 0, -1]], "the scene described from behind"),
    _map(
        "rot_x_+90",
        [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
        "Y-up coordinates written in a Z-up language",
    ),
    _map(
        "rot_x_-90",
        [[1, 0, 0], [0, 0, 1], [0, -1, 0]],
        "Z-up coordinates written in a Y-up language",
    ),
    _map("swap_yz", [[1, 0, 0], [0, 0, 1], [0, 1, 0]], "Y and Z exchanged without the sign change"),
    _map("swap_xz", [[0, 0, 1], [0, 1, 0], [1, 0, 0]], "X and Z exchanged"),
)

# A mirror turns each object's frame improper; flipping its local x makes it proper again and
# leaves every unit primitive unchanged (all six are symmetric in their local x).
_FLIP_LOCAL_X: Final = np.diag([-1.0, 1.0, 1.0])


def axis_map(name: str) -> AxisMap:
    for candidate in AXIS_MAPS:
        if candidate.name == name:
            return candidate
    known = ", ".join(m.name for m in AXIS_MAPS)
    raise KeyError(f"unknown axis map {name!r}; known: {known}")


def apply_axis_map(scene: Scene, mapping: AxisMap) -> Scene:
    """The whole scene under ``mapping``: positions and orientations; local sizes unchanged."""
    objects = []
    for obj in scene.objects:
        position = mapping.matrix @ np.asarray(obj.position, dtype=float)
        rotation = mapping.matrix @ obj.rotation_matrix
        if not mapping.proper:
            rotation = rotation @ _FLIP_LOCAL_X
        objects.append(
            replace(
                obj,
                position=(float(position[0]), float(position[1]), float(position[2])),
                rotation=matrix_to_euler(rotation),
            )
        )
    return scene.with_objects(objects)
