"""Request ids and the batch files every runner writes: one place for both.

A prompt file is an OpenAI batch request file (one ``{"custom_id", "method", "url", "body"}``
per line). What comes back, from the OpenAI Batch API, ``vllm run-batch`` or
``spatialbabel run``, is a batch output file: one ``{"custom_id", "response": {"status_code",
"body"}, "error"}`` per line. The ``custom_id`` says what a request asks, so an output file can
be scored without any other record of the run:

- ``reconstruct/<scene_id>/<language>/<mode>``: a reconstruction; the older three-part form
  ``reconstruct/<scene_id>/<language>`` is read as mode ``direct``;
- ``qa/<question_id>/<mode>``: a QA question;
- ``<suite>/<item_id>/<variant>``: an item of a question suite (``suites/``).

Ids never contain ``/`` inside a part: scene, question and item ids are checked by their
writers, and a language or mode has none.

- ``s3ft-phase1/<scene_id>/threejs``: S3-FT's phase-1 request, a whole Three.js program of a
  ``phase1`` scene (docs/s3ft.md).

The papers' decoding settings live here too, for every writer and runner of requests
(``spatialbabel prompts``, ``spatialbabel suite prompts``, ``spatialbabel run``):
``default_max_tokens(task, mode)`` (2,048 tokens for code, 1,024 for NL-CoT answers, 256 for
direct answers; a suite sets its own), ``DEFAULT_TEMPERATURE`` (greedy decoding) and no
``top_p`` (the papers set none); ``add_decoding_arguments`` gives every writer the same flags.
A reply whose ``finish_reason`` is ``"length"`` hit that limit and is marked truncated.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import LENGTH_FINISH_REASON, ModelOutput, is_truncated, read_jsonl
from spatialbabel.qa import parse_mode

RECONSTRUCT: Final = "reconstruct"
QA: Final = "qa"
#: S3-FT's phase-1 request: the whole Three.js program of a ``phase1`` scene (its one language).
S3FT_PHASE1: Final = "s3ft-phase1"
S3FT_PHASE1_LANGUAGE: Final = "threejs"
DEFAULT_RECONSTRUCT_MODE: Final = "direct"
#: The paper's two reconstruction modes: the image and the language's instruction (``direct``),
#: or a natural-language list of the objects first, then the code (``nl_cot``).
RECONSTRUCT_MODES: Final = ("direct", "nl_cot")

#: Output budgets of the paper's runs: code (a reconstruction in either mode, a Code-CoT
#: answer), a natural-language chain of thought, a bare answer.
CODE_MAX_TOKENS: Final = 2048
NL_COT_MAX_TOKENS: Final = 1024
DIRECT_ANSWER_MAX_TOKENS: Final = 256
#: Greedy decoding, as in the paper; a model that refuses a temperature (OpenAI's reasoning
#: models) is sent none (``spatialbabel prompts --no-temperature``).
DEFAULT_TEMPERATURE: Final = 0.0


def decoding_problem(
    max_tokens: int | None, temperature: float | None, top_p: float | None
) -> str | None:
    """What is wrong with a request's decoding settings, naming the setting (None: nothing);
    ``None`` values are not set."""
    if max_tokens is not None and max_tokens < 1:
        return f"max_tokens must be at least 1, got {max_tokens}"
    if temperature is not None and not 0.0 <= temperature < math.inf:
        return f"temperature must be a non-negative number, got {temperature}"
    if top_p is not None and not 0.0 < top_p <= 1.0:
        return f"top_p must lie in (0, 1], got {top_p}"
    return None


def add_decoding_arguments(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, max_tokens_help: str
) -> None:
    """The decoding flags of every request writer: ``--max-tokens`` (default: the task's
    budget), ``--temperature`` (default the papers' 0) or ``--no-temperature`` (none sent, for
    models that refuse one), and ``--top-p`` (default: none sent, as in the papers)."""
    parser.add_argument("--max-tokens", type=int, default=None, metavar="N", help=max_tokens_help)
    sampling = parser.add_mutually_exclusive_group()
    sampling.add_argument(
        "--temperature",
        type=float,
        default=DEFAULT_TEMPERATURE,
        metavar="T",
        help=f"sampling temperature of every request (default {DEFAULT_TEMPERATURE:g}, the papers' greedy decoding)",
    )
    sampling.add_argument(
        "--no-temperature",
        dest="temperature",
        action="store_const",
        const=None,
        help="send no temperature, for models that refuse one (OpenAI's reasoning models)",
    )
    parser.add_argument(
        "--top-p",
        type=float,
        default=None,
        metavar="P",
        help="nucleus sampling's top_p in every request (default: none sent; the papers set none)",
    )


def check_reconstruct_mode(mode: str) -> str:
    """``mode`` when it is a reconstruction mode; a ValueError naming the known ones if not."""
    if mode not in RECONSTRUCT_MODES:
        raise ValueError(
            f"unknown reconstruction mode {mode!r}; known: {', '.join(RECONSTRUCT_MODES)}"
        )
    return mode


def default_max_tokens(task: str, mode: str) -> int:
    """The paper's output budget for a request of ``task`` (``reconstruct`` or ``qa``) in
    ``mode``: 2,048 for code (reconstruction in both modes, ``code_cot:<language>`` QA), 1,024
    for ``nl_cot`` QA, 256 for ``direct`` QA. A ValueError for an unknown mode or task (a
    question suite sets its own budget)."""
    if task == RECONSTRUCT:
        check_reconstruct_mode(mode)
        return CODE_MAX_TOKENS
    if task == S3FT_PHASE1:
        return CODE_MAX_TOKENS
    if task == QA:
        kind, _ = parse_mode(mode)
        return {"direct": DIRECT_ANSWER_MAX_TOKENS, "nl_cot": NL_COT_MAX_TOKENS}.get(
            kind, CODE_MAX_TOKENS
        )
    raise ValueError(f"no default output budget for task {task!r}; give max_tokens")


@dataclass(frozen=True)
class RequestId:
    """A parsed ``custom_id``: its task (``reconstruct``, ``qa`` or a suite) and its parts."""

    task: str
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return "/".join((self.task, *self.parts))


def _checked(parts: tuple[str, ...]) -> tuple[str, ...]:
    for part in parts:
        if not part or "/" in part:
            raise ValueError(f"a request id part must be non-empty and hold no '/': {part!r}")
    return parts


def reconstruct_id(scene_id: str, language: str, mode: str = DEFAULT_RECONSTRUCT_MODE) -> str:
    return str(RequestId(RECONSTRUCT, _checked((scene_id, language, mode))))


def qa_id(question_id: str, mode: str) -> str:
    return str(RequestId(QA, _checked((question_id, mode))))


def s3ft_phase1_id(scene_id: str) -> str:
    """The id of a ``phase1`` scene's S3-FT phase-1 request (its language is Three.js)."""
    return str(RequestId(S3FT_PHASE1, _checked((scene_id, S3FT_PHASE1_LANGUAGE))))


