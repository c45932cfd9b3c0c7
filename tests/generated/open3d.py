"""Generated Open3D programs (``tests.generated.programs``).

A ``create(kind, size)`` helper makes each shape centred on the origin, its dispatch an ``if``
chain, a ``match`` statement or a dict of functions: ``create_*`` sized by their arguments, or
unit shapes whose vertices a numpy product stretches; pyramids and tori of a ``procedural``
program are meshes made from numpy vertex arrays (the idiom writer's ``pyramid_mesh``,
``torus_mesh``). Each mesh is then turned and moved (``rotate`` and ``translate``, a rotation from
Euler angles in degrees or radians, or from a quaternion), or placed by one 4 x 4 numpy matrix
(``transform``); a "group" is a second transform applied after the object's own; templates
are unit meshes copied (``copy.deepcopy`` or the copy constructor). The objects are laid out one
block each, as a list of dicts, as ``NamedTuple`` records a generator yields, or as numpy arrays
zipped in a loop, and shown with ``draw_geometries``.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

from spatialbabel import Scene, SceneObject
from spatialbabel.frames import Matrix, matrix_to_euler
from tests.generated.common import (
    Placement,
    hex_colour,
    local_placement,
    python_function,
    quaternion_wxyz,
)
from tests.generated.programs import Idioms
from tests.parsers.idiom_replies import _OPEN3D_HEAD, _open3d_ground, _py, _reply, _rgb

KINDS: Final = ("cube", "sphere", "cylinder", "cone", "pyramid", "torus")


def _tuple(values: object) -> str:
    return "(" + ", ".join(_py(float(v)) for v in values) + ")"  # type: ignore[attr-defined]


def _shape_lines(kind: str, idioms: Idioms, indent: str) -> list[str]:
    """The lines that make ``mesh``, centred on the origin (``w, h, d`` its size)."""
    make = "o3d.geometry.TriangleMesh."
    args = idioms.sizing == "args"
    stretch = f"{indent}mesh.vertices = o3d.utility.Vector3dVector(np.asarray(mesh.vertices) * np.array([w, h, d]))"
    if kind == "cube":
        if args:
            return [
                f"{indent}mesh = {make}create_box(width=w, height=h, depth=d)",
                f"{indent}mesh.translate((-w / 2, -h / 2, -d / 2))",
            ]
        return [
            f"{indent}mesh = {make}create_box()",
            f"{indent}mesh.translate((-0.5, -0.5, -0.5))",
            stretch,
        ]
    if kind == "sphere":
        if args:
            return [f"{indent}mesh = {make}create_sphere(radius=w / 2, resolution=20)"]
        return [f"{indent}mesh = {make}create_sphere(radius=0.5, resolution=20)", stretch]
    if kind == "cylinder":
        if args:
            return [f"{indent}mesh = upright({make}create_cylinder(radius=w / 2, height=h))"]
        return [f"{indent}mesh = upright({make}create_cylinder(radius=0.5, height=1.0))", stretch]
    if kind == "cone":
        if args:
            return [
                f"{indent}mesh = upright({make}create_cone(radius=w / 2, height=h, resolution=32))",
                f"{indent}mesh.translate((0, -h / 2, 0))",
            ]
        return [
            f"{indent}mesh = upright({make}create_cone(radius=0.5, height=1.0, resolution=32))",
            f"{indent}mesh.translate((0, -0.5, 0))",
            stretch,
        ]
    if kind == "pyramid":
        if idioms.procedural:
            if args:
                return [
                    f"{indent}mesh = pyramid_mesh(w, h, d)",
                    f"{indent}mesh.translate((0, -h / 2, 0))",
                ]
            return [
                f"{indent}mesh = pyramid_mesh(1.0, 1.0, 1.0)",
                f"{indent}mesh.translate((0, -0.5, 0))",
                stretch,
            ]
        # A 4-sided cone, its corners turned onto the diagonals, stretched to the base.
        return [
            f"{indent}mesh = {make}create_cone(radius=np.sqrt(0.5), height=1.0, resolution=4)",
            f"{indent}mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz((-np.pi / 2, 0, np.pi / 4)), center=(0, 0, 0))",
            f"{indent}mesh.translate((0, -0.5, 0))",
            stretch,
        ]
    radii = "(w - h) / 2, h / 2"
    if idioms.procedural:
        return [f"{indent}mesh = torus_mesh({radii})"]
    return [
        f"{indent}mesh = upright({make}create_torus(torus_radius=(w - h) / 2, tube_radius=h / 2,"
        " radial_resolution=48, tubular_resolution=16))"
    ]


def _create(idioms: Idioms) -> list[str]:
    head = ["def create(kind, size):", "    w, h, d = size"]
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
            lines += [f"def make_{kind}(w, h, d):", *_shape_lines(kind, idioms, "    ")]
            lines += ["    return mesh", "", ""]
        lines += ["MAKERS = {", *(f'    "{k}": make_{k},' for k in KINDS), "}", "", ""]
        lines += [*head, "    mesh = MAKERS[kind](w, h, d)"]
    return [*lines, "    return mesh", "", ""]


def _placement(obj: SceneObject, index: int, idioms: Idioms) -> Placement:
    """Centre and turn (every mesh is made centred), in the group's frame when it hangs there."""
    world = Placement(np.asarray(obj.position, dtype=float), obj.rotation_matrix)
    if idioms.group is not None and idioms.parented[index]:
        return local_placement(world, idioms.group)
    return world


