"""``bpy.data`` for the static evaluator: its collections of objects, meshes, materials and
collections (``new``, ``remove``, ``get``, ``link``/``unlink``), and the view layer's active
object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parsers.blender import materials
from parsers.blender.shapes import MeshShape
from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
    type_name,
)

if TYPE_CHECKING:
    from parsers.blender.engine import BlenderEngine


class BlendDataMethods(Part):
    """The methods of ``bpy.data``'s collections."""

    engine: BlenderEngine

    # --- bpy.data ----------------------------------------------------------------------------------
    def by_name_method(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        found = self.engine.missing_member(ctx, record, str(arg(args, 0)))
        if isinstance(found, Unknown):
            default = arg(args, 1)
            return None if default is UNDEFINED else default
        return found

    def objects_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = arg(args, 0, kwargs, "name")
        data = arg(args, 1, kwargs, "object_data")
        object_type = (
            "MESH"
            if isinstance(data, Record) and data.kind == "Mesh"
            else "EMPTY"
            if data is None or data is UNDEFINED
            else "OTHER"
        )
        return self.engine.new_object(
            ctx,
            name if isinstance(name, str) else "Object",
            data if isinstance(data, Record) else None,
            object_type,
        )

    def objects_remove(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object":
            self.engine.remove_object(target)
        return None

    def meshes_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = arg(args, 0, kwargs, "name")
        return self.engine.new_mesh(
            name if isinstance(name, str) else "Mesh", MeshShape(None, vertices=[])
        )

    def meshes_remove(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        mesh = arg(args, 0)
        if isinstance(mesh, Record) and mesh in self.engine.meshes:
            self.engine.meshes.remove(mesh)
            for obj in self.engine.objects:
                if obj.fields.get("data") is mesh:
                    self.engine.remove_object(obj)
        return None

    def materials_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = arg(args, 0, kwargs, "name")
        taken = {str(m.fields.get("name")) for m in self.engine.materials_list}
        material = materials.new_material(
            self.engine.unique(name if isinstance(name, str) else "Material", taken)
        )
        self.engine.materials_list.append(material)
        return material

    def generic_remove(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        items = materials.collection_items(record)
        value = arg(args, 0)
        if items is not None and value in items:
            items.remove(value)
        return None

    def collections_new(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        name = arg(args, 0, kwargs, "name")
        collection = self.engine.new_collection(name if isinstance(name, str) else "Collection")
        self.engine.collections.append(collection)
        return collection

    def link_method(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object" and not target.native.removed:
            target.native.linked = True
        elif not isinstance(target, Unknown):
            ctx.warning(
                "blender.bad_value", f"link() of a {type_name(target)}, not an object; ignored"
            )
        return None

    def unlink_method(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object":
            target.native.linked = False
        return None

    def view_layer_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "active":
            self.engine.active = (
                value if isinstance(value, Record) and value.kind == "Object" else None
            )
            return True
        return False
