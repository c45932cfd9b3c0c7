"""The question program language and the camera-view relations it reads."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from spatialbabel import Camera, Scene, SceneObject
from spatialbabel.geometry.relations import (
    DEFAULT_MARGINS,
    UNIT_VOLUMES,
    Truth,
    measure,
    object_volume,
    relation_truth,
)
from spatialbabel.qa import (
    AmbiguousProgram,
    ProgramError,
    QAFormatError,
    Question,
    parse_mode,
    run_program,
)

FRONT = Camera.looking_at("front", (0.0, 7.778, 7.778), width=512, height=512, fov_y_deg=44.0)


def _mesh_volume(class_name: str) -> float:
    """Volume enclosed by the generator's tessellation (divergence theorem over fan triangles)."""
    from synth.meshes import unit_mesh

    mesh = unit_mesh(class_name)
    total = 0.0
    for face in mesh.faces:
        a = mesh.vertices[face[0]]
        for i in range(1, len(face) - 1):
            total += (
                float(np.dot(a, np.cross(mesh.vertices[face[i]], mesh.vertices[face[i + 1]]))) / 6.0
            )
    return total


@pytest.mark.parametrize("class_name", sorted(UNIT_VOLUMES))
def test_unit_volumes_match_the_rendered_meshes(class_name: str) -> None:
    # Tessellations are inscribed, so they hold slightly less than the exact shape.
    mesh = _mesh_volume(class_name)
    assert mesh == pytest.approx(UNIT_VOLUMES[class_name], rel=0.03)
    assert mesh <= UNIT_VOLUMES[class_name] + 1e-12


def test_volume_scales_with_size() -> None:
    torus = SceneObject("t", "torus", (0, 0, 0), size=(2.0, 0.5, 1.0))
    assert object_volume(torus) == pytest.approx(UNIT_VOLUMES["torus"] * 2.0 * 2.0 * 1.0)
    sphere = SceneObject("s", "sphere", (0, 0, 0), size=(1.0, 2.0, 3.0))
    assert object_volume(sphere) == pytest.approx(4 / 3 * math.pi * 0.5 * 1.0 * 1.5)


def _scene(*objects: SceneObject) -> Scene:
    return Scene("s", objects, (FRONT,))


def _find(color: str, shape: str) -> list[dict[str, Any]]:
    return [
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [0], "value": color},
        {"op": "filter_shape", "inputs": [1], "value": shape},
        {"op": "unique", "inputs": [2]},
    ]


def _pair(op: str, value: str, a: tuple[str, str], b: tuple[str, str]) -> list[dict[str, Any]]:
    first, second = _find(*a), _find(*b)
    for step in second:
        step["inputs"] = [i + 4 for i in step["inputs"]]
    return [*first, *second, {"op": op, "inputs": [3, 7], "value": value}]


RED_CUBE = SceneObject("a", "cube", (-1.5, 0.5, 0.0), color="red")
BLUE_SPHERE = SceneObject("b", "sphere", (1.0, 0.5, 0.0), color="blue")


def test_left_right_from_the_camera() -> None:
    scene = _scene(RED_CUBE, BLUE_SPHERE)
    program = _pair("query_relation", "horizontal", ("red", "cube"), ("blue", "sphere"))
    assert run_program(program, scene, margins=DEFAULT_MARGINS) == "left"
    swapped = _pair("query_relation", "horizontal", ("blue", "sphere"), ("red", "cube"))
    assert run_program(swapped, scene) == "right"
    # Seen from the other side of the scene the answer turns round.
    behind = Camera.looking_at("back", (0.0, 7.778, -7.778), width=512, height=512, fov_y_deg=44.0)
    assert run_program(program, scene, camera=behind) == "right"


def test_within_the_margins_is_ambiguous_on_ground_truth_but_answered_plainly() -> None:
    close = SceneObject("b", "sphere", (-1.3, 0.5, 0.0), color="blue")
    scene = _scene(RED_CUBE, close)
    program = _pair("query_relation", "horizontal", ("red", "cube"), ("blue", "sphere"))
    with pytest.raises(AmbiguousProgram):
        run_program(program, scene, margins=DEFAULT_MARGINS)
    assert run_program(program, scene) == "left"


def test_in_front_and_behind_follow_the_depth() -> None:
    near = SceneObject("a", "cube", (0.0, 0.5, 2.0), color="red")
    far = SceneObject("b", "sphere", (0.3, 0.5, -1.5), color="blue")
    program = _pair("query_relation", "depth", ("red", "cube"), ("blue", "sphere"))
    assert run_program(program, _scene(near, far), margins=DEFAULT_MARGINS) == "in front"


def test_above_needs_real_vertical_separation() -> None:
    base = SceneObject("b", "cube", (0.0, 0.5, 0.0), color="blue")
    stacked = SceneObject("a", "sphere", (0.0, 1.4, 0.0), size=(0.8, 0.8, 0.8), color="red")
    beside = SceneObject("a", "sphere", (2.0, 0.4, 0.0), size=(0.8, 0.8, 0.8), color="red")
    program = _pair("query_relation", "vertical", ("red", "sphere"), ("blue", "cube"))
    assert run_program(program, _scene(base, stacked), margins=DEFAULT_MARGINS) == "above"
    view = {o.id: measure(o, FRONT) for o in (base, beside)}
    assert relation_truth("above", view["a"], view["b"], DEFAULT_MARGINS) is Truth.FAILS
    assert relation_truth("below", view["a"], view["b"], DEFAULT_MARGINS) is Truth.FAILS
    with pytest.raises(AmbiguousProgram):
        run_program(program, _scene(base, beside), margins=DEFAULT_MARGINS)
    with pytest.raises(ProgramError, match="neither above nor below"):
        run_program(program, _scene(base, beside))


