"""``THREE.InstancedMesh``: one geometry and material drawn ``count`` times, each instance
placed by its own matrix (``setMatrixAt``) and tinted by its own colour (``setColorAt``).

Each instance is an object of the scene. As three stores them, matrices and colours are
float32, every instance starts at the identity, and an instance's colour multiplies the
material's (the shader's ``vColor *= instanceColor``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from parsers.evaluator import UNDEFINED, Args, CallContext, Kind, Kwargs, Part, Record, Value, arg
from parsers.evaluator.core.engine import MethodImpl
from parsers.threejs.records import returns_undefined
from spatialbabel.frames import Matrix

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine

#: More instances than this is no scene of the benchmark; the matrices are not kept.
MAX_INSTANCES = 10_000


@dataclass
class Instances:
    """What an InstancedMesh holds per instance (its ``instanceMatrix``/``instanceColor``)."""

    matrices: list[Matrix]
    colors: list[tuple[float, float, float]] | None = None


def _float32(values: Matrix) -> Matrix:
    return np.asarray(values, dtype=np.float32).astype(float)


class InstancingMethods(Part):
    """The ``InstancedMesh`` constructor and methods."""

    engine: ThreeEngine

    def register_instancing(self) -> None:
        self.engine.add_kind(
            Kind("InstancedMesh", base="Object3D", factory=self._instanced_methods)
        )
        self.engine.add_kind(
            Kind(
                "InstancedBufferAttribute",
                methods={"setUsage": lambda ctx, r, a, k: r},
                inert=True,
            )
        )

    def instanced_mesh(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        raw = arg(args, 2)
        count = (
            0 if raw is UNDEFINED else int(max(0.0, ctx.number(raw, "InstancedMesh count", 0.0)))
        )
        if count > MAX_INSTANCES:
            ctx.warning(
                "threejs.too_many_objects",
                f"an InstancedMesh of {count} instances; only the first {MAX_INSTANCES} are kept",
            )
            count = MAX_INSTANCES
        record = self.engine.object3d(
            ctx, "InstancedMesh", geometry=arg(args, 0), material=arg(args, 1)
        )
        record.fields["count"] = float(count)
        record.fields["instanceMatrix"] = Record(
            "InstancedBufferAttribute",
            {"count": float(count), "itemSize": 16.0, "needsUpdate": False},
            native=Instances([np.eye(4) for _ in range(count)]),
        )
        record.fields["instanceColor"] = None
        return record

    def copy_instances(self, target: Record, source: Record) -> None:
        """What ``InstancedMesh.copy`` (and so ``clone``) copies: count, matrices, colours."""
        found = self.instances(source)
        target.fields["count"] = source.fields.get("count")
        target.fields["instanceColor"] = source.fields.get("instanceColor")
        if found is None:
            return
        copy = Instances(
            [m.copy() for m in found.matrices],
            None if found.colors is None else list(found.colors),
        )
        attribute = source.fields.get("instanceMatrix")
        fields = dict(attribute.fields) if isinstance(attribute, Record) else {}
        target.fields["instanceMatrix"] = Record("InstancedBufferAttribute", fields, native=copy)

    @staticmethod
    def instances(record: Record) -> Instances | None:
        attribute = record.fields.get("instanceMatrix")
        if isinstance(attribute, Record) and isinstance(attribute.native, Instances):
            return attribute.native
        return None

    def _instance(
        self, ctx: CallContext, record: Record, value: Value
    ) -> tuple[Instances, int] | None:
        """The instances of ``record`` and the index ``value`` names; None (reported) when the
        index is not one of them."""
        found = self.instances(record)
        index = ctx.number(value, "instance index", -1.0)
        if found is None or not 0 <= index < len(found.matrices) or index != int(index):
            ctx.warning(
                "threejs.bad_instance",
                f"instance index {value!r} is outside the InstancedMesh's {0 if found is None else len(found.matrices)} instances; ignored",
            )
            return None
        return found, int(index)

    def _instanced_methods(self) -> dict[str, MethodImpl]:
        def set_matrix(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            at = self._instance(ctx, record, arg(args, 0))
            if at is None:
                return UNDEFINED
            found, index = at
            matrix = arg(args, 1)
            if isinstance(matrix, Record) and matrix.kind == "Matrix4":
                found.matrices[index] = _float32(matrix.native)
            else:
                ctx.warning(
                    "threejs.unknown_transform",
                    f"setMatrixAt({index}, ...) with a matrix that cannot be known statically; the instance keeps its matrix",
                )
            return UNDEFINED

        def get_matrix(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            at = self._instance(ctx, record, arg(args, 0))
            target = arg(args, 1)
            if at is not None and isinstance(target, Record):
                found, index = at
                target.native = found.matrices[index].copy()
            return UNDEFINED

        def set_color(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            at = self._instance(ctx, record, arg(args, 0))
            if at is None:
                return UNDEFINED
            found, index = at
            if found.colors is None:
                found.colors = [(1.0, 1.0, 1.0)] * len(found.matrices)
                record.fields["instanceColor"] = Record(
                    "InstancedBufferAttribute",
                    {"count": float(len(found.matrices)), "itemSize": 3.0, "needsUpdate": False},
                )
            linear = self.engine.numbers(arg(args, 1), "rgb")
            if isinstance(linear, tuple):
                r, g, b = (float(np.float32(c)) for c in linear)
                found.colors[index] = (r, g, b)
            else:
                ctx.warning(
                    "threejs.unknown_color",
                    f"setColorAt({index}, ...) with a colour that cannot be known statically ({linear.reason})",
                )
            return UNDEFINED

        def get_color(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            at = self._instance(ctx, record, arg(args, 0))
            target = arg(args, 1)
            if at is not None and isinstance(target, Record):
                found, index = at
                r, g, b = found.colors[index] if found.colors is not None else (1.0, 1.0, 1.0)
                target.fields.update({"r": r, "g": g, "b": b})
            return target

        return {
            "setMatrixAt": set_matrix,
            "getMatrixAt": get_matrix,
            "setColorAt": set_color,
            "getColorAt": get_color,
            "computeBoundingBox": returns_undefined,
            "computeBoundingSphere": returns_undefined,
            "dispose": returns_undefined,
        }
