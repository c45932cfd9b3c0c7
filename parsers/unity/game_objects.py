"""Unity's GameObjects, components, materials and meshes for the static evaluator:
``CreatePrimitive`` (Unity's primitive meshes), ``new GameObject`` with components
(``AddComponent``/``GetComponent``), ``Instantiate``, ``Destroy``, ``SetActive``,
``GameObject.Find``; renderers with instance and shared materials (``material.color``,
``SetColor``); mesh filters and meshes built from vertices or taken from the built-in
resources.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    EngineClass,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
    type_name,
)
from parsers.shape_words import class_of_word, frame_words
from parsers.unity import structs
from parsers.unity.meshes import MeshState
from parsers.unity.transforms import TransformState

if TYPE_CHECKING:
    from parsers.unity.engine import UnityEngine

#: Unity's primitive meshes: class (None for flat ones) and the unit primitive onto the mesh.
PRIMITIVES: dict[str, tuple[str | None, tuple[float, float, float]]] = {
    "Cube": ("cube", (1.0, 1.0, 1.0)),
    "Sphere": ("sphere", (1.0, 1.0, 1.0)),
    "Cylinder": ("cylinder", (1.0, 2.0, 1.0)),
    "Capsule": ("cylinder", (1.0, 2.0, 1.0)),
    "Plane": (None, (10.0, 0.0, 10.0)),
    "Quad": (None, (1.0, 1.0, 0.0)),
}


@dataclass(frozen=True)
class MissingMember:
    """A member of a Unity enum that no Unity version has (``PrimitiveType.Cone``)."""

    enum: str
    name: str


#: Unity 4's component shortcuts (``go.renderer``) and the component each one is.
LEGACY_COMPONENTS: dict[str, str] = {
    "renderer": "Renderer",
    "collider": "Collider",
    "collider2D": "Collider2D",
    "rigidbody": "Rigidbody",
    "rigidbody2D": "Rigidbody2D",
    "light": "Light",
    "camera": "Camera",
    "audio": "AudioSource",
    "animation": "Animation",
    "constantForce": "ConstantForce",
    "hingeJoint": "HingeJoint",
    "particleSystem": "ParticleSystem",
    "guiText": "GUIText",
    "guiTexture": "GUITexture",
    "networkView": "NetworkView",
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


def _type_argument(args: Args, kwargs: Kwargs) -> str | None:
    types = kwargs.get("%types")
    if isinstance(types, tuple) and types:
        return str(types[0])
    return type_of(arg(args, 0))


def type_of(value: Value) -> str | None:
    """The type a component argument names: ``typeof(MeshFilter)``, the type itself, or
    Unity 4's string (``AddComponent("MeshFilter")``)."""
    if isinstance(value, Record) and value.kind == "Type":
        name = value.fields.get("Name")
        return name if isinstance(name, str) else None
    if isinstance(value, EngineClass):
        return value.name
    if isinstance(value, str):
        return value
    return None


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
    #: ``(word, where)`` the code was saying when it made the object (``shape_words``).
    words: list[tuple[str, str]] = field(default_factory=list)


