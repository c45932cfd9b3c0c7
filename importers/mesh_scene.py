"""Any glTF 2.0 or OBJ scene with one node per object, read through ``trimesh``.

- Objects: the top-level nodes of the scene (a node wrapping the whole scene, with no mesh of
  its own, is looked through); each object is every mesh at or below its node, placed by the
  node transforms. In an OBJ file, each ``o`` object is one.
- Box: upright and oriented (``trimesh.bounds.oriented_bounds_2D``: the smallest rectangle
  around the object's vertices seen from above, and their vertical extent), its yaw chosen in
  (-45, 45] degrees since a fitted box has no front.
- Class: from the node's name, through the user's label map (``{"Sofa*": "sofa", "Floor":
  null}``: case-insensitive shell patterns, the first that matches wins, ``null`` leaves the
  node out), then through the taxonomy itself (a node called ``Couch.001`` is a sofa). A class
  is any word of the taxonomy (its synonyms included); a node nothing names is left out and
  counted.
- Frame: glTF is Y up in metres by its specification; for OBJ files, which say neither,
  ``up`` and ``unit`` (metres per file unit) tell.
- Camera: given (``CameraSpec``), else the file's first camera (glTF; looking down its -Z
  with +Y up, as ours), else an error: the picture a model sees needs one.

``trimesh`` is imported here only.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import struct
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np

from importers.images import png_of
from importers.scenes import SourceObject, SourceScene, UprightBox, canonical_yaw
from spatialbabel import Camera
from spatialbabel.files import FileFormatError
from spatialbabel.frames import Z_UP_FRAME, look_at_rotation, quaternion_to_matrix
from spatialbabel.open_classes import open_class, open_class_in, taxonomy

Up = Literal["y", "z"]
SUFFIXES: Final = (".glb", ".gltf", ".obj")
IMAGE_SUFFIXES: Final = (".png", ".jpg", ".jpeg")
#: The image size of a camera from the file when no picture tells it.
DEFAULT_HEIGHT: Final = 768


@dataclass(frozen=True)
class CameraSpec:
    """A camera given on the command line, in the scene frame (Y up, metres): where it is, the
    point it looks at, its vertical field of view and image size (None: the picture's)."""

    eye: tuple[float, float, float]
    target: tuple[float, float, float]
    fov_y_deg: float = 60.0
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True)
class LabelMap:
    """Node-name patterns -> class (None: leave the node out), in the order given."""

    rules: tuple[tuple[str, str | None], ...] = ()

    @classmethod
    def load(cls, path: Path) -> LabelMap:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileFormatError(path, "no such file") from None
        except json.JSONDecodeError as error:
            raise FileFormatError(path, f"not valid JSON: {error.msg}", line=error.lineno) from None
        if not isinstance(data, dict):
            raise FileFormatError(
                path, 'expected an object of pattern -> class, e.g. {"Sofa*": "sofa"}'
            )
        try:
            return cls.of(data)
        except ValueError as error:
            raise FileFormatError(path, str(error)) from None

    @classmethod
    def of(cls, data: Mapping[str, object]) -> LabelMap:
        rules: list[tuple[str, str | None]] = []
        for pattern, value in data.items():
            if value is None:
                rules.append((pattern, None))
                continue
            found = open_class(value) if isinstance(value, str) else None
            if found is None:
                words = sorted({*taxonomy().by_key, *taxonomy().names})
                close = difflib.get_close_matches(str(value).lower().replace(" ", ""), words, 3)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise ValueError(
                    f"{pattern!r}: {value!r} is no class of the taxonomy "
                    f"(spatialbabel/data/open_classes.csv){hint}"
                )
            rules.append((pattern, found))
        return cls(tuple(rules))

    def classify(self, name: str) -> tuple[str | None, str]:
        """(class or None, how it was decided: "map", "ignored", "name", "unlabelled")."""
        for pattern, class_name in self.rules:
            if fnmatch.fnmatchcase(name.lower(), pattern.lower()):
                return class_name, "map" if class_name is not None else "ignored"
        found = open_class_in(name)
        return (found[0], "name") if found is not None else (None, "unlabelled")


@dataclass
class MeshReport:
    skipped: Counter[str] = field(default_factory=Counter)
    unlabelled: list[str] = field(default_factory=list)