def _rotation_expression(rotation: Matrix, idioms: Idioms) -> str:
    """A rotation matrix as the program computes it."""
    if idioms.angles == "quaternion":
        return (
            f"o3d.geometry.get_rotation_matrix_from_quaternion({_tuple(quaternion_wxyz(rotation))})"
        )
    degrees = matrix_to_euler(rotation, "XYZ")
    if idioms.angles == "degrees":
        return f"o3d.geometry.get_rotation_matrix_from_xyz(np.radians({_tuple(degrees)}))"
    return (
        f"o3d.geometry.get_rotation_matrix_from_xyz({_tuple([math.radians(a) for a in degrees])})"
    )


def _colour(obj: SceneObject, idioms: Idioms) -> str:
    return f"hex_to_rgb('#{hex_colour(obj)}')" if idioms.hex_colours else _tuple(_rgb(obj))


_HEX = [
    "def hex_to_rgb(code):",
    "    return tuple(int(code[i : i + 2], 16) / 255 for i in (1, 3, 5))",
    "",
    "",
]

_PLACE = [
    "def place(mesh, rotation, center, by_matrix=False):",
    "    if by_matrix:",
    "        T = np.eye(4)",
    "        T[:3, :3] = rotation",
    "        T[:3, 3] = center",
    "        return mesh.transform(T)",
    "    mesh.rotate(rotation, center=(0, 0, 0))",
    "    return mesh.translate(center)",
    "",
    "",
]


def _group(idioms: Idioms) -> list[str]:
    if idioms.group is None or not any(idioms.parented):
        return []
    return [
        "# Part of the scene is built in a frame of its own, turned about Y and moved",
        "GROUP = np.eye(4)",
        f"GROUP[:3, :3] = o3d.geometry.get_rotation_matrix_from_axis_angle(np.array([0.0, np.radians({_py(idioms.group.yaw)}), 0.0]))",
        f"GROUP[:3, 3] = {_tuple(idioms.group.position)}",
        "",
        "",
    ]


_TEMPLATES = [
    "templates = {}",
    "",
    "",
    "def from_template(kind, size):",
    '    """The shape\'s unit mesh, copied, stretched to the size."""',
    "    if kind not in templates:",
    "        templates[kind] = create(kind, (1.0, 1.0, 1.0))",
    "    mesh = copy.deepcopy(templates[kind]) if kind in ('cube', 'sphere') else o3d.geometry.TriangleMesh(templates[kind])",
    "    mesh.vertices = o3d.utility.Vector3dVector(np.asarray(mesh.vertices) * np.asarray(size))",
    "    return mesh",
    "",
    "",
]


def _row(obj: SceneObject, index: int, idioms: Idioms) -> dict[str, str]:
    place = _placement(obj, index, idioms)
    return {
        "kind": f'"{obj.class_name}"',
        "size": _tuple(obj.size),
        "center": _tuple(place.origin),
        "rotation": _rotation_expression(place.rotation, idioms),
        "color": _colour(obj, idioms),
        "grouped": "True" if idioms.group is not None and idioms.parented[index] else "False",
        "by_matrix": "True" if idioms.matrix[index] else "False",
        "template": "True" if idioms.template[index] else "False",
    }


