"""The Unity parser. Every Unity fixture's expected scene is what Mono builds from the reply,
compiled against the UnityEngine facade (``audit/unity_engine.py``; the stored file is
checked against a fresh run by ``tests/engines/test_unity_engine.py``, marker ``mono``), and the
reply must parse to that scene."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from parsers import parse
from spatialbabel import Scene, SceneObject
from spatialbabel.frames import axis_rotation
from tests.engines.fixture_runs import compare_scenes, fixture_cases

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "unity"
CASES = [name for name, _ in fixture_cases("unity")]
#: The facade computes in floats, as Unity does; the parser in doubles from the same floats.
TOLERANCE = 2e-6
RGB_TOLERANCE = 1e-6

REQUIRED_CODES: dict[str, set[str]] = {
    "u04_cone_standin": {"build.class_from_context"},
    "u05_pyramid_mesh_builder": {"build.class_from_context"},
    "u09_setparent": {"build.class_from_context"},
    "u13_ground_plane": {"unity.ground_plane"},
    "u14_thin_cube_ground": {"build.ground_removed"},
    "u16_torus_standin": {"build.class_from_context"},
    "u17_capsule_column": {"build.class_from_context"},
    "u18_cut_off": {"unity.cut_off", "extract.unclosed_fence"},
    "u19_two_blocks": {"extract.merged", "build.class_from_context"},
    "u26_no_fence": {"extract.no_fence"},
    "u29_corrected_rewrite": {"extract.rewrite"},
    # Issue 12: custom meshes read from their vertices, stand-in names computed by code,
    # helpers without a body, Unity 4's shortcuts.
    "u31_procedural_torus_typeof": {"build.class_from_context"},
    "u32_cone_builder_cached_mesh": {"build.class_from_context"},
    "u33_pyramid_builder_turns": {"build.class_from_context"},
    "u34_enum_switch_standins": {"build.class_from_context"},
    "u35_string_dispatch_names": {"build.class_from_context"},
    "u36_record_field_switch_linq": {"build.class_from_context"},
    "u37_helper_stub_enum": {"eval.helper_without_body"},
    "u38_helpers_cut_off_by_order": {"eval.helper_without_body", "unity.cut_off"},
    "u39_unity4_shortcuts": {"unity.legacy_api", "build.class_from_context"},
    "u40_procedural_cylinder_and_box": {"build.class_from_context"},
    "u41_cut_off_inside_mesh_builder": {"eval.helper_without_body", "unity.cut_off"},
    "u42_linq_enum_values": {"build.class_from_context"},
    # Issue 26: objects Unity does not draw (an inactive parent, a disabled renderer).
    "u48_hidden_and_instantiated": {"unity.not_rendered"},
}


def read(case: str, suffix: str = "") -> str:
    return (FIXTURES / f"{case}{suffix}.txt").read_text(encoding="utf-8")


def test_enough_fixtures_each_with_its_expected_scene() -> None:
    assert len(CASES) >= 25
    for case in CASES:
        assert (FIXTURES / f"{case}.expected.json").exists()


@pytest.mark.parametrize("case", CASES)
def test_unity_reply_reads_as_the_scene_mono_builds(case: str) -> None:
    result = parse(read(case), "unity", scene_id=case)
    expected = Scene.load(FIXTURES / f"{case}.expected.json")
    assert (
        compare_scenes(result.scene, expected, tolerance=TOLERANCE, rgb_tolerance=RGB_TOLERANCE)
        == []
    )
    codes = {d.code for d in result.diagnostics}
    assert "parse.internal" not in codes
    assert REQUIRED_CODES.get(case, set()) <= codes, codes


def test_parity_rate_is_total() -> None:
    matched = sum(
        not compare_scenes(
            parse(read(c), "unity").scene,
            Scene.load(FIXTURES / f"{c}.expected.json"),
            tolerance=TOLERANCE,
            rgb_tolerance=RGB_TOLERANCE,
        )
        for c in CASES
    )
    assert matched == len(CASES), f"{matched}/{len(CASES)} Unity fixtures read as Mono builds them"


# --- semantics --------------------------------------------------------------------------------------


def objects(body: str, extra: str = "") -> tuple[list[SceneObject], set[str]]:
    code = f"using UnityEngine;\npublic class S : MonoBehaviour {{\n{extra}\nvoid Start() {{\n{body}\n}}\n}}"
    result = parse(f"```csharp\n{code}\n```", "unity")
    return list(result.scene.objects), {d.code for d in result.diagnostics}


def test_primitive_sizes_and_left_handed_frame() -> None:
    (cube, sphere, cylinder), _ = objects(
        "var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.transform.position = new Vector3(1, 2, 3);\n"
        "GameObject.CreatePrimitive(PrimitiveType.Sphere);\nGameObject.CreatePrimitive(PrimitiveType.Cylinder);"
    )
    assert cube.position == pytest.approx((1, 2, -3))
    assert sphere.size == pytest.approx((1, 1, 1))
    assert cylinder.size == pytest.approx((1, 2, 1))


def test_quaternion_euler_turns_z_then_x_then_y() -> None:
    (cube,), _ = objects(
        "var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.transform.rotation = Quaternion.Euler(30, 45, 60);"
    )
    unity = (
        axis_rotation("Y", math.radians(45))
        @ axis_rotation("X", math.radians(30))
        @ axis_rotation("Z", math.radians(60))
    )
    flip = np.diag([1.0, 1.0, -1.0])
    assert np.allclose(cube.rotation_matrix, flip @ unity @ flip)


def test_stand_in_class_comes_from_the_name_with_a_reason() -> None:
    result = parse(
        '```csharp\nvoid Start() {\n  var c = GameObject.CreatePrimitive(PrimitiveType.Cylinder);\n  c.name = "Traffic Cone";\n}\n```',
        "unity",
    )
    (cone,) = result.scene.objects
    assert cone.class_name == "cone"
    reasons = [d.message for d in result.diagnostics if d.code == "build.class_from_context"]
    assert reasons and "Traffic Cone" in reasons[0]


def test_buildable_primitive_keeps_its_class_whatever_its_name() -> None:
    (box,), _ = objects(
        'var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.name = "Pillar";'
    )
    assert box.class_name == "cube"


def test_colour_notations() -> None:
    (a, b, c), _ = objects(
        "GameObject.CreatePrimitive(PrimitiveType.Cube).GetComponent<Renderer>().material.color = Color.yellow;\n"
        "GameObject.CreatePrimitive(PrimitiveType.Cube).GetComponent<Renderer>().material.color = new Color32(255, 0, 0, 255);\n"
        'var m = new Material(Shader.Find("Standard")); m.SetColor("_BaseColor", new Color(0f, 0f, 1f));\n'
        "GameObject.CreatePrimitive(PrimitiveType.Cube).GetComponent<Renderer>().sharedMaterial = m;"
    )
    assert a.rgb == pytest.approx((1.0, 235 / 255, 4 / 255))
    assert (b.color, c.color) == ("red", "blue")


def test_fields_are_read_without_this_and_ints_divide_as_in_csharp() -> None:
    (cube,), _ = objects(
        "var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.transform.position = new Vector3(count / 2, size, 0);",
        "int count = 5; float size = 1.5f;",
    )
    assert cube.position == pytest.approx((2, 1.5, 0))


def test_numbers_written_as_text() -> None:
    (cube, ball), notes = objects(
        "var p = \"1.5,0.5,-2\".Split(',');\n"
        "var c = GameObject.CreatePrimitive(PrimitiveType.Cube);\n"
        "c.transform.position = new Vector3(float.Parse(p[0]), Convert.ToSingle(p[1]), "
        "System.Convert.ToDouble(p[2]));\n"
        'int n = int.Parse("3");\n'
        'float r; bool ok = float.TryParse("0.25", out r);\n'
        "var b = GameObject.CreatePrimitive(PrimitiveType.Sphere);\n"
        "b.transform.localScale = Vector3.one * (2 * r);\n"
        "b.transform.position = new Vector3(n / 2, ok ? 1f : 0f, 0f);\n"
    )
    assert cube.position == pytest.approx((1.5, 0.5, 2.0))
    assert ball.size == pytest.approx((0.5, 0.5, 0.5))
    # int.Parse gives an int: 3 / 2 is 1 in C#.
    assert ball.position == pytest.approx((1.0, 1.0, 0.0))
    assert not any(code.startswith("eval.unknown") for code in notes)


# --- custom meshes (issue 12) -------------------------------------------------------------------------
PYRAMID_VERTICES = (
    "new Vector3[] { new Vector3(-0.5f, 0f, -0.5f), new Vector3(0.5f, 0f, -0.5f), "
    "new Vector3(0.5f, 0f, 0.5f), new Vector3(-0.5f, 0f, 0.5f), new Vector3(0f, 1f, 0f) }"
)


def test_reading_mesh_of_a_filter_duplicates_its_shared_mesh_as_unity_does() -> None:
    # MeshFilter.mesh: "If a mesh is assigned to the mesh filter already, then first query of
    # mesh property will create a duplicate of it" (Unity manual). Editing that duplicate leaves
    # the other object's shared mesh as it was.
    objects_, _ = objects(
        f"var m = new Mesh(); m.vertices = {PYRAMID_VERTICES};\n"
        'var a = new GameObject("A", typeof(MeshFilter), typeof(MeshRenderer));\n'
        'var b = new GameObject("B", typeof(MeshFilter), typeof(MeshRenderer));\n'
        "a.GetComponent<MeshFilter>().sharedMesh = m; b.GetComponent<MeshFilter>().sharedMesh = m;\n"
        "var v = a.GetComponent<MeshFilter>().mesh.vertices;\n"
        "for (int i = 0; i < v.Length; i++) v[i] = v[i] * 2f;\n"
        "a.GetComponent<MeshFilter>().mesh.vertices = v;\n"
        "b.transform.position = new Vector3(3f, 0f, 0f);"
    )
    a, b = objects_
    assert (a.class_name, b.class_name) == ("pyramid", "pyramid")
    assert a.size == pytest.approx((2, 2, 2)) and b.size == pytest.approx((1, 1, 1))


def test_mesh_of_an_empty_filter_is_a_new_mesh_and_shared_mesh_is_null() -> None:
    objects_, _ = objects(
        'var go = new GameObject("Pyramid"); var f = go.AddComponent<MeshFilter>();\n'
        "go.AddComponent<MeshRenderer>();\n"
        "if (f.sharedMesh == null) f.mesh.SetVertices(new List<Vector3>(" + PYRAMID_VERTICES + "));"
    )
    assert [o.class_name for o in objects_] == ["pyramid"]


def test_class_from_the_enum_member_when_vertices_cannot_be_computed() -> None:
    result = parse(
        "```csharp\nusing UnityEngine;\npublic enum Kind { Cube, Torus }\n"
        "public class S : MonoBehaviour {\n"
        "  void Start() { Create(Kind.Torus, new Vector3(0f, 0.5f, 0f)); }\n"
        "  void Create(Kind kind, Vector3 p) {\n"
        '    var go = new GameObject("shape"); go.transform.position = p;\n'
        "    go.AddComponent<MeshRenderer>(); var m = new Mesh();\n"
        "    m.vertices = Generate(Random.Range(8, 16));\n"
        "    go.AddComponent<MeshFilter>().mesh = m;\n"
        "  }\n"
        "  Vector3[] Generate(int n) { return new Vector3[n]; }\n"
        "}\n```",
        "unity",
    )
    (torus,) = result.scene.objects
    assert torus.class_name == "torus" and torus.size == pytest.approx((1, 0.25, 1))
    reason = next(d.message for d in result.diagnostics if d.code == "build.class_from_context")
    assert "enum member Kind.Torus" in reason and "cannot be computed" in reason


def test_primitive_type_no_unity_version_has_is_said_and_the_rest_kept() -> None:
    (cone, sphere), codes = objects(
        "GameObject.CreatePrimitive(PrimitiveType.Cone);\n"
        "GameObject.CreatePrimitive(PrimitiveType.Sphere).transform.position = new Vector3(2f, 0f, 0f);"
    )
    assert cone.class_name == "cone" and sphere.class_name == "sphere"
    assert "unity.no_such_api" in codes


def test_unity4_renderer_shortcut_reads_the_renderer() -> None:
    (cube,), codes = objects(
        "var c = GameObject.CreatePrimitive(PrimitiveType.Cube); c.renderer.material.color = Color.red;"
    )
    assert cube.color == "red" and "unity.legacy_api" in codes


def test_a_call_it_cannot_follow_handed_an_object_is_said() -> None:
    (cube,), codes = objects(
        "var g = GameObject.CreatePrimitive(PrimitiveType.Cube); Layout.Place(g, 2f); helper.Paint(g);"
    )
    assert cube.class_name == "cube"
    assert "unity.unknown_call" in codes


def test_struct_copies_are_written_back_and_a_property_copy_is_said() -> None:
    (column,), codes = objects(
        "var c = GameObject.CreatePrimitive(PrimitiveType.Cylinder); Transform t = c.transform;\n"
        "float h = 3; Vector3 s = t.localScale; s.y = h / 2; t.localScale = s;\n"
        "Vector3 p = t.position; p.y = h / 2; t.position = p;\n"
        "t.localScale.x = 5f;"
    )
    assert column.size == pytest.approx((1, 3, 1)) and column.position == pytest.approx((0, 1.5, 0))
    assert "eval.struct_copy" in codes
