"""The Blender parser: golden replies (expected scenes built by bpy itself), the semantics each
fixture stresses, what it reports, and parity with the real bpy (``bpy`` marker): every fixture
run in Blender 5.0.1 from its factory-empty scene and compared object by object (count, class,
palette colour, sRGB, exact-primitive world AABB centre and extents within 1e-6)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from audit.engine_scenes import EngineRun, expected_scene, reply_code, run_engine
from parsers import parse, write
from spatialbabel import SceneObject
from tests.engines.fixture_runs import compare_scenes, fixture_cases
from tests.engines.parser_checks import (
    check_golden_reply,
    every_class_scene,
    matching_count,
    read_fixture,
    run_fixtures,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "blender"
CASES = [name for name, _ in fixture_cases("blender")]

#: Diagnostics each case must raise: what was cut, guessed or left out is always said.
REQUIRED_CODES: dict[str, set[str]] = {
    "b09_cut_off": {"py.syntax", "extract.unclosed_fence"},
    "b11_ground_plane": {"blender.ground_plane"},
    "b23_multiple_blocks": {"extract.merged"},
    "b24_no_fence": {"extract.no_fence"},
    "b27_thin_box_ground": {"build.ground_removed"},
    "b32_legacy_27x_operators": {"blender.legacy_argument", "blender.legacy_api"},
    "b33_python2_print_xrange": {"py.python2"},
    "b35_y_up_ground_slab": {"build.ground_removed"},
    "b36_corrected_helper": {"extract.replaced_definitions"},
    "b37_procedural_from_pydata": {"build.class_from_context"},
    "b38_helper_stub_pass": {"eval.helper_without_body"},
    "b39_helpers_cut_off": {"eval.helper_without_body", "extract.unclosed_fence"},
}


def read(case: str) -> str:
    return read_fixture("blender", case)


def test_enough_fixtures() -> None:
    assert len(CASES) >= 25
    assert all((FIXTURES / f"{case}.expected.json").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES)
def test_golden_reply(case: str) -> None:
    check_golden_reply("blender", case, REQUIRED_CODES.get(case, set()))


def objects(code: str) -> list[SceneObject]:
    return list(parse(f"```python\nimport bpy\n{code}\n```", "blender").scene.objects)


def test_operator_defaults_and_frame() -> None:
    cube, sphere, cylinder, cone, torus = objects(
        "bpy.ops.mesh.primitive_cube_add(location=(1, 2, 3))\n"
        "bpy.ops.mesh.primitive_uv_sphere_add()\n"
        "bpy.ops.mesh.primitive_cylinder_add()\n"
        "bpy.ops.mesh.primitive_cone_add()\n"
        "bpy.ops.mesh.primitive_torus_add()"
    )
    # Blender (x, y, z) is canonical (x, z, -y); the cube's edge is 2, radii 1, depths 2.
    assert cube.position == pytest.approx((1, 3, -2))
    assert cube.size == pytest.approx((2, 2, 2))
    assert sphere.size == pytest.approx((2, 2, 2))
    assert cylinder.size == pytest.approx((2, 2, 2)) and cone.class_name == "cone"
    assert torus.size == pytest.approx((2.5, 0.5, 2.5))


def test_four_vertex_cone_is_a_pyramid_with_corners_on_the_axes() -> None:
    (pyramid,) = objects("bpy.ops.mesh.primitive_cone_add(vertices=4, radius1=1, depth=2)")
    assert pyramid.class_name == "pyramid"
    assert pyramid.size == pytest.approx((np.sqrt(2), 2, np.sqrt(2)))
    assert abs(pyramid.rotation[1]) % 90 == pytest.approx(45)


def test_euler_modes_apply_in_blenders_order() -> None:
    xyz, zxy = objects(
        "import math\nbpy.ops.mesh.primitive_cube_add(rotation=(0.3, 0.5, 0.7))\n"
        "bpy.ops.mesh.primitive_cube_add()\no = bpy.context.object\no.rotation_mode = 'ZXY'\no.rotation_euler = (0.3, 0.5, 0.7)"
    )
    assert not np.allclose(xyz.rotation_matrix, zxy.rotation_matrix, atol=1e-3)


def test_colours_are_linear_and_the_changed_one_wins() -> None:
    diffuse, base = objects(
        "bpy.ops.mesh.primitive_cube_add()\nm = bpy.data.materials.new('a')\nm.diffuse_color = (0.5, 0, 0, 1)\nbpy.context.object.data.materials.append(m)\n"
        "bpy.ops.mesh.primitive_cube_add()\nm = bpy.data.materials.new('b')\nm.diffuse_color = (0.5, 0, 0, 1)\n"
        "m.node_tree.nodes['Principled BSDF'].inputs['Base Color'].default_value = (0, 0, 0.5, 1)\nbpy.context.object.data.materials.append(m)"
    )
    # 0.5 linear is 0.735 sRGB.
    assert diffuse.rgb == pytest.approx((0.7353569830524495, 0, 0), abs=1e-9)
    assert base.rgb == pytest.approx((0, 0, 0.7353569830524495), abs=1e-9)


def test_dimensions_use_the_mesh_box() -> None:
    (cube,) = objects(
        "bpy.ops.mesh.primitive_cube_add()\nbpy.context.object.dimensions = (1, 2, 3)"
    )
    assert cube.size == pytest.approx((1, 3, 2))


def test_unlinked_and_deleted_objects_are_not_in_the_scene() -> None:
    result = objects(
        "me = bpy.data.meshes.new('m')\nme.from_pydata([(0,0,0),(1,0,0),(0,1,0),(1,1,0),(0,0,1),(1,0,1),(0,1,1),(1,1,1)], [], [])\n"
        "ob = bpy.data.objects.new('Box', me)\n"
        "bpy.ops.mesh.primitive_uv_sphere_add()\nbpy.ops.object.delete()\n"
        "bpy.ops.mesh.primitive_cylinder_add()"
    )
    assert [o.class_name for o in result] == ["cylinder"]


def test_unknown_values_keep_the_object_and_are_reported() -> None:
    result = parse(
        "```python\nimport bpy, random\nbpy.ops.mesh.primitive_cube_add(location=(random.random(), 0, 1))\n```",
        "blender",
    )
    assert len(result.scene.objects) == 1
    assert "eval.unknown_value" in {d.code for d in result.diagnostics}


def test_reply_without_objects_is_a_failure_with_a_reason() -> None:
    result = parse("Here is how you would do it: open Blender and add a cube.", "blender")
    assert not result.ok
    assert result.failure_reason is not None


# --- parity with the real engine ------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine_runs() -> dict[str, EngineRun]:
    pytest.importorskip("bpy")
    return run_fixtures("blender", CASES)


@pytest.mark.bpy
@pytest.mark.parametrize("case", CASES)
def test_parser_matches_bpy(case: str, engine_runs: dict[str, EngineRun]) -> None:
    parsed = parse(read(case), "blender", scene_id=case).scene
    assert compare_scenes(parsed, expected_scene(engine_runs[case], "blender")) == []


@pytest.mark.bpy
def test_parity_rate_is_total(engine_runs: dict[str, EngineRun]) -> None:
    matched = matching_count("blender", CASES, engine_runs)
    assert matched == len(CASES), f"{matched}/{len(CASES)} Blender fixtures match bpy"


@pytest.mark.bpy
def test_written_script_builds_the_scene_in_bpy() -> None:
    scene = every_class_scene(3)
    pytest.importorskip("bpy")
    (run,) = run_engine("blender", [("written", reply_code(write(scene, "blender"), "blender"))])
    assert run.error is None
    # bpy computes in float32.
    assert (
        compare_scenes(expected_scene(run, "blender"), scene, tolerance=2e-6, rgb_tolerance=1e-6)
        == []
    )


# --- bpy.ops.transform.rotate, measured in bpy ----------------------------------------------------
# Boxes of three different side lengths turned by angles off the quarter turns: their world AABB
# changes with every mistake of axis, orientation, sign or pivot.
_BOXES = (
    "import bpy, math\n"
    "bpy.ops.mesh.primitive_cube_add(size=1, location=(1, 0, 0), rotation=(0, 0, math.radians(90)), scale=(2, 1, 0.5))\n"
    "a = bpy.context.object\n"
    "bpy.ops.mesh.primitive_cube_add(size=1, location=(3, 0, 1), rotation=(math.radians(20), 0, 0), scale=(0.5, 1.5, 1))\n"
    "b = bpy.context.object\n"
)
ROTATE_CASES = {
    "median_pivot": "a.select_set(True)\nbpy.ops.transform.rotate(value=math.radians(30), orient_axis='Z')",
    "sign_and_default_axis": "bpy.ops.transform.rotate(value=-0.4)",
    "local_is_the_active_objects_axes": "a.select_set(True)\nbpy.ops.transform.rotate(value=math.radians(35), orient_axis='Y', orient_type='LOCAL')",
    "view_is_global_without_a_view": "bpy.ops.transform.rotate(value=math.radians(35), orient_axis='Y', orient_type='VIEW')",
    "cursor_is_global": "bpy.ops.transform.rotate(value=math.radians(35), orient_axis='X', orient_type='CURSOR')",
    "orient_matrix_items_are_axes": (
        "bpy.ops.transform.rotate(value=math.radians(30), orient_axis='X', orient_type='GLOBAL', "
        "orient_matrix=((0, 0, 1), (0, 1, 0), (-1, 0, 0)), orient_matrix_type='GLOBAL', "
        "constraint_axis=(True, False, False), mirror=False)"
    ),
    "center_override": "a.select_set(True)\nbpy.ops.transform.rotate(value=math.radians(50), orient_axis='Z', center_override=(0, 0, 0))",
    "pivot_setting_not_used_by_scripts": (
        "a.select_set(True)\nbpy.context.scene.tool_settings.transform_pivot_point = 'INDIVIDUAL_ORIGINS'\n"
        "bpy.ops.transform.rotate(value=math.radians(40), orient_axis='Z')"
    ),
    "nothing_selected": "bpy.ops.object.select_all(action='DESELECT')\nbpy.ops.transform.rotate(value=1.0)",
}


@pytest.fixture(scope="module")
def rotate_runs() -> dict[str, EngineRun]:
    pytest.importorskip("bpy")
    cases = [(name, _BOXES + code) for name, code in ROTATE_CASES.items()]
    return {run.name: run for run in run_engine("blender", cases)}


@pytest.mark.bpy
@pytest.mark.parametrize("case", sorted(ROTATE_CASES))
def test_transform_rotate_matches_bpy(case: str, rotate_runs: dict[str, EngineRun]) -> None:
    run = rotate_runs[case]
    assert run.error is None
    parsed = parse(_BOXES + ROTATE_CASES[case], "blender")
    assert not [d for d in parsed.diagnostics if d.code == "blender.transform_rotate"]
    assert compare_scenes(parsed.scene, expected_scene(run, "blender")) == []


def test_transform_rotate_orientations_not_modelled_are_reported() -> None:
    parsed = parse(_BOXES + "bpy.ops.transform.rotate(value=0.3, orient_type='NORMAL')", "blender")
    assert [d.code for d in parsed.diagnostics if d.code == "blender.transform_rotate"] == [
        "blender.transform_rotate"
    ]


# --- bpy.ops.object.origin_set, measured in bpy ---------------------------------------------------
# A tilted cone: its mean vertex lies off its middle, so each kind of origin shows in where a
# later ``location`` puts it.
_CONE = (
    "import bpy, math\n"
    "bpy.ops.mesh.primitive_cone_add(radius1=1, depth=2, location=(1, 2, 3), rotation=(0.5, 0, 0))\n"
)
ORIGIN_CASES = {
    "geometry_median": "bpy.ops.object.origin_set(type='ORIGIN_GEOMETRY')",
    "geometry_bounds": "bpy.ops.object.origin_set(type='ORIGIN_GEOMETRY', center='BOUNDS')",
    "cursor": "bpy.context.scene.cursor.location = (0, 0, 1)\nbpy.ops.object.origin_set(type='ORIGIN_CURSOR')",
    "geometry_to_origin": "bpy.ops.object.origin_set(type='GEOMETRY_ORIGIN', center='MEDIAN')",
    "default_type": "bpy.ops.object.origin_set()",
    "pyramid_trifan": (
        "bpy.ops.mesh.primitive_cone_add(vertices=4, end_fill_type='TRIFAN', location=(-1, 0, 0))\n"
        "bpy.ops.object.origin_set(type='ORIGIN_GEOMETRY')"
    ),
    "custom_mesh": (
        "mesh = bpy.data.meshes.new('m')\n"
        "mesh.from_pydata([(0, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 2, 2)], [], [(0, 1, 2), (0, 1, 3), (1, 2, 4)])\n"
        "obj = bpy.data.objects.new('custom', mesh)\n"
        "bpy.context.collection.objects.link(obj)\n"
        "bpy.ops.object.select_all(action='DESELECT')\n"
        "obj.select_set(True)\n"
        "bpy.context.view_layer.objects.active = obj\n"
        "bpy.ops.object.origin_set(type='ORIGIN_GEOMETRY')"
    ),
}


@pytest.fixture(scope="module")
def origin_runs() -> dict[str, EngineRun]:
    pytest.importorskip("bpy")
    cases = [
        (name, _CONE + code + "\nbpy.context.object.location = (0.5, -0.5, 1.5)")
        for name, code in ORIGIN_CASES.items()
    ]
    return {run.name: run for run in run_engine("blender", cases)}


@pytest.mark.bpy
@pytest.mark.parametrize("case", sorted(ORIGIN_CASES))
def test_origin_set_matches_bpy(case: str, origin_runs: dict[str, EngineRun]) -> None:
    run = origin_runs[case]
    assert run.error is None
    code = _CONE + ORIGIN_CASES[case] + "\nbpy.context.object.location = (0.5, -0.5, 1.5)"
    parsed = parse(code, "blender")
    assert not [d for d in parsed.diagnostics if d.code == "blender.origin_set"]
    assert compare_scenes(parsed.scene, expected_scene(run, "blender")) == []


def test_origin_set_kinds_not_modelled_are_reported() -> None:
    parsed = parse(_CONE + "bpy.ops.object.origin_set(type='ORIGIN_CENTER_OF_MASS')", "blender")
    assert [d.code for d in parsed.diagnostics if d.code == "blender.origin_set"] == [
        "blender.origin_set"
    ]


def test_blender_27x_operator_arguments() -> None:
    cube, sphere, ico = objects(
        "bpy.ops.mesh.primitive_cube_add(radius=0.5, view_align=False, layers=(True,) + (False,) * 19)\n"
        "bpy.ops.mesh.primitive_uv_sphere_add(size=0.4)\n"
        "bpy.ops.mesh.primitive_ico_sphere_add(size=0.3, subdivisions=3)"
    )
    assert cube.size == pytest.approx((1.0, 1.0, 1.0))
    assert sphere.size == pytest.approx((0.8, 0.8, 0.8))
    assert ico.size == pytest.approx((0.6, 0.6, 0.6))
    # 2.80's names win when both are given.
    (cube,) = objects("bpy.ops.mesh.primitive_cube_add(size=3, radius=0.5)")
    assert cube.size == pytest.approx((3.0, 3.0, 3.0))


def test_blender_27x_active_object_and_selection() -> None:
    # scene.objects.active = cube makes it bpy.context.object again: the turn is the cube's,
    # as 2.80's view_layer.objects.active would make it.
    old = objects(
        "bpy.ops.mesh.primitive_cube_add()\ncube = bpy.context.object\n"
        "bpy.ops.mesh.primitive_uv_sphere_add(location=(3, 0, 0))\n"
        "bpy.context.scene.objects.active = cube\nbpy.context.object.rotation_euler = (0, 0, 0.5)"
    )
    new = objects(
        "bpy.ops.mesh.primitive_cube_add()\ncube = bpy.context.object\n"
        "bpy.ops.mesh.primitive_uv_sphere_add(location=(3, 0, 0))\n"
        "bpy.context.view_layer.objects.active = cube\nbpy.context.object.rotation_euler = (0, 0, 0.5)"
    )
    assert [(o.id, o.rotation) for o in old] == [(o.id, o.rotation) for o in new]
    assert old[0].rotation[1] == pytest.approx(math.degrees(0.5))
    result = parse(
        "```python\nimport bpy\nbpy.ops.mesh.primitive_cube_add()\na = bpy.context.object\n"
        "bpy.ops.mesh.primitive_cylinder_add(location=(3, 0, 0))\n"
        "bpy.ops.object.select_all(action='DESELECT')\na.select = True\nbpy.ops.object.delete()\n```",
        "blender",
    )
    assert [o.class_name for o in result.scene.objects] == ["cylinder"]


def test_python_2_in_blender_is_read_and_said_never_to_run() -> None:
    result = parse(read("b33_python2_print_xrange"), "blender")
    assert len(result.scene.objects) == 5
    notes = [d for d in result.diagnostics if d.code == "py.python2"]
    assert all("no Blender runs this" in d.message for d in notes)
    assert {d.line for d in notes} == {6, 16, 23, 25, 27}
    # What a print statement prints is still evaluated.
    (cube,) = objects('print "made", bpy.ops.mesh.primitive_cube_add(size=1)')
    assert cube.size == pytest.approx((1.0, 1.0, 1.0))


def test_deleting_an_objects_own_property_is_not_followed_and_said() -> None:
    # Blender refuses `del obj.location`; the reader keeps the property and says so (it once
    # raised KeyError on the object's next use).
    code = (
        "```python\nimport bpy\nbpy.ops.mesh.primitive_cube_add(location=(1, 2, 3))\n"
        "obj = bpy.context.active_object\ndel obj.location\nobj.location.x = 4\n"
        "bpy.context.collection.objects.link(obj.copy())\n```"
    )
    result = parse(code, "blender")
    codes = [d.code for d in result.diagnostics]
    assert "parse.internal" not in codes and codes.count("eval.ignored_delete") == 1
    assert [o.position[0] for o in result.scene.objects] == [4.0, 4.0]
