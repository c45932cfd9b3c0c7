"""Reading what ``spatialbabel score`` scores: a split's true scenes and a predictions JSONL,
or a batch output file (OpenAI Batch API, ``vllm run-batch``) whose ``custom_id``s say what
each reply answers.

Nothing is dropped silently: every bad line becomes an ``InputProblem`` with its line number
(malformed, unknown scene, unknown language, duplicate, a request that failed), every (model,
language, mode) that lacks a reply for a scene of the subset becomes a ``missing`` problem,
lines for scenes of the split outside the chosen subset are counted as skipped, and so are
lines of another task (a QA answer or a suite's reply in the same file, told by its
``request_id`` or ``custom_id``).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from parsers import parse
from spatialbabel import LANGUAGES, ModelOutput
from spatialbabel.files import (
    FileFormatError,
    model_output_from_record,
    read_jsonl,
)
from spatialbabel.run.batch import (
    RECONSTRUCT,
    parse_request_id,
    reconstruct_output,
    record_task,
    reply_from_batch_record,
)
from spatialbabel.split import Split, SplitScenes

Subset = Literal["eval", "phase1", "all"]
SUBSETS: Final[tuple[Subset, ...]] = ("eval", "phase1", "all")

ProblemKind = Literal[
    "malformed", "unknown_scene", "unknown_language", "duplicate", "missing", "failed"
]
PROBLEM_KINDS: Final[tuple[ProblemKind, ...]] = (
    "malformed",
    "unknown_scene",
    "unknown_language",
    "duplicate",
    "missing",
    "failed",
)


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with the predictions; ``line`` is 1-based (None for a missing reply)."""

    kind: ProblemKind
    line: int | None
    message: str

    def describe(self, source: str | Path) -> str:
        where = f"{source}:{self.line}" if self.line is not None else str(source)
        return f"{where}: {self.kind}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self.line, "message": self.message}


def load_truth(root: str | Path, subset: Subset = "eval") -> SplitScenes:
    """The true scenes of a split's subset (``spatialbabel.split``); a scene without objects
    is a ``FileFormatError`` too, since no reply can be scored against it."""
    split = Split.open(root)
    truth = split.scenes(subset)
    for scene_id, scene in truth.scenes.items():
        if not scene.objects:
            raise FileFormatError(
                split.scene_path(scene_id),
                "the scene has no objects, so no reply can be scored against it",
            )
    return truth


@dataclass(frozen=True)
class NumberedOutput:
    line: int
    output: ModelOutput


@dataclass(frozen=True)
class PredictionSet:
    """The replies to score, the problems found, and the lines skipped as outside the subset."""

    path: Path
    outputs: tuple[NumberedOutput, ...]
    problems: tuple[InputProblem, ...]
    skipped: tuple[int, ...]
    #: Lines that answer another task's request (QA, a suite): not replies to score here.
    other_tasks: tuple[int, ...] = ()

    def problem_counts(self) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(PROBLEM_KINDS, 0)
        for problem in self.problems:
            counts[problem.kind] += 1
        return counts


def _parser_available(language: str) -> bool:
    try:
        parse("", language)
    except (KeyError, ImportError):
        return False
    return True


def _batch_record(record: dict[str, Any], line: int) -> dict[str, Any]:
    """A batch output line as a predictions record: the reply's (``spatialbabel.run.batch.
    reconstruct_output``, its ``finish_reason`` kept), or the request's ids and its ``error``
    when it failed."""
    reply = reply_from_batch_record(record, line)
    if reply.text is not None and reply.model is not None:
        output = reconstruct_output(reply)
        return {**output.to_dict(), "finish_reason": output.finish_reason}
    request = parse_request_id(reply.custom_id)
    scene_id, language, mode = request.parts
    fields = {"scene_id": scene_id, "language": language, "mode": mode, "model": "", "output": ""}
    return {**fields, "error": reply.error, "request_id": reply.custom_id}


def read_predictions(path: str | Path, split: SplitScenes, *, batch: bool = False) -> PredictionSet:
    """Every line of a predictions JSONL (or, with ``batch``, of a batch output file), sorted
    into replies to score and problems."""
    path = Path(path)
    try:
        lines = list(read_jsonl(path))
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except OSError as error:
        raise FileFormatError(path, f"cannot be read: {error.strerror}") from None
    problems: list[InputProblem] = []
    outputs: list[NumberedOutput] = []
    skipped: list[int] = []
    other_tasks: list[int] = []
    failed: list[NumberedOutput] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    parsers_present: dict[str, bool] = {}
    for item in lines:
        if item.record is None:
            problems.append(InputProblem("malformed", item.line, item.error or "unreadable line"))
            continue
        record = item.record
        if record_task(record) not in (None, RECONSTRUCT):
            other_tasks.append(item.line)
            continue
        try:
            if batch:
                record = _batch_record(record, item.line)
            failure = record.get("error")
            if failure:
                # A request that got no reply: reported with its id, not scored as the model's.
                name = record.get("request_id") or "/".join(
                    str(record.get(k)) for k in ("scene_id", "language", "mode")
                )
                problems.append(InputProblem("failed", item.line, f"{name}: {failure}"))
                with contextlib.suppress(ValueError):
                    failed.append(NumberedOutput(item.line, model_output_from_record(record)))
                continue
            output = model_output_from_record(record)
        except ValueError as error:
            problems.append(InputProblem("malformed", item.line, str(error)))
            continue
        if output.language not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            problems.append(
                InputProblem("unknown_language", item.line, f"{output.language!r}; known: {known}")
            )
            continue
        if output.language not in parsers_present:
            parsers_present[output.language] = _parser_available(output.language)
        if not parsers_present[output.language]:
            message = f"{output.language!r}: no parser for it is installed"
            problems.append(InputProblem("unknown_language", item.line, message))
            continue
        if output.scene_id not in split.all_ids:
            problems.append(
                InputProblem(
                    "unknown_scene",
                    item.line,
                    f"{output.scene_id!r} is not a scene of {split.root}",
                )
            )
            continue
        if output.scene_id not in split.scenes:
            skipped.append(item.line)
            continue
        key = (output.scene_id, output.model, output.language, output.mode)
        if key in seen:
            message = (
                f"scene {output.scene_id!r}, model {output.model!r}, language {output.language!r}, "
                f"mode {output.mode!r} already given on line {seen[key]}; this line is not scored"
            )
            problems.append(InputProblem("duplicate", item.line, message))
            continue
        seen[key] = item.line
        outputs.append(NumberedOutput(item.line, output))
    problems.extend(_missing(outputs, split, failed))
    return PredictionSet(path, tuple(outputs), tuple(problems), tuple(skipped), tuple(other_tasks))


def _missing(
    outputs: list[NumberedOutput], split: SplitScenes, failed: list[NumberedOutput]
) -> list[InputProblem]:
    """A problem for each scene a (model, language, mode) has no line for; a failed request
    is reported once, as failed, not again as missing."""
    covered: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for item in failed:
        o = item.output
        covered[(o.model, o.language, o.mode)].add(o.scene_id)
    for item in outputs:
        o = item.output
        covered[(o.model, o.language, o.mode)].add(o.scene_id)
    problems = []
    for (model, language, mode), scenes in sorted(covered.items()):
        for scene_id in sorted(set(split.scenes) - scenes):
            message = f"model {model!r}, language {language!r}, mode {mode!r} has no reply for scene {scene_id!r}"
            problems.append(InputProblem("missing", None, message))
    return problems
