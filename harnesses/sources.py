"""What the harness exports read, in one place: a split's or a suite's requests (as the
commands that write request files make them) and the files their scorers read.

Every export goes through this module and nothing else of the stages, so that when splits and
suites change shape (QA folded into the suites, one split reader) only this module follows:

- the requests come from the very code that writes the request files, ``spatialbabel prompts``
  (``synth.cmd_prompts.requests``) and ``spatialbabel suite prompts``
  (``suites.prompts.requests``), with the options those commands' own parsers give by default,
  and are taken apart here into ids, system and user text, images or video, and decoding
  settings; so what a harness asks is byte for byte what ``spatialbabel run`` would ask;
- the ground truth is the files the scorers read (``spatialbabel score``, ``score-qa``,
  ``suite score``): a split's scene files, its questions, its manifest; a suite's items folder.
"""

from __future__ import annotations

import argparse
import base64
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from spatialbabel.files import FileFormatError, read_json
from spatialbabel.run.batch import QA, RECONSTRUCT, parse_request_id
from spatialbabel.split import Split

SourceKind = Literal["split", "items"]

#: The request body's keys that are not decoding settings: who answers, and what is asked.
_NOT_SETTINGS: Final = frozenset({"model", "messages"})


@dataclass(frozen=True)
class Media:
    """One image or video of a request, in the order the request shows it."""

    media_type: str
    data: bytes

    @property
    def is_video(self) -> bool:
        return self.media_type.startswith("video/")


@dataclass(frozen=True)
class Request:
    """One request of a request file, taken apart: its id, the system and user text, its media
    and every decoding setting of its body (the output budget, the temperature when it has one,
    and whatever else the request writer puts there)."""

    custom_id: str
    system: str
    text: str
    media: tuple[Media, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)

    @property
    def task(self) -> str:
        return parse_request_id(self.custom_id).task

    @property
    def parts(self) -> tuple[str, ...]:
        return parse_request_id(self.custom_id).parts


def _media(part: Mapping[str, Any], custom_id: str) -> Media:
    kind = part.get("type")
    url = part.get(str(kind), {}).get("url") if isinstance(part.get(str(kind)), Mapping) else None
    if not isinstance(url, str) or not url.startswith("data:") or ";base64," not in url:
        raise ValueError(f"{custom_id}: a {kind} part without a base64 data URL")
    head, payload = url.split(",", 1)
    return Media(head.removeprefix("data:").removesuffix(";base64"), base64.b64decode(payload))


def request_from_batch_line(line: Mapping[str, Any]) -> Request:
    """A request of an OpenAI batch request file (what ``synth.prompts.batch_request`` makes)
    taken apart; a ValueError says what does not fit."""
    custom_id = line.get("custom_id")
    body = line.get("body")
    if not isinstance(custom_id, str) or not isinstance(body, Mapping):
        raise ValueError(f"not a batch request line: {str(line)[:80]!r}")
    messages = body.get("messages")
    if not isinstance(messages, list) or len(messages) != 2:
        raise ValueError(f"{custom_id}: expected a system and a user message")
    system, user = messages
    if system.get("role") != "system" or user.get("role") != "user":
        raise ValueError(f"{custom_id}: expected a system and a user message")
    texts = [p["text"] for p in user["content"] if p.get("type") == "text"]
    if len(texts) != 1:
        raise ValueError(f"{custom_id}: expected one text part, got {len(texts)}")
    media = tuple(_media(p, custom_id) for p in user["content"] if p.get("type") != "text")
    settings = {key: value for key, value in body.items() if key not in _NOT_SETTINGS}
    return Request(custom_id, str(system["content"]), texts[0], media, settings)


def prompt_version() -> str:
    """The version of the prompt texts (``synth.prompts.PROMPT_VERSION``)."""
    from synth.prompts import PROMPT_VERSION

    return str(PROMPT_VERSION)


def spatialbabel_version() -> str:
    from spatialbabel import __version__

    return str(__version__)


def _command_args(command: str, argv: Sequence[str]) -> argparse.Namespace:
    """The options a command's own parser gives for ``argv``, its defaults included."""
    from spatialbabel.cli import build_parser

    return build_parser(command).parse_args([command, *argv])


# --- splits ---------------------------------------------------------------------------------


def is_split(path: Path) -> bool:
    return Split(path).scenes_dir.is_dir()


