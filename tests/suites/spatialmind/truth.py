"""SpatialMind's answers recomputed from a clip with code of the tests' own: the hub camera's
projection for ranges, bearings and image positions, and the paper's rules written again."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbabel.clip import Clip
from suites.base import Item


def _camera(clip: Clip, t: int) -> Any:
    return clip.scene(t).cameras[0]


def _point(clip: Clip, t: int, i: int) -> NDArray[np.float64]:
    return np.array(clip.frames[t].positions[i])


def _eye(clip: Clip, t: int) -> NDArray[np.float64]:
    return np.array(_camera(clip, t).position)


def distance(clip: Clip, t: int, i: int) -> float:
    return float(np.linalg.norm(_point(clip, t, i) - _eye(clip, t)))


def _bearing(clip: Clip, t: int, i: int) -> float:
    x, _, z = _camera(clip, t).world_to_camera(_point(clip, t, i)[None])[0]
    return math.atan2(x, -z)


def _walk(points: list[NDArray[np.float64]]) -> float:
    return sum(float(np.linalg.norm(b - a)) for a, b in itertools.pairwise(points))


def _heading(clip: Clip, t: int) -> float:
    forward = -np.array(clip.frames[t].cam_to_world)[:3, 2]
    return math.atan2(-forward[0], -forward[2])


def distance_walked(clip: Clip, t1: int, t2: int) -> float:
    """The observer's path length from frame t1 to t2."""
    return _walk([_eye(clip, t) for t in range(t1, t2 + 1)])


def heading_change(clip: Clip, t1: int, t2: int) -> float:
    """Degrees the observer's heading turns from t1 to t2, frame by frame, left-positive."""
    total = 0.0
    for t in range(t1, t2):
        step = _heading(clip, t + 1) - _heading(clip, t)
        total += (step + math.pi) % (2 * math.pi) - math.pi
    return math.degrees(total)


def answer(item: Item, clip: Clip) -> Any:
    """The item's answer (a number, or an option key) from the clip alone."""
    f = item.facts
    fps = clip.fps
    if item.task == "distance_now":
        t = clip.observed - 1
        if item.group["kind"] == "pair":
            a, b = f["objects"]
            return float(np.linalg.norm(_point(clip, t, a) - _point(clip, t, b)))
        return distance(clip, t, f["object"])
    if item.task == "motion_state":
        t1, t2 = f["t1"], f["t2"]
        kind = item.group["kind"]
        if kind == "view_turn":
            a = -np.array(clip.frames[t1].cam_to_world)[:3, 2]
            b = -np.array(clip.frames[t2].cam_to_world)[:3, 2]
            return math.degrees(math.acos(max(-1.0, min(1.0, float(a @ b)))))
        track = (
            [_eye(clip, t) for t in range(t1, t2 + 1)]
            if kind == "ego_speed"
            else [_point(clip, t, f["object"]) for t in range(t1, t2 + 1)]
        )
        return _walk(track) / ((t2 - t1) / fps)
    if item.task == "ego_path":
        return _walk([_eye(clip, t) for t in range(f["t1"], f["t2"] + 1)])
    if item.task == "target_path":
        return _walk([_point(clip, t, f["object"]) for t in range(f["t1"], f["t2"] + 1)])
    if item.task == "relative_motion":
        frames = range(f["t1"], f["t2"] + 1)
        d = [distance(clip, t, f["object"]) for t in frames]
        b = [_bearing(clip, t, f["object"]) for t in frames]
        m = len(d) // 2
        r = abs(d[-1] - d[0]) / max(sum(d) / len(d), 1e-6)
        lat = abs(b[-1] - b[0])
        if math.hypot(r, lat) < 0.08:
            return "unchanged"
        if r >= 1.5 * lat:
            assert (d[m] - d[0]) * (d[-1] - d[m]) > 0
            return "receding" if d[-1] > d[0] else "approaching"
        assert lat >= 1.5 * r and (b[m] - b[0]) * (b[-1] - b[m]) > 0
        return "rightward" if b[-1] > b[0] else "leftward"
    if item.task == "ego_future":
        t_a, t_f = f["t_a"], f["t_f"]
        theta = 0.0
        for t in range(t_a, t_f):
            step = _heading(clip, t + 1) - _heading(clip, t)
            theta += (step + math.pi) % (2 * math.pi) - math.pi
        theta = math.degrees(theta)
        speed = _walk([_eye(clip, t) for t in range(t_f - 5, t_f + 1)]) / (5 / fps)
        if speed < 0.5:
            return "stop"
        if theta >= 12:
            return "left"
        if theta <= -12:
            return "right"
        assert abs(theta) < 6
        return "straight"
    if item.task == "future_distance":
        return distance(clip, f["t_f"], f["object"])
    if item.task == "future_relation":
        camera = _camera(clip, f["t_f"])
        uv, depth = camera.project(_point(clip, f["t_f"], f["object"])[None])
        assert depth[0] > 0
        xi = float(uv[0, 0]) / camera.width
        assert min(abs(xi - e) for e in (0.0, 0.4, 0.6, 1.0)) >= 0.03
        if xi < 0:
            return "out_left"
        return (
            "front_left"
            if xi < 0.4
            else "ahead"
            if xi < 0.6
            else "front_right"
            if xi <= 1
            else "out_right"
        )
    raise AssertionError(f"unknown task {item.task}")


def frames_asked(item: Item, clip: Clip) -> list[int]:
    """The observed frames in which the item's target(s) must be seen."""
    f = item.facts
    if item.task in ("distance_now",):
        return [clip.observed - 1]
    if item.task in ("future_distance", "future_relation"):
        return [clip.observed - 1]
    if item.task in ("target_path", "relative_motion") or (
        item.task == "motion_state" and item.group.get("kind") == "target_speed"
    ):
        return list(range(f["t1"], f["t2"] + 1))
    return []


def targets(item: Item) -> list[int]:
    f = item.facts
    if "objects" in f:
        return list(f["objects"])
    return [f["object"]] if "object" in f else []
