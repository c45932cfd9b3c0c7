"""One scene written as a model would write it in each of the six languages, with the idioms of
issue 12: shapes an engine lacks built as custom meshes (Unity's cones, pyramids and tori from
vertex lists filled in loops; three.js, Blender and Open3D meshes from computed or rewritten
vertices), objects made through a helper per language, and a ground in the engine's own frame
or in the other one (a Z-up floor in a Y-up engine stands behind the objects, a Y-up floor in
Blender in front of them).

The plain writers (``parsers.write``) say each object the simplest way; these say it the way
replies do, so that the cross-language check (tests/parsers/test_cross_language.py) asks every
parser to read the same scene through different code. ``variant`` picks the ground and which
custom-mesh idioms a reply uses, so a set of scenes covers all of them in every language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from parsers.blender.rotations import decompose_trs, matrix_to_blender_euler
from parsers.blender.shapes import Y_TO_Z
from spatialbabel import Scene, SceneObject, language_frame, object_affine
from spatialbabel.frames import Matrix, matrix_to_euler
from spatialbabel.palette import PALETTE, rgb_to_hex, srgb_to_linear

#: How the reply lays its ground: the engine's own flat ground (a plane, or a disc), a thin box
#: under the objects in the engine's frame, or a thin box written in the other frame (thin on
#: the depth axis, behind or in front of every object).
GROUND_STYLES: Final = ("engine", "slab", "other_frame")

#: Half the side of the ground (the scenes' objects stand within 3 of the origin) and how far
#: from the origin a ground written in the other frame stands along the depth axis.
_HALF: Final = 4.0
_DEPTH: Final = 3.6
_THICK: Final = 0.05


@dataclass(frozen=True)
class Variant:
    """Which idioms one reply uses: the ground's style and whether the shapes three.js, Blender
    and Open3D have as primitives are built from vertices instead."""

    ground: str
    procedural: bool

    @classmethod
    def of(cls, index: int) -> Variant:
        return cls(GROUND_STYLES[index % len(GROUND_STYLES)], index % 2 == 1)


# --- numbers and shared geometry ----------------------------------------------------------------


def _n(value: float) -> str:
    """Shortest text that reads back as exactly ``value``."""
    value = float(value) + 0.0
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _f(value: float) -> str:
    """A C# float literal reading back as ``value`` (the parser reads C# floats as doubles)."""
    text = _n(value)
    return (text if ("." in text or "e" in text) else text + ".0") + "f"


def _py(value: float) -> str:
    text = _n(value)
    return text if ("." in text or "e" in text) else text + ".0"


def _tuple(values: object, fmt: Callable[[float], str] = _py) -> str:
    return "(" + ", ".join(fmt(float(v)) for v in values) + ")"  # type: ignore[attr-defined]


def _rgb(obj: SceneObject) -> tuple[float, float, float]:
    if obj.rgb is not None:
        return obj.rgb
    return PALETTE[obj.color or "white"]


def _round_shape(obj: SceneObject) -> float:
    """The width of a shape whose cross-section is round or square (x = z); these writers make
    every shape that way, as the generator does."""
    sx, _, sz = obj.size
    if not math.isclose(sx, sz, rel_tol=0.0, abs_tol=1e-12):
        raise ValueError(f"{obj.id}: the idiom writers make {obj.class_name}s with x = z only")
    return sx


def _torus_radii(obj: SceneObject) -> tuple[float, float]:
    """Major and minor radius of the torus spanning the object's size (its tube ratio is the
    generator's rounded one, not always the unit torus's 1/3)."""
    width, height = _round_shape(obj), obj.size[1]
    return (width - height) / 2.0, height / 2.0


def _base_point(obj: SceneObject) -> Matrix:
    """Where a mesh whose origin is the middle of its base is placed: the centre moved down
    half the height along the object's own axis."""
    return np.asarray(obj.position, dtype=float) - obj.rotation_matrix @ np.array(
        [0.0, obj.size[1] / 2.0, 0.0]
    )


def _slab(style: str, *, in_front: bool = False) -> tuple[Matrix, Matrix]:
    """Centre and size (canonical) of the thin box a reply lays as its ground: under the
    objects, its top at y = 0 ("slab"), or thin along the depth axis behind them, or in front
    of them ("other_frame": a Z-up floor in a Y-up engine, a Y-up floor in Blender)."""
    if style == "slab":
        return np.array([0.0, -_THICK / 2, 0.0]), np.array([2 * _HALF, _THICK, 2 * _HALF])
    depth = _DEPTH if in_front else -_DEPTH
    return np.array([0.0, 1.0, depth]), np.array([2 * _HALF, 2 * _HALF, _THICK])


def _join(values: Matrix | Sequence[float], separator: str = ", ") -> str:
    return separator.join(_n(float(v)) for v in values)


def _reply(intro: str, fence: str, code: list[str], outro: str) -> str:
    return f"{intro}\n\n```{fence}\n" + "\n".join(code) + f"\n```\n\n{outro}\n"


# --- three.js -----------------------------------------------------------------------------------

