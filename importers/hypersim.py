"""Hypersim's on-disk layout (apple/ml-hypersim) read into scenes of the open domain.

One scene per (camera trajectory, frame) that has its tone-mapped preview image. What is read,
per ``ai_VVV_NNN`` scene folder (docs/real-scenes.md has the whole layout):

- ``_detail/metadata_scene.csv``: ``meters_per_asset_unit`` (a ``parameter_name,
  parameter_value`` table); every position and length below is in asset units;
- ``_detail/metadata_cameras.csv``: the trajectories (``camera_name``: cam_00, ...);
- ``_detail/<cam>/camera_keyframe_positions.hdf5`` (N x 3), ``..._orientations.hdf5``
  (N x 3 x 3, world-from-camera, camera +x right, +y up, +z backwards: OpenGL's convention,
  ours) and, when present, ``..._frame_indices.hdf5`` (the frame of each keyframe);
- ``_detail/mesh/mesh_objects_si.hdf5`` and ``mesh_objects_sii.hdf5``: the NYU40 label and the
  semantic instance of every low-level mesh object; an instance's label is its objects' label;
- ``_detail/mesh/metadata_semantic_instance_bounding_box_object_aligned_2d_{positions,
  orientations,extents}.hdf5``: each instance's box, indexed by instance id, its z axis up;
- ``images/scene_<cam>_final_preview/frame.IIII.tonemap.jpg``: the picture.

Every HDF5 file holds its array in the dataset ``dataset``. The world is Z up (gravity along
-z); it becomes our Y-up frame by ``spatialbabel.frames.Z_UP_FRAME``. The images have a 60
degree horizontal field of view (``evermotion_dataset/_vray_user_params.py``); the per-scene
tilt-shift some scenes were rendered with is not modelled (our cameras have a centred
principal point). ``h5py``, ``pandas`` and Pillow are imported here only.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from importers.images import png_of
from importers.scenes import SourceObject, SourceScene, UprightBox
from spatialbabel import Camera
from spatialbabel.files import FileFormatError
from spatialbabel.frames import Z_UP_FRAME
from spatialbabel.open_classes import nyu40_class

#: Hypersim's horizontal field of view (radians: pi / 3).
FOV_X_DEG: Final = 60.0
#: The HDF5 dataset every Hypersim array is stored in.
DATASET: Final = "dataset"
BOX_FILE: Final = "metadata_semantic_instance_bounding_box_object_aligned_2d_{}.hdf5"
PREVIEW: Final = re.compile(r"^frame\.(\d+)\.tonemap\.jpg$")
#: A box whose z axis leans further than this from the vertical is not upright.
UPRIGHT_TOLERANCE: Final = 1e-4


@dataclass(frozen=True)
class HypersimOptions:
    """Which cameras and frames to read: ``cameras`` by name (all when empty), ``frames`` by
    index (all with a preview image when empty), then every ``every``-th of those."""

    cameras: tuple[str, ...] = ()
    frames: tuple[int, ...] = ()
    every: int = 1

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError(f"every must be at least 1, got {self.every}")


@dataclass
class HypersimReport:
    """What was read and what was passed over, counted by reason."""

    skipped: Counter[str] = field(default_factory=Counter)


def _h5(path: Path) -> np.ndarray[Any, Any]:
    import h5py

    if not path.is_file():
        raise FileFormatError(path, "no such file (is this a Hypersim scene folder?)")
    try:
        with h5py.File(path, "r") as handle:
            if DATASET not in handle:
                raise FileFormatError(path, f"no HDF5 dataset {DATASET!r}")
            return np.asarray(handle[DATASET][()])
    except OSError as error:
        raise FileFormatError(path, f"not a readable HDF5 file: {error}") from None


def _csv(path: Path) -> Any:
    import pandas as pd

    if not path.is_file():
        raise FileFormatError(path, "no such file (is this a Hypersim scene folder?)")
    try:
        # Hypersim's CSVs pad their cells with spaces after the commas.
        return pd.read_csv(path, skipinitialspace=True)
    except (ValueError, pd.errors.ParserError) as error:
        raise FileFormatError(path, f"not a readable CSV table: {error}") from None


def meters_per_asset_unit(scene_dir: Path) -> float:
    path = scene_dir / "_detail" / "metadata_scene.csv"
    table = _csv(path)
    if not {"parameter_name", "parameter_value"} <= set(table.columns):
        raise FileFormatError(path, "expected the columns parameter_name, parameter_value")
    rows = table[table["parameter_name"].astype(str).str.strip() == "meters_per_asset_unit"]
    if len(rows) != 1:
        raise FileFormatError(path, "no meters_per_asset_unit row")
    value = float(rows["parameter_value"].iloc[0])
    if not math.isfinite(value) or value <= 0:
        raise FileFormatError(path, f"meters_per_asset_unit must be positive, got {value}")
    return value


def camera_names(scene_dir: Path) -> list[str]:
    path = scene_dir / "_detail" / "metadata_cameras.csv"
    table = _csv(path)
    if "camera_name" not in table.columns:
        raise FileFormatError(path, "expected a camera_name column")
    return [str(name).strip() for name in table["camera_name"]]


def _upright_box(position: Any, orientation: Any, extents: Any, scale: float) -> UprightBox:
    """A Hypersim box (asset units, Z up) as an upright box of the scene frame (metres)."""
    rotation = np.asarray(orientation, dtype=float)
    if abs(rotation[2, 2] - 1.0) > UPRIGHT_TOLERANCE:
        raise ValueError("its z axis is not vertical")
    # Its x axis turned by theta about +z is our yaw theta about +y (Z_UP_FRAME.rotation).
    yaw = math.degrees(math.atan2(rotation[1, 0], rotation[0, 0]))
    centre = Z_UP_FRAME.point(np.asarray(position, dtype=float) * scale)
    ex, ey, ez = (float(v) * scale for v in extents)
    return UprightBox(centre, (ex, ez, ey), yaw)


def instance_objects(scene_dir: Path, scale: float, report: HypersimReport) -> list[SourceObject]:
    """Every labelled semantic instance with a finite box, in instance order."""
    mesh = scene_dir / "_detail" / "mesh"
    si = _h5(mesh / "mesh_objects_si.hdf5").astype(np.int64).ravel()
    sii = _h5(mesh / "mesh_objects_sii.hdf5").astype(np.int64).ravel()
    if si.shape != sii.shape:
        raise FileFormatError(
            mesh, f"mesh_objects_si ({len(si)}) and mesh_objects_sii ({len(sii)}) differ in length"
        )
    positions = _h5(mesh / BOX_FILE.format("positions")).reshape(-1, 3)
    orientations = _h5(mesh / BOX_FILE.format("orientations")).reshape(-1, 3, 3)
    extents = _h5(mesh / BOX_FILE.format("extents")).reshape(-1, 3)
    found = []
    for instance in np.unique(sii[sii >= 0]).tolist():
        labels = Counter(int(v) for v in si[sii == instance] if v > 0)
        class_name = nyu40_class(labels.most_common(1)[0][0]) if labels else None
        if class_name is None:
            report.skipped["unlabelled_instance"] += 1
            continue
        if instance >= len(positions) or instance >= len(orientations) or instance >= len(extents):
            report.skipped["instance_without_box"] += 1
            continue
        parts = (positions[instance], orientations[instance], extents[instance])
        if not all(np.isfinite(p).all() for p in parts):
            report.skipped["instance_without_box"] += 1
            continue
        try:
            box = _upright_box(*parts, scale)
        except ValueError:
            report.skipped["instance_not_upright"] += 1
            continue
        found.append(SourceObject(f"{class_name.replace(' ', '_')}_{instance}", class_name, box))
    return found


def _orthonormal(rotation: Any) -> np.ndarray[Any, Any]:
    """The nearest rotation (Hypersim stores float32 matrices)."""
    u, _, vt = np.linalg.svd(np.asarray(rotation, dtype=float))
    nearest = u @ vt
    if np.linalg.det(nearest) < 0:
        u[:, -1] *= -1
        nearest = u @ vt
    return np.asarray(nearest, dtype=float)


def hypersim_camera(
    name: str, position: Any, orientation: Any, scale: float, width: int, height: int
) -> Camera:
    """A Hypersim camera pose (asset units, Z-up world, OpenGL camera axes) as ours."""
    pose = np.eye(4)
    pose[:3, :3] = Z_UP_FRAME.to_canonical @ _orthonormal(orientation)
    pose[:3, 3] = Z_UP_FRAME.point(np.asarray(position, dtype=float) * scale)
    half_x = math.radians(FOV_X_DEG) / 2
    fov_y = math.degrees(2 * math.atan(math.tan(half_x) * height / width))
    return Camera(name, width, height, fov_y, tuple(tuple(float(v) for v in row) for row in pose))


def previews(scene_dir: Path, camera: str) -> dict[int, Path]:
    """Frame index -> its tone-mapped preview image."""
    folder = scene_dir / "images" / f"scene_{camera}_final_preview"
    found: dict[int, Path] = {}
    if folder.is_dir():
        for path in folder.iterdir():
            match = PREVIEW.match(path.name)
            if match:
                found[int(match.group(1))] = path
    return found


def scene_folders(root: Path) -> list[Path]:
    """``root`` itself when it is a Hypersim scene (it has ``_detail/``), else every scene
    folder under it, sorted."""
    if (root / "_detail").is_dir():
        return [root]
    found = sorted(p.parent for p in root.glob("*/_detail") if p.is_dir())
    if not found:
        raise FileFormatError(root, "no Hypersim scene folder (one with _detail/) here or below")
    return found


def read_scene(
    scene_dir: Path, options: HypersimOptions, report: HypersimReport
) -> Iterator[SourceScene]:
    """The scenes of one Hypersim scene folder: one per chosen camera and frame."""
    scale = meters_per_asset_unit(scene_dir)
    objects = instance_objects(scene_dir, scale, report)
    names = camera_names(scene_dir)
    unknown = [c for c in options.cameras if c not in names]
    if unknown:
        raise FileFormatError(
            scene_dir / "_detail" / "metadata_cameras.csv",
            f"no camera {unknown[0]!r}; it lists {', '.join(names)}",
        )
    for camera in [c for c in names if not options.cameras or c in options.cameras]:
        folder = scene_dir / "_detail" / camera
        positions = _h5(folder / "camera_keyframe_positions.hdf5").reshape(-1, 3)
        orientations = _h5(folder / "camera_keyframe_orientations.hdf5").reshape(-1, 3, 3)
        index_file = folder / "camera_keyframe_frame_indices.hdf5"
        frames = (
            _h5(index_file).astype(np.int64).ravel().tolist()
            if index_file.is_file()
            else list(range(len(positions)))
        )
        if not len(positions) == len(orientations) == len(frames):
            raise FileFormatError(folder, "camera keyframe files differ in length")
        keyframe = {frame: k for k, frame in enumerate(frames)}
        images = previews(scene_dir, camera)
        chosen = sorted(options.frames) if options.frames else sorted(keyframe)
        chosen = chosen[:: options.every]
        for frame in chosen:
            if frame not in keyframe:
                report.skipped["frame_without_pose"] += 1
                continue
            if frame not in images:
                report.skipped["frame_without_image"] += 1
                continue
            png, width, height = png_of(images[frame])
            k = keyframe[frame]
            yield SourceScene(
                f"{scene_dir.name}_{camera}_{frame:04d}",
                list(objects),
                hypersim_camera(camera, positions[k], orientations[k], scale, width, height),
                png,
                {
                    "source": "hypersim",
                    "hypersim_scene": scene_dir.name,
                    "camera": camera,
                    "frame": frame,
                    "meters_per_asset_unit": scale,
                },
            )


def read_hypersim(
    roots: Sequence[Path], options: HypersimOptions, report: HypersimReport
) -> Iterator[SourceScene]:
    """Every chosen frame of every Hypersim scene folder under ``roots``."""
    for root in roots:
        for scene_dir in scene_folders(root):
            yield from read_scene(scene_dir, options, report)


__all__ = [
    "FOV_X_DEG",
    "HypersimOptions",
    "HypersimReport",
    "hypersim_camera",
    "instance_objects",
    "meters_per_asset_unit",
    "read_hypersim",
    "read_scene",
    "scene_folders",
]
