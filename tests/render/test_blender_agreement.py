"""The renderer against Blender: on a split made by ``spatialbabel generate``, the ground truth
re-rendered by pyrender agrees with Blender's ID pass, object by object (mask IoU >= 0.95)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

pytest.importorskip("bpy")
pytest.importorskip("pyrender")
from PIL import Image

import render
from render import Renderer
from render.silhouette import mask_iou
from spatialbabel import Scene
from tests.render.conftest import ROOT

pytestmark = [pytest.mark.bpy, pytest.mark.render, pytest.mark.slow]

#: Every tier twice, at the generator's default resolution.
FLAGS = ("--n", "10", "--seed", "21", "--eval-size", "10", "--phase1-size", "0", "--no-progress")
MIN_IOU = 0.95


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("agreement") / "split"
    done = subprocess.run(
        [sys.executable, "-m", "spatialbabel.cli", "generate", *FLAGS, "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out


def id_pass(split: Path, scene_id: str) -> NDArray[np.uint8]:
    with Image.open(split / "masks" / f"{scene_id}.png") as image:
        assert image.mode == "L"
        return np.asarray(image)


def test_every_object_mask_agrees_with_blenders_id_pass(split: Path, renderer: Renderer) -> None:
    ious: list[float] = []
    failures = []
    for path in sorted((split / "scenes").glob("*.json")):
        truth = Scene.load(path)
        blender = id_pass(split, truth.scene_id)
        ours = renderer.render(truth, color=False)
        assert ours.instances.shape == blender.shape
        # Both passes label exactly the same set of objects (none hidden in one only).
        assert set(np.unique(ours.instances)) == set(np.unique(blender))
        for index, obj in enumerate(truth.objects):
            iou = mask_iou(ours.mask(index), blender == index + 1)
            ious.append(iou)
            if iou < MIN_IOU:
                failures.append(f"{truth.scene_id}/{obj.id} ({obj.class_name}): IoU {iou:.3f}")
    assert len(ious) >= 60
    assert not failures, failures
    print(f"\n{len(ious)} objects: mean IoU {np.mean(ious):.4f}, min {np.min(ious):.4f}")


def test_visible_pixel_counts_match_the_generators_ground_truth(
    split: Path, renderer: Renderer
) -> None:
    for path in sorted((split / "scenes").glob("*.json")):
        truth = Scene.load(path)
        counts = renderer.render(truth, color=False).pixel_counts()
        recorded = np.array([o.visible_pixels for o in truth.objects], dtype=float)
        np.testing.assert_allclose(counts, recorded, rtol=0.05, atol=20)


def test_silhouette_iou_of_the_truth_against_its_own_split(split: Path) -> None:
    for path in sorted((split / "scenes").glob("*.json")):
        truth = Scene.load(path)
        assert render.silhouette_iou(truth, truth, split) >= 0.99
