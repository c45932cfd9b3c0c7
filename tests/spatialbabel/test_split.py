"""The split reader: what it reads, in which order, and the file each error names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from spatialbabel.files import FileFormatError, sha256_file, write_json
from spatialbabel.split import Split
from tests.spatialbabel.test_scene import full_scene


@dataclass(frozen=True)
class Asked:
    question_id: str
    scene_id: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Asked:
        if not isinstance(data.get("question_id"), str):
            raise ValueError("question_id: expected a string")
        return cls(data["question_id"], str(data.get("scene_id")))


def make_split(root: Path, ids: tuple[str, ...] = ("b", "a", "c")) -> Path:
    for scene_id in ids:
        replace(full_scene(), scene_id=scene_id).save(root / "scenes" / f"{scene_id}.json")
    write_json(root / "subsets.json", {"eval": ["c", "a"], "phase1": ["b"]})
    return root


def test_a_folder_without_scenes_is_not_a_split(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="not a split: it has no scenes/ folder") as error:
        Split.open(tmp_path)
    assert error.value.path == str(tmp_path)


def test_subsets_keep_their_order_and_all_is_every_scene_sorted(tmp_path: Path) -> None:
    split = Split.open(make_split(tmp_path))
    assert split.scene_ids == ("a", "b", "c")
    evaluated = split.scenes("eval")
    assert list(evaluated.scenes) == ["c", "a"]
    assert evaluated.all_ids == frozenset({"a", "b", "c"})
    assert evaluated.scenes["a"].scene_id == "a"
    assert list(split.scenes().scenes) == ["a", "b", "c"]
    assert split.image_path("a") == tmp_path / "images" / "a.png"


def test_the_manifest_is_empty_when_absent_and_read_when_present(tmp_path: Path) -> None:
    split = Split.open(make_split(tmp_path))
    assert split.manifest == {} and split.manifest_sha256() is None
    write_json(tmp_path / "manifest.json", {"domain": "open"})
    again = Split.open(tmp_path)
    assert again.manifest["domain"] == "open"
    assert again.manifest_sha256() == sha256_file(tmp_path / "manifest.json")


def test_errors_name_the_file_at_fault(tmp_path: Path) -> None:
    split = Split.open(make_split(tmp_path))
    with pytest.raises(FileFormatError, match="no subset 'holdout'") as error:
        split.subset_ids("holdout")
    assert error.value.path == str(tmp_path / "subsets.json")
    write_json(tmp_path / "subsets.json", {"eval": ["a", "zz"]})
    with pytest.raises(FileFormatError, match=r"'eval' lists scene 'zz' but .*zz\.json does not"):
        Split.open(tmp_path).scenes("eval")
    replace(full_scene(), scene_id="other").save(tmp_path / "scenes" / "a.json")
    with pytest.raises(FileFormatError, match="scene_id is 'other', the file name says 'a'"):
        Split.open(tmp_path).scene("a")


def test_questions_by_id_in_file_order_with_the_line_at_fault(tmp_path: Path) -> None:
    split = Split.open(make_split(tmp_path))
    with pytest.raises(FileFormatError, match=r"qa\.jsonl: no such file"):
        split.questions(Asked.from_dict)
    path = tmp_path / "qa.jsonl"
    path.write_text('{"question_id": "q2", "scene_id": "a"}\n\n{"question_id": "q1"}\n')
    assert list(split.questions(Asked.from_dict)) == ["q2", "q1"]
    for text, message in (
        ('{"question_id": "q1"}\n{"question_id": 3}\n', r"qa.jsonl:2: question_id: expected"),
        ('{"question_id": "q1"}\n{"question_id": "q1"}\n', r"qa.jsonl:2: .*'q1' appears twice"),
        ('{"question_id": "q1"}\n{oops\n', r"qa.jsonl:2: not valid JSON"),
    ):
        path.write_text(text)
        with pytest.raises(FileFormatError, match=message):
            split.questions(Asked.from_dict)
