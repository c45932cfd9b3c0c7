"""Stratified subsets, the manifest check and the visibility arithmetic (no Blender)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spatialbabel import Scene, SceneObject
from spatialbabel.files import FileFormatError, write_json
from synth.cameras import scene_cameras
from synth.config import SceneParameters, ScenePaths
from synth.manifest import build_manifest, file_hashes, split_files, verify_split
from synth.subsets import stratified_subsets
from synth.tiers import tier_of
from synth.visibility import (
    Visibility,
    cover_groups,
    failing,
    pixel_boxes,
    pixel_counts,
    projected_box,
)

ROOT = Path(__file__).resolve().parents[2]


def _tiers(n: int) -> list[tuple[str, str]]:
    return [(f"scene_{i:06d}", tier_of(i).name) for i in range(n)]


def test_subsets_partition_the_split_by_tier() -> None:
    subsets = stratified_subsets(_tiers(1000), 0, 101, 467)
    eval_, phase1, unused = subsets["eval"], subsets["phase1"], subsets["unused"]
    assert (len(eval_), len(phase1), len(unused)) == (101, 467, 432)
    assert set(eval_) | set(phase1) | set(unused) == {i for i, _ in _tiers(1000)}
    assert not set(eval_) & set(phase1) and not set(phase1) & set(unused)
    assert eval_ == sorted(eval_)
    # 101 over five equal tiers: 21 for the first, 20 for the others.
    counts = subsets["counts"]["eval"]
    assert sorted(counts[t] for t in ("T1", "T2", "T3", "T4", "T5")) == [20, 20, 20, 20, 21]
    assert all(subsets["counts"]["phase1"][t] in (93, 94) for t in ("T1", "T2", "T3", "T4", "T5"))


def test_subsets_are_deterministic_in_the_seed() -> None:
    assert stratified_subsets(_tiers(50), 3, 10, 20) == stratified_subsets(_tiers(50), 3, 10, 20)
    assert (
        stratified_subsets(_tiers(50), 3, 10, 20)["eval"]
        != stratified_subsets(_tiers(50), 4, 10, 20)["eval"]
    )


def test_subset_sizes_are_cut_to_the_split() -> None:
    subsets = stratified_subsets(_tiers(10), 0, 101, 467)
    assert len(subsets["eval"]) == 10 and subsets["phase1"] == [] and subsets["unused"] == []
    subsets = stratified_subsets(_tiers(10), 0, 4, 3)
    assert (len(subsets["eval"]), len(subsets["phase1"]), len(subsets["unused"])) == (4, 3, 3)
    with pytest.raises(ValueError, match="negative"):
        stratified_subsets(_tiers(10), 0, -1, 3)


def _fake_split(root: Path, objects: tuple[SceneObject, ...] = (), stack_prob: float = 0.0) -> None:
    paths = ScenePaths.of("scene_000000", 2)
    for name in paths.all():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(name.encode())
    Scene("scene_000000", objects).save(root / paths.scene)
    (root / "qa.jsonl").write_text("")
    _write_manifest(root, stack_prob)


def _write_manifest(root: Path, stack_prob: float) -> None:
    manifest = build_manifest(
        generator={"name": "g", "version": "1"},
        blender_versions=["5.0.1", "5.0.1"],
        parameters={"stack_prob": stack_prob},
        counts={},
        files=file_hashes(root, split_files(root)),
    )
    write_json(root / "manifest.json", manifest)


def test_verify_reports_missing_extra_and_corrupt_files(tmp_path: Path) -> None:
    _fake_split(tmp_path)
    assert verify_split(tmp_path) == []
    (tmp_path / "images" / "scene_000000_view1.png").unlink()
    (tmp_path / "scenes" / "scene_000000.json").write_text("changed")
    (tmp_path / "images" / ".scene_000001.png.abc.tmp").write_text("left over")
    found = {(p.kind, p.path) for p in verify_split(tmp_path)}
    assert found == {
        ("missing", "images/scene_000000_view1.png"),
        ("corrupt", "scenes/scene_000000.json"),
        ("invalid", "scenes/scene_000000.json"),
        ("extra", "images/.scene_000001.png.abc.tmp"),
    }


def _stack() -> tuple[SceneObject, ...]:
    """A cylinder on a turned cube, and a cone on the ground."""
    cube = SceneObject("obj0", "cube", (0.0, 0.4, 0.0), (0.0, 30.0, 0.0), (0.8, 0.8, 0.8), "red")
    can = SceneObject("obj1", "cylinder", (0.1, 1.1, 0.0), size=(0.5, 0.6, 0.5), color="blue")
    cone = SceneObject("obj2", "cone", (2.0, 0.5, 0.0), size=(0.6, 1.0, 0.6), color="green")
    return cube, replace(can, parent="obj0"), cone


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o, None),
        (
            lambda o: (o[0], replace(o[1], position=(0.1, 1.2, 0.0)), o[2]),
            "obj1 does not touch the top of obj0 (gap 0.100000 m)",
        ),
        (
            lambda o: (o[0], replace(o[1], position=(0.3, 1.1, 0.0)), o[2]),
            "obj1 overhangs the top of obj0",
        ),
        (
            lambda o: (o[0], o[1], replace(o[2], position=(2.0, 0.6, 0.0))),
            "obj2 has no parent but does not stand on the ground",
        ),
        (
            lambda o: (o[0], replace(o[1], parent="obj2"), o[2]),
            "obj1 rests on obj2, a cone without a flat, level top",
        ),
        (
            lambda o: (replace(o[0], parent="obj1"), o[1], o[2]),
            "objects[0].parent: makes a cycle: obj0 -> obj1 -> obj0",
        ),
    ],
)
def test_verify_checks_the_stacking_facts(tmp_path: Path, change: Any, message: str | None) -> None:
    objects = _stack()
    _fake_split(tmp_path, objects, stack_prob=0.3)
    assert verify_split(tmp_path) == []
    path = tmp_path / "scenes" / "scene_000000.json"
    data = json.loads(path.read_text())
    data["objects"] = [o.to_dict() for o in change(objects)]
    path.write_text(json.dumps(data))
    _write_manifest(tmp_path, 0.3)  # the bytes are the manifest's: only the facts are wrong
    problems = verify_split(tmp_path)
    if message is None:
        assert problems == []
    else:
        assert [(p.kind, p.path) for p in problems] == [("invalid", "scenes/scene_000000.json")]
        assert problems[0].detail.startswith(message), problems[0].detail


def test_verify_refuses_a_stack_in_a_split_made_without_stacking(tmp_path: Path) -> None:
    _fake_split(tmp_path, _stack(), stack_prob=0.0)
    problems = [str(p) for p in verify_split(tmp_path)]
    assert problems == [
        "invalid: scenes/scene_000000.json: obj1 rests on obj0 in a split made without stacking"
    ]


def test_verify_cli_exit_codes(tmp_path: Path) -> None:
    _fake_split(tmp_path)

    def verify() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "spatialbabel.cli", "verify", str(tmp_path)]
        return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)

    assert verify().returncode == 0
    (tmp_path / "masks" / "scene_000000.png").write_bytes(b"x")
    done = verify()
    assert done.returncode == 1 and "corrupt: masks/scene_000000.png" in done.stdout
    (tmp_path / "manifest.json").unlink()
    done = verify()
    assert done.returncode == 3 and "manifest.json" in done.stderr


def test_verify_without_a_manifest_names_it(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match=r"manifest\.json"):
        verify_split(tmp_path)


def test_generate_help_and_verify_do_not_import_bpy() -> None:
    code = (
        "import sys\n"
        "from spatialbabel.cli import main\n"
        "try:\n    main(['generate', '--help'])\nexcept SystemExit:\n    pass\n"
        "import synth\n"
        "assert 'bpy' not in sys.modules, 'bpy was imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "--min-visible-fraction" in done.stdout and "--engine" in done.stdout
    assert "--stack-prob" in done.stdout


def test_bad_flags_are_usage_errors(tmp_path: Path) -> None:
    base = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "generate",
        "--n",
        "1",
        "--out",
        str(tmp_path / "s"),
    ]
    for extra, message in (
        (["--tiers", "T7"], "unknown tier"),
        (["--views", "0"], "views must be at least 1"),
        (["--min-visible-fraction", "1.5"], "fraction"),
        (["--stack-prob", "1.5"], "stack probability must lie in [0, 1], got 1.5"),
    ):
        done = subprocess.run(
            [*base, *extra], capture_output=True, text=True, cwd=ROOT, check=False
        )
        assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (tmp_path / "s").exists()


def test_parameters_round_trip_through_json() -> None:
    params = SceneParameters(seed=4, tiers=("t2", "T1"))
    assert params.tiers == ("T2", "T1")
    assert json.loads(json.dumps(params.to_dict()))["tiers"] == ["T2", "T1"]


# -- visibility arithmetic -----------------------------------------------------------------


def test_pixel_counts_and_boxes() -> None:
    mask = np.zeros((6, 8), np.uint8)
    mask[1:3, 2:5] = 1
    mask[4, 7] = 2
    mask[5, 0] = 9  # a value beyond the objects is ignored
    assert pixel_counts(mask, 3) == [6, 1, 0]
    assert pixel_boxes(mask, 3) == [(2, 1, 5, 3), (7, 4, 8, 5), None]
    assert mask[1:3, 2:5].sum() == 6


def test_failing_objects() -> None:
    measures = [
        Visibility(200, 300, None),
        Visibility(100, 100, None),
        Visibility(200, 500, None),
        Visibility(0, 0, None),
    ]
    assert measures[0].fraction == pytest.approx(2 / 3) and measures[3].fraction == 0.0
    assert failing(measures, 0.5, 150) == [1, 2, 3]
    assert failing(measures, 0.0, 0) == []


def test_cover_groups_hold_pairwise_apart_boxes() -> None:
    camera = scene_cameras(1, 512)[0]
    objects = [
        SceneObject(f"o{i}", "cube", (x, 0.25, z), size=(0.5, 0.5, 0.5), color="red")
        for i, (x, z) in enumerate([(-2.5, 0.0), (0.0, 0.0), (0.0, -0.8), (0.0, -1.6), (2.5, 2.5)])
    ]
    groups = cover_groups(objects, camera)
    grouped = sorted(i for g in groups for i in g)
    assert grouped == [1, 2, 3]  # the two side cubes overlap nothing
    boxes = [projected_box(o, camera) for o in objects]
    for group in groups:
        for a in group:
            for b in group:
                if a < b:
                    apart_x = boxes[a][2] + 2 < boxes[b][0] or boxes[b][2] + 2 < boxes[a][0]
                    apart_y = boxes[a][3] + 2 < boxes[b][1] or boxes[b][3] + 2 < boxes[a][1]
                    assert apart_x or apart_y
