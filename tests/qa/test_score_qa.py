"""``spatialbabel score-qa`` on tiny splits: verdicts, accuracies with CIs, the Code-CoT
reconstruction check and its four outcomes, bad lines reported, batch output read directly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from parsers import write
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_json, read_jsonl
from spatialbabel.qa import CATEGORIES, Question
from suites.qa.codecot import reconstruct_answer
from tests.qa.tiny_split import make_split


def reply_for(question: Question, correct: bool) -> str:
    answer = question.answer
    if question.category == "localization":
        x, y, z = answer if correct else [answer[0] + 1.0, answer[1], answer[2]]
        return f"Final answer: ({x}, {y}, {z})"
    if question.category == "counting":
        return f"Final answer: {answer if correct else answer + 1}"
    if question.category == "existence":
        return f"Final answer: {answer if correct else ('no' if answer == 'yes' else 'yes')}"
    other = next(c for c in question.choices if c != answer)
    return f"Final answer: {answer if correct else other}"


def _questions(split: Path) -> list[Question]:
    return [Question.from_dict(i.record) for i in read_jsonl(split / "qa.jsonl") if i.record]


def _answers(split: Path, scenes: list[Scene]) -> list[dict[str, Any]]:
    by_id = {s.scene_id: s for s in scenes}
    records = []
    for k, q in enumerate(_questions(split)):
        base = {"question_id": q.question_id, "scene_id": q.scene_id, "model": "m1"}
        records.append({**base, "mode": "direct", "output": reply_for(q, True)})
        records.append(
            {
                **base,
                "mode": "nl_cot",
                "output": "Let me think step by step.\n" + reply_for(q, k % 2 == 0),
            }
        )
        code = write(by_id[q.scene_id], "json") if k % 4 < 2 else "{this is not a scene"
        stated = reply_for(q, k % 4 in (0, 3))
        records.append(
            {**base, "mode": "code_cot:json", "output": f"```json\n{code}\n```\n{stated}"}
        )
    return records


def _write(path: Path, records: list[dict[str, Any]], extra: list[str] = ()) -> None:  # type: ignore[assignment]
    path.write_text(
        "".join(json.dumps(r) + "\n" for r in records) + "".join(line + "\n" for line in extra),
        encoding="utf-8",
    )


@pytest.fixture
def scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, Any], list[Question], str]:
    split = tmp_path / "split"
    scenes = make_split(split)
    answers = tmp_path / "answers.jsonl"
    _write(answers, _answers(split, scenes))
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(split),
                "--answers",
                str(answers),
                "--out",
                str(tmp_path / "scores"),
            ]
        )
        == ExitCode.OK
    )
    return (
        read_json(tmp_path / "scores" / "qa_scores.json"),
        _questions(split),
        capsys.readouterr().out,
    )


def test_accuracies_per_mode_category_and_overall(
    scored: tuple[dict[str, Any], list[Question], str],
) -> None:
    report, questions, printed = scored
    n = len(questions)
    summary = report["summary"]["m1"]
    assert summary["by_mode"]["direct"]["mean"] == 1.0
    assert summary["by_mode"]["nl_cot"]["mean"] == pytest.approx(
        sum(k % 2 == 0 for k in range(n)) / n
    )
    assert summary["by_mode"]["code_cot:json"]["mean"] == pytest.approx(
        sum(k % 4 in (0, 3) for k in range(n)) / n
    )
    assert summary["overall"]["n"] == 3 * n
    assert set(summary["by_category"]) == set(CATEGORIES)
    for estimate in [
        summary["overall"],
        *summary["by_mode"].values(),
        *summary["by_category"].values(),
    ]:
        assert estimate["low"] <= estimate["mean"] <= estimate["high"]
    for mode in ("direct", "nl_cot", "code_cot:json"):
        assert sum(e["n"] for e in summary["by_mode_category"][mode].values()) == n
    assert report["coverage"]["m1"]["direct"] == {"answered": n, "questions": n, "truncated": 0}
    assert "code_cot:json" in printed and "overall" in printed and "reconstruction" in printed


def test_code_cot_tells_reconstruction_from_reasoning_failures(
    scored: tuple[dict[str, Any], list[Question], str],
) -> None:
    report, questions, _ = scored
    n = len(questions)
    cot = report["summary"]["m1"]["code_cot"]["code_cot:json"]
    expected = {
        "both_right": sum(k % 4 == 0 for k in range(n)),
        "reasoning_failure": sum(k % 4 == 1 for k in range(n)),
        "reconstruction_failure": sum(k % 4 == 2 for k in range(n)),
        "right_despite_reconstruction": sum(k % 4 == 3 for k in range(n)),
    }
    assert cot["outcomes"] == expected
    assert cot["reconstruction_accuracy"]["mean"] == pytest.approx(
        sum(k % 4 < 2 for k in range(n)) / n
    )
    assert cot["parse_rate"]["mean"] == pytest.approx(sum(k % 4 < 2 for k in range(n)) / n)
    assert cot["consistency"]["mean"] == pytest.approx(expected["both_right"] / n)
    details = [d for d in report["details"] if d["mode"] == "code_cot:json"]
    failed = next(d for d in details if not d["reconstruction"]["parsed"])
    assert failed["reconstruction"]["reason"] and failed["reconstruction"]["answer"] is None
    assert "reconstruction" not in next(d for d in report["details"] if d["mode"] == "direct")


def test_reconstruction_answers_come_from_the_models_scene(tmp_path: Path) -> None:
    scenes = make_split(tmp_path, count=1)
    truth = scenes[0]
    questions = _questions(tmp_path)
    located = next(q for q in questions if q.category == "localization")
    shifted = truth.with_objects(
        [
            replace(o, position=(o.position[0] + 2.0, o.position[1], o.position[2]))
            for o in truth.objects
        ]
    )
    result = reconstruct_answer(located, f"```json\n{write(shifted, 'json')}\n```", "json", truth)
    assert result.parsed and not result.correct and result.error == pytest.approx(2.0)
    recoloured = truth.with_objects([replace(o, color="white", rgb=None) for o in truth.objects])
    result = reconstruct_answer(located, write(recoloured, "json"), "json", truth)
    if located.objects[0].color != "white":
        assert result.parsed and result.answer is None and "unique" in (result.reason or "")
    exact = reconstruct_answer(located, write(truth, "json"), "json", truth)
    assert exact.correct and exact.error == pytest.approx(0.0, abs=1e-9)


def test_bad_lines_are_reported_and_the_rest_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, count=1)
    records = _answers(split, scenes)[:3]
    first = records[0]
    bad = [
        "{not json",
        json.dumps({**first, "question_id": "nope-q00"}),
        json.dumps(first),
        json.dumps({**first, "mode": "telepathy"}),
        json.dumps({**first, "model": "m2", "scene_id": "scene_000009"}),
        json.dumps({k: v for k, v in first.items() if k != "output"}),
    ]
    answers = tmp_path / "answers.jsonl"
    _write(answers, records, bad)
    out = tmp_path / "scores"
    assert (
        main(["score-qa", "--split", str(split), "--answers", str(answers), "--out", str(out)])
        == ExitCode.PROBLEMS
    )
    err = capsys.readouterr().err
    report = read_json(out / "qa_scores.json")
    assert report["counts"]["answers"] == 3 and report["counts"]["problems"] == 6
    lines = [p["line"] for p in report["problems"]]
    assert lines == [4, 5, 6, 7, 8, 9]
    for text in (
        "not valid JSON",
        "unknown question_id 'nope-q00'",
        "repeats the answer of line 1",
        "unknown mode 'telepathy'",
        "is not the question's",
        "missing field 'output'",
    ):
        assert text in err


def batch_line(record: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]:
    """An answer record as a line of an OpenAI batch output file."""
    return {
        "custom_id": f"qa/{record['question_id']}/{record['mode']}",
        "response": {
            "status_code": 200,
            "body": {
                "model": "m1",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": record["output"]},
                        "finish_reason": finish_reason,
                    }
                ],
            },
        },
        "error": None,
    }


def test_batch_output_is_read_by_custom_id(tmp_path: Path) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, count=2)
    records = _answers(split, scenes)
    plain = tmp_path / "answers.jsonl"
    _write(plain, records)
    batch = tmp_path / "batch_output.jsonl"
    lines = [{"id": f"batch_req_{i}", **batch_line(r)} for i, r in enumerate(records)]
    _write(
        batch,
        lines,
        [
            json.dumps(
                {"custom_id": "qa/x/direct", "response": None, "error": {"message": "rate limited"}}
            )
        ],
    )
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(split),
                "--answers",
                str(plain),
                "--out",
                str(tmp_path / "a"),
            ]
        )
        == ExitCode.OK
    )
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(split),
                "--answers",
                str(batch),
                "--batch-output",
                "--out",
                str(tmp_path / "b"),
            ]
        )
        == ExitCode.PROBLEMS
    )
    a, b = (
        read_json(tmp_path / "a" / "qa_scores.json"),
        read_json(tmp_path / "b" / "qa_scores.json"),
    )
    assert a["summary"] == b["summary"]
    assert "rate limited" in b["problems"][0]["message"]


def test_answers_cut_at_the_token_limit_are_counted_from_records_and_batch_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, count=2)
    records = _answers(split, scenes)
    # Every third Code-CoT answer and the first NL-CoT one hit the limit.
    cut = [
        (r["mode"] == "code_cot:json" and k % 9 == 2) or (r["mode"] == "nl_cot" and k == 1)
        for k, r in enumerate(records)
    ]
    plain = [
        {**r, "finish_reason": "length" if c else "stop"} for r, c in zip(records, cut, strict=True)
    ]
    _write(tmp_path / "answers.jsonl", plain)
    batch = [batch_line(r, "length" if c else "stop") for r, c in zip(records, cut, strict=True)]
    _write(tmp_path / "batch.jsonl", batch)
    summaries = []
    for name, flags in (("answers.jsonl", []), ("batch.jsonl", ["--batch-output"])):
        out = tmp_path / name.split(".")[0]
        args = ["score-qa", "--split", str(split), "--answers", str(tmp_path / name)]
        assert main([*args, *flags, "--out", str(out)]) == ExitCode.OK
        report = read_json(out / "qa_scores.json")
        summaries.append(report["summary"])
        code_cut = sum(c for r, c in zip(records, cut, strict=True) if r["mode"] == "code_cot:json")
        assert report["counts"]["truncated"] == sum(cut) == code_cut + 1
        entry = report["summary"]["m1"]
        assert entry["truncated"] == {"code_cot:json": code_cut, "direct": 0, "nl_cot": 1}
        assert entry["code_cot"]["code_cot:json"]["truncated"] == code_cut
        assert report["coverage"]["m1"]["nl_cot"]["truncated"] == 1
        assert [d["truncated"] for d in report["details"]] == cut
        printed = capsys.readouterr().out
        n = len(records) // 3
        nl_cot_row = next(line for line in printed.splitlines() if " nl_cot " in line)
        assert nl_cot_row.split()[-1] == f"1/{n}"
    assert summaries[0] == summaries[1]


def test_tolerance_flag_overrides_the_questions(tmp_path: Path) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, count=1)
    located = next(q for q in _questions(split) if q.category == "localization")
    x, y, z = located.answer
    record = {
        "question_id": located.question_id,
        "scene_id": scenes[0].scene_id,
        "model": "m",
        "mode": "direct",
        "output": f"Final answer: ({x + 0.3}, {y}, {z})",
    }
    answers = tmp_path / "answers.jsonl"
    _write(answers, [record])
    for tolerance, expected in ((None, 0.0), ("0.5", 1.0)):
        out = tmp_path / f"scores_{tolerance}"
        flags = [] if tolerance is None else ["--tolerance", tolerance]
        assert (
            main(
                [
                    "score-qa",
                    "--split",
                    str(split),
                    "--answers",
                    str(answers),
                    "--out",
                    str(out),
                    *flags,
                ]
            )
            == ExitCode.OK
        )
        report = read_json(out / "qa_scores.json")
        assert report["summary"]["m"]["overall"]["mean"] == expected
        assert report["details"][0]["error"] == pytest.approx(0.3)


def test_missing_inputs_are_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    split = tmp_path / "split"
    make_split(split, count=1)
    answers = tmp_path / "answers.jsonl"
    answers.write_text("", encoding="utf-8")
    (split / "qa.jsonl").unlink()
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(split),
                "--answers",
                str(answers),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == ExitCode.BAD_INPUT
    )
    assert "qa.jsonl" in capsys.readouterr().err
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(tmp_path / "nowhere"),
                "--answers",
                str(tmp_path / "none.jsonl"),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == ExitCode.BAD_INPUT
    )


def test_a_language_without_parser_is_graded_on_stated_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import suites.qa.cmd_score_qa
    import suites.qa.scores

    monkeypatch.setattr(suites.qa.scores, "parser_available", lambda language: language != "json")
    monkeypatch.setattr(
        suites.qa.cmd_score_qa, "parser_available", lambda language: language != "json"
    )
    split = tmp_path / "split"
    scenes = make_split(split, count=1)
    answers = tmp_path / "answers.jsonl"
    _write(answers, [r for r in _answers(split, scenes) if r["mode"] == "code_cot:json"])
    assert (
        main(
            [
                "score-qa",
                "--split",
                str(split),
                "--answers",
                str(answers),
                "--out",
                str(tmp_path / "s"),
            ]
        )
        == ExitCode.OK
    )
    assert "no json parser in this installation" in capsys.readouterr().err
    report = read_json(tmp_path / "s" / "qa_scores.json")
    assert report["summary"]["m1"]["code_cot"] == {}
    assert all("reconstruction" not in d for d in report["details"])


@pytest.mark.parametrize("language", ["json", "dsl", "threejs", "blender", "open3d", "unity"])
def test_exact_code_in_each_language_answers_every_question(language: str) -> None:
    # Through the language's real parser: the scene written as code (in the engine's own
    # frame) gives every generated question its true answer.
    from spatialbabel import RegistryError
    from suites.qa.codecot import parser_available
    from synth.questions import generate_scene_questions
    from tests.qa.scene_factory import random_scene

    if not parser_available(language):
        pytest.skip(f"no {language} parser yet")
    scenes = [random_scene(seed) for seed in range(300, 310)]
    try:
        codes = [write(scene, language) for scene in scenes]
    except RegistryError:
        pytest.skip(f"no {language} writer yet")
    for scene, code in zip(scenes, codes, strict=True):
        for question in generate_scene_questions(scene, 0):
            result = reconstruct_answer(question, f"```\n{code}\n```", language, scene)
            assert result.correct, (language, question.question, result)
