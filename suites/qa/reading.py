"""Reading the answer out of a model's reply, with one set of rules for every QA mode.

1. ``answer_text``: fenced code blocks are dropped (a block of one line of at most 60
   characters, untagged or tagged as text, is an answer box and kept), and markdown is
   flattened: emphasis, inline code, headings, quotes, bullets, ``$``, ``\\text{x}``,
   ``\\boxed{x}`` (read as ``Final answer: x``), HTML tags.
   The ``Final answer:`` marker is thus found however the reply dresses it (``**Final
   Answer:**``, ``## Final answer``, ``*Final answer*: ...``), which is what Code-CoT replies,
   with their code, need; direct and NL-CoT replies go through the same steps.
2. Markers: ``Final answer`` (with ``:``, ``is``, ``=``, a dash, or alone on its line),
   ``Answer:``, ``answer is``; counting also ``Total:``. The last marker counts.
3. Integers (counting) and yes/no (existence): the first after the last marker, else the last
   in the text. Numbers (localization) and options (relationship, comparison): from the
   committed answer segment (``committed_windows``), never the whole reply.
A hedge ("3 or 4", "between 3 and 4", "yes/no", "yes and no") is read as no answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

#: A fenced block of one line this short is an answer put in a box, not code.
ANSWER_BOX_CHARS: Final = 60
#: Fence tags an answer box may carry; any other tag (python, json...) marks code.
ANSWER_BOX_TAGS: Final = frozenset({"", "text", "txt", "plaintext", "answer", "markdown", "md"})

_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)")
_BOXED = re.compile(r"\\boxed\s*\{([^{}]*)\}")
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}")
_HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*\s*/?>")
_LINE_PREFIX = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*|>[ \t>]*|[-+•][ \t]+|\*[ \t]+)")

_FINAL = (
    r"\bfinal\s+answer\b[ \t]*(?:(?:is|would\s+be|will\s+be)\b[ \t]*[:：]?|[:：=\-–—]|(?=\n)|$)"
)
MARKER: Final = re.compile(
    rf"{_FINAL}|\banswer[ \t]*[:：]|\banswer\s+(?:is|would\s+be)\b[ \t]*[:：]?", re.IGNORECASE
)
COUNT_MARKER: Final = re.compile(rf"{MARKER.pattern}|\btotal[ \t]*[:：=]", re.IGNORECASE)

_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
_UNITS: Final = frozenset(
    {"m", "cm", "mm", "u", "unit", "units", "meter", "meters", "metre", "metres"}
)
_WORD_AFTER = re.compile(r"[A-Za-z]+")

_WORDS_0_TO_20: Final = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
NUMBER_WORDS: Final[dict[str, int]] = {word: value for value, word in enumerate(_WORDS_0_TO_20)} | {
    "none": 0
}
_INTEGER = re.compile(
    r"(?<![\w.])\d+(?![\w]|\.\d)|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE
)
#: "one" as a pronoun ("the one on the left") is not a count.
_PRONOUN_ONE = re.compile(
    r"\b(?:the|this|that|each|which|any|no|every|other|another)\s+$", re.IGNORECASE
)
_HEDGE_AFTER = re.compile(
    r"^\s*(?:or|to|-|–|/)\s*(?:\d+\b|(?:" + "|".join(NUMBER_WORDS) + r")\b)", re.IGNORECASE
)
_HEDGE_BEFORE = re.compile(
    r"(?:(?:\d+|\b(?:" + "|".join(NUMBER_WORDS) + r"))\s*(?:or|to|-|–|/)|\bbetween)\s*$",
    re.IGNORECASE,
)

_YES_NO = re.compile(r"\b(yes|yeah|yep|no|nope)\b", re.IGNORECASE)
_YES_NO_HEDGE_AFTER = re.compile(r"^\s*(?:or|and|/)\s*(?:yes|no)\b", re.IGNORECASE)
_YES_NO_HEDGE_BEFORE = re.compile(r"\b(?:yes|no)\s*(?:or|and|/)\s*$", re.IGNORECASE)


def _prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks (an unclosed block runs to the end of the reply),
    with answer boxes kept and each code block left as one blank line."""
    prose: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opened = _FENCE_OPEN.match(lines[i])
        if not opened:
            prose.append(lines[i])
            i += 1
            continue
        fence = opened.group(1)
        body: list[str] = []
        i += 1
        while i < len(lines) and not re.match(
            rf"^[ \t]{{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", lines[i]
        ):
            body.append(lines[i])
            i += 1
        i += 1
        content = [line for line in body if line.strip()]
        tag = opened.group(2).lower()
        if (
            len(content) == 1
            and len(content[0].strip()) <= ANSWER_BOX_CHARS
            and tag in ANSWER_BOX_TAGS
        ):
            prose.extend(content)
        else:
            prose.append("")
    return prose


def flatten_markdown(text: str) -> str:
    text = _LATEX_TEXT.sub(lambda m: m.group(1), text)
    text = _BOXED.sub(lambda m: f"\nFinal answer: {m.group(1)}\n", text)
    text = _HTML_TAG.sub(" ", text)
    text = text.replace("−", "-").replace("\\(", "").replace("\\)", "").replace("$", "")
    lines = [_LINE_PREFIX.sub("", line) for line in text.split("\n")]
    text = "\n".join(lines)
    return text.replace("**", "").replace("__", "").replace("*", "").replace("`", "")


