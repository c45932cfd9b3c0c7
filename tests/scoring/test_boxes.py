"""Oriented-box 3D IoU against cases known in closed form and a Monte Carlo estimate, and the
true scene's extent."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring import EXTENT_FLOOR, OrientedBox, box_iou, oriented_iou, scene_extent
from scoring.boxes import _hull_intersection, intersection_volume, iou_upper_bounds
from spatialbabel import SceneObject
from spatialbabel.frames import Matrix


def cube(
    position: tuple[float, float, float] = (0.0, 0.0, 0.0),
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0),
    size: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> SceneObject:
    return SceneObject("c", "cube", position, rotation, size)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (cube(), cube(), 1.0),
        # Half a unit along x: intersection 1/2, union 3/2.
        (cube(), cube((0.5, 0.0, 0.0)), 1 / 3),
        # Shifted along two axes: 0.5 * 0.75 overlap.
        (cube(), cube((0.5, 0.0, 0.25)), 0.375 / (2 - 0.375)),
        # A unit square and itself turned 45 degrees meet in a regular octagon of area 2(sqrt2 - 1).
        (cube(), cube(rotation=(0.0, 45.0, 0.0)), 1 / math.sqrt(2)),
        # The same about x (the prism along x).
        (cube(), cube(rotation=(45.0, 0.0, 0.0)), 1 / math.sqrt(2)),
        # A 2x1x1 box and itself turned 90 degrees about y: overlap 1x1x1, union 3.
        (cube(size=(2.0, 1.0, 1.0)), cube(rotation=(0.0, 90.0, 0.0), size=(2.0, 1.0, 1.0)), 1 / 3),
        # Nested: the small box's volume over the large one's.
        (
            cube(size=(2.0, 2.0, 2.0)),
            cube((0.2, -0.1, 0.3), (10.0, 20.0, 30.0), (0.5, 0.5, 0.5)),
            0.125 / 8,
        ),
        # Touching faces only.
        (cube(), cube((1.0, 0.0, 0.0)), 0.0),
        (cube(), cube((3.0, 0.0, 0.0)), 0.0),
        # A degenerate (flat) box has no volume.
        (cube(), cube(size=(1.0, 0.0, 1.0)), 0.0),
    ],
)
def test_known_ious(a: SceneObject, b: SceneObject, expected: float) -> None:
    assert oriented_iou(a, b) == pytest.approx(expected, abs=1e-12)
    assert oriented_iou(b, a) == pytest.approx(expected, abs=1e-12)


def test_general_orientations_match_monte_carlo() -> None:
    # Guards the convex-hull path (no shared axis) against a sampled estimate, 4 sigma.
    rng = np.random.default_rng(7)
    for _ in range(6):
        a = cube(
            tuple(rng.normal(0, 0.3, 3)),
            tuple(rng.uniform(-180, 180, 3)),
            tuple(rng.uniform(0.6, 1.4, 3)),
        )
        b = cube(
            tuple(rng.normal(0, 0.3, 3)),
            tuple(rng.uniform(-180, 180, 3)),
            tuple(rng.uniform(0.6, 1.4, 3)),
        )
        box_a, box_b = OrientedBox.of(a), OrientedBox.of(b)
        lo = np.minimum(box_a.aabb()[0], box_b.aabb()[0])
        hi = np.maximum(box_a.aabb()[1], box_b.aabb()[1])
        points = rng.uniform(lo, hi, (200_000, 3))
        in_a, in_b = box_a.contains(points, 0.0), box_b.contains(points, 0.0)
        sampled = (in_a & in_b).sum() / (in_a | in_b).sum()
        sigma = math.sqrt(sampled * (1 - sampled) / max(1, (in_a | in_b).sum()))
        assert box_iou(box_a, box_b) == pytest.approx(sampled, abs=4 * sigma + 1e-3)


def test_prism_shortcut_agrees_with_the_hull() -> None:
    # Boxes turned about a shared axis take the 2D clipping path; it must equal the general one.
    rng = np.random.default_rng(11)
    for _ in range(300):
        a = cube(
            tuple(rng.normal(0, 0.4, 3)),
            (0.0, float(rng.uniform(-180, 180)), 0.0),
            tuple(rng.uniform(0.3, 1.5, 3)),
        )
        b = cube(
            tuple(rng.normal(0, 0.4, 3)),
            (90.0, float(rng.uniform(-180, 180)), 0.0),
            tuple(rng.uniform(0.3, 1.5, 3)),
        )
        box_a, box_b = OrientedBox.of(a), OrientedBox.of(b)
        assert intersection_volume(box_a, box_b) == pytest.approx(
            _hull_intersection(box_a, box_b), abs=1e-12
        )


def test_upper_bounds_never_undercut_the_iou() -> None:
    rng = np.random.default_rng(3)
    boxes = [
        OrientedBox.of(
            cube(
                tuple(rng.normal(0, 0.5, 3)),
                tuple(rng.uniform(-180, 180, 3)),
                tuple(rng.uniform(0.3, 1.5, 3)),
            )
        )
        for _ in range(12)
    ]

    def bounds_of(items: list[OrientedBox]) -> tuple[Matrix, Matrix, Matrix]:
        return (
            np.array([b.aabb()[0] for b in items]),
            np.array([b.aabb()[1] for b in items]),
            np.array([b.volume for b in items]),
        )

    bounds = iou_upper_bounds(bounds_of(boxes[:6]), bounds_of(boxes[6:]))
    for i in range(6):
        for j in range(6):
            assert box_iou(boxes[i], boxes[6 + j]) <= bounds[i, j] + 1e-12


def test_extent_is_the_diagonal_of_the_exact_bounding_box() -> None:
    objects = [
        SceneObject("a", "cube", (0.0, 0.5, 0.0)),
        SceneObject("b", "sphere", (2.0, 0.5, 0.0)),
        # A torus's exact box is 1 x 0.25 x 1, centred here at z = 1.
        SceneObject("c", "torus", (0.0, 0.125, 1.0), size=(1.0, 0.25, 1.0)),
    ]
    # x from -0.5 to 2.5, y from 0 to 1, z from -0.5 to 1.5.
    assert scene_extent(objects) == pytest.approx(math.sqrt(9 + 1 + 4), abs=1e-12)


def test_extent_has_a_floor() -> None:
    assert (
        scene_extent([SceneObject("a", "cube", (0.0, 0.05, 0.0), size=(0.1, 0.1, 0.1))])
        == EXTENT_FLOOR
    )
