"""The names three.js scripts use, grouped by what they are: the classes of each kind
(objects, cameras, lights, materials, helpers that never change the scene, add-ons), the
names of the ``THREE`` namespace and its constants, and the module specifiers that mean three.
"""

from __future__ import annotations

import re

from parsers.evaluator import Value
from parsers.threejs.geometries import GEOMETRY_PARAMETERS, OTHER_GEOMETRIES
from spatialbabel.palette import RGB

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
    "Spherical", "Matrix3", "Shape", "Path", "Curve", "CatmullRomCurve3",
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

#: Names of ``THREE`` before r125 that models trained on older code still write, and the name
#: three has for the same thing now. Three.Legacy.js of r124 exports ``BoxGeometry as
#: CubeGeometry`` and ``MathUtils as Math`` (r125 still the latter); each takes the same
#: parameters with the same defaults. (The ``*BufferGeometry`` names, aliases of the geometries
#: from r125 until their removal, are handled with the geometries.)
LEGACY_NAMES: dict[str, str] = {"CubeGeometry": "BoxGeometry", "Math": "MathUtils"}

#: Methods renamed since: r124 and r125's Three.Legacy.js define ``applyMatrix(m)`` on
#: ``Object3D``, ``Geometry`` and ``BufferGeometry`` as ``this.applyMatrix4(m)``.
LEGACY_METHODS: dict[str, str] = {"applyMatrix": "applyMatrix4"}

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

THREE_MODULE = re.compile(
    r"(^|[/@])three(@[^/]*)?(/build/three(\.module)?(\.min)?\.js|/src/Three(\.js)?|/?$)|three\.module(\.min)?\.js$|^three$",
    re.IGNORECASE,
)
