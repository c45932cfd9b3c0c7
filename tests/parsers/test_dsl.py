"""The scene DSL parser: golden replies, tolerance with every repair reported, line:column
errors, no raw Lark tree left, round trips through the writer."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Tree

from parsers import parse, write
from parsers.dsl import Atom, Form, _parser, _ToForms, read_forms
from parsers.result import Diagnostics
from spatialbabel import CLASSES, PALETTE, Scene, SceneObject

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dsl"
CASES = sorted(p.stem for p in FIXTURES.glob("*.txt"))

REQUIRED_CODES: dict[str, set[str]] = {
    "03_no_outer_scene": {"dsl.no_scene", "extract.no_fence"},
    "05_unknown_attributes": {"dsl.unknown_attribute"},
    "06_synonyms": {"dsl.attribute_alias", "dsl.class_synonym"},
    "07_cut_off": {"dsl.truncated", "extract.unclosed_fence"},
    "09_uniform_scale_and_defaults": {"dsl.uniform_scale"},
    "11_two_blocks_choose": {"extract.chosen"},
    "12_stray_paren_and_comments": {"dsl.stray_paren"},
    "13_name_without_shape": {"dsl.class_from_name", "dsl.missing_shape"},
    "14_garbage": {"dsl.syntax"},
    "16_camera_and_extra_forms": {"dsl.ignored_form"},
    "17_group_with_offset": {"dsl.group", "dsl.unknown_attribute", "dsl.unknown_form"},
    "18_cut_off_closed_attributes": {"dsl.truncated", "extract.unclosed_fence"},
    "19_nl_cot_unfenced_code_like": {"extract.no_fence", "extract.prose_skipped"},
    "20_split_over_blocks": {"extract.joined"},
    "21_corrected_entity": {"extract.chosen"},
    "22_ground_and_lights": {"dsl.ground", "dsl.scene_element", "dsl.ignored_form"},
}


def test_enough_fixtures() -> None:
    assert len(CASES) >= 15


@pytest.mark.parametrize("case", CASES)
def test_golden_reply(case: str) -> None:
    result = parse((FIXTURES / f"{case}.txt").read_text(encoding="utf-8"), "dsl", scene_id=case)
    assert result.scene == Scene.load(FIXTURES / f"{case}.expected.json")
    codes = {d.code for d in result.diagnostics}
    assert REQUIRED_CODES.get(case, set()) <= codes, codes
    assert "parse.internal" not in codes


def test_canonical_reply_reads_exactly() -> None:
    result = parse((FIXTURES / "01_canonical.txt").read_text(), "dsl")
    cube, ball = result.scene.objects
    assert (cube.id, cube.class_name, cube.color, cube.position, cube.rotation, cube.size) == (
        "red_cube",
        "cube",
        "red",
        (0, 0.5, 0),
        (0, 45, 0),
        (1, 1, 1),
    )
    assert (ball.id, ball.class_name, ball.color, ball.position, ball.size) == (
        "ball",
        "sphere",
        "blue",
        (1.2, 0.3, -0.5),
        (0.6, 0.6, 0.6),
    )
    assert [d for d in result.diagnostics if d.severity != "info"] == []


def test_unknown_attribute_is_reported_with_line_and_column() -> None:
    result = parse((FIXTURES / "05_unknown_attributes.txt").read_text(), "dsl")
    unknown = [d for d in result.diagnostics if d.code == "dsl.unknown_attribute"]
    assert [(d.line, d.column) for d in unknown] == [(3, 82), (3, 99), (4, 82)]
    assert result.scene.objects[0].color == "white"


def test_syntax_error_gives_line_and_column_in_the_reply() -> None:
    result = parse(
        'Here it is:\n\n```\n(scene\n  (entity a (shape cube) (color "red)))\n```\n', "dsl"
    )
    error = next(d for d in result.diagnostics if d.code == "dsl.syntax")
    assert (error.line, error.column) == (5, 33)
    assert not result.ok


def test_cut_off_keeps_complete_entities() -> None:
    result = parse((FIXTURES / "07_cut_off.txt").read_text(), "dsl")
    assert [o.id for o in result.scene.objects] == ["first", "second"]
    notes = [d for d in result.diagnostics if d.code == "dsl.truncated"]
    assert {d.line for d in notes} == {5, 6}


def test_no_raw_tree_survives_the_transformer() -> None:
    text = (
        (FIXTURES / "15_many_objects_rotations.txt")
        .read_text()
        .split("```")[1]
        .removeprefix("sexp")
    )
    forms = _ToForms(len(text)).transform(_parser().parse(text))
    assert isinstance(forms, list)

    def walk(item: object) -> None:
        assert not isinstance(item, Tree)
        assert isinstance(item, Atom | Form)
        if isinstance(item, Form):
            for child in item.items:
                walk(child)

    for form in forms:
        walk(form)
    assert read_forms(text, Diagnostics()) == forms


names = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)
finite = st.floats(-20, 20, allow_nan=False, allow_infinity=False)
sizes = st.floats(0.05, 2.0, allow_nan=False)


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    count = draw(st.integers(1, 6))
    ids = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    objects = [
        SceneObject(
            ids[i],
            draw(st.sampled_from(CLASSES)),
            draw(st.tuples(finite, finite, finite)),
            draw(st.tuples(finite, finite, finite)),
            draw(st.tuples(sizes, sizes, sizes)),
            color=draw(st.sampled_from(list(PALETTE))),
        )
        for i in range(count)
    ]
    return Scene("written", tuple(objects))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_written_scenes_read_back_exactly(scene: Scene) -> None:
    result = parse(write(scene, "dsl"), "dsl", scene_id="written")
    assert result.scene == scene


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="()[];,\"' \n.-0123456789abcdefghijklmnopqrstuvwxyz#", max_size=300))
def test_random_text_never_raises(text: str) -> None:
    result = parse(text, "dsl")
    assert "parse.internal" not in {d.code for d in result.diagnostics}


def test_groups_nest_entities_and_add_their_offsets() -> None:
    result = parse((FIXTURES / "17_group_with_offset.txt").read_text(), "dsl")
    by_id = {o.id: o for o in result.scene.objects}
    assert list(by_id) == ["base", "bottom", "cap", "lone"]
    assert by_id["bottom"].position == (1.5, 0.4, -0.5)
    # Nested groups add up: (1.5, 0, -0.5) + (0, 0.8, 0) + the cap's own (0, 0.35, 0).
    assert by_id["cap"].position == pytest.approx((1.5, 1.15, -0.5))
    assert by_id["lone"].position == (0.0, 0.3, 1.5)
    rotation = next(d for d in result.diagnostics if d.code == "dsl.unknown_attribute")
    assert "group extras" in rotation.message and rotation.line == 11


def test_group_is_a_grammar_rule_and_group_elsewhere_is_a_symbol() -> None:
    text = "(scene (group g (offset 1 0 0) (entity group (shape cube) (position 0 0.5 0))))"
    forms = read_forms(text, Diagnostics())
    assert forms is not None
    scene = forms[0]
    assert isinstance(scene, Form)
    group = scene.items[1]
    assert isinstance(group, Form) and group.head == "group"
    entity = group.items[3]
    assert isinstance(entity, Form) and entity.items[1] == Atom("group", "symbol", 1, 40)
    (obj,) = parse(text, "dsl").scene.objects
    assert (obj.id, obj.position) == ("group", (1.0, 0.5, 0.0))


def test_groups_nested_too_deep_are_not_read() -> None:
    depth = 40
    text = "(scene " + "(group " * depth + "(entity a (shape cube))" + ")" * depth + ")"
    result = parse(text, "dsl")
    assert not result.scene.objects
    assert "dsl.too_deep" in {d.code for d in result.diagnostics}


def test_entity_cut_off_after_a_complete_attribute_is_kept() -> None:
    result = parse((FIXTURES / "18_cut_off_closed_attributes.txt").read_text(), "dsl")
    ring = result.scene.get_object("yellow_ring")
    assert (ring.class_name, ring.position, ring.size) == ("torus", (0, 0.1, -1.2), (1.2, 0.3, 1.2))
    kept = [d for d in result.diagnostics if d.code == "dsl.truncated" and "kept" in d.message]
    assert [d.line for d in kept] == [5]


@pytest.mark.parametrize(
    ("tail", "kept"),
    [
        ("(entity c (shape cone) (position 1 0.5 0)", True),
        ("(entity c (shape cone) (position 1 0.5 0) ", True),
        ("(entity c (shape cone) (position 1 0.5 0) (sca", False),
        ("(entity c (shape cone) (position 1 0.5", False),
        ("(entity c", False),
        ("(group g (offset 1 0 0) (entity c (shape cone) (position 1 0.5 0))", True),
    ],
)
def test_cut_entity_is_kept_only_when_its_attributes_are_closed(tail: str, kept: bool) -> None:
    text = f"(scene\n  (entity a (shape cube) (position 0 0.5 0))\n  {tail}"
    ids = [o.id for o in parse(text, "dsl").scene.objects]
    assert ids == (["a", "c"] if kept else ["a"])


def test_ground_lights_and_cameras_are_not_objects() -> None:
    result = parse((FIXTURES / "22_ground_and_lights.txt").read_text(), "dsl")
    assert [o.id for o in result.scene.objects] == ["box", "ring"]
    codes = [d.code for d in result.diagnostics]
    assert codes.count("dsl.scene_element") == 2 and codes.count("dsl.ground") == 1
    assert "dsl.missing_shape" not in codes
