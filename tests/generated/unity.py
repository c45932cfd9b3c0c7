"""Generated Unity C# programs (``tests.generated.programs``).

A MonoBehaviour's ``Start`` builds the scene. ``Make(shape, name)`` makes each shape, its
dispatch a ``switch`` on an enum, an ``if`` chain or a ``Dictionary`` of ``Func<GameObject>``
lambdas: Unity's primitives, and for the shapes Unity lacks the idiom writer's procedural meshes
(``BuildCone``, ``BuildTorus``), kept in fields or in a table of meshes. The objects are placed one
block each, from an array of a ``struct Spec``, or from an iterator method that ``yield
return``s them; some hang under a group GameObject (``SetParent(group, false)`` and local
values), some are placed from a ``Matrix4x4.TRS`` (its column 3 and ``Quaternion.LookRotation``
of its columns 2 and 1), some are ``Instantiate``d from an inactive template, and some get
their scale (and height) through a struct copy (``Vector3 s = t.localScale; s.y = ...;
t.localScale = s;``). Colours are parsed from hex by ``ColorUtility`` or written as floats.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

import numpy as np

from spatialbabel import Scene, SceneObject
from spatialbabel.frames import Matrix
from tests.generated.common import (
    Placement,
    group_rotation,
    hex_colour,
    local_placement,
    quaternion_wxyz,
    world_placement,
)
from tests.generated.programs import Idioms
from tests.parsers.idiom_replies import (
    _UNITY_CREATE,
    _UNITY_FLIP,
    _f,
    _reply,
    _rgb,
    _unity_ground,
    unity_angles,
)

KINDS: Final = ("cube", "sphere", "cylinder", "cone", "pyramid", "torus")
#: Unity's primitive for each shape it has.
_PRIMITIVES: Final = {"cube": "Cube", "sphere": "Sphere", "cylinder": "Cylinder"}
#: The mesh each other shape is built from (in the idiom writer's helpers).
_MESHES: Final = {
    "cone": "BuildCone(32)",
    "pyramid": "BuildCone(4, 45f, Mathf.Sqrt(0.5f))",
    "torus": "BuildTorus(0.375f, 0.125f, 48, 16)",
}


def _vector(values: object) -> str:
    return "new Vector3(" + ", ".join(_f(float(v)) for v in values) + ")"  # type: ignore[attr-defined]


def _shape(kind: str) -> str:
    return f"Shape.{kind.capitalize()}"


def _method(name: str) -> list[str]:
    """A method of the idiom writer's Unity template, by its signature's start."""
    start = next(i for i, line in enumerate(_UNITY_CREATE) if line.startswith(f"    Mesh {name}("))
    end = next(i for i in range(start, len(_UNITY_CREATE)) if _UNITY_CREATE[i] == "    }")
    return [*_UNITY_CREATE[start : end + 1], ""]


def _scale_factors(kind: str) -> tuple[float, float, float]:
    """What a shape's size is multiplied by for its localScale: Unity's cylinder is 2 tall, the
    unit torus 0.25 thick."""
    return {"cylinder": (1.0, 0.5, 1.0), "torus": (1.0, 4.0, 1.0)}.get(kind, (1.0, 1.0, 1.0))


def _placement(obj: SceneObject, index: int, idioms: Idioms) -> Placement:
    """The origin (a cone's or a pyramid's base: Unity builds them as meshes standing on it) and
    turn, in the group's frame when the object hangs there."""
    world = world_placement(obj, replace(idioms, procedural=True))
    if idioms.group is not None and idioms.parented[index]:
        return local_placement(world, idioms.group)
    return world


def _native_rotation(rotation: Matrix) -> Matrix:
    return np.asarray(_UNITY_FLIP @ rotation @ _UNITY_FLIP)


def _rotation(rotation: Matrix, idioms: Idioms) -> str:
    """A Quaternion expression for a canonical turn, as the program writes it."""
    if idioms.angles == "quaternion":
        w, x, y, z = quaternion_wxyz(_native_rotation(rotation))
        return f"new Quaternion({_f(x)}, {_f(y)}, {_f(z)}, {_f(w)})"
    angles = unity_angles(rotation)
    if idioms.angles == "radians":
        radians = [math.radians(a) for a in angles]
        return f"Quaternion.Euler({_vector(radians)} * Mathf.Rad2Deg)"
    return "Quaternion.Euler(" + ", ".join(_f(a) for a in angles) + ")"


def _colour(obj: SceneObject, idioms: Idioms) -> str:
    if idioms.hex_colours:
        return f'"#{hex_colour(obj).upper()}"'
    return "new Color(" + ", ".join(_f(c) for c in _rgb(obj)) + ")"


