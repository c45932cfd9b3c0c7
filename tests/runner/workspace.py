"""A tiny split, its prompt files and canned replies for the runner tests (no Blender)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from demo.replies import mock_replies
from spatialbabel.cli import main
from spatialbabel.files import read_jsonl, write_jsonl
from spatialbabel.qa import Question
from tests.qa.test_score_qa import reply_for
from tests.qa.tiny_split import make_split

LANGUAGES = ("json", "dsl")
QA_MODES = ("direct", "nl_cot")


@dataclass(frozen=True)
class Workspace:
    root: Path
    split: Path
    requests: Path
    predictions: Path
    qa_requests: Path
    answers: Path


def build(root: Path, scenes: int = 3) -> Workspace:
    """A split of ``scenes`` scenes; reconstruct prompts in two languages (mode direct) and the
    mock models' replies to them; QA prompts in two modes and answers to them (model ``m1``)."""
    split = root / "split"
    made = make_split(split, scenes)
    requests, predictions = root / "requests.jsonl", root / "predictions.jsonl"
    assert (
        main(
            ["prompts", "--split", str(split), "--task", "reconstruct", "--out", str(requests)]
            + ["--languages", *LANGUAGES, "--modes", "direct"]
        )
        == 0
    )
    write_jsonl(predictions, mock_replies(made, languages=LANGUAGES, nl_cot_models=()))
    qa_requests, answers = root / "qa_requests.jsonl", root / "answers.jsonl"
    assert (
        main(
            ["prompts", "--split", str(split), "--task", "qa", "--out", str(qa_requests)]
            + ["--modes", *QA_MODES]
        )
        == 0
    )
    records: list[dict[str, Any]] = []
    for k, item in enumerate(read_jsonl(split / "qa.jsonl")):
        assert item.record is not None
        question = Question.from_dict(item.record)
        for mode in QA_MODES:
            records.append(
                {
                    "question_id": question.question_id,
                    "scene_id": question.scene_id,
                    "model": "m1",
                    "mode": mode,
                    "output": reply_for(question, k % 3 != 0),
                }
            )
    write_jsonl(answers, records)
    return Workspace(root, split, requests, predictions, qa_requests, answers)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def scores(out: Path, name: str = "scores.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / name).read_text())
    return data
