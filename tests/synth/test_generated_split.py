"""A real 10-scene split made by ``spatialbabel generate`` with Blender, checked against every
contract: files and manifest, layout, ground truth re-measured from the ID pass, camera
agreement with Blender's projection, determinism, resume after SIGKILL, and verify."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from spatialbabel import Scene, nearest_palette_name
from spatialbabel.classes import TORUS_MAJOR_RADIUS
from synth.config import SceneParameters, ScenePaths
from synth.layout import LayoutRules
from synth.manifest import split_files, verify_split
from synth.visibility import projected_box
from tests.synth.blender_report import blender_report
from tests.synth.geometry_checks import footprints_apart, inside, on_ground, yaw_only

pytest.importorskip("bpy")
Image = pytest.importorskip("PIL.Image")

pytestmark = [pytest.mark.bpy, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
N = 10
FLAGS = [
    "--n",
    str(N),
    "--seed",
    "0",
    "--views",
    "2",
    "--eval-size",
    "4",
    "--phase1-size",
    "3",
    "--no-progress",
]


def generate(out: Path, *extra: str, workers: int = 2) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "generate",
        *FLAGS,
        "--out",
        str(out),
        "--workers",
        str(workers),
        *extra,
    ]
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )


def contents(root: Path) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in split_files(root) + ["manifest.json"]}


@pytest.fixture(scope="session")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated") / "primitive"
    done = generate(out)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def scenes(split: Path) -> list[Scene]:
    return [Scene.load(p) for p in sorted((split / "scenes").glob("*.json"))]


@pytest.fixture(scope="session")
def blender(split: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return blender_report(split, tmp_path_factory.mktemp("blender") / "checks.npz")


def read_mask(path: Path) -> NDArray[np.uint8]:
    with Image.open(path) as image:
        assert image.mode == "L"
        return np.array(image)


def test_split_holds_every_file_and_verifies(split: Path, scenes: list[Scene]) -> None:
    assert verify_split(split) == []
    manifest = json.loads((split / "manifest.json").read_text())
    expected = {p for i in range(N) for p in ScenePaths.of(f"scene_{i:06d}", 2).all()} | {
        "subsets.json",
        "qa.jsonl",
    }
    assert set(manifest["files"]) == expected == set(split_files(split))
    assert manifest["parameters"] == {
        "n": N,
        **SceneParameters(views=2).to_dict(),
        "stack_prob": 0.0,
        "eval_size": 4,
        "phase1_size": 3,
    }
    # Unstacked: no parent anywhere, and the scenes' parameters are written as before stacking.
    assert manifest["counts"]["stacked_objects"] == 0
    for name in manifest["files"]:
        if name.startswith("scenes/"):
            data = json.loads((split / name).read_text())
            assert "stack_prob" not in data["meta"]["parameters"]
            assert not any("parent" in o for o in data["objects"])
    assert manifest["blender_version"].startswith("5.")
    assert manifest["counts"]["by_tier"] == {f"T{k}": 2 for k in range(1, 6)}
    assert manifest["counts"]["objects"] == sum(len(s.objects) for s in scenes)
    subsets = json.loads((split / "subsets.json").read_text())
    assert (len(subsets["eval"]), len(subsets["phase1"]), len(subsets["unused"])) == (4, 3, 3)
    assert [len(s.cameras) for s in scenes] == [2] * N
    assert [s.cameras[0].name for s in scenes] == ["front"] * N


def test_masks_are_8_bit_single_channel_pngs(split: Path, scenes: list[Scene]) -> None:
    for scene in scenes:
        data = (split / "masks" / f"{scene.scene_id}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
        width, height, depth, colour_type = struct.unpack(">IIBB", data[16:26])
        assert (width, height, depth, colour_type) == (512, 512, 8, 0)
        assert zlib.crc32(data[12:29]) == struct.unpack(">I", data[29:33])[0]


def test_objects_keep_the_layout_contracts(scenes: list[Scene]) -> None:
    gap = LayoutRules().gap
    for scene in scenes:
        tier = scene.meta["tier"]
        low, high = {"T1": (3, 3), "T2": (4, 6), "T3": (7, 10), "T4": (11, 15), "T5": (16, 20)}[
            tier
        ]
        assert low <= len(scene.objects) <= high
        for obj in scene.objects:
            assert on_ground(obj, scene.ground) and inside(obj, scene.ground) and yaw_only(obj), obj
        for a, b in itertools.combinations(scene.objects, 2):
            assert footprints_apart(a, b, gap), (scene.scene_id, a.id, b.id)


def test_ground_truth_is_remeasured_from_the_id_pass(
    split: Path, scenes: list[Scene], blender: dict[str, Any]
) -> None:
    for scene in scenes:
        mask = read_mask(split / "masks" / f"{scene.scene_id}.png")
        assert mask.max() <= len(scene.objects)
        for index, obj in enumerate(scene.objects):
            own = mask == index + 1
            rows, cols = np.nonzero(own)
            assert obj.visible_pixels == int(own.sum())
            assert obj.bbox_2d == (cols.min(), rows.min(), cols.max() + 1, rows.max() + 1)
            full = int((blender[f"solo_{scene.scene_id}_{index}"] == index + 1).sum())
            assert scene.meta["full_pixels"][index] == full
            assert obj.visible_fraction == round(obj.visible_pixels / full, 6)
            assert obj.visible_pixels >= 150 and obj.visible_fraction >= 0.5
    fractions = [o.visible_fraction for s in scenes for o in s.objects]
    assert (
        min(f for f in fractions if f is not None) < 1.0
    )  # some objects are partly covered, so the rule is exercised


def test_cameras_agree_with_blenders_projection(
    scenes: list[Scene], blender: dict[str, Any]
) -> None:
    slack = []
    for scene in scenes:
        front = scene.cameras[0]
        for index, obj in enumerate(scene.objects):
            solo = blender[f"solo_{scene.scene_id}_{index}"]
            centre = np.array(obj.position)
            if obj.class_name == "torus":
                # The centre of a ring is its hole; take the tube's point nearest the camera.
                centre = centre + np.array([0.0, 0.0, TORUS_MAJOR_RADIUS * obj.size[0]])
            uv, _ = front.project(centre[None, :])
            u, v = uv[0]
            assert solo[int(v), int(u)] == index + 1, (scene.scene_id, obj.id)
            # Blender fills a pixel when its centre (col + 0.5, row + 0.5) falls inside the
            # projected mesh: every filled centre lies in the box projected with K, and thin
            # spikes (a cone's apex) may leave up to two pixels of the box unfilled.
            rows, cols = np.nonzero(solo == index + 1)
            u0, v0, u1, v1 = projected_box(obj, front)
            inner = np.array(
                [
                    cols.min() + 0.5 - u0,
                    rows.min() + 0.5 - v0,
                    u1 - cols.max() - 0.5,
                    v1 - rows.max() - 0.5,
                ]
            )
            slack.append(inner)
    slack_all = np.array(slack)
    assert slack_all.min() >= -0.01
    assert slack_all.max() <= 2.0
    # A side falls anywhere within its last pixel: about half a pixel of slack on average.
    assert 0.3 <= slack_all.mean() <= 0.8


def test_blender_meshes_rest_on_the_ground_apart_and_inside(
    scenes: list[Scene], blender: dict[str, Any]
) -> None:
    report = blender["report"]
    for scene in scenes:
        assert report[scene.scene_id]["overlaps"] == []
        for lo, hi in report[scene.scene_id]["bounds"]:
            # Blender is Z-up: its z is the canonical height, its x and -y the ground axes.
            assert lo[2] == pytest.approx(0.0, abs=1e-5)
            assert (
                lo[0] >= -3.0 - 1e-5
                and hi[0] <= 3.0 + 1e-5
                and lo[1] >= -3.0 - 1e-5
                and hi[1] <= 3.0 + 1e-5
            )


def test_images_show_each_object_in_its_palette_colour(split: Path, scenes: list[Scene]) -> None:
    for scene in scenes:
        mask = read_mask(split / "masks" / f"{scene.scene_id}.png")
        with Image.open(split / "images" / f"{scene.scene_id}.png") as image:
            assert image.mode == "RGB" and image.size == (512, 512)
            pixels = np.asarray(image, dtype=float) / 255.0
        with Image.open(split / "images" / f"{scene.scene_id}_view1.png") as other:
            assert other.size == (512, 512) and not np.array_equal(np.asarray(other), pixels)
        for index, obj in enumerate(scene.objects):
            colour = np.median(pixels[mask == index + 1], axis=0)
            assert nearest_palette_name(tuple(colour)) == obj.color, (
                scene.scene_id,
                obj.id,
                colour,
            )


def test_a_second_run_gives_the_same_bytes(split: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    done = generate(again, workers=1)
    assert done.returncode == 0, done.stderr
    assert contents(again) == contents(split)


def test_a_killed_run_resumes_to_the_same_bytes(split: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "generate",
        *FLAGS,
        "--out",
        str(out),
        "--workers",
        "1",
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list((out / "scenes").glob("*.json"))) < 3:
            assert process.poll() is None and time.monotonic() < deadline, (
                "generate ended before it could be killed"
            )
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    finished = {p.name: p.stat().st_mtime_ns for p in (out / "scenes").glob("*.json")}
    assert 3 <= len(finished) < N and not (out / "manifest.json").exists()
    done = generate(out)
    assert done.returncode == 0, done.stderr
    assert contents(out) == contents(split)
    # Only what was missing was made again.
    assert {name: (out / "scenes" / name).stat().st_mtime_ns for name in finished} == finished


def test_verify_reports_deleted_corrupted_and_extra_files(split: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(split, copy)
    (copy / "images" / "scene_000003.png").unlink()
    data = bytearray((copy / "masks" / "scene_000005.png").read_bytes())
    data[-20] ^= 0xFF
    (copy / "masks" / "scene_000005.png").write_bytes(bytes(data))
    (copy / "scenes" / "notes.txt").write_text("not part of the split")
    done = subprocess.run(
        [sys.executable, "-m", "spatialbabel.cli", "verify", str(copy)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert f"{copy}: missing: images/scene_000003.png" in done.stdout
    assert f"{copy}: corrupt: masks/scene_000005.png" in done.stdout
    assert f"{copy}: extra: scenes/notes.txt" in done.stdout


def test_a_rerun_with_other_parameters_is_refused(split: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(split, copy)
    done = generate(copy, "--min-visible-pixels", "200")
    assert done.returncode == 1
    assert "scene_000000.json was generated with other parameters" in done.stderr
    assert contents(copy) == contents(split)


def test_an_impossible_rule_ends_in_an_error_naming_the_scene(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "generate",
        "--n",
        "1",
        "--out",
        str(tmp_path / "s"),
        "--min-visible-pixels",
        "100000",
        "--max-tries",
        "2",
        "--no-progress",
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )
    assert done.returncode == 1
    assert (
        "scene scene_000000 (seed 0, index 0, tier T1)" in done.stderr
        and "in 2 tries" in done.stderr
    )
    assert not (tmp_path / "s" / "scenes").exists()


def test_cycles_renders_the_same_scenes(tmp_path: Path) -> None:
    def small(engine: str) -> Path:
        out = tmp_path / engine
        command = [
            sys.executable, "-m", "spatialbabel.cli", "generate", "--n", "1", "--out", str(out),
            "--engine", engine, "--resolution", "96", "--min-visible-pixels", "10", "--no-progress",
        ]  # fmt: skip
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return out

    workbench, cycles = small("workbench"), small("cycles")
    first, second = (
        Scene.load(workbench / "scenes/scene_000000.json"),
        Scene.load(cycles / "scenes/scene_000000.json"),
    )
    # The layout and its ground truth come from Workbench ID passes whatever the image engine.
    assert first.objects == second.objects
    assert (workbench / "masks/scene_000000.png").read_bytes() == (
        cycles / "masks/scene_000000.png"
    ).read_bytes()
    with Image.open(cycles / "images/scene_000000.png") as image:
        assert image.mode == "RGB" and image.size == (96, 96)
        pixels = np.asarray(image)
        # Cycles writes its render times into PNG text chunks; they would break byte-identity.
        assert not [key for key in image.info if key.startswith("cycles")]
    with Image.open(workbench / "images/scene_000000.png") as image:
        assert not np.array_equal(np.asarray(image), pixels)