_THREE_HEAD = [
    "import * as THREE from 'three';",
    "",
    "const scene = new THREE.Scene();",
    "scene.background = new THREE.Color(0xf0f0f0);",
    "const camera = new THREE.PerspectiveCamera(45, 1, 0.1, 100);",
    "camera.position.set(0, 6, 10);",
    "camera.lookAt(0, 0, 0);",
    "const renderer = new THREE.WebGLRenderer({ antialias: true });",
    "renderer.setSize(512, 512);",
    "document.body.appendChild(renderer.domElement);",
    "",
    "scene.add(new THREE.AmbientLight(0xffffff, 0.5));",
    "const sun = new THREE.DirectionalLight(0xffffff, 1);",
    "sun.position.set(5, 10, 7);",
    "scene.add(sun);",
    "",
    "// Helper: one mesh per object, angles in degrees",
    "function addObject(geometry, color, x, y, z, rx = 0, ry = 0, rz = 0) {",
    "  const material = new THREE.MeshStandardMaterial({ color: color });",
    "  const mesh = new THREE.Mesh(geometry, material);",
    "  mesh.position.set(x, y, z);",
    "  mesh.rotation.set(",
    "    THREE.MathUtils.degToRad(rx),",
    "    THREE.MathUtils.degToRad(ry),",
    "    THREE.MathUtils.degToRad(rz)",
    "  );",
    "  scene.add(mesh);",
    "  return mesh;",
    "}",
    "",
]

_THREE_PROCEDURAL = [
    "// A cone from raw vertices: apex over a ring, base centred on y = 0",
    "function coneGeometry(radius, height, segments) {",
    "  const vertices = [0, height, 0];",
    "  for (let i = 0; i < segments; i++) {",
    "    const a = (i / segments) * Math.PI * 2;",
    "    vertices.push(radius * Math.cos(a), 0, radius * Math.sin(a));",
    "  }",
    "  vertices.push(0, 0, 0);",
    "  const geometry = new THREE.BufferGeometry();",
    "  geometry.setAttribute('position', new THREE.Float32BufferAttribute(vertices, 3));",
    "  return geometry;",
    "}",
    "",
    "// A square pyramid from its five corners, base centred on y = 0",
    "function pyramidGeometry(width, height, depth) {",
    "  const points = [",
    "    new THREE.Vector3(-width / 2, 0, -depth / 2),",
    "    new THREE.Vector3(width / 2, 0, -depth / 2),",
    "    new THREE.Vector3(width / 2, 0, depth / 2),",
    "    new THREE.Vector3(-width / 2, 0, depth / 2),",
    "    new THREE.Vector3(0, height, 0),",
    "  ];",
    "  return new THREE.BufferGeometry().setFromPoints(points);",
    "}",
    "",
    "// A torus lying flat (in the XZ plane), filled ring by ring",
    "function torusGeometry(R, r, radial, tubular) {",
    "  const positions = new Float32Array((radial + 1) * (tubular + 1) * 3);",
    "  let k = 0;",
    "  for (let i = 0; i <= radial; i++) {",
    "    const u = (i / radial) * Math.PI * 2;",
    "    for (let j = 0; j <= tubular; j++) {",
    "      const v = (j / tubular) * Math.PI * 2;",
    "      positions[k++] = (R + r * Math.cos(v)) * Math.cos(u);",
    "      positions[k++] = r * Math.sin(v);",
    "      positions[k++] = (R + r * Math.cos(v)) * Math.sin(u);",
    "    }",
    "  }",
    "  const geometry = new THREE.BufferGeometry();",
    "  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));",
    "  return geometry;",
    "}",
    "",
]


def _three_geometry(obj: SceneObject, variant: Variant) -> tuple[str, Matrix]:
    """The geometry expression and where the mesh's origin goes."""
    sx, sy, sz = obj.size
    centre = np.asarray(obj.position, dtype=float)
    kind = obj.class_name
    if kind == "cube":
        return f"new THREE.BoxGeometry({_n(sx)}, {_n(sy)}, {_n(sz)})", centre
    if kind == "sphere":
        if not math.isclose(sx, sy) or not math.isclose(sx, sz):
            raise ValueError(f"{obj.id}: the idiom writers make round spheres only")
        return f"new THREE.SphereGeometry({_n(sx / 2)}, 32, 16)", centre
    width = _round_shape(obj)
    if kind == "cylinder":
        return f"new THREE.CylinderGeometry({_n(width / 2)}, {_n(width / 2)}, {_n(sy)}, 32)", centre
    if kind == "cone":
        if variant.procedural:
            return f"coneGeometry({_n(width / 2)}, {_n(sy)}, 32)", _base_point(obj)
        return f"new THREE.ConeGeometry({_n(width / 2)}, {_n(sy)}, 32)", centre
    if kind == "pyramid":
        if variant.procedural:
            return f"pyramidGeometry({_n(sx)}, {_n(sy)}, {_n(sz)})", _base_point(obj)
        # Four segments put the corners on the axes; thetaStart = PI / 4 puts the edges there.
        radius = width / math.sqrt(2)
        return (
            f"new THREE.ConeGeometry({_n(radius)}, {_n(sy)}, 4, 1, false, Math.PI / 4)",
            centre,
        )
    if kind == "torus":
        major, minor = _torus_radii(obj)
        if variant.procedural:
            return f"torusGeometry({_n(major)}, {_n(minor)}, 48, 16)", centre
        return (
            f"new THREE.TorusGeometry({_n(major)}, {_n(minor)}, 16, 48).rotateX(Math.PI / 2)",
            centre,
        )
    raise ValueError(f"{obj.id}: no three.js idiom for class {kind!r}")


