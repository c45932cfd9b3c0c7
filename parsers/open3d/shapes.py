"""Open3D's ``TriangleMesh.create_*`` factories: their defaults, the vertices they make, and
where the canonical unit primitive lies in them.

The vertices are generated exactly as open3d 0.20 does (TriangleMeshFactory.cpp), because
open3d measures meshes by their vertices: ``get_center`` is the vertex mean (which for a cone
is not its box centre), ``translate(t, relative=False)`` moves that mean, ``rotate`` without
a centre turns about it, and the axis-aligned bounding box is the vertices' box.
tests/parsers/test_open3d_shapes.py checks every generator against open3d itself.

Layouts (open3d's own frame is the canonical Y-up frame): ``create_box`` spans [0, w] x [0, h]
x [0, d]; the sphere is centred; the cylinder is centred on the Z axis; the cone has its base
centre at the origin and its apex at (0, 0, height); the torus lies in the XY plane.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from parsers.evaluator import CallContext, Value
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from spatialbabel.frames import Matrix

#: Canonical +Y (the unit primitives' axis) onto open3d's +Z, along which cylinders and cones lie.
Y_TO_Z = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)

#: Largest tessellation generated (vertices); finer meshes are measured at this resolution.
_MAX_RESOLUTION = 400

#: factory -> class; helpers (coordinate frames, arrows) are not scene objects.
CREATORS: dict[str, str] = {
    "create_box": "cube",
    "create_sphere": "sphere",
    "create_ellipsoid": "sphere",
    "create_cylinder": "cylinder",
    "create_cone": "cone",
    "create_torus": "torus",
    "create_tetrahedron": "unknown",
    "create_octahedron": "unknown",
    "create_icosahedron": "unknown",
    "create_mobius": "unknown",
}
HELPERS = frozenset({"create_coordinate_frame", "create_arrow"})

#: open3d before 0.8 made meshes with functions of its modules: ``open3d.geometry.create_mesh_*``
#: (0.7) and, in the flat namespace of 0.6 and earlier, ``open3d.create_mesh_*`` (written with
#: ``from open3d import *``). 0.8 turned them into the ``TriangleMesh.create_*`` below with the
#: same parameters and defaults (0.7's documentation: ``create_mesh_box(width=1.0, height=1.0,
#: depth=1.0)``, ``create_mesh_cylinder(radius=1.0, height=2.0, resolution=20, split=4)``,
#: ``create_mesh_cone(radius=1.0, height=2.0, resolution=20, split=1)``,
#: ``create_mesh_torus(torus_radius=1.0, tube_radius=0.5, radial_resolution=30,
#: tubular_resolution=20)``...) and the same layouts (the box's corner at the origin, the
#: cylinder along Z from -h/2 to h/2, the cone from (0, 0, 0) to (0, 0, h)).
LEGACY_FACTORIES: dict[str, str] = {
    "create_mesh_box": "create_box",
    "create_mesh_sphere": "create_sphere",
    "create_mesh_cylinder": "create_cylinder",
    "create_mesh_cone": "create_cone",
    "create_mesh_torus": "create_torus",
    "create_mesh_tetrahedron": "create_tetrahedron",
    "create_mesh_octahedron": "create_octahedron",
    "create_mesh_icosahedron": "create_icosahedron",
    "create_mesh_moebius": "create_mobius",
    "create_mesh_arrow": "create_arrow",
    "create_mesh_coordinate_frame": "create_coordinate_frame",
}

#: Parameter names and defaults of each factory, in positional order (open3d 0.20).
PARAMETERS: dict[str, tuple[tuple[str, float], ...]] = {
    "create_box": (("width", 1.0), ("height", 1.0), ("depth", 1.0)),
    "create_sphere": (("radius", 1.0), ("resolution", 20)),
    "create_ellipsoid": (
        ("radius_x", 1.0),
        ("radius_y", 1.0),
        ("radius_z", 1.0),
        ("resolution", 20),
    ),
    "create_cylinder": (("radius", 1.0), ("height", 2.0), ("resolution", 20), ("split", 4)),
    "create_cone": (("radius", 1.0), ("height", 2.0), ("resolution", 20), ("split", 1)),
    "create_torus": (
        ("torus_radius", 1.0),
        ("tube_radius", 0.5),
        ("radial_resolution", 30),
        ("tubular_resolution", 20),
    ),
    "create_tetrahedron": (("radius", 1.0),),
    "create_octahedron": (("radius", 1.0),),
    "create_icosahedron": (("radius", 1.0),),
    "create_mobius": (
        ("length_split", 70),
        ("width_split", 15),
        ("twists", 1),
        ("radius", 1.0),
        ("flatness", 1.0),
        ("width", 1.0),
        ("scale", 1.0),
    ),
    "create_coordinate_frame": (("size", 1.0),),
    "create_arrow": (
        ("cylinder_radius", 1.0),
        ("cone_radius", 1.5),
        ("cylinder_height", 5.0),
        ("cone_height", 4.0),
    ),
}
_INTEGER_PARAMETERS = frozenset(
    {
        "resolution",
        "split",
        "radial_resolution",
        "tubular_resolution",
        "length_split",
        "width_split",
        "twists",
    }
)


@dataclass
class Primitive:
    """A factory's result: class, vertices in its own frame, the unit primitive onto them."""

    factory: str
    class_name: str
    vertices: Matrix
    unit_to_local: Matrix


