"""Generated three.js programs, in JavaScript and in TypeScript (``tests.generated.programs``).

The geometry of each shape comes from a ``make(kind, size)`` helper (its dispatch an ``if``
chain, a ``switch`` or a lookup table of arrow functions), or, in the ``calls`` layout, as the
idiom writer of the cross-language check spells it (``_three_geometry``); cones, pyramids and
tori are built from vertices by that writer's helpers when the program is ``procedural``. The
objects are laid out one block each, as rows of a table walked by a ``for...of`` loop, or as
what a generator function made from parallel arrays yields; some hang under a ``THREE.Group``
turned about Y, some are placed by ``applyMatrix4`` of a composed matrix, some are ``clone()``s
of a template mesh. TypeScript programs add a ``type``, an ``interface``, an ``enum``, typed
signatures and ``as const``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spatialbabel import Scene, SceneObject
from spatialbabel.frames import matrix_to_euler
from tests.generated.common import hex_colour, numbers, placement
from tests.generated.programs import Idioms
from tests.parsers.idiom_replies import (
    _THREE_PROCEDURAL,
    Variant,
    _n,
    _reply,
    _three_geometry,
    _three_ground,
)

_HEAD = [
    "import * as THREE from 'three';",
    "",
    "const scene = new THREE.Scene();",
    "const camera = new THREE.PerspectiveCamera(45, 1, 0.1, 100);",
    "camera.position.set(0, 6, 10);",
    "camera.lookAt(0, 0, 0);",
    "const renderer = new THREE.WebGLRenderer({ antialias: true });",
    "renderer.setSize(512, 512);",
    "scene.add(new THREE.AmbientLight(0xffffff, 0.6));",
    "",
]

#: Each shape's geometry from its size ``s`` (width, height, depth), sized by the arguments;
#: the procedural helpers' names where the program builds the shape from vertices.
_SIZED = {
    "cube": "new THREE.BoxGeometry(s[0], s[1], s[2])",
    "sphere": "new THREE.SphereGeometry(s[0] / 2, 32, 16)",
    "cylinder": "new THREE.CylinderGeometry(s[0] / 2, s[0] / 2, s[1], 32)",
    "cone": "new THREE.ConeGeometry(s[0] / 2, s[1], 32)",
    "pyramid": "new THREE.ConeGeometry(s[0] * Math.SQRT1_2, s[1], 4, 1, false, Math.PI / 4)",
    "torus": "new THREE.TorusGeometry((s[0] - s[1]) / 2, s[1] / 2, 16, 48).rotateX(Math.PI / 2)",
}
_SIZED_PROCEDURAL = {
    "cone": "coneGeometry(s[0] / 2, s[1], 32)",
    "pyramid": "pyramidGeometry(s[0], s[1], s[2])",
    "torus": "torusGeometry((s[0] - s[1]) / 2, s[1] / 2, 48, 16)",
}
#: The unit shapes a scaled program makes (the torus keeps its sizes: its tube is its own).
_UNIT = {
    "cube": "new THREE.BoxGeometry(1, 1, 1)",
    "sphere": "new THREE.SphereGeometry(0.5, 32, 16)",
    "cylinder": "new THREE.CylinderGeometry(0.5, 0.5, 1, 32)",
    "cone": "new THREE.ConeGeometry(0.5, 1, 32)",
    "pyramid": "new THREE.ConeGeometry(Math.SQRT1_2, 1, 4, 1, false, Math.PI / 4)",
    "torus": _SIZED["torus"],
}
_UNIT_PROCEDURAL = {
    "cone": "coneGeometry(0.5, 1, 32)",
    "pyramid": "pyramidGeometry(1, 1, 1)",
    "torus": _SIZED_PROCEDURAL["torus"],
}
KINDS = ("cube", "sphere", "cylinder", "cone", "pyramid", "torus")


def _geometry(kind: str, idioms: Idioms) -> str:
    if idioms.sizing == "scale":
        table = {**_UNIT, **(_UNIT_PROCEDURAL if idioms.procedural else {})}
    else:
        table = {**_SIZED, **(_SIZED_PROCEDURAL if idioms.procedural else {})}
    return table[kind]


def _scaled(kind: str, idioms: Idioms) -> bool:
    return idioms.sizing == "scale" and kind != "torus"


def _colour(obj: SceneObject, idioms: Idioms) -> str:
    return f"0x{hex_colour(obj)}" if idioms.hex_colours else f"'#{hex_colour(obj)}'"


def _make(idioms: Idioms, typed: bool) -> list[str]:
    """``make(kind, s)``: the geometry of a shape, by the program's dispatch."""
    signature = (
        "function make(kind: Kind, s: Vec3): THREE.BufferGeometry {"
        if typed
        else "function make(kind, s) {"
    )
    lines = ["// The geometry of each shape; s is its size (width, height, depth)", signature]
    if idioms.dispatch == "if":
        for index, kind in enumerate(KINDS):
            keyword = "if" if index == 0 else "} else if"
            lines += [
                f"  {keyword} (kind === '{kind}') {{",
                f"    return {_geometry(kind, idioms)};",
            ]
        lines += ["  }", "  throw new Error('unknown shape ' + kind);", "}"]
    elif idioms.dispatch == "switch":
        subject = "kind as Shape" if typed else "kind"
        lines.append(f"  switch ({subject}) {{")
        alias = "Shape.Box" if typed else "'box'"
        for kind in KINDS:
            label = f"Shape.{kind.capitalize()}" if typed else f"'{kind}'"
            if kind == "cube":
                # A second name falls through to the same case.
                lines.append(f"    case {alias}:")
            lines += [f"    case {label}:", f"      return {_geometry(kind, idioms)};"]
        lines += ["    default:", "      throw new Error(`unknown shape ${kind}`);", "  }", "}"]
    else:
        annotation = ": Record<Kind, (s: Vec3) => THREE.BufferGeometry>" if typed else ""
        lines = lines[:1] + [f"const makers{annotation} = {{"]
        lines += [f"  {kind}: (s) => {_geometry(kind, idioms)}," for kind in KINDS]
        lines += ["};", "", signature, "  return makers[kind](s);", "}"]
    return lines + [""]


