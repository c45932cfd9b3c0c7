"""``score --batch-output``: an OpenAI Batch API or ``vllm run-batch`` output file scored
directly, its failed requests reported with their ids, lines of other tasks left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parsers import write
from spatialbabel.cli import ExitCode, main
from spatialbabel.run.batch import item_id, qa_id, reconstruct_id
from tests.scoring.test_cmd_score import EVAL, SplitFixture, make_split


@pytest.fixture
def split(tmp_path: Path) -> SplitFixture:
    root = tmp_path / "split"
    return root, make_split(root)


def answered(
    custom_id: str, text: str, model: str = "gpt-4o-2024-08-06", finish: str = "stop"
) -> dict[str, Any]:
    body = {
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return {
        "id": "batch_req_1",
        "custom_id": custom_id,
        "response": {"status_code": 200, "body": body},
        "error": None,
    }


def test_a_batch_output_scores_like_its_predictions_and_reports_failures(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    lines = [answered(reconstruct_id(s, "json"), write(scenes[s], "json")) for s in EVAL[:2]]
    lines[1] = answered(
        reconstruct_id(EVAL[1], "json"), write(scenes[EVAL[1]], "json"), finish="length"
    )
    lines.append(
        {
            "id": "batch_req_2",
            "custom_id": reconstruct_id(EVAL[2], "json"),
            "response": {"status_code": 500, "body": {"error": {"message": "overloaded"}}},
            "error": None,
        }
    )
    lines.append(answered(qa_id("q1", "direct"), "Final answer: yes"))
    lines.append(answered(item_id("spacecast", "i1", "v1"), "Final answer: 3"))
    batch = tmp_path / "batch_output.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines) + "{cut off\n")
    out = tmp_path / "scores"
    args = ["score", "--split", str(root), "--predictions", str(batch), "--out", str(out)]
    assert main([*args, "--batch-output", "--workers", "1"]) == ExitCode.PROBLEMS
    err = capsys.readouterr().err
    assert f"{batch}:3: failed: {reconstruct_id(EVAL[2], 'json', 'direct')}: HTTP 500" in err
    assert f"{batch}:6: malformed" in err and "2 line(s)" in err
    data = json.loads((out / "scores.json").read_text())
    assert data["summary"]["lines_scored"] == 2
    assert data["summary"]["skipped_other_tasks"] == 2
    assert data["summary"]["problems"]["failed"] == 1
    assert [m["model"] for m in data["models"]] == ["gpt-4o-2024-08-06"]
    # A reply cut at the token limit is counted as such, as in a predictions file.
    assert [c["n_truncated"] for c in data["cells"] if c["tier"] is None] == [1]
    # The same replies as a predictions file score the same.
    predictions = tmp_path / "predictions.jsonl"
    records = [
        {
            "scene_id": s,
            "model": "gpt-4o-2024-08-06",
            "language": "json",
            "mode": "direct",
            "output": write(scenes[s], "json"),
            "finish_reason": "length" if s == EVAL[1] else "stop",
        }
        for s in EVAL[:2]
    ]
    predictions.write_text("".join(json.dumps(r) + "\n" for r in records))
    again = tmp_path / "again"
    main(
        [
            "score",
            "--split",
            str(root),
            "--predictions",
            str(predictions),
            "--out",
            str(again),
            "--workers",
            "1",
        ]
    )
    expected = json.loads((again / "scores.json").read_text())
    assert data["cells"] == expected["cells"]


def test_a_run_record_with_an_error_is_a_failed_request_not_a_bad_reply(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    records: list[dict[str, Any]] = [
        {
            "scene_id": s,
            "model": "m",
            "language": "json",
            "mode": "direct",
            "output": write(scenes[s], "json"),
            "request_id": reconstruct_id(s, "json"),
            "usage": {"total_tokens": 9},
            "latency_s": 0.2,
            "finish_reason": "stop",
            "attempts": 1,
        }
        for s in EVAL[:2]
    ]
    records.append(
        {
            "scene_id": EVAL[2],
            "model": "m",
            "language": "json",
            "mode": "direct",
            "output": "",
            "request_id": reconstruct_id(EVAL[2], "json"),
            "error": "timed out (gave up after 9 attempts)",
        }
    )
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "scores"
    args = ["score", "--split", str(root), "--predictions", str(predictions), "--out", str(out)]
    assert main([*args, "--workers", "1"]) == ExitCode.PROBLEMS
    assert "timed out (gave up after 9 attempts)" in capsys.readouterr().err
    data = json.loads((out / "scores.json").read_text())
    assert data["summary"]["problems"]["failed"] == 1
    assert data["summary"]["problems"]["missing"] == 0
    assert data["summary"]["lines_scored"] == 2 and data["summary"]["parse_failures"] == 0
