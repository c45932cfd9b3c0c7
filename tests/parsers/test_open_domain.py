"""The open domain's layer over the parsers: each object's class from what the reply calls it
(the name, the variable, the comment, then the geometry), the geometry read as in the primitive
domain."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import parse

ROOT = Path(__file__).resolve().parents[2]


def _classes(text: str, language: str) -> list[tuple[str, str]]:
    """(class, the diagnostic code that says where it came from) of each object."""
    result = parse(text, language, domain="open")
    assert result.scene.domain == "open"
    codes = {}
    for d in result.diagnostics:
        if d.code.startswith("open."):
            codes[d.message.split(":", 1)[0]] = d.code.removeprefix("open.class_from_")
    return [(o.class_name, codes[o.id]) for o in result.scene.objects]


THREEJS = """```javascript
// {comment}
const {variable} = new THREE.Mesh(new THREE.BoxGeometry(2, 0.9, 0.9), new THREE.MeshStandardMaterial());
{naming}
{variable}.position.set(0, 0.45, -1);
scene.add({variable});
```"""


@pytest.mark.parametrize(
    ("comment", "variable", "naming", "expected"),
    [
        ("floor lamp", "couch", "couch.name = 'Dining Table';", ("table", "name")),
        ("floor lamp", "couch", "", ("sofa", "variable")),
        ("floor lamp", "m1", "", ("lamp", "comment")),
        ("the first one", "m1", "", ("cube", "geometry")),
    ],
)
def test_threejs_name_then_variable_then_comment_then_geometry(
    comment: str, variable: str, naming: str, expected: tuple[str, str]
) -> None:
    naming = naming.replace("couch.", f"{variable}.")
    text = THREEJS.format(comment=comment, variable=variable, naming=naming)
    assert _classes(text, "threejs") == [expected]


def test_unity_blender_open3d_name_each_object_their_own_way() -> None:
    unity = """```csharp
using UnityEngine;
public class Room : MonoBehaviour {
    void Start() {
        GameObject a = GameObject.CreatePrimitive(PrimitiveType.Cube);
        a.name = "NightStand";
        GameObject couch = GameObject.CreatePrimitive(PrimitiveType.Cube);
        // armchair by the window
        GameObject b = GameObject.CreatePrimitive(PrimitiveType.Cube);
        GameObject c = GameObject.CreatePrimitive(PrimitiveType.Sphere);
    }
}
```"""
    assert _classes(unity, "unity") == [
        ("night stand", "name"),
        ("sofa", "variable"),
        ("chair", "comment"),
        ("sphere", "geometry"),
    ]
    blender = """```python
import bpy
bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 1, 0.4))
bpy.context.active_object.name = "Bookcase"
bpy.ops.mesh.primitive_cube_add(size=1, location=(2, 1, 0.4))
desk = bpy.context.active_object
bpy.ops.mesh.primitive_cube_add(size=1, location=(4, 1, 0.4))  # TV
bpy.ops.mesh.primitive_cube_add(size=1, location=(6, 1, 0.4))
```"""
    assert _classes(blender, "blender") == [
        ("bookshelf", "name"),
        ("desk", "variable"),
        ("television", "comment"),
        ("cube", "geometry"),
    ]
    open3d = """```python
import open3d as o3d
def box(w, h, d):
    mesh = o3d.geometry.TriangleMesh.create_box(w, h, d)
    return mesh
bed = box(2.0, 0.5, 1.6)
wardrobe = box(1.0, 2.0, 0.6)
# a stool
s = o3d.geometry.TriangleMesh.create_box(0.4, 0.45, 0.4)
meshes = [bed, wardrobe, s]
```"""
    assert _classes(open3d, "open3d") == [
        ("bed", "variable"),
        ("cabinet", "variable"),
        ("stool", "comment"),
    ]


def test_helper_call_sites_name_nothing_when_a_loop_calls_it() -> None:
    code = """```python
import open3d as o3d
def box(w):
    return o3d.geometry.TriangleMesh.create_box(w, w, w)
meshes = []
for i in range(3):
    chair = box(0.5)
    meshes.append(chair)
```"""
    # One call site, three objects: the call site cannot say which is which.
    assert [c for c, _ in _classes(code, "open3d")] == ["cube", "cube", "cube"]


def test_json_and_dsl_read_the_class_slot_before_the_name() -> None:
    json_reply = """```json
{"objects": [
  {"id": "chair_3", "class_name": "couch", "position": [0, 0.45, 0], "scale": [2, 0.9, 0.9]},
  {"id": "sofa_left", "class_name": "cube", "position": [2, 0.45, 0], "scale": [2, 0.9, 0.9]},
  {"class_name": "lamp", "position": [3, 0.75, 0], "scale": [0.3, 1.5, 0.3]}
]}
```"""
    assert _classes(json_reply, "json") == [("sofa", "name"), ("sofa", "name"), ("lamp", "name")]
    # In the primitive domain a lamp is a light source, no object; in the open domain furniture.
    assert len(parse(json_reply, "json").scene.objects) == 2
    dsl = """```lisp
(scene
  (entity e1 (shape bedside table) (position 0 0.3 0) (scale 0.5 0.6 0.5))
  (entity dining_table (shape cube) (position 1 0.4 0) (scale 1.2 0.75 0.8))
  (entity e3 (shape cone) (position 2 0.5 0)))
```"""
    assert _classes(dsl, "dsl") == [
        ("night stand", "name"),
        ("table", "name"),
        ("cone", "geometry"),
    ]


def test_primitive_complaints_are_left_out_in_the_open_domain() -> None:
    reply = '```json\n{"objects": [{"class_name": "sofa", "position": [0, 0.4, 0]}]}\n```'
    primitive = {d.code for d in parse(reply, "json").diagnostics}
    open_domain = {d.code for d in parse(reply, "json", domain="open").diagnostics}
    assert "json.unknown_class" in primitive and "build.unknown_class" in primitive
    assert not open_domain & {"json.unknown_class", "build.unknown_class"}


def _fixture_replies() -> list[tuple[str, Path]]:
    found = []
    for language in ("threejs", "unity", "blender", "open3d", "json", "dsl"):
        found += [(language, p) for p in sorted((ROOT / "fixtures" / language).glob("*.txt"))[:8]]
    found += [(p.stem, p) for p in sorted((ROOT / "fixtures" / "real" / "furniture").glob("*.txt"))]
    return found


@pytest.mark.parametrize(
    ("language", "path"), _fixture_replies(), ids=lambda v: getattr(v, "name", v)
)
def test_geometry_is_read_as_in_the_primitive_domain(language: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    primitive, open_domain = parse(text, language), parse(text, language, domain="open")
    assert len(primitive.scene.objects) == len(primitive.sources)
    kept = list(open_domain.scene.objects)
    if len(kept) != len(primitive.scene.objects):
        # Only a lamp (a light in the primitive domain, furniture in the open) may differ.
        kept = [o for o in kept if o.class_name != "lamp"]
    assert [(o.position, o.rotation, o.size, o.rgb) for o in primitive.scene.objects] == [
        (o.position, o.rotation, o.size, o.rgb) for o in kept
    ]
    assert primitive.scene.domain == "primitive"


def test_an_unknown_domain_is_the_callers_mistake() -> None:
    with pytest.raises(ValueError, match="unknown domain 'real'"):
        parse("{}", "json", domain="real")  # type: ignore[arg-type]
