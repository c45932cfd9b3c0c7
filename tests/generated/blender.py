"""Generated Blender (bpy) programs (``tests.generated.programs``).

A ``create(kind, name, size)`` helper makes each shape, its dispatch an ``if`` chain, a
``match`` statement or a table of functions: the operators sized by their arguments (a box by
``obj.dimensions``), or unit shapes scaled; pyramids, and cones and tori of a ``procedural``
program, are meshes filled vertex by vertex (the idiom writer's ``pyramid_mesh``,
``cone_mesh``, ``torus_mesh``). The objects are placed one block each, from a table of dicts, a
generator of dataclass records, or numpy arrays zipped in a loop; some hang under an empty
turned about Z (their local values), some are placed by a ``mathutils`` matrix, some are
copies of a template object (``obj.copy()``, its mesh copied too; the templates removed at the
end). Colours are linear RGBA, or sRGB hex turned linear by a helper.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

from parsers.blender.rotations import matrix_to_blender_euler
from spatialbabel import Scene, SceneObject
from spatialbabel.frames import Matrix
from spatialbabel.palette import srgb_to_linear
from tests.generated.common import group_rotation, hex_colour, python_function
from tests.generated.programs import Group, Idioms
from tests.parsers.idiom_replies import (
    _BLENDER_HEAD,
    BLENDER_TO_NATIVE,
    _blender_ground,
    _py,
    _reply,
    _rgb,
    blender_basis,
    blender_trs,
)

KINDS: Final = ("cube", "sphere", "cylinder", "cone", "pyramid", "torus")


def _tuple(values: object) -> str:
    items = [_py(float(v)) for v in values]  # type: ignore[attr-defined]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _group_matrix(group: Group) -> Matrix:
    """The group's world matrix in Blender's frame (it turns about Blender's Z)."""
    canonical = np.eye(4)
    canonical[:3, :3] = group_rotation(group)
    canonical[:3, 3] = group.position
    return np.asarray(BLENDER_TO_NATIVE @ canonical @ np.linalg.inv(BLENDER_TO_NATIVE))


def _parented(index: int, idioms: Idioms) -> bool:
    return idioms.group is not None and idioms.parented[index]


def _trs(
    obj: SceneObject, index: int, idioms: Idioms
) -> tuple[list[float], tuple[float, float, float], list[float]]:
    """Location, rotation (radians) and scale the object gets, in its parent's frame."""
    basis = blender_basis(obj, idioms.procedural)
    if _parented(index, idioms):
        assert idioms.group is not None
        basis = np.linalg.inv(_group_matrix(idioms.group)) @ basis
    return blender_trs(basis)


def _colour(obj: SceneObject, idioms: Idioms) -> str:
    if idioms.hex_colours:
        return f"hex_to_rgba('#{hex_colour(obj)}')"
    return _tuple((*srgb_to_linear(_rgb(obj)), 1.0))


_HEX = [
    "def hex_to_rgba(code):",
    '    """An sRGB hex colour as the linear RGBA Blender stores."""',
    "    def linear(c):",
    "        c = c / 255",
    "        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4",
    "    return (linear(int(code[1:3], 16)), linear(int(code[3:5], 16)), linear(int(code[5:7], 16)), 1.0)",
    "",
    "",
]


def _shape_lines(kind: str, idioms: Idioms, indent: str) -> list[str]:
    """The lines that make ``obj``, one shape, at the origin (``w, h, d`` its size)."""
    op = "bpy.ops.mesh."
    active = f"{indent}obj = bpy.context.active_object"
    args = idioms.sizing == "args"
    if kind == "cube":
        lines = [f"{indent}{op}primitive_cube_add(size=1)", active]
        return lines + ([f"{indent}obj.dimensions = (w, d, h)"] if args else [])
    if kind == "sphere":
        return [f"{indent}{op}primitive_uv_sphere_add(radius={'w / 2' if args else '0.5'})", active]
    if kind == "cylinder":
        size = "radius=w / 2, depth=h" if args else "radius=0.5, depth=1"
        return [f"{indent}{op}primitive_cylinder_add({size})", active]
    if kind == "cone":
        if idioms.procedural:
            lines = [f'{indent}obj = mesh_object(name, cone_mesh(name + "_mesh"))']
            return lines + ([f"{indent}obj.dimensions = (w, d, h)"] if args else [])
        size = "radius1=w / 2, radius2=0, depth=h" if args else "radius1=0.5, radius2=0, depth=1"
        return [f"{indent}{op}primitive_cone_add(vertices=32, {size})", active]
    if kind == "pyramid":
        lines = [f'{indent}obj = mesh_object(name, pyramid_mesh(name + "_mesh"))']
        return lines + ([f"{indent}obj.dimensions = (w, d, h)"] if args else [])
    radii = "(w - h) / 2, h / 2" if args else "0.375, 0.125"
    if idioms.procedural:
        return [f'{indent}obj = mesh_object(name, torus_mesh(name + "_mesh", {radii}))']
    keywords = "major_radius={}, minor_radius={}".format(*radii.split(", "))
    return [f"{indent}{op}primitive_torus_add({keywords})", active]


def _create(idioms: Idioms) -> list[str]:
    """``create(kind, name, size)``: the shape at the origin, by the program's dispatch."""
    head = ["def create(kind, name, size):", "    w, h, d = size"]
    if idioms.dispatch == "if":
        lines = list(head)
        for index, kind in enumerate(KINDS):
            lines.append(f'    {"if" if index == 0 else "elif"} kind == "{kind}":')
            lines += _shape_lines(kind, idioms, "        ")
        lines += ["    else:", '        raise ValueError(f"unknown shape {kind}")']
    elif idioms.dispatch == "switch":
        lines = [*head, "    match kind:"]
        for kind in KINDS:
            label = '"cube" | "box"' if kind == "cube" else f'"{kind}"'
            lines.append(f"        case {label}:")
            lines += _shape_lines(kind, idioms, "            ")
        lines += ["        case _:", '            raise ValueError(f"unknown shape {kind}")']
    else:
        lines = []
        for kind in KINDS:
            lines += [f"def make_{kind}(name, w, h, d):", *_shape_lines(kind, idioms, "    ")]
            lines += ["    return obj", "", ""]
        lines += ["MAKERS = {", *(f'    "{k}": make_{k},' for k in KINDS), "}", "", ""]
        lines += [*head, "    obj = MAKERS[kind](name, w, h, d)"]
    return [*lines, "    obj.name = name", "    return obj", "", ""]


_TEMPLATES = [
    "templates = {}",
    "",
    "",
    "def from_template(kind, name):",
    '    """A copy of the shape\'s template object, its mesh copied too."""',
    "    if kind not in templates:",
    '        templates[kind] = create(kind, kind + "_template", (1, 1, 1))',
    "    obj = templates[kind].copy()",
    "    obj.data = templates[kind].data.copy()",
    "    obj.name = name",
    "    bpy.context.collection.objects.link(obj)",
    "    return obj",
    "",
    "",
]

_MESH_OBJECT = [
    "def mesh_object(name, mesh):",
    "    obj = bpy.data.objects.new(name, mesh)",
    "    bpy.context.collection.objects.link(obj)",
    "    return obj",
    "",
    "",
]


def _place(idioms: Idioms) -> list[str]:
    """``place(obj, location, rotation, scale, parent, by_matrix)``: rotation in degrees."""
    scale = "obj.scale" if idioms.sizing == "args" else "scale"
    lines = [
        "def place(obj, location, rotation, scale, parent=None, by_matrix=False):",
        "    angles = [math.radians(a) for a in rotation]",
        "    if parent is not None:",
        "        obj.parent = parent",
        "    if by_matrix:",
        "        matrix = (",
        "            Matrix.Translation(location)",
        "            @ Euler(angles, 'XYZ').to_matrix().to_4x4()",
        f"            @ Matrix.Diagonal((*{scale}, 1.0))",
        "        )",
        "        if parent is not None:",
        "            obj.matrix_basis = matrix",
        "        else:",
        "            obj.matrix_world = matrix",
        "        return obj",
        "    obj.location = location",
    ]
    if idioms.angles == "quaternion":
        lines += [
            "    obj.rotation_mode = 'QUATERNION'",
            "    obj.rotation_quaternion = Euler(angles, 'XYZ').to_quaternion()",
        ]
    else:
        lines.append("    obj.rotation_euler = angles")
    if idioms.sizing == "scale":
        lines.append("    obj.scale = scale")
    return [*lines, "    return obj", "", ""]


def _group(idioms: Idioms) -> list[str]:
    if idioms.group is None or not any(idioms.parented):
        return []
    matrix = _group_matrix(idioms.group)
    angles = matrix_to_blender_euler(matrix[:3, :3], "XYZ")
    return [
        "# Part of the scene hangs under an empty, turned about Z",
        'group = bpy.data.objects.new("Group", None)',
        "bpy.context.collection.objects.link(group)",
        f"group.location = {_tuple(matrix[:3, 3])}",
        f"group.rotation_euler = {_tuple(angles)}",
        "",
    ]


def _row(obj: SceneObject, index: int, idioms: Idioms) -> dict[str, str]:
    location, angles, scale = _trs(obj, index, idioms)
    return {
        "kind": f'"{obj.class_name}"',
        "name": f'"{obj.id}"',
        "size": _tuple(obj.size),
        "location": _tuple(location),
        "rotation": _tuple([math.degrees(a) for a in angles]),
        "scale": _tuple(scale),
        "color": _colour(obj, idioms),
        "parented": "True" if _parented(index, idioms) else "False",
        "by_matrix": "True" if idioms.matrix[index] else "False",
        "template": "True" if idioms.template[index] else "False",
    }


_LOOP_BODY = [
    "    obj = from_template(kind, name) if template else create(kind, name, size)",
    "    place(obj, location, rotation, scale, group if parented else None, by_matrix)",
    '    obj.data.materials.append(make_material(name + "_mat", color))',
]


def _loop_body(idioms: Idioms) -> list[str]:
    body = list(_LOOP_BODY)
    if not any(idioms.template):
        body[0] = "    obj = create(kind, name, size)"
    if idioms.group is None or not any(idioms.parented):
        body[1] = "    place(obj, location, rotation, scale, None, by_matrix)"
    return body


def _table(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    lines = ["# Every object: its shape, size, place (degrees), scale and colour", "OBJECTS = ["]
    for row in rows:
        lines.append("    {" + ", ".join(f'"{k}": {v}' for k, v in row.items()) + "},")
    lines += ["]", "", "for spec in OBJECTS:"]
    lines += [f"    {field} = spec[{field!r}]".replace("'", '"') for field in rows[0]]
    return [*lines, *_loop_body(idioms), ""]


def _generator(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    fields = list(rows[0])
    lines = [
        "@dataclass",
        "class Spec:",
        *(f"    {field}: object" for field in fields),
        "",
        "",
        "ROWS = [",
        *(f"    ({', '.join(r.values())})," for r in rows),
        "]",
        "",
        "",
        "def specs():",
        "    for row in ROWS:",
        "        yield Spec(*row)",
        "",
        "",
        "for spec in specs():",
        *(f"    {field} = spec.{field}" for field in fields),
    ]
    return [*lines, *_loop_body(idioms), ""]


def _numpy(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]

    def column(field: str) -> str:
        return ", ".join(r[field] for r in rows)

    lines = [
        "# The objects as arrays: one row each",
        f"KINDS = [{column('kind')}]",
        f"NAMES = [{column('name')}]",
        f"SIZES = np.array([{column('size')}])",
        f"LOCATIONS = np.array([{column('location')}])",
        f"ROTATIONS = np.array([{column('rotation')}])",
        f"SCALES = np.array([{column('scale')}])",
        f"COLORS = [{column('color')}]",
        f"PARENTED = [{column('parented')}]",
        f"BY_MATRIX = np.array([{column('by_matrix')}])",
        f"TEMPLATE = [{column('template')}]",
        "",
        "for i, (kind, name, size, location, rotation, scale) in enumerate(",
        "    zip(KINDS, NAMES, SIZES, LOCATIONS, ROTATIONS, SCALES)",
        "):",
        "    color, parented, by_matrix, template = COLORS[i], PARENTED[i], bool(BY_MATRIX[i]), TEMPLATE[i]",
    ]
    return [*lines, *_loop_body(idioms), ""]


def _calls(scene: Scene, idioms: Idioms) -> list[str]:
    lines = []
    for index, obj in enumerate(scene.objects):
        row = _row(obj, index, idioms)
        make = (
            f"from_template({row['kind']}, {row['name']})"
            if idioms.template[index]
            else f"create({row['kind']}, {row['name']}, {row['size']})"
        )
        parent = "group" if _parented(index, idioms) else "None"
        lines += [
            f"# {obj.color} {obj.class_name}",
            f"obj = {make}",
            f"place(obj, {row['location']}, {row['rotation']}, {row['scale']}, {parent}, {row['by_matrix']})",
            f'obj.data.materials.append(make_material({row["name"]} + "_mat", {row["color"]}))',
            "",
        ]
    return lines


def write_blender(scene: Scene, idioms: Idioms) -> str:
    code = ["import math", "", "import bpy", "from mathutils import Euler, Matrix"]
    if idioms.layout == "numpy":
        code.insert(1, "import numpy as np")
    if idioms.layout == "generator":
        code.insert(0, "from dataclasses import dataclass")
    code += [
        "",
        "# Start from an empty scene",
        "bpy.ops.object.select_all(action='SELECT')",
        "bpy.ops.object.delete()",
        "",
        "",
        *python_function(_BLENDER_HEAD, "make_material"),
    ]
    if idioms.hex_colours:
        code += _HEX
    code += _MESH_OBJECT + python_function(_BLENDER_HEAD, "pyramid_mesh")
    if idioms.procedural:
        code += python_function(_BLENDER_HEAD, "cone_mesh") + python_function(
            _BLENDER_HEAD, "torus_mesh"
        )
    code += _create(idioms)
    if any(idioms.template):
        code += _TEMPLATES
    code += _place(idioms)
    code += _group(idioms)
    if idioms.ground != "none":
        code += [*_blender_ground(idioms.ground), ""]
    layouts = {"table": _table, "generator": _generator, "numpy": _numpy, "calls": _calls}
    code += layouts[idioms.layout](scene, idioms)
    if any(idioms.template):
        code += [
            "# The templates were only there to be copied",
            "for template in templates.values():",
            "    bpy.data.objects.remove(template, do_unlink=True)",
        ]
    return _reply(
        "The bpy script below rebuilds the scene (Blender is Z-up, so heights go in z):",
        "python",
        code,
        "Run it from Blender's Scripting tab.",
    )
