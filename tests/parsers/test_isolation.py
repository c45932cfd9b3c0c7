"""One reply cannot change how the next is read: parts of the engines are built once per process
and shared, so a script that overwrites library names must only change its own run."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import parse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

VANDALS = {
    "blender": """import bpy, mathutils, math
import numpy as np
bpy.ops.mesh.primitive_cube_add = lambda **k: None
bpy.ops.mesh = None
mathutils.Vector = None
mathutils.Euler.x = 5
bpy.data.materials.new = None
math.radians = lambda x: 0
np.pi = 3
np.linalg.inv = None
bpy.ops.transform.resize = None
""",
    "open3d": """import open3d as o3d
import numpy as np
o3d.geometry.TriangleMesh.create_box = None
o3d.geometry.TriangleMesh = None
np.array = None
np.deg2rad = lambda x: 0
""",
    "threejs": """import * as THREE from 'three';
THREE.BoxGeometry = null;
THREE.MathUtils.degToRad = (x) => 0;
Math.PI = 3;
Math.sin = () => 0;
Object.assign = null;
Array.prototype.map = null;
THREE.Color.prototype.setHex = null;
""",
    "unity": """using UnityEngine;
public class V : MonoBehaviour {
    void Start() {
        Color.red = new Color(0f, 1f, 0f);
        Vector3.one = Vector3.zero;
        Mathf.PI = 3f;
    }
}
""",
}


@pytest.mark.parametrize("language", sorted(VANDALS))
def test_a_script_overwriting_library_names_changes_only_its_own_run(language: str) -> None:
    paths = sorted((FIXTURES / language).glob("*.txt"))
    replies = [p.read_text() for p in paths if p.stem.count(".") == 0]  # not the completed twins
    before = [parse(reply, language).to_dict() for reply in replies]
    parse(VANDALS[language], language)
    after = [parse(reply, language).to_dict() for reply in replies]
    assert after == before
