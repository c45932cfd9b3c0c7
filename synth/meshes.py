"""Tessellations of the six unit primitives, in the canonical local frame (Y up).

Blender builds its meshes from these arrays, and the visibility rule projects the same vertices
to find which objects may cover each other, so both always agree on what is rendered.
Every tessellation touches the exact unit extents (``spatialbabel.classes.UNIT_EXTENTS``):
rings include the angles 0, 90, 180 and 270 degrees, so the mesh's bounding box is the shape's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from spatialbabel.classes import CLASSES, TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS

#: Segments around the axis of revolution (a multiple of 4, see the module docstring).
ROUND_SEGMENTS = 32
SPHERE_RINGS = 16
TORUS_MAJOR_SEGMENTS = 48
TORUS_MINOR_SEGMENTS = 16


@dataclass(frozen=True)
class UnitMesh:
    """Vertices (N x 3), faces (vertex index tuples, counter-clockwise seen from outside) and a
    smooth-shading flag per face (curved surfaces smooth, flat caps and facets not)."""

    class_name: str
    vertices: NDArray[np.float64]
    faces: tuple[tuple[int, ...], ...]
    smooth: tuple[bool, ...]


def _ring(
    radius: float, y: float, segments: int = ROUND_SEGMENTS
) -> list[tuple[float, float, float]]:
    # Going from +X towards -Z is counter-clockwise seen from +Y in a right-handed Y-up frame.
    return [
        (
            radius * math.cos(2 * math.pi * k / segments),
            y,
            -radius * math.sin(2 * math.pi * k / segments),
        )
        for k in range(segments)
    ]


def _cube() -> UnitMesh:
    v = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]

    def i(x: int, y: int, z: int) -> int:
        return x * 4 + y * 2 + z

    faces = (
        (i(1, 0, 0), i(1, 1, 0), i(1, 1, 1), i(1, 0, 1)),  # +X
        (i(0, 0, 0), i(0, 0, 1), i(0, 1, 1), i(0, 1, 0)),  # -X
        (i(0, 1, 0), i(0, 1, 1), i(1, 1, 1), i(1, 1, 0)),  # +Y
        (i(0, 0, 0), i(1, 0, 0), i(1, 0, 1), i(0, 0, 1)),  # -Y
        (i(0, 0, 1), i(1, 0, 1), i(1, 1, 1), i(0, 1, 1)),  # +Z
        (i(0, 0, 0), i(0, 1, 0), i(1, 1, 0), i(1, 0, 0)),  # -Z
    )
    return UnitMesh("cube", np.array(v, float), faces, (False,) * 6)


def _sphere() -> UnitMesh:
    n = ROUND_SEGMENTS
    vertices = [(0.0, 0.5, 0.0)]
    for j in range(1, SPHERE_RINGS):
        polar = math.pi * j / SPHERE_RINGS
        vertices += _ring(0.5 * math.sin(polar), 0.5 * math.cos(polar), n)
    vertices.append((0.0, -0.5, 0.0))
    bottom = len(vertices) - 1

    def at(ring: int, k: int) -> int:
        return 1 + ring * n + k % n

    faces: list[tuple[int, ...]] = [(0, at(0, k), at(0, k + 1)) for k in range(n)]
    for ring in range(SPHERE_RINGS - 2):
        faces += [
            (at(ring, k), at(ring + 1, k), at(ring + 1, k + 1), at(ring, k + 1)) for k in range(n)
        ]
    last = SPHERE_RINGS - 2
    faces += [(bottom, at(last, k + 1), at(last, k)) for k in range(n)]
    return UnitMesh("sphere", np.array(vertices, float), tuple(faces), (True,) * len(faces))


def _cylinder() -> UnitMesh:
    n = ROUND_SEGMENTS
    # Caps get their own vertex rings so that smooth side normals do not bend the flat caps.
    vertices = _ring(0.5, -0.5) + _ring(0.5, 0.5) + _ring(0.5, -0.5) + _ring(0.5, 0.5)
    sides = tuple((k, (k + 1) % n, n + (k + 1) % n, n + k) for k in range(n))
    bottom = tuple(2 * n + k for k in reversed(range(n)))
    top = tuple(3 * n + k for k in range(n))
    faces = (*sides, bottom, top)
    return UnitMesh("cylinder", np.array(vertices, float), faces, (True,) * n + (False, False))


def _cone() -> UnitMesh:
    n = ROUND_SEGMENTS
    vertices = [*_ring(0.5, -0.5), *_ring(0.5, -0.5), (0.0, 0.5, 0.0)]
    apex = 2 * n
    sides = tuple((k, (k + 1) % n, apex) for k in range(n))
    base = tuple(n + k for k in reversed(range(n)))
    return UnitMesh("cone", np.array(vertices, float), (*sides, base), (True,) * n + (False,))


def _pyramid() -> UnitMesh:
    # Base edges run along local X and Z (DESIGN §3), unlike Blender's and three's 4-sided cones.
    vertices = [
        (-0.5, -0.5, -0.5),
        (0.5, -0.5, -0.5),
        (0.5, -0.5, 0.5),
        (-0.5, -0.5, 0.5),
        (0.0, 0.5, 0.0),
    ]
    faces = ((0, 1, 2, 3), (3, 2, 4), (2, 1, 4), (1, 0, 4), (0, 3, 4))
    return UnitMesh("pyramid", np.array(vertices, float), faces, (False,) * 5)


def _torus() -> UnitMesh:
    major, minor = TORUS_MAJOR_SEGMENTS, TORUS_MINOR_SEGMENTS
    vertices = []
    for i in range(major):
        u = 2 * math.pi * i / major
        for j in range(minor):
            v = 2 * math.pi * j / minor
            radius = TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS * math.cos(v)
            vertices.append(
                (radius * math.cos(u), TORUS_MINOR_RADIUS * math.sin(v), -radius * math.sin(u))
            )

    def at(i: int, j: int) -> int:
        return (i % major) * minor + j % minor

    faces = tuple(
        (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1))
        for i in range(major)
        for j in range(minor)
    )
    return UnitMesh("torus", np.array(vertices, float), faces, (True,) * len(faces))


_BUILDERS = {
    "cube": _cube,
    "sphere": _sphere,
    "cylinder": _cylinder,
    "cone": _cone,
    "pyramid": _pyramid,
    "torus": _torus,
}
assert set(_BUILDERS) == set(CLASSES)


@cache
def unit_mesh(class_name: str) -> UnitMesh:
    """The tessellated unit primitive of ``class_name``."""
    try:
        return _BUILDERS[class_name]()
    except KeyError:
        raise KeyError(
            f"no unit mesh for class {class_name!r}; known: {', '.join(CLASSES)}"
        ) from None
