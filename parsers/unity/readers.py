"""How Unity's ``Vector3`` and ``Quaternion`` values are made and read for the static evaluator:
``vector3``/``vec`` build one, ``components`` reads a vector argument (reporting what it cannot
know), ``rotation_of`` a quaternion's rotation matrix.

``structs`` (the struct kinds) and ``matrices`` (``Matrix4x4``) both need them, and ``structs``
registers ``matrices``: kept here, below both, the two import them without a cycle.
``structs`` re-exports them, as the engine's parts have always read them from there.
"""

from __future__ import annotations

from typing import Any

from parsers.evaluator import UNDEFINED, CallContext, Record, Unknown, Value, is_number
from spatialbabel.frames import Matrix, matrix_to_quaternion, quaternion_to_matrix


def vector3(x: float, y: float, z: float) -> Record:
    return Record("Vector3", {"x": float(x), "y": float(y), "z": float(z)}, value_type=True)


def vec(values: Any) -> Record:
    return vector3(float(values[0]), float(values[1]), float(values[2]))


def quaternion_from_matrix(m: Matrix) -> Record:
    w, x, y, z = matrix_to_quaternion(m)
    return Record("Quaternion", {"x": x, "y": y, "z": z, "w": w}, value_type=True)


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
