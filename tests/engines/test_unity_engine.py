"""The Unity harness on Mono (``audit.unity_engine``): every Unity fixture compiles against the
UnityEngine facade and runs, the stored ``<case>.expected.json`` is the scene it builds, the
exact primitive of each expected object matches the facade's own vertices, and the facade
itself does what Unity's scripting reference says (checked against numpy here, not against
the parser).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from audit.engine_scenes import angles_are_right, reply_code
from audit.unity_engine import UnityRun, candidate_prefixes, mono_available, run_unity
from parsers.build import NativeObject, build_objects
from parsers.result import Diagnostics
from spatialbabel import Scene, language_frame, world_aabb
from spatialbabel.frames import axis_rotation
from spatialbabel.geometry.bounds import object_affine
from tests.engines.fixture_runs import (
    FIXTURES,
    engine_reply,
    expected_files_agree,
    fixture_cases,
    unity_fixture_scene,
)

pytestmark = [
    pytest.mark.mono,
    pytest.mark.skipif(not mono_available(), reason="Mono (mcs, mono) is not installed"),
]

CASES = [name for name, _ in fixture_cases("unity")]
#: Replies cut off mid-statement: mcs compiles them only without their last lines (the
#: harness runs what the model managed to write, its open blocks closed).
CUT_OFF = {"u18_cut_off": "the reply stops inside a Color literal"}
#: The facade computes in floats, as Unity does: its vertices agree with the exact primitive
#: to float precision (1e-6 of the scene's size).
TOLERANCE = 1e-6

_RUNS: dict[str, UnityRun] = {}


def _runs() -> dict[str, UnityRun]:
    if not _RUNS:
        cases = [
            (name, reply_code(engine_reply("unity", name, text), "unity"))
            for name, text in fixture_cases("unity")
        ]
        _RUNS.update(run_unity(cases))
    return _RUNS


@pytest.mark.parametrize("case", CASES)
def test_every_fixture_compiles_and_runs(case: str) -> None:
    run = _runs()[case]
    assert run.compile_error == "", run.compile_error
    assert run.errors == [], run.errors
    # Nothing a fixture does is refused by the driver's check of what it references.
    assert run.refused == [], run.refused
    assert (run.dropped_lines > 0) == (case in CUT_OFF), run.dropped_lines


@pytest.mark.parametrize("case", CASES)
def test_stored_expected_scene_is_what_mono_builds(case: str) -> None:
    built = unity_fixture_scene(_runs()[case])
    stored = Scene.load(FIXTURES / "unity" / f"{case}.expected.json")
    assert built.objects, "the facade builds nothing"
    assert expected_files_agree(built.to_dict(), stored.to_dict()), (
        f"re-run make_expected unity --case {case}"
    )


@pytest.mark.parametrize("case", CASES)
def test_exact_primitive_matches_facade_vertices(case: str) -> None:
    run = _runs()[case]
    frame = language_frame("unity")
    for engine_object in run.objects:
        native = NativeObject(
            engine_object.class_name, engine_object.unit_to_native, engine_object.rgb
        )
        built = build_objects("unity", [native], Diagnostics())
        if not built or engine_object.class_name == "unknown":
            continue  # the ground, or a mesh of no shape of ours
        obj = built[0]
        vertices = engine_object.world_vertices @ frame.to_canonical.T
        v_lo, v_hi = vertices.min(axis=0), vertices.max(axis=0)
        e_lo, e_hi = world_aabb(obj)
        tol = TOLERANCE * max(1.0, float(np.max(np.abs(vertices))))
        exact = obj.class_name in ("cube", "pyramid") or (
            angles_are_right(object_affine(obj)) and engine_object.touches_extremes
        )
        if exact:
            assert np.allclose(v_lo, e_lo, atol=tol) and np.allclose(v_hi, e_hi, atol=tol), (
                obj.id,
                v_lo,
                e_lo,
                v_hi,
                e_hi,
            )
        else:
            assert np.all(v_lo >= e_lo - tol) and np.all(v_hi <= e_hi + tol), (obj.id, v_lo, e_lo)


def test_a_reply_cut_after_a_whole_statement_keeps_it() -> None:
    # Found by the engine audit on the demo's replies: the harness dropped the last whole line
    # of a reply cut off between statements (a scale set just before the cut was lost).
    code = (
        "using UnityEngine;\npublic class B : MonoBehaviour {\n  void Start() {\n"
        "    var c = GameObject.CreatePrimitive(PrimitiveType.Cube);\n"
        "    c.transform.localScale = new Vector3(2f, 3f, 4f);\n    "
    )
    run = run_unity([("cut_between_statements", code)])["cut_between_statements"]
    assert run.compile_error == "" and run.dropped_lines == 0
    (cube,) = run.objects
    assert np.allclose(np.ptp(cube.world_vertices, axis=0), (2, 3, 4))


def test_cut_off_reply_keeps_its_whole_lines() -> None:
    code = "class A {\n  void F() {\n    int x = 1;\n    var c = new Color(1f, 0."
    kept, dropped = candidate_prefixes(code)[1]
    assert dropped == 1 and kept.rstrip().endswith("int x = 1;\n}}")


# --- the facade against the scripting reference ------------------------------------------------------


def _scene(body: str, extra: str = "") -> dict[str, Any]:
    """The GameObjects a Start() body builds, by name: their world matrix (Unity's frame) and
    their local vertices' box."""
    code = (
        "using UnityEngine;\nusing System.Collections.Generic;\n"
        f"public class Probe : MonoBehaviour {{\n{extra}\nvoid Start() {{\n{body}\n}}\n}}\n"
    )
    run = run_unity([("probe", code)])["probe"]
    assert run.compile_error == "" and run.errors == [], (run.compile_error, run.errors)
    return {o.name: o for o in run.objects}


def _euler(x: float, y: float, z: float) -> np.ndarray[Any, Any]:
    """Quaternion.Euler as the scripting reference states it: about Z, then X, then Y."""
    return (
        axis_rotation("Y", math.radians(y))
        @ axis_rotation("X", math.radians(x))
        @ axis_rotation("Z", math.radians(z))
    )


def test_quaternion_euler_turns_about_z_then_x_then_y() -> None:
    objects = _scene(
        'var c = GameObject.CreatePrimitive(PrimitiveType.Cube); c.name = "C";'
        "c.transform.rotation = Quaternion.Euler(30f, 45f, 60f);"
        'var d = GameObject.CreatePrimitive(PrimitiveType.Cube); d.name = "D";'
        "d.transform.eulerAngles = new Vector3(30f, 45f, 60f);"
        'var e = GameObject.CreatePrimitive(PrimitiveType.Cube); e.name = "E";'
        "e.transform.rotation = Quaternion.Euler(d.transform.eulerAngles);"
    )
    for name in "CDE":
        linear = objects[name].unit_to_native[:3, :3] @ np.diag([1.0, 1.0, -1.0])
        assert np.allclose(linear, _euler(30, 45, 60), atol=1e-6), name


def test_primitives_have_unitys_sizes() -> None:
    objects = _scene(
        "foreach (PrimitiveType t in new[] { PrimitiveType.Cube, PrimitiveType.Sphere,"
        " PrimitiveType.Cylinder, PrimitiveType.Capsule }) GameObject.CreatePrimitive(t);"
    )
    sizes = {
        name: o.world_vertices.max(axis=0) - o.world_vertices.min(axis=0)
        for name, o in objects.items()
    }
    assert np.allclose(sizes["Cube"], (1, 1, 1)) and np.allclose(sizes["Sphere"], (1, 1, 1))
    assert np.allclose(sizes["Cylinder"], (1, 2, 1)) and np.allclose(sizes["Capsule"], (1, 2, 1))


def test_set_parent_keeps_the_world_or_the_local_values() -> None:
    objects = _scene(
        'var p = new GameObject("P"); p.transform.position = new Vector3(1f, 2f, 3f);'
        "p.transform.rotation = Quaternion.Euler(0f, 90f, 0f); p.transform.localScale = Vector3.one * 2f;"
        'var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.name = "Kept";'
        "a.transform.position = new Vector3(4f, 0f, 0f); a.transform.SetParent(p.transform);"
        'var b = GameObject.CreatePrimitive(PrimitiveType.Cube); b.name = "Local";'
        "b.transform.position = new Vector3(4f, 0f, 0f); b.transform.SetParent(p.transform, false);"
    )
    kept, local = objects["Kept"].unit_to_native, objects["Local"].unit_to_native
    assert np.allclose(kept[:3, 3], (4, 0, 0), atol=1e-5)
    assert np.allclose(np.abs(kept[:3, :3]).sum(axis=0), 1, atol=1e-5)
    # (4, 0, 0) local to the parent: turned a quarter about Y onto -Z, doubled, then moved.
    assert np.allclose(local[:3, 3], (1, 2, 3 - 8), atol=1e-5)


def test_renderer_material_is_instantiated_on_first_read() -> None:
    objects = _scene(
        'var m = new Material(Shader.Find("Standard")); m.color = Color.red;'
        'var a = GameObject.CreatePrimitive(PrimitiveType.Cube); a.name = "A";'
        'var b = GameObject.CreatePrimitive(PrimitiveType.Cube); b.name = "B";'
        "a.GetComponent<Renderer>().sharedMaterial = m; b.GetComponent<Renderer>().sharedMaterial = m;"
        "a.GetComponent<Renderer>().material.color = Color.blue;"
    )
    assert objects["A"].rgb == (0.0, 0.0, 1.0) and objects["B"].rgb == (1.0, 0.0, 0.0)