def read_parameters(
    ctx: CallContext, factory: str, args: list[Value], kwargs: dict[str, Value]
) -> dict[str, float]:
    values: dict[str, float] = {}
    for i, (name, default) in enumerate(PARAMETERS.get(factory, ())):
        value = args[i] if i < len(args) else kwargs.get(name, default)
        number = ctx.number(value, f"{factory} {name}", float(default))
        if name in _INTEGER_PARAMETERS:
            number = float(min(max(int(number), 1), _MAX_RESOLUTION))
        elif number <= 0:
            ctx.warning(
                "open3d.bad_value",
                f"{factory} {name} must be positive (open3d refuses {number:g}); {default:g} used",
            )
            number = float(default)
        values[name] = number
    return values


# The trigonometry of a tessellation depends on its resolution only: computed once, then
# scaled per mesh with the same floating-point operations as computing it afresh.


@lru_cache(maxsize=16)
def _circle(resolution: int) -> tuple[Matrix, Matrix]:
    """cos and sin of ``resolution`` angles round the circle, as ``_ring`` uses them."""
    theta = np.arange(resolution) * (2 * math.pi / resolution)
    return _frozen(np.cos(theta)), _frozen(np.sin(theta))


@lru_cache(maxsize=16)
def _sphere_rings(resolution: int) -> tuple[Matrix, Matrix, Matrix]:
    """For rings 1 .. resolution - 1 of ``_ellipsoid_vertices``: sin(alpha) cos(theta) and
    sin(alpha) sin(theta) (rings x 2 resolution), and cos(alpha) (rings)."""
    step = math.pi / resolution
    theta = np.arange(2 * resolution) * step
    cos_theta, sin_theta = np.cos(theta), np.sin(theta)
    alphas = [step * i for i in range(1, resolution)]
    sin_alpha = np.array([math.sin(alpha) for alpha in alphas]).reshape(-1, 1)
    cos_alpha = np.array([math.cos(alpha) for alpha in alphas])
    return _frozen(sin_alpha * cos_theta), _frozen(sin_alpha * sin_theta), _frozen(cos_alpha)


def _frozen(array: Matrix) -> Matrix:
    array.flags.writeable = False
    return array


def _ring(radius: float, z: float, resolution: int) -> Matrix:
    cos, sin = _circle(resolution)
    return np.column_stack([cos * radius, sin * radius, np.full(resolution, z)])


def _box(p: dict[str, float]) -> Matrix:
    w, h, d = p["width"], p["height"], p["depth"]
    return np.array(
        [[0, 0, 0], [w, 0, 0], [0, 0, d], [w, 0, d], [0, h, 0], [w, h, 0], [0, h, d], [w, h, d]],
        dtype=float,
    )


def _ellipsoid_vertices(rx: float, ry: float, rz: float, resolution: int) -> Matrix:
    """The two poles, then ring by ring (alpha = pi i / resolution) the points
    (sin(alpha) cos(theta) rx, sin(alpha) sin(theta) ry, cos(alpha) rz)."""
    x, y, z = _sphere_rings(resolution)
    rings = np.empty((len(z), 2 * resolution, 3))
    rings[:, :, 0] = x * rx
    rings[:, :, 1] = y * ry
    rings[:, :, 2] = (z * rz)[:, None]
    poles = np.array([[0.0, 0.0, rz], [0.0, 0.0, -rz]])
    return np.concatenate([poles, rings.reshape(-1, 3)])


def _sphere(p: dict[str, float]) -> Matrix:
    r = p["radius"]
    return _ellipsoid_vertices(r, r, r, int(p["resolution"]))


def _ellipsoid(p: dict[str, float]) -> Matrix:
    return _ellipsoid_vertices(p["radius_x"], p["radius_y"], p["radius_z"], int(p["resolution"]))


def _cylinder(p: dict[str, float]) -> Matrix:
    r, h, n, split = p["radius"], p["height"], int(p["resolution"]), int(p["split"])
    rows = [np.array([[0.0, 0.0, h / 2], [0.0, 0.0, -h / 2]])]
    rows.extend(_ring(r, h / 2 - h / split * i, n) for i in range(split + 1))
    return np.vstack(rows)


def _cone(p: dict[str, float]) -> Matrix:
    r, h, n, split = p["radius"], p["height"], int(p["resolution"]), int(p["split"])
    rows = [np.array([[0.0, 0.0, 0.0], [0.0, 0.0, h]])]
    rows.extend(_ring(r / split * (split - i), h / split * i, n) for i in range(split))
    return np.vstack(rows)