def _make(idioms: Idioms) -> list[str]:
    """``Make(shape, name)``: the GameObject of a shape, by the program's dispatch."""

    def creation(kind: str) -> str:
        if kind in _PRIMITIVES:
            return f"GameObject.CreatePrimitive(PrimitiveType.{_PRIMITIVES[kind]})"
        return f"MeshObject(name, MeshFor({_shape(kind)}))"

    lines = ["    GameObject Make(Shape shape, string name)", "    {"]
    if idioms.dispatch == "switch":
        lines += ["        GameObject go;", "        switch (shape)", "        {"]
        for kind in KINDS:
            lines += [
                f"            case {_shape(kind)}:",
                f"                go = {creation(kind)};",
                "                break;",
            ]
        lines += ["            default:", "                return null;", "        }"]
    elif idioms.dispatch == "if":
        lines.append("        GameObject go = null;")
        for index, kind in enumerate(KINDS):
            keyword = "if" if index == 0 else "else if"
            lines.append(f"        {keyword} (shape == {_shape(kind)}) go = {creation(kind)};")
    else:
        lines += [
            "        var makers = new Dictionary<Shape, Func<GameObject>>",
            "        {",
            *(f"            {{ {_shape(k)}, () => {creation(k)} }}," for k in KINDS),
            "        };",
            "        GameObject go = makers[shape]();",
        ]
    return [*lines, "        go.name = name;", "        return go;", "    }", ""]


def _meshes(idioms: Idioms) -> list[str]:
    """``MeshFor(shape)``: the shared procedural mesh of a shape Unity lacks, built once."""
    if idioms.procedural:
        lines = [
            "    readonly Dictionary<Shape, Mesh> meshes = new Dictionary<Shape, Mesh>();",
            "",
            "    Mesh MeshFor(Shape shape)",
            "    {",
            "        Mesh mesh;",
            "        if (!meshes.TryGetValue(shape, out mesh))",
            "        {",
            f"            if (shape == Shape.Cone) mesh = {_MESHES['cone']};",
            f"            else if (shape == Shape.Pyramid) mesh = {_MESHES['pyramid']};",
            f"            else mesh = {_MESHES['torus']};",
            "            meshes[shape] = mesh;",
            "        }",
            "        return mesh;",
            "    }",
        ]
    else:
        lines = [
            "    Mesh coneMesh, pyramidMesh, torusMesh;",
            "",
            "    Mesh MeshFor(Shape shape)",
            "    {",
            "        switch (shape)",
            "        {",
            *(
                f"            case {_shape(k)}: return {k}Mesh ?? ({k}Mesh = {m});"
                for k, m in _MESHES.items()
            ),
            "            default: return null;",
            "        }",
            "    }",
        ]
    return [
        *lines,
        "",
        "    GameObject MeshObject(string name, Mesh mesh)",
        "    {",
        "        var go = new GameObject(name, typeof(MeshFilter), typeof(MeshRenderer));",
        "        go.GetComponent<MeshFilter>().sharedMesh = mesh;",
        '        go.GetComponent<MeshRenderer>().sharedMaterial = new Material(Shader.Find("Standard"));',
        "        return go;",
        "    }",
        "",
        *_method("BuildCone"),
        *_method("BuildTorus"),
    ]


_TEMPLATES = [
    "    readonly Dictionary<Shape, GameObject> templates = new Dictionary<Shape, GameObject>();",
    "",
    "    GameObject FromTemplate(Shape shape, string name)",
    "    {",
    "        GameObject template;",
    "        if (!templates.TryGetValue(shape, out template))",
    "        {",
    '            template = Make(shape, shape + " template");',
    "            template.SetActive(false);",
    "            templates[shape] = template;",
    "        }",
    "        GameObject go = Instantiate(template);",
    "        go.name = name;",
    "        go.SetActive(true);",
    "        return go;",
    "    }",
    "",
]


def _paint(target: str, colour: str, idioms: Idioms) -> list[str]:
    if idioms.hex_colours:
        return [
            "        Color c;",
            f"        if (ColorUtility.TryParseHtmlString({colour}, out c))",
            f"            {target}.GetComponent<Renderer>().material.color = c;",
        ]
    return [f"        {target}.GetComponent<Renderer>().material.color = {colour};"]


