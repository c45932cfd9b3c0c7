"""Surface-to-surface distances between objects, exact for the primitives.

Cubes, spheres, cylinders, cones and pyramids are convex: their distance is found by the
Flexible Collision Library's GJK on the exact shapes (FCL's box, sphere or ellipsoid, cylinder,
cone and a five-vertex convex for the pyramid), which converges to about 1e-6 m. A torus is
not convex, but it is exactly its centre circle thickened by its tube radius, so its distance
to any shape is the circle's distance minus that radius: a minimum over one angle, found by
sampling the circle and refining each local minimum. FCL (``python-fcl``, the ``suites`` extra)
is imported when a distance is first asked for.

Distances are 0 for objects that touch or overlap (a stacked object and its support).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.scene import SceneObject

Array = NDArray[np.float64]

#: Angles sampled on a torus's centre circle before each local minimum is refined (every 10
#: degrees: a 96-sample search found the same minima to 1e-15 m on 300 random pairs).
CIRCLE_SAMPLES: Final = 36

#: Relative difference allowed between a torus's vertical and horizontal scale (the
#: generator rounds heights to the millimetre).
TORUS_SCALE_TOLERANCE: Final = 0.01

#: Turns FCL's axis of revolution (z) into ours (y): a quarter turn about x.
_Z_TO_Y: Final = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])


@lru_cache(maxsize=1)
def _fcl() -> Any:
    try:
        import fcl
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            "surface distances need python-fcl: pip install 'spatialbabel[spacecast]'", name="fcl"
        ) from error
    return fcl


def _round_radius(obj: SceneObject) -> float:
    if not math.isclose(obj.size[0], obj.size[2], rel_tol=1e-9):
        raise ValueError(
            f"object {obj.id}: an exact {obj.class_name} distance needs equal x and z sizes"
        )
    return obj.size[0] / 2.0


def _convex(obj: SceneObject) -> Any:
    """The object as an FCL collision object (convex classes only)."""
    fcl = _fcl()
    rotation = obj.rotation_matrix
    sx, sy, sz = obj.size
    if obj.class_name == "cube":
        geometry = fcl.Box(sx, sy, sz)
    elif obj.class_name == "sphere":
        if math.isclose(sx, sy) and math.isclose(sx, sz):
            geometry = fcl.Sphere(sx / 2.0)
        else:
            geometry = fcl.Ellipsoid(sx / 2.0, sy / 2.0, sz / 2.0)
    elif obj.class_name in ("cylinder", "cone"):
        kind = fcl.Cylinder if obj.class_name == "cylinder" else fcl.Cone
        geometry = kind(_round_radius(obj), sy)
        rotation = rotation @ _Z_TO_Y
    elif obj.class_name == "pyramid":
        vertices = np.array(
            [
                [-0.5, -0.5, -0.5],
                [0.5, -0.5, -0.5],
                [0.5, -0.5, 0.5],
                [-0.5, -0.5, 0.5],
                [0, 0.5, 0],
            ]
        ) * np.array([sx, sy, sz])
        faces = np.array([4, 0, 1, 2, 3, 3, 3, 2, 4, 3, 2, 1, 4, 3, 1, 0, 4, 3, 0, 3, 4])
        geometry = fcl.Convex(vertices, 5, faces)
    else:
        raise ValueError(f"object {obj.id}: no exact distance for class {obj.class_name!r}")
    return fcl.CollisionObject(geometry, fcl.Transform(rotation, np.asarray(obj.position, float)))


def _gjk(a: Any, b: Any) -> float:
    fcl = _fcl()
    request = fcl.DistanceRequest(gjk_solver_type=fcl.GJKSolverType.GST_INDEP)
    return max(0.0, float(fcl.distance(a, b, request, fcl.DistanceResult())))


def _circle(obj: SceneObject) -> tuple[Array, Array, Array, float, float]:
    """Centre, two in-plane axes, major radius and tube radius of a torus."""
    scale = np.asarray(obj.size) / np.asarray(UNIT_EXTENTS["torus"])
    if not (
        math.isclose(scale[0], scale[2], rel_tol=1e-9)
        and math.isclose(scale[0], scale[1], rel_tol=TORUS_SCALE_TOLERANCE)
    ):
        raise ValueError(
            f"object {obj.id}: an exact torus distance needs an even scale (x : y : z = 4 : 1 : 4)"
        )
    rotation = obj.rotation_matrix
    # A generated torus's height is rounded to the millimetre, so its tube may be a hair
    # flatter or rounder than a circle; the thinner half-axis keeps the distance a bound
    # within that rounding (a quarter of a millimetre).
    return (
        np.asarray(obj.position, float),
        rotation[:, 0],
        rotation[:, 2],
        TORUS_MAJOR_RADIUS * float(scale[0]),
        TORUS_MINOR_RADIUS * float(min(scale[0], scale[1])),
    )


def _circle_minimum(
    points_distance: Any, centre: Array, u: Array, v: Array, radius: float
) -> float:
    """The least of ``points_distance`` over the circle, by sampling then refining."""
    from scipy.optimize import minimize_scalar

    def at(angle: float) -> float:
        point = centre + radius * (math.cos(angle) * u + math.sin(angle) * v)
        return float(points_distance(point))

    step = 2.0 * math.pi / CIRCLE_SAMPLES
    angles = np.arange(CIRCLE_SAMPLES) * step
    values = np.array([at(a) for a in angles])
    best = float(values.min())
    low = values <= np.minimum(np.roll(values, 1), np.roll(values, -1))
    for index in np.flatnonzero(low):
        if values[index] > best + 2.0 * radius * step:
            continue  # a local minimum that cannot beat the best one between samples
        found = minimize_scalar(
            at,
            bounds=(angles[index] - step, angles[index] + step),
            method="bounded",
            options={"xatol": 1e-10},
        )
        best = min(best, float(found.fun))
    return best


def _point_circle(point: Array, centre: Array, u: Array, v: Array, radius: float) -> float:
    offset = point - centre
    normal = np.cross(u, v)
    axial = float(offset @ normal)
    radial = float(np.linalg.norm(offset - axial * normal))
    return math.hypot(radial - radius, axial)


@lru_cache(maxsize=4096)
def surface_distance(a: SceneObject, b: SceneObject) -> float:
    """Shortest distance between the two objects' exact solids (0 when they touch or meet);
    cached by the objects' values (the states a question suite tries share most pairs)."""
    if a.class_name == "torus" and b.class_name == "torus":
        ca, ua, va, ra, ta = _circle(a)
        cb, ub, vb, rb, tb = _circle(b)
        gap = _circle_minimum(lambda p: _point_circle(p, cb, ub, vb, rb), ca, ua, va, ra)
        return max(0.0, gap - ta - tb)
    if b.class_name == "torus":
        a, b = b, a
    if a.class_name == "torus":
        fcl = _fcl()
        centre, u, v, radius, tube = _circle(a)
        other = _convex(b)
        probe = fcl.CollisionObject(fcl.Sphere(0.0), fcl.Transform())

        def to_other(point: Array) -> float:
            probe.setTranslation(point)
            return _gjk(probe, other)

        return max(0.0, _circle_minimum(to_other, centre, u, v, radius) - tube)
    return _gjk(_convex(a), _convex(b))


__all__ = ["CIRCLE_SAMPLES", "surface_distance"]