def _three_ground(style: str) -> list[str]:
    side = _n(2 * _HALF)
    if style == "engine":
        return [
            "// Ground plane",
            f"const ground = new THREE.Mesh(new THREE.PlaneGeometry({side}, {side}), new THREE.MeshStandardMaterial({{ color: 0xcccccc }}));",
            "ground.rotation.x = -Math.PI / 2;",
            "scene.add(ground);",
        ]
    centre, size = _slab(style)
    comment = (
        "// Floor: a thin slab whose top is y = 0"
        if style == "slab"
        else "// Floor slab, thin along Z (Z-up habit), behind everything"
    )
    return [
        comment,
        f"const floor = new THREE.Mesh(new THREE.BoxGeometry({_join(size)}), new THREE.MeshStandardMaterial({{ color: 0xcccccc }}));",
        f"floor.position.set({_join(centre)});",
        "scene.add(floor);",
    ]


def write_threejs_idioms(scene: Scene, variant: Variant) -> str:
    code = list(_THREE_HEAD)
    if variant.procedural:
        code.extend(_THREE_PROCEDURAL)
    code.extend(_three_ground(variant.ground))
    code.append("")
    for obj in scene.objects:
        geometry, origin = _three_geometry(obj, variant)
        color = "0x" + rgb_to_hex(_rgb(obj))[1:]
        arguments = [geometry, color, *(_n(v) for v in origin)]
        if any(obj.rotation):
            arguments.extend(_n(a) for a in obj.rotation)
        code.append(f"// {obj.color} {obj.class_name}")
        code.append(f"addObject({', '.join(arguments)});")
    code.extend(["", "renderer.render(scene, camera);"])
    return _reply(
        "Here is the scene in three.js. Every object goes through a small `addObject` helper "
        "(position, then rotation in degrees).",
        "javascript",
        code,
        "Objects sit on the ground; sizes follow the picture.",
    )


# --- Unity ----------------------------------------------------------------------------------------

_UNITY_FLIP: Final = language_frame("unity").to_canonical

_UNITY_CREATE = [
    "    GameObject Create(Shape shape, string color, string hex, Vector3 position, Vector3 euler, Vector3 size)",
    "    {",
    "        GameObject go;",
    "        switch (shape)",
    "        {",
    "            case Shape.Cube:",
    "                go = GameObject.CreatePrimitive(PrimitiveType.Cube);",
    "                go.transform.localScale = size;",
    "                break;",
    "            case Shape.Sphere:",
    "                go = GameObject.CreatePrimitive(PrimitiveType.Sphere);",
    "                go.transform.localScale = size;",
    "                break;",
    "            case Shape.Cylinder:",
    "                go = GameObject.CreatePrimitive(PrimitiveType.Cylinder);",
    "                // Unity's cylinder is 2 units tall",
    "                go.transform.localScale = new Vector3(size.x, size.y / 2f, size.z);",
    "                break;",
    "            case Shape.Cone:",
    "                if (coneMesh == null) coneMesh = BuildCone(32);",
    "                go = MeshObject(shape, color, coneMesh);",
    "                go.transform.localScale = size;",
    "                break;",
    "            case Shape.Pyramid:",
    "                if (pyramidMesh == null) pyramidMesh = BuildCone(4, 45f, Mathf.Sqrt(0.5f));",
    "                go = MeshObject(shape, color, pyramidMesh);",
    "                go.transform.localScale = size;",
    "                break;",
    "            case Shape.Torus:",
    "                if (torusMesh == null) torusMesh = BuildTorus(0.375f, 0.125f, 48, 16);",
    "                go = MeshObject(shape, color, torusMesh);",
    "                // the unit torus is 0.25 thick",
    "                go.transform.localScale = new Vector3(size.x, size.y * 4f, size.z);",
    "                break;",
    "            default:",
    "                return null;",
    "        }",
    "        go.transform.position = position;",
    "        go.transform.rotation = Quaternion.Euler(euler);",
    "        Color c;",
    "        if (ColorUtility.TryParseHtmlString(hex, out c))",
    "        {",
    "            go.GetComponent<Renderer>().material.color = c;",
    "        }",
    "        return go;",
    "    }",
    "",
    "    GameObject MeshObject(Shape shape, string color, Mesh mesh)",
    "    {",
    "        string name = char.ToUpper(color[0]) + color.Substring(1) + shape.ToString();",
    "        var go = new GameObject(name, typeof(MeshFilter), typeof(MeshRenderer));",
    "        go.GetComponent<MeshFilter>().sharedMesh = mesh;",
    '        go.GetComponent<MeshRenderer>().material = new Material(Shader.Find("Standard"));',
    "        return go;",
    "    }",
    "",
    "    // A cone with its base (radius, on y = 0) under an apex at y = 1; four sides and a",
    "    // start angle of 45 degrees make a square pyramid with its edges on the axes.",
    "    Mesh BuildCone(int segments, float startAngle = 0f, float radius = 0.5f)",
    "    {",
    "        var vertices = new List<Vector3>();",
    "        var triangles = new List<int>();",
    "        vertices.Add(new Vector3(0f, 1f, 0f));",
    "        vertices.Add(Vector3.zero);",
    "        for (int i = 0; i < segments; i++)",
    "        {",
    "            float a = (startAngle + 360f * i / segments) * Mathf.Deg2Rad;",
    "            vertices.Add(new Vector3(radius * Mathf.Cos(a), 0f, radius * Mathf.Sin(a)));",
    "        }",
    "        for (int i = 0; i < segments; i++)",
    "        {",
    "            int a = 2 + i;",
    "            int b = 2 + (i + 1) % segments;",
    "            triangles.Add(0); triangles.Add(b); triangles.Add(a);",
    "            triangles.Add(1); triangles.Add(a); triangles.Add(b);",
    "        }",
    "        var mesh = new Mesh();",
    "        mesh.vertices = vertices.ToArray();",
    "        mesh.triangles = triangles.ToArray();",
    "        mesh.RecalculateNormals();",
    "        return mesh;",
    "    }",
    "",
    "    Mesh BuildTorus(float R, float r, int radialSegments, int tubularSegments)",
    "    {",
    "        var vertices = new List<Vector3>();",
    "        var triangles = new List<int>();",
    "        for (int i = 0; i <= radialSegments; i++)",
    "        {",
    "            float u = (float)i / radialSegments * Mathf.PI * 2f;",
    "            for (int j = 0; j <= tubularSegments; j++)",
    "            {",
    "                float v = (float)j / tubularSegments * Mathf.PI * 2f;",
    "                float x = (R + r * Mathf.Cos(v)) * Mathf.Cos(u);",
    "                float y = r * Mathf.Sin(v);",
    "                float z = (R + r * Mathf.Cos(v)) * Mathf.Sin(u);",
    "                vertices.Add(new Vector3(x, y, z));",
    "            }",
    "        }",
    "        for (int i = 0; i < radialSegments; i++)",
    "        {",
    "            for (int j = 0; j < tubularSegments; j++)",
    "            {",
    "                int a = i * (tubularSegments + 1) + j;",
    "                int b = a + tubularSegments + 1;",
    "                triangles.Add(a); triangles.Add(b); triangles.Add(a + 1);",
    "                triangles.Add(b); triangles.Add(b + 1); triangles.Add(a + 1);",
    "            }",
    "        }",
    "        Mesh mesh = new Mesh();",
    "        mesh.vertices = vertices.ToArray();",
    "        mesh.triangles = triangles.ToArray();",
    "        mesh.RecalculateNormals();",
    "        mesh.RecalculateBounds();",
    "        return mesh;",
    "    }",
]


