"""The bpy engine table: what ``bpy`` looks like to the static evaluator.

The model of Blender 5.0 covers what scene scripts do: ``bpy.ops.mesh.primitive_*_add`` (every
argument, see ``shapes``), the object operators that select, delete, duplicate, parent and
apply transforms, ``bpy.context`` (active and selected objects, scene, collection, view layer),
``bpy.data`` (objects, meshes with ``from_pydata``, materials, collections), objects with
``location``/``rotation_*``/``scale``/``dimensions``/``parent``/``matrix_world`` and materials
(``materials``). The scene starts factory-empty, as the parity harness runs it. Operators with
no effect on the objects (render, save, shading, lights, cameras) are accepted and ignored.

After the program, ``native_objects`` reads every mesh object linked into the scene.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parsers.blender import materials, rotations, vectors
from parsers.blender.shapes import OPERATORS, MeshShape, primitive_shape, scaled
from parsers.build import MAX_OBJECTS, NativeObject
from parsers.custom_mesh import bounding_affine, primitive_from_vertices
from parsers.evaluator import (
    UNDEFINED,
    Builtin,
    CallContext,
    Engine,
    EngineClass,
    Kind,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    numpy_lib,
    type_name,
)
from parsers.evaluator.python_lib import python_module
from spatialbabel import class_from_words
from spatialbabel.palette import linear_to_srgb

Args = list[Value]
Kwargs = dict[str, Value]

#: Modifiers that change an object's shape; others (bevel, subdivision...) keep its bounds.
SHAPE_MODIFIERS = frozenset(
    {
        "ARRAY",
        "MIRROR",
        "SOLIDIFY",
        "SCREW",
        "DISPLACE",
        "SIMPLE_DEFORM",
        "CURVE",
        "LATTICE",
        "BOOLEAN",
        "SKIN",
        "WELD",
        "BUILD",
        "DECIMATE",
    }
)
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


def _arg(args: Args, i: int, kwargs: Kwargs | None = None, name: str | None = None) -> Value:
    if i < len(args):
        return args[i]
    if kwargs is not None and name is not None and name in kwargs:
        return kwargs[name]
    return UNDEFINED


@dataclass
class ObjectState:
    """Engine-private facts about an object record."""

    line: int
    type: str = "MESH"
    linked: bool = False
    removed: bool = False
    selected: bool = False
    parent_inverse: np.ndarray[Any, Any] = field(default_factory=lambda: np.eye(4))


class BlenderEngine(Engine):
    name = "blender"

    def __init__(self) -> None:
        super().__init__()
        self.objects: list[Record] = []
        self.meshes: list[Record] = []
        self.materials_list: list[Record] = []
        self.collections: list[Record] = []
        self.active: Record | None = None
        vectors.register(self)
        materials.register(self)
        numpy_lib.register(self)
        self._register_kinds()
        self.scene_collection = self._new_collection("Scene Collection")
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
                "ops": self._ops(),
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
                    "select_set": self._select_set,
                    "select_get": lambda ctx, r, a, k: r.native.selected,
                    "copy": self._object_copy,
                    "hide_set": lambda ctx, r, a, k: None,
                    "evaluated_get": lambda ctx, r, a, k: r,
                },
                getters={
                    "matrix_world": lambda ctx, r: vectors.new_matrix(self.world_matrix(r)),
                    "matrix_basis": lambda ctx, r: vectors.new_matrix(self.basis_matrix(r)),
                    "matrix_parent_inverse": lambda ctx, r: vectors.new_matrix(
                        r.native.parent_inverse
                    ),
                    "dimensions": self._dimensions,
                    "active_material": self._active_material,
                    "material_slots": self._material_slots,
                    "children": lambda ctx, r: [
                        o
                        for o in self.objects
                        if o.fields.get("parent") is r and not o.native.removed
                    ],
                    "users_collection": lambda ctx, r: (
                        [self.scene_collection] if r.native.linked else []
                    ),
                },
                on_set=self._object_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Mesh",
                methods={
                    "from_pydata": self._from_pydata,
                    "copy": self._mesh_copy,
                    "transform": self._mesh_transform,
                    "update": lambda ctx, r, a, k: None,
                    "validate": lambda ctx, r, a, k: False,
                },
                on_set=self._mesh_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MeshMaterials",
                methods={
                    "append": self._materials_append,
                    "clear": self._materials_clear,
                    "pop": self._materials_pop,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("MaterialSlot", on_set=self._slot_set, inert=True))
        self.add_kind(
            Kind(
                "BlendDataObjects",
                methods={
                    "new": self._objects_new,
                    "remove": self._objects_remove,
                    "get": self._by_name_method,
                    "link": self._link_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataMeshes",
                methods={
                    "new": self._meshes_new,
                    "remove": self._meshes_remove,
                    "get": self._by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataMaterials",
                methods={
                    "new": self._materials_new,
                    "remove": self._generic_remove,
                    "get": self._by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataCollections",
                methods={
                    "new": self._collections_new,
                    "remove": self._generic_remove,
                    "get": self._by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "BlendDataOther",
                methods={
                    "new": lambda ctx, r, a, k: Record("Inert", {"name": _arg(a, 0)}),
                    "remove": lambda ctx, r, a, k: None,
                    "get": self._by_name_method,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Collection", inert=True))
        self.add_kind(
            Kind(
                "CollectionObjects",
                methods={"link": self._link_method, "unlink": self._unlink_method},
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
                    "link": self._link_method,
                    "unlink": self._unlink_method,
                    "get": self._by_name_method,
                },
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
                on_set=self._view_layer_set,
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
        found: Value
        if module == "bpy" or module.startswith("bpy."):
            found = self.bpy
            for part in module.split(".")[1:]:
                found = ctx.member(found, part)
        elif module == "mathutils":
            found = self.mathutils
        elif module == "numpy" or module.startswith("numpy."):
            found = numpy_lib.numpy_module()
            for part in module.split(".")[1:]:
                found = ctx.member(found, part)
        else:
            standard = python_module(ctx, module)
            if standard is None:
                ctx.info(
                    "blender.unknown_module",
                    f"module {module!r} is not modelled; what it gives is unknown",
                )
                return Unknown(f"module {module!r} is not known")
            found = standard
        return found if name is None else ctx.member(found, name)

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

    # --- object model ----------------------------------------------------------------------------
    def linked_objects(self) -> list[Record]:
        return [o for o in self.objects if o.native.linked and not o.native.removed]

    def _unique(self, base: str, taken: set[str]) -> str:
        if base not in taken:
            return base
        count = 1
        while f"{base}.{count:03d}" in taken:
            count += 1
        return f"{base}.{count:03d}"

    def _object_names(self) -> set[str]:
        return {str(o.fields.get("name")) for o in self.objects if not o.native.removed}

    def new_mesh(self, name: str, shape: MeshShape) -> Record:
        taken = {str(m.fields.get("name")) for m in self.meshes}
        mesh = Record("Mesh", {"name": self._unique(name, taken)}, native=shape)
        mesh.fields["materials"] = Record("MeshMaterials", native={"items": [], "owner": mesh})
        self.meshes.append(mesh)
        return mesh

    def new_object(
        self, ctx: CallContext, name: str, data: Value, object_type: str = "MESH"
    ) -> Record:
        record = Record(
            "Object",
            {"name": self._unique(name, self._object_names())},
            native=ObjectState(ctx.line, object_type),
        )
        record.fields.update(
            {
                "type": object_type,
                "data": data,
                "parent": None,
                "location": vectors.vector([0.0, 0.0, 0.0]),
                "rotation_euler": vectors.new_sequence("Euler", [0.0, 0.0, 0.0]),
                "rotation_quaternion": vectors.new_sequence("Quaternion", [1.0, 0.0, 0.0, 0.0]),
                "rotation_axis_angle": vectors.new_sequence("Array", [0.0, 0.0, 1.0, 0.0]),
                "rotation_mode": "XYZ",
                "scale": vectors.vector([1.0, 1.0, 1.0]),
                "color": vectors.new_sequence("Array", [1.0, 1.0, 1.0, 1.0]),
                "hide_render": False,
                "hide_viewport": False,
            }
        )
        self.objects.append(record)
        return record

    def _add_to_scene(self, record: Record) -> None:
        record.native.linked = True
        for other in self.objects:
            other.native.selected = False
        record.native.selected = True
        self.active = record

    def rotation_matrix(self, record: Record) -> np.ndarray[Any, Any]:
        mode = record.fields.get("rotation_mode", "XYZ")
        if mode == "QUATERNION":
            return rotations.quaternion_matrix(record.fields["rotation_quaternion"].native)
        if mode == "AXIS_ANGLE":
            return rotations.axis_angle_matrix(record.fields["rotation_axis_angle"].native)
        return rotations.euler_matrix(record.fields["rotation_euler"].native, str(mode))

    def basis_matrix(self, record: Record) -> np.ndarray[Any, Any]:
        return rotations.trs(
            record.fields["location"].native,
            self.rotation_matrix(record),
            record.fields["scale"].native,
        )

    def world_matrix(self, record: Record, depth: int = 0) -> np.ndarray[Any, Any]:
        parent = record.fields.get("parent")
        basis = self.basis_matrix(record)
        if isinstance(parent, Record) and parent.kind == "Object" and depth < 64:
            return self.world_matrix(parent, depth + 1) @ record.native.parent_inverse @ basis
        return basis

    def set_rotation(self, record: Record, rotation: np.ndarray[Any, Any]) -> None:
        mode = str(record.fields.get("rotation_mode", "XYZ"))
        if mode == "QUATERNION":
            record.fields["rotation_quaternion"].native[:] = list(
                rotations.matrix_to_quaternion_wxyz(rotation)
            )
        elif mode == "AXIS_ANGLE":
            w, x, y, z = rotations.matrix_to_quaternion_wxyz(rotation)
            angle = 2 * float(np.arccos(max(-1.0, min(1.0, w))))
            s = float(np.sqrt(max(0.0, 1 - w * w)))
            record.fields["rotation_axis_angle"].native[:] = (
                [angle, x / s, y / s, z / s] if s > 1e-12 else [0.0, 0.0, 0.0, 1.0]
            )
        else:
            record.fields["rotation_euler"].native[:] = list(
                rotations.matrix_to_blender_euler(rotation, mode)
            )

    def set_basis(self, record: Record, basis: np.ndarray[Any, Any]) -> None:
        location, rotation, scale = rotations.decompose_trs(basis)
        record.fields["location"].native[:] = location
        record.fields["scale"].native[:] = scale
        self.set_rotation(record, rotation)

    def set_world(self, record: Record, world: np.ndarray[Any, Any]) -> None:
        parent = record.fields.get("parent")
        if isinstance(parent, Record) and parent.kind == "Object":
            world = np.linalg.inv(self.world_matrix(parent) @ record.native.parent_inverse) @ world
        self.set_basis(record, world)

    def mesh_shape(self, record: Record) -> MeshShape | None:
        data = record.fields.get("data")
        if isinstance(data, Record) and data.kind == "Mesh" and isinstance(data.native, MeshShape):
            return data.native
        return None

    # --- object members ----------------------------------------------------------------------------
    def _object_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
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
                rotation = self.rotation_matrix(record)
                record.fields["rotation_mode"] = value
                self.set_rotation(record, rotation)
            else:
                ctx.warning(
                    "blender.bad_value",
                    f"rotation_mode {value!r} is not one Blender knows; ignored",
                )
            return True
        if name == "dimensions":
            shape = self.mesh_shape(record)
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
                taken = self._object_names() - {str(record.fields.get("name"))}
                record.fields["name"] = self._unique(value, taken)
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
                self.set_world(record, matrix)
            else:
                self.set_basis(record, matrix)
            return True
        if name == "active_material":
            self._set_slot(ctx, record, 0, value)
            return True
        return False

    def _select_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        state = ctx.truthy(_arg(args, 0, kwargs, "state"))
        record.native.selected = state is not False
        return None

    def _object_copy(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        copy = self.new_object(
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

    def _dimensions(self, ctx: CallContext, record: Record) -> Value:
        shape = self.mesh_shape(record)
        scale = record.fields["scale"].native
        if shape is None:
            return vectors.vector([0.0, 0.0, 0.0])
        return vectors.vector([float(e) * abs(s) for e, s in zip(shape.extent, scale, strict=True)])

    def _object_materials(self, record: Record) -> list[Record] | None:
        data = record.fields.get("data")
        if isinstance(data, Record) and data.kind == "Mesh":
            return materials.collection_items(data.fields.get("materials"))
        return None

    def _active_material(self, ctx: CallContext, record: Record) -> Value:
        items = self._object_materials(record)
        return items[0] if items else None

    def _set_slot(self, ctx: CallContext, record: Record, index: int, value: Value) -> None:
        items = self._object_materials(record)
        if items is None:
            ctx.info(
                "blender.no_mesh", f"{record.fields.get('name')} has no mesh to take a material"
            )
            return
        if not (value is None or (isinstance(value, Record) and value.kind == "Material")):
            ctx.warning("blender.bad_value", f"a {type_name(value)} is not a material; ignored")
            return
        while len(items) <= index:
            items.append(None)  # type: ignore[arg-type]
        items[index] = value  # type: ignore[assignment]

    def _material_slots(self, ctx: CallContext, record: Record) -> Value:
        items = self._object_materials(record) or []
        return [
            Record(
                "MaterialSlot",
                {"material": m, "name": m.fields.get("name") if isinstance(m, Record) else ""},
                native=(record, i),
            )
            for i, m in enumerate(items)
        ]

    def _slot_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "material":
            owner, index = record.native
            self._set_slot(ctx, owner, index, value)
            record.fields["material"] = value
            return True
        return False

    def _materials_append(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        value = _arg(args, 0)
        items = materials.collection_items(record)
        if items is not None:
            if value is None or (isinstance(value, Record) and value.kind == "Material"):
                items.append(value)
            else:
                ctx.warning(
                    "blender.bad_value", f"a {type_name(value)} is not a material; not appended"
                )
        return None

    def _materials_clear(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        items = materials.collection_items(record)
        if items is not None:
            items.clear()
        return None

    def _materials_pop(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        items = materials.collection_items(record)
        index = _arg(args, 0, kwargs, "index")
        if items:
            return items.pop(int(index) if is_number(index) else -1)
        return None

    # --- meshes ------------------------------------------------------------------------------------
    def _from_pydata(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        source = _arg(args, 0, kwargs, "vertices")
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
        record.native = MeshShape(None, np.eye(4), v.min(axis=0), v.max(axis=0), vertices)
        return None

    def _mesh_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name != "materials":
            return name in ("vertices", "polygons", "edges", "loops")
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

    def _mesh_copy(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        shape = record.native.copy() if isinstance(record.native, MeshShape) else MeshShape(None)
        copy = self.new_mesh(str(record.fields.get("name")), shape)
        items = materials.collection_items(record.fields.get("materials")) or []
        copy.fields["materials"].native["items"].extend(items)
        return copy

    def _mesh_transform(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        matrix = vectors.matrix_of(_arg(args, 0, kwargs, "matrix"))
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

    # --- bpy.data ----------------------------------------------------------------------------------
    def _by_name_method(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        found = self.missing_member(ctx, record, str(_arg(args, 0)))
        if isinstance(found, Unknown):
            default = _arg(args, 1)
            return None if default is UNDEFINED else default
        return found

    def _objects_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = _arg(args, 0, kwargs, "name")
        data = _arg(args, 1, kwargs, "object_data")
        object_type = (
            "MESH"
            if isinstance(data, Record) and data.kind == "Mesh"
            else "EMPTY"
            if data is None or data is UNDEFINED
            else "OTHER"
        )
        return self.new_object(
            ctx,
            name if isinstance(name, str) else "Object",
            data if isinstance(data, Record) else None,
            object_type,
        )

    def _remove_object(self, record: Record) -> None:
        record.native.removed = True
        record.native.linked = False
        if self.active is record:
            self.active = None

    def _objects_remove(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        target = _arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object":
            self._remove_object(target)
        return None

    def _meshes_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = _arg(args, 0, kwargs, "name")
        return self.new_mesh(
            name if isinstance(name, str) else "Mesh", MeshShape(None, vertices=[])
        )

    def _meshes_remove(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        mesh = _arg(args, 0)
        if isinstance(mesh, Record) and mesh in self.meshes:
            self.meshes.remove(mesh)
            for obj in self.objects:
                if obj.fields.get("data") is mesh:
                    self._remove_object(obj)
        return None

    def _materials_new(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = _arg(args, 0, kwargs, "name")
        taken = {str(m.fields.get("name")) for m in self.materials_list}
        material = materials.new_material(
            self._unique(name if isinstance(name, str) else "Material", taken)
        )
        self.materials_list.append(material)
        return material

    def _generic_remove(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        items = materials.collection_items(record)
        value = _arg(args, 0)
        if items is not None and value in items:
            items.remove(value)
        return None

    def _new_collection(self, name: str) -> Record:
        collection = Record("Collection", {"name": name})
        collection.fields["objects"] = Record(
            "CollectionObjects", native={"items": [], "owner": collection}
        )
        collection.fields["children"] = Record(
            "CollectionChildren", native={"items": [], "owner": collection}
        )
        return collection

    def _collections_new(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        name = _arg(args, 0, kwargs, "name")
        collection = self._new_collection(name if isinstance(name, str) else "Collection")
        self.collections.append(collection)
        return collection

    def _link_method(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = _arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object" and not target.native.removed:
            target.native.linked = True
        elif not isinstance(target, Unknown):
            ctx.warning(
                "blender.bad_value", f"link() of a {type_name(target)}, not an object; ignored"
            )
        return None

    def _unlink_method(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = _arg(args, 0, kwargs, "object")
        if isinstance(target, Record) and target.kind == "Object":
            target.native.linked = False
        return None

    def _view_layer_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "active":
            self.active = value if isinstance(value, Record) and value.kind == "Object" else None
            return True
        return False

    # --- bpy.ops -------------------------------------------------------------------------------------
    def _ops(self) -> Namespace:
        def group(
            name: str, members: dict[str, Callable[[CallContext, Args, Kwargs], Value]]
        ) -> Namespace:
            table = {op: Builtin(f"bpy.ops.{name}.{op}", fn) for op, fn in members.items()}
            return Namespace(
                f"bpy.ops.{name}",
                table,
                missing=lambda op: Builtin(
                    f"bpy.ops.{name}.{op}", self._ignored(f"bpy.ops.{name}.{op}")
                ),
            )

        mesh_ops: dict[str, Callable[[CallContext, Args, Kwargs], Value]] = {
            op: self._primitive(op) for op in OPERATORS
        }
        object_ops: dict[str, Callable[[CallContext, Args, Kwargs], Value]] = {
            "select_all": self._op_select_all,
            "select_by_type": self._op_select_by_type,
            "delete": self._op_delete,
            "duplicate": self._op_duplicate,
            "duplicate_move": self._op_duplicate,
            "transform_apply": self._op_transform_apply,
            "parent_set": self._op_parent_set,
            "parent_clear": self._op_parent_clear,
            "empty_add": self._op_non_mesh("EMPTY", "Empty"),
            "light_add": self._op_non_mesh("LIGHT", "Light"),
            "camera_add": self._op_non_mesh("CAMERA", "Camera"),
            "text_add": self._op_non_mesh("FONT", "Text"),
            "modifier_add": self._op_modifier_add,
            "origin_set": self._op_origin_set,
            "join": self._op_join,
        }
        for inert in (
            "shade_smooth",
            "shade_flat",
            "shade_auto_smooth",
            "mode_set",
            "material_slot_add",
            "editmode_toggle",
            "convert",
        ):
            object_ops[inert] = self._ignored(f"bpy.ops.object.{inert}", silent=True)
        transform_ops: dict[str, Callable[[CallContext, Args, Kwargs], Value]] = {
            "translate": self._op_translate,
            "resize": self._op_resize,
            "rotate": self._op_rotate,
        }
        wm_ops: dict[str, Callable[[CallContext, Args, Kwargs], Value]] = {
            "read_factory_settings": self._op_read_factory,
            "read_homefile": self._op_read_factory,
        }
        for inert in ("save_as_mainfile", "save_mainfile", "quit_blender", "open_mainfile"):
            wm_ops[inert] = self._ignored(f"bpy.ops.wm.{inert}", silent=True)
        render_ops = {"render": self._ignored("bpy.ops.render.render", silent=True)}
        return Namespace(
            "bpy.ops",
            {
                "mesh": group("mesh", mesh_ops),
                "object": group("object", object_ops),
                "transform": group("transform", transform_ops),
                "wm": group("wm", wm_ops),
                "render": group("render", render_ops),
            },
            missing=lambda name: group(name, {}),
        )

    def _ignored(
        self, name: str, *, silent: bool = False
    ) -> Callable[[CallContext, Args, Kwargs], Value]:
        def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            if not silent:
                ctx.info(
                    "blender.ignored_operator", f"{name} does not change the objects read; ignored"
                )
            return ["FINISHED"]

        return call

    def _primitive(self, operator: str) -> Callable[[CallContext, Args, Kwargs], Value]:
        def add(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            if args:
                ctx.warning(
                    "blender.positional_arguments",
                    f"{operator} takes keyword arguments only; positional ones ignored",
                )
            shape = primitive_shape(ctx, operator, kwargs)
            scale = (
                vectors.fixed(ctx, kwargs.get("scale", UNDEFINED), "scale", 3, [1.0, 1.0, 1.0])
                if "scale" in kwargs
                else [1.0, 1.0, 1.0]
            )
            scaled(shape, scale or [1.0, 1.0, 1.0])
            align = kwargs.get("align", "WORLD")
            if align not in ("WORLD", UNDEFINED):
                ctx.info("blender.align", f"align={align!r} depends on the view; read as 'WORLD'")
            base = OPERATORS[operator][1]
            mesh = self.new_mesh(base, shape)
            record = self.new_object(ctx, base, mesh)
            if "location" in kwargs:
                location = vectors.fixed(ctx, kwargs["location"], "location", 3, [0.0, 0.0, 0.0])
                record.fields["location"].native[:] = location or [0.0, 0.0, 0.0]
            if "rotation" in kwargs:
                rotation = vectors.fixed(ctx, kwargs["rotation"], "rotation", 3, [0.0, 0.0, 0.0])
                record.fields["rotation_euler"].native[:] = rotation or [0.0, 0.0, 0.0]
            self._add_to_scene(record)
            return ["FINISHED"]

        return add

    def _op_non_mesh(
        self, object_type: str, name: str
    ) -> Callable[[CallContext, Args, Kwargs], Value]:
        def add(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            record = self.new_object(ctx, name, Record("Inert", {"name": name}), object_type)
            location = (
                vectors.fixed(
                    ctx, kwargs.get("location", UNDEFINED), "location", 3, [0.0, 0.0, 0.0]
                )
                if "location" in kwargs
                else None
            )
            if location is not None:
                record.fields["location"].native[:] = location
            self._add_to_scene(record)
            return ["FINISHED"]

        return add

    def selected(self) -> list[Record]:
        return [o for o in self.linked_objects() if o.native.selected]

    def _op_select_all(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        action = kwargs.get("action", "TOGGLE")
        objects = self.linked_objects()
        if action == "TOGGLE":
            action = "DESELECT" if any(o.native.selected for o in objects) else "SELECT"
        for obj in objects:
            obj.native.selected = action == "SELECT" or (
                action == "INVERT" and not obj.native.selected
            )
        return ["FINISHED"]

    def _op_select_by_type(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        wanted = kwargs.get("type", "MESH")
        extend = ctx.truthy(kwargs.get("extend", False))
        for obj in self.linked_objects():
            if obj.native.type == wanted:
                obj.native.selected = True
            elif not extend:
                obj.native.selected = False
        return ["FINISHED"]

    def _op_delete(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        for obj in self.selected():
            self._remove_object(obj)
        return ["FINISHED"]

    def _op_duplicate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        linked = ctx.truthy(kwargs.get("linked", False)) is True
        move = kwargs.get("TRANSFORM_OT_translate")
        offset = None
        if isinstance(move, dict) and "value" in move:
            offset = vectors.fixed(ctx, move["value"], "duplicate_move value", 3, [0.0, 0.0, 0.0])
        copies = []
        for obj in self.selected():
            copy = self._object_copy(ctx, obj, [], {})
            assert isinstance(copy, Record)
            data = obj.fields.get("data")
            if not linked and isinstance(data, Record) and data.kind == "Mesh":
                copy.fields["data"] = self._mesh_copy(ctx, data, [], {})
            copy.native.linked = True
            if offset is not None:
                location = copy.fields["location"].native
                location[:] = [a + b for a, b in zip(location, offset, strict=True)]
            copies.append(copy)
        for obj in self.linked_objects():
            obj.native.selected = obj in copies
        if copies:
            self.active = copies[-1]
        return ["FINISHED"]

    def _op_transform_apply(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        flags = {
            name: ctx.truthy(kwargs.get(name, True)) is not False
            for name in ("location", "rotation", "scale")
        }
        for obj in self.selected():
            shape = self.mesh_shape(obj)
            basis = self.basis_matrix(obj)
            if flags["location"]:
                obj.fields["location"].native[:] = [0.0, 0.0, 0.0]
            if flags["rotation"]:
                self.set_rotation(obj, np.eye(3))
            if flags["scale"]:
                obj.fields["scale"].native[:] = [1.0, 1.0, 1.0]
            if shape is not None:
                # The world shape stays put: the mesh takes what the object's transform lost.
                shape.transform(np.linalg.inv(self.basis_matrix(obj)) @ basis)
        return ["FINISHED"]

    def _op_parent_set(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        parent = self.active
        if parent is None:
            ctx.warning("blender.no_active", "parent_set with no active object; ignored")
            return ["CANCELLED"]
        inverse = np.linalg.inv(self.world_matrix(parent))
        for obj in self.selected():
            if obj is parent:
                continue
            world = self.world_matrix(obj)
            obj.fields["parent"] = parent
            obj.native.parent_inverse = inverse.copy()
            if ctx.truthy(kwargs.get("keep_transform", False)):
                self.set_world(obj, world)
        return ["FINISHED"]

    def _op_parent_clear(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        keep = kwargs.get("type", "CLEAR") == "CLEAR_KEEP_TRANSFORM"
        for obj in self.selected():
            world = self.world_matrix(obj)
            obj.fields["parent"] = None
            obj.native.parent_inverse = np.eye(4)
            if keep:
                self.set_basis(obj, world)
        return ["FINISHED"]

    def _op_modifier_add(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        kind = kwargs.get("type")
        if kind in SHAPE_MODIFIERS:
            ctx.warning(
                "blender.shape_modifier",
                f"a {kind} modifier changes the object's shape; its bounds are read without it",
            )
        return ["FINISHED"]

    def _op_origin_set(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        ctx.warning(
            "blender.origin_set",
            "origin_set moves the object's origin relative to its mesh; not modelled, the object is read as if its origin were unchanged",
        )
        return ["FINISHED"]

    def _op_join(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        ctx.warning(
            "blender.join", "join merges meshes into one object; the objects are read separately"
        )
        return ["FINISHED"]

    def _transform_targets(self) -> list[Record]:
        return self.selected()

    def _op_translate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        offset = vectors.fixed(
            ctx, kwargs.get("value", UNDEFINED), "translate value", 3, [0.0, 0.0, 0.0]
        )
        if offset is not None:
            for obj in self._transform_targets():
                location = obj.fields["location"].native
                location[:] = [a + b for a, b in zip(location, offset, strict=True)]
        return ["FINISHED"]

    def _op_resize(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        factors = vectors.fixed(
            ctx, kwargs.get("value", UNDEFINED), "resize value", 3, [1.0, 1.0, 1.0]
        )
        targets = self._transform_targets()
        if factors is None or not targets:
            return ["FINISHED"]
        pivot = np.mean([obj.fields["location"].native for obj in targets], axis=0)
        for obj in targets:
            scale = obj.fields["scale"].native
            scale[:] = [a * b for a, b in zip(scale, factors, strict=True)]
            location = obj.fields["location"].native
            location[:] = [
                float(p + (c - p) * f) for c, p, f in zip(location, pivot, factors, strict=True)
            ]
        return ["FINISHED"]

    def _op_rotate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        ctx.warning(
            "blender.transform_rotate",
            "bpy.ops.transform.rotate depends on the view's orientation settings; not modelled, the rotation is ignored",
        )
        return ["FINISHED"]

    def _op_read_factory(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        for obj in self.objects:
            self._remove_object(obj)
        self.meshes.clear()
        self.materials_list.clear()
        if ctx.truthy(kwargs.get("use_empty", False)) is not True:
            # Blender's startup file: a 2 m cube with a default material, a light and a camera.
            cube_op = self._primitive("primitive_cube_add")
            cube_op(ctx, [], {})
            cube = self.active
            material = materials.new_material("Material")
            self.materials_list.append(material)
            if cube is not None:
                self._set_slot(ctx, cube, 0, material)
            self._op_non_mesh("LIGHT", "Light")(ctx, [], {"location": [4.08, 1.0, 5.9]})
            self._op_non_mesh("CAMERA", "Camera")(ctx, [], {"location": [7.36, -6.93, 4.96]})
            for obj in self.linked_objects():
                obj.native.selected = False
            self.active = cube
        return ["FINISHED"]

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
            items = self._object_materials(obj) or []
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
            recognised = primitive_from_vertices(shape.vertices, up="z")
            if recognised is not None:
                return recognised[0], recognised[1], None
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
