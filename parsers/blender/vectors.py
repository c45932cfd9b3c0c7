"""``mathutils`` for the static evaluator: Vector, Euler, Quaternion, Matrix and Color records,
and the sequence-like arrays bpy hands out (``obj.scale``, ``mat.diffuse_color``).

Vector-like records keep their components as a list of floats in ``native``; they are live,
as in Blender: ``obj.location`` is the object's own vector, so ``obj.location.x = 1`` moves the
object. Matrices keep a numpy array. ``vector_binary`` gives mathutils' operators to the
Blender dialect.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from parsers.blender import rotations
from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Engine,
    EngineClass,
    Kind,
    Kwargs,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
)
from spatialbabel.frames import axis_angle_to_matrix, axis_rotation

#: Kinds whose ``native`` is a list of float components.
SEQUENCE_KINDS = frozenset({"Vector", "Euler", "Quaternion", "Color", "Array"})
_COMPONENTS = {
    "Vector": "xyzw",
    "Euler": "xyz",
    "Quaternion": "wxyz",
    "Color": "rgb",
    "Array": "",
}


def new_sequence(kind: str, values: list[float], order: str | None = None) -> Record:
    record = Record(kind, native=[float(v) for v in values])
    if kind == "Euler":
        record.fields["order"] = order or "XYZ"
    return record


def vector(values: list[float]) -> Record:
    return new_sequence("Vector", values)


def new_matrix(values: Any) -> Record:
    return Record("Matrix", native=np.array(values, dtype=float))


def numbers(
    ctx: CallContext, value: Value, what: str, *, default: float = 0.0
) -> list[float] | None:
    """Components of a vector-like value (a mathutils record, a list or tuple of numbers),
    each unknown one reported and replaced by ``default``; None when it is not vector-like."""
    if isinstance(value, Record):
        if value.kind in SEQUENCE_KINDS:
            return list(value.native)
        if value.kind == "Matrix":
            return None
        if value.kind == "ndarray":
            flat = np.asarray(value.native, dtype=float).ravel()
            return [float(v) for v in flat]
        return None
    if isinstance(value, list | tuple):
        return [ctx.number(v, f"{what}[{i}]", default) for i, v in enumerate(value)]
    if isinstance(value, Unknown):
        ctx.warning(
            "eval.unknown_value",
            f"{what} cannot be known statically ({value.reason}); left unchanged",
        )
    return None


def fixed(
    ctx: CallContext, value: Value, what: str, size: int, fallback: list[float]
) -> list[float] | None:
    """``size`` components of a vector-like value (shorter values keep ``fallback``'s tail)."""
    found = numbers(ctx, value, what)
    if found is None:
        if not isinstance(value, Unknown) and value is not UNDEFINED:
            ctx.warning("blender.bad_value", f"{what} is not a sequence of numbers; left unchanged")
        return None
    result = list(fallback[:size])
    for i, component in enumerate(found[:size]):
        result[i] = component
    return result


def matrix_of(value: Value) -> np.ndarray[Any, Any] | None:
    """3x3 rotation (or 4x4 affine) a rotation-like record stands for."""
    if not isinstance(value, Record):
        return None
    if value.kind == "Matrix":
        return np.asarray(value.native, dtype=float)
    if value.kind == "Euler":
        return rotations.euler_matrix(value.native, str(value.fields.get("order", "XYZ")))
    if value.kind == "Quaternion":
        return rotations.quaternion_matrix(value.native)
    return None


def _component_getter(index: int) -> Callable[[CallContext, Record], Value]:
    def get(ctx: CallContext, record: Record) -> Value:
        values = record.native
        return values[index] if index < len(values) else Unknown("component out of range")

    return get


def _sequence_set(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    letters = _COMPONENTS.get(record.kind, "")
    if len(name) == 1 and name in letters:
        index = letters.index(name)
        if index < len(record.native):
            record.native[index] = ctx.number(value, f"{record.kind}.{name}", record.native[index])
            return True
    if record.kind == "Vector" and name in ("xyz", "xy"):
        values = fixed(ctx, value, f"Vector.{name}", len(name), record.native[: len(name)])
        if values is not None:
            record.native[: len(name)] = values
        return True
    if record.kind == "Vector" and name in ("length", "magnitude"):
        length = math.sqrt(sum(v * v for v in record.native))
        target = ctx.number(value, "Vector.length", length)
        if length > 0:
            record.native[:] = [v * target / length for v in record.native]
        return True
    return False


def _copy(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    if record.kind == "Matrix":
        return new_matrix(record.native)
    return new_sequence(record.kind, list(record.native), record.fields.get("order"))


def _norm(values: list[float]) -> list[float]:
    length = math.sqrt(sum(v * v for v in values))
    return [v / length for v in values] if length > 0 else list(values)


def _vector_method(
    fn: Callable[[CallContext, list[float], Args, Kwargs], Value],
) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
    def method(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        return fn(ctx, record.native, args, kwargs)

    return method


def _other(ctx: CallContext, value: Value, size: int) -> list[float] | None:
    found = numbers(ctx, value, "vector")
    return None if found is None or len(found) < size else found[:size]


def _dot(ctx: CallContext, own: list[float], args: Args, kwargs: Kwargs) -> Value:
    other = _other(ctx, arg(args, 0), len(own))
    return (
        Unknown("dot with an unknown vector")
        if other is None
        else sum(a * b for a, b in zip(own, other, strict=True))
    )


def _cross(ctx: CallContext, own: list[float], args: Args, kwargs: Kwargs) -> Value:
    other = _other(ctx, arg(args, 0), 3)
    if other is None or len(own) < 3:
        return Unknown("cross with an unknown vector")
    return vector([float(c) for c in np.cross(own[:3], other)])


def _lerp(ctx: CallContext, own: list[float], args: Args, kwargs: Kwargs) -> Value:
    other = _other(ctx, arg(args, 0), len(own))
    factor = ctx.number(arg(args, 1, kwargs, "factor"), "lerp factor", 0.0)
    if other is None:
        return Unknown("lerp with an unknown vector")
    return vector([a + (b - a) * factor for a, b in zip(own, other, strict=True)])


def _resized(size: int | None) -> Callable[[CallContext, list[float], Args, Kwargs], Value]:
    def resize(ctx: CallContext, own: list[float], args: Args, kwargs: Kwargs) -> Value:
        n = size if size is not None else int(ctx.number(arg(args, 0), "size", len(own)))
        values = (list(own) + [0.0] * n)[:n]
        if size == 4 and len(own) < 4:
            values[3] = 1.0
        return vector(values)

    return resize


def _rotate_in_place(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    rotation = matrix_of(arg(args, 0))
    if rotation is None:
        ctx.warning(
            "blender.unknown_rotation", "rotate() by a value that is not a known rotation; ignored"
        )
        return None
    if record.kind == "Vector" and len(record.native) == 3:
        record.native[:] = [float(c) for c in rotation[:3, :3] @ np.asarray(record.native)]
    elif record.kind == "Euler":
        combined = rotation[:3, :3] @ rotations.euler_matrix(
            record.native, str(record.fields.get("order", "XYZ"))
        )
        record.native[:] = list(
            rotations.matrix_to_blender_euler(combined, str(record.fields.get("order", "XYZ")))
        )
    elif record.kind == "Quaternion":
        combined = rotation[:3, :3] @ rotations.quaternion_matrix(record.native)
        record.native[:] = list(rotations.matrix_to_quaternion_wxyz(combined))
    return None


def _to_matrix(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    rotation = matrix_of(record)
    return new_matrix(rotation if rotation is not None else np.eye(3))


def _to_quaternion(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    rotation = matrix_of(record)
    if rotation is None:
        return Unknown("not a rotation")
    return new_sequence("Quaternion", list(rotations.matrix_to_quaternion_wxyz(rotation[:3, :3])))


def _to_euler(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    order = arg(args, 0, kwargs, "order")
    mode = order if isinstance(order, str) else "XYZ"
    rotation = matrix_of(record)
    if rotation is None:
        return Unknown("not a rotation")
    linear = rotation[:3, :3]
    if record.kind == "Matrix" and rotation.shape[0] >= 3:
        scale = np.linalg.norm(linear, axis=0)
        linear = linear / np.where(scale > 1e-12, scale, 1.0)
    return new_sequence("Euler", list(rotations.matrix_to_blender_euler(linear, mode)), mode)


def _euler_rotate_axis(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    axis = arg(args, 0)
    angle = ctx.number(arg(args, 1), "rotate_axis angle", 0.0)
    if axis not in ("X", "Y", "Z"):
        ctx.warning("blender.unknown_rotation", "rotate_axis needs 'X', 'Y' or 'Z'; ignored")
        return None
    order = str(record.fields.get("order", "XYZ"))
    combined = rotations.euler_matrix(record.native, order) @ axis_rotation(str(axis), angle)
    record.native[:] = list(rotations.matrix_to_blender_euler(combined, order))
    return None


def _quaternion_inverted(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    w, x, y, z = record.native
    norm = w * w + x * x + y * y + z * z
    if norm == 0:
        return Unknown("inverse of a zero quaternion")
    return new_sequence("Quaternion", [w / norm, -x / norm, -y / norm, -z / norm])


def _quaternion_axis_angle(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    w, x, y, z = _norm(list(record.native))
    angle = 2 * math.acos(max(-1.0, min(1.0, w)))
    s = math.sqrt(max(0.0, 1 - w * w))
    axis = [x / s, y / s, z / s] if s > 1e-12 else [1.0, 0.0, 0.0]
    return (vector(axis), angle)


def _matrix_inverted(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    try:
        return new_matrix(np.linalg.inv(np.asarray(record.native, dtype=float)))
    except np.linalg.LinAlgError:
        fallback = arg(args, 0)
        return fallback if fallback is not UNDEFINED else Unknown("inverse of a singular matrix")


def _matrix_translation(ctx: CallContext, record: Record) -> Value:
    m = np.asarray(record.native, dtype=float)
    return vector([float(c) for c in m[:3, 3]]) if m.shape == (4, 4) else vector([0.0, 0.0, 0.0])


def _matrix_set(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    if name == "translation":
        values = fixed(ctx, value, "Matrix.translation", 3, [0.0, 0.0, 0.0])
        if values is not None and np.asarray(record.native).shape == (4, 4):
            record.native[:3, 3] = values
        return True
    return False


def _matrix_decompose(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    m = np.asarray(record.native, dtype=float)
    if m.shape != (4, 4):
        return Unknown("decompose of a matrix that is not 4x4")
    location, rotation, scale = rotations.decompose_trs(m)
    return (
        vector(location),
        new_sequence("Quaternion", list(rotations.matrix_to_quaternion_wxyz(rotation))),
        vector(scale),
    )


def _matrix_to_scale(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    m = np.asarray(record.native, dtype=float)
    return vector([float(s) for s in np.linalg.norm(m[:3, :3], axis=0)])


def _matrix_resize(size: int) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
    def resize(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        m = np.asarray(record.native, dtype=float)
        result = np.eye(size)
        n = min(size, m.shape[0])
        result[:n, :n] = m[:n, :n]
        return new_matrix(result)

    return resize


def register(engine: Engine) -> None:
    """Add the mathutils kinds to ``engine``."""
    for kind in _mathutils_kinds():
        engine.add_kind(kind)


@cache
def _mathutils_kinds() -> tuple[Kind, ...]:
    """The mathutils kinds, built once: they hold nothing of a run, and an engine
    table is made per parse."""
    table = Engine()
    vector_getters: dict[str, Callable[[CallContext, Record], Value]] = {
        letter: _component_getter(i) for i, letter in enumerate("xyzw")
    }
    vector_getters.update(
        {
            "length": lambda ctx, r: math.sqrt(sum(v * v for v in r.native)),
            "magnitude": lambda ctx, r: math.sqrt(sum(v * v for v in r.native)),
            "length_squared": lambda ctx, r: sum(v * v for v in r.native),
            "xy": lambda ctx, r: vector(r.native[:2]),
            "xyz": lambda ctx, r: vector(r.native[:3]),
            "is_frozen": lambda ctx, r: False,
        }
    )
    sequence_methods = {
        "copy": _copy,
        "freeze": lambda ctx, r, a, k: r,
        "to_tuple": lambda ctx, r, a, k: tuple(r.native),
        "to_list": lambda ctx, r, a, k: list(r.native),
    }
    table.add_kind(
        Kind(
            "Vector",
            methods={
                **sequence_methods,
                "normalized": _vector_method(lambda ctx, v, a, k: vector(_norm(v))),
                "normalize": lambda ctx, r, a, k: r.native.__setitem__(
                    slice(None), _norm(r.native)
                ),
                "negate": lambda ctx, r, a, k: r.native.__setitem__(
                    slice(None), [-v for v in r.native]
                ),
                "zero": lambda ctx, r, a, k: r.native.__setitem__(
                    slice(None), [0.0] * len(r.native)
                ),
                "dot": _vector_method(_dot),
                "cross": _vector_method(_cross),
                "lerp": _vector_method(_lerp),
                "to_2d": _vector_method(_resized(2)),
                "to_3d": _vector_method(_resized(3)),
                "to_4d": _vector_method(_resized(4)),
                "resized": _vector_method(_resized(None)),
                "rotate": _rotate_in_place,
                "to_track_quat": lambda ctx, r, a, k: Unknown(
                    "to_track_quat (a camera aim) is not modelled"
                ),
            },
            getters=vector_getters,
            on_set=_sequence_set,
        )
    )
    table.add_kind(
        Kind(
            "Euler",
            methods={
                **sequence_methods,
                "to_matrix": _to_matrix,
                "to_quaternion": _to_quaternion,
                "rotate_axis": _euler_rotate_axis,
                "rotate": _rotate_in_place,
                "make_compatible": lambda ctx, r, a, k: None,
                "zero": lambda ctx, r, a, k: r.native.__setitem__(slice(None), [0.0, 0.0, 0.0]),
            },
            getters={letter: _component_getter(i) for i, letter in enumerate("xyz")},
            on_set=_sequence_set,
        )
    )
    table.add_kind(
        Kind(
            "Quaternion",
            methods={
                **sequence_methods,
                "to_matrix": _to_matrix,
                "to_euler": _to_euler,
                "inverted": _quaternion_inverted,
                "conjugated": lambda ctx, r, a, k: new_sequence(
                    "Quaternion", [r.native[0], -r.native[1], -r.native[2], -r.native[3]]
                ),
                "normalized": lambda ctx, r, a, k: new_sequence(
                    "Quaternion", _norm(list(r.native))
                ),
                "normalize": lambda ctx, r, a, k: r.native.__setitem__(
                    slice(None), _norm(list(r.native))
                ),
                "to_axis_angle": _quaternion_axis_angle,
                "rotate": _rotate_in_place,
            },
            getters={
                **{letter: _component_getter(i) for i, letter in enumerate("wxyz")},
                "angle": lambda ctx, r: (
                    2 * math.acos(max(-1.0, min(1.0, _norm(list(r.native))[0])))
                ),
            },
            on_set=_sequence_set,
        )
    )
    table.add_kind(
        Kind(
            "Color",
            methods=dict(sequence_methods),
            getters={c: _component_getter(i) for i, c in enumerate("rgb")},
            on_set=_sequence_set,
        )
    )
    table.add_kind(Kind("Array", methods=dict(sequence_methods), on_set=_sequence_set))
    table.add_kind(
        Kind(
            "Matrix",
            methods={
                "copy": _copy,
                "inverted": _matrix_inverted,
                "inverted_safe": _matrix_inverted,
                "transposed": lambda ctx, r, a, k: new_matrix(np.asarray(r.native).T),
                "to_euler": _to_euler,
                "to_quaternion": _to_quaternion,
                "to_translation": lambda ctx, r, a, k: _matrix_translation(ctx, r),
                "to_scale": _matrix_to_scale,
                "to_3x3": _matrix_resize(3),
                "to_4x4": _matrix_resize(4),
                "decompose": _matrix_decompose,
                "freeze": lambda ctx, r, a, k: r,
            },
            getters={
                "translation": _matrix_translation,
                "is_identity": lambda ctx, r: bool(np.allclose(r.native, np.eye(len(r.native)))),
            },
            on_set=_matrix_set,
        )
    )
    return tuple(table.kinds.values())


# --- constructors (the mathutils module) -----------------------------------------------------------


def _vector_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    source = arg(args, 0, kwargs, "seq")
    if source is UNDEFINED:
        return vector([0.0, 0.0, 0.0])
    values = numbers(ctx, source, "Vector")
    return vector(values if values else [0.0, 0.0, 0.0])


def _euler_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    angles = arg(args, 0, kwargs, "angles")
    order = arg(args, 1, kwargs, "order")
    values = (
        fixed(ctx, angles, "Euler angles", 3, [0.0, 0.0, 0.0])
        if angles is not UNDEFINED
        else [0.0, 0.0, 0.0]
    )
    return new_sequence(
        "Euler", values or [0.0, 0.0, 0.0], order if isinstance(order, str) else "XYZ"
    )


def _quaternion_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    first = arg(args, 0, kwargs, "seq")
    angle = arg(args, 1, kwargs, "angle")
    if first is UNDEFINED:
        return new_sequence("Quaternion", [1.0, 0.0, 0.0, 0.0])
    if angle is not UNDEFINED:
        axis = fixed(ctx, first, "Quaternion axis", 3, [0.0, 0.0, 1.0]) or [0.0, 0.0, 1.0]
        theta = ctx.number(angle, "Quaternion angle", 0.0)
        unit = _norm(axis)
        s = math.sin(theta / 2)
        return new_sequence(
            "Quaternion", [math.cos(theta / 2), unit[0] * s, unit[1] * s, unit[2] * s]
        )
    values = fixed(ctx, first, "Quaternion", 4, [1.0, 0.0, 0.0, 0.0])
    return new_sequence("Quaternion", values or [1.0, 0.0, 0.0, 0.0])


def _color_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = fixed(ctx, arg(args, 0), "Color", 3, [0.0, 0.0, 0.0]) if args else [0.0, 0.0, 0.0]
    return new_sequence("Color", values or [0.0, 0.0, 0.0])


def _matrix_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    rows = arg(args, 0)
    if rows is UNDEFINED:
        return new_matrix(np.eye(4))
    parsed = []
    items = rows if isinstance(rows, list | tuple) else []
    for row in items:
        values = numbers(ctx, row, "Matrix row")
        if values is None:
            return new_matrix(np.eye(4))
        parsed.append(values)
    if not parsed or any(len(r) != len(parsed) for r in parsed):
        ctx.warning(
            "blender.bad_value", "Matrix rows are not a square of numbers; the identity used"
        )
        return new_matrix(np.eye(4))
    return new_matrix(parsed)


def _axis_vector(ctx: CallContext, axis: Value) -> list[float] | None:
    if isinstance(axis, str) and axis.upper() in ("X", "Y", "Z"):
        return [1.0 if axis.upper() == letter else 0.0 for letter in "XYZ"]
    return fixed(ctx, axis, "axis", 3, [0.0, 0.0, 1.0])


def _matrix_rotation(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    angle = ctx.number(arg(args, 0, kwargs, "angle"), "Matrix.Rotation angle", 0.0)
    size = int(ctx.number(arg(args, 1, kwargs, "size"), "Matrix.Rotation size", 4))
    axis = _axis_vector(ctx, arg(args, 2, kwargs, "axis")) or [0.0, 0.0, 1.0]
    result = np.eye(max(2, min(size, 4)))
    if any(axis):
        rotation = axis_angle_to_matrix((axis[0], axis[1], axis[2]), angle)
        n = min(3, result.shape[0])
        result[:n, :n] = rotation[:n, :n]
    return new_matrix(result)


def _matrix_translation_new(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = fixed(
        ctx, arg(args, 0, kwargs, "vector"), "Matrix.Translation", 3, [0.0, 0.0, 0.0]
    ) or [0.0, 0.0, 0.0]
    result = np.eye(4)
    result[:3, 3] = values
    return new_matrix(result)


def _matrix_scale(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    factor = ctx.number(arg(args, 0, kwargs, "factor"), "Matrix.Scale factor", 1.0)
    size = int(ctx.number(arg(args, 1, kwargs, "size"), "Matrix.Scale size", 4))
    axis = arg(args, 2, kwargs, "axis")
    result = np.eye(max(2, min(size, 4)))
    n = min(3, result.shape[0])
    if axis is UNDEFINED:
        result[:n, :n] *= factor
    else:
        direction = np.asarray(_norm(_axis_vector(ctx, axis) or [0.0, 0.0, 1.0]))
        result[:n, :n] += (factor - 1) * np.outer(direction, direction)[:n, :n]
    return new_matrix(result)


def _matrix_diagonal(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = numbers(ctx, arg(args, 0), "Matrix.Diagonal") or [1.0, 1.0, 1.0]
    return new_matrix(np.diag(values))


def _matrix_loc_rot_scale(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    location = (
        fixed(ctx, arg(args, 0), "location", 3, [0.0, 0.0, 0.0])
        if arg(args, 0) is not None
        else None
    )
    rotation = matrix_of(arg(args, 1))
    scale = (
        fixed(ctx, arg(args, 2), "scale", 3, [1.0, 1.0, 1.0]) if arg(args, 2) is not None else None
    )
    return new_matrix(
        rotations.trs(
            location or [0.0, 0.0, 0.0],
            rotation[:3, :3] if rotation is not None else np.eye(3),
            scale or [1.0, 1.0, 1.0],
        )
    )


def mathutils_module() -> Namespace:
    matrix_statics: dict[str, Value] = {
        "Identity": Builtin(
            "Matrix.Identity",
            lambda ctx, a, k: new_matrix(np.eye(int(ctx.number(arg(a, 0), "size", 4)))),
        ),
        "Rotation": Builtin("Matrix.Rotation", _matrix_rotation),
        "Translation": Builtin("Matrix.Translation", _matrix_translation_new),
        "Scale": Builtin("Matrix.Scale", _matrix_scale),
        "Diagonal": Builtin("Matrix.Diagonal", _matrix_diagonal),
        "LocRotScale": Builtin("Matrix.LocRotScale", _matrix_loc_rot_scale),
    }
    return Namespace(
        "mathutils",
        {
            "Vector": EngineClass("Vector", _vector_new),
            "Euler": EngineClass("Euler", _euler_new),
            "Quaternion": EngineClass("Quaternion", _quaternion_new),
            "Color": EngineClass("Color", _color_new),
            "Matrix": EngineClass("Matrix", _matrix_new, matrix_statics),
        },
    )


# --- operators -----------------------------------------------------------------------------------


def _elementwise(op: str, a: list[float], b: list[float]) -> list[float] | None:
    if len(a) != len(b):
        return None
    if op == "+":
        return [x + y for x, y in zip(a, b, strict=True)]
    if op == "-":
        return [x - y for x, y in zip(a, b, strict=True)]
    if op == "*":
        return [x * y for x, y in zip(a, b, strict=True)]
    return None


def vector_binary(op: str, left: Value, right: Value) -> Value:
    """mathutils' operators on records; ``NotImplemented`` when neither side is one of them."""
    left_kind = left.kind if isinstance(left, Record) else None
    right_kind = right.kind if isinstance(right, Record) else None
    if left_kind == "Matrix" or right_kind == "Matrix":
        return _matrix_binary(op, left, right)
    if left_kind == "Quaternion" and op == "@":
        if right_kind == "Quaternion":
            product = rotations.quaternion_matrix(left.native) @ rotations.quaternion_matrix(
                right.native
            )
            return new_sequence("Quaternion", list(rotations.matrix_to_quaternion_wxyz(product)))
        if right_kind == "Vector" and len(right.native) == 3:
            return vector(
                [
                    float(c)
                    for c in rotations.quaternion_matrix(left.native) @ np.asarray(right.native)
                ]
            )
    sequence_left = left_kind in SEQUENCE_KINDS
    sequence_right = right_kind in SEQUENCE_KINDS
    if not sequence_left and not sequence_right:
        return NotImplemented
    kind = left_kind if sequence_left else right_kind
    a = list(left.native) if sequence_left else left
    b = list(right.native) if sequence_right else right
    if isinstance(a, tuple):
        a = list(a)
    if isinstance(b, tuple):
        b = list(b)
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return a if isinstance(a, Unknown) else b
    if op == "@" and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return sum(x * y for x, y in zip(a, b, strict=True))
    if isinstance(a, list) and isinstance(b, list) and all(is_number(v) for v in a + b):
        result = _elementwise(op, [float(v) for v in a], [float(v) for v in b])
        return (
            Unknown(f"{op} of vectors of different sizes")
            if result is None
            else new_sequence(
                str(kind), result, left.fields.get("order") if sequence_left else None
            )
        )
    if isinstance(a, list) and is_number(b) and op in ("*", "/"):
        if op == "/" and b == 0:
            return Unknown("division by zero")
        return new_sequence(str(kind), [v * b if op == "*" else v / b for v in a])
    if is_number(a) and isinstance(b, list) and op == "*":
        return new_sequence(str(kind), [a * v for v in b])
    return Unknown(f"{op} on a {kind} is not modelled")


def _matrix_binary(op: str, left: Value, right: Value) -> Value:
    if op != "@" and not (op == "*" and (is_number(left) or is_number(right))):
        return Unknown(f"{op} on a Matrix is not modelled")
    if is_number(left) or is_number(right):
        matrix = right if is_number(left) else left
        factor = left if is_number(left) else right
        return new_matrix(np.asarray(matrix.native, dtype=float) * float(factor))
    a = matrix_of(left) if isinstance(left, Record) and left.kind != "Vector" else None
    if a is None:
        return Unknown("@ of a value that is not a matrix")
    if isinstance(right, Record) and right.kind == "Vector":
        v = np.asarray(right.native, dtype=float)
        if a.shape[0] == 4 and len(v) == 3:
            return vector([float(c) for c in (a @ np.append(v, 1.0))[:3]])
        if a.shape[0] == len(v):
            return vector([float(c) for c in a @ v])
        return Unknown("matrix and vector sizes differ")
    b = matrix_of(right)
    if b is None:
        return Unknown("@ of a value that is not a matrix")
    if a.shape != b.shape:
        size = max(a.shape[0], b.shape[0])
        a, b = _grow(a, size), _grow(b, size)
    return new_matrix(a @ b)


def _grow(m: np.ndarray[Any, Any], size: int) -> np.ndarray[Any, Any]:
    result = np.eye(size)
    n = m.shape[0]
    result[:n, :n] = m
    return result


def vector_unary(op: str, operand: Value) -> Value:
    if isinstance(operand, Record) and operand.kind in SEQUENCE_KINDS:
        if op == "-":
            return new_sequence(
                operand.kind, [-v for v in operand.native], operand.fields.get("order")
            )
        if op == "+":
            return new_sequence(operand.kind, list(operand.native), operand.fields.get("order"))
    return NotImplemented
