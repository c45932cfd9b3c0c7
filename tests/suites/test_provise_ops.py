"""ProVisE's parts without a split: protocol files and their checks, the typed operations on
drawn test images, the metrics against brute force, and the text contracts."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from suites.base import SuiteError
from suites.provise.metrics import discrete_frechet, mask_precision, point_in_mask
from suites.provise.text import TextUnreadable, read_text

cv2 = pytest.importorskip("cv2")
pytest.importorskip("skimage")
pytest.importorskip("jsonschema")

from suites.provise import TASKS, pixels  # noqa: E402
from suites.provise.geometry import resample_path  # noqa: E402
from suites.provise.grade import run_protocol  # noqa: E402
from suites.provise.ops import Context, Noncompliance, run_step  # noqa: E402
from suites.provise.protocols import PROTOCOL_DIR, parse_protocol, protocol  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GREY = (140, 140, 140)


def canvas(width: int = 200, height: int = 160) -> Any:
    image = np.empty((height, width, 3), np.uint8)
    image[:] = GREY
    return image


def run(task: str, drawn: Any, source: Any, truth: Any = None, **points: Any) -> Any:
    """Run a task's protocol steps by hand, returning every value."""
    rules = protocol(task)
    values: dict[str, Any] = {"drawn": drawn, "source": source, "truth": truth}
    ctx = Context(points, ("A", "B", "C", "D"))
    for step in rules.steps:
        values[step["out"]] = run_step(step, values, ctx)
    return values


def test_every_protocol_loads_with_its_hash() -> None:
    for task in TASKS:
        rules = protocol(task)
        assert rules.task == task
        data = (PROTOCOL_DIR / f"{task}.json").read_bytes()
        assert rules.sha256 == parse_protocol(rules.path, data).sha256
        assert len(rules.sha256) == 64
    # One changed character gives another identity.
    data = (PROTOCOL_DIR / "counting.json").read_bytes().replace(b"0.25", b"0.26")
    assert (
        parse_protocol(PROTOCOL_DIR / "counting.json", data).sha256 != protocol("counting").sha256
    )


def _edited(change: Any) -> bytes:
    document = json.loads((PROTOCOL_DIR / "counting.json").read_text())
    change(document)
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("metric"), "'metric' is a required property"),
        (
            lambda d: d["parser"].append({"op": "blur", "in": ["marks"], "out": "x"}),
            "unknown operation",
        ),
        (lambda d: d["parser"][2].update({"in": ["green", "nowhere"]}), "'nowhere' is not defined"),
        (lambda d: d["parser"][6].update({"in": ["marks"]}), "'marks' is a mask, not a components"),
        (lambda d: d["parser"][5].pop("min_area"), "parameter 'min_area' is missing"),
        (lambda d: d["parser"][5].update({"min_area": "30"}), "parameter 'min_area' must be int"),
        (lambda d: d["parser"][5].update({"radius": 3}), "unknown parameter 'radius'"),
        (lambda d: d.update({"result": "marks"}), "metric exact_match scores a label or number"),
        (
            lambda d: d["answer"].update({"text": "path"}),
            "cannot score a text answer of form 'path'",
        ),
        (lambda d: d["invalid"][0].update({"of": "count"}), "which is not a mask"),
    ],
)
def test_a_broken_protocol_is_refused_naming_the_fault(change: Any, message: str) -> None:
    with pytest.raises(SuiteError, match=message) as raised:
        parse_protocol(Path("counting.json"), _edited(change))
    assert str(raised.value).startswith("counting.json: ")


def test_counting_keeps_stars_and_drops_strokes_and_source_colour() -> None:
    source = canvas()
    cv2.rectangle(source, (150, 20), (190, 60), (64, 160, 32), -1)  # a green object
    drawn = source.copy()
    for centre in ((30, 30), (80, 40), (40, 110), (170, 40)):  # the last on the green object
        pixels.star(drawn, centre, 9.0, (0, 255, 0))
    cv2.line(drawn, (90, 120), (190, 122), (0, 255, 0), 3)  # a long stray stroke
    cv2.circle(drawn, (120, 80), 2, (0, 255, 0), -1)  # a speck
    assert run("counting", drawn, source)["count"] == 4
    # Untouched, the green object is no star, and no star breaks the contract.
    assert run("counting", source, source)["count"] == 0
    outcome = run_protocol(protocol("counting"), source, source, None, Context({}, ()))
    assert (outcome.status, outcome.reason) == ("noncompliance", "no green star was drawn")


