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

``UnityEngine`` holds the table of kinds, the names a script sees (``GameObject``,
``PrimitiveType``, ``Mathf``...) and the reading of the scene. Its base, ``transforms``, holds
the GameObjects made and their transforms; the parts it holds (``Part``) are ``game_objects``
(GameObjects, components, materials), ``meshes`` and ``stubs`` (helpers without a body), whose
method tables ``_register_kinds`` merges into the kinds; the value types are in ``structs``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from parsers.build import MAX_OBJECTS, NativeObject
from parsers.custom_mesh import bounding_affine, shape_from_vertices
from parsers.evaluator import (
    Args,
    Builtin,
    CallContext,
    EngineClass,
    HelperCall,
    Kind,
    Kwargs,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
)
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.csharp.globals import PYTHON_MATH_NAMES
from parsers.unity import structs
from parsers.unity.game_objects import PRIMITIVES, GameObjects, GameObjectState, MissingMember
from parsers.unity.meshes import MeshState, UnityMeshes
from parsers.unity.naming import ClassDecision, decide_class
from parsers.unity.stubs import HelperStubs
from parsers.unity.transforms import UnityTransforms


def _report_unknown_call(
    ctx: CallContext, what: str, args: list[Value], kwargs: dict[str, Value], why: str
) -> None:
    """A call the evaluator cannot follow that is handed a scene object (a GameObject, a
    component, a mesh): what it does to that object is unknown, and is said."""
    values = [*args, *kwargs.values()]
    handed = [v for v in values if isinstance(v, Record) and v.kind and v.kind != "Inert"]
    if handed:
        ctx.warning(
            "unity.unknown_call",
            f"{what} cannot be followed ({why}); what it does to the {handed[0].kind} it is"
            " given is unknown",
        )


def run_coroutine(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    """A coroutine (an iterator method's generator) run to its end, the routines it yields run
    in turn; any other value is given back as it is (``%coroutine``: Unity runs an
    ``IEnumerator Start()`` as a coroutine)."""
    value = arg(args, 0)
    if type(value) is not Generator:
        return value
    pending = [value]
    steps = 0
    limit = ctx.interp.limits.max_loop_iterations
    while pending and steps < limit:
        try:
            item = next(pending[-1])
        except StopIteration:
            pending.pop()
            continue
        steps += 1
        if type(item) is Generator:
            pending.append(item)
    if pending:
        ctx.warning(
            "eval.loop_limit",
            f"a coroutine stopped after {limit} steps; the program goes on after it",
        )
    return None


class _UnknownStatics(dict[str, Value]):
    """The statics of a type the table does not model: each is a function that does nothing
    known, and says so when it is handed a scene object."""

    def __init__(self, owner: str) -> None:
        super().__init__()
        self.owner = owner

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str)

    def __missing__(self, name: str) -> Value:
        qualified = f"{self.owner}.{name}"

        def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            _report_unknown_call(
                ctx,
                f"{qualified}()",
                list(args),
                dict(kwargs),
                "a library the table does not model",
            )
            return Unknown(f"{qualified} is not modelled")

        made = self[name] = Builtin(qualified, call)
        return made


#: Unity's left-handed axes in the canonical frame's terms, for ``unit_to_native``.
_FLIP_Z = np.diag([1.0, 1.0, -1.0, 1.0])


