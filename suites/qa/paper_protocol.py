"""The paper's QA answer reader (SpatialBabel, Appendix C), kept beside the project's.

``spatialbabel score-qa --protocol paper`` grades with these rules, so that numbers can be set
beside the paper's; the default (``project``, ``suites.qa.grading``) reads more carefully. The
paper's evaluator, as its appendix words it:

- Code-CoT replies first go through a markdown-tolerant ``Final answer:`` extractor
  (``**Final Answer:** x``, ``## Final answer`` then ``x`` on the next line); what it finds,
  read as ``Final answer: x``, is all the rules below see. Without one, they see the reply.
- counting: the integer after an answer marker (``Final answer:`` or ``Answer:``), else the
  last integer of the reply.
- existence: the yes/no token after an answer marker, else the last yes/no token.
- relationship and comparison: the true phrase is substring-matched in the trailing committed
  segment: the last ``Final answer:``/``Answer:`` line, or else the last one or two non-empty
  lines.
- localization: the first three numbers of the reply.

Where the project's reader differs, and why it keeps its own as the default, is in docs/qa.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Literal

from spatialbabel.qa import Question, parse_mode
from suites.qa.grading import Verdict, answers_agree, grade
from suites.qa.reading import Reading, flatten_markdown

Protocol = Literal["project", "paper"]
PROTOCOLS: Final[tuple[Protocol, ...]] = ("project", "paper")

#: ``Final answer:`` or ``Answer:``, the paper's answer markers.
ANSWER_MARKER: Final = re.compile(r"\b(?:final\s+)?answer\s*:", re.IGNORECASE)
#: A line that is a ``Final answer`` marker once its markdown is flattened: the answer follows
#: on the line (after ``:``, ``-`` or ``=``) or, for a heading, on the next non-empty line.
_FINAL_LINE = re.compile(r"^\s*final\s+answer\s*(?:[:：=\-–—]\s*(?P<rest>.*))?$", re.IGNORECASE)
_INTEGER = re.compile(r"\b\d+\b")
_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def extract_final_answer(reply: str) -> str | None:
    """The answer of the reply's last ``Final answer`` line, however markdown dresses it, or
    None when the reply has none (the paper's Code-CoT extractor)."""
    lines = flatten_markdown(reply.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    for index in range(len(lines) - 1, -1, -1):
        found = _FINAL_LINE.match(lines[index])
        if found is None:
            continue
        rest = (found.group("rest") or "").strip()
        if rest:
            return rest
        following = [line.strip() for line in lines[index + 1 :] if line.strip()]
        if following:
            return following[0]
    return None


def paper_text(reply: str, mode: str) -> str:
    """What the paper's rules read: for Code-CoT the extracted ``Final answer: x`` when there
    is one, else the reply as it came."""
    kind, _ = parse_mode(mode)
    if kind == "code_cot":
        extracted = extract_final_answer(reply)
        if extracted is not None:
            return f"Final answer: {extracted}"
    return reply


def _after_last_marker(text: str) -> str | None:
    markers = list(ANSWER_MARKER.finditer(text))
    return text[markers[-1].end() :] if markers else None


def read_integer(text: str) -> Reading:
    """The first integer after the last answer marker, else the last integer."""
    after = _after_last_marker(text)
    if after is not None and (found := _INTEGER.search(after)):
        return Reading(int(found.group(0)), False, after.strip()[:120])
    every = _INTEGER.findall(text)
    return Reading(int(every[-1]) if every else None, False, text.strip()[-120:])


def read_yes_no(text: str) -> Reading:
    """The first yes/no token after the last answer marker, else the last one."""
    after = _after_last_marker(text)
    if after is not None and (found := _YES_NO.search(after)):
        return Reading(found.group(1).lower(), False, after.strip()[:120])
    every = _YES_NO.findall(text)
    return Reading(every[-1].lower() if every else None, False, text.strip()[-120:])


def committed_segments(text: str) -> list[str]:
    """The trailing committed segment: the last line with an answer marker; without one, the
    last non-empty line, then the last two."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    for line in reversed(lines):
        if ANSWER_MARKER.search(line):
            return [line]
    return ["\n".join(lines[-count:]) for count in (1, 2) if len(lines) >= count]


def phrase(option: str) -> str:
    """The words matched for an option: the option without a leading article."""
    return _ARTICLE.sub("", option.strip()).lower()


def read_option(truth: str, options: Sequence[str], text: str) -> Reading:
    """Substring matching in the committed segment, narrowest first: the true phrase if the
    segment holds it, else the first other option it holds, else nothing."""
    segments = committed_segments(text)
    for segment in segments:
        lowered = segment.lower()
        if phrase(truth) in lowered:
            return Reading(truth, False, segment)
        for option in options:
            if phrase(option) in lowered:
                return Reading(option, False, segment)
    return Reading(None, False, segments[-1] if segments else "")


def read_vector(text: str) -> Reading:
    """The first three numbers of the reply."""
    values = [float(v) for v in _NUMBER.findall(text)[:3]]
    return Reading(values if len(values) == 3 else None, False, text.strip()[:120])


def read_answer(question: Question, reply: str, mode: str) -> Reading:
    """What the paper's evaluator reads from ``reply`` (answered in ``mode``)."""
    text = paper_text(reply, mode)
    if question.category == "counting":
        return read_integer(text)
    if question.category == "existence":
        return read_yes_no(text)
    if question.category == "localization":
        return read_vector(text)
    return read_option(str(question.answer), [str(c) for c in question.choices], text)


def grade_paper(
    question: Question, reply: str, mode: str, *, tolerance: float | None = None
) -> Verdict:
    """The paper's verdict: ``correct``, ``wrong`` or ``no_answer`` (it knows no hedges)."""
    reading = read_answer(question, reply, mode)
    if reading.value is None:
        return Verdict(False, "no_answer", None, reading.source)
    correct, error = answers_agree(question, reading.value, tolerance=tolerance)
    return Verdict(correct, "correct" if correct else "wrong", reading.value, reading.source, error)


def grade_with(
    protocol: Protocol,
    question: Question,
    reply: str,
    mode: str,
    *,
    tolerance: float | None = None,
) -> Verdict:
    """The verdict on ``reply`` under the named reader."""
    if protocol == "paper":
        return grade_paper(question, reply, mode, tolerance=tolerance)
    if protocol == "project":
        return grade(question, reply, tolerance=tolerance)
    raise ValueError(f"unknown QA protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")


__all__ = [
    "ANSWER_MARKER",
    "PROTOCOLS",
    "Protocol",
    "committed_segments",
    "extract_final_answer",
    "grade_paper",
    "grade_with",
    "paper_text",
    "phrase",
    "read_answer",
]
