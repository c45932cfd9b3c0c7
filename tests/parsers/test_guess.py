"""Telling a reply's language from the reply: every fixture and bundled demo reply with code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parsers.guess import guess_language

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("threejs", "unity", "blender", "open3d", "json", "dsl")
#: Replies with no code in them: nothing tells their language, and None says so.
NO_CODE = {"21_no_json", "14_garbage"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_fixture_is_told_its_language(language: str) -> None:
    for path in sorted((ROOT / "fixtures" / language).glob("*.txt")):
        got = guess_language(path.read_text(encoding="utf-8"))
        assert got == (None if path.stem in NO_CODE else language), path.name


def test_every_demo_reply_with_code_is_told_its_language() -> None:
    lines = (ROOT / "demo" / "data" / "demo_replies.jsonl").read_text(encoding="utf-8")
    records = [json.loads(line) for line in lines.splitlines()]
    told = [guess_language(r["output"]) for r in records]
    assert sum(t == r["language"] for t, r in zip(told, records, strict=True)) == len(records) - 2
    assert all(t in (r["language"], None) for t, r in zip(told, records, strict=True))


@pytest.mark.parametrize(
    ("text", "path", "want"),
    [
        ("```csharp\nvar x = 1;\n```", None, "unity"),
        ("```lisp\n(thing)\n```", None, "dsl"),
        ("const a = 1;", "reply.ts", "threejs"),
        ("x = 1", "reply.py", None),
        ('[{"shape": "cube"}]', None, "json"),
        ("import open3d as o3d\nmesh = {'a': 1}", None, "open3d"),
    ],
)
def test_tags_extensions_and_marks(text: str, path: str | None, want: str | None) -> None:
    assert guess_language(text, path) == want
