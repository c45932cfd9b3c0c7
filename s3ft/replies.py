"""Reading a model's replies to the ``phase1`` scenes' Three.js prompts.

The paper's route is S3-FT's phase-1 prompt (``spatialbabel prompts --task s3ft-phase1``, a
whole Three.js program; ``custom_id`` ``s3ft-phase1/<scene_id>/threejs``, read as mode
``s3ft-phase1``). Replies to the benchmark's reconstruction prompt (``prompts --task
reconstruct --subset phase1``, mode ``direct`` or ``nl_cot``) are read too, for comparison:
that prompt asks for the objects only, so a reply that obeys it fails the quality filter.

Two files are read: a predictions JSONL (``{scene_id, model, language, mode, output}`` per
line, docs/formats.md) and the output file of an OpenAI batch run of the prompts (read by the
hub's one reader, ``spatialbabel.run.batch``; the ``custom_id`` says which scene each reply is
for). Nothing is dropped silently: a line that cannot be used is an ``InputProblem`` with its
line number, one of ``PROBLEM_KINDS``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

from spatialbabel.errors import SpatialBabelError
from spatialbabel.files import (
    FileFormatError,
    ModelOutput,
    model_output_from_record,
    read_jsonl,
)
from spatialbabel.run.batch import (
    DEFAULT_RECONSTRUCT_MODE,
    S3FT_PHASE1,
    S3FT_PHASE1_LANGUAGE,
    BatchLine,
    parse_request_id,
    read_batch_output,
    reconstruct_output,
    s3ft_phase1_output,
)

LANGUAGE: Final = S3FT_PHASE1_LANGUAGE
#: The mode of a reply to S3-FT's phase-1 prompt (the paper's route); the reconstruction
#: prompt's modes (``direct``, ``nl_cot``) are the old route.
PHASE1_MODE: Final = S3FT_PHASE1

ReplyFormat = Literal["predictions", "batch"]
FORMATS: Final[tuple[ReplyFormat, ...]] = ("predictions", "batch")

ProblemKind = Literal[
    "malformed",
    "failed_request",
    "wrong_language",
    "unknown_scene",
    "outside_phase1",
    "duplicate",
]
PROBLEM_KINDS: Final[tuple[ProblemKind, ...]] = get_args(ProblemKind)


class ModelChoiceError(SpatialBabelError):
    """The replies come from several models and none was chosen (or the one chosen is absent)."""


@dataclass(frozen=True)
class SceneCodeReply:
    """One reply to a ``phase1`` scene's Three.js prompt; ``line`` is 1-based."""

    line: int
    scene_id: str
    model: str
    text: str
    truncated: bool = False
    #: ``s3ft-phase1`` for a reply to the phase-1 prompt, else the reconstruction mode.
    mode: str = PHASE1_MODE

    @property
    def phase1_prompt(self) -> bool:
        return self.mode == PHASE1_MODE


@dataclass(frozen=True)
class InputProblem:
    kind: ProblemKind
    line: int
    message: str

    def describe(self, source: str | Path) -> str:
        return f"{source}:{self.line}: {self.kind}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "line": self.line, "message": self.message}


@dataclass(frozen=True)
class ReplySet:
    """The replies to build from, the problems found, and what was set aside."""

    path: Path
    format: ReplyFormat
    model: str
    mode: str
    replies: tuple[SceneCodeReply, ...]
    problems: tuple[InputProblem, ...]
    #: Lines of other models in the same file (``--model`` chose one).
    other_models: Mapping[str, int]
    #: Lines of the chosen model in other reconstruction modes (``--mode`` chose one).
    other_modes: Mapping[str, int]
    #: ``phase1`` scenes that have no reply.
    unanswered: tuple[str, ...]

    @property
    def phase1_prompt(self) -> bool:
        """Whether the replies answer S3-FT's phase-1 prompt (the paper's route), not the
        benchmark's reconstruction prompt."""
        return self.mode == PHASE1_MODE

    def problem_counts(self) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(PROBLEM_KINDS, 0)
        for problem in self.problems:
            counts[problem.kind] += 1
        return counts


def sniff_format(path: Path) -> ReplyFormat:
    """``batch`` when the first readable record has a ``custom_id``, else ``predictions``."""
    for item in read_jsonl(path):
        if item.record is not None:
            return "batch" if "custom_id" in item.record else "predictions"
    return "predictions"


def _from_predictions(path: Path) -> Iterable[tuple[int, ModelOutput] | InputProblem]:
    for item in read_jsonl(path):
        if item.record is None:
            yield InputProblem("malformed", item.line, item.error or "unreadable line")
            continue
        try:
            output = model_output_from_record(item.record)
        except ValueError as error:
            yield InputProblem("malformed", item.line, str(error))
            continue
        error_field = item.record.get("error")
        if error_field and not output.output.strip():
            yield InputProblem("failed_request", item.line, f"the request failed: {error_field}")
            continue
        yield item.line, output


