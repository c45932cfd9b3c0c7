"""The unit primitives the renderer draws: extents, volumes, orientation and the torus hole."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("trimesh")

from render.primitives import ROUND_SEGMENTS, SPHERE_RINGS, unit_trimesh
from spatialbabel import CLASSES, UNIT_EXTENTS
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS


def polygon_factor(segments: int) -> float:
    """Area of a regular polygon inscribed in the unit circle, over the circle's."""
    return segments * math.sin(2 * math.pi / segments) / (2 * math.pi)


@pytest.mark.parametrize("class_name", CLASSES)
def test_mesh_spans_exactly_the_unit_extent(class_name: str) -> None:
    bounds = unit_trimesh(class_name).bounds
    half = np.array(UNIT_EXTENTS[class_name]) / 2
    np.testing.assert_allclose(bounds[0], -half, atol=1e-9)
    np.testing.assert_allclose(bounds[1], half, atol=1e-9)


# Volumes of the tessellated shapes, closed form; a wrong axis, radius or inward normals
# (negative volume) would all show here.
EXPECTED_VOLUME = {
    "cube": 1.0,
    "pyramid": 1.0 / 3.0,
    "cylinder": math.pi * 0.25 * polygon_factor(ROUND_SEGMENTS),
    "cone": math.pi * 0.25 * polygon_factor(ROUND_SEGMENTS) / 3.0,
}


@pytest.mark.parametrize("class_name", sorted(EXPECTED_VOLUME))
def test_mesh_volume_and_outward_normals(class_name: str) -> None:
    mesh = unit_trimesh(class_name).copy()
    mesh.merge_vertices()
    assert mesh.is_watertight
    assert mesh.volume == pytest.approx(EXPECTED_VOLUME[class_name], rel=1e-6)


def test_sphere_is_close_to_the_ball_of_radius_half() -> None:
    mesh = unit_trimesh("sphere").copy()
    mesh.merge_vertices()
    ball = 4 / 3 * math.pi * 0.5**3
    # A UV sphere of 32 x 16 facets holds a little less than the ball, never more.
    assert 0.97 * ball < mesh.volume < ball
    radii = np.linalg.norm(mesh.vertices, axis=1)
    np.testing.assert_allclose(radii, 0.5, atol=1e-9)
    assert len(np.unique(np.round(mesh.vertices[:, 1], 9))) == SPHERE_RINGS + 1


def test_axis_of_revolution_is_y() -> None:
    cone = unit_trimesh("cone")
    apex = cone.vertices[np.argmax(cone.vertices[:, 1])]
    np.testing.assert_allclose(apex, [0.0, 0.5, 0.0], atol=1e-9)
    base = cone.vertices[np.isclose(cone.vertices[:, 1], -0.5)]
    np.testing.assert_allclose(np.max(np.hypot(base[:, 0], base[:, 2])), 0.5, atol=1e-9)
    cylinder = unit_trimesh("cylinder")
    radii = np.hypot(cylinder.vertices[:, 0], cylinder.vertices[:, 2])
    rim = radii > 1e-9  # the caps' centres aside, every vertex is on the rim
    np.testing.assert_allclose(radii[rim], 0.5, atol=1e-9)
    np.testing.assert_allclose(np.abs(cylinder.vertices[rim, 1]), 0.5, atol=1e-9)


def test_pyramid_base_edges_run_along_x_and_z() -> None:
    base = unit_trimesh("pyramid").vertices
    corners = base[np.isclose(base[:, 1], -0.5)]
    assert sorted(map(tuple, np.round(corners[:, [0, 2]], 9))) == [
        (-0.5, -0.5),
        (-0.5, 0.5),
        (0.5, -0.5),
        (0.5, 0.5),
    ]


def test_torus_lies_in_the_xz_plane_with_a_hole() -> None:
    mesh = unit_trimesh("torus").copy()
    mesh.merge_vertices()
    ring = np.hypot(mesh.vertices[:, 0], mesh.vertices[:, 2])
    assert ring.min() == pytest.approx(TORUS_MAJOR_RADIUS - TORUS_MINOR_RADIUS, abs=1e-9)
    assert ring.max() == pytest.approx(TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS, abs=1e-9)
    np.testing.assert_allclose(np.abs(mesh.vertices[:, 1]).max(), TORUS_MINOR_RADIUS, atol=1e-9)
    exact = 2 * math.pi**2 * TORUS_MAJOR_RADIUS * TORUS_MINOR_RADIUS**2
    assert mesh.volume == pytest.approx(exact, rel=0.03)


def test_unknown_class_is_drawn_as_the_unit_cube() -> None:
    np.testing.assert_array_equal(unit_trimesh("unknown").bounds, unit_trimesh("cube").bounds)


def test_meshes_are_built_once() -> None:
    assert unit_trimesh("sphere") is unit_trimesh("sphere")


def test_a_class_without_a_primitive_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"no unit primitive for class 'blob'.*cube"):
        unit_trimesh("blob")
