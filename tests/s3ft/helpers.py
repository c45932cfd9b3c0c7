"""Small S3-FT inputs without Blender: a split with ``phase1`` and ``eval`` scenes (the QA
tests' random scenes, which stack objects and repeat colour-and-shape pairs, seen by the
generator's cameras) and the mock base model's replies as a batch output or predictions file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from s3ft.demo_replies import batch_line, mock_base_reply
from spatialbabel import Scene
from spatialbabel.files import write_json, write_jsonl
from spatialbabel.run.batch import reconstruct_id
from synth.cameras import scene_cameras
from synth.config import ScenePaths
from tests.qa.scene_factory import random_scene
from tests.qa.tiny_split import tiny_png


def make_split(root: Path, *, phase1: int = 6, eval_size: int = 2, views: int = 1) -> list[Scene]:
    """``phase1 + eval_size`` scenes; the first ``phase1`` are the phase1 subset."""
    cameras = scene_cameras(views, 512)
    scenes = []
    for i in range(phase1 + eval_size):
        objects = random_scene(300 + i).objects
        scenes.append(Scene(f"scene_{i:06d}", objects, cameras, meta={"tier": 1 + i % 5}))
    for i, scene in enumerate(scenes):
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
        for image in ScenePaths.of(scene.scene_id, views).images:
            (root / image).parent.mkdir(parents=True, exist_ok=True)
            (root / image).write_bytes(tiny_png(rgb=(10 * i, 30, 30)))
    ids = [s.scene_id for s in scenes]
    write_json(
        root / "subsets.json",
        {"seed": 0, "eval": ids[phase1:], "phase1": ids[:phase1], "unused": []},
    )
    return scenes


def reply_text(scene: Scene, index: int, failure: str | None = None) -> str:
    return mock_base_reply(scene, np.random.default_rng([5, index]), failure)


def write_batch(path: Path, lines: list[dict[str, Any]]) -> Path:
    write_jsonl(path, lines)
    return path


def batch_replies(
    path: Path, scenes: list[Scene], failures: Mapping[int, str] | None = None
) -> Path:
    failures = failures or {}
    lines = [
        batch_line(
            reconstruct_id(s.scene_id, "threejs"), reply_text(s, i, failures.get(i)), "stop", i
        )
        for i, s in enumerate(scenes)
    ]
    return write_batch(path, lines)


def prediction(
    scene_id: str, text: str, *, model: str = "mock-base", language: str = "threejs"
) -> dict[str, Any]:
    return {
        "scene_id": scene_id,
        "model": model,
        "language": language,
        "mode": "direct",
        "output": text,
    }
