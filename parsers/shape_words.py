"""Which class the words of the code name: identifiers, enum members, strings, call frames.

When a model's object has no shape the parser can compute (a mesh whose vertices are unknown,
a stand-in primitive, a helper with no body), the code still says what it meant: the enum
member a helper was called with (``Create(Shape.Torus, ...)``), a string (``Spawn("cone")``),
the helper's own name (``BuildTorus``). Words are split into tokens at case changes, digits
and separators and each token is looked up whole, so ``ParseString`` names no ring and
``OrbitCamera`` no orb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from parsers.evaluator.core.values import EnumMember, Value
from spatialbabel import canonical_class

_TOKENS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def tokens(word: str) -> list[str]:
    """``BuildTorusMesh`` -> ``['Build', 'Torus', 'Mesh']``; ``make_cone2`` -> ``['make',
    'cone', '2']``; ``UVSphere`` -> ``['UV', 'Sphere']``."""
    return _TOKENS.findall(word)


@lru_cache(maxsize=4096)
def class_of_word(word: str) -> str | None:
    """The class one token of ``word`` names (the first such token), or None. Adjacent tokens
    are tried together too, so ``SquarePyramid`` and ``four_sided_cone`` read whole."""
    parts = tokens(word)
    for size in (3, 2, 1):
        for start in range(len(parts) - size + 1):
            found = canonical_class("".join(parts[start : start + size]))
            if found is not None:
                return found
    return None


def value_words(value: Value) -> tuple[str, str] | None:
    """``(word, what it is)`` of an enum member or a string argument, or None."""
    if isinstance(value, EnumMember):
        return value.member, f"the enum member {value.enum}.{value.member}"
    if isinstance(value, str) and 0 < len(value) <= 80:
        return value, f"the string {value!r}"
    return None


def frame_words(frames: Iterable[tuple[str, list[Value]]]) -> list[tuple[str, str]]:
    """``(word, where)`` of the user functions being run, innermost first: the enum members and
    strings each was called with, then its name."""
    found: list[tuple[str, str]] = []
    for name, args in frames:
        for value in args:
            described = value_words(value)
            if described is not None:
                found.append((described[0], f"{described[1]} passed to {name}()"))
        found.append((name, f"the method name {name!r}"))
    return found


def class_from_sources(sources: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """The class the first of ``(word, where)`` names, and its ``where``; None when none does."""
    for word, where in sources:
        found = class_of_word(word)
        if found is not None:
            return found, where
    return None


__all__ = ["class_from_sources", "class_of_word", "frame_words", "tokens", "value_words"]