def is_items(path: Path) -> bool:
    from suites.items import MANIFEST_FILE

    return (path / MANIFEST_FILE).is_file()


def source_kind(path: Path) -> SourceKind:
    """Whether ``path`` is a split or a suite's items folder; a FileFormatError when neither."""
    if is_items(path):
        return "items"
    if is_split(path):
        return "split"
    raise FileFormatError(
        path, "neither a split (no scenes/ folder) nor a suite's items folder (no suite.json)"
    )


def split_has_questions(root: Path) -> bool:
    return Split(root).questions_path.is_file()


def split_requests(
    root: Path,
    task: str,
    *,
    languages: Sequence[str] | None = None,
    modes: Sequence[str] | None = None,
    subset: str | None = None,
) -> Iterator[Request]:
    """The requests ``spatialbabel prompts --split ROOT --task TASK`` writes, with its
    ``--languages``, ``--modes`` and ``--subset`` when given and its defaults otherwise."""
    from synth.cmd_prompts import requests

    argv = ["--split", str(root), "--task", task, "--out", str(root / "unused.jsonl")]
    if languages is not None:
        argv += ["--languages", *languages]
    if modes is not None:
        argv += ["--modes", *modes]
    if subset is not None:
        argv += ["--subset", subset]
    for line in requests(_command_args("prompts", argv)):
        yield request_from_batch_line(line)


def split_request_modes(
    task: str, languages: Sequence[str], modes: Sequence[str] | None
) -> list[str]:
    """The modes ``spatialbabel prompts`` asks for ``task`` (a bare ``code_cot`` made one mode
    per language); a ValueError names an unknown one."""
    from synth.cmd_prompts import DEFAULT_MODES, expand_modes, reconstruct_modes

    asked = list(modes) if modes is not None else list(DEFAULT_MODES[task])
    if task == RECONSTRUCT:
        return reconstruct_modes(asked)
    return expand_modes(asked, languages)


def split_scene_ids(root: Path, subset: str | None) -> list[str]:
    from synth.cmd_prompts import scene_ids

    return scene_ids(root, subset)


def split_manifest_sha256(root: Path) -> str | None:
    return Split(root).manifest_sha256()


def split_manifest(root: Path) -> dict[str, Any]:
    return Split(root).manifest


def scene_text(root: Path, scene_id: str) -> str:
    """A scene file's text, as the scorer reads it."""
    path = Split(root).scene_path(scene_id)
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    return path.read_text(encoding="utf-8")


def question_lines(root: Path) -> dict[str, str]:
    """Each question's line of the split's ``qa.jsonl``, by question id, as ``score-qa`` reads it."""
    lines = Split(root).questions(_QuestionLine.of)
    return {question_id: line.text for question_id, line in lines.items()}


@dataclass(frozen=True)
class _QuestionLine:
    question_id: str
    text: str

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> _QuestionLine:
        question_id = record.get("question_id")
        if not isinstance(question_id, str):
            raise ValueError("a line without a question_id")
        return cls(question_id, json.dumps(record, ensure_ascii=False))


