"""The record every export folder carries (``spatialbabel_export.json``): what was exported, from
which split or items folder (with their manifests' hashes), by which command, and per config its
rows, decoding settings and files. The lmms-eval and VLMEvalKit exports, and the graders they
call, read it to find their configs and the truth that grades them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from harnesses.rows import Config
from spatialbabel.files import FileFormatError, read_json, write_json

RECORD_FILE: Final = "spatialbabel_export.json"


@dataclass(frozen=True)
class ConfigRecord:
    """One exported config: its identity, its rows, the decoding settings all its requests
    share and the data files that hold them (relative to the export folder)."""

    config: Config
    rows: int
    generation: dict[str, Any]
    files: tuple[str, ...]
    has_video: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.config.to_dict(),
            "rows": self.rows,
            "generation": self.generation,
            "files": list(self.files),
            "video": self.has_video,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfigRecord:
        return cls(
            Config.from_dict(data),
            int(data["rows"]),
            dict(data["generation"]),
            tuple(data["files"]),
            bool(data.get("video", False)),
        )


@dataclass(frozen=True)
class ExportRecord:
    """An export folder's record: ``sources`` says where every config came from."""

    folder: Path
    data: dict[str, Any]

    @property
    def configs(self) -> list[ConfigRecord]:
        return [ConfigRecord.from_dict(c) for c in self.data["configs"]]

    def config(self, name: str) -> ConfigRecord:
        for record in self.configs:
            if record.config.name == name:
                return record
        raise KeyError(f"{self.folder}: no config {name!r}")

    @property
    def sources(self) -> list[dict[str, Any]]:
        return list(self.data["sources"])


def write_record(folder: Path, data: dict[str, Any]) -> None:
    write_json(folder / RECORD_FILE, data)


def read_record(folder: Path) -> ExportRecord:
    """The record of an export folder; a FileFormatError when the folder is not one."""
    path = folder / RECORD_FILE
    if not path.is_file():
        raise FileFormatError(
            folder, f"no {RECORD_FILE}: not a folder written by spatialbabel export hf"
        )
    data = read_json(path)
    if not isinstance(data.get("configs"), list) or not isinstance(data.get("sources"), list):
        raise FileFormatError(path, "expected configs and sources lists")
    return ExportRecord(folder, data)


__all__ = ["RECORD_FILE", "ConfigRecord", "ExportRecord", "read_record", "write_record"]
