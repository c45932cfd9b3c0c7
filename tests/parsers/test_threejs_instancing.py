"""``THREE.InstancedMesh``: each drawn instance is an object, checked against three in node."""

from __future__ import annotations

import pytest

from audit.three_engine import engine_scene, ensure_three, node_available, run_three
from parsers import parse
from tests.engines.fixture_runs import compare_scenes

HEAD = "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"

CASES = {
    # An instance colour multiplies the material's, as three's shader does.
    "tint_times_material": (
        "const m = new THREE.InstancedMesh(new THREE.SphereGeometry(0.5), new THREE.MeshBasicMaterial({ color: 0x80ff80 }), 2);\n"
        "m.setMatrixAt(1, new THREE.Matrix4().makeTranslation(2, 0.5, 0));\n"
        "m.setColorAt(0, new THREE.Color(1, 0, 0));\n"
        "scene.add(m);"
    ),
    # Instances never set stay at the identity; getMatrixAt reads back what was set.
    "identity_and_read_back": (
        "const m = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 2, 1), new THREE.MeshStandardMaterial({ color: 'red' }), 3);\n"
        "m.setMatrixAt(0, new THREE.Matrix4().makeRotationY(0.4).setPosition(1, 1, 0));\n"
        "const copy = new THREE.Matrix4(); m.getMatrixAt(0, copy);\n"
        "copy.premultiply(new THREE.Matrix4().makeTranslation(0, 0, -2));\n"
        "m.setMatrixAt(2, copy);\n"
        "m.position.x = -1;\n"
        "scene.add(m);"
    ),
    # Fewer drawn than made; a parent's transform applies to every instance.
    "count_and_parent": (
        "const g = new THREE.Group(); g.rotation.y = Math.PI / 6; g.scale.setScalar(1.5); scene.add(g);\n"
        "const m = new THREE.InstancedMesh(new THREE.CylinderGeometry(0.3, 0.3, 1), new THREE.MeshBasicMaterial(), 4);\n"
        "for (let i = 0; i < 4; i++) m.setMatrixAt(i, new THREE.Matrix4().makeTranslation(i, 0.5, 0));\n"
        "m.count = 3;\n"
        "g.add(m);"
    ),
    # A clone copies the instances; changing the original's afterwards leaves the clone's.
    "clone_copies_instances": (
        "const m = new THREE.InstancedMesh(new THREE.BoxGeometry(0.5, 0.5, 0.5), new THREE.MeshBasicMaterial({ color: 'blue' }), 2);\n"
        "m.setMatrixAt(1, new THREE.Matrix4().makeTranslation(1, 0.25, 0));\n"
        "const c = m.clone(); c.position.z = -2;\n"
        "m.setMatrixAt(1, new THREE.Matrix4().makeTranslation(-1, 0.25, 0));\n"
        "scene.add(m, c);"
    ),
}


@pytest.mark.node
@pytest.mark.skipif(not node_available(), reason="node is not installed")
@pytest.mark.parametrize("case", sorted(CASES))
def test_instances_match_three(case: str) -> None:
    ensure_three()
    code = HEAD + CASES[case]
    result = run_three(code)
    assert result["errors"] == []
    parsed = parse(code, "threejs").scene
    assert parsed.objects
    assert compare_scenes(parsed, engine_scene(result, case)) == []


def test_bad_instances_are_reported_and_the_rest_kept() -> None:
    result = parse(
        HEAD
        + "const m = new THREE.InstancedMesh(new THREE.BoxGeometry(), new THREE.MeshBasicMaterial(), 2);\n"
        "m.setMatrixAt(5, new THREE.Matrix4());\n"
        "m.setMatrixAt(1, window.someMatrix);\n"
        "m.setMatrixAt(0, new THREE.Matrix4().makeTranslation(3, 0.5, 0));\n"
        "scene.add(m);",
        "threejs",
    )
    codes = [d.code for d in result.diagnostics]
    assert "threejs.bad_instance" in codes and "threejs.unknown_transform" in codes
    assert [o.position for o in result.scene.objects] == [(3.0, 0.5, 0.0), (0.0, 0.0, 0.0)]
