"""``spatialbabel export hf``: splits and items folders as a Hugging Face dataset folder.

The folder holds one config per task and mode (``harnesses.rows``), each a ``test`` split of
Parquet shards (``data/<config>/test-00000-of-00001.parquet``) with the images embedded
(``datasets.Image``, in a list: one for a split's scene, several for a SpaceCast item, the
frames of a SpatialMind item) and an item's MP4 as bytes (``video``); the dataset card
(``README.md`` with the YAML header ``datasets`` reads: configs, features, splits, licence);
the files the scorers read under ``truth/``; and the export's record
(``spatialbabel_export.json``). ``datasets.load_dataset(folder, config)`` loads it, and
``huggingface_hub`` can push it as it is.

The same sources and flags give the same bytes: rows come in the request files' order, the
Parquet writer's settings are fixed, and nothing records a time.

This module and ``harnesses.card`` are the ones that import ``datasets`` and ``pyarrow``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from harnesses import sources
from harnesses.record import ConfigRecord, write_record
from harnesses.rows import (
    SPLIT_TRUTH,
    Config,
    Row,
    SplitSelection,
    check_variants,
    config_of,
    items_rows,
    split_configs,
    split_rows,
    split_scene_ids,
    suite_config,
    suite_truth,
)
from spatialbabel.files import atomic_write_bytes

SPLIT_NAME: Final = "test"
DATA_DIR: Final = "data"
#: Rows per Parquet row group: the Hub's viewer and ``datasets`` read images a group at a time.
ROWS_PER_GROUP: Final = 64
DEFAULT_MAX_SHARD_MB: Final = 500


@dataclass(frozen=True)
class Source:
    """One thing to export: a split (with what of it) or a suite's items folder (with its
    variants; None: every variant)."""

    path: Path
    selection: SplitSelection | None = None
    variants: tuple[str, ...] | None = None


def features(has_video: bool) -> Any:
    from datasets import Features, Image, List, Value

    columns: dict[str, Any] = {
        "id": Value("string"),
        "task": Value("string"),
        "mode": Value("string"),
        "category": Value("string"),
        "scene_id": Value("string"),
        "images": List(Image()),
    }
    if has_video:
        columns["video"] = Value("binary")
    columns |= {
        "system": Value("string"),
        "prompt": Value("string"),
        "generation": Value("string"),
        "answer": Value("string"),
        "truth": Value("string"),
    }
    return Features(columns)


def _encoded(row: Row, has_video: bool) -> dict[str, Any]:
    record = row.fields()
    record["images"] = [{"bytes": data, "path": None} for data in row.images]
    video = row.video
    if has_video:
        record["video"] = video
    elif video is not None:
        raise ValueError(f"{row.request.custom_id}: a video in a config without one")
    return record


@dataclass(frozen=True)
class WrittenConfig:
    record: ConfigRecord
    num_bytes: int
    download_size: int


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def write_config(
    folder: Path, config: Config, rows: Iterable[Row], *, has_video: bool, max_shard_bytes: int
) -> WrittenConfig:
    """The rows of one config as Parquet shards of at most about ``max_shard_bytes`` each."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema_features = features(has_video)
    schema = schema_features.arrow_schema
    target = folder / DATA_DIR / config.name
    target.mkdir(parents=True, exist_ok=True)
    drafts: list[Path] = []
    writer: Any = None
    in_shard = 0
    count = 0
    num_bytes = 0
    settings: set[str] = set()
    try:
        for batch in _batches(rows, ROWS_PER_GROUP):
            for row in batch:
                if config_of(row.request.custom_id) != config:
                    raise ValueError(f"{row.request.custom_id} is not a request of {config.name}")
                settings.add(row.generation)
            table = pa.Table.from_pylist(
                [schema_features.encode_example(_encoded(r, has_video)) for r in batch],
                schema=schema,
            )
            if writer is None or in_shard >= max_shard_bytes:
                if writer is not None:
                    writer.close()
                drafts.append(target / f"{SPLIT_NAME}-{len(drafts):05d}.draft")
                writer = pq.ParquetWriter(drafts[-1], schema, compression="snappy")
                in_shard = 0
            writer.write_table(table, row_group_size=len(batch))
            in_shard += table.nbytes
            num_bytes += table.nbytes
            count += len(batch)
    finally:
        if writer is not None:
            writer.close()
    if count == 0:
        raise ValueError(f"config {config.name}: no requests to export")
    if len(settings) != 1:
        raise ValueError(
            f"config {config.name}: its requests differ in decoding settings ({sorted(settings)}); "
            "a harness task takes one set"
        )
    files: list[str] = []
    for index, draft in enumerate(drafts):
        final = draft.with_name(f"{SPLIT_NAME}-{index:05d}-of-{len(drafts):05d}.parquet")
        draft.rename(final)
        files.append(final.relative_to(folder).as_posix())
    import json

    record = ConfigRecord(config, count, json.loads(settings.pop()), tuple(files), has_video)
    size = sum((folder / name).stat().st_size for name in files)
    return WrittenConfig(record, num_bytes, size)


