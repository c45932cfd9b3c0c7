"""Questions over the generator's own splits, without and with stacking: no question turns on
a word the prompt leaves undefined, none is answered by the split's rules alone, and a careful
reader with the model's context decides every one of them as stored.

The splits are layouts as ``spatialbabel generate`` draws them (``synth.layout``), seen from its
frontal camera, with the rules it gives the question generator; only the visibility rule,
which needs Blender, is left out (tests/synth/test_stacked_split.py runs the whole generator).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from spatialbabel import Camera, Scene, SceneObject
from spatialbabel.geometry.relations import AXES
from spatialbabel.qa import Question
from synth.prompts import DEFINITIONS, qa_prompt
from synth.questions import SplitRules, generate_scene_questions, generate_split_questions
from tests.qa.answerability import (
    Undecidable,
    answer_from_context,
    assert_decided_as_stored,
    decide,
    read_context,
)
from tests.qa.scene_factory import generator_scenes

SCENES = 120
Split = tuple[float, list[Scene], list[dict[str, Any]]]


@pytest.fixture(scope="module", params=[0.0, 0.3], ids=["flat", "stacked"])
def split(request: pytest.FixtureRequest) -> Split:
    stack_prob = float(request.param)
    scenes = generator_scenes(SCENES, stack_prob=stack_prob)
    rules = SplitRules.of_generator(stack_prob)
    return stack_prob, scenes, generate_split_questions(scenes, seed=0, rules=rules)


def relation_asked(record: dict[str, Any]) -> str:
    """The relation a relational existence question asks about (the ``relate`` step that
    ``exists`` reads), else ''."""
    program = record["program"]
    last = program[-1]
    if last["op"] == "exists" and program[last["inputs"][0]]["op"] == "relate":
        return str(program[last["inputs"][0]]["value"])
    return ""


def form(record: dict[str, Any]) -> tuple[str, str, str]:
    """Category, kind and, for relational existence, the relation: what a reader could learn
    the answer of from the split's rules if it never changed."""
    return str(record["category"]), str(record["kind"]), relation_asked(record)


def answer_label(record: dict[str, Any]) -> str:
    if record["category"] == "comparison":
        return "first" if record["answer"] == record["choices"][0] else "second"
    return str(record["answer"])


def test_every_form_asked_has_both_answers(split: Split) -> None:
    stack_prob, _, records = split
    answers: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for record in records:
        if record["category"] != "localization":  # coordinates: no answer to balance
            answers[form(record)][answer_label(record)] += 1
    for (category, kind, relation), seen in answers.items():
        if category == "counting":
            expected = len(seen) >= 2
        elif category == "existence":
            expected = set(seen) == {"yes", "no"}
        elif category == "relationship":
            expected = set(seen) == set(AXES[kind])  # type: ignore[index]
        else:
            expected = set(seen) == {"first", "second"}
        assert expected, (stack_prob, category, kind, relation, dict(seen))
        if category in ("existence", "relationship") and sum(seen.values()) >= 20:
            # ... and neither answer is one a reader could bet on.
            assert min(seen.values()) >= 0.25 * sum(seen.values()), (kind, relation, seen)
    asked = set(answers)
    horizontal = {("relationship", "horizontal", ""), ("relationship", "depth", "")}
    assert horizontal <= asked
    for relation in ("left", "right", "in front", "behind"):
        assert ("existence", "relational", relation) in asked
    for kind in ("color", "shape", "color_shape"):
        assert ("counting", kind, "") in asked
    if stack_prob > 0:
        assert ("relationship", "vertical", "") in asked
        assert ("existence", "relational", "above") in asked
        assert ("existence", "relational", "below") in asked


def vertical_words(record: dict[str, Any]) -> list[str]:
    """Every place a record uses above or below: its words, its programs, its names."""
    found = [w for w in ("above", "below") if f" {w} " in f" {record['question']} "]
    for step in record["program"]:
        if step.get("value") in ("above", "below", "vertical"):
            found.append(f"{step['op']}:{step['value']}")
    return found


def test_vertical_relations_only_where_objects_stack(split: Split) -> None:
    stack_prob, scenes, records = split
    used = [r for r in records if vertical_words(r)]
    if stack_prob == 0:
        assert not any(o.parent for s in scenes for o in s.objects)
        assert used == [], used[:3]
    else:
        assert sum(o.parent is not None for s in scenes for o in s.objects) >= 0.05 * sum(
            len(s.objects) for s in scenes
        )
        assert len(used) >= 20


