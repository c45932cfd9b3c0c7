"""The progressive state chain as text, and as training records in the S3-FT output formats.

Every item carries its chain in ``facts["chain"]``: GROUND, CURRENT, then DYNAMICS (levels 2
and 3) and FUTURE (level 3), each from the ground truth, then ANSWER (a letter, or the number
written as the task writes it). ``chain_text`` lays it out one section a line, ``SECTION: text``,
which is also what the ``chain`` prompt variant asks a model to write and what the grader
reads (its last ``ANSWER:`` line).

The paper trains on both chain and direct-answer examples of the same QA pairs, so each item
gives two training records: the ``chain`` prompt answered with the chain, and the ``direct``
prompt answered with ``Answer: <answer>``. They are written in two layouts:

- ``chain.openai.jsonl``: OpenAI chat records, ``{"messages": [system, user, assistant]}``,
  the user content being the inputs as ``image_url`` (or ``video_url``) parts, then the text;
- ``chain.messages.jsonl``: the ``messages`` + ``images`` (or ``videos``) layout that
  LLaMA-Factory and ms-swift read, with one ``<image>`` (``<video>``) token per input before
  the user text.

Inputs are named by their paths relative to the items folder (LLaMA-Factory's ``media_dir``);
``embed=True`` puts them in the OpenAI records as data URLs instead, as the OpenAI API needs.
These writers are small on purpose: they produce the same records as ``s3ft``'s writers and
can hand over to them.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import atomic_write_chunks
from suites.base import Item, Suite

OPENAI_FILE: Final = "chain.openai.jsonl"
MESSAGES_FILE: Final = "chain.messages.jsonl"
SECTION_ORDER: Final = ("GROUND", "CURRENT", "DYNAMICS", "FUTURE", "ANSWER")
_MEDIA: Final = {".png": "image/png", ".jpg": "image/jpeg", ".mp4": "video/mp4"}


def chain_text(sections: Mapping[str, str]) -> str:
    """The chain, one ``SECTION: text`` line per section present, in the fixed order."""
    return "\n".join(f"{name}: {sections[name]}" for name in SECTION_ORDER if name in sections)


@dataclass(frozen=True)
class TrainingRecord:
    """One supervised example: a prompt with its inputs and the target reply."""

    item_id: str
    variant: str
    system: str
    text: str
    inputs: tuple[str, ...]
    target: str

    @property
    def video(self) -> bool:
        return any(name.endswith(".mp4") for name in self.inputs)


def training_records(suite: Suite, items: Iterable[Item]) -> Iterator[TrainingRecord]:
    """Per item, the chain example then the direct-answer example."""
    for item in items:
        chain = item.facts["chain"]
        for variant, target in (
            ("chain", chain_text(chain)),
            ("direct", f"Answer: {chain['ANSWER']}"),
        ):
            prompt = suite.prompt(item, variant)
            yield TrainingRecord(
                item.item_id, variant, prompt.system, prompt.text, item.inputs, target
            )


def _url(name: str, folder: Path, embed: bool) -> str:
    if not embed:
        return name
    media = _MEDIA[Path(name).suffix.lower()]
    return f"data:{media};base64," + base64.b64encode((folder / name).read_bytes()).decode()


def openai_chat(record: TrainingRecord, folder: Path, *, embed: bool = False) -> dict[str, Any]:
    kind = "video_url" if record.video else "image_url"
    return {
        "messages": [
            {"role": "system", "content": record.system},
            {
                "role": "user",
                "content": [
                    *({"type": kind, kind: {"url": _url(n, folder, embed)}} for n in record.inputs),
                    {"type": "text", "text": record.text},
                ],
            },
            {"role": "assistant", "content": record.target},
        ]
    }


def messages_images(record: TrainingRecord) -> dict[str, Any]:
    token, key = ("<video>", "videos") if record.video else ("<image>", "images")
    return {
        "messages": [
            {"role": "system", "content": record.system},
            {"role": "user", "content": token * len(record.inputs) + record.text},
            {"role": "assistant", "content": record.target},
        ],
        key: list(record.inputs),
    }


def write_training(
    folder: Path, suite: Suite, items: Iterable[Item], *, embed: bool = False
) -> list[Path]:
    """Both layouts into the items folder ``folder``; returns their paths."""
    records = list(training_records(suite, items))

    def lines(rows: Iterable[dict[str, Any]]) -> Iterator[bytes]:
        for row in rows:
            yield json.dumps(row, ensure_ascii=False).encode() + b"\n"

    atomic_write_chunks(
        folder / OPENAI_FILE, lines(openai_chat(r, folder, embed=embed) for r in records)
    )
    atomic_write_chunks(folder / MESSAGES_FILE, lines(messages_images(r) for r in records))
    return [folder / OPENAI_FILE, folder / MESSAGES_FILE]


__all__ = [
    "MESSAGES_FILE",
    "OPENAI_FILE",
    "SECTION_ORDER",
    "TrainingRecord",
    "chain_text",
    "messages_images",
    "openai_chat",
    "training_records",
    "write_training",
]
