"""Close the blocks of brace-language code that a reply cut off.

A reply cut off inside a C# method leaves every enclosing ``{`` open, and tree-sitter then
recovers the whole file as one ERROR node: the class and its methods are lost, not only the
last line. ``close_cut_off`` drops the unfinished statement at the end (back to the last line
ending in ``;``, ``{`` or ``}``) and appends the ``}`` still missing, which is what the model
was about to write; the parser reports it. The scan skips strings, characters and comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: How far back (lines) the unfinished end of a reply is searched for.
_MAX_DROPPED_LINES = 12


@dataclass(frozen=True)
class Repair:
    code: str
    dropped_lines: int
    closed_blocks: int


#: What the scan stops at; everything between is skipped at C speed.
_SIGNIFICANT = re.compile(r"""//|/\*|["'(){}\[\]]""")


def _open_braces(text: str) -> list[str] | None:
    """The stack of open ``{``, ``(`` and ``[`` of ``text``, or None when a closer does not match."""
    stack: list[str] = []
    i, n = 0, len(text)
    pairs = {")": "(", "]": "[", "}": "{"}
    search = _SIGNIFICANT.search
    while i < n:
        found = search(text, i)
        if found is None:
            break
        i = found.start()
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if c == '"' or c == "'":
            verbatim = c == '"' and i > 0 and text[i - 1] == "@"
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\" and not verbatim:
                    j += 1
                elif text[j] == "\n" and not verbatim:
                    break
                j += 1
            i = j + 1
            continue
        if c in "({[":
            stack.append(c)
        elif c in ")}]":
            if not stack or stack[-1] != pairs[c]:
                return None
            stack.pop()
        i += 1
    return stack


def close_cut_off(code: str) -> Repair | None:
    """The code with its unfinished end dropped and its open blocks closed, or None when the
    code has no open block (nothing was cut off) or its brackets cannot be balanced."""
    stack = _open_braces(code)
    if not stack or "{" not in stack:
        return None
    lines = code.rstrip().split("\n")
    for dropped in range(min(_MAX_DROPPED_LINES, len(lines))):
        kept = lines[: len(lines) - dropped]
        if not kept:
            break
        last = kept[-1].split("//")[0].rstrip()
        if not last.endswith((";", "{", "}")):
            continue
        prefix = "\n".join(kept)
        open_now = _open_braces(prefix)
        if open_now is None or any(b != "{" for b in open_now):
            continue
        closing = "\n" + "}" * len(open_now) if open_now else ""
        return Repair(prefix + closing + "\n", dropped, len(open_now))
    return None


#: Longest code read whole (characters). Longer code is read up to a line end before this:
#: tree-sitter alone needs most of the time budget on a megabyte of C#, and the evaluation
#: budget ends long before that much code has run anyway.
MAX_CODE_CHARS = 200_000


def keep_beginning(code: str, limit: int = MAX_CODE_CHARS) -> tuple[str, int]:
    """``code`` cut at the last line end before ``limit`` characters, and the number of lines
    left out (0 when the code is short enough)."""
    if len(code) <= limit:
        return code, 0
    end = code.rfind("\n", 0, limit)
    kept = code[: end if end > 0 else limit]
    rest = code[len(kept) :].strip("\n")
    return kept, len(rest.split("\n")) if rest else 0
