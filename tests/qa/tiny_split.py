"""Tiny splits in a temporary folder: scenes saved with ``Scene.save``, PNGs written with the
standard library, questions from the generator, no Blender."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from spatialbabel import Scene
from spatialbabel.files import write_json, write_jsonl
from synth.questions import generate_split_questions
from tests.qa.scene_factory import random_scene


def tiny_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def make_split(root: Path, count: int = 3, *, seed: int = 0) -> list[Scene]:
    scenes = [random_scene(100 + i, scene_id=f"scene_{i:06d}") for i in range(count)]
    for i, scene in enumerate(scenes):
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
        (root / "images").mkdir(parents=True, exist_ok=True)
        (root / "images" / f"{scene.scene_id}.png").write_bytes(tiny_png(rgb=(10 * i, 30, 30)))
    write_jsonl(root / "qa.jsonl", generate_split_questions(scenes, seed))
    ids = [s.scene_id for s in scenes]
    write_json(
        root / "subsets.json", {"seed": seed, "eval": ids[:2], "phase1": ids[2:], "unused": []}
    )
    return scenes
