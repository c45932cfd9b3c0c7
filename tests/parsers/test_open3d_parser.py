"""The Open3D parser: golden replies (expected scenes built by open3d itself), the semantics each
fixture stresses, what it reports, the factories' vertices against open3d's, and parity with
the real open3d (``open3d`` marker): every fixture run with open3d 0.20 and compared object by
object (count, class, palette colour, sRGB, exact-primitive world AABB within 1e-6)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audit.engine_scenes import EngineRun, expected_scene, reply_code, run_engine
from parsers import parse, write
from parsers.open3d import shapes
from parsers.open3d.engine import ROTATION_ORDERS, rotation_matrix
from spatialbabel import SceneObject
from spatialbabel.frames import axis_rotation
from tests.engines.fixture_runs import compare_scenes, fixture_cases
from tests.engines.parser_checks import (
    check_golden_reply,
    every_class_scene,
    matching_count,
    read_fixture,
    run_fixtures,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "open3d"
CASES = [name for name, _ in fixture_cases("open3d")]

REQUIRED_CODES: dict[str, set[str]] = {
    "o13_ground_slab": {"build.ground_removed"},
    "o17_cut_off": {"py.syntax", "extract.unclosed_fence", "open3d.nothing_shown"},
    "o26_no_fence": {"extract.no_fence"},
    "o28_legacy_create_mesh": {"open3d.legacy_api"},
    "o29_ground_slab_sinking_cone": {"build.ground_removed"},
    "o30_nl_cot_unfenced": {"extract.no_fence", "extract.prose_skipped"},
    "o31_python2_strings": {"py.python2"},
    "o32_vertices_rewritten": {"open3d.vertices_rewritten"},
    "o33_custom_torus_vertices": {"open3d.custom_mesh"},
    "o34_helper_stub_todo": {"eval.helper_without_body"},
    "o35_helpers_never_written": {"eval.helper_without_body", "py.syntax"},
}


def read(case: str) -> str:
    return read_fixture("open3d", case)


def test_enough_fixtures() -> None:
    assert len(CASES) >= 25
    assert all((FIXTURES / f"{case}.expected.json").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES)
def test_golden_reply(case: str) -> None:
    check_golden_reply("open3d", case, REQUIRED_CODES.get(case, set()))


def parsed(code: str) -> tuple[list[SceneObject], set[str]]:
    result = parse(f"```python\nimport numpy as np\nimport open3d as o3d\n{code}\n```", "open3d")
    return list(result.scene.objects), {d.code for d in result.diagnostics}


def test_box_corner_and_cone_base() -> None:
    (box, cone), _ = parsed(
        "b = o3d.geometry.TriangleMesh.create_box(1, 2, 3)\nc = o3d.geometry.TriangleMesh.create_cone()\no3d.visualization.draw_geometries([b, c])"
    )
    assert box.position == pytest.approx((0.5, 1, 1.5))
    # The cone lies along +Z with its base at z = 0: its box spans z in [0, 2].
    assert cone.position == pytest.approx((0, 0, 1))
    assert cone.size == pytest.approx((2, 2, 2))


def test_absolute_translate_moves_the_vertex_mean() -> None:
    (cone,), _ = parsed(
        "c = o3d.geometry.TriangleMesh.create_cone()\nc.translate((0, 0, 0), relative=False)"
    )
    # 22 vertices: the apex at z = 2 and 21 at z = 0; their mean is 2/22.
    assert cone.position[2] == pytest.approx(1 - 2 / 22)


def test_rotate_without_centre_turns_about_the_vertex_mean() -> None:
    (a, b), _ = parsed(
        "a = o3d.geometry.TriangleMesh.create_cone()\na.rotate(a.get_rotation_matrix_from_xyz((np.pi / 2, 0, 0)))\n"
        "b = o3d.geometry.TriangleMesh.create_cone()\nb.rotate(b.get_rotation_matrix_from_xyz((np.pi / 2, 0, 0)), center=(0, 0, 0))"
    )
    assert not np.allclose(a.position, b.position)
    assert a.position[2] == pytest.approx(2 / 22)


def test_scale_without_centre_is_reported() -> None:
    (box,), codes = parsed("b = o3d.geometry.TriangleMesh.create_box()\nb.scale(2)")
    assert "open3d.scale_without_center" in codes
    assert box.size == pytest.approx((2, 2, 2))


def test_only_what_is_shown_counts() -> None:
    objects, codes = parsed(
        "a = o3d.geometry.TriangleMesh.create_box()\nb = o3d.geometry.TriangleMesh.create_sphere()\no3d.visualization.draw_geometries([b])"
    )
    assert [o.class_name for o in objects] == ["sphere"]
    assert "open3d.not_shown" in codes


def test_coordinate_frames_are_not_objects() -> None:
    objects, _ = parsed(
        "f = o3d.geometry.TriangleMesh.create_coordinate_frame(size=1)\ns = o3d.geometry.TriangleMesh.create_sphere(0.5)\no3d.visualization.draw_geometries([f, s])"
    )
    assert [o.class_name for o in objects] == ["sphere"]


def test_numpy_transform_with_slices() -> None:
    (box,), _ = parsed(
        "T = np.eye(4)\nT[:3, :3] = np.diag([2, 1, 1])\nT[0:3, 3] = [1, 2, 3]\nm = o3d.geometry.TriangleMesh.create_box()\nm.transform(T)"
    )
    assert box.size == pytest.approx((2, 1, 1))
    assert box.position == pytest.approx((2, 2.5, 3.5))


def test_rotation_helpers_follow_open3d() -> None:
    angles = [0.3, -0.5, 0.7]
    for order in ROTATION_ORDERS:
        expected = np.eye(3)
        for axis, angle in zip(order.upper(), angles, strict=True):
            expected = expected @ axis_rotation(axis, angle)
        assert np.allclose(rotation_matrix(order, angles), expected)


@pytest.mark.open3d
@pytest.mark.parametrize("factory", sorted(shapes._GENERATORS))
@pytest.mark.parametrize("variant", [0, 1])
def test_factory_vertices_are_open3ds(factory: str, variant: int) -> None:
    o3d = pytest.importorskip("open3d")
    parameters = {name: float(default) for name, default in shapes.PARAMETERS[factory]}
    if variant:
        for name in parameters:
            parameters[name] = (
                parameters[name] * 1.5
                if "resolution" not in name and name != "split"
                else parameters[name] + 3
            )
    arguments = {
        n: int(v) if n in ("resolution", "split", "radial_resolution", "tubular_resolution") else v
        for n, v in parameters.items()
    }
    real = np.asarray(getattr(o3d.geometry.TriangleMesh, factory)(**arguments).vertices)
    assert np.allclose(shapes.create(factory, parameters).vertices, real, atol=1e-12)


# --- parity with the real engine ------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine_runs() -> dict[str, EngineRun]:
    pytest.importorskip("open3d")
    return run_fixtures("open3d", CASES)


@pytest.mark.open3d
@pytest.mark.parametrize("case", CASES)
def test_parser_matches_open3d(case: str, engine_runs: dict[str, EngineRun]) -> None:
    result = parse(read(case), "open3d", scene_id=case).scene
    assert compare_scenes(result, expected_scene(engine_runs[case], "open3d")) == []


@pytest.mark.open3d
def test_parity_rate_is_total(engine_runs: dict[str, EngineRun]) -> None:
    matched = matching_count("open3d", CASES, engine_runs)
    assert matched == len(CASES), f"{matched}/{len(CASES)} Open3D fixtures match open3d"


@pytest.mark.open3d
def test_written_script_builds_the_scene_in_open3d() -> None:
    scene = every_class_scene(4)
    pytest.importorskip("open3d")
    (run,) = run_engine("open3d", [("written", reply_code(write(scene, "open3d"), "open3d"))])
    assert run.error is None
    assert (
        compare_scenes(expected_scene(run, "open3d"), scene, tolerance=1e-9, rgb_tolerance=1e-12)
        == []
    )


def test_factories_of_open3d_before_0_8_are_the_same_factories() -> None:
    old, _ = parsed(
        "a = o3d.geometry.create_mesh_cone(0.5, 1.5, 4)\nb = o3d.geometry.create_mesh_torus()\n"
        "c = o3d.create_mesh_box(1, 2, 3)\no3d.draw_geometries([a, b, c])"
    )
    new, _ = parsed(
        "a = o3d.geometry.TriangleMesh.create_cone(0.5, 1.5, 4)\n"
        "b = o3d.geometry.TriangleMesh.create_torus()\nc = o3d.geometry.TriangleMesh.create_box(1, 2, 3)\n"
        "o3d.visualization.draw_geometries([a, b, c])"
    )
    assert [(o.class_name, o.position, o.size) for o in old] == [
        (o.class_name, o.position, o.size) for o in new
    ]


@pytest.mark.parametrize("kind", ["XYZ", "YZX", "ZXY", "XZY", "ZYX", "YXZ"])
def test_rotate_by_three_angles_as_open3d_0_7_to_0_9(kind: str) -> None:
    angles = (0.3, -0.7, 1.1)
    (old,), notes = parsed(
        f"m = o3d.geometry.TriangleMesh.create_box(1, 2, 3)\n"
        f"m.rotate({list(angles)}, center=False, type=o3d.geometry.RotationType.{kind})"
    )
    (new,), _ = parsed(
        f"m = o3d.geometry.TriangleMesh.create_box(1, 2, 3)\n"
        f"m.rotate(o3d.geometry.get_rotation_matrix_from_{kind.lower()}({list(angles)}), center=(0, 0, 0))"
    )
    assert old.position == pytest.approx(new.position)
    assert old.rotation == pytest.approx(new.rotation)
    assert "open3d.legacy_api" in notes


def test_centre_flags_of_open3d_0_7_to_0_9() -> None:
    # center=True turns about the vertex mean (0.20's default), center=False about the origin.
    (mean,), _ = parsed(
        "m = o3d.geometry.TriangleMesh.create_box()\nm.rotate([0, 0, np.pi / 2], center=True)"
    )
    (origin,), _ = parsed(
        "m = o3d.geometry.TriangleMesh.create_box()\nm.rotate([0, 0, np.pi / 2], center=False)"
    )
    assert mean.position == pytest.approx((0.5, 0.5, 0.5))
    assert origin.position == pytest.approx((-0.5, 0.5, 0.5))
    (scaled,), codes = parsed(
        "m = o3d.geometry.TriangleMesh.create_box()\nm.scale(2.0, center=False)"
    )
    assert scaled.position == pytest.approx((1.0, 1.0, 1.0))
    assert "open3d.scale_without_center" not in codes
    (axis_angle,), _ = parsed(
        "m = o3d.geometry.TriangleMesh.create_box()\n"
        "m.rotate([0, np.pi / 2, 0], center=False, type=o3d.geometry.RotationType.AxisAngle)"
    )
    assert axis_angle.position == pytest.approx((0.5, 0.5, -0.5))


def test_python_2_reads_as_python_3_with_a_remark() -> None:
    result = parse(read("o31_python2_strings"), "open3d")
    assert [o.size[0] for o in result.scene.objects] == pytest.approx([0.8, 1.2, 0.5, 0.5])
    notes = [d.message for d in result.diagnostics if d.code == "py.python2"]
    assert any("open3d ran on Python 2.7 until 0.9" in m for m in notes)
    assert any("xrange" in m for m in notes) and any("iteritems" in m for m in notes)
