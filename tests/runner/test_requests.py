"""The prompt file as ``run`` reads it: bad lines reported, settings settled, cache keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runner.requests import (
    BodyReader,
    RequestPlan,
    Settings,
    cache_key,
    paper_max_tokens,
    settle,
)
from spatialbabel.files import FileFormatError

MESSAGES = [{"role": "user", "content": "Reconstruct the scene."}]


def request(custom_id: str, **body: Any) -> dict[str, Any]:
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": {"model": "gpt-4o", "messages": MESSAGES, **body},
    }


def test_flags_beat_the_body_which_beats_the_papers_defaults() -> None:
    reconstruct, direct = "reconstruct/s1/json/direct", "qa/q1/direct"
    bare = request(reconstruct)["body"]
    assert settle(bare, reconstruct, None, Settings())["max_completion_tokens"] == 2048
    assert settle(bare, direct, None, Settings())["max_completion_tokens"] == 256
    assert settle(bare, direct, None, Settings())["temperature"] == 0.0
    own = request(direct, max_tokens=99, temperature=0.7)["body"]
    sent = settle(own, direct, "other-model", Settings())
    assert (sent["model"], sent["max_tokens"], sent["temperature"]) == ("other-model", 99, 0.7)
    assert "max_completion_tokens" not in sent
    flagged = settle(own, direct, None, Settings(max_tokens=10, temperature=0.2))
    assert (flagged["max_tokens"], flagged["temperature"]) == (10, 0.2)
    moved = settle(own, direct, None, Settings(token_field="max_completion_tokens"))
    assert moved["max_completion_tokens"] == 99 and "max_tokens" not in moved
    assert "temperature" not in settle(own, direct, None, Settings(omit_temperature=True))
    # A suite's request has no default limit; the server's own applies.
    suite = settle(bare, "spacecast/i1/v1", None, Settings())
    assert "max_completion_tokens" not in suite and "max_tokens" not in suite
    streaming = settle(
        {**bare, "stream": True, "stream_options": {}}, reconstruct, None, Settings()
    )
    assert "stream" not in streaming and "stream_options" not in streaming
    # The file's body is left as it was.
    assert bare == request(reconstruct)["body"]


def test_the_cache_key_is_the_body_sent_in_any_key_order() -> None:
    body = settle(request("qa/q1/direct")["body"], "qa/q1/direct", None, Settings())
    assert cache_key(body) == cache_key(dict(reversed(list(body.items()))))
    assert cache_key(body) != cache_key({**body, "temperature": 0.5})
    assert cache_key(body) != cache_key({**body, "model": "another"})


def test_bad_lines_are_reported_by_number_and_the_rest_planned(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    good = [request("reconstruct/s1/json/direct"), request("qa/q1/direct")]
    path.write_text(
        "\n".join(
            [
                json.dumps(good[0]),
                "{not json",
                json.dumps({**good[1], "custom_id": ""}),
                json.dumps({**good[1], "url": "/v1/embeddings"}),
                json.dumps({**good[1], "body": {"model": "m"}}),
                "",
                json.dumps(good[1]),
                json.dumps(good[0]),
            ]
        )
        + "\n"
    )
    plan = RequestPlan.read(path, ["a", "b"], Settings())
    assert [p.line for p in plan.problems] == [2, 3, 4, 5, 8]
    assert "already on line 1" in plan.problems[-1].message
    assert "/v1/embeddings" in plan.problems[2].message
    assert [(j.request.custom_id, j.model) for j in plan.jobs] == [
        ("reconstruct/s1/json/direct", "a"),
        ("qa/q1/direct", "a"),
        ("reconstruct/s1/json/direct", "b"),
        ("qa/q1/direct", "b"),
    ]
    with BodyReader(plan) as reader:
        for job in plan.jobs:
            body = reader.body(job)
            assert body["model"] == job.model and cache_key(body) == job.key
    with pytest.raises(FileFormatError, match="no such file"):
        RequestPlan.read(tmp_path / "absent.jsonl", [None], Settings())


def test_the_papers_limits_by_request_id() -> None:
    assert paper_max_tokens("reconstruct/s1/json/nl_cot") == 2048
    assert paper_max_tokens("reconstruct/s1/json") == 2048
    assert paper_max_tokens("qa/q1/code_cot:threejs") == 2048
    assert paper_max_tokens("qa/q1/nl_cot") == 1024
    assert paper_max_tokens("qa/q1/direct") == 256
    # A suite sets its own; an unknown mode gets none rather than a made-up one.
    assert paper_max_tokens("spacecast/i1/v1") is None
    assert paper_max_tokens("qa/q1/few_shot") is None
    assert paper_max_tokens("reconstruct/s1/json/sketch") is None
