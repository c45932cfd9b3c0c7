"""Exact bounding boxes of the unit primitives, against dense samples of their surfaces."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from spatialbabel import SceneObject, box_aabb, primitive_aabb, world_aabb, world_corners
from spatialbabel.classes import CLASSES, TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.frames import compose, euler_to_matrix


def surface_samples(class_name: str, n: int = 721) -> NDArray[np.float64]:
    """Points on (or spanning) the unit primitive, dense enough to touch its extremes within 1e-5."""
    u = np.linspace(0.0, 2 * math.pi, n)
    if class_name == "cube":
        return np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    if class_name == "pyramid":
        return np.array(
            [
                [0, 0.5, 0],
                [-0.5, -0.5, -0.5],
                [0.5, -0.5, -0.5],
                [0.5, -0.5, 0.5],
                [-0.5, -0.5, 0.5],
            ]
        )
    if class_name == "sphere":
        theta, phi = np.meshgrid(u, np.linspace(0, math.pi, n // 2))
        return 0.5 * np.column_stack(
            [
                (np.sin(phi) * np.cos(theta)).ravel(),
                np.cos(phi).ravel(),
                (np.sin(phi) * np.sin(theta)).ravel(),
            ]
        )
    ring = np.column_stack([0.5 * np.cos(u), np.zeros_like(u), 0.5 * np.sin(u)])
    if class_name == "cylinder":
        return np.vstack([ring + [0, 0.5, 0], ring - [0, 0.5, 0]])
    if class_name == "cone":
        return np.vstack([ring - [0, 0.5, 0], [[0, 0.5, 0]]])
    uu, vv = np.meshgrid(u, np.linspace(0, 2 * math.pi, n // 2))
    r = TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS * np.cos(vv)
    return np.column_stack(
        [
            (r * np.cos(uu)).ravel(),
            (TORUS_MINOR_RADIUS * np.sin(vv)).ravel(),
            (r * np.sin(uu)).ravel(),
        ]
    )


@pytest.mark.parametrize("class_name", CLASSES)
def test_unit_primitives_fit_their_unit_extent(class_name: str) -> None:
    lo, hi = primitive_aabb(class_name, np.eye(4))
    assert np.allclose(hi - lo, UNIT_EXTENTS[class_name])
    assert np.allclose((hi + lo) / 2, 0.0)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(CLASSES),
    st.tuples(*(st.floats(-180, 180) for _ in range(3))),
    st.tuples(*(st.floats(0.2, 3.0) for _ in range(3))),
)
def test_exact_aabb_matches_dense_surface_samples(
    class_name: str, euler: tuple[float, float, float], scale: tuple[float, float, float]
) -> None:
    affine = compose((1.0, 2.0, -3.0), euler_to_matrix(euler), scale)
    points = surface_samples(class_name) @ affine[:3, :3].T + affine[:3, 3]
    lo, hi = primitive_aabb(class_name, affine)
    # The exact box contains every sample and is at most a sampling step wider.
    assert np.all(points >= lo - 1e-9) and np.all(points <= hi + 1e-9)
    assert np.allclose(points.min(axis=0), lo, atol=2e-4 * max(scale))
    assert np.allclose(points.max(axis=0), hi, atol=2e-4 * max(scale))


def test_world_aabb_of_a_rotated_sphere_is_its_diameter() -> None:
    ball = SceneObject("b", "sphere", (0, 1, 0), (30, 40, 50), (2, 2, 2))
    lo, hi = world_aabb(ball)
    assert np.allclose(hi - lo, 2.0)
    # The box of corners is wider: that is why exact boxes exist.
    blo, bhi = box_aabb(ball)
    assert np.all(bhi - blo > 2.0)
    assert world_corners(ball).shape == (8, 3)
