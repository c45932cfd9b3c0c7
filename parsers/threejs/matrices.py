"""three's ``Matrix4`` for the static evaluator: ``new THREE.Matrix4()`` and its methods
(``set``, ``makeRotation*``, ``compose``, ``multiply``, ``invert``...), on numpy arrays.

Each method is a module-level function registered by name (``@matrix4_method("invert")``) in
``MATRIX4_METHODS``. The ``make*`` methods, which overwrite the matrix with one built from
their arguments, are registered through ``_makes``: a builder gives the matrix, or None when an
argument cannot be known (then the matrix is unknown, NaN). A method reaches the engine
running it through ``engine_of`` (the tables are made once, not per parse).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from parsers.evaluator import Args, CallContext, Kwargs, Record, Unknown, Value, arg
from parsers.evaluator.core.registry import registering
from parsers.threejs import three_math as tm
from parsers.threejs.records import Method, ThreeRecords, engine_of
from spatialbabel.frames import Matrix

#: The methods of ``Matrix4`` records by name, registered by ``@matrix4_method``.
MATRIX4_METHODS: Final[dict[str, Method]] = {}

#: ``@matrix4_method("invert")``: the decorated function is that method of ``Matrix4``.
matrix4_method = registering(MATRIX4_METHODS)

#: A ``make*`` method's matrix from its arguments, or None when one cannot be known.
Builder = Callable[[CallContext, Args], Matrix | None]


def _unknown_matrix() -> Matrix:
    return np.full((4, 4), np.nan)


def new_matrix(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    """``new THREE.Matrix4()``, or with the 16 elements ``set`` takes."""
    record = ThreeRecords.matrix4()
    if len(args) == 16:
        matrix4_set(ctx, record, args, kwargs)
    return record


@matrix4_method("set")
def matrix4_set(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    values = [
        ctx.number(v, "a matrix element", 0.0, code="threejs.unknown_value") for v in args[:16]
    ]
    if len(values) == 16:
        record.native = np.array(values, dtype=float).reshape(4, 4)
    return record


# --- make*: the matrix built from the arguments ---------------------------------------------------
def _makes(*names: str) -> Callable[[Builder], Builder]:
    """``@_makes("makeScale")``: the decorated builder is that method, overwriting the matrix."""

    def register(builder: Builder) -> Builder:
        def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = builder(ctx, a)
            r.native = _unknown_matrix() if m is None else m
            return r

        for name in names:
            MATRIX4_METHODS[name] = fn
        return builder

    return register


def _rotation(axis: str) -> Builder:
    def build(ctx: CallContext, a: Args) -> Matrix | None:
        angle = ctx.optional_number(arg(a, 0), "the rotation angle", code="threejs.unknown_value")
        if angle is None:
            return None
        vector = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]
        return tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(vector, angle))

    return build


_makes("makeRotationX")(_rotation("X"))
_makes("makeRotationY")(_rotation("Y"))
_makes("makeRotationZ")(_rotation("Z"))


@_makes("makeRotationAxis")
def make_rotation_axis(ctx: CallContext, a: Args) -> Matrix | None:
    axis = engine_of(ctx).vec(ctx, arg(a, 0), "the rotation axis")
    angle = ctx.optional_number(arg(a, 1), "the rotation angle", code="threejs.unknown_value")
    return (
        None
        if axis is None or angle is None
        else tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(axis, angle))
    )


def _three_numbers(ctx: CallContext, a: Args, default: float) -> tuple[float, float, float] | None:
    """A vector argument, or three numbers (each ``default`` when missing)."""
    first = arg(a, 0)
    if isinstance(first, Record):
        return engine_of(ctx).vec(ctx, first, "the vector")
    return (
        ctx.number(first, "x", default),
        ctx.number(arg(a, 1), "y", default),
        ctx.number(arg(a, 2), "z", default),
    )


@_makes("makeTranslation")
def make_translation(ctx: CallContext, a: Args) -> Matrix | None:
    v = _three_numbers(ctx, a, 0.0)
    if v is None:
        return None
    m = np.eye(4)
    m[:3, 3] = v
    return m


@_makes("makeScale")
def make_scale(ctx: CallContext, a: Args) -> Matrix | None:
    v = _three_numbers(ctx, a, 1.0)
    return None if v is None else np.diag([v[0], v[1], v[2], 1.0])


@_makes("makeRotationFromEuler")
def make_rotation_from_euler(ctx: CallContext, a: Args) -> Matrix | None:
    euler = arg(a, 0)
    angles = ThreeRecords.numbers(euler, "xyz")
    if isinstance(angles, Unknown) or not isinstance(euler, Record):
        return None
    return tm.euler_matrix(angles[0], angles[1], angles[2], str(euler.fields.get("order", "XYZ")))


@_makes("makeRotationFromQuaternion")
def make_rotation_from_quaternion(ctx: CallContext, a: Args) -> Matrix | None:
    q = engine_of(ctx).quat_of(ctx, arg(a, 0), "the quaternion")
    return None if q is None else tm.rotation_matrix_from_quat(q)


@_makes("compose")
def make_composed(ctx: CallContext, a: Args) -> Matrix | None:
    engine = engine_of(ctx)
    p = engine.vec(ctx, arg(a, 0), "the position")
    q = engine.quat_of(ctx, arg(a, 1), "the quaternion")
    s = engine.vec(ctx, arg(a, 2), "the scale")
    return None if p is None or q is None or s is None else tm.compose(p, q, s)


@_makes("lookAt")
def make_look_at(ctx: CallContext, a: Args) -> Matrix | None:
    engine = engine_of(ctx)
    eye = engine.vec(ctx, arg(a, 0), "the eye")
    target = engine.vec(ctx, arg(a, 1), "the target")
    up = engine.vec(ctx, arg(a, 2), "the up vector")
    return (
        None if eye is None or target is None or up is None else tm.look_at_matrix(eye, target, up)
    )


@_makes("extractRotation")
def make_extracted_rotation(ctx: CallContext, a: Args) -> Matrix | None:
    m = engine_of(ctx).matrix_of(ctx, arg(a, 0), "the matrix")
    return None if m is None else tm.extract_rotation(m)


@_makes("identity")
def make_identity(ctx: CallContext, a: Args) -> Matrix | None:
    return np.eye(4)


# --- products and the rest ------------------------------------------------------------------------
def _product(order: str) -> Method:
    def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        other = arg(a, 0)
        mine = r.native if isinstance(r.native, np.ndarray) else _unknown_matrix()
        theirs = (
            other.native
            if isinstance(other, Record) and isinstance(other.native, np.ndarray)
            else _unknown_matrix()
        )
        r.native = mine @ theirs if order == "post" else theirs @ mine
        return r

    return fn


matrix4_method("multiply")(_product("post"))
matrix4_method("premultiply")(_product("pre"))


@matrix4_method("multiplyMatrices")
def matrix4_multiply_matrices(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    p, q = arg(a, 0), arg(a, 1)
    if (
        isinstance(p, Record)
        and isinstance(q, Record)
        and isinstance(p.native, np.ndarray)
        and isinstance(q.native, np.ndarray)
    ):
        r.native = p.native @ q.native
    else:
        r.native = _unknown_matrix()
    return r


@matrix4_method("decompose")
def matrix4_decompose(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = engine_of(ctx)
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


@matrix4_method("invert")
def matrix4_invert(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    m = r.native if isinstance(r.native, np.ndarray) else _unknown_matrix()
    try:
        r.native = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        r.native = np.zeros((4, 4))
    return r


@matrix4_method("setPosition")
def matrix4_set_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    v = _three_numbers(ctx, a, 0.0)
    if isinstance(r.native, np.ndarray):
        r.native = np.array(r.native)
        r.native[:3, 3] = np.nan if v is None else v
    return r


@matrix4_method("copy")
def matrix4_copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    other = arg(a, 0)
    r.native = (
        np.array(other.native)
        if isinstance(other, Record) and isinstance(other.native, np.ndarray)
        else _unknown_matrix()
    )
    return r


@matrix4_method("clone")
def matrix4_clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    return ThreeRecords.matrix4(r.native if isinstance(r.native, np.ndarray) else None)


@matrix4_method("determinant")
def matrix4_determinant(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    if isinstance(r.native, np.ndarray):
        return float(np.linalg.det(r.native))
    return Unknown("a matrix that cannot be known")


__all__ = ["MATRIX4_METHODS", "matrix4_method", "new_matrix"]
