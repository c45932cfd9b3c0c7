"""Which scene-code language a reply is written in, when nobody said: for ``spatialbabel
parse`` on loose files. The benchmark itself always knows the language it asked for.

Each language leaves a mark no other language's code has: its engine's import or names
(``bpy``, ``open3d``, ``UnityEngine``, ``THREE``), the DSL's ``(scene``/``(entity`` forms, a JSON
document's opening bracket; then a fence tag that names one language only (```csharp);
where the reply shows none of these, the file's extension decides.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from parsers.extract import LANGUAGE_TAGS, find_blocks

#: Marks of each engine language, tried in this order (Python's two engines first: their
#: scripts may hold JSON-like dicts; Unity before three.js: C# has ``new`` and braces too).
_MARKS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("blender", re.compile(r"\bimport\s+bpy\b|\bfrom\s+bpy\b|\bbpy\.(ops|data|context)\b")),
    ("open3d", re.compile(r"\bimport\s+open3d\b|\bfrom\s+open3d\b|\bo3d\.geometry\b")),
    (
        "unity",
        re.compile(r"\busing\s+UnityEngine\b|\bGameObject\.CreatePrimitive\b|\bMonoBehaviour\b"),
    ),
    (
        "threejs",
        re.compile(r"\bTHREE\.[A-Z]|from\s+['\"]three['\"/]|\bnew\s+(Mesh|Scene|BoxGeometry)\("),
    ),
    ("dsl", re.compile(r"\(\s*(scene|entity)\b")),
)
#: A JSON document opening at the start of the text, or on a line of its own after prose
#: (an NL-CoT reply's reasoning comes first): ``{`` then a key or a line end, ``[`` then an
#: object or a line end.
_JSON_START: Final = re.compile(r"^\s*[\[{]|^[ \t]*(\{[ \t]*(\n|[\"'])|\[[ \t]*(\n|\{))", re.M)

#: File extensions of each language, for replies that show no mark.
EXTENSIONS: Final[dict[str, str]] = {
    ".js": "threejs",
    ".mjs": "threejs",
    ".ts": "threejs",
    ".html": "threejs",
    ".htm": "threejs",
    ".cs": "unity",
    ".json": "json",
    ".jsonl": "json",
    ".sexp": "dsl",
    ".scm": "dsl",
    ".lisp": "dsl",
    ".dsl": "dsl",
}


def guess_language(text: str, path: Path | str | None = None) -> str | None:
    """The language ``text`` is most likely written in, or None when nothing tells."""
    blocks = find_blocks(text)
    code = "\n".join(block.text for block in blocks) or text
    for language, mark in _MARKS:
        if mark.search(code):
            return language
    for block in blocks:
        tagged = [lang for lang, tags in LANGUAGE_TAGS.items() if block.tag in tags]
        if len(tagged) == 1:
            return tagged[0]
    if _JSON_START.search(code):
        return "json"
    if path is not None:
        return EXTENSIONS.get(Path(path).suffix.lower())
    return None
