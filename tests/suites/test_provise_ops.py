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

from suites.base import Item, Reply, SuiteError
from suites.provise.metrics import discrete_frechet, mask_precision, point_in_mask
from suites.provise.text import TextUnreadable, read_text

cv2 = pytest.importorskip("cv2")
pytest.importorskip("skimage")
pytest.importorskip("jsonschema")

from suites.provise import TASKS, pixels  # noqa: E402
from suites.provise.geometry import resample_path  # noqa: E402
from suites.provise.grade import grade_drawing, run_protocol  # noqa: E402
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


def test_small_stars_count_and_no_star_is_noncompliance() -> None:
    source = canvas(512, 512)
    drawn = source.copy()
    for centre in ((100.5, 100.5), (300.5, 200.5), (400.5, 420.5)):  # stars 2% of the width
        pixels.star(drawn, centre, 0.01 * 512, (0, 255, 0))
    jpeg = pixels.decode(pixels.encode_jpeg(drawn, 70))
    assert run("counting", jpeg, source)["count"] == 3
    # Green ink that no star is made of (thin strokes) is no count of 0, but no answer.
    strokes = source.copy()
    cv2.line(strokes, (50, 300), (250, 320), (0, 255, 0), 3)
    cv2.line(strokes, (300, 50), (320, 250), (0, 255, 0), 3)
    outcome = run_protocol(protocol("counting"), strokes, source, None, Context({}, ()))
    assert outcome.status == "noncompliance" and "shaped like a star" in outcome.reason
    # The palette's cyan is not the stars' green.
    cyan = source.copy()
    pixels.star(cyan, (200.5, 200.5), 10.0, (216, 216, 48))
    outcome = run_protocol(protocol("counting"), cyan, source, None, Context({}, ()))
    assert outcome.status == "noncompliance"


def test_depth_refuses_the_input_and_colour_maps() -> None:
    rng = np.random.default_rng(1)
    source = canvas(256, 256)
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(0, 220, 2))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.rectangle(source, (x, y), (x + 30, y + 30), colour, -1)
    depth = np.repeat(np.linspace(40, 250, 256).astype(np.uint8)[:, None], 256, axis=1)
    greyscale = np.repeat(depth[:, :, None], 3, axis=2)
    points = Context({"A": (128.5, 220.5), "B": (128.5, 30.5)}, ("A", "B"))
    rules = protocol("depth")
    assert run_protocol(rules, greyscale, source, None, points).value == "A"
    for answer, reason in (
        (source, "the input image handed back"),
        (pixels.decode(pixels.encode_jpeg(source, 70)), "the input image handed back"),
        (cv2.applyColorMap(depth, cv2.COLORMAP_TURBO), "colour-mapped"),
        (cv2.applyColorMap(depth, cv2.COLORMAP_VIRIDIS), "colour-mapped"),
    ):
        outcome = run_protocol(rules, answer, source, None, points)
        assert outcome.status == "noncompliance" and reason in outcome.reason


def test_registration_undoes_an_editors_shift_zoom_turn_and_letterbox() -> None:
    rng = np.random.default_rng(2)
    source = np.empty((512, 512, 3), np.uint8)
    source[:] = (90, 100, 110)
    for _ in range(25):
        x, y = (int(v) for v in rng.integers(20, 460, 2))
        w, h = (int(v) for v in rng.integers(15, 50, 2))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.rectangle(source, (x, y), (x + w, y + h), colour, -1)
    drawn = source.copy()
    pixels.dot(drawn, (256.5, 256.5), 6.0, (255, 255, 0))
    # Identity stays identity: nothing is resampled.
    same, found = pixels.register(drawn, source, edit=True)
    assert found.method == "none" and np.array_equal(same, drawn)
    for kwargs in ({"dx": 7.0, "dy": -5.0}, {"scale": 1.05}, {"scale": 0.95}, {"angle": 2.0}):
        moved = pixels.warp_similarity(drawn, **kwargs)
        back, found = pixels.register(moved, source, edit=True)
        assert found.method == "ecc"
        record = found.to_dict()
        assert record["scale"] == pytest.approx(kwargs.get("scale", 1.0), abs=0.003)
        assert record["rotation"] == pytest.approx(-kwargs.get("angle", 0.0), abs=0.1)
        inner = (slice(40, -40), slice(40, -40))
        changed = pixels.changed(back[inner], drawn[inner], 40)
        assert changed.mean() < 0.002, kwargs
    # A 1536 x 1024 answer for a 512 x 512 input: the bars are cut, not stretched into it.
    wide = np.zeros((1024, 1536, 3), np.uint8)
    wide[:, 256:1280] = pixels.resize(drawn, 1024, 1024)
    back, found = pixels.register(wide, source, edit=True)
    assert found.bars == (256, 0, 256, 0) and found.to_dict()["answer_size"] == [1536, 1024]
    assert pixels.changed(back, drawn, 40).mean() < 0.002
    # A depth map or mask drawn from scratch is cut and resized, never moved.
    mask = np.zeros((1024, 1536, 3), np.uint8)
    mask[400:600, 300:500] = 255
    back, found = pixels.register(mask, source, edit=False)
    assert found.method == "none" and found.bars == (256, 0, 256, 0)
    assert back.shape == source.shape and back[250, 70].max() == 255 and back[250, 10].max() == 0


