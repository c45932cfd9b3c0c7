"""The Blender side of the generator: one long-lived bpy scene per worker process.

``BlenderStage`` loads factory settings once, builds the unit meshes (``synth.meshes``) and
palette materials once, then for every scene swaps the objects and cameras and renders:
- ID passes: Workbench, flat lighting, object colour = (1 + index) / 255 in grey, no
  anti-aliasing, Raw view transform, no dither, black world, 8-bit single-channel PNG, so each
  pixel holds exactly 1 + the index of the object seen there (0 for ground and sky);
- images: Workbench studio lighting (default) or Cycles, palette colours converted to linear.
Clips (``synth.clip_unit``) reuse one stage for all their frames: ``set_scene`` once (with a
checker ground, ``tile``), then ``move`` and render per frame, without anti-aliasing (FXAA
costs about four times the rest of a 512x512 Workbench frame on Mesa's llvmpipe).
Blender is Z-up; ``spatialbabel.frames.LANGUAGE_FRAMES["blender"]`` maps it to the canonical
Y-up frame and its transpose maps back.
This is the only module of the project that imports bpy.
"""

from __future__ import annotations

import math
import os
import shutil
import struct
import tempfile
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import bpy
import numpy as np
from mathutils import Matrix as BlenderMatrix
from numpy.typing import NDArray

from spatialbabel import LANGUAGE_FRAMES, PALETTE, Camera, Ground, SceneObject, object_affine
from spatialbabel.palette import srgb_to_linear
from synth.meshes import unit_mesh

ENGINES: Final = ("workbench", "cycles")
#: Ground and sky of the images (sRGB); the sky is darker so the ground's edges show.
GROUND_SRGB: Final = (0.55, 0.55, 0.55)
#: The other tiles of a checker ground.
GROUND_DARK_SRGB: Final = (0.47, 0.47, 0.47)
SKY_SRGB: Final = (0.30, 0.32, 0.36)
CYCLES_SAMPLES: Final = 64
STUDIO_EXPOSURE: Final = 0.5
#: Largest object count an 8-bit ID pass can hold (0 is kept for ground and sky).
MAX_OBJECTS: Final = 254

_TO_BLENDER = np.eye(4)
_TO_BLENDER[:3, :3] = LANGUAGE_FRAMES["blender"].to_canonical.T


def blender_version() -> str:
    return str(bpy.app.version_string)


def _matrix(canonical: NDArray[np.float64]) -> BlenderMatrix:
    return BlenderMatrix((_TO_BLENDER @ np.asarray(canonical, float)).tolist())