def item_id(task: str, item: str, variant: str) -> str:
    """The id of one request of a question suite (``task`` is the suite's name)."""
    return str(RequestId(task, _checked((item, variant))))


def parse_request_id(custom_id: object) -> RequestId:
    """The parts of a ``custom_id``; a ValueError says what is wrong with it."""
    if not isinstance(custom_id, str) or not custom_id:
        raise ValueError(f"custom_id {custom_id!r} is not a non-empty string")
    task, *parts = custom_id.split("/")
    if not all(parts) or not parts:
        raise ValueError(f"custom_id {custom_id!r} has an empty part")
    if task == RECONSTRUCT:
        if len(parts) == 2:
            parts.append(DEFAULT_RECONSTRUCT_MODE)
        if len(parts) != 3:
            raise ValueError(
                f"custom_id {custom_id!r} is not reconstruct/<scene_id>/<language>[/<mode>]"
            )
    elif task == QA and len(parts) != 2:
        raise ValueError(f"custom_id {custom_id!r} is not qa/<question_id>/<mode>")
    elif task == S3FT_PHASE1 and (len(parts) != 2 or parts[1] != S3FT_PHASE1_LANGUAGE):
        raise ValueError(
            f"custom_id {custom_id!r} is not {S3FT_PHASE1}/<scene_id>/{S3FT_PHASE1_LANGUAGE}"
        )
    return RequestId(task, tuple(parts))


def record_task(record: Mapping[str, Any]) -> str | None:
    """The task a record's ``request_id`` (else its ``custom_id``) names, so that a reader of
    one task can leave another's lines in a mixed file to their own reader; None when the
    record names no request, or one whose id does not parse."""
    for name in ("request_id", "custom_id"):
        value = record.get(name)
        if isinstance(value, str):
            try:
                return parse_request_id(value).task
            except ValueError:
                return None
    return None


@dataclass(frozen=True)
class BatchReply:
    """One line of a batch output file, read without judging it.

    ``text`` is None when the request failed (``error`` says why, with the HTTP status where
    there is one). ``finish_reason`` is ``"length"`` for a reply cut at the token limit.
    """

    custom_id: str
    line: int
    text: str | None
    model: str | None
    finish_reason: str | None = None
    error: str | None = None
    usage: Mapping[str, Any] = field(default_factory=dict)

    @property
    def truncated(self) -> bool:
        return is_truncated(self.finish_reason)


