"""Unity's value types for the static evaluator: ``Vector3`` (and ``Vector2``), ``Quaternion``,
``Color`` and ``Color32``, with their constructors, constants, members and operators
(``Matrix4x4``: ``parsers.unity.matrices``).

They are C# structs (``value_type`` records, copied on assignment). Matrices are Unity's own,
in its left-handed frame: the rotation formulas are the usual ones, applied to left-handed
coordinates, so a positive turn about +Y takes +Z (forward) to +X (right).
``Quaternion.Euler(x, y, z)`` turns about Z, then X, then Y: R = Ry Rx Rz.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable
from typing import Any

import numpy as np

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
from parsers.evaluator.csharp.lib import set_out
from parsers.unity import matrices
from spatialbabel.colors import ENGINE_COLOR_CONSTANTS, color_from_text
from spatialbabel.frames import (
    Matrix,
    axis_angle_to_matrix,
    axis_rotation,
    matrix_to_euler,
    matrix_to_quaternion,
    quaternion_to_matrix,
)

VECTOR_CONSTANTS = {
    "zero": (0.0, 0.0, 0.0),
    "one": (1.0, 1.0, 1.0),
    "up": (0.0, 1.0, 0.0),
    "down": (0.0, -1.0, 0.0),
    "left": (-1.0, 0.0, 0.0),
    "right": (1.0, 0.0, 0.0),
    "forward": (0.0, 0.0, 1.0),
    "back": (0.0, 0.0, -1.0),
}


def vector3(x: float, y: float, z: float) -> Record:
    return Record("Vector3", {"x": float(x), "y": float(y), "z": float(z)}, value_type=True)


def vec(values: Any) -> Record:
    return vector3(float(values[0]), float(values[1]), float(values[2]))


def color(r: float, g: float, b: float, a: float = 1.0) -> Record:
    return Record(
        "Color", {"r": float(r), "g": float(g), "b": float(b), "a": float(a)}, value_type=True
    )


def quaternion_from_matrix(m: Matrix) -> Record:
    w, x, y, z = matrix_to_quaternion(m)
    return Record("Quaternion", {"x": x, "y": y, "z": z, "w": w}, value_type=True)


def euler_matrix(x: float, y: float, z: float) -> Matrix:
    """``Quaternion.Euler(x, y, z)`` (degrees) as a matrix: Z first, then X, then Y."""
    return (
        axis_rotation("Y", math.radians(y))
        @ axis_rotation("X", math.radians(x))
        @ axis_rotation("Z", math.radians(z))
    )


def euler_angles(m: Matrix) -> tuple[float, float, float]:
    """Unity's ``eulerAngles`` of a rotation: (x, y, z) degrees in [0, 360)."""
    x, y, z = matrix_to_euler(m, "YXZ")
    return (x % 360.0, y % 360.0, z % 360.0)


def components(
    ctx: CallContext, value: Value, what: str, fallback: tuple[float, ...] | None = None
) -> tuple[float, float, float] | None:
    """x, y, z of a Vector3 (or a Vector2, z 0); None (reported) when unknown."""
    if isinstance(value, Record) and value.kind in ("Vector3", "Vector2", "Vector4"):
        f = value.fields
        return (
            ctx.number(f.get("x", 0.0), f"{what}.x", 0.0),
            ctx.number(f.get("y", 0.0), f"{what}.y", 0.0),
            ctx.number(f.get("z", 0.0), f"{what}.z", 0.0),
        )
    if isinstance(value, Unknown):
        ctx.warning(
            "eval.unknown_value",
            f"{what} cannot be known statically ({value.reason}); left unchanged",
        )
        return None if fallback is None else (fallback[0], fallback[1], fallback[2])
    if value is not UNDEFINED:
        ctx.warning("unity.bad_value", f"{what} is not a Vector3; left unchanged")
    return None if fallback is None else (fallback[0], fallback[1], fallback[2])


def rotation_of(value: Value) -> Matrix | None:
    if isinstance(value, Record) and value.kind == "Quaternion":
        f = value.fields
        q = [f.get(c, 0.0) for c in ("w", "x", "y", "z")]
        if not all(is_number(c) for c in q) or not any(q):
            return None
        return quaternion_to_matrix((float(q[0]), float(q[1]), float(q[2]), float(q[3])))
    return None


def rgb_of(value: Value) -> tuple[float, float, float] | None:
    """sRGB of a ``Color`` or ``Color32`` record (Unity colours are sRGB), clamped to [0, 1]."""
    if not isinstance(value, Record) or value.kind not in ("Color", "Color32"):
        return None
    f = value.fields
    parts = [f.get(c) for c in ("r", "g", "b")]
    if not all(is_number(p) for p in parts):
        return None
    scale = 255.0 if value.kind == "Color32" else 1.0
    r, g, b = (min(max(float(p) / scale, 0.0), 1.0) for p in parts)  # type: ignore[arg-type]
    return (r, g, b)


