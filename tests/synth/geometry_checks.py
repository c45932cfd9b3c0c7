"""Independent checks of the layout contracts, written from the shapes' definitions (not with
``synth.footprints``), shared by the pure layout tests and the generated-split tests."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Ground, SceneObject, world_aabb


def on_ground(obj: SceneObject, ground: Ground) -> bool:
    return math.isclose(float(world_aabb(obj)[0][1]), ground.height, abs_tol=1e-9)


def inside(obj: SceneObject, ground: Ground) -> bool:
    lo, hi = world_aabb(obj)
    return bool(
        ground.x_range[0] - 1e-9 <= lo[0]
        and hi[0] <= ground.x_range[1] + 1e-9
        and ground.z_range[0] - 1e-9 <= lo[2]
        and hi[2] <= ground.z_range[1] + 1e-9
    )


def yaw_only(obj: SceneObject) -> bool:
    return obj.rotation[0] == 0.0 and obj.rotation[2] == 0.0


def covers(obj: SceneObject, points: NDArray[np.float64], grow: float) -> NDArray[np.bool_]:
    """Which ground points (N x 2, x and z) lie on the object's footprint grown by ``grow``."""
    x, _, z = obj.position
    rel = points - np.array([x, z])
    half = obj.size[0] / 2.0
    if obj.class_name in ("cube", "pyramid"):
        # Local axes of a yaw about +Y: x -> (cos, -sin), z -> (sin, cos) in (x, z).
        yaw = math.radians(obj.rotation[1])
        u = rel @ np.array([math.cos(yaw), -math.sin(yaw)])
        v = rel @ np.array([math.sin(yaw), math.cos(yaw)])
        du = np.maximum(np.abs(u) - half, 0.0)
        dv = np.maximum(np.abs(v) - half, 0.0)
        return np.asarray(np.hypot(du, dv) <= grow)
    return np.asarray(np.hypot(rel[:, 0], rel[:, 1]) <= half + grow)


def footprints_apart(a: SceneObject, b: SceneObject, gap: float, step: float = 0.005) -> bool:
    """No ground point within ``gap / 2`` (less a grid step) of both footprints."""
    grow = max(gap / 2.0 - step, 0.0)
    lo = np.maximum(world_aabb(a)[0][[0, 2]], world_aabb(b)[0][[0, 2]]) - grow
    hi = np.minimum(world_aabb(a)[1][[0, 2]], world_aabb(b)[1][[0, 2]]) + grow
    if np.any(lo > hi):
        return True
    xs = np.arange(lo[0], hi[0] + step, step)
    zs = np.arange(lo[1], hi[1] + step, step)
    grid = np.array(np.meshgrid(xs, zs)).reshape(2, -1).T
    return not bool(np.any(covers(a, grid, grow) & covers(b, grid, grow)))