def answer_text(reply: str) -> str:
    """The prose of a reply, flattened, without its code: what every rule below reads."""
    text = reply.replace("\r\n", "\n").replace("\r", "\n")
    return flatten_markdown("\n".join(_prose_lines(text)))


def last_marker(text: str, marker: re.Pattern[str] = MARKER) -> re.Match[str] | None:
    matches = list(marker.finditer(text))
    return matches[-1] if matches else None


@dataclass(frozen=True)
class Reading:
    """What a rule read: the value (None when nothing could be read), whether the reply
    hedged between answers, and the text it was read from."""

    value: object
    hedged: bool
    source: str


def _integer_value(token: str) -> int:
    return int(token) if token.isdigit() else NUMBER_WORDS[token.lower()]


def _integers(text: str) -> list[re.Match[str]]:
    return [
        m
        for m in _INTEGER.finditer(text)
        if not (m.group(0).lower() == "one" and _PRONOUN_ONE.search(text[: m.start()]))
    ]


def read_integer(text: str) -> Reading:
    """The integer after the last marker (counting markers), else the last integer."""
    marker = last_marker(text, COUNT_MARKER)
    if marker is not None:
        after = _integers(text[marker.end() :])
        if after:
            chosen, base = after[0], marker.end()
            return _integer_reading(text, chosen, base)
    found = _integers(text)
    if not found:
        return Reading(None, False, _tail(text))
    return _integer_reading(text, found[-1], 0)


def _integer_reading(text: str, match: re.Match[str], base: int) -> Reading:
    start, end = base + match.start(), base + match.end()
    hedged = bool(_HEDGE_AFTER.match(text[end:]) or _HEDGE_BEFORE.search(text[:start]))
    return Reading(_integer_value(match.group(0)), hedged, _around(text, start, end))


def read_yes_no(text: str) -> Reading:
    """yes/no after the last marker, else the last yes/no word."""
    marker = last_marker(text)
    matches = list(_YES_NO.finditer(text))
    if marker is not None:
        after = [m for m in matches if m.start() >= marker.end()]
        if after:
            return _yes_no_reading(text, after[0])
    if not matches:
        return Reading(None, False, _tail(text))
    return _yes_no_reading(text, matches[-1])


def _yes_no_reading(text: str, match: re.Match[str]) -> Reading:
    word = match.group(1).lower()
    value = "yes" if word in ("yes", "yeah", "yep") else "no"
    hedged = bool(
        _YES_NO_HEDGE_AFTER.match(text[match.end() :])
        or _YES_NO_HEDGE_BEFORE.search(text[: match.start()])
    )
    return Reading(value, hedged, _around(text, match.start(), match.end()))


def numbers(text: str) -> list[float]:
    """Every number in ``text`` that stands alone or with a length unit (``1.2m``), in order;
    ``3D`` and ``x1`` are not numbers."""
    found = []
    for match in _NUMBER.finditer(text):
        word = _WORD_AFTER.match(text, match.end())
        if word is not None and word.group(0).lower() not in _UNITS:
            continue
        found.append(float(match.group(0)))
    return found


def marker_segment(text: str) -> str | None:
    """The paragraph after the last Final answer/Answer marker (its own line first; when the
    marker ends its line, the next paragraph), or None without a marker."""
    marker = last_marker(text)
    if marker is None:
        return None
    rest = text[marker.end() :].lstrip(" \t:")
    rest = rest.lstrip("\n") if not rest.split("\n", 1)[0].strip() else rest
    return re.split(r"\n[ \t]*\n", rest.strip(), maxsplit=1)[0].strip()


def last_lines(text: str, count: int) -> str:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    return "\n".join(lines[-count:])


def committed_windows(text: str, *, widest: int = 2) -> list[str]:
    """The places an answer is read from, narrowest first: after a marker, the marker's
    segment; without one, the last line, then the last ``widest`` lines."""
    segment = marker_segment(text)
    if segment is not None:
        return [segment]
    return [last_lines(text, n) for n in range(1, widest + 1)]


def read_vector(text: str) -> Reading:
    """The first three numbers of the committed segment (without a marker: of the last line,
    widened to the last two and three lines until three numbers are found)."""
    for window in committed_windows(text, widest=3):
        values = numbers(window)
        if len(values) >= 3:
            return Reading(values[:3], False, window)
    windows = committed_windows(text, widest=3)
    return Reading(None, False, windows[-1] if windows else "")


def _around(text: str, start: int, end: int, width: int = 60) -> str:
    return text[max(0, start - width) : end + width].strip()


def _tail(text: str, width: int = 120) -> str:
    return text.strip()[-width:]


__all__ = [
    "COUNT_MARKER",
    "MARKER",
    "NUMBER_WORDS",
    "Reading",
    "answer_text",
    "committed_windows",
    "flatten_markdown",
    "last_lines",
    "last_marker",
    "marker_segment",
    "numbers",
    "read_integer",
    "read_vector",
    "read_yes_no",
]