#: The meshes cached in a field each, built on first use.
_UNITY_MESH_FIELDS = [
    "    // Unity has no cone, pyramid or torus: one procedural mesh each, shared",
    "    Mesh coneMesh;",
    "    Mesh pyramidMesh;",
    "    Mesh torusMesh;",
]

#: The other way: a table of meshes by shape, filled on first use.
_UNITY_MESH_TABLE = [
    "    // Unity has no cone, pyramid or torus: build each mesh once and share it",
    "    readonly Dictionary<Shape, Mesh> meshes = new Dictionary<Shape, Mesh>();",
    "",
    "    Mesh MeshFor(Shape shape)",
    "    {",
    "        Mesh mesh;",
    "        if (!meshes.TryGetValue(shape, out mesh))",
    "        {",
    "            switch (shape)",
    "            {",
    "                case Shape.Cone: mesh = BuildCone(32); break;",
    "                case Shape.Pyramid: mesh = BuildCone(4, 45f, Mathf.Sqrt(0.5f)); break;",
    "                default: mesh = BuildTorus(0.375f, 0.125f, 48, 16); break;",
    "            }",
    "            meshes[shape] = mesh;",
    "        }",
    "        return mesh;",
    "    }",
]

#: What the table variant writes instead: meshes from the table, objects given their filter
#: with AddComponent, named by interpolation, vertices and triangles set with the methods.
_UNITY_TABLE_REWRITES = {
    "                if (coneMesh == null) coneMesh = BuildCone(32);\n"
    "                go = MeshObject(shape, color, coneMesh);": (
        "                go = MeshObject(shape, color, MeshFor(shape));"
    ),
    "                if (pyramidMesh == null) pyramidMesh = BuildCone(4, 45f, Mathf.Sqrt(0.5f));\n"
    "                go = MeshObject(shape, color, pyramidMesh);": (
        "                go = MeshObject(shape, color, MeshFor(shape));"
    ),
    "                if (torusMesh == null) torusMesh = BuildTorus(0.375f, 0.125f, 48, 16);\n"
    "                go = MeshObject(shape, color, torusMesh);": (
        "                go = MeshObject(shape, color, MeshFor(shape));"
    ),
    "        string name = char.ToUpper(color[0]) + color.Substring(1) + shape.ToString();\n"
    "        var go = new GameObject(name, typeof(MeshFilter), typeof(MeshRenderer));\n"
    "        go.GetComponent<MeshFilter>().sharedMesh = mesh;\n"
    '        go.GetComponent<MeshRenderer>().material = new Material(Shader.Find("Standard"));': (
        '        var go = new GameObject($"{color}_{shape}");\n'
        "        go.AddComponent<MeshFilter>().mesh = mesh;\n"
        '        go.AddComponent<MeshRenderer>().material = new Material(Shader.Find("Standard"));'
    ),
    "        mesh.vertices = vertices.ToArray();": "        mesh.SetVertices(vertices);",
    "        mesh.triangles = triangles.ToArray();": "        mesh.SetTriangles(triangles, 0);",
}


