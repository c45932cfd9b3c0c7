"""The base of the bpy engine table: the objects, meshes, materials and collections a
script has made, and what every part of the table does with them: naming (``Cube.001``),
making objects and meshes, linking them into the scene, their rotation, basis and world
matrices (kept as Blender keeps them, with parents), their material slots and selection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parsers.blender import materials, rotations, vectors
from parsers.blender.shapes import MeshShape
from parsers.build import MAX_OBJECTS
from parsers.evaluator import BudgetExceeded, CallContext, Engine, Record, Value, type_name

#: Objects a script may make before its run is stopped: twice what a scene may hold. Naming
#: and selecting cost a pass over the objects made so far, as in Blender, so a runaway loop is
#: stopped by this count rather than by the clock.
MAX_CREATED = 2 * MAX_OBJECTS


@dataclass
class ObjectState:
    """Engine-private facts about an object record."""

    line: int
    type: str = "MESH"
    linked: bool = False
    removed: bool = False
    selected: bool = False
    parent_inverse: np.ndarray[Any, Any] = field(default_factory=lambda: np.eye(4))


class BlenderObjects(Engine):
    """The engine's state and the object model every part uses."""

    def __init__(self) -> None:
        super().__init__()
        self.objects: list[Record] = []
        self.meshes: list[Record] = []
        self.materials_list: list[Record] = []
        self.collections: list[Record] = []
        self.active: Record | None = None
        #: The 3D cursor (``origin_set(type='ORIGIN_CURSOR')`` reads it).
        self.cursor = Record("Inert", {"location": vectors.vector([0.0, 0.0, 0.0])})

    # --- object model ----------------------------------------------------------------------------
    def linked_objects(self) -> list[Record]:
        return [o for o in self.objects if o.native.linked and not o.native.removed]

    def unique(self, base: str, taken: set[str]) -> str:
        if base not in taken:
            return base
        count = 1
        while f"{base}.{count:03d}" in taken:
            count += 1
        return f"{base}.{count:03d}"

    def object_names(self) -> set[str]:
        return {str(o.fields.get("name")) for o in self.objects if not o.native.removed}

    def new_mesh(self, name: str, shape: MeshShape) -> Record:
        taken = {str(m.fields.get("name")) for m in self.meshes}
        mesh = Record("Mesh", {"name": self.unique(name, taken)}, native=shape)
        mesh.fields["materials"] = Record("MeshMaterials", native={"items": [], "owner": mesh})
        self.meshes.append(mesh)
        return mesh

    def new_object(
        self, ctx: CallContext, name: str, data: Value, object_type: str = "MESH"
    ) -> Record:
        if len(self.objects) >= MAX_CREATED:
            raise BudgetExceeded(f"more than {MAX_CREATED} objects made")
        record = Record(
            "Object",
            {"name": self.unique(name, self.object_names())},
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

    def add_to_scene(self, record: Record) -> None:
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

    def object_materials(self, record: Record) -> list[Record] | None:
        data = record.fields.get("data")
        if isinstance(data, Record) and data.kind == "Mesh":
            return materials.collection_items(data.fields.get("materials"))
        return None

    def set_slot(self, ctx: CallContext, record: Record, index: int, value: Value) -> None:
        items = self.object_materials(record)
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

    def remove_object(self, record: Record) -> None:
        record.native.removed = True
        record.native.linked = False
        if self.active is record:
            self.active = None

    def new_collection(self, name: str) -> Record:
        collection = Record("Collection", {"name": name})
        collection.fields["objects"] = Record(
            "CollectionObjects", native={"items": [], "owner": collection}
        )
        collection.fields["children"] = Record(
            "CollectionChildren", native={"items": [], "owner": collection}
        )
        return collection

    def selected(self) -> list[Record]:
        return [o for o in self.linked_objects() if o.native.selected]
