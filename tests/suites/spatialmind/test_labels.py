"""SpatialMind's label rules on hand-made numbers: the paper's worked relative-motion example
with its figures, the decision order of each rule, and the frame conventions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatialbabel import Camera
from suites.choices import letter
from suites.spatialmind import labels as rules
from suites.spatialmind.tasks import OPTIONS
from synth.motion import PITCH_DEG, camera_pose


def paper_window() -> tuple[list[float], list[float]]:
    """A 16-frame window with the paper's figures: mean range 15.320375 m, range change
    +5.562 m and bearing change +0.618024 degrees, and the paper's two trend products
    (7.726905 m^2 and 0.095344 deg^2) between the first, the midpoint (m = 8) and the last frame."""
    d0, dm, dl = 12.5, 12.5 + 2.865, 12.5 + 5.562  # (dm - d0)(dl - dm) = 2.865 * 2.697
    b_total = 0.618024
    # (bm - b0)(bl - bm) = 0.095344 deg^2: bm - b0 is a root of x^2 - 0.618024 x + 0.095344.
    b_half = (b_total + math.sqrt(b_total**2 - 4 * 0.095344)) / 2
    distances = list(np.concatenate([np.linspace(d0, dm, 9), np.linspace(dm, dl, 8)[1:]]))
    # Frames 1..7 and 9..14 are free: shift two of them so the mean is the paper's.
    missing = 16 * 15.320375 - sum(distances)
    distances[3] += missing / 2
    distances[11] += missing / 2
    bearings = [
        math.radians(b)
        for b in np.concatenate([np.linspace(0.0, b_half, 9), np.linspace(b_half, b_total, 8)[1:]])
    ]
    return distances, bearings


def test_the_papers_worked_relative_motion_example_gives_its_numbers() -> None:
    distances, bearings = paper_window()
    result = rules.relative_motion(distances, bearings)
    assert result.mean_distance == pytest.approx(15.320375, abs=1e-9)
    assert result.delta_distance == pytest.approx(5.562, abs=1e-9)
    assert math.degrees(result.delta_bearing) == pytest.approx(0.618024, abs=1e-9)
    assert result.r == pytest.approx(0.363045944, abs=1e-9)
    # The paper's L and T are computed from a bearing change it prints rounded to 1e-6 degree.
    assert result.l == pytest.approx(0.010786549, abs=1e-8)
    assert result.t == pytest.approx(0.363206149, abs=1e-8)
    assert result.range_trend == pytest.approx(7.726905, abs=1e-6)
    assert result.bearing_trend == pytest.approx(0.095344, abs=1e-6)
    assert result.label == "receding"
    keys = list(OPTIONS["relative_motion"])
    assert letter(keys.index(result.label)) == "E"
    assert [
        letter(keys.index(k)) for k in ("approaching", "rightward", "unchanged", "leftward")
    ] == list("ABCD")


@pytest.mark.parametrize(
    ("distances", "bearings_deg", "label"),
    [
        # T < 0.08 is unchanged before any trend check, even with reversing halves.
        ([10.0, 10.3, 10.0], [0.0, 1.0, 0.0], "unchanged"),
        ([10.0, 9.0, 8.0], [0.0, 0.1, 0.2], "approaching"),
        ([10.0, 10.0, 10.0], [0.0, 5.0, 10.0], "rightward"),
        ([10.0, 10.0, 10.0], [0.0, -5.0, -10.0], "leftward"),
        # A reversal on the dominant axis excludes; on the other axis it does not.
        ([10.0, 13.0, 12.0], [0.0, 0.0, 0.0], None),
        ([10.0, 11.0, 12.0], [0.0, 0.5, 0.0], "receding"),
        # Neither axis dominates by 1.5x.
        ([10.0, 10.5, 11.0], [0.0, 2.9, 5.7], None),
    ],
)
def test_relative_motion_decision_order(
    distances: list[float], bearings_deg: list[float], label: str | None
) -> None:
    result = rules.relative_motion(distances, [math.radians(b) for b in bearings_deg])
    assert result.label == label, result


def test_future_direction_rule() -> None:
    assert rules.direction_rule(40.0, 0.49).label == "stop"  # stop first, whatever the turn
    assert rules.direction_rule(12.0, 1.0).label == "left"
    assert rules.direction_rule(-12.0, 1.0).label == "right"
    assert rules.direction_rule(5.99, 1.0).label == "straight"
    assert rules.direction_rule(-6.0, 1.0).label is None
    assert rules.direction_rule(11.99, 1.0).label is None
    # Headings wrap: a left turn across +-180 degrees sums to the small positive angle.
    headings = [math.radians(a) for a in (170.0, 175.0, 179.0, -177.0, -173.0, -170.0)]
    positions = np.column_stack([np.arange(6.0), np.zeros(6), np.zeros(6)])
    times = np.arange(6) / 5.0
    result = rules.future_direction(headings, positions, times)
    assert result.theta == pytest.approx(20.0)
    assert result.end_speed == pytest.approx(5.0)
    assert result.label == "left"


@pytest.mark.parametrize(
    ("xi", "label"),
    [
        (-0.2, "out_left"),
        (0.031, "front_left"),
        (0.2, "front_left"),
        (0.5, "ahead"),
        (0.8, "front_right"),
        (1.2, "out_right"),
        (0.01, None),
        (0.39, None),
        (0.61, None),
        (0.975, None),
        (None, None),
    ],
)
def test_image_bands_and_margins(xi: float | None, label: str | None) -> None:
    assert rules.band_rule(xi)[0] == label


def test_path_length_is_not_displacement() -> None:
    square = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1], [0, 0, 0]], float)
    assert rules.path_length(square) == pytest.approx(4.0)
    assert rules.mean_speed(square, np.arange(5) / 5.0) == pytest.approx(5.0)


def test_frames_bearings_headings_and_view_turn_follow_the_conventions() -> None:
    pose = camera_pose(0.0, 0.0, 0.0)  # at the origin, facing -Z, pitched down
    ahead_right = np.array([1.0, 1.6, -5.0])
    point = rules.optical(pose, ahead_right)
    assert point[0] > 0 and point[2] > 0  # right and in front
    assert rules.bearing(point) > 0  # right-positive
    camera = Camera("c", 64, 64, 50.0, tuple(tuple(r) for r in pose.tolist()))
    k = camera.intrinsics
    xi = rules.image_x(point, k[0, 0], k[0, 2], 64)
    assert xi == pytest.approx(camera.project(ahead_right)[0][0, 0] / 64)
    assert xi is not None and xi > 0.5
    # Heading is left-positive; the view turn is unsigned and endpoint-only.
    left = camera_pose(0.0, 0.0, math.radians(30.0))
    assert rules.heading(left) == pytest.approx(math.radians(30.0))
    assert rules.forward(left)[0] < 0  # facing towards -X: to the left of -Z
    # Between the 3D viewing directions: a 30-degree turn of a camera pitched by p is less.
    p = math.radians(PITCH_DEG)
    expected = math.degrees(
        math.acos(math.cos(p) ** 2 * math.cos(math.radians(30)) + math.sin(p) ** 2)
    )
    assert rules.view_turn(pose, left) == pytest.approx(expected, abs=1e-6)
    assert rules.view_turn(left, pose) == pytest.approx(expected, abs=1e-6)
    assert expected == pytest.approx(29.33, abs=0.01)