def _unity_table_idioms(code: str) -> str:
    for old, new in _UNITY_TABLE_REWRITES.items():
        if old not in code:
            raise AssertionError(f"the Unity template lost {old!r}")
        code = code.replace(old, new)
    return code


def _unity_vector(values: object) -> str:
    return "new Vector3" + _tuple(values, _f)


def _unity_ground(style: str) -> list[str]:
    if style == "engine":
        # Unity's plane is 10 x 10.
        side = _f(2 * _HALF / 10)
        return [
            "        // Ground",
            "        GameObject ground = GameObject.CreatePrimitive(PrimitiveType.Plane);",
            '        ground.name = "Ground";',
            f"        ground.transform.localScale = new Vector3({side}, 1f, {side});",
        ]
    # In the other frame: thin along Unity's Z, behind everything (Unity's +Z is canonical -Z).
    centre, size = _slab(style)
    position, scale = _UNITY_FLIP @ centre, size
    return [
        "        // Floor",
        "        GameObject floor = GameObject.CreatePrimitive(PrimitiveType.Cube);",
        '        floor.name = "Floor";',
        f"        floor.transform.position = {_unity_vector(position)};",
        f"        floor.transform.localScale = {_unity_vector(scale)};",
    ]


def unity_angles(rotation: Matrix) -> tuple[float, float, float]:
    """The Euler angles (degrees) Unity's ``Quaternion.Euler`` takes for a canonical turn."""
    return matrix_to_euler(_UNITY_FLIP @ rotation @ _UNITY_FLIP, "YXZ")


def _unity_call(obj: SceneObject) -> str:
    kind = obj.class_name
    # Cones and pyramids are built with their base on the mesh's origin.
    origin = _base_point(obj) if kind in ("cone", "pyramid") else np.asarray(obj.position)
    position = _UNITY_FLIP @ origin
    angles = unity_angles(obj.rotation_matrix)
    color = obj.color or "white"
    return (
        f'        Create(Shape.{kind.capitalize()}, "{color}", "{rgb_to_hex(_rgb(obj)).upper()}", '
        f"{_unity_vector(position)}, {_unity_vector(angles)}, {_unity_vector(obj.size)});"
    )


def write_unity_idioms(scene: Scene, variant: Variant) -> str:
    for obj in scene.objects:
        if obj.class_name in ("cone", "pyramid", "torus"):
            _round_shape(obj)
    code = [
        "using System.Collections.Generic;",
        "using UnityEngine;",
        "",
        "public class SceneBuilder : MonoBehaviour",
        "{",
        "    enum Shape { Cube, Sphere, Cylinder, Cone, Pyramid, Torus }",
        "",
        *(_UNITY_MESH_TABLE if variant.procedural else _UNITY_MESH_FIELDS),
        "",
        "    void Start()",
        "    {",
        *_unity_ground(variant.ground),
        "",
    ]
    code.extend(_unity_call(obj) for obj in scene.objects)
    create = "\n".join(_UNITY_CREATE)
    if variant.procedural:
        create = _unity_table_idioms(create)
    code.extend(["    }", "", create, "}"])
    return _reply(
        "Unity has no cone, pyramid or torus primitive, so the script builds those meshes "
        "procedurally and dispatches on a `Shape` enum:",
        "csharp",
        code,
        "Attach `SceneBuilder` to an empty GameObject and press Play.",
    )


# --- Blender ----------------------------------------------------------------------------------

BLENDER_TO_NATIVE: Final = np.linalg.inv(
    np.block(
        [
            [language_frame("blender").to_canonical, np.zeros((3, 1))],
            [np.zeros((1, 3)), np.ones((1, 1))],
        ]
    )
)

