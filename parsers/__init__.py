"""Parsers of the six scene-code languages into the canonical scene graph.

``parse(text, language)`` is the one entry point; it never raises on any reply: a reply that
cannot be read is a ``ParseResult`` with no objects and an error diagnostic saying why.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Final

from parsers.collector import collector_paused
from parsers.domain import ParserFn, same_in_every_domain
from parsers.extract import CodeBlock, Extraction, extract_code, find_blocks
from parsers.result import Diagnostic, Diagnostics, ObjectSource, ParseResult
from spatialbabel import LANGUAGES, Registry, Scene
from spatialbabel.open_classes import DOMAINS, Domain

WriterFn = Callable[[Scene], str]

#: language id -> parser; filled as each language's module is imported.
PARSERS: Final[Registry[ParserFn]] = Registry("parser")

#: language id -> writer of a scene as code in that language (used for prompts' examples,
#: demo replies and round-trip tests); registered by the same modules as the parsers.
WRITERS: Final[Registry[WriterFn]] = Registry("writer")

#: Where each language's parser lives, imported on first use so that one language's grammar
#: is not loaded for another's replies.
_MODULES: Final[dict[str, str]] = {
    "json": "parsers.json",
    "dsl": "parsers.dsl",
    "threejs": "parsers.threejs",
    "unity": "parsers.unity",
    "blender": "parsers.blender",
    "open3d": "parsers.open3d",
}


def get_parser(language: str) -> ParserFn:
    if language not in PARSERS and language in _MODULES:
        importlib.import_module(_MODULES[language])
    return PARSERS.get(language)


def get_writer(language: str) -> WriterFn:
    if language not in WRITERS and language in _MODULES:
        importlib.import_module(_MODULES[language])
    return WRITERS.get(language)


def write(scene: Scene, language: str) -> str:
    """``scene`` as code in ``language``, in that engine's own frame and units."""
    return get_writer(language)(scene)


def available_languages() -> list[str]:
    """Languages whose parser module is present in this installation."""
    found = []
    for language in LANGUAGES:
        try:
            get_parser(language)
        except (KeyError, ImportError):
            continue
        found.append(language)
    return found


def empty_result(
    language: str, diagnostics: list[Diagnostic], scene_id: str = "parsed"
) -> ParseResult:
    return ParseResult(language, Scene(scene_id), tuple(diagnostics))


def parse(
    text: str, language: str, *, scene_id: str = "parsed", domain: Domain = "primitive"
) -> ParseResult:
    """Read a model's reply written in ``language`` into a canonical scene. Never raises
    (except for an unknown language or domain, which is the caller's mistake).

    In the ``open`` domain each object's class is what the reply calls it (its name, variable
    or comment: ``parsers.open_domain``), its geometry read as in the primitive domain."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; known: {', '.join(DOMAINS)}")
    result = _parse_in(text, language, scene_id, domain)
    if domain == "open":
        from parsers.open_domain import name_objects

        return name_objects(result, text)
    return result


def _parse_in(text: str, language: str, scene_id: str, domain: Domain) -> ParseResult:
    parser = get_parser(language)
    if not isinstance(text, str):
        return empty_result(
            language,
            [Diagnostic("error", "parse.not_text", f"reply is {type(text).__name__}, not text")],
            scene_id,
        )
    try:
        with collector_paused():
            result = parser(text, domain)
    except RecursionError:
        return empty_result(
            language,
            [Diagnostic("error", "parse.too_deep", "the code nests too deeply to read")],
            scene_id,
        )
    except Exception as error:  # a parser bug must cost one reply, not a whole scoring run
        message = f"internal parser error: {type(error).__name__}: {error}"
        return empty_result(language, [Diagnostic("error", "parse.internal", message)], scene_id)
    if scene_id != result.scene.scene_id:
        from dataclasses import replace

        result = replace(result, scene=replace(result.scene, scene_id=scene_id))
    return result


__all__ = [
    "PARSERS",
    "WRITERS",
    "CodeBlock",
    "Diagnostic",
    "Diagnostics",
    "Extraction",
    "ObjectSource",
    "ParseResult",
    "available_languages",
    "extract_code",
    "find_blocks",
    "get_parser",
    "get_writer",
    "parse",
    "same_in_every_domain",
    "write",
]
