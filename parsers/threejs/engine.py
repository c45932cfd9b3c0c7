"""The three.js engine table: what ``THREE`` looks like to the static evaluator.

Records mirror three's objects: ``Object3D`` and its kinds (``Mesh``, ``Group``, ``Scene``,
cameras, lights) with ``position``/``rotation``/``quaternion``/``scale``, kept in sync as three
keeps them; geometries with their ``parameters`` and any transforms applied to their
vertices; materials with a ``Color`` held, as in three r152+, in linear sRGB. The browser
around a page (``window``, ``document``, ``requestAnimationFrame``) is stubbed: animation
callbacks never run, page ``load`` handlers run once after the script, as a browser would.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parsers.evaluator import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    CallContext,
    Closure,
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
from parsers.threejs import three_math as tm
from parsers.threejs.geometries import GEOMETRY_PARAMETERS, OTHER_GEOMETRIES
from spatialbabel.colors import color_from_text
from spatialbabel.css_colors import CSS_COLORS
from spatialbabel.frames import Matrix
from spatialbabel.palette import RGB, hex_to_rgb, linear_to_srgb, srgb_to_linear

Args = list[Value]
Kwargs = dict[str, Value]

OBJECT3D_KINDS = (
    "Object3D",
    "Group",
    "Scene",
    "Mesh",
    "SkinnedMesh",
    "InstancedMesh",
    "Line",
    "LineSegments",
    "LineLoop",
    "Points",
    "Sprite",
    "Bone",
    "LOD",
)
CAMERA_KINDS = ("PerspectiveCamera", "OrthographicCamera", "Camera", "CubeCamera", "ArrayCamera")
LIGHT_KINDS = (
    "AmbientLight",
    "DirectionalLight",
    "PointLight",
    "SpotLight",
    "HemisphereLight",
    "RectAreaLight",
    "LightProbe",
)
MESH_KINDS = frozenset({"Mesh", "SkinnedMesh"})
MATERIAL_KINDS = (
    "MeshBasicMaterial", "MeshStandardMaterial", "MeshPhongMaterial", "MeshLambertMaterial",
    "MeshPhysicalMaterial", "MeshToonMaterial", "MeshMatcapMaterial", "MeshNormalMaterial",
    "MeshDepthMaterial", "MeshDistanceMaterial", "LineBasicMaterial", "LineDashedMaterial",
    "PointsMaterial", "SpriteMaterial", "ShaderMaterial", "RawShaderMaterial", "ShadowMaterial",
)  # fmt: skip
#: Materials without a ``color`` property.
COLORLESS_MATERIALS = frozenset(
    {
        "MeshNormalMaterial",
        "MeshDepthMaterial",
        "MeshDistanceMaterial",
        "ShaderMaterial",
        "RawShaderMaterial",
    }
)
#: Classes whose objects never change the scene: every member is inert.
INERT_CLASSES = (
    "WebGLRenderer", "WebGPURenderer", "Clock", "Raycaster", "TextureLoader", "CubeTextureLoader",
    "LoadingManager", "Fog", "FogExp2", "Texture", "CanvasTexture", "DataTexture", "AudioListener",
    "Audio", "AnimationMixer", "Layers", "EventDispatcher", "Box3", "Sphere", "Plane", "Ray",
    "Spherical", "Matrix3", "Shape", "Path", "Curve", "CatmullRomCurve3", "BufferAttribute",
    "Float32BufferAttribute",
)  # fmt: skip
#: Add-on classes models import from three/addons (controls, loaders, post-processing).
ADDON_CLASSES = (
    "OrbitControls",
    "TrackballControls",
    "FlyControls",
    "PointerLockControls",
    "TransformControls",
    "MapControls",
    "GLTFLoader",
    "OBJLoader",
    "FontLoader",
    "TextGeometry",
    "EffectComposer",
    "RenderPass",
    "UnrealBloomPass",
    "RoundedBoxGeometry",
    "Stats",
    "GUI",
)

DEFAULT_COLOR_LINEAR: RGB = (1.0, 1.0, 1.0)

#: Names ``THREE`` exports that the table models (besides any ``*Geometry``/``*Material``).
THREE_NAMES = frozenset(
    {
        *OBJECT3D_KINDS,
        *CAMERA_KINDS,
        *LIGHT_KINDS,
        *GEOMETRY_PARAMETERS,
        *OTHER_GEOMETRIES,
        *MATERIAL_KINDS,
        *INERT_CLASSES,
        "Vector2", "Vector3", "Euler", "Quaternion", "Matrix4", "Color", "MathUtils",
    }
)  # fmt: skip

#: three's constants a scene script may pass (colour spaces matter: they change a colour).
THREE_CONSTANTS: dict[str, Value] = {
    "REVISION": "187",
    "SRGBColorSpace": "srgb",
    "LinearSRGBColorSpace": "srgb-linear",
    "NoColorSpace": "",
    "FrontSide": 0.0,
    "BackSide": 1.0,
    "DoubleSide": 2.0,
    "BasicShadowMap": 0.0,
    "PCFShadowMap": 1.0,
    "PCFSoftShadowMap": 2.0,
    "VSMShadowMap": 3.0,
    "NoToneMapping": 0.0,
    "LinearToneMapping": 1.0,
    "ReinhardToneMapping": 2.0,
    "CineonToneMapping": 3.0,
    "ACESFilmicToneMapping": 4.0,
    "AgXToneMapping": 6.0,
    "NeutralToneMapping": 7.0,
}

_THREE_MODULE = re.compile(
    r"(^|[/@])three(@[^/]*)?(/build/three(\.module)?(\.min)?\.js|/src/Three(\.js)?|/?$)|three\.module(\.min)?\.js$|^three$",
    re.IGNORECASE,
)


_IDENTITY = np.eye(4)


def _arg(args: Args, i: int) -> Value:
    return args[i] if i < len(args) else UNDEFINED


@dataclass
class ObjectState:
    """Engine-private facts about an Object3D record."""

    line: int
    serial: int
    variable: str | None = None


@dataclass
class GeometryState:
    """A geometry's transforms applied to its vertices (``rotateX``, ``translate``...)."""

    line: int
    applied: Matrix = field(default_factory=lambda: _IDENTITY.copy())


