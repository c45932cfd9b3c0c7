"""The three.js engine table: what ``THREE`` looks like to the static evaluator.

Records mirror three's objects: ``Object3D`` and its kinds (``Mesh``, ``Group``, ``Scene``,
cameras, lights) with ``position``/``rotation``/``quaternion``/``scale``, kept in sync as three
keeps them; geometries with their ``parameters`` and any transforms applied to their
vertices; materials with a ``Color`` held, as in three r152+, in linear sRGB. The browser
around a page (``window``, ``document``, ``requestAnimationFrame``) is stubbed: animation
callbacks never run, page ``load`` handlers run once after the script, as a browser would.

``ThreeEngine`` holds the hooks the interpreter calls (globals, imports, unbound names), the
``THREE`` namespace and its constructors, the table of kinds and the browser stubs. Its base,
``records``, holds the state and what every kind uses (records, number reading, rotation sync,
world matrices). The kinds' members are parts the engine holds (``Part``), a module each:
``euler_quaternion`` (``rotations``), ``colors``, ``materials``,
``vertex_geometry`` (``vertices``), ``geometry_records`` (``geometries``), ``instancing``
and ``stubs``; ``_register_kinds`` merges their method
tables into the kinds, with the registered tables of modules that need no engine
(``vectors``, ``matrices``, ``object3d``). The names three's scripts use are in ``three_names``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from parsers.evaluator import (
    UNDEFINED,
    Args,
    BoundMethod,
    Builtin,
    CallContext,
    Closure,
    EngineClass,
    HelperCall,
    Kind,
    Kwargs,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)
from parsers.threejs.colors import ColorMethods
from parsers.threejs.euler_quaternion import EulerQuaternionMethods
from parsers.threejs.geometries import GEOMETRY_PARAMETERS, OTHER_GEOMETRIES
from parsers.threejs.geometry_records import GeometryMethods
from parsers.threejs.instancing import InstancingMethods
from parsers.threejs.materials import MaterialMethods
from parsers.threejs.matrices import MATRIX4_METHODS, new_matrix
from parsers.threejs.object3d import (
    OBJECT3D_GETTERS,
    OBJECT3D_METHODS,
    object3d_add,
    object_set_hook,
)
from parsers.threejs.records import ThreeRecords, num_or, returns_undefined, returns_zero
from parsers.threejs.stubs import HelperStubs
from parsers.threejs.three_names import (
    ADDON_CLASSES,
    CAMERA_KINDS,
    INERT_CLASSES,
    LEGACY_NAMES,
    LIGHT_KINDS,
    MATERIAL_KINDS,
    MESH_KINDS,
    OBJECT3D_KINDS,
    THREE_CONSTANTS,
    THREE_MODULE,
    THREE_NAMES,
)
from parsers.threejs.vectors import VECTOR3_METHODS, vector2_set
from parsers.threejs.vertex_geometry import ATTRIBUTE_KINDS, VertexGeometryMethods


class ThreeEngine(ThreeRecords):
    name = "threejs"

    def __init__(self) -> None:
        super().__init__()
        self.rotations = EulerQuaternionMethods(self)
        self.colors = ColorMethods(self)
        self.materials = MaterialMethods(self)
        self.vertices = VertexGeometryMethods(self)
        self.geometries = GeometryMethods(self)
        self.instancing = InstancingMethods(self)
        self.stubs = HelperStubs(self)
        self._register_kinds()
        self.three = Namespace("THREE", {}, missing=self._three_member)
        self.addons = {name: self._inert_class(name) for name in ADDON_CLASSES}
        self.window = Record(
            "Window", {"innerWidth": 800.0, "innerHeight": 600.0, "devicePixelRatio": 1.0}
        )
        self.document = Record("Document")
        self.element = Record("Element", {"style": {}, "clientWidth": 800.0, "clientHeight": 600.0})
        self.document.fields["body"] = self.element
        self.document.fields["documentElement"] = self.element
        self.window.fields["document"] = self.document

    # --- hooks --------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        def defer(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            self.deferred.append((arg(args, 0), ctx.line, ctx.col))
            return 0.0

        def never(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            return 0.0

        def require(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            module = arg(args, 0)
            return (
                self.resolve_import(ctx, module, None)
                if isinstance(module, str)
                else Unknown("require of an unknown module")
            )

        clock = Namespace(
            "performance",
            missing=lambda name: Builtin(
                name, lambda c, a, k: Unknown("the time has no static value")
            ),
        )
        return {
            "window": self.window,
            "self": self.window,
            "globalThis": self.window,
            "document": self.document,
            "requestAnimationFrame": Builtin("requestAnimationFrame", never),
            "cancelAnimationFrame": Builtin("cancelAnimationFrame", never),
            "setTimeout": Builtin("setTimeout", defer),
            "setInterval": Builtin("setInterval", never),
            "clearTimeout": Builtin("clearTimeout", never),
            "clearInterval": Builtin("clearInterval", never),
            "performance": clock,
            "Date": Namespace(
                "Date",
                missing=lambda name: Builtin(
                    name, lambda c, a, k: Unknown("the time has no static value")
                ),
            ),
            "require": Builtin("require", require),
            "addEventListener": BoundMethod(
                self.window, Builtin("addEventListener", self._add_listener)
            ),
        }

    def object_count(self) -> int:
        return self.stubs.object_count()

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        return self.stubs.helper_without_body(ctx, call)

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        if THREE_MODULE.search(module.strip()):
            if name is None:
                return self.three
            if name == "default":
                ctx.warning(
                    "threejs.default_import",
                    f"three has no default export; 'import THREE from {module!r}' read as the namespace",
                )
                return self.three
            return self.three.get(name)
        if "three" in module.lower() or "addons" in module or "examples/js" in module:
            if name is None or name == "default":
                return Namespace(module, dict(self.addons), missing=self._inert_class)
            return self.addons.get(name) or self._inert_class(name)
        return Namespace(
            module, missing=lambda member: Unknown(f"{module}.{member} is outside three")
        )

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        if name == "THREE":
            value: Value = self.three
        elif name in THREE_NAMES:
            value = self.three.get(name)
        elif name in self.addons:
            value = self.addons[name]
        else:
            return None
        if name not in self.reported_imports:
            self.reported_imports.add(name)
            ctx.info(
                "threejs.missing_import",
                f"{name} is used without an import; read as three's {name}",
            )
        return value

    def missing_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        if self.is_inert(record.kind):
            return Unknown(f"{record.kind}.{name} does not change the scene", inert=True)
        return Unknown(f"{record.kind}.{name} is not modelled")

    def call_on_unknown(
        self, ctx: CallContext, receiver: Unknown, name: str, args: Args, kwargs: Kwargs
    ) -> Value | None:
        if name == "add" and any(self.is_object3d(a) for a in args):
            if self.implicit_scene is None:
                self.implicit_scene = self.object3d(ctx, "Scene")
                ctx.warning(
                    "threejs.implicit_scene",
                    f"objects added to something undefined ({receiver.reason}); kept as the scene",
                )
            object3d_add(ctx, self.implicit_scene, args, {})
            return self.implicit_scene
        return None

    def after_program(self, ctx: CallContext) -> None:
        onload = self.window.fields.get("onload")
        if isinstance(onload, Closure | BoundMethod | Builtin):
            self.deferred.append((onload, ctx.line, ctx.col))
        done = 0
        while done < len(self.deferred) and done < 64:
            function, line, col = self.deferred[done]
            done += 1
            if isinstance(function, Closure | BoundMethod | Builtin):
                ctx.interp.call_value(function, [Record("Event", {"type": "load"})], {}, line, col)

    # --- THREE namespace ----------------------------------------------------------------------
    def _engine_class(
        self, name: str, construct: Callable[[CallContext, Args, Kwargs], Record]
    ) -> EngineClass:
        return EngineClass(name, construct)

    def _inert_class(self, name: str) -> EngineClass:
        if name not in self.kinds:
            self.add_kind(Kind(name, inert=True))
        return EngineClass(name, lambda ctx, args, kwargs: Record(name))

    def _missing_class(self, name: str) -> Value:
        if name.endswith("Geometry"):
            return EngineClass(
                name, lambda ctx, args, kwargs: self.geometries.geometry(ctx, name, args)
            )
        if name.endswith("Material"):
            return EngineClass(
                name, lambda ctx, args, kwargs: self.materials.material(ctx, name, args)
            )
        if name[:1].isupper() and name[1:2].islower():
            return self._inert_class(name)
        return Unknown(f"THREE.{name} is not modelled")

    def _three_member(self, name: str) -> Value:
        """A member of ``THREE``: the table is built on first use, unknown names after it."""
        if not self.three.members:
            self.three.members.update(self._three_members())
            if name in self.three.members:
                return self.three.members[name]
        if name in LEGACY_NAMES:
            return self._legacy_member(name, LEGACY_NAMES[name])
        return self._missing_class(name)

    def _legacy_member(self, old: str, new: str) -> Value:
        """A name three had before r125: what it names now, reporting the old name when used."""
        current = self.three.get(new)
        message = f"THREE.{old} is three's name before r125 for {new} (same parameters and defaults); read as {new}"
        if isinstance(current, EngineClass):
            construct = current.construct

            def legacy_construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
                self.report_legacy(ctx, old, message)
                return construct(ctx, args, kwargs)

            return EngineClass(old, legacy_construct, current.static)
        if isinstance(current, Namespace):
            members: dict[str, Value] = {}
            for member, value in current.members.items():
                if isinstance(value, Builtin):
                    members[member] = self.legacy_builtin(old, message, value)
                else:
                    members[member] = value
            return Namespace(old, members, current.missing)
        return current

    def _three_members(self) -> dict[str, Value]:
        members: dict[str, Value] = {}
        for kind in (*OBJECT3D_KINDS, *CAMERA_KINDS, *LIGHT_KINDS):
            if kind == "InstancedMesh":
                continue
            members[kind] = self._engine_class(kind, self._object_constructor(kind))
        members["InstancedMesh"] = self._engine_class(
            "InstancedMesh", self.instancing.instanced_mesh
        )
        for kind in (*GEOMETRY_PARAMETERS, *OTHER_GEOMETRIES):
            members[kind] = self._engine_class(kind, self.geometries.geometry_constructor(kind))
            if kind != "BufferGeometry" and kind.endswith("Geometry"):
                # The pre-r125 names (BoxBufferGeometry) still appear in model code; the
                # constructor reads them as the geometry and says so.
                alias = kind.replace("Geometry", "BufferGeometry")
                members[alias] = self._engine_class(
                    alias, self.geometries.geometry_constructor(alias)
                )
        for kind in MATERIAL_KINDS:
            members[kind] = self._engine_class(kind, self.materials.material_constructor(kind))
        for kind in ATTRIBUTE_KINDS:
            members[kind] = self._engine_class(kind, self.vertices.attribute_constructor())
        members["Vector3"] = self._engine_class(
            "Vector3", lambda ctx, args, kwargs: self.vector3(*[num_or(a, 0.0) for a in args[:3]])
        )
        members["Vector2"] = self._engine_class(
            "Vector2",
            lambda ctx, args, kwargs: Record(
                "Vector2", {"x": num_or(arg(args, 0), 0.0), "y": num_or(arg(args, 1), 0.0)}
            ),
        )
        members["Euler"] = self._engine_class("Euler", self._new_euler)
        members["Quaternion"] = self._engine_class(
            "Quaternion",
            lambda ctx, args, kwargs: self.quaternion(
                (
                    num_or(arg(args, 0), 0.0),
                    num_or(arg(args, 1), 0.0),
                    num_or(arg(args, 2), 0.0),
                    num_or(arg(args, 3), 1.0),
                )
            ),
        )
        members["Matrix4"] = self._engine_class("Matrix4", new_matrix)
        members["Color"] = self._engine_class("Color", self.colors.new_color)
        for name in INERT_CLASSES:
            members[name] = self._inert_class(name)
        members["MathUtils"] = self._math_utils()
        members.update(THREE_CONSTANTS)
        return members

    def _math_utils(self) -> Namespace:
        def fn(name: str, impl: Callable[..., float], arity: int) -> Builtin:
            def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
                values = []
                for i in range(arity):
                    value = arg(args, i)
                    if isinstance(value, Unknown):
                        return value
                    if not is_number(value):
                        return Unknown(f"MathUtils.{name} of a {type_name(value)}")
                    values.append(float(value))
                return float(impl(*values))

            return Builtin(f"MathUtils.{name}", call)

        def random(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            return Unknown("a random number has no static value", ctx.line)

        return Namespace(
            "MathUtils",
            {
                "DEG2RAD": math.pi / 180,
                "RAD2DEG": 180 / math.pi,
                "degToRad": fn("degToRad", lambda d: d * (math.pi / 180), 1),
                "radToDeg": fn("radToDeg", lambda r: r * (180 / math.pi), 1),
                "clamp": fn("clamp", lambda v, lo, hi: max(lo, min(hi, v)), 3),
                "lerp": fn("lerp", lambda a, b, t: (1 - t) * a + t * b, 3),
                "mapLinear": fn(
                    "mapLinear", lambda x, a1, a2, b1, b2: b1 + (x - a1) * (b2 - b1) / (a2 - a1), 5
                ),
                "euclideanModulo": fn("euclideanModulo", lambda n, m: ((n % m) + m) % m, 2),
                "smoothstep": fn(
                    "smoothstep",
                    lambda x, lo, hi: (
                        0.0
                        if x <= lo
                        else 1.0
                        if x >= hi
                        else ((x - lo) / (hi - lo)) ** 2 * (3 - 2 * (x - lo) / (hi - lo))
                    ),
                    3,
                ),
                "randFloat": Builtin("randFloat", random),
                "randFloatSpread": Builtin("randFloatSpread", random),
                "randInt": Builtin("randInt", random),
                "seededRandom": Builtin("seededRandom", random),
                "generateUUID": Builtin("generateUUID", random),
            },
        )

    # --- constructors -------------------------------------------------------------------------
    def _object_constructor(self, kind: str) -> Callable[[CallContext, Args, Kwargs], Record]:
        def construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
            if kind in MESH_KINDS:
                geometry = arg(args, 0)
                material = arg(args, 1)
                if geometry is UNDEFINED:
                    geometry = self.geometries.geometry(ctx, "BufferGeometry", [])
                if material is UNDEFINED:
                    material = self.materials.material(ctx, "MeshBasicMaterial", [])
                record = self.object3d(ctx, kind, geometry=geometry, material=material)
            elif kind == "Scene":
                record = self.object3d(ctx, kind, background=None, fog=None)
                self.scenes.append(record)
            elif kind in LIGHT_KINDS:
                record = self.object3d(
                    ctx,
                    kind,
                    color=self.colors.color_from(ctx, arg(args, 0))
                    if kind != "HemisphereLight"
                    else self.color(),
                    intensity=num_or(arg(args, 1), 1.0),
                )
                if kind in ("DirectionalLight", "SpotLight"):
                    record.fields["target"] = self.object3d(ctx, "Object3D")
                    record.fields["position"].fields["y"] = 1.0
            elif kind in CAMERA_KINDS:
                record = self.object3d(
                    ctx,
                    kind,
                    fov=num_or(arg(args, 0), 50.0),
                    aspect=num_or(arg(args, 1), 1.0),
                    near=num_or(arg(args, 2), 0.1),
                    far=num_or(arg(args, 3), 2000.0),
                )
            else:
                record = self.object3d(ctx, kind)
            return record

        return construct

    def _new_euler(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        order = arg(args, 3)
        return self.euler(
            num_or(arg(args, 0), 0.0),
            num_or(arg(args, 1), 0.0),
            num_or(arg(args, 2), 0.0),
            order if isinstance(order, str) else "XYZ",
        )

    # --- kinds --------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        self.add_kind(Kind("Vector3", methods=VECTOR3_METHODS))
        self.add_kind(Kind("Vector2", methods={"set": vector2_set}))
        self.add_kind(
            Kind(
                "Euler", factory=self.rotations.euler_methods, on_set=self.rotations.euler_set_hook
            )
        )
        self.add_kind(
            Kind(
                "Quaternion",
                factory=self.rotations.quaternion_methods,
                on_set=self.rotations.quaternion_set_hook,
            )
        )
        self.add_kind(
            Kind(
                "Matrix4",
                methods=MATRIX4_METHODS,
                getters={
                    "elements": lambda ctx, r: [
                        float(v) for v in np.asarray(r.native).T.reshape(-1)
                    ]
                },
            )
        )
        self.add_kind(
            Kind(
                "Color", factory=self.colors.color_methods, getters={"isColor": lambda ctx, r: True}
            )
        )
        self.add_kind(
            Kind(
                "Object3D",
                factory=lambda: {
                    **OBJECT3D_METHODS,
                    **self.legacy_methods("Object3D", OBJECT3D_METHODS),
                },
                getters=OBJECT3D_GETTERS,
                on_set=object_set_hook,
            )
        )
        for kind in OBJECT3D_KINDS:
            if kind not in ("Object3D", "InstancedMesh"):
                self.add_kind(Kind(kind, base="Object3D"))
        self.instancing.register_instancing()
        self.add_kind(
            Kind(
                "Camera",
                base="Object3D",
                methods={
                    "updateProjectionMatrix": returns_undefined,
                    "setFocalLength": returns_undefined,
                },
            )
        )
        for kind in CAMERA_KINDS:
            if kind != "Camera":
                self.add_kind(Kind(kind, base="Camera"))
        self.add_kind(Kind("Light", base="Object3D"))
        for kind in LIGHT_KINDS:
            self.add_kind(Kind(kind, base="Light"))
        self.add_kind(
            Kind(
                "BufferGeometry",
                factory=self.geometries.geometry_methods,
                getters={
                    "isBufferGeometry": lambda ctx, r: True,
                    "attributes": lambda ctx, r: {"position": self.vertices.position_attribute(r)},
                },
            )
        )
        self.vertices.register_attribute_kinds()
        self.add_kind(
            Kind(
                "Material",
                factory=self.materials.material_methods,
                getters={"isMaterial": lambda ctx, r: True},
            )
        )
        self.add_kind(
            Kind(
                "WebGLRenderer",
                methods={"render": self._render, "setAnimationLoop": returns_undefined},
                inert=True,
            )
        )
        self.add_kind(Kind("WebGPURenderer", base="WebGLRenderer", inert=True))
        self.add_kind(
            Kind(
                "Window",
                methods={
                    "addEventListener": self._add_listener,
                    "removeEventListener": returns_undefined,
                    "requestAnimationFrame": returns_zero,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Document",
                methods={
                    "addEventListener": self._add_listener,
                    "createElement": self._element,
                    "getElementById": self._element,
                    "querySelector": self._element,
                    "createElementNS": self._element,
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Element",
                methods={
                    "appendChild": lambda ctx, r, a, k: arg(a, 0),
                    "addEventListener": returns_undefined,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Event", inert=True))

    def _element(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        return self.element

    def _add_listener(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        event = arg(args, 0)
        if event in ("load", "DOMContentLoaded"):
            self.deferred.append((arg(args, 1), ctx.line, ctx.col))
        return UNDEFINED

    def _render(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        scene = arg(args, 0)
        if (
            isinstance(scene, Record)
            and self.is_object3d(scene)
            and not any(s is scene for s in self.rendered)
        ):
            self.rendered.append(scene)
        return UNDEFINED