# --- constructors and statics ----------------------------------------------------------------------


def _new_vector(kind: str, size: int) -> Callable[[CallContext, Args, Kwargs], Record]:
    def construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        names = "xyzw"[:size]
        fields = {
            n: ctx.number(arg(args, i, kwargs, n), f"{kind}.{n}", 0.0) for i, n in enumerate(names)
        }
        return Record(kind, fields, value_type=True)

    return construct


def _new_color(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = [
        ctx.number(arg(args, i, kwargs, n), f"Color.{n}", 1.0 if n == "a" else 0.0)
        for i, n in enumerate("rgba")
    ]
    if not args and not kwargs:
        values = [0.0, 0.0, 0.0, 0.0]
    return color(*values)


def _new_color32(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = [
        ctx.number(arg(args, i, kwargs, n), f"Color32.{n}", 255.0 if n == "a" else 0.0)
        for i, n in enumerate("rgba")
    ]
    return Record("Color32", dict(zip("rgba", values, strict=True)), value_type=True)


def _new_quaternion(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
    values = [
        ctx.number(arg(args, i, kwargs, n), f"Quaternion.{n}", 0.0) for i, n in enumerate("xyzw")
    ]
    return Record("Quaternion", dict(zip("xyzw", values, strict=True)), value_type=True)


def _euler(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    if len(args) == 1:
        angles = components(ctx, args[0], "Quaternion.Euler angles", (0.0, 0.0, 0.0))
    else:
        angles = tuple(
            ctx.number(arg(args, i), f"Quaternion.Euler {n}", 0.0) for i, n in enumerate("xyz")
        )  # type: ignore[assignment]
    assert angles is not None
    return quaternion_from_matrix(euler_matrix(*angles))


def _angle_axis(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    angle = ctx.number(arg(args, 0), "AngleAxis angle", 0.0)
    axis = components(ctx, arg(args, 1), "AngleAxis axis", (0.0, 1.0, 0.0))
    assert axis is not None
    if not any(axis):
        return quaternion_from_matrix(np.eye(3))
    return quaternion_from_matrix(axis_angle_to_matrix(axis, math.radians(angle)))


def look_rotation(
    forward: tuple[float, float, float], up: tuple[float, float, float]
) -> Matrix | None:
    """``Quaternion.LookRotation``: +Z along ``forward``, +Y towards ``up`` (left-handed)."""
    z = np.asarray(forward, dtype=float)
    if np.linalg.norm(z) < 1e-12:
        return None
    z = z / np.linalg.norm(z)
    x = np.cross(np.asarray(up, dtype=float), z)
    if np.linalg.norm(x) < 1e-12:
        x = np.cross(np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 0.0, 1.0]), z)
    x = x / np.linalg.norm(x)
    y = np.cross(z, x)
    return np.column_stack([x, y, z])


def _look_rotation(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    forward = components(ctx, arg(args, 0), "LookRotation forward")
    up = (
        components(ctx, arg(args, 1), "LookRotation up", (0.0, 1.0, 0.0))
        if len(args) > 1
        else (0.0, 1.0, 0.0)
    )
    if forward is None or up is None:
        return Unknown("LookRotation of an unknown direction")
    m = look_rotation(forward, up)
    return quaternion_from_matrix(m) if m is not None else quaternion_from_matrix(np.eye(3))


def _inverse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    m = rotation_of(arg(args, 0))
    return (
        quaternion_from_matrix(m.T) if m is not None else Unknown("Inverse of an unknown rotation")
    )


def _vector_fn(
    fn: Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], Any], wrap: bool = True
) -> Callable[[CallContext, Args, Kwargs], Value]:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        a = components(ctx, arg(args, 0), "vector")
        b = components(ctx, arg(args, 1), "vector")
        if a is None or b is None:
            return Unknown("a vector function of unknown vectors")
        result = fn(np.asarray(a), np.asarray(b))
        return vec(result) if wrap else float(result)

    return call


def _lerp_vector(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    a = components(ctx, arg(args, 0), "Lerp a")
    b = components(ctx, arg(args, 1), "Lerp b")
    t = min(max(ctx.number(arg(args, 2), "Lerp t", 0.0), 0.0), 1.0)
    if a is None or b is None:
        return Unknown("Lerp of unknown vectors")
    return vec([x + (y - x) * t for x, y in zip(a, b, strict=True)])


def _lerp_color(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    a, b = arg(args, 0), arg(args, 1)
    t = min(max(ctx.number(arg(args, 2), "Lerp t", 0.0), 0.0), 1.0)
    if not (
        isinstance(a, Record) and a.kind == "Color" and isinstance(b, Record) and b.kind == "Color"
    ):
        return Unknown("Lerp of unknown colours")
    return color(
        *(
            ctx.number(a.fields[c], "colour", 0.0)
            + (ctx.number(b.fields[c], "colour", 0.0) - ctx.number(a.fields[c], "colour", 0.0)) * t
            for c in "rgba"
        )
    )


def _hsv_to_rgb(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    h, s, v = (ctx.number(arg(args, i), "HSV", 0.0) for i in range(3))
    return color(*colorsys.hsv_to_rgb(h % 1.0, s, v))


def _try_parse_html(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    text = arg(args, 0)
    rgb = (
        color_from_text(text)
        if (isinstance(text, str) and text.strip().startswith("#"))
        or (isinstance(text, str) and text.isalpha())
        else None
    )
    if rgb is None:
        if not isinstance(text, str):
            ctx.warning(
                "eval.unknown_value", "TryParseHtmlString of text that cannot be known statically"
            )
        set_out(ctx, [color(0.0, 0.0, 0.0, 0.0)])
        return False
    set_out(ctx, [color(*rgb)])
    return True


def register(engine: Engine) -> dict[str, Value]:
    """Add the struct kinds to ``engine``; return the globals they bring (``Vector3``...)."""

    def vector_method(
        fn: Callable[[CallContext, Record, Args], Value],
    ) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        return lambda ctx, record, args, kwargs: fn(ctx, record, args)

    def magnitude(ctx: CallContext, record: Record) -> Value:
        values = components(ctx, record, "vector")
        return (
            math.sqrt(sum(v * v for v in values))
            if values
            else Unknown("magnitude of an unknown vector")
        )

    def normalized(ctx: CallContext, record: Record) -> Value:
        values = components(ctx, record, "vector")
        if values is None:
            return Unknown("normalized of an unknown vector")
        length = math.sqrt(sum(v * v for v in values))
        return vec([v / length for v in values]) if length > 1e-12 else vector3(0, 0, 0)

    def normalize(ctx: CallContext, record: Record, args: Args) -> Value:
        result = normalized(ctx, record)
        if isinstance(result, Record):
            record.fields.update(result.fields)
        return None

    def vector_set(ctx: CallContext, record: Record, args: Args) -> Value:
        for i, name in enumerate("xyz"):
            if i < len(args):
                record.fields[name] = ctx.number(args[i], f"Vector3.{name}", 0.0)
        return None

    def quaternion_euler(ctx: CallContext, record: Record) -> Value:
        m = rotation_of(record)
        return (
            vec(euler_angles(m)) if m is not None else Unknown("eulerAngles of an unknown rotation")
        )

    engine.add_kind(
        Kind(
            "Vector3",
            methods={
                "Normalize": vector_method(normalize),
                "Set": vector_method(vector_set),
                "ToString": vector_method(
                    lambda c, r, a: (
                        f"({r.fields.get('x')}, {r.fields.get('y')}, {r.fields.get('z')})"
                    )
                ),
            },
            getters={
                "magnitude": magnitude,
                "normalized": normalized,
                "sqrMagnitude": lambda c, r: (magnitude(c, r) or 0.0) ** 2,
            },
            value_type=True,
        )
    )
    engine.add_kind(Kind("Vector2", value_type=True))
    engine.add_kind(Kind("Vector4", value_type=True))
    engine.add_kind(
        Kind(
            "Quaternion",
            getters={"eulerAngles": quaternion_euler, "normalized": lambda c, r: r},
            value_type=True,
        )
    )
    engine.add_kind(Kind("Color", value_type=True))
    engine.add_kind(Kind("Color32", value_type=True))

    vector_statics: dict[str, Value] = {name: vector3(*v) for name, v in VECTOR_CONSTANTS.items()}
    vector_statics.update(
        {
            "Lerp": Builtin("Vector3.Lerp", _lerp_vector),
            "Scale": Builtin("Vector3.Scale", _vector_fn(lambda a, b: a * b)),
            "Cross": Builtin("Vector3.Cross", _vector_fn(np.cross)),
            "Dot": Builtin("Vector3.Dot", _vector_fn(np.dot, wrap=False)),
            "Distance": Builtin(
                "Vector3.Distance", _vector_fn(lambda a, b: np.linalg.norm(a - b), wrap=False)
            ),
            "Max": Builtin("Vector3.Max", _vector_fn(np.maximum)),
            "Min": Builtin("Vector3.Min", _vector_fn(np.minimum)),
        }
    )
    color_statics: dict[str, Value] = {
        name: color(*rgb) for name, rgb in ENGINE_COLOR_CONSTANTS.items()
    }
    color_statics["clear"] = color(0.0, 0.0, 0.0, 0.0)
    color_statics["Lerp"] = Builtin("Color.Lerp", _lerp_color)
    color_statics["HSVToRGB"] = Builtin("Color.HSVToRGB", _hsv_to_rgb)
    quaternion_statics: dict[str, Value] = {
        "identity": quaternion_from_matrix(np.eye(3)),
        "Euler": Builtin("Quaternion.Euler", _euler),
        "AngleAxis": Builtin("Quaternion.AngleAxis", _angle_axis),
        "LookRotation": Builtin("Quaternion.LookRotation", _look_rotation),
        "Inverse": Builtin("Quaternion.Inverse", _inverse),
    }
    return {
        "Vector3": EngineClass("Vector3", _new_vector("Vector3", 3), vector_statics),
        "Vector2": EngineClass(
            "Vector2",
            _new_vector("Vector2", 2),
            {
                n: Record("Vector2", {"x": v[0], "y": v[1]}, value_type=True)
                for n, v in VECTOR_CONSTANTS.items()
                if n not in ("forward", "back")
            },
        ),
        "Vector4": EngineClass("Vector4", _new_vector("Vector4", 4)),
        "Color": EngineClass("Color", _new_color, color_statics),
        "Color32": EngineClass("Color32", _new_color32),
        "Quaternion": EngineClass("Quaternion", _new_quaternion, quaternion_statics),
        "ColorUtility": Namespace(
            "ColorUtility",
            {"TryParseHtmlString": Builtin("ColorUtility.TryParseHtmlString", _try_parse_html)},
        ),
        "Matrix4x4": matrices.register(
            engine, components, rotation_of, vec, quaternion_from_matrix
        ),
    }


# --- operators -------------------------------------------------------------------------------------


def _vector_values(value: Value) -> list[float] | None:
    if isinstance(value, Record) and value.kind in ("Vector3", "Vector2"):
        values = [value.fields.get(c, 0.0) for c in "xyz"]
        return [float(v) for v in values] if all(is_number(v) for v in values) else None
    return None


def _color_values(value: Value) -> list[float] | None:
    if isinstance(value, Record) and value.kind == "Color":
        values = [value.fields.get(c, 0.0) for c in "rgba"]
        return [float(v) for v in values] if all(is_number(v) for v in values) else None
    return None


def _color_of(values: list[float]) -> Record:
    return color(*values)


def struct_operators(op: str, left: Value, right: Value) -> Value:
    """Unity's operators on its structs; ``NotImplemented`` when neither side is one."""
    product = matrices.matrix_operators(op, left, right)
    if product is not NotImplemented:
        return product
    if op == "neg":
        values = _vector_values(left)
        if values is not None:
            return vec([-v for v in values])
        return NotImplemented
    if isinstance(left, Record) and left.kind == "Quaternion" and op == "*":
        turn = rotation_of(left)
        if isinstance(right, Record) and right.kind == "Quaternion":
            other = rotation_of(right)
            return (
                quaternion_from_matrix(turn @ other)
                if turn is not None and other is not None
                else Unknown("a product of unknown rotations")
            )
        rotated = _vector_values(right)
        if rotated is not None and turn is not None:
            return vec(turn @ np.asarray(rotated))
        return Unknown("a rotation of an unknown value")
    for values_of, build in ((_vector_values, vec), (_color_values, _color_of)):
        a, b = values_of(left), values_of(right)
        if a is None and b is None:
            continue
        if a is not None and b is not None and op in ("+", "-", "*"):
            if build is vec and op == "*":
                return Unknown("Vector3 * Vector3 is not defined (use Vector3.Scale)")
            combined = [
                x + y if op == "+" else x - y if op == "-" else x * y
                for x, y in zip(a, b, strict=True)
            ]
            return build(combined)
        if op in ("==", "===", "!=", "!=="):
            same = a == b
            return same if op in ("==", "===") else not same
        scalar = right if a is not None else left
        values = a if a is not None else b
        if is_number(scalar) and values is not None and op in ("*", "/"):
            if op == "/" and a is None:
                return Unknown("a number divided by a vector")
            if op == "/" and scalar == 0:
                return Unknown("division by zero")
            return build([v * scalar if op == "*" else v / scalar for v in values])
        return Unknown(f"{op} on a Unity struct is not modelled")
    return NotImplemented
