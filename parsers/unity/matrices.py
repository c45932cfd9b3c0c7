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
"""

from __future__ import annotations

from collections.abc import Callable

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


def register(
    engine: Engine,
    components: Callable[..., tuple[float, float, float] | None],
    rotation_of: Callable[[Value], Matrix | None],
    vec: Callable[[Matrix], Record],
    quaternion_from_matrix: Callable[[Matrix], Record],
) -> EngineClass:
    """Add the ``Matrix4x4`` kind to ``engine``; its class (constructors and statics). The
    vector and rotation readers are the struct module's (``parsers.unity.structs``)."""

    def own(ctx: CallContext, record: Record) -> Matrix | None:
        m = matrix_of(record)
        if m is None:
            ctx.warning("eval.unknown_value", "a Matrix4x4 that cannot be known statically")
        return m

    def method(
        fn: Callable[[CallContext, Matrix, Args], Value],
    ) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        def call(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            m = own(ctx, record)
            return Unknown("a method of an unknown Matrix4x4") if m is None else fn(ctx, m, args)

        return call

    def point(divide: bool) -> Callable[[CallContext, Matrix, Args], Value]:
        def apply(ctx: CallContext, m: Matrix, args: Args) -> Value:
            p = components(ctx, arg(args, 0), "MultiplyPoint point")
            if p is None:
                return Unknown("MultiplyPoint of an unknown point")
            result = m @ np.array([*p, 1.0])
            if divide and abs(result[3]) > 1e-12:
                result = result / result[3]
            return vec(result[:3])

        return apply

    def multiply_vector(ctx: CallContext, m: Matrix, args: Args) -> Value:
        v = components(ctx, arg(args, 0), "MultiplyVector vector")
        return Unknown("MultiplyVector of an unknown vector") if v is None else vec(m[:3, :3] @ v)

    def index(ctx: CallContext, args: Args) -> int | None:
        i = arg(args, 0)
        return int(i) if is_number(i) and 0 <= int(i) <= 3 else None

    def column(ctx: CallContext, m: Matrix, args: Args) -> Value:
        i = index(ctx, args)
        return Unknown("GetColumn of an unknown index") if i is None else _vector4(m[:, i])

    def row(ctx: CallContext, m: Matrix, args: Args) -> Value:
        i = index(ctx, args)
        return Unknown("GetRow of an unknown index") if i is None else _vector4(m[i, :])

    def rotation(ctx: CallContext, record: Record) -> Value:
        m = own(ctx, record)
        if m is None:
            return Unknown("the rotation of an unknown Matrix4x4")
        linear = m[:3, :3]
        scale = np.linalg.norm(linear, axis=0)
        if np.any(scale < 1e-12):
            return Unknown("the rotation of a degenerate Matrix4x4")
        return quaternion_from_matrix(linear / scale)

    def getter(fn: Callable[[Matrix], Value]) -> Callable[[CallContext, Record], Value]:
        def read(ctx: CallContext, record: Record) -> Value:
            m = own(ctx, record)
            return Unknown("a property of an unknown Matrix4x4") if m is None else fn(m)

        return read

    def inverse(m: Matrix) -> Value:
        if abs(np.linalg.det(m)) < 1e-12:
            return matrix4x4(np.zeros((4, 4)))  # Unity returns the zero matrix
        return matrix4x4(np.linalg.inv(m))

    engine.add_kind(
        Kind(
            KIND,
            methods={
                "MultiplyPoint": method(point(True)),
                "MultiplyPoint3x4": method(point(False)),
                "MultiplyVector": method(multiply_vector),
                "GetColumn": method(column),
                "GetRow": method(row),
                "GetPosition": method(lambda ctx, m, args: vec(m[:3, 3])),
            },
            getters={
                "inverse": getter(inverse),
                "transpose": getter(lambda m: matrix4x4(m.T)),
                "rotation": rotation,
                "lossyScale": getter(lambda m: vec(np.linalg.norm(m[:3, :3], axis=0))),
                "isIdentity": getter(lambda m: bool(np.array_equal(m, np.eye(4)))),
            },
            value_type=True,
        )
    )

    def trs(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        t = components(ctx, arg(args, 0), "TRS position")
        r = rotation_of(arg(args, 1))
        s = components(ctx, arg(args, 2), "TRS scale")
        if t is None or r is None or s is None:
            return Unknown("Matrix4x4.TRS of a value that cannot be known statically")
        m = np.eye(4)
        m[:3, :3] = r @ np.diag(s)
        m[:3, 3] = t
        return matrix4x4(m)

    def translate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        t = components(ctx, arg(args, 0), "Translate vector")
        if t is None:
            return Unknown("Matrix4x4.Translate of an unknown vector")
        m = np.eye(4)
        m[:3, 3] = t
        return matrix4x4(m)

    def rotate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        r = rotation_of(arg(args, 0))
        if r is None:
            return Unknown("Matrix4x4.Rotate of an unknown rotation")
        m = np.eye(4)
        m[:3, :3] = r
        return matrix4x4(m)

    def scale(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        s = components(ctx, arg(args, 0), "Scale vector")
        if s is None:
            return Unknown("Matrix4x4.Scale of an unknown vector")
        return matrix4x4(np.diag([*s, 1.0]))

    def inverse_of(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        m = matrix_of(arg(args, 0))
        return Unknown("Matrix4x4.Inverse of an unknown matrix") if m is None else inverse(m)

    def construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        if not args:
            return matrix4x4(np.zeros((4, 4)))
        columns = [arg(args, i) for i in range(4)]
        values = [
            [float(c.fields.get(n, 0.0)) for n in "xyzw"] for c in columns if isinstance(c, Record)
        ]
        if len(values) != 4 or not all(all(is_number(v) for v in col) for col in values):
            return Unknown("a Matrix4x4 of columns that cannot be known statically")
        return matrix4x4(np.array(values, dtype=float).T)

    return EngineClass(
        KIND,
        construct,
        {
            "identity": matrix4x4(np.eye(4)),
            "zero": matrix4x4(np.zeros((4, 4))),
            "TRS": Builtin("Matrix4x4.TRS", trs),
            "Translate": Builtin("Matrix4x4.Translate", translate),
            "Rotate": Builtin("Matrix4x4.Rotate", rotate),
            "Scale": Builtin("Matrix4x4.Scale", scale),
            "Inverse": Builtin("Matrix4x4.Inverse", inverse_of),
        },
    )


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
