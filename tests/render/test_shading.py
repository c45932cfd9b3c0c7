"""The default colour image: light codes from the instance pass, painted by ``render.shading``.

The light the shader writes is checked against the rig computed here in Python from the face's
normal turned into camera space with the hub's camera pose; a slip in the normal transform,
the camera-space convention, the defines handed to the shader or the code's quantisation
changes a face's colour and fails here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest
from numpy.typing import NDArray

from render.shading import (
    BACKGROUND_RGB,
    GROUND_RGB,
    SHADE_MAX,
    SHADE_STEPS,
    ColorTable,
    light_of_code,
    light_of_normal,
    shader_defines,
    to_rgb8,
)
from spatialbabel import PALETTE, PALETTE_NAMES, Camera, Scene, SceneObject
from tests.render.conftest import front_camera, scene_of

if TYPE_CHECKING:
    from render import Renderer


def code_of_light(light: float) -> int:
    return 1 + round(SHADE_STEPS * min(max(light / SHADE_MAX, 0.0), 1.0))


def packed_pixels(codes: NDArray[np.int64], labels: NDArray[np.int64]) -> NDArray[np.uint32]:
    """Words as the instance pass writes them: code, id low byte, id high byte, alpha 255."""
    return np.asarray(codes | (labels << 8) | (255 << 24), dtype=np.uint32)


# -- the colour table, without OpenGL ----------------------------------------------------------


def test_ramp_starts_with_the_background_and_brightens_with_the_light() -> None:
    table = ColorTable(BACKGROUND_RGB)
    for name in PALETTE_NAMES:
        rgb8 = to_rgb8(PALETTE[name])
        ramp = table.ramp(rgb8).astype(int)
        assert tuple(ramp[0]) == to_rgb8(BACKGROUND_RGB)
        assert np.all(np.diff(ramp[1:], axis=0) >= 0)
        assert tuple(ramp[1]) == (0, 0, 0)
        # Under light 1 a colour is itself (to the code's step).
        lit = ramp[code_of_light(1.0)]
        assert np.abs(lit - np.array(rgb8)).max() <= 1, name


def test_codes_span_the_light_range() -> None:
    assert light_of_code(1) == 0.0
    assert light_of_code(SHADE_STEPS + 1) == pytest.approx(SHADE_MAX)
    assert code_of_light(light_of_code(100)) == 100


def test_image_paints_each_pixel_from_its_object_and_code() -> None:
    table = ColorTable(BACKGROUND_RGB)
    colors = [to_rgb8(GROUND_RGB)] + [to_rgb8(PALETTE[n]) for n in PALETTE_NAMES]
    rng = np.random.default_rng(3)
    labels = rng.integers(0, len(colors), (40, 30))
    codes = rng.integers(0, 256, (40, 30))
    image = table.image(packed_pixels(codes, labels), colors)
    assert image.shape == (40, 30, 3) and image.dtype == np.uint8
    for y, x in zip(*np.nonzero(np.ones_like(labels)), strict=True):
        expected = table.ramp(colors[labels[y, x]])[codes[y, x]]
        np.testing.assert_array_equal(image[y, x], expected)


def test_defines_hand_the_shader_unit_directions() -> None:
    defines = shader_defines()
    for name in ("KEY_LIGHT_DIRECTION", "FILL_LIGHT_DIRECTION"):
        inner = defines[name].removeprefix("vec3(").removesuffix(")")
        vector = np.array([float(c) for c in inner.split(",")])
        assert np.linalg.norm(vector) == pytest.approx(1.0)
    # pyrender substitutes names as plain text: no name may contain another.
    for a in defines:
        assert not any(a != b and a in b for b in defines)


# -- the shader against the rig ------------------------------------------------------------------

FACES = {"top": (0.0, 1.0, 0.0), "front": (0.0, 0.0, 1.0), "right": (1.0, 0.0, 0.0)}


def face_colors(renderer: Renderer, camera: Camera, color: str) -> dict[str, NDArray[np.uint8]]:
    cube = SceneObject("c", "cube", (0.0, 0.5, 0.0), size=(1.0, 1.0, 1.0), color=color)
    rendering = renderer.render(scene_of(cube, camera=camera))
    assert rendering.color is not None
    found = {}
    for face, normal in FACES.items():
        centre = np.array([0.0, 0.5, 0.0]) + 0.5 * np.array(normal)
        pixels, _ = camera.project(centre[None, :])
        x, y = (int(c) for c in pixels[0])
        assert rendering.instances[y, x] == 1, face
        found[face] = rendering.color[y, x]
    return found


CORNER_CAMERAS = [
    Camera.looking_at("right", (3.0, 4.0, 6.0), (0.0, 0.5, 0.0), width=200, height=160),
    Camera.looking_at("steep", (1.0, 7.0, 2.0), (0.0, 0.5, 0.0), width=160, height=200),
]


@pytest.mark.render
@pytest.mark.parametrize("camera", CORNER_CAMERAS, ids=lambda c: c.name)
@pytest.mark.parametrize("color", ["white", "red", "cyan"])
def test_each_face_gets_the_light_of_its_camera_space_normal(
    renderer: Renderer, camera: Camera, color: str
) -> None:
    table = ColorTable(BACKGROUND_RGB)
    ramp = table.ramp(to_rgb8(PALETTE[color])).astype(int)
    world_to_camera = camera.pose[:3, :3].T
    lights = {}
    for face, pixel in face_colors(renderer, camera, color).items():
        light = light_of_normal(world_to_camera @ np.array(FACES[face]))
        code = code_of_light(light)
        # The shader rounds in single precision: a code either side is allowed.
        nearest = min(abs(pixel.astype(int) - ramp[c]).max() for c in (code - 1, code, code + 1))
        assert nearest == 0, (face, pixel, ramp[code])
        lights[face] = light
    # The three faces are told apart, so a box reads as a solid.
    values = sorted(lights.values())
    assert min(np.diff(values)) > 0.05


@pytest.mark.render
def test_ground_is_lit_and_the_sky_is_the_background(renderer: Renderer) -> None:
    camera = front_camera(96, 96)
    rendering = renderer.render(Scene("empty", (), (camera,)))
    assert rendering.color is not None
    sky = rendering.depth == 0
    assert sky.any() and (~sky).any()
    assert np.all(rendering.color[sky] == np.array(to_rgb8(BACKGROUND_RGB), dtype=np.uint8))
    # A plane has one normal: one colour, the ground's under the light of that normal.
    ground = np.unique(rendering.color[~sky], axis=0).astype(int)
    assert len(ground) == 1
    code = code_of_light(light_of_normal(camera.pose[:3, :3].T @ np.array([0.0, 1.0, 0.0])))
    ramp = ColorTable(BACKGROUND_RGB).ramp(to_rgb8(GROUND_RGB)).astype(int)
    assert min(abs(ground[0] - ramp[c]).max() for c in (code - 1, code, code + 1)) == 0


@pytest.mark.render
def test_hundreds_of_objects_are_painted_in_their_own_colours(renderer: Renderer) -> None:
    # Ids above 255 use the word's third byte: the table index must follow it.
    objects = [
        SceneObject(
            f"o{i}",
            "cube",
            ((i % 20 - 9.5) * 0.3, 0.05, (i // 20 - 7) * 0.3),
            size=(0.2, 0.1, 0.2),
            color=PALETTE_NAMES[(i * 7) % len(PALETTE_NAMES)],
        )
        for i in range(300)
    ]
    top = Camera.looking_at("top", (0.0, 12.0, 0.001), width=400, height=400, fov_y_deg=35.0)
    rendering = renderer.render(Scene("many", tuple(objects), (top,)))
    assert rendering.color is not None and rendering.instances.max() == 300
    table = ColorTable(BACKGROUND_RGB)
    for index in (0, 255, 256, 299):
        pixels = rendering.color[rendering.mask(index)]
        ramp = table.ramp(to_rgb8(objects[index].rgb or (0.0, 0.0, 0.0)))
        assert len(pixels) > 20
        assert all((ramp == p).all(axis=1).any() for p in pixels), index


# -- the two shadings ----------------------------------------------------------------------------


@pytest.mark.render
def test_pbr_shading_draws_the_same_objects_with_smoothed_edges() -> None:
    from render import Renderer, RenderError

    scene = scene_of(
        SceneObject("a", "cube", (0.0, 0.5, 0.0), (0.0, 30.0, 0.0), color="red"),
        SceneObject("b", "sphere", (1.4, 0.4, 0.6), size=(0.8, 0.8, 0.8), color="blue"),
        SceneObject("c", "torus", (-1.5, 0.15, 0.8), size=(1.2, 0.3, 1.2), color="yellow"),
        camera=front_camera(160, 120),
    )
    with Renderer() as lambert, Renderer(shading="pbr") as pbr:
        # Taking turns makes the shared context switch framebuffers (one sample, then four).
        views = [r.render(scene) for r in (lambert, pbr, lambert, pbr)]
    fast, smooth = views[2], views[3]
    for view in views[:2]:
        np.testing.assert_array_equal(view.instances, fast.instances)
    np.testing.assert_array_equal(views[0].depth, fast.depth)
    # Resolving pyrender's multisampled depth keeps one sample, off the pixel centre.
    np.testing.assert_allclose(smooth.depth, fast.depth, rtol=0, atol=1e-3)
    assert all(view.color is not None for view in views)
    assert fast.color is not None and smooth.color is not None
    np.testing.assert_array_equal(np.asarray(views[0].color), fast.color)
    np.testing.assert_array_equal(np.asarray(views[1].color), smooth.color)
    assert fast.color.shape == smooth.color.shape == (120, 160, 3)
    # Multisampling blends what lies either side of an outline into the pixels around it:
    # some pixels where the instance pass saw nothing (no object, no ground) are not sky
    # coloured. The one-pass image paints every such pixel exactly as the sky.
    sky = fast.depth == 0
    background = np.array(to_rgb8(BACKGROUND_RGB))

    def tinted(image: NDArray[np.uint8]) -> int:
        return int(np.count_nonzero(np.abs(image[sky].astype(int) - background).max(axis=1) > 2))

    assert sky.sum() > 1000
    assert tinted(fast.color) == 0
    assert tinted(smooth.color) > 20
    with pytest.raises(RenderError, match="unknown shading 'phong'; known: lambert, pbr"):
        Renderer(shading="phong")  # type: ignore[arg-type]