def _from_batch_line(item: BatchLine) -> tuple[int, ModelOutput] | InputProblem:
    if item.reply is None:
        return InputProblem("malformed", item.line, item.problem or "unreadable line")
    if item.reply.text is None or item.reply.model is None:
        return InputProblem("failed_request", item.line, item.reply.error or "no reply text")
    try:
        if parse_request_id(item.reply.custom_id).task == S3FT_PHASE1:
            return item.line, s3ft_phase1_output(item.reply)
        return item.line, reconstruct_output(item.reply)
    except ValueError as error:
        return InputProblem("malformed", item.line, str(error))


def read_replies(
    path: Path,
    *,
    phase1: Iterable[str],
    subsets: Mapping[str, str],
    model: str | None = None,
    mode: str | None = None,
    reply_format: ReplyFormat | None = None,
) -> ReplySet:
    """Sort every line of ``path`` into replies and problems.

    ``phase1`` lists the scenes replies may be for; ``subsets`` names the subset of every other
    scene of the split (a reply for an ``eval`` scene must never become training data). With
    several models in the file, ``model`` picks one; without it that is a ``ModelChoiceError``.
    Only replies in ``mode`` are used (by default ``s3ft-phase1``, the phase-1 prompt's, where
    the file holds any, else the reconstruction prompt's ``direct``); the others are counted,
    and a file with none in ``mode`` is a ``ModelChoiceError`` naming the modes it has.
    """
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    chosen_format = reply_format or sniff_format(path)
    items: Iterable[tuple[int, ModelOutput] | InputProblem] = (
        (_from_batch_line(line) for line in read_batch_output(path))
        if chosen_format == "batch"
        else _from_predictions(path)
    )
    wanted = set(phase1)
    problems: list[InputProblem] = []
    candidates: list[tuple[int, ModelOutput]] = []
    for item in items:
        if isinstance(item, InputProblem):
            problems.append(item)
            continue
        line, output = item
        if output.language != LANGUAGE:
            problems.append(
                InputProblem(
                    "wrong_language",
                    line,
                    f"language {output.language!r}; S3-FT learns from {LANGUAGE} replies",
                )
            )
        elif output.scene_id not in wanted and output.scene_id not in subsets:
            problems.append(
                InputProblem(
                    "unknown_scene", line, f"{output.scene_id!r} is not a scene of the split"
                )
            )
        elif output.scene_id not in wanted:
            problems.append(
                InputProblem(
                    "outside_phase1",
                    line,
                    f"{output.scene_id!r} is in the {subsets[output.scene_id]!r} subset, not phase1",
                )
            )
        else:
            candidates.append(item)
    models = sorted({output.model for _, output in candidates})
    if model is None:
        if len(models) > 1:
            raise ModelChoiceError(
                f"{path} holds replies of {len(models)} models ({', '.join(models)}); choose one with --model"
            )
        model = models[0] if models else ""
    elif candidates and model not in models:
        raise ModelChoiceError(
            f"{path} has no reply of model {model!r}; it has {', '.join(models)}"
        )
    modes = sorted({o.mode for _, o in candidates if o.model == model})
    if mode is None:
        mode = PHASE1_MODE if PHASE1_MODE in modes else DEFAULT_RECONSTRUCT_MODE
    if modes and mode not in modes:
        raise ModelChoiceError(
            f"{path} has no reply of model {model!r} in mode {mode!r}; it has {', '.join(modes)} "
            "(choose one with --mode)"
        )
    others: dict[str, int] = {}
    other_modes: dict[str, int] = {}
    replies: list[SceneCodeReply] = []
    seen: dict[str, int] = {}
    for line, output in candidates:
        if output.model != model:
            others[output.model] = others.get(output.model, 0) + 1
            continue
        if output.mode != mode:
            other_modes[output.mode] = other_modes.get(output.mode, 0) + 1
            continue
        if output.scene_id in seen:
            problems.append(
                InputProblem(
                    "duplicate",
                    line,
                    f"scene {output.scene_id!r} already has a reply on line {seen[output.scene_id]}; this one is not used",
                )
            )
            continue
        seen[output.scene_id] = line
        replies.append(
            SceneCodeReply(
                line,
                output.scene_id,
                output.model,
                output.output,
                output.truncated,
                output.mode,
            )
        )
    problems.sort(key=lambda p: p.line)
    return ReplySet(
        path,
        chosen_format,
        model,
        mode,
        tuple(replies),
        tuple(problems),
        others,
        other_modes,
        tuple(sorted(wanted - set(seen))),
    )


__all__ = [
    "FORMATS",
    "LANGUAGE",
    "PHASE1_MODE",
    "PROBLEM_KINDS",
    "InputProblem",
    "ModelChoiceError",
    "ProblemKind",
    "ReplyFormat",
    "ReplySet",
    "SceneCodeReply",
    "read_replies",
    "sniff_format",
]
