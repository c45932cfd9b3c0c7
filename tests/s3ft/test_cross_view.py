"""Cross-viewpoint records: every record marked view-invariant is copied to every view, and its
answer, recomputed from each view's camera, is unchanged (the issue's test)."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from s3ft.language import describe, plain_answer, question_is_view_invariant
from s3ft.pseudo import PseudoTruth
from s3ft.records import Record, scene_records
from s3ft.tasks import View, answer_text, task
from spatialbabel import Scene
from spatialbabel.geometry.relations import DEFAULT_MARGINS
from spatialbabel.qa import AmbiguousProgram, ProgramError, Question, run_program
from synth.cameras import scene_cameras
from synth.questions import generate_scene_questions
from tests.qa.scene_factory import FACTORY_RULES, random_scene

VIEWS = 4
SEEDS = range(40, 60)


def scene_of(seed: int) -> Scene:
    return replace(random_scene(seed), cameras=scene_cameras(VIEWS, 512))


def build(scene: Scene) -> tuple[list[Record], dict[str, Question]]:
    pseudo = PseudoTruth(scene, "const scene = new THREE.Scene();")
    records = scene_records(
        pseudo, image_of=lambda v: f"images/{v}.png", views=range(VIEWS), rules=FACTORY_RULES
    )
    questions = {q.question_id: q for q in generate_scene_questions(scene, 42, rules=FACTORY_RULES)}
    return records, questions


def answer_from(record: Record, scene: Scene, view: int, questions: dict[str, Question]) -> str:
    """The record's answer as the given view's camera sees the scene, recomputed from scratch."""
    if record.task.startswith("qa_"):
        question = questions[record.record_id.rsplit("/", 1)[1]]
        try:
            answer = run_program(
                question.program, scene, margins=DEFAULT_MARGINS, camera=scene.cameras[view]
            )
        except AmbiguousProgram:
            return "<ambiguous from this view>"
        except ProgramError as error:  # e.g. a name no longer singles out one object
            return f"<no answer from this view: {error}>"
        return plain_answer(replace(question, answer=answer))
    if record.task == "description":
        return describe(View(scene, view))
    return answer_text(task(record.task).answer(View(scene, view)))


@pytest.mark.parametrize("seed", SEEDS)
def test_invariant_records_are_unchanged_from_every_view(seed: int) -> None:
    scene = scene_of(seed)
    records, questions = build(scene)
    front = [r for r in records if r.view == "front"]
    invariant = [r for r in front if r.view_invariant]
    assert {r.task for r in invariant} >= {"count", "classes", "positions_3d", "description"}
    for record in invariant:
        for view in range(VIEWS):
            assert answer_from(record, scene, view, questions) == record.answer, (
                record.record_id,
                view,
            )
    # Each invariant record is on every view's image, with the same answer; nothing else is.
    for view, camera in enumerate(scene.cameras[1:], start=1):
        copies = [r for r in records if r.view == camera.name]
        assert [r.answer for r in copies] == [r.answer for r in invariant]
        assert [r.task for r in copies] == [r.task for r in invariant]
        assert all(r.image == f"images/{view}.png" and r.view_invariant for r in copies)


def test_the_check_can_fail_view_dependent_answers_change() -> None:
    changed = 0
    for seed in SEEDS:
        scene = scene_of(seed)
        records, questions = build(scene)
        for record in records:
            if record.view != "front" or record.view_invariant or record.task == "code":
                continue
            if record.task.startswith("code_"):
                continue
            if any(
                answer_from(record, scene, v, questions) != record.answer for v in range(1, VIEWS)
            ):
                changed += 1
    assert changed > 0


def test_invariance_follows_the_program() -> None:
    kinds: dict[bool, set[str]] = {True: set(), False: set()}
    for seed in SEEDS:
        for question in generate_scene_questions(scene_of(seed), 42, rules=FACTORY_RULES):
            kinds[question_is_view_invariant(question)].add(f"{question.category}/{question.kind}")
    assert {"relationship/horizontal", "relationship/depth", "comparison/closer"} <= kinds[False]
    assert {"counting/color", "comparison/larger"} <= kinds[True]
    assert "relationship/vertical" in kinds[True] or "existence/relational" in kinds[True]


@pytest.mark.parametrize("view", range(VIEWS))
def test_each_views_hint_describes_the_axes_as_its_camera_sees_them(view: int) -> None:
    scene = scene_of(40)
    camera = scene.cameras[view]
    hint = View(scene, view).frame_hint
    said = dict(re.findall(r"\+([XZ]) points ([a-z ]+?)(?:,|\.| in the image)", hint))
    origin = np.zeros(3)
    (u0, _), depth0 = camera.project(origin)[0][0], camera.project(origin)[1][0]
    for axis, k in (("X", 0), ("Z", 2)):
        tip = np.zeros(3)
        tip[k] = 1.0
        (u, _), depth = camera.project(tip)[0][0], camera.project(tip)[1][0]
        moves = {
            "right": u - u0,
            "left": u0 - u,
            "toward the camera": depth0 - depth,
            "away from the camera": depth - depth0,
        }
        assert max(moves, key=lambda m: moves[m]) == said[axis], (camera.name, axis, hint)
    assert f"The camera is at ({camera.position[0]:.2f}" in hint.replace("-0.00", "0.00")
