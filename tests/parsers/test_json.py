"""The canonical JSON parser: golden replies, every repair reported, round trips, fuzz."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import parse, write
from spatialbabel import CLASSES, PALETTE, Scene, SceneObject

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "json"
CASES = sorted(p.stem for p in FIXTURES.glob("*.txt"))

#: Diagnostics each case must raise: every repair is reported, nothing is fixed silently.
REQUIRED_CODES: dict[str, set[str]] = {
    "03_no_fence": {"extract.no_fence"},
    "04_trailing_commas": {"json.trailing_comma"},
    "05_comments": {"json.comment"},
    "06_single_quotes_unquoted_keys": {"json.single_quotes", "json.unquoted_key"},
    "07_cut_off": {"json.truncated", "extract.unclosed_fence"},
    "08_top_level_list": {"json.top_level_list"},
    "09_key_aliases": {"json.key_alias", "json.class_synonym"},
    "11_scalar_scale": {"json.scalar_scale"},
    "13_nested_scene_key": {"json.key_alias"},
    "14_two_blocks_choose": {"extract.chosen"},
    "15_python_literals": {
        "json.python_tuple",
        "json.python_literal",
        "json.single_quotes",
        "json.unknown_keys",
    },
    "16_radians_and_ids": {"json.radians"},
    "17_missing_fields": {"json.missing_color", "json.missing_scale", "json.class_from_name"},
    "18_width_height_depth": {"json.vector_dict", "json.radius"},
    "19_quaternion": {"json.quaternion"},
    "20_ground_plane_slab": {"build.ground_removed"},
    "21_no_json": {"json.no_json"},
    "22_garbage_json": {"json.syntax"},
    "23_unknown_class_and_words": {"json.unknown_class", "build.unknown_class"},
    "24_nl_cot_unfenced_list": {"extract.no_fence", "extract.prose_skipped"},
    "25_last_complete_block_not_largest": {"extract.chosen"},
    "26_split_over_blocks": {"extract.joined"},
    "27_replace_one_entity": {"extract.chosen"},
    "28_ground_light_camera_entries": {"json.ground", "json.scene_element"},
}


def test_enough_fixtures() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES)
def test_golden_reply(case: str) -> None:
    result = parse((FIXTURES / f"{case}.txt").read_text(encoding="utf-8"), "json", scene_id=case)
    expected = Scene.load(FIXTURES / f"{case}.expected.json")
    assert result.scene == expected
    codes = {d.code for d in result.diagnostics}
    assert REQUIRED_CODES.get(case, set()) <= codes, codes
    assert "parse.internal" not in codes
    if not expected.objects:
        assert not result.ok and result.failure_reason


def test_cut_off_reply_points_at_the_cut() -> None:
    result = parse((FIXTURES / "07_cut_off.txt").read_text(), "json")
    cut = next(d for d in result.diagnostics if d.code == "json.truncated")
    assert (cut.line, cut.severity) == (7, "warning")
    assert [o.class_name for o in result.scene.objects] == ["cube", "sphere", "torus"]


def test_syntax_error_gives_line_and_column_in_the_reply() -> None:
    result = parse((FIXTURES / "22_garbage_json.txt").read_text(), "json")
    error = next(d for d in result.diagnostics if d.code == "json.syntax")
    assert (error.line, error.column) == (2, 37)


finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
vec = st.tuples(finite, finite, finite)
positive = st.tuples(*(st.floats(0.01, 2.0) for _ in range(3)))


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    count = draw(st.integers(0, 8))
    objects = []
    for i in range(count):
        colour = draw(st.sampled_from([*PALETTE, None]))
        objects.append(
            SceneObject(
                id=draw(st.sampled_from([f"obj_{i}", f"{i}_thing", f"x{i}"])),
                class_name=draw(st.sampled_from(CLASSES)),
                position=draw(vec),
                rotation=draw(st.tuples(*(st.floats(-180, 180) for _ in range(3)))),
                size=draw(positive),
                color=colour,
            )
        )
    return Scene("roundtrip", tuple(objects))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_any_valid_scene_round_trips_through_canonical_json(scene: Scene) -> None:
    result = parse(write(scene, "json"), "json", scene_id="roundtrip")
    assert result.scene.objects == scene.objects


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.printable + "{}[]:,'\"éß→", max_size=400))
def test_arbitrary_text_never_raises(text: str) -> None:
    result = parse(text, "json")
    assert all(d.code != "parse.internal" for d in result.diagnostics)


@settings(max_examples=200, deadline=None)
@given(scenes(), st.data())
def test_mutated_replies_never_raise(scene: Scene, data: st.DataObject) -> None:
    text = write(scene, "json")
    cut = data.draw(st.integers(0, len(text)))
    insert = data.draw(st.text(alphabet="{}[],:'\"/*\n x0-.", max_size=5))
    mutated = text[:cut] + insert + text[cut + data.draw(st.integers(0, 3)) :]
    result = parse(mutated, "json")
    assert all(d.code != "parse.internal" for d in result.diagnostics)


def test_truncation_at_every_character_keeps_a_prefix_of_the_objects() -> None:
    scene = Scene(
        "s", tuple(SceneObject(f"o{i}", "cube", (i, 0.5, 0), color="red") for i in range(4))
    )
    text = write(scene, "json")
    for cut in range(len(text)):
        result = parse(text[:cut], "json")
        ids = [o.id for o in result.scene.objects]
        assert ids == [f"o{i}" for i in range(len(ids))], (cut, ids)
        assert all(d.code != "parse.internal" for d in result.diagnostics)


def test_deeply_nested_input_is_a_failure_not_a_crash() -> None:
    result = parse("[" * 5000 + "]" * 5000, "json")
    assert not result.ok
    result = parse('{"objects": ' + "[" * 100000, "json")
    assert not result.ok


def test_a_megabyte_reply_parses() -> None:
    obj = {
        "class_name": "cube",
        "color": "red",
        "position": [0, 0.5, 0],
        "rotation": [0, 0, 0],
        "scale": [1, 1, 1],
    }
    text = json.dumps({"objects": [obj] * 12000})
    assert len(text) > 1_000_000
    result = parse(text, "json")
    assert len(result.scene.objects) == 12000