_BLENDER_HEAD = [
    "import math",
    "",
    "import bpy",
    "",
    "# Start from an empty scene",
    "bpy.ops.object.select_all(action='SELECT')",
    "bpy.ops.object.delete()",
    "",
    "",
    "def make_material(name, rgba):",
    "    mat = bpy.data.materials.new(name=name)",
    "    mat.use_nodes = True",
    '    bsdf = mat.node_tree.nodes["Principled BSDF"]',
    '    bsdf.inputs["Base Color"].default_value = rgba',
    "    mat.diffuse_color = rgba",
    "    return mat",
    "",
    "",
    "def pyramid_mesh(name):",
    '    """Square base 1 x 1 on z = 0, apex at z = 1."""',
    "    verts = [(-0.5, -0.5, 0.0), (0.5, -0.5, 0.0), (0.5, 0.5, 0.0), (-0.5, 0.5, 0.0), (0.0, 0.0, 1.0)]",
    "    faces = [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4), (3, 2, 1, 0)]",
    "    mesh = bpy.data.meshes.new(name)",
    "    mesh.from_pydata(verts, [], faces)",
    "    mesh.update()",
    "    return mesh",
    "",
    "",
    "def cone_mesh(name, n=32):",
    '    """Base of radius 0.5 on z = 0, apex at z = 1."""',
    "    verts = [(0.0, 0.0, 1.0)] + [(0.5 * math.cos(2 * math.pi * k / n),",
    "                                  0.5 * math.sin(2 * math.pi * k / n), 0.0) for k in range(n)]",
    "    faces = [(0, k + 1, (k + 1) % n + 1) for k in range(n)] + [tuple(range(n, 0, -1))]",
    "    mesh = bpy.data.meshes.new(name)",
    "    mesh.from_pydata(verts, [], faces)",
    "    mesh.update()",
    "    return mesh",
    "",
    "",
    "def torus_mesh(name, R, r, segments=48, sides=16):",
    "    verts, faces = [], []",
    "    for i in range(segments):",
    "        u = 2 * math.pi * i / segments",
    "        for j in range(sides):",
    "            v = 2 * math.pi * j / sides",
    "            verts.append(((R + r * math.cos(v)) * math.cos(u),",
    "                          (R + r * math.cos(v)) * math.sin(u),",
    "                          r * math.sin(v)))",
    "    for i in range(segments):",
    "        for j in range(sides):",
    "            a = i * sides + j",
    "            b = ((i + 1) % segments) * sides + j",
    "            c = ((i + 1) % segments) * sides + (j + 1) % sides",
    "            d = i * sides + (j + 1) % sides",
    "            faces.append((a, b, c, d))",
    "    mesh = bpy.data.meshes.new(name)",
    "    mesh.from_pydata(verts, [], faces)",
    "    mesh.update()",
    "    return mesh",
    "",
    "",
    "def mesh_object(name, mesh, location, rotation):",
    "    obj = bpy.data.objects.new(name, mesh)",
    "    bpy.context.collection.objects.link(obj)",
    "    obj.location = location",
    "    obj.rotation_euler = rotation",
    "    return obj",
    "",
    "",
    "def add_object(kind, name, location, scale, rotation=(0.0, 0.0, 0.0), color=(0.8, 0.8, 0.8, 1.0)):",
    '    if kind == "cube":',
    "        bpy.ops.mesh.primitive_cube_add(size=1, location=location, rotation=rotation)",
    "        obj = bpy.context.active_object",
    '    elif kind == "sphere":',
    "        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=location, rotation=rotation)",
    "        obj = bpy.context.active_object",
    '    elif kind == "cylinder":',
    "        bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=1, location=location, rotation=rotation)",
    "        obj = bpy.context.active_object",
    '    elif kind == "cone" and PROCEDURAL:',
    '        obj = mesh_object(name, cone_mesh(name + "_mesh"), location, rotation)',
    '    elif kind == "cone":',
    "        bpy.ops.mesh.primitive_cone_add(vertices=32, radius1=0.5, radius2=0, depth=1, location=location, rotation=rotation)",
    "        obj = bpy.context.active_object",
    '    elif kind == "pyramid":',
    '        obj = mesh_object(name, pyramid_mesh(name + "_mesh"), location, rotation)',
    '    elif kind == "torus" and PROCEDURAL:',
    '        obj = mesh_object(name, torus_mesh(name + "_mesh", 0.375, 0.125), location, rotation)',
    '    elif kind == "torus":',
    "        bpy.ops.mesh.primitive_torus_add(major_radius=0.375, minor_radius=0.125, location=location, rotation=rotation)",
    "        obj = bpy.context.active_object",
    "    else:",
    '        raise ValueError("unknown kind " + kind)',
    "    obj.name = name",
    "    obj.scale = scale",
    '    obj.data.materials.append(make_material(name + "_mat", color))',
    "    return obj",
    "",
    "",
]


def _blender_ground(style: str) -> list[str]:
    if style == "engine":
        return [
            "# Ground plane (Blender is Z-up)",
            f"bpy.ops.mesh.primitive_plane_add(size={_n(2 * _HALF)}, location=(0, 0, 0))",
        ]
    # In the other frame: thin along Blender's Y as a Y-up habit has it, in front of everything.
    centre, size = _slab(style, in_front=True)
    to_native = BLENDER_TO_NATIVE[:3, :3]
    location, scale = to_native @ centre, np.abs(to_native) @ size
    comment = (
        "# Floor: a thin slab, its top at z = 0"
        if style == "slab"
        else "# Floor slab, thin along Y (Y-up habit)"
    )
    return [
        comment,
        f"bpy.ops.mesh.primitive_cube_add(size=1, location={_tuple(location)})",
        "floor = bpy.context.active_object",
        'floor.name = "Floor"',
        f"floor.scale = {_tuple(scale)}",
    ]


def blender_basis(obj: SceneObject, procedural: bool) -> Matrix:
    """The world matrix (Blender's frame) of the Blender object that makes ``obj`` from
    ``add_object``'s unit shapes (the operators' meshes along Blender's local Z; the pyramid,
    and the cone of a procedural reply, standing on their origin)."""
    native = BLENDER_TO_NATIVE @ object_affine(obj)
    # The operators' meshes lie along Blender's local Z (Y_TO_Z); the UV sphere has no axis.
    basis = native if obj.class_name == "sphere" else native @ np.linalg.inv(Y_TO_Z)
    if obj.class_name == "pyramid" or (obj.class_name == "cone" and procedural):
        # pyramid_mesh() and cone_mesh() stand on their origin: the middle of their base.
        lift = np.eye(4)
        lift[2, 3] = -0.5
        basis = basis @ lift
    return np.asarray(basis, dtype=float)


def blender_trs(
    basis: Matrix,
) -> tuple[list[float], tuple[float, float, float], list[float]]:
    """Location, Euler XYZ angles (radians) and scale of a Blender object's matrix."""
    location, rotation, scale = decompose_trs(basis)
    return location, matrix_to_blender_euler(rotation, "XYZ"), scale