def fit_upright(points: Any) -> UprightBox:
    """The upright oriented box around ``points`` (N x 3, scene frame)."""
    import trimesh

    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    plan = pts[:, [0, 2]]
    bounds: Any = trimesh.bounds  # the function has no annotations
    transform, extents = bounds.oriented_bounds_2D(plan)
    # ``transform`` takes the points to a rectangle centred at the origin along the axes; its
    # first row is the rectangle's first axis, in (x, z).
    rotation, translation = transform[:2, :2], transform[:2, 2]
    centre_xz = -rotation.T @ translation
    a, b = rotation[0]
    # Our yaw turns the local x axis to (cos, 0, -sin): (a, b) = (cos yaw, -sin yaw).
    yaw = math.degrees(math.atan2(-b, a))
    low, high = float(pts[:, 1].min()), float(pts[:, 1].max())
    box = UprightBox(
        (float(centre_xz[0]), (low + high) / 2, float(centre_xz[1])),
        (float(extents[0]), high - low, float(extents[1])),
        yaw,
    )
    return canonical_yaw(box)


def _to_scene(points: Any, up: Up, unit: float) -> np.ndarray[Any, Any]:
    pts = np.asarray(points, dtype=float) * unit
    return pts @ Z_UP_FRAME.to_canonical.T if up == "z" else pts


def _load(path: Path) -> Any:
    import trimesh

    if path.suffix.lower() not in SUFFIXES:
        raise FileFormatError(path, f"not a scene file trimesh reads here ({', '.join(SUFFIXES)})")
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    try:
        if path.suffix.lower() == ".obj":
            return trimesh.load_scene(path, split_objects=True, group_material=False)
        return trimesh.load_scene(path)
    except Exception as error:  # trimesh raises many kinds on a broken file
        raise FileFormatError(
            path, f"trimesh cannot read it: {type(error).__name__}: {error}"
        ) from None


def _object_nodes(scene: Any) -> list[str]:
    graph = scene.graph
    children: dict[str, list[str]] = graph.transforms.children
    with_geometry = set(graph.nodes_geometry)
    top = list(children.get(graph.base_frame, []))
    while len(top) == 1 and top[0] not in with_geometry and children.get(top[0]):
        top = list(children[top[0]])
    return top


def _descendants(scene: Any, node: str) -> list[str]:
    children: dict[str, list[str]] = scene.graph.transforms.children
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def _points(scene: Any, node: str) -> np.ndarray[Any, Any]:
    geometry_nodes = set(scene.graph.nodes_geometry)
    chunks = []
    for name in _descendants(scene, node):
        if name not in geometry_nodes:
            continue
        transform, geometry_name = scene.graph[name]
        vertices = getattr(scene.geometry.get(geometry_name), "vertices", None)
        if vertices is None or len(vertices) == 0:
            continue
        homogeneous = np.column_stack([np.asarray(vertices, float), np.ones(len(vertices))])
        chunks.append((homogeneous @ np.asarray(transform, float).T)[:, :3])
    return np.vstack(chunks) if chunks else np.zeros((0, 3))


def _gltf_json(path: Path) -> dict[str, Any] | None:
    """The JSON of a .gltf or .glb file (None for other files)."""
    suffix = path.suffix.lower()
    data = path.read_bytes()
    if suffix == ".gltf":
        loaded = json.loads(data)
        return loaded if isinstance(loaded, dict) else None
    if suffix == ".glb" and data[:4] == b"glTF" and len(data) >= 20:
        length, kind = struct.unpack("<II", data[12:20])
        if kind == 0x4E4F534A:  # "JSON"
            loaded = json.loads(data[20 : 20 + length])
            return loaded if isinstance(loaded, dict) else None
    return None


def _node_matrix(node: Mapping[str, Any]) -> np.ndarray[Any, Any]:
    if "matrix" in node:
        return np.asarray(node["matrix"], dtype=float).reshape(4, 4).T  # column-major
    matrix = np.eye(4)
    x, y, z, w = node.get("rotation", (0.0, 0.0, 0.0, 1.0))
    scale = np.asarray(node.get("scale", (1.0, 1.0, 1.0)), dtype=float)
    matrix[:3, :3] = quaternion_to_matrix((w, x, y, z)) @ np.diag(scale)
    matrix[:3, 3] = node.get("translation", (0.0, 0.0, 0.0))
    return matrix


