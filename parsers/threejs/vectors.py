"""three's ``Vector3`` (and ``Vector2``) methods for the static evaluator: setters,
arithmetic, lengths, products, ``applyMatrix4``/``applyQuaternion``, as three computes them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from parsers.evaluator import (
    Args,
    CallContext,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)
from parsers.threejs import three_math as tm
from parsers.threejs.records import num_or

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class VectorMethods(Part):
    """The methods of ``Vector3`` and ``Vector2`` records."""

    engine: ThreeEngine

    # --- Vector3 ------------------------------------------------------------------------------
    def vector_methods(self) -> dict[str, Any]:
        engine = self.engine

        def store(record: Record, values: tuple[Value, Value, Value] | Unknown) -> Record:
            if isinstance(values, Unknown):
                record.fields.update({"x": values, "y": values, "z": values})
            else:
                record.fields.update({"x": values[0], "y": values[1], "z": values[2]})
            return record

        def own(record: Record) -> tuple[float, float, float] | Unknown:
            found = engine.numbers(record, "xyz")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2])

        def other(value: Value) -> tuple[float, float, float] | Unknown:
            found = engine.numbers(value, "xyz")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2])

        def scalar(value: Value) -> float | Unknown:
            if is_number(value) and not isinstance(value, bool):
                return float(value)
            return (
                value
                if isinstance(value, Unknown)
                else Unknown(f"a {type_name(value)} where a number is expected")
            )

        def combine(
            fn: Callable[..., tuple[float, float, float]], *parts: Any
        ) -> tuple[float, float, float] | Unknown:
            for part in parts:
                if isinstance(part, Unknown):
                    return part
            try:
                return fn(*parts)
            except (ZeroDivisionError, ValueError, OverflowError):
                return Unknown("vector arithmetic fails")

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": arg(a, 0), "y": arg(a, 1), "z": arg(a, 2)})
            return r

        def set_axis(axis: str) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                r.fields[axis] = arg(a, 0)
                return r

            return fn

        def set_scalar(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            value = arg(a, 0)
            r.fields.update({"x": value, "y": value, "z": value})
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = arg(a, 0)
            if isinstance(source, Record):
                r.fields.update({axis: source.fields.get(axis, 0.0) for axis in "xyz"})
            else:
                store(
                    r,
                    Unknown(
                        source.reason
                        if isinstance(source, Unknown)
                        else "copy of a value that is not a vector"
                    ),
                )
            return r

        def unary(
            fn: Callable[[tuple[float, float, float]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r)))

        def with_vector(
            fn: Callable[[tuple[float, ...], tuple[float, ...]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r), other(arg(a, 0))))

        def with_scalar(
            fn: Callable[[tuple[float, ...], float], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r), scalar(arg(a, 0))))

        def two_vectors(
            fn: Callable[[tuple[float, ...], tuple[float, ...]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, other(arg(a, 0)), other(arg(a, 1))))

        def normalize(v: tuple[float, ...]) -> tuple[float, float, float]:
            length = math.sqrt(sum(c * c for c in v)) or 1.0
            return (v[0] / length, v[1] / length, v[2] / length)

        def length(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = own(r)
            return v if isinstance(v, Unknown) else math.sqrt(sum(c * c for c in v))

        def distance(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w = own(r), other(arg(a, 0))
            if isinstance(v, Unknown):
                return v
            if isinstance(w, Unknown):
                return w
            return math.dist(v, w)

        def dot(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w = own(r), other(arg(a, 0))
            if isinstance(v, Unknown):
                return v
            if isinstance(w, Unknown):
                return w
            return sum(p * q for p, q in zip(v, w, strict=True))

        def cross(v: tuple[float, ...], w: tuple[float, ...]) -> tuple[float, float, float]:
            return (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])

        def apply_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                return store(r, angles)
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            q = tm.quat_from_euler(
                angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
            )
            return store(r, combine(lambda v: tm.apply_quat(q, v), own(r)))

        def apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.numbers(arg(a, 0), "xyzw")
            if isinstance(q, Unknown):
                return store(r, q)
            return store(r, combine(lambda v: tm.apply_quat((q[0], q[1], q[2], q[3]), v), own(r)))

        def apply_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis, angle = other(arg(a, 0)), scalar(arg(a, 1))
            if isinstance(axis, Unknown) or isinstance(angle, Unknown):
                return store(r, axis if isinstance(axis, Unknown) else angle)  # type: ignore[arg-type]
            q = tm.quat_from_axis_angle(axis, angle)
            return store(r, combine(lambda v: tm.apply_quat(q, v), own(r)))

        def apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = arg(a, 0)
            if not (isinstance(m, Record) and isinstance(m.native, np.ndarray)):
                return store(r, Unknown("a matrix that cannot be known statically"))
            return store(r, combine(lambda v: tm.apply_matrix(m.native, v), own(r)))

        def from_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            array = arg(a, 0)
            offset = int(num_or(arg(a, 1), 0.0))
            if isinstance(array, list) and len(array) >= offset + 3:
                r.fields.update(
                    {"x": array[offset], "y": array[offset + 1], "z": array[offset + 2]}
                )
            else:
                store(r, Unknown("fromArray of an unknown array"))
            return r

        def from_matrix_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = arg(a, 0)
            if isinstance(m, Record) and isinstance(m.native, np.ndarray):
                return store(
                    r, (float(m.native[0, 3]), float(m.native[1, 3]), float(m.native[2, 3]))
                )
            return store(r, Unknown("a matrix that cannot be known statically"))

        def spherical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            radius, phi, theta = scalar(arg(a, 0)), scalar(arg(a, 1)), scalar(arg(a, 2))
            return store(
                r,
                combine(
                    lambda rr, p, t: (
                        rr * math.sin(p) * math.sin(t),
                        rr * math.cos(p),
                        rr * math.sin(p) * math.cos(t),
                    ),
                    radius,
                    phi,
                    theta,
                ),
            )

        def cylindrical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            radius, theta, y = scalar(arg(a, 0)), scalar(arg(a, 1)), scalar(arg(a, 2))
            return store(
                r,
                combine(
                    lambda rr, t, yy: (rr * math.sin(t), yy, rr * math.cos(t)), radius, theta, y
                ),
            )

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            return Record("Vector3", {axis: r.fields.get(axis, 0.0) for axis in "xyz"})

        def to_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            return [r.fields.get(axis, 0.0) for axis in "xyz"]

        def set_length(v: tuple[float, ...], s: float) -> tuple[float, float, float]:
            n = normalize(v)
            return (n[0] * s, n[1] * s, n[2] * s)

        def lerp_vectors(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w, t = other(arg(a, 0)), other(arg(a, 1)), scalar(arg(a, 2))
            return store(
                r,
                combine(
                    lambda p, q, tt: tuple(
                        pi + (qi - pi) * tt for pi, qi in zip(p, q, strict=True)
                    ),
                    v,
                    w,
                    t,
                ),
            )

        def add_scaled(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            w, s = other(arg(a, 0)), scalar(arg(a, 1))
            return store(
                r,
                combine(
                    lambda v, ww, ss: (v[0] + ww[0] * ss, v[1] + ww[1] * ss, v[2] + ww[2] * ss),
                    own(r),
                    w,
                    s,
                ),
            )

        return {
            "set": set_,
            "setX": set_axis("x"),
            "setY": set_axis("y"),
            "setZ": set_axis("z"),
            "setScalar": set_scalar,
            "copy": copy,
            "clone": clone,
            "toArray": to_array,
            "fromArray": from_array,
            "add": with_vector(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])),
            "sub": with_vector(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])),
            "multiply": with_vector(lambda v, w: (v[0] * w[0], v[1] * w[1], v[2] * w[2])),
            "divide": with_vector(lambda v, w: (v[0] / w[0], v[1] / w[1], v[2] / w[2])),
            "min": with_vector(lambda v, w: (min(v[0], w[0]), min(v[1], w[1]), min(v[2], w[2]))),
            "max": with_vector(lambda v, w: (max(v[0], w[0]), max(v[1], w[1]), max(v[2], w[2]))),
            "cross": with_vector(cross),
            "addScalar": with_scalar(lambda v, s: (v[0] + s, v[1] + s, v[2] + s)),
            "subScalar": with_scalar(lambda v, s: (v[0] - s, v[1] - s, v[2] - s)),
            "multiplyScalar": with_scalar(lambda v, s: (v[0] * s, v[1] * s, v[2] * s)),
            "divideScalar": with_scalar(lambda v, s: (v[0] / s, v[1] / s, v[2] / s)),
            "setLength": with_scalar(set_length),
            "addVectors": two_vectors(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])),
            "subVectors": two_vectors(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])),
            "crossVectors": two_vectors(cross),
            "addScaledVector": add_scaled,
            "negate": unary(lambda v: (-v[0], -v[1], -v[2])),
            "normalize": unary(normalize),
            "floor": unary(lambda v: (math.floor(v[0]), math.floor(v[1]), math.floor(v[2]))),
            "round": unary(
                lambda v: (math.floor(v[0] + 0.5), math.floor(v[1] + 0.5), math.floor(v[2] + 0.5))
            ),
            "length": length,
            "lengthSq": lambda ctx, r, a, k: (
                lambda v: v if isinstance(v, Unknown) else sum(c * c for c in v)
            )(own(r)),
            "distanceTo": distance,
            "dot": dot,
            "lerp": lambda ctx, r, a, k: store(
                r,
                combine(
                    lambda v, w, t: tuple(vi + (wi - vi) * t for vi, wi in zip(v, w, strict=True)),
                    own(r),
                    other(arg(a, 0)),
                    scalar(arg(a, 1)),
                ),
            ),
            "lerpVectors": lerp_vectors,
            "applyEuler": apply_euler,
            "applyQuaternion": apply_quaternion,
            "applyAxisAngle": apply_axis_angle,
            "applyMatrix4": apply_matrix4,
            "setFromMatrixPosition": from_matrix_position,
            "setFromSphericalCoords": spherical,
            "setFromCylindricalCoords": cylindrical,
            "equals": lambda ctx, r, a, k: (
                isinstance(arg(a, 0), Record)
                and all(r.fields.get(c) == arg(a, 0).fields.get(c) for c in "xyz")
            ),
        }

    def vector2_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        record.fields.update({"x": arg(args, 0), "y": arg(args, 1)})
        return record
