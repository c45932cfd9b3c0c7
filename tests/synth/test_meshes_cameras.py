"""Unit tessellations and the cameras of generated scenes (pure numpy)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatialbabel import CLASSES, UNIT_EXTENTS
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from synth.cameras import FRONT_NAME, scene_cameras
from synth.layout import HEIGHT_RATIOS
from synth.meshes import unit_mesh
from synth.tiers import TIERS


def _signed_volume(class_name: str) -> float:
    mesh = unit_mesh(class_name)
    v = mesh.vertices
    total = 0.0
    for face in mesh.faces:
        for k in range(1, len(face) - 1):
            total += float(np.dot(v[face[0]], np.cross(v[face[k]], v[face[k + 1]]))) / 6.0
    return total


EXACT_VOLUMES = {
    "cube": 1.0,
    "sphere": math.pi / 6,
    "cylinder": math.pi / 4,
    "cone": math.pi / 12,
    "pyramid": 1 / 3,
    "torus": 2 * math.pi**2 * TORUS_MAJOR_RADIUS * TORUS_MINOR_RADIUS**2,
}


@pytest.mark.parametrize("class_name", CLASSES)
def test_unit_meshes_span_the_unit_extents(class_name: str) -> None:
    vertices = unit_mesh(class_name).vertices
    extent = vertices.max(axis=0) - vertices.min(axis=0)
    assert extent == pytest.approx(UNIT_EXTENTS[class_name], abs=1e-12)
    assert vertices.mean(axis=0)[[0, 2]] == pytest.approx([0.0, 0.0], abs=1e-12)
    assert (vertices.max(axis=0) + vertices.min(axis=0)) == pytest.approx([0, 0, 0], abs=1e-12)


@pytest.mark.parametrize("class_name", CLASSES)
def test_unit_meshes_are_closed_and_face_outwards(class_name: str) -> None:
    mesh = unit_mesh(class_name)
    # Caps have their own vertices (for shading), so vertices are matched by position.
    key = [tuple(np.round(v, 9)) for v in mesh.vertices]
    # Every edge is used once in each direction: the surface is closed and consistently wound.
    edges: dict[tuple[tuple[float, ...], tuple[float, ...]], int] = {}
    for face in mesh.faces:
        for a, b in zip(face, (*face[1:], face[0]), strict=True):
            edges[(key[a], key[b])] = edges.get((key[a], key[b]), 0) + 1
    assert all(edges.get((b, a)) == 1 and n == 1 for (a, b), n in edges.items())
    # Outward winding gives a positive volume, close to the exact shape's.
    assert _signed_volume(class_name) == pytest.approx(EXACT_VOLUMES[class_name], rel=0.04)
    assert len(mesh.smooth) == len(mesh.faces)


def test_shapes_follow_the_vocabulary() -> None:
    cone = unit_mesh("cone").vertices
    assert cone[cone[:, 1].argmax()] == pytest.approx([0.0, 0.5, 0.0])
    pyramid = unit_mesh("pyramid").vertices
    base = pyramid[pyramid[:, 1] < 0]
    # Base edges along X and Z: the corners sit at (+-0.5, +-0.5), not on the axes.
    assert sorted(map(tuple, np.abs(base[:, [0, 2]]))) == [(0.5, 0.5)] * 4
    torus = unit_mesh("torus").vertices
    ring = np.hypot(torus[:, 0], torus[:, 2])
    assert ring.min() == pytest.approx(TORUS_MAJOR_RADIUS - TORUS_MINOR_RADIUS)
    assert ring.max() == pytest.approx(TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS)


def _tallest() -> float:
    return max(t.scale[1] * HEIGHT_RATIOS[c][1] for t in TIERS.values() for c in HEIGHT_RATIOS)


@pytest.mark.parametrize("views", [1, 4, 7])
def test_cameras_frame_the_whole_ground_with_the_tallest_objects(views: int) -> None:
    cameras = scene_cameras(views, 512)
    assert [c.name for c in cameras] == [FRONT_NAME, *(f"view{k}" for k in range(1, views))]
    corners = np.array([[x, y, z] for x in (-3, 3) for z in (-3, 3) for y in (0.0, _tallest())])
    for camera in cameras:
        uv, depth = camera.project(corners)
        assert np.all(depth > 0)
        assert np.all(uv >= 2.0) and np.all(uv <= 510.0), camera.name


def test_frontal_camera_sits_above_plus_z_looking_at_the_origin() -> None:
    front = scene_cameras(3, 384)[0]
    x, y, z = front.position
    assert x == pytest.approx(0.0) and y > 0 and z > 0
    uv, _ = front.project(np.zeros((1, 3)))
    assert uv[0] == pytest.approx([192.0, 192.0])
    # +X is to the right, +Z towards the viewer (lower in the image).
    right, _ = front.project(np.array([[1.0, 0.0, 0.0]]))
    near, _ = front.project(np.array([[0.0, 0.0, 1.0]]))
    assert right[0, 0] > 192 and near[0, 1] > 192
    assert (front.width, front.height) == (384, 384)


def test_views_turn_about_the_vertical_axis() -> None:
    cameras = scene_cameras(4, 64)
    positions = np.array([c.position for c in cameras])
    assert np.allclose(positions[:, 1], positions[0, 1])
    assert np.allclose(
        np.hypot(positions[:, 0], positions[:, 2]), np.hypot(positions[0, 0], positions[0, 2])
    )
    assert positions[1, 0] > 0 and abs(positions[2, 0]) < 1e-9 and positions[2, 2] < 0
    with pytest.raises(ValueError, match="at least 1"):
        scene_cameras(0, 64)
