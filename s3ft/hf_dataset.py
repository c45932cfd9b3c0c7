"""The Hugging Face ``datasets`` output: a ``DatasetDict`` (``train``, ``val``) saved to disk,
which TRL's ``SFTTrainer`` reads as it is (conversational prompt-completion with images).

Columns: ``prompt`` (the system turn if any, then the user turn: an ``{"type": "image"}``
part and the instruction's text part), ``completion`` (the assistant's answer), ``images`` (a
list holding the one image, an ``Image`` feature whose PNG bytes are stored in the dataset, so
the folder moves and loads anywhere), and the record's ``record_id``, ``scene_id``, ``view``,
``task`` and ``view_invariant``. With prompt-completion data SFTTrainer computes the loss on
the completion only.

This is the only module that imports ``datasets`` and ``pyarrow`` (the ``s3ft`` extra).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from s3ft.records import Record

HF_DIR: Final = "hf"


def features() -> Any:
    from datasets import Features, Image, List, Value

    part = {"type": Value("string"), "text": Value("string")}
    turn = {"role": Value("string"), "content": List(part)}
    return Features(
        {
            "record_id": Value("string"),
            "scene_id": Value("string"),
            "view": Value("string"),
            "task": Value("string"),
            "view_invariant": Value("bool"),
            "prompt": List(turn),
            "completion": List(turn),
            "images": List(Image()),
        }
    )


def _text(text: str) -> dict[str, str | None]:
    return {"type": "text", "text": text}


def prompt_turns(record: Record) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    if record.system:
        turns.append({"role": "system", "content": [_text(record.system)]})
    turns.append(
        {"role": "user", "content": [{"type": "image", "text": None}, _text(record.instruction)]}
    )
    return turns


def _table(records: Sequence[Record], images: Mapping[str, bytes], schema: Any) -> Any:
    import pyarrow as pa

    columns: dict[str, list[Any]] = {
        "record_id": [r.record_id for r in records],
        "scene_id": [r.scene_id for r in records],
        "view": [r.view for r in records],
        "task": [r.task for r in records],
        "view_invariant": [r.view_invariant for r in records],
        "prompt": [prompt_turns(r) for r in records],
        "completion": [[{"role": "assistant", "content": [_text(r.answer)]}] for r in records],
        "images": [[{"bytes": images[r.image], "path": None}] for r in records],
    }
    return pa.Table.from_pydict(columns, schema=schema)


def write_hf_dataset(
    out: Path, by_split: Mapping[str, Sequence[Record]], images: Mapping[str, bytes]
) -> Path:
    """Save the records as a ``DatasetDict`` in ``out/hf``; returns that folder. ``images``
    holds the PNG bytes of every image the records name."""
    from datasets import Dataset, DatasetDict, DatasetInfo
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()
    schema = features()
    parts = {
        split: Dataset(
            _table(records, images, schema.arrow_schema),
            info=DatasetInfo(
                description="S3-FT training records (spatialbabel s3ft build)", features=schema
            ),
            split=split,
        )
        for split, records in by_split.items()
    }
    target = out / HF_DIR
    DatasetDict(parts).save_to_disk(str(target))
    return target


__all__ = ["HF_DIR", "features", "prompt_turns", "write_hf_dataset"]
