"""The bpy engine table: what ``bpy`` looks like to the static evaluator.

The model of Blender 5.0 covers what scene scripts do: ``bpy.ops.mesh.primitive_*_add`` (every
argument, see ``shapes``), the object operators that select, delete, duplicate, parent and
apply transforms, ``bpy.context`` (active and selected objects, scene, collection, view layer),
``bpy.data`` (objects, meshes with ``from_pydata``, materials, collections), objects with
``location``/``rotation_*``/``scale``/``dimensions``/``parent``/``matrix_world`` and materials
(``materials``). The scene starts factory-empty, as the parity harness runs it. Operators with
no effect on the objects (render, save, shading, lights, cameras) are accepted and ignored.

After the program, ``native_objects`` reads every mesh object linked into the scene.

``BlenderEngine`` holds the table of kinds, the ``bpy`` namespace, imports and the reading of
the scene. Its base, ``object_model``, holds the objects, meshes and their matrices; the parts
it holds (``Part``) are ``object_members``, ``bpy_data`` (``blend_data``) and ``bpy_ops``
(``operators``), whose method tables ``_register_kinds`` merges into the kinds; mathutils is in
``vectors``, materials and their node trees in ``materials``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parsers.blender import bmesh_model, materials, stubs, vectors
from parsers.blender.bpy_data import BlendDataMethods
from parsers.blender.bpy_ops import Operators
from parsers.blender.object_members import ObjectMembers
from parsers.blender.object_model import BlenderObjects
from parsers.blender.shapes import MeshShape
from parsers.build import MAX_OBJECTS, NativeObject
from parsers.custom_mesh import bounding_affine, shape_from_vertices
from parsers.evaluator import (
    Builtin,
    CallContext,
    EngineClass,
    HelperCall,
    Kind,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
)
from parsers.evaluator.python import numpy_lib
from parsers.evaluator.python.lib import resolve_python_import
from parsers.helper_calls import read_helper_call
from spatialbabel import class_from_words
from spatialbabel.palette import linear_to_srgb

_COLLECTION_KINDS = frozenset(
    {
        "BlendDataObjects",
        "BlendDataMeshes",
        "BlendDataMaterials",
        "BlendDataCollections",
        "BlendDataOther",
        "CollectionObjects",
        "CollectionChildren",
        "SceneObjects",
        "MeshMaterials",
        "Nodes",
        "NodeSockets",
        "Links",
        "ViewLayerObjects",
    }
)


class BlenderEngine(BlenderObjects):
    name = "blender"

    def __init__(self) -> None:
        super().__init__()
        self.object_members = ObjectMembers(self)
        self.blend_data = BlendDataMethods(self)
        self.operators = Operators(self)
        vectors.register(self)
        materials.register(self)
        bmesh_model.register(self)
        numpy_lib.register(self)
        self._register_kinds()
        self.scene_collection = self.new_collection("Scene Collection")
        self.scene = Record(
            "Scene",
            {
                "name": "Scene",
                "collection": self.scene_collection,
                "camera": None,
                "render": Record("Inert"),
                "world": Record("Inert"),
            },
        )
        self.scene.fields["cursor"] = self.cursor
        self.view_layer = Record("ViewLayer", {"name": "ViewLayer"})
        self.view_layer.fields["objects"] = Record(
            "ViewLayerObjects", native={"items": self.objects, "owner": None}
        )
        self.context = Record(
            "Context",
            {
                "scene": self.scene,
                "view_layer": self.view_layer,
                "collection": self.scene_collection,
            },
        )
        self.data = Record(
            "BlendData",
            {
                "objects": Record(
                    "BlendDataObjects", native={"items": self.objects, "owner": None}
                ),
                "meshes": Record("BlendDataMeshes", native={"items": self.meshes, "owner": None}),
                "materials": Record(
                    "BlendDataMaterials", native={"items": self.materials_list, "owner": None}
                ),
                "collections": Record(
                    "BlendDataCollections", native={"items": self.collections, "owner": None}
                ),
                "scenes": [self.scene],
                **{
                    name: Record("BlendDataOther", native={"items": [], "owner": None})
                    for name in (
                        "lights",
                        "cameras",
                        "images",
                        "textures",
                        "worlds",
                        "node_groups",
                        "curves",
                        "fonts",
                        "grease_pencils",
                    )
                },
            },
        )
        self.bpy = Namespace(
            "bpy",
            {
                "context": self.context,
                "data": self.data,
                "ops": self.operators.ops(),
                "types": Namespace("bpy.types", missing=lambda n: Record("Inert")),
                "app": Namespace(
                    "bpy.app",
                    {"version": (5, 0, 1), "version_string": "5.0.1"},
                    missing=lambda n: Record("Inert"),
                ),
                "props": Namespace(
                    "bpy.props", missing=lambda n: Builtin(f"bpy.props.{n}", lambda c, a, k: None)
                ),
                "utils": Namespace(
                    "bpy.utils", missing=lambda n: Builtin(f"bpy.utils.{n}", lambda c, a, k: None)
                ),
                "path": Namespace(
                    "bpy.path", missing=lambda n: Builtin(f"bpy.path.{n}", lambda c, a, k: "")
                ),
            },
        )
        self.mathutils = vectors.mathutils_module()

    # --- kinds --------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        self.add_kind(Kind("Inert", inert=True))
        self.add_kind(
            Kind(
                "Object",
                methods={
                    "select_set": self.object_members.select_set,
                    "select_get": lambda ctx, r, a, k: r.native.selected,
                    "copy": self.object_members.object_copy,
                    "hide_set": lambda ctx, r, a, k: None,
                    "evaluated_get": lambda ctx, r, a, k: r,
                },
                getters={
                    "matrix_world": lambda ctx, r: vectors.new_matrix(self.world_matrix(r)),
                    "matrix_basis": lambda ctx, r: vectors.new_matrix(self.basis_matrix(r)),
                    "matrix_parent_inverse": lambda ctx, r: vectors.new_matrix(
                        r.native.parent_inverse
                    ),
                    "dimensions": self.object_members.dimensions,
                    "select": lambda ctx, r: r.native.selected,
                    "active_material": self.object_members.active_material,
                    "material_slots": self.object_members.material_slots,
                    "children": lambda ctx, r: [
                        o
                        for o in self.objects
                        if o.fields.get("parent") is r and not o.native.removed
                    ],
                    "users_collection": lambda ctx, r: (
                        [self.scene_collection] if r.native.linked else []
                    ),
                },
                on_set=self.object_members.object_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Mesh",
                methods={
                    "from_pydata": self.object_members.from_pydata,
                    "copy": self.object_members.mesh_copy,
                    "transform": self.object_members.mesh_transform,
                    "update": lambda ctx, r, a, k: None,
                    "validate": lambda ctx, r, a, k: False,
                },
                on_set=self.object_members.mesh_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MeshMaterials",
                methods={
                    "append": self.object_members.materials_append,
                    "clear": self.object_members.materials_clear,
                    "pop": self.object_members.materials_pop,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("MaterialSlot", on_set=self.object_members.slot_set, inert=True))
        self.add_kind(
            Kind(
                "BlendDataObjects",
                methods={
                    "new": self.blend_data.objects_new,
                    "remove": self.blend_data.objects_remove,
                    "get": self.blend_data.by_name_method,
                    "link": self.blend_data.link_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataMeshes",
                methods={
                    "new": self.blend_data.meshes_new,
                    "remove": self.blend_data.meshes_remove,
                    "get": self.blend_data.by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataMaterials",
                methods={
                    "new": self.blend_data.materials_new,
                    "remove": self.blend_data.generic_remove,
                    "get": self.blend_data.by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataCollections",
                methods={
                    "new": self.blend_data.collections_new,
                    "remove": self.blend_data.generic_remove,
                    "get": self.blend_data.by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataOther",
                methods={
                    "new": lambda ctx, r, a, k: Record("Inert", {"name": arg(a, 0)}),
                    "remove": lambda ctx, r, a, k: None,
                    "get": self.blend_data.by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Collection", inert=True))
        self.add_kind(
            Kind(
                "CollectionObjects",
                methods={
                    "link": self.blend_data.link_method,
                    "unlink": self.blend_data.unlink_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "CollectionChildren",
                methods={"link": lambda ctx, r, a, k: None, "unlink": lambda ctx, r, a, k: None},
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "SceneObjects",
                methods={
                    "link": self.blend_data.link_method,
                    "unlink": self.blend_data.unlink_method,
                    "get": self.blend_data.by_name_method,
                },
                getters={"active": lambda ctx, r: self.active},
                on_set=self.object_members.scene_objects_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Scene",
                getters={
                    "objects": lambda ctx, r: Record(
                        "SceneObjects", native={"items": self.linked_objects(), "owner": None}
                    )
                },
                inert=True,
            )
        )
        self.add_kind(Kind("ViewLayer", methods={"update": lambda ctx, r, a, k: None}, inert=True))
        self.add_kind(
            Kind(
                "ViewLayerObjects",
                getters={"active": lambda ctx, r: self.active},
                on_set=self.blend_data.view_layer_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Context",
                getters={
                    "object": lambda ctx, r: self.active,
                    "active_object": lambda ctx, r: self.active,
                    "selected_objects": lambda ctx, r: [
                        o for o in self.linked_objects() if o.native.selected
                    ],
                    "selected_editable_objects": lambda ctx, r: [
                        o for o in self.linked_objects() if o.native.selected
                    ],
                    "visible_objects": lambda ctx, r: self.linked_objects(),
                },
                inert=True,
            )
        )

    # --- globals and imports --------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        return {"C": self.context, "D": self.data}

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        return resolve_python_import(
            ctx,
            module,
            name,
            packages={
                "bpy": lambda: self.bpy,
                "numpy": numpy_lib.numpy_module,
                "bmesh": bmesh_model.bmesh_module,
            },
            modules={"mathutils": lambda: self.mathutils},
            unknown_code="blender.unknown_module",
        )

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        if name in ("bpy", "mathutils"):
            ctx.warning(
                "blender.missing_import",
                f"{name} is used without being imported; read as if imported",
            )
            return self.bpy if name == "bpy" else self.mathutils
        return None

    def missing_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        items = materials.collection_items(record)
        if items is not None:
            for item in items:
                if (
                    isinstance(item, Record)
                    and item.fields.get("name") == name
                    and not (item.kind == "Object" and item.native.removed)
                ):
                    return item
            return Unknown(f"no item named {name!r}")
        return super().missing_member(ctx, record, name)

    # --- helpers without a body ----------------------------------------------------------------------
    def object_count(self) -> int:
        return sum(1 for obj in self.linked_objects() if obj.native.type == "MESH")

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        reading = read_helper_call(call, stubs.READERS)
        if reading is None or reading.position is None:
            return None
        ctx.warning("eval.helper_without_body", reading.message(call))
        name = reading.name or reading.class_name.capitalize()
        record = self.new_object(ctx, name, self.new_mesh(name, stubs.stub_shape(reading)))
        record.fields["location"].native[:] = list(reading.position)
        rotation = stubs.stub_rotation(reading)
        if isinstance(rotation, np.ndarray):
            self.set_rotation(record, rotation[:3, :3])
        elif rotation is not None:
            record.fields["rotation_euler"].native[:] = list(rotation)
        colour = stubs.stub_linear_colour(reading.colour)
        if colour is not None:
            record.fields["color"].native[:] = [*colour, 1.0]
        self.add_to_scene(record)
        return record

    # --- reading the scene ---------------------------------------------------------------------------
    def native_objects(self, ctx: CallContext) -> list[NativeObject]:
        """Every mesh object linked into the scene, in the order it was made."""
        found: list[NativeObject] = []
        for obj in self.linked_objects():
            if obj.native.type != "MESH":
                continue
            name = str(obj.fields.get("name"))
            data = obj.fields.get("data")
            shape = self.mesh_shape(obj)
            if shape is None:
                continue
            line = obj.native.line
            if shape.class_name == "ground":
                ctx.interp.reporter.add(
                    "info",
                    "blender.ground_plane",
                    f"{name}: {shape.operator} is the ground, not an object; left out",
                    line,
                    None,
                )
                continue
            class_name = shape.class_name
            unit_to_local = shape.unit_to_local
            reason = None
            if class_name is None:
                class_name, unit_to_local, reason = self._custom_class(name, data, shape)
            if obj.fields.get("hide_render") is True:
                ctx.interp.reporter.add(
                    "info", "blender.hidden", f"{name}: hidden from renders; left out", line, None
                )
                continue
            items = self.object_materials(obj) or []
            material = next(
                (m for m in items if isinstance(m, Record) and m.kind == "Material"), None
            )
            colour = materials.material_colour(material, obj.fields["color"].native)
            rgb = None
            if colour is not None:
                linear, _where = colour
                rgb = linear_to_srgb(linear)
            affine = self.world_matrix(obj) @ unit_to_local
            found.append(NativeObject(class_name, affine, rgb, name, line, class_reason=reason))
            if len(found) == MAX_OBJECTS:
                ctx.interp.reporter.add(
                    "warning",
                    "blender.too_many_objects",
                    f"more than {MAX_OBJECTS} objects; the rest are left out",
                    line,
                    None,
                )
                break
        return found

    def _custom_class(
        self, name: str, data: Value, shape: MeshShape
    ) -> tuple[str, np.ndarray[Any, Any], str | None]:
        if shape.vertices:
            recognised = shape_from_vertices(shape.vertices, up="z")
            if recognised is not None:
                return (
                    recognised.class_name,
                    recognised.unit_to_local,
                    f"from the vertices of the mesh the code builds ({recognised.how})",
                )
        words = [name]
        if isinstance(data, Record):
            words.append(str(data.fields.get("name", "")))
        guess = class_from_words(words)
        box = bounding_affine(shape.vertices, up="z") if shape.vertices else None
        if guess is not None:
            return (
                guess[0],
                box if box is not None else np.eye(4),
                f"from the name {guess[1]!r} of a mesh built from vertices",
            )
        return "unknown", box if box is not None else np.eye(4), None


def collection_length(record: Record) -> int | None:
    items = materials.collection_items(record)
    if items is None:
        return None
    return len(
        [
            i
            for i in items
            if not (isinstance(i, Record) and i.kind == "Object" and i.native.removed)
        ]
    )


def is_collection(record: Record) -> bool:
    return record.kind in _COLLECTION_KINDS


__all__ = ["BlenderEngine", "EngineClass", "collection_length", "is_collection"]
