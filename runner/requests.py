"""A prompt file (an OpenAI batch request file), read as an index, and the body each request is
sent with.

A prompt file can reach gigabytes (every request carries its image), so it is read once to
check every line and to key each request, keeping only where the line is; a body is read again
when it is sent. Bad lines are reported with their numbers and left out, never dropped
silently.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from spatialbabel.files import FileFormatError
from spatialbabel.run.batch import DEFAULT_TEMPERATURE, default_max_tokens, parse_request_id

#: The request urls ``run`` sends to (the chat completions endpoint, with or without ``/v1``).
CHAT_URLS: Final = ("/v1/chat/completions", "/chat/completions")

TokenField = Literal["max_completion_tokens", "max_tokens"]
TOKEN_FIELDS: Final[tuple[TokenField, ...]] = ("max_completion_tokens", "max_tokens")

#: Body fields ``run`` drops: it reads whole replies, never streams.
_STREAM_FIELDS: Final = ("stream", "stream_options")


@dataclass(frozen=True)
class Settings:
    """What the command line sets over every request's own body.

    ``max_tokens``/``temperature`` None keep the request's own value, and where the request
    has none, the paper's (``spatialbabel.run.batch.default_max_tokens``, ``DEFAULT_TEMPERATURE``);
    ``omit_temperature`` sends none, for
    models that refuse the parameter.
    """

    max_tokens: int | None = None
    token_field: TokenField | None = None
    temperature: float | None = None
    omit_temperature: bool = False
    #: Set over every request's own ``top_p``; None keeps the request's (the papers set none).
    top_p: float | None = None


def paper_max_tokens(custom_id: str) -> int | None:
    """The paper's token limit for the task and mode a request id names; None for a suite's
    request (it sets its own) or an id naming no known mode."""
    try:
        request = parse_request_id(custom_id)
        return default_max_tokens(request.task, request.parts[-1])
    except ValueError:
        return None


def settle(
    body: dict[str, Any], custom_id: str, model: str | None, settings: Settings
) -> dict[str, Any]:
    """The body sent for one request: the file's body with the model, token limit, temperature
    and top_p settled (flags first, then the body's own, then the paper's defaults; no top_p
    unless the flag or the body gives one)."""
    sent = {k: v for k, v in body.items() if k not in _STREAM_FIELDS}
    if model is not None:
        sent["model"] = model
    own_field = next((f for f in TOKEN_FIELDS if f in sent), None)
    field = settings.token_field or own_field or "max_completion_tokens"
    limit = settings.max_tokens
    if limit is None:
        own = sent.get(own_field) if own_field else None
        limit = own if own is not None else paper_max_tokens(custom_id)
    for name in TOKEN_FIELDS:
        sent.pop(name, None)
    if limit is not None:
        sent[field] = limit
    if settings.omit_temperature:
        sent.pop("temperature", None)
    elif settings.temperature is not None:
        sent["temperature"] = settings.temperature
    else:
        sent.setdefault("temperature", DEFAULT_TEMPERATURE)
    if settings.top_p is not None:
        sent["top_p"] = settings.top_p
    return sent


def cache_key(body: dict[str, Any]) -> str:
    """The hash a sent body is cached under: the same request asks the same thing, whatever
    its id, its line or the server it goes to."""
    text = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RequestLine:
    """Where one good request is in the file: enough to read its body again."""

    line: int
    custom_id: str
    offset: int
    length: int


@dataclass(frozen=True)
class Job:
    """One request sent to one model: the model named in what is written back, and the hash
    of the body sent (the cache key)."""

    request: RequestLine
    model: str
    key: str


@dataclass(frozen=True)
class RequestProblem:
    line: int
    message: str


def _check(record: object) -> tuple[str, dict[str, Any]]:
    """The custom_id and body of one request line; a ValueError says what is wrong."""
    if not isinstance(record, dict):
        raise ValueError(f"expected a JSON object, got {type(record).__name__}")
    custom_id = record.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        raise ValueError("no custom_id")
    method = record.get("method", "POST")
    if method != "POST":
        raise ValueError(f"{custom_id}: method {method!r}; only POST requests are sent")
    url = record.get("url", CHAT_URLS[0])
    if url not in CHAT_URLS:
        raise ValueError(f"{custom_id}: url {url!r}; only {CHAT_URLS[0]} requests are sent")
    body = record.get("body")
    if not isinstance(body, dict):
        raise ValueError(f"{custom_id}: no body object")
    if not isinstance(body.get("messages"), list) or not body["messages"]:
        raise ValueError(f"{custom_id}: the body has no messages")
    if not isinstance(body.get("model", ""), str):
        raise ValueError(f"{custom_id}: the body's model is not text")
    return custom_id, body


def _lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, raw line) of every line."""
    offset = 0
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, start=1):
            yield number, offset, raw
            offset += len(raw)


@dataclass(frozen=True)
class RequestPlan:
    """Every (request, model) pair to send, model by model in file order, and a problem for
    every line that is not a request."""

    path: Path
    settings: Settings
    jobs: tuple[Job, ...]
    problems: tuple[RequestProblem, ...]

    @classmethod
    def read(cls, path: Path, models: Sequence[str | None], settings: Settings) -> RequestPlan:
        """``models``: the models to ask (None: the one each request names)."""
        if not path.is_file():
            raise FileFormatError(path, "no such file")
        per_model: list[list[Job]] = [[] for _ in models]
        problems: list[RequestProblem] = []
        seen: dict[str, int] = {}
        try:
            for number, offset, raw in _lines(path):
                if not raw.strip():
                    continue
                try:
                    custom_id, body = _check(json.loads(raw))
                except (ValueError, UnicodeDecodeError) as error:
                    problems.append(RequestProblem(number, str(error)))
                    continue
                if custom_id in seen:
                    message = (
                        f"{custom_id}: already on line {seen[custom_id]}; this line is not sent"
                    )
                    problems.append(RequestProblem(number, message))
                    continue
                seen[custom_id] = number
                request = RequestLine(number, custom_id, offset, len(raw))
                for jobs, model in zip(per_model, models, strict=True):
                    sent = settle(body, custom_id, model, settings)
                    jobs.append(Job(request, str(sent.get("model", "")), cache_key(sent)))
        except OSError as error:
            raise FileFormatError(path, f"cannot be read: {error.strerror}") from None
        every = tuple(job for group in per_model for job in group)
        return cls(path, settings, every, tuple(problems))


class BodyReader:
    """The body a job is sent with, read again from its place in the file (thread-safe)."""

    def __init__(self, plan: RequestPlan) -> None:
        self._settings = plan.settings
        self._fd = os.open(plan.path, os.O_RDONLY)

    def body(self, job: Job) -> dict[str, Any]:
        raw = os.pread(self._fd, job.request.length, job.request.offset)
        custom_id, body = _check(json.loads(raw))
        return settle(body, custom_id, job.model or None, self._settings)

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> BodyReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "CHAT_URLS",
    "TOKEN_FIELDS",
    "BodyReader",
    "Job",
    "RequestLine",
    "RequestPlan",
    "RequestProblem",
    "Settings",
    "cache_key",
    "paper_max_tokens",
    "settle",
]
