"""What ``spatialbabel run`` writes: one line per request sent, in the format its task is
scored from.

- ``reconstruct/<scene>/<language>/<mode>``: a predictions record, as ``score --predictions``
  reads it: ``{"scene_id", "model", "language", "mode", "output"}``;
- ``qa/<question>/<mode>``: an answers record, as ``score-qa --answers`` reads it:
  ``{"question_id", "model", "mode", "output"}`` (``scene_id`` is the question's, taken from
  the split by ``score-qa``);
- any other id (a question suite's): a batch output record, as the OpenAI Batch API and
  ``vllm run-batch`` write it (``spatialbabel.run.batch.read_batch_output`` reads it).

Every record also carries ``request_id``, ``finish_reason``, ``usage``, ``latency_s`` and
``attempts``; a request that failed has an ``error`` and an empty ``output``. With
``--format batch`` every line is a batch output record, whatever its task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from spatialbabel.run.batch import QA, RECONSTRUCT, parse_request_id, reply_from_batch_record

Format = Literal["records", "batch"]
FORMATS: Final[tuple[Format, ...]] = ("records", "batch")


@dataclass(frozen=True)
class Failure:
    """A request that got no reply: why, with the HTTP status of its last attempt if any."""

    error: str
    status: int | None
    latency_s: float
    attempts: int


def _task_fields(custom_id: str) -> dict[str, str] | None:
    """The predictions or answers fields a request id names; None for any other id."""
    try:
        request = parse_request_id(custom_id)
    except ValueError:
        return None
    if request.task == RECONSTRUCT:
        scene_id, language, mode = request.parts
        return {"scene_id": scene_id, "language": language, "mode": mode}
    if request.task == QA:
        question_id, mode = request.parts
        return {"question_id": question_id, "mode": mode}
    return None


def _ordered(fields: dict[str, str], model: str) -> dict[str, Any]:
    """Task fields in the order of the format's docs, with the model after the first id."""
    names: tuple[str, ...] = ("question_id", "model", "mode")
    if "scene_id" in fields:
        names = ("scene_id", "model", "language", "mode")
    return {name: model if name == "model" else fields[name] for name in names}


def answered_line(
    custom_id: str, model: str, entry: Mapping[str, Any], fmt: Format = "records"
) -> dict[str, Any]:
    """The line of a request the endpoint answered (``entry``: its journal entry)."""
    body = entry["body"]
    common = {
        "latency_s": entry.get("latency_s"),
        "attempts": entry.get("attempts"),
    }
    fields = _task_fields(custom_id) if fmt == "records" else None
    if fields is None:
        return {
            "id": f"batch_req_{entry['key'][:24]}",
            "custom_id": custom_id,
            "response": {"status_code": 200, "body": body},
            "error": None,
            **common,
        }
    if not isinstance(body.get("model"), str):
        body = {**body, "model": model}
    try:
        reply = reply_from_batch_record(
            {"custom_id": custom_id, "response": {"status_code": 200, "body": body}}, 0
        )
        text, finish, usage, error = reply.text or "", reply.finish_reason, reply.usage, None
    except ValueError as problem:
        # A completion without text (content null: a refusal): the model's empty answer.
        choice = body["choices"][0]
        text, finish, error = "", choice.get("finish_reason"), None
        usage = body.get("usage") if isinstance(body.get("usage"), Mapping) else {}
        if choice["message"].get("content") is not None:
            error = f"unreadable reply: {problem}"
    line: dict[str, Any] = {
        **_ordered(fields, model),
        "output": text,
        "request_id": custom_id,
        "finish_reason": finish,
        "usage": dict(usage),
        **common,
    }
    if error is not None:
        line["error"] = error
    return line


def failed_line(
    custom_id: str, model: str, failure: Failure, fmt: Format = "records"
) -> dict[str, Any]:
    """The line of a request that got no reply: reported, with an empty output."""
    common = {"latency_s": round(failure.latency_s, 4), "attempts": failure.attempts}
    fields = _task_fields(custom_id) if fmt == "records" else None
    if fields is None:
        return {
            "id": None,
            "custom_id": custom_id,
            "response": None,
            "error": {"code": failure.status, "message": failure.error},
            **common,
        }
    return {
        **_ordered(fields, model),
        "output": "",
        "request_id": custom_id,
        "finish_reason": None,
        "usage": {},
        "error": failure.error,
        **common,
    }


__all__ = ["FORMATS", "Failure", "Format", "answered_line", "failed_line"]
