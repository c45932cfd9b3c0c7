"""Offscreen re-rendering of any ``Scene`` with any of its cameras, through pyrender on EGL.

A ``Renderer`` is kept alive across scenes: it draws through the process's one EGL context
(``_Context``), the unit meshes are built once (``render.primitives``) and a pyrender mesh per
(class, colour) is kept, so a scene that reuses the previous one's shapes uploads nothing new.
Each render makes two passes:

- an instance pass (flat colours, no multisampling) that gives exact per-object ids and the
  depth along the view axis; the ground is drawn there too, as background, so it hides what a
  reconstruction sinks below it, as it does in the generator's Blender ID pass;
- a shaded colour pass (skipped with ``color=False``) for the pictures people look at.

Only this module (and so only ``render/``) imports pyrender.
"""

from __future__ import annotations

import os

# PyOpenGL picks its platform when first imported: EGL renders without a display or a GPU.
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import trimesh
from numpy.typing import NDArray

from render.errors import EGL_PACKAGES, RenderError, RendererUnavailable
from render.primitives import CURVED, unit_trimesh
from spatialbabel import Camera, Scene, SceneObject

try:
    import pyrender
except ModuleNotFoundError:
    raise  # pyrender itself is missing: the CLI says which extra to install
except ImportError as error:
    # PyOpenGL loads its platform's libraries when pyrender first imports it.
    raise RendererUnavailable(
        f"PyOpenGL cannot load its {os.environ['PYOPENGL_PLATFORM']} platform ({error}); "
        f"on Debian install {EGL_PACKAGES}"
    ) from error
from spatialbabel.geometry import unit_to_world
from spatialbabel.palette import RGB, srgb_to_linear

#: sRGB of objects that carry no colour, of the ground and of the empty background.
UNCOLORED_RGB: Final[RGB] = (0.6, 0.6, 0.6)
GROUND_RGB: Final[RGB] = (0.62, 0.62, 0.62)
BACKGROUND_RGB: Final[RGB] = (0.30, 0.32, 0.36)

#: Near and far clip planes (metres). The 24-bit depth buffer still resolves 0.2 mm at 11 m.
Z_NEAR: Final = 0.05
Z_FAR: Final = 1000.0

#: A size component below this is raised to it: a flat disc stays visible and the pose invertible.
MIN_EXTENT: Final = 1e-6

#: pyrender meshes kept between renders, one per (class, 8-bit colour), oldest dropped first.
MESH_CACHE_SIZE: Final = 256

#: Instance ids are written as 16-bit colours (red = low byte, green = high byte).
MAX_OBJECTS: Final = 65535


@dataclass(frozen=True, eq=False)
class Rendering:
    """What one camera sees of one scene, at the camera's resolution (rows top to bottom).

    ``instances`` holds 1 + the index of the object in ``scene.objects`` that covers each pixel,
    0 where no object does (the convention of the generator's ``masks/<id>.png``). ``depth`` is
    the distance along the view axis in metres of whatever is drawn there (ground included), 0
    where nothing is. ``color`` is 8-bit sRGB, or None when only the instance pass was asked for.
    """

    scene_id: str
    camera: Camera
    object_ids: tuple[str, ...]
    instances: NDArray[np.uint16]
    depth: NDArray[np.float32]
    color: NDArray[np.uint8] | None

    @property
    def silhouette(self) -> NDArray[np.bool_]:
        """Pixels covered by any object."""
        return self.instances > 0

    def mask(self, index: int) -> NDArray[np.bool_]:
        """Visible pixels of ``scene.objects[index]``."""
        if not 0 <= index < len(self.object_ids):
            raise IndexError(
                f"scene {self.scene_id!r} has {len(self.object_ids)} objects, no index {index}"
            )
        return self.instances == index + 1

    def masks(self) -> NDArray[np.bool_]:
        """One visible-pixel mask per object (N x H x W)."""
        labels = np.arange(1, len(self.object_ids) + 1, dtype=np.uint16)
        return self.instances[None, :, :] == labels[:, None, None]

    def pixel_counts(self) -> NDArray[np.int64]:
        """Visible pixels of each object, in object order."""
        counts = np.bincount(self.instances.ravel(), minlength=len(self.object_ids) + 1)
        return counts[1 : len(self.object_ids) + 1].astype(np.int64)