def test_a_dot_in_a_torus_hole_is_on_the_torus() -> None:
    ring = np.zeros((60, 60), bool)
    yy, xx = np.mgrid[:60, :60]
    distance = np.hypot(yy - 30, xx - 30)
    ring[(distance <= 20) & (distance >= 9)] = True
    filled = pixels.fill_holes(ring)
    assert filled[30, 30] and not ring[30, 30] and not filled[2, 2]


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


def _three_objects() -> tuple[Any, Any, dict[str, Any]]:
    """A red object (the subject, label 1), a yellow one (the object, label 2) and a cyan one
    the question does not name (label 10)."""
    source = canvas()
    truth = np.zeros(source.shape[:2], np.uint8)
    boxes = {"red": (20, 20, 70, 70), "yellow": (120, 60, 170, 120), "cyan": (90, 110, 130, 150)}
    colours = {"red": (30, 20, 224), "yellow": (60, 220, 255), "cyan": (216, 216, 48)}
    for label, (name, (x0, y0, x1, y1)) in zip((1, 2, 10), boxes.items(), strict=True):
        cv2.rectangle(source, (x0, y0), (x1, y1), colours[name], -1)
        truth[y0 : y1 + 1, x0 : x1 + 1] = label
    masks = {name: truth == label for name, label in zip(boxes, (1, 2, 10), strict=True)}
    return source, truth, masks


def test_relationship_reads_which_objects_the_overlays_cover() -> None:
    source, truth, masks = _three_objects()
    half = source.copy()
    pixels.blend(half, masks["red"], (0, 255, 0), 0.6)
    with pytest.raises(Noncompliance, match="one of the two overlays"):
        run("relationship", half, source, truth)
    for opacity in (0.6, 0.5):  # blue at 50% over yellow is barely saturated, yet blue
        true = source.copy()
        pixels.blend(true, masks["red"], (0, 255, 0), opacity)
        pixels.blend(true, masks["yellow"], (255, 0, 0), opacity)
        assert run("relationship", true, source, truth)["verdict"] == "true"
    # Off-pure inks read the same.
    true = source.copy()
    pixels.blend(true, masks["red"], (30, 225, 20), 0.6)
    pixels.blend(true, masks["yellow"], (230, 30, 25), 0.6)
    assert run("relationship", true, source, truth)["verdict"] == "true"
    # Overlays on an object the question does not name are a wrong answer, not "true".
    other = source.copy()
    pixels.blend(other, masks["cyan"], (0, 255, 0), 0.6)
    pixels.blend(other, masks["yellow"], (255, 0, 0), 0.6)
    assert run("relationship", other, source, truth)["verdict"] == "true, on other objects"
    swapped = source.copy()
    pixels.blend(swapped, masks["yellow"], (0, 255, 0), 0.6)
    pixels.blend(swapped, masks["red"], (255, 0, 0), 0.6)
    assert run("relationship", swapped, source, truth)["verdict"] == "true, on other objects"
    grey = pixels.to_grayscale(source)
    assert run("relationship", grey, source, truth)["verdict"] == "false"
    # A stray green stroke on the grey image covers no object: still "false".
    cv2.line(grey, (10, 145), (18, 145), (0, 255, 0), 8)
    assert run("relationship", grey, source, truth)["verdict"] == "false"
    with pytest.raises(Noncompliance, match="neither"):
        run("relationship", source, source, truth)