class UnityEngine(UnityTransforms):
    name = "unity"

    def __init__(self, source_lines: list[str] | None = None) -> None:
        super().__init__()
        self.meshes = UnityMeshes(self)
        self.game_objects = GameObjects(self)
        self.stubs = HelperStubs(self)
        self.source_lines = source_lines or []
        self.struct_globals = structs.register(self)
        self._register_kinds()
        #: The script's own GameObject (``MonoBehaviour.gameObject``).
        self.host = self.game_objects.new_game_object(0, "Script Host")

    # --- kinds ----------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        self.add_kind(
            Kind(
                "GameObject",
                methods={
                    "GetComponent": self.game_objects.get_component,
                    "GetComponentInChildren": self.game_objects.get_component,
                    "AddComponent": self.game_objects.add_component,
                    "SetActive": self.game_objects.set_active,
                    "CompareTag": lambda ctx, r, a, k: False,
                },
                getters={
                    "transform": lambda ctx, r: r.native.transform,
                    "gameObject": lambda ctx, r: r,
                    "activeSelf": lambda ctx, r: r.native.active,
                    **self.game_objects.legacy_getters(lambda r: r),
                },
                on_set=self.game_objects.game_object_set,
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
            **self.game_objects.legacy_getters(lambda r: r.native.game_object),
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
                    "GetComponent": lambda ctx, r, a, k: self.game_objects.get_component(
                        ctx, r.native.game_object, a, k
                    ),
                    "AddComponent": lambda ctx, r, a, k: self.game_objects.add_component(
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
                    "material": self.game_objects.instance_material,
                    "sharedMaterial": lambda ctx, r: r.native["shared"],
                    "materials": lambda ctx, r: [self.game_objects.instance_material(ctx, r)],
                    "sharedMaterials": lambda ctx, r: [r.native["shared"]],
                    "gameObject": lambda ctx, r: r.native["owner"],
                },
                on_set=self.game_objects.renderer_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Material",
                methods={
                    "SetColor": self.game_objects.set_color,
                    "GetColor": lambda ctx, r, a, k: r.fields.get("color"),
                },
                on_set=self.game_objects.material_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MeshFilter",
                getters={
                    "gameObject": lambda ctx, r: r.native["owner"],
                    "mesh": self.meshes.filter_mesh,
                    "sharedMesh": lambda ctx, r: r.native["mesh"],
                },
                on_set=self.meshes.filter_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Mesh",
                methods=self.meshes.mesh_methods(),  # type: ignore[arg-type]
                getters=self.meshes.mesh_getters(),  # type: ignore[arg-type]
                on_set=self.meshes.mesh_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "MonoBehaviour",
                methods={
                    "GetComponent": lambda ctx, r, a, k: self.game_objects.get_component(
                        ctx, self.host, a, k
                    ),
                    "StartCoroutine": self._start_coroutine,
                },
                getters={
                    "transform": lambda ctx, r: self.host.native.transform,
                    "gameObject": lambda ctx, r: self.host,
                    **self.game_objects.legacy_getters(lambda r: self.host),
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
        primitive_type = Namespace(
            "PrimitiveType",
            {name: name for name in PRIMITIVES},
            missing=lambda name: MissingMember("PrimitiveType", name),
        )
        game_object_statics: dict[str, Value] = {
            "CreatePrimitive": Builtin(
                "GameObject.CreatePrimitive", self.game_objects.create_primitive
            ),
            "Find": Builtin("GameObject.Find", self.game_objects.find),
            "Instantiate": Builtin("Instantiate", self.game_objects.instantiate),
            "Destroy": Builtin("Destroy", self.game_objects.destroy),
            "DestroyImmediate": Builtin("DestroyImmediate", self.game_objects.destroy),
        }
        object_statics = {
            name: game_object_statics[name]
            for name in ("Instantiate", "Destroy", "DestroyImmediate")
        }
        inert_class = EngineClass("Inert", lambda ctx, a, k: Record("Inert"))
        members: dict[str, Value] = {
            **self.struct_globals,
            "%coroutine": Builtin("%coroutine", run_coroutine),
            "GameObject": EngineClass(
                "GameObject", self.game_objects.new_game_object_call, game_object_statics
            ),
            "PrimitiveType": primitive_type,
            "Mathf": mathf,
            "Material": EngineClass("Material", self.game_objects.new_material),
            "Shader": Namespace(
                "Shader",
                {
                    "Find": Builtin(
                        "Shader.Find", lambda ctx, a, k: Record("Inert", {"name": arg(a, 0)})
                    )
                },
            ),
            "Mesh": EngineClass("Mesh", lambda ctx, a, k: self.meshes.new_mesh(ctx)),
            "Resources": Namespace(
                "Resources",
                {
                    "GetBuiltinResource": Builtin(
                        "Resources.GetBuiltinResource", self.meshes.builtin_resource
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
            **{n: fn(n, getattr(math, n.lower())) for n in PYTHON_MATH_NAMES},
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

    def _start_coroutine(
        self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs
    ) -> Value:
        """``StartCoroutine(routine)`` (or the routine's name): the routine runs to its end at
        once; the scene is read after every wait is over."""
        routine = arg(args, 0)
        if isinstance(routine, str):
            method = ctx.member(record, routine)
            routine = ctx.call(method, []) if not isinstance(method, Unknown) else method
        run_coroutine(ctx, [routine], {})
        return None

    def object_count(self) -> int:
        return self.stubs.object_count()

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        return self.stubs.helper_without_body(ctx, call)

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        return Unknown(f"module {module!r} is not known")

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        if name[:1].isupper():
            # A type or namespace of a library the table does not model: inert, but a call of
            # its statics handing it a scene object is said (it may change that object).
            return EngineClass(name, lambda c, a, k: Record("Inert"), _UnknownStatics(name))
        return None

    def call_on_unknown(
        self,
        ctx: CallContext,
        receiver: Unknown,
        name: str,
        args: list[Value],
        kwargs: dict[str, Value],
    ) -> Value | None:
        _report_unknown_call(ctx, f"{name}()", args, kwargs, receiver.reason)
        return None

    # --- reading the scene ---------------------------------------------------------------------------
    def native_objects(self, ctx: CallContext, hints: dict[int, str]) -> list[NativeObject]:
        """Every active, rendered GameObject with a mesh. ``hints`` maps a creation line to the
        variable the object was assigned to there."""
        reporter = ctx.interp.reporter
        found: list[NativeObject] = []
        for record in self.objects:
            state: GameObjectState = record.native
            if record is self.host or state.destroyed:
                continue
            mesh = state.mesh_filter.native["mesh"] if state.mesh_filter is not None else None
            hidden = self._hidden(record)
            if hidden is not None:
                if state.renderer is not None and mesh is not None:
                    reporter.add(
                        "info",
                        "unity.not_rendered",
                        f"{record.fields.get('name')}: {hidden}; left out",
                        state.line,
                        None,
                    )
                continue
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
            decision = self._decide(state, mesh_state, name_text, hints.get(state.line))
            if decision is None:
                reporter.add(
                    "warning",
                    "unity.unknown_mesh",
                    f"{name_text}: its mesh has no shape the code states; left out",
                    state.line,
                    None,
                )
                continue
            material = self.game_objects.current_material(state.renderer)
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

    def _hidden(self, record: Record) -> str | None:
        """Why an object is not drawn though it may have a renderer: it or a parent of it is
        inactive (``SetActive(false)``), or its renderer is disabled; None when it is drawn."""
        state: GameObjectState = record.native
        if state.renderer is not None and state.renderer.native.get("enabled") is False:
            return "its renderer is disabled"
        current: Record | None = record
        depth = 0
        while current is not None and depth < 64:
            if not current.native.active:
                return "it is inactive" if current is record else "a parent of it is inactive"
            parent = current.native.transform.native.parent
            current = parent.native.game_object if parent is not None else None
            depth += 1
        return None

    def _decide(
        self,
        state: GameObjectState,
        mesh: MeshState,
        name: str | None,
        variable: str | None,
    ) -> ClassDecision | None:
        """The class of a rendered object: a primitive's (a stand-in's from what the code calls
        it), the shape of the vertices the code computes, else what the code calls it."""
        names = [name, variable]
        comments = self._comments_near(state.line)
        words = mesh.words + state.words
        if mesh.builtin is not None:
            class_name, box = PRIMITIVES[mesh.builtin]
            assert class_name is not None
            return decide_class(
                mesh.builtin, class_name, np.diag([*box, 1.0]), names, comments, words
            )
        if mesh.placeholder is not None:
            class_name, reason, affine = mesh.placeholder
            return ClassDecision(class_name, affine, reason)
        if mesh.vertices:
            shape = shape_from_vertices(mesh.vertices, up="y")
            if shape is not None:
                return ClassDecision(
                    shape.class_name,
                    shape.unit_to_local,
                    f"from the vertices of the mesh the code builds ({shape.how})",
                )
            box_affine = bounding_affine(mesh.vertices, up="y")
            if box_affine is None:
                return None
            return decide_class(None, "unknown", box_affine, names, comments, words)
        decision = decide_class(
            None,
            "unknown",
            np.eye(4),
            names,
            comments,
            words,
            what="its vertices cannot be computed statically: a unit shape of its class",
            fill=False,
        )
        return None if decision.class_name == "unknown" else decision

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