def _loop_body(idioms: Idioms) -> list[str]:
    body = [
        "    mesh = from_template(kind, size) if template else create(kind, size)",
        "    place(mesh, rotation, center, by_matrix)",
        "    if grouped:",
        "        mesh.transform(GROUP)",
        "    mesh.paint_uniform_color(color)",
        "    meshes.append(mesh)",
    ]
    if not any(idioms.template):
        body[0] = "    mesh = create(kind, size)"
    if idioms.group is None or not any(idioms.parented):
        del body[2:4]
    return [*body, ""]


def _table(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    lines = ["OBJECTS = ["]
    for row in rows:
        lines.append("    {" + ", ".join(f'"{k}": {v}' for k, v in row.items()) + "},")
    lines += ["]", "", "for spec in OBJECTS:"]
    lines += [f'    {field} = spec["{field}"]' for field in rows[0]]
    return [*lines, *_loop_body(idioms)]


def _generator(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]
    fields = list(rows[0])
    lines = [
        "class Spec(NamedTuple):",
        *(f"    {field}: object" for field in fields),
        "",
        "",
        "def specs():",
        *(f"    yield Spec({', '.join(r.values())})" for r in rows),
        "",
        "",
        "for kind, size, center, rotation, color, grouped, by_matrix, template in specs():",
    ]
    return [*lines, *_loop_body(idioms)]


def _numpy(scene: Scene, idioms: Idioms) -> list[str]:
    rows = [_row(o, i, idioms) for i, o in enumerate(scene.objects)]

    def column(field: str) -> str:
        return ", ".join(r[field] for r in rows)

    lines = [
        f"KINDS = [{column('kind')}]",
        f"SIZES = np.array([{column('size')}])",
        f"CENTERS = np.array([{column('center')}])",
        f"ROTATIONS = [{column('rotation')}]",
        f"COLORS = [{column('color')}]",
        f"GROUPED = np.array([{column('grouped')}])",
        f"BY_MATRIX = [{column('by_matrix')}]",
        f"TEMPLATE = [{column('template')}]",
        "",
        "for i, (kind, size, center) in enumerate(zip(KINDS, SIZES, CENTERS)):",
        "    rotation, color, grouped = ROTATIONS[i], COLORS[i], GROUPED[i]",
        "    by_matrix, template = BY_MATRIX[i], TEMPLATE[i]",
    ]
    return [*lines, *_loop_body(idioms)]


def _calls(scene: Scene, idioms: Idioms) -> list[str]:
    lines = []
    for index, obj in enumerate(scene.objects):
        row = _row(obj, index, idioms)
        make = (
            f"from_template({row['kind']}, {row['size']})"
            if idioms.template[index]
            else f"create({row['kind']}, {row['size']})"
        )
        lines += [
            f"# {obj.color} {obj.class_name}",
            f"mesh = place({make}, {row['rotation']}, {row['center']}, {row['by_matrix']})",
            *(["mesh.transform(GROUP)"] if row["grouped"] == "True" else []),
            f"mesh.paint_uniform_color({row['color']})",
            "meshes.append(mesh)",
            "",
        ]
    return lines


def write_open3d(scene: Scene, idioms: Idioms) -> str:
    code = ["import numpy as np", "import open3d as o3d"]
    if any(idioms.template):
        code.insert(0, "import copy")
    if idioms.layout == "generator":
        code.insert(0, "from typing import NamedTuple")
    code += ["", "", *python_function(_OPEN3D_HEAD, "upright")]
    if idioms.procedural:
        code += python_function(_OPEN3D_HEAD, "torus_mesh")
        code += python_function(_OPEN3D_HEAD, "pyramid_mesh")
    if idioms.hex_colours:
        code += _HEX
    code += _create(idioms) + _PLACE
    if any(idioms.template):
        code += _TEMPLATES
    code += _group(idioms)
    code.append("meshes = []")
    if idioms.ground != "none":
        code += [*_open3d_ground(idioms.ground), "ground.paint_uniform_color((0.8, 0.8, 0.8))"]
        code.append("meshes.append(ground)")
    code.append("")
    layouts = {"table": _table, "generator": _generator, "numpy": _numpy, "calls": _calls}
    code += layouts[idioms.layout](scene, idioms)
    code += ["o3d.visualization.draw_geometries(meshes)"]
    return _reply(
        "Here is an Open3D script; every mesh is built centred, then turned and moved:",
        "python",
        code,
        "The window shows the scene from the default viewpoint.",
    )
