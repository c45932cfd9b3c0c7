"""Grammars (Lark) and tree-sitter queries, as data files loaded with importlib.resources."""

from __future__ import annotations

from importlib import resources


def read_grammar(name: str) -> str:
    """Text of ``grammars/<name>`` (``scene_dsl.lark``, ``queries/javascript.scm``)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
