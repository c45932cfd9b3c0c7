"""Parity with the real engine: every three.js fixture is run in node with the ``three`` npm
package (tests/engines/three_harness.mjs), and the scene three built is the truth.

For each fixture: three runs without an error; the reading of each mesh (geometry type and
parameters, matrixWorld) holds against three's real vertices; the stored expected scene is
what three builds; and the parser's scene matches it (count, class, palette colour, sRGB,
exact world AABB centre and extents within 1e-6). The bar is 100 %.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audit.three_engine import (
    engine_scene,
    ensure_three,
    node_available,
    reply_code,
    run_three,
    vertex_checks,
)
from parsers import parse
from spatialbabel import Scene
from tests.engines.fixture_runs import compare_scenes, engine_reply_path, fixture_replies

pytestmark = [
    pytest.mark.node,
    pytest.mark.skipif(not node_available(), reason="node is not installed"),
]

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "threejs"
CASES = [p.stem for p in fixture_replies(FIXTURES)]


@pytest.fixture(scope="module", autouse=True)
def three_installed() -> None:
    ensure_three()


@pytest.fixture(scope="module")
def engine_results() -> dict[str, dict]:  # type: ignore[type-arg]
    return {
        case: run_three(
            reply_code(engine_reply_path(FIXTURES / f"{case}.txt").read_text(encoding="utf-8"))
        )
        for case in CASES
    }


@pytest.mark.parametrize("case", CASES)
def test_engine_runs_the_fixture(case: str, engine_results: dict[str, dict]) -> None:  # type: ignore[type-arg]
    result = engine_results[case]
    assert result["errors"] == []
    assert result["meshes"], "three built no mesh"
    assert vertex_checks(result) == []


@pytest.mark.parametrize("case", CASES)
def test_expected_scene_is_the_engines(case: str, engine_results: dict[str, dict]) -> None:  # type: ignore[type-arg]
    stored = Scene.load(FIXTURES / f"{case}.expected.json")
    assert (
        compare_scenes(
            engine_scene(engine_results[case], case), stored, tolerance=1e-9, rgb_tolerance=1e-12
        )
        == []
    )


@pytest.mark.parametrize("case", CASES)
def test_parser_matches_engine(case: str, engine_results: dict[str, dict]) -> None:  # type: ignore[type-arg]
    parsed = parse(
        (FIXTURES / f"{case}.txt").read_text(encoding="utf-8"), "threejs", scene_id=case
    ).scene
    assert compare_scenes(parsed, engine_scene(engine_results[case], case)) == []


def test_parity_rate_is_total(engine_results: dict[str, dict]) -> None:  # type: ignore[type-arg]
    matched = 0
    for case in CASES:
        parsed = parse((FIXTURES / f"{case}.txt").read_text(encoding="utf-8"), "threejs").scene
        matched += not compare_scenes(parsed, engine_scene(engine_results[case], case))
    assert matched / len(CASES) == 1.0


def _single_mesh(code: str) -> dict:  # type: ignore[type-arg]
    result = run_three(
        "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
        + code
        + "\nnew THREE.WebGLRenderer().render(scene);"
    )
    assert result["errors"] == []
    (mesh,) = result["meshes"]
    return mesh


def test_engine_fact_four_segment_cone_has_corners_on_the_axes() -> None:
    mesh = _single_mesh("scene.add(new THREE.Mesh(new THREE.ConeGeometry(1, 2, 4)));")
    lo, hi = np.array(mesh["aabb"])
    assert lo == pytest.approx([-1, -1, -1]) and hi == pytest.approx([1, 1, 1])


def test_engine_fact_torus_lies_in_the_xy_plane() -> None:
    mesh = _single_mesh("scene.add(new THREE.Mesh(new THREE.TorusGeometry()));")
    lo, hi = np.array(mesh["aabb"])
    assert hi - lo == pytest.approx([2.8, 2.8, 0.8])


def test_engine_fact_float_colours_are_linear() -> None:
    mesh = _single_mesh(
        "scene.add(new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshBasicMaterial({ color: new THREE.Color(1, 0.5, 0) })));"
    )
    assert mesh["color"] == pytest.approx([1, 0.5, 0])
    assert mesh["hex"] == 0xFFBC00


def test_engine_fact_default_sizes() -> None:
    for code, extents in [
        ("new THREE.BoxGeometry()", [1, 1, 1]),
        ("new THREE.SphereGeometry()", [2, 2, 2]),
        ("new THREE.CylinderGeometry()", [2, 1, 2]),
        ("new THREE.ConeGeometry()", [2, 1, 2]),
    ]:
        mesh = _single_mesh(f"scene.add(new THREE.Mesh({code}));")
        lo, hi = np.array(mesh["aabb"])
        assert hi - lo == pytest.approx(extents, abs=1e-9), code


@pytest.mark.parametrize("case", CASES)
def test_typescript_is_read_as_typescript_by_both(
    case: str,
    engine_results: dict[str, dict],  # type: ignore[type-arg]
) -> None:
    # The TypeScript fixtures run in node as the TypeScript compiler transpiles them; the
    # parser must take the TypeScript grammar for exactly those, and JavaScript for the rest.
    typescript = "typescript" in case
    assert engine_results[case]["typescript"] is typescript
    parsed = parse((FIXTURES / f"{case}.txt").read_text(encoding="utf-8"), "threejs")
    assert any(d.code == "js.typescript" for d in parsed.diagnostics) is typescript