def _templates(typed: bool) -> list[str]:
    if typed:
        return [
            "// One template mesh per shape, copied for every object of that shape",
            "const templates: Partial<Record<Kind, THREE.Mesh>> = {};",
            "function fromTemplate(kind: Kind, color: number | string): THREE.Mesh {",
            "  let template = templates[kind];",
            "  if (template === undefined) {",
            "    template = new THREE.Mesh(make(kind, [1, 1, 1]), new THREE.MeshStandardMaterial());",
            "    templates[kind] = template;",
            "  }",
            "  const copy = template.clone();",
            "  copy.material = new THREE.MeshStandardMaterial({ color });",
            "  return copy;",
            "}",
            "",
        ]
    return [
        "// One template mesh per shape, copied for every object of that shape",
        "const templates = {};",
        "function fromTemplate(kind, color) {",
        "  if (!(kind in templates)) {",
        "    templates[kind] = new THREE.Mesh(make(kind, [1, 1, 1]), new THREE.MeshStandardMaterial());",
        "  }",
        "  const copy = templates[kind].clone();",
        "  copy.material = new THREE.MeshStandardMaterial({ color: color });",
        "  return copy;",
        "}",
        "",
    ]


def _types() -> list[str]:
    return [
        "type Kind = 'cube' | 'sphere' | 'cylinder' | 'cone' | 'pyramid' | 'torus';",
        "type Vec3 = [number, number, number];",
        "enum Shape {",
        "  Box = 'box',",
        *(f"  {k.capitalize()} = '{k}'," for k in KINDS),
        "}",
        "interface Spec {",
        "  kind: Kind;",
        "  position: Vec3;",
        "  rotation: Vec3;",
        "  size: Vec3;",
        "  color: number | string;",
        "  parent?: boolean;",
        "  matrix?: boolean;",
        "  template?: boolean;",
        "}",
        "const SEGMENTS = 32 as const;",
        "",
    ]


def _group(idioms: Idioms, typed: bool) -> list[str]:
    group = idioms.group
    if group is None or not any(idioms.parented):
        return []
    annotation = ": THREE.Group" if typed else ""
    return [
        "// Part of the scene hangs under a group, turned about Y",
        f"const group{annotation} = new THREE.Group();",
        f"group.position.set({numbers(group.position)});",
        f"group.rotation.y = THREE.MathUtils.degToRad({_n(group.yaw)});",
        "scene.add(group);",
        "",
    ]


