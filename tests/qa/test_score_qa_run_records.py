"""``score-qa`` on what ``spatialbabel run`` writes: no scene_id (the question's is taken),
failed requests reported with their ids, reconstruction lines left to ``score``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl
from spatialbabel.qa import Question
from spatialbabel.run.batch import qa_id, reconstruct_id
from tests.qa.test_score_qa import reply_for
from tests.qa.tiny_split import make_split


def test_run_records_grade_and_failures_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    make_split(split, 2)
    questions = [Question.from_dict(i.record) for i in read_jsonl(split / "qa.jsonl") if i.record]
    first, second = questions[0], questions[1]
    records = [
        {
            "question_id": first.question_id,
            "model": "m",
            "mode": "direct",
            "output": reply_for(first, True),
            "request_id": qa_id(first.question_id, "direct"),
            "usage": {},
            "latency_s": 0.1,
        },
        {
            "question_id": second.question_id,
            "model": "m",
            "mode": "direct",
            "output": "",
            "request_id": qa_id(second.question_id, "direct"),
            "error": "HTTP 400: too long",
        },
        {
            "scene_id": first.scene_id,
            "model": "m",
            "language": "json",
            "mode": "direct",
            "output": "{}",
            "request_id": reconstruct_id(first.scene_id, "json"),
        },
    ]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "qa"
    code = main(["score-qa", "--split", str(split), "--answers", str(answers), "--out", str(out)])
    assert code == ExitCode.PROBLEMS
    err = capsys.readouterr().err
    assert (
        f"{answers}:2: {qa_id(second.question_id, 'direct')}: the request failed: HTTP 400" in err
    )
    assert "1 line(s)" in err and "another task" in err
    report = json.loads((out / "qa_scores.json").read_text())
    assert report["counts"]["answers"] == 1 and report["counts"]["problems"] == 1
    assert report["details"][0]["scene_id"] == first.scene_id
    assert report["details"][0]["correct"] is True
