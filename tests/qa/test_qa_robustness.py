"""No reply, however odd, makes the grader or the Code-CoT check raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.qa_codecot import reconstruct_answer
from scoring.qa_grading import grade
from tests.qa.scene_factory import random_scene
from tests.qa.test_qa_grading_table import ABOVE, CLOSER, COUNT, EXISTS_YES, LARGER, LEFT, LOCATE

QUESTIONS = (COUNT, EXISTS_YES, LOCATE, LEFT, ABOVE, LARGER, CLOSER)
PIECES = st.sampled_from(
    ["Final answer:", "**", "```", "```json\n", "\n", "\n\n", "yes", "no", "left", "right", "3", "-1.5", "the red cube",
     "the blue sphere", "smaller", "not", "(", ")", "\\boxed{", "}", "or", "Answer:", "Total:", "one", "#", "> ", "- "]
)  # fmt: skip
REPLIES = st.one_of(
    st.text(max_size=300),
    st.lists(PIECES, max_size=40).map(" ".join),
    st.lists(PIECES, max_size=40).map("".join),
)
TRUTH = random_scene(4)


@settings(max_examples=300, deadline=None)
@given(REPLIES)
def test_grading_never_raises(reply: str) -> None:
    for question in QUESTIONS:
        verdict = grade(question, reply)
        assert verdict.status in ("correct", "wrong", "no_answer", "hedged")
        assert verdict.correct == (verdict.status == "correct")


@settings(max_examples=100, deadline=None)
@given(REPLIES)
def test_the_reconstruction_check_never_raises(reply: str) -> None:
    for question in (COUNT, LOCATE, LEFT):
        result = reconstruct_answer(question, reply, "json", TRUTH)
        assert result.parsed or result.reason
