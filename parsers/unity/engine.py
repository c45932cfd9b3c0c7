"""The Unity engine table: ``UnityEngine`` as the static evaluator sees it.

GameObjects (``CreatePrimitive`` with Unity's sizes: cube 1, sphere diameter 1, cylinder
diameter 1 and height 2, capsule the same box; ``new GameObject`` with a ``MeshFilter`` and a
``MeshRenderer``), their ``Transform`` (``position``/``localPosition``, ``rotation``/
``localRotation``, ``eulerAngles``, ``localScale``, ``SetParent``, ``Rotate``, ``Translate``,
``RotateAround``, ``LookAt``) in Unity's left-handed frame, renderers with instance and shared
materials (``material.color``, ``SetColor``), meshes built from vertices or taken from the
built-in resources. ``MonoBehaviour`` is the host of the script: its ``transform`` is a root at
the origin.

After the program, ``native_objects`` reads every active GameObject with a renderer and a
mesh; the class of an object with no matching primitive comes from what the model called it
(see ``naming``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    type_name,
)
from parsers.unity import structs
from parsers.unity.naming import ClassDecision, decide_class
from spatialbabel.frames import Matrix, axis_angle_to_matrix

Args = list[Value]
Kwargs = dict[str, Value]

#: Unity's primitive meshes: class (None for flat ones) and the unit primitive onto the mesh.
PRIMITIVES: dict[str, tuple[str | None, tuple[float, float, float]]] = {
    "Cube": ("cube", (1.0, 1.0, 1.0)),
    "Sphere": ("sphere", (1.0, 1.0, 1.0)),
    "Cylinder": ("cylinder", (1.0, 2.0, 1.0)),
    "Capsule": ("cylinder", (1.0, 2.0, 1.0)),
    "Plane": (None, (10.0, 0.0, 10.0)),
    "Quad": (None, (1.0, 1.0, 0.0)),
}
#: Shader colour properties that are the object's colour (``SetColor`` names).
COLOUR_PROPERTIES = frozenset(
    {
        "_Color",
        "_BaseColor",
        "_MainColor",
        "_TintColor",
        "_Albedo",
        "_BaseColorMap",
        "Color",
        "_UnlitColor",
    }
)
#: Unity's left-handed axes in the canonical frame's terms, for ``unit_to_native``.
_FLIP_Z = np.diag([1.0, 1.0, -1.0, 1.0])


def _arg(args: Args, i: int, kwargs: Kwargs | None = None, name: str | None = None) -> Value:
    if i < len(args):
        return args[i]
    if kwargs is not None and name is not None and name in kwargs:
        return kwargs[name]
    return UNDEFINED


def _type_argument(args: Args, kwargs: Kwargs) -> str | None:
    types = kwargs.get("%types")
    if isinstance(types, tuple) and types:
        return str(types[0])
    first = _arg(args, 0)
    if isinstance(first, EngineClass):
        return first.name
    if isinstance(first, str):
        return first
    return None


@dataclass
class TransformState:
    game_object: Record
    position: Matrix = field(default_factory=lambda: np.zeros(3))
    rotation: Matrix = field(default_factory=lambda: np.eye(3))
    scale: Matrix = field(default_factory=lambda: np.ones(3))
    parent: Record | None = None


@dataclass
class GameObjectState:
    line: int
    primitive: str | None = None
    mesh_filter: Record | None = None
    renderer: Record | None = None
    transform: Record | None = None
    destroyed: bool = False
    active: bool = True
    variable_hint: str | None = None


@dataclass
class MeshState:
    builtin: str | None = None
    vertices: list[tuple[float, float, float]] | None = None
    line: int = 0


class UnityEngine(Engine):
    name = "unity"

    def __init__(self, source_lines: list[str] | None = None) -> None:
        super().__init__()
        self.source_lines = source_lines or []
        self.objects: list[Record] = []
        self.struct_globals = structs.register(self)
        self._register_kinds()
        self.host = self._new_game_object(0, "Script Host")

    # --- kinds ----------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        self.add_kind(
            Kind(
                "GameObject",
                methods={
                    "GetComponent": self._get_component,
                    "GetComponentInChildren": self._get_component,
                    "AddComponent": self._add_component,
                    "SetActive": self._set_active,
                    "CompareTag": lambda ctx, r, a, k: False,
                },
                getters={
                    "transform": lambda ctx, r: r.native.transform,
                    "gameObject": lambda ctx, r: r,
                    "activeSelf": lambda ctx, r: r.native.active,
                },
                inert=True,
            )
        )
        transform_getters = {
            "position": lambda ctx, r: structs.vec(self.world_matrix(r)[:3, 3]),
            "localPosition": lambda ctx, r: structs.vec(r.native.position),
            "rotation": lambda ctx, r: structs.quaternion_from_matrix(self.world_rotation(r)),
            "localRotation": lambda ctx, r: structs.quaternion_from_matrix(r.native.rotation),
            "eulerAngles": lambda ctx, r: structs.vec(structs.euler_angles(self.world_rotation(r))),
            "localEulerAngles": lambda ctx, r: structs.vec(structs.euler_angles(r.native.rotation)),
            "localScale": lambda ctx, r: structs.vec(r.native.scale),
            "lossyScale": lambda ctx, r: structs.vec(
                np.linalg.norm(self.world_matrix(r)[:3, :3], axis=0)
            ),
            "parent": lambda ctx, r: r.native.parent,
            "gameObject": lambda ctx, r: r.native.game_object,
            "right": lambda ctx, r: structs.vec(self.world_rotation(r)[:, 0]),
            "up": lambda ctx, r: structs.vec(self.world_rotation(r)[:, 1]),
            "forward": lambda ctx, r: structs.vec(self.world_rotation(r)[:, 2]),
            "transform": lambda ctx, r: r,
            "childCount": lambda ctx, r: len(self._children(r)),
            "name": lambda ctx, r: r.native.game_object.fields.get("name"),
        }
        self.add_kind(
            Kind(
                "Transform",
                methods={
                    "SetParent": self._set_parent,
                    "Rotate": self._rotate,
                    "Translate": self._translate,
                    "RotateAround": self._rotate_around,
                    "LookAt": self._look_at,
                    "SetPositionAndRotation": self._set_position_and_rotation,
                    "GetChild": lambda ctx, r, a, k: (
                        self._children(r)[int(a[0])]
                        if a and isinstance(a[0], int) and 0 <= a[0] < len(self._children(r))
                        else Unknown("GetChild out of range")
                    ),
                    "GetComponent": lambda ctx, r, a, k: self._get_component(
                        ctx, r.native.game_object, a, k
                    ),
                    "AddComponent": lambda ctx, r, a, k: self._add_component(
                        ctx, r.native.game_object, a, k
                    ),
                    "TransformPoint": self._transform_point,
                },
                getters=transform_getters,
                on_set=self._transform_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Renderer",
                getters={
                    "material": self._instance_material,
                    "sharedMaterial": lambda ctx, r: r.native["shared"],
                    "materials": lambda ctx, r: [self._instance_material(ctx, r)],
                    "sharedMaterials": lambda ctx, r: [r.native["shared"]],
                    "gameObject": lambda ctx, r: r.native["owner"],
                },
                on_set=self._renderer_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Material",
                methods={
                    "SetColor": self._set_color,
                    "GetColor": lambda ctx, r, a, k: r.fields.get("color"),
                },
                on_set=self._material_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MeshFilter",
                getters={"gameObject": lambda ctx, r: r.native["owner"]},
                on_set=self._filter_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Mesh",
                methods={
                    "SetVertices": lambda ctx, r, a, k: self._mesh_set(
                        ctx, r, "vertices", _arg(a, 0)
                    ),
                    "RecalculateNormals": lambda ctx, r, a, k: None,
                    "RecalculateBounds": lambda ctx, r, a, k: None,
                },
                on_set=self._mesh_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MonoBehaviour",
                methods={
                    "GetComponent": lambda ctx, r, a, k: self._get_component(ctx, self.host, a, k),
                    "StartCoroutine": lambda ctx, r, a, k: None,
                },
                getters={
                    "transform": lambda ctx, r: self.host.native.transform,
                    "gameObject": lambda ctx, r: self.host,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Inert", inert=True))

    # --- globals ---------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        mathf = Namespace(
            "Mathf",
            {
                "PI": float(np.pi),
                "Deg2Rad": float(np.pi / 180),
                "Rad2Deg": float(180 / np.pi),
                "Infinity": float("inf"),
                "Epsilon": 1.401298e-45,
                **self._mathf(),
            },
        )
        primitive_type = Namespace("PrimitiveType", {name: name for name in PRIMITIVES})
        game_object_statics: dict[str, Value] = {
            "CreatePrimitive": Builtin("GameObject.CreatePrimitive", self._create_primitive),
            "Find": Builtin("GameObject.Find", self._find),
            "Instantiate": Builtin("Instantiate", self._instantiate),
            "Destroy": Builtin("Destroy", self._destroy),
            "DestroyImmediate": Builtin("DestroyImmediate", self._destroy),
        }
        object_statics = {
            name: game_object_statics[name]
            for name in ("Instantiate", "Destroy", "DestroyImmediate")
        }
        inert_class = EngineClass("Inert", lambda ctx, a, k: Record("Inert"))
        members: dict[str, Value] = {
            **self.struct_globals,
            "GameObject": EngineClass(
                "GameObject", self._new_game_object_call, game_object_statics
            ),
            "PrimitiveType": primitive_type,
            "Mathf": mathf,
            "Material": EngineClass("Material", self._new_material),
            "Shader": Namespace(
                "Shader",
                {
                    "Find": Builtin(
                        "Shader.Find", lambda ctx, a, k: Record("Inert", {"name": _arg(a, 0)})
                    )
                },
            ),
            "Mesh": EngineClass(
                "Mesh",
                lambda ctx, a, k: Record("Mesh", {"name": ""}, native=MeshState(line=ctx.line)),
            ),
            "Resources": Namespace(
                "Resources",
                {
                    "GetBuiltinResource": Builtin(
                        "Resources.GetBuiltinResource", self._builtin_resource
                    )
                },
                missing=lambda name: Builtin(
                    f"Resources.{name}", lambda ctx, a, k: Unknown("an asset loaded at run time")
                ),
            ),
            "MonoBehaviour": EngineClass(
                "MonoBehaviour", lambda ctx, a, k: Record("MonoBehaviour")
            ),
            "ScriptableObject": EngineClass(
                "MonoBehaviour", lambda ctx, a, k: Record("MonoBehaviour")
            ),
            "Editor": inert_class,
            "EditorWindow": inert_class,
            "Object": EngineClass("Object", lambda ctx, a, k: Record("Inert"), object_statics),
            "Space": Namespace("Space", {"Self": "Self", "World": "World"}),
            "Debug": Namespace(
                "Debug", missing=lambda name: Builtin(f"Debug.{name}", lambda ctx, a, k: None)
            ),
            "Random": Namespace(
                "Random",
                missing=lambda name: Builtin(
                    f"Random.{name}",
                    lambda ctx, a, k: Unknown("a random number has no static value", ctx.line),
                ),
            ),
            "Time": Namespace("Time", missing=lambda name: Unknown("time has no static value")),
            "Input": Namespace(
                "Input",
                missing=lambda name: Builtin(
                    f"Input.{name}", lambda ctx, a, k: Unknown("input has no static value")
                ),
            ),
            "Undo": Namespace(
                "Undo", missing=lambda name: Builtin(f"Undo.{name}", lambda ctx, a, k: None)
            ),
            "EditorUtility": Namespace(
                "EditorUtility",
                missing=lambda name: Builtin(f"EditorUtility.{name}", lambda ctx, a, k: None),
            ),
            "Selection": Namespace("Selection", missing=lambda name: None),
            "RenderSettings": Namespace("RenderSettings", missing=lambda name: Record("Inert")),
            "Camera": EngineClass(
                "Inert", lambda ctx, a, k: Record("Inert"), {"main": Record("Inert")}
            ),
            "Light": inert_class,
        }
        for name in ("Instantiate", "Destroy", "DestroyImmediate"):
            members[name] = game_object_statics[name]
        members["UnityEngine"] = Namespace("UnityEngine", dict(members))
        return members

    def _mathf(self) -> dict[str, Value]:
        def fn(name: str, impl: Any, arity: int = 1) -> Builtin:
            def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
                values = [ctx.number(a, f"Mathf.{name} argument", 0.0) for a in args[:arity]]
                try:
                    return float(impl(*values))
                except (ValueError, OverflowError, ZeroDivisionError, TypeError):
                    return Unknown(f"Mathf.{name} of values outside its domain")

            return Builtin(f"Mathf.{name}", call)

        return {
            **{
                n: fn(n, getattr(math, n.lower()))
                for n in (
                    "Sin",
                    "Cos",
                    "Tan",
                    "Asin",
                    "Acos",
                    "Atan",
                    "Sqrt",
                    "Exp",
                    "Floor",
                    "Log10",
                )
            },
            "Ceil": fn("Ceil", math.ceil),
            "Abs": fn("Abs", abs),
            "Round": fn("Round", round),
            "RoundToInt": fn("RoundToInt", round),
            "FloorToInt": fn("FloorToInt", math.floor),
            "CeilToInt": fn("CeilToInt", math.ceil),
            "Atan2": fn("Atan2", math.atan2, 2),
            "Pow": fn("Pow", math.pow, 2),
            "Min": fn("Min", min, 2),
            "Max": fn("Max", max, 2),
            "Clamp": fn("Clamp", lambda v, lo, hi: min(max(v, lo), hi), 3),
            "Clamp01": fn("Clamp01", lambda v: min(max(v, 0.0), 1.0)),
            "Lerp": fn("Lerp", lambda a, b, t: a + (b - a) * min(max(t, 0.0), 1.0), 3),
            "Sign": fn("Sign", lambda v: 1.0 if v >= 0 else -1.0),
            "Log": fn("Log", math.log),
        }

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        return Unknown(f"module {module!r} is not known")

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        if name[:1].isupper():
            # A type or namespace of a library the table does not model: inert.
            return EngineClass(name, lambda c, a, k: Record("Inert"))
        return None

    # --- game objects -----------------------------------------------------------------------------
    def _new_game_object(self, line: int, name: str, primitive: str | None = None) -> Record:
        record = Record(
            "GameObject",
            {"name": name, "tag": "Untagged", "layer": 0},
            native=GameObjectState(line, primitive),
        )
        transform = Record("Transform", native=TransformState(record))
        record.native.transform = transform
        if primitive is not None:
            record.native.mesh_filter = Record(
                "MeshFilter",
                native={
                    "owner": record,
                    "mesh": Record(
                        "Mesh", {"name": primitive}, native=MeshState(builtin=primitive, line=line)
                    ),
                },
            )
            record.native.renderer = self._new_renderer(record)
        self.objects.append(record)
        return record

    def _new_renderer(self, owner: Record) -> Record:
        return Record(
            "Renderer",
            native={"owner": owner, "shared": self._material_record(None), "instance": None},
        )

    def _new_game_object_call(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        name = _arg(args, 0)
        record = self._new_game_object(
            ctx.line, name if isinstance(name, str) else "New Game Object"
        )
        for component in args[1:]:
            if isinstance(component, EngineClass):
                self._add_component(ctx, record, [], {"%types": (component.name,)})
        return record

    def _create_primitive(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        kind = _arg(args, 0)
        if not isinstance(kind, str) or kind not in PRIMITIVES:
            ctx.warning(
                "unity.unknown_primitive",
                f"CreatePrimitive of {kind if isinstance(kind, str) else type_name(kind)}, which cannot be known statically; read as a cube",
            )
            kind = "Cube"
        return self._new_game_object(ctx.line, kind, kind)

    def _find(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        name = _arg(args, 0)
        for record in self.objects:
            if record.fields.get("name") == name and not record.native.destroyed:
                return record
        return None

    def _instantiate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        original = _arg(args, 0)
        if isinstance(original, Record) and original.kind == "Transform":
            original = original.native.game_object
        if not (isinstance(original, Record) and original.kind == "GameObject"):
            ctx.warning(
                "unity.unknown_prefab",
                "Instantiate of a prefab or asset that cannot be known statically; nothing is made",
            )
            return Unknown("an instance of an unknown prefab", ctx.line)
        state: GameObjectState = original.native
        copy = self._new_game_object(
            ctx.line, f"{original.fields.get('name')}(Clone)", state.primitive
        )
        if state.primitive is None and state.mesh_filter is not None:
            copy.native.mesh_filter = Record(
                "MeshFilter", native={"owner": copy, "mesh": state.mesh_filter.native["mesh"]}
            )
        if state.renderer is not None:
            copy.native.renderer = self._new_renderer(copy)
            copy.native.renderer.native["shared"] = self._current_material(state.renderer)
        source: TransformState = state.transform.native  # type: ignore[union-attr]
        target: TransformState = copy.native.transform.native
        target.position, target.rotation, target.scale = (
            source.position.copy(),
            source.rotation.copy(),
            source.scale.copy(),
        )
        position = _arg(args, 1)
        if position is not UNDEFINED:
            if isinstance(position, Record) and position.kind == "Transform":
                target.parent = position
            else:
                found = structs.components(ctx, position, "Instantiate position")
                if found is not None:
                    target.position = np.asarray(found)
                rotation = structs.rotation_of(_arg(args, 2))
                if rotation is not None:
                    target.rotation = rotation
                parent = _arg(args, 3)
                if isinstance(parent, Record) and parent.kind == "Transform":
                    self._reparent(copy.native.transform, parent, keep_world=True)
        return copy

    def _destroy(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        target = _arg(args, 0)
        if isinstance(target, Record) and target.kind == "Transform":
            target = target.native.game_object
        if isinstance(target, Record) and target.kind == "GameObject":
            target.native.destroyed = True
        return None

    def _set_active(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        truth = ctx.truthy(_arg(args, 0))
        record.native.active = truth is not False
        return None

    def _get_component(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        wanted = _type_argument(args, kwargs)
        if record.kind == "MonoBehaviour":
            record = self.host
        state: GameObjectState = record.native
        if wanted in ("Renderer", "MeshRenderer"):
            return state.renderer
        if wanted == "MeshFilter":
            return state.mesh_filter
        if wanted == "Transform":
            return state.transform
        return Record("Inert")

    def _add_component(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        wanted = _type_argument(args, kwargs)
        state: GameObjectState = record.native
        if wanted in ("MeshRenderer", "Renderer"):
            if state.renderer is None:
                state.renderer = self._new_renderer(record)
            return state.renderer
        if wanted == "MeshFilter":
            if state.mesh_filter is None:
                state.mesh_filter = Record("MeshFilter", native={"owner": record, "mesh": None})
            return state.mesh_filter
        return Record("Inert")

    # --- materials ---------------------------------------------------------------------------------
    def _material_record(self, colour: Value) -> Record:
        return Record(
            "Material",
            {
                "color": colour if colour is not None else structs.color(1.0, 1.0, 1.0),
                "name": "Default-Material",
            },
            native={"set": colour is not None},
        )

    def _new_material(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        source = _arg(args, 0)
        if isinstance(source, Record) and source.kind == "Material":
            copy = self._material_record(source.fields.get("color"))
            copy.native["set"] = source.native.get("set", False)
            return copy
        return self._material_record(None)

    def _material_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "color":
            record.fields["color"] = value
            record.native["set"] = True
            return True
        return False

    def _set_color(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = _arg(args, 0)
        if name in COLOUR_PROPERTIES or not isinstance(name, str):
            record.fields["color"] = _arg(args, 1)
            record.native["set"] = True
        else:
            ctx.info("unity.other_colour", f"SetColor({name!r}) is not the base colour; ignored")
        return None

    def _instance_material(self, ctx: CallContext, record: Record) -> Value:
        # Reading renderer.material clones the shared material into the object's own instance.
        if record.native["instance"] is None:
            shared = record.native["shared"]
            record.native["instance"] = (
                self._new_material(ctx, [shared], {})
                if isinstance(shared, Record)
                else self._material_record(None)
            )
        return record.native["instance"]

    def _current_material(self, renderer: Record) -> Record | None:
        found = renderer.native["instance"] or renderer.native["shared"]
        return found if isinstance(found, Record) and found.kind == "Material" else None

    def _renderer_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name in ("material", "sharedMaterial", "materials", "sharedMaterials"):
            if isinstance(value, list | tuple):
                value = value[0] if value else None
            if not (value is None or (isinstance(value, Record) and value.kind == "Material")):
                ctx.warning(
                    "unity.bad_value",
                    f"{name} set to a {type_name(value)}, not a material; ignored",
                )
                return True
            if name.startswith("shared"):
                record.native["shared"] = value
                record.native["instance"] = None
            else:
                record.native["instance"] = value
            return True
        if name == "enabled":
            record.native["enabled"] = value
            return True
        return False

    # --- meshes -----------------------------------------------------------------------------------
    def _builtin_resource(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        name = next((a for a in args if isinstance(a, str)), None)
        base = name.split(".")[0] if isinstance(name, str) else None
        if base not in PRIMITIVES:
            ctx.warning(
                "unity.unknown_resource", f"built-in resource {name!r} is not a primitive mesh"
            )
            return Record("Mesh", {"name": str(name)}, native=MeshState(line=ctx.line))
        return Record("Mesh", {"name": base}, native=MeshState(builtin=base, line=ctx.line))

    def _filter_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name in ("mesh", "sharedMesh"):
            record.native["mesh"] = (
                value if isinstance(value, Record) and value.kind == "Mesh" else None
            )
            if record.native["mesh"] is None and not isinstance(value, Unknown):
                ctx.warning("unity.bad_value", f"{name} set to a {type_name(value)}, not a mesh")
            return True
        return False

    def _mesh_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "vertices":
            points: list[tuple[float, float, float]] = []
            items = ctx.iterate(value) if isinstance(value, list | tuple) else None
            for item in items or []:
                found = structs.components(ctx, item, "mesh vertex")
                if found is None:
                    points = []
                    break
                points.append(found)
            if not points:
                ctx.warning("unity.unknown_mesh", "mesh vertices that cannot be known statically")
            record.native.vertices = points or None
            return True
        return name in ("triangles", "normals", "uv", "colors", "name")

    # --- transforms --------------------------------------------------------------------------------
    def local_matrix(self, transform: Record) -> Matrix:
        state: TransformState = transform.native
        m = np.eye(4)
        m[:3, :3] = state.rotation @ np.diag(state.scale)
        m[:3, 3] = state.position
        return m

    def world_matrix(self, transform: Record, depth: int = 0) -> Matrix:
        parent = transform.native.parent
        local = self.local_matrix(transform)
        if parent is not None and depth < 64:
            return self.world_matrix(parent, depth + 1) @ local
        return local

    def world_rotation(self, transform: Record, depth: int = 0) -> Matrix:
        parent = transform.native.parent
        if parent is not None and depth < 64:
            return self.world_rotation(parent, depth + 1) @ transform.native.rotation
        return np.asarray(transform.native.rotation)

    def _children(self, transform: Record) -> list[Record]:
        return [
            o.native.transform
            for o in self.objects
            if o.native.transform.native.parent is transform and not o.native.destroyed
        ]

    def _set_world_position(self, transform: Record, position: Matrix) -> None:
        parent = transform.native.parent
        if parent is not None:
            inverse = np.linalg.inv(self.world_matrix(parent))
            position = (inverse @ np.append(position, 1.0))[:3]
        transform.native.position = np.asarray(position, dtype=float)

    def _set_world_rotation(self, transform: Record, rotation: Matrix) -> None:
        parent = transform.native.parent
        if parent is not None:
            rotation = self.world_rotation(parent).T @ rotation
        transform.native.rotation = np.asarray(rotation, dtype=float)

    def _transform_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        state: TransformState = record.native
        if name in ("position", "localPosition", "localScale"):
            current = (
                self.world_matrix(record)[:3, 3]
                if name == "position"
                else state.position
                if name == "localPosition"
                else state.scale
            )
            found = structs.components(ctx, value, name, tuple(current))
            if found is None:
                return True
            if name == "position":
                self._set_world_position(record, np.asarray(found))
            elif name == "localPosition":
                state.position = np.asarray(found)
            else:
                state.scale = np.asarray(found)
            return True
        if name in ("rotation", "localRotation"):
            rotation = structs.rotation_of(value)
            if rotation is None:
                ctx.warning(
                    "unity.bad_value",
                    f"{name} set to a value that is not a known Quaternion; left unchanged",
                )
            elif name == "rotation":
                self._set_world_rotation(record, rotation)
            else:
                state.rotation = rotation
            return True
        if name in ("eulerAngles", "localEulerAngles"):
            angles = structs.components(ctx, value, name)
            if angles is not None:
                rotation = structs.euler_matrix(*angles)
                if name == "eulerAngles":
                    self._set_world_rotation(record, rotation)
                else:
                    state.rotation = rotation
            return True
        if name == "parent":
            self._reparent(
                record,
                value if isinstance(value, Record) and value.kind == "Transform" else None,
                keep_world=True,
            )
            return True
        if name == "name":
            state.game_object.fields["name"] = value
            return True
        return False

    def _reparent(self, transform: Record, parent: Record | None, *, keep_world: bool) -> None:
        world = self.world_matrix(transform)
        transform.native.parent = parent
        if not keep_world:
            return
        local = np.linalg.inv(self.world_matrix(parent)) @ world if parent is not None else world
        linear = local[:3, :3]
        scale = np.linalg.norm(linear, axis=0)
        safe = np.where(scale > 1e-12, scale, 1.0)
        rotation = linear / safe
        if np.linalg.det(rotation) < 0:
            scale[0], rotation[:, 0] = -scale[0], -rotation[:, 0]
        transform.native.position, transform.native.rotation, transform.native.scale = (
            local[:3, 3].copy(),
            rotation,
            scale,
        )

    def _set_parent(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        parent = _arg(args, 0, kwargs, "parent")
        if isinstance(parent, Record) and parent.kind == "GameObject":
            parent = parent.native.transform
        stays = ctx.truthy(_arg(args, 1, kwargs, "worldPositionStays"))
        self._reparent(
            record,
            parent if isinstance(parent, Record) and parent.kind == "Transform" else None,
            keep_world=stays is not False,
        )
        return None

    def _space(self, args: Args, kwargs: Kwargs, index: int) -> str:
        value = _arg(args, index, kwargs, "relativeTo")
        return "World" if value == "World" else "Self"

    def _rotation_argument(
        self, ctx: CallContext, args: Args, kwargs: Kwargs
    ) -> tuple[Matrix, str] | None:
        first = _arg(args, 0)
        if isinstance(first, Record) and first.kind == "Vector3":
            second = _arg(args, 1)
            if is_number(second):
                axis = structs.components(ctx, first, "Rotate axis")
                if axis is None or not any(axis):
                    return None
                return axis_angle_to_matrix(axis, np.radians(float(second))), self._space(
                    args, kwargs, 2
                )
            angles = structs.components(ctx, first, "Rotate angles")
            if angles is None:
                return None
            return structs.euler_matrix(*angles), self._space(args, kwargs, 1)
        angles3 = tuple(ctx.number(_arg(args, i), f"Rotate {n}", 0.0) for i, n in enumerate("xyz"))
        return structs.euler_matrix(*angles3), self._space(args, kwargs, 3)

    def _rotate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        found = self._rotation_argument(ctx, args, kwargs)
        if found is None:
            return None
        turn, space = found
        world = self.world_rotation(record)
        self._set_world_rotation(record, turn @ world if space == "World" else world @ turn)
        return None

    def _translate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        first = _arg(args, 0)
        if isinstance(first, Record) and first.kind == "Vector3":
            offset = structs.components(ctx, first, "Translate")
            space = self._space(args, kwargs, 1)
        else:
            offset = tuple(
                ctx.number(_arg(args, i), f"Translate {n}", 0.0) for i, n in enumerate("xyz")
            )  # type: ignore[assignment]
            space = self._space(args, kwargs, 3)
        if offset is None:
            return None
        move = np.asarray(offset, dtype=float)
        if space == "Self":
            move = self.world_rotation(record) @ move
        self._set_world_position(record, self.world_matrix(record)[:3, 3] + move)
        return None

    def _rotate_around(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        point = structs.components(ctx, _arg(args, 0), "RotateAround point")
        axis = structs.components(ctx, _arg(args, 1), "RotateAround axis")
        angle = ctx.number(_arg(args, 2), "RotateAround angle", 0.0)
        if point is None or axis is None or not any(axis):
            return None
        turn = axis_angle_to_matrix(axis, np.radians(angle))
        position = self.world_matrix(record)[:3, 3]
        self._set_world_position(record, np.asarray(point) + turn @ (position - np.asarray(point)))
        self._set_world_rotation(record, turn @ self.world_rotation(record))
        return None

    def _look_at(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = _arg(args, 0)
        if isinstance(target, Record) and target.kind == "Transform":
            point: tuple[float, ...] | None = tuple(self.world_matrix(target)[:3, 3])
        else:
            point = structs.components(ctx, target, "LookAt target")
        up = (
            structs.components(ctx, _arg(args, 1), "LookAt up", (0.0, 1.0, 0.0))
            if len(args) > 1
            else (0.0, 1.0, 0.0)
        )
        if point is None or up is None:
            return None
        forward = np.asarray(point) - self.world_matrix(record)[:3, 3]
        rotation = structs.look_rotation((forward[0], forward[1], forward[2]), up)
        if rotation is not None:
            self._set_world_rotation(record, rotation)
        return None

    def _set_position_and_rotation(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        self._transform_set(ctx, record, "position", _arg(args, 0))
        self._transform_set(ctx, record, "rotation", _arg(args, 1))
        return None

    def _transform_point(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        point = structs.components(ctx, _arg(args, 0), "TransformPoint")
        if point is None:
            return Unknown("TransformPoint of an unknown point")
        return structs.vec((self.world_matrix(record) @ np.append(point, 1.0))[:3])

    # --- reading the scene ---------------------------------------------------------------------------
    def native_objects(self, ctx: CallContext, hints: dict[int, str]) -> list[NativeObject]:
        """Every active, rendered GameObject with a mesh. ``hints`` maps a creation line to the
        variable the object was assigned to there."""
        reporter = ctx.interp.reporter
        found: list[NativeObject] = []
        for record in self.objects:
            state: GameObjectState = record.native
            if record is self.host or state.destroyed or not state.active:
                continue
            mesh = state.mesh_filter.native["mesh"] if state.mesh_filter is not None else None
            if state.renderer is None or not isinstance(mesh, Record):
                if mesh is not None or state.primitive is not None:
                    reporter.add(
                        "info",
                        "unity.not_rendered",
                        f"{record.fields.get('name')}: has no renderer or no mesh; left out",
                        state.line,
                        None,
                    )
                continue
            mesh_state: MeshState = mesh.native
            name = record.fields.get("name")
            name_text = name if isinstance(name, str) else None
            builtin = mesh_state.builtin
            if builtin is not None and PRIMITIVES[builtin][0] is None:
                reporter.add(
                    "info",
                    "unity.ground_plane",
                    f"{name_text}: a {builtin} is the ground, not an object; left out",
                    state.line,
                    None,
                )
                continue
            decision = self._decide(
                builtin, mesh_state, name_text, hints.get(state.line), state.line
            )
            if decision is None:
                reporter.add(
                    "warning",
                    "unity.unknown_mesh",
                    f"{name_text}: its mesh has no shape the code states; left out",
                    state.line,
                    None,
                )
                continue
            material = self._current_material(state.renderer)
            rgb = (
                structs.rgb_of(material.fields.get("color"))
                if material is not None and material.native.get("set")
                else None
            )
            if material is not None and material.native.get("set") and rgb is None:
                reporter.add(
                    "warning",
                    "unity.unknown_colour",
                    f"{name_text}: its colour cannot be known statically",
                    state.line,
                    None,
                )
            affine = self.world_matrix(state.transform) @ decision.unit_to_local @ _FLIP_Z  # type: ignore[arg-type]
            found.append(
                NativeObject(
                    decision.class_name,
                    affine,
                    rgb,
                    name_text or decision.class_name,
                    state.line,
                    class_reason=decision.reason,
                )
            )
            if len(found) == MAX_OBJECTS:
                reporter.add(
                    "warning",
                    "unity.too_many_objects",
                    f"more than {MAX_OBJECTS} objects; the rest are left out",
                    state.line,
                    None,
                )
                break
        return found

    def _decide(
        self,
        builtin: str | None,
        mesh: MeshState,
        name: str | None,
        variable: str | None,
        line: int,
    ) -> ClassDecision | None:
        if builtin is not None:
            class_name, box = PRIMITIVES[builtin]
            assert class_name is not None
            return decide_class(
                builtin,
                class_name,
                np.diag([*box, 1.0]),
                [name, variable],
                self._comments_near(line),
            )
        if mesh.vertices:
            recognised = primitive_from_vertices(mesh.vertices, up="y")
            if recognised is not None:
                return ClassDecision(
                    recognised[0], recognised[1], "from the vertices of the mesh the code builds"
                )
            box_affine = bounding_affine(mesh.vertices, up="y")
            if box_affine is None:
                return None
            return decide_class(
                None, "unknown", box_affine, [name, variable], self._comments_near(line)
            )
        return None

    def _comments_near(self, line: int) -> list[str]:
        """Comments on the object's creation line and the comment lines just above it."""
        found: list[str] = []
        if not 1 <= line <= len(self.source_lines):
            return found
        current = self.source_lines[line - 1]
        if "//" in current:
            found.append(current.split("//", 1)[1].strip())
        index = line - 2
        while index >= 0 and self.source_lines[index].strip().startswith("//"):
            found.append(self.source_lines[index].strip()[2:].strip())
            index -= 1
        return found


__all__ = ["PRIMITIVES", "UnityEngine"]
