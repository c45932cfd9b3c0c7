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


def depth_in(obj: SceneObject, points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Signed distance of ground points (N x 2) to the object's footprint outline, positive
    inside: exact for the turned squares of cubes and pyramids and the discs of round shapes."""
    x, _, z = obj.position
    rel = points - np.array([x, z])
    half = obj.size[0] / 2.0
    if obj.class_name in ("cube", "pyramid"):
        yaw = math.radians(obj.rotation[1])
        u = np.abs(rel @ np.array([math.cos(yaw), -math.sin(yaw)])) - half
        v = np.abs(rel @ np.array([math.sin(yaw), math.cos(yaw)])) - half
        outside = np.hypot(np.maximum(u, 0.0), np.maximum(v, 0.0))
        return np.asarray(np.where((u <= 0) & (v <= 0), -np.maximum(u, v), -outside))
    return np.asarray(half - np.hypot(rel[:, 0], rel[:, 1]))


def vertical_span(obj: SceneObject) -> tuple[float, float]:
    """Lowest and highest point of an object turned about the vertical only."""
    return obj.position[1] - obj.size[1] / 2.0, obj.position[1] + obj.size[1] / 2.0


def rests_on(obj: SceneObject, support: SceneObject, inset: float, step: float = 0.005) -> bool:
    """``obj``'s lowest point at ``support``'s highest, and every point of its footprint (on a
    grid) at least ``inset`` (less a grid step) inside the support's flat top."""
    if not math.isclose(vertical_span(obj)[0], vertical_span(support)[1], abs_tol=1e-9):
        return False
    if support.class_name not in ("cube", "cylinder"):
        return False
    lo, hi = world_aabb(obj)[0][[0, 2]], world_aabb(obj)[1][[0, 2]]
    xs, zs = np.arange(lo[0], hi[0] + step, step), np.arange(lo[1], hi[1] + step, step)
    grid = np.array(np.meshgrid(xs, zs)).reshape(2, -1).T
    mine = grid[covers(obj, grid, 0.0)]
    return bool(np.all(depth_in(support, mine) >= inset - step))


def upright(class_name: str, x: float, z: float, width: float, yaw: float = 0.0) -> SceneObject:
    """A red object on the ground, ``width`` wide and high, turned by ``yaw`` degrees."""
    return SceneObject(
        "o", class_name, (x, width / 2, z), (0.0, yaw, 0.0), (width, width, width), color="red"
    )
