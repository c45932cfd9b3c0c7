"""SpatialMind's shortcut battery on a 30-clip set made without Blender (the stand-in renderer):
every shortcut sits at chance on every task, each shortcut's answers recomputed with the tests'
own code, the chance baseline's layout, and the spreading of numeric answers."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from spatialbabel.cli import ExitCode, main
from spatialbabel.clip import Clip
from suites import load_suite
from suites.base import Item
from suites.choices import letter
from suites.items import read_items
from suites.numeric import mra, read_quantity
from suites.shortcuts import above_chance, check_shortcuts
from suites.spatialmind.spread import MAX_DROPPED, excess, spread
from suites.spatialmind.tasks import OPTIONS, Candidate
from synth.clip_unit import ClipParameters, generate_clip_unit
from synth.clips import clip_set
from tests.suites.spatialmind import truth
from tests.suites.spatialmind.boxes_renderer import BoxesRenderer

pytest.importorskip("PIL.Image")

SUITE = load_suite("spatialmind")
CLIPS = 30
PARAMS = ClipParameters(seed=0, resolution=128, video=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Item]]:
    root = tmp_path_factory.mktemp("battery") / "clips"
    renderer = BoxesRenderer()
    for index in range(CLIPS):
        generate_clip_unit(root, index, PARAMS, renderer, "stand-in")
    clip_set(root, CLIPS, PARAMS).finalise()
    out = root.parent / "items"
    args = ["suite", "build", "--suite", "spatialmind", "--split", str(root), "--out", str(out)]
    assert main(args) == ExitCode.OK
    return root, list(read_items(out, SUITE).items)


def answer_of(item: Item, text: str) -> float | str:
    """What a reference reply's ``Answer: ...`` says: a letter, or a number in the item's unit."""
    rest = text.removeprefix("Answer: ")
    if item.options:
        return rest
    value, why = read_quantity(rest, str(item.facts["unit"]))
    assert value is not None, why
    return value


def test_every_shortcut_sits_at_chance_on_every_task(built: tuple[Path, list[Item]]) -> None:
    _, items = built
    checks = check_shortcuts(SUITE, items)
    assert {c.task for c in checks} == set(SUITE.tasks)
    assert {c.shortcut for c in checks} == {
        "persistence",
        "keep_going",
        "majority",
        "median",
        "typical_rate",
    }
    assert above_chance(checks) == [], "\n".join(str(c) for c in above_chance(checks))
    # Most tasks keep most of their clips (the builder drops only what a shortcut would win).
    sizes = Counter(item.task for item in items)
    assert all(n >= CLIPS // 2 for n in sizes.values()), sizes


def _decided(theta: float, speed: float) -> str:
    if speed < 0.5:
        return "stop"
    if abs(theta) < 9.0:
        return "straight"
    return "left" if theta > 0 else "right"


def test_each_shortcut_answers_what_its_rule_says(built: tuple[Path, list[Item]]) -> None:
    root, items = built
    clips = {p.stem: Clip.load(p) for p in sorted((root / "clips").glob("*.json"))}
    shortcuts = {s.name: s for s in SUITE.shortcuts(items, 42)}
    by_kind: dict[tuple[str, str], list[Item]] = {}
    for item in items:
        by_kind.setdefault((item.task, str(item.facts.get("unit", ""))), []).append(item)
    for item in items:
        clip = clips[item.scene_id]
        for name, shortcut in shortcuts.items():
            if item.task not in shortcut.tasks:
                assert item.item_id not in shortcut.answers
                continue
            said = answer_of(item, shortcut.answers[item.item_id].output)
            pool = by_kind[(item.task, str(item.facts.get("unit", "")))]
            if name == "keep_going":
                # The last observed step's speed and heading change, carried over [t_a, t_f].
                t = clip.observed - 1
                fps = clip.fps
                step = truth.distance_walked(clip, t - 1, t) * fps
                turn = truth.heading_change(clip, t - 1, t) * fps
                theta = turn * (item.facts["t_f"] - item.facts["t_a"]) / fps
                expected: float | str = letter(
                    list(OPTIONS["ego_future"]).index(_decided(theta, step))
                )
            elif name == "persistence":
                expected = item.facts["persistence"]
                if not item.options:
                    expected = float(str(expected))
            elif name == "majority":
                counts = Counter(str(i.answer) for i in pool)
                expected = sorted(counts, key=lambda a: (-counts[a], a))[0]
            elif name == "median":
                values = sorted(float(i.answer) for i in pool)
                middle = len(values) // 2
                median = (
                    values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
                )
                expected = float(f"{median:.{_places(item)}f}")
            else:
                assert name == "typical_rate"

                def per(i: Item) -> float:
                    speed = i.facts["unit"] == "m/s"
                    return 1.0 if speed else (i.facts["t2"] - i.facts["t1"]) / i.facts["fps"]

                rates = sorted(float(i.answer) / per(i) for i in pool)
                rate = float(np.median(rates))
                expected = float(f"{rate * per(item):.{_places(item)}f}")
            if isinstance(expected, float):
                assert said == pytest.approx(expected, abs=1e-9), (name, item.item_id)
            else:
                assert said == expected, (name, item.item_id)


def _places(item: Item) -> int:
    return {"m": 1, "m/s": 2, "deg": 0}[str(item.facts["unit"])]


def test_chance_is_a_guess_at_its_expected_rate(built: tuple[Path, list[Item]]) -> None:
    """Multiple choice: right on round(n / options) items of a task; numbers: the task's own
    written answers dealt out again, no item getting its own, with the mean of the pairs."""
    _, items = built
    guesses = SUITE.baselines(items, 42)["chance"]
    for task in SUITE.tasks:
        pool = [i for i in items if i.task == task]
        if pool[0].options:
            right = sum(guesses[i.item_id].output == f"Answer: {i.answer}" for i in pool)
            assert right == round(len(pool) / len(pool[0].options))
            continue
        for unit in {str(i.facts["unit"]) for i in pool}:
            group = [i for i in pool if i.facts["unit"] == unit]
            said = [float(answer_of(i, guesses[i.item_id].output)) for i in group]
            written = [float(i.facts["answer_text"]) for i in group]
            assert sorted(said) == pytest.approx(sorted(written))
            assert all(g != w or written.count(w) > 1 for g, w in zip(said, written, strict=True))
            if len(group) > 2:
                score = float(
                    np.mean([mra(g, float(i.answer)) for g, i in zip(said, group, strict=True)])
                )
                pairs = [
                    mra(a, float(b.answer))
                    for k, b in enumerate(group)
                    for j, a in enumerate(written)
                    if j != k
                ]
                assert score == pytest.approx(float(np.mean(pairs)), abs=0.1)


def _number(key: str, value: float, span: float) -> Candidate:
    return Candidate(
        "ego_path", key, "q", value=value, unit="m", facts={"span": span, "t1": 0, "t2": 1}
    )


def test_spread_swaps_items_a_typical_answer_would_win() -> None:
    """Forty clips whose first candidates are paths of 1 to 40 m all walked at 1.25 m/s (the
    typical rate times the span wins every one), each with alternatives at other speeds:
    spreading (swapping, then dropping) brings the shortcuts down to within a few points of
    the set's chance."""
    rng = np.random.default_rng(3)
    candidates: dict[str, list[Candidate]] = {}
    picked: dict[str, list[Candidate]] = {}
    for k in range(40):
        path = float(math.exp(rng.uniform(0, math.log(40))))
        walked = _number(f"{k}-walked", path, path / 1.25)
        others = [
            _number(f"{k}-{j}", path, path / float(math.exp(rng.uniform(-2.5, 1.5))))
            for j in range(12)
        ]
        candidates[f"clip{k:02d}"] = [walked, *others]
        picked[f"clip{k:02d}"] = [walked]
    first = [c for cs in picked.values() for c in cs]
    assert excess("ego_path", first) > 0.5
    result = spread("ego_path", picked, candidates, np.random.default_rng(0))
    # One item a clip, from the clip's own candidates; at most a quarter of the clips dropped.
    assert all(len(v) == 1 and v[0] in candidates[c] for c, v in result.items())
    assert len(result) >= 40 * (1 - MAX_DROPPED)
    chosen = [c for cs in result.values() for c in cs]
    assert excess("ego_path", chosen) < 0.05
    assert sum(c.key.endswith("walked") for c in chosen) < 20
