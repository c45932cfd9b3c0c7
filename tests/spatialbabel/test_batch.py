"""Request ids and batch output records: the one reader every runner's output goes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spatialbabel.run.batch import (
    DEFAULT_TEMPERATURE,
    RequestId,
    default_max_tokens,
    is_truncated,
    item_id,
    parse_request_id,
    qa_id,
    read_batch_output,
    reconstruct_id,
    reconstruct_output,
)


def test_ids_round_trip() -> None:
    assert parse_request_id(reconstruct_id("s0001", "threejs", "nl_cot")) == RequestId(
        "reconstruct", ("s0001", "threejs", "nl_cot")
    )
    assert parse_request_id(qa_id("s0001-q3", "code_cot:unity")).parts == (
        "s0001-q3",
        "code_cot:unity",
    )
    assert parse_request_id(item_id("spacecast", "sc-12", "cot")) == RequestId(
        "spacecast", ("sc-12", "cot")
    )


def test_old_three_part_reconstruct_id_is_direct() -> None:
    # Prompt files written before modes existed must still score.
    assert parse_request_id("reconstruct/s0001/dsl").parts == ("s0001", "dsl", "direct")


@pytest.mark.parametrize(
    "bad", ["", "qa/only-one", "reconstruct/s/l/m/extra", "qa//direct", None, 3]
)
def test_bad_ids_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        parse_request_id(bad)


def test_a_slash_inside_a_part_is_refused() -> None:
    with pytest.raises(ValueError, match="no '/'"):
        reconstruct_id("a/b", "json")


def _ok(custom_id: str, text: str, finish: str = "stop") -> dict[str, object]:
    return {
        "custom_id": custom_id,
        "response": {
            "status_code": 200,
            "body": {
                "model": "m",
                "choices": [{"message": {"content": text}, "finish_reason": finish}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 7},
            },
        },
        "error": None,
    }


def test_batch_output_lines(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    lines = [
        json.dumps(_ok("qa/q1/direct", "Final answer: 3")),
        json.dumps(_ok("reconstruct/s1/json/direct", "{", finish="length")),
        json.dumps({"custom_id": "qa/q2/direct", "error": {"message": "rate limited"}}),
        json.dumps(
            {
                "custom_id": "qa/q3/direct",
                "response": {"status_code": 500, "body": {"error": "boom"}},
            }
        ),
        "not json",
        json.dumps({"custom_id": "qa/q4/direct", "response": {"status_code": 200, "body": {}}}),
    ]
    path.write_text("\n".join(lines) + "\n")
    read = list(read_batch_output(path))
    assert [r.line for r in read] == [1, 2, 3, 4, 5, 6]
    first, cut, failed, server, bad, empty = read
    assert first.reply is not None and first.reply.text == "Final answer: 3"
    assert first.reply.usage == {"prompt_tokens": 5, "completion_tokens": 7}
    assert not first.reply.truncated
    assert cut.reply is not None and cut.reply.truncated
    assert failed.reply is not None and failed.reply.text is None
    assert failed.reply.error == "the request failed: rate limited"
    assert server.reply is not None and server.reply.error == "HTTP 500: boom"
    assert bad.reply is None and bad.problem is not None and "not valid JSON" in bad.problem
    assert empty.reply is None and empty.problem is not None and "qa/q4/direct" in empty.problem


@pytest.mark.parametrize(
    ("task", "mode", "tokens"),
    [
        ("reconstruct", "direct", 2048),
        ("reconstruct", "nl_cot", 2048),
        ("qa", "code_cot:threejs", 2048),
        ("qa", "nl_cot", 1024),
        ("qa", "direct", 256),
    ],
)
def test_the_papers_output_budgets(task: str, mode: str, tokens: int) -> None:
    assert default_max_tokens(task, mode) == tokens
    assert DEFAULT_TEMPERATURE == 0.0


@pytest.mark.parametrize(
    ("task", "mode", "message"),
    [
        ("reconstruct", "code_cot", "unknown reconstruction mode"),
        ("qa", "code_cot:cobol", "code_cot needs a language"),
        ("qa", "few_shot", "unknown mode"),
        ("spacecast", "cot", "task 'spacecast'"),
    ],
)
def test_no_budget_is_made_up(task: str, mode: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        default_max_tokens(task, mode)


def test_only_a_length_finish_is_a_cut() -> None:
    assert is_truncated("length")
    assert not any(is_truncated(reason) for reason in ("stop", None, "content_filter", ""))


def test_a_batch_reply_becomes_the_record_score_reads_with_its_cut_kept(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    lines = [
        _ok(reconstruct_id("s1", "json", "nl_cot"), "1. a cube\n```json\n{", "length"),
        _ok("reconstruct/s2/dsl", "(scene)"),
        _ok(qa_id("s1-q0", "direct"), "Final answer: 3"),
        {"custom_id": reconstruct_id("s3", "json"), "error": {"message": "timeout"}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    replies = [item.reply for item in read_batch_output(path)]
    assert all(reply is not None for reply in replies)
    cut = reconstruct_output(replies[0])  # type: ignore[arg-type]
    assert (cut.scene_id, cut.model, cut.language, cut.mode) == ("s1", "m", "json", "nl_cot")
    assert cut.output == "1. a cube\n```json\n{" and cut.truncated
    whole = reconstruct_output(replies[1])  # type: ignore[arg-type]
    assert whole.mode == "direct" and not whole.truncated
    with pytest.raises(ValueError, match="is not reconstruct/"):
        reconstruct_output(replies[2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout"):
        reconstruct_output(replies[3])  # type: ignore[arg-type]


def test_record_task_names_the_task_of_a_records_request() -> None:
    from spatialbabel.run.batch import record_task

    assert record_task({"request_id": "qa/q1/direct", "custom_id": "reconstruct/s/json"}) == "qa"
    assert record_task({"custom_id": "spacecast/i1/v1"}) == "spacecast"
    assert record_task({"request_id": "qa/too/many/parts"}) is None
    assert record_task({"scene_id": "s1"}) is None