def file_camera(path: Path, width: int | None, height: int | None) -> Camera | None:
    """The first camera of a glTF file's scene, as ours (None when it has none); a broken
    camera or node is a ``FileFormatError`` naming the file."""
    try:
        return _file_camera(path, width, height)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise FileFormatError(path, f"its camera cannot be read: {error!r}") from None


def _file_camera(path: Path, width: int | None, height: int | None) -> Camera | None:
    document = _gltf_json(path)
    if document is None or not document.get("cameras"):
        return None
    nodes = document.get("nodes", [])
    scenes = document.get("scenes", [])
    roots = scenes[document.get("scene", 0)].get("nodes", []) if scenes else range(len(nodes))
    stack = [(index, np.eye(4)) for index in reversed(list(roots))]
    while stack:
        index, parent = stack.pop()
        node = nodes[index]
        world = parent @ _node_matrix(node)
        if "camera" in node:
            camera = document["cameras"][node["camera"]]
            if camera.get("type") != "perspective":
                continue
            perspective = camera["perspective"]
            fov_y = math.degrees(float(perspective["yfov"]))
            if height is None:
                height = DEFAULT_HEIGHT
            if width is None:
                aspect = float(perspective.get("aspectRatio", 4 / 3))
                width = round(height * aspect)
            pose = np.eye(4)
            # The node's scale (if any) is not the camera's: keep only its rotation.
            u, _, vt = np.linalg.svd(world[:3, :3])
            pose[:3, :3] = u @ vt
            pose[:3, 3] = world[:3, 3]
            name = str(node.get("name") or camera.get("name") or "camera")
            return Camera(
                name, width, height, fov_y, tuple(tuple(float(v) for v in r) for r in pose)
            )
        stack.extend((child, world) for child in reversed(node.get("children", [])))
    return None


def spec_camera(spec: CameraSpec, width: int | None, height: int | None) -> Camera:
    w = spec.width or width
    h = spec.height or height
    if w is None or h is None:
        raise ValueError(
            "the camera's image size is unknown: give --width and --height, or a picture"
        )
    pose = np.eye(4)
    pose[:3, :3] = look_at_rotation(spec.eye, spec.target)
    pose[:3, 3] = spec.eye
    return Camera("camera", w, h, spec.fov_y_deg, tuple(tuple(float(v) for v in r) for r in pose))


def sibling_image(path: Path) -> Path | None:
    """The picture beside a scene file with its name (``room.glb`` -> ``room.png``)."""
    for suffix in IMAGE_SUFFIXES:
        candidate = path.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None


def read_mesh_scene(
    path: Path,
    labels: LabelMap,
    report: MeshReport,
    *,
    camera: CameraSpec | None = None,
    image: Path | None = None,
    up: Up = "y",
    unit: float = 1.0,
    scene_id: str | None = None,
) -> SourceScene:
    """One scene file as a source scene (the rules in this module's docstring)."""
    if not unit > 0:
        raise ValueError(f"unit must be positive, got {unit}")
    if path.suffix.lower() != ".obj" and (up != "y" or unit != 1.0):
        raise ValueError(f"{path.name}: glTF is Y up in metres; up and unit are for OBJ files")
    scene = _load(path)
    objects: list[SourceObject] = []
    for node in _object_nodes(scene):
        points = _points(scene, node)
        if len(points) == 0:
            report.skipped["node_without_mesh"] += 1
            continue
        class_name, how = labels.classify(node)
        if class_name is None:
            report.skipped[f"{how}_node"] += 1
            if how == "unlabelled":
                report.unlabelled.append(node)
            continue
        box = fit_upright(_to_scene(points, up, unit))
        objects.append(SourceObject(node, class_name, box))
    picture = image or sibling_image(path)
    png, width, height = png_of(picture) if picture is not None else (None, None, None)
    if camera is not None:
        view = spec_camera(camera, width, height)
    else:
        found = file_camera(path, width, height)
        if found is None:
            raise FileFormatError(
                path, "holds no camera; give one (--camera-eye, --camera-target, --fov-y)"
            )
        view = found
    return SourceScene(
        scene_id or path.stem,
        objects,
        view,
        png,
        {"source": path.suffix.lower().lstrip("."), "file": path.name},
    )


__all__ = [
    "CameraSpec",
    "LabelMap",
    "MeshReport",
    "file_camera",
    "fit_upright",
    "read_mesh_scene",
    "sibling_image",
]
