"""SpatialMind's eight tasks over one clip's ground truth: the candidates of each task, with
their label, question, facts, state chain and persistence answer.

Every candidate is a program over the clip (``spatialbabel.clip.Clip``): the quantities come
from the exact poses, the labels from ``suites.spatialmind.labels``. A target must show at
least ``min_pixels`` pixels (its ID-pass count) in every observed frame the question is about;
future frames are never rendered and need no visibility. ``tests/suites/spatialmind`` recompute
every label with code of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.clip import Clip
from suites.numeric import mra
from suites.spatialmind import labels as rules
from synth.motion import MANOEUVRE_LEAD

Array = NDArray[np.float64]

#: Task name -> level, in table order (the paper's Table 3).
TASKS: Final = {
    "distance_now": "L1",
    "motion_state": "L1",
    "ego_path": "L2",
    "target_path": "L2",
    "relative_motion": "L2",
    "ego_future": "L3",
    "future_distance": "L3",
    "future_relation": "L3",
}
#: The state chain's sections before ANSWER, by level.
SECTIONS: Final = {
    "L1": ("GROUND", "CURRENT"),
    "L2": ("GROUND", "CURRENT", "DYNAMICS"),
    "L3": ("GROUND", "CURRENT", "DYNAMICS", "FUTURE"),
}
#: Multiple-choice option texts in the order the letters name them (A, B, ...): the paper's
#: order for relative motion (receding = E), ours for the other two.
OPTIONS: Final = {
    "relative_motion": {
        "approaching": "approaching (getting closer)",
        "rightward": "moving rightward",
        "unchanged": "approximately unchanged",
        "leftward": "moving leftward",
        "receding": "receding (getting farther)",
    },
    "ego_future": {
        "straight": "go straight",
        "left": "turn left",
        "right": "turn right",
        "stop": "come to a stop",
    },
    "future_relation": {
        "out_left": "out of view, to the left",
        "front_left": "front left",
        "ahead": "straight ahead",
        "front_right": "front right",
        "out_right": "out of view, to the right",
    },
}
#: The tasks on which copying the present forward is a shortcut (the future ones, and relative
#: motion's "approximately unchanged"); on the others persistence is only a baseline, since its
#: answer (a speed read off one step, the distance at frame 0) takes the skill the task asks.
PERSISTENCE_TASKS: Final = ("relative_motion", "ego_future", "future_distance", "future_relation")
#: Tasks whose answer is a rate times the interval the question prints, or (a speed) the rate.
RATE_TASKS: Final = ("motion_state", "ego_path", "target_path")
#: Shortest interval of the interval questions, in frames (1 s at 5 fps), and the relative-
#: motion window (the paper's 16 frames).
MIN_INTERVAL: Final = 5
#: Longest interval (4 s): the printed span varies by at most four times, so the answer of a
#: path question is not mostly the span times a typical speed.
MAX_INTERVAL: Final = 20
WINDOW: Final = 16
#: The future direction needs t_f - t_a >= 5 (the stop rule's intervals).
MIN_FUTURE: Final = rules.STOP_INTERVALS
#: The observer's manoeuvre must have begun this long (s) before the last observed frame for
#: its future to be asked: the frames show it begin (the clips' generator keeps to it).
MIN_MANOEUVRE_LEAD: Final = MANOEUVRE_LEAD[0]
#: Smallest references of the numeric tasks: at these the serialized answer (0.1 m, 0.01 m/s,
#: 1 degree) stays within 5 % of the raw one, so the oracle scores 1 on every threshold.
MIN_DISTANCE: Final = 1.0
MIN_SPEED: Final = 0.2
MIN_TURN: Final = 10.0
#: How each numeric answer is written (the paper's examples: 8.589 -> 8.6, 1.3218 -> 1.32).
DECIMALS: Final = {"m": 1, "m/s": 2, "deg": 0}
UNIT_WORDS: Final = {"m": "metres", "m/s": "metres per second", "deg": "degrees"}


def serialize(value: float, unit: str) -> str:
    return f"{value:.{DECIMALS[unit]}f}"


@dataclass
class Candidate:
    """One possible item of a task: what it asks, its answer and everything behind it."""

    task: str
    key: str
    question: str
    label: str | None = None  # multiple choice: the right option's key
    value: float | None = None  # numeric: the raw reference
    unit: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    sections: dict[str, str] = field(default_factory=dict)
    persistence: str = ""  # the persistence baseline's answer (a number, or an option key)
    kind: str = ""
    #: Answers of the shortcuts computed from the ground truth (``suites.spatialmind.shortcuts``),
    #: by name: numbers, or option keys.
    shortcuts: dict[str, str] = field(default_factory=dict)
    _scores: dict[str, float] | None = field(default=None, repr=False, compare=False)

    @property
    def level(self) -> str:
        return TASKS[self.task]

    @property
    def rate(self) -> float:
        """A numeric answer per second of the printed span (``facts["span"]``), or the answer
        itself for speeds, distances and the tasks without a span."""
        assert self.value is not None
        return self.value / scale(self.task, self.unit or "", self.facts.get("span"))

    def shortcut_scores(self) -> dict[str, float]:
        """What each shortcut known from the ground truth (persistence where it is one, and
        ``shortcuts``) scores on this candidate: 1 or 0, or a number's MRA."""
        if self._scores is None:
            self._scores = self._shortcut_scores()
        return dict(self._scores)

    def _shortcut_scores(self) -> dict[str, float]:
        answers = dict(self.shortcuts)
        if self.task in PERSISTENCE_TASKS:
            answers["persistence"] = self.persistence
        if self.label is not None:
            return {name: float(answer == self.label) for name, answer in answers.items()}
        assert self.value is not None
        return {name: mra(float(answer), self.value) for name, answer in answers.items()}


