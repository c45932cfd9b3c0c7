"""three's ``Matrix4`` for the static evaluator: ``new THREE.Matrix4()`` and its methods
(``set``, ``makeRotation*``, ``compose``, ``multiply``, ``invert``...), on numpy arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from parsers.evaluator import Args, CallContext, Kwargs, Part, Record, Unknown, Value, arg
from parsers.threejs import three_math as tm
from spatialbabel.frames import Matrix

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class Matrix4Methods(Part):
    """The constructor and methods of ``Matrix4`` records."""

    engine: ThreeEngine

    def new_matrix(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        record = self.engine.matrix4()
        if len(args) == 16:
            self._matrix_set(ctx, record, args, kwargs)
        return record

    # --- Matrix4 ------------------------------------------------------------------------------
    def _matrix_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        values = [
            ctx.number(v, "a matrix element", 0.0, code="threejs.unknown_value") for v in args[:16]
        ]
        if len(values) == 16:
            record.native = np.array(values, dtype=float).reshape(4, 4)
        return record

    def matrix_methods(self) -> dict[str, Any]:
        engine = self.engine

        def make(builder: Callable[[CallContext, Args], Matrix | None]) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                m = builder(ctx, a)
                r.native = np.full((4, 4), np.nan) if m is None else m
                return r

            return fn

        def rotation(axis: str) -> Callable[[CallContext, Args], Matrix | None]:
            def build(ctx: CallContext, a: Args) -> Matrix | None:
                angle = ctx.optional_number(
                    arg(a, 0), "the rotation angle", code="threejs.unknown_value"
                )
                if angle is None:
                    return None
                vector = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]
                return tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(vector, angle))

            return build

        def axis_angle(ctx: CallContext, a: Args) -> Matrix | None:
            axis = engine.vec(ctx, arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            return (
                None
                if axis is None or angle is None
                else tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(axis, angle))
            )

        def three_numbers(
            ctx: CallContext, a: Args, default: float
        ) -> tuple[float, float, float] | None:
            first = arg(a, 0)
            if isinstance(first, Record):
                return engine.vec(ctx, first, "the vector")
            return (
                ctx.number(first, "x", default),
                ctx.number(arg(a, 1), "y", default),
                ctx.number(arg(a, 2), "z", default),
            )

        def translation(ctx: CallContext, a: Args) -> Matrix | None:
            v = three_numbers(ctx, a, 0.0)
            if v is None:
                return None
            m = np.eye(4)
            m[:3, 3] = v
            return m

        def scale(ctx: CallContext, a: Args) -> Matrix | None:
            v = three_numbers(ctx, a, 1.0)
            return None if v is None else np.diag([v[0], v[1], v[2], 1.0])

        def from_euler(ctx: CallContext, a: Args) -> Matrix | None:
            euler = arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown) or not isinstance(euler, Record):
                return None
            return tm.euler_matrix(
                angles[0], angles[1], angles[2], str(euler.fields.get("order", "XYZ"))
            )

        def from_quaternion(ctx: CallContext, a: Args) -> Matrix | None:
            q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
            return None if q is None else tm.rotation_matrix_from_quat(q)

        def compose(ctx: CallContext, a: Args) -> Matrix | None:
            p = engine.vec(ctx, arg(a, 0), "the position")
            q = engine.quat_of(ctx, arg(a, 1), "the quaternion")
            s = engine.vec(ctx, arg(a, 2), "the scale")
            return None if p is None or q is None or s is None else tm.compose(p, q, s)

        def look_at(ctx: CallContext, a: Args) -> Matrix | None:
            eye = engine.vec(ctx, arg(a, 0), "the eye")
            target = engine.vec(ctx, arg(a, 1), "the target")
            up = engine.vec(ctx, arg(a, 2), "the up vector")
            return (
                None
                if eye is None or target is None or up is None
                else tm.look_at_matrix(eye, target, up)
            )

        def product(order: str) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                other = arg(a, 0)
                mine = r.native if isinstance(r.native, np.ndarray) else np.full((4, 4), np.nan)
                theirs = (
                    other.native
                    if isinstance(other, Record) and isinstance(other.native, np.ndarray)
                    else np.full((4, 4), np.nan)
                )
                r.native = mine @ theirs if order == "post" else theirs @ mine
                return r

            return fn

        def multiply_matrices(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            p, q = arg(a, 0), arg(a, 1)
            if (
                isinstance(p, Record)
                and isinstance(q, Record)
                and isinstance(p.native, np.ndarray)
                and isinstance(q.native, np.ndarray)
            ):
                r.native = p.native @ q.native
            else:
                r.native = np.full((4, 4), np.nan)
            return r

        def decompose(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, r, "the matrix")
            if m is None:
                return r
            position, q, s = tm.decompose(m)
            target_p, target_q, target_s = arg(a, 0), arg(a, 1), arg(a, 2)
            if isinstance(target_p, Record):
                target_p.fields.update(dict(zip("xyz", position, strict=True)))
            if isinstance(target_q, Record):
                target_q.fields.update(dict(zip("xyzw", q, strict=True)))
                engine.sync_from_quaternion(target_q)
            if isinstance(target_s, Record):
                target_s.fields.update(dict(zip("xyz", s, strict=True)))
            return r

        def invert(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = r.native if isinstance(r.native, np.ndarray) else np.full((4, 4), np.nan)
            try:
                r.native = np.linalg.inv(m)
            except np.linalg.LinAlgError:
                r.native = np.zeros((4, 4))
            return r

        def set_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = three_numbers(ctx, a, 0.0)
            if isinstance(r.native, np.ndarray):
                r.native = np.array(r.native)
                r.native[:3, 3] = np.nan if v is None else v
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            other = arg(a, 0)
            r.native = (
                np.array(other.native)
                if isinstance(other, Record) and isinstance(other.native, np.ndarray)
                else np.full((4, 4), np.nan)
            )
            return r

        def extract_rotation(ctx: CallContext, a: Args) -> Matrix | None:
            m = engine.matrix_of(ctx, arg(a, 0), "the matrix")
            return None if m is None else tm.extract_rotation(m)

        return {
            "makeRotationX": make(rotation("X")),
            "makeRotationY": make(rotation("Y")),
            "makeRotationZ": make(rotation("Z")),
            "makeRotationAxis": make(axis_angle),
            "makeTranslation": make(translation),
            "makeScale": make(scale),
            "makeRotationFromEuler": make(from_euler),
            "makeRotationFromQuaternion": make(from_quaternion),
            "compose": make(compose),
            "lookAt": make(look_at),
            "extractRotation": make(extract_rotation),
            "identity": make(lambda ctx, a: np.eye(4)),
            "set": self._matrix_set,
            "multiply": product("post"),
            "premultiply": product("pre"),
            "multiplyMatrices": multiply_matrices,
            "decompose": decompose,
            "invert": invert,
            "setPosition": set_position,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.matrix4(
                r.native if isinstance(r.native, np.ndarray) else None
            ),
            "determinant": lambda ctx, r, a, k: (
                float(np.linalg.det(r.native))
                if isinstance(r.native, np.ndarray)
                else Unknown("a matrix that cannot be known")
            ),
        }
