"""SpatialMind's label rules, pure numpy, as the paper states them (docs/spatialmind.md).

Frames are integer indices and ``times`` their timestamps in seconds. Positions are world
points (the hub's Y-up frame); poses are ``cam_to_world`` (OpenGL: the camera looks down its
-Z). The optical frame is (right, down, forward) = (X_cam, -Y_cam, -Z_cam).

- Path length (Eq. 2): the sum of the steps between consecutive frames, not the displacement.
- Bearing ``alpha = atan2(X, Z)`` of a point in the optical frame: radians, right-positive.
- Heading ``psi``: yaw of the optical forward vector projected on the ground, radians,
  counter-clockwise about +Y (left-positive), as in the paper's future-direction rule.
- Relative motion: ``R = |dd| / max(mean d, 1e-6)``, ``L = |d alpha|``, ``T = hypot(R, L)``;
  unchanged if ``T < 0.08``; else the dominant axis (by 1.5x) decides, and its trend must
  agree over the two halves (midpoint ``floor(N / 2)``), or the candidate is excluded.
- Ego future direction: stop if the speed over the last 5 intervals is below 0.5 m/s; else
  left at ``Theta >= 12``, right at ``Theta <= -12``, straight at ``|Theta| < 6`` (degrees),
  excluded between.
- Future image relation: ``xi = (f_x X / Z + c_x) / w`` in bands 0 / 0.4 / 0.6 / 1, excluded
  behind the camera or within ``BAND_MARGIN`` of a band edge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]

#: Relative motion (paper): the "approximately unchanged" bound on T and the dominance ratio.
UNCHANGED_T: Final = 0.08
DOMINANCE: Final = 1.5
MIN_MEAN_DISTANCE: Final = 1e-6
#: Ego future direction (paper): stop speed (m/s), the intervals it is measured over, and the
#: turn (degrees) at or above which a turn is called, below which straight.
STOP_SPEED: Final = 0.5
STOP_INTERVALS: Final = 5
TURN_DEG: Final = 12.0
STRAIGHT_DEG: Final = 6.0
#: Future image relation: band edges on the horizontal image coordinate, and our margin.
BAND_EDGES: Final = (0.0, 0.4, 0.6, 1.0)
BAND_MARGIN: Final = 0.03

RELATIONS: Final = ("approaching", "rightward", "unchanged", "leftward", "receding")
DIRECTIONS: Final = ("straight", "left", "right", "stop")
BANDS: Final = ("out_left", "front_left", "ahead", "front_right", "out_right")


def optical(pose: Array, points: Array) -> Array:
    """World points (n x 3, or one point) in the camera's optical frame (right, down, forward)."""
    pose = np.asarray(pose, float)
    cam = (np.asarray(points, float) - pose[:3, 3]) @ pose[:3, :3]
    return cam * np.array([1.0, -1.0, -1.0])


def forward(pose: Array) -> Array:
    """The unit optical-forward vector in the world."""
    return -np.asarray(pose, float)[:3, 2]


def heading(pose: Array) -> float:
    """Yaw of the forward vector on the ground, radians, counter-clockwise about +Y."""
    f = forward(pose)
    return math.atan2(-float(f[0]), -float(f[2]))


def bearing(point_optical: Array) -> float:
    """``atan2(X, Z)``: radians, right-positive."""
    return math.atan2(float(point_optical[0]), float(point_optical[2]))


def path_length(points: Array) -> float:
    """``sum ||p(t+1) - p(t)||`` over consecutive rows."""
    points = np.asarray(points, float)
    return float(np.linalg.norm(np.diff(points, axis=0), axis=1).sum()) if len(points) > 1 else 0.0


def mean_speed(points: Array, times: Array) -> float:
    """Path length over elapsed time, m/s (first to last row)."""
    elapsed = float(times[-1] - times[0])
    if elapsed <= 0:
        raise ValueError("a mean speed needs t1 < t2")
    return path_length(points) / elapsed


def view_turn(pose1: Array, pose2: Array) -> float:
    """Unsigned angle (degrees) between the two optical-forward vectors, endpoints only."""
    cosine = float(np.clip(forward(pose1) @ forward(pose2), -1.0, 1.0))
    return math.degrees(math.acos(cosine))


def wrap(angle: float | Array) -> float | Array:
    """Into [-pi, pi)."""
    return (np.asarray(angle) + math.pi) % (2.0 * math.pi) - math.pi


@dataclass(frozen=True)
class RelativeMotion:
    """The relative-motion rule's numbers and its label (None: excluded, ``reason`` says why)."""

    mean_distance: float
    delta_distance: float
    delta_bearing: float  # radians
    r: float
    l: float  # noqa: E741  (the paper's name)
    t: float
    range_trend: float  # (d_m - d_0)(d_last - d_m), m^2
    bearing_trend: float  # (beta_m - beta_0)(beta_last - beta_m), deg^2
    label: str | None
    reason: str = ""


