"""A scene as the bpy script a careful model would write (for prompts, demo replies and round
trips): Blender's own Z-up frame, primitive operators sized to the unit primitive, the object's
transform as location / rotation_euler (XYZ, radians) / scale, and a node material whose Base
Color (and viewport colour) is the object's colour in linear RGB, as Blender stores colours."""

from __future__ import annotations

import numpy as np

from parsers.blender.rotations import decompose_trs, matrix_to_blender_euler
from parsers.blender.shapes import Y_TO_Z
from spatialbabel import Scene, SceneObject, language_frame, object_affine
from spatialbabel.palette import PALETTE, srgb_to_linear

#: class -> the operator call making its unit primitive, and the mesh fix-up after it.
_OPERATORS = {
    "cube": ("bpy.ops.mesh.primitive_cube_add(size=1, {place})", None),
    "sphere": ("bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, {place})", None),
    "cylinder": ("bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=1, {place})", None),
    "cone": ("bpy.ops.mesh.primitive_cone_add(radius1=0.5, radius2=0, depth=1, {place})", None),
    # A 4-vertex cone has its corners on the axes: turn its mesh an eighth so edges lie on them.
    "pyramid": (
        "bpy.ops.mesh.primitive_cone_add(vertices=4, radius1=math.sqrt(0.5), radius2=0, depth=1, {place})",
        "obj.data.transform(Matrix.Rotation(math.radians(-45), 4, 'Z'))",
    ),
    "torus": (
        "bpy.ops.mesh.primitive_torus_add(major_radius=0.375, minor_radius=0.125, {place})",
        None,
    ),
    "unknown": ("bpy.ops.mesh.primitive_cube_add(size=1, {place})", None),
}


def _n(value: float) -> str:
    """Shortest text that reads back as exactly ``value``."""
    if value == 0:
        return "0"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _vector(values: object) -> str:
    return "(" + ", ".join(_n(float(v)) for v in values) + ")"  # type: ignore[attr-defined]


def object_lines(obj: SceneObject) -> list[str]:
    frame = language_frame("blender")
    # The unit primitive lies with its axis on Blender's local Z (Y_TO_Z) in every operator above.
    native = np.linalg.inv(
        np.block([[frame.to_canonical, np.zeros((3, 1))], [np.zeros((1, 3)), np.ones((1, 1))]])
    ) @ object_affine(obj)
    # The UV sphere's mesh has no axis: its unit primitive is the mesh itself.
    basis = native if obj.class_name == "sphere" else native @ np.linalg.inv(Y_TO_Z)
    location, rotation, scale = decompose_trs(basis)
    angles = matrix_to_blender_euler(rotation, "XYZ")
    call, fix = _OPERATORS.get(obj.class_name, _OPERATORS["unknown"])
    place = f"location={_vector(location)}, rotation={_vector(angles)}"
    rgb = obj.rgb if obj.rgb is not None else PALETTE.get(obj.color or "white", (1.0, 1.0, 1.0))
    linear = srgb_to_linear(rgb)
    lines = [
        f"# {obj.id}: {obj.class_name}" + (f", {obj.color}" if obj.color else ""),
        call.format(place=place),
        "obj = bpy.context.active_object",
        f"obj.name = {obj.id!r}",
    ]
    if fix:
        lines.append(fix)
    lines.append(f"obj.scale = {_vector(scale)}")
    lines.append(
        f"obj.data.materials.append(make_material({obj.id + '_material'!r}, {_vector(linear)}))"
    )
    return lines


def write_blender(scene: Scene) -> str:
    """``scene`` as a bpy script in Blender's Z-up frame (canonical = (x, z, -y))."""
    lines = [
        "import math",
        "",
        "import bpy",
        "from mathutils import Matrix",
        "",
        "bpy.ops.wm.read_factory_settings(use_empty=True)",
        "",
        "",
        "def make_material(name, linear_rgb):",
        '    """A node material whose Base Color (linear, as Blender stores it) is ``linear_rgb``."""',
        "    material = bpy.data.materials.new(name)",
        '    material.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*linear_rgb, 1.0)',
        "    material.diffuse_color = (*linear_rgb, 1.0)",
        "    return material",
        "",
    ]
    for obj in scene.objects:
        lines.append("")
        lines.extend(object_lines(obj))
    return "\n".join(lines) + "\n"
