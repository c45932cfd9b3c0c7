"""Scoring a file of QA answers against a split: a verdict per answer, the Code-CoT
reconstruction check, and accuracy per model, mode and category with bootstrap CIs.

An answer record is one JSONL line ``{"question_id", "scene_id", "model", "mode", "output"}``
(``mode``: ``direct``, ``nl_cot`` or ``code_cot:<language>``; ``output``: the raw reply), with
an optional ``finish_reason`` (``"length"``: the reply was cut at the token limit). ``scene_id``
may be left out, as ``spatialbabel run`` does: it is then the question's. A record with an
``error`` is a request that failed, reported with its id. The
output of an OpenAI batch run of ``spatialbabel prompts --task qa`` is read directly with
``batch=True``: its ``custom_id`` (``qa/<question_id>/<mode>``) says what each reply answers.
CIs resample whole scenes (``spatialbabel.stats.bootstrap_mean`` with the scene as group), since
the questions of one scene share its image.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import (
    FileFormatError,
    is_truncated,
    optional_finish_reason,
    read_jsonl,
)
from spatialbabel.qa import CATEGORIES, QAFormatError, Question, parse_mode
from spatialbabel.run.batch import QA, parse_request_id, record_task, reply_from_batch_record
from spatialbabel.scene import Scene
from spatialbabel.stats import bootstrap_mean
from suites.answers import FirstAnswers, UngradedLine
from suites.qa.codecot import OUTCOMES, code_check, parser_available
from suites.qa.paper_protocol import Protocol, grade_with

ANSWER_FIELDS: Final = ("question_id", "scene_id", "model", "mode", "output")


@dataclass(frozen=True)
class Answer:
    question_id: str
    scene_id: str
    model: str
    mode: str
    output: str
    line: int
    finish_reason: str | None = None

    @property
    def truncated(self) -> bool:
        """The reply was cut at the token limit."""
        return is_truncated(self.finish_reason)


def answer_from_record(record: Mapping[str, Any], line: int) -> Answer:
    """One answer record; the ValueError names the first bad field. A missing ``scene_id`` is
    left empty, for the reader to take the question's."""
    for name in ANSWER_FIELDS:
        if name == "scene_id" and name not in record:
            continue
        if name not in record:
            raise ValueError(f"missing field {name!r}")
        if not isinstance(record[name], str):
            raise ValueError(
                f"field {name!r}: expected a string, got {type(record[name]).__name__}"
            )
    return Answer(
        question_id=record["question_id"],
        scene_id=record.get("scene_id", ""),
        model=record["model"],
        mode=record["mode"],
        output=record["output"],
        line=line,
        finish_reason=optional_finish_reason(dict(record)),
    )


def answer_from_batch_output(
    record: Mapping[str, Any], line: int, questions: Mapping[str, Question]
) -> Answer:
    """One line of an OpenAI batch output file as an answer record."""
    reply = reply_from_batch_record(record, line)
    request = parse_request_id(reply.custom_id)
    if request.task != QA:
        raise ValueError(f"custom_id {reply.custom_id!r} is not qa/<question_id>/<mode>")
    question_id, mode = request.parts
    if reply.text is None or reply.model is None:
        raise ValueError(f"{reply.custom_id}: {reply.error}")
    question = questions.get(question_id)
    scene_id = question.scene_id if question is not None else ""
    return Answer(
        question_id,
        scene_id,
        reply.model,
        mode,
        reply.text,
        line,
        finish_reason=reply.finish_reason,
    )