def _torus(p: dict[str, float]) -> Matrix:
    big, small = p["torus_radius"], p["tube_radius"]
    radial, tubular = int(p["radial_resolution"]), int(p["tubular_resolution"])
    cos_u, sin_u, cos_v, sin_v = _torus_angles(radial, tubular)
    reach = big + small * cos_v
    return np.column_stack([cos_u * reach, sin_u * reach, small * sin_v])


@lru_cache(maxsize=16)
def _torus_angles(radial: int, tubular: int) -> tuple[Matrix, Matrix, Matrix, Matrix]:
    """cos and sin of the torus's angles round the ring (u) and round the tube (v)."""
    u = np.repeat(np.arange(radial) * (2 * math.pi / radial), tubular)
    v = np.tile(np.arange(tubular) * (2 * math.pi / tubular), radial)
    return (
        _frozen(np.cos(u)),
        _frozen(np.sin(u)),
        _frozen(np.cos(v)),
        _frozen(np.sin(v)),
    )


def _tetrahedron(p: dict[str, float]) -> Matrix:
    r = p["radius"]
    return r * np.array(
        [
            [math.sqrt(8 / 9), 0, -1 / 3],
            [-math.sqrt(2 / 9), math.sqrt(2 / 3), -1 / 3],
            [-math.sqrt(2 / 9), -math.sqrt(2 / 3), -1 / 3],
            [0, 0, 1],
        ]
    )


def _octahedron(p: dict[str, float]) -> Matrix:
    r = p["radius"]
    return r * np.array(
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]], dtype=float
    )


def _icosahedron(p: dict[str, float]) -> Matrix:
    r, g = p["radius"], (1 + math.sqrt(5)) / 2
    points = [
        [-1, 0, g],
        [1, 0, g],
        [1, 0, -g],
        [-1, 0, -g],
        [0, -g, 1],
        [0, g, 1],
        [0, g, -1],
        [0, -g, -1],
        [-g, -1, 0],
        [g, -1, 0],
        [g, 1, 0],
        [-g, 1, 0],
    ]
    return r * np.asarray(points, dtype=float)


def _box_affine(vertices: Matrix) -> Matrix:
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    m = np.eye(4)
    m[:3, :3] = np.diag(hi - lo)
    m[:3, 3] = (lo + hi) / 2
    return m


def _scale(x: float, y: float, z: float) -> Matrix:
    return np.diag([x, y, z, 1.0])


def _translate(x: float, y: float, z: float) -> Matrix:
    m = np.eye(4)
    m[:3, 3] = [x, y, z]
    return m


def _rz(radians: float) -> Matrix:
    c, s = math.cos(radians), math.sin(radians)
    m = np.eye(4)
    m[:2, :2] = [[c, -s], [s, c]]
    return m


_GENERATORS: dict[str, Callable[[dict[str, float]], Matrix]] = {
    "create_box": _box,
    "create_sphere": _sphere,
    "create_ellipsoid": _ellipsoid,
    "create_cylinder": _cylinder,
    "create_cone": _cone,
    "create_torus": _torus,
    "create_tetrahedron": _tetrahedron,
    "create_octahedron": _octahedron,
    "create_icosahedron": _icosahedron,
}


def create(factory: str, p: dict[str, float]) -> Primitive:
    """What ``factory`` builds from its parameters (read with ``read_parameters``)."""
    vertices = _GENERATORS[factory](p) if factory in _GENERATORS else np.zeros((1, 3))
    class_name = CREATORS.get(factory, "unknown")
    if factory == "create_box":
        affine = _translate(p["width"] / 2, p["height"] / 2, p["depth"] / 2) @ _scale(
            p["width"], p["height"], p["depth"]
        )
    elif factory == "create_sphere":
        affine = _scale(2 * p["radius"], 2 * p["radius"], 2 * p["radius"])
    elif factory == "create_ellipsoid":
        affine = _scale(2 * p["radius_x"], 2 * p["radius_y"], 2 * p["radius_z"])
    elif factory == "create_cylinder":
        affine = _scale(2 * p["radius"], 2 * p["radius"], p["height"]) @ Y_TO_Z
    elif factory == "create_cone":
        r, h = p["radius"], p["height"]
        if int(p["resolution"]) == 4:
            # Four segments make a square pyramid with its corners on the X and Y axes.
            class_name = "pyramid"
            side = r * math.sqrt(2.0)
            affine = _translate(0, 0, h / 2) @ _rz(math.pi / 4) @ _scale(side, side, h) @ Y_TO_Z
        else:
            affine = _translate(0, 0, h / 2) @ _scale(2 * r, 2 * r, h) @ Y_TO_Z
    elif factory == "create_torus":
        outer = p["torus_radius"] + p["tube_radius"]
        ring = outer / (TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS)
        affine = _scale(ring, ring, p["tube_radius"] / TORUS_MINOR_RADIUS) @ Y_TO_Z
    else:
        affine = _box_affine(vertices)
    return Primitive(factory, class_name, vertices, affine)