def test_a_greyed_purple_object_is_no_green_overlay() -> None:
    """Greying a purple object moves it toward green, as a green layer would; what is left is
    grey, which no overlay leaves."""
    source = canvas()
    cv2.rectangle(source, (40, 40), (120, 120), (192, 32, 160), -1)
    grey = pixels.to_grayscale(source)
    mask = pixels.overlay_mask(
        grey,
        source,
        (0, 255, 0),
        hues=[(25, 100)],
        min_saturation=50,
        min_change=25,
        min_alpha=0.3,
        max_residual=0.45,
    )
    assert not mask.any()


def test_trajectory_skeleton_walks_from_the_start() -> None:
    source = canvas(200, 200)
    drawn = source.copy()
    corner = np.array([[20.5, 30.5], [160.5, 30.5], [160.5, 170.5]])
    pixels.polyline(drawn, corner, (0, 0, 255), 3)
    pixels.polyline(drawn, np.array([[20.5, 150.5], [60.5, 180.5]]), (0, 0, 255), 3)  # elsewhere
    path = run("trajectory", drawn, source, S=(20.5, 30.5))["path"]
    assert path.shape == (200, 2)
    assert np.hypot(*(path[0] - corner[0])) < 4 and np.hypot(*(path[-1] - corner[-1])) < 4
    sampled = resample_path(path, 20)
    assert discrete_frechet(sampled / 200, resample_path(corner, 20) / 200) < 0.03
    reverse = run("trajectory", drawn, source, S=(160.5, 170.5))["path"]
    assert np.hypot(*(reverse[0] - corner[-1])) < 4


def _trajectory_item() -> tuple[Item, Any, Any]:
    """S and G on either side of an object, the reference path over the top of it."""
    source = canvas(200, 200)
    cv2.rectangle(source, (85, 85), (115, 130), (208, 48, 16), -1)  # a blue object
    truth = np.zeros(source.shape[:2], np.uint8)
    truth[85:131, 85:116] = 1
    around = np.array([[20.5, 100.5], [75.5, 75.5], [125.5, 75.5], [180.5, 100.5]])
    item = Item(
        "provise",
        "s-trajectory",
        "s",
        "trajectory",
        "Plan a path.",
        (resample_path(around, 20) / 200).tolist(),
        inputs=("s.png",),
        facts={"points": {"S": [20.5 / 200, 100.5 / 200], "G": [180.5 / 200, 100.5 / 200]}},
    )
    return item, source, truth


def test_a_path_must_reach_the_goal_and_cross_no_object() -> None:
    item, source, truth = _trajectory_item()
    rules = protocol("trajectory")
    around = np.asarray(item.answer) * 200

    def drawn(path: Any) -> Any:
        image = source.copy()
        pixels.polyline(image, np.asarray(path, float), (0, 0, 255), 3)
        return image

    grade = grade_drawing(rules, item, drawn(around), source, truth)
    assert grade.status == "correct", grade
    assert grade.parsed["answer"]["over_objects"] == 0
    assert grade.parsed["registration"]["method"] == "none"
    # The straight line is within the DFD threshold, but runs over the object.
    straight = grade_drawing(rules, item, drawn([[20.5, 100.5], [180.5, 100.5]]), source, truth)
    assert straight.status == "incorrect" and straight.parsed["answer"]["dfd"] < 0.4
    assert straight.parsed["answer"]["over_objects"] > 20
    # A path that stops halfway.
    half = grade_drawing(rules, item, drawn(around[:9]), source, truth)
    assert half.status == "incorrect" and half.parsed["answer"]["end_gap"] > 0.05
    # The same rules read a text path.
    text = Reply(item.item_id, "m", "text", output="Answer: [(0.1025, 0.5025), (0.9025, 0.5025)]")
    folder = Path(__file__).parent
    assert _score_text(folder, item, text, source, truth).status == "incorrect"


def _score_text(folder: Path, item: Item, reply: Reply, source: Any, truth: Any) -> Any:
    from suites.provise.grade import _score
    from suites.provise.text import read_text

    rules = protocol(item.task)
    value = read_text(reply.output, rules.text_form, 0)
    return _score(rules, item, value, truth, (source.shape[1], source.shape[0]), text=True)


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
