"""Unity's value types for the static evaluator: ``Vector3`` (and ``Vector2``), ``Quaternion``,
``Color`` and ``Color32``, with their constructors, constants, members and operators
(``Matrix4x4``: ``parsers.unity.matrices``).

They are C# structs (``value_type`` records, copied on assignment). Matrices are Unity's own,
in its left-handed frame: the rotation formulas are the usual ones, applied to left-handed
coordinates, so a positive turn about +Y takes +Z (forward) to +X (right).
``Quaternion.Euler(x, y, z)`` turns about Z, then X, then Y: R = Ry Rx Rz.

Each member is a module-level function registered by name: ``@vector3_method("Normalize")``
fills ``VECTOR3_METHODS``, ``@vector3_getter("magnitude")`` ``VECTOR3_GETTERS``,
``@quaternion_getter`` ``QUATERNION_GETTERS``; the static functions of each class
(``Vector3.Lerp``, ``Quaternion.Euler``, ``Color.HSVToRGB``, ``ColorUtility.TryParseHtmlString``)
are in ``VECTOR3_STATICS``, ``QUATERNION_STATICS``, ``COLOR_STATICS`` and
``COLOR_UTILITY_STATICS``, the ``Vector3`` functions that differ only in their arithmetic made
by one maker (``_vector_fn``). ``register`` adds the kinds built from these tables to an engine
and gives the classes, with their constants. The readers the engine's parts use
(``components``, ``rotation_of``, ``vec``...) live in ``readers`` and are re-exported here.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from parsers.evaluator import (
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
from parsers.evaluator.core.engine import GetterImpl, MethodImpl
from parsers.evaluator.core.registry import registering
from parsers.evaluator.csharp.lib import set_out
from parsers.unity import matrices
from parsers.unity.readers import components, quaternion_from_matrix, rotation_of, vec, vector3
from spatialbabel.colors import ENGINE_COLOR_CONSTANTS, color_from_text
from spatialbabel.frames import Matrix, axis_angle_to_matrix, axis_rotation, matrix_to_euler

#: A static function of a class (``Vector3.Lerp``): called with no receiver.
Static = Callable[[CallContext, Args, Kwargs], Value]

#: The methods of ``Vector3`` records by name, registered by ``@vector3_method``.
VECTOR3_METHODS: Final[dict[str, MethodImpl]] = {}
vector3_method = registering(VECTOR3_METHODS)

#: The properties of ``Vector3`` records by name, registered by ``@vector3_getter``.
VECTOR3_GETTERS: Final[dict[str, GetterImpl]] = {}
vector3_getter = registering(VECTOR3_GETTERS)

#: The properties of ``Quaternion`` records by name, registered by ``@quaternion_getter``.
QUATERNION_GETTERS: Final[dict[str, GetterImpl]] = {}
quaternion_getter = registering(QUATERNION_GETTERS)

#: The static functions of each class by name (its constants are ``register``'s).
VECTOR3_STATICS: Final[dict[str, Static]] = {}
vector3_static = registering(VECTOR3_STATICS)
QUATERNION_STATICS: Final[dict[str, Static]] = {}
quaternion_static = registering(QUATERNION_STATICS)
COLOR_STATICS: Final[dict[str, Static]] = {}
color_static = registering(COLOR_STATICS)
COLOR_UTILITY_STATICS: Final[dict[str, Static]] = {}
color_utility_static = registering(COLOR_UTILITY_STATICS)

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


def color(r: float, g: float, b: float, a: float = 1.0) -> Record:
    return Record(
        "Color", {"r": float(r), "g": float(g), "b": float(b), "a": float(a)}, value_type=True
    )


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


# --- constructors ----------------------------------------------------------------------------------
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


# --- Quaternion: statics and properties ------------------------------------------------------------
@quaternion_static("Euler")
def quaternion_euler(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    if len(args) == 1:
        angles = components(ctx, args[0], "Quaternion.Euler angles", (0.0, 0.0, 0.0))
    else:
        angles = tuple(
            ctx.number(arg(args, i), f"Quaternion.Euler {n}", 0.0) for i, n in enumerate("xyz")
        )  # type: ignore[assignment]
    assert angles is not None
    return quaternion_from_matrix(euler_matrix(*angles))


@quaternion_static("AngleAxis")
def quaternion_angle_axis(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
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


@quaternion_static("LookRotation")
def quaternion_look_rotation(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
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


@quaternion_static("Inverse")
def quaternion_inverse(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    m = rotation_of(arg(args, 0))
    return (
        quaternion_from_matrix(m.T) if m is not None else Unknown("Inverse of an unknown rotation")
    )


@quaternion_getter("eulerAngles")
def quaternion_euler_angles(ctx: CallContext, record: Record) -> Value:
    m = rotation_of(record)
    return vec(euler_angles(m)) if m is not None else Unknown("eulerAngles of an unknown rotation")


@quaternion_getter("normalized")
def quaternion_normalized(ctx: CallContext, record: Record) -> Value:
    # The record itself: every rotation read from a quaternion (``rotation_of``) is normalised
    # already, so only its raw x, y, z, w, which scenes do not read, differ from Unity's.
    return record


# --- Vector3: statics, methods and properties -------------------------------------------------------
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


@vector3_static("Lerp")
def vector3_lerp(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    a = components(ctx, arg(args, 0), "Lerp a")
    b = components(ctx, arg(args, 1), "Lerp b")
    t = min(max(ctx.number(arg(args, 2), "Lerp t", 0.0), 0.0), 1.0)
    if a is None or b is None:
        return Unknown("Lerp of unknown vectors")
    return vec([x + (y - x) * t for x, y in zip(a, b, strict=True)])


vector3_static("Scale")(_vector_fn(lambda a, b: a * b))
vector3_static("Cross")(_vector_fn(np.cross))
vector3_static("Dot")(_vector_fn(np.dot, wrap=False))
vector3_static("Distance")(_vector_fn(lambda a, b: np.linalg.norm(a - b), wrap=False))
vector3_static("Max")(_vector_fn(np.maximum))
vector3_static("Min")(_vector_fn(np.minimum))


@vector3_getter("magnitude")
def vector3_magnitude(ctx: CallContext, record: Record) -> Value:
    values = components(ctx, record, "vector")
    return (
        math.sqrt(sum(v * v for v in values))
        if values
        else Unknown("magnitude of an unknown vector")
    )


@vector3_getter("normalized")
def vector3_normalized(ctx: CallContext, record: Record) -> Value:
    values = components(ctx, record, "vector")
    if values is None:
        return Unknown("normalized of an unknown vector")
    length = math.sqrt(sum(v * v for v in values))
    return vec([v / length for v in values]) if length > 1e-12 else vector3(0, 0, 0)


@vector3_getter("sqrMagnitude")
def vector3_sqr_magnitude(ctx: CallContext, record: Record) -> Value:
    return (vector3_magnitude(ctx, record) or 0.0) ** 2


@vector3_method("Normalize")
def vector3_normalize(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    result = vector3_normalized(ctx, record)
    if isinstance(result, Record):
        record.fields.update(result.fields)
    return None


@vector3_method("Set")
def vector3_set(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    for i, name in enumerate("xyz"):
        if i < len(args):
            record.fields[name] = ctx.number(args[i], f"Vector3.{name}", 0.0)
    return None


@vector3_method("ToString")
def vector3_to_string(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return f"({record.fields.get('x')}, {record.fields.get('y')}, {record.fields.get('z')})"


# --- Color and ColorUtility: statics --------------------------------------------------------------
@color_static("Lerp")
def color_lerp(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
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


@color_static("HSVToRGB")
def color_hsv_to_rgb(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    h, s, v = (ctx.number(arg(args, i), "HSV", 0.0) for i in range(3))
    return color(*colorsys.hsv_to_rgb(h % 1.0, s, v))


@color_utility_static("TryParseHtmlString")
def color_utility_try_parse_html_string(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
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


# --- the kinds and the classes ----------------------------------------------------------------------
def _statics(owner: str, table: dict[str, Static]) -> dict[str, Value]:
    return {name: Builtin(f"{owner}.{name}", fn) for name, fn in table.items()}


def register(engine: Engine) -> dict[str, Value]:
    """Add the struct kinds to ``engine``; return the globals they bring (``Vector3``...)."""
    engine.add_kind(
        Kind("Vector3", methods=VECTOR3_METHODS, getters=VECTOR3_GETTERS, value_type=True)
    )
    engine.add_kind(Kind("Vector2", value_type=True))
    engine.add_kind(Kind("Vector4", value_type=True))
    engine.add_kind(Kind("Quaternion", getters=QUATERNION_GETTERS, value_type=True))
    engine.add_kind(Kind("Color", value_type=True))
    engine.add_kind(Kind("Color32", value_type=True))

    # Records are mutable: the constants are made per engine, never shared between parses.
    vector_statics: dict[str, Value] = {name: vector3(*v) for name, v in VECTOR_CONSTANTS.items()}
    vector_statics.update(_statics("Vector3", VECTOR3_STATICS))
    color_statics: dict[str, Value] = {
        name: color(*rgb) for name, rgb in ENGINE_COLOR_CONSTANTS.items()
    }
    color_statics["clear"] = color(0.0, 0.0, 0.0, 0.0)
    color_statics.update(_statics("Color", COLOR_STATICS))
    quaternion_statics: dict[str, Value] = {"identity": quaternion_from_matrix(np.eye(3))}
    quaternion_statics.update(_statics("Quaternion", QUATERNION_STATICS))
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
        "ColorUtility": Namespace("ColorUtility", _statics("ColorUtility", COLOR_UTILITY_STATICS)),
        "Matrix4x4": matrices.register(engine),
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


__all__ = [
    "COLOR_STATICS",
    "COLOR_UTILITY_STATICS",
    "QUATERNION_GETTERS",
    "QUATERNION_STATICS",
    "VECTOR3_GETTERS",
    "VECTOR3_METHODS",
    "VECTOR3_STATICS",
    "VECTOR_CONSTANTS",
    "color",
    "components",
    "euler_angles",
    "euler_matrix",
    "look_rotation",
    "quaternion_from_matrix",
    "register",
    "rgb_of",
    "rotation_of",
    "struct_operators",
    "vec",
    "vector3",
]
