"""Offscreen re-rendering of any ``Scene`` with any of its cameras, through pyrender on EGL.

A ``Renderer`` is kept alive across scenes: it draws through the process's one EGL context
(``_Context``), the unit meshes are built once (``render.primitives``) and pyrender meshes are
kept, so a scene that reuses the previous one's shapes uploads nothing new.

Every render makes an instance pass (pyrender's segmentation pass, no multisampling) that gives
exact per-object ids and the depth along the view axis; the ground is drawn there too, as
background, so it hides what a reconstruction sinks below it, as it does in the generator's
Blender ID pass. Its fragment shader is ours (``render/shaders``): besides the id it writes the
diffuse light of a fixed camera-relative rig, from which ``render.shading`` paints the colour
image in numpy (``shading="lambert"``, the default). ``shading="pbr"`` draws the colour image
instead with pyrender's own physically based shading in a second, multisampled pass: smoother
edges, several times the cost.

Only this module (and so only ``render/``) imports pyrender.
"""

from __future__ import annotations

import os

# PyOpenGL picks its platform when first imported: EGL renders without a display or a GPU.
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import trimesh
from numpy.typing import NDArray

from render.errors import EGL_PACKAGES, RenderError, RendererUnavailable
from render.primitives import CURVED, unit_trimesh
from render.shading import (
    BACKGROUND_RGB,
    GROUND_RGB,
    RGB8,
    SHADINGS,
    UNCOLORED_RGB,
    ColorTable,
    Shading,
    shader_defines,
    to_rgb8,
)
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
from OpenGL import GL

from spatialbabel.geometry.bounds import unit_to_world
from spatialbabel.palette import RGB, srgb_to_linear

#: Near and far clip planes (metres). The 24-bit depth buffer still resolves 0.2 mm at 11 m.
Z_NEAR: Final = 0.05
Z_FAR: Final = 1000.0

#: A size component below this is raised to it: a flat disc stays visible and the pose invertible.
MIN_EXTENT: Final = 1e-6

#: pyrender meshes kept between renders, one per class (and 8-bit colour with ``pbr`` shading),
#: oldest dropped first.
MESH_CACHE_SIZE: Final = 256

#: Instance ids are written as 16-bit colours (green = low byte, blue = high byte).
MAX_OBJECTS: Final = 65535

#: Our replacement of pyrender's segmentation shaders.
SHADER_DIR: Final = Path(__file__).with_name("shaders")

#: The samples a pixel of pyrender's offscreen framebuffer (its fixed choice, kept for ``pbr``).
PYRENDER_SAMPLES: Final = 4


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
    # pyrender hands this to the shader as `color`; shaded_ids.frag moves it to green and blue.
    return np.array([label & 0xFF, label >> 8, 0], dtype=np.uint8)


def _pack(frame: NDArray[np.uint8]) -> NDArray[np.uint32]:
    """The instance pass's RGBA pixels as little-endian words: code | id << 8 | alpha << 24."""
    words = np.ascontiguousarray(frame).view("<u4")
    return np.asarray(words[:, :, 0], dtype=np.uint32)


def _decode_instances(packed: NDArray[np.uint32]) -> NDArray[np.uint16]:
    return ((packed >> np.uint32(8)) & np.uint32(0xFFFF)).astype(np.uint16)


def _object_rgb8(obj: SceneObject) -> RGB8:
    return to_rgb8(obj.rgb if obj.rgb is not None else UNCOLORED_RGB)


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