def test_no_existence_question_about_a_relation_that_cannot_hold(split: Split) -> None:
    stack_prob, scenes, records = split
    # What carries what in this split, from its ground truth: which classes ever hold another.
    carriers = {s.get_object(o.parent).class_name for s in scenes for o in s.objects if o.parent}
    assert carriers == ({"cube", "cylinder"} if stack_prob else set())
    by_id = {s.scene_id: s for s in scenes}
    for record in records:
        relation = relation_asked(record)
        if relation not in ("above", "below"):
            continue
        scene = by_id[record["scene_id"]]
        shape = record["program"][1]["value"]  # filter_shape of the objects asked about
        anchor = scene.get_object(record["objects"][0]["id"])
        carrier = anchor.class_name if relation == "above" else shape
        assert carrier in carriers, record["question"]


def test_the_reader_decides_every_stored_answer_from_the_prompt(split: Split) -> None:
    _, scenes, records = split
    assert_decided_as_stored(records, scenes)


# --------------------------------------------------------------------------- the reader itself


def two_objects(second: SceneObject) -> Scene:
    first = SceneObject("obj0", "cube", (0.0, 0.4, 0.0), size=(0.8, 0.8, 0.8), color="red")
    camera = Camera.looking_at("front", (0.0, 7.778, 7.778), fov_y_deg=44.0)
    return Scene("pair", (first, second), (camera,))


def pair_record(axis: str, text: str, answer: str) -> dict[str, Any]:
    """A relationship question about the blue sphere and the red cube of ``two_objects``."""
    program: list[dict[str, Any]] = [
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [0], "value": "blue"},
        {"op": "filter_shape", "inputs": [1], "value": "sphere"},
        {"op": "unique", "inputs": [2]},
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [4], "value": "red"},
        {"op": "filter_shape", "inputs": [5], "value": "cube"},
        {"op": "unique", "inputs": [6]},
        {"op": "query_relation", "inputs": [3, 7], "value": axis},
    ]
    choices = AXES[axis]  # type: ignore[index]
    question = Question(
        "pair-q00", "pair", "relationship", axis, text, answer, tuple(program), choices=choices
    )
    return question.to_dict()


VERTICAL = ("vertical", "Is the blue sphere above or below the red cube?", "above")
HORIZONTAL = (
    "horizontal",
    "From the camera's point of view, is the blue sphere to the left or to the right of the red cube?",
    "left",
)


def test_the_reader_refuses_a_word_the_prompt_does_not_define() -> None:
    resting = SceneObject(
        "obj1", "sphere", (0.1, 1.1, 0.0), size=(0.6, 0.6, 0.6), color="blue", parent="obj0"
    )
    scene = two_objects(resting)
    record = pair_record(*VERTICAL)
    assert answer_from_context(record, scene)[0] == "above"
    prompt = qa_prompt(Question.from_dict(record), scene, "direct").text
    assert DEFINITIONS in prompt
    start = prompt.index('"A is above B"')
    without = prompt[:start] + prompt[prompt.index('"Larger"', start) :]
    with pytest.raises(Undecidable, match="does not define 'above'"):
        decide(record["question"], read_context(without), scene.objects)


def test_the_reader_finds_what_lies_within_its_margins_undecidable() -> None:
    # 4.5 cm over the cube's top: within 5 cm, but too near the boundary for a careful reader
    # (and for the generator's margins, so no question is asked about it).
    hovering = SceneObject("obj1", "sphere", (0.1, 1.145, 0.0), size=(0.6, 0.6, 0.6), color="blue")
    scene = two_objects(hovering)
    with pytest.raises(Undecidable, match="neither or both"):
        answer_from_context(pair_record(*VERTICAL), scene)
    rules = SplitRules(supports=frozenset({"cube"}))
    for seed in range(20):
        for question in generate_scene_questions(scene, seed, rules=rules):
            assert not vertical_words(question.to_dict()), question
    # Side by side, nearly level across the image: the reader cannot tell left from right.
    beside = SceneObject("obj1", "sphere", (0.03, 0.3, -1.5), size=(0.6, 0.6, 0.6), color="blue")
    scene = two_objects(beside)
    with pytest.raises(Undecidable, match="neither or both"):
        answer_from_context(pair_record(*HORIZONTAL), scene)
    for seed in range(20):
        assert all(q.kind != "horizontal" for q in generate_scene_questions(scene, seed))