def _transform_lines(
    target: str, parented: bool, matrix: bool, position: str, rotation: str, indent: str
) -> list[str]:
    """Set ``target``'s place: local values under the group, world values otherwise."""
    where = "local" if parented else ""
    pos, rot = (f"{where}Position", f"{where}Rotation") if parented else ("position", "rotation")
    lines = [f"{indent}{target}.SetParent(group.transform, false);"] if parented else []
    if matrix:
        lines += [
            f"{indent}Matrix4x4 frame = Matrix4x4.TRS({position}, {rotation}, Vector3.one);",
            f"{indent}{target}.{pos} = frame.GetColumn(3);",
            f"{indent}{target}.{rot} = Quaternion.LookRotation(frame.GetColumn(2), frame.GetColumn(1));",
        ]
    else:
        lines += [f"{indent}{target}.{pos} = {position};", f"{indent}{target}.{rot} = {rotation};"]
    return lines


def _scale_lines(target: str, size: str, struct_copy: bool, indent: str) -> list[str]:
    if struct_copy:
        # Unity's idiom: a Transform's vectors are values; change a copy and write it back.
        return [
            f"{indent}Vector3 s = {target}.localScale;",
            f"{indent}s.x = {size}.x;",
            f"{indent}s.y = {size}.y;",
            f"{indent}s.z = {size}.z;",
            f"{indent}{target}.localScale = s;",
        ]
    return [f"{indent}{target}.localScale = {size};"]


def _group_lines(idioms: Idioms) -> list[str]:
    group = idioms.group
    if group is None or not any(idioms.parented):
        return []
    position = _UNITY_FLIP @ np.asarray(group.position, dtype=float)
    angles = unity_angles(group_rotation(group))
    return [
        "        // Part of the scene hangs under a group, turned about Y",
        '        group = new GameObject("Group");',
        f"        group.transform.position = {_vector(position)};",
        "        group.transform.rotation = Quaternion.Euler("
        + ", ".join(_f(a) for a in angles)
        + ");",
        "",
    ]


def _scaled_size(obj: SceneObject) -> Matrix:
    return np.asarray(obj.size, dtype=float) * np.asarray(_scale_factors(obj.class_name))


def _calls(scene: Scene, idioms: Idioms) -> list[str]:
    lines = []
    for index, obj in enumerate(scene.objects):
        place = _placement(obj, index, idioms)
        kind = obj.class_name
        make = "FromTemplate" if idioms.template[index] else "Make"
        parented = idioms.group is not None and idioms.parented[index]
        lines += [
            "        {",
            f"            // {obj.color} {kind}",
            f'            GameObject go = {make}({_shape(kind)}, "{obj.id}");',
            "            Transform t = go.transform;",
            *_transform_lines(
                "t",
                parented,
                idioms.matrix[index],
                _vector(_UNITY_FLIP @ place.origin),
                _rotation(place.rotation, idioms),
                "            ",
            ),
            f"            Vector3 size = {_vector(_scaled_size(obj))};",
            *_scale_lines("t", "size", idioms.struct_copy[index], "            "),
            *("    " + line for line in _paint("go", _colour(obj, idioms), idioms)),
            "        }",
        ]
    return lines


_SPEC = [
    "    struct Spec",
    "    {",
    "        public Shape shape;",
    "        public string name;",
    "        public Vector3 position;",
    "        public Quaternion rotation;",
    "        public Vector3 size;",
    "        public string hex;",
    "        public Color color;",
    "        public bool parented, byMatrix, template, structCopy;",
    "",
    "        public Spec(Shape shape, string name, Vector3 position, Quaternion rotation, Vector3 size,",
    "                    bool parented, bool byMatrix, bool template, bool structCopy)",
    "        {",
    "            this.shape = shape;",
    "            this.name = name;",
    "            this.position = position;",
    "            this.rotation = rotation;",
    "            this.size = size;",
    "            this.parented = parented;",
    "            this.byMatrix = byMatrix;",
    "            this.template = template;",
    "            this.structCopy = structCopy;",
    "            hex = null;",
    "            color = Color.white;",
    "        }",
    "    }",
    "",
    "    // Unity's cylinder is 2 units tall, the unit torus a quarter thick",
    "    static Vector3 ScaleOf(Shape shape, Vector3 size)",
    "    {",
    "        switch (shape)",
    "        {",
    "            case Shape.Cylinder: return new Vector3(size.x, size.y / 2f, size.z);",
    "            case Shape.Torus: return new Vector3(size.x, size.y * 4f, size.z);",
    "            default: return size;",
    "        }",
    "    }",
    "",
]


