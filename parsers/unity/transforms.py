"""Unity's ``Transform`` for the static evaluator, the base of the Unity engine table: local
and world matrices in Unity's left-handed frame, ``position``/``localPosition``,
``rotation``/``eulerAngles``, ``localScale``, ``parent`` and ``SetParent`` (world kept by
default), ``Rotate``, ``Translate``, ``RotateAround``, ``LookAt``, ``TransformPoint``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from parsers.evaluator import (
    Args,
    CallContext,
    Engine,
    Kwargs,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
)
from parsers.unity import structs
from spatialbabel.frames import Matrix, axis_angle_to_matrix


@dataclass
class TransformState:
    game_object: Record
    position: Matrix = field(default_factory=lambda: np.zeros(3))
    rotation: Matrix = field(default_factory=lambda: np.eye(3))
    scale: Matrix = field(default_factory=lambda: np.ones(3))
    parent: Record | None = None


class UnityTransforms(Engine):
    """The GameObjects made so far, and their transforms."""

    def __init__(self) -> None:
        super().__init__()
        self.objects: list[Record] = []

    # --- transforms --------------------------------------------------------------------------------
    def local_matrix(self, transform: Record) -> Matrix:
        state: TransformState = transform.native
        m = np.eye(4)
        m[:3, :3] = state.rotation @ np.diag(state.scale)
        m[:3, 3] = state.position
        return m

    def world_matrix(self, transform: Record, depth: int = 0) -> Matrix:
        parent = transform.native.parent
        local = self.local_matrix(transform)
        if parent is not None and depth < 64:
            return self.world_matrix(parent, depth + 1) @ local
        return local

    def world_rotation(self, transform: Record, depth: int = 0) -> Matrix:
        parent = transform.native.parent
        if parent is not None and depth < 64:
            return self.world_rotation(parent, depth + 1) @ transform.native.rotation
        return np.asarray(transform.native.rotation)

    def _children(self, transform: Record) -> list[Record]:
        return [
            o.native.transform
            for o in self.objects
            if o.native.transform.native.parent is transform and not o.native.destroyed
        ]

    def _set_world_position(self, transform: Record, position: Matrix) -> None:
        parent = transform.native.parent
        if parent is not None:
            inverse = np.linalg.inv(self.world_matrix(parent))
            position = (inverse @ np.append(position, 1.0))[:3]
        transform.native.position = np.asarray(position, dtype=float)

    def _set_world_rotation(self, transform: Record, rotation: Matrix) -> None:
        parent = transform.native.parent
        if parent is not None:
            rotation = self.world_rotation(parent).T @ rotation
        transform.native.rotation = np.asarray(rotation, dtype=float)

    def _transform_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        state: TransformState = record.native
        if name in ("position", "localPosition", "localScale"):
            current = (
                self.world_matrix(record)[:3, 3]
                if name == "position"
                else state.position
                if name == "localPosition"
                else state.scale
            )
            found = structs.components(ctx, value, name, tuple(current))
            if found is None:
                return True
            if name == "position":
                self._set_world_position(record, np.asarray(found))
            elif name == "localPosition":
                state.position = np.asarray(found)
            else:
                state.scale = np.asarray(found)
            return True
        if name in ("rotation", "localRotation"):
            rotation = structs.rotation_of(value)
            if rotation is None:
                ctx.warning(
                    "unity.bad_value",
                    f"{name} set to a value that is not a known Quaternion; left unchanged",
                )
            elif name == "rotation":
                self._set_world_rotation(record, rotation)
            else:
                state.rotation = rotation
            return True
        if name in ("eulerAngles", "localEulerAngles"):
            angles = structs.components(ctx, value, name)
            if angles is not None:
                rotation = structs.euler_matrix(*angles)
                if name == "eulerAngles":
                    self._set_world_rotation(record, rotation)
                else:
                    state.rotation = rotation
            return True
        if name == "parent":
            self.reparent(
                record,
                value if isinstance(value, Record) and value.kind == "Transform" else None,
                keep_world=True,
            )
            return True
        if name == "name":
            state.game_object.fields["name"] = value
            return True
        return False

    def reparent(self, transform: Record, parent: Record | None, *, keep_world: bool) -> None:
        world = self.world_matrix(transform)
        transform.native.parent = parent
        if not keep_world:
            return
        local = np.linalg.inv(self.world_matrix(parent)) @ world if parent is not None else world
        linear = local[:3, :3]
        scale = np.linalg.norm(linear, axis=0)
        safe = np.where(scale > 1e-12, scale, 1.0)
        rotation = linear / safe
        if np.linalg.det(rotation) < 0:
            scale[0], rotation[:, 0] = -scale[0], -rotation[:, 0]
        transform.native.position, transform.native.rotation, transform.native.scale = (
            local[:3, 3].copy(),
            rotation,
            scale,
        )

    def _set_parent(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        parent = arg(args, 0, kwargs, "parent")
        if isinstance(parent, Record) and parent.kind == "GameObject":
            parent = parent.native.transform
        stays = ctx.truthy(arg(args, 1, kwargs, "worldPositionStays"))
        self.reparent(
            record,
            parent if isinstance(parent, Record) and parent.kind == "Transform" else None,
            keep_world=stays is not False,
        )
        return None

    def _space(self, args: Args, kwargs: Kwargs, index: int) -> str:
        value = arg(args, index, kwargs, "relativeTo")
        return "World" if value == "World" else "Self"

    def _rotation_argument(
        self, ctx: CallContext, args: Args, kwargs: Kwargs
    ) -> tuple[Matrix, str] | None:
        first = arg(args, 0)
        if isinstance(first, Record) and first.kind == "Vector3":
            second = arg(args, 1)
            if is_number(second):
                axis = structs.components(ctx, first, "Rotate axis")
                if axis is None or not any(axis):
                    return None
                return axis_angle_to_matrix(axis, np.radians(float(second))), self._space(
                    args, kwargs, 2
                )
            angles = structs.components(ctx, first, "Rotate angles")
            if angles is None:
                return None
            return structs.euler_matrix(*angles), self._space(args, kwargs, 1)
        angles3 = tuple(ctx.number(arg(args, i), f"Rotate {n}", 0.0) for i, n in enumerate("xyz"))
        return structs.euler_matrix(*angles3), self._space(args, kwargs, 3)

    def _rotate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        found = self._rotation_argument(ctx, args, kwargs)
        if found is None:
            return None
        turn, space = found
        world = self.world_rotation(record)
        self._set_world_rotation(record, turn @ world if space == "World" else world @ turn)
        return None

    def _translate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        first = arg(args, 0)
        if isinstance(first, Record) and first.kind == "Vector3":
            offset = structs.components(ctx, first, "Translate")
            space = self._space(args, kwargs, 1)
        else:
            offset = tuple(
                ctx.number(arg(args, i), f"Translate {n}", 0.0) for i, n in enumerate("xyz")
            )  # type: ignore[assignment]
            space = self._space(args, kwargs, 3)
        if offset is None:
            return None
        move = np.asarray(offset, dtype=float)
        if space == "Self":
            move = self.world_rotation(record) @ move
        self._set_world_position(record, self.world_matrix(record)[:3, 3] + move)
        return None

    def _rotate_around(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        point = structs.components(ctx, arg(args, 0), "RotateAround point")
        axis = structs.components(ctx, arg(args, 1), "RotateAround axis")
        angle = ctx.number(arg(args, 2), "RotateAround angle", 0.0)
        if point is None or axis is None or not any(axis):
            return None
        turn = axis_angle_to_matrix(axis, np.radians(angle))
        position = self.world_matrix(record)[:3, 3]
        self._set_world_position(record, np.asarray(point) + turn @ (position - np.asarray(point)))
        self._set_world_rotation(record, turn @ self.world_rotation(record))
        return None

    def _look_at(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0)
        if isinstance(target, Record) and target.kind == "Transform":
            point: tuple[float, ...] | None = tuple(self.world_matrix(target)[:3, 3])
        else:
            point = structs.components(ctx, target, "LookAt target")
        up = (
            structs.components(ctx, arg(args, 1), "LookAt up", (0.0, 1.0, 0.0))
            if len(args) > 1
            else (0.0, 1.0, 0.0)
        )
        if point is None or up is None:
            return None
        forward = np.asarray(point) - self.world_matrix(record)[:3, 3]
        rotation = structs.look_rotation((forward[0], forward[1], forward[2]), up)
        if rotation is not None:
            self._set_world_rotation(record, rotation)
        return None

    def _set_position_and_rotation(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        self._transform_set(ctx, record, "position", arg(args, 0))
        self._transform_set(ctx, record, "rotation", arg(args, 1))
        return None

    def _transform_point(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        point = structs.components(ctx, arg(args, 0), "TransformPoint")
        if point is None:
            return Unknown("TransformPoint of an unknown point")
        return structs.vec((self.world_matrix(record) @ np.append(point, 1.0))[:3])
