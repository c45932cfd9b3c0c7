"""The open vocabulary of real indoor scenes: descriptive class names through one taxonomy.

A scene declares its domain: ``primitive`` (the six shapes of ``spatialbabel.classes``) or
``open`` (furniture and household items named in words). The open domain's classes, and every
word that means one of them, live in one table, ``data/open_classes.csv``: NYU40's 40 classes
(the labels Hypersim's annotators gave every instance) and 20 finer ones that NYU40 files under
its three catch-alls (other structure, other furniture, other prop), each with the NYU40 id it
falls under and its synonyms (sofa = couch, night stand = nightstand = bedside table).

Words are compared by key: lower case, without spaces, hyphens or underscores, so
``Night_Stand``, ``night stand`` and ``nightStand`` are one word; a plural finds its singular
(``cushions``, ``shelves`` -> ``shelf``, ``boxes``). ``open_class_in`` finds a class inside an
identifier or a sentence by its words (``leftBedsideTable_2`` is a night stand), never inside a
word (a ``tablet`` is no table).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Final, Literal

from spatialbabel.classes import normalise_class_key

Domain = Literal["primitive", "open"]
DOMAINS: Final[tuple[Domain, ...]] = ("primitive", "open")

#: The NYU40 catch-alls: a true object with one of these classes is matched by any class the
#: table files under it (a predicted plant matches a true "other prop").
CATCH_ALL_IDS: Final = frozenset({38, 39, 40})

TABLE_FILE: Final = "open_classes.csv"

#: Words of an identifier or a sentence: camelCase and acronyms split (``TVStand`` is TV,
#: Stand), digits and punctuation dropped.
_WORDS: Final = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


@dataclass(frozen=True)
class OpenClass:
    """One class of the open vocabulary: its name, the NYU40 class it falls under (its own id
    for NYU40's classes) and the other words that mean it."""

    name: str
    nyu40_id: int
    synonyms: tuple[str, ...]


class Taxonomy:
    """The table read once: classes in file order, and every key that names one."""

    def __init__(self, classes: tuple[OpenClass, ...]) -> None:
        self.classes = classes
        self.names: frozenset[str] = frozenset(c.name for c in classes)
        self.by_nyu40: dict[int, str] = {}
        self.by_key: dict[str, str] = {}
        self.longest = 1
        for item in classes:
            if item.nyu40_id not in self.by_nyu40:
                self.by_nyu40[item.nyu40_id] = item.name
            for word in (item.name, *item.synonyms):
                key = normalise_class_key(word)
                other = self.by_key.get(key)
                if other is not None and other != item.name:
                    raise ValueError(
                        f"{TABLE_FILE}: {word!r} means both {other!r} and {item.name!r}"
                    )
                self.by_key[key] = item.name
                self.longest = max(self.longest, len(_WORDS.findall(word)))
        self._ids = {c.name: c.nyu40_id for c in classes}
        self._parent = {c.name: self.by_nyu40[c.nyu40_id] for c in classes}

    def parent(self, name: str) -> str:
        """The NYU40 class ``name`` falls under (itself for NYU40's own classes)."""
        return self._parent[name]

    def is_catch_all(self, name: str) -> bool:
        return name in self.names and name == self.parent(name) and self._ids[name] in CATCH_ALL_IDS


def read_table(text: str) -> Taxonomy:
    """A taxonomy from the CSV text of ``data/open_classes.csv`` (``class,nyu40_id,synonyms``;
    synonyms separated by ``;``). A row that breaks the format is a ValueError naming it."""
    rows = list(csv.DictReader(io.StringIO(text)))
    classes = []
    for number, row in enumerate(rows, start=2):
        name = (row.get("class") or "").strip()
        raw_id = (row.get("nyu40_id") or "").strip()
        if not name or not raw_id.isdigit() or not 1 <= int(raw_id) <= 40:
            raise ValueError(f"{TABLE_FILE}:{number}: expected a class and an NYU40 id 1-40")
        synonyms = tuple(s.strip() for s in (row.get("synonyms") or "").split(";") if s.strip())
        classes.append(OpenClass(name, int(raw_id), synonyms))
    taxonomy = Taxonomy(tuple(classes))
    missing = [i for i in range(1, 41) if i not in taxonomy.by_nyu40]
    if missing:
        raise ValueError(f"{TABLE_FILE}: no class for NYU40 ids {missing}")
    return taxonomy


@lru_cache(maxsize=1)
def taxonomy() -> Taxonomy:
    """The project's one taxonomy (read on first use)."""
    text = resources.files("spatialbabel").joinpath("data", TABLE_FILE).read_text("utf-8")
    return read_table(text)


def open_class_names() -> tuple[str, ...]:
    """Every class of the open vocabulary, in table order (NYU40's 40 first)."""
    return tuple(c.name for c in taxonomy().classes)


def is_open_class(name: object) -> bool:
    """Whether ``name`` is a class of the open vocabulary as the table spells it."""
    return isinstance(name, str) and name in taxonomy().names


def _singulars(key: str) -> tuple[str, ...]:
    forms = []
    if key.endswith("ies"):
        forms.append(key[:-3] + "y")
    if key.endswith("ves"):
        forms.append(key[:-3] + "f")
    if key.endswith("es"):
        forms.append(key[:-2])
    if key.endswith("s"):
        forms.append(key[:-1])
    return tuple(forms)


@lru_cache(maxsize=4096)
def open_class(word: str | None) -> str | None:
    """The open class ``word`` means as a whole (``Couch``, ``bedside_table``, ``cushions``),
    or None."""
    if not word:
        return None
    by_key = taxonomy().by_key
    key = normalise_class_key(word)
    if key in by_key:
        return by_key[key]
    for form in _singulars(key):
        if form in by_key:
            return by_key[form]
    return None


@lru_cache(maxsize=4096)
def open_class_in(
    text: str | None, prefer: Literal["last", "first"] = "last"
) -> tuple[str, str] | None:
    """(class, the words that name it) found in an identifier or a sentence, or None.

    The run of consecutive words naming a class that has the most words wins (``bedside
    table`` over ``table``); among equally long runs, the last one for an identifier, whose
    head noun ends it (``chair_leg`` and ``dining_chair`` are chairs, ``table_lamp`` a lamp),
    and the first for a comment, which names its object before saying where it stands.
    """
    if not text:
        return None
    words = [w.lower() for w in _WORDS.findall(text)]
    best: tuple[int, int, str, str] | None = None
    tax = taxonomy()
    for start in range(len(words)):
        for length in range(1, min(tax.longest, len(words) - start) + 1):
            phrase = " ".join(words[start : start + length])
            found = open_class(phrase)
            if found is None:
                continue
            rank = (length, start if prefer == "last" else -start)
            if best is None or rank > best[:2]:
                best = (rank[0], rank[1], found, phrase)
    return None if best is None else (best[2], best[3])


def nyu40_class(label: int) -> str | None:
    """The class of an NYU40 label id (1-40), or None for any other id (Hypersim's -1 and 0
    mark unlabelled geometry)."""
    return taxonomy().by_nyu40.get(label)


def class_group(name: str) -> str:
    """The NYU40 class an open class falls under; "" for any name the table does not hold."""
    tax = taxonomy()
    return tax.parent(name) if name in tax.names else ""


def is_catch_all(name: str) -> bool:
    """Whether ``name`` is one of NYU40's catch-all classes (other structure, furniture, prop)."""
    return taxonomy().is_catch_all(name)


def open_classes_equivalent(predicted: str | None, true: str | None) -> bool:
    """Synonym-aware class equality of the open domain: both words mean the same class
    (couch = sofa), or the true class is an NYU40 catch-all and the predicted one a class the
    table files under it (a plant is an "other prop"; the reverse is not: the truth is finer)."""
    p, t = open_class(predicted), open_class(true)
    if p is None or t is None:
        return False
    return p == t or (is_catch_all(t) and class_group(p) == t)


#: Classes whose name already means several things or a mass (NYU40's ``books``, ``clothes``,
#: ...): a question cannot count them one by one, nor ask for "a" one.
MASS_CLASSES: Final = frozenset({"blinds", "books", "clothes", "paper", "shelves", "stairs"})
_IRREGULAR_PLURALS: Final = {"person": "people", "bookshelf": "bookshelves"}


def open_plural(name: str) -> str:
    """The plural of a class name as a question says it (``night stands``, ``boxes``)."""
    if name in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[name]
    if name in MASS_CLASSES:
        return name
    if name.endswith(("s", "x", "sh", "ch")):
        return name + "es"
    return name + "s"


def with_article(name: str) -> str:
    """``a chair``, ``an ottoman``."""
    return ("an " if name[:1] in "aeiou" else "a ") + name


def askable_open_class(name: str) -> bool:
    """Whether a question may name ``name`` on its own: a class of the table that is neither an
    NYU40 catch-all (``other prop`` names no kind of thing) nor a mass (``books``)."""
    return is_open_class(name) and not is_catch_all(name) and name not in MASS_CLASSES


__all__ = [
    "CATCH_ALL_IDS",
    "DOMAINS",
    "MASS_CLASSES",
    "Domain",
    "OpenClass",
    "Taxonomy",
    "askable_open_class",
    "class_group",
    "is_catch_all",
    "is_open_class",
    "nyu40_class",
    "open_class",
    "open_class_in",
    "open_class_names",
    "open_classes_equivalent",
    "open_plural",
    "read_table",
    "taxonomy",
    "with_article",
]
