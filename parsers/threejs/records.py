"""The base of the three.js engine table: its state and what every part of it uses.

``ThreeRecords`` makes the records that mirror three's values (``Vector3``, ``Euler``,
``Quaternion``, ``Matrix4``, ``Color``, objects), reads numbers, vectors, quaternions and
matrices from script values, keeps an object's ``rotation`` and ``quaternion`` in sync as three
does, and composes local and world matrices. ``ObjectState`` and ``GeometryState`` are the
engine-private facts kept on object and geometry records.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Engine,
    Kwargs,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)
from parsers.threejs import three_math as tm
from parsers.threejs.three_names import DEFAULT_COLOR_LINEAR, LEGACY_METHODS
from spatialbabel.frames import Matrix
from spatialbabel.palette import RGB

_IDENTITY = np.eye(4)

#: A method of an engine kind: (ctx, receiver, args, kwargs) -> value.
Method = Callable[[CallContext, Record, Args, Kwargs], Value]


@dataclass
class ObjectState:
    """Engine-private facts about an Object3D record."""

    line: int
    serial: int
    variable: str | None = None


@dataclass
class GeometryState:
    """A geometry's transforms applied to its vertices (``rotateX``, ``translate``...), and for
    a ``BufferGeometry`` where its ``position`` attribute came from (``vertex_geometry``)."""

    line: int
    applied: Matrix = field(default_factory=lambda: _IDENTITY.copy())
    #: Vertex positions the code computed (n x 3), before ``applied``.
    positions: Matrix | None = None
    #: A primitive geometry whose positions this one took, before ``applied``.
    source: Record | None = None
    #: A position attribute set to values that cannot be known statically.
    unknown_positions: bool = False
    #: ``(class, unit primitive onto the geometry, why)`` of a helper without a body.
    placeholder: tuple[str, Matrix, str] | None = None

    def copy(self) -> GeometryState:
        return GeometryState(
            self.line,
            np.array(self.applied),
            None if self.positions is None else self.positions.copy(),
            self.source,
            self.unknown_positions,
            self.placeholder,
        )


def finite_number(value: Value) -> bool:
    if type(value) is float:  # the common case, without the isinstance chain
        return math.isfinite(value)
    return is_number(value) and not isinstance(value, bool) and math.isfinite(value)


def num_or(value: Value, default: float) -> Value:
    if value is UNDEFINED:
        return default
    return value


def returns_undefined(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return UNDEFINED


def returns_zero(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return 0.0


class ThreeRecords(Engine):
    """The engine's state and the helpers every kind's methods use."""

    def __init__(self) -> None:
        super().__init__()
        self.scenes: list[Record] = []
        self.rendered: list[Record] = []
        self.objects: list[Record] = []
        self.deferred: list[tuple[Value, int, int]] = []
        self.implicit_scene: Record | None = None
        self.reported_imports: set[str] = set()
        self.reported_legacy: set[str] = set()

    # --- names of older three ------------------------------------------------------------------
    def report_legacy(self, ctx: CallContext, name: str, message: str) -> None:
        """Say once per name that the code uses a name of three before r125."""
        if name not in self.reported_legacy:
            self.reported_legacy.add(name)
            ctx.info("threejs.legacy_api", message)

    def legacy_builtin(self, name: str, message: str, function: Builtin) -> Builtin:
        """``function`` under its old name, reporting the old name when called."""
        call = function.fn

        def legacy(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            self.report_legacy(ctx, name, message)
            result: Value = call(ctx, args, kwargs)
            return result

        return Builtin(f"{name}.{function.name.split('.')[-1]}", legacy)

    def legacy_methods(self, kind: str, methods: dict[str, Method]) -> dict[str, Method]:
        """The old names of ``methods`` (``applyMatrix`` for ``applyMatrix4``), each reporting
        its old name when called."""
        found: dict[str, Method] = {}
        for old, new in LEGACY_METHODS.items():
            method = methods.get(new)
            if method is None:
                continue

            def legacy(
                ctx: CallContext,
                record: Record,
                args: Args,
                kwargs: Kwargs,
                old: str = old,
                new: str = new,
                method: Method = method,
            ) -> Value:
                self.report_legacy(
                    ctx,
                    f"{kind}.{old}",
                    f"{kind}.{old}() is three's name before r125 for {new}(); read as {new}",
                )
                return method(ctx, record, args, kwargs)

            found[old] = legacy
        return found

    # --- records ------------------------------------------------------------------------------
    @staticmethod
    def vector3(x: Value = 0.0, y: Value = 0.0, z: Value = 0.0) -> Record:
        return Record("Vector3", {"x": x, "y": y, "z": z})

    @staticmethod
    def euler(
        x: Value = 0.0,
        y: Value = 0.0,
        z: Value = 0.0,
        order: Value = "XYZ",
        owner: Record | None = None,
    ) -> Record:
        return Record("Euler", {"x": x, "y": y, "z": z, "order": order}, native=owner)

    @staticmethod
    def quaternion(
        q: tuple[Value, Value, Value, Value] = tm.IDENTITY_QUAT, owner: Record | None = None
    ) -> Record:
        return Record("Quaternion", {"x": q[0], "y": q[1], "z": q[2], "w": q[3]}, native=owner)

    @staticmethod
    def matrix4(m: Matrix | None = None) -> Record:
        return Record("Matrix4", native=np.eye(4) if m is None else np.array(m, dtype=float))

    @staticmethod
    def color(linear: RGB = DEFAULT_COLOR_LINEAR) -> Record:
        return Record("Color", {"r": linear[0], "g": linear[1], "b": linear[2]})

    def object3d(self, ctx: CallContext, kind: str, **extra: Value) -> Record:
        record = Record(kind)
        record.fields.update(
            {
                "position": self.vector3(),
                "rotation": self.euler(owner=record),
                "quaternion": self.quaternion(owner=record),
                "scale": self.vector3(1.0, 1.0, 1.0),
                "up": self.vector3(0.0, 1.0, 0.0),
                "children": [],
                "parent": None,
                "name": "",
                "type": kind,
                "userData": {},
                "visible": True,
                "castShadow": False,
                "receiveShadow": False,
                "matrixAutoUpdate": True,
            }
        )
        record.fields.update(extra)
        record.native = ObjectState(ctx.line, len(self.objects))
        self.objects.append(record)
        return record

    # --- reading values ---------------------------------------------------------------------
    @staticmethod
    def numbers(record: Value, names: str) -> tuple[float, ...] | Unknown:
        """Numeric fields of a record (``"xyz"``), or an Unknown naming the first that is not."""
        if not isinstance(record, Record):
            if isinstance(record, Unknown):
                return record
            if (
                isinstance(record, list | tuple)
                and len(record) >= len(names)
                and all(is_number(v) for v in record[: len(names)])
            ):
                return tuple(float(v) for v in record[: len(names)])
            return Unknown(f"a {type_name(record)} where a {names} value is expected")
        values = []
        for name in names:
            value: Value = record.fields.get(name)
            if not finite_number(value):
                return (
                    value
                    if isinstance(value, Unknown)
                    else Unknown(f"{record.kind}.{name} is {type_name(value)}")
                )
            values.append(float(value))
        return tuple(values)

    def vec(self, ctx: CallContext, value: Value, what: str) -> tuple[float, float, float] | None:
        found = self.numbers(value, "xyz")
        if isinstance(found, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{what} cannot be known statically ({found.reason}); ignored",
            )
            return None
        return (found[0], found[1], found[2])

    def quat_of(self, ctx: CallContext, value: Value, what: str) -> tm.Quat | None:
        found = self.numbers(value, "xyzw")
        if isinstance(found, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{what} cannot be known statically ({found.reason}); ignored",
            )
            return None
        return (found[0], found[1], found[2], found[3])

    def matrix_of(self, ctx: CallContext, value: Value, what: str) -> Matrix | None:
        if (
            isinstance(value, Record)
            and value.kind == "Matrix4"
            and isinstance(value.native, np.ndarray)
        ) and np.all(np.isfinite(value.native)):
            return value.native
        reason = value.reason if isinstance(value, Unknown) else type_name(value)
        ctx.warning(
            "threejs.unknown_value", f"{what} cannot be known statically ({reason}); ignored"
        )
        return None

    # --- rotation sync ----------------------------------------------------------------------
    def set_quaternion(self, owner: Record, q: tm.Quat | Unknown) -> None:
        """Set an object's quaternion and, as three's onChange callbacks do, its Euler."""
        quat = owner.fields["quaternion"]
        rotation = owner.fields["rotation"]
        if isinstance(q, Unknown):
            quat.fields.update({"x": q, "y": q, "z": q, "w": q})
            rotation.fields.update({"x": q, "y": q, "z": q})
            return
        quat.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})
        order = rotation.fields.get("order")
        x, y, z = tm.euler_from_quat(q, order if isinstance(order, str) else "XYZ")
        rotation.fields.update({"x": x, "y": y, "z": z})

    def sync_from_euler(self, euler: Record) -> None:
        owner = euler.native
        if not isinstance(owner, Record):
            return
        angles = self.numbers(euler, "xyz")
        quat = owner.fields["quaternion"]
        if isinstance(angles, Unknown):
            quat.fields.update({"x": angles, "y": angles, "z": angles, "w": angles})
            return
        order = euler.fields.get("order")
        q = tm.quat_from_euler(
            angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
        )
        quat.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})

    def sync_from_quaternion(self, quat: Record) -> None:
        owner = quat.native
        if not isinstance(owner, Record):
            return
        found = self.numbers(quat, "xyzw")
        rotation = owner.fields["rotation"]
        if isinstance(found, Unknown):
            rotation.fields.update({"x": found, "y": found, "z": found})
            return
        order = rotation.fields.get("order")
        x, y, z = tm.euler_from_quat(
            (found[0], found[1], found[2], found[3]), order if isinstance(order, str) else "XYZ"
        )
        rotation.fields.update({"x": x, "y": y, "z": z})

    # --- world transforms -------------------------------------------------------------------
    def local_matrix(self, record: Record, report: Callable[[str], None] | None = None) -> Matrix:
        """``Object3D.matrix`` from position, quaternion and scale (unknown parts: identity)."""
        position = self.numbers(record.fields.get("position"), "xyz")
        quat = self.numbers(record.fields.get("quaternion"), "xyzw")
        scale = self.numbers(record.fields.get("scale"), "xyz")
        if isinstance(position, Unknown):
            position = self._partial(
                record.fields.get("position"), 0.0, "position", report, position
            )
        if isinstance(quat, Unknown):
            if report is not None:
                report(
                    f"rotation cannot be known statically ({quat.reason}); the known angles kept"
                )
            rotation = record.fields.get("rotation")
            angles = self._partial(rotation, 0.0, "rotation", None, quat)
            order = rotation.fields.get("order") if isinstance(rotation, Record) else "XYZ"
            quat = tm.quat_from_euler(
                angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
            )
        if isinstance(scale, Unknown):
            scale = self._partial(record.fields.get("scale"), 1.0, "scale", report, scale)
        return tm.compose(
            (position[0], position[1], position[2]),
            (quat[0], quat[1], quat[2], quat[3]),
            (scale[0], scale[1], scale[2]),
        )

    @staticmethod
    def _partial(
        record: Value,
        default: float,
        what: str,
        report: Callable[[str], None] | None,
        unknown: Unknown,
    ) -> tuple[float, float, float]:
        values = []
        for axis in "xyz":
            value: Value = record.fields.get(axis) if isinstance(record, Record) else None
            if finite_number(value):
                values.append(float(value))
            else:
                reason = value.reason if isinstance(value, Unknown) else unknown.reason
                if report is not None:
                    report(f"{what}.{axis} cannot be known statically ({reason}); {default:g} used")
                values.append(default)
        return (values[0], values[1], values[2])

    def world_matrix(self, record: Record) -> Matrix:
        chain = []
        current: Value = record
        seen: set[int] = set()
        while isinstance(current, Record) and id(current) not in seen:
            seen.add(id(current))
            chain.append(current)
            current = current.fields.get("parent")
        matrix = np.eye(4)
        for node in reversed(chain):
            matrix = matrix @ self.local_matrix(node)
        return matrix

    def is_object3d(self, value: Value) -> bool:
        return isinstance(value, Record) and self.is_a(value, "Object3D")


def engine_of(ctx: CallContext) -> ThreeRecords:
    """The three.js engine running a call: a method registered in a module's table (made once,
    not per parse) reaches the engine's helpers through it."""
    return cast(ThreeRecords, ctx.interp.engine)
