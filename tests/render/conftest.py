"""Fixtures of the render tests: one renderer per session, hand-made scenes, and splits.

Two kinds of split are used. ``synthetic_split`` is made here without Blender (scenes from the
hub's types; images and ID passes drawn by our own renderer) so the report's plumbing is tested
anywhere EGL works. ``blender_split`` is made by ``spatialbabel generate`` (needs bpy) and is
what the agreement and browser tests check against.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from spatialbabel import CLASSES, PALETTE_NAMES, Camera, Scene, SceneObject
from spatialbabel.files import write_json, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
REPLIES = ROOT / "fixtures" / "render" / "replies.jsonl"
#: The split the bundled replies answer (tests/render/make_replies.py).
REPORT_SPLIT_ARGS = (
    "--n",
    "4",
    "--seed",
    "7",
    "--resolution",
    "256",
    "--eval-size",
    "4",
    "--phase1-size",
    "0",
)


def front_camera(width: int = 512, height: int = 512, fov: float = 44.0) -> Camera:
    """Where the generator puts its frontal camera: +Z side, 45 degrees up, 11 m away."""
    return Camera.looking_at(
        "front", (0.0, 7.778, 7.778), width=width, height=height, fov_y_deg=fov
    )


def scene_of(*objects: SceneObject, camera: Camera | None = None, scene_id: str = "s") -> Scene:
    return Scene(scene_id, objects, (camera or front_camera(),))


def layout(seed: int, count: int, camera: Camera, scene_id: str, tier: int) -> Scene:
    """``count`` objects of every class in turn, random colour, size and yaw, on a grid."""
    rng = np.random.default_rng(seed)
    columns = int(np.ceil(np.sqrt(count)))
    objects = []
    for k in range(count):
        class_name = CLASSES[k % len(CLASSES)]
        width = float(rng.uniform(0.6, 1.0))
        height = width / 4 if class_name == "torus" else float(rng.uniform(0.5, 1.1))
        x = (k % columns - (columns - 1) / 2) * 1.7
        z = (k // columns - (columns - 1) / 2) * 1.7
        objects.append(
            SceneObject(
                f"obj{k}",
                class_name,
                (x, height / 2, z),
                (0.0, float(rng.uniform(0, 90)), 0.0),
                (width, height, width),
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    return Scene(scene_id, tuple(objects), (camera,), meta={"tier": f"T{tier}"})


def png_bytes(array: NDArray[Any]) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture(scope="session")
def renderer() -> Iterator[Any]:
    pytest.importorskip("pyrender")
    from render import Renderer

    with Renderer() as shared:
        yield shared


@pytest.fixture(scope="session")
def bare_renderer() -> Iterator[Any]:
    """A renderer without the ground plane, which would hide whatever dips below y = 0."""
    pytest.importorskip("pyrender")
    from render import Renderer

    with Renderer(ground=False) as bare:
        yield bare


@pytest.fixture(scope="session")
def synthetic_split(tmp_path_factory: pytest.TempPathFactory, renderer: Any) -> Path:
    """Three scenes at 200x150 (not square, so rows and columns cannot be swapped unseen);
    their 'true images' and ID passes are our own renders, standing in for Blender's."""
    root = tmp_path_factory.mktemp("synthetic") / "split"
    camera = front_camera(200, 150, 50.0)
    ids = []
    for index, count in enumerate((3, 5, 8)):
        scene = layout(index, count, camera, f"scene_{index:06d}", tier=index + 1)
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
        rendering = renderer.render(scene)
        (root / "images").mkdir(exist_ok=True)
        (root / "masks").mkdir(exist_ok=True)
        (root / "images" / f"{scene.scene_id}.png").write_bytes(png_bytes(rendering.color))
        (root / "masks" / f"{scene.scene_id}.png").write_bytes(
            png_bytes(rendering.instances.astype(np.uint8))
        )
        ids.append(scene.scene_id)
    write_json(root / "subsets.json", {"eval": ids, "phase1": [], "unused": []})
    return root


@pytest.fixture(scope="session")
def synthetic_replies(synthetic_split: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Replies in canonical JSON from two models (the bundled replies' recipe), plus a refusal."""
    from tests.render.make_replies import as_json, perturb

    records = []
    for seed, (model, noise, drop, swap) in enumerate(
        (("model-a", 0.1, 0, 0), ("model-b", 0.4, 1, 1))
    ):
        for path in sorted((synthetic_split / "scenes").glob("*.json")):
            truth = Scene.load(path)
            rng = np.random.default_rng([seed, len(truth.objects)])
            text = as_json(perturb(truth, noise, drop, swap, rng))
            records.append(
                {
                    "scene_id": truth.scene_id,
                    "model": model,
                    "language": "json",
                    "mode": "direct",
                    "output": text,
                }
            )
    records[-1]["output"] = "Sorry, I cannot write this scene."
    out = tmp_path_factory.mktemp("replies") / "replies.jsonl"
    write_jsonl(out, records)
    return out


def score(split: Path, replies: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "score",
        "--split",
        str(split),
        "--predictions",
        str(replies),
        "--out",
        str(out),
        "--workers",
        "1",
        "--resamples",
        "200",
        *extra,
    ]
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=600
    )


@pytest.fixture(scope="session")
def blender_split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The split the bundled replies answer, generated by the real generator (Blender)."""
    pytest.importorskip("bpy")
    out = tmp_path_factory.mktemp("blender") / "split"
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "generate",
        *REPORT_SPLIT_ARGS,
        "--out",
        str(out),
        "--no-progress",
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out


def read_scores(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))
