"""The items folder a suite builds: ``items.jsonl`` (one ``Item`` per line), ``suite.json``
(the suite, its version, the split it came from and the counts per task) and whatever inputs
the suite rendered there (views, frames, clips), which items name relative to the folder.

The folder is complete or absent: ``items.jsonl`` and ``suite.json`` are written atomically,
``suite.json`` last, so a folder without it is an unfinished build that the next build redoes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import (
    SCHEMA_VERSION,
    FileFormatError,
    atomic_write_chunks,
    read_json,
    read_jsonl,
    sha256_file,
    write_json,
)
from spatialbabel.split import Split
from suites.base import Item, Suite, SuiteError

ITEMS_FILE: Final = "items.jsonl"
MANIFEST_FILE: Final = "suite.json"


@dataclass(frozen=True)
class ItemSet:
    """A suite's items as read back, with the folder they live in and its manifest."""

    folder: Path
    manifest: dict[str, Any]
    items: tuple[Item, ...]

    def by_id(self) -> dict[str, Item]:
        return {item.item_id: item for item in self.items}

    def input_path(self, name: str) -> Path:
        return self.folder / name


def write_items(
    out: Path,
    suite: Suite,
    items: Iterable[Item],
    *,
    split: Path,
    options: dict[str, Any],
) -> ItemSet:
    """Check and write a suite's items into ``out``; returns them as ``read_items`` would."""
    kept: list[Item] = []
    seen: set[str] = set()
    for item in items:
        if item.suite != suite.name:
            raise SuiteError(f"item {item.item_id} says suite {item.suite!r}, not {suite.name!r}")
        if item.task not in suite.tasks:
            raise SuiteError(
                f"item {item.item_id}: task {item.task!r} is not one of {', '.join(suite.tasks)}"
            )
        if item.item_id in seen:
            raise SuiteError(f"item id {item.item_id!r} appears twice")
        for name in item.inputs:
            if not (out / name).is_file():
                raise SuiteError(f"item {item.item_id}: input {out / name} does not exist")
        seen.add(item.item_id)
        kept.append(item)
    (out / MANIFEST_FILE).unlink(missing_ok=True)
    atomic_write_chunks(
        out / ITEMS_FILE,
        (
            json.dumps(item.to_dict(), ensure_ascii=False, allow_nan=False).encode() + b"\n"
            for item in kept
        ),
    )
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "suite": suite.name,
        "suite_version": suite.version,
        "split": str(split.resolve()),
        "split_manifest_sha256": Split(split).manifest_sha256(),
        "options": options,
        "items": len(kept),
        "tasks": {task: count for task, count in sorted(Counter(i.task for i in kept).items())},
        "items_sha256": sha256_file(out / ITEMS_FILE),
    }
    write_json(out / MANIFEST_FILE, manifest)
    return ItemSet(out, manifest, tuple(kept))


def read_items(folder: Path, suite: Suite) -> ItemSet:
    """A built items folder of ``suite``; a FileFormatError names the file and line at fault,
    and items built by another version of the suite are refused (their labels may differ)."""
    manifest_path = folder / MANIFEST_FILE
    if not manifest_path.is_file():
        raise FileFormatError(
            folder,
            f"no {MANIFEST_FILE}: not a finished items folder (run spatialbabel suite build)",
        )
    manifest = read_json(manifest_path)
    if manifest.get("suite") != suite.name:
        raise FileFormatError(
            manifest_path, f"items of suite {manifest.get('suite')!r}, not {suite.name!r}"
        )
    if manifest.get("suite_version") != suite.version:
        raise FileFormatError(
            manifest_path,
            f"built by {suite.name} version {manifest.get('suite_version')!r}; this is version "
            f"{suite.version!r}: rebuild the items",
        )
    path = folder / ITEMS_FILE
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    items: list[Item] = []
    seen: set[str] = set()
    for line in read_jsonl(path):
        if line.record is None:
            raise FileFormatError(path, line.error or "unreadable line", line=line.line)
        try:
            item = Item.from_dict(line.record)
        except SuiteError as error:
            raise FileFormatError(path, str(error), line=line.line) from None
        if item.item_id in seen:
            raise FileFormatError(path, f"item id {item.item_id!r} appears twice", line=line.line)
        seen.add(item.item_id)
        items.append(item)
    return ItemSet(folder, manifest, tuple(items))


__all__ = ["ITEMS_FILE", "MANIFEST_FILE", "ItemSet", "read_items", "write_items"]
