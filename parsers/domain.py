"""The domain a reply is parsed in, for the few rules of the declarative languages that
depend on it.

JSON and the DSL leave out an entry whose class or name is a light (``lamp``, ``ceiling_light``)
as no object of the scene. In the open domain a lamp is furniture: a word that names a class
of the open vocabulary is an object there. ``parsers.parse`` hands the domain to the language's
parser; the engines never read it (the open domain's naming is one layer applied after them,
``parsers.open_domain``), so their parsers are registered through ``same_in_every_domain``.
"""

from __future__ import annotations

from collections.abc import Callable

from parsers.result import ParseResult
from spatialbabel.classes import SceneElement, scene_element_kind
from spatialbabel.open_classes import Domain, open_class_in

#: A language's parser: the reply's text, read in a domain.
ParserFn = Callable[[str, Domain], ParseResult]


def same_in_every_domain(parser: Callable[[str], ParseResult]) -> ParserFn:
    """``parser``, for a language whose reading does not depend on the domain."""

    def parse_in(text: str, domain: Domain) -> ParseResult:
        return parser(text)

    return parse_in


def element_kind(word: str | None, domain: Domain) -> SceneElement | None:
    """``spatialbabel.classes.scene_element_kind`` in ``domain``: in the open domain a light
    word that names a class of the open vocabulary (a lamp) is an object."""
    kind = scene_element_kind(word)
    if kind == "light" and domain == "open" and open_class_in(word) is not None:
        return None
    return kind
