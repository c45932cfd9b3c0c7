"""Question generation: every stored answer decided independently from the prompt's context
and the ground truth, no question within its margins, determinism, balance, and the generator's
own layouts."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from spatialbabel import Scene
from spatialbabel.geometry.relations import DEFAULT_MARGINS
from spatialbabel.qa import CATEGORIES, Question, run_program
from synth.questions import QUOTAS, SplitRules, generate_scene_questions, generate_split_questions
from tests.qa.answerability import PHRASES, assert_decided_as_stored
from tests.qa.scene_factory import FACTORY_RULES, generator_scenes, random_scene

SEEDS = range(120)


@pytest.fixture(scope="module")
def factory_scenes() -> list[Scene]:
    return [random_scene(seed) for seed in SEEDS]


@pytest.fixture(scope="module")
def generated(factory_scenes: list[Scene]) -> list[tuple[Scene, list[dict[str, object]]]]:
    return [
        (scene, generate_split_questions([scene], seed=11, rules=FACTORY_RULES))
        for scene in factory_scenes
    ]


def test_every_stored_answer_matches_an_independent_reading(
    generated: list[tuple[Scene, list[dict[str, object]]]],
) -> None:
    for scene, records in generated:
        assert_decided_as_stored(records, [scene])
    # Every category, and the relational forms, were exercised.
    assert {r["category"] for _, records in generated for r in records} == set(CATEGORIES)
    kinds = Counter((r["category"], r["kind"]) for _, records in generated for r in records)
    assert kinds[("relationship", "vertical")] > 0 and kinds[("existence", "relational")] > 0
    # Some objects shared their colour and shape and were named through a relation.
    relational_names = [
        r["objects"][0]["ref"]  # type: ignore[index]
        for _, records in generated
        for r in records
        if r["category"] == "localization"
        and re.search(rf" ({'|'.join(PHRASES)}) the ", str(r["objects"][0]["ref"]))  # type: ignore[index]
    ]
    assert relational_names


def test_generator_layouts_get_their_quota() -> None:
    for stack_prob in (0.0, 0.3):
        scenes = generator_scenes(40, stack_prob=stack_prob)
        records = generate_split_questions(
            scenes, seed=3, rules=SplitRules.of_generator(stack_prob)
        )
        per_scene = Counter(str(r["scene_id"]) for r in records)
        assert all(per_scene[s.scene_id] == sum(QUOTAS.values()) for s in scenes), stack_prob


def test_answers_are_stable_when_objects_move_less_than_the_margins(
    generated: list[tuple[Scene, list[dict[str, object]]]],
) -> None:
    # No question sits near a boundary: shifting every object by up to 5 cm along the ground
    # (an eighth of the smallest margin) leaves every answer read by sign alone unchanged.
    rng = np.random.default_rng(0)
    for scene, records in generated[:60]:
        for _ in range(3):
            moved = scene.with_objects(
                [
                    replace(
                        o,
                        position=(
                            o.position[0] + rng.uniform(-0.05, 0.05),
                            o.position[1],
                            o.position[2] + rng.uniform(-0.05, 0.05),
                        ),
                    )
                    for o in scene.objects
                ]
            )
            for record in records:
                question = Question.from_dict(record)
                answer = run_program(question.program, moved)
                if question.category == "localization":
                    assert (
                        np.linalg.norm(np.subtract(answer, question.answer))
                        <= 0.05 * np.sqrt(2) + 1e-9
                    )
                else:
                    assert answer == question.answer, record


def test_the_plain_reading_agrees_with_the_strict_one_on_ground_truth(
    generated: list[tuple[Scene, list[dict[str, object]]]],
) -> None:
    for scene, records in generated:
        for record in records:
            question = Question.from_dict(record)
            assert run_program(question.program, scene) == question.answer
            assert run_program(question.program, scene, margins=DEFAULT_MARGINS) == question.answer


def test_same_seed_same_questions_and_independent_of_other_scenes(
    factory_scenes: list[Scene],
) -> None:
    rules = FACTORY_RULES
    whole = generate_split_questions(factory_scenes[:20], seed=5, rules=rules)
    again = generate_split_questions(factory_scenes[:20], seed=5, rules=rules)
    assert json.dumps(whole) == json.dumps(again)
    alone = generate_split_questions([factory_scenes[7]], seed=5, rules=rules)
    assert alone == [r for r in whole if r["scene_id"] == factory_scenes[7].scene_id]
    reordered = generate_split_questions(list(reversed(factory_scenes[:20])), seed=5, rules=rules)
    assert sorted(json.dumps(r) for r in reordered) == sorted(json.dumps(r) for r in whole)
    other = generate_split_questions(factory_scenes[:20], seed=6, rules=rules)
    assert other != whole


def test_question_ids_are_unique_and_records_round_trip(
    generated: list[tuple[Scene, list[dict[str, object]]]],
) -> None:
    records = [r for _, rs in generated for r in rs]
    assert len({r["question_id"] for r in records}) == len(records)
    for record in records:
        text = json.dumps(record, allow_nan=False)
        assert Question.from_dict(json.loads(text)).to_dict() == record
        assert record["schema_version"] == 1


def test_answers_are_balanced(factory_scenes: list[Scene]) -> None:
    records = generate_split_questions(factory_scenes, seed=1, rules=FACTORY_RULES)
    records += generate_split_questions(generator_scenes(100), seed=1)
    by_category: dict[str, list[dict[str, object]]] = {
        c: [r for r in records if r["category"] == c] for c in CATEGORIES
    }
    existence = [r["answer"] for r in by_category["existence"]]
    assert 0.45 <= existence.count("yes") / len(existence) <= 0.55
    for category in ("relationship", "comparison"):
        rows = by_category[category]
        first = sum(r["answer"] == r["choices"][0] for r in rows) / len(rows)  # type: ignore[index]
        assert 0.4 <= first <= 0.6, (category, first)
    for axis in ("horizontal", "depth"):
        answers = Counter(r["answer"] for r in by_category["relationship"] if r["kind"] == axis)
        assert len(answers) == 2 and min(answers.values()) / sum(answers.values()) >= 0.4, answers
    comparison_kinds = Counter(r["kind"] for r in by_category["comparison"])
    assert len(comparison_kinds) == 3 and min(comparison_kinds.values()) >= 0.2 * len(
        by_category["comparison"]
    )
    counts = Counter(r["answer"] for r in by_category["counting"])
    assert max(counts.values()) / sum(counts.values()) < 0.45, counts
    assert len(counts) >= 5


def test_scene_without_camera_is_refused() -> None:
    scene = replace(random_scene(1), cameras=())
    with pytest.raises(ValueError, match="no camera"):
        generate_scene_questions(scene, 0)


def test_tolerance_is_recorded_on_localization_questions(factory_scenes: list[Scene]) -> None:
    records = generate_split_questions(
        factory_scenes[:5], seed=0, localization_tolerance=0.25, rules=FACTORY_RULES
    )
    located = [r for r in records if r["category"] == "localization"]
    assert located and all(r["tolerance"] == 0.25 for r in located)
    assert all("tolerance" not in r for r in records if r["category"] != "localization")
