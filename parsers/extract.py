"""The shared front end: pull the code out of a model's reply.

Replies come as fenced blocks with or without a language tag, with prose around them, in
several blocks, cut off inside a block, or as bare code, and in NL-CoT replies after a
reasoning list. Reasoning is never read as code (``parsers.blocks``: prose cut from an
unfenced reply, reasoning blocks skipped). Imperative languages combine the blocks that belong
to them as ``parsers.blocks.plan_blocks`` decides (fragments merged, a complete rewrite read
alone, a redefined helper put in place of the old one); declarative ones (json, dsl) return
each candidate so the parser can decide. Every choice is a diagnostic.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final, Literal

from parsers.blocks import code_region, is_reasoning, plan_blocks
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
    #: The reply's text before this block, since the end of the block before it.
    prose_before: str = ""

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + 1


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
    prose_start = 0
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
        prose = "\n".join(lines[prose_start:i])
        blocks.append(CodeBlock("\n".join(body), tag, i + 2, closed, prose))
        i = j + 1
        prose_start = i
    return blocks


def _belongs(block: CodeBlock, language: str) -> bool:
    return block.tag is not None and block.tag in LANGUAGE_TAGS.get(language, frozenset())


def _unfenced(reply: str, language: str, notes: list[Diagnostic]) -> Extraction:
    """An unfenced reply: the whole of it, or only its code when prose comes before or after
    (an NL-CoT reasoning list, a closing remark)."""
    notes.append(
        Diagnostic(
            "info", "extract.no_fence", "no fenced code block; reading the whole reply as code"
        )
    )
    lines = reply.split("\n")
    region = code_region(lines, language)
    if region is None:
        whole = CodeBlock(reply, None, 1, True)
        return Extraction(reply, ((1, 1, len(lines)),), (whole,), tuple(notes), (whole,))
    left_out = []
    if region.before:
        left_out.append(f"{region.before} line(s) of prose before it")
    if region.after:
        left_out.append(f"{region.after} after it")
    notes.append(
        Diagnostic(
            "info",
            "extract.prose_skipped",
            f"the code runs from line {region.first + 1} to {region.last + 1}; "
            f"{' and '.join(left_out)} (reasoning, remarks) left out",
            region.first + 1,
        )
    )
    code = "\n".join(lines[region.first : region.last + 1])
    block = CodeBlock(code, None, region.first + 1, True, "\n".join(lines[: region.first]))
    segments = ((1, region.first + 1, region.last - region.first + 1),)
    return Extraction(code, segments, (block,), tuple(notes), (block,))


def _without_reasoning(
    chosen: list[CodeBlock], language: str, notes: list[Diagnostic]
) -> list[CodeBlock]:
    """``chosen`` without the blocks that hold reasoning in words (kept if all of them do, so
    a reply of one block is read as it is)."""
    if len(chosen) < 2:
        return chosen
    code = [b for b in chosen if not is_reasoning(b.text, language)]
    if not code or len(code) == len(chosen):
        return chosen
    for block in chosen:
        if block not in code:
            notes.append(
                Diagnostic(
                    "info",
                    "extract.reasoning",
                    "a block holding a list in words (reasoning, not code) is not read",
                    block.first_line - 1,
                )
            )
    return code


def extract_code(reply: str, language: str) -> Extraction:
    """The code of ``reply`` for ``language``, with diagnostics saying what was chosen."""
    notes: list[Diagnostic] = []
    blocks = find_blocks(reply)
    if not blocks:
        return _unfenced(reply, language, notes)
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
    chosen = _without_reasoning(chosen, language, notes)
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
        segments = ((1, first.first_line, first.line_count),)
        return Extraction(first.text, segments, (first,), tuple(notes), tuple(chosen))
    if len(chosen) == 1:
        block = chosen[0]
        segments = ((1, block.first_line, block.line_count),)
        return Extraction(block.text, segments, (block,), tuple(notes), (block,))
    return _combined(chosen, _prose_between(blocks, chosen), language, why, notes)


def _prose_between(blocks: list[CodeBlock], chosen: list[CodeBlock]) -> list[str]:
    """The reply's text before each chosen block since the chosen block before it: other
    blocks between them (a shell command, a reasoning list) count as prose."""
    position = {id(block): i for i, block in enumerate(blocks)}
    prose = [chosen[0].prose_before]
    for previous, block in itertools.pairwise(chosen):
        between = blocks[position[id(previous)] + 1 : position[id(block)] + 1]
        parts = []
        for other in between:
            parts.append(other.prose_before)
            if other is not block:
                parts.append(other.text)
        prose.append("\n".join(parts))
    return prose


def _combined(
    chosen: list[CodeBlock], prose: list[str], language: str, why: str, notes: list[Diagnostic]
) -> Extraction:
    """The code of several blocks of an imperative language, as ``plan_blocks`` combines them."""
    plan = plan_blocks([b.text for b in chosen], prose, [b.first_line for b in chosen], language)
    notes.extend(plan.diagnostics)
    kept = [chosen[k] for k in plan.kept]
    if len(kept) > 1:
        lines = ", ".join(str(b.first_line - 1) for b in kept)
        notes.append(
            Diagnostic(
                "info",
                "extract.merged",
                f"merged {len(kept)} code blocks ({why}) starting at lines {lines}",
            )
        )
    # Each code line with the reply line it comes from; splices put a later block's lines in
    # place of an earlier definition, and leave them out where they stood.
    texts = {k: chosen[k].text.split("\n") for k in plan.kept}
    replaced = {(s.target, s.target_lines[0]): s for s in plan.splices}
    skip: dict[int, set[int]] = {}
    for splice in plan.splices:
        skip.setdefault(splice.target, set()).update(range(*splice.target_lines))
    for k, spans in plan.moved.items():
        for first, end in spans:
            skip.setdefault(k, set()).update(range(first, end))
    out: list[tuple[str, int]] = []
    for k in plan.kept:
        block = chosen[k]
        for i, line in enumerate(texts[k]):
            spliced = replaced.get((k, i))
            if spliced is not None:
                source = chosen[spliced.source]
                for m in range(*spliced.source_lines):
                    out.append((texts[spliced.source][m], source.first_line + m))
            if i in skip.get(k, ()):
                continue
            out.append((line, block.first_line + i))
    segments_list: list[tuple[int, int, int]] = []
    for code_line, (_, reply_line) in enumerate(out, start=1):
        if segments_list:
            start, reply_start, count = segments_list[-1]
            if reply_start + count == reply_line and start + count == code_line:
                segments_list[-1] = (start, reply_start, count + 1)
                continue
        segments_list.append((code_line, reply_line, 1))
    return Extraction(
        "\n".join(line for line, _ in out),
        tuple(segments_list),
        tuple(kept),
        tuple(notes),
        tuple(chosen),
    )


def extraction_for_block(block: CodeBlock, notes: tuple[Diagnostic, ...]) -> Extraction:
    """An extraction holding one candidate block (used when a parser chooses among several)."""
    segments = ((1, block.first_line, block.text.count("\n") + 1),)
    return Extraction(block.text, segments, (block,), notes, (block,))


def extraction_for_blocks(
    blocks: tuple[CodeBlock, ...], notes: tuple[Diagnostic, ...]
) -> Extraction:
    """An extraction holding blocks read as one text (an answer split over blocks)."""
    if len(blocks) == 1:
        return extraction_for_block(blocks[0], notes)
    segments: list[tuple[int, int, int]] = []
    code_line = 1
    for block in blocks:
        segments.append((code_line, block.first_line, block.line_count))
        code_line += block.line_count
    text = "\n".join(b.text for b in blocks)
    return Extraction(text, tuple(segments), blocks, notes, blocks)
