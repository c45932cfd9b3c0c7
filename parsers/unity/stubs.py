"""Calls of Unity helpers whose body is missing (cut off, a stub, never written).

``CreateTorus(new Vector3(0, 0.2f, 0), 0.6f, 0.2f, Color.red)`` with no body to run is read
as the object it asks for (``parsers.helper_calls`` reads what the call carries): a GameObject
at the position, turned by a ``Quaternion`` or Euler degrees, scaled, coloured, whose mesh is the
unit shape of the class the call names. A helper that names a shape but no position
(``mf.mesh = BuildTorus(0.6f, 0.2f, 48, 16)`` cut off inside) gives a mesh of that shape, whose
object is placed by the code around it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from parsers.evaluator import CallContext, HelperCall, Part, Record, Value, is_number
from parsers.helper_calls import ValueReaders, Vec3, read_helper_call
from parsers.unity import structs
from spatialbabel.colors import color_from_text

if TYPE_CHECKING:
    from parsers.unity.engine import UnityEngine

#: Arguments that are scene objects: a helper handed one works on it and builds nothing.
_SCENE_KINDS = frozenset({"GameObject", "Transform", "MeshFilter", "Renderer"})


def _vector(value: Value) -> Vec3 | None:
    if isinstance(value, Record) and value.kind in ("Vector3", "Vector2"):
        parts = [value.fields.get(c, 0.0) for c in ("x", "y", "z")]
    elif isinstance(value, tuple) and len(value) == 3:
        parts = list(value)
    else:
        return None
    if all(is_number(p) for p in parts):
        return (float(parts[0]), float(parts[1]), float(parts[2]))
    return None


def _colour(value: Value) -> bool:
    if isinstance(value, Record):
        return value.kind in ("Color", "Color32")
    return isinstance(value, str) and color_from_text(value) is not None


READERS = ValueReaders(
    vector=_vector,
    rotation=lambda v: isinstance(v, Record) and v.kind == "Quaternion",
    colour=_colour,
    scene_object=lambda v: isinstance(v, Record) and v.kind in _SCENE_KINDS,
)


class HelperStubs(Part):
    """``Engine.object_count`` and ``Engine.helper_without_body`` for Unity."""

    engine: UnityEngine

    def object_count(self) -> int:
        """The objects that would be drawn: a helper cut off after ``new GameObject(...)`` but
        before its mesh made none."""
        return sum(
            1
            for record in self.engine.objects
            if record.native.renderer is not None
            and record.native.mesh_filter is not None
            and record.native.mesh_filter.native["mesh"] is not None
        )

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        reading = read_helper_call(call, READERS)
        if reading is None:
            return None
        unit = np.diag([*reading.unit_scale(), 1.0])
        ctx.warning("eval.helper_without_body", reading.message(call))
        if reading.position is None:
            return self.engine.meshes.new_mesh(
                ctx,
                call.name,
                placeholder=(
                    reading.class_name,
                    f"from {reading.shape_from}: {call.name}() {call.why}, so its mesh is the {reading.class_name} the call describes",
                    unit,
                ),
            )
        record = self.engine.game_objects.new_game_object(
            ctx.line, reading.name or reading.class_name, ctx=ctx
        )
        mesh = self.engine.meshes.new_mesh(
            ctx,
            call.name,
            placeholder=(
                reading.class_name,
                f"from {reading.shape_from} (a helper without a body)",
                unit,
            ),
        )
        state = record.native
        state.mesh_filter = self.engine.meshes.new_filter(record, mesh)
        state.renderer = self.engine.game_objects.new_renderer(record)
        transform = state.transform.native
        transform.position = np.asarray(reading.position, dtype=float)
        euler = _vector(reading.rotation)
        if euler is not None:
            transform.rotation = structs.euler_matrix(*euler)
        elif (turned := structs.rotation_of(reading.rotation)) is not None:
            transform.rotation = turned
        colour = reading.colour
        if isinstance(colour, str):
            rgb = color_from_text(colour)
            colour = structs.color(*rgb) if rgb is not None else None
        if isinstance(colour, Record):
            state.renderer.native["shared"] = self.engine.game_objects.material_record(colour)
        return record


__all__ = ["READERS", "HelperStubs"]
