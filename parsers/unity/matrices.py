"""Unity's ``Matrix4x4`` for the static evaluator: a struct of sixteen floats ``m00``..``m33``
(row, column), as the scripting reference has it.

``Matrix4x4.TRS(t, r, s)`` is translation, then rotation, then scale applied to a point (T R S);
``identity``, ``zero``, ``Translate``, ``Rotate``, ``Scale``, ``Inverse``; a matrix's
``MultiplyPoint`` (with the perspective divide), ``MultiplyPoint3x4``, ``MultiplyVector``,
``GetColumn``/``GetRow`` (``Vector4``), ``GetPosition``, ``inverse``, ``transpose``,
``rotation``, ``lossyScale``, ``isIdentity``; ``*`` of two matrices and of a matrix and a
``Vector4``. A ``Vector4`` becomes a ``Vector3`` wherever one is expected (its x, y, z), as
Unity's implicit conversion does. Found missing by the generated Unity programs (a placement
read from ``Matrix4x4.TRS(...).GetColumn(3)``).

Each member is a module-level function registered by name: the methods in
``MATRIX4X4_METHODS`` (through ``_on_matrix``, which hands them the receiver's matrix), the
properties in ``MATRIX4X4_GETTERS`` (through ``_reads``, or ``@matrix4x4_getter``), the
static functions in ``MATRIX4X4_STATICS`` (``@matrix4x4_static("TRS")``). ``register`` adds the
kind built from these tables to an engine and gives its class. Vectors and rotations are read
with ``parsers.unity.readers``, which ``structs`` shares (``structs`` registers this module, so
this one cannot import ``structs``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from parsers.evaluator import (
    Args,
    Builtin,
    CallContext,
    Engine,
    EngineClass,
    Kind,
    Kwargs,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
)
from parsers.evaluator.core.engine import GetterImpl, MethodImpl
from parsers.evaluator.core.registry import registering
from parsers.unity.readers import components, quaternion_from_matrix, rotation_of, vec
from spatialbabel.frames import Matrix

KIND = "Matrix4x4"
_CELLS = tuple(f"m{r}{c}" for r in range(4) for c in range(4))


def matrix4x4(m: Matrix) -> Record:
    return Record(KIND, {name: float(m.flat[i]) for i, name in enumerate(_CELLS)}, value_type=True)


def matrix_of(value: Value) -> Matrix | None:
    """The 4 x 4 array of a ``Matrix4x4`` record, or None when it is not one or not known."""
    if not isinstance(value, Record) or value.kind != KIND:
        return None
    cells = [value.fields.get(name) for name in _CELLS]
    if not all(is_number(c) for c in cells):
        return None
    return np.array(cells, dtype=float).reshape(4, 4)


def _vector4(values: Matrix) -> Record:
    return Record("Vector4", dict(zip("xyzw", map(float, values), strict=True)), value_type=True)


#: A method's work on the receiver's matrix, once it is known (``_on_matrix``).
OfMatrix = Callable[[CallContext, Matrix, Args], Value]
#: A static function of the class (``Matrix4x4.TRS``): called with no receiver.
Static = Callable[[CallContext, Args, Kwargs], Value]

#: The methods of ``Matrix4x4`` records by name, registered by ``_on_matrix``.
MATRIX4X4_METHODS: Final[dict[str, MethodImpl]] = {}

#: The properties of ``Matrix4x4`` records by name (``inverse``, ``rotation``...).
MATRIX4X4_GETTERS: Final[dict[str, GetterImpl]] = {}

#: ``@matrix4x4_getter("rotation")``: the decorated function is that property.
matrix4x4_getter = registering(MATRIX4X4_GETTERS)

#: The static functions of the ``Matrix4x4`` class by name (the constants are ``register``'s).
MATRIX4X4_STATICS: Final[dict[str, Static]] = {}

#: ``@matrix4x4_static("TRS")``: the decorated function is ``Matrix4x4.TRS``.
matrix4x4_static = registering(MATRIX4X4_STATICS)


# --- methods: of a known matrix, or Unknown -------------------------------------------------------
def _own(ctx: CallContext, record: Record) -> Matrix | None:
    m = matrix_of(record)
    if m is None:
        ctx.warning("eval.unknown_value", "a Matrix4x4 that cannot be known statically")
    return m


def _on_matrix(*names: str) -> Callable[[OfMatrix], OfMatrix]:
    """``@_on_matrix("GetRow")``: the decorated function, given the receiver's matrix, is that
    method; a receiver that cannot be known is reported here, the same for every method."""

    def register(fn: OfMatrix) -> OfMatrix:
        def call(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            m = _own(ctx, record)
            return Unknown("a method of an unknown Matrix4x4") if m is None else fn(ctx, m, args)

        for name in names:
            MATRIX4X4_METHODS[name] = call
        return fn

    return register


def _point(divide: bool) -> OfMatrix:
    def apply(ctx: CallContext, m: Matrix, args: Args) -> Value:
        p = components(ctx, arg(args, 0), "MultiplyPoint point")
        if p is None:
            return Unknown("MultiplyPoint of an unknown point")
        result = m @ np.array([*p, 1.0])
        if divide and abs(result[3]) > 1e-12:
            result = result / result[3]
        return vec(result[:3])

    return apply


_on_matrix("MultiplyPoint")(_point(True))
_on_matrix("MultiplyPoint3x4")(_point(False))


@_on_matrix("MultiplyVector")
def matrix4x4_multiply_vector(ctx: CallContext, m: Matrix, args: Args) -> Value:
    v = components(ctx, arg(args, 0), "MultiplyVector vector")
    return Unknown("MultiplyVector of an unknown vector") if v is None else vec(m[:3, :3] @ v)


def _index(args: Args) -> int | None:
    i = arg(args, 0)
    return int(i) if is_number(i) and 0 <= int(i) <= 3 else None


@_on_matrix("GetColumn")
def matrix4x4_get_column(ctx: CallContext, m: Matrix, args: Args) -> Value:
    i = _index(args)
    return Unknown("GetColumn of an unknown index") if i is None else _vector4(m[:, i])


@_on_matrix("GetRow")
def matrix4x4_get_row(ctx: CallContext, m: Matrix, args: Args) -> Value:
    i = _index(args)
    return Unknown("GetRow of an unknown index") if i is None else _vector4(m[i, :])


@_on_matrix("GetPosition")
def matrix4x4_get_position(ctx: CallContext, m: Matrix, args: Args) -> Value:
    return vec(m[:3, 3])


# --- getters -----------------------------------------------------------------------------------------
def _reads(*names: str) -> Callable[[Callable[[Matrix], Value]], Callable[[Matrix], Value]]:
    """``@_reads("transpose")``: the decorated function of the receiver's matrix is that
    property; a receiver that cannot be known is reported, and the property is unknown."""

    def register(fn: Callable[[Matrix], Value]) -> Callable[[Matrix], Value]:
        def read(ctx: CallContext, record: Record) -> Value:
            m = _own(ctx, record)
            return Unknown("a property of an unknown Matrix4x4") if m is None else fn(m)

        for name in names:
            MATRIX4X4_GETTERS[name] = read
        return fn

    return register


@_reads("inverse")
def matrix4x4_inverse(m: Matrix) -> Value:
    if abs(np.linalg.det(m)) < 1e-12:
        return matrix4x4(np.zeros((4, 4)))  # Unity returns the zero matrix
    return matrix4x4(np.linalg.inv(m))


@_reads("transpose")
def matrix4x4_transpose(m: Matrix) -> Value:
    return matrix4x4(m.T)


@matrix4x4_getter("rotation")
def matrix4x4_rotation(ctx: CallContext, record: Record) -> Value:
    # Its own messages: a degenerate matrix is known, only its rotation is not.
    m = _own(ctx, record)
    if m is None:
        return Unknown("the rotation of an unknown Matrix4x4")
    linear = m[:3, :3]
    scale = np.linalg.norm(linear, axis=0)
    if np.any(scale < 1e-12):
        return Unknown("the rotation of a degenerate Matrix4x4")
    return quaternion_from_matrix(linear / scale)


@_reads("lossyScale")
def matrix4x4_lossy_scale(m: Matrix) -> Value:
    return vec(np.linalg.norm(m[:3, :3], axis=0))


@_reads("isIdentity")
def matrix4x4_is_identity(m: Matrix) -> Value:
    return bool(np.array_equal(m, np.eye(4)))


# --- the class: its constructor and statics -----------------------------------------------------------
@matrix4x4_static("TRS")
def matrix4x4_trs(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    t = components(ctx, arg(args, 0), "TRS position")
    r = rotation_of(arg(args, 1))
    s = components(ctx, arg(args, 2), "TRS scale")
    if t is None or r is None or s is None:
        return Unknown("Matrix4x4.TRS of a value that cannot be known statically")
    m = np.eye(4)
    m[:3, :3] = r @ np.diag(s)
    m[:3, 3] = t
    return matrix4x4(m)


@matrix4x4_static("Translate")
def matrix4x4_translate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    t = components(ctx, arg(args, 0), "Translate vector")
    if t is None:
        return Unknown("Matrix4x4.Translate of an unknown vector")
    m = np.eye(4)
    m[:3, 3] = t
    return matrix4x4(m)


@matrix4x4_static("Rotate")
def matrix4x4_rotate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    r = rotation_of(arg(args, 0))
    if r is None:
        return Unknown("Matrix4x4.Rotate of an unknown rotation")
    m = np.eye(4)
    m[:3, :3] = r
    return matrix4x4(m)


@matrix4x4_static("Scale")
def matrix4x4_scale(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    s = components(ctx, arg(args, 0), "Scale vector")
    if s is None:
        return Unknown("Matrix4x4.Scale of an unknown vector")
    return matrix4x4(np.diag([*s, 1.0]))


@matrix4x4_static("Inverse")
def matrix4x4_inverse_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    m = matrix_of(arg(args, 0))
    return Unknown("Matrix4x4.Inverse of an unknown matrix") if m is None else matrix4x4_inverse(m)


def new_matrix4x4(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """``new Matrix4x4()`` (the zero matrix), or of four ``Vector4`` columns."""
    if not args:
        return matrix4x4(np.zeros((4, 4)))
    columns = [arg(args, i) for i in range(4)]
    values = [
        [float(c.fields.get(n, 0.0)) for n in "xyzw"] for c in columns if isinstance(c, Record)
    ]
    if len(values) != 4 or not all(all(is_number(v) for v in col) for col in values):
        return Unknown("a Matrix4x4 of columns that cannot be known statically")
    return matrix4x4(np.array(values, dtype=float).T)


def register(engine: Engine) -> EngineClass:
    """Add the ``Matrix4x4`` kind to ``engine``; its class (constructor and statics)."""
    engine.add_kind(
        Kind(KIND, methods=MATRIX4X4_METHODS, getters=MATRIX4X4_GETTERS, value_type=True)
    )
    # Records are mutable: the constants are made per engine, never shared between parses.
    statics: dict[str, Value] = {
        "identity": matrix4x4(np.eye(4)),
        "zero": matrix4x4(np.zeros((4, 4))),
    }
    statics.update({name: Builtin(f"{KIND}.{name}", fn) for name, fn in MATRIX4X4_STATICS.items()})
    return EngineClass(KIND, new_matrix4x4, statics)


def matrix_operators(op: str, left: Value, right: Value) -> Value:
    """``*`` of two matrices, and of a matrix and a ``Vector4``; ``NotImplemented`` otherwise."""
    a = matrix_of(left)
    if a is None or op != "*":
        return NotImplemented
    b = matrix_of(right)
    if b is not None:
        return matrix4x4(a @ b)
    if isinstance(right, Record) and right.kind == "Vector4":
        values = [right.fields.get(n, 0.0) for n in "xyzw"]
        if all(is_number(v) for v in values):
            return _vector4(a @ np.array(values, dtype=float))
    return Unknown("a Matrix4x4 product of a value that cannot be known statically")