def _blender_call(obj: SceneObject, variant: Variant) -> str:
    location, angles, scale = blender_trs(blender_basis(obj, variant.procedural))
    linear = (*srgb_to_linear(_rgb(obj)), 1.0)
    arguments = [f'"{obj.class_name}"', f'"{obj.id}"', _tuple(location), _tuple(scale)]
    if any(abs(a) > 0 for a in angles):
        arguments.append(f"rotation={_tuple(angles)}")
    arguments.append(f"color={_tuple(linear)}")
    return f"add_object({', '.join(arguments)})  # {obj.color} {obj.class_name}"


def write_blender_idioms(scene: Scene, variant: Variant) -> str:
    code = list(_BLENDER_HEAD)
    code.insert(3, f"PROCEDURAL = {variant.procedural}")
    code.extend(_blender_ground(variant.ground))
    code.append("")
    code.extend(_blender_call(obj, variant) for obj in scene.objects)
    return _reply(
        "The bpy script below rebuilds the scene (Blender is Z-up, so heights go in z). "
        "`add_object` wraps the primitive operators; the pyramid is a small custom mesh.",
        "python",
        code,
        "Run it from Blender's Scripting tab.",
    )


# --- Open3D -------------------------------------------------------------------------------------

_OPEN3D_HEAD = [
    "import numpy as np",
    "import open3d as o3d",
    "",
    "",
    "def upright(mesh):",
    "    # open3d builds cylinders, cones and tori along Z; stand them on Y",
    "    mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz((-np.pi / 2, 0, 0)), center=(0, 0, 0))",
    "    return mesh",
    "",
    "",
    "def torus_mesh(R, r, n_major=48, n_minor=16):",
    "    # a torus lying flat, straight from its parametric form",
    "    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, n_major, endpoint=False),",
    '                       np.linspace(0, 2 * np.pi, n_minor, endpoint=False), indexing="ij")',
    "    x = (R + r * np.cos(v)) * np.cos(u)",
    "    z = (R + r * np.cos(v)) * np.sin(u)",
    "    y = r * np.sin(v)",
    "    vertices = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)",
    "    triangles = []",
    "    for i in range(n_major):",
    "        for j in range(n_minor):",
    "            a = i * n_minor + j",
    "            b = ((i + 1) % n_major) * n_minor + j",
    "            c = ((i + 1) % n_major) * n_minor + (j + 1) % n_minor",
    "            d = i * n_minor + (j + 1) % n_minor",
    "            triangles += [[a, b, c], [a, c, d]]",
    "    mesh = o3d.geometry.TriangleMesh()",
    "    mesh.vertices = o3d.utility.Vector3dVector(vertices)",
    "    mesh.triangles = o3d.utility.Vector3iVector(np.array(triangles))",
    "    return mesh",
    "",
    "",
    "def pyramid_mesh(w, h, d):",
    "    # five corners, the base centred on y = 0",
    "    vertices = np.array([[-w / 2, 0, -d / 2], [w / 2, 0, -d / 2], [w / 2, 0, d / 2], [-w / 2, 0, d / 2], [0, h, 0]])",
    "    triangles = np.array([[0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0], [0, 1, 2], [0, 2, 3]])",
    "    return o3d.geometry.TriangleMesh(o3d.utility.Vector3dVector(vertices), o3d.utility.Vector3iVector(triangles))",
    "",
    "",
    "def make_shape(kind, size, center, rotation_deg=(0, 0, 0), color=(0.7, 0.7, 0.7)):",
    "    w, h, d = size",
    '    if kind == "cube":',
    "        mesh = o3d.geometry.TriangleMesh.create_box(width=w, height=h, depth=d)",
    "        mesh.translate((-w / 2, -h / 2, -d / 2))",
    '    elif kind == "sphere":',
    "        mesh = o3d.geometry.TriangleMesh.create_sphere(radius=0.5, resolution=20)",
    "        mesh.vertices = o3d.utility.Vector3dVector(np.asarray(mesh.vertices) * np.array(size))",
    '    elif kind == "cylinder":',
    "        mesh = upright(o3d.geometry.TriangleMesh.create_cylinder(radius=w / 2, height=h))",
    '    elif kind == "cone":',
    "        mesh = upright(o3d.geometry.TriangleMesh.create_cone(radius=w / 2, height=h, resolution=32))",
    "        mesh.translate((0, -h / 2, 0))",
    '    elif kind == "pyramid" and PROCEDURAL:',
    "        mesh = pyramid_mesh(w, h, d)",
    "        mesh.translate((0, -h / 2, 0))",
    '    elif kind == "pyramid":',
    "        # a 4-sided cone, corners turned onto the diagonals, stretched to the base",
    "        mesh = o3d.geometry.TriangleMesh.create_cone(radius=np.sqrt(0.5), height=1.0, resolution=4)",
    "        mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz((-np.pi / 2, 0, np.pi / 4)), center=(0, 0, 0))",
    "        mesh.vertices = o3d.utility.Vector3dVector(np.asarray(mesh.vertices) * np.array([w, h, d]))",
    "        mesh.translate((0, -h / 2, 0))",
    '    elif kind == "torus":',
    "        R, r = (w - h) / 2, h / 2",
    "        if PROCEDURAL:",
    "            mesh = torus_mesh(R, r)",
    "        else:",
    "            mesh = upright(o3d.geometry.TriangleMesh.create_torus(torus_radius=R, tube_radius=r,",
    "                                                                  radial_resolution=48, tubular_resolution=16))",
    "    else:",
    '        raise ValueError(f"unknown kind {kind}")',
    "    mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz(np.radians(rotation_deg)), center=(0, 0, 0))",
    "    mesh.translate(center)",
    "    mesh.paint_uniform_color(color)",
    "    mesh.compute_vertex_normals()",
    "    return mesh",
    "",
    "",
]