def test_depth_reads_the_5x5_means_and_refuses_ties() -> None:
    source = canvas()
    drawn = np.zeros_like(source)
    drawn[:, :100] = 200
    drawn[:, 100:] = 90
    a, b = (50.5, 80.5), (150.5, 80.5)
    assert run("depth", drawn, source, A=a, B=b)["closer"] == "A"
    assert run("depth", drawn, source, A=b, B=a)["closer"] == "B"
    with pytest.raises(Noncompliance, match="tie"):
        run("depth", np.full_like(source, 128), source, A=a, B=b)
    with pytest.raises(Noncompliance, match="black"):
        run("depth", np.zeros_like(source), source, A=a, B=b)
    # At the border the window is clipped, not padded.
    corner = np.zeros_like(source)
    corner[0:3, 0:3] = 90
    assert pixels.local_mean(corner, (0.5, 0.5), 5) == pytest.approx(90.0)


def test_grounding_picks_the_dot_and_refuses_two() -> None:
    source = canvas()
    drawn = source.copy()
    pixels.dot(drawn, (60.5, 70.5), 6.0, (255, 255, 0))
    cv2.line(drawn, (120, 20), (180, 140), (255, 255, 0), 3)
    point = run("grounding", drawn, source)["point"]
    assert point == pytest.approx((60.5, 70.5), abs=0.3)
    pixels.dot(drawn, (150.5, 30.5), 6.0, (255, 255, 0))
    with pytest.raises(Noncompliance, match="2 marks of similar size"):
        run("grounding", drawn, source)


def test_size_maps_the_dot_to_the_option_region() -> None:
    source = canvas()
    truth = np.zeros(source.shape[:2], np.uint8)
    truth[20:60, 20:60], truth[90:140, 120:180] = 1, 2
    for centre, expected in (((40, 40), "A"), ((150, 110), "B"), ((100, 20), "none")):
        drawn = source.copy()
        pixels.dot(drawn, centre, 6.0, (255, 255, 0))
        assert run("size", drawn, source, truth)["choice"] == expected


