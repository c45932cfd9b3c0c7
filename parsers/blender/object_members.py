"""The members of bpy's objects and meshes for the static evaluator: assigning ``location``,
``rotation_*``, ``scale``, ``dimensions``, ``parent``, ``matrix_world``, ``data`` and
``active_material``; ``select_set`` and ``copy``; material slots and ``data.materials``;
``Mesh.from_pydata``, ``copy`` and ``transform``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from parsers.blender import materials, rotations, vectors
from parsers.blender.shapes import MeshShape
from parsers.evaluator import (
    Args,
    CallContext,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)

if TYPE_CHECKING:
    from parsers.blender.engine import BlenderEngine

#: Object properties that place the object in Blender but that the reader does not follow.
_UNMODELLED_PLACEMENT = frozenset(
    {
        "delta_location",
        "delta_rotation_euler",
        "delta_rotation_quaternion",
        "delta_scale",
        "matrix_local",
    }
)


class ObjectMembers(Part):
    """The methods, getters and field hooks of objects, meshes and material slots."""

    engine: BlenderEngine

    # --- object members ----------------------------------------------------------------------------
    def object_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name in ("location", "scale"):
            current = record.fields[name]
            values = vectors.fixed(ctx, value, name, 3, list(current.native))
            if values is not None:
                current.native[:] = values
            return True
        if name in ("rotation_euler", "rotation_quaternion", "rotation_axis_angle", "color"):
            current = record.fields[name]
            size = len(current.native)
            if (
                name == "rotation_euler"
                and isinstance(value, Record)
                and value.kind in ("Matrix", "Quaternion")
            ):
                rotation = vectors.matrix_of(value)
                if rotation is not None:
                    current.native[:] = list(
                        rotations.matrix_to_blender_euler(
                            rotation[:3, :3], str(record.fields.get("rotation_mode", "XYZ"))
                        )
                    )
                return True
            values = vectors.fixed(ctx, value, name, size, list(current.native))
            if values is not None:
                current.native[:] = values
            return True
        if name == "rotation_mode":
            if isinstance(value, str) and value in (
                *rotations.EULER_MODES,
                "QUATERNION",
                "AXIS_ANGLE",
            ):
                rotation = self.engine.rotation_matrix(record)
                record.fields["rotation_mode"] = value
                self.engine.set_rotation(record, rotation)
            else:
                ctx.warning(
                    "blender.bad_value",
                    f"rotation_mode {value!r} is not one Blender knows; ignored",
                )
            return True
        if name == "dimensions":
            shape = self.engine.mesh_shape(record)
            values = vectors.fixed(ctx, value, "dimensions", 3, [0.0, 0.0, 0.0])
            if values is not None and shape is not None:
                extent = shape.extent
                scale = record.fields["scale"].native
                for i in range(3):
                    if extent[i] > 1e-12:
                        scale[i] = values[i] / extent[i]
            return True
        if name == "name":
            if isinstance(value, str):
                taken = self.engine.object_names() - {str(record.fields.get("name"))}
                record.fields["name"] = self.engine.unique(value, taken)
            return True
        if name == "parent":
            record.fields["parent"] = (
                value if isinstance(value, Record) and value.kind == "Object" else None
            )
            return True
        if name == "data":
            if value is None or (isinstance(value, Record) and value.kind in ("Mesh", "Inert")):
                record.fields["data"] = value
            else:
                ctx.warning(
                    "blender.bad_value", f"object data set to a {type_name(value)}; ignored"
                )
            return True
        if name == "matrix_parent_inverse":
            matrix = vectors.matrix_of(value)
            if matrix is not None and matrix.shape == (4, 4):
                record.native.parent_inverse = np.asarray(matrix, dtype=float)
            return True
        if name in ("matrix_world", "matrix_basis"):
            matrix = vectors.matrix_of(value)
            if matrix is None or matrix.shape != (4, 4):
                ctx.warning(
                    "blender.bad_value", f"{name} set to a value that is not a 4x4 matrix; ignored"
                )
            elif name == "matrix_world":
                self.engine.set_world(record, matrix)
            else:
                self.engine.set_basis(record, matrix)
            return True
        if name == "active_material":
            self.engine.set_slot(ctx, record, 0, value)
            return True
        if name == "select":
            # Blender 2.7x; 2.80 replaced it with select_set() (the property is gone).
            ctx.info(
                "blender.legacy_api",
                "obj.select = ... is Blender 2.7x's (2.80 made it obj.select_set()); read as select_set",
            )
            state = ctx.truthy(value)
            record.native.selected = state is not False
            return True
        if name in _UNMODELLED_PLACEMENT:
            # They move, turn or size the object in Blender: never a silent skip.
            ctx.warning(
                "blender.unmodelled_property",
                f"obj.{name} is not modelled; the object is read without it",
            )
            return True
        return False

    def scene_objects_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        """``scene.objects.active = obj``: Blender 2.7x's active object (2.80 moved it to
        ``view_layer.objects.active``)."""
        if name != "active":
            return False
        ctx.info(
            "blender.legacy_api",
            "scene.objects.active is Blender 2.7x's (2.80 moved it to view_layer.objects.active); read as that",
        )
        self.engine.active = value if isinstance(value, Record) and value.kind == "Object" else None
        return True

    def select_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        state = ctx.truthy(arg(args, 0, kwargs, "state"))
        record.native.selected = state is not False
        return None

    def object_copy(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        copy = self.engine.new_object(
            ctx, str(record.fields.get("name")), record.fields.get("data"), record.native.type
        )
        for name in (
            "location",
            "rotation_euler",
            "rotation_quaternion",
            "rotation_axis_angle",
            "scale",
            "color",
        ):
            copy.fields[name].native[:] = list(record.fields[name].native)
        copy.fields["rotation_mode"] = record.fields.get("rotation_mode", "XYZ")
        copy.fields["parent"] = record.fields.get("parent")
        copy.native.parent_inverse = record.native.parent_inverse.copy()
        return copy

    def dimensions(self, ctx: CallContext, record: Record) -> Value:
        shape = self.engine.mesh_shape(record)
        scale = record.fields["scale"].native
        if shape is None:
            return vectors.vector([0.0, 0.0, 0.0])
        return vectors.vector([float(e) * abs(s) for e, s in zip(shape.extent, scale, strict=True)])

    def active_material(self, ctx: CallContext, record: Record) -> Value:
        items = self.engine.object_materials(record)
        return items[0] if items else None

    def material_slots(self, ctx: CallContext, record: Record) -> Value:
        items = self.engine.object_materials(record) or []
        return [
            Record(
                "MaterialSlot",
                {"material": m, "name": m.fields.get("name") if isinstance(m, Record) else ""},
                native=(record, i),
            )
            for i, m in enumerate(items)
        ]

    def slot_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "material":
            owner, index = record.native
            self.engine.set_slot(ctx, owner, index, value)
            record.fields["material"] = value
            return True
        return False

    def materials_append(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        value = arg(args, 0)
        items = materials.collection_items(record)
        if items is not None:
            if value is None or (isinstance(value, Record) and value.kind == "Material"):
                items.append(value)
            else:
                ctx.warning(
                    "blender.bad_value", f"a {type_name(value)} is not a material; not appended"
                )
        return None

    def materials_clear(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        items = materials.collection_items(record)
        if items is not None:
            items.clear()
        return None

    def materials_pop(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        items = materials.collection_items(record)
        index = arg(args, 0, kwargs, "index")
        if items:
            return items.pop(int(index) if is_number(index) else -1)
        return None

    # --- meshes ------------------------------------------------------------------------------------
    def from_pydata(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        source = arg(args, 0, kwargs, "vertices")
        points = ctx.iterate(source) if not isinstance(source, Unknown) else None
        vertices: list[list[float]] = []
        for point in points or []:
            values = vectors.fixed(ctx, point, "vertex", 3, [0.0, 0.0, 0.0])
            if values is None:
                vertices = []
                break
            vertices.append(values)
        if not vertices:
            ctx.warning(
                "blender.unknown_mesh", "from_pydata with vertices that cannot be known statically"
            )
            record.native = MeshShape(None)
            return None
        v = np.asarray(vertices)
        record.native = MeshShape(
            None, np.eye(4), v.min(axis=0), v.max(axis=0), vertices, median=v.mean(axis=0)
        )
        return None

    def mesh_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name != "materials":
            if name in ("vertices", "polygons", "edges", "loops"):
                ctx.warning(
                    "blender.bad_value",
                    f"mesh.{name} cannot be assigned in Blender (use from_pydata or bmesh); ignored",
                )
                return True
            return False
        items = materials.collection_items(record.fields.get("materials"))
        given = ctx.iterate(value) if isinstance(value, list | tuple) else None
        valid = given is not None and all(
            v is None or (isinstance(v, Record) and v.kind == "Material") for v in given
        )
        if items is None or given is None or not valid:
            ctx.warning(
                "blender.bad_value",
                "mesh.materials set to something that is not a list of materials; ignored",
            )
            return True
        items[:] = given
        return True

    def mesh_copy(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        shape = record.native.copy() if isinstance(record.native, MeshShape) else MeshShape(None)
        copy = self.engine.new_mesh(str(record.fields.get("name")), shape)
        items = materials.collection_items(record.fields.get("materials")) or []
        copy.fields["materials"].native["items"].extend(items)
        return copy

    def mesh_transform(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        matrix = vectors.matrix_of(arg(args, 0, kwargs, "matrix"))
        if matrix is None or not isinstance(record.native, MeshShape):
            ctx.warning(
                "blender.bad_value",
                "mesh.transform with a matrix that cannot be known statically; ignored",
            )
            return None
        full = np.eye(4)
        n = min(matrix.shape[0], 4)
        full[:n, :n] = matrix[:n, :n]
        record.native.transform(full)
        return None
