"""A small split made by ``spatialbabel generate --stack-prob`` with Blender: the stacking facts
hold (checked from the shapes' definitions and by Blender's own mesh intersection test), the
visibility rule still holds, verify passes, the parameter is recorded, the same seed gives the
same bytes, and every stored question, above/below included, is decided as stored by the
answerability reader from the prompt's context."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spatialbabel import Scene
from synth.manifest import verify_split
from tests.qa.answerability import assert_decided_as_stored
from tests.synth.blender_report import blender_report
from tests.synth.geometry_checks import footprints_apart, inside, on_ground, rests_on, vertical_span

pytest.importorskip("bpy")
Image = pytest.importorskip("PIL.Image")

pytestmark = [pytest.mark.bpy, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
N = 6
FLAGS = ["--seed", "3", "--tiers", "T3,T4", "--stack-prob", "0.5", "--no-progress"]


def generate(out: Path, n: int, workers: int) -> None:
    command = [
        sys.executable, "-m", "spatialbabel.cli", "generate", "--n", str(n), "--out", str(out),
        "--workers", str(workers), *FLAGS,
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stacked") / "split"
    generate(out, N, workers=2)
    return out


@pytest.fixture(scope="module")
def scenes(split: Path) -> list[Scene]:
    return [Scene.load(p) for p in sorted((split / "scenes").glob("*.json"))]


def test_the_split_verifies_and_records_the_parameter(split: Path, scenes: list[Scene]) -> None:
    assert verify_split(split) == []
    manifest = json.loads((split / "manifest.json").read_text())
    stacked = sum(o.parent is not None for s in scenes for o in s.objects)
    assert manifest["parameters"]["stack_prob"] == 0.5
    assert manifest["counts"]["stacked_objects"] == stacked >= 3
    assert all(s.meta["parameters"]["stack_prob"] == 0.5 for s in scenes)


def test_objects_rest_fully_on_their_parents_and_never_meet(scenes: list[Scene]) -> None:
    for scene in scenes:
        for obj in scene.objects:
            assert inside(obj, scene.ground)
            if obj.parent is None:
                assert on_ground(obj, scene.ground), obj
            else:
                assert rests_on(obj, scene.get_object(obj.parent), 0.02), obj
        for a, b in itertools.combinations(scene.objects, 2):
            low = max(vertical_span(a)[0], vertical_span(b)[0])
            high = min(vertical_span(a)[1], vertical_span(b)[1])
            if high - low > 1e-9:
                assert footprints_apart(a, b, 0.05), (scene.scene_id, a.id, b.id)


def test_blender_finds_meshes_meeting_only_where_one_rests_on_another(
    split: Path, scenes: list[Scene], tmp_path: Path
) -> None:
    report = blender_report(split, tmp_path / "checks.npz")["report"]
    for scene in scenes:
        resting = {
            frozenset((i, j))
            for i, a in enumerate(scene.objects)
            for j, b in enumerate(scene.objects)
            if a.parent == b.id
        }
        met = {frozenset(pair) for pair in report[scene.scene_id]["overlaps"]}
        assert met <= resting, (scene.scene_id, met - resting)


def test_the_visibility_rule_still_holds(split: Path, scenes: list[Scene]) -> None:
    for scene in scenes:
        with Image.open(split / "masks" / f"{scene.scene_id}.png") as image:
            mask = np.array(image)
        for index, obj in enumerate(scene.objects):
            assert obj.visible_pixels == int((mask == index + 1).sum())
            assert obj.visible_pixels >= 150 and (obj.visible_fraction or 0.0) >= 0.5


def test_every_stored_answer_is_decided_from_the_prompt(split: Path, scenes: list[Scene]) -> None:
    records = [json.loads(line) for line in (split / "qa.jsonl").read_text().splitlines()]
    assert_decided_as_stored(records, scenes)
    assert any(r["kind"] == "vertical" for r in records)


def test_the_same_seed_gives_the_same_bytes(split: Path, tmp_path: Path) -> None:
    # Scenes depend on (seed, index) alone: two scenes made again on one worker are the same.
    again = tmp_path / "again"
    generate(again, 2, workers=1)
    for name in ("scenes/scene_000001.json", "masks/scene_000001.png", "images/scene_000001.png"):
        assert (again / name).read_bytes() == (split / name).read_bytes(), name