def _open3d_ground(style: str) -> list[str]:
    half = _py(_HALF)
    if style == "engine":
        return [
            "# Ground: a flat disc",
            f"ground = upright(o3d.geometry.TriangleMesh.create_cylinder(radius={half}, height={_py(_THICK)}))",
            f"ground.translate((0, {_py(-_THICK / 2)}, 0))",
        ]
    if style == "slab":
        # create_box spans (0, 0, 0) to its size: moved by its lowest corner.
        centre, size = _slab(style)
        return [
            "# Ground: a thin box, its top at y = 0",
            f"ground = o3d.geometry.TriangleMesh.create_box({_tuple(size)[1:-1]})",
            f"ground.translate({_tuple(centre - size / 2)})",
        ]
    centre, size = _slab(style)
    return [
        "# Ground: a disc as open3d makes it (flat in XY, Z-up habit), behind the objects",
        f"ground = o3d.geometry.TriangleMesh.create_cylinder(radius={half}, height={_py(size[2])})",
        f"ground.translate({_tuple(centre)})",
    ]


def write_open3d_idioms(scene: Scene, variant: Variant) -> str:
    code = list(_OPEN3D_HEAD)
    code.insert(3, f"PROCEDURAL = {variant.procedural}")
    code.extend(_open3d_ground(variant.ground))
    code.append("ground.paint_uniform_color((0.8, 0.8, 0.8))")
    code.extend(["", "meshes = [ground]"])
    for obj in scene.objects:
        if obj.class_name in ("cone", "pyramid", "torus", "cylinder"):
            _round_shape(obj)
        arguments = [f'"{obj.class_name}"', _tuple(obj.size), _tuple(obj.position)]
        if any(obj.rotation):
            arguments.append(_tuple(obj.rotation))
        else:
            arguments.append("(0, 0, 0)")
        arguments.append(_tuple(_rgb(obj)))
        code.append(f"meshes.append(make_shape({', '.join(arguments)}))  # {obj.color}")
    code.extend(["", "o3d.visualization.draw_geometries(meshes)"])
    return _reply(
        "Here is an Open3D script; `make_shape` builds each primitive centred on its position.",
        "python",
        code,
        "The window shows the scene from the default viewpoint.",
    )


# --- JSON and the DSL -------------------------------------------------------------------------------


def _json_ground(style: str) -> str:
    side = _n(2 * _HALF)
    if style == "engine":
        return f'    {{"id": "ground", "class_name": "plane", "color": "white", "position": [0, 0, 0], "scale": [{side}, 0, {side}]}}'
    centre, size = _slab(style)
    return f'    {{"id": "floor", "class_name": "cube", "color": "white", "position": [{_join(centre)}], "rotation": [0, 0, 0], "scale": [{_join(size)}]}}'


def write_json_idioms(scene: Scene, variant: Variant) -> str:
    rows = [
        _json_ground(variant.ground),
        '    {"id": "sun", "type": "directional_light", "position": [5, 10, 7], "intensity": 1.0}',
    ]
    for obj in scene.objects:
        rows.append(
            f'    {{"id": "{obj.id}", "class_name": "{obj.class_name}", "color": "{obj.color}", '
            f'"position": [{_join(obj.position)}], '
            f'"rotation": [{_join(obj.rotation)}], '
            f'"scale": [{_join(obj.size)}]}}'
        )
    code = ["{", '  "objects": [', ",\n".join(rows), "  ]", "}"]
    return _reply(
        "Here is the scene as JSON (y is up, rotations in degrees):",
        "json",
        code,
        "The ground and the light are listed for completeness.",
    )


def _dsl_ground(style: str) -> str:
    side = _n(2 * _HALF)
    if style == "engine":
        return f"  (entity ground (shape plane) (color white) (position 0 0 0) (scale {side} 0.01 {side}))"
    centre, size = _slab(style)
    return f"  (entity floor (shape cube) (color white) (position {_join(centre, ' ')}) (scale {_join(size, ' ')}))"


def write_dsl_idioms(scene: Scene, variant: Variant) -> str:
    code = ["(scene", _dsl_ground(variant.ground), "  (light (type point) (position 0 5 0))"]
    for obj in scene.objects:
        parts = [
            f"(entity {obj.id}",
            f"(shape {obj.class_name})",
            f"(color {obj.color})",
            "(position " + _join(obj.position, " ") + ")",
        ]
        if any(obj.rotation):
            parts.append("(rotation " + _join(obj.rotation, " ") + ")")
        parts.append("(scale " + _join(obj.size, " ") + "))")
        code.append("  " + " ".join(parts))
    code[-1] += ")"
    return _reply("The scene in the DSL:", "lisp", code, "Each entity is one object.")


#: language -> the idiom writer.
IDIOM_WRITERS: Final[dict[str, Callable[[Scene, Variant], str]]] = {
    "json": write_json_idioms,
    "dsl": write_dsl_idioms,
    "threejs": write_threejs_idioms,
    "unity": write_unity_idioms,
    "blender": write_blender_idioms,
    "open3d": write_open3d_idioms,
}
