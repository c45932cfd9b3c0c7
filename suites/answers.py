"""Reading a suite's answers: JSONL records, or the output file of a batch run of its prompts.

An answer record is ``{"item_id", "model", "variant", "output"}``, with the optional fields of
every answers file (``request_id``, ``finish_reason``, ``usage``, ``latency_s``, ``error``) and,
for suites answered by drawing, ``image``: the drawn image's path, relative to the answers
file. A batch output line says what it answers in its ``custom_id``
(``<suite>/<item_id>/<variant>``, ``spatialbabel.run.batch.item_id``).

Nothing is dropped silently: a line that cannot be used is a ``UngradedLine`` naming its line, and
an item that a (model, variant) left unanswered is graded as a generation failure, so missing
answers stay in the denominator.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import FileFormatError, read_jsonl
from spatialbabel.run.batch import parse_request_id, read_batch_output
from suites.base import Item, Reply, Suite

ANSWER_FIELDS: Final = ("item_id", "model", "variant", "output")
NO_ANSWER: Final = "no answer for this item"


@dataclass(frozen=True)
class UngradedLine:
    """A line of the answers file that was not graded, and why."""

    line: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message}


class FirstAnswers:
    """The rule for repeats in an answers file: the first answer of each (item, model,
    variant) is kept, a later one is a problem naming the line it repeats."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str, str], int] = {}

    def repeat(self, line: int, item_id: str, model: str, variant: str) -> UngradedLine | None:
        """None for a first answer (now remembered), else the problem of the repeat."""
        first = self._lines.setdefault((item_id, model, variant), line)
        if first == line:
            return None
        return UngradedLine(
            line, f"repeats the answer of line {first} for {item_id} by {model} in {variant}"
        )


def _reply_from_record(record: Mapping[str, Any], line: int, base: Path) -> Reply:
    for name in ANSWER_FIELDS:
        if not isinstance(record.get(name), str):
            raise ValueError(f"field {name!r}: expected a string")
    error = record.get("error")
    if error is not None and not isinstance(error, str):
        raise ValueError("field 'error': expected a string")
    image = record.get("image")
    if image is not None and not isinstance(image, str):
        raise ValueError("field 'image': expected a path")
    return Reply(
        item_id=record["item_id"],
        model=record["model"],
        variant=record["variant"],
        output=record["output"],
        image=None if image is None else base / image,
        error=error or None,
        truncated=record.get("finish_reason") == "length",
        line=line,
    )


def read_replies(
    path: Path, suite: Suite, items: Mapping[str, Item], *, batch: bool = False
) -> tuple[list[Reply], list[UngradedLine]]:
    """The gradable replies of ``path`` and a problem for every other line: unreadable lines,
    another suite's ids, unknown items or variants, and repeats of (item, model, variant), of
    which the first is kept."""
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    replies: list[Reply] = []
    problems: list[UngradedLine] = []
    first = FirstAnswers()
    candidates: list[tuple[int, Reply | None, str | None]] = []
    if batch:
        for entry in read_batch_output(path):
            if entry.reply is None:
                candidates.append((entry.line, None, entry.problem))
                continue
            answer = entry.reply
            try:
                request = parse_request_id(answer.custom_id)
            except ValueError as error:
                candidates.append((entry.line, None, str(error)))
                continue
            if request.task != suite.name or len(request.parts) != 2:
                candidates.append(
                    (
                        entry.line,
                        None,
                        f"custom_id {answer.custom_id!r} is not {suite.name}/<item>/<variant>",
                    )
                )
                continue
            candidate = Reply(
                item_id=request.parts[0],
                model=answer.model or "",
                variant=request.parts[1],
                output=answer.text or "",
                error=answer.error,
                truncated=answer.truncated,
                line=entry.line,
            )
            candidates.append((entry.line, candidate, None))
    else:
        for record in read_jsonl(path):
            if record.record is None:
                candidates.append((record.line, None, record.error or "unreadable line"))
                continue
            try:
                candidates.append(
                    (record.line, _reply_from_record(record.record, record.line, path.parent), None)
                )
            except ValueError as error:
                candidates.append((record.line, None, str(error)))
    for line, reply, message in candidates:
        if reply is None:
            problems.append(UngradedLine(line, message or "unreadable line"))
            continue
        if reply.item_id not in items:
            problems.append(UngradedLine(line, f"unknown item_id {reply.item_id!r}"))
            continue
        if reply.variant not in suite.variants:
            problems.append(
                UngradedLine(
                    line,
                    f"unknown variant {reply.variant!r}; {suite.name} has {', '.join(suite.variants)}",
                )
            )
            continue
        if not suite.asks(items[reply.item_id], reply.variant):
            problems.append(
                UngradedLine(line, f"variant {reply.variant!r} does not ask item {reply.item_id}")
            )
            continue
        if batch and not reply.model:
            # A failed request carries no model name; without one it cannot join a row.
            problems.append(UngradedLine(line, f"{reply.item_id}: {reply.error or 'no model'}"))
            continue
        repeat = first.repeat(line, reply.item_id, reply.model, reply.variant)
        if repeat is not None:
            problems.append(repeat)
            continue
        replies.append(reply)
    return replies, problems


def with_missing(
    replies: list[Reply], items: Mapping[str, Item], suite: Suite | None = None
) -> list[Reply]:
    """``replies`` plus an empty, failed reply for every item that a (model, variant) seen in
    them did not answer, in item order, so that every row is graded over every item its
    variant asks (``suite.asks``; every item without a suite)."""
    answered = {(r.model, r.variant, r.item_id) for r in replies}
    rows = sorted({(r.model, r.variant) for r in replies})
    missing = [
        Reply(item_id, model, variant, error=NO_ANSWER)
        for model, variant in rows
        for item_id, item in items.items()
        if (model, variant, item_id) not in answered
        and (suite is None or suite.asks(item, variant))
    ]
    return replies + missing


def print_problems(answers: Path, problems: Sequence[UngradedLine], *, left: str) -> bool:
    """Each problem on stderr as ``<answers>:<line>: <message>``, then how many lines were
    ``left`` (``"could not be graded"``); whether there were any."""
    for problem in problems:
        print(f"{answers}:{problem.line}: {problem.message}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} line(s) of {answers} {left}", file=sys.stderr)
    return bool(problems)


__all__ = [
    "NO_ANSWER",
    "FirstAnswers",
    "UngradedLine",
    "print_problems",
    "read_replies",
    "with_missing",
]
