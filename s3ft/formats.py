"""The two JSONL layouts trainers read, written from format-neutral ``Record``s.

- ``openai_{split}.jsonl``: OpenAI chat fine-tuning format, one ``{"messages": [...]}`` per
  line; the user turn is a list of content parts, the image first (``image_url``: a base64
  data URL, or ``--image-base-url`` + the image's path when the images are hosted), then the
  text; the assistant turn is the answer.
- ``messages_{split}.jsonl``: the ``messages`` + ``images`` layout of LLaMA-Factory and
  ms-swift: ``{"messages": [...], "images": ["images/scene_000012.png"]}`` with an ``<image>``
  tag where the image goes; paths are relative to the output folder (LLaMA-Factory's
  ``dataset_dir``), which holds a copy of every image used and a ``dataset_info.json``.

A line of either file is the record on the same line of ``records.jsonl`` filtered to the
split (the files carry nothing but what the trainers read).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from s3ft.records import Record
from spatialbabel.files import atomic_write_chunks, atomic_write_text, dump_json

IMAGES_DIR: Final = "images"
IMAGE_TAG: Final = "<image>"


def openai_file(split: str) -> str:
    return f"openai_{split}.jsonl"


def messages_file(split: str) -> str:
    return f"messages_{split}.jsonl"


def copied_image(record_image: str) -> str:
    """Where a split image is copied to, relative to the output folder."""
    return f"{IMAGES_DIR}/{Path(record_image).name}"


def copy_images(records: Iterable[Record], split_root: Path, out: Path) -> int:
    """Hard-link (or copy) every image the records use into ``out/images``; returns how many."""
    names = sorted({r.image for r in records})
    for name in names:
        target = out / copied_image(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            target.unlink()
        try:
            os.link(split_root / name, target)
        except OSError:
            shutil.copyfile(split_root / name, target)
    return len(names)


class ImageUrls:
    """The ``image_url`` of each image: a data URL made once per image from its PNG bytes
    (``images``: path relative to the split -> bytes), or a hosted URL."""

    def __init__(self, images: Mapping[str, bytes], base_url: str | None = None) -> None:
        self.images = images
        self.base_url = base_url.rstrip("/") if base_url else None
        self._cache: dict[str, str] = {}

    def __call__(self, image: str) -> str:
        if self.base_url is not None:
            return f"{self.base_url}/{copied_image(image)}"
        if image not in self._cache:
            data = base64.b64encode(self.images[image]).decode("ascii")
            self._cache[image] = "data:image/png;base64," + data
        return self._cache[image]


def openai_line(record: Record, image_url: str) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if record.system:
        messages.append({"role": "system", "content": record.system})
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": image_url}},
                {"type": "text", "text": record.instruction},
            ],
        }
    )
    messages.append({"role": "assistant", "content": record.answer})
    return {"messages": messages}


def messages_line(record: Record, image_path: str) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if record.system:
        messages.append({"role": "system", "content": record.system})
    messages.append({"role": "user", "content": f"{IMAGE_TAG}{record.instruction}"})
    messages.append({"role": "assistant", "content": record.answer})
    return {"messages": messages, "images": [image_path]}


def _lines(items: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    for item in items:
        yield (json.dumps(item, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def write_openai(path: Path, records: Iterable[Record], urls: ImageUrls) -> None:
    atomic_write_chunks(path, _lines(openai_line(r, urls(r.image)) for r in records))


def write_messages(
    path: Path, records: Iterable[Record], out: Path, *, absolute_paths: bool = False
) -> None:
    def image_path(record: Record) -> str:
        relative = copied_image(record.image)
        return str((out / relative).resolve()) if absolute_paths else relative

    atomic_write_chunks(path, _lines(messages_line(r, image_path(r)) for r in records))


def llama_factory_info(splits: Iterable[str], name: str = "s3ft") -> dict[str, Any]:
    """``dataset_info.json`` entries (``<name>_<split>``) for the messages files."""
    return {
        f"{name}_{split}": {
            "file_name": messages_file(split),
            "formatting": "sharegpt",
            "columns": {"messages": "messages", "images": "images"},
            "tags": {
                "role_tag": "role",
                "content_tag": "content",
                "user_tag": "user",
                "assistant_tag": "assistant",
                "system_tag": "system",
            },
        }
        for split in splits
    }


def write_llama_factory_info(out: Path, splits: Iterable[str]) -> None:
    atomic_write_text(out / "dataset_info.json", dump_json(llama_factory_info(splits)))


__all__ = [
    "IMAGES_DIR",
    "IMAGE_TAG",
    "ImageUrls",
    "copied_image",
    "copy_images",
    "llama_factory_info",
    "messages_file",
    "messages_line",
    "openai_file",
    "openai_line",
    "write_llama_factory_info",
    "write_messages",
    "write_openai",
]
