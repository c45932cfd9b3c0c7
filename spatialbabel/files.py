"""File formats and safe writing: atomic writes, JSON with ``schema_version``, JSONL records.

A split is ``manifest.json``, ``scenes/<id>.json``, ``images/<id>.png``, ``subsets.json`` and
``qa.jsonl``; model outputs to score are JSONL records ``{scene_id, model, language, mode,
output}`` (docs/formats.md), with optional fields beside them (``finish_reason``: a reply with
``"length"`` was cut at the token limit; any other field is ignored).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel.errors import SpatialBabelError

SCHEMA_VERSION: Final = 1

_UMASK: Final = os.umask(0)
os.umask(_UMASK)

#: Fields of one model output record, in file order.
OUTPUT_FIELDS: Final = ("scene_id", "model", "language", "mode", "output")
#: The ``finish_reason`` of a reply cut at the token limit (OpenAI, vLLM, SGLang, Ollama).
LENGTH_FINISH_REASON: Final = "length"


class FileFormatError(SpatialBabelError, ValueError):
    """A file broke its format; the message names the file and, where known, the line."""

    def __init__(self, path: str | Path, message: str, *, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")


class JsonFields:
    """Reading a parsed JSON document field by field: each error is a ``FileFormatError`` that
    names the file and the field (``cells[3].estimates``). Readers of one format subclass it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> FileFormatError:
        return FileFormatError(self.path, f"{where}: {problem}")

    def mapping(self, value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value

    def items(self, data: Mapping[str, Any], key: str, where: str = "") -> list[Any]:
        """A list field (``[]`` when absent); ``where`` ends with its separator (``cells[3].``)."""
        value = data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{where}{key}", f"expected a list, got {type(value).__name__}")
        return value

    def text(self, data: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> str:
        """A string field; with ``optional``, an absent or null one reads as ``""``."""
        value = data.get(key)
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key}", f"expected a string, got {type(value).__name__}")
        return value

    def optional_text(self, data: Mapping[str, Any], key: str, where: str) -> str | None:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise self.fail(f"{where}.{key}", f"expected a string or null, got {value!r}")
        return value

    def integer(self, data: Mapping[str, Any], key: str, where: str) -> int | None:
        """An integer field, or None when absent or null (a bool is not an integer)."""
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}.{key}", f"expected an integer, got {value!r}")
        return value

    def number(self, value: object, where: str) -> float:
        """A number; ``null`` (how the project writes NaN) reads as NaN."""
        if value is None:
            return math.nan
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number, got {value!r}")
        return float(value)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a part.

    The bytes go to a temporary file in the same directory, are flushed to disk, and the file is
    renamed over ``path``; a crash at any point leaves at worst a stray ``.tmp`` file.
    """
    atomic_write_chunks(path, (data,))


def atomic_write_chunks(path: Path, chunks: Iterable[bytes]) -> None:
    """``atomic_write_bytes`` for data made piece by piece (a file too large to hold at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            for chunk in chunks:
                stream.write(chunk)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp creates the file readable by its owner only; give it the usual mode.
        os.chmod(temp_name, 0o666 & ~_UMASK)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def dump_json(data: Any) -> str:
    """The one JSON text style of the project: indented, key order kept, newline at the end."""
    return json.dumps(data, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write a JSON document carrying ``schema_version`` (added first when missing)."""
    if "schema_version" not in data:
        data = {"schema_version": SCHEMA_VERSION, **data}
    atomic_write_text(path, dump_json(data))


def read_json(path: Path, *, expect_version: bool = True) -> dict[str, Any]:
    """Read a JSON document; a wrong or missing ``schema_version`` is an error naming the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except json.JSONDecodeError as error:
        raise FileFormatError(
            path, f"not valid JSON: {error.msg} (column {error.colno})", line=error.lineno
        ) from None
    if not isinstance(data, dict):
        raise FileFormatError(path, "expected a JSON object at the top level")
    if expect_version and data.get("schema_version") != SCHEMA_VERSION:
        raise FileFormatError(
            path, f"schema_version: expected {SCHEMA_VERSION}, got {data.get('schema_version')!r}"
        )
    return data


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class JsonlLine:
    """One line of a JSONL file: its 1-based number and either the record or why it is bad."""

    line: int
    record: dict[str, Any] | None
    error: str | None


def read_jsonl(path: Path) -> Iterator[JsonlLine]:
    """Every non-blank line of a JSONL file, good or bad; nothing is dropped silently."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        for number, raw in enumerate(stream, start=1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except json.JSONDecodeError as error:
                yield JsonlLine(number, None, f"not valid JSON: {error.msg} (column {error.colno})")
                continue
            if not isinstance(value, dict):
                yield JsonlLine(number, None, f"expected a JSON object, got {type(value).__name__}")
                continue
            yield JsonlLine(number, value, None)


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n" for r in records)
    atomic_write_text(path, text)


def is_truncated(finish_reason: object) -> bool:
    """Whether a reply with this ``finish_reason`` was cut at the token limit."""
    return finish_reason == LENGTH_FINISH_REASON


def optional_finish_reason(record: dict[str, Any]) -> str | None:
    """A record's optional ``finish_reason`` (a string or null); the ValueError names it."""
    value = record.get("finish_reason")
    if value is not None and not isinstance(value, str):
        raise ValueError(
            f"field 'finish_reason': expected a string or null, got {type(value).__name__}"
        )
    return value


@dataclass(frozen=True)
class ModelOutput:
    """One model reply to score; ``finish_reason`` is the runner's, when it recorded one."""

    scene_id: str
    model: str
    language: str
    mode: str
    output: str
    finish_reason: str | None = None

    @property
    def truncated(self) -> bool:
        """The reply was cut at the token limit (``finish_reason`` ``"length"``)."""
        return is_truncated(self.finish_reason)

    def to_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in OUTPUT_FIELDS}


def model_output_from_record(record: dict[str, Any]) -> ModelOutput:
    """Validate one output record; the ValueError names the first bad field."""
    for name in OUTPUT_FIELDS:
        if name not in record:
            raise ValueError(f"missing field {name!r}")
        if not isinstance(record[name], str):
            raise ValueError(
                f"field {name!r}: expected a string, got {type(record[name]).__name__}"
            )
    for name in ("scene_id", "model", "language", "mode"):
        if not record[name].strip():
            raise ValueError(f"field {name!r} is empty")
    return ModelOutput(
        record["scene_id"],
        record["model"],
        record["language"],
        record["mode"],
        record["output"],
        finish_reason=optional_finish_reason(record),
    )


def split_paths(root: Path) -> dict[str, Path]:
    """The fixed places of a split's files under ``root``."""
    return {
        "manifest": root / "manifest.json",
        "scenes": root / "scenes",
        "images": root / "images",
        "subsets": root / "subsets.json",
        "qa": root / "qa.jsonl",
    }