def choose_camera(scene: Scene, camera: Camera | str | None) -> Camera:
    """``camera`` itself, the scene's camera of that name, or (None) the frontal camera."""
    if isinstance(camera, Camera):
        return camera
    if not scene.cameras:
        raise RenderError(f"scene {scene.scene_id!r} has no camera; pass one to render it")
    if camera is None:
        return scene.cameras[0]
    for candidate in scene.cameras:
        if candidate.name == camera:
            return candidate
    known = ", ".join(c.name for c in scene.cameras)
    raise RenderError(f"scene {scene.scene_id!r} has no camera {camera!r}; it has: {known}")


def object_pose(obj: SceneObject) -> NDArray[np.float64]:
    """The 4x4 pose given to the object's unit mesh: the hub's ``object_affine``."""
    size = tuple(max(s, MIN_EXTENT) for s in obj.size)
    return np.asarray(
        unit_to_world(obj.class_name, obj.position, obj.rotation, size), dtype=np.float64
    )


def _instance_color(label: int) -> NDArray[np.uint8]:
    return np.array([label & 0xFF, label >> 8, 0], dtype=np.uint8)


def _decode_instances(seg: NDArray[np.uint8]) -> NDArray[np.uint16]:
    low, high = seg[:, :, 0].astype(np.uint16), seg[:, :, 1].astype(np.uint16)
    return np.asarray(low | (high << 8), dtype=np.uint16)


def _material(rgb: RGB, *, double_sided: bool = False) -> pyrender.MetallicRoughnessMaterial:
    # pyrender shades in linear light and encodes its output with gamma 2.2, so the sRGB the
    # generator renders goes in linearised.
    linear = srgb_to_linear(rgb)
    return pyrender.MetallicRoughnessMaterial(
        baseColorFactor=(*linear, 1.0),
        metallicFactor=0.0,
        roughnessFactor=0.7,
        doubleSided=double_sided,
    )


def _ground_mesh(scene: Scene) -> pyrender.Mesh:
    ground = scene.ground
    (x0, x1), (z0, z1), y = ground.x_range, ground.z_range, ground.height
    vertices = np.array([[x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]], dtype=float)
    faces = np.array([[0, 1, 2], [0, 2, 3]])
    plane = trimesh.Trimesh(vertices, faces, process=False)
    return pyrender.Mesh.from_trimesh(
        plane, material=_material(GROUND_RGB, double_sided=True), smooth=False
    )


def _camera_pose(camera: Camera) -> NDArray[np.float64]:
    return np.asarray(camera.pose, dtype=np.float64)