def split_truth_files(root: Path, scene_ids: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    """The files ``spatialbabel score`` and ``score-qa`` read, for ``scene_ids`` only, as
    (path inside a split, bytes): the manifest, every listed scene, the subsets cut to them
    (so that the copy is a split of its own) and their questions."""
    split = Split(root)
    wanted = set(scene_ids)
    if split.manifest_path.is_file():
        yield "manifest.json", split.manifest_path.read_bytes()
    for scene_id in sorted(wanted):
        yield f"scenes/{scene_id}.json", scene_text(root, scene_id).encode("utf-8")
    subsets = split.subsets if split.subsets_path.is_file() else {}
    cut = {
        key: [s for s in value if s in wanted] if isinstance(value, list) else value
        for key, value in subsets.items()
    }
    cut.setdefault("eval", sorted(wanted))
    cut.setdefault("schema_version", 1)
    from spatialbabel.files import dump_json

    yield "subsets.json", dump_json(cut).encode("utf-8")
    if split.questions_path.is_file():
        lines = [
            line
            for line in split.questions_path.read_bytes().splitlines(keepends=True)
            if line.strip() and json.loads(line).get("scene_id") in wanted
        ]
        yield "qa.jsonl", b"".join(lines)


# --- a suite's items ------------------------------------------------------------------------


@dataclass(frozen=True)
class SuiteItems:
    """A built items folder, read by its suite."""

    folder: Path
    suite: Any
    items: Any

    @property
    def name(self) -> str:
        return str(self.suite.name)

    @property
    def version(self) -> str:
        return str(self.suite.version)

    @property
    def manifest(self) -> dict[str, Any]:
        return dict(self.items.manifest)

    def item(self, item_id: str) -> Any:
        return self.items.by_id()[item_id]


def open_items(folder: Path) -> SuiteItems:
    """The items folder, read by the suite its ``suite.json`` names (which must be this
    installation's version of it)."""
    from suites import load_suite
    from suites.items import MANIFEST_FILE, read_items

    manifest = read_json(folder / MANIFEST_FILE)
    name = manifest.get("suite")
    if not isinstance(name, str):
        raise FileFormatError(folder / MANIFEST_FILE, "names no suite")
    if name == QA:
        # The qa suite's items are the split's questions, which the split's QA configs export.
        raise FileFormatError(
            folder / MANIFEST_FILE, "items of the qa suite: export the split they were built from"
        )
    suite = load_suite(name)
    return SuiteItems(folder, suite, read_items(folder, suite))


def suite_variants(items: SuiteItems) -> tuple[str, ...]:
    """The suite's variants that these items can serve (``Suite.unavailable``: SpaceCast's
    ``+bev`` needs items built with their bird's-eye views)."""
    items.suite.prepare(items.folder, items.items.items)
    return tuple(v for v in items.suite.variants if items.suite.unavailable(v) is None)


def items_requests(items: SuiteItems, variants: Sequence[str]) -> Iterator[Request]:
    """The requests ``spatialbabel suite prompts --variants ...`` writes for these items, with
    that command's defaults for everything else."""
    from suites.prompts import requests

    args = _command_args(
        "suite",
        ["prompts", "--suite", items.name, "--items", str(items.folder), "--out", "unused.jsonl"],
    )
    items.suite.prepare(items.folder, items.items.items)
    for line in requests(
        items.suite,
        items.items,
        list(variants),
        model=args.model,
        max_tokens=args.max_tokens,
        temperature=args.temperature,
    ):
        yield request_from_batch_line(line)


def items_have_video(items: SuiteItems) -> bool:
    """Whether any item shows a video (an input the request sends as a ``video_url`` part)."""
    from suites.prompts import MEDIA_TYPES

    return any(
        MEDIA_TYPES.get(Path(name).suffix.lower(), "").startswith("video/")
        for item in items.items.items
        for name in item.inputs
    )


def item_record(items: SuiteItems, item_id: str) -> dict[str, Any]:
    return dict(items.item(item_id).to_dict())


def grading_reads_folder(items: SuiteItems) -> bool:
    """Whether the suite's grading reads files of the items folder besides the items: it says
    so by keeping the folder in ``prepare`` (ProVisE compares a reply with its input image)."""
    from suites.base import Suite

    return type(items.suite).prepare is not Suite.prepare


def items_truth_files(items: SuiteItems) -> Iterator[tuple[str, bytes]]:
    """The files ``spatialbabel suite score`` reads, as (path inside the folder, bytes):
    ``items.jsonl`` and ``suite.json``, and every other file of the folder when the suite's
    grading reads them."""
    from suites.items import ITEMS_FILE, MANIFEST_FILE

    yield ITEMS_FILE, (items.folder / ITEMS_FILE).read_bytes()
    yield MANIFEST_FILE, (items.folder / MANIFEST_FILE).read_bytes()
    if grading_reads_folder(items):
        for path in sorted(items.folder.rglob("*")):
            name = path.relative_to(items.folder).as_posix()
            if path.is_file() and name not in (ITEMS_FILE, MANIFEST_FILE):
                yield name, path.read_bytes()


__all__ = [
    "QA",
    "RECONSTRUCT",
    "Media",
    "Request",
    "SourceKind",
    "SuiteItems",
    "grading_reads_folder",
    "is_items",
    "is_split",
    "item_record",
    "items_have_video",
    "items_requests",
    "items_truth_files",
    "open_items",
    "parse_request_id",
    "prompt_version",
    "question_lines",
    "request_from_batch_line",
    "scene_text",
    "source_kind",
    "spatialbabel_version",
    "split_has_questions",
    "split_manifest",
    "split_manifest_sha256",
    "split_request_modes",
    "split_requests",
    "split_scene_ids",
    "split_truth_files",
    "suite_variants",
]
