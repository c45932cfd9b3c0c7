"""The shared front end: pull the code out of a model's reply.

Replies come as fenced blocks with or without a language tag, with prose around them, in
several blocks, cut off inside a block, or as bare code. Imperative languages merge every block
that belongs to them (models split setup from objects); declarative ones (json, dsl) return each
candidate so the parser can choose. Every choice is a diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from parsers.result import Diagnostic

#: Fence tags that mark a block as written in each language (lower case).
LANGUAGE_TAGS: Final[dict[str, frozenset[str]]] = {
    "threejs": frozenset(
        {
            "js",
            "javascript",
            "jsx",
            "ts",
            "typescript",
            "tsx",
            "mjs",
            "html",
            "htm",
            "three",
            "threejs",
            "es6",
            "ecmascript",
        }
    ),
    "unity": frozenset({"cs", "c#", "csharp", "c-sharp", "unity", "unity3d"}),
    "blender": frozenset({"py", "python", "python3", "bpy", "blender"}),
    "open3d": frozenset({"py", "python", "python3", "open3d", "o3d"}),
    "json": frozenset({"json", "json5", "jsonc", "javascript", "js"}),
    "dsl": frozenset(
        {
            "lisp",
            "scheme",
            "sexp",
            "s-expression",
            "sexpr",
            "clojure",
            "racket",
            "dsl",
            "scene",
            "elisp",
            "common-lisp",
        }
    ),
}

#: Tags that are never scene code, whatever the language.
_NEVER_CODE: Final = frozenset(
    {
        "bash",
        "sh",
        "shell",
        "console",
        "text",
        "txt",
        "output",
        "plaintext",
        "diff",
        "markdown",
        "md",
        "yaml",
        "toml",
        "ini",
        "csv",
    }
)

MERGE_LANGUAGES: Final = frozenset({"threejs", "unity", "blender", "open3d"})

_FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")


@dataclass(frozen=True)
class CodeBlock:
    """A fenced block: its text, normalised tag, the reply line of its first code line."""

    text: str
    tag: str | None
    first_line: int
    closed: bool


@dataclass(frozen=True)
class Extraction:
    """The code to parse and how its lines map back to the reply."""

    code: str
    #: (first code line, first reply line, line count) of each stretch of code.
    segments: tuple[tuple[int, int, int], ...]
    blocks: tuple[CodeBlock, ...]
    diagnostics: tuple[Diagnostic, ...]
    #: For json and dsl: every candidate block, for the parser to choose between.
    candidates: tuple[CodeBlock, ...] = ()

    def reply_line(self, code_line: int) -> int:
        for code_start, reply_start, count in self.segments:
            if code_start <= code_line < code_start + count:
                return reply_start + (code_line - code_start)
        return code_line


def _normalise_tag(info: str) -> str | None:
    word = info.strip().split()[0].lower() if info.strip() else ""
    word = word.strip("{}.")
    if word.startswith("language-"):
        word = word[len("language-") :]
    return word or None


def find_blocks(reply: str) -> list[CodeBlock]:
    """Every fenced block of a reply, in order; a block left open runs to the end."""
    lines = reply.split("\n")
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i].rstrip("\r"))
        if not match:
            i += 1
            continue
        fence = match.group("fence")
        tag = _normalise_tag(match.group("info"))
        closer = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        body: list[str] = []
        j = i + 1
        closed = False
        while j < len(lines):
            if closer.match(lines[j].rstrip("\r")):
                closed = True
                break
            body.append(lines[j])
            j += 1
        blocks.append(CodeBlock("\n".join(body), tag, i + 2, closed))
        i = j + 1
    return blocks


def _belongs(block: CodeBlock, language: str) -> bool:
    return block.tag is not None and block.tag in LANGUAGE_TAGS.get(language, frozenset())


def extract_code(reply: str, language: str) -> Extraction:
    """The code of ``reply`` for ``language``, with diagnostics saying what was chosen."""
    notes: list[Diagnostic] = []
    blocks = find_blocks(reply)
    if not blocks:
        notes.append(
            Diagnostic(
                "info", "extract.no_fence", "no fenced code block; reading the whole reply as code"
            )
        )
        whole = CodeBlock(reply, None, 1, True)
        return Extraction(reply, ((1, 1, reply.count("\n") + 1),), (whole,), tuple(notes), (whole,))
    tagged = [b for b in blocks if _belongs(b, language)]
    untagged = [b for b in blocks if b.tag is None]
    other = [
        b
        for b in blocks
        if b.tag is not None and not _belongs(b, language) and b.tag not in _NEVER_CODE
    ]
    if tagged:
        chosen = tagged
        why = f"tagged {', '.join(sorted({b.tag or '' for b in tagged}))}"
    elif untagged:
        chosen = untagged
        why = "untagged"
    elif other:
        chosen = other
        why = f"tagged {', '.join(sorted({b.tag or '' for b in other}))}, not a {language} tag"
        notes.append(
            Diagnostic(
                "warning",
                "extract.foreign_tag",
                f"no block tagged for {language}; reading blocks {why}",
            )
        )
    else:
        chosen = blocks
        why = "of any tag"
    for block in chosen:
        if not block.closed:
            notes.append(
                Diagnostic(
                    "warning",
                    "extract.unclosed_fence",
                    "code block is not closed: the reply may be cut off",
                    block.first_line - 1,
                )
            )
    skipped = len(blocks) - len(chosen)
    mode: Literal["merge", "choose"] = "merge" if language in MERGE_LANGUAGES else "choose"
    if len(chosen) > 1 and mode == "merge":
        lines = ", ".join(str(b.first_line - 1) for b in chosen)
        notes.append(
            Diagnostic(
                "info",
                "extract.merged",
                f"merged {len(chosen)} code blocks ({why}) starting at lines {lines}",
            )
        )
    if skipped:
        notes.append(
            Diagnostic(
                "info",
                "extract.skipped",
                f"ignored {skipped} code block(s) not written in {language}",
            )
        )
    if mode == "choose":
        first = chosen[-1]
        segments = ((1, first.first_line, first.text.count("\n") + 1),)
        return Extraction(first.text, segments, (first,), tuple(notes), tuple(chosen))
    parts: list[str] = []
    segments_list: list[tuple[int, int, int]] = []
    code_line = 1
    for block in chosen:
        count = block.text.count("\n") + 1
        segments_list.append((code_line, block.first_line, count))
        parts.append(block.text)
        code_line += count
    return Extraction(
        "\n".join(parts), tuple(segments_list), tuple(chosen), tuple(notes), tuple(chosen)
    )


def extraction_for_block(block: CodeBlock, notes: tuple[Diagnostic, ...]) -> Extraction:
    """An extraction holding one candidate block (used when a parser chooses among several)."""
    segments = ((1, block.first_line, block.text.count("\n") + 1),)
    return Extraction(block.text, segments, (block,), notes, (block,))
