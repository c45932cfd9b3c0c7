"""What every generated program's writer needs: each object's placement in its parent's frame
(the world, or the group's), where its mesh's origin lies, its colour, and the numbers written
so that they read back as exactly what was meant."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from spatialbabel import SceneObject
from spatialbabel.frames import Matrix, axis_rotation
from spatialbabel.palette import rgb_to_hex
from tests.generated.programs import Group, Idioms
from tests.parsers.idiom_replies import _base_point, _n, _rgb

#: The shapes whose vertex-built mesh (``procedural``) stands on its origin, the middle of its
#: base, instead of being centred on it.
BASE_ORIGIN: Final = frozenset({"cone", "pyramid"})


@dataclass(frozen=True)
class Placement:
    """An object's origin and turn, canonical frame, in the world or in its group's frame."""

    origin: Matrix
    rotation: Matrix


def world_placement(obj: SceneObject, idioms: Idioms) -> Placement:
    """Where the mesh's origin goes: its centre, or the middle of its base for the shapes a
    procedural program builds standing on their origin."""
    based = idioms.procedural and obj.class_name in BASE_ORIGIN
    origin = _base_point(obj) if based else np.asarray(obj.position, dtype=float)
    return Placement(origin, obj.rotation_matrix)


def group_rotation(group: Group) -> Matrix:
    return axis_rotation("Y", math.radians(group.yaw))


def local_placement(world: Placement, group: Group) -> Placement:
    """The same placement in the group's frame (the group turns about the vertical axis)."""
    turn = group_rotation(group)
    offset = world.origin - np.asarray(group.position, dtype=float)
    return Placement(turn.T @ offset, turn.T @ world.rotation)


def placement(obj: SceneObject, index: int, idioms: Idioms) -> Placement:
    """The object's placement in the frame of whatever holds it."""
    world = world_placement(obj, idioms)
    if idioms.group is not None and idioms.parented[index]:
        return local_placement(world, idioms.group)
    return world


def python_function(head: Sequence[str], name: str) -> list[str]:
    """A helper of one of the idiom writers' Python heads, by name (its lines up to the next
    top-level statement), followed by two blank lines."""
    start = next(i for i, line in enumerate(head) if line.startswith(f"def {name}("))
    end = next(
        (i for i in range(start + 1, len(head)) if head[i] and not head[i][0].isspace()),
        len(head),
    )
    body = list(head[start:end])
    while body and not body[-1]:
        body.pop()
    return [*body, "", ""]


def quaternion_wxyz(rotation: Matrix) -> tuple[float, float, float, float]:
    """(w, x, y, z) of a rotation matrix (Shepperd's method, the largest diagonal first)."""
    m = rotation
    trace = float(np.trace(m))
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        return (0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s)
    i = int(np.argmax(np.diag(m)))
    j, k = (i + 1) % 3, (i + 2) % 3
    s = math.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k]) * 2
    q = [0.0, 0.0, 0.0, 0.0]
    q[0] = (m[k, j] - m[j, k]) / s
    q[1 + i] = 0.25 * s
    q[1 + j] = (m[j, i] + m[i, j]) / s
    q[1 + k] = (m[k, i] + m[i, k]) / s
    return (q[0], q[1], q[2], q[3])


def hex_colour(obj: SceneObject) -> str:
    """``rrggbb`` of the object's sRGB."""
    return rgb_to_hex(_rgb(obj))[1:]


def numbers(values: object) -> str:
    return ", ".join(_n(float(v)) for v in values)  # type: ignore[attr-defined]


__all__ = [
    "BASE_ORIGIN",
    "Placement",
    "group_rotation",
    "hex_colour",
    "local_placement",
    "numbers",
    "placement",
    "python_function",
    "quaternion_wxyz",
    "world_placement",
]
