"""The one place that touches py-tree-sitter's API (pinned to 0.25/0.26 in pyproject.toml).

Grammars come from the ``tree_sitter_<language>`` wheels; the front ends walk the tree
themselves, with no queries. Parsing runs under a deadline: tree-sitter's error recovery can
take seconds on a megabyte of garbage, so a parse that would overrun is cancelled and reported
instead.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from functools import cache
from typing import Final

import tree_sitter

Node = tree_sitter.Node
Tree = tree_sitter.Tree
Language = tree_sitter.Language

#: language id -> the wheel that ships its grammar, and the function returning it.
GRAMMAR_MODULES: Final[dict[str, tuple[str, str]]] = {
    "javascript": ("tree_sitter_javascript", "language"),
    # A superset of JavaScript: models asked for three.js sometimes answer in TypeScript.
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "python": ("tree_sitter_python", "language"),
    "c_sharp": ("tree_sitter_c_sharp", "language"),
}

_CHUNK = 1 << 16


@cache
def language(name: str) -> tree_sitter.Language:
    """The tree-sitter language ``name`` (a key of ``GRAMMAR_MODULES``)."""
    module_name, function = GRAMMAR_MODULES[name]
    module = importlib.import_module(module_name)
    return tree_sitter.Language(getattr(module, function)())


class ParseTimeout(Exception):
    """Parsing did not finish before the deadline."""


@dataclass(frozen=True)
class SourceTree:
    """A parsed text: the tree and the bytes its positions refer to."""

    tree: Tree
    data: bytes
    #: The text itself when it is pure ASCII (most code): byte offsets are then character
    #: offsets, and a node's text is a slice of it with nothing to decode.
    ascii: str | None = None
    #: The grammar it was parsed with (a key of ``GRAMMAR_MODULES``).
    grammar: str = ""

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def text(self, node: Node) -> str:
        if self.ascii is not None:
            return self.ascii[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def parse(text: str, language_name: str, *, deadline: float | None = None) -> SourceTree:
    """Parse ``text``; raises ``ParseTimeout`` if tree-sitter is still busy at ``deadline``
    (a ``time.monotonic()`` value)."""
    data = text.encode("utf-8", errors="replace")
    ascii = text if text.isascii() else None
    parser = tree_sitter.Parser(language(language_name))
    if deadline is None:
        return SourceTree(parser.parse(data), data, ascii, language_name)

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        return data[offset : offset + _CHUNK]

    def progress(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    try:
        tree = parser.parse(read, progress_callback=progress)
    except ValueError as error:
        raise ParseTimeout(str(error)) from None
    return SourceTree(tree, data, ascii, language_name)


def position(node: Node) -> tuple[int, int]:
    """1-based line and column of a node's start (the column counts bytes)."""
    row, column = node.start_point
    return row + 1, column + 1


def error_count(node: Node) -> int:
    """How many ERROR and MISSING nodes ``node`` holds (only subtrees with errors are walked)."""
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "ERROR" or current.is_missing:
            count += 1
        elif current.has_error:
            stack.extend(current.children)
    return count


def first_error(node: Node) -> Node | None:
    """The first ERROR or MISSING node inside ``node``, depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "ERROR" or current.is_missing:
            return current
        if current.has_error:
            stack.extend(reversed(current.children))
    return None