def test_compare_and_select() -> None:
    program = _pair("compare", "larger", ("red", "cube"), ("blue", "sphere"))
    program.append({"op": "select", "inputs": [8], "value": ["the red cube", "the blue sphere"]})
    small = SceneObject("b", "sphere", (1.0, 0.3, 0.0), size=(0.6, 0.6, 0.6), color="blue")
    assert run_program(program, _scene(RED_CUBE, small), margins=DEFAULT_MARGINS) == "the red cube"
    # A sphere of diameter 1.2 holds 90% of a unit cube's volume: within the 1.5 ratio margin.
    close = SceneObject("b", "sphere", (1.0, 0.6, 0.0), size=(1.2, 1.2, 1.2), color="blue")
    with pytest.raises(AmbiguousProgram):
        run_program(program, _scene(RED_CUBE, close), margins=DEFAULT_MARGINS)
    assert run_program(program, _scene(RED_CUBE, close)) == "the red cube"


def test_count_exists_relate() -> None:
    objects = [
        SceneObject(f"c{i}", "cube", (x, 0.5, 0.0), color="red")
        for i, x in enumerate((-2.0, 0.0, 2.0))
    ]
    anchor = SceneObject("s", "sphere", (1.0, 0.5, 0.0), color="blue")
    scene = _scene(*objects, anchor)
    count: list[dict[str, Any]] = [
        {"op": "scene", "inputs": []},
        {"op": "filter_shape", "inputs": [0], "value": "cube"},
        {"op": "count", "inputs": [1]},
    ]
    assert run_program(count, scene) == 3
    left_of = [
        *_find("blue", "sphere"),
        {"op": "scene", "inputs": []},
        {"op": "filter_shape", "inputs": [4], "value": "cube"},
        {"op": "relate", "inputs": [5, 3], "value": "left"},
    ]
    assert (
        run_program([*left_of, {"op": "count", "inputs": [6]}], scene, margins=DEFAULT_MARGINS) == 2
    )
    assert run_program([*left_of, {"op": "exists", "inputs": [6]}], scene) == "yes"
    with pytest.raises(ProgramError, match="exactly one object, found 2"):
        run_program([*left_of, {"op": "unique", "inputs": [6]}], scene)


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ([], "non-empty list"),
        ([{"op": "teleport", "inputs": []}], r"program\[0\]\.op: unknown op 'teleport'"),
        ([{"op": "scene", "inputs": []}, {"op": "count", "inputs": [1]}], r"program\[1\]\.inputs"),
        ([{"op": "scene", "inputs": [], "extra": 1}], r"program\[0\]: unknown field 'extra'"),
    ],
)
def test_malformed_programs_name_the_step(program: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(QAFormatError, match=message):
        run_program(program, _scene(RED_CUBE))


def test_programs_that_cannot_answer() -> None:
    with pytest.raises(ProgramError, match="ends in objects"):
        run_program([{"op": "scene", "inputs": []}], _scene(RED_CUBE))
    with pytest.raises(ProgramError, match="unknown colour"):
        run_program(
            [
                {"op": "scene", "inputs": []},
                {"op": "filter_color", "inputs": [0], "value": "mauve"},
                {"op": "count", "inputs": [1]},
            ],
            _scene(RED_CUBE),
        )
    with pytest.raises(ProgramError, match="no camera"):
        run_program(
            _find("red", "cube") + [{"op": "position", "inputs": [3]}], Scene("s", (RED_CUBE,))
        )
    with pytest.raises(ProgramError, match="expected one object"):
        run_program(
            [{"op": "scene", "inputs": []}, {"op": "position", "inputs": [0]}], _scene(RED_CUBE)
        )


def test_parse_mode() -> None:
    assert parse_mode("direct") == ("direct", None)
    assert parse_mode("nl_cot") == ("nl_cot", None)
    assert parse_mode("code_cot:blender") == ("code_cot", "blender")
    for bad in ("code_cot", "code_cot:cobol", "direct:json", "cot", ""):
        with pytest.raises(QAFormatError):
            parse_mode(bad)


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "schema_version": 1,
        "question_id": "s-q00",
        "scene_id": "s",
        "category": "counting",
        "kind": "shape",
        "question": "How many cubes are there in the scene?",
        "answer": 2,
        "program": [{"op": "scene", "inputs": []}, {"op": "count", "inputs": [0]}],
    }
    record.update(changes)
    return {k: v for k, v in record.items() if v is not None}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"schema_version": 2}, "schema_version"),
        ({"answer": "two"}, "answer: not a valid counting answer"),
        ({"answer": True}, "answer"),
        ({"category": "colour"}, "category"),
        ({"question": None}, "question: is missing"),
        ({"colour": "red"}, "colour: unknown field"),
        ({"category": "localization", "answer": [1, 2, 3]}, "tolerance"),
        (
            {"category": "comparison", "answer": "the red cube", "choices": ["the red cube"]},
            "choices",
        ),
        ({"objects": [{"id": "a"}]}, r"objects\[0\]"),
    ],
)
def test_bad_question_records_name_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(QAFormatError, match=message):
        Question.from_dict(_record(**changes))


def test_good_record_round_trips() -> None:
    record = _record()
    question = Question.from_dict(record)
    assert question.to_dict() == {**record, "objects": [], "evidence": {}}
