"""``render.silhouette_iou``, the optional score column, against ID passes on disk."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyrender")

from PIL import Image

import render
from render.silhouette import mask_iou
from spatialbabel import Scene
from spatialbabel.files import FileFormatError
from tests.render.conftest import png_bytes

pytestmark = pytest.mark.render


def scenes(split: Path) -> list[Scene]:
    return [Scene.load(p) for p in sorted((split / "scenes").glob("*.json"))]


def test_mask_iou_counts() -> None:
    a = np.zeros((4, 4), bool)
    b = np.zeros((4, 4), bool)
    assert mask_iou(a, b) == 1.0
    a[0, :2] = True
    assert mask_iou(a, b) == 0.0
    b[0, 1:3] = True
    assert mask_iou(a, b) == pytest.approx(1 / 3)


def test_the_truth_matches_its_own_id_pass(synthetic_split: Path) -> None:
    for truth in scenes(synthetic_split):
        assert render.silhouette_iou(truth, truth, synthetic_split) == 1.0


def test_prediction_without_camera_or_ground_is_drawn_as_the_truth_sees_it(
    synthetic_split: Path,
) -> None:
    truth = scenes(synthetic_split)[1]
    # Parsed replies have no camera; their ground is the default one.
    bare = Scene("parsed", truth.objects)
    assert render.silhouette_iou(bare, truth, synthetic_split) == 1.0


def test_iou_falls_as_the_prediction_drifts(synthetic_split: Path) -> None:
    truth = scenes(synthetic_split)[2]
    values = []
    for shift in (0.0, 0.15, 0.4, 1.0):
        moved = tuple(
            replace(o, position=(o.position[0] + shift, o.position[1], o.position[2]))
            for o in truth.objects
        )
        values.append(render.silhouette_iou(Scene("p", moved), truth, synthetic_split))
    assert values[0] == 1.0
    assert values == sorted(values, reverse=True) and values[-1] < 0.6


def test_half_the_objects_give_the_share_of_their_pixels(synthetic_split: Path) -> None:
    truth = scenes(synthetic_split)[2]
    with Image.open(synthetic_split / "masks" / f"{truth.scene_id}.png") as image:
        id_pass = np.asarray(image)
    kept = truth.objects[::2]
    expected = np.isin(id_pass, [2 * k + 1 for k in range(len(kept))]).sum() / (id_pass > 0).sum()
    got = render.silhouette_iou(Scene("p", kept), truth, synthetic_split)
    # Objects left out may have hidden parts of the kept ones, so the share is a lower bound.
    assert expected <= got < 1.0
    assert got == pytest.approx(expected, abs=0.05)


def test_empty_prediction_scores_zero(synthetic_split: Path) -> None:
    truth = scenes(synthetic_split)[0]
    assert render.silhouette_iou(Scene("p"), truth, synthetic_split) == 0.0


def test_missing_or_wrong_id_pass_names_the_file(synthetic_split: Path, tmp_path: Path) -> None:
    truth = scenes(synthetic_split)[0]
    with pytest.raises(FileFormatError, match=r"masks/scene_000000\.png: no such file"):
        render.silhouette_iou(truth, truth, tmp_path)
    (tmp_path / "masks").mkdir()
    (tmp_path / "masks" / "scene_000000.png").write_bytes(png_bytes(np.zeros((10, 10), np.uint8)))
    with pytest.raises(FileFormatError, match="ID pass is 10x10, camera 'front' is 200x150"):
        render.silhouette_iou(truth, truth, tmp_path)
    (tmp_path / "masks" / "scene_000000.png").write_bytes(
        png_bytes(np.zeros((150, 200, 3), np.uint8))
    )
    with pytest.raises(FileFormatError, match="single-channel"):
        render.silhouette_iou(truth, truth, tmp_path)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_scoring_adds_the_column_through_the_public_hook(
    synthetic_split: Path, synthetic_replies: Path, tmp_path: Path, workers: str
) -> None:
    from tests.render.conftest import read_scores, score

    # With 2 workers the scorer forks: each child must open its own EGL context.
    done = score(
        synthetic_split,
        synthetic_replies,
        tmp_path / "scores",
        "--silhouette",
        "--workers",
        workers,
    )
    assert done.returncode in (0, 1), done.stderr
    data = read_scores(tmp_path / "scores" / "scores.json")
    assert any(m["name"] == "silhouette_iou" for m in data["metrics"])
    values = [r["values"]["silhouette_iou"] for r in data["replies"] if r["parsed"]]
    assert values and all(0.0 < v <= 1.0 for v in values)
    by_model = {
        m: [
            r["values"]["silhouette_iou"]
            for r in data["replies"]
            if r["model"] == m and r["parsed"]
        ]
        for m in ("model-a", "model-b")
    }
    # model-b drops objects and moves the rest further: its silhouettes agree less.
    assert np.mean(by_model["model-a"]) > np.mean(by_model["model-b"])