def reply_from_batch_record(record: Mapping[str, Any], line: int) -> BatchReply:
    """One batch output record; a ValueError when it is not one (no ``custom_id``, or no
    ``response`` and no ``error``)."""
    custom_id = record.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        raise ValueError("no custom_id")
    error = record.get("error")
    response = record.get("response")
    if error:
        message = error.get("message", error) if isinstance(error, Mapping) else error
        return BatchReply(custom_id, line, None, None, error=f"the request failed: {message}")
    if not isinstance(response, Mapping):
        raise ValueError(f"{custom_id}: neither a response nor an error")
    status = response.get("status_code", 200)
    body = response.get("body")
    if status != 200 or not isinstance(body, Mapping):
        detail = body.get("error", body) if isinstance(body, Mapping) else body
        return BatchReply(custom_id, line, None, None, error=f"HTTP {status}: {detail}")
    try:
        choice = body["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"{custom_id}: no response.body.choices[0].message.content") from None
    model = body.get("model")
    if not isinstance(content, str) or not isinstance(model, str):
        raise ValueError(f"{custom_id}: the reply or the model is not text")
    finish = choice.get("finish_reason") if isinstance(choice, Mapping) else None
    usage = body.get("usage")
    return BatchReply(
        custom_id,
        line,
        content,
        model,
        finish_reason=finish if isinstance(finish, str) else None,
        usage=usage if isinstance(usage, Mapping) else {},
    )


def reconstruct_output(reply: BatchReply) -> ModelOutput:
    """A reconstruction reply of a batch output file as the record ``spatialbabel score``
    scores, its ``finish_reason`` kept (so a reply cut at the token limit counts as
    truncated); a ValueError when the id is not a reconstruction's or the request failed."""
    request = parse_request_id(reply.custom_id)
    if request.task != RECONSTRUCT:
        raise ValueError(
            f"custom_id {reply.custom_id!r} is not reconstruct/<scene_id>/<language>/<mode>"
        )
    if reply.text is None or reply.model is None:
        raise ValueError(f"{reply.custom_id}: {reply.error}")
    scene_id, language, mode = request.parts
    return ModelOutput(
        scene_id, reply.model, language, mode, reply.text, finish_reason=reply.finish_reason
    )


def s3ft_phase1_output(reply: BatchReply) -> ModelOutput:
    """A reply to S3-FT's phase-1 prompt as a model output record, in mode ``s3ft-phase1``; a
    ValueError when the id is not a phase-1 request's or the request failed."""
    request = parse_request_id(reply.custom_id)
    if request.task != S3FT_PHASE1:
        raise ValueError(
            f"custom_id {reply.custom_id!r} is not {S3FT_PHASE1}/<scene_id>/{S3FT_PHASE1_LANGUAGE}"
        )
    if reply.text is None or reply.model is None:
        raise ValueError(f"{reply.custom_id}: {reply.error}")
    scene_id, language = request.parts
    return ModelOutput(
        scene_id, reply.model, language, S3FT_PHASE1, reply.text, finish_reason=reply.finish_reason
    )


@dataclass(frozen=True)
class BatchLine:
    """A line of a batch output file: the reply, or why the line is not one."""

    line: int
    reply: BatchReply | None
    problem: str | None


def read_batch_output(path: Path) -> Iterator[BatchLine]:
    """Every line of a batch output file, good or bad; nothing is dropped silently."""
    for item in read_jsonl(path):
        if item.record is None:
            yield BatchLine(item.line, None, item.error or "unreadable line")
            continue
        try:
            yield BatchLine(item.line, reply_from_batch_record(item.record, item.line), None)
        except ValueError as error:
            yield BatchLine(item.line, None, str(error))


__all__ = [
    "CODE_MAX_TOKENS",
    "DEFAULT_RECONSTRUCT_MODE",
    "DEFAULT_TEMPERATURE",
    "DIRECT_ANSWER_MAX_TOKENS",
    "LENGTH_FINISH_REASON",
    "NL_COT_MAX_TOKENS",
    "QA",
    "RECONSTRUCT",
    "RECONSTRUCT_MODES",
    "S3FT_PHASE1",
    "S3FT_PHASE1_LANGUAGE",
    "BatchLine",
    "BatchReply",
    "RequestId",
    "add_decoding_arguments",
    "check_reconstruct_mode",
    "decoding_problem",
    "default_max_tokens",
    "is_truncated",
    "item_id",
    "parse_request_id",
    "qa_id",
    "read_batch_output",
    "reconstruct_id",
    "reconstruct_output",
    "record_task",
    "reply_from_batch_record",
    "s3ft_phase1_id",
    "s3ft_phase1_output",
]
