"""A small scene in Hypersim's on-disk layout, written by the tests (the real dataset is not
reachable here): the files, HDF5 dataset names and conventions of apple/ml-hypersim's README.

The scene is in asset units of an inch (``meters_per_asset_unit`` 0.0254), Z up, its floor at
z = 12 asset units. Instances (semantic instance id -> NYU40 label):

    0 floor (2)      the floor slab, its top at z = 12
    1 sofa (6)       turned 20 degrees, in view
    2 table (7)      in view
    3 night stand (32), turned -35 degrees, in view
    4 wall (1)       left out as the room's
    5 lamp (35)      behind the camera of frame 0
    6 chair (5)      far to the left of frame 0
    7 other prop (40), in view
    8 a box of NaN   (Hypersim marks instances without geometry so)
    9 unlabelled     (its mesh objects' label is -1)

Camera ``cam_00`` has three keyframes; frames 0 and 2 have a tone-mapped preview, frame 1 has
none. Frame 0 looks along +y from y = -200 (the lamp behind it, the chair far to its left);
frame 2 looks back along -y from y = +400, outside the floor's footprint, so the lamp is in
its view. Which instance each frame sees is worked out by Hypersim's own projection
(``hypersim_ndc``), not by the importer's FOV filter.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

MPAU = 0.0254
FLOOR_TOP = 12.0
SCENE = "ai_001_001"

#: instance -> (NYU40 label, centre, extents (x, y, z) along the box's own axes, yaw degrees).
INSTANCES: dict[int, tuple[int, tuple[float, float, float], tuple[float, float, float], float]] = {
    0: (2, (0.0, 0.0, 11.0), (600.0, 500.0, 2.0), 0.0),
    1: (6, (-30.0, 150.0, 30.0), (80.0, 36.0, 36.0), 20.0),
    2: (7, (40.0, 90.0, 27.0), (48.0, 30.0, 30.0), 0.0),
    3: (32, (70.0, 160.0, 24.0), (20.0, 18.0, 24.0), -35.0),
    4: (1, (0.0, 250.0, 60.0), (600.0, 6.0, 96.0), 0.0),
    5: (35, (10.0, -320.0, 40.0), (14.0, 14.0, 56.0), 0.0),
    6: (5, (-600.0, 40.0, 30.0), (20.0, 20.0, 36.0), 0.0),
    7: (40, (10.0, 120.0, 40.0), (6.0, 6.0, 10.0), 45.0),
    8: (29, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 0.0),
    9: (-1, (20.0, 20.0, 20.0), (1.0, 1.0, 1.0), 0.0),
}
NAN_INSTANCE = 8
EXCLUDED = {4: "wall", 0: "floor"}
OUTSIDE_FRAME_0 = {5, 6}
CLASSES = {
    0: "floor",
    1: "sofa",
    2: "table",
    3: "night stand",
    4: "wall",
    5: "lamp",
    6: "chair",
    7: "other prop",
}

#: keyframe -> (frame index, position, yaw of the view about +z, degrees; 0 looks along +y).
KEYFRAMES = [
    (0, (0.0, -200.0, 66.0), 0.0),
    (1, (0.0, -150.0, 66.0), 10.0),
    (2, (0.0, 400.0, 66.0), 180.0),
]
IMAGED_FRAMES = (0, 2)
WIDTH, HEIGHT = 64, 48


def rotation_z(degrees: float) -> np.ndarray[Any, Any]:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def camera_orientation(yaw: float, pitch: float = -8.0) -> np.ndarray[Any, Any]:
    """World-from-camera (columns: camera right, up, backward), looking along +y turned by
    ``yaw`` about +z and tipped ``pitch`` degrees down."""
    c, s = math.cos(math.radians(pitch)), math.sin(math.radians(pitch))
    forward = np.array([0.0, c, s])
    up = np.array([0.0, -s, c])
    backward = -forward
    right = np.cross(up, backward)
    return rotation_z(yaw) @ np.column_stack([right, up, backward])


Instance = tuple[int, tuple[float, float, float], tuple[float, float, float], float]
Keyframe = tuple[int, tuple[float, float, float], float]


def write_scene(root: Path) -> Path:
    """Write the scene under ``root``; its folder."""
    return write_hypersim_scene(
        root, SCENE, INSTANCES, KEYFRAMES, IMAGED_FRAMES, nan={NAN_INSTANCE}
    )


def write_hypersim_scene(
    root: Path,
    name: str,
    instances: dict[int, Instance],
    keyframes: list[Keyframe],
    imaged: tuple[int, ...],
    *,
    nan: set[int] | frozenset[int] = frozenset(),
    mpau: float = MPAU,
) -> Path:
    """One scene folder in Hypersim's layout: ``instances`` (id -> NYU40 label, centre,
    extents, yaw; asset units, Z up), camera ``cam_00`` with ``keyframes`` (frame, position,
    yaw), a preview for each of the ``imaged`` frames; the instances in ``nan`` stored as NaN."""
    import h5py
    from PIL import Image

    scene = root / name
    detail = scene / "_detail"
    mesh = detail / "mesh"
    mesh.mkdir(parents=True)

    def h5(path: Path, array: Any) -> None:
        with h5py.File(path, "w") as handle:
            handle.create_dataset("dataset", data=array)

    (detail / "metadata_scene.csv").write_text(
        f"parameter_name,parameter_value\nmeters_per_asset_unit,{mpau}\n"
    )
    (detail / "metadata_cameras.csv").write_text("camera_name\ncam_00\n")
    # Two low-level mesh objects per instance, and one belonging to no instance.
    si, sii = [], []
    for instance, (label, *_rest) in instances.items():
        si += [label, label]
        sii += [instance, instance]
    si.append(-1)
    sii.append(-1)
    h5(mesh / "mesh_objects_si.hdf5", np.array(si, dtype=np.int16))
    h5(mesh / "mesh_objects_sii.hdf5", np.array(sii, dtype=np.int16))
    count = max(instances) + 1
    positions = np.zeros((count, 3))
    orientations = np.zeros((count, 3, 3))
    extents = np.zeros((count, 3))
    for instance, (_label, centre, size, yaw) in instances.items():
        positions[instance] = centre
        orientations[instance] = rotation_z(yaw)
        extents[instance] = size
    for instance in nan:
        positions[instance] = np.nan
        orientations[instance] = np.nan
        extents[instance] = np.nan
    box_file = "metadata_semantic_instance_bounding_box_object_aligned_2d_{}.hdf5"
    h5(mesh / box_file.format("positions"), positions)
    h5(mesh / box_file.format("orientations"), orientations.astype(np.float32))
    h5(mesh / box_file.format("extents"), extents)
    camera = detail / "cam_00"
    camera.mkdir()
    h5(camera / "camera_keyframe_positions.hdf5", np.array([k[1] for k in keyframes]))
    h5(
        camera / "camera_keyframe_orientations.hdf5",
        np.array([camera_orientation(k[2]) for k in keyframes], dtype=np.float32),
    )
    h5(camera / "camera_keyframe_frame_indices.hdf5", np.array([k[0] for k in keyframes]))
    previews = scene / "images" / "scene_cam_00_final_preview"
    previews.mkdir(parents=True)
    for frame in imaged:
        shade = (60 + 80 * frame) % 256
        Image.new("RGB", (WIDTH, HEIGHT), (shade, 120, 90)).save(
            previews / f"frame.{frame:04d}.tonemap.jpg", quality=90
        )
    return scene


#: The furniture of the miniature's rooms: NYU40 label, extents (x, y, z; asset units, Z up).
FURNITURE: dict[str, tuple[int, tuple[float, float, float]]] = {
    "cabinet": (3, (36.0, 20.0, 40.0)),
    "bed": (4, (60.0, 80.0, 24.0)),
    "chair": (5, (20.0, 20.0, 34.0)),
    "sofa": (6, (80.0, 36.0, 34.0)),
    "table": (7, (48.0, 30.0, 30.0)),
    "bookshelf": (10, (36.0, 12.0, 72.0)),
    "desk": (14, (50.0, 26.0, 30.0)),
    "dresser": (17, (44.0, 20.0, 34.0)),
    "television": (25, (40.0, 4.0, 24.0)),
    "box": (29, (14.0, 14.0, 12.0)),
    "night stand": (32, (20.0, 18.0, 24.0)),
    "lamp": (35, (14.0, 14.0, 56.0)),
    "other prop": (40, (8.0, 8.0, 10.0)),
}
#: Half the miniature room's floor, asset units (a 6 x 5 m room).
ROOM_HALF = (118.0, 98.0)


def write_miniature(root: Path, *, scenes: int = 5, frames: int = 4, seed: int = 0) -> list[Path]:
    """``scenes`` rooms in Hypersim's layout (``ai_00k_001``), each with a floor, four walls and
    6 to 17 pieces of furniture placed by ``seed``, and ``frames`` imaged frames of ``cam_00``
    from around the room looking across it: ``scenes x frames`` views that see from a few
    pieces to most of them (the 20-view miniature of the paper's 405)."""
    rng = np.random.default_rng(seed)
    folders = []
    kinds = list(FURNITURE)
    hx, hy = ROOM_HALF
    for k in range(scenes):
        instances: dict[int, Instance] = {
            0: (2, (0.0, 0.0, 11.0), (2 * hx + 20, 2 * hy + 20, 2.0), 0.0),
            1: (1, (0.0, hy + 3, 60.0), (2 * hx, 6.0, 96.0), 0.0),
            2: (1, (0.0, -hy - 3, 60.0), (2 * hx, 6.0, 96.0), 0.0),
            3: (1, (hx + 3, 0.0, 60.0), (6.0, 2 * hy, 96.0), 0.0),
            4: (1, (-hx - 3, 0.0, 60.0), (6.0, 2 * hy, 96.0), 0.0),
        }
        pieces = 6 + (4 * k + int(rng.integers(0, 3))) % 12
        for n in range(pieces):
            label, (ex, ey, ez) = FURNITURE[kinds[int(rng.integers(len(kinds)))]]
            x = float(rng.uniform(-hx + 30, hx - 30))
            y = float(rng.uniform(-hy + 30, hy - 30))
            instances[5 + n] = (
                label,
                (x, y, 12.0 + ez / 2),
                (ex, ey, ez),
                float(rng.uniform(-40, 40)),
            )
        keyframes: list[Keyframe] = []
        for f in range(frames):
            # From near a wall, looking across the room, a quarter turn apart.
            yaw = 90.0 * f + float(rng.uniform(-20, 20))
            back = np.array([-math.sin(math.radians(-yaw)), -math.cos(math.radians(-yaw))])
            eye = back * np.array([hx - 15, hy - 15])
            keyframes.append((f, (float(eye[0]), float(eye[1]), 60.0), yaw))
        folders.append(
            write_hypersim_scene(
                root, f"ai_{k + 1:03d}_001", instances, keyframes, tuple(range(frames))
            )
        )
    return folders


def expected_box(instance: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], float]:
    """(centre, size along x/up/depth, yaw) in the scene frame, metres, floor at y = 0:
    worked out from the Hypersim convention (Z up; our (x, y, z) = (x, z, -y))."""
    _label, (x, y, z), (ex, ey, ez), yaw = INSTANCES[instance]
    centre = np.array([x, z - FLOOR_TOP, -y]) * MPAU
    return centre, np.array([ex, ez, ey]) * MPAU, yaw