def _sun_pose() -> NDArray[np.float64]:
    # A key light from above, front and left (the light shines down its own -Z).
    direction = np.array([-0.4, -1.0, -0.6])
    direction /= np.linalg.norm(direction)
    z = -direction
    x = np.cross([0.0, 1.0, 0.0], z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    pose = np.eye(4)
    pose[:3, 0], pose[:3, 1], pose[:3, 2] = x, y, z
    return pose


class _Context:
    """The process's one EGL context (a pyrender ``OffscreenRenderer``), shared by every
    ``Renderer``. pyrender ends a context with ``eglTerminate`` on the display, which all
    contexts of the process share, so closing one of several would break the others: instead
    renderers take and give back this one, and it is deleted when the last gives it back.
    A forked child cannot use its parent's context; it opens its own and leaves the inherited
    one alone (deleting it would act on the parent's)."""

    def __init__(self) -> None:
        self.offscreen: Any = None
        self.users = 0
        self.pid = os.getpid()

    def acquire(self) -> Any:
        if self.pid != os.getpid():
            self.offscreen, self.users, self.pid = None, 0, os.getpid()
        if self.offscreen is None:
            try:
                self.offscreen = pyrender.OffscreenRenderer(1, 1)
            except Exception as error:
                platform = os.environ.get("PYOPENGL_PLATFORM", "")
                raise RendererUnavailable(
                    f"cannot open an offscreen OpenGL context (PYOPENGL_PLATFORM={platform}): "
                    f"{type(error).__name__}: {error}; on Debian install {EGL_PACKAGES}"
                ) from error
        self.users += 1
        return self.offscreen

    def release(self) -> None:
        if self.pid != os.getpid() or self.users == 0:
            return
        self.users -= 1
        if self.users == 0 and self.offscreen is not None:
            self.offscreen.delete()
            self.offscreen = None


_CONTEXT: Final = _Context()


class Renderer:
    """An offscreen pyrender renderer kept alive across scenes.

    ``ground`` draws the scene's ground plane (grey in colour, background in the instance pass).
    Use as a context manager, or call ``close()``. Every renderer of a process draws through
    the same EGL context, so several may be open at once.
    """

    def __init__(self, *, ground: bool = True) -> None:
        self.ground = ground
        self._offscreen: Any = None
        self._meshes: OrderedDict[tuple[str, tuple[int, int, int]], pyrender.Mesh] = OrderedDict()
        self._ground_meshes: dict[tuple[float, float, float, float, float], pyrender.Mesh] = {}
        self._sun = pyrender.DirectionalLight(color=np.ones(3), intensity=2.6)
        self._sun_pose = _sun_pose()

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._offscreen is not None:
            self._offscreen = None
            _CONTEXT.release()
        self._meshes.clear()
        self._ground_meshes.clear()

    def _context(self, width: int, height: int) -> Any:
        if self._offscreen is None:
            self._offscreen = _CONTEXT.acquire()
        # pyrender reallocates its framebuffers when the viewport size changes.
        self._offscreen.viewport_width = width
        self._offscreen.viewport_height = height
        return self._offscreen

    def _mesh(self, obj: SceneObject) -> pyrender.Mesh:
        rgb = obj.rgb if obj.rgb is not None else UNCOLORED_RGB
        # Colours are keyed at 8 bits, what the image can show, so near-equal ones share a mesh.
        r, g, b = (round(c * 255) for c in rgb)
        key = (obj.class_name, (r, g, b))
        mesh = self._meshes.get(key)
        if mesh is None:
            mesh = pyrender.Mesh.from_trimesh(
                unit_trimesh(obj.class_name),
                material=_material((r / 255, g / 255, b / 255)),
                smooth=obj.class_name in CURVED,
            )
            self._meshes[key] = mesh
            if len(self._meshes) > MESH_CACHE_SIZE:
                self._meshes.popitem(last=False)
        else:
            self._meshes.move_to_end(key)
        return mesh

    def _ground(self, scene: Scene) -> pyrender.Mesh:
        g = scene.ground
        key = (g.height, *g.x_range, *g.z_range)
        if key not in self._ground_meshes:
            self._ground_meshes[key] = _ground_mesh(scene)
        return self._ground_meshes[key]

    def _build(
        self, scene: Scene, camera: Camera
    ) -> tuple[pyrender.Scene, dict[Any, NDArray[np.uint8]]]:
        if len(scene.objects) > MAX_OBJECTS:
            raise RenderError(
                f"scene {scene.scene_id!r} has {len(scene.objects)} objects; at most {MAX_OBJECTS} can be told apart"
            )
        # The clear colour is written as is (no gamma), so the background goes in as sRGB.
        world = pyrender.Scene(bg_color=(*BACKGROUND_RGB, 1.0), ambient_light=(0.32, 0.32, 0.32))
        seg_map: dict[Any, NDArray[np.uint8]] = {}
        for index, obj in enumerate(scene.objects):
            node = world.add(self._mesh(obj), pose=object_pose(obj))
            seg_map[node] = _instance_color(index + 1)
        if self.ground:
            seg_map[world.add(self._ground(scene))] = _instance_color(0)
        k = camera.intrinsics
        lens = pyrender.IntrinsicsCamera(
            k[0, 0], k[1, 1], k[0, 2], k[1, 2], znear=Z_NEAR, zfar=Z_FAR
        )
        world.add(lens, pose=_camera_pose(camera))
        world.add(self._sun, pose=self._sun_pose)
        return world, seg_map

    def render(
        self, scene: Scene, camera: Camera | str | None = None, *, color: bool = True
    ) -> Rendering:
        """Draw ``scene`` as ``camera`` (a Camera, a camera name, or None for the frontal one)
        sees it, at the camera's resolution."""
        view = choose_camera(scene, camera)
        offscreen = self._context(view.width, view.height)
        world, seg_map = self._build(scene, view)
        seg, depth = offscreen.render(world, pyrender.RenderFlags.SEG, seg_node_map=seg_map)
        image = None
        if color:
            image, _ = offscreen.render(world, pyrender.RenderFlags.NONE)
            image = np.ascontiguousarray(image)
        return Rendering(
            scene.scene_id,
            view,
            tuple(o.id for o in scene.objects),
            _decode_instances(np.asarray(seg)),
            np.ascontiguousarray(depth, dtype=np.float32),
            image,
        )


#: Each process's shared renderer (a forked child makes its own; see ``_Context``).
_SHARED: dict[int, Renderer] = {}


def shared_renderer() -> Renderer:
    """This process's one renderer, made on first use and kept for later calls."""
    pid = os.getpid()
    if pid not in _SHARED:
        _SHARED[pid] = Renderer()
    return _SHARED[pid]


def render_scene(
    scene: Scene, camera: Camera | str | None = None, *, color: bool = True
) -> Rendering:
    """``Renderer.render`` on this process's shared renderer."""
    return shared_renderer().render(scene, camera, color=color)
