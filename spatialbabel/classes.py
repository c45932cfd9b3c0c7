"""The six primitive classes, their unit geometry, and the one table of class synonyms.

Every unit primitive is centred at the origin with its axis of revolution along +Y and fits
the 1x1x1 cube; an object's world geometry is ``T(position) R(rotation) S(size / unit extent)``
applied to it (docs/conventions.md).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, Literal

ClassName = Literal["cube", "sphere", "cylinder", "cone", "pyramid", "torus"]

CLASSES: Final[tuple[ClassName, ...]] = ("cube", "sphere", "cylinder", "cone", "pyramid", "torus")

#: Extent of each unit primitive along its local x, y, z.
UNIT_EXTENTS: Final[dict[str, tuple[float, float, float]]] = {
    "cube": (1.0, 1.0, 1.0),
    "sphere": (1.0, 1.0, 1.0),
    "cylinder": (1.0, 1.0, 1.0),
    "cone": (1.0, 1.0, 1.0),
    "pyramid": (1.0, 1.0, 1.0),
    "torus": (1.0, 0.25, 1.0),
}

#: The unit torus: ring in the XZ plane.
TORUS_MAJOR_RADIUS: Final = 0.375
TORUS_MINOR_RADIUS: Final = 0.125

#: The one table of class synonyms, used by every parser and by the scorer's class accuracy.
#: Keys are normalised (lower case, no spaces, hyphens or underscores).
CLASS_SYNONYMS: Final[dict[str, ClassName]] = {
    # cube
    "cube": "cube",
    "box": "cube",
    "cuboid": "cube",
    "block": "cube",
    "brick": "cube",
    "crate": "cube",
    "rectangularprism": "cube",
    "rectangularbox": "cube",
    "squareprism": "cube",
    "hexahedron": "cube",
    "boxgeometry": "cube",
    # sphere
    "sphere": "sphere",
    "ball": "sphere",
    "orb": "sphere",
    "globe": "sphere",
    "icosphere": "sphere",
    "uvsphere": "sphere",
    "spheregeometry": "sphere",
    "ellipsoid": "sphere",
    "spheroid": "sphere",
    # cylinder
    "cylinder": "cylinder",
    "tube": "cylinder",
    "pillar": "cylinder",
    "column": "cylinder",
    "disc": "cylinder",
    "disk": "cylinder",
    "drum": "cylinder",
    "cylindergeometry": "cylinder",
    # cone
    "cone": "cone",
    "conegeometry": "cone",
    "circularcone": "cone",
    # pyramid
    "pyramid": "pyramid",
    "squarepyramid": "pyramid",
    "tetrahedron": "pyramid",
    "foursidedcone": "pyramid",
    "4sidedcone": "pyramid",
    "squarecone": "pyramid",
    # torus
    "torus": "torus",
    "donut": "torus",
    "doughnut": "torus",
    "ring": "torus",
    "annulus": "torus",
    "torusgeometry": "torus",
}

_NORMALISE = re.compile(r"[\s_\-]+")


def normalise_class_key(name: str) -> str:
    return _NORMALISE.sub("", name.strip().lower())


def canonical_class(name: str | None) -> ClassName | None:
    """The canonical class a model's word denotes, or None when it names none of the six.

    Plurals are accepted (``cubes``); so is any word that ends with a synonym
    (``redcube``, ``small_sphere``), preferring the longest synonym.
    """
    if not name:
        return None
    key = normalise_class_key(name)
    if key in CLASS_SYNONYMS:
        return CLASS_SYNONYMS[key]
    for suffix in ("es", "s"):
        if key.endswith(suffix) and key[: -len(suffix)] in CLASS_SYNONYMS:
            return CLASS_SYNONYMS[key[: -len(suffix)]]
    return None


def classes_equivalent(a: str | None, b: str | None) -> bool:
    """Synonym-aware class equality (``box`` equals ``cube``)."""
    ca, cb = canonical_class(a), canonical_class(b)
    return ca is not None and ca == cb


def class_from_words(words: list[str]) -> tuple[ClassName, str] | None:
    """The class named by the first of ``words`` that contains a synonym, and that word.

    Used where a model names an object instead of choosing a primitive for it
    (a Unity cylinder called ``ConeTip``). Inside a word the synonym that starts first wins,
    the longest on a tie, so ``icosphere`` is a sphere and ``pyramidBox`` a pyramid.
    """
    for word in words:
        found = _class_in_word(word)
        if found is not None:
            return found, word
    return None


@lru_cache(maxsize=4096)
def _class_in_word(word: str) -> ClassName | None:
    """``class_from_words`` for one word (cached: replies reuse a few names)."""
    key = normalise_class_key(word)
    if not key:
        return None
    best: tuple[int, ClassName] | None = None
    for synonym in _WORD_SYNONYMS:
        index = key.find(synonym)
        if index >= 0 and (best is None or index < best[0]):
            best = (index, CLASS_SYNONYMS[synonym])
    return None if best is None else best[1]


#: The synonyms looked for inside a word, longest first (ties keep the table's order).
_WORD_SYNONYMS: Final = tuple(
    synonym
    for synonym in sorted(CLASS_SYNONYMS, key=len, reverse=True)
    if len(synonym) >= 3 and not synonym.endswith("geometry")
)


SceneElement = Literal["ground", "light", "camera"]

#: Words for what a scene holds besides its objects: the ground, lights and cameras. A model
#: writing JSON or the DSL sometimes lists them among the objects; the parsers leave them out.
#: Keys are normalised like ``CLASS_SYNONYMS``.
SCENE_ELEMENT_WORDS: Final[dict[str, SceneElement]] = {
    "plane": "ground",
    "ground": "ground",
    "floor": "ground",
    "terrain": "ground",
    "groundplane": "ground",
    "floorplane": "ground",
    "light": "light",
    "lamp": "light",
    "sun": "light",
    "sunlight": "light",
    "pointlight": "light",
    "spotlight": "light",
    "directionallight": "light",
    "ambientlight": "light",
    "arealight": "light",
    "hemispherelight": "light",
    "camera": "camera",
    "perspectivecamera": "camera",
    "orthographiccamera": "camera",
}


def scene_element_kind(name: str | None) -> SceneElement | None:
    """Whether ``name`` names the ground, a light or a camera rather than an object: the word
    itself, its plural, or a word ending in it (``ground_plane``, ``key_light``,
    ``main_camera``); None otherwise. A primitive's name always wins (``light_box`` is a box)."""
    if not name:
        return None
    key = normalise_class_key(name)
    if not key or canonical_class(name) is not None:
        return None
    for word in (key, key[:-1] if key.endswith("s") else key):
        if word in SCENE_ELEMENT_WORDS:
            return SCENE_ELEMENT_WORDS[word]
    for synonym, kind in SCENE_ELEMENT_WORDS.items():
        if len(synonym) >= 5 and key.endswith(synonym):
            return kind
    return None
