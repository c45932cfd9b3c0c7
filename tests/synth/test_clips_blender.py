"""A real clip set made by ``spatialbabel clips`` with Blender, small (two 64x64 clips of 16
frames): the manifest and verify, the ID passes re-measured and checked against the camera's
projection, the MP4 against the frames, the same bytes from 1 or 2 workers, and resume."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spatialbabel.clip import Clip
from synth.manifest import split_files, verify_split
from synth.visibility import projected_box

pytest.importorskip("bpy")
pytest.importorskip("imageio_ffmpeg")
Image = pytest.importorskip("PIL.Image")

pytestmark = [pytest.mark.bpy, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
FLAGS = ["--n", "2", "--seed", "5", "--resolution", "64", "--observed", "16", "--horizon", "5"]


def clips(out: Path, workers: int) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "spatialbabel.cli", "clips", *FLAGS, "--no-progress"]
    return subprocess.run(
        [*command, "--out", str(out), "--workers", str(workers)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )


def contents(root: Path) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in [*split_files(root), "manifest.json"]}


@pytest.fixture(scope="module")
def clip_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("clips") / "set"
    done = clips(out, 2)
    assert done.returncode == 0, done.stderr
    return out


def test_clip_set_files_and_manifest(clip_set: Path) -> None:
    assert verify_split(clip_set) == []
    manifest = json.loads((clip_set / "manifest.json").read_text())
    assert manifest["kind"] == "spatialbabel-clips"
    assert manifest["counts"]["clips"] == 2
    assert manifest["counts"]["observed_frames"] == 32
    assert manifest["counts"]["future_frames"] == 10
    names = set(manifest["files"])
    for k in range(2):
        assert f"clips/clip_{k:06d}.json" in names
        assert f"videos/clip_{k:06d}.mp4" in names
        assert {f"frames/clip_{k:06d}/{t:03d}.png" for t in range(16)} <= names
        assert {f"ids/clip_{k:06d}/{t:03d}.png" for t in range(16)} <= names


def test_id_passes_match_the_ground_truth_and_the_projection(clip_set: Path) -> None:
    seen = 0
    for path in sorted((clip_set / "clips").glob("*.json")):
        clip = Clip.load(path)
        assert clip.frame_count == 21 and clip.observed == 16
        for t in range(clip.observed):
            with Image.open(clip_set / f"ids/{clip.clip_id}/{t:03d}.png") as image:
                assert image.mode == "L"
                mask = np.array(image)
            with Image.open(clip_set / f"frames/{clip.clip_id}/{t:03d}.png") as image:
                assert (image.mode, image.size) == ("RGB", (64, 64))
            counts = [int((mask == i + 1).sum()) for i in range(len(clip.objects))]
            assert counts == list(clip.frames[t].visible_pixels or ())
            assert int(mask.max()) <= len(clip.objects)
            scene = clip.scene(t)
            for i, obj in enumerate(scene.objects):
                if not counts[i]:
                    continue
                seen += 1
                u0, v0, u1, v1 = projected_box(obj, scene.cameras[0])
                rows, cols = np.nonzero(mask == i + 1)
                # Every pixel of the object lies in the box its mesh projects to (pixel centres
                # at half-integers), so Blender's camera is the clip's camera.
                assert cols.min() + 0.5 >= u0 - 1 and cols.max() + 0.5 <= u1 + 1
                assert rows.min() + 0.5 >= v0 - 1 and rows.max() + 0.5 <= v1 + 1
    assert seen > 20


def test_the_mp4_holds_the_frames(clip_set: Path) -> None:
    from synth.video import read_mp4

    frames, fps = read_mp4(clip_set / "videos/clip_000000.mp4")
    assert fps == 5.0 and len(frames) == 16
    for t in (0, 15):
        with Image.open(clip_set / f"frames/clip_000000/{t:03d}.png") as image:
            png = np.asarray(image.convert("RGB"), dtype=float)
        assert frames[t].shape == (64, 64, 3)
        assert np.abs(frames[t].astype(float) - png).mean() < 6.0


def test_one_worker_gives_the_same_bytes_and_a_rerun_resumes(
    clip_set: Path, tmp_path: Path
) -> None:
    single = tmp_path / "single"
    done = clips(single, 1)
    assert done.returncode == 0, done.stderr
    expected = contents(clip_set)
    assert contents(single) == expected
    # Interrupted: a clip's JSON and another's frame gone, a write left half done.
    (single / "clips/clip_000001.json").unlink()
    (single / "frames/clip_000000/007.png").unlink()
    (single / "videos/.clip_000000.mp4.123.tmp").write_bytes(b"partial")
    assert verify_split(single) != []
    done = clips(single, 1)
    assert done.returncode == 0, done.stderr
    assert contents(single) == expected
    # Other parameters into the same folder are refused, not mixed.
    shutil.copytree(single, tmp_path / "other")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "spatialbabel.cli",
            "clips",
            *FLAGS[:-2],
            "--horizon",
            "6",
            "--no-progress",
            "--out",
            str(tmp_path / "other"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert done.returncode == 1 and "other parameters" in done.stderr
