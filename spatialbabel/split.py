"""Reading a split folder: the one reader every stage uses (scoring, prompts, S3-FT, the suites,
the report, the harnesses).

A split is ``manifest.json``, ``scenes/<id>.json``, ``images/<id>.png``, ``subsets.json`` and
``qa.jsonl`` (``spatialbabel.files.split_paths``). ``Split.open`` checks only that the folder is
a split; each file is read when first asked for, and every problem is a ``FileFormatError``
naming the file (and the line, for ``qa.jsonl``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from spatialbabel.errors import SceneValidationError
from spatialbabel.files import FileFormatError, read_json, read_jsonl, sha256_file, split_paths
from spatialbabel.scene import Scene

#: The subset that means every scene of the split, whatever ``subsets.json`` lists.
ALL: Final = "all"


class _Question(Protocol):
    @property
    def question_id(self) -> str: ...


Q = TypeVar("Q", bound=_Question)


@dataclass(frozen=True)
class SplitScenes:
    """The scenes of one subset of a split, and the ids of every scene the split holds."""

    root: Path
    subset: str
    scenes: dict[str, Scene]
    all_ids: frozenset[str]


@dataclass(frozen=True)
class Split:
    """A split folder; its files are read on first use and kept."""

    root: Path

    @classmethod
    def open(cls, root: str | Path) -> Split:
        """The split at ``root``; a folder without ``scenes/`` is a ``FileFormatError``."""
        split = cls(Path(root))
        if not split.scenes_dir.is_dir():
            raise FileFormatError(split.root, "not a split: it has no scenes/ folder")
        return split

    # --- where things are ---------------------------------------------------------------

    @property
    def manifest_path(self) -> Path:
        return split_paths(self.root)["manifest"]

    @property
    def scenes_dir(self) -> Path:
        return split_paths(self.root)["scenes"]

    @property
    def images_dir(self) -> Path:
        return split_paths(self.root)["images"]

    @property
    def subsets_path(self) -> Path:
        return split_paths(self.root)["subsets"]

    @property
    def questions_path(self) -> Path:
        return split_paths(self.root)["qa"]

    def scene_path(self, scene_id: str) -> Path:
        return self.scenes_dir / f"{scene_id}.json"

    def image_path(self, scene_id: str) -> Path:
        """The scene's frontal image."""
        return self.images_dir / f"{scene_id}.png"

    # --- what it holds ------------------------------------------------------------------

    @cached_property
    def manifest(self) -> dict[str, Any]:
        """``manifest.json``, or ``{}`` for a split without one (made by hand, or copied)."""
        return read_json(self.manifest_path) if self.manifest_path.is_file() else {}

    def manifest_sha256(self) -> str | None:
        return sha256_file(self.manifest_path) if self.manifest_path.is_file() else None

    @cached_property
    def scene_ids(self) -> tuple[str, ...]:
        """The id of every scene file of the split, sorted."""
        return tuple(sorted(p.stem for p in self.scenes_dir.glob("*.json")))

    @cached_property
    def subsets(self) -> dict[str, Any]:
        """``subsets.json`` as written: each subset's scene ids, and its ``counts``."""
        return read_json(self.subsets_path)

    def subset_ids(self, subset: str) -> list[str]:
        """The scene ids ``subsets.json`` lists for ``subset``, in file order (every scene,
        sorted, for ``"all"``)."""
        if subset == ALL:
            return list(self.scene_ids)
        listed = self.subsets.get(subset)
        if listed is None:
            raise FileFormatError(
                self.subsets_path, f"no subset {subset!r} (expected a list of scene ids)"
            )
        if not isinstance(listed, list) or not all(isinstance(s, str) for s in listed):
            raise FileFormatError(self.subsets_path, f"{subset!r}: expected a list of scene ids")
        return list(listed)

    def scene(self, scene_id: str) -> Scene:
        """One scene, checked against its file name."""
        path = self.scene_path(scene_id)
        if not path.is_file():
            raise FileFormatError(path, "no such file")
        try:
            scene = Scene.load(path)
        except SceneValidationError as error:
            raise FileFormatError(path, error.problem if error.source else str(error)) from None
        if scene.scene_id != scene_id:
            raise FileFormatError(
                path, f"scene_id is {scene.scene_id!r}, the file name says {scene_id!r}"
            )
        return scene

    def scenes(self, subset: str = ALL) -> SplitScenes:
        """The scenes of ``subset`` (in the order ``subsets.json`` lists them), with the ids of
        every scene of the split; a listed scene without a file names both."""
        on_disk = frozenset(self.scene_ids)
        scenes: dict[str, Scene] = {}
        for scene_id in self.subset_ids(subset):
            if scene_id not in on_disk:
                raise FileFormatError(
                    self.subsets_path,
                    f"{subset!r} lists scene {scene_id!r} but {self.scene_path(scene_id)} does "
                    "not exist",
                )
            scenes[scene_id] = self.scene(scene_id)
        return SplitScenes(self.root, subset, scenes, on_disk)

    def questions(self, read: Callable[[Mapping[str, Any]], Q]) -> dict[str, Q]:
        """The questions of ``qa.jsonl`` by id, in file order, each made by ``read`` (the QA
        model's ``from_dict``, so the hub does not hold it); a line ``read`` refuses with a
        ValueError or TypeError, and an id given twice, name the file and line."""
        path = self.questions_path
        if not path.is_file():
            raise FileFormatError(path, "no such file (a split's questions are in qa.jsonl)")
        questions: dict[str, Q] = {}
        for item in read_jsonl(path):
            if item.record is None:
                raise FileFormatError(path, item.error or "unreadable line", line=item.line)
            try:
                question = read(item.record)
            except (ValueError, TypeError) as error:
                raise FileFormatError(path, str(error), line=item.line) from None
            if question.question_id in questions:
                raise FileFormatError(
                    path, f"question_id {question.question_id!r} appears twice", line=item.line
                )
            questions[question.question_id] = question
        return questions


__all__ = ["ALL", "Split", "SplitScenes"]
