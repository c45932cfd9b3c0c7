"""The rows every harness export is made of: one per request, grouped in configs.

A config is one task in one mode (and, for reconstruction, one language): the rows of one
lmms-eval task, one VLMEvalKit dataset, one Hugging Face dataset config. Its name comes from
the request ids alone (``reconstruct_<language>_<mode>``, ``qa_<mode>``,
``<suite>_<variant>``), so the same requests always make the same configs.

A row holds the request as ``spatialbabel run`` would send it (``id`` is its ``custom_id``;
``system``, ``prompt``, the images or the video in order, the decoding settings as JSON in
``generation``) and its ground truth as JSON (``truth``: what the scorer reads, the scene file,
the question's record or the suite's item; ``answer``: the answer alone).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from harnesses import sources
from harnesses.sources import QA, RECONSTRUCT, Request, SuiteItems

#: Where the files the scorers read are kept inside an export, per source.
TRUTH_DIR: Final = "truth"
SPLIT_TRUTH: Final = f"{TRUTH_DIR}/split"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "_", text)


@dataclass(frozen=True)
class Config:
    """One task in one mode: ``task`` is ``reconstruct``, ``qa`` or a suite's name; ``mode``
    the reconstruction or QA mode, or the suite's variant; ``truth`` the folder of the export
    that grades it."""

    name: str
    task: str
    mode: str
    language: str | None
    truth: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "task": self.task,
            "mode": self.mode,
            "language": self.language,
            "truth": self.truth,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        return cls(data["name"], data["task"], data["mode"], data.get("language"), data["truth"])


def config_of(custom_id: str) -> Config:
    """The config a request id belongs to."""
    request = sources.parse_request_id(custom_id)
    if request.task == RECONSTRUCT:
        _, language, mode = request.parts
        return Config(
            f"reconstruct_{language}_{_safe(mode)}", RECONSTRUCT, mode, language, SPLIT_TRUTH
        )
    if request.task == QA:
        mode = request.parts[1]
        return Config(f"qa_{_safe(mode)}", QA, mode, None, SPLIT_TRUTH)
    return suite_config(request.task, request.parts[1])


def suite_truth(suite: str) -> str:
    """The folder of an export that holds a suite's items folder."""
    return f"{TRUTH_DIR}/{_safe(suite)}"


def suite_config(suite: str, variant: str) -> Config:
    return Config(f"{_safe(suite)}_{_safe(variant)}", suite, variant, None, suite_truth(suite))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)


@dataclass(frozen=True)
class Row:
    """One request and its truth, as every export writes it."""

    request: Request
    scene_id: str
    category: str
    truth: str
    answer: str

    @property
    def images(self) -> list[bytes]:
        return [m.data for m in self.request.media if not m.is_video]

    @property
    def video(self) -> bytes | None:
        videos = [m.data for m in self.request.media if m.is_video]
        if len(videos) > 1:
            raise ValueError(f"{self.request.custom_id}: more than one video")
        return videos[0] if videos else None

    @property
    def generation(self) -> str:
        return _json(dict(self.request.settings))

    def fields(self) -> dict[str, Any]:
        """The text columns (every export's, whatever holds the media)."""
        config = config_of(self.request.custom_id)
        return {
            "id": self.request.custom_id,
            "task": config.task,
            "mode": config.mode,
            "category": self.category,
            "scene_id": self.scene_id,
            "system": self.request.system,
            "prompt": self.request.text,
            "generation": self.generation,
            "answer": self.answer,
            "truth": self.truth,
        }


@dataclass(frozen=True)
class SplitSelection:
    """What of a split to export, as ``spatialbabel prompts`` takes it (None: its default)."""

    tasks: tuple[str, ...] = (RECONSTRUCT, QA)
    languages: tuple[str, ...] | None = None
    reconstruct_modes: tuple[str, ...] | None = None
    qa_modes: tuple[str, ...] | None = None
    subset: str | None = None


def _languages(selection: SplitSelection) -> list[str]:
    from spatialbabel import LANGUAGES

    return list(selection.languages) if selection.languages is not None else list(LANGUAGES)


def split_configs(root: Path, selection: SplitSelection) -> list[tuple[str, str, str | None]]:
    """(task, mode, language) of every config of a split, in export order; a ValueError names an
    unknown mode or language."""
    from spatialbabel import LANGUAGES

    languages = _languages(selection)
    unknown = [name for name in languages if name not in LANGUAGES]
    if unknown:
        raise ValueError(f"unknown language {unknown[0]!r}; known: {', '.join(LANGUAGES)}")
    found: list[tuple[str, str, str | None]] = []
    if RECONSTRUCT in selection.tasks:
        for language in languages:
            for mode in sources.split_request_modes(
                RECONSTRUCT, languages, selection.reconstruct_modes
            ):
                found.append((RECONSTRUCT, mode, language))
    if QA in selection.tasks and sources.split_has_questions(root):
        for mode in sources.split_request_modes(QA, languages, selection.qa_modes):
            found.append((QA, mode, None))
    return found


def split_rows(
    root: Path, selection: SplitSelection, task: str, mode: str, language: str | None
) -> Iterator[Row]:
    """The rows of one config of a split."""
    if task == RECONSTRUCT:
        assert language is not None
        scenes: dict[str, str] = {}
        for request in sources.split_requests(
            root, RECONSTRUCT, languages=[language], modes=[mode], subset=selection.subset
        ):
            scene_id = request.parts[0]
            if scene_id not in scenes:
                scenes = {scene_id: sources.scene_text(root, scene_id)}
            truth = json.loads(scenes[scene_id])
            yield Row(
                request, scene_id, language, _json(truth), _json({"objects": truth["objects"]})
            )
        return
    questions = sources.question_lines(root)
    for request in sources.split_requests(
        root, QA, languages=_languages(selection), modes=[mode], subset=selection.subset
    ):
        record = json.loads(questions[request.parts[0]])
        yield Row(
            request, record["scene_id"], record["category"], _json(record), _json(record["answer"])
        )


def split_scene_ids(root: Path, selection: SplitSelection) -> list[str]:
    return sources.split_scene_ids(root, selection.subset)


def items_rows(items: SuiteItems, variant: str) -> Iterator[Row]:
    """The rows of one variant of a suite's items."""
    for request in sources.items_requests(items, [variant]):
        record = sources.item_record(items, request.parts[0])
        yield Row(
            request, record["scene_id"], record["task"], _json(record), _json(record["answer"])
        )


def check_variants(items: SuiteItems, variants: Sequence[str] | None) -> list[str]:
    """The variants asked (default: every variant of the suite that the items can serve); a
    ValueError names an unknown one, or says why the items cannot serve one asked."""
    known = sources.suite_variants(items)
    asked = list(variants) if variants else list(known)
    for variant in asked:
        if variant in items.suite.variants and variant not in known:
            raise ValueError(f"variant {variant!r}: {items.suite.unavailable(variant)}")
        if variant not in known:
            raise ValueError(
                f"unknown variant {variant!r}; {items.name} has {', '.join(items.suite.variants)}"
            )
    return list(dict.fromkeys(asked))


__all__ = [
    "SPLIT_TRUTH",
    "TRUTH_DIR",
    "Config",
    "Row",
    "SplitSelection",
    "check_variants",
    "config_of",
    "items_rows",
    "split_configs",
    "split_rows",
    "split_scene_ids",
    "suite_config",
    "suite_truth",
]