def scale(task: str, unit: str, span: float | None) -> float:
    """What a rate is multiplied by to give a numeric answer: the printed span (s) for path
    lengths and view turns, 1 for speeds and for tasks without a span."""
    if task in RATE_TASKS and unit != "m/s" and span is not None:
        return float(span)
    return 1.0


def _s(seconds: float) -> str:
    return f"{seconds:.1f} s"


def _side(degrees: float) -> str:
    if abs(degrees) < 0.5:
        return "straight ahead"
    return f"{abs(degrees):.0f}° {'right' if degrees > 0 else 'left'} of the view axis"


_TENSES: Final = {
    "present": ("turns", "does not turn"),
    "past": ("turned", "did not turn"),
    "future": ("will turn", "will not turn"),
}


def _turns(degrees: float, tense: str) -> str:
    """A verb phrase: "turned 12° to the left", or "did not turn" under half a degree."""
    verb, still = _TENSES[tense]
    if abs(degrees) < 0.5:
        return still
    return f"{verb} {abs(degrees):.0f}° to the {'left' if degrees > 0 else 'right'}"


class ClipFacts:
    """Quantities of one clip, frame by frame, from its ground truth."""

    def __init__(self, clip: Clip, min_pixels: int) -> None:
        self.clip = clip
        self.min_pixels = min_pixels
        self.times = clip.times()
        self.positions = clip.positions()
        self.poses = clip.camera_poses()
        self.ego = self.poses[:, :3, 3]
        self.visible = clip.visible_pixels()
        k = clip.camera.intrinsics
        self.fx, self.cx, self.width = float(k[0, 0]), float(k[0, 2]), clip.camera.width
        self.t_o = clip.last_observed
        self.fps = clip.fps
        onset = clip.meta.get("manoeuvre_onset")
        #: Seconds between the start of the observer's manoeuvre and the last observed frame.
        self.lead = None if onset is None else float(self.times[self.t_o]) - float(onset)

    # -- per frame ----------------------------------------------------------------------------

    def name(self, i: int) -> str:
        obj = self.clip.objects[i]
        return f"the {obj.color} {obj.class_name}"

    def distance(self, i: int, t: int) -> float:
        return float(np.linalg.norm(self.positions[t, i] - self.ego[t]))

    def optical(self, i: int, t: int) -> Array:
        return rules.optical(self.poses[t], self.positions[t, i])

    def bearing(self, i: int, t: int) -> float:
        """Radians, right-positive."""
        return rules.bearing(self.optical(i, t))

    def bearing_deg(self, i: int, t: int) -> float:
        return math.degrees(self.bearing(i, t))

    def xi(self, i: int, t: int) -> float | None:
        return rules.image_x(self.optical(i, t), self.fx, self.cx, self.width)

    def heading(self, t: int) -> float:
        return rules.heading(self.poses[t])

    def seen(self, i: int, t1: int, t2: int) -> bool:
        """Whether object ``i`` shows ``min_pixels`` in every frame t1..t2 (all observed)."""
        return bool(np.all(self.visible[t1 : t2 + 1, i] >= self.min_pixels))

    def ego_path(self, t1: int, t2: int) -> float:
        return rules.path_length(self.ego[t1 : t2 + 1])

    def path(self, i: int, t1: int, t2: int) -> float:
        return rules.path_length(self.positions[t1 : t2 + 1, i])

    def signed_turn(self, t1: int, t2: int) -> float:
        """Degrees the heading turns from t1 to t2, summed frame by frame (left-positive)."""
        headings = [self.heading(t) for t in range(t1, t2 + 1)]
        return math.degrees(float(np.sum(rules.wrap(np.diff(headings)))))

    def recent(self) -> int:
        """First frame of the last observed second."""
        return max(0, self.t_o - round(self.fps))

    def where(self, i: int, t: int) -> str:
        return f"{self.distance(i, t):.1f} m from the observer, {_side(self.bearing_deg(i, t))}"

    # -- shared text ----------------------------------------------------------------------------

    def ground_text(self, target: str, quantity: str) -> str:
        return (
            f"Target: {target}. Reference: the observer (the camera). Observed: "
            f"{_s(0)} to {_s(self.times[self.t_o])} ({self.clip.observed} frames at "
            f"{self.fps:g} fps). Frame: the camera's view at each time (right, down, forward). "
            f"Quantity: {quantity}."
        )


