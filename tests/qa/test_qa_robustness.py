"""No reply, however odd, makes the grader or the Code-CoT check raise; no scene, however odd,
makes the question generator raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spatialbabel import CLASSES, PALETTE_NAMES, Scene, SceneObject
from spatialbabel.geometry.relations import DEFAULT_MARGINS
from spatialbabel.qa import run_program
from suites.qa.codecot import reconstruct_answer
from suites.qa.grading import grade
from synth.cameras import scene_cameras
from synth.questions import SplitRules, generate_scene_questions
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


OBJECTS = st.lists(
    st.builds(
        lambda i, shape, color, position, rotation, size: SceneObject(
            f"o{i}", shape, position, rotation, size, color=color
        ),
        st.integers(0, 10**6),
        st.sampled_from([*CLASSES, "unknown"]),
        st.one_of(st.none(), st.sampled_from(PALETTE_NAMES)),
        st.tuples(*[st.floats(-4, 4)] * 3),
        st.tuples(*[st.sampled_from([0.0, 15.0, 90.0, -130.0])] * 3),
        st.tuples(*[st.sampled_from([0.0, 0.2, 0.7, 1.5])] * 3),
    ),
    max_size=12,
    unique_by=lambda o: o.id,
)


@settings(max_examples=150, deadline=None)
@given(OBJECTS, st.booleans())
def test_questions_come_from_any_scene_a_model_could_write(
    objects: list[SceneObject], stacked: bool
) -> None:
    # Parsed reconstructions (S3-FT's pseudo-ground truth): objects of unknown class or no
    # colour, repeated names, flat or tilted shapes, no parent facts; seen from the true camera.
    scene = Scene("parsed", tuple(objects), scene_cameras(1, 512))
    rules = SplitRules(supports=frozenset(CLASSES)) if stacked else SplitRules()
    for question in generate_scene_questions(scene, 0, rules=rules):
        answer = run_program(question.program, scene, margins=DEFAULT_MARGINS)
        assert answer == question.answer
        if not stacked:
            assert " above " not in question.question and " below " not in question.question