class GameObjects(Part):
    """GameObjects, their components, materials and meshes."""

    engine: UnityEngine

    # --- game objects -----------------------------------------------------------------------------
    def new_game_object(
        self, line: int, name: str, primitive: str | None = None, ctx: CallContext | None = None
    ) -> Record:
        record = Record(
            "GameObject",
            {"name": name, "tag": "Untagged", "layer": 0},
            native=GameObjectState(
                line, primitive, words=frame_words(ctx.frames()) if ctx is not None else []
            ),
        )
        transform = Record("Transform", native=TransformState(record))
        record.native.transform = transform
        if primitive is not None:
            record.native.mesh_filter = self.engine.meshes.new_filter(
                record,
                Record("Mesh", {"name": primitive}, native=MeshState(builtin=primitive, line=line)),
            )
            record.native.renderer = self.new_renderer(record)
        self.engine.objects.append(record)
        return record

    def new_renderer(self, owner: Record) -> Record:
        return Record(
            "Renderer",
            native={"owner": owner, "shared": self.material_record(None), "instance": None},
        )

    def new_game_object_call(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        name = arg(args, 0)
        record = self.new_game_object(
            ctx.line, name if isinstance(name, str) else "New Game Object", ctx=ctx
        )
        for component in args[1:]:
            wanted = type_of(component)
            if wanted is not None:
                self.add_component(ctx, record, [], {"%types": (wanted,)})
        return record

    def create_primitive(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        kind = arg(args, 0)
        if isinstance(kind, MissingMember):
            # ``PrimitiveType.Cone``: no Unity version has it, so the code does not compile;
            # the rest of it is read, and the object is the unit shape the member names.
            named = class_of_word(kind.name)
            ctx.warning(
                "unity.no_such_api",
                f"PrimitiveType.{kind.name} exists in no Unity version (CreatePrimitive would not compile); "
                + (f"read as a unit {named}" if named else "read as a cube"),
            )
            if named is not None:
                record = self.new_game_object(ctx.line, kind.name, ctx=ctx)
                mesh = self.engine.meshes.new_mesh(
                    ctx,
                    kind.name,
                    placeholder=(named, f"from PrimitiveType.{kind.name}", np.eye(4)),
                )
                record.native.mesh_filter = self.engine.meshes.new_filter(record, mesh)
                record.native.renderer = self.new_renderer(record)
                return record
            kind = "Cube"
        elif not isinstance(kind, str) or kind not in PRIMITIVES:
            ctx.warning(
                "unity.unknown_primitive",
                f"CreatePrimitive of {kind if isinstance(kind, str) else type_name(kind)}, which cannot be known statically; read as a cube",
            )
            kind = "Cube"
        return self.new_game_object(ctx.line, kind, kind, ctx)

    def find(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        name = arg(args, 0)
        for record in self.engine.objects:
            if record.fields.get("name") == name and not record.native.destroyed:
                return record
        return None

    def instantiate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        original = arg(args, 0)
        if isinstance(original, Record) and original.kind == "Transform":
            original = original.native.game_object
        if not (isinstance(original, Record) and original.kind == "GameObject"):
            ctx.warning(
                "unity.unknown_prefab",
                "Instantiate of a prefab or asset that cannot be known statically; nothing is made",
            )
            return Unknown("an instance of an unknown prefab", ctx.line)
        state: GameObjectState = original.native
        copy = self.new_game_object(
            ctx.line, f"{original.fields.get('name')}(Clone)", state.primitive
        )
        if state.primitive is None and state.mesh_filter is not None:
            copy.native.mesh_filter = self.engine.meshes.new_filter(
                copy, state.mesh_filter.native["mesh"]
            )
            copy.native.mesh_filter.native["own"] = False
        if state.renderer is not None:
            copy.native.renderer = self.new_renderer(copy)
            copy.native.renderer.native["shared"] = self.current_material(state.renderer)
        source: TransformState = state.transform.native  # type: ignore[union-attr]
        target: TransformState = copy.native.transform.native
        target.position, target.rotation, target.scale = (
            source.position.copy(),
            source.rotation.copy(),
            source.scale.copy(),
        )
        position = arg(args, 1)
        if position is not UNDEFINED:
            if isinstance(position, Record) and position.kind == "Transform":
                target.parent = position
            else:
                found = structs.components(ctx, position, "Instantiate position")
                if found is not None:
                    target.position = np.asarray(found)
                rotation = structs.rotation_of(arg(args, 2))
                if rotation is not None:
                    target.rotation = rotation
                parent = arg(args, 3)
                if isinstance(parent, Record) and parent.kind == "Transform":
                    self.engine.reparent(copy.native.transform, parent, keep_world=True)
        return copy

    def destroy(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0)
        if isinstance(target, Record) and target.kind == "Transform":
            target = target.native.game_object
        if isinstance(target, Record) and target.kind == "GameObject":
            target.native.destroyed = True
        return None

    def set_active(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        truth = ctx.truthy(arg(args, 0))
        record.native.active = truth is not False
        return None

    # --- Unity 4's shortcuts -------------------------------------------------------------------------
    def legacy_getters(
        self, owner: Callable[[Record], Record]
    ) -> dict[str, Callable[[CallContext, Record], Value]]:
        """``go.renderer``, ``transform.renderer``, ``collider`` and the other component
        shortcuts of Unity 4 (Component and GameObject properties; removed in Unity 5, where
        they are obsolete errors): each is ``GetComponent<T>()``."""

        def shortcut(name: str) -> Callable[[CallContext, Record], Value]:
            def read(ctx: CallContext, record: Record) -> Value:
                ctx.info(
                    "unity.legacy_api",
                    f".{name} is Unity 4's shortcut (removed in Unity 5); read as GetComponent<{LEGACY_COMPONENTS[name]}>()",
                )
                if name == "renderer":
                    return owner(record).native.renderer
                return Record("Inert")

            return read

        return {name: shortcut(name) for name in LEGACY_COMPONENTS}

    def game_object_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "active":
            ctx.info(
                "unity.legacy_api",
                "GameObject.active is Unity 3's property (obsolete since Unity 4); read as SetActive()",
            )
            self.set_active(ctx, record, [value], {})
            return True
        return False

    def get_component(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        wanted = _type_argument(args, kwargs)
        if record.kind == "MonoBehaviour":
            record = self.engine.host
        state: GameObjectState = record.native
        if wanted in ("Renderer", "MeshRenderer"):
            return state.renderer
        if wanted == "MeshFilter":
            return state.mesh_filter
        if wanted == "Transform":
            return state.transform
        return Record("Inert")

    def add_component(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        wanted = _type_argument(args, kwargs)
        state: GameObjectState = record.native
        if isinstance(arg(args, 0), str) and "%types" not in kwargs:
            ctx.info(
                "unity.legacy_api",
                f'AddComponent("{wanted}") is Unity 4\'s string form (removed in Unity 5); read as AddComponent<{wanted}>()',
            )
        if wanted in ("MeshRenderer", "Renderer"):
            if state.renderer is None:
                state.renderer = self.new_renderer(record)
            return state.renderer
        if wanted == "MeshFilter":
            if state.mesh_filter is None:
                state.mesh_filter = self.engine.meshes.new_filter(record)
            return state.mesh_filter
        return Record("Inert")

    # --- materials ---------------------------------------------------------------------------------
    def material_record(self, colour: Value) -> Record:
        return Record(
            "Material",
            {
                "color": colour if colour is not None else structs.color(1.0, 1.0, 1.0),
                "name": "Default-Material",
            },
            native={"set": colour is not None},
        )

    def new_material(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        source = arg(args, 0)
        if isinstance(source, Record) and source.kind == "Material":
            copy = self.material_record(source.fields.get("color"))
            copy.native["set"] = source.native.get("set", False)
            return copy
        return self.material_record(None)

    def material_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "color":
            record.fields["color"] = value
            record.native["set"] = True
            return True
        return False

    def set_color(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        name = arg(args, 0)
        if name in COLOUR_PROPERTIES or not isinstance(name, str):
            record.fields["color"] = arg(args, 1)
            record.native["set"] = True
        else:
            ctx.info("unity.other_colour", f"SetColor({name!r}) is not the base colour; ignored")
        return None

    def instance_material(self, ctx: CallContext, record: Record) -> Value:
        # Reading renderer.material clones the shared material into the object's own instance.
        if record.native["instance"] is None:
            shared = record.native["shared"]
            record.native["instance"] = (
                self.new_material(ctx, [shared], {})
                if isinstance(shared, Record)
                else self.material_record(None)
            )
        return record.native["instance"]

    def current_material(self, renderer: Record) -> Record | None:
        found = renderer.native["instance"] or renderer.native["shared"]
        return found if isinstance(found, Record) and found.kind == "Material" else None

    def renderer_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
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