class _ShaderCache:
    """pyrender's shader program cache with its segmentation program swapped for ours.

    pyrender (0.1.45, pinned) has no public way to give it shaders: its renderer asks this
    cache for a program by file name and defines, so ours wraps the renderer's own cache and
    answers the segmentation request with ``render/shaders/shaded_ids.*`` and the light rig's
    defines. Every other program (the ``pbr`` colour pass among them) is pyrender's."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def get_program(
        self,
        vertex_shader: str,
        fragment_shader: str,
        geometry_shader: str | None = None,
        defines: dict[str, Any] | None = None,
    ) -> Any:
        if (vertex_shader, fragment_shader) == ("segmentation.vert", "segmentation.frag"):
            vertex_shader = str(SHADER_DIR / "shaded_ids.vert")
            fragment_shader = str(SHADER_DIR / "shaded_ids.frag")
            defines = {**(defines or {}), **shader_defines()}
        return self._inner.get_program(vertex_shader, fragment_shader, geometry_shader, defines)

    def clear(self) -> None:
        self._inner.clear()


class _GLRenderer(pyrender.Renderer):  # type: ignore[misc]
    """pyrender's renderer with our segmentation shaders and a choice of multisampling.

    pyrender always draws offscreen into a 4x multisampled framebuffer and resolves it into a
    plain one, even for its segmentation pass, which disables multisampling: on a software
    rasteriser clearing and resolving four samples a pixel is about a third of that pass. With
    ``samples = 0`` the "multisampled" buffers get one sample (the blit is then a plain copy).
    """

    _program_cache: Any

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height)
        self._program_cache = _ShaderCache(self._program_cache)
        self.samples = PYRENDER_SAMPLES
        self._main_fb_samples = PYRENDER_SAMPLES

    def _configure_main_framebuffer(self) -> None:
        if self._main_fb is not None and self._main_fb_samples != self.samples:
            self._delete_main_framebuffer()
        fresh = self._main_fb is None or self._main_fb_dims != (
            self.viewport_width,
            self.viewport_height,
        )
        super()._configure_main_framebuffer()
        if fresh and self.samples != PYRENDER_SAMPLES:
            # pyrender made its buffers with 4 samples; give them new storage (still attached).
            for buffer, layout in (
                (self._main_cb_ms, GL.GL_RGBA),
                (self._main_db_ms, GL.GL_DEPTH_COMPONENT24),
            ):
                GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, buffer)
                GL.glRenderbufferStorageMultisample(
                    GL.GL_RENDERBUFFER,
                    self.samples,
                    layout,
                    self.viewport_width,
                    self.viewport_height,
                )
        self._main_fb_samples = self.samples


class _Offscreen(pyrender.OffscreenRenderer):  # type: ignore[misc]
    """pyrender's offscreen renderer (platform, context) drawing with ``_GLRenderer``."""

    def _create(self) -> None:
        super()._create()
        # pyrender's own renderer holds no OpenGL objects yet: it is simply replaced.
        self._renderer = _GLRenderer(self.viewport_width, self.viewport_height)

    @property
    def samples(self) -> int:
        """Samples a pixel of the framebuffer the next render draws into."""
        return int(self._renderer.samples)

    @samples.setter
    def samples(self, value: int) -> None:
        self._renderer.samples = value


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
                self.offscreen = _Offscreen(1, 1)
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
    ``shading`` picks the colour image: ``"lambert"`` (default) is painted from the instance
    pass's light codes, ``"pbr"`` is pyrender's own shading in a second, multisampled pass.
    Use as a context manager, or call ``close()``. Every renderer of a process draws through
    the same EGL context, so several may be open at once.
    """

    def __init__(self, *, ground: bool = True, shading: Shading = "lambert") -> None:
        if shading not in SHADINGS:
            raise RenderError(f"unknown shading {shading!r}; known: {', '.join(SHADINGS)}")
        self.ground = ground
        self.shading: Shading = shading
        self._offscreen: Any = None
        self._meshes: OrderedDict[tuple[str, RGB8 | None], pyrender.Mesh] = OrderedDict()
        self._ground_meshes: dict[tuple[float, float, float, float, float], pyrender.Mesh] = {}
        self._colors = ColorTable(BACKGROUND_RGB)
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
        # pyrender reallocates its framebuffers when the viewport size changes, ours also when
        # the samples do: only pyrender's shading is multisampled.
        self._offscreen.viewport_width = width
        self._offscreen.viewport_height = height
        self._offscreen.samples = PYRENDER_SAMPLES if self.shading == "pbr" else 0
        return self._offscreen

    def _mesh(self, obj: SceneObject) -> pyrender.Mesh:
        # Only pyrender's shading reads the material; the instance pass needs one mesh a class.
        # Colours are keyed at 8 bits, what the image can show, so near-equal ones share a mesh.
        rgb8 = _object_rgb8(obj) if self.shading == "pbr" else None
        key = (obj.class_name, rgb8)
        mesh = self._meshes.get(key)
        if mesh is None:
            r, g, b = rgb8 or to_rgb8(UNCOLORED_RGB)
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
        if self.shading == "pbr":
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
        flags = pyrender.RenderFlags.SEG | pyrender.RenderFlags.RGBA
        frame, depth = offscreen.render(world, flags, seg_node_map=seg_map)
        packed = _pack(np.asarray(frame))
        image = None
        if color and self.shading == "pbr":
            shaded, _ = offscreen.render(world, pyrender.RenderFlags.NONE)
            image = np.ascontiguousarray(shaded)
        elif color:
            colors = [to_rgb8(GROUND_RGB), *(_object_rgb8(o) for o in scene.objects)]
            image = self._colors.image(packed, colors)
        return Rendering(
            scene.scene_id,
            view,
            tuple(o.id for o in scene.objects),
            _decode_instances(packed),
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