def test_corner_code_and_grid_cell() -> None:
    source = canvas(200, 200)
    for index, corner in enumerate("ABCD"):
        drawn = source.copy()
        x = 10 + (index % 2) * 150
        y = 10 + (index // 2) * 150
        cv2.rectangle(drawn, (x, y), (x + 24, y + 24), (255, 0, 255), -1)
        assert run("multihop", drawn, source)["corner"] == corner
    drawn = source.copy()
    cv2.rectangle(drawn, (90, 90), (110, 110), (255, 0, 255), -1)  # the middle is no corner
    with pytest.raises(Noncompliance, match="no mark in any corner"):
        run("multihop", drawn, source)
    from suites.provise.ops import OPERATIONS

    mask = np.zeros((90, 90), bool)
    mask[65:80, 5:20] = True
    cells = [
        "back-left",
        "back",
        "back-right",
        "left",
        None,
        "right",
        "front-left",
        "front",
        "front-right",
    ]
    params = {"rows": 3, "cols": 3, "min_pixels": 50, "cells": cells}
    assert OPERATIONS["grid_cell"].run(Context({}, ()), params, mask) == "front-left"


def test_relationship_overlays_grey_and_neither() -> None:
    source = canvas()
    cv2.rectangle(source, (20, 20), (70, 70), (30, 20, 224), -1)  # a red object
    cv2.rectangle(source, (120, 60), (170, 120), (48, 216, 216), -1)  # a yellow one
    half = source.copy()
    pixels.blend(half, np.pad(np.ones((51, 51), bool), ((20, 89), (20, 129))), (0, 255, 0), 0.6)
    with pytest.raises(Noncompliance, match="one of the two overlays"):
        run("relationship", half, source)
    true = half.copy()
    pixels.blend(true, np.pad(np.ones((61, 51), bool), ((60, 39), (120, 29))), (255, 0, 0), 0.6)
    assert run("relationship", true, source)["verdict"] == "true"
    grey = pixels.to_grayscale(source)
    assert run("relationship", grey, source)["verdict"] == "false"
    # A stray green stroke on the grey image, thick enough to pass for an overlay, is not the
    # pair of overlays that "true" needs.
    cv2.line(grey, (10, 145), (18, 145), (0, 255, 0), 8)
    assert run("relationship", grey, source)["green_area"] >= 40
    assert run("relationship", grey, source)["verdict"] == "false"
    with pytest.raises(Noncompliance, match="neither"):
        run("relationship", source, source)


def test_trajectory_skeleton_walks_from_the_start() -> None:
    source = canvas(200, 200)
    drawn = source.copy()
    corner = np.array([[20.5, 30.5], [160.5, 30.5], [160.5, 170.5]])
    pixels.polyline(drawn, corner, (0, 0, 255), 3)
    pixels.polyline(drawn, np.array([[20.5, 150.5], [60.5, 180.5]]), (0, 0, 255), 3)  # elsewhere
    path = run("trajectory", drawn, source, S=(20.5, 30.5))["path"]
    assert path.shape == (20, 2)
    assert np.hypot(*(path[0] - corner[0])) < 4 and np.hypot(*(path[-1] - corner[-1])) < 4
    assert discrete_frechet(path / 200, resample_path(corner, 20) / 200) < 0.03
    reverse = run("trajectory", drawn, source, S=(160.5, 170.5))["path"]
    assert np.hypot(*(reverse[0] - corner[-1])) < 4


def _frechet_brute(a: Any, b: Any) -> float:
    @functools.cache
    def c(i: int, j: int) -> float:
        d = float(np.hypot(*(a[i] - b[j])))
        if i == 0 and j == 0:
            return d
        if i == 0:
            return max(c(0, j - 1), d)
        if j == 0:
            return max(c(i - 1, 0), d)
        return max(min(c(i - 1, j), c(i - 1, j - 1), c(i, j - 1)), d)

    return c(len(a) - 1, len(b) - 1)


def test_metrics_against_their_definitions() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        a, b = rng.random((int(rng.integers(1, 9)), 2)), rng.random((int(rng.integers(1, 9)), 2))
        assert discrete_frechet(a, b) == pytest.approx(_frechet_brute(a, b))
    # Reversing a path costs at least its end-to-end span.
    line = np.linspace([0.1, 0.1], [0.7, 0.1], 20)
    assert discrete_frechet(line, line[::-1]) >= 0.6 - 1e-9
    truth = np.zeros((10, 10), bool)
    truth[2:5, 2:5] = True
    predicted = np.zeros_like(truth)
    predicted[3:6, 3:6] = True
    assert mask_precision(predicted, truth) == pytest.approx(4 / 9)
    assert mask_precision(np.zeros_like(truth), truth) == 0.0
    assert point_in_mask((2.9, 4.99), truth) == 1.0
    assert point_in_mask((5.0, 3.0), truth) == 0.0
    assert point_in_mask((-0.5, 3.0), truth) == 0.0


@pytest.mark.parametrize(
    ("reply", "form", "expected"),
    [
        ("There are three.\nAnswer: 3", "count", 3),
        ("**Answer:** 4 cubes", "count", 4),
        ("Answer: B", "option", "B"),
        ("a", "option", "A"),
        ("Answer: True.", "boolean", "true"),
        ("Answer: no", "boolean", "false"),
        ("Answer: (0.25, 0.5)", "point", [0.25, 0.5]),
        ("Answer: [0.1, 0.2]; (0.3, .4)", "points", [[0.1, 0.2], [0.3, 0.4]]),
        ("Answer: [(0, 0), (1, 1)]", "path", [[0, 0], [1, 1]]),
    ],
)
def test_text_contracts(reply: str, form: str, expected: Any) -> None:
    got = read_text(reply, form, 2)
    assert np.asarray(got).tolist() == expected


@pytest.mark.parametrize(
    ("reply", "form"),
    [
        ("I think it is three", "count"),
        ("Answer: C", "option"),
        ("Answer: maybe", "boolean"),
        ("Answer: (0.2, 1.5)", "point"),
        ("Answer: (0.2, 0.3), (0.4, 0.5)", "point"),
        ("Answer: [(0.2, 0.3)]", "path"),
        ("First line\nsecond line", "count"),
    ],
)
def test_unreadable_text(reply: str, form: str) -> None:
    with pytest.raises(TextUnreadable):
        read_text(reply, form, 2)


def test_the_light_import_path_loads_no_pixel_library() -> None:
    code = (
        "import sys; from spatialbabel.cli import main; import suites.provise, suites.cmd_suite;"
        "from suites import load_suite; load_suite('provise');"
        "bad = [m for m in ('cv2', 'skimage', 'jsonschema', 'scipy.ndimage') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
