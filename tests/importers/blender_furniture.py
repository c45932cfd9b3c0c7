"""Build the furniture scene of ``tests.importers.furniture`` in Blender and export it.

A subprocess (bpy must not share a process with the test runner):

    python -m tests.importers.blender_furniture OUT_DIR

writes ``OUT_DIR/furniture.glb`` (one node per piece: an empty with a child mesh per box, and
the camera), ``OUT_DIR/furniture.obj`` (each piece's boxes joined into one mesh object named
after it; OBJ has no camera) and ``OUT_DIR/furniture.png`` (the camera's picture, Workbench).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import bpy
from mathutils import Vector

from tests.importers.furniture import spec


def _box(name: str, size: list[float], centre: list[float], parent: object) -> object:
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=centre)
    obj = bpy.context.active_object
    obj.name = name
    obj.scale = size
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    obj.parent = parent
    return obj


def build(out: Path) -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    data = spec()
    for name, piece in data["pieces"].items():
        x, y = piece["location"]
        root = bpy.data.objects.new(name, None)
        scene.collection.objects.link(root)
        root.location = (x, y, 0.0)
        root.rotation_euler = (0.0, 0.0, math.radians(piece["yaw"]))
        for index, (size, centre) in enumerate(piece["parts"]):
            _box(f"{name}_part{index}", size, centre, root)
    camera_spec = data["camera"]
    camera_data = bpy.data.cameras.new("camera")
    camera_data.sensor_fit = "VERTICAL"
    camera_data.angle_y = math.radians(camera_spec["fov_y_deg"])
    camera = bpy.data.objects.new("camera", camera_data)
    scene.collection.objects.link(camera)
    eye, target = Vector(camera_spec["eye"]), Vector(camera_spec["target"])
    camera.location = eye
    camera.rotation_euler = (target - eye).to_track_quat("-Z", "Y").to_euler()
    scene.camera = camera
    render = scene.render
    render.resolution_x, render.resolution_y = camera_spec["width"], camera_spec["height"]
    render.resolution_percentage = 100
    render.engine = "BLENDER_WORKBENCH"
    render.image_settings.file_format = "PNG"
    render.filepath = str(out / "furniture.png")
    bpy.context.view_layer.update()
    bpy.ops.render.render(write_still=True)
    bpy.ops.export_scene.gltf(
        filepath=str(out / "furniture.glb"), export_format="GLB", export_cameras=True
    )
    # OBJ keeps no hierarchy: one mesh object per piece.
    for name in data["pieces"]:
        root = bpy.data.objects[name]
        parts = list(root.children)
        bpy.ops.object.select_all(action="DESELECT")
        for part in parts:
            part.select_set(True)
        bpy.context.view_layer.objects.active = parts[0]
        bpy.ops.object.parent_clear(type="CLEAR_KEEP_TRANSFORM")
        bpy.ops.object.join()
        joined = bpy.context.active_object
        bpy.data.objects.remove(root, do_unlink=True)
        joined.name = name
    bpy.ops.wm.obj_export(
        filepath=str(out / "furniture.obj"), export_materials=False, export_selected_objects=False
    )


if __name__ == "__main__":
    build(Path(sys.argv[1]))
