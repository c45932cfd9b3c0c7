"""The README's main command: ``spatialbabel demo`` runs the whole pipeline on its default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from demo.cmd_demo import (
    DEMO_SCENES,
    S3FT_EVAL,
    S3FT_SCENES,
    bundled_replies,
    bundled_s3ft_replies,
)
from demo.replies import MOCK_MODELS, NL_COT_MODELS
from s3ft.demo_replies import FAILURES, MOCK_BASE
from spatialbabel import LANGUAGES
from spatialbabel.files import read_jsonl
from spatialbabel.run.batch import S3FT_PHASE1, parse_request_id

pytestmark = [pytest.mark.bpy, pytest.mark.render, pytest.mark.slow]


def test_bundled_replies_cover_every_model_language_and_scene() -> None:
    records = [line.record for line in read_jsonl(bundled_replies())]
    assert all(r is not None for r in records)
    cells = {(r["model"], r["language"], r["mode"]) for r in records if r}
    assert cells == {(m.name, lang, "direct") for m in MOCK_MODELS for lang in LANGUAGES} | {
        (m.name, lang, "nl_cot") for m in NL_COT_MODELS for lang in LANGUAGES
    }
    assert len({r["scene_id"] for r in records if r}) == DEMO_SCENES
    # The direct records come first, with the five required fields only; every NL-CoT one
    # lists the objects before its one fenced block and says how it finished.
    direct = [r for r in records if r and r["mode"] == "direct"]
    assert records[: len(direct)] == direct and all(len(r) == 5 for r in direct)
    for record in records[len(direct) :]:
        assert record is not None and record["finish_reason"] in ("stop", "length")
        if record["output"].startswith("First, the objects"):
            assert record["output"].index("\n1. ") < record["output"].index("```")
            assert record["output"].count("```") == (
                1 if record["finish_reason"] == "length" else 2
            )


def test_bundled_s3ft_replies_answer_every_phase1_scene_once() -> None:
    records = [line.record for line in read_jsonl(bundled_s3ft_replies())]
    assert all(r is not None for r in records)
    ids = [parse_request_id(r["custom_id"]) for r in records if r]
    # They answer S3-FT's phase-1 prompt (the paper's route), not the reconstruction prompt.
    assert {(i.task, *i.parts[1:]) for i in ids} == {(S3FT_PHASE1, "threejs")}
    assert len({i.parts[0] for i in ids}) == len(ids) == S3FT_SCENES - S3FT_EVAL
    assert {r["response"]["body"]["model"] for r in records if r} == {MOCK_BASE.name}
    assert len(FAILURES) < len(ids) // 2


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
    # output changes, this fails and the bundle must be remade (demo.replies).
    assert scores["summary"]["problems"] == {k: 0 for k in scores["summary"]["problems"]}
    models = len(MOCK_MODELS) + len(NL_COT_MODELS)
    assert scores["summary"]["lines_scored"] == models * len(LANGUAGES) * DEMO_SCENES
    bundled = [line.record for line in read_jsonl(bundled_replies())]
    cut = sum(1 for r in bundled if r and r.get("finish_reason") == "length")
    assert scores["summary"]["truncated"] == cut > 0
    # Both modes and their difference, per language, in the table and the JSON.
    assert "mode 'nl_cot'" in done.stdout and "Mode difference nl_cot − direct" in done.stdout
    differences = scores["mode_differences"]
    assert {(d["model"], d["language"]) for d in differences} == {
        (m.name, lang) for m in NL_COT_MODELS for lang in LANGUAGES
    }
    assert all(d["n_scenes"] == DEMO_SCENES for d in differences)
    # Listing the objects first, mock-hasty misses and mistakes fewer: on the whole it gains.
    assert sum(d["estimates"]["score"]["mean"] for d in differences) > 0
    by_model = {m["model"]: m["scores"] for m in scores["models"] if m["mode"] == "direct"}
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
    index = (tmp_path / "report" / "index.html").read_text()
    assert "Mode difference: nl_cot − direct" in index
    assert (tmp_path / "report" / "charts" / "nl_cot-minus-direct.png").is_file()
    # QA: both readers grade the mock models' answers, with the best/worst table.
    for protocol in ("project", "paper"):
        qa = json.loads((tmp_path / "qa" / protocol / "qa_scores.json").read_text())
        assert qa["protocol"] == protocol and qa["counts"]["problems"] == 0
        assert {row["model"] for row in qa["best_worst"]} == {m.name for m in MOCK_MODELS}
    # S3-FT: the bundled phase1 replies answer the scenes the demo generates (else the bundle
    # must be remade: python -m s3ft.demo_replies), a few fail, and all three formats exist.
    s3ft = tmp_path / "s3ft" / "data"
    # The demo writes the phase-1 prompts of its split, and the bundled replies answer them.
    asked = [line.record for line in read_jsonl(tmp_path / "s3ft" / "phase1_requests.jsonl")]
    answered = [line.record for line in read_jsonl(bundled_s3ft_replies())]
    assert [r["custom_id"] for r in asked if r] == [r["custom_id"] for r in answered if r]
    stats = json.loads((s3ft / "stats.json").read_text())
    assert stats["phase1_prompt"] and stats["mode"] == S3FT_PHASE1
    assert stats["input"]["problems"] == {k: 0 for k in stats["input"]["problems"]}
    assert stats["input"]["unanswered_scenes"] == 0
    kinds = sorted(FAILURES.values())
    assert stats["filter"]["rejected"] == len([k for k in kinds if k != "never_added"])
    assert stats["filter"]["no_objects"] == kinds.count("never_added")
    assert stats["filter"]["kept"] == S3FT_SCENES - S3FT_EVAL - len(FAILURES)
    assert stats["pseudo_truth"]["reconstruct_score"]["mean"] > 0.8
    for name in ("openai_train.jsonl", "messages_train.jsonl", "dataset_info.json"):
        assert (s3ft / name).stat().st_size > 0
    assert (s3ft / "hf" / "dataset_dict.json").is_file()
    assert set(stats["records"]["by_view"]) == {"front", "view1", "view2", "view3"}
    assert (tmp_path / "s3ft" / "s3ft.html").is_file()