Builder = Callable[[ClipFacts, np.random.Generator], Iterator[Candidate]]


def _intervals(
    rng: np.random.Generator, observed: int, tries: int = 24
) -> Iterator[tuple[int, int]]:
    """Random observed intervals of ``MIN_INTERVAL`` to ``MAX_INTERVAL`` frames."""
    for _ in range(tries):
        t1 = int(rng.integers(0, observed - MIN_INTERVAL))
        t2 = int(rng.integers(t1 + MIN_INTERVAL, min(observed, t1 + MAX_INTERVAL + 1)))
        yield t1, t2


def distance_now(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T1: the distance from the observer to a target, or between two targets, at the last
    observed frame ("now"); persistence answers the first frame's distance."""
    t = facts.t_o
    now = _s(facts.times[t])
    seen = [i for i in range(len(facts.clip.objects)) if facts.seen(i, t, t)]
    order = [int(i) for i in rng.permutation(len(seen))]
    for k in order:
        i = seen[k]
        d = facts.distance(i, t)
        if d < MIN_DISTANCE:
            continue
        yield Candidate(
            "distance_now",
            f"ego-{i}",
            f"At {now} (the last frame), how far is {facts.name(i)} from the observer "
            "(camera centre to object centre)? Answer in metres.",
            value=d,
            unit="m",
            kind="ego",
            facts={"frame": t, "object": i, "distance": d},
            sections={
                "GROUND": facts.ground_text(
                    facts.name(i), f"the distance from the observer at {now}"
                ),
                "CURRENT": f"At {now} {facts.name(i)} is {facts.where(i, t)}.",
            },
            persistence=serialize(facts.distance(i, 0), "m"),
        )
        others = [j for j in seen if j != i]
        if others:
            j = others[int(rng.integers(len(others)))]
            pair = float(np.linalg.norm(facts.positions[t, i] - facts.positions[t, j]))
            if pair >= MIN_DISTANCE:
                first = float(np.linalg.norm(facts.positions[0, i] - facts.positions[0, j]))
                yield Candidate(
                    "distance_now",
                    f"pair-{min(i, j)}-{max(i, j)}",
                    f"At {now} (the last frame), how far apart are {facts.name(i)} and "
                    f"{facts.name(j)} (centre to centre)? Answer in metres.",
                    value=pair,
                    unit="m",
                    kind="pair",
                    facts={"frame": t, "objects": [i, j], "distance": pair},
                    sections={
                        "GROUND": facts.ground_text(
                            f"{facts.name(i)} and {facts.name(j)}",
                            f"the distance between their centres at {now}",
                        ),
                        "CURRENT": f"At {now} {facts.name(i)} is {facts.where(i, t)}; "
                        f"{facts.name(j)} is {facts.where(j, t)}; they are {pair:.1f} m apart.",
                    },
                    persistence=serialize(first, "m"),
                )


def motion_state(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T2: a mean speed (observer or target) or the camera's view turn over an interval;
    persistence answers the first step's speed, or no turn."""
    kinds = ["ego_speed", "target_speed", "view_turn"]
    times = facts.times
    for t1, t2 in _intervals(rng, facts.clip.observed):
        kind = kinds[int(rng.integers(len(kinds)))]
        span = f"between {_s(times[t1])} and {_s(times[t2])}"
        elapsed = float(times[t2] - times[t1])
        if kind == "ego_speed":
            v = rules.mean_speed(facts.ego[t1 : t2 + 1], times[t1 : t2 + 1])
            if v < MIN_SPEED:
                continue
            first = rules.mean_speed(facts.ego[t1 : t1 + 2], times[t1 : t1 + 2])
            yield Candidate(
                "motion_state",
                f"ego-{t1}-{t2}",
                f"What is the observer's average speed {span} (distance travelled along its "
                "path divided by the time)? Answer in metres per second.",
                value=v,
                unit="m/s",
                kind=kind,
                facts={"t1": t1, "t2": t2, "span": elapsed, "path": v * elapsed, "speed": v},
                sections={
                    "GROUND": facts.ground_text("the observer", f"its mean speed {span}"),
                    "CURRENT": f"{span.capitalize()} ({elapsed:.1f} s) the observer travels "
                    f"{v * elapsed:.2f} m along its path: {v:.2f} m/s.",
                },
                persistence=serialize(first, "m/s"),
            )
        elif kind == "target_speed":
            objects = [i for i in range(len(facts.clip.objects)) if facts.seen(i, t1, t2)]
            if not objects:
                continue
            i = objects[int(rng.integers(len(objects)))]
            v = rules.mean_speed(facts.positions[t1 : t2 + 1, i], times[t1 : t2 + 1])
            if v < MIN_SPEED:
                continue
            first = rules.mean_speed(facts.positions[t1 : t1 + 2, i], times[t1 : t1 + 2])
            yield Candidate(
                "motion_state",
                f"target-{i}-{t1}-{t2}",
                f"What is the average speed of {facts.name(i)} {span} (distance it travels "
                "along its path divided by the time)? Answer in metres per second.",
                value=v,
                unit="m/s",
                kind=kind,
                facts={
                    "t1": t1,
                    "t2": t2,
                    "span": elapsed,
                    "object": i,
                    "path": v * elapsed,
                    "speed": v,
                },
                sections={
                    "GROUND": facts.ground_text(facts.name(i), f"its mean speed {span}"),
                    "CURRENT": f"At {_s(times[t1])} it is {facts.where(i, t1)}; at "
                    f"{_s(times[t2])} {facts.where(i, t2)}. It travels {v * elapsed:.2f} m in "
                    f"{elapsed:.1f} s: {v:.2f} m/s.",
                },
                persistence=serialize(first, "m/s"),
            )
        else:
            theta = rules.view_turn(facts.poses[t1], facts.poses[t2])
            if theta < MIN_TURN:
                continue
            signed = facts.signed_turn(t1, t2)
            yield Candidate(
                "motion_state",
                f"turn-{t1}-{t2}",
                f"By how many degrees does the camera's viewing direction turn {span} (the "
                "angle between the two viewing directions)? Answer in degrees.",
                value=theta,
                unit="deg",
                kind=kind,
                facts={
                    "t1": t1,
                    "t2": t2,
                    "span": elapsed,
                    "view_turn": theta,
                    "signed_turn": signed,
                },
                sections={
                    "GROUND": facts.ground_text(
                        "the camera's viewing direction", f"its turn {span}"
                    ),
                    "CURRENT": f"The viewing direction at {_s(times[t2])} is {theta:.0f}° from "
                    f"the one at {_s(times[t1])}; on the way the camera {_turns(signed, 'past')}.",
                },
                persistence="0",
            )


def ego_path(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T3: the observer's path length over an interval; persistence answers the first step's
    speed times the interval."""
    times = facts.times
    for t1, t2 in _intervals(rng, facts.clip.observed):
        s = facts.ego_path(t1, t2)
        if s < MIN_DISTANCE:
            continue
        span = f"between {_s(times[t1])} and {_s(times[t2])}"
        elapsed = float(times[t2] - times[t1])
        displacement = float(np.linalg.norm(facts.ego[t2] - facts.ego[t1]))
        first = facts.ego_path(t1, t1 + 1) / float(times[t1 + 1] - times[t1])
        yield Candidate(
            "ego_path",
            f"{t1}-{t2}",
            f"How far does the observer travel along its path {span}? Answer in metres.",
            value=s,
            unit="m",
            facts={"t1": t1, "t2": t2, "span": elapsed, "path": s, "displacement": displacement},
            sections={
                "GROUND": facts.ground_text("the observer", f"its path length {span}"),
                "CURRENT": f"The observer's positions at {_s(times[t1])} and {_s(times[t2])} "
                f"are {displacement:.1f} m apart in a straight line; between them it "
                f"{_turns(facts.signed_turn(t1, t2), 'past')}.",
                "DYNAMICS": f"Adding its steps frame by frame, it travels {s:.1f} m in "
                f"{elapsed:.1f} s ({s / elapsed:.2f} m/s on average).",
            },
            persistence=serialize(first * elapsed, "m"),
        )


def target_path(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T4: a target's path length over an interval in which it is seen in every frame."""
    times = facts.times
    for t1, t2 in _intervals(rng, facts.clip.observed):
        objects = [i for i in range(len(facts.clip.objects)) if facts.seen(i, t1, t2)]
        if not objects:
            continue
        i = objects[int(rng.integers(len(objects)))]
        s = facts.path(i, t1, t2)
        if s < MIN_DISTANCE:
            continue
        span = f"between {_s(times[t1])} and {_s(times[t2])}"
        elapsed = float(times[t2] - times[t1])
        displacement = float(np.linalg.norm(facts.positions[t2, i] - facts.positions[t1, i]))
        first = facts.path(i, t1, t1 + 1) / float(times[t1 + 1] - times[t1])
        yield Candidate(
            "target_path",
            f"{i}-{t1}-{t2}",
            f"How far does {facts.name(i)} travel along its path {span}? Answer in metres.",
            value=s,
            unit="m",
            facts={
                "t1": t1,
                "t2": t2,
                "span": elapsed,
                "object": i,
                "path": s,
                "displacement": displacement,
            },
            sections={
                "GROUND": facts.ground_text(facts.name(i), f"its path length {span}"),
                "CURRENT": f"At {_s(times[t1])} it is {facts.where(i, t1)}; at "
                f"{_s(times[t2])} {facts.where(i, t2)}.",
                "DYNAMICS": f"Its steps frame by frame add up to {s:.1f} m in {elapsed:.1f} s "
                f"(straight-line displacement {displacement:.1f} m).",
            },
            persistence=serialize(first * elapsed, "m"),
        )


def relative_motion(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T5: how a target's range and bearing change over a 16-frame window in which it is seen
    in every frame; every window start and target is a candidate (balanced later); persistence
    answers "approximately unchanged"."""
    times = facts.times
    for t1 in range(0, facts.clip.observed - WINDOW + 1):
        t2 = t1 + WINDOW - 1
        for i in range(len(facts.clip.objects)):
            if not facts.seen(i, t1, t2):
                continue
            frames = range(t1, t2 + 1)
            result = rules.relative_motion(
                [facts.distance(i, t) for t in frames], [facts.bearing(i, t) for t in frames]
            )
            if result.label is None:
                continue
            span = f"between {_s(times[t1])} and {_s(times[t2])}"
            verdict = {
                "unchanged": f"T = {result.t:.3f} < {rules.UNCHANGED_T}: approximately unchanged",
                "approaching": "the radial change dominates and both halves agree: approaching",
                "receding": "the radial change dominates and both halves agree: receding",
                "rightward": "the lateral change dominates and both halves agree: moving rightward",
                "leftward": "the lateral change dominates and both halves agree: moving leftward",
            }[result.label]
            yield Candidate(
                "relative_motion",
                f"{i}-{t1}",
                f"{span.capitalize()}, how do the distance and direction of {facts.name(i)} "
                "relative to the observer change? (Approaching or receding: mainly its "
                "distance changes; moving rightward or leftward: mainly its direction in the "
                "view; approximately unchanged: neither changes much.)",
                label=result.label,
                facts={
                    "t1": t1,
                    "t2": t2,
                    "object": i,
                    "mean_distance": result.mean_distance,
                    "delta_distance": result.delta_distance,
                    "delta_bearing_deg": math.degrees(result.delta_bearing),
                    "R": result.r,
                    "L": result.l,
                    "T": result.t,
                    "range_trend": result.range_trend,
                    "bearing_trend": result.bearing_trend,
                },
                sections={
                    "GROUND": facts.ground_text(
                        facts.name(i), f"the change of its range and bearing {span}"
                    ),
                    "CURRENT": f"At {_s(times[t1])} it is {facts.where(i, t1)}; at "
                    f"{_s(times[t2])} {facts.where(i, t2)}.",
                    "DYNAMICS": f"Range change {result.delta_distance:+.2f} m over a mean range of "
                    f"{result.mean_distance:.2f} m (R = {result.r:.3f}); bearing change "
                    f"{math.degrees(result.delta_bearing):+.1f}° (L = {result.l:.3f}); "
                    f"{verdict}.",
                },
                persistence="unchanged",
            )


def _decided(result: rules.FutureDirection) -> str:
    """The direction rule's label, its excluded band answered by the nearer class (straight
    below 9 degrees), as a guess must answer something."""
    if result.label is not None:
        return result.label
    return "straight" if abs(result.theta) < 9.0 else "left" if result.theta > 0 else "right"


def ego_future(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T6: what the observer does over a withheld future interval ``[t_a, t_f]``, ``t_o <= t_a``
    (the paper's rule), in a clip whose manoeuvre began at least ``MIN_MANOEUVRE_LEAD`` before
    the last frame; persistence answers the rule on the last observed interval of the same
    length, keep_going the observer's last step carried over the window."""
    t_o = facts.t_o
    times = facts.times
    last = len(facts.times) - 1
    if facts.lead is None or facts.lead < MIN_MANOEUVRE_LEAD - 1e-9:
        return  # the manoeuvre may begin unseen: its future is not predictable
    recent = facts.recent()
    before = max(0, recent - (t_o - recent))
    speed_now = facts.ego_path(recent, t_o) / float(times[t_o] - times[recent])
    rate_now = facts.signed_turn(recent, t_o) / float(times[t_o] - times[recent])
    speed_before = facts.ego_path(before, recent) / float(times[recent] - times[before])
    rate_before = facts.signed_turn(before, recent) / float(times[recent] - times[before])
    step = float(times[t_o] - times[t_o - 1])
    step_speed = facts.ego_path(t_o - 1, t_o) / step
    step_rate = facts.signed_turn(t_o - 1, t_o) / step
    for t_a in range(t_o, last - MIN_FUTURE + 1):
        for t_f in range(t_a + MIN_FUTURE, last + 1):
            future = rules.future_direction(
                [facts.heading(t) for t in range(t_a, t_f + 1)],
                facts.ego[t_a : t_f + 1],
                times[t_a : t_f + 1],
            )
            if future.label is None:
                continue
            dt = float(times[t_f] - times[t_a])
            t_p = max(0, t_o - (t_f - t_a))
            past = rules.future_direction(
                [facts.heading(t) for t in range(t_p, t_o + 1)],
                facts.ego[t_p : t_o + 1],
                times[t_p : t_o + 1],
            )
            # The observer keeps doing what it does in the last frame: its last step's speed
            # and turn rate, carried over the window.
            keep = rules.direction_rule(step_rate * dt, step_speed)
            window = f"{_s(times[t_a])} to {_s(times[t_f])}"
            after = (
                f"the {dt:.1f} s after the last frame"
                if t_a == t_o
                else f"the {dt:.1f} s from {float(times[t_a] - times[t_o]):.1f} s after the "
                "last frame"
            )
            yield Candidate(
                "ego_future",
                f"{t_a}-{t_f}",
                f"What will the observer do over {after} ({window})? (Go straight: its "
                "heading changes by less than 6°; turn left or right: by 12° or more; come to "
                "a stop: it ends slower than 0.5 m/s.)",
                label=future.label,
                facts={
                    "t_a": t_a,
                    "t_f": t_f,
                    "theta_deg": future.theta,
                    "end_speed": future.end_speed,
                    "past_theta_deg": past.theta,
                    "past_end_speed": past.end_speed,
                    "manoeuvre_lead": facts.lead,
                },
                sections={
                    "GROUND": facts.ground_text("the observer", f"its motion from {window}"),
                    "CURRENT": f"Over the last second ({_s(times[recent])} to "
                    f"{_s(times[t_o])}) the observer moves at {speed_now:.2f} m/s, "
                    f"{_turning(rate_now)}.",
                    "DYNAMICS": f"The second before ({_s(times[before])} to "
                    f"{_s(times[recent])}) it moved at {speed_before:.2f} m/s and was "
                    f"{_turning(rate_before)}: its speed changed by "
                    f"{speed_now - speed_before:+.2f} m/s and its turn rate by "
                    f"{rate_now - rate_before:+.0f}°/s (left-positive).",
                    "FUTURE": f"From {window} it {_turns(future.theta, 'future')}; over the "
                    f"last second of it, it will move at {future.end_speed:.2f} m/s: "
                    f"{OPTIONS['ego_future'][future.label]}.",
                },
                persistence=_decided(past),
                shortcuts={"keep_going": _decided(keep)},
            )


def _turning(rate: float) -> str:
    """The turn rate as a phrase: "turning 12°/s to the left", or "not turning"."""
    if abs(rate) < 0.5:
        return "not turning"
    return f"turning {abs(rate):.0f}°/s to the {'left' if rate > 0 else 'right'}"


def _future_targets(facts: ClipFacts) -> list[int]:
    return [i for i in range(len(facts.clip.objects)) if facts.seen(i, facts.t_o, facts.t_o)]


def future_distance(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T7: a target's distance from the observer at a withheld future frame; the target is
    seen at the last observed frame; persistence answers its distance then."""
    t_o, times = facts.t_o, facts.times
    last = len(times) - 1
    targets = _future_targets(facts)
    recent = facts.recent()
    for k in rng.permutation(len(targets)):
        i = targets[int(k)]
        for t_f in range(t_o + 1, last + 1):
            d = facts.distance(i, t_f)
            if d >= MIN_DISTANCE:
                yield _future_distance(facts, i, t_f, d, recent)


def _future_distance(facts: ClipFacts, i: int, t_f: int, d: float, recent: int) -> Candidate:
    t_o, times = facts.t_o, facts.times
    dt = float(times[t_f] - times[t_o])
    return Candidate(
        "future_distance",
        f"{i}-{t_f}",
        f"At {_s(times[t_f])}, {dt:.1f} s after the last frame, how far will {facts.name(i)} "
        "be from the observer (camera centre to object centre)? Answer in metres.",
        value=d,
        unit="m",
        facts={
            "t_o": t_o,
            "t_f": t_f,
            "object": i,
            "distance": d,
            "distance_now": facts.distance(i, t_o),
        },
        sections={
            "GROUND": facts.ground_text(
                facts.name(i), f"its distance from the observer at {_s(times[t_f])}"
            ),
            "CURRENT": f"At {_s(times[t_o])} it is {facts.where(i, t_o)}.",
            "DYNAMICS": f"From {_s(times[recent])} to {_s(times[t_o])} its distance changed by "
            f"{facts.distance(i, t_o) - facts.distance(i, recent):+.1f} m; it moved "
            f"{facts.path(i, recent, t_o):.1f} m and the observer {facts.ego_path(recent, t_o):.1f} m.",
            "FUTURE": f"By {_s(times[t_f])} the observer will travel "
            f"{facts.ego_path(t_o, t_f):.1f} m and the target {facts.path(i, t_o, t_f):.1f} m; "
            f"the target will be {d:.1f} m away.",
        },
        persistence=serialize(facts.distance(i, t_o), "m"),
    )


def future_relation(facts: ClipFacts, rng: np.random.Generator) -> Iterator[Candidate]:
    """T8: where a target will be in the observer's view at a withheld future frame (the band
    of its centre's horizontal image position); every target and future frame is a candidate;
    persistence answers the band it is in at the last observed frame."""
    t_o, times = facts.t_o, facts.times
    last = len(times) - 1
    options = OPTIONS["future_relation"]
    for i in _future_targets(facts):
        xi_now = facts.xi(i, t_o)
        assert xi_now is not None  # seen now: in front of the camera
        recent = facts.recent()
        xi_recent = facts.xi(i, recent)
        turn = _turns(facts.signed_turn(recent, t_o), "past")
        since = f"From {_s(times[recent])} to {_s(times[t_o])}"
        dynamics = (
            f"{since} the view {turn}."
            if xi_recent is None
            else f"{since} its image position moved {xi_now - xi_recent:+.2f} of the width and "
            f"the view {turn}."
        )
        for t_f in range(t_o + 1, last + 1):
            xi = facts.xi(i, t_f)
            label, _ = rules.band_rule(xi)
            if label is None:
                continue
            assert xi is not None
            dt = float(times[t_f] - times[t_o])
            yield Candidate(
                "future_relation",
                f"{i}-{t_f}",
                f"At {_s(times[t_f])}, {dt:.1f} s after the last frame, where will "
                f"{facts.name(i)} be in the observer's view? (By the horizontal position of "
                "its centre: front left is the left 40 % of the view, straight ahead the middle "
                "20 %, front right the right 40 %; out of view is beyond the left or right edge.)",
                label=label,
                facts={"t_o": t_o, "t_f": t_f, "object": i, "xi": xi, "xi_now": xi_now},
                sections={
                    "GROUND": facts.ground_text(
                        facts.name(i), f"its place in the view at {_s(times[t_f])}"
                    ),
                    "CURRENT": f"At {_s(times[t_o])} its centre is at {xi_now:.2f} of the image "
                    f"width ({options[rules.band(xi_now)]}), {facts.distance(i, t_o):.1f} m away.",
                    "DYNAMICS": dynamics,
                    "FUTURE": f"At {_s(times[t_f])} its centre will project to {xi:.2f} of the "
                    f"image width: {options[label]}.",
                },
                persistence=rules.band(xi_now),
            )


BUILDERS: Final[dict[str, Builder]] = {
    "distance_now": distance_now,
    "motion_state": motion_state,
    "ego_path": ego_path,
    "target_path": target_path,
    "relative_motion": relative_motion,
    "ego_future": ego_future,
    "future_distance": future_distance,
    "future_relation": future_relation,
}
assert tuple(BUILDERS) == tuple(TASKS)


def oracle_exact(candidate: Candidate) -> bool:
    """Whether the serialized answer of a numeric candidate scores 1 against its reference."""
    if candidate.value is None or candidate.unit is None:
        return True
    return mra(float(serialize(candidate.value, candidate.unit)), candidate.value) == 1.0


__all__ = [
    "BUILDERS",
    "OPTIONS",
    "SECTIONS",
    "TASKS",
    "UNIT_WORDS",
    "Candidate",
    "ClipFacts",
    "oracle_exact",
    "serialize",
]
