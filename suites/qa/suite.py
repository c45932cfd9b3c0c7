"""The split's spatial questions (``qa.jsonl``) as a suite: one ``Item`` per question.

An item keeps everything of its ``spatialbabel.qa.Question``: the category is its task, the
choices its options, the kind its ``group`` and the program, the object mentions, the
tolerance and the evidence its ``facts``; ``question_of`` reads the question back, exactly.
The variants are the QA modes (``direct``, ``nl_cot``, ``code_cot:<language>``); a Code-CoT
variant's grader also parses the reply's code and runs the program on the model's scene
(``suites.qa.codecot``), recorded in the grade's ``parsed``.

An items folder of this suite has the layout of a split (``images/<scene>.png``,
``scenes/<scene>.json``), so a split itself serves as one: that is how ``spatialbabel prompts
--task qa`` asks this suite for its requests without building a folder first.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from spatialbabel import LANGUAGES
from spatialbabel.files import FileFormatError, split_paths
from spatialbabel.qa import CATEGORIES, SCHEMA_VERSION, Question, parse_mode
from spatialbabel.run.batch import QA, default_max_tokens
from spatialbabel.scene import Scene
from spatialbabel.split import Split
from suites.base import Grade, Item, PromptText, Reply, Suite, SuiteError

#: The QA modes as the suite's variants, the first the default; ``code_cot`` is one variant
#: per language.
VARIANTS: Final = ("direct", "nl_cot", *(f"code_cot:{language}" for language in LANGUAGES))


def image_input(scene_id: str) -> str:
    """The item input of a scene's frontal image, relative to a split or an items folder."""
    return f"images/{scene_id}.png"


def item_of(question: Question) -> Item:
    facts: dict[str, Any] = {
        "program": [dict(step) for step in question.program],
        "objects": [mention.to_dict() for mention in question.objects],
        "evidence": dict(question.evidence),
    }
    if question.tolerance is not None:
        facts["tolerance"] = question.tolerance
    return Item(
        suite=QA,
        item_id=question.question_id,
        scene_id=question.scene_id,
        task=question.category,
        question=question.question,
        answer=question.answer,
        inputs=(image_input(question.scene_id),),
        options=question.choices,
        group={"kind": question.kind},
        facts=facts,
    )


def question_of(item: Item) -> Question:
    """The question an item was made from (``spatialbabel.qa.Question.from_dict`` checks it)."""
    record: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "question_id": item.item_id,
        "scene_id": item.scene_id,
        "category": item.task,
        "kind": item.group.get("kind", ""),
        "question": item.question,
        "answer": item.answer,
        "choices": list(item.options),
        "objects": item.facts.get("objects", []),
        "program": item.facts.get("program", []),
        "evidence": item.facts.get("evidence", {}),
    }
    if "tolerance" in item.facts:
        record["tolerance"] = item.facts["tolerance"]
    try:
        return Question.from_dict(record)
    except ValueError as error:
        raise SuiteError(f"item {item.item_id}: {error}") from None


def split_items(root: Path, scene_ids: Sequence[str]) -> list[Item]:
    """The items of the split's questions about ``scene_ids``, scene by scene in that order,
    each scene's questions in file order."""
    by_scene: dict[str, list[Item]] = {}
    for question in Split.open(root).questions(Question.from_dict).values():
        by_scene.setdefault(question.scene_id, []).append(item_of(question))
    return [item for scene_id in scene_ids for item in by_scene.get(scene_id, [])]


class QASuite(Suite):
    """The spatial questions of a split. ``tolerance`` overrides every localization question's
    own (``score-qa --tolerance``)."""

    name = QA
    version = "1"
    tasks = CATEGORIES
    variants = VARIANTS

    def __init__(self, tolerance: float | None = None) -> None:
        self.tolerance = tolerance
        self._folder: Path | None = None
        self._scenes: dict[str, Scene] = {}

    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        paths, copied = split_paths(split), split_paths(out)
        if not paths["scenes"].is_dir():
            raise FileFormatError(paths["scenes"], "no such folder: is this a split?")
        scene_ids = sorted(p.stem for p in paths["scenes"].glob("*.json"))
        items = split_items(split, scene_ids)
        for scene_id in sorted({item.scene_id for item in items}):
            for kind, name in (("scenes", f"{scene_id}.json"), ("images", f"{scene_id}.png")):
                if not (paths[kind] / name).is_file():
                    raise FileFormatError(paths[kind] / name, "no such file")
                copied[kind].mkdir(parents=True, exist_ok=True)
                shutil.copyfile(paths[kind] / name, copied[kind] / name)
        yield from items

    def prepare(self, folder: Path, items: Sequence[Item]) -> None:
        if folder != self._folder:
            self._folder, self._scenes = folder, {}

    def scene(self, scene_id: str) -> Scene:
        """The ground-truth scene of an item, from the prepared folder's ``scenes/``."""
        if self._folder is None:
            raise SuiteError("the qa suite reads its scenes from a prepared items folder")
        if scene_id not in self._scenes:
            path = split_paths(self._folder)["scenes"] / f"{scene_id}.json"
            if not path.is_file():
                raise FileFormatError(path, "no such file")
            self._scenes[scene_id] = Scene.load(path)
        return self._scenes[scene_id]

    def prompt(self, item: Item, variant: str) -> PromptText:
        from synth.prompts import qa_prompt

        prompt = qa_prompt(question_of(item), self.scene(item.scene_id), variant)
        return PromptText(prompt.system, prompt.text)

    def max_tokens(self, variant: str) -> int:
        return default_max_tokens(QA, variant)

    def grade(self, item: Item, reply: Reply) -> Grade:
        from suites.qa.codecot import code_check, parser_available
        from suites.qa.grading import grade

        question = question_of(item)
        verdict = grade(question, reply.output, tolerance=self.tolerance)
        parsed: Any = verdict.answer
        kind, language = parse_mode(reply.variant)
        if kind == "code_cot" and language is not None and parser_available(language):
            check = code_check(
                question,
                verdict,
                reply.output,
                language,
                self.scene(item.scene_id),
                tolerance=self.tolerance,
            )
            parsed = {"answer": verdict.answer, **check}
        if verdict.status == "hedged":
            return Grade(0.0, "parser_failure", parsed, f"hedged between answers: {verdict.source}")
        if verdict.status == "no_answer":
            return Grade(0.0, "parser_failure", parsed, f"no answer read in: {verdict.source}")
        reason = "" if verdict.correct else f"read {verdict.answer!r} in: {verdict.source}"
        return Grade.read(1.0 if verdict.correct else 0.0, parsed, reason)


SUITE: Final = QASuite()

__all__ = ["SUITE", "VARIANTS", "QASuite", "image_input", "item_of", "question_of", "split_items"]
