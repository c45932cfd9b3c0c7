"""three's geometries as records for the static evaluator: ``new THREE.BoxGeometry(...)``
with its ``parameters``, and the ``BufferGeometry`` methods that move its vertices
(``translate``, ``rotateX``, ``scale``, ``applyMatrix4``...). What a geometry is as a
primitive is ``geometries.read_geometry``'s to say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from parsers.evaluator import UNDEFINED, Args, CallContext, Kind, Kwargs, Part, Record, Value, arg
from parsers.threejs import three_math as tm
from parsers.threejs.geometries import GEOMETRY_PARAMETERS
from parsers.threejs.records import GeometryState, returns_undefined
from spatialbabel.frames import Matrix

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class GeometryMethods(Part):
    """The constructors and methods of geometry records."""

    engine: ThreeEngine

    def geometry_constructor(self, kind: str) -> Callable[[CallContext, Args, Kwargs], Record]:
        return lambda ctx, args, kwargs: self.geometry(ctx, kind, args)

    def geometry(self, ctx: CallContext, kind: str, args: Args) -> Record:
        if "BufferGeometry" in kind and kind != "BufferGeometry":
            new = kind.replace("BufferGeometry", "Geometry")
            self.engine.report_legacy(
                ctx,
                kind,
                f"THREE.{kind} is three's older name for {new} (the same class since r125, "
                f"an alias until removed); read as {new}",
            )
            kind = new
        parameters: dict[str, Value] = {}
        for i, (name, default) in enumerate(GEOMETRY_PARAMETERS.get(kind, ())):
            value = arg(args, i)
            parameters[name] = default if value is UNDEFINED else value
        record = Record(
            kind,
            {"type": kind, "parameters": parameters, "userData": {}},
            native=GeometryState(ctx.line),
        )
        if kind not in self.engine.kinds:
            self.engine.add_kind(Kind(kind, base="BufferGeometry"))
        return record

    # --- geometry ------------------------------------------------------------------------------
    def geometry_methods(self) -> dict[str, Any]:
        engine = self.engine

        def transform(build: Callable[[CallContext, Args], Matrix | None]) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                m = build(ctx, a)
                if isinstance(r.native, GeometryState):
                    if m is None:
                        ctx.warning(
                            "threejs.unknown_value",
                            "a geometry transform that cannot be known statically is ignored",
                        )
                    else:
                        r.native.applied = m @ r.native.applied
                return r

            return fn

        def rotation(axis: str) -> Callable[[CallContext, Args], Matrix | None]:
            vector = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]

            def build(ctx: CallContext, a: Args) -> Matrix | None:
                angle = ctx.optional_number(
                    arg(a, 0), "the rotation angle", code="threejs.unknown_value"
                )
                return (
                    None
                    if angle is None
                    else tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(vector, angle))
                )

            return build

        def translate(ctx: CallContext, a: Args) -> Matrix | None:
            m = np.eye(4)
            m[:3, 3] = [
                ctx.number(arg(a, i), "the translation", 0.0, code="threejs.unknown_value")
                for i in range(3)
            ]
            return m

        def scale(ctx: CallContext, a: Args) -> Matrix | None:
            return np.diag(
                [
                    *(
                        ctx.number(arg(a, i), "the scale", 1.0, code="threejs.unknown_value")
                        for i in range(3)
                    ),
                    1.0,
                ]
            )

        def apply_quaternion(ctx: CallContext, a: Args) -> Matrix | None:
            q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
            return None if q is None else tm.rotation_matrix_from_quat(q)

        def apply_matrix(ctx: CallContext, a: Args) -> Matrix | None:
            return engine.matrix_of(ctx, arg(a, 0), "the matrix")

        def center(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            from parsers.threejs.scene_reader import geometry_affine

            reading = geometry_affine(ctx, engine, r)
            if reading is None or not isinstance(r.native, GeometryState):
                return r
            from spatialbabel.geometry.bounds import primitive_aabb

            class_name, affine = reading
            lo, hi = primitive_aabb(class_name, affine)
            shift = np.eye(4)
            shift[:3, 3] = -(lo + hi) / 2
            r.native.applied = shift @ r.native.applied
            return r

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            state = r.native
            copy = Record(
                r.kind,
                {
                    "type": r.fields.get("type"),
                    "parameters": dict(r.fields.get("parameters") or {}),
                    "userData": {},
                },
            )
            copy.native = state.copy() if isinstance(state, GeometryState) else None
            return copy

        def non_indexed(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            # three's toNonIndexed() makes a plain BufferGeometry of the same vertices.
            made = self.geometry(ctx, "BufferGeometry", [])
            if isinstance(r.native, GeometryState):
                if r.kind == "BufferGeometry":
                    made.native = r.native.copy()
                else:
                    made.native.source = r
                    made.native.applied = np.array(r.native.applied)
            return made

        methods: dict[str, Any] = {
            "rotateX": transform(rotation("X")),
            "rotateY": transform(rotation("Y")),
            "rotateZ": transform(rotation("Z")),
            "translate": transform(translate),
            "scale": transform(scale),
            "applyQuaternion": transform(apply_quaternion),
            "applyMatrix4": transform(apply_matrix),
            "center": center,
            "clone": clone,
            "computeVertexNormals": returns_undefined,
            "computeBoundingBox": returns_undefined,
            "computeBoundingSphere": returns_undefined,
            "dispose": returns_undefined,
            **engine.vertices.vertex_geometry_methods(),
            "toNonIndexed": non_indexed,
        }
        return {**methods, **engine.legacy_methods("BufferGeometry", methods)}
