"""Changes to a scene's layout, each carrying the attachment graph along: what rests on a moved
object moves with it (``Scene.descendants``).

- ``move``: a root and its descendants translated along the ground;
- ``orbit``: a root and its descendants carried round a vertical axis through a pivot point,
  each keeping its facing (translated, not turned);
- ``remove``: an object and its descendants taken away;
- ``turn_layout``: every object turned rigidly about a vertical axis (positions and facings),
  the cameras left where they are.

Angles are degrees, counter-clockwise seen from above (``spatialbabel.geometry.directions.turn``).
``change_problems`` says why a changed scene is not a valid one: an object leaves the ground's
ranges, or two objects' exact bounding boxes overlap with positive volume where they did not
before (touching, and resting on a support, are not collisions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.frames import Matrix, axis_rotation
from spatialbabel.geometry.bounds import cached_world_aabb
from spatialbabel.geometry.directions import turn
from spatialbabel.scene import Scene, SceneObject

#: Metres of overlap along every axis below which two boxes only touch.
TOUCH: Final = 1e-6


def component(scene: Scene, object_id: str) -> tuple[str, ...]:
    """The object and everything resting on it, directly or not."""
    return (object_id, *scene.descendants(object_id))


def _translated(obj: SceneObject, dx: float, dz: float) -> SceneObject:
    x, y, z = obj.position
    return replace(obj, position=(x + dx, y, z + dz))


def move(scene: Scene, root: str, dx: float, dz: float) -> Scene:
    """``root`` and its descendants moved by (dx, dz) on the ground."""
    moving = set(component(scene, root))
    return scene.with_objects(
        [_translated(o, dx, dz) if o.id in moving else o for o in scene.objects]
    )


def orbit(scene: Scene, root: str, pivot: tuple[float, float], degrees: float) -> Scene:
    """``root`` carried by ``degrees`` round the vertical axis through ``pivot`` (x, z), its
    descendants with it, every facing kept."""
    x, _, z = scene.get_object(root).position
    centre = np.asarray(pivot, dtype=float)
    arrived = centre + turn(np.array([x, z]) - centre, degrees)
    return move(scene, root, float(arrived[0] - x), float(arrived[1] - z))


def remove(scene: Scene, object_id: str) -> Scene:
    """The scene without ``object_id`` and what rests on it."""
    gone = set(component(scene, object_id))
    return scene.with_objects([o for o in scene.objects if o.id not in gone])


def turn_layout(scene: Scene, degrees: float, centre: tuple[float, float] = (0.0, 0.0)) -> Scene:
    """Every object turned rigidly by ``degrees`` about the vertical axis through ``centre``."""
    rotation = axis_rotation("Y", np.radians(degrees))
    pivot = np.asarray(centre, dtype=float)
    turned = []
    for obj in scene.objects:
        x, y, z = obj.position
        nx, nz = pivot + turn(np.array([x, z]) - pivot, degrees)
        rx, ry, rz = obj.rotation
        if rx == 0.0 and rz == 0.0:
            # Upright (as generated): the turn adds to the yaw; no matrix to take apart.
            yaw = (ry + degrees + 180.0) % 360.0 - 180.0
            turned.append(
                replace(obj, position=(float(nx), y, float(nz)), rotation=(0.0, yaw, 0.0))
            )
            continue
        moved = replace(obj, position=(float(nx), y, float(nz)))
        turned.append(moved.with_rotation_matrix(rotation @ obj.rotation_matrix))
    return scene.with_objects(turned)


def _overlapping(ids: list[str], low: Matrix, high: Matrix) -> set[frozenset[str]]:
    depth = np.minimum(high[:, None], high[None]) - np.maximum(low[:, None], low[None])
    overlap = np.triu((depth > TOUCH).all(axis=2), k=1)
    return {frozenset((ids[a], ids[b])) for a, b in zip(*np.nonzero(overlap), strict=True)}


def colliding_pairs(objects: Iterable[SceneObject]) -> set[frozenset[str]]:
    """Pairs of objects whose exact bounding boxes overlap with positive volume."""
    listed = list(objects)
    if len(listed) < 2:
        return set()
    boxes = [cached_world_aabb(o) for o in listed]
    return _overlapping(
        [o.id for o in listed], np.array([b[0] for b in boxes]), np.array([b[1] for b in boxes])
    )


class ChangeCheck:
    """``change_problems`` for many changes of one scene: the scene's boxes and collisions are
    measured once, and an object a change left alone (the very same instance) keeps its box."""

    def __init__(self, before: Scene) -> None:
        self.before = before
        self._boxes = {id(o): cached_world_aabb(o) for o in before.objects}
        self._known = colliding_pairs(before.objects)

    def fits(self, ids: Sequence[str], shifts: Matrix) -> NDArray[np.bool_]:
        """For each ground shift (n x 2: dx, dz) of the objects ``ids`` (a root and what rests
        on it) together, whether the moved scene would be valid: ``problems`` for many moves
        at once, from the boxes alone."""
        moving = [i for i, o in enumerate(self.before.objects) if o.id in set(ids)]
        still = [i for i in range(len(self.before.objects)) if i not in moving]
        boxes = [self._boxes[id(o)] for o in self.before.objects]
        low = np.array([b[0] for b in boxes]).reshape(-1, 3)
        high = np.array([b[1] for b in boxes]).reshape(-1, 3)
        step = np.zeros((len(shifts), 3))
        step[:, [0, 2]] = np.asarray(shifts, dtype=float).reshape(-1, 2)
        mlow = low[moving][None] + step[:, None]  # shifts x moving x 3
        mhigh = high[moving][None] + step[:, None]
        (x0, x1), (z0, z1) = self.before.ground.x_range, self.before.ground.z_range
        inside = (
            (mlow[..., 0] >= x0 - TOUCH)
            & (mhigh[..., 0] <= x1 + TOUCH)
            & (mlow[..., 2] >= z0 - TOUCH)
            & (mhigh[..., 2] <= z1 + TOUCH)
        ).all(axis=1)
        ids_of = [o.id for o in self.before.objects]
        known = np.array(
            [[frozenset((ids_of[m], ids_of[k])) in self._known for k in still] for m in moving],
            dtype=bool,
        ).reshape(len(moving), len(still))
        depth = np.minimum(mhigh[:, :, None], high[still][None, None]) - np.maximum(
            mlow[:, :, None], low[still][None, None]
        )
        collide = (depth > TOUCH).all(axis=3) & ~known[None]
        return inside & ~collide.any(axis=(1, 2))

    def problems(self, after: Scene) -> list[str]:
        """Why ``after`` is not a valid change of the scene, one sentence each; empty when it
        is."""
        boxes = [self._boxes.get(id(o)) or cached_world_aabb(o) for o in after.objects]
        low = np.array([b[0] for b in boxes]).reshape(-1, 3)
        high = np.array([b[1] for b in boxes]).reshape(-1, 3)
        (x0, x1), (z0, z1) = after.ground.x_range, after.ground.z_range
        outside = (
            (low[:, 0] < x0 - TOUCH)
            | (high[:, 0] > x1 + TOUCH)
            | (low[:, 2] < z0 - TOUCH)
            | (high[:, 2] > z1 + TOUCH)
        )
        problems = [f"{after.objects[i].id} leaves the ground" for i in np.flatnonzero(outside)]
        new = _overlapping([o.id for o in after.objects], low, high) - self._known
        for pair in sorted(new, key=sorted):
            a, b = sorted(pair)
            problems.append(f"{a} and {b} collide")
        return problems


def change_problems(before: Scene, after: Scene) -> list[str]:
    """Why ``after`` is not a valid change of ``before``, one sentence each; empty when it is."""
    return ChangeCheck(before).problems(after)


__all__ = [
    "TOUCH",
    "ChangeCheck",
    "change_problems",
    "colliding_pairs",
    "component",
    "move",
    "orbit",
    "remove",
    "turn_layout",
]
