"""The shared front end that pulls code out of a reply."""

from __future__ import annotations

import pytest

from parsers import extract_code, find_blocks, parse
from spatialbabel import RegistryError

REPLY = """Here is the scene.

```python
import bpy
```

Now the objects:

```python
bpy.ops.mesh.primitive_cube_add(size=1)
```

Run it with:

```bash
blender --background --python scene.py
```
"""


def test_blocks_with_tags_and_positions() -> None:
    blocks = find_blocks(REPLY)
    assert [(b.tag, b.first_line, b.closed) for b in blocks] == [
        ("python", 4, True),
        ("python", 10, True),
        ("bash", 16, True),
    ]


def test_imperative_languages_merge_their_blocks_and_map_lines_back() -> None:
    extraction = extract_code(REPLY, "blender")
    assert extraction.code == "import bpy\nbpy.ops.mesh.primitive_cube_add(size=1)"
    assert extraction.reply_line(1) == 4 and extraction.reply_line(2) == 10
    codes = {d.code for d in extraction.diagnostics}
    assert {"extract.merged", "extract.skipped"} <= codes


def test_declarative_languages_offer_candidates() -> None:
    reply = '```json\n{"a": 1}\n```\ntext\n```json\n{"b": 2}\n```'
    extraction = extract_code(reply, "json")
    assert [c.text for c in extraction.candidates] == ['{"a": 1}', '{"b": 2}']


def test_untagged_blocks_are_read_when_none_is_tagged() -> None:
    extraction = extract_code("Code:\n~~~\nconst a = 1;\n~~~\n", "threejs")
    assert extraction.code == "const a = 1;"


def test_no_fence_reads_the_whole_reply() -> None:
    extraction = extract_code("const a = 1;", "threejs")
    assert extraction.code == "const a = 1;"
    assert [d.code for d in extraction.diagnostics] == ["extract.no_fence"]


def test_a_block_left_open_runs_to_the_end_and_is_reported() -> None:
    extraction = extract_code("```js\nconst a = 1;\nconst b", "threejs")
    assert extraction.code == "const a = 1;\nconst b"
    assert any(d.code == "extract.unclosed_fence" for d in extraction.diagnostics)


def test_four_backtick_fences_hold_three_backtick_text() -> None:
    blocks = find_blocks("````md\n```js\nx\n```\n````\n")
    assert [b.text for b in blocks] == ["```js\nx\n```"]


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(RegistryError, match="unknown parser 'vrml'; known:"):
        parse("x", "vrml")
