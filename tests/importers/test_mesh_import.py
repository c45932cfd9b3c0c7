"""The glTF/OBJ importer on the furniture scene built in Blender (tests/importers/furniture.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("trimesh", reason="the real extra (trimesh) is not installed")

from importers.mesh_scene import CameraSpec, LabelMap, MeshReport, read_mesh_scene
from importers.scenes import UprightBox, assemble, canonical_yaw
from spatialbabel import Camera, Scene
from spatialbabel.cli import main
from spatialbabel.files import FileFormatError, read_json
from tests.importers import furniture

pytestmark = pytest.mark.bpy


def _spec_camera() -> CameraSpec:
    return CameraSpec(
        tuple(furniture.to_scene_frame(furniture.EYE)),
        tuple(furniture.to_scene_frame(furniture.TARGET)),
        furniture.FOV_Y_DEG,
    )


def _import(path: Path, **options: Any) -> tuple[Scene, MeshReport]:
    report = MeshReport()
    source = read_mesh_scene(path, LabelMap.of(furniture.LABELS), report, **options)
    return assemble(source).scene, report


def _check_boxes(scene: Scene, atol: float) -> None:
    inside = [name for name in furniture.PIECES if name not in furniture.OUTSIDE]
    assert sorted(o.id for o in scene.objects) == sorted(inside)
    for obj in scene.objects:
        assert obj.class_name == furniture.CLASSES[obj.id]
        centre, size, yaw = furniture.true_box(obj.id)
        want = canonical_yaw(UprightBox(tuple(centre), tuple(size), yaw))
        got = UprightBox(obj.position, obj.size, obj.rotation[1])
        assert -45.0 < got.yaw_deg <= 45.0
        np.testing.assert_allclose(got.corners(), want.corners(), atol=atol, rtol=0)
        np.testing.assert_allclose(got.size, want.size, atol=atol, rtol=0)
        assert got.yaw_deg == pytest.approx(want.yaw_deg, abs=1e-4)


def test_gltf_boxes_classes_and_fov_filter(furniture_files: Path) -> None:
    scene, report = _import(furniture_files / "furniture.glb")
    _check_boxes(scene, atol=1e-6)
    assert scene.meta["fov_dropped"] == len(furniture.OUTSIDE)
    assert scene.meta["objects_in_source"] == len(furniture.PIECES)
    assert report.skipped == {"node_without_mesh": 1}  # the camera's node


def test_gltf_camera_is_the_files(furniture_files: Path) -> None:
    scene, _ = _import(furniture_files / "furniture.glb")
    camera = scene.frontal_camera
    assert camera is not None
    expected = Camera.looking_at(
        "expected",
        tuple(furniture.to_scene_frame(furniture.EYE)),
        tuple(furniture.to_scene_frame(furniture.TARGET)),
        width=furniture.WIDTH,
        height=furniture.HEIGHT,
        fov_y_deg=furniture.FOV_Y_DEG,
    )
    np.testing.assert_allclose(camera.pose, expected.pose, atol=1e-6)
    assert camera.fov_y_deg == pytest.approx(furniture.FOV_Y_DEG, abs=1e-5)
    assert (camera.width, camera.height) == (furniture.WIDTH, furniture.HEIGHT)


def test_obj_with_a_camera_from_the_command_line(furniture_files: Path) -> None:
    # OBJ writes six decimals: the boxes are as exact as the file (here within 1e-6).
    scene, _ = _import(furniture_files / "furniture.obj", camera=_spec_camera())
    _check_boxes(scene, atol=1e-6)


def test_obj_without_a_camera_is_refused(furniture_files: Path) -> None:
    with pytest.raises(FileFormatError, match="holds no camera"):
        _import(furniture_files / "furniture.obj")


def test_node_names_read_through_the_taxonomy_without_a_map(furniture_files: Path) -> None:
    report = MeshReport()
    source = read_mesh_scene(furniture_files / "furniture.glb", LabelMap(), report)
    classes = {o.id: o.class_name for o in source.objects}
    assert classes == {**furniture.CLASSES, "Shelf": "shelves"}


def test_label_map_rules() -> None:
    labels = LabelMap.of({"Floor*": None, "Settee*": "couch", "*": "other prop"})
    assert labels.classify("floor_main") == (None, "ignored")
    assert labels.classify("SETTEE.001") == ("sofa", "map")
    assert labels.classify("Thing") == ("other prop", "map")
    with pytest.raises(
        ValueError, match=r"'Bed\*': 'bedd' is no class of the taxonomy.*did you mean"
    ):
        LabelMap.of({"Bed*": "bedd"})


def test_command(furniture_files: Path, tmp_path: Path) -> None:
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps(furniture.LABELS))
    out = tmp_path / "split"
    glb = furniture_files / "furniture.glb"
    assert main(["import", "mesh", str(glb), "--labels", str(labels), "--out", str(out)]) == 0
    counts = read_json(out / "manifest.json")["counts"]
    assert counts["fov_dropped"] == 2 and counts["objects"] == 4
    assert (out / "images" / "furniture.png").read_bytes().startswith(b"\x89PNG")
    bad = tmp_path / "bad.json"
    bad.write_text('{"Table*": "tabel"}')
    status = main(["import", "mesh", str(glb), "--labels", str(bad), "--out", str(tmp_path / "x")])
    assert status == 3
