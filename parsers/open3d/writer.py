"""A scene as the open3d script a careful model would write (for prompts, demo replies and
round trips): each primitive created at unit size and brought onto the canonical unit primitive
(centred, axis +Y), then placed with one 4x4 transform, painted with its sRGB colour, and all
shown with ``draw_geometries``. open3d's frame is the canonical Y-up one."""

from __future__ import annotations

from spatialbabel import Scene, SceneObject, object_affine
from spatialbabel.palette import PALETTE

#: class -> lines making the canonical unit primitive as ``mesh``.
_UNIT_PRIMITIVES = {
    "cube": [
        "mesh = o3d.geometry.TriangleMesh.create_box(1.0, 1.0, 1.0)",
        "mesh.translate((-0.5, -0.5, -0.5))",
    ],
    "sphere": ["mesh = o3d.geometry.TriangleMesh.create_sphere(radius=0.5)"],
    "cylinder": [
        "mesh = o3d.geometry.TriangleMesh.create_cylinder(radius=0.5, height=1.0)",
        "mesh.rotate(UPRIGHT, center=(0, 0, 0))",
    ],
    "cone": [
        "mesh = o3d.geometry.TriangleMesh.create_cone(radius=0.5, height=1.0)",
        "mesh.rotate(UPRIGHT, center=(0, 0, 0))",
        "mesh.translate((0, -0.5, 0))",
    ],
    # Four segments make a square pyramid with corners on the axes; an eighth of a turn about Y
    # brings its edges onto them.
    "pyramid": [
        "mesh = o3d.geometry.TriangleMesh.create_cone(radius=np.sqrt(0.5), height=1.0, resolution=4)",
        "mesh.rotate(EIGHTH_TURN @ UPRIGHT, center=(0, 0, 0))",
        "mesh.translate((0, -0.5, 0))",
    ],
    "torus": [
        "mesh = o3d.geometry.TriangleMesh.create_torus(torus_radius=0.375, tube_radius=0.125)",
        "mesh.rotate(UPRIGHT, center=(0, 0, 0))",
    ],
    "unknown": [
        "mesh = o3d.geometry.TriangleMesh.create_box(1.0, 1.0, 1.0)",
        "mesh.translate((-0.5, -0.5, -0.5))",
    ],
}


def _n(value: float) -> str:
    if value == 0:
        return "0.0"
    return repr(float(value))


def object_lines(obj: SceneObject) -> list[str]:
    affine = object_affine(obj)
    rows = ",\n    ".join("[" + ", ".join(_n(v) for v in row) + "]" for row in affine)
    rgb = obj.rgb if obj.rgb is not None else PALETTE.get(obj.color or "white", (1.0, 1.0, 1.0))
    lines = [f"# {obj.id}: {obj.class_name}" + (f", {obj.color}" if obj.color else "")]
    lines.extend(_UNIT_PRIMITIVES.get(obj.class_name, _UNIT_PRIMITIVES["unknown"]))
    lines.append(f"mesh.transform(np.array([\n    {rows},\n]))")
    lines.append(f"mesh.paint_uniform_color(({_n(rgb[0])}, {_n(rgb[1])}, {_n(rgb[2])}))")
    lines.append("mesh.compute_vertex_normals()")
    lines.append("meshes.append(mesh)")
    return lines


def write_open3d(scene: Scene) -> str:
    """``scene`` as an open3d script (open3d's frame is the canonical one)."""
    lines = [
        "import numpy as np",
        "import open3d as o3d",
        "",
        "# open3d builds cylinders, cones and tori along Z; this quarter turn stands them on Y.",
        "UPRIGHT = o3d.geometry.get_rotation_matrix_from_xyz((-np.pi / 2, 0.0, 0.0))",
        "EIGHTH_TURN = o3d.geometry.get_rotation_matrix_from_xyz((0.0, -np.pi / 4, 0.0))",
        "meshes = []",
    ]
    for obj in scene.objects:
        lines.append("")
        lines.extend(object_lines(obj))
    lines.extend(["", "o3d.visualization.draw_geometries(meshes)"])
    return "\n".join(lines) + "\n"
