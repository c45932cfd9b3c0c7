"""The README's main command: ``spatialbabel demo`` runs the whole pipeline on its default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spatialbabel import LANGUAGES
from spatialbabel.cmd_demo import DEMO_SCENES, bundled_replies
from spatialbabel.demo_replies import MOCK_MODELS
from spatialbabel.files import read_jsonl

pytestmark = [pytest.mark.bpy, pytest.mark.render, pytest.mark.slow]


def test_bundled_replies_cover_every_model_language_and_scene() -> None:
    records = [line.record for line in read_jsonl(bundled_replies())]
    assert all(r is not None for r in records)
    cells = {(r["model"], r["language"]) for r in records if r}
    assert cells == {(m.name, lang) for m in MOCK_MODELS for lang in LANGUAGES}
    assert len({r["scene_id"] for r in records if r}) == DEMO_SCENES


def test_demo_generates_scores_and_reports(tmp_path: Path) -> None:
    env = {**os.environ, "PYOPENGL_PLATFORM": "egl"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "spatialbabel.cli",
            "demo",
            "--out",
            str(tmp_path),
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # The table: one row per mock model, one column per language.
    for model in MOCK_MODELS:
        assert model.name in done.stdout
    scores = json.loads((tmp_path / "scores" / "scores.json").read_text())
    # The bundled replies answer exactly the scenes the demo generates: if the generator's
    # output changes, this fails and the bundle must be remade (spatialbabel.demo_replies).
    assert scores["summary"]["problems"] == {k: 0 for k in scores["summary"]["problems"]}
    assert scores["summary"]["lines_scored"] == len(MOCK_MODELS) * len(LANGUAGES) * DEMO_SCENES
    by_model = {m["model"]: m["scores"] for m in scores["models"]}
    # Each mock model's flaw shows where it should: the careful one beats the others in every
    # language, and the mirrored one is recovered by the axis-flip diagnostic.
    assert min(by_model["mock-careful"].values()) > max(by_model["mock-mirrored"].values())
    assert min(by_model["mock-careful"].values()) > max(by_model["mock-hasty"].values())
    for cell in (c for c in scores["cells"] if c["model"] == "mock-mirrored" and c["tier"] is None):
        estimates = cell["estimates"]
        assert (
            estimates["aligned_position_fidelity"]["mean"]
            > estimates["position_fidelity"]["mean"] + 0.1
        )
    assert (tmp_path / "report" / "index.html").is_file()
