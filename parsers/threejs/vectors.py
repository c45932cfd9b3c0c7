"""three's ``Vector3`` (and ``Vector2``) methods for the static evaluator: setters,
arithmetic, lengths, products, ``applyMatrix4``/``applyQuaternion``, as three computes them.

Each method is a module-level function registered by name (``@vector3_method("add")``) in
``VECTOR3_METHODS``; the families that differ only in their arithmetic (``add``, ``sub``...)
are made by one maker each (``_with_vector``...). A vector method needs nothing of the engine:
it reads and writes the record's ``x``/``y``/``z`` fields.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from parsers.evaluator import (
    Args,
    CallContext,
    Kwargs,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)
from parsers.evaluator.core.registry import registering
from parsers.threejs import three_math as tm
from parsers.threejs.records import Method, ThreeRecords, num_or

Vec = tuple[float, float, float]

#: The methods of ``Vector3`` records by name, registered by ``@vector3_method``.
VECTOR3_METHODS: Final[dict[str, Method]] = {}

#: ``@vector3_method("add")``: the decorated function is that method of ``Vector3``.
vector3_method = registering(VECTOR3_METHODS)


# --- reading and storing --------------------------------------------------------------------
def _store(record: Record, values: Vec | Unknown) -> Record:
    if isinstance(values, Unknown):
        record.fields.update({"x": values, "y": values, "z": values})
    else:
        record.fields.update({"x": values[0], "y": values[1], "z": values[2]})
    return record


def _xyz(value: Value) -> Vec | Unknown:
    """The receiver's or an argument's ``x``/``y``/``z``, or an Unknown naming what is not."""
    found = ThreeRecords.numbers(value, "xyz")
    return found if isinstance(found, Unknown) else (found[0], found[1], found[2])


def _scalar(value: Value) -> float | Unknown:
    if is_number(value) and not isinstance(value, bool):
        return float(value)
    return (
        value
        if isinstance(value, Unknown)
        else Unknown(f"a {type_name(value)} where a number is expected")
    )


def _combine(fn: Callable[..., Vec], *parts: Any) -> Vec | Unknown:
    """``fn`` of ``parts``, or the first part that is unknown; arithmetic that fails (a division
    by zero) is unknown too."""
    for part in parts:
        if isinstance(part, Unknown):
            return part
    try:
        return fn(*parts)
    except (ZeroDivisionError, ValueError, OverflowError):
        return Unknown("vector arithmetic fails")


def _normalize(v: tuple[float, ...]) -> Vec:
    length = math.sqrt(sum(c * c for c in v)) or 1.0
    return (v[0] / length, v[1] / length, v[2] / length)


def _cross(v: tuple[float, ...], w: tuple[float, ...]) -> Vec:
    return (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])


def _set_length(v: tuple[float, ...], s: float) -> Vec:
    n = _normalize(v)
    return (n[0] * s, n[1] * s, n[2] * s)


# --- the families: one maker each -------------------------------------------------------------
def _set_axis(axis: str) -> Method:
    def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        r.fields[axis] = arg(a, 0)
        return r

    return fn


def _unary(fn: Callable[[tuple[float, float, float]], Vec]) -> Method:
    return lambda ctx, r, a, k: _store(r, _combine(fn, _xyz(r)))


def _with_vector(fn: Callable[[tuple[float, ...], tuple[float, ...]], Vec]) -> Method:
    return lambda ctx, r, a, k: _store(r, _combine(fn, _xyz(r), _xyz(arg(a, 0))))


def _with_scalar(fn: Callable[[tuple[float, ...], float], Vec]) -> Method:
    return lambda ctx, r, a, k: _store(r, _combine(fn, _xyz(r), _scalar(arg(a, 0))))


def _two_vectors(fn: Callable[[tuple[float, ...], tuple[float, ...]], Vec]) -> Method:
    return lambda ctx, r, a, k: _store(r, _combine(fn, _xyz(arg(a, 0)), _xyz(arg(a, 1))))


# --- setters and copies -------------------------------------------------------------------------
@vector3_method("set")
def vector3_set(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    r.fields.update({"x": arg(a, 0), "y": arg(a, 1), "z": arg(a, 2)})
    return r


vector3_method("setX")(_set_axis("x"))
vector3_method("setY")(_set_axis("y"))
vector3_method("setZ")(_set_axis("z"))


@vector3_method("setScalar")
def vector3_set_scalar(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    value = arg(a, 0)
    r.fields.update({"x": value, "y": value, "z": value})
    return r


@vector3_method("copy")
def vector3_copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    source = arg(a, 0)
    if isinstance(source, Record):
        r.fields.update({axis: source.fields.get(axis, 0.0) for axis in "xyz"})
    else:
        _store(
            r,
            Unknown(
                source.reason
                if isinstance(source, Unknown)
                else "copy of a value that is not a vector"
            ),
        )
    return r


@vector3_method("clone")
def vector3_clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    return Record("Vector3", {axis: r.fields.get(axis, 0.0) for axis in "xyz"})


@vector3_method("toArray")
def vector3_to_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    return [r.fields.get(axis, 0.0) for axis in "xyz"]


@vector3_method("fromArray")
def vector3_from_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    array = arg(a, 0)
    offset = int(num_or(arg(a, 1), 0.0))
    if isinstance(array, list) and len(array) >= offset + 3:
        r.fields.update({"x": array[offset], "y": array[offset + 1], "z": array[offset + 2]})
    else:
        _store(r, Unknown("fromArray of an unknown array"))
    return r


# --- arithmetic -----------------------------------------------------------------------------------
vector3_method("add")(_with_vector(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])))
vector3_method("sub")(_with_vector(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])))
vector3_method("multiply")(_with_vector(lambda v, w: (v[0] * w[0], v[1] * w[1], v[2] * w[2])))
vector3_method("divide")(_with_vector(lambda v, w: (v[0] / w[0], v[1] / w[1], v[2] / w[2])))
vector3_method("min")(
    _with_vector(lambda v, w: (min(v[0], w[0]), min(v[1], w[1]), min(v[2], w[2])))
)
vector3_method("max")(
    _with_vector(lambda v, w: (max(v[0], w[0]), max(v[1], w[1]), max(v[2], w[2])))
)
vector3_method("cross")(_with_vector(_cross))
vector3_method("addScalar")(_with_scalar(lambda v, s: (v[0] + s, v[1] + s, v[2] + s)))
vector3_method("subScalar")(_with_scalar(lambda v, s: (v[0] - s, v[1] - s, v[2] - s)))
vector3_method("multiplyScalar")(_with_scalar(lambda v, s: (v[0] * s, v[1] * s, v[2] * s)))
vector3_method("divideScalar")(_with_scalar(lambda v, s: (v[0] / s, v[1] / s, v[2] / s)))
vector3_method("setLength")(_with_scalar(_set_length))
vector3_method("addVectors")(_two_vectors(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])))
vector3_method("subVectors")(_two_vectors(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])))
vector3_method("crossVectors")(_two_vectors(_cross))


@vector3_method("addScaledVector")
def vector3_add_scaled(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    w, s = _xyz(arg(a, 0)), _scalar(arg(a, 1))
    return _store(
        r,
        _combine(
            lambda v, ww, ss: (v[0] + ww[0] * ss, v[1] + ww[1] * ss, v[2] + ww[2] * ss),
            _xyz(r),
            w,
            s,
        ),
    )


vector3_method("negate")(_unary(lambda v: (-v[0], -v[1], -v[2])))
vector3_method("normalize")(_unary(_normalize))
vector3_method("floor")(_unary(lambda v: (math.floor(v[0]), math.floor(v[1]), math.floor(v[2]))))
vector3_method("round")(
    _unary(lambda v: (math.floor(v[0] + 0.5), math.floor(v[1] + 0.5), math.floor(v[2] + 0.5)))
)


# --- lengths and products -------------------------------------------------------------------------
@vector3_method("length")
def vector3_length(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    v = _xyz(r)
    return v if isinstance(v, Unknown) else math.sqrt(sum(c * c for c in v))


@vector3_method("lengthSq")
def vector3_length_sq(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    v = _xyz(r)
    return v if isinstance(v, Unknown) else sum(c * c for c in v)


def _measure(fn: Callable[[Vec, Vec], float]) -> Method:
    """A number from the receiver and the vector argument (``distanceTo``, ``dot``)."""

    def method(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        v, w = _xyz(r), _xyz(arg(a, 0))
        if isinstance(v, Unknown):
            return v
        if isinstance(w, Unknown):
            return w
        return fn(v, w)

    return method


vector3_method("distanceTo")(_measure(math.dist))
vector3_method("dot")(_measure(lambda v, w: sum(p * q for p, q in zip(v, w, strict=True))))


def _lerp(v: tuple[float, ...], w: tuple[float, ...], t: float) -> Vec:
    return (v[0] + (w[0] - v[0]) * t, v[1] + (w[1] - v[1]) * t, v[2] + (w[2] - v[2]) * t)


@vector3_method("lerp")
def vector3_lerp(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    return _store(r, _combine(_lerp, _xyz(r), _xyz(arg(a, 0)), _scalar(arg(a, 1))))


@vector3_method("lerpVectors")
def vector3_lerp_vectors(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    return _store(r, _combine(_lerp, _xyz(arg(a, 0)), _xyz(arg(a, 1)), _scalar(arg(a, 2))))


# --- rotations and matrices -----------------------------------------------------------------------
@vector3_method("applyEuler")
def vector3_apply_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    euler = arg(a, 0)
    angles = ThreeRecords.numbers(euler, "xyz")
    if isinstance(angles, Unknown):
        return _store(r, angles)
    order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
    q = tm.quat_from_euler(
        angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
    )
    return _store(r, _combine(lambda v: tm.apply_quat(q, v), _xyz(r)))


@vector3_method("applyQuaternion")
def vector3_apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    q = ThreeRecords.numbers(arg(a, 0), "xyzw")
    if isinstance(q, Unknown):
        return _store(r, q)
    return _store(r, _combine(lambda v: tm.apply_quat((q[0], q[1], q[2], q[3]), v), _xyz(r)))


@vector3_method("applyAxisAngle")
def vector3_apply_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    axis, angle = _xyz(arg(a, 0)), _scalar(arg(a, 1))
    if isinstance(axis, Unknown) or isinstance(angle, Unknown):
        return _store(r, axis if isinstance(axis, Unknown) else angle)  # type: ignore[arg-type]
    q = tm.quat_from_axis_angle(axis, angle)
    return _store(r, _combine(lambda v: tm.apply_quat(q, v), _xyz(r)))


@vector3_method("applyMatrix4")
def vector3_apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    m = arg(a, 0)
    if not (isinstance(m, Record) and isinstance(m.native, np.ndarray)):
        return _store(r, Unknown("a matrix that cannot be known statically"))
    return _store(r, _combine(lambda v: tm.apply_matrix(m.native, v), _xyz(r)))


@vector3_method("setFromMatrixPosition")
def vector3_from_matrix_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    m = arg(a, 0)
    if isinstance(m, Record) and isinstance(m.native, np.ndarray):
        return _store(r, (float(m.native[0, 3]), float(m.native[1, 3]), float(m.native[2, 3])))
    return _store(r, Unknown("a matrix that cannot be known statically"))


@vector3_method("setFromSphericalCoords")
def vector3_from_spherical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    radius, phi, theta = _scalar(arg(a, 0)), _scalar(arg(a, 1)), _scalar(arg(a, 2))
    return _store(
        r,
        _combine(
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


@vector3_method("setFromCylindricalCoords")
def vector3_from_cylindrical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    radius, theta, y = _scalar(arg(a, 0)), _scalar(arg(a, 1)), _scalar(arg(a, 2))
    return _store(
        r,
        _combine(lambda rr, t, yy: (rr * math.sin(t), yy, rr * math.cos(t)), radius, theta, y),
    )


@vector3_method("equals")
def vector3_equals(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    other = arg(a, 0)
    return isinstance(other, Record) and all(r.fields.get(c) == other.fields.get(c) for c in "xyz")


# --- Vector2 ------------------------------------------------------------------------------------
def vector2_set(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    """``Vector2.set``, the one member of ``Vector2`` scene code uses."""
    record.fields.update({"x": arg(args, 0), "y": arg(args, 1)})
    return record


__all__ = ["VECTOR3_METHODS", "vector2_set", "vector3_method"]
