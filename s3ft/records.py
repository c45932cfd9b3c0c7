"""The training records of one scene: the nine structured tasks and the natural-language
records on the frontal image, and with cross-viewpoint copies, every view-invariant record
again on each other view's image.

A ``Record`` is format-neutral (instruction, answer, image path relative to the split); the
writers in ``s3ft.formats`` and ``s3ft.hf_dataset`` turn it into each trainer's layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Any, Final, Literal

from s3ft.language import (
    code_paraphrases,
    describe,
    plain_answer,
    qa_instruction,
    qa_pairs,
    question_is_view_invariant,
)
from s3ft.pseudo import PseudoTruth
from s3ft.tasks import CODE_TASK, STRUCTURED_TASKS, View, answer_text
from spatialbabel import Scene
from synth.prompts import GUIDES, Prompt, reconstruct_prompt, s3ft_phase1_prompt
from synth.questions import SplitRules

Kind = Literal["structured", "nl"]
DESCRIPTION_TASK: Final = "description"
PARAPHRASE_TASK: Final = "code_paraphrase"
QA_PREFIX: Final = "qa_"

DESCRIBE_INSTRUCTION: Final = (
    "Describe this scene in a short paragraph: which objects it holds, where each one stands in "
    "the scene frame (metres), how large it is, and what rests on what."
)


@dataclass(frozen=True)
class Record:
    """One training example: an image, an instruction and its answer."""

    record_id: str
    scene_id: str
    view: str
    #: The image, relative to the split's root (``images/scene_000012_view2.png``).
    image: str
    task: str
    kind: Kind
    instruction: str
    answer: str
    view_invariant: bool
    system: str | None = None
    #: ``train`` or ``val``, set when the scenes are split.
    split: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        return cls(**data)


def code_target(code: str) -> str:
    fence = GUIDES["threejs"].fence
    return f"```{fence}\n{code}\n```"


@dataclass(frozen=True)
class _Draft:
    """A record of the frontal view and how its instruction reads for any view."""

    suffix: str
    task: str
    kind: Kind
    instruction: Callable[[View], str]
    answer: str
    view_invariant: bool
    system: str | None = None

    def on(self, view: View, image: str) -> Record:
        scene_id = view.scene.scene_id
        return Record(
            f"{scene_id}/{view.name}/{self.suffix}",
            scene_id,
            view.name,
            image,
            self.task,
            self.kind,
            self.instruction(view),
            self.answer,
            self.view_invariant,
            self.system,
        )


def _drafts(
    pseudo: PseudoTruth, *, seed: int, natural_language: bool, rules: SplitRules | None
) -> list[_Draft]:
    """Every record of the scene, answered from the frontal view."""
    front = View(pseudo.scene, 0)
    drafts = [
        _Draft(
            item.name,
            item.name,
            "structured",
            item.instruction,
            answer_text(item.answer(front)),
            item.view_invariant,
        )
        for item in STRUCTURED_TASKS
    ]
    target = code_target(pseudo.code)
    # The code record asks what the reply answered: the phase-1 prompt (a whole program), or
    # on the old route the benchmark's reconstruction prompt.
    asked: Callable[[Scene], Prompt] = (
        s3ft_phase1_prompt
        if pseudo.phase1_prompt
        else lambda scene: reconstruct_prompt(scene, "threejs")
    )
    drafts.append(
        _Draft(
            CODE_TASK,
            CODE_TASK,
            "structured",
            lambda view: asked(view.seen_scene).text,
            target,
            False,
            asked(front.seen_scene).system,
        )
    )
    if not natural_language:
        return drafts
    for question in qa_pairs(pseudo.scene, seed, rules):
        drafts.append(
            _Draft(
                f"qa/{question.question_id}",
                QA_PREFIX + question.category,
                "nl",
                partial(qa_instruction, question),
                plain_answer(question),
                question_is_view_invariant(question),
            )
        )
    drafts.append(
        _Draft(
            DESCRIPTION_TASK,
            DESCRIPTION_TASK,
            "nl",
            lambda view: DESCRIBE_INSTRUCTION,
            describe(front),
            True,
        )
    )
    for k in (0, 1):
        drafts.append(
            _Draft(
                f"{PARAPHRASE_TASK}/{k + 1}",
                PARAPHRASE_TASK,
                "nl",
                partial(_paraphrase, k),
                target,
                False,
            )
        )
    return drafts


def _paraphrase(k: int, view: View) -> str:
    return code_paraphrases(view)[k]


def scene_records(
    pseudo: PseudoTruth,
    *,
    image_of: Callable[[int], str],
    views: Sequence[int] = (0,),
    seed: int = 42,
    natural_language: bool = True,
    rules: SplitRules | None = None,
) -> list[Record]:
    """Every record of one scene on the frontal image (view 0), answered from it; and, for
    each other view in ``views``, a copy of every view-invariant record on that view's image,
    its answer kept and its instruction written for that view (the camera it names).
    ``rules`` are the split's question rules (``synth.questions.SplitRules``)."""
    drafts = _drafts(pseudo, seed=seed, natural_language=natural_language, rules=rules)
    records: list[Record] = []
    for index in views:
        view = View(pseudo.scene, index)
        image = image_of(index)
        records += [d.on(view, image) for d in drafts if index == 0 or d.view_invariant]
    return records


def with_split(records: Sequence[Record], split: str) -> list[Record]:
    return [replace(r, split=split) for r in records]


__all__ = [
    "DESCRIBE_INSTRUCTION",
    "DESCRIPTION_TASK",
    "PARAPHRASE_TASK",
    "QA_PREFIX",
    "Kind",
    "Record",
    "code_target",
    "scene_records",
    "with_split",
]
