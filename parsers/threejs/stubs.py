"""Calls of three.js helpers whose body is missing (cut off, a stub, never written).

``createTorus(scene, 0, 0.2, 0, 0xff0000)`` with no body to run is read as the mesh it asks
for (``parsers.helper_calls`` reads what the call carries): a mesh whose geometry is the unit
shape of the class the call names (upright, a torus lying flat: the canonical primitive),
at the position, turned by Euler angles (radians), a ``THREE.Euler`` or a ``Quaternion``, with
a ``MeshStandardMaterial`` of the colour given. It joins the scene or group handed to the
helper; otherwise it is read as drawn. A helper named like a geometry
(``makeTorusGeometry(...)``) gives the geometry alone; another that names a shape but no
position gives the mesh alone, drawn only if the code adds it.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np

from parsers.evaluator import CallContext, HelperCall, Part, Record, Value, is_number
from parsers.helper_calls import ValueReaders, Vec3, read_helper_call
from parsers.threejs.records import GeometryState
from parsers.threejs.three_names import MESH_KINDS
from spatialbabel.colors import color_from_text

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine

_GEOMETRY_HELPER = re.compile(r"geom|geo$|Geo[A-Z_]|geometry", re.IGNORECASE)
#: Numbers read by order as a colour (``0xff0000``): whole numbers beyond any size.
_SMALLEST_HEX_COLOUR = 4096


def _vector(value: Value) -> Vec3 | None:
    if isinstance(value, Record) and value.kind == "Vector3":
        parts = [value.fields.get(c) for c in "xyz"]
    elif isinstance(value, list | tuple) and len(value) == 3:
        parts = list(value)
    else:
        return None
    numbers = [float(p) for p in parts if p is not None and is_number(p)]
    if len(numbers) != 3 or not all(math.isfinite(n) for n in numbers):
        return None
    return (numbers[0], numbers[1], numbers[2])


def _colour(value: Value) -> bool:
    if isinstance(value, Record):
        return value.kind == "Color"
    if isinstance(value, str):
        return color_from_text(value) is not None
    return (
        is_number(value) and float(value).is_integer() and _SMALLEST_HEX_COLOUR <= value <= 0xFFFFFF
    )


READERS = ValueReaders(
    vector=_vector,
    rotation=lambda v: isinstance(v, Record) and v.kind in ("Euler", "Quaternion"),
    colour=_colour,
    scene_object=lambda v: isinstance(v, Record) and v.kind in MESH_KINDS,
)


class HelperStubs(Part):
    """``Engine.object_count`` and ``Engine.helper_without_body`` for three.js."""

    engine: ThreeEngine

    def __init__(self, engine: ThreeEngine) -> None:
        super().__init__(engine)
        #: Meshes read from helpers without a body and handed to no scene: read as drawn.
        self.stub_meshes: list[Record] = []

    def object_count(self) -> int:
        return sum(1 for obj in self.engine.objects if obj.kind in MESH_KINDS)

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        reading = read_helper_call(call, READERS)
        if reading is None:
            return None
        geometry = self.engine.geometries.geometry(ctx, "BufferGeometry", [])
        state: GeometryState = geometry.native
        state.placeholder = (
            reading.class_name,
            np.diag([*reading.unit_scale(), 1.0]),
            f"{call.name}() {call.why}",
        )
        ctx.warning("eval.helper_without_body", reading.message(call))
        if reading.position is None and _GEOMETRY_HELPER.search(call.name):
            return geometry
        # Without a colour in the call the object's colour is unknown: a material without one.
        material = (
            self.engine.materials.material(ctx, "MeshStandardMaterial", [{"color": reading.colour}])
            if reading.colour is not None
            else self.engine.materials.material(ctx, "MeshNormalMaterial", [])
        )
        mesh = self.engine.object3d(ctx, "Mesh", geometry=geometry, material=material)
        if reading.position is None:
            return mesh
        ctx.call(ctx.member(mesh.fields["position"], "set"), list(reading.position))
        turn = reading.rotation
        if isinstance(turn, Record) and turn.kind == "Quaternion":
            ctx.call(ctx.member(mesh.fields["quaternion"], "copy"), [turn])
        elif isinstance(turn, Record) and turn.kind == "Euler":
            ctx.call(ctx.member(mesh.fields["rotation"], "copy"), [turn])
        elif (angles := _vector(turn)) is not None:
            ctx.call(ctx.member(mesh.fields["rotation"], "set"), list(angles))
        parent = next(
            (
                v
                for v in [*call.args, *call.kwargs.values()]
                if isinstance(v, Record) and v.kind in ("Scene", "Group", "Object3D")
            ),
            None,
        )
        if parent is not None:
            ctx.call(ctx.member(parent, "add"), [mesh])
        else:
            self.stub_meshes.append(mesh)
        return mesh


__all__ = ["READERS", "HelperStubs"]
