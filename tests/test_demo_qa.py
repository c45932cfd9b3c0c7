"""The demo's QA step on a tiny split (no Blender): each mock model's requests in its picked
languages, its answers, and both readers' grades with the best/worst table."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from demo.qa_replies import QA_MODES, answer_reply, qa_step
from demo.replies import MOCK_MODELS
from spatialbabel.cli import ExitCode
from spatialbabel.files import read_json, read_jsonl
from spatialbabel.run.batch import parse_request_id
from suites.qa.code_cot_languages import side_file
from tests.qa.test_code_cot_best_worst import _gap
from tests.qa.test_score_qa import _questions
from tests.qa.tiny_split import make_split


@pytest.fixture
def step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    split, scores, out = tmp_path / "split", tmp_path / "scores", tmp_path / "qa"
    make_split(split, count=4)
    scores.mkdir()
    gaps = [_gap(model.name, clear=model.name != "mock-hasty") for model in MOCK_MODELS]
    (scores / "scores.json").write_text(json.dumps({"language_gaps": gaps}))
    assert qa_step(out, split, scores) == ExitCode.OK
    return out, capsys.readouterr().out


def test_every_model_answers_every_question_in_its_picked_languages(
    step: tuple[Path, str], tmp_path: Path
) -> None:
    out, printed = step
    questions = _questions(tmp_path / "split")
    records = [item.record for item in read_jsonl(out / "answers.jsonl")]
    assert len(records) == len(MOCK_MODELS) * len(QA_MODES) * len(questions)
    for model in MOCK_MODELS:
        requests = out / f"requests-{model.name}.jsonl"
        asked = {
            parse_request_id(r["custom_id"]).parts[1]
            for i in read_jsonl(requests)
            if (r := i.record)
        }
        assert asked == {"direct", "nl_cot", "code_cot:json", "code_cot:blender"}
        assert read_json(side_file(requests), expect_version=False)["model"] == model.name
    assert "-- QA answers read by the project protocol" in printed
    assert "-- QA answers read by the paper protocol" in printed
    assert printed.count("Code-CoT in each model's best and worst reconstruction language") == 2


def test_both_readers_grade_the_same_answers_and_part_on_some(step: tuple[Path, str]) -> None:
    out, _ = step
    project = read_json(out / "project" / "qa_scores.json", expect_version=False)
    paper = read_json(out / "paper" / "qa_scores.json", expect_version=False)
    assert (project["protocol"], paper["protocol"]) == ("project", "paper")
    assert len(project["details"]) == len(paper["details"])
    differ = [
        (a["model"], a["mode"])
        for a, b in zip(project["details"], paper["details"], strict=True)
        if a["status"] != b["status"]
    ]
    # mock-hasty hedges and answers in sentences, which the two readers read differently.
    assert any(model == "mock-hasty" for model, _ in differ)
    assert {row["model"] for row in project["best_worst"]} == {m.name for m in MOCK_MODELS}


def test_a_code_cot_reply_builds_the_scene_it_answers_from(tmp_path: Path) -> None:
    from parsers import parse
    from spatialbabel import Scene

    make_split(tmp_path)
    question = _questions(tmp_path)[0]
    truth = Scene.load(tmp_path / "scenes" / f"{question.scene_id}.json")
    reply = answer_reply(question, truth, MOCK_MODELS[0], "code_cot:dsl", np.random.default_rng(0))
    assert parse(reply, "dsl").ok and "Final answer" in reply.splitlines()[-1]