def hypersim_ndc(frame: int, point: Any) -> np.ndarray[Any, Any]:
    """Hypersim's own projection of a point in asset coordinates to normalised device
    coordinates (code/python/tools/scene_generate_images_bounding_box.py: 60 degree horizontal
    field of view, the camera looking down its -z)."""
    index = [k[0] for k in KEYFRAMES].index(frame)
    _, position, yaw = KEYFRAMES[index]
    rotation = camera_orientation(yaw)
    p_cam = rotation.T @ (np.asarray(point, float) - np.asarray(position, float))
    fov_x = math.pi / 3
    fov_y = 2 * math.atan(HEIGHT * math.tan(fov_x / 2) / WIDTH)
    f_h = math.tan(fov_y / 2)
    f_w = f_h * WIDTH / HEIGHT
    return np.array([p_cam[0] / (-p_cam[2]) / f_w, p_cam[1] / (-p_cam[2]) / f_h])


def in_hypersim_view(frame: int, point: Any) -> bool:
    """Whether the point lies in front of the frame's camera and inside its image."""
    index = [k[0] for k in KEYFRAMES].index(frame)
    _, position, yaw = KEYFRAMES[index]
    depth = -(camera_orientation(yaw).T @ (np.asarray(point, float) - np.asarray(position)))[2]
    return bool(depth > 0 and np.all(np.abs(hypersim_ndc(frame, point)) <= 1.0))
