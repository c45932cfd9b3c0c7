"""The domain a reply is parsed in, for the few rules of the declarative languages that
depend on it.

JSON and the DSL leave out an entry whose class or name is a light (``lamp``, ``ceiling_light``)
as no object of the scene. In the open domain a lamp is furniture: a word that names a class
of the open vocabulary is an object there. ``parsers.parse`` sets the domain for the length of
one parse; the engines never read it (the open domain's naming is one layer applied after them,
``parsers.open_domain``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from spatialbabel.classes import SceneElement, scene_element_kind
from spatialbabel.open_classes import Domain, open_class_in

_DOMAIN: ContextVar[Domain] = ContextVar("parse_domain", default="primitive")


def parse_domain() -> Domain:
    """The domain of the parse under way (``primitive`` outside any)."""
    return _DOMAIN.get()


@contextmanager
def parsing_domain(domain: Domain) -> Iterator[None]:
    token = _DOMAIN.set(domain)
    try:
        yield
    finally:
        _DOMAIN.reset(token)


def element_kind(word: str | None) -> SceneElement | None:
    """``spatialbabel.classes.scene_element_kind`` in the current domain: in the open domain a
    light word that names a class of the open vocabulary (a lamp) is an object."""
    kind = scene_element_kind(word)
    if kind == "light" and _DOMAIN.get() == "open" and open_class_in(word) is not None:
        return None
    return kind