def read_answers(
    path: Path,
    questions: Mapping[str, Question],
    *,
    batch: bool = False,
    other_tasks: list[int] | None = None,
) -> tuple[list[Answer], list[UngradedLine]]:
    """The scorable answers of ``path`` and a problem for every other line (nothing dropped
    silently): unreadable lines, failed requests, unknown questions, a scene id that is not
    the question's, unknown modes, and repeats of (question, model, mode), of which the first
    is kept. Lines of another task are left out and their numbers added to ``other_tasks``."""
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    answers: list[Answer] = []
    problems: list[UngradedLine] = []
    first = FirstAnswers()
    for item in read_jsonl(path):
        if item.record is None:
            problems.append(UngradedLine(item.line, item.error or "unreadable line"))
            continue
        if record_task(item.record) not in (None, QA):
            if other_tasks is not None:
                other_tasks.append(item.line)
            continue
        error = item.record.get("error")
        if error and not batch:
            name = item.record.get("request_id") or item.record.get("question_id")
            problems.append(UngradedLine(item.line, f"{name}: the request failed: {error}"))
            continue
        try:
            answer = (
                answer_from_batch_output(item.record, item.line, questions)
                if batch
                else answer_from_record(item.record, item.line)
            )
            parse_mode(answer.mode)
        except (ValueError, QAFormatError) as error:
            problems.append(UngradedLine(item.line, str(error)))
            continue
        question = questions.get(answer.question_id)
        if question is None:
            problems.append(UngradedLine(item.line, f"unknown question_id {answer.question_id!r}"))
            continue
        if not answer.scene_id:
            answer = replace(answer, scene_id=question.scene_id)
        if answer.scene_id != question.scene_id:
            problems.append(
                UngradedLine(
                    item.line,
                    f"scene_id {answer.scene_id!r} is not the question's ({question.scene_id!r})",
                )
            )
            continue
        repeat = first.repeat(item.line, answer.question_id, answer.model, answer.mode)
        if repeat is not None:
            problems.append(repeat)
            continue
        answers.append(answer)
    return answers, problems


def score_answer(
    question: Question,
    answer: Answer,
    scene_of: Callable[[str], Scene],
    *,
    tolerance: float | None = None,
    protocol: Protocol = "project",
) -> dict[str, Any]:
    """The detail record of one answer: its verdict (by ``protocol``'s reader), and for
    Code-CoT its reconstruction (left out when this installation has no parser for the mode's
    language)."""
    verdict = grade_with(protocol, question, answer.output, answer.mode, tolerance=tolerance)
    detail: dict[str, Any] = {
        "question_id": answer.question_id,
        "scene_id": answer.scene_id,
        "model": answer.model,
        "mode": answer.mode,
        "category": question.category,
        "kind": question.kind,
        "truth": question.answer,
        "truncated": answer.truncated,
        **verdict.to_dict(),
    }
    kind, language = parse_mode(answer.mode)
    if kind == "code_cot" and language is not None and parser_available(language):
        detail.update(
            code_check(
                question,
                verdict,
                answer.output,
                language,
                scene_of(answer.scene_id),
                tolerance=tolerance,
            )
        )
    return detail


def _estimate(
    rows: list[dict[str, Any]], value: Callable[[dict[str, Any]], float], seed: int
) -> dict[str, float | int]:
    return bootstrap_mean(
        [value(r) for r in rows], seed=seed, groups=[r["scene_id"] for r in rows]
    ).to_dict()


def _correct(row: dict[str, Any]) -> float:
    return float(row["correct"])