class ThreeEngine(Engine):
    name = "threejs"

    def __init__(self) -> None:
        super().__init__()
        self.scenes: list[Record] = []
        self.rendered: list[Record] = []
        self.objects: list[Record] = []
        self.deferred: list[tuple[Value, int, int]] = []
        self.implicit_scene: Record | None = None
        self.reported_imports: set[str] = set()
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

    # --- records ------------------------------------------------------------------------------
    @staticmethod
    def vector3(x: Value = 0.0, y: Value = 0.0, z: Value = 0.0) -> Record:
        return Record("Vector3", {"x": x, "y": y, "z": z})

    @staticmethod
    def euler(
        x: Value = 0.0,
        y: Value = 0.0,
        z: Value = 0.0,
        order: Value = "XYZ",
        owner: Record | None = None,
    ) -> Record:
        return Record("Euler", {"x": x, "y": y, "z": z, "order": order}, native=owner)

    @staticmethod
    def quaternion(
        q: tuple[Value, Value, Value, Value] = tm.IDENTITY_QUAT, owner: Record | None = None
    ) -> Record:
        return Record("Quaternion", {"x": q[0], "y": q[1], "z": q[2], "w": q[3]}, native=owner)

    @staticmethod
    def matrix4(m: Matrix | None = None) -> Record:
        return Record("Matrix4", native=np.eye(4) if m is None else np.array(m, dtype=float))

    @staticmethod
    def color(linear: RGB = DEFAULT_COLOR_LINEAR) -> Record:
        return Record("Color", {"r": linear[0], "g": linear[1], "b": linear[2]})

    def object3d(self, ctx: CallContext, kind: str, **extra: Value) -> Record:
        record = Record(kind)
        record.fields.update(
            {
                "position": self.vector3(),
                "rotation": self.euler(owner=record),
                "quaternion": self.quaternion(owner=record),
                "scale": self.vector3(1.0, 1.0, 1.0),
                "up": self.vector3(0.0, 1.0, 0.0),
                "children": [],
                "parent": None,
                "name": "",
                "type": kind,
                "userData": {},
                "visible": True,
                "castShadow": False,
                "receiveShadow": False,
                "matrixAutoUpdate": True,
            }
        )
        record.fields.update(extra)
        record.native = ObjectState(ctx.line, len(self.objects))
        self.objects.append(record)
        return record

    # --- reading values ---------------------------------------------------------------------
    @staticmethod
    def numbers(record: Value, names: str) -> tuple[float, ...] | Unknown:
        """Numeric fields of a record (``"xyz"``), or an Unknown naming the first that is not."""
        if not isinstance(record, Record):
            if isinstance(record, Unknown):
                return record
            if (
                isinstance(record, list | tuple)
                and len(record) >= len(names)
                and all(is_number(v) for v in record[: len(names)])
            ):
                return tuple(float(v) for v in record[: len(names)])
            return Unknown(f"a {type_name(record)} where a {names} value is expected")
        values = []
        for name in names:
            value: Value = record.fields.get(name)
            if not _finite_number(value):
                return (
                    value
                    if isinstance(value, Unknown)
                    else Unknown(f"{record.kind}.{name} is {type_name(value)}")
                )
            values.append(float(value))
        return tuple(values)

    def vec(self, ctx: CallContext, value: Value, what: str) -> tuple[float, float, float] | None:
        found = self.numbers(value, "xyz")
        if isinstance(found, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{what} cannot be known statically ({found.reason}); ignored",
            )
            return None
        return (found[0], found[1], found[2])

    def quat_of(self, ctx: CallContext, value: Value, what: str) -> tm.Quat | None:
        found = self.numbers(value, "xyzw")
        if isinstance(found, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{what} cannot be known statically ({found.reason}); ignored",
            )
            return None
        return (found[0], found[1], found[2], found[3])

    def matrix_of(self, ctx: CallContext, value: Value, what: str) -> Matrix | None:
        if (
            isinstance(value, Record)
            and value.kind == "Matrix4"
            and isinstance(value.native, np.ndarray)
        ) and np.all(np.isfinite(value.native)):
            return value.native
        reason = value.reason if isinstance(value, Unknown) else type_name(value)
        ctx.warning(
            "threejs.unknown_value", f"{what} cannot be known statically ({reason}); ignored"
        )
        return None

    # --- rotation sync ----------------------------------------------------------------------
    def set_quaternion(self, owner: Record, q: tm.Quat | Unknown) -> None:
        """Set an object's quaternion and, as three's onChange callbacks do, its Euler."""
        quat = owner.fields["quaternion"]
        rotation = owner.fields["rotation"]
        if isinstance(q, Unknown):
            quat.fields.update({"x": q, "y": q, "z": q, "w": q})
            rotation.fields.update({"x": q, "y": q, "z": q})
            return
        quat.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})
        order = rotation.fields.get("order")
        x, y, z = tm.euler_from_quat(q, order if isinstance(order, str) else "XYZ")
        rotation.fields.update({"x": x, "y": y, "z": z})

    def sync_from_euler(self, euler: Record) -> None:
        owner = euler.native
        if not isinstance(owner, Record):
            return
        angles = self.numbers(euler, "xyz")
        quat = owner.fields["quaternion"]
        if isinstance(angles, Unknown):
            quat.fields.update({"x": angles, "y": angles, "z": angles, "w": angles})
            return
        order = euler.fields.get("order")
        q = tm.quat_from_euler(
            angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
        )
        quat.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})

    def sync_from_quaternion(self, quat: Record) -> None:
        owner = quat.native
        if not isinstance(owner, Record):
            return
        found = self.numbers(quat, "xyzw")
        rotation = owner.fields["rotation"]
        if isinstance(found, Unknown):
            rotation.fields.update({"x": found, "y": found, "z": found})
            return
        order = rotation.fields.get("order")
        x, y, z = tm.euler_from_quat(
            (found[0], found[1], found[2], found[3]), order if isinstance(order, str) else "XYZ"
        )
        rotation.fields.update({"x": x, "y": y, "z": z})

    # --- world transforms -------------------------------------------------------------------
    def local_matrix(self, record: Record, report: Callable[[str], None] | None = None) -> Matrix:
        """``Object3D.matrix`` from position, quaternion and scale (unknown parts: identity)."""
        position = self.numbers(record.fields.get("position"), "xyz")
        quat = self.numbers(record.fields.get("quaternion"), "xyzw")
        scale = self.numbers(record.fields.get("scale"), "xyz")
        if isinstance(position, Unknown):
            position = self._partial(
                record.fields.get("position"), 0.0, "position", report, position
            )
        if isinstance(quat, Unknown):
            if report is not None:
                report(
                    f"rotation cannot be known statically ({quat.reason}); the known angles kept"
                )
            rotation = record.fields.get("rotation")
            angles = self._partial(rotation, 0.0, "rotation", None, quat)
            order = rotation.fields.get("order") if isinstance(rotation, Record) else "XYZ"
            quat = tm.quat_from_euler(
                angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
            )
        if isinstance(scale, Unknown):
            scale = self._partial(record.fields.get("scale"), 1.0, "scale", report, scale)
        return tm.compose(
            (position[0], position[1], position[2]),
            (quat[0], quat[1], quat[2], quat[3]),
            (scale[0], scale[1], scale[2]),
        )

    @staticmethod
    def _partial(
        record: Value,
        default: float,
        what: str,
        report: Callable[[str], None] | None,
        unknown: Unknown,
    ) -> tuple[float, float, float]:
        values = []
        for axis in "xyz":
            value: Value = record.fields.get(axis) if isinstance(record, Record) else None
            if _finite_number(value):
                values.append(float(value))
            else:
                reason = value.reason if isinstance(value, Unknown) else unknown.reason
                if report is not None:
                    report(f"{what}.{axis} cannot be known statically ({reason}); {default:g} used")
                values.append(default)
        return (values[0], values[1], values[2])

    def world_matrix(self, record: Record) -> Matrix:
        chain = []
        current: Value = record
        seen: set[int] = set()
        while isinstance(current, Record) and id(current) not in seen:
            seen.add(id(current))
            chain.append(current)
            current = current.fields.get("parent")
        matrix = np.eye(4)
        for node in reversed(chain):
            matrix = matrix @ self.local_matrix(node)
        return matrix

    def is_object3d(self, value: Value) -> bool:
        return isinstance(value, Record) and self.is_a(value, "Object3D")

    # --- hooks --------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        def defer(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            self.deferred.append((_arg(args, 0), ctx.line, ctx.col))
            return 0.0

        def never(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            return 0.0

        def require(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            module = _arg(args, 0)
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

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        if _THREE_MODULE.search(module.strip()):
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
        return Unknown(
            f"{record.kind}.{name} does not change the scene"
            if self.is_inert(record.kind)
            else f"{record.kind}.{name} is not modelled"
        )

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
            self._add(ctx, self.implicit_scene, args, {})
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
            return EngineClass(name, lambda ctx, args, kwargs: self._geometry(ctx, name, args))
        if name.endswith("Material"):
            return EngineClass(name, lambda ctx, args, kwargs: self._material(ctx, name, args))
        if name[:1].isupper() and name[1:2].islower():
            return self._inert_class(name)
        return Unknown(f"THREE.{name} is not modelled")

    def _three_member(self, name: str) -> Value:
        """A member of ``THREE``: the table is built on first use, unknown names after it."""
        if not self.three.members:
            self.three.members.update(self._three_members())
            if name in self.three.members:
                return self.three.members[name]
        return self._missing_class(name)

    def _three_members(self) -> dict[str, Value]:
        members: dict[str, Value] = {}
        for kind in (*OBJECT3D_KINDS, *CAMERA_KINDS, *LIGHT_KINDS):
            if kind == "InstancedMesh":
                continue
            members[kind] = self._engine_class(kind, self._object_constructor(kind))
        members["InstancedMesh"] = self._engine_class("InstancedMesh", self._instanced_mesh)
        for kind in (*GEOMETRY_PARAMETERS, *OTHER_GEOMETRIES):
            members[kind] = self._engine_class(kind, self._geometry_constructor(kind))
            if kind != "BufferGeometry" and kind.endswith("Geometry"):
                # The pre-r125 names (BoxBufferGeometry) still appear in model code.
                members[kind.replace("Geometry", "BufferGeometry")] = members[kind]
        for kind in MATERIAL_KINDS:
            members[kind] = self._engine_class(kind, self._material_constructor(kind))
        members["Vector3"] = self._engine_class(
            "Vector3", lambda ctx, args, kwargs: self.vector3(*[_num_or(a, 0.0) for a in args[:3]])
        )
        members["Vector2"] = self._engine_class(
            "Vector2",
            lambda ctx, args, kwargs: Record(
                "Vector2", {"x": _num_or(_arg(args, 0), 0.0), "y": _num_or(_arg(args, 1), 0.0)}
            ),
        )
        members["Euler"] = self._engine_class("Euler", self._new_euler)
        members["Quaternion"] = self._engine_class(
            "Quaternion",
            lambda ctx, args, kwargs: self.quaternion(
                (
                    _num_or(_arg(args, 0), 0.0),
                    _num_or(_arg(args, 1), 0.0),
                    _num_or(_arg(args, 2), 0.0),
                    _num_or(_arg(args, 3), 1.0),
                )
            ),
        )
        members["Matrix4"] = self._engine_class("Matrix4", self._new_matrix)
        members["Color"] = self._engine_class("Color", self._new_color)
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
                    value = _arg(args, i)
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
                geometry = _arg(args, 0)
                material = _arg(args, 1)
                if geometry is UNDEFINED:
                    geometry = self._geometry(ctx, "BufferGeometry", [])
                if material is UNDEFINED:
                    material = self._material(ctx, "MeshBasicMaterial", [])
                record = self.object3d(ctx, kind, geometry=geometry, material=material)
            elif kind == "Scene":
                record = self.object3d(ctx, kind, background=None, fog=None)
                self.scenes.append(record)
            elif kind in LIGHT_KINDS:
                record = self.object3d(
                    ctx,
                    kind,
                    color=self._color_from(ctx, _arg(args, 0))
                    if kind != "HemisphereLight"
                    else self.color(),
                    intensity=_num_or(_arg(args, 1), 1.0),
                )
                if kind in ("DirectionalLight", "SpotLight"):
                    record.fields["target"] = self.object3d(ctx, "Object3D")
                    record.fields["position"].fields["y"] = 1.0
            elif kind in CAMERA_KINDS:
                record = self.object3d(
                    ctx,
                    kind,
                    fov=_num_or(_arg(args, 0), 50.0),
                    aspect=_num_or(_arg(args, 1), 1.0),
                    near=_num_or(_arg(args, 2), 0.1),
                    far=_num_or(_arg(args, 3), 2000.0),
                )
            else:
                record = self.object3d(ctx, kind)
            return record

        return construct

    def _instanced_mesh(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        ctx.warning(
            "threejs.instanced_mesh",
            "InstancedMesh instances are placed by per-instance matrices, which are not followed; left out",
        )
        return self.object3d(ctx, "InstancedMesh", geometry=_arg(args, 0), material=_arg(args, 1))

    def _geometry_constructor(self, kind: str) -> Callable[[CallContext, Args, Kwargs], Record]:
        return lambda ctx, args, kwargs: self._geometry(ctx, kind, args)

    def _geometry(self, ctx: CallContext, kind: str, args: Args) -> Record:
        if "BufferGeometry" in kind and kind != "BufferGeometry":
            kind = kind.replace("BufferGeometry", "Geometry")
        parameters: dict[str, Value] = {}
        for i, (name, default) in enumerate(GEOMETRY_PARAMETERS.get(kind, ())):
            value = _arg(args, i)
            parameters[name] = default if value is UNDEFINED else value
        record = Record(
            kind,
            {"type": kind, "parameters": parameters, "userData": {}},
            native=GeometryState(ctx.line),
        )
        if kind not in self.kinds:
            self.add_kind(Kind(kind, base="BufferGeometry"))
        return record

    def _material_constructor(self, kind: str) -> Callable[[CallContext, Args, Kwargs], Record]:
        return lambda ctx, args, kwargs: self._material(ctx, kind, args)

    def _material(self, ctx: CallContext, kind: str, args: Args) -> Record:
        fields: dict[str, Value] = {
            "type": kind,
            "transparent": False,
            "opacity": 1.0,
            "side": 0.0,
            "wireframe": False,
            "userData": {},
        }
        if kind not in COLORLESS_MATERIALS:
            fields["color"] = self.color(
                (0.0, 0.0, 0.0) if kind == "ShadowMaterial" else DEFAULT_COLOR_LINEAR
            )
        if (
            kind.startswith("Mesh")
            and kind not in COLORLESS_MATERIALS
            and kind not in ("MeshBasicMaterial", "MeshMatcapMaterial")
        ):
            fields["emissive"] = self.color((0.0, 0.0, 0.0))
        record = Record(kind, fields)
        if kind not in self.kinds:
            self.add_kind(Kind(kind, base="Material"))
        params = _arg(args, 0)
        if isinstance(params, dict):
            self._set_values(ctx, record, params)
        elif isinstance(params, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{kind} parameters cannot be known statically ({params.reason})",
            )
        return record

    def _new_euler(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        order = _arg(args, 3)
        return self.euler(
            _num_or(_arg(args, 0), 0.0),
            _num_or(_arg(args, 1), 0.0),
            _num_or(_arg(args, 2), 0.0),
            order if isinstance(order, str) else "XYZ",
        )

    def _new_matrix(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        record = self.matrix4()
        if len(args) == 16:
            self._matrix_set(ctx, record, args, kwargs)
        return record

    def _new_color(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        record = self.color()
        if args:
            self._color_set(ctx, record, args, kwargs)
        return record

    def _color_from(self, ctx: CallContext, value: Value) -> Record:
        record = self.color()
        if value is not UNDEFINED:
            self._color_set(ctx, record, [value], {})
        return record

    # --- kinds --------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        self.add_kind(Kind("Vector3", factory=self._vector_methods))
        self.add_kind(Kind("Vector2", methods={"set": self._vector2_set}))
        self.add_kind(Kind("Euler", factory=self._euler_methods, on_set=self._euler_set_hook))
        self.add_kind(
            Kind("Quaternion", factory=self._quaternion_methods, on_set=self._quaternion_set_hook)
        )
        self.add_kind(
            Kind(
                "Matrix4",
                factory=self._matrix_methods,
                getters={
                    "elements": lambda ctx, r: [
                        float(v) for v in np.asarray(r.native).T.reshape(-1)
                    ]
                },
            )
        )
        self.add_kind(
            Kind("Color", factory=self._color_methods, getters={"isColor": lambda ctx, r: True})
        )
        self.add_kind(
            Kind(
                "Object3D",
                factory=self._object_methods,
                getters=self._object_getters(),
                on_set=self._object_set_hook,
            )
        )
        for kind in OBJECT3D_KINDS:
            if kind != "Object3D":
                self.add_kind(Kind(kind, base="Object3D"))
        self.add_kind(
            Kind(
                "Camera",
                base="Object3D",
                methods={
                    "updateProjectionMatrix": _returns_undefined,
                    "setFocalLength": _returns_undefined,
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
                factory=self._geometry_methods,
                getters={"isBufferGeometry": lambda ctx, r: True},
            )
        )
        self.add_kind(
            Kind(
                "Material",
                factory=self._material_methods,
                getters={"isMaterial": lambda ctx, r: True},
            )
        )
        self.add_kind(
            Kind(
                "WebGLRenderer",
                methods={"render": self._render, "setAnimationLoop": _returns_undefined},
                inert=True,
            )
        )
        self.add_kind(Kind("WebGPURenderer", base="WebGLRenderer", inert=True))
        self.add_kind(
            Kind(
                "Window",
                methods={
                    "addEventListener": self._add_listener,
                    "removeEventListener": _returns_undefined,
                    "requestAnimationFrame": _returns_zero,
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
                    "appendChild": lambda ctx, r, a, k: _arg(a, 0),
                    "addEventListener": _returns_undefined,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Event", inert=True))

    def _element(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        return self.element

    def _add_listener(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        event = _arg(args, 0)
        if event in ("load", "DOMContentLoaded"):
            self.deferred.append((_arg(args, 1), ctx.line, ctx.col))
        return UNDEFINED

    def _render(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        scene = _arg(args, 0)
        if (
            isinstance(scene, Record)
            and self.is_object3d(scene)
            and not any(s is scene for s in self.rendered)
        ):
            self.rendered.append(scene)
        return UNDEFINED

    # --- Vector3 ------------------------------------------------------------------------------
    def _vector_methods(self) -> dict[str, Any]:
        engine = self

        def store(record: Record, values: tuple[Value, Value, Value] | Unknown) -> Record:
            if isinstance(values, Unknown):
                record.fields.update({"x": values, "y": values, "z": values})
            else:
                record.fields.update({"x": values[0], "y": values[1], "z": values[2]})
            return record

        def own(record: Record) -> tuple[float, float, float] | Unknown:
            found = engine.numbers(record, "xyz")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2])

        def other(value: Value) -> tuple[float, float, float] | Unknown:
            found = engine.numbers(value, "xyz")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2])

        def scalar(value: Value) -> float | Unknown:
            if is_number(value) and not isinstance(value, bool):
                return float(value)
            return (
                value
                if isinstance(value, Unknown)
                else Unknown(f"a {type_name(value)} where a number is expected")
            )

        def combine(
            fn: Callable[..., tuple[float, float, float]], *parts: Any
        ) -> tuple[float, float, float] | Unknown:
            for part in parts:
                if isinstance(part, Unknown):
                    return part
            try:
                return fn(*parts)
            except (ZeroDivisionError, ValueError, OverflowError):
                return Unknown("vector arithmetic fails")

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": _arg(a, 0), "y": _arg(a, 1), "z": _arg(a, 2)})
            return r

        def set_axis(axis: str) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                r.fields[axis] = _arg(a, 0)
                return r

            return fn

        def set_scalar(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            value = _arg(a, 0)
            r.fields.update({"x": value, "y": value, "z": value})
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = _arg(a, 0)
            if isinstance(source, Record):
                r.fields.update({axis: source.fields.get(axis, 0.0) for axis in "xyz"})
            else:
                store(
                    r,
                    Unknown(
                        source.reason
                        if isinstance(source, Unknown)
                        else "copy of a value that is not a vector"
                    ),
                )
            return r

        def unary(
            fn: Callable[[tuple[float, float, float]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r)))

        def with_vector(
            fn: Callable[[tuple[float, ...], tuple[float, ...]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r), other(_arg(a, 0))))

        def with_scalar(
            fn: Callable[[tuple[float, ...], float], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, own(r), scalar(_arg(a, 0))))

        def two_vectors(
            fn: Callable[[tuple[float, ...], tuple[float, ...]], tuple[float, float, float]],
        ) -> Callable[..., Value]:
            return lambda ctx, r, a, k: store(r, combine(fn, other(_arg(a, 0)), other(_arg(a, 1))))

        def normalize(v: tuple[float, ...]) -> tuple[float, float, float]:
            length = math.sqrt(sum(c * c for c in v)) or 1.0
            return (v[0] / length, v[1] / length, v[2] / length)

        def length(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = own(r)
            return v if isinstance(v, Unknown) else math.sqrt(sum(c * c for c in v))

        def distance(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w = own(r), other(_arg(a, 0))
            if isinstance(v, Unknown):
                return v
            if isinstance(w, Unknown):
                return w
            return math.dist(v, w)

        def dot(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w = own(r), other(_arg(a, 0))
            if isinstance(v, Unknown):
                return v
            if isinstance(w, Unknown):
                return w
            return sum(p * q for p, q in zip(v, w, strict=True))

        def cross(v: tuple[float, ...], w: tuple[float, ...]) -> tuple[float, float, float]:
            return (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])

        def apply_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = _arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                return store(r, angles)
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            q = tm.quat_from_euler(
                angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
            )
            return store(r, combine(lambda v: tm.apply_quat(q, v), own(r)))

        def apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.numbers(_arg(a, 0), "xyzw")
            if isinstance(q, Unknown):
                return store(r, q)
            return store(r, combine(lambda v: tm.apply_quat((q[0], q[1], q[2], q[3]), v), own(r)))

        def apply_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis, angle = other(_arg(a, 0)), scalar(_arg(a, 1))
            if isinstance(axis, Unknown) or isinstance(angle, Unknown):
                return store(r, axis if isinstance(axis, Unknown) else angle)  # type: ignore[arg-type]
            q = tm.quat_from_axis_angle(axis, angle)
            return store(r, combine(lambda v: tm.apply_quat(q, v), own(r)))

        def apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = _arg(a, 0)
            if not (isinstance(m, Record) and isinstance(m.native, np.ndarray)):
                return store(r, Unknown("a matrix that cannot be known statically"))
            return store(r, combine(lambda v: tm.apply_matrix(m.native, v), own(r)))

        def from_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            array = _arg(a, 0)
            offset = int(_num_or(_arg(a, 1), 0.0))
            if isinstance(array, list) and len(array) >= offset + 3:
                r.fields.update(
                    {"x": array[offset], "y": array[offset + 1], "z": array[offset + 2]}
                )
            else:
                store(r, Unknown("fromArray of an unknown array"))
            return r

        def from_matrix_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = _arg(a, 0)
            if isinstance(m, Record) and isinstance(m.native, np.ndarray):
                return store(
                    r, (float(m.native[0, 3]), float(m.native[1, 3]), float(m.native[2, 3]))
                )
            return store(r, Unknown("a matrix that cannot be known statically"))

        def spherical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            radius, phi, theta = scalar(_arg(a, 0)), scalar(_arg(a, 1)), scalar(_arg(a, 2))
            return store(
                r,
                combine(
                    lambda rr, p, t: (
                        rr * math.sin(p) * math.sin(t),
                        rr * math.cos(p),
                        rr * math.sin(p) * math.cos(t),
                    ),
                    radius,
                    phi,
                    theta,
                ),
            )

        def cylindrical(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            radius, theta, y = scalar(_arg(a, 0)), scalar(_arg(a, 1)), scalar(_arg(a, 2))
            return store(
                r,
                combine(
                    lambda rr, t, yy: (rr * math.sin(t), yy, rr * math.cos(t)), radius, theta, y
                ),
            )

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            return Record("Vector3", {axis: r.fields.get(axis, 0.0) for axis in "xyz"})

        def to_array(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            return [r.fields.get(axis, 0.0) for axis in "xyz"]

        def set_length(v: tuple[float, ...], s: float) -> tuple[float, float, float]:
            n = normalize(v)
            return (n[0] * s, n[1] * s, n[2] * s)

        def lerp_vectors(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v, w, t = other(_arg(a, 0)), other(_arg(a, 1)), scalar(_arg(a, 2))
            return store(
                r,
                combine(
                    lambda p, q, tt: tuple(
                        pi + (qi - pi) * tt for pi, qi in zip(p, q, strict=True)
                    ),
                    v,
                    w,
                    t,
                ),
            )

        def add_scaled(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            w, s = other(_arg(a, 0)), scalar(_arg(a, 1))
            return store(
                r,
                combine(
                    lambda v, ww, ss: (v[0] + ww[0] * ss, v[1] + ww[1] * ss, v[2] + ww[2] * ss),
                    own(r),
                    w,
                    s,
                ),
            )

        return {
            "set": set_,
            "setX": set_axis("x"),
            "setY": set_axis("y"),
            "setZ": set_axis("z"),
            "setScalar": set_scalar,
            "copy": copy,
            "clone": clone,
            "toArray": to_array,
            "fromArray": from_array,
            "add": with_vector(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])),
            "sub": with_vector(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])),
            "multiply": with_vector(lambda v, w: (v[0] * w[0], v[1] * w[1], v[2] * w[2])),
            "divide": with_vector(lambda v, w: (v[0] / w[0], v[1] / w[1], v[2] / w[2])),
            "min": with_vector(lambda v, w: (min(v[0], w[0]), min(v[1], w[1]), min(v[2], w[2]))),
            "max": with_vector(lambda v, w: (max(v[0], w[0]), max(v[1], w[1]), max(v[2], w[2]))),
            "cross": with_vector(cross),
            "addScalar": with_scalar(lambda v, s: (v[0] + s, v[1] + s, v[2] + s)),
            "subScalar": with_scalar(lambda v, s: (v[0] - s, v[1] - s, v[2] - s)),
            "multiplyScalar": with_scalar(lambda v, s: (v[0] * s, v[1] * s, v[2] * s)),
            "divideScalar": with_scalar(lambda v, s: (v[0] / s, v[1] / s, v[2] / s)),
            "setLength": with_scalar(set_length),
            "addVectors": two_vectors(lambda v, w: (v[0] + w[0], v[1] + w[1], v[2] + w[2])),
            "subVectors": two_vectors(lambda v, w: (v[0] - w[0], v[1] - w[1], v[2] - w[2])),
            "crossVectors": two_vectors(cross),
            "addScaledVector": add_scaled,
            "negate": unary(lambda v: (-v[0], -v[1], -v[2])),
            "normalize": unary(normalize),
            "floor": unary(lambda v: (math.floor(v[0]), math.floor(v[1]), math.floor(v[2]))),
            "round": unary(
                lambda v: (math.floor(v[0] + 0.5), math.floor(v[1] + 0.5), math.floor(v[2] + 0.5))
            ),
            "length": length,
            "lengthSq": lambda ctx, r, a, k: (
                lambda v: v if isinstance(v, Unknown) else sum(c * c for c in v)
            )(own(r)),
            "distanceTo": distance,
            "dot": dot,
            "lerp": lambda ctx, r, a, k: store(
                r,
                combine(
                    lambda v, w, t: tuple(vi + (wi - vi) * t for vi, wi in zip(v, w, strict=True)),
                    own(r),
                    other(_arg(a, 0)),
                    scalar(_arg(a, 1)),
                ),
            ),
            "lerpVectors": lerp_vectors,
            "applyEuler": apply_euler,
            "applyQuaternion": apply_quaternion,
            "applyAxisAngle": apply_axis_angle,
            "applyMatrix4": apply_matrix4,
            "setFromMatrixPosition": from_matrix_position,
            "setFromSphericalCoords": spherical,
            "setFromCylindricalCoords": cylindrical,
            "equals": lambda ctx, r, a, k: (
                isinstance(_arg(a, 0), Record)
                and all(r.fields.get(c) == _arg(a, 0).fields.get(c) for c in "xyz")
            ),
        }

    def _vector2_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        record.fields.update({"x": _arg(args, 0), "y": _arg(args, 1)})
        return record

    # --- Euler and Quaternion -------------------------------------------------------------------
    def _euler_set_hook(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        record.fields[name] = value
        if name in ("x", "y", "z", "order"):
            self.sync_from_euler(record)
        return True

    def _quaternion_set_hook(
        self, ctx: CallContext, record: Record, name: str, value: Value
    ) -> bool:
        record.fields[name] = value
        if name in ("x", "y", "z", "w"):
            self.sync_from_quaternion(record)
        return True

    def _euler_methods(self) -> dict[str, Any]:
        engine = self

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": _arg(a, 0), "y": _arg(a, 1), "z": _arg(a, 2)})
            order = _arg(a, 3)
            if isinstance(order, str):
                r.fields["order"] = order
            engine.sync_from_euler(r)
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = _arg(a, 0)
            if isinstance(source, Record):
                r.fields.update({name: source.fields.get(name, 0.0) for name in ("x", "y", "z")})
                if isinstance(source.fields.get("order"), str):
                    r.fields["order"] = source.fields["order"]
            engine.sync_from_euler(r)
            return r

        def from_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.quat_of(ctx, _arg(a, 0), "the quaternion")
            order = _arg(a, 1)
            if isinstance(order, str):
                r.fields["order"] = order
            if q is not None:
                x, y, z = tm.euler_from_quat(q, str(r.fields.get("order", "XYZ")))
                r.fields.update({"x": x, "y": y, "z": z})
                engine.sync_from_euler(r)
            return r

        def from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, _arg(a, 0), "the rotation matrix")
            order = _arg(a, 1)
            if isinstance(order, str):
                r.fields["order"] = order
            if m is not None:
                x, y, z = tm.euler_from_matrix(m, str(r.fields.get("order", "XYZ")))
                r.fields.update({"x": x, "y": y, "z": z})
                engine.sync_from_euler(r)
            return r

        def from_vector(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = _arg(a, 0)
            if isinstance(v, Record):
                r.fields.update({axis: v.fields.get(axis, 0.0) for axis in "xyz"})
            order = _arg(a, 1)
            if isinstance(order, str):
                r.fields["order"] = order
            engine.sync_from_euler(r)
            return r

        def reorder(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            angles = engine.numbers(r, "xyz")
            new_order = _arg(a, 0)
            if not isinstance(angles, Unknown) and isinstance(new_order, str):
                q = tm.quat_from_euler(
                    angles[0], angles[1], angles[2], str(r.fields.get("order", "XYZ"))
                )
                x, y, z = tm.euler_from_quat(q, new_order)
                r.fields.update({"x": x, "y": y, "z": z, "order": new_order})
                engine.sync_from_euler(r)
            return r

        return {
            "set": set_,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.euler(
                r.fields.get("x"), r.fields.get("y"), r.fields.get("z"), r.fields.get("order")
            ),
            "setFromQuaternion": from_quaternion,
            "setFromRotationMatrix": from_matrix,
            "setFromVector3": from_vector,
            "reorder": reorder,
            "toArray": lambda ctx, r, a, k: [
                r.fields.get("x"),
                r.fields.get("y"),
                r.fields.get("z"),
                r.fields.get("order"),
            ],
        }

    def _quaternion_methods(self) -> dict[str, Any]:
        engine = self

        def store(r: Record, q: tm.Quat | Unknown | None) -> Record:
            if q is None:
                q = Unknown("a quaternion that cannot be known statically")
            if isinstance(q, Unknown):
                r.fields.update({"x": q, "y": q, "z": q, "w": q})
            else:
                r.fields.update({"x": q[0], "y": q[1], "z": q[2], "w": q[3]})
            engine.sync_from_quaternion(r)
            return r

        def own(r: Record) -> tm.Quat | Unknown:
            found = engine.numbers(r, "xyzw")
            return found if isinstance(found, Unknown) else (found[0], found[1], found[2], found[3])

        def set_(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.fields.update({"x": _arg(a, 0), "y": _arg(a, 1), "z": _arg(a, 2), "w": _arg(a, 3)})
            engine.sync_from_quaternion(r)
            return r

        def from_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = _arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                return store(r, angles)
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            return store(
                r,
                tm.quat_from_euler(
                    angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
                ),
            )

        def from_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis = engine.vec(ctx, _arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                _arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            if axis is None or angle is None:
                return store(r, None)
            return store(r, tm.quat_from_axis_angle(axis, angle))

        def from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, _arg(a, 0), "the rotation matrix")
            return store(r, None if m is None else tm.quat_from_rotation_matrix(m))

        def from_unit_vectors(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = engine.vec(ctx, _arg(a, 0), "the first vector")
            w = engine.vec(ctx, _arg(a, 1), "the second vector")
            return store(r, None if v is None or w is None else tm.quat_from_unit_vectors(v, w))

        def multiply(premultiply: bool) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                mine, theirs = own(r), engine.numbers(_arg(a, 0), "xyzw")
                if isinstance(mine, Unknown) or isinstance(theirs, Unknown):
                    return store(r, mine if isinstance(mine, Unknown) else theirs)  # type: ignore[arg-type]
                q = (theirs[0], theirs[1], theirs[2], theirs[3])
                return store(
                    r, tm.quat_multiply(q, mine) if premultiply else tm.quat_multiply(mine, q)
                )

            return fn

        def multiply_two(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            p, q = engine.numbers(_arg(a, 0), "xyzw"), engine.numbers(_arg(a, 1), "xyzw")
            if isinstance(p, Unknown) or isinstance(q, Unknown):
                return store(r, p if isinstance(p, Unknown) else q)  # type: ignore[arg-type]
            return store(r, tm.quat_multiply((p[0], p[1], p[2], p[3]), (q[0], q[1], q[2], q[3])))

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            found = engine.numbers(_arg(a, 0), "xyzw")
            return store(
                r, found if isinstance(found, Unknown) else (found[0], found[1], found[2], found[3])
            )

        def invert(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = own(r)
            return store(r, q if isinstance(q, Unknown) else tm.quat_invert(q))

        def normalize(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = own(r)
            return store(r, q if isinstance(q, Unknown) else tm.quat_normalize(q))

        return {
            "set": set_,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.quaternion(
                (r.fields.get("x"), r.fields.get("y"), r.fields.get("z"), r.fields.get("w"))
            ),
            "identity": lambda ctx, r, a, k: store(r, tm.IDENTITY_QUAT),
            "setFromEuler": from_euler,
            "setFromAxisAngle": from_axis_angle,
            "setFromRotationMatrix": from_matrix,
            "setFromUnitVectors": from_unit_vectors,
            "multiply": multiply(False),
            "premultiply": multiply(True),
            "multiplyQuaternions": multiply_two,
            "invert": invert,
            "conjugate": invert,
            "normalize": normalize,
        }

    # --- Matrix4 ------------------------------------------------------------------------------
    def _matrix_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        values = [
            ctx.number(v, "a matrix element", 0.0, code="threejs.unknown_value") for v in args[:16]
        ]
        if len(values) == 16:
            record.native = np.array(values, dtype=float).reshape(4, 4)
        return record

    def _matrix_methods(self) -> dict[str, Any]:
        engine = self

        def make(builder: Callable[[CallContext, Args], Matrix | None]) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                m = builder(ctx, a)
                r.native = np.full((4, 4), np.nan) if m is None else m
                return r

            return fn

        def rotation(axis: str) -> Callable[[CallContext, Args], Matrix | None]:
            def build(ctx: CallContext, a: Args) -> Matrix | None:
                angle = ctx.optional_number(
                    _arg(a, 0), "the rotation angle", code="threejs.unknown_value"
                )
                if angle is None:
                    return None
                vector = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]
                return tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(vector, angle))

            return build

        def axis_angle(ctx: CallContext, a: Args) -> Matrix | None:
            axis = engine.vec(ctx, _arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                _arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            return (
                None
                if axis is None or angle is None
                else tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(axis, angle))
            )

        def three_numbers(
            ctx: CallContext, a: Args, default: float
        ) -> tuple[float, float, float] | None:
            first = _arg(a, 0)
            if isinstance(first, Record):
                return engine.vec(ctx, first, "the vector")
            return (
                ctx.number(first, "x", default),
                ctx.number(_arg(a, 1), "y", default),
                ctx.number(_arg(a, 2), "z", default),
            )

        def translation(ctx: CallContext, a: Args) -> Matrix | None:
            v = three_numbers(ctx, a, 0.0)
            if v is None:
                return None
            m = np.eye(4)
            m[:3, 3] = v
            return m

        def scale(ctx: CallContext, a: Args) -> Matrix | None:
            v = three_numbers(ctx, a, 1.0)
            return None if v is None else np.diag([v[0], v[1], v[2], 1.0])

        def from_euler(ctx: CallContext, a: Args) -> Matrix | None:
            euler = _arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown) or not isinstance(euler, Record):
                return None
            return tm.euler_matrix(
                angles[0], angles[1], angles[2], str(euler.fields.get("order", "XYZ"))
            )

        def from_quaternion(ctx: CallContext, a: Args) -> Matrix | None:
            q = engine.quat_of(ctx, _arg(a, 0), "the quaternion")
            return None if q is None else tm.rotation_matrix_from_quat(q)

        def compose(ctx: CallContext, a: Args) -> Matrix | None:
            p = engine.vec(ctx, _arg(a, 0), "the position")
            q = engine.quat_of(ctx, _arg(a, 1), "the quaternion")
            s = engine.vec(ctx, _arg(a, 2), "the scale")
            return None if p is None or q is None or s is None else tm.compose(p, q, s)

        def look_at(ctx: CallContext, a: Args) -> Matrix | None:
            eye = engine.vec(ctx, _arg(a, 0), "the eye")
            target = engine.vec(ctx, _arg(a, 1), "the target")
            up = engine.vec(ctx, _arg(a, 2), "the up vector")
            return (
                None
                if eye is None or target is None or up is None
                else tm.look_at_matrix(eye, target, up)
            )

        def product(order: str) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                other = _arg(a, 0)
                mine = r.native if isinstance(r.native, np.ndarray) else np.full((4, 4), np.nan)
                theirs = (
                    other.native
                    if isinstance(other, Record) and isinstance(other.native, np.ndarray)
                    else np.full((4, 4), np.nan)
                )
                r.native = mine @ theirs if order == "post" else theirs @ mine
                return r

            return fn

        def multiply_matrices(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            p, q = _arg(a, 0), _arg(a, 1)
            if (
                isinstance(p, Record)
                and isinstance(q, Record)
                and isinstance(p.native, np.ndarray)
                and isinstance(q.native, np.ndarray)
            ):
                r.native = p.native @ q.native
            else:
                r.native = np.full((4, 4), np.nan)
            return r

        def decompose(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, r, "the matrix")
            if m is None:
                return r
            position, q, s = tm.decompose(m)
            target_p, target_q, target_s = _arg(a, 0), _arg(a, 1), _arg(a, 2)
            if isinstance(target_p, Record):
                target_p.fields.update(dict(zip("xyz", position, strict=True)))
            if isinstance(target_q, Record):
                target_q.fields.update(dict(zip("xyzw", q, strict=True)))
                engine.sync_from_quaternion(target_q)
            if isinstance(target_s, Record):
                target_s.fields.update(dict(zip("xyz", s, strict=True)))
            return r

        def invert(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = r.native if isinstance(r.native, np.ndarray) else np.full((4, 4), np.nan)
            try:
                r.native = np.linalg.inv(m)
            except np.linalg.LinAlgError:
                r.native = np.zeros((4, 4))
            return r

        def set_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            v = three_numbers(ctx, a, 0.0)
            if isinstance(r.native, np.ndarray):
                r.native = np.array(r.native)
                r.native[:3, 3] = np.nan if v is None else v
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            other = _arg(a, 0)
            r.native = (
                np.array(other.native)
                if isinstance(other, Record) and isinstance(other.native, np.ndarray)
                else np.full((4, 4), np.nan)
            )
            return r

        def extract_rotation(ctx: CallContext, a: Args) -> Matrix | None:
            m = engine.matrix_of(ctx, _arg(a, 0), "the matrix")
            return None if m is None else tm.extract_rotation(m)

        return {
            "makeRotationX": make(rotation("X")),
            "makeRotationY": make(rotation("Y")),
            "makeRotationZ": make(rotation("Z")),
            "makeRotationAxis": make(axis_angle),
            "makeTranslation": make(translation),
            "makeScale": make(scale),
            "makeRotationFromEuler": make(from_euler),
            "makeRotationFromQuaternion": make(from_quaternion),
            "compose": make(compose),
            "lookAt": make(look_at),
            "extractRotation": make(extract_rotation),
            "identity": make(lambda ctx, a: np.eye(4)),
            "set": self._matrix_set,
            "multiply": product("post"),
            "premultiply": product("pre"),
            "multiplyMatrices": multiply_matrices,
            "decompose": decompose,
            "invert": invert,
            "setPosition": set_position,
            "copy": copy,
            "clone": lambda ctx, r, a, k: engine.matrix4(
                r.native if isinstance(r.native, np.ndarray) else None
            ),
            "determinant": lambda ctx, r, a, k: (
                float(np.linalg.det(r.native))
                if isinstance(r.native, np.ndarray)
                else Unknown("a matrix that cannot be known")
            ),
        }

    # --- Color --------------------------------------------------------------------------------
    def _store_linear(self, record: Record, linear: RGB | Unknown) -> Record:
        if isinstance(linear, Unknown):
            record.fields.update({"r": linear, "g": linear, "b": linear})
        else:
            record.fields.update({"r": linear[0], "g": linear[1], "b": linear[2]})
        return record

    def set_style(self, ctx: CallContext, record: Record, text: str) -> Record:
        """``Color.setStyle``: names, ``#rgb``/``#rrggbb``, ``rgb()``, ``hsl()``, all sRGB."""
        stripped = text.strip()
        srgb: RGB | None = None
        if re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", stripped) or re.match(
            r"^(rgba?|hsla?)\(", stripped
        ):
            srgb = color_from_text(stripped)
        elif stripped.lower() in CSS_COLORS:
            srgb = hex_to_rgb(CSS_COLORS[stripped.lower()])
        if srgb is None:
            ctx.warning(
                "threejs.unknown_color",
                f"three does not know the colour {text!r}; the colour is left unchanged",
            )
            return record
        return self._store_linear(record, srgb_to_linear(srgb))

    def set_hex(self, ctx: CallContext, record: Record, value: Value) -> Record:
        if isinstance(value, Unknown):
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({value.reason})"
            )
            return self._store_linear(record, value)
        number = math.floor(float(value))
        srgb = ((number >> 16 & 255) / 255, (number >> 8 & 255) / 255, (number & 255) / 255)
        return self._store_linear(record, srgb_to_linear(srgb))

    def _color_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        if len(args) >= 3:
            return self._set_rgb(ctx, record, args, kwargs)
        value = _arg(args, 0)
        if isinstance(value, Record) and value.kind == "Color":
            record.fields.update({c: value.fields.get(c, 1.0) for c in "rgb"})
        elif is_number(value) and not isinstance(value, bool):
            self.set_hex(ctx, record, value)
        elif isinstance(value, str):
            self.set_style(ctx, record, value)
        elif isinstance(value, Unknown):
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({value.reason})"
            )
            self._store_linear(record, value)
        elif value is not UNDEFINED:
            ctx.warning(
                "threejs.bad_color",
                f"three ignores a colour given as a {type_name(value)}; the colour is left unchanged",
            )
        return record

    def _set_rgb(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        values = [_arg(args, i) for i in range(3)]
        unknown = next((v for v in values if isinstance(v, Unknown)), None)
        if unknown is not None:
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({unknown.reason})"
            )
            return self._store_linear(record, unknown)
        numbers = [ctx.number(v, "a colour component", 0.0) for v in values]
        space = _arg(args, 3)
        linear = (numbers[0], numbers[1], numbers[2])
        if isinstance(space, str) and space.lower() == "srgb":
            linear = srgb_to_linear(linear)
        return self._store_linear(record, linear)

    def _color_methods(self) -> dict[str, Any]:
        engine = self

        def set_hsl(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            values = [ctx.number(_arg(a, i), "an HSL component", 0.0) for i in range(3)]
            h = values[0] % 1.0
            s = min(max(values[1], 0.0), 1.0)
            lum = min(max(values[2], 0.0), 1.0)

            def hue(p: float, q: float, t: float) -> float:
                if t < 0:
                    t += 1
                if t > 1:
                    t -= 1
                if t < 1 / 6:
                    return p + (q - p) * 6 * t
                if t < 1 / 2:
                    return q
                if t < 2 / 3:
                    return p + (q - p) * 6 * (2 / 3 - t)
                return p

            if s == 0:
                rgb = (lum, lum, lum)
            else:
                p = lum * (1 + s) if lum <= 0.5 else lum + s - lum * s
                q = 2 * lum - p
                rgb = (hue(q, p, h + 1 / 3), hue(q, p, h), hue(q, p, h - 1 / 3))
            space = _arg(a, 3)
            if isinstance(space, str) and space.lower() == "srgb":
                rgb = srgb_to_linear(rgb)
            return engine._store_linear(r, rgb)

        def scaled(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            s = _arg(a, 0)
            if not is_number(s):
                return engine._store_linear(r, Unknown("a colour scaled by an unknown factor"))
            for c in "rgb":
                value = r.fields.get(c)
                r.fields[c] = value * s if is_number(value) else value
            return r

        def lerp(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            other, t = _arg(a, 0), _arg(a, 1)
            if not (isinstance(other, Record) and is_number(t)):
                return engine._store_linear(
                    r, Unknown("a colour blend that cannot be known statically")
                )
            for c in "rgb":
                p: Value = r.fields.get(c)
                q: Value = other.fields.get(c)
                r.fields[c] = (
                    float(p) + (float(q) - float(p)) * t
                    if _finite_number(p) and _finite_number(q)
                    else Unknown("an unknown colour")
                )
            return r

        def get_hex(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            linear = engine.numbers(r, "rgb")
            if isinstance(linear, Unknown):
                return linear
            srgb = linear_to_srgb((linear[0], linear[1], linear[2]))
            return float(
                sum(
                    round(min(max(c * 255, 0), 255)) << shift
                    for c, shift in zip(srgb, (16, 8, 0), strict=True)
                )
            )

        def convert(to_linear: bool) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                values = engine.numbers(r, "rgb")
                if isinstance(values, Unknown):
                    return r
                rgb = (values[0], values[1], values[2])
                return engine._store_linear(
                    r, srgb_to_linear(rgb) if to_linear else linear_to_srgb(rgb)
                )

            return fn

        return {
            "set": self._color_set,
            "setHex": lambda ctx, r, a, k: engine.set_hex(ctx, r, _arg(a, 0)),
            "setRGB": self._set_rgb,
            "setHSL": set_hsl,
            "setStyle": lambda ctx, r, a, k: (
                engine.set_style(ctx, r, _arg(a, 0)) if isinstance(_arg(a, 0), str) else r
            ),
            "setColorName": lambda ctx, r, a, k: (
                engine.set_style(ctx, r, _arg(a, 0)) if isinstance(_arg(a, 0), str) else r
            ),
            "setScalar": lambda ctx, r, a, k: engine._store_linear(
                r, (_num_or(_arg(a, 0), 0.0),) * 3
            ),
            "copy": lambda ctx, r, a, k: engine._color_set(ctx, r, [_arg(a, 0)], {}),
            "clone": lambda ctx, r, a, k: Record("Color", dict(r.fields)),
            "getHex": get_hex,
            "getHexString": lambda ctx, r, a, k: (
                lambda h: h if isinstance(h, Unknown) else f"{int(h):06x}"
            )(get_hex(ctx, r, a, k)),
            "multiplyScalar": scaled,
            "lerp": lerp,
            "convertSRGBToLinear": convert(True),
            "convertLinearToSRGB": convert(False),
        }

    # --- Object3D -------------------------------------------------------------------------------
    def _object_getters(self) -> dict[str, Any]:
        def flag(*kinds: str) -> Callable[[CallContext, Record], Value]:
            return lambda ctx, r: any(self.is_a(r, kind) for kind in kinds)

        return {
            "isObject3D": lambda ctx, r: True,
            "isMesh": flag(*MESH_KINDS, "InstancedMesh"),
            "isGroup": flag("Group"),
            "isScene": flag("Scene"),
            "isCamera": flag("Camera"),
            "isLight": flag("Light"),
            "id": lambda ctx, r: float(r.native.serial if isinstance(r.native, ObjectState) else 0),
            "matrix": lambda ctx, r: self.matrix4(self.local_matrix(r)),
            "matrixWorld": lambda ctx, r: self.matrix4(self.world_matrix(r)),
        }

    def _object_set_hook(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name in ("position", "rotation", "quaternion", "scale"):
            what = {
                "position": "set or copy",
                "rotation": "set or copy",
                "quaternion": "copy",
                "scale": "set or copy",
            }[name]
            ctx.warning(
                "threejs.readonly_property",
                f"three.js refuses assigning {name} (a read-only property: ignored, or an error in a module); use {name}.{what.split()[0]}(...). The object keeps its {name}",
            )
            return True
        return False

    def _add(self, ctx: CallContext, parent: Record, args: Args, kwargs: Kwargs) -> Value:
        for child in args:
            if child is parent:
                ctx.warning("threejs.bad_add", "an object cannot be added to itself; ignored")
                continue
            if not self.is_object3d(child):
                reason = child.reason if isinstance(child, Unknown) else f"a {type_name(child)}"
                ctx.warning(
                    "threejs.bad_add",
                    f"add() of something that is not an Object3D ({reason}); ignored",
                )
                continue
            self._detach(child)
            child.fields["parent"] = parent
            children = parent.fields.setdefault("children", [])
            if isinstance(children, list):
                children.append(child)
        return parent

    @staticmethod
    def _detach(child: Record) -> None:
        old = child.fields.get("parent")
        if isinstance(old, Record):
            siblings = old.fields.get("children")
            if isinstance(siblings, list):
                for i, sibling in enumerate(siblings):
                    if sibling is child:
                        del siblings[i]
                        break
        child.fields["parent"] = None

    def descendants(self, root: Record) -> list[Record]:
        """``root`` and every object below it, depth first, as ``traverse`` visits them."""
        result: list[Record] = []
        seen: set[int] = set()
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            result.append(node)
            children = node.fields.get("children")
            if isinstance(children, list):
                stack.extend(reversed([c for c in children if isinstance(c, Record)]))
        return result

    def _object_methods(self) -> dict[str, Any]:
        engine = self

        def remove(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            for child in a:
                if isinstance(child, Record) and child.fields.get("parent") is r:
                    engine._detach(child)
            return r

        def remove_from_parent(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            engine._detach(r)
            return r

        def clear(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            children = r.fields.get("children")
            for child in list(children) if isinstance(children, list) else []:
                if isinstance(child, Record):
                    engine._detach(child)
            return r

        def attach(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            child = _arg(a, 0)
            if not engine.is_object3d(child):
                return r
            world = engine.world_matrix(child)
            inverse = np.linalg.inv(engine.world_matrix(r))
            engine._add(ctx, r, [child], {})
            position, q, s = tm.decompose(inverse @ world)
            child.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
            child.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
            engine.set_quaternion(child, q)
            return r

        def traverse(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            callback = _arg(a, 0)
            for node in engine.descendants(r)[: ctx.interp.limits.max_loop_iterations]:
                ctx.interp.budget.step()
                ctx.call(callback, [node])
            return UNDEFINED

        def by_name(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            name = _arg(a, 0)
            for node in engine.descendants(r):
                if node.fields.get("name") == name:
                    return node
            return UNDEFINED

        def look_at(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            first = _arg(a, 0)
            if isinstance(first, Record):
                target = engine.vec(ctx, first, "the lookAt target")
            else:
                values = [
                    ctx.optional_number(
                        _arg(a, i), "the lookAt target", code="threejs.unknown_value"
                    )
                    for i in range(3)
                ]
                x, y, z = values
                target = None if x is None or y is None or z is None else (x, y, z)
            up = engine.vec(ctx, r.fields.get("up"), "the up vector")
            if target is None or up is None:
                return UNDEFINED
            world = engine.world_matrix(r)
            position = (float(world[0, 3]), float(world[1, 3]), float(world[2, 3]))
            if engine.is_a(r, "Camera") or engine.is_a(r, "Light"):
                m = tm.look_at_matrix(position, target, up)
            else:
                m = tm.look_at_matrix(target, position, up)
            q = tm.quat_from_rotation_matrix(m)
            parent = r.fields.get("parent")
            if isinstance(parent, Record):
                parent_q = tm.quat_from_rotation_matrix(
                    tm.extract_rotation(engine.world_matrix(parent))
                )
                q = tm.quat_multiply(tm.quat_invert(parent_q), q)
            engine.set_quaternion(r, q)
            return UNDEFINED

        def own_quaternion(ctx: CallContext, r: Record) -> tm.Quat | None:
            return engine.quat_of(ctx, r.fields.get("quaternion"), "the object's rotation")

        def rotate_on_axis(
            world: bool, fixed: tuple[float, float, float] | None = None
        ) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                if fixed is None:
                    axis = engine.vec(ctx, _arg(a, 0), "the rotation axis")
                    angle = ctx.optional_number(
                        _arg(a, 1), "the rotation angle", code="threejs.unknown_value"
                    )
                else:
                    axis = fixed
                    angle = ctx.optional_number(
                        _arg(a, 0), "the rotation angle", code="threejs.unknown_value"
                    )
                q = own_quaternion(ctx, r)
                if axis is None or angle is None or q is None:
                    return r
                turn = tm.quat_from_axis_angle(axis, angle)
                engine.set_quaternion(
                    r, tm.quat_multiply(turn, q) if world else tm.quat_multiply(q, turn)
                )
                return r

            return fn

        def translate_on_axis(
            fixed: tuple[float, float, float] | None = None,
        ) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                if fixed is None:
                    axis = engine.vec(ctx, _arg(a, 0), "the axis")
                    distance = ctx.optional_number(
                        _arg(a, 1), "the distance", code="threejs.unknown_value"
                    )
                else:
                    axis = fixed
                    distance = ctx.optional_number(
                        _arg(a, 0), "the distance", code="threejs.unknown_value"
                    )
                q = own_quaternion(ctx, r)
                position = engine.vec(ctx, r.fields.get("position"), "the position")
                if axis is None or distance is None or q is None or position is None:
                    return r
                moved = tm.apply_quat(q, axis)
                r.fields["position"].fields.update(
                    {c: position[i] + moved[i] * distance for i, c in enumerate("xyz")}
                )
                return r

            return fn

        def set_rotation_from_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = _arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                ctx.warning(
                    "threejs.unknown_value",
                    f"the Euler angles cannot be known statically ({angles.reason}); ignored",
                )
                return UNDEFINED
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            engine.set_quaternion(
                r,
                tm.quat_from_euler(
                    angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
                ),
            )
            return UNDEFINED

        def set_rotation_from_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.quat_of(ctx, _arg(a, 0), "the quaternion")
            if q is not None:
                engine.set_quaternion(r, q)
            return UNDEFINED

        def set_rotation_from_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis = engine.vec(ctx, _arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                _arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            if axis is not None and angle is not None:
                engine.set_quaternion(r, tm.quat_from_axis_angle(axis, angle))
            return UNDEFINED

        def set_rotation_from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, _arg(a, 0), "the rotation matrix")
            if m is not None:
                engine.set_quaternion(r, tm.quat_from_rotation_matrix(m))
            return UNDEFINED

        def apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.quat_of(ctx, _arg(a, 0), "the quaternion")
            mine = own_quaternion(ctx, r)
            if q is not None and mine is not None:
                engine.set_quaternion(r, tm.quat_multiply(q, mine))
            return r

        def apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, _arg(a, 0), "the matrix")
            if m is None:
                return r
            position, q, s = tm.decompose(m @ engine.local_matrix(r))
            r.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
            r.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
            engine.set_quaternion(r, q)
            return r

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            recursive = _arg(a, 0)
            return engine._clone(ctx, r, recursive is not False)

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = _arg(a, 0)
            if isinstance(source, Record):
                engine._copy_into(ctx, r, source, _arg(a, 1) is not False)
            return r

        def world_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            target = _arg(a, 0)
            world = engine.world_matrix(r)
            vector = target if isinstance(target, Record) else engine.vector3()
            vector.fields.update(
                {"x": float(world[0, 3]), "y": float(world[1, 3]), "z": float(world[2, 3])}
            )
            return vector

        def local_to_world(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            vector = _arg(a, 0)
            v = engine.vec(ctx, vector, "the point")
            if v is not None and isinstance(vector, Record):
                vector.fields.update(
                    dict(zip("xyz", tm.apply_matrix(engine.world_matrix(r), v), strict=True))
                )
            return vector

        def world_to_local(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            vector = _arg(a, 0)
            v = engine.vec(ctx, vector, "the point")
            if v is not None and isinstance(vector, Record):
                vector.fields.update(
                    dict(
                        zip(
                            "xyz",
                            tm.apply_matrix(np.linalg.inv(engine.world_matrix(r)), v),
                            strict=True,
                        )
                    )
                )
            return vector

        return {
            "add": self._add,
            "remove": remove,
            "removeFromParent": remove_from_parent,
            "clear": clear,
            "attach": attach,
            "traverse": traverse,
            "traverseVisible": traverse,
            "getObjectByName": by_name,
            "lookAt": look_at,
            "rotateX": rotate_on_axis(False, (1.0, 0.0, 0.0)),
            "rotateY": rotate_on_axis(False, (0.0, 1.0, 0.0)),
            "rotateZ": rotate_on_axis(False, (0.0, 0.0, 1.0)),
            "rotateOnAxis": rotate_on_axis(False),
            "rotateOnWorldAxis": rotate_on_axis(True),
            "translateX": translate_on_axis((1.0, 0.0, 0.0)),
            "translateY": translate_on_axis((0.0, 1.0, 0.0)),
            "translateZ": translate_on_axis((0.0, 0.0, 1.0)),
            "translateOnAxis": translate_on_axis(),
            "setRotationFromEuler": set_rotation_from_euler,
            "setRotationFromQuaternion": set_rotation_from_quaternion,
            "setRotationFromAxisAngle": set_rotation_from_axis_angle,
            "setRotationFromMatrix": set_rotation_from_matrix,
            "applyQuaternion": apply_quaternion,
            "applyMatrix4": apply_matrix4,
            "clone": clone,
            "copy": copy,
            "getWorldPosition": world_position,
            "localToWorld": local_to_world,
            "worldToLocal": world_to_local,
            "updateMatrix": _returns_undefined,
            "updateMatrixWorld": _returns_undefined,
            "updateWorldMatrix": _returns_undefined,
            "dispatchEvent": _returns_undefined,
            "addEventListener": _returns_undefined,
        }

    def _copy_into(self, ctx: CallContext, target: Record, source: Record, recursive: bool) -> None:
        for name in ("position", "scale", "up"):
            vector = source.fields.get(name)
            if isinstance(vector, Record):
                target.fields[name].fields.update({c: vector.fields.get(c) for c in "xyz"})
        target.fields["rotation"].fields["order"] = source.fields["rotation"].fields.get(
            "order", "XYZ"
        )
        q = self.numbers(source.fields.get("quaternion"), "xyzw")
        self.set_quaternion(target, q if isinstance(q, Unknown) else (q[0], q[1], q[2], q[3]))
        for name in ("name", "visible", "castShadow", "receiveShadow", "geometry", "material"):
            if name in source.fields:
                target.fields[name] = source.fields[name]
        user_data = source.fields.get("userData")
        target.fields["userData"] = dict(user_data) if isinstance(user_data, dict) else {}
        if recursive:
            children = source.fields.get("children")
            for child in list(children) if isinstance(children, list) else []:
                if isinstance(child, Record) and self.is_object3d(child):
                    self._add(ctx, target, [self._clone(ctx, child, True)], {})

    def _clone(self, ctx: CallContext, source: Record, recursive: bool) -> Record:
        clone = self.object3d(ctx, source.kind)
        clone.cls = source.cls
        if source.kind == "Scene":
            self.scenes.append(clone)
        self._copy_into(ctx, clone, source, recursive)
        return clone

    # --- geometry and material -----------------------------------------------------------------
    def _geometry_methods(self) -> dict[str, Any]:
        engine = self

        def transform(build: Callable[[CallContext, Args], Matrix | None]) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                m = build(ctx, a)
                if isinstance(r.native, GeometryState):
                    if m is None:
                        ctx.warning(
                            "threejs.unknown_value",
                            "a geometry transform that cannot be known statically is ignored",
                        )
                    else:
                        r.native.applied = m @ r.native.applied
                return r

            return fn

        def rotation(axis: str) -> Callable[[CallContext, Args], Matrix | None]:
            vector = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]

            def build(ctx: CallContext, a: Args) -> Matrix | None:
                angle = ctx.optional_number(
                    _arg(a, 0), "the rotation angle", code="threejs.unknown_value"
                )
                return (
                    None
                    if angle is None
                    else tm.rotation_matrix_from_quat(tm.quat_from_axis_angle(vector, angle))
                )

            return build

        def translate(ctx: CallContext, a: Args) -> Matrix | None:
            m = np.eye(4)
            m[:3, 3] = [
                ctx.number(_arg(a, i), "the translation", 0.0, code="threejs.unknown_value")
                for i in range(3)
            ]
            return m

        def scale(ctx: CallContext, a: Args) -> Matrix | None:
            return np.diag(
                [
                    *(
                        ctx.number(_arg(a, i), "the scale", 1.0, code="threejs.unknown_value")
                        for i in range(3)
                    ),
                    1.0,
                ]
            )

        def apply_quaternion(ctx: CallContext, a: Args) -> Matrix | None:
            q = engine.quat_of(ctx, _arg(a, 0), "the quaternion")
            return None if q is None else tm.rotation_matrix_from_quat(q)

        def apply_matrix(ctx: CallContext, a: Args) -> Matrix | None:
            return engine.matrix_of(ctx, _arg(a, 0), "the matrix")

        def center(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            from parsers.threejs.scene_reader import geometry_affine

            reading = geometry_affine(ctx, engine, r)
            if reading is None or not isinstance(r.native, GeometryState):
                return r
            from spatialbabel.geometry import primitive_aabb

            class_name, affine = reading
            lo, hi = primitive_aabb(class_name, affine)
            shift = np.eye(4)
            shift[:3, 3] = -(lo + hi) / 2
            r.native.applied = shift @ r.native.applied
            return r

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            state = r.native
            copy = Record(
                r.kind,
                {
                    "type": r.fields.get("type"),
                    "parameters": dict(r.fields.get("parameters") or {}),
                    "userData": {},
                },
            )
            copy.native = (
                GeometryState(state.line, np.array(state.applied))
                if isinstance(state, GeometryState)
                else None
            )
            return copy

        return {
            "rotateX": transform(rotation("X")),
            "rotateY": transform(rotation("Y")),
            "rotateZ": transform(rotation("Z")),
            "translate": transform(translate),
            "scale": transform(scale),
            "applyQuaternion": transform(apply_quaternion),
            "applyMatrix4": transform(apply_matrix),
            "center": center,
            "clone": clone,
            "computeVertexNormals": _returns_undefined,
            "computeBoundingBox": _returns_undefined,
            "computeBoundingSphere": _returns_undefined,
            "dispose": _returns_undefined,
            "toNonIndexed": lambda ctx, r, a, k: r,
            "setAttribute": lambda ctx, r, a, k: r,
        }

    def _set_values(self, ctx: CallContext, record: Record, params: dict[str, Value]) -> None:
        for key, value in params.items():
            if value is UNDEFINED:
                ctx.info(
                    "threejs.material_parameter",
                    f"material parameter {key!r} is undefined; ignored",
                )
                continue
            current = record.fields.get(key)
            if isinstance(current, Record) and current.kind == "Color":
                self._color_set(ctx, current, [value], {})
            elif key == "colour":
                ctx.warning(
                    "threejs.material_parameter",
                    f"'colour' is not a property of THREE.{record.kind} (three wants 'color'); ignored",
                )
            else:
                record.fields[key] = value

    def _material_methods(self) -> dict[str, Any]:
        engine = self

        def set_values(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            params = _arg(a, 0)
            if isinstance(params, dict):
                engine._set_values(ctx, r, params)
            return UNDEFINED

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            fields = dict(r.fields)
            for name, value in r.fields.items():
                if isinstance(value, Record) and value.kind == "Color":
                    fields[name] = Record("Color", dict(value.fields))
            return Record(r.kind, fields)

        return {"setValues": set_values, "clone": clone, "dispose": _returns_undefined}


def _finite_number(value: Value) -> bool:
    if type(value) is float:  # the common case, without the isinstance chain
        return math.isfinite(value)
    return is_number(value) and not isinstance(value, bool) and math.isfinite(value)


def _num_or(value: Value, default: float) -> Value:
    if value is UNDEFINED:
        return default
    return value


def _returns_undefined(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return UNDEFINED


def _returns_zero(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return 0.0