def _rgba(srgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
    r, g, b = srgb_to_linear(srgb)
    return (r, g, b, 1.0)


_PNG_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_PNG_TEXT_CHUNKS: Final = frozenset({b"tEXt", b"zTXt", b"iTXt"})


def without_png_text(data: bytes) -> bytes:
    """The PNG without its text chunks. Cycles stores its render times there
    (``cycles.ViewLayer.total_time``) whatever the stamp settings, which would make two renders
    of the same scene differ in bytes though not in pixels."""
    if not data.startswith(_PNG_SIGNATURE):
        raise ValueError("not a PNG file")
    kept = [_PNG_SIGNATURE]
    offset = len(_PNG_SIGNATURE)
    while offset < len(data):
        length = struct.unpack(">I", data[offset : offset + 4])[0]
        end = offset + 12 + length  # length, type, data, CRC
        if data[offset + 4 : offset + 8] not in _PNG_TEXT_CHUNKS:
            kept.append(data[offset:end])
        offset = end
    return b"".join(kept)


class BlenderStage:
    """Renders scenes in one bpy session; ``workdir`` holds its scratch files."""

    def __init__(self, engine: str = "workbench", workdir: Path | None = None) -> None:
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
        self.engine = engine
        if workdir is None:
            workdir = Path(tempfile.mkdtemp(prefix="spatialbabel-blender-"))
            weakref.finalize(self, shutil.rmtree, workdir, ignore_errors=True)
        self.workdir = workdir
        bpy.ops.wm.read_factory_settings(use_empty=True)
        self.scene = bpy.context.scene
        self._objects: list[Any] = []
        self._meshes: dict[tuple[str, str], Any] = {}
        self._materials = {name: self._material(name, rgb) for name, rgb in PALETTE.items()}
        self._ground = self._make_ground()
        self._plain_ground = self._ground.data
        self._ground_dark: Any = None
        self._ground_tiles: tuple[int, int] | None = None
        self._cameras: list[Any] = []
        self._camera_specs: list[Camera] = []
        self._setup_render()

    @property
    def blender_objects(self) -> list[Any]:
        """The Blender objects of the current scene, in the scene's object order."""
        return list(self._objects)

    # -- building ---------------------------------------------------------------------------

    def _material(self, name: str, srgb: tuple[float, float, float]) -> Any:
        material = bpy.data.materials.new(name)
        material.diffuse_color = _rgba(srgb)
        tree = material.node_tree
        if tree is not None:
            principled = tree.nodes.get("Principled BSDF")
            if principled is not None:
                principled.inputs["Base Color"].default_value = _rgba(srgb)
                principled.inputs["Roughness"].default_value = 0.45
        return material

    def _mesh(self, class_name: str, color: str) -> Any:
        key = (class_name, color)
        if key not in self._meshes:
            unit = unit_mesh(class_name)
            mesh = bpy.data.meshes.new(f"{class_name}.{color}")
            mesh.from_pydata(unit.vertices.tolist(), [], [list(f) for f in unit.faces])
            mesh.polygons.foreach_set("use_smooth", list(unit.smooth))
            mesh.materials.append(self._materials[color])
            mesh.update()
            self._meshes[key] = mesh
        return self._meshes[key]

    def _make_ground(self) -> Any:
        mesh = bpy.data.meshes.new("ground")
        mesh.from_pydata(
            [(-0.5, 0.0, 0.5), (0.5, 0.0, 0.5), (0.5, 0.0, -0.5), (-0.5, 0.0, -0.5)],
            [],
            [(0, 1, 2, 3)],
        )
        material = self._material("ground", GROUND_SRGB)
        mesh.materials.append(material)
        ground = bpy.data.objects.new("ground", mesh)
        ground.color = (0.0, 0.0, 0.0, 1.0)
        self.scene.collection.objects.link(ground)
        return ground

    def _checker_mesh(self, cells_x: int, cells_z: int) -> Any:
        """A unit ground square cut into ``cells_x`` x ``cells_z`` tiles of two greys."""
        xs = np.linspace(-0.5, 0.5, cells_x + 1)
        zs = np.linspace(-0.5, 0.5, cells_z + 1)
        vertices = [(float(x), 0.0, float(z)) for z in zs for x in xs]
        faces = []
        for j in range(cells_z):
            for i in range(cells_x):
                a = j * (cells_x + 1) + i
                # Counter-clockwise seen from +Y, as the plain ground's face: normals point up.
                faces.append((a, a + 1, a + cells_x + 2, a + cells_x + 1)[::-1])
        mesh = bpy.data.meshes.new(f"ground.{cells_x}x{cells_z}")
        mesh.from_pydata(vertices, [], faces)
        if self._ground_dark is None:
            self._ground_dark = self._material("ground_dark", GROUND_DARK_SRGB)
        mesh.materials.append(self._plain_ground.materials[0])
        mesh.materials.append(self._ground_dark)
        mesh.polygons.foreach_set(
            "material_index",
            [(i + j) % 2 for j in range(cells_z) for i in range(cells_x)],
        )
        mesh.update()
        return mesh

    def _setup_render(self) -> None:
        scene = self.scene
        render = scene.render
        render.resolution_percentage = 100
        render.pixel_aspect_x = render.pixel_aspect_y = 1.0
        render.use_file_extension = False
        render.film_transparent = False
        render.dither_intensity = 0.0
        for name in dir(render):
            # Stamps put dates and render times into the PNG, which would break byte-identity.
            if name.startswith("use_stamp"):
                setattr(render, name, False)
        settings = render.image_settings
        settings.file_format = "PNG"
        settings.color_depth = "8"
        settings.compression = 15
        world = bpy.data.worlds.new("world")
        scene.world = world
        sun = bpy.data.lights.new("sun", "SUN")
        sun.energy = 3.0
        sun.angle = math.radians(8.0)
        sun_object = bpy.data.objects.new("sun", sun)
        # Light from behind the frontal camera's right shoulder, down at 50 degrees (Blender frame).
        sun_object.rotation_euler = (math.radians(40.0), 0.0, math.radians(30.0))
        scene.collection.objects.link(sun_object)
        if self.engine == "cycles":
            render.engine = "CYCLES"
            scene.cycles.device = "CPU"
            scene.cycles.samples = CYCLES_SAMPLES
            scene.cycles.seed = 0
            scene.cycles.use_denoising = True
            tree = world.node_tree
            if tree is not None and "Background" in tree.nodes:
                tree.nodes["Background"].inputs["Color"].default_value = _rgba(SKY_SRGB)
                tree.nodes["Background"].inputs["Strength"].default_value = 1.0

    def set_scene(
        self,
        objects: Sequence[SceneObject],
        cameras: Sequence[Camera],
        ground: Ground,
        *,
        tile: float | None = None,
    ) -> None:
        """Replace the objects, cameras and ground by the given ones; with ``tile`` the ground
        is a checkerboard of ``tile``-metre squares (each range must hold whole tiles)."""
        if len(objects) > MAX_OBJECTS:
            raise ValueError(f"an ID pass holds at most {MAX_OBJECTS} objects, got {len(objects)}")
        for old in self._objects:
            bpy.data.objects.remove(old, do_unlink=True)
        self._objects = []
        for index, obj in enumerate(objects):
            if obj.color is None:
                raise ValueError(f"object {obj.id} has no palette colour")
            item = bpy.data.objects.new(obj.id, self._mesh(obj.class_name, obj.color))
            item.matrix_world = _matrix(object_affine(obj))
            level = (index + 1) / 255.0
            item.color = (level, level, level, 1.0)
            self.scene.collection.objects.link(item)
            self._objects.append(item)
        self._set_cameras(cameras)
        width = ground.x_range[1] - ground.x_range[0]
        depth = ground.z_range[1] - ground.z_range[0]
        self._set_ground_tiles(None if tile is None else (width / tile, depth / tile))
        centre = np.eye(4)
        centre[:3, 3] = (sum(ground.x_range) / 2, ground.height, sum(ground.z_range) / 2)
        centre[:3, :3] = np.diag([width, 1.0, depth])
        self._ground.matrix_world = _matrix(centre)

    def _set_ground_tiles(self, tiles: tuple[float, float] | None) -> None:
        cells = None
        if tiles is not None:
            cells = (round(tiles[0]), round(tiles[1]))
            if min(cells) < 1 or not all(
                math.isclose(t, c) for t, c in zip(tiles, cells, strict=True)
            ):
                raise ValueError(
                    f"the ground does not hold whole tiles: {tiles[0]:g} x {tiles[1]:g}"
                )
        if cells == self._ground_tiles:
            return
        self._ground.data = self._plain_ground if cells is None else self._checker_mesh(*cells)
        self._ground_tiles = cells

    def move(self, objects: Sequence[SceneObject], cameras: Sequence[Camera]) -> None:
        """Give the current objects and cameras new poses (a clip's next frame): the same
        objects in the same order as ``set_scene`` got, only their placement changed."""
        if len(objects) != len(self._objects) or len(cameras) != len(self._cameras):
            raise ValueError(
                f"move needs the {len(self._objects)} objects and {len(self._cameras)} cameras "
                "of the current scene"
            )
        for item, obj in zip(self._objects, objects, strict=True):
            if item.name != obj.id:
                raise ValueError(f"move: object {obj.id!r} is not {item.name!r} of the scene")
            item.matrix_world = _matrix(object_affine(obj))
        self._set_cameras(cameras)

    def _set_cameras(self, cameras: Sequence[Camera]) -> None:
        while len(self._cameras) < len(cameras):
            data = bpy.data.cameras.new(f"camera{len(self._cameras)}")
            item = bpy.data.objects.new(data.name, data)
            self.scene.collection.objects.link(item)
            self._cameras.append(item)
        for item, camera in zip(self._cameras, cameras, strict=False):
            data = item.data
            data.type = "PERSP"
            # Vertical sensor fit makes angle_y the camera's fov_y whatever the aspect ratio.
            data.sensor_fit = "VERTICAL"
            data.angle_y = math.radians(camera.fov_y_deg)
            data.shift_x = data.shift_y = 0.0
            data.clip_start, data.clip_end = 0.05, 200.0
            item.matrix_world = _matrix(camera.pose)
        self._camera_specs = list(cameras)

    # -- rendering --------------------------------------------------------------------------

    def _render(self, camera_index: int, path: Path) -> None:
        camera = self._camera_specs[camera_index]
        render = self.scene.render
        render.resolution_x, render.resolution_y = camera.width, camera.height
        self.scene.camera = self._cameras[camera_index]
        render.filepath = str(path)
        bpy.ops.render.render(write_still=True)

    def render_ids(
        self, camera_index: int = 0, only: Iterable[int] | None = None
    ) -> tuple[bytes, NDArray[np.uint8]]:
        """The ID pass of one camera (PNG bytes and the decoded mask, row 0 at the top);
        ``only`` limits it to the objects at those indices."""
        scene = self.scene
        keep = set(range(len(self._objects))) if only is None else set(only)
        for index, item in enumerate(self._objects):
            item.hide_render = index not in keep
        scene.render.engine = "BLENDER_WORKBENCH"
        shading = scene.display.shading
        shading.light = "FLAT"
        shading.color_type = "OBJECT"
        shading.show_shadows = False
        shading.show_cavity = False
        shading.show_object_outline = False
        shading.show_specular_highlight = False
        shading.show_xray = False
        scene.display.render_aa = "OFF"
        scene.view_settings.view_transform = "Raw"
        scene.view_settings.look = "None"
        scene.view_settings.exposure = 0.0
        scene.view_settings.gamma = 1.0
        scene.world.color = (0.0, 0.0, 0.0)
        scene.render.image_settings.color_mode = "BW"
        path = self.workdir / f"ids-{os.getpid()}.png"
        try:
            self._render(camera_index, path)
            return path.read_bytes(), self._decode(path)
        finally:
            path.unlink(missing_ok=True)
            for item in self._objects:
                item.hide_render = False

    @staticmethod
    def _decode(path: Path) -> NDArray[np.uint8]:
        image = bpy.data.images.load(str(path), check_existing=False)
        try:
            width, height = image.size
            pixels = np.empty(width * height * image.channels, dtype=np.float32)
            image.pixels.foreach_get(pixels)
            channels = image.channels
        finally:
            bpy.data.images.remove(image)
        # Blender hands the pixels bottom row first and as byte / 255.
        first = pixels.reshape(height, width, channels)[::-1, :, 0]
        return np.rint(first * 255.0).astype(np.uint8)

    def render_image(self, camera_index: int = 0, *, antialias: bool = True) -> bytes:
        """The picture of one camera, as PNG bytes; Workbench anti-aliases with FXAA unless
        ``antialias`` is off."""
        scene = self.scene
        scene.render.image_settings.color_mode = "RGB"
        scene.view_settings.view_transform = "Standard"
        scene.view_settings.look = "None"
        scene.world.color = _rgba(SKY_SRGB)[:3]
        if self.engine == "cycles":
            scene.render.engine = "CYCLES"
            scene.view_settings.exposure = 0.0
        else:
            scene.render.engine = "BLENDER_WORKBENCH"
            shading = scene.display.shading
            shading.light = "STUDIO"
            # Of Blender's bundled studio lights, paint.sl with +0.5 EV keeps the lit faces
            # nearest the palette (median CIELAB error about 6; the default light is about 35).
            shading.studio_light = "paint.sl"
            scene.view_settings.exposure = STUDIO_EXPOSURE
            shading.color_type = "MATERIAL"
            # Workbench shadows cost more than the rest of the image and streak curved faces.
            shading.show_shadows = False
            shading.show_cavity = False
            shading.show_object_outline = False
            shading.show_specular_highlight = True
            scene.display.render_aa = "FXAA" if antialias else "OFF"
        path = self.workdir / f"image-{os.getpid()}.png"
        try:
            self._render(camera_index, path)
            return without_png_text(path.read_bytes())
        finally:
            path.unlink(missing_ok=True)
