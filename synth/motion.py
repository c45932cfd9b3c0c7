"""Moving scenes, pure numpy: where the observer (a moving camera) and every primitive are at
every frame of a clip.

Motion is kinematic: each mover has a speed profile and a yaw-rate profile (piecewise constant,
changed with smoothstep ramps, so positions, headings and speeds are continuous and smooth),
integrated with the trapezoid rule on a grid of ``SUBSTEPS`` steps per frame. The frames are
grid points, so the positions written to the clip are the ones integrated, not re-sampled.

- The observer starts at the origin with a random heading, cruises at 0.7-8 m/s (log-uniform;
  often changed once or twice) with up to two turns (and sometimes a pause) while it is watched,
  and 1-2.5 s before the last observed frame begins its future manoeuvre, drawn at random:
  straight on (a turn eases), a left or right turn, or a stop, each building up over its
  ramp, so the frames show it begin.
- Each object is ``static``, goes ``straight`` (constant velocity), ``curved`` (constant speed
  and yaw rate), ``stop_and_go`` (a stop and a restart) or is a ``leader``: it drives the
  observer's own path some seconds ahead (``p(t) = p_ego(t + lag(t))``), like a car ahead in
  the same lane, keeping its lag or pulling away (the lag grows by 0.2-0.6 s a second). A
  third of the ``straight`` movers head the observer's way (within 25 degrees). The others
  are placed in front of the observer at a random observed frame, so they are in view for
  part of the clip.
- Nothing collides along the way: the bounding circles of two objects' footprints keep
  ``OBJECT_GAP`` apart and the camera keeps ``EGO_CLEARANCE`` from every footprint, at every
  grid step of the clip, future included; every footprint stays on the ground.

Headings follow the state-chain convention: radians, counter-clockwise about +Y (seen from
above), 0 when moving along -Z, so left turns are positive; the direction of heading ``psi`` is
``(-sin psi, 0, -cos psi)`` in the hub's Y-up frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbabel import CLASSES, PALETTE_NAMES, Camera
from spatialbabel.errors import SpatialBabelError
from synth.layout import HEIGHT_RATIOS, TURNING_CLASSES

Array = NDArray[np.float64]

SUBSTEPS = 8
EYE_HEIGHT = 1.6
PITCH_DEG = -12.0
FOV_Y_DEG = 50.0
#: Half the side of the square ground, in metres; wide enough for 12 s at the fastest cruise.
GROUND_HALF = 100.0
#: Side of the ground's checker tiles, in metres (a motion cue and a scale cue).
TILE = 2.0
OBJECT_GAP = 0.2
EDGE_GAP = 0.1
EGO_CLEARANCE = 0.8
MANOEUVRES = ("straight", "left", "right", "stop")
#: Chance of each manoeuvre: straight on the least, since a stop that has not ended yet and a
#: turn that eases are answered "go straight" as well.
MANOEUVRE_WEIGHTS = (0.16, 0.28, 0.28, 0.28)
#: The manoeuvre begins this long (s) before the last observed frame: at least a second of the
#: frames shows it begin (SpatialMind's ego-future items ask about it, docs/spatialmind.md).
MANOEUVRE_LEAD = (1.0, 2.0)
#: The share of its smoothstep ramp a manoeuvre has passed at the last observed frame: at
#: least 0.3, so a fifth of the change is done (a turn of 5 degrees/s or more, a speed down by
#: a fifth) and the frames show where it goes. A turn is still building up (it keeps turning
#: harder after the frames end); easing a turn or stopping may be over.
TURN_PROGRESS = (0.3, 0.45)
SETTLE_PROGRESS = (0.3, 1.2)
STOP_PROGRESS = (0.3, 0.9)
#: The rate a turn builds up to, degrees/s.
TURN_RATE_DEG = (20.0, 40.0)
#: Share of observers going straight on that are in a turn when the manoeuvre begins (it eases).
TURNING_SHARE = 2 / 3
#: The observer's speed in a turn, as a share of its cruise.
TURN_SPEED = 0.8
#: Share of observers that change their cruise once or twice while watched (of those that do
#: not pause): a speed question's answer then depends on the interval, not only on the clip.
SPEED_CHANGE_SHARE = 0.6
#: Share of observers (watched 5 s or more before their manoeuvre) that pause for 1-2 s.
PAUSE_SHARE = 0.3
MOTIONS = ("static", "straight", "curved", "stop_and_go", "leader")
#: Chance of each motion kind (a leader is not drawn when the observer stops).
MOTION_WEIGHTS = (0.2, 0.25, 0.15, 0.15, 0.25)
OBJECT_WIDTH = (0.5, 1.2)
#: Speeds (m/s), drawn log-uniformly: a slow walk to a bicycle for the observer, a stroll to a
#: run for the objects. Wide on a log scale, so no typical speed answers a speed question.
OBJECT_SPEED = (0.3, 3.0)
EGO_CRUISE = (0.7, 8.0)
#: Objects are placed this far (m) and this far off the view axis (degrees) at their anchor frame.
ANCHOR_DISTANCE = (3.5, 14.0)
ANCHOR_BEARING_DEG = 20.0
LEADER_LAG = (2.0, 4.5)
#: Seconds of lag a pulling-away leader gains per second (0.2-0.6).
LEADER_PULL = (0.2, 0.6)
#: Share of straight movers heading the observer's way, and by how much they may differ.
ALONG_SHARE = 1 / 3
ALONG_DEG = 25.0
#: Motions drawn for one object (the first half of its planned kind) before the clip is redrawn.
PLACEMENT_TRIES = 100
POSITION_DECIMALS = 4
YAW_DECIMALS = 2
POSE_DECIMALS = 9


class MotionError(SpatialBabelError):
    """No motion met the rules within the bounded number of tries."""


def smoothstep(x: Array) -> Array:
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3.0 - 2.0 * x)


def profile(times: Array, start: float, changes: Sequence[tuple[float, float, float]]) -> Array:
    """A value that starts at ``start`` and moves to each ``(time, value, ramp)`` change in turn,
    over ``ramp`` seconds along a smoothstep."""
    values = np.full(times.shape, float(start))
    previous = float(start)
    for at, value, ramp in changes:
        values += (value - previous) * smoothstep((times - at) / ramp)
        previous = value
    return values


def integrate(
    times: Array, speed: Array, yaw_rate: Array, heading0: float, start: tuple[float, float]
) -> tuple[Array, Array]:
    """Ground positions (n x 2, x and z) and headings (n) of a mover with these profiles."""
    dt = np.diff(times)
    heading = heading0 + np.concatenate([[0.0], np.cumsum((yaw_rate[1:] + yaw_rate[:-1]) / 2 * dt)])
    vx, vz = -speed * np.sin(heading), -speed * np.cos(heading)
    x = start[0] + np.concatenate([[0.0], np.cumsum((vx[1:] + vx[:-1]) / 2 * dt)])
    z = start[1] + np.concatenate([[0.0], np.cumsum((vz[1:] + vz[:-1]) / 2 * dt)])
    return np.column_stack([x, z]), heading


def direction(heading: float | Array) -> Array:
    """Unit ground direction (x, z) of a heading."""
    return np.stack([-np.sin(heading), -np.cos(heading)], axis=-1)


def camera_pose(x: float, z: float, heading: float) -> NDArray[np.float64]:
    """``cam_to_world`` of the observer at ground point (x, z) facing ``heading``: eye height
    ``EYE_HEIGHT``, pitched down by ``-PITCH_DEG``, no roll."""
    c, s = math.cos(heading), math.sin(heading)
    yaw = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    p = math.radians(PITCH_DEG)
    pitch = np.array(
        [[1.0, 0.0, 0.0], [0.0, math.cos(p), -math.sin(p)], [0.0, math.sin(p), math.cos(p)]]
    )
    pose = np.eye(4)
    pose[:3, :3] = yaw @ pitch
    pose[:3, 3] = (x, EYE_HEIGHT, z)
    return np.round(pose, POSE_DECIMALS) + 0.0


@dataclass(frozen=True)
class ObjectPlan:
    """One object: what it is and its motion on the grid."""

    class_name: str
    color: str
    size: tuple[float, float, float]
    motion: str
    ground: Array  # n x 2
    heading: Array  # n

    @property
    def radius(self) -> float:
        """Radius of the footprint's bounding circle (any yaw)."""
        half = self.size[0] / 2.0
        return half * math.sqrt(2.0) if self.class_name in TURNING_CLASSES else half

    def yaws_deg(self, steps: Array) -> Array:
        """Yaw (degrees about +Y) at the given grid steps: the heading for the classes whose
        look changes with a turn, 0 for the round ones."""
        if self.class_name not in TURNING_CLASSES:
            return np.zeros(len(steps))
        yaw = np.degrees(self.heading[steps.astype(int)])
        return (yaw + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class MotionPlan:
    """A clip's motion: the grid, the observer and the objects, and the frame counts."""

    fps: float
    observed: int
    horizon: int
    manoeuvre: str
    onset: float  # s: when the manoeuvre begins, before the last observed frame
    times: Array
    ego: Array  # n x 2
    ego_heading: Array
    ego_speed: Array
    objects: tuple[ObjectPlan, ...]

    @property
    def frames(self) -> int:
        return self.observed + self.horizon

    def frame_steps(self) -> NDArray[np.intp]:
        return np.arange(self.frames) * SUBSTEPS


def _grid(fps: float, frames: int, extra_seconds: float = 0.0) -> Array:
    steps = (frames - 1) * SUBSTEPS + math.ceil(extra_seconds * fps) * SUBSTEPS
    return np.arange(steps + 1) / (fps * SUBSTEPS)


def _signed(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.choice([-1.0, 1.0]) * rng.uniform(lo, hi))


@dataclass(frozen=True)
class EgoProfiles:
    """The observer's speed (m/s) and yaw rate (rad/s) on the grid, whether it pauses, and
    when (s) its future manoeuvre begins."""

    speed: Array
    yaw_rate: Array
    paused: bool
    onset: float


def _log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _ramp(rng: np.random.Generator, progress: tuple[float, float], lead: float) -> float:
    """A manoeuvre's ramp (s): ``lead`` seconds after it began, at the last observed frame, it
    has passed a share of it drawn from ``progress`` (beyond 1: it is over)."""
    return lead / float(rng.uniform(*progress))


def ego_profiles(
    rng: np.random.Generator, times: Array, observed_end: float, manoeuvre: str, end: float
) -> EgoProfiles:
    """The observer's profiles: a cruise (perhaps changed once, perhaps with a pause) and up to
    two turns while it is watched, then the manoeuvre, which begins ``MANOEUVRE_LEAD`` before
    the last observed frame (``observed_end``, s) and builds up over its ramp, so the frames
    show it begin and it may still be building up when they end; a stop is over by ``end``."""
    onset = observed_end - float(rng.uniform(*MANOEUVRE_LEAD))
    first = cruise = _log_uniform(rng, *EGO_CRUISE)
    yaw_changes: list[tuple[float, float, float]] = []
    yaw0 = 0.0 if rng.random() < 0.5 else math.radians(_signed(rng, 5.0, 20.0))
    if onset - 1.0 > 0.8:
        for at in sorted(rng.uniform(0.8, onset - 1.0, size=int(rng.integers(1, 3)))):
            rate = 0.0 if rng.random() < 0.4 else math.radians(_signed(rng, 8.0, 30.0))
            yaw_changes.append((float(at), rate, 0.6))
    speed_changes: list[tuple[float, float, float]] = []
    paused = onset >= 5.0 and manoeuvre != "stop" and rng.random() < PAUSE_SHARE
    if paused:
        at = float(rng.uniform(0.5, onset - 4.5))
        hold = float(rng.uniform(1.0, 2.0))
        speed_changes += [(at, 0.0, 1.0), (at + 1.0 + hold, cruise, 1.0)]
    elif onset - 1.5 > 0.8 and rng.random() < SPEED_CHANGE_SHARE:
        for at in sorted(rng.uniform(0.8, onset - 1.5, size=int(rng.integers(1, 3)))):
            cruise = _log_uniform(rng, *EGO_CRUISE)
            speed_changes.append((float(at), cruise, 1.0))
    # Each manoeuvre starts from a state that does not hint at another: a turn from going
    # straight; straight on, from a turn that then eases (or from going straight); a stop
    # from anything, its turn easing as it slows.
    if manoeuvre in ("left", "right"):
        yaw_changes.append((onset - 1.0, 0.0, 0.6))
    elif manoeuvre == "straight" and rng.random() < TURNING_SHARE:
        yaw_changes.append((onset - 1.0, math.radians(_signed(rng, 15.0, 35.0)), 0.6))
    lead = observed_end - onset
    if manoeuvre == "straight":
        yaw_changes.append((onset, 0.0, _ramp(rng, SETTLE_PROGRESS, lead)))
    elif manoeuvre in ("left", "right"):
        rate = math.radians(float(rng.uniform(*TURN_RATE_DEG)))
        ramp = _ramp(rng, TURN_PROGRESS, lead)
        yaw_changes.append((onset, rate if manoeuvre == "left" else -rate, ramp))
        speed_changes.append((onset, TURN_SPEED * cruise, ramp))
    elif manoeuvre == "stop":
        yaw_changes.append((onset, 0.0, _ramp(rng, SETTLE_PROGRESS, lead)))
        speed_changes.append((onset, 0.0, _ramp(rng, STOP_PROGRESS, lead)))
    else:
        raise ValueError(f"unknown manoeuvre {manoeuvre!r}; known: {', '.join(MANOEUVRES)}")
    speed = profile(times, first, speed_changes)
    yaw_rate = profile(times, yaw0, yaw_changes)
    return EgoProfiles(np.maximum(speed, 0.0), yaw_rate, paused, onset)


def _spec(
    rng: np.random.Generator, used: set[tuple[str, str]]
) -> tuple[str, str, tuple[float, float, float]]:
    pairs = [(c, k) for c in CLASSES for k in PALETTE_NAMES if (c, k) not in used]
    class_name, color = pairs[int(rng.integers(len(pairs)))]
    width = round(float(rng.uniform(*OBJECT_WIDTH)), 3)
    height = round(width * float(rng.uniform(*HEIGHT_RATIOS[class_name])), 3)
    return class_name, color, (width, height, width)


def _object_motion(
    rng: np.random.Generator,
    kind: str,
    times: Array,
    fps: float,
    frames: int,
    plan_ego: tuple[Array, Array],
    anchor_step: int,
) -> tuple[Array, Array]:
    """Ground positions and headings of one object over the clip's frames (on the grid);
    ``plan_ego`` is the observer's, over the grid extended past the clip for leaders."""
    ego, ego_heading = plan_ego
    n = (frames - 1) * SUBSTEPS + 1
    grid = times[:n]
    if kind == "leader":
        pull = 0.0 if rng.random() < 1 / 3 else float(rng.uniform(*LEADER_PULL))
        ahead = grid + float(rng.uniform(*LEADER_LAG)) + pull * grid
        ground = np.column_stack([np.interp(ahead, times, ego[:, k]) for k in (0, 1)])
        return ground, np.interp(ahead, times, np.unwrap(ego_heading))
    heading0 = float(rng.uniform(-math.pi, math.pi))
    if kind == "straight" and rng.random() < ALONG_SHARE:
        heading0 = float(ego_heading[anchor_step]) + math.radians(
            float(rng.uniform(-ALONG_DEG, ALONG_DEG))
        )
    speed = np.zeros(n)
    yaw_rate = np.zeros(n)
    if kind != "static":
        cruise = _log_uniform(rng, *OBJECT_SPEED)
        speed = np.full(n, cruise)
        if kind == "curved":
            yaw_rate = np.full(n, math.radians(_signed(rng, 8.0, 25.0)))
        elif kind == "stop_and_go":
            end = float(grid[-1])
            at = float(rng.uniform(0.3, max(end - 2.8, 0.4)))
            hold = float(rng.uniform(1.0, 2.5))
            speed = profile(grid, cruise, [(at, 0.0, 0.8), (at + 0.8 + hold, cruise, 0.8)])
    ground, heading = integrate(grid, speed, yaw_rate, heading0, (0.0, 0.0))
    distance = float(rng.uniform(*ANCHOR_DISTANCE))
    bearing = math.radians(float(rng.uniform(-ANCHOR_BEARING_DEG, ANCHOR_BEARING_DEG)))
    anchor = ego[anchor_step] + distance * direction(float(ego_heading[anchor_step]) + bearing)
    return ground + (anchor - ground[anchor_step]), heading


def _clear(
    candidate: ObjectPlan, placed: Sequence[ObjectPlan], ego: Array, radius_limit: float
) -> bool:
    ground = candidate.ground
    r = candidate.radius
    if np.any(np.abs(ground) > radius_limit - r):
        return False
    if np.min(np.linalg.norm(ground - ego, axis=1)) < r + EGO_CLEARANCE:
        return False
    return all(
        np.min(np.linalg.norm(ground - other.ground, axis=1)) >= r + other.radius + OBJECT_GAP
        for other in placed
    )


def in_view(camera: Camera, points: Array) -> NDArray[np.bool_]:
    """Whether each point projects inside the image, in front of the camera."""
    uv, depth = camera.project(points)
    return (
        (depth > 0.5)
        & (uv[:, 0] >= 0)
        & (uv[:, 0] <= camera.width)
        & (uv[:, 1] >= 0)
        & (uv[:, 1] <= camera.height)
    )


def sample_motion(
    rng: np.random.Generator,
    *,
    fps: float,
    observed: int,
    horizon: int,
    object_count: int,
    manoeuvre: str,
    resolution: int,
    tries: int = 50,
) -> tuple[MotionPlan, int]:
    """A clip's motion meeting every rule, and the number of whole motions drawn."""
    frames = observed + horizon
    end = (frames - 1) / fps
    times = _grid(fps, frames, extra_seconds=LEADER_LAG[1] + LEADER_PULL[1] * end + 0.5)
    n = (frames - 1) * SUBSTEPS + 1
    observed_end = (observed - 1) / fps
    edge = GROUND_HALF - EDGE_GAP
    for attempt in range(1, tries + 1):
        ego_plan = ego_profiles(rng, times, observed_end, manoeuvre, end)
        speed, paused = ego_plan.speed, ego_plan.paused
        heading0 = float(rng.uniform(-math.pi, math.pi))
        ego_all, heading_all = integrate(times, speed, ego_plan.yaw_rate, heading0, (0.0, 0.0))
        ego, ego_heading = ego_all[:n], heading_all[:n]
        if np.any(np.abs(ego) > edge - 2.0):
            continue
        kinds = list(MOTIONS)
        weights = np.array(MOTION_WEIGHTS)
        if manoeuvre == "stop" or paused:
            weights[kinds.index("leader")] = 0.0
        weights = weights / weights.sum()
        # Leaders go first: they drive the observer's path, where the others would block them.
        planned = sorted(
            (kinds[int(k)] for k in rng.choice(len(kinds), size=object_count, p=weights)),
            key=lambda kind: kind != "leader",
        )
        placed: list[ObjectPlan] = []
        used: set[tuple[str, str]] = set()
        for wanted in planned:
            for draw in range(PLACEMENT_TRIES):
                kind = (
                    wanted
                    if draw < PLACEMENT_TRIES // 2
                    else kinds[int(rng.choice(len(kinds), p=weights))]
                )
                class_name, color, size = _spec(rng, used)
                anchor = int(rng.integers(observed)) * SUBSTEPS
                ground, heading = _object_motion(
                    rng, kind, times, fps, frames, (ego_all, heading_all), anchor
                )
                candidate = ObjectPlan(class_name, color, size, kind, ground, heading)
                if _clear(candidate, placed, ego, edge):
                    placed.append(candidate)
                    used.add((class_name, color))
                    break
            else:
                break
        if len(placed) < object_count:
            continue
        placed = [placed[int(k)] for k in rng.permutation(len(placed))]
        plan = MotionPlan(
            fps,
            observed,
            horizon,
            manoeuvre,
            ego_plan.onset,
            times[:n],
            ego,
            ego_heading,
            speed[:n],
            tuple(placed),
        )
        # At least two objects in view at the last observed frame: the future questions need
        # a target seen now.
        last = observed - 1
        camera = observer_camera(plan, last, resolution)
        if int(in_view(camera, object_centres(plan, last)).sum()) >= 2:
            return plan, attempt
    raise MotionError(f"no motion met the rules in {tries} tries")


def object_centres(plan: MotionPlan, frame: int) -> Array:
    """Centres (objects x 3) at a frame: on the ground point, half the height up."""
    step = frame * SUBSTEPS
    return np.array([(o.ground[step][0], o.size[1] / 2.0, o.ground[step][1]) for o in plan.objects])


def camera_at(pose: NDArray[np.float64], resolution: int) -> Camera:
    """The observer's camera with this ``cam_to_world``: square frames, ``FOV_Y_DEG``."""
    return Camera(
        "observer", resolution, resolution, FOV_Y_DEG, tuple(tuple(r) for r in pose.tolist())
    )


def observer_camera(plan: MotionPlan, frame: int, resolution: int) -> Camera:
    step = frame * SUBSTEPS
    x, z = (float(v) for v in plan.ego[step])
    return camera_at(camera_pose(x, z, float(plan.ego_heading[step])), resolution)


__all__ = [
    "EYE_HEIGHT",
    "FOV_Y_DEG",
    "GROUND_HALF",
    "MANOEUVRES",
    "MANOEUVRE_WEIGHTS",
    "MOTIONS",
    "SUBSTEPS",
    "TILE",
    "MotionError",
    "MotionPlan",
    "ObjectPlan",
    "camera_at",
    "camera_pose",
    "direction",
    "ego_profiles",
    "in_view",
    "integrate",
    "object_centres",
    "observer_camera",
    "profile",
    "sample_motion",
    "smoothstep",
]
