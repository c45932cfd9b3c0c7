"""``spatialbabel render``: one scene file to a PNG, with clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyrender")
from PIL import Image

from spatialbabel import Camera, Scene, SceneObject
from tests.render.conftest import ROOT, front_camera

pytestmark = pytest.mark.render


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spatialbabel.cli", "render", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )


@pytest.fixture()
def scene_file(tmp_path: Path) -> Path:
    objects = (
        SceneObject("a", "cube", (0.0, 0.5, 0.0), color="red"),
        SceneObject("b", "sphere", (1.5, 0.4, 0.5), size=(0.8, 0.8, 0.8), color="blue"),
    )
    side = Camera.looking_at("side", (9.0, 4.0, 0.0), width=120, height=90)
    scene = Scene("one", objects, (front_camera(160, 100), side))
    path = tmp_path / "one.json"
    scene.save(path)
    return path


def test_renders_the_frontal_camera_at_its_resolution(scene_file: Path, tmp_path: Path) -> None:
    done = run(
        str(scene_file), "--out", str(tmp_path / "out.png"), "--masks", str(tmp_path / "ids.png")
    )
    assert done.returncode == 0, done.stderr
    assert "camera front, 160x100, 2/2 objects visible" in done.stdout
    with Image.open(tmp_path / "out.png") as image:
        assert image.size == (160, 100) and image.mode == "RGB"
    with Image.open(tmp_path / "ids.png") as ids:
        labels = np.asarray(ids)
    assert set(np.unique(labels)) == {0, 1, 2}


def test_shading_is_chosen_on_the_command_line(scene_file: Path, tmp_path: Path) -> None:
    images = {}
    for shading in ("lambert", "pbr"):
        out = tmp_path / f"{shading}.png"
        done = run(str(scene_file), "--shading", shading, "--out", str(out))
        assert done.returncode == 0, done.stderr
        with Image.open(out) as image:
            images[shading] = np.asarray(image.convert("RGB"))
    assert images["lambert"].shape == images["pbr"].shape == (100, 160, 3)
    assert np.abs(images["lambert"].astype(int) - images["pbr"].astype(int)).max() > 10
    done = run(str(scene_file), "--shading", "phong", "--out", str(tmp_path / "x.png"))
    assert done.returncode == 2 and "invalid choice: 'phong'" in done.stderr


def test_renders_a_named_camera(scene_file: Path, tmp_path: Path) -> None:
    done = run(str(scene_file), "--camera", "side", "--out", str(tmp_path / "side.png"))
    assert done.returncode == 0, done.stderr
    with Image.open(tmp_path / "side.png") as image:
        assert image.size == (120, 90)


def test_unknown_camera_lists_the_cameras(scene_file: Path, tmp_path: Path) -> None:
    done = run(str(scene_file), "--camera", "top", "--out", str(tmp_path / "x.png"))
    assert done.returncode == 3
    assert "has no camera 'top'; it has: front, side" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_broken_scene_file_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"schema_version": 1, "scene_id": "x", "objects": [{"id": "a", "class_name": "cube", "position": [1, 2]}]}'
    )
    done = run(str(bad), "--out", str(tmp_path / "x.png"))
    assert done.returncode == 3
    assert "objects[0].position: expected 3 numbers, got 2" in done.stderr


def test_no_opengl_context_is_exit_4_with_what_to_install(scene_file: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYOPENGL_PLATFORM": "no-such-platform"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "spatialbabel.cli",
            "render",
            str(scene_file),
            "--out",
            str(tmp_path / "x.png"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=300,
    )
    assert done.returncode == 4
    assert (
        "no-such-platform" in done.stderr
        and "libegl1 libegl-mesa0 libgl1-mesa-dri libgl1" in done.stderr
    )
