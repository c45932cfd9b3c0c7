"""Multiple choice, shared by the suites: option letters, balanced answer positions, and reading
the letters of a reply's last ``Answer:`` line.

An item's ``answer`` for multiple choice is its letters in order (``"B"``, or ``"AC"`` for a
multi-select item). A reply is read from its last line that starts with ``Answer:`` (markdown
emphasis allowed); with no such line, a reply that is nothing but letters is read as they are
(the ``direct`` variants ask for the letter only). Anything else is unreadable: wrong, and kept
in the denominator.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import Final

import numpy as np

from suites.base import Grade, Item, Reply

LETTERS: Final = string.ascii_uppercase
_ANSWER_LINE: Final = re.compile(r"^[\s>*_#`-]*answer\s*[:：]\s*(?P<rest>.*)$", re.IGNORECASE)
#: A reply's answer line (``Answer:`` in any case, markdown emphasis allowed), for every reader.
ANSWER_LINE: Final = _ANSWER_LINE
_LETTER_LIST: Final = re.compile(
    r"^[\s*_`(\[]*(?P<letters>[A-Z](?:[\s,;/&]*(?:and\s+)?[A-Z])*)[\s*_`)\].]*$"
)
_OPTION_PREFIX: Final = re.compile(r"^\(?(?P<letter>[A-Z])[).:]\s")


def letter(index: int) -> str:
    return LETTERS[index]


def options_block(options: Sequence[str]) -> str:
    """``A. first`` ... one option a line, as every prompt shows them."""
    return "\n".join(f"{letter(i)}. {text}" for i, text in enumerate(options))


def balanced_positions(count: int, options: int, seed: int) -> list[int]:
    """Where the right option goes in each of ``count`` items: every position equally often
    (within one), in a seeded order, so no position is a better guess than another."""
    cycle = np.resize(np.arange(options), count)
    return [int(p) for p in np.random.default_rng(seed).permutation(cycle)]


def place(right: str, wrong: Sequence[str], position: int) -> tuple[tuple[str, ...], str]:
    """The options with ``right`` at ``position`` and the others in their given order, and the
    right letter."""
    if not 0 <= position <= len(wrong):
        raise ValueError(f"position {position} outside 0..{len(wrong)}")
    options = [*wrong[:position], right, *wrong[position:]]
    return tuple(options), letter(position)


def read_letters(text: str, count: int) -> frozenset[str] | None:
    """The letters a reply chose among ``count`` options, or None when it names none, or names
    one that is not an option."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    chosen: str | None = None
    for line in reversed(lines):
        match = _ANSWER_LINE.match(line)
        if match:
            chosen = match.group("rest")
            break
    if chosen is None:
        if len(lines) != 1:
            return None
        chosen = lines[0]
    chosen = chosen.strip().strip("*_`").strip()
    if re.fullmatch(r"[(\[]?[a-z][)\].]?", chosen):
        chosen = chosen.upper()
    # "B. 1.0-2.0 m" or "(B) left": the letter that starts an option's text.
    prefix = _OPTION_PREFIX.match(chosen + " ")
    if prefix:
        chosen = prefix.group("letter")
    match = _LETTER_LIST.match(chosen)
    if not match:
        return None
    letters = frozenset(re.findall(r"[A-Z]", re.sub(r"\band\b", " ", match.group("letters"))))
    if not letters or any(LETTERS.index(c) >= count for c in letters):
        return None
    return letters


def grade_choice(item: Item, reply: Reply) -> Grade:
    """Exact match of the chosen letters with the item's (a multi-select item needs the exact
    set)."""
    letters = read_letters(reply.output, len(item.options))
    if letters is None:
        return Grade.unread(
            "parser_failure",
            f"no 'Answer: <letter>' line naming one of {LETTERS[: len(item.options)]}",
        )
    parsed = "".join(sorted(letters))
    return Grade.read(1.0 if parsed == "".join(sorted(item.answer)) else 0.0, parsed)


__all__ = [
    "LETTERS",
    "balanced_positions",
    "grade_choice",
    "letter",
    "options_block",
    "place",
    "read_letters",
]