def _write_files(folder: Path, files: Iterable[tuple[str, bytes]]) -> int:
    written = 0
    for name, data in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
        written += 1
    return written


def _export_split(
    folder: Path, source: Source, max_shard_bytes: int
) -> tuple[list[WrittenConfig], dict[str, Any]]:
    root = source.path
    selection = source.selection or SplitSelection()
    written: list[WrittenConfig] = []
    for task, mode, language in split_configs(root, selection):
        rows = split_rows(root, selection, task, mode, language)
        first = next(rows, None)
        if first is None:
            continue
        config = config_of(first.request.custom_id)
        written.append(
            write_config(
                folder,
                config,
                _chain(first, rows),
                has_video=False,
                max_shard_bytes=max_shard_bytes,
            )
        )
    scene_ids = split_scene_ids(root, selection)
    _write_files(folder / SPLIT_TRUTH, sources.split_truth_files(root, scene_ids))
    manifest = sources.split_manifest(root)
    described = {
        "kind": "split",
        "path": str(root),
        "truth": SPLIT_TRUTH,
        "manifest_sha256": sources.split_manifest_sha256(root),
        "generator_version": manifest.get("generator_version"),
        "seed": manifest.get("seed"),
        "subset": selection.subset,
        "scenes": len(scene_ids),
        "prompt_version": sources.prompt_version(),
    }
    return written, described


def _chain(first: Row, rest: Iterator[Row]) -> Iterator[Row]:
    yield first
    yield from rest


def _export_items(
    folder: Path, source: Source, max_shard_bytes: int
) -> tuple[list[WrittenConfig], dict[str, Any]]:
    items = sources.open_items(source.path)
    has_video = sources.items_have_video(items)
    written: list[WrittenConfig] = []
    truth = suite_truth(items.name)
    for variant in check_variants(items, source.variants):
        config = suite_config(items.name, variant)
        written.append(
            write_config(
                folder,
                config,
                items_rows(items, variant),
                has_video=has_video,
                max_shard_bytes=max_shard_bytes,
            )
        )
    _write_files(folder / truth, sources.items_truth_files(items))
    manifest = items.manifest
    described = {
        "kind": "items",
        "path": str(source.path),
        "truth": truth,
        "suite": items.name,
        "suite_version": items.version,
        "items_sha256": manifest.get("items_sha256"),
        "split_manifest_sha256": manifest.get("split_manifest_sha256"),
        "items": len(items.items.items),
        "grading_reads_folder": sources.grading_reads_folder(items),
    }
    return written, described


def export_hf(
    sources_: Sequence[Source],
    out: Path,
    *,
    command: str,
    license_id: str,
    max_shard_bytes: int = DEFAULT_MAX_SHARD_MB * 1_000_000,
) -> dict[str, Any]:
    """Write the dataset folder ``out`` (replacing an earlier export there) and return its
    record. A ValueError or FileFormatError says what of the sources cannot be exported."""
    # Fail on a missing extra before anything is written.
    import datasets  # noqa: F401
    import huggingface_hub  # noqa: F401
    import pyarrow  # noqa: F401

    from harnesses.card import card_text

    if out.exists() and any(out.iterdir()) and not (out / "spatialbabel_export.json").is_file():
        raise ValueError(f"{out} exists and is not an earlier export: give an empty or new folder")
    draft = out.with_name(f".{out.name}.partial")
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir(parents=True)
    written: list[WrittenConfig] = []
    described: list[dict[str, Any]] = []
    kinds = [sources.source_kind(s.path) for s in sources_]
    if kinds.count("split") > 1:
        raise ValueError("export one split at a time (with any number of items folders)")
    for source, kind in zip(sources_, kinds, strict=True):
        done, about = (
            _export_split(draft, source, max_shard_bytes)
            if kind == "split"
            else _export_items(draft, source, max_shard_bytes)
        )
        names = {w.record.config.name for w in written}
        for entry in done:
            if entry.record.config.name in names:
                raise ValueError(f"config {entry.record.config.name} comes from two sources")
        written += done
        described.append(about)
    if not written:
        raise ValueError("nothing to export: the sources hold no requests")
    record = {
        "spatialbabel_version": sources.spatialbabel_version(),
        "command": command,
        "license": license_id,
        "sources": described,
        "configs": [w.record.to_dict() for w in written],
    }
    write_record(draft, record)
    atomic_write_bytes(draft / "README.md", card_text(written, record).encode("utf-8"))
    if out.exists():
        shutil.rmtree(out)
    draft.rename(out)
    return record


__all__ = [
    "DATA_DIR",
    "DEFAULT_MAX_SHARD_MB",
    "SPLIT_NAME",
    "Source",
    "WrittenConfig",
    "export_hf",
    "features",
    "write_config",
]
