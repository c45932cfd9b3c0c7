"""The three.js parser on golden replies (expected scenes written by three itself, see
test_threejs_parity.py), on the semantics each fixture stresses, and on what it reports."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from parsers import parse
from parsers.threejs.geometries import read_geometry
from spatialbabel import Scene
from spatialbabel.geometry.bounds import world_aabb
from spatialbabel.palette import linear_to_srgb
from tests.engines.fixture_runs import compare_scenes, fixture_replies

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "threejs"
CASES = [p.stem for p in fixture_replies(FIXTURES)]

#: Diagnostics each case must raise: what was approximated or left out is always said.
REQUIRED_CODES: dict[str, set[str]] = {
    "02_html_importmap_cdn": {"threejs.html_page"},
    "03_html_classic_global": {"threejs.html_page"},
    "04_missing_imports": {"threejs.missing_import"},
    "13_cut_off_mid_line": {"js.syntax", "extract.unclosed_fence"},
    "17_set_rotation_from_euler": {"threejs.torus_proportions"},
    "18_pyramid_cone_torus": {"threejs.pyramid"},
    "19_ground_plane_and_slab": {"threejs.ground_plane", "build.ground_removed"},
    "20_two_blocks": {"extract.merged"},
    "27_animation_loop_only": {"threejs.approximated"},
    "30_cylinder_variants": {"threejs.segments", "threejs.square_prism"},
    "34_unfenced_code": {"extract.no_fence"},
    "36_default_materials_and_userdata": {"threejs.approximated"},
    "43_cone_theta_start": {"threejs.pyramid", "threejs.square_prism", "threejs.partial_shape"},
    "44_legacy_api_r110": {"threejs.legacy_api", "threejs.html_page"},
    "45_corrected_second_answer": {"extract.rewrite"},
    "47_nl_cot_unfenced_code_like_line": {"extract.no_fence", "extract.prose_skipped"},
    "48_z_up_ground_slab": {"build.ground_removed"},
    "49_redefined_helper": {"extract.replaced_definitions"},
    "50_buffer_geometry_from_primitive": {"threejs.custom_geometry"},
    "51_procedural_vertex_buffers": {"threejs.custom_geometry"},
    "52_helper_stub_todo": {"eval.helper_without_body"},
    "53_helpers_never_written": {"eval.helper_without_body", "extract.unclosed_fence"},
}


def read(case: str) -> str:
    return (FIXTURES / f"{case}.txt").read_text(encoding="utf-8")


def test_enough_fixtures() -> None:
    assert len(CASES) >= 30
    assert all((FIXTURES / f"{case}.expected.json").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES)
def test_golden_reply(case: str) -> None:
    result = parse(read(case), "threejs", scene_id=case)
    expected = Scene.load(FIXTURES / f"{case}.expected.json")
    assert compare_scenes(result.scene, expected) == []
    codes = {d.code for d in result.diagnostics}
    assert "parse.internal" not in codes
    assert REQUIRED_CODES.get(case, set()) <= codes, codes


def test_cut_off_reply_keeps_complete_statements_and_points_at_the_cut() -> None:
    result = parse(read("13_cut_off_mid_line"), "threejs")
    assert [o.class_name for o in result.scene.objects] == ["cube", "sphere", "torus", "cone"]
    cut = next(d for d in result.diagnostics if d.code == "js.syntax")
    assert (cut.line, cut.severity) == (33, "warning")
    assert "cut off" in cut.message


def test_float_colours_are_linear_and_hex_is_srgb() -> None:
    result = parse(read("11_linear_float_colors"), "threejs")
    red, blue, green, yellow = result.scene.objects
    assert red.rgb == pytest.approx(linear_to_srgb((0.8, 0.02, 0.02)))
    assert (red.color, blue.color, green.color, yellow.color) == ("red", "blue", "green", "yellow")
    assert yellow.rgb == pytest.approx((1.0, 0.86, 0.24))
    css = parse(read("10_color_notations"), "threejs").scene
    assert css.get_object("css_hex").rgb == pytest.approx((1.0, 0x45 / 255, 0.0))


def test_four_segment_cone_is_a_pyramid_turned_45_degrees() -> None:
    code = "```js\nconst s = new THREE.Scene();\ns.add(new THREE.Mesh(new THREE.ConeGeometry(1, 2, 4)));\n```"
    (pyramid,) = parse(code, "threejs").scene.objects
    assert pyramid.class_name == "pyramid"
    assert pyramid.size == pytest.approx((math.sqrt(2), 2.0, math.sqrt(2)))
    assert abs(pyramid.rotation[1]) == pytest.approx(45.0)
    lo, hi = world_aabb(pyramid)
    assert lo == pytest.approx([-1, -1, -1]) and hi == pytest.approx([1, 1, 1])


def test_default_torus_stands_in_the_xy_plane() -> None:
    code = "```js\nconst s = new THREE.Scene();\ns.add(new THREE.Mesh(new THREE.TorusGeometry()));\n```"
    (torus,) = parse(code, "threejs").scene.objects
    lo, hi = world_aabb(torus)
    assert hi - lo == pytest.approx([2.8, 2.8, 0.8])
    assert torus.size == pytest.approx((2.8, 0.8, 2.8))


def test_unknown_values_keep_the_object_and_are_reported() -> None:
    code = """```js
const scene = new THREE.Scene();
const m = new THREE.Mesh(new THREE.BoxGeometry(1, Math.random() + 1, 1), new THREE.MeshBasicMaterial({ color: 'red' }));
m.position.set(2, Math.random(), width);
scene.add(m);
```"""
    result = parse(code, "threejs")
    (box,) = result.scene.objects
    assert box.position == pytest.approx((2.0, 0.0, 0.0))
    assert box.size == pytest.approx((1.0, 1.0, 1.0))
    assert box.color == "red"
    messages = [
        d.message
        for d in result.diagnostics
        if d.code in ("threejs.unknown_value", "threejs.unknown_transform")
    ]
    assert any("Math.random()" in m for m in messages)
    assert any("width is not defined" in m for m in messages)


def test_assigning_position_is_refused_as_three_does() -> None:
    code = "```js\nconst s = new THREE.Scene();\nconst m = new THREE.Mesh(new THREE.BoxGeometry());\nm.position = new THREE.Vector3(1, 2, 3);\ns.add(m);\n```"
    result = parse(code, "threejs")
    assert result.scene.objects[0].position == (0.0, 0.0, 0.0)
    assert "threejs.readonly_property" in {d.code for d in result.diagnostics}


def test_objects_added_to_an_undefined_scene_are_kept() -> None:
    code = "```js\nconst m = new THREE.Mesh(new THREE.SphereGeometry(0.5));\nm.position.y = 1;\nscene.add(m);\n```"
    result = parse(code, "threejs")
    assert [o.class_name for o in result.scene.objects] == ["sphere"]
    assert "threejs.implicit_scene" in {d.code for d in result.diagnostics}


def test_mesh_never_added_is_left_out_and_said() -> None:
    code = "```js\nconst s = new THREE.Scene();\nconst a = new THREE.Mesh(new THREE.BoxGeometry());\nconst b = new THREE.Mesh(new THREE.BoxGeometry());\ns.add(a);\n```"
    result = parse(code, "threejs")
    assert len(result.scene.objects) == 1
    note = next(d for d in result.diagnostics if d.code == "threejs.not_in_scene")
    assert note.line == 4


def test_endless_loops_and_recursion_are_cut_and_reported() -> None:
    code = """```js
const scene = new THREE.Scene();
for (;;) { }
let n = 0;
for (let i = 0; i < 1e9; i++) { n += 1; }
function down(k) { return down(k + 1); }
down(0);
const m = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
m.position.x = n / 10000;
scene.add(m);
```"""
    result = parse(code, "threejs")
    codes = [d.code for d in result.diagnostics]
    assert codes.count("eval.loop_limit") == 2
    assert "eval.recursion_limit" in codes
    assert result.scene.objects[0].position[0] == pytest.approx(1.0)


def test_reply_without_code_is_a_failure_with_a_reason() -> None:
    result = parse("I cannot produce code for this image, sorry.", "threejs")
    assert not result.ok
    assert result.failure_reason is not None


def test_frames_are_canonical_for_threejs() -> None:
    code = "```js\nconst s = new THREE.Scene();\nconst m = new THREE.Mesh(new THREE.BoxGeometry(1, 2, 3));\nm.position.set(1, 2, -3);\ns.add(m);\n```"
    (box,) = parse(code, "threejs").scene.objects
    assert box.position == pytest.approx((1.0, 2.0, -3.0))
    assert np.allclose(box.size, (1, 2, 3))


@pytest.mark.parametrize(
    ("theta_start", "turn"),
    [
        (0.0, 45.0),
        (math.pi / 4, 0.0),
        (math.pi / 6, -15.0),
        (math.pi / 2, -45.0),
        (-math.pi / 4, 0.0),
    ],
)
def test_four_segment_cone_is_turned_by_theta_start(theta_start: float, turn: float) -> None:
    """three puts the first corner at thetaStart from +Z towards +X; a square has quarter-turn
    symmetry, so the turn is read modulo 90 degrees, in [-45, 45] (135 is -45, the same
    square; tests/parsers/test_threejs_parity.py
    holds the reading against three's vertices in fixture 43)."""
    reading = read_geometry(
        "ConeGeometry",
        {"radius": 1.0, "height": 1.0, "radialSegments": 4, "thetaStart": theta_start},
    )
    assert reading.class_name == "pyramid"
    linear = reading.unit_to_local[:3, :3]
    expected = np.diag([math.sqrt(2), 1.0, math.sqrt(2)])
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    rotation = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    assert np.allclose(linear, rotation @ expected)


def test_open_sectors_and_open_ends_of_cones_and_cylinders() -> None:
    half = read_geometry(
        "ConeGeometry", {"radius": 1.0, "height": 1.0, "radialSegments": 4, "thetaLength": math.pi}
    )
    # Four segments over half a turn are no square: read as the round cone around them.
    assert half.class_name == "cone"
    assert "threejs.partial_shape" in {code for _, code, _ in half.remarks}
    whole = read_geometry(
        "ConeGeometry",
        {"radius": 1.0, "height": 1.0, "radialSegments": 4, "thetaLength": -2 * math.pi},
    )
    assert whole.class_name == "pyramid"
    hollow = read_geometry("CylinderGeometry", {"openEnded": True})
    assert hollow.class_name == "cylinder"
    assert "threejs.open_ended" in {code for _, code, _ in hollow.remarks}


def test_names_of_three_before_r125() -> None:
    result = parse(read("44_legacy_api_r110"), "threejs")
    box, pyramid, post, ball = result.scene.objects
    assert (box.class_name, box.size) == ("cube", (1.0, 2.0, 1.0))
    assert box.rotation[1] == pytest.approx(30.0)
    assert pyramid.position == pytest.approx((2.0, 0.5, 0.0))
    assert post.position == pytest.approx((-2.0, 0.5, 0.0))
    assert ball.position[0] == pytest.approx(1.0)  # THREE.Math.clamp(3, -1, 1)
    legacy = [d.message for d in result.diagnostics if d.code == "threejs.legacy_api"]
    assert any("THREE.CubeGeometry" in m for m in legacy)
    assert any("THREE.Math is" in m for m in legacy)
    assert any("Object3D.applyMatrix()" in m for m in legacy)
    assert any("BufferGeometry.applyMatrix()" in m for m in legacy)
    assert any("ConeBufferGeometry" in m for m in legacy)