def _euler_degrees(rotation: object) -> tuple[float, float, float]:
    return matrix_to_euler(rotation, "XYZ")  # type: ignore[arg-type]


def _call_block(obj: SceneObject, index: int, idioms: Idioms) -> list[str]:
    name = f"m{index}"
    place = placement(obj, index, idioms)
    kind = obj.class_name
    colour = _colour(obj, idioms)
    lines = [f"// {obj.color} {kind}"]
    if idioms.template[index]:
        lines.append(f"const {name} = fromTemplate('{kind}', {colour});")
    elif index % 2 == 0 or idioms.sizing == "scale":
        lines.append(
            f"const {name} = new THREE.Mesh(make('{kind}', [{numbers(obj.size)}]), "
            f"new THREE.MeshStandardMaterial({{ color: {colour} }}));"
        )
    else:
        geometry, _ = _three_geometry(obj, Variant("engine", idioms.procedural))
        lines.append(
            f"const {name} = new THREE.Mesh({geometry}, "
            f"new THREE.MeshStandardMaterial({{ color: {colour} }}));"
        )
    degrees = _euler_degrees(place.rotation)
    scale = numbers(obj.size) if _scaled(kind, idioms) else "1, 1, 1"
    if idioms.matrix[index]:
        lines.append(
            f"{name}.applyMatrix4(new THREE.Matrix4().compose(new THREE.Vector3({numbers(place.origin)}), "
            f"new THREE.Quaternion().setFromEuler(new THREE.Euler({_angle_list(degrees, idioms)})), "
            f"new THREE.Vector3({scale})));"
        )
    else:
        lines.append(f"{name}.position.set({numbers(place.origin)});")
        if any(abs(a) > 0 for a in degrees):
            if idioms.angles == "quaternion":
                lines.append(
                    f"{name}.quaternion.setFromEuler(new THREE.Euler({_angle_list(degrees, idioms)}));"
                )
            else:
                lines.append(f"{name}.rotation.set({_angle_list(degrees, idioms)});")
        if _scaled(kind, idioms):
            lines.append(f"{name}.scale.set({scale});")
    holder = "group" if idioms.group is not None and idioms.parented[index] else "scene"
    return [*lines, f"{holder}.add({name});", ""]


def _angle_list(degrees: Sequence[float], idioms: Idioms) -> str:
    if idioms.angles == "degrees":
        return ", ".join(f"THREE.MathUtils.degToRad({_n(a)})" for a in degrees)
    return ", ".join(_n(math.radians(a)) for a in degrees)


def _row(obj: SceneObject, index: int, idioms: Idioms) -> dict[str, str]:
    place = placement(obj, index, idioms)
    return {
        "kind": f"'{obj.class_name}'",
        "position": f"[{numbers(place.origin)}]",
        "rotation": f"[{numbers(_euler_degrees(place.rotation))}]",
        "size": f"[{numbers(obj.size)}]",
        "color": _colour(obj, idioms),
        "parent": "true" if idioms.group is not None and idioms.parented[index] else "false",
        "matrix": "true" if idioms.matrix[index] else "false",
        "template": "true" if idioms.template[index] else "false",
    }


def _loop(idioms: Idioms, source: str, typed: bool) -> list[str]:
    """The loop that makes every row's object: rotations in degrees, sizes scaled or not."""
    has_group = idioms.group is not None and any(idioms.parented)
    scaled = "o.kind === 'torus' ? [1, 1, 1] : o.size" if idioms.sizing == "scale" else "[1, 1, 1]"
    lines = [
        f"for (const o of {source}) {{",
        "  const mesh = o.template"
        " ? fromTemplate(o.kind, o.color)"
        " : new THREE.Mesh(make(o.kind, o.size), new THREE.MeshStandardMaterial({ color: o.color }));",
        f"  const scale{': Vec3' if typed else ''} = {scaled};",
        "  const euler = new THREE.Euler(...o.rotation.map((d) => THREE.MathUtils.degToRad(d)));",
        "  if (o.matrix) {",
        "    const matrix = new THREE.Matrix4().compose(",
        "      new THREE.Vector3(...o.position),",
        "      new THREE.Quaternion().setFromEuler(euler),",
        "      new THREE.Vector3(...scale)",
        "    );",
        "    mesh.applyMatrix4(matrix);",
        "  } else {",
        "    mesh.position.set(...o.position);",
        "    mesh.quaternion.setFromEuler(euler);"
        if idioms.angles == "quaternion"
        else "    mesh.rotation.copy(euler);",
        "    mesh.scale.fromArray(scale);",
        "  }",
        "  (o.parent ? group : scene).add(mesh);" if has_group else "  scene.add(mesh);",
        "}",
        "",
    ]
    return lines


