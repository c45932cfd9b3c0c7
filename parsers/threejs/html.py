"""Script code out of an HTML page, with every line and column where it was in the page.

Models often answer with a whole page: the scene is in ``<script>`` (or ``<script
type="module">``) elements, next to an import map and ``<script src=...>`` tags. The code of
the inline scripts is kept in place and everything else is blanked (newlines kept), so
positions in the code are positions in the page. A page cut off inside a script keeps the
script up to the cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SCRIPT_OPEN = re.compile(r"<script\b(?P<attrs>[^>]*)>", re.IGNORECASE)
_SCRIPT_CLOSE = re.compile(r"</script\s*>", re.IGNORECASE)
_TYPE = re.compile(r"""\btype\s*=\s*["']?(?P<type>[^"'\s>]+)""", re.IGNORECASE)
_SRC = re.compile(r"""\bsrc\s*=\s*["']?(?P<src>[^"'\s>]+)""", re.IGNORECASE)
_JS_TYPES = frozenset(
    {
        "module",
        "text/javascript",
        "application/javascript",
        "javascript",
        "text/babel",
        "module-shim",
    }
)


@dataclass(frozen=True)
class PageScripts:
    code: str
    inline: int
    external: tuple[str, ...]
    skipped: tuple[str, ...]


def looks_like_html(code: str) -> bool:
    head = code.lstrip()[:200].lower()
    return head.startswith(
        ("<!doctype", "<html", "<head", "<body", "<script", "<meta", "<div", "<style")
    ) or bool(_SCRIPT_OPEN.search(code))


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def page_scripts(page: str) -> PageScripts:
    """The inline JavaScript of ``page``, in place, everything else blanked."""
    parts: list[str] = []
    position = 0
    inline = 0
    external: list[str] = []
    skipped: list[str] = []
    for match in _SCRIPT_OPEN.finditer(page):
        if match.start() < position:
            continue
        attrs = match.group("attrs")
        kind_match = _TYPE.search(attrs)
        kind = kind_match.group("type").lower() if kind_match else "text/javascript"
        close = _SCRIPT_CLOSE.search(page, match.end())
        end = close.start() if close else len(page)
        after = close.end() if close else len(page)
        parts.append(_blank(page[position : match.end()]))
        body = page[match.end() : end]
        src = _SRC.search(attrs)
        if src:
            external.append(src.group("src"))
            parts.append(_blank(body))
        elif kind in _JS_TYPES:
            inline += 1
            parts.append(body)
        else:
            skipped.append(kind)
            parts.append(_blank(body))
        parts.append(_blank(page[end:after]))
        position = after
    parts.append(_blank(page[position:]))
    return PageScripts("".join(parts), inline, tuple(external), tuple(skipped))
