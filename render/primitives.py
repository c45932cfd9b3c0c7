"""The six unit primitives as trimesh meshes, built once and shared by every render.

Geometry follows docs/conventions.md §3 (the hub's ``UNIT_EXTENTS`` and torus radii): each
primitive is centred at the origin with its axis of revolution along +Y. trimesh builds its
solids of revolution along +Z, so they are turned by -90° about X (+Z -> +Y). Round shapes use
32 segments around the axis, as the generator's Blender meshes do, so silhouettes agree to well
under a pixel at the split's resolutions.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import trimesh

from spatialbabel import CLASSES, UNIT_EXTENTS, UNKNOWN_CLASS
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from spatialbabel.open_classes import is_open_class

ROUND_SEGMENTS: Final = 32
SPHERE_RINGS: Final = 16
TORUS_MAJOR_SEGMENTS: Final = 48
TORUS_MINOR_SEGMENTS: Final = 16

#: Classes whose surface is curved: rendered with smooth normals, split at sharp rims.
CURVED: Final = frozenset({"sphere", "cylinder", "cone", "torus"})

#: -90 degrees about X: takes trimesh's +Z axis of revolution to our +Y.
_Z_TO_Y: Final = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)


def _pyramid() -> trimesh.Trimesh:
    vertices = np.array(
        [
            [-0.5, -0.5, -0.5],
            [0.5, -0.5, -0.5],
            [0.5, -0.5, 0.5],
            [-0.5, -0.5, 0.5],
            [0.0, 0.5, 0.0],
        ]
    )
    # Counter-clockwise seen from outside, so normals point out.
    faces = np.array([[0, 1, 2], [0, 2, 3], [3, 2, 4], [2, 1, 4], [1, 0, 4], [0, 3, 4]])
    return trimesh.Trimesh(vertices, faces, process=False)


def _build(class_name: str) -> trimesh.Trimesh:
    # An object of the open domain (a sofa) is its bounding box.
    if class_name in ("cube", UNKNOWN_CLASS) or is_open_class(class_name):
        return trimesh.creation.box(extents=UNIT_EXTENTS["cube"])
    if class_name == "sphere":
        # Revolving a half circle (rather than trimesh's uv_sphere) keeps the equator ring, so
        # the mesh reaches the full unit extent as the generator's does.
        polar = np.linspace(np.pi, 0.0, SPHERE_RINGS + 1)
        profile = np.column_stack([0.5 * np.sin(polar), 0.5 * np.cos(polar)])
        profile[[0, -1], 0] = 0.0
        return trimesh.creation.revolve(profile, sections=ROUND_SEGMENTS, transform=_Z_TO_Y)
    if class_name == "cylinder":
        return trimesh.creation.cylinder(
            radius=0.5, height=1.0, sections=ROUND_SEGMENTS, transform=_Z_TO_Y
        )
    if class_name == "cone":
        # trimesh's cone has its base at z = 0; centre it before turning it upright.
        mesh = trimesh.creation.cone(radius=0.5, height=1.0, sections=ROUND_SEGMENTS)
        mesh.apply_translation([0.0, 0.0, -0.5])
        mesh.apply_transform(_Z_TO_Y)
        return mesh
    if class_name == "pyramid":
        return _pyramid()
    if class_name == "torus":
        return trimesh.creation.torus(
            TORUS_MAJOR_RADIUS,
            TORUS_MINOR_RADIUS,
            major_sections=TORUS_MAJOR_SEGMENTS,
            minor_sections=TORUS_MINOR_SEGMENTS,
            transform=_Z_TO_Y,
        )
    known = ", ".join((*CLASSES, UNKNOWN_CLASS))
    raise KeyError(f"no unit primitive for class {class_name!r}; known: {known}")


@cache
def unit_trimesh(class_name: str) -> trimesh.Trimesh:
    """The unit primitive of ``class_name`` (``unknown`` and the classes of the open domain
    are drawn as the unit cube).

    The mesh is shared: callers must copy it before changing it.
    """
    mesh = _build(class_name)
    if class_name in CURVED:
        # Unmerge vertices along sharp rims (a cylinder's cap edge) so smooth normals stay flat there.
        mesh = mesh.smooth_shaded
    mesh.vertices.flags.writeable = False
    return mesh
