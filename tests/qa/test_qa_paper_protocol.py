"""The paper's QA reader (``score-qa --protocol paper``) held to its appendix's wording, rule by
rule, and set beside the project's reader where the two part on purpose."""

from __future__ import annotations

from typing import Any

import pytest

from spatialbabel.qa import QAFormatError
from suites.qa.grading import grade
from suites.qa.paper_protocol import (
    committed_segments,
    extract_final_answer,
    grade_paper,
    grade_with,
    read_answer,
)
from tests.qa.test_qa_grading_table import COUNT, EXISTS_YES, _obj, _question, _steps_pair

CUBE, SPHERE = _obj("obj0", "red", "cube"), _obj("obj1", "blue", "sphere")
LEFT = _question(
    "relationship",
    "horizontal",
    "left",
    _steps_pair("query_relation", "horizontal", CUBE, SPHERE),
    choices=("right", "left"),
    objects=(CUBE, SPHERE),
)
LARGER = _question(
    "comparison",
    "larger",
    "the red cube",
    _steps_pair("compare", "larger", CUBE, SPHERE),
    choices=("the blue sphere", "the red cube"),
    objects=(CUBE, SPHERE),
)
WHERE = _question(
    "localization",
    "position",
    [1.0, 0.5, -2.0],
    [{"op": "scene", "inputs": []}, {"op": "position", "inputs": [0]}],
    tolerance=0.1,
)
FENCE = "`" * 3


# "counting and existence from an answer marker or the last integer / yes-no token"
@pytest.mark.parametrize(
    ("reply", "read"),
    [
        ("Final answer: 3", 3),
        ("Answer: 3", 3),
        ("Answer: 3 (2 cubes and 1 sphere)", 3),  # the first integer after the marker
        ("I see 2 cubes and 1 sphere, so 3", 3),  # no marker: the last integer
        ("Final answer: 2\nOn second thought, Final answer: 3", 3),  # the last marker
        ("There are three red objects.", None),  # the paper reads integers, not words
        ("3 or 4", 4),  # no hedges: the last integer
    ],
)
def test_counting_reads_the_marker_else_the_last_integer(reply: str, read: int | None) -> None:
    assert read_answer(COUNT, reply, "direct").value == read


@pytest.mark.parametrize(
    ("reply", "read"),
    [
        ("Final answer: yes", "yes"),
        ("Answer: No, there is none.", "no"),
        ("No cone is hidden, but yes, there is one", "yes"),  # no marker: the last token
        ("Maybe.", None),
    ],
)
def test_existence_reads_the_marker_else_the_last_yes_no(reply: str, read: str | None) -> None:
    assert read_answer(EXISTS_YES, reply, "nl_cot").value == read


# "relationship and comparison by substring-matching the true phrase in the trailing committed
# segment (the last 'Final answer:'/'Answer:' line, or the last one or two non-empty lines)"
def test_the_committed_segment_is_the_last_marker_line_else_the_last_one_or_two_lines() -> None:
    text = "Step 1.\nFinal answer: left\nThat is all.\n"
    assert committed_segments(text) == ["Final answer: left"]
    assert committed_segments("a\n\nb\nc\n") == ["c", "b\nc"]
    assert committed_segments("only\n") == ["only"]


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("Final answer: left", "correct"),
        ("Final answer: Left.", "correct"),
        ("Thinking about the right side...\nFinal answer: left\nI hope this helps.", "correct"),
        ("Final answer: right", "wrong"),
        ("It is on the left.\nThat is my reading.", "correct"),  # the last two lines
        ("It is on the left.\nThen\nnothing more", "no_answer"),  # three lines back
        ("Final answer: not left", "correct"),  # a substring, negated or not
        ("Final answer: left or right", "correct"),
    ],
)
def test_relationship_substring_matches_the_true_phrase(reply: str, status: str) -> None:
    assert grade_paper(LEFT, reply, "direct").status == status


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("Final answer: the red cube", "correct"),
        ("Final answer: The red cube is larger.", "correct"),
        ("Answer: red cube", "correct"),  # the phrase without its article
        ("Final answer: the blue sphere", "wrong"),
        ("The blue sphere is smaller than the red cube.", "correct"),
    ],
)
def test_comparison_substring_matches_the_true_phrase(reply: str, status: str) -> None:
    assert grade_paper(LARGER, reply, "direct").status == status


# "localization from the first three numbers of the reply"
@pytest.mark.parametrize(
    ("reply", "read"),
    [
        ("Final answer: (1.0, 0.5, -2.0)", [1.0, 0.5, -2.0]),
        ("x = 1, y = 0.5, z = -2", [1.0, 0.5, -2.0]),
        ("Of the 3 objects, the cube is at (1.0, 0.5, -2.0).", [3.0, 1.0, 0.5]),
        ("Final answer: (1.0, 0.5)", None),
    ],
)
def test_localization_reads_the_first_three_numbers(reply: str, read: list[float] | None) -> None:
    assert read_answer(WHERE, reply, "direct").value == read


# "for Code-CoT it first applies a markdown-tolerant 'Final answer:' extractor"
@pytest.mark.parametrize(
    ("reply", "found"),
    [
        ("**Final Answer:** 3", "3"),
        ("*Final answer*: 3", "3"),
        ("## Final answer\n\n3", "3"),
        ("__Final answer:__ `3`", "3"),
        ("> Final answer - 3", "3"),
        ("Final answer: 2\n**Final answer:** 3", "3"),
        ("No marker here, 3", None),
    ],
)
def test_the_code_cot_extractor_tolerates_markdown(reply: str, found: str | None) -> None:
    assert extract_final_answer(reply) == found


def test_code_cot_replies_are_read_after_the_extractor_and_others_are_not() -> None:
    reply = f"{FENCE}python\ncube.location = (9, 9, 9)\n{FENCE}\n## Final answer\n(1.0, 0.5, -2.0)"
    assert read_answer(WHERE, reply, "code_cot:blender").value == [1.0, 0.5, -2.0]
    # Without the extractor the code's numbers come first.
    assert read_answer(WHERE, reply, "direct").value == [9.0, 9.0, 9.0]
    # A Code-CoT reply without a Final answer line is read whole.
    assert read_answer(COUNT, f"{FENCE}python\nn = 7\n{FENCE}\nSo 3", "code_cot:blender").value == 3


@pytest.mark.parametrize(
    ("question", "reply", "project", "paper"),
    [
        # A hedge is no answer to the project, the paper reads a token.
        (COUNT, "Final answer: 3 or 4", "hedged", "correct"),
        # A negated option does not count for the project; a substring is a substring.
        (LEFT, "Final answer: not left, it is right", "wrong", "correct"),
        # The reference object as subject: the project turns the relation round.
        (LEFT, "The blue sphere is to the right of the red cube.", "correct", "wrong"),
        # Number words are counts to the project only.
        (COUNT, "Final answer: three", "correct", "no_answer"),
        # The project reads localization from the committed segment, the paper from the start.
        (WHERE, "Of 3 objects...\nFinal answer: (1.0, 0.5, -2.0)", "correct", "wrong"),
    ],
)
def test_where_the_two_readers_part(question: Any, reply: str, project: str, paper: str) -> None:
    assert grade(question, reply).status == project
    assert grade_with("project", question, reply, "direct").status == project
    assert grade_with("paper", question, reply, "direct").status == paper


def test_a_bad_protocol_or_mode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown QA protocol 'papers'"):
        grade_with("papers", COUNT, "3", "direct")  # type: ignore[arg-type]
    with pytest.raises(QAFormatError, match="unknown mode"):
        grade_paper(COUNT, "3", "codecot")