def summarise(details: Iterable[dict[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    """Accuracy per model: overall, per mode, per category, per mode and category, and the
    answers cut at the token limit per mode; for each Code-CoT mode also the reconstruction's
    accuracy, parse rate (with the cut answers beside it), consistency and outcomes."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in details:
        by_model[row["model"]].append(row)
    summary: dict[str, Any] = {}
    for model in sorted(by_model):
        rows = by_model[model]
        modes = sorted({r["mode"] for r in rows})
        categories = [c for c in CATEGORIES if any(r["category"] == c for r in rows)]
        entry: dict[str, Any] = {
            "overall": _estimate(rows, _correct, seed),
            "by_mode": {
                m: _estimate([r for r in rows if r["mode"] == m], _correct, seed) for m in modes
            },
            "by_category": {
                c: _estimate([r for r in rows if r["category"] == c], _correct, seed)
                for c in categories
            },
            "by_mode_category": {
                m: {
                    c: _estimate(
                        [r for r in rows if r["mode"] == m and r["category"] == c], _correct, seed
                    )
                    for c in categories
                    if any(r["mode"] == m and r["category"] == c for r in rows)
                }
                for m in modes
            },
            "truncated": {m: _truncated([r for r in rows if r["mode"] == m]) for m in modes},
            "code_cot": {},
        }
        for mode in modes:
            cot = [r for r in rows if r["mode"] == mode and "reconstruction" in r]
            if not cot:
                continue
            entry["code_cot"][mode] = {
                "answer_accuracy": _estimate(cot, _correct, seed),
                "reconstruction_accuracy": _estimate(
                    cot, lambda r: float(r["reconstruction"]["correct"]), seed
                ),
                "parse_rate": _estimate(cot, lambda r: float(r["reconstruction"]["parsed"]), seed),
                "truncated": _truncated(cot),
                "consistency": _estimate(cot, lambda r: float(r["consistent"]), seed),
                "outcomes": {
                    name: sum(1 for r in cot if r["outcome"] == name) for name in OUTCOMES
                },
            }
        summary[model] = entry
    return summary


def _truncated(rows: list[dict[str, Any]]) -> int:
    """How many of the answers were cut at the token limit."""
    return sum(1 for r in rows if r.get("truncated"))


def _cell(estimate: Mapping[str, Any] | None) -> str:
    if not estimate or not estimate.get("n"):
        return "-"
    return (
        f"{estimate['mean']:.3f} [{estimate['low']:.2f}, {estimate['high']:.2f}] n={estimate['n']}"
    )


def format_table(summary: Mapping[str, Any]) -> str:
    """The summary as plain text: one row per model and mode, then the Code-CoT analysis."""
    header = ["model", "mode", "overall", *CATEGORIES, "cut"]
    rows = [header]
    for model, entry in summary.items():
        cut = entry.get("truncated", {})
        for mode, overall in entry["by_mode"].items():
            cells = entry["by_mode_category"].get(mode, {})
            rows.append(
                [
                    model,
                    mode,
                    _cell(overall),
                    *(_cell(cells.get(c)) for c in CATEGORIES),
                    f"{cut.get(mode, 0)}/{overall['n']}",
                ]
            )
        rows.append(
            [
                model,
                "all",
                _cell(entry["overall"]),
                *(_cell(entry["by_category"].get(c)) for c in CATEGORIES),
                f"{sum(cut.values())}/{entry['overall']['n']}",
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.append("cut: answers cut at the token limit (finish_reason length)")
    cot_rows = [
        ["model", "mode", "answer", "reconstruction", "parsed", "cut", "consistent", *OUTCOMES]
    ]
    for model, entry in summary.items():
        for mode, cot in entry["code_cot"].items():
            cot_rows.append(
                [
                    model,
                    mode,
                    _cell(cot["answer_accuracy"]),
                    _cell(cot["reconstruction_accuracy"]),
                    _cell(cot["parse_rate"]),
                    str(cot["truncated"]),
                    _cell(cot["consistency"]),
                    *(str(cot["outcomes"][name]) for name in OUTCOMES),
                ]
            )
    if len(cot_rows) > 1:
        widths = [max(len(r[i]) for r in cot_rows) for i in range(len(cot_rows[0]))]
        lines += ["", "Code-CoT: the question's program run on the model's own scene"]
        lines += [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in cot_rows
        ]
    return "\n".join(lines)


__all__ = [
    "ANSWER_FIELDS",
    "Answer",
    "UngradedLine",
    "answer_from_batch_output",
    "answer_from_record",
    "format_table",
    "read_answers",
    "score_answer",
    "summarise",
]
