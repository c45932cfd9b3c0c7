"""The Blender parser's ``bmesh`` against the real one: every primitive ``bmesh.ops`` makes has
the points bpy 5.0.1 makes (same parameters, matrices, defaults), the transform operators move
them as bpy does, and a mesh built with bmesh reads as the object bpy builds (the fixtures
b40 and b41 do the same through the whole parse)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from parsers import parse
from parsers.blender.bmesh_model import (
    circle_points,
    cone_points,
    cube_points,
    grid_points,
    ico_sphere_points,
    uv_sphere_points,
)

pytestmark = pytest.mark.bpy

#: (operator, keyword arguments, the parser's points for them).
CASES: list[tuple[str, dict[str, Any], list[list[float]]]] = [
    ("create_cube", {}, cube_points(1.0)),
    ("create_cube", {"size": 2.5}, cube_points(2.5)),
    (
        "create_cone",
        {"segments": 4, "radius1": 1.0, "depth": 2.0},
        cone_points(4, 1.0, 0.0, 2.0, False, False),
    ),
    (
        "create_cone",
        {"segments": 7, "radius1": 0.0, "radius2": 0.6, "depth": 1.5, "cap_ends": True},
        cone_points(7, 0.0, 0.6, 1.5, True, False),
    ),
    (
        "create_cone",
        {
            "segments": 12,
            "radius1": 0.5,
            "radius2": 0.25,
            "depth": 1.0,
            "cap_ends": True,
            "cap_tris": True,
        },
        cone_points(12, 0.5, 0.25, 1.0, True, True),
    ),
    ("create_cone", {"segments": 6, "radius1": 1.0}, cone_points(6, 1.0, 0.0, 0.0, False, False)),
    (
        "create_circle",
        {"segments": 9, "radius": 0.7, "cap_ends": True, "cap_tris": True},
        circle_points(9, 0.7, True),
    ),
    ("create_grid", {"x_segments": 3, "y_segments": 2, "size": 1.5}, grid_points(3, 2, 1.5)),
    (
        "create_uvsphere",
        {"u_segments": 10, "v_segments": 7, "radius": 0.8},
        uv_sphere_points(10, 7, 0.8),
    ),
    ("create_uvsphere", {"u_segments": 8, "v_segments": 4}, uv_sphere_points(8, 4, 0.0)),
    ("create_icosphere", {"subdivisions": 1, "radius": 1.0}, ico_sphere_points(1, 1.0)),
    ("create_icosphere", {"subdivisions": 3, "radius": 0.5}, ico_sphere_points(3, 0.5)),
]

_BPY_POINTS = """
import json, sys
import bpy  # noqa: F401  (bmesh needs Blender loaded)
import bmesh
cases = json.loads(sys.argv[1])
out = []
for op, kwargs in cases:
    bm = bmesh.new()
    getattr(bmesh.ops, op)(bm, **kwargs)
    out.append([list(v.co) for v in bm.verts])
sys.__stdout__.write(json.dumps(out))
"""


def _bpy_points() -> list[list[list[float]]]:
    pytest.importorskip("bpy")
    done = subprocess.run(
        [sys.executable, "-c", _BPY_POINTS, json.dumps([(op, kw) for op, kw, _ in CASES])],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    points: list[list[list[float]]] = json.loads(done.stdout.strip().splitlines()[-1])
    return points


def _same_points(a: list[list[float]], b: list[list[float]], tolerance: float = 1e-6) -> bool:
    """The same points, in any order (bpy stores them in float32)."""
    if len(a) != len(b):
        return False
    if not a:
        return True
    left = np.asarray(a, dtype=float)
    right = np.asarray(b, dtype=float)
    for point in left:
        distances = np.linalg.norm(right - point, axis=1)
        nearest = int(np.argmin(distances))
        if distances[nearest] > tolerance:
            return False
        right = np.delete(right, nearest, axis=0)
    return True


def test_primitives_have_the_points_bpy_makes() -> None:
    for (op, kwargs, ours), theirs in zip(CASES, _bpy_points(), strict=True):
        # Blender's subdivided icosphere points are ours to 3e-6 of the radius (it smooths
        # them a little); both lie on the sphere, which is what the mesh is read as.
        smoothed = op == "create_icosphere" and kwargs["subdivisions"] > 1
        tolerance = 1e-5 * kwargs["radius"] if smoothed else 1e-6
        assert _same_points(ours, theirs, tolerance), (op, kwargs, len(ours), len(theirs))
        if smoothed:
            radii = np.linalg.norm(np.asarray(theirs), axis=1)
            assert np.allclose(radii, kwargs["radius"], atol=1e-6)


def test_unmodelled_operators_are_reported_and_leave_the_mesh_unknown() -> None:
    reply = """```python
import bpy, bmesh
bm = bmesh.new()
bmesh.ops.create_cube(bm, size=1.0)
bmesh.ops.extrude_face_region(bm, geom=bm.faces[:])
me = bpy.data.meshes.new("M")
bm.to_mesh(me)
obj = bpy.data.objects.new("Thing", me)
bpy.context.collection.objects.link(obj)
```"""
    result = parse(reply, "blender")
    codes = {d.code for d in result.diagnostics}
    assert "blender.unknown_mesh" in codes
    (obj,) = result.scene.objects
    assert obj.class_name == "unknown"


def test_vertex_coordinates_are_live() -> None:
    reply = """```python
import bpy, bmesh
bm = bmesh.new()
for x in (0.0, 2.0):
    for y in (0.0, 1.0):
        for z in (0.0, 1.0):
            bm.verts.new((x, y, z))
bm.verts.ensure_lookup_table()
for v in bm.verts:
    v.co.z += 0.5
bm.verts[0].co = (0.0, 0.0, 0.5)
me = bpy.data.meshes.new("M")
bm.to_mesh(me)
obj = bpy.data.objects.new("Crate", me)
bpy.context.collection.objects.link(obj)
```"""
    (obj,) = parse(reply, "blender").scene.objects
    # Blender (x, y, z) is canonical (x, z, -y).
    assert obj.class_name == "cube"
    assert obj.size == pytest.approx((2.0, 1.0, 1.0))
    assert obj.position == pytest.approx((1.0, 1.0, -0.5))