def _table(scene: Scene, idioms: Idioms, typed: bool) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    annotation = ": Spec[]" if typed else ""
    lines = [
        "// The objects: position, rotation (degrees, XYZ), size, colour",
        f"const objects{annotation} = [",
    ]
    for row in rows:
        fields = ", ".join(f"{k}: {v}" for k, v in row.items())
        lines.append(f"  {{ {fields} }},")
    return [*lines, "];", "", *_loop(idioms, "objects", typed)]


#: The parallel arrays' names, by the field each holds.
_COLUMNS = {
    "kind": "kinds",
    "position": "positions",
    "rotation": "rotations",
    "size": "sizes",
    "color": "colors",
    "parent": "inGroup",
    "matrix": "byMatrix",
    "template": "copied",
}


def _generator(scene: Scene, idioms: Idioms, typed: bool) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    lines = ["// The objects as parallel arrays, walked by a generator"]
    for field in rows[0]:
        values = ", ".join(r[field] for r in rows)
        constant = " as const" if typed and field == "kind" else ""
        lines.append(f"const {_COLUMNS[field]} = [{values}]{constant};")
    signature = "function* specs(): Generator<Spec> {" if typed else "function* specs() {"
    lines += [
        signature,
        "  for (let i = 0; i < kinds.length; i++) {",
        "    yield {",
        *(f"      {field}: {_COLUMNS[field]}[i]," for field in rows[0]),
        "    };",
        "  }",
        "}",
        "",
    ]
    if typed:
        lines = [
            line.replace("const positions = [", "const positions: Vec3[] = [") for line in lines
        ]
        lines = [
            line.replace("const rotations = [", "const rotations: Vec3[] = [") for line in lines
        ]
        lines = [line.replace("const sizes = [", "const sizes: Vec3[] = [") for line in lines]
    return [*lines, *_loop(idioms, "specs()", typed)]


def _write(scene: Scene, idioms: Idioms, typed: bool) -> str:
    code = list(_HEAD)
    if typed:
        code += _types()
    if idioms.procedural:
        code += _typed_procedural() if typed else list(_THREE_PROCEDURAL)
    code += _make(idioms, typed)
    if any(idioms.template):
        code += _templates(typed)
    code += _group(idioms, typed)
    if idioms.ground != "none":
        code += [*_three_ground(idioms.ground), ""]
    if idioms.layout == "table":
        code += _table(scene, idioms, typed)
    elif idioms.layout == "generator":
        code += _generator(scene, idioms, typed)
    else:
        for index, obj in enumerate(scene.objects):
            code += _call_block(obj, index, idioms)
    code.append("renderer.render(scene, camera);")
    fence = "typescript" if typed else "javascript"
    return _reply(
        f"Here is the scene in three.js ({'TypeScript' if typed else 'JavaScript'}):",
        fence,
        code,
        "Every object stands where the picture shows it.",
    )


def _typed_procedural() -> list[str]:
    """The procedural helpers of the idiom writer, with TypeScript signatures."""
    signatures = {
        "function coneGeometry(radius, height, segments) {": (
            "function coneGeometry(radius: number, height: number, segments: number): THREE.BufferGeometry {"
        ),
        "function pyramidGeometry(width, height, depth) {": (
            "function pyramidGeometry(width: number, height: number, depth: number): THREE.BufferGeometry {"
        ),
        "function torusGeometry(R, r, radial, tubular) {": (
            "function torusGeometry(R: number, r: number, radial: number, tubular: number): THREE.BufferGeometry {"
        ),
        "  const vertices = [0, height, 0];": "  const vertices: number[] = [0, height, 0];",
    }
    return [signatures.get(line, line) for line in _THREE_PROCEDURAL]


def write_javascript(scene: Scene, idioms: Idioms) -> str:
    return _write(scene, idioms, typed=False)


def write_typescript(scene: Scene, idioms: Idioms) -> str:
    return _write(scene, idioms, typed=True)