def relative_motion_rule(
    mean_distance: float,
    distances: tuple[float, float, float],
    bearings: tuple[float, float, float],
) -> RelativeMotion:
    """The rule on its inputs: the mean range, and (first, midpoint, last) ranges (m) and
    bearings (radians)."""
    d0, dm, dl = distances
    b0, bm, bl = bearings
    delta_d = dl - d0
    delta_b = bl - b0
    r = abs(delta_d) / max(mean_distance, MIN_MEAN_DISTANCE)
    l = abs(delta_b)  # noqa: E741
    t = math.hypot(r, l)
    range_trend = (dm - d0) * (dl - dm)
    bearing_trend = math.degrees(bm - b0) * math.degrees(bl - bm)

    def result(label: str | None, reason: str = "") -> RelativeMotion:
        return RelativeMotion(
            mean_distance, delta_d, delta_b, r, l, t, range_trend, bearing_trend, label, reason
        )

    if t < UNCHANGED_T:
        return result("unchanged")
    if r >= DOMINANCE * l:
        if range_trend <= 0:
            return result(None, "the range trend reverses between the halves")
        return result("receding" if delta_d > 0 else "approaching")
    if l >= DOMINANCE * r:
        if bearing_trend <= 0:
            return result(None, "the bearing trend reverses between the halves")
        return result("rightward" if delta_b > 0 else "leftward")
    return result(None, "neither the radial nor the lateral change dominates")


def relative_motion(distances: Sequence[float], bearings: Sequence[float]) -> RelativeMotion:
    """The rule over every sampled frame of a window (N >= 3): ranges (m), bearings (radians)."""
    d = np.asarray(distances, float)
    b = np.asarray(bearings, float)
    if len(d) < 3 or len(d) != len(b):
        raise ValueError("relative motion needs at least 3 frames of ranges and bearings")
    m = len(d) // 2
    return relative_motion_rule(
        float(d.mean()),
        (float(d[0]), float(d[m]), float(d[-1])),
        (float(b[0]), float(b[m]), float(b[-1])),
    )


@dataclass(frozen=True)
class FutureDirection:
    theta: float  # degrees, left-positive
    end_speed: float  # m/s over the last STOP_INTERVALS intervals
    label: str | None
    reason: str = ""


def direction_rule(theta: float, end_speed: float) -> FutureDirection:
    if end_speed < STOP_SPEED:
        return FutureDirection(theta, end_speed, "stop")
    if theta >= TURN_DEG:
        return FutureDirection(theta, end_speed, "left")
    if theta <= -TURN_DEG:
        return FutureDirection(theta, end_speed, "right")
    if abs(theta) < STRAIGHT_DEG:
        return FutureDirection(theta, end_speed, "straight")
    return FutureDirection(
        theta,
        end_speed,
        None,
        f"a turn of {theta:.1f} degrees is between the straight and turn bounds",
    )


def future_direction(headings: Sequence[float], positions: Array, times: Array) -> FutureDirection:
    """The rule over frames ``t_a .. t_f``: headings (radians) of all of them, and the
    observer's positions and timestamps of (at least) the last ``STOP_INTERVALS + 1``."""
    if len(headings) < STOP_INTERVALS + 1:
        raise ValueError(f"the future direction needs t_f - t_a >= {STOP_INTERVALS}")
    steps = wrap(np.diff(np.asarray(headings, float)))
    theta = math.degrees(float(np.sum(steps)))
    tail = slice(-(STOP_INTERVALS + 1), None)
    end_speed = mean_speed(np.asarray(positions)[tail], np.asarray(times)[tail])
    return direction_rule(theta, end_speed)


def image_x(point_optical: Array, fx: float, cx: float, width: int) -> float | None:
    """``xi = (f_x X / Z + c_x) / w``, not clipped; None behind the camera (Z <= 0)."""
    x, _, z = (float(v) for v in point_optical)
    if z <= 0:
        return None
    return (fx * x / z + cx) / width


def band(xi: float) -> str:
    """The horizontal band of ``xi`` (edges belong to the band on their right, 1 to the last
    band in view)."""
    if xi < 0.0:
        return "out_left"
    if xi < 0.4:
        return "front_left"
    if xi < 0.6:
        return "ahead"
    if xi <= 1.0:
        return "front_right"
    return "out_right"


def band_rule(xi: float | None) -> tuple[str | None, str]:
    """The band label, or None and why: behind the camera, or within the margin of an edge."""
    if xi is None:
        return None, "behind the camera"
    near = min(abs(xi - edge) for edge in BAND_EDGES)
    if near < BAND_MARGIN:
        return None, f"within {BAND_MARGIN} of a band edge (xi = {xi:.3f})"
    return band(xi), ""


__all__ = [
    "BANDS",
    "BAND_EDGES",
    "BAND_MARGIN",
    "DIRECTIONS",
    "RELATIONS",
    "FutureDirection",
    "RelativeMotion",
    "band",
    "band_rule",
    "bearing",
    "direction_rule",
    "forward",
    "future_direction",
    "heading",
    "image_x",
    "mean_speed",
    "optical",
    "path_length",
    "relative_motion",
    "relative_motion_rule",
    "view_turn",
    "wrap",
]