def _place_method(idioms: Idioms) -> list[str]:
    has_group = idioms.group is not None and any(idioms.parented)
    make = (
        "o.template ? FromTemplate(o.shape, o.name) : Make(o.shape, o.name)"
        if any(idioms.template)
        else "Make(o.shape, o.name)"
    )
    lines = [
        "    void Place(Spec o)",
        "    {",
        f"        GameObject go = {make};",
        "        Transform t = go.transform;",
    ]
    if has_group:
        lines += [
            "        if (o.parented)",
            "        {",
            *_transform_lines("t", True, False, "o.position", "o.rotation", "            ")[:1],
            "        }",
        ]
    lines += [
        "        if (o.byMatrix)",
        "        {",
        "            Matrix4x4 frame = Matrix4x4.TRS(o.position, o.rotation, Vector3.one);",
    ]
    if has_group:
        lines += [
            "            if (o.parented)",
            "            {",
            "                t.localPosition = frame.GetColumn(3);",
            "                t.localRotation = Quaternion.LookRotation(frame.GetColumn(2), frame.GetColumn(1));",
            "            }",
            "            else",
            "            {",
            "                t.position = frame.GetColumn(3);",
            "                t.rotation = Quaternion.LookRotation(frame.GetColumn(2), frame.GetColumn(1));",
            "            }",
            "        }",
            "        else if (o.parented)",
            "        {",
            "            t.localPosition = o.position;",
            "            t.localRotation = o.rotation;",
            "        }",
        ]
    else:
        lines += [
            "            t.position = frame.GetColumn(3);",
            "            t.rotation = Quaternion.LookRotation(frame.GetColumn(2), frame.GetColumn(1));",
            "        }",
        ]
    lines += [
        "        else",
        "        {",
        "            t.position = o.position;",
        "            t.rotation = o.rotation;",
        "        }",
        "        if (o.structCopy)",
        "        {",
        *_scale_lines("t", "ScaleOf(o.shape, o.size)", True, "            "),
        "        }",
        "        else",
        "        {",
        "            t.localScale = ScaleOf(o.shape, o.size);",
        "        }",
    ]
    if idioms.hex_colours:
        lines += [
            "        Color c;",
            "        if (ColorUtility.TryParseHtmlString(o.hex, out c))",
            "            go.GetComponent<Renderer>().material.color = c;",
        ]
    else:
        lines.append("        go.GetComponent<Renderer>().material.color = o.color;")
    return [*lines, "    }", ""]


def _spec(obj: SceneObject, index: int, idioms: Idioms) -> str:
    place = _placement(obj, index, idioms)
    flags = [
        idioms.group is not None and idioms.parented[index],
        idioms.matrix[index],
        idioms.template[index],
        idioms.struct_copy[index],
    ]
    arguments = [
        _shape(obj.class_name),
        f'"{obj.id}"',
        _vector(_UNITY_FLIP @ place.origin),
        _rotation(place.rotation, idioms),
        _vector(obj.size),
        *("true" if flag else "false" for flag in flags),
    ]
    colour = _colour(obj, idioms)
    field = "hex" if idioms.hex_colours else "color"
    return f"new Spec({', '.join(arguments)}) {{ {field} = {colour} }}"


def write_unity(scene: Scene, idioms: Idioms) -> str:
    usings = ["using System;", "using System.Collections.Generic;", "using UnityEngine;", ""]
    body = ["public class SceneBuilder : MonoBehaviour", "{"]
    body += ["    enum Shape { Cube, Sphere, Cylinder, Cone, Pyramid, Torus }", ""]
    has_group = idioms.group is not None and any(idioms.parented)
    if has_group:
        body += ["    GameObject group;", ""]
    start = ["    void Start()", "    {", *_group_lines(idioms)]
    if idioms.layout == "calls":
        start += _calls(scene, idioms)
    else:
        body += _SPEC + _place_method(idioms)
        specs = [_spec(o, i, idioms) for i, o in enumerate(scene.objects)]
        if idioms.layout == "table":
            start += [
                "        Spec[] objects =",
                "        {",
                *(f"            {spec}," for spec in specs),
                "        };",
                "        foreach (Spec o in objects) Place(o);",
            ]
        else:
            body += [
                "    IEnumerable<Spec> Specs()",
                "    {",
                *(f"        yield return {spec};" for spec in specs),
                "    }",
                "",
            ]
            start += [
                "        foreach (var o in Specs())",
                "        {",
                "            Place(o);",
                "        }",
            ]
    if idioms.ground != "none":
        start[2:2] = _ground(idioms.ground)
    start += ["    }", ""]
    body += _make(idioms) + _meshes(idioms)
    if any(idioms.template):
        body += _TEMPLATES
    body = body[:2] + start + body[2:] + ["}"]
    return _reply(
        "Unity has no cone, pyramid or torus primitive, so the script builds those meshes itself:",
        "csharp",
        usings + body,
        "Attach `SceneBuilder` to an empty GameObject and press Play.",
    )


def _ground(style: str) -> list[str]:
    return [*_unity_ground(style), ""]
