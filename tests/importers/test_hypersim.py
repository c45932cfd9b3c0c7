"""The Hypersim importer on a scene in Hypersim's layout written by the test."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("h5py", reason="the real extra (h5py) is not installed")
pytest.importorskip("pandas", reason="the real extra (pandas) is not installed")

from importers.hypersim import (
    HypersimOptions,
    HypersimReport,
    meters_per_asset_unit,
    read_hypersim,
)
from importers.scenes import UprightBox, assemble
from spatialbabel import Scene
from spatialbabel.cli import main
from spatialbabel.files import FileFormatError, read_json
from tests.importers import hypersim_layout as layout


@pytest.fixture(scope="module")
def scene_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return layout.write_scene(tmp_path_factory.mktemp("hypersim"))


def _assembled(scene_dir: Path, **options: object) -> tuple[list[Scene], HypersimReport]:
    report = HypersimReport()
    sources = read_hypersim([scene_dir], HypersimOptions(**options), report)  # type: ignore[arg-type]
    return [assemble(source).scene for source in sources], report


def _instance(object_id: str) -> int:
    return int(object_id.rsplit("_", 1)[1])


def test_reads_meters_per_asset_unit(scene_dir: Path) -> None:
    assert meters_per_asset_unit(scene_dir) == layout.MPAU


def test_every_box_is_recovered_to_a_micrometre(scene_dir: Path) -> None:
    scenes, _ = _assembled(scene_dir, frames=(0,))
    (scene,) = scenes
    assert scene.domain == "open"
    assert scene.objects, "frame 0 sees objects"
    for obj in scene.objects:
        instance = _instance(obj.id)
        centre, size, yaw = layout.expected_box(instance)
        assert obj.class_name == layout.CLASSES[instance]
        assert obj.rotation[0] == 0.0 and obj.rotation[2] == 0.0
        got = UprightBox(obj.position, obj.size, obj.rotation[1]).corners()
        want = UprightBox(tuple(centre), tuple(size), yaw).corners()
        np.testing.assert_allclose(got, want, atol=1e-6, rtol=0)
        np.testing.assert_allclose(obj.size, size, atol=1e-6, rtol=0)


def test_the_fov_filter_drops_exactly_the_objects_outside_the_view(scene_dir: Path) -> None:
    scenes, report = _assembled(scene_dir)
    assert [s.meta["frame"] for s in scenes] == list(layout.IMAGED_FRAMES)
    assert report.skipped["frame_without_image"] == 1
    assert report.skipped["instance_without_box"] == 1
    assert report.skipped["unlabelled_instance"] == 1
    for scene in scenes:
        frame = scene.meta["frame"]
        candidates = [i for i in layout.CLASSES if i not in layout.EXCLUDED]
        # What the camera sees, by Hypersim's own projection (not the importer's filter).
        seen = {i for i in candidates if layout.in_hypersim_view(frame, layout.INSTANCES[i][1])}
        kept = {_instance(o.id) for o in scene.objects}
        assert kept == seen
        assert scene.meta["fov_dropped"] == len(candidates) - len(seen)
        assert scene.meta["excluded"] == {"floor": 1, "wall": 1}
        if frame == 0:
            assert set(candidates) - kept == layout.OUTSIDE_FRAME_0
    assert 5 in {_instance(o.id) for o in scenes[1].objects}, "frame 2 sees the lamp"


def test_the_floor_is_moved_to_zero_and_the_camera_with_it(scene_dir: Path) -> None:
    (scene,), _ = _assembled(scene_dir, frames=(0,))
    assert scene.meta["floor_height"] == pytest.approx(layout.FLOOR_TOP * layout.MPAU, abs=1e-12)
    camera = scene.frontal_camera
    assert camera is not None
    x, y, z = layout.KEYFRAMES[0][1]
    np.testing.assert_allclose(
        camera.position, np.array([x, z - layout.FLOOR_TOP, -y]) * layout.MPAU, atol=1e-9
    )
    assert (camera.width, camera.height) == (layout.WIDTH, layout.HEIGHT)
    assert camera.fov_x_deg == pytest.approx(60.0)
    sofa = layout.INSTANCES[1][1]
    assert scene.ground.height == 0.0
    assert scene.ground.x_range[0] <= -30 * layout.MPAU <= scene.ground.x_range[1]
    # Our camera projects a point where Hypersim's own projection puts it.
    pixels, depth = camera.project(
        np.array([[sofa[0], sofa[2] - layout.FLOOR_TOP, -sofa[1]]]) * layout.MPAU
    )
    ndc = np.array(
        [
            (pixels[0, 0] - camera.width / 2) / (camera.width / 2),
            -(pixels[0, 1] - camera.height / 2) / (camera.height / 2),
        ]
    )
    np.testing.assert_allclose(ndc, layout.hypersim_ndc(0, sofa), atol=1e-6)
    assert depth[0] > 0


def test_command_writes_a_split_the_scorer_reads(scene_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "split"
    status = main(["import", "hypersim", str(scene_dir.parent), "--out", str(out), "--every", "1"])
    assert status == 0
    manifest = read_json(out / "manifest.json")
    counts = manifest["counts"]
    assert counts["scenes"] == 2
    assert counts["skipped"] == {
        "frame_without_image": 1,
        "instance_without_box": 1,
        "unlabelled_instance": 1,
    }
    assert counts["objects"] + counts["fov_dropped"] == 2 * 6
    subsets = json.loads((out / "subsets.json").read_text())
    assert subsets["eval"] == [f"{layout.SCENE}_cam_00_0000", f"{layout.SCENE}_cam_00_0002"]
    png = (out / "images" / f"{layout.SCENE}_cam_00_0000.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert main(["verify", str(out)]) == 0
    # A second import into the same folder is refused (its manifest would list stale files).
    assert main(["import", "hypersim", str(scene_dir), "--out", str(out)]) == 3


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    scene = layout.write_scene(tmp_path)
    (scene / "_detail" / "metadata_scene.csv").unlink()
    with pytest.raises(FileFormatError, match=r"metadata_scene\.csv: no such file"):
        list(read_hypersim([scene], HypersimOptions(), HypersimReport()))


def test_an_unknown_camera_is_named(scene_dir: Path) -> None:
    with pytest.raises(FileFormatError, match="no camera 'cam_07'; it lists cam_00"):
        list(read_hypersim([scene_dir], HypersimOptions(cameras=("cam_07",)), HypersimReport()))
