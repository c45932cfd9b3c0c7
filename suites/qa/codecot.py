"""Code-CoT replies answered a second way: from the scene the model's own code builds.

The reply's code is parsed (``parsers.parse``, the language named by the mode) and the
question's program runs on the model's scene, seen from the ground-truth camera, without
margins. Set beside the verdict on the model's stated answer, this tells a reconstruction
failure (its scene gives the wrong answer) from a reasoning failure (its scene gives the right
answer, its stated answer is wrong).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

from parsers import get_parser, parse
from spatialbabel.qa import ProgramError, Question, run_program
from spatialbabel.scene import Scene
from suites.qa.grading import Verdict, answers_agree, localization_error

Outcome = Literal[
    "both_right", "reasoning_failure", "reconstruction_failure", "right_despite_reconstruction"
]
OUTCOMES: Final[tuple[Outcome, ...]] = (
    "both_right",
    "reasoning_failure",
    "reconstruction_failure",
    "right_despite_reconstruction",
)


@dataclass(frozen=True)
class Reconstruction:
    """The program's answer on the model's scene. ``parsed``: the code yielded objects;
    ``answer`` is None when it did not or the program could not run (``reason`` says why)."""

    parsed: bool
    objects: int
    answer: Any
    correct: bool
    reason: str | None = None
    error: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "parsed": self.parsed,
            "objects": self.objects,
            "answer": self.answer,
            "correct": self.correct,
            "reason": self.reason,
        }
        if self.error is not None:
            data["error"] = self.error
        return data


@cache
def parser_available(language: str) -> bool:
    """Whether this installation can parse ``language`` (each language's parser is its own
    module; a Code-CoT mode without one is graded on its stated answers alone)."""
    try:
        get_parser(language)
    except (KeyError, ImportError):
        return False
    return True


def reconstruct_answer(
    question: Question, reply: str, language: str, truth: Scene, *, tolerance: float | None = None
) -> Reconstruction:
    """Run ``question``'s program on the scene ``reply`` writes in ``language``."""
    result = parse(reply, language, scene_id=truth.scene_id)
    if not result.ok:
        return Reconstruction(False, 0, None, False, result.failure_reason)
    scene = Scene(truth.scene_id, result.scene.objects, truth.cameras, truth.ground)
    count = len(scene.objects)
    try:
        value = run_program(question.program, scene)
    except ProgramError as error:
        return Reconstruction(True, count, None, False, str(error))
    correct, distance = answers_agree(question, value, tolerance=tolerance)
    return Reconstruction(True, count, value, correct, None, distance)


def outcome(stated_correct: bool, reconstruction: Reconstruction) -> Outcome:
    if reconstruction.correct:
        return "both_right" if stated_correct else "reasoning_failure"
    return "right_despite_reconstruction" if stated_correct else "reconstruction_failure"


def consistent(
    question: Question,
    stated: Any,
    reconstruction: Reconstruction,
    *,
    tolerance: float | None = None,
) -> bool:
    """Whether the stated answer is the one the model's own scene gives."""
    if stated is None or reconstruction.answer is None:
        return False
    if question.category == "localization":
        limit = tolerance if tolerance is not None else question.tolerance
        assert limit is not None
        return localization_error(stated, reconstruction.answer) <= limit
    return bool(stated == reconstruction.answer)


def code_check(
    question: Question,
    verdict: Verdict,
    reply: str,
    language: str,
    truth: Scene,
    *,
    tolerance: float | None = None,
) -> dict[str, Any]:
    """What a Code-CoT reply's code says beside its stated answer (``verdict``): the
    reconstruction, the outcome and whether the two agree, as ``score-qa`` and the QA suite
    record them."""
    reconstruction = reconstruct_answer(question, reply, language, truth, tolerance=tolerance)
    return {
        "reconstruction": reconstruction.to_dict(),
        "outcome": outcome(verdict.correct, reconstruction),
        "consistent": consistent(question, verdict.answer, reconstruction, tolerance=tolerance),
    }


__all__ = [
    "OUTCOMES",
    "Outcome",
    "Reconstruction",
    "code_check",
    "consistent",
    "outcome",
    "parser_available",
    "reconstruct_answer",
]
