"""The offscreen renderer against geometry computed without it.

Silhouettes are checked against the exact primitives projected with the hub's own camera model
(``Camera.project``): the silhouette of a convex body is the convex hull of its projected
surface, filled at pixel centres. Any slip in the pose (T R S, Euler order), the intrinsics, the
OpenGL camera convention or the image row order moves or distorts the mask and fails here.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from numpy.typing import NDArray

pytest.importorskip("pyrender")
from matplotlib.path import Path as PolygonPath
from scipy.spatial import ConvexHull

from render import Renderer, RenderError
from render.silhouette import mask_iou
from spatialbabel import (
    PALETTE_NAMES,
    Camera,
    Scene,
    SceneObject,
    nearest_palette_name,
    object_affine,
)
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from tests.render.conftest import front_camera, scene_of

pytestmark = pytest.mark.render


def circle(radius: float, y: float, n: int = 720) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([radius * np.cos(t), np.full(n, y), radius * np.sin(t)])


def sphere_points(n: int = 4000) -> NDArray[np.float64]:
    k = np.arange(n) + 0.5
    polar = np.arccos(1 - 2 * k / n)
    azimuth = np.pi * (1 + 5**0.5) * k
    return 0.5 * np.column_stack(
        [np.sin(polar) * np.cos(azimuth), np.cos(polar), np.sin(polar) * np.sin(azimuth)]
    )


def torus_points(n: int = 240) -> NDArray[np.float64]:
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, n), np.linspace(0, 2 * np.pi, n // 3))
    radius = TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS * np.cos(v)
    return np.column_stack(
        [
            (radius * np.cos(u)).ravel(),
            (TORUS_MINOR_RADIUS * np.sin(v)).ravel(),
            (radius * np.sin(u)).ravel(),
        ]
    )


#: Points of each exact unit primitive whose convex hull is the primitive (convex classes).
HULL_POINTS = {
    "cube": np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]),
    "pyramid": np.array(
        [[0, 0.5, 0], [-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [-0.5, -0.5, 0.5]]
    ),
    "sphere": sphere_points(),
    "cylinder": np.vstack([circle(0.5, -0.5), circle(0.5, 0.5)]),
    "cone": np.vstack([circle(0.5, -0.5), [[0.0, 0.5, 0.0]]]),
}


def world_points(obj: SceneObject, points: NDArray[np.float64]) -> NDArray[np.float64]:
    affine = object_affine(obj)
    return np.asarray(points @ affine[:3, :3].T + affine[:3, 3])


def hull_mask(camera: Camera, points: NDArray[np.float64]) -> NDArray[np.bool_]:
    pixels, depth = camera.project(points)
    assert np.all(depth > 0)
    hull = ConvexHull(pixels)
    polygon = PolygonPath(pixels[hull.vertices])
    ys, xs = np.mgrid[0 : camera.height, 0 : camera.width]
    centres = np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5])
    return np.asarray(polygon.contains_points(centres).reshape(camera.height, camera.width))


def random_object(class_name: str, seed: int) -> SceneObject:
    rng = np.random.default_rng(seed)
    sx, sy, sz = (float(s) for s in rng.uniform(0.9, 2.0, 3))
    position = (float(rng.uniform(-1, 1)), float(rng.uniform(0.6, 1.4)), float(rng.uniform(-1, 1)))
    rx, ry, rz = (float(a) for a in rng.uniform(-180, 180, 3))
    return SceneObject("thing", class_name, position, (rx, ry, rz), (sx, sy, sz), color="red")


CAMERAS = {
    "front 320x240": Camera.looking_at(
        "front", (0.0, 4.0, 5.0), (0.0, 0.8, 0.0), width=320, height=240, fov_y_deg=44.0
    ),
    "left, low, 200x300": Camera.looking_at(
        "left", (-7.0, 2.5, 3.0), (0.0, 0.8, 0.0), width=200, height=300, fov_y_deg=40.0
    ),
}


@pytest.mark.parametrize("camera_name", sorted(CAMERAS))
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("class_name", sorted(HULL_POINTS))
def test_silhouette_matches_the_projected_exact_primitive(
    bare_renderer: Renderer, class_name: str, seed: int, camera_name: str
) -> None:
    camera = CAMERAS[camera_name]
    obj = random_object(class_name, seed)
    rendering = bare_renderer.render(Scene("s", (obj,), (camera,)), color=False)
    assert rendering.instances.shape == (camera.height, camera.width)
    expected = hull_mask(camera, world_points(obj, HULL_POINTS[class_name]))
    assert expected.sum() > 2000
    # 32-sided round shapes lose under 1% of a circle's area; the rest is edge pixels.
    assert mask_iou(rendering.silhouette, expected) >= 0.97


@pytest.mark.parametrize("seed", [4, 5])
def test_torus_surface_falls_inside_its_silhouette_and_the_hole_stays_open(
    renderer: Renderer, seed: int
) -> None:
    obj = replace(
        random_object("torus", seed),
        rotation=(0.0, 30.0, 0.0),
        size=(2.4, 0.6, 2.4),
        position=(0.0, 0.3, 0.0),
    )
    top = Camera.looking_at(
        "top", (0.0, 9.0, 0.001), (0.0, 0.0, 0.0), width=256, height=256, fov_y_deg=30.0
    )
    rendering = renderer.render(Scene("s", (obj,), (top,)), color=False)
    pixels, _ = top.project(world_points(obj, torus_points()))
    inside = pixels.astype(int)
    covered = rendering.silhouette
    # Grow the mask by a pixel: points on the very rim may fall on either side of it.
    grown = covered.copy()
    grown[1:, :] |= covered[:-1, :]
    grown[:-1, :] |= covered[1:, :]
    grown[:, 1:] |= covered[:, :-1]
    grown[:, :-1] |= covered[:, 1:]
    assert np.mean(grown[inside[:, 1], inside[:, 0]]) > 0.999
    centre, _ = top.project(np.array([[0.0, 0.3, 0.0]]))
    cx, cy = centre[0].astype(int)
    assert rendering.instances[cy, cx] == 0
    # From above: the annulus between radii 1.2 and 0.6 (the tube's equator, 8.7 m below the eye).
    scale = top.intrinsics[0, 0] / 8.7
    ring = math.pi * (1.2**2 - 0.6**2) * scale**2
    assert covered.sum() == pytest.approx(ring, rel=0.06)


def test_depth_is_the_distance_along_the_view_axis(renderer: Renderer) -> None:
    camera = Camera.looking_at(
        "c", (0.0, 1.0, 6.0), (0.0, 1.0, 0.0), width=64, height=48, fov_y_deg=30.0
    )
    cube = SceneObject("c", "cube", (0.0, 1.0, 0.0), size=(1.0, 1.0, 1.0), color="blue")
    rendering = renderer.render(scene_of(cube, camera=camera))
    assert rendering.depth.dtype == np.float32
    assert rendering.depth[24, 32] == pytest.approx(5.5, abs=2e-3)
    # Off the cube the view meets the ground or nothing (depth 0).
    assert rendering.depth[0, 0] == 0.0
    ground_row = rendering.instances.shape[0] - 1
    hit = rendering.depth[ground_row, 0]
    ray = np.linalg.inv(camera.intrinsics) @ np.array([0.5, ground_row + 0.5, 1.0])
    # Along the ray (x, -y, -1) * d in camera space the ground is 1 m below the eye.
    world = camera.pose[:3, :3] @ np.array([ray[0], -ray[1], -1.0])
    assert hit == pytest.approx(1.0 / -world[1], rel=1e-3)


def test_nearer_object_wins_the_pixels_they_share(renderer: Renderer) -> None:
    camera = Camera.looking_at(
        "c", (0.0, 1.0, 8.0), (0.0, 1.0, 0.0), width=96, height=96, fov_y_deg=30.0
    )
    back = SceneObject("back", "cube", (0.0, 1.0, -1.5), size=(1.6, 1.6, 1.6), color="red")
    front = SceneObject("front", "sphere", (0.3, 1.0, 1.5), size=(1.0, 1.0, 1.0), color="blue")
    rendering = renderer.render(scene_of(back, front, camera=camera))
    assert rendering.instances[48, 52] == 2
    counts = rendering.pixel_counts()
    masks = rendering.masks()
    assert masks.shape == (2, 96, 96)
    np.testing.assert_array_equal(counts, masks.sum(axis=(1, 2)))
    np.testing.assert_array_equal(rendering.mask(0), rendering.instances == 1)
    assert counts[0] > 0 and counts[1] > 0
    with pytest.raises(IndexError, match="has 2 objects, no index 2"):
        rendering.mask(2)


def test_hundreds_of_objects_keep_distinct_ids(renderer: Renderer) -> None:
    # 300 ids need both bytes of the 16-bit instance code.
    objects = [
        SceneObject(
            f"o{i}",
            "cube",
            ((i % 20 - 9.5) * 0.3, 0.05, (i // 20 - 7) * 0.3),
            size=(0.2, 0.1, 0.2),
            color="white",
        )
        for i in range(300)
    ]
    top = Camera.looking_at("top", (0.0, 12.0, 0.001), width=400, height=400, fov_y_deg=35.0)
    rendering = renderer.render(Scene("many", tuple(objects), (top,)), color=False)
    counts = rendering.pixel_counts()
    assert rendering.instances.dtype == np.uint16
    assert rendering.instances.max() == 300
    assert np.all(counts > 20)
    assert counts.std() / counts.mean() < 0.2


@pytest.mark.parametrize("name", PALETTE_NAMES)
def test_lit_colour_reads_back_as_its_palette_name(renderer: Renderer, name: str) -> None:
    camera = Camera.looking_at(
        "c", (0.0, 1.5, 6.0), (0.0, 0.5, 0.0), width=64, height=64, fov_y_deg=30.0
    )
    cube = SceneObject("c", "cube", (0.0, 0.5, 0.0), (0.0, 20.0, 0.0), (1.0, 1.0, 1.0), color=name)
    rendering = renderer.render(scene_of(cube, camera=camera))
    assert rendering.color is not None and rendering.color.dtype == np.uint8
    pixel = tuple(float(c) / 255 for c in rendering.color[32, 32])
    assert nearest_palette_name((pixel[0], pixel[1], pixel[2])) == name


def test_object_without_colour_is_drawn_grey(renderer: Renderer) -> None:
    camera = Camera.looking_at(
        "c", (0.0, 1.5, 6.0), (0.0, 0.5, 0.0), width=64, height=64, fov_y_deg=30.0
    )
    plain = SceneObject("c", "unknown", (0.0, 0.5, 0.0), size=(1.0, 1.0, 1.0))
    rendering = renderer.render(scene_of(plain, camera=camera))
    assert rendering.color is not None
    r, g, b = (int(c) for c in rendering.color[32, 32])
    assert abs(r - g) <= 2 and abs(g - b) <= 2 and rendering.instances[32, 32] == 1


def test_ground_hides_what_is_below_it() -> None:
    buried = SceneObject("b", "sphere", (0.0, -1.0, 0.0), size=(1.0, 1.0, 1.0), color="red")
    half = SceneObject("h", "cube", (2.0, 0.0, 0.0), size=(1.0, 1.0, 1.0), color="red")
    scene = scene_of(buried, half, camera=front_camera(128, 128))
    with Renderer() as grounded, Renderer(ground=False) as bare:
        seen = grounded.render(scene, color=False).pixel_counts()
        all_of_it = bare.render(scene, color=False).pixel_counts()
    assert seen[0] == 0 and all_of_it[0] > 50
    assert 0.3 * all_of_it[1] < seen[1] < 0.8 * all_of_it[1]


def test_flat_object_of_zero_height_is_still_drawn(renderer: Renderer) -> None:
    disc = SceneObject("d", "cylinder", (0.0, 0.5, 0.0), size=(1.5, 0.0, 1.5), color="green")
    rendering = renderer.render(scene_of(disc, camera=front_camera(128, 128)))
    assert rendering.pixel_counts()[0] > 100


def test_cameras_by_name_and_clear_errors(renderer: Renderer) -> None:
    side = Camera.looking_at("side", (8.0, 3.0, 0.0), width=80, height=60)
    scene = Scene(
        "two",
        (SceneObject("a", "cube", (0.0, 0.5, 0.0), color="red"),),
        (front_camera(40, 30), side),
    )
    assert renderer.render(scene, color=False).instances.shape == (30, 40)
    assert renderer.render(scene, "side", color=False).camera is side
    with pytest.raises(RenderError, match="has no camera 'top'; it has: front, side"):
        renderer.render(scene, "top")
    with pytest.raises(RenderError, match="has no camera"):
        renderer.render(Scene("bare", scene.objects), None)


def test_one_renderer_gives_the_same_pictures_across_sizes_and_scenes() -> None:
    small = scene_of(
        SceneObject("a", "torus", (0.0, 0.2, 0.0), size=(1.5, 0.4, 1.5), color="cyan"),
        camera=front_camera(100, 80),
    )
    large = scene_of(
        SceneObject("b", "cone", (0.5, 0.6, 0.0), size=(1.0, 1.2, 1.0), color="pink"),
        camera=front_camera(300, 200),
    )
    with Renderer() as reused:
        first = [reused.render(s) for s in (small, large, small, large)]
    for scene, again in zip((small, large), first[2:], strict=True):
        with Renderer() as fresh:
            alone = fresh.render(scene)
        np.testing.assert_array_equal(again.instances, alone.instances)
        assert again.color is not None and alone.color is not None
        np.testing.assert_array_equal(again.color, alone.color)
        np.testing.assert_array_equal(again.depth, alone.depth)


def test_empty_scene_shows_only_ground_and_sky(renderer: Renderer) -> None:
    rendering = renderer.render(Scene("empty", (), (front_camera(64, 64),)))
    assert not rendering.silhouette.any()
    assert rendering.masks().shape == (0, 64, 64)
    assert (rendering.depth > 0).any() and (rendering.depth == 0).any()
