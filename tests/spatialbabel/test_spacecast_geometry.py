"""The hub's exact geometry for SpaceCast, checked by separate code (tests/suites/shapes.py):
ray casts against an inside test marched along each ray, surface distances against dense surface
samples, sectors against hand-worked bearings, changes against the attachment graph."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy.spatial import cKDTree

from spatialbabel import Camera, Ground, Scene, SceneObject, world_aabb
from spatialbabel.frames import axis_rotation
from spatialbabel.geometry.directions import SECTORS, bearing, sector, sectors, turn
from spatialbabel.geometry.distances import surface_distance
from spatialbabel.geometry.occlusion import DEFAULT_OCCLUSION_MARGINS, ViewCaster
from spatialbabel.geometry.raycast import first_hits, hit_distances
from spatialbabel.geometry.transforms import (
    ChangeCheck,
    change_problems,
    move,
    orbit,
    remove,
    turn_layout,
)
from tests.suites.shapes import inside, surface

pytest.importorskip("fcl")

SHAPES = [
    SceneObject("c", "cube", (0.2, 0.4, -0.1), (0, 27.5, 0), (0.8, 0.8, 0.8), color="red"),
    SceneObject("s", "sphere", (0.0, 0.35, 0.0), size=(0.7, 0.7, 0.7), color="red"),
    SceneObject("y", "cylinder", (0.1, 0.5, 0.2), size=(0.9, 1.0, 0.9), color="red"),
    SceneObject("k", "cone", (-0.1, 0.6, 0.0), size=(0.8, 1.2, 0.8), color="red"),
    SceneObject("p", "pyramid", (0.0, 0.45, 0.1), (0, 61.3, 0), (0.9, 0.9, 0.9), color="red"),
    SceneObject("t", "torus", (0.0, 0.125, 0.0), size=(1.0, 0.25, 1.0), color="red"),
]


@pytest.mark.parametrize("obj", SHAPES, ids=lambda o: o.class_name)
def test_ray_casts_enter_where_the_solid_begins(obj: SceneObject) -> None:
    rng = np.random.default_rng(1)
    origins = rng.normal(size=(150, 3)) * 0.2 + np.array([0.0, 2.0, 4.0])
    targets = np.asarray(obj.position) + rng.uniform(-0.6, 0.6, size=(150, 3))
    directions = targets - origins
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    t = hit_distances(obj, origins, directions)
    steps = np.arange(0.0, 7.0, 0.002)
    hits = 0
    for o, d, found in zip(origins, directions, t, strict=True):
        marched = inside(obj, o + steps[:, None] * d)
        first = steps[np.argmax(marched)] if marched.any() else math.inf
        if math.isinf(first):
            assert math.isinf(found) or not inside(obj, o + (found + 0.003) * d).any()
            continue
        hits += 1
        assert found == pytest.approx(first, abs=0.0025)
    assert hits > 40


def test_first_hits_take_the_nearest_object() -> None:
    near = SceneObject("a", "cube", (0, 0.5, 1), size=(1, 1, 1), color="red")
    far = SceneObject("b", "sphere", (0, 0.5, -1), size=(1, 1, 1), color="blue")
    index, t = first_hits(
        [far, near], np.array([[0, 0.5, 5.0]] * 2), np.array([[0, 0, -1.0], [0, 1, 0]])
    )
    assert index.tolist() == [1, -1] and t[0] == pytest.approx(3.5)


PAIRS = [(a, b) for i, a in enumerate(SHAPES) for b in SHAPES[i:]]


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0].class_name}-{p[1].class_name}")
def test_surface_distances_match_dense_samples(pair: tuple[SceneObject, SceneObject]) -> None:
    a, b = pair
    rng = np.random.default_rng(len(a.id + b.id))
    direction = rng.normal(size=3)
    direction[1] *= 0.3
    direction /= np.linalg.norm(direction)
    gap = float(rng.uniform(0.2, 2.5))
    x, y, z = b.position
    shifted = SceneObject(
        b.id + "2",
        b.class_name,
        (x + 2.2 * direction[0] * gap, y, z + 2.2 * direction[2] * gap),
        b.rotation,
        b.size,
        color="blue",
    )
    exact = surface_distance(a, shifted)
    sampled = float(cKDTree(surface(a)).query(surface(shifted), k=1)[0].min())
    # Samples only ever find a longer way; their spacing bounds by how much.
    assert exact <= sampled + 1e-5
    assert sampled - exact < 0.03


def test_touching_objects_are_at_distance_zero() -> None:
    base = SceneObject("a", "cube", (0, 0.5, 0), size=(1, 1, 1), color="red")
    top = SceneObject("b", "cone", (0.1, 1.4, 0), size=(0.6, 0.8, 0.6), color="blue", parent="a")
    assert surface_distance(base, top) < 1e-5


def test_sectors_and_their_margins() -> None:
    north = np.array([0.0, -1.0])  # looking along -Z
    # +X is to the right of a camera looking along -Z.
    assert bearing(np.array([1.0, 0.0]), north) == pytest.approx(90.0)
    assert SECTORS[sector((0, 0, 0), (1, 0, 0), north) or 0] == "right"
    assert SECTORS[sector((0, 0, 0), (-1, 0, -1), north) or 0] == "front-left"
    assert sector((0, 0, 0), (1, 0, -0.45), north) is None  # 24.2 degrees: near the 22.5 edge
    assert sector((0, 0, 0), (0.1, 0, 0.1), north) is None  # too close on the ground
    assert turn(np.array([1.0, 0.0]), 90.0) == pytest.approx(
        [0.0, -1.0]
    )  # +X to -Z: counter-clockwise


def _stack() -> Scene:
    objects = (
        SceneObject("base", "cube", (-1, 0.5, 0), (0, 10, 0), (1, 1, 1), color="red"),
        SceneObject(
            "top", "sphere", (-1, 1.25, 0), size=(0.5, 0.5, 0.5), color="blue", parent="base"
        ),
        SceneObject("far", "cone", (1.5, 0.5, 1.5), size=(0.8, 1, 0.8), color="green"),
    )
    return Scene("s", objects, ground=Ground())


def test_changes_carry_what_rests_on_a_root() -> None:
    scene = _stack()
    moved = move(scene, "base", 0.5, -1.0)
    assert moved.get_object("top").position == pytest.approx((-0.5, 1.25, -1.0))
    assert moved.get_object("far").position == scene.get_object("far").position
    carried = orbit(scene, "base", (1.5, 1.5), 90.0)
    # (-2.5, -1.5) from the pivot, a quarter counter-clockwise seen from above: (-1.5, 2.5).
    assert carried.get_object("base").position == pytest.approx((0.0, 0.5, 4.0))
    assert carried.get_object("base").rotation == pytest.approx(scene.get_object("base").rotation)
    assert [o.id for o in remove(scene, "base").objects] == ["far"]
    turned = turn_layout(scene, -90.0)
    assert turned.get_object("far").position == pytest.approx((-1.5, 0.5, 1.5))
    assert turned.get_object("base").rotation[1] == pytest.approx(-80.0)
    assert change_problems(scene, carried) == ["base leaves the ground", "top leaves the ground"]
    assert change_problems(scene, move(scene, "base", 2.5, 1.5)) == ["base and far collide"]
    assert change_problems(scene, turned) == []


def test_a_tilted_object_turns_as_a_whole_and_an_upright_one_by_its_yaw() -> None:
    tilted = SceneObject("t", "cone", (1.0, 0.6, 0.5), (30.0, 20.0, 10.0), (0.8, 1.2, 0.8))
    upright = SceneObject("u", "cube", (-1.0, 0.5, 0.5), (0.0, 170.0, 0.0), (1, 1, 1))
    scene = Scene("s", (tilted, upright), ground=Ground())
    for degrees in (90.0, 180.0, -90.0):
        turned = turn_layout(scene, degrees)
        quarter = axis_rotation("Y", math.radians(degrees))
        for before in scene.objects:
            after = turned.get_object(before.id)
            assert after.rotation_matrix == pytest.approx(quarter @ before.rotation_matrix)
        assert -180.0 <= turned.get_object("u").rotation[1] < 180.0


def test_torus_casts_through_the_hole_and_along_the_tube() -> None:
    torus = SceneObject("t", "torus", (0.2, 0.3, -0.1), (0, 33.0, 0), (1.2, 0.3, 1.2))
    rng = np.random.default_rng(4)
    # Rays aimed at the hole, at the tube's inner and outer rims and just above the tube.
    aims = np.asarray(torus.position) + np.column_stack(
        [rng.uniform(-0.7, 0.7, 400), rng.uniform(-0.2, 0.2, 400), rng.uniform(-0.7, 0.7, 400)]
    )
    origins = np.asarray(torus.position) + rng.normal(size=(400, 3)) * np.array([3.0, 0.6, 3.0])
    directions = aims - origins
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    t = hit_distances(torus, origins, directions)
    steps = np.arange(0.0, 12.0, 0.001)
    for o, d, found in zip(origins, directions, t, strict=True):
        marched = inside(torus, o + steps[:, None] * d)
        first = steps[np.argmax(marched)] if marched.any() else math.inf
        if math.isinf(first):
            assert math.isinf(found) or not inside(torus, o + (found + 0.002) * d).any()
        else:
            assert found == pytest.approx(first, abs=0.0015)


def _clutter() -> tuple[list[SceneObject], list[Camera]]:
    objects = [
        SceneObject("a", "cube", (0.0, 0.4, 0.0), (0, 20, 0), (0.8, 0.8, 0.8), color="red"),
        SceneObject("b", "sphere", (0.6, 0.35, 1.2), size=(0.7, 0.7, 0.7), color="blue"),
        SceneObject("c", "torus", (-0.9, 0.1, 0.9), (0, 10, 0), (1.0, 0.2, 1.0), color="green"),
        SceneObject("d", "cone", (1.3, 0.5, -0.6), size=(0.6, 1.0, 0.6), color="yellow"),
        SceneObject("e", "pyramid", (-1.2, 0.4, -1.0), (0, 40, 0), (0.8, 0.8, 0.8), color="red"),
        SceneObject("f", "cylinder", (0.3, 0.5, 2.3), size=(0.5, 1.0, 0.5), color="green"),
    ]
    cameras = [
        Camera.looking_at("far", (0.0, 3.0, 7.0), (0.0, 0.3, 0.0), width=96, height=96),
        Camera.looking_at("low", (2.5, 0.6, 3.0), (-0.5, 0.4, 0.0), width=96, height=96),
        # Close beside the sphere: objects straddle the image plane.
        Camera.looking_at("near", (1.2, 0.5, 1.5), (-1.0, 0.3, -0.5), width=96, height=96),
        Camera.looking_at("side", (-4.0, 1.5, 0.5), (0.5, 0.3, 0.3), width=80, height=64),
    ]
    return objects, cameras


def _everything(objects: list[SceneObject], camera: Camera, stride: int) -> Any:
    """Every object's hit distance through every grid pixel of the image (objects x rows x
    columns), by plain casts with no window."""
    phase = stride // 2
    ys, xs = np.meshgrid(
        np.arange(phase, camera.height, stride),
        np.arange(phase, camera.width, stride),
        indexing="ij",
    )
    k = camera.intrinsics
    local = np.column_stack(
        [
            (xs.ravel() + 0.5 - k[0, 2]) / k[0, 0],
            -(ys.ravel() + 0.5 - k[1, 2]) / k[1, 1],
            -np.ones(xs.size),
        ]
    )
    directions = local / np.linalg.norm(local, axis=1, keepdims=True) @ camera.pose[:3, :3].T
    origins = np.broadcast_to(camera.pose[:3, 3], directions.shape)
    return np.array([hit_distances(o, origins, directions) for o in objects]).reshape(
        len(objects), *xs.shape
    )


def test_the_survey_counts_what_plain_casts_of_the_whole_image_see() -> None:
    objects, cameras = _clutter()
    caster = ViewCaster(cameras)
    full, visible = caster.survey(objects, 4, large=30)
    for c, camera in enumerate(cameras):
        hits = _everything(objects, camera, 4)
        first = np.where(np.isfinite(hits).any(axis=0), np.argmin(hits, axis=0), -1)
        rows, cols = np.indices(first.shape)
        for i, obj in enumerate(objects):
            met = np.isfinite(hits[i])
            box = caster.grid_box(obj, c, 4)
            coarse = box is not None and (box[1] - box[0]) * (box[3] - box[2]) >= 30
            kept = (rows % 2 == 0) & (cols % 2 == 0) if coarse else np.ones_like(met)
            weight = 64 if coarse else 16
            assert full[c, i] == weight * int((met & kept).sum()), (camera.name, obj.id)
            assert visible[c, i] == weight * int((met & kept & (first == i)).sum())


@pytest.mark.parametrize("stride", [1, 2])
def test_occlusion_counts_match_plain_casts_of_the_whole_image(stride: int) -> None:
    objects, cameras = _clutter()
    caster = ViewCaster(cameras)
    margins = DEFAULT_OCCLUSION_MARGINS
    checked = 0
    for c, camera in enumerate(cameras):
        hits = _everything(objects, camera, stride)
        for i, obj in enumerate(objects):
            count = caster.count(objects, i, c, stride, margins)
            corners = np.array(
                [[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float
            )
            low, high = world_aabb(obj)
            _, depth = camera.project(low + corners * (high - low))
            if (depth <= 1e-6).any():
                assert count.full == 0 and not count.in_frame
                continue
            own = hits[i]
            nearest = np.delete(hits, i, axis=0).min(axis=0)
            full = np.isfinite(own)
            ring = _grown(full, margins.ring) & ~full
            farthest = float(
                np.linalg.norm(
                    np.maximum(np.abs(low - camera.position), np.abs(high - camera.position))
                )
            )
            closest = own[full].min() if full.any() else np.inf
            assert count.full == full.sum(), (camera.name, obj.id)
            assert count.visible == (full & (own <= nearest)).sum()
            assert count.ring == ring.sum()
            assert count.ring_near == (ring & (nearest < farthest)).sum()
            assert count.ring_front == (ring & (nearest < closest)).sum()
            checked += count.full > 0
    assert checked >= 12


def _grown(mask: Any, steps: int) -> Any:
    """The mask grown by ``steps`` pixels in the four directions (a diamond), off the edges."""
    rows, cols = np.nonzero(mask)
    grown = np.zeros_like(mask)
    for dr in range(-steps, steps + 1):
        for dc in range(-steps + abs(dr), steps - abs(dr) + 1):
            r, c = rows + dr, cols + dc
            keep = (r >= 0) & (r < mask.shape[0]) & (c >= 0) & (c < mask.shape[1])
            grown[r[keep], c[keep]] = True
    return grown


def test_a_large_window_is_counted_on_a_coarser_grid() -> None:
    objects, cameras = _clutter()
    caster = ViewCaster(cameras)
    # The sphere beside the near camera spans 2,304 grid pixels at stride 2; the cylinder
    # seen from afar, 260.
    near = caster.count(objects, 1, 2, 2, large=1000)
    far = caster.count(objects, 5, 0, 2, large=1000)
    assert near.stride == 4 and far.stride == 2
    assert near.full == caster.count(objects, 1, 2, 4).full


def test_sectors_of_many_offsets_agree_with_one_at_a_time() -> None:
    rng = np.random.default_rng(2)
    offsets, forwards = rng.normal(size=(3000, 2)), rng.normal(size=(3000, 2))
    many = sectors(offsets, forwards)
    for offset, forward, found in zip(offsets, forwards, many, strict=True):
        one = sector((0, 0, 0), (offset[0], 0, offset[1]), forward)
        assert found == (-1 if one is None else one)


def test_shifts_that_fit_are_the_changes_without_problems() -> None:
    scene = _stack()
    check = ChangeCheck(scene)
    rng = np.random.default_rng(3)
    shifts = rng.uniform(-3.0, 3.0, size=(200, 2))
    fits = check.fits(["base", "top"], shifts)
    for (dx, dz), fit in zip(shifts, fits, strict=True):
        assert fit == (not change_problems(scene, move(scene, "base", float(dx), float(dz))))
    assert fits.any() and not fits.all()
