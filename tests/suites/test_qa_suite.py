"""The split's questions as the ``qa`` suite: items keep every field of their question, the
suite's requests are ``prompts --task qa``'s bytes, and its grades are ``score-qa``'s verdicts
(Code-CoT variants with the reconstruction from the reply's code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_json, read_jsonl
from spatialbabel.qa import CATEGORIES
from suites import load_suite
from suites.base import Item
from suites.qa.suite import item_of, question_of
from tests.qa.test_score_qa import _answers, _questions
from tests.qa.tiny_split import make_split


def test_an_item_keeps_its_question_whole(tmp_path: Path) -> None:
    make_split(tmp_path, 4)
    questions = _questions(tmp_path)
    assert {q.category for q in questions} >= {"localization", "relationship", "comparison"}
    for question in questions:
        item = Item.from_dict(json.loads(json.dumps(item_of(question).to_dict())))
        assert question_of(item).to_dict() == question.to_dict()
        assert item.facts["program"] == [dict(step) for step in question.program]
        assert item.task == question.category and item.options == question.choices


def test_suite_requests_are_the_qa_prompts_bytes(tmp_path: Path) -> None:
    split, items = tmp_path / "split", tmp_path / "items"
    make_split(split, 3)
    modes = ["direct", "nl_cot", "code_cot:json", "code_cot:blender"]
    assert (
        main(["suite", "build", "--suite", "qa", "--split", str(split), "--out", str(items)]) == 0
    )
    assert main(
        ["suite", "prompts", "--suite", "qa", "--items", str(items), "--out", str(tmp_path / "s.jsonl"),
         "--variants", *modes]
    ) == 0  # fmt: skip
    assert main(
        ["prompts", "--split", str(split), "--task", "qa", "--out", str(tmp_path / "p.jsonl"),
         "--modes", *modes]
    ) == 0  # fmt: skip
    suite_lines = (tmp_path / "s.jsonl").read_bytes().splitlines()
    alias_lines = (tmp_path / "p.jsonl").read_bytes().splitlines()
    # The suite writes item by item, each in every variant; the alias, the same order.
    assert suite_lines == alias_lines
    assert len(alias_lines) == len(_questions(split)) * len(modes)


def test_suite_grades_are_the_score_qa_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split, items = tmp_path / "split", tmp_path / "items"
    scenes = make_split(split, 3)
    records = _answers(split, scenes)
    (tmp_path / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    suite_records = [
        {"item_id": r["question_id"], "model": r["model"], "variant": r["mode"], "output": r["output"]}
        for r in records
    ]  # fmt: skip
    (tmp_path / "suite.jsonl").write_text("".join(json.dumps(r) + "\n" for r in suite_records))
    assert (
        main(["suite", "build", "--suite", "qa", "--split", str(split), "--out", str(items)]) == 0
    )
    assert main(
        ["score-qa", "--split", str(split), "--answers", str(tmp_path / "qa.jsonl"), "--out",
         str(tmp_path / "qa_scores")]
    ) == ExitCode.OK  # fmt: skip
    assert main(
        ["suite", "score", "--suite", "qa", "--items", str(items), "--answers",
         str(tmp_path / "suite.jsonl"), "--out", str(tmp_path / "suite_scores")]
    ) == ExitCode.OK  # fmt: skip
    capsys.readouterr()
    details = read_json(tmp_path / "qa_scores" / "qa_scores.json")["details"]
    grades = {
        (g["item_id"], g["model"], g["variant"]): g
        for g in read_json(tmp_path / "suite_scores" / "scores.json")["grades"]
    }
    assert len(grades) == len(details) == len(records)
    code_checked = 0
    for detail in details:
        grade: dict[str, Any] = grades[(detail["question_id"], detail["model"], detail["mode"])]
        assert grade["score"] == float(detail["correct"])
        assert (grade["status"] == "correct") == detail["correct"]
        if "reconstruction" in detail:
            code_checked += 1
            assert grade["parsed"]["reconstruction"] == detail["reconstruction"]
            assert grade["parsed"]["outcome"] == detail["outcome"]
            assert grade["parsed"]["answer"] == detail["answer"]
        else:
            assert grade["parsed"] == detail["answer"]
    assert code_checked == len(_questions(split))
    # The items folder mirrors the split: its images and scenes are the split's.
    for question in _questions(split):
        assert (items / "images" / f"{question.scene_id}.png").read_bytes() == (
            split / "images" / f"{question.scene_id}.png"
        ).read_bytes()
    item_ids = [line.record["item_id"] for line in read_jsonl(items / "items.jsonl") if line.record]
    assert item_ids == [q.question_id for q in _questions(split)]
    assert load_suite("qa").tasks == CATEGORIES


def test_a_qa_items_folder_is_not_exported_beside_its_split(tmp_path: Path) -> None:
    from harnesses.sources import open_items
    from spatialbabel.files import FileFormatError

    split, items = tmp_path / "split", tmp_path / "items"
    make_split(split, 2)
    assert (
        main(["suite", "build", "--suite", "qa", "--split", str(split), "--out", str(items)]) == 0
    )
    with pytest.raises(FileFormatError, match="export the split"):
        open_items(items)
