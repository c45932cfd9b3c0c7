"""Helpers whose body is missing (a stub, cut off, never written), in every imperative
language: a call carrying a shape and a position is an object, its arguments read by parameter
name or by order, with a warning saying which; a helper that ran and made something, works on
an existing object, returns a value or names no shape is left as it is."""

from __future__ import annotations

import pytest

from parsers import parse
from spatialbabel import SceneObject


def read(language: str, code: str) -> tuple[list[SceneObject], list[str]]:
    fence = {"unity": "csharp", "threejs": "javascript"}.get(language, "python")
    result = parse(f"```{fence}\n{code}\n```", language)
    warnings = [d.message for d in result.diagnostics if d.code == "eval.helper_without_body"]
    return list(result.scene.objects), warnings


UNITY = """using UnityEngine;
public class S : MonoBehaviour {{
    void Start() {{ {calls} }}
    {helpers}
}}"""


def test_unity_stub_read_by_parameter_names() -> None:
    (torus,), (warning,) = read(
        "unity",
        UNITY.format(
            calls="CreateTorus(new Vector3(1f, 0.2f, 2f), 0.6f, 0.2f, Color.red);",
            helpers="void CreateTorus(Vector3 center, float majorRadius, float minorRadius, Color color) { }",
        ),
    )
    assert torus.class_name == "torus" and torus.color == "red"
    assert torus.position == pytest.approx((1, 0.2, -2))  # Unity is left-handed
    assert torus.size == pytest.approx((1.6, 0.4, 1.6))
    assert "has no body" in warning and "by parameter name" in warning and "'center'" in warning


def test_unity_never_defined_read_by_order() -> None:
    (cone,), (warning,) = read(
        "unity",
        UNITY.format(
            calls='Spawn("cone", new Vector3(0f, 0.5f, 0f), new Vector3(0.5f, 1f, 0.5f));',
            helpers="",
        ),
    )
    assert cone.class_name == "cone" and cone.size == pytest.approx((0.5, 1, 0.5))
    assert (
        "is never defined" in warning and "by order" in warning and "the string 'cone'" in warning
    )


def test_unity_helpers_that_work_or_work_on_objects_are_left_alone() -> None:
    objects, warnings = read(
        "unity",
        UNITY.format(
            calls=(
                "var t = GameObject.CreatePrimitive(PrimitiveType.Cube);"
                "PlaceTorus(t, new Vector3(1f, 0f, 0f));"  # works on an existing object
                "MakeBox(new Vector3(2f, 0.5f, 0f));"  # makes its object
                "Setup(new Vector3(0f, 1f, 0f));"  # names no shape
            ),
            helpers=(
                "void PlaceTorus(GameObject go, Vector3 p) { }"
                "void Setup(Vector3 p) { }"
                "void MakeBox(Vector3 p) { var b = GameObject.CreatePrimitive(PrimitiveType.Cube); b.transform.position = p; }"
            ),
        ),
    )
    assert [o.class_name for o in objects] == ["cube", "cube"] and warnings == []


def test_threejs_stub_joins_the_scene_it_is_given() -> None:
    (pyramid,), (warning,) = read(
        "threejs",
        "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
        "function addPyramid(scene, x, y, z, size, color) { /* TODO */ }\n"
        "addPyramid(scene, 1, 0.5, 0, 1.2, 0x00ff00);\n"
        "new THREE.WebGLRenderer().render(scene);",
    )
    assert pyramid.class_name == "pyramid" and pyramid.color == "green"
    assert pyramid.position == pytest.approx((1, 0.5, 0))
    assert pyramid.size == pytest.approx((1.2, 1.2, 1.2))
    assert "position (1, 0.5, 0) from x, y, z" in warning


def test_threejs_helper_returning_a_mesh_is_not_replaced() -> None:
    objects, warnings = read(
        "threejs",
        "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
        "function makeCone(p) { const m = new THREE.Mesh(new THREE.ConeGeometry(0.5, 1)); m.position.copy(p); return m; }\n"
        "scene.add(makeCone(new THREE.Vector3(0, 0.5, 0)));",
    )
    assert [o.class_name for o in objects] == ["cone"] and warnings == []


def test_blender_stub_stands_on_blenders_ground() -> None:
    (cone,), (warning,) = read(
        "blender",
        "import bpy\n"
        "def add_cone(location, radius, height, color):\n    raise NotImplementedError\n"
        "add_cone((1.0, 2.0, 0.5), 0.25, 1.0, (0.0, 0.0, 1.0, 1.0))",
    )
    # Blender (x, y, z) is canonical (x, z, -y); the cone stands along Blender's +Z.
    assert cone.position == pytest.approx((1, 0.5, -2))
    assert cone.size == pytest.approx((0.5, 1, 0.5)) and cone.color == "blue"
    assert "has no body" in warning


def test_blender_helper_that_made_its_object_is_not_read_again() -> None:
    objects, warnings = read(
        "blender",
        "import bpy\n"
        "def add_sphere(location, radius):\n"
        "    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, location=location)\n"
        "add_sphere((0, 0, 1), 0.5)",
    )
    assert [o.class_name for o in objects] == ["sphere"] and warnings == []


def test_open3d_stub_counts_as_shown() -> None:
    (box, cylinder), (warning,) = read(
        "open3d",
        "import open3d as o3d\n"
        "def make_cylinder(center, radius, height, color):\n    ...\n"
        "box = o3d.geometry.TriangleMesh.create_box()\n"
        "make_cylinder([2, 0.5, 0], 0.25, 1.0, [1, 0, 0])\n"
        "o3d.visualization.draw_geometries([box])",
    )
    assert box.class_name == "cube" and cylinder.class_name == "cylinder"
    assert cylinder.position == pytest.approx((2, 0.5, 0)) and cylinder.color == "red"
    assert cylinder.size == pytest.approx((0.5, 1, 0.5))
    assert "'radius'" in warning
