"""three's ``Euler`` and ``Quaternion`` for the static evaluator: their methods, and the
field hooks that keep an object's ``rotation`` and ``quaternion`` in sync when a script sets
one of their components.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parsers.evaluator import Args, CallContext, Kwargs, Part, Record, Unknown, Value, arg
from parsers.threejs import three_math as tm

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class EulerQuaternionMethods(Part):
    """The methods and field hooks of ``Euler`` and ``Quaternion`` records."""

    engine: ThreeEngine

    # --- Euler and Quaternion -------------------------------------------------------------------
    def euler_set_hook(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        record.fields[name] = value
        if name in ("x", "y", "z", "order"):
            self.engine.sync_from_euler(record)
        return True

    def quaternion_set_hook(
        self, ctx: CallContext, record: Record, name: str, value: Value
    ) -> bool:
        record.fields[name] = value
        if name in ("x", "y", "z", "w"):
            self.engine.sync_from_quaternion(record)
        return True

    def euler_methods(self) -> dict[str, Any]:
        engine = self.engine

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": arg(a, 0), "y": arg(a, 1), "z": arg(a, 2)})
            order = arg(a, 3)
            if isinstance(order, str):
                r.fields["order"] = order
            engine.sync_from_euler(r)
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = arg(a, 0)
            if isinstance(source, Record):
                r.fields.update({name: source.fields.get(name, 0.0) for name in ("x", "y", "z")})
                if isinstance(source.fields.get("order"), str):
                    r.fields["order"] = source.fields["order"]
            engine.sync_from_euler(r)
            return r

        def set_from(read: Callable[[CallContext, Value], Any], angles: Callable[..., Any]) -> Any:
            """``setFromQuaternion``/``setFromRotationMatrix``: an optional new order, then the
            angles of the rotation ``read`` finds in the first argument."""

            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                rotation = read(ctx, arg(a, 0))
                order = arg(a, 1)
                if isinstance(order, str):
                    r.fields["order"] = order
                if rotation is not None:
                    x, y, z = angles(rotation, str(r.fields.get("order", "XYZ")))
                    r.fields.update({"x": x, "y": y, "z": z})
                    engine.sync_from_euler(r)
                return r

            return fn

        from_quaternion = set_from(
            lambda ctx, v: engine.quat_of(ctx, v, "the quaternion"), tm.euler_from_quat
        )
        from_matrix = set_from(
            lambda ctx, v: engine.matrix_of(ctx, v, "the rotation matrix"), tm.euler_from_matrix
        )

        def from_vector(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = arg(a, 0)
            if isinstance(v, Record):
                r.fields.update({axis: v.fields.get(axis, 0.0) for axis in "xyz"})
            order = arg(a, 1)
            if isinstance(order, str):
                r.fields["order"] = order
            engine.sync_from_euler(r)
            return r

        def reorder(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            angles = engine.numbers(r, "xyz")
            new_order = arg(a, 0)
            if not isinstance(angles, Unknown) and isinstance(new_order, str):
                q = tm.quat_from_euler(
                    angles[0], angles[1], angles[2], str(r.fields.get("order", "XYZ"))
                )
                x, y, z = tm.euler_from_quat(q, new_order)
                r.fields.update({"x": x, "y": y, "z": z, "order": new_order})
                engine.sync_from_euler(r)
            return r

        return {
            "set": set_,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.euler(
                r.fields.get("x"), r.fields.get("y"), r.fields.get("z"), r.fields.get("order")
            ),
            "setFromQuaternion": from_quaternion,
            "setFromRotationMatrix": from_matrix,
            "setFromVector3": from_vector,
            "reorder": reorder,
            "toArray": lambda ctx, r, a, k: [
                r.fields.get("x"),
                r.fields.get("y"),
                r.fields.get("z"),
                r.fields.get("order"),
            ],
        }

    def quaternion_methods(self) -> dict[str, Any]:
        engine = self.engine

        def store(r: Record, q: tm.Quat | Unknown | None) -> Record:
            if q is None:
                q = Unknown("a quaternion that cannot be known statically")
            if isinstance(q, Unknown):
                r.fields.update({"x": q, "y": q, "z": q, "w": q})
            else:
                r.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})
            engine.sync_from_quaternion(r)
            return r

        def own(r: Record) -> tm.Quat | Unknown:
            found = engine.numbers(r, "xyzw")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2], found[3])

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": arg(a, 0), "y": arg(a, 1), "z": arg(a, 2), "w": arg(a, 3)})
            engine.sync_from_quaternion(r)
            return r

        def from_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                return store(r, angles)
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            return store(
                r,
                tm.quat_from_euler(
                    angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
                ),
            )

        def from_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis = engine.vec(ctx, arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            if axis is None or angle is None:
                return store(r, None)
            return store(r, tm.quat_from_axis_angle(axis, angle))

        def from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, arg(a, 0), "the rotation matrix")
            return store(r, None if m is None else tm.quat_from_rotation_matrix(m))

        def from_unit_vectors(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = engine.vec(ctx, arg(a, 0), "the first vector")
            w = engine.vec(ctx, arg(a, 1), "the second vector")
            return store(r, None if v is None or w is None else tm.quat_from_unit_vectors(v, w))

        def multiply(premultiply: bool) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                mine, theirs = own(r), engine.numbers(arg(a, 0), "xyzw")
                if isinstance(mine, Unknown) or isinstance(theirs, Unknown):
                    return store(r, mine if isinstance(mine, Unknown) else theirs)  # type: ignore[arg-type]
                q = (theirs[0], theirs[1], theirs[2], theirs[3])
                return store(
                    r, tm.quat_multiply(q, mine) if premultiply else tm.quat_multiply(mine, q)
                )

            return fn

        def multiply_two(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            p, q = engine.numbers(arg(a, 0), "xyzw"), engine.numbers(arg(a, 1), "xyzw")
            if isinstance(p, Unknown) or isinstance(q, Unknown):
                return store(r, p if isinstance(p, Unknown) else q)  # type: ignore[arg-type]
            return store(r, tm.quat_multiply((p[0], p[1], p[2], p[3]), (q[0], q[1], q[2], q[3])))

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            found = engine.numbers(arg(a, 0), "xyzw")
            return store(
                r, found if isinstance(found, Unknown) else (found[0], found[1], found[2], found[3])
            )

        def invert(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = own(r)
            return store(r, q if isinstance(q, Unknown) else tm.quat_invert(q))

        def normalize(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = own(r)
            return store(r, q if isinstance(q, Unknown) else tm.quat_normalize(q))

        return {
            "set": set_,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.quaternion(
                (r.fields.get("x"), r.fields.get("y"), r.fields.get("z"), r.fields.get("w"))
            ),
            "identity": lambda ctx, r, a, k: store(r, tm.IDENTITY_QUAT),
            "setFromEuler": from_euler,
            "setFromAxisAngle": from_axis_angle,
            "setFromRotationMatrix": from_matrix,
            "setFromUnitVectors": from_unit_vectors,
            "multiply": multiply(False),
            "premultiply": multiply(True),
            "multiplyQuaternions": multiply_two,
            "invert": invert,
            "conjugate": invert,
            "normalize": normalize,
        }
