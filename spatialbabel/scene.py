"""The scene graph every stage exchanges: ``Scene``, ``SceneObject``, ``Camera``, ``Ground``.

Values are validated and normalised (lists become tuples of floats) when an instance is built,
so a bad scene fails where it is made. ``to_dict``/``from_dict`` are a lossless round trip;
``from_dict`` errors name the field (``objects[3].size: expected 3 numbers, got 2``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

import numpy as np

from spatialbabel.classes import CLASSES
from spatialbabel.errors import SceneValidationError
from spatialbabel.frames import Matrix, Vec3, euler_to_matrix, matrix_to_euler
from spatialbabel.open_classes import DOMAINS, TABLE_FILE, Domain, is_open_class
from spatialbabel.palette import PALETTE, RGB, nearest_palette_name

SCHEMA_VERSION: Final = 1

#: Class given to an object whose primitive a parser could not identify.
UNKNOWN_CLASS: Final = "unknown"

JSONValue = Any


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: object, name: str) -> float:
    if type(value) is float and math.isfinite(value):
        return value  # the common case, checked first: every parsed object passes here
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise SceneValidationError(name, f"expected a number, got {_describe(value)}")
    result = float(value)
    if not math.isfinite(result):
        raise SceneValidationError(name, f"expected a finite number, got {result}")
    return result


def _vector(value: object, name: str, length: int = 3) -> tuple[float, ...]:
    if type(value) is tuple and len(value) == length:
        # The common case, a tuple of finite floats already, is kept as it is (an overflowing
        # or non-finite sum takes the checks below, which name the bad component).
        for item in value:
            if type(item) is not float:
                break
        else:
            if math.isfinite(sum(value)):
                return value
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise SceneValidationError(name, f"expected {length} numbers, got {_describe(value)}")
    if len(value) != length:
        raise SceneValidationError(name, f"expected {length} numbers, got {len(value)}")
    return tuple(_number(v, f"{name}[{i}]") for i, v in enumerate(value))


def _vec3(value: object, name: str) -> Vec3:
    x, y, z = _vector(value, name, 3)
    return (x, y, z)


def _matrix(value: object, name: str, rows: int, cols: int) -> tuple[tuple[float, ...], ...]:
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != rows:
        got = len(value) if isinstance(value, Sequence) else _describe(value)
        raise SceneValidationError(name, f"expected {rows} rows of {cols} numbers, got {got}")
    return tuple(_vector(row, f"{name}[{i}]", cols) for i, row in enumerate(value))


def _identifier(value: object, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SceneValidationError(name, f"expected a non-empty string, got {_describe(value)}")
    return value


@dataclass(frozen=True)
class SceneObject:
    """One primitive. ``size`` is its extent along its own local axes in world units;
    ``rotation`` is Euler XYZ in degrees (three.js convention). ``color`` is a palette name
    and ``rgb`` the sRGB the model wrote (or the palette's); either may be derived from the other.
    ``visible_pixels``, ``visible_fraction`` and ``bbox_2d`` are ground-truth facts about the
    frontal view. ``parent`` is the id of the object this one rests on (stacked scenes), so
    that it moves with it; ``Scene`` checks that it names another object and makes no cycle."""

    id: str
    class_name: str
    position: Vec3
    rotation: Vec3 = (0.0, 0.0, 0.0)
    size: Vec3 = (1.0, 1.0, 1.0)
    color: str | None = None
    rgb: RGB | None = None
    visible_pixels: int | None = None
    visible_fraction: float | None = None
    bbox_2d: tuple[int, int, int, int] | None = None
    parent: str | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "id", _identifier(self.id, "id"))
        if self.parent is not None:
            set_(self, "parent", _identifier(self.parent, "parent"))
            if self.parent == self.id:
                raise SceneValidationError("parent", f"object {self.id!r} cannot rest on itself")
        if (
            self.class_name not in CLASSES
            and self.class_name != UNKNOWN_CLASS
            and not is_open_class(self.class_name)
        ):
            known = ", ".join((*CLASSES, UNKNOWN_CLASS))
            raise SceneValidationError(
                "class_name",
                f"expected one of {known} or a class of the open vocabulary "
                f"(spatialbabel/data/{TABLE_FILE}), got {_describe(self.class_name)}",
            )
        set_(self, "position", _vec3(self.position, "position"))
        set_(self, "rotation", _vec3(self.rotation, "rotation"))
        size = _vec3(self.size, "size")
        for i, s in enumerate(size):
            if s < 0:
                raise SceneValidationError(f"size[{i}]", f"must not be negative, got {s}")
        set_(self, "size", size)
        color, rgb = self.color, self.rgb
        if color is not None and color not in PALETTE:
            known = ", ".join(PALETTE)
            raise SceneValidationError(
                "color", f"expected a palette name ({known}), got {_describe(color)}"
            )
        if rgb is not None:
            r, g, b = _vec3(rgb, "rgb")
            for i, c in enumerate((r, g, b)):
                if not 0.0 <= c <= 1.0:
                    raise SceneValidationError(f"rgb[{i}]", f"must lie in [0, 1], got {c}")
            rgb = (r, g, b)
        if color is None and rgb is not None:
            color = nearest_palette_name(rgb)
        if rgb is None and color is not None:
            rgb = PALETTE[color]
        set_(self, "color", color)
        set_(self, "rgb", rgb)
        if self.visible_pixels is not None:
            if isinstance(self.visible_pixels, bool) or not isinstance(
                self.visible_pixels, int | np.integer
            ):
                raise SceneValidationError(
                    "visible_pixels", f"expected an integer, got {_describe(self.visible_pixels)}"
                )
            if self.visible_pixels < 0:
                raise SceneValidationError(
                    "visible_pixels", f"must not be negative, got {self.visible_pixels}"
                )
            set_(self, "visible_pixels", int(self.visible_pixels))
        if self.visible_fraction is not None:
            fraction = _number(self.visible_fraction, "visible_fraction")
            if not 0.0 <= fraction <= 1.0:
                raise SceneValidationError(
                    "visible_fraction", f"must lie in [0, 1], got {fraction}"
                )
            set_(self, "visible_fraction", fraction)
        if self.bbox_2d is not None:
            box = _vector(self.bbox_2d, "bbox_2d", 4)
            if any(not float(v).is_integer() for v in box):
                raise SceneValidationError("bbox_2d", f"expected 4 integers, got {box}")
            x0, y0, x1, y1 = (int(v) for v in box)
            if x1 < x0 or y1 < y0:
                raise SceneValidationError("bbox_2d", f"expected x0 <= x1 and y0 <= y1, got {box}")
            set_(self, "bbox_2d", (x0, y0, x1, y1))

    @property
    def rotation_matrix(self) -> Matrix:
        return euler_to_matrix(self.rotation)

    def with_rotation_matrix(self, matrix: Matrix) -> SceneObject:
        return replace(self, rotation=matrix_to_euler(matrix))

    def to_dict(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {
            "id": self.id,
            "class_name": self.class_name,
            "color": self.color,
            "rgb": list(self.rgb) if self.rgb is not None else None,
            "position": list(self.position),
            "rotation": list(self.rotation),
            "size": list(self.size),
        }
        if self.visible_pixels is not None:
            data["visible_pixels"] = self.visible_pixels
        if self.visible_fraction is not None:
            data["visible_fraction"] = self.visible_fraction
        if self.bbox_2d is not None:
            data["bbox_2d"] = list(self.bbox_2d)
        if self.parent is not None:
            data["parent"] = self.parent
        return data

    @classmethod
    def from_dict(cls, data: object) -> SceneObject:
        mapping = _mapping(data, "")
        _reject_unknown(mapping, {f.name for f in fields(cls)})
        for required in ("id", "class_name", "position"):
            if required not in mapping:
                raise SceneValidationError(required, "is missing")
        return cls(**mapping)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera. ``cam_to_world`` follows OpenGL (the camera looks down its -Z, +Y up).
    ``K`` is the usual intrinsic matrix for pixel coordinates with the origin at the top-left
    corner of the image, x right, y down, pixel centres at half-integers; fx = fy."""

    name: str
    width: int
    height: int
    fov_y_deg: float
    cam_to_world: tuple[tuple[float, ...], ...]
    K: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "name", _identifier(self.name, "name"))
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value <= 0:
                raise SceneValidationError(
                    name, f"expected a positive integer, got {_describe(value)}"
                )
            set_(self, name, int(value))
        fov = _number(self.fov_y_deg, "fov_y_deg")
        if not 0.0 < fov < 180.0:
            raise SceneValidationError("fov_y_deg", f"must lie in (0, 180), got {fov}")
        set_(self, "fov_y_deg", fov)
        pose = _matrix(self.cam_to_world, "cam_to_world", 4, 4)
        if pose[3] != (0.0, 0.0, 0.0, 1.0):
            raise SceneValidationError(
                "cam_to_world[3]", f"expected [0, 0, 0, 1], got {list(pose[3])}"
            )
        rotation = np.array([row[:3] for row in pose[:3]])
        if (
            not np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-6)
            or np.linalg.det(rotation) < 0
        ):
            raise SceneValidationError("cam_to_world", "rotation part is not a proper rotation")
        set_(self, "cam_to_world", pose)
        expected = self.intrinsics_for(self.width, self.height, fov)
        if self.K is None:
            set_(self, "K", expected)
        else:
            k = _matrix(self.K, "K", 3, 3)
            if not np.allclose(np.array(k), np.array(expected), rtol=1e-6, atol=1e-6):
                raise SceneValidationError(
                    "K",
                    f"disagrees with width, height and fov_y_deg (expected {[list(r) for r in expected]})",
                )
            set_(self, "K", k)

    @staticmethod
    def intrinsics_for(width: int, height: int, fov_y_deg: float) -> tuple[tuple[float, ...], ...]:
        focal = (height / 2.0) / math.tan(math.radians(fov_y_deg) / 2.0)
        return ((focal, 0.0, width / 2.0), (0.0, focal, height / 2.0), (0.0, 0.0, 1.0))

    @classmethod
    def looking_at(
        cls,
        name: str,
        eye: Vec3,
        target: Vec3 = (0.0, 0.0, 0.0),
        *,
        width: int = 512,
        height: int = 512,
        fov_y_deg: float = 40.0,
        up: Vec3 = (0.0, 1.0, 0.0),
    ) -> Camera:
        from spatialbabel.frames import look_at_rotation

        pose = np.eye(4)
        pose[:3, :3] = look_at_rotation(eye, target, up)
        pose[:3, 3] = eye
        return cls(
            name, width, height, fov_y_deg, tuple(tuple(float(v) for v in row) for row in pose)
        )

    @property
    def pose(self) -> Matrix:
        return np.array(self.cam_to_world, dtype=float)

    @property
    def intrinsics(self) -> Matrix:
        assert self.K is not None
        return np.array(self.K, dtype=float)

    @property
    def fov_x_deg(self) -> float:
        return math.degrees(
            2 * math.atan(math.tan(math.radians(self.fov_y_deg) / 2) * self.width / self.height)
        )

    @property
    def position(self) -> Vec3:
        p = self.pose[:3, 3]
        return (float(p[0]), float(p[1]), float(p[2]))

    def world_to_camera(self, points: Matrix) -> Matrix:
        """Points (N x 3) in the camera's OpenGL frame (visible points have z < 0)."""
        pose = self.pose
        return (np.asarray(points, float) - pose[:3, 3]) @ pose[:3, :3]

    def project(self, points: Matrix) -> tuple[Matrix, Matrix]:
        """Pixel coordinates (N x 2, x right, y down) and depth along the view (N,)."""
        cam = self.world_to_camera(np.atleast_2d(points))
        depth = -cam[:, 2]
        k = self.intrinsics
        with np.errstate(divide="ignore", invalid="ignore"):
            u = k[0, 0] * cam[:, 0] / depth + k[0, 2]
            v = -k[1, 1] * cam[:, 1] / depth + k[1, 2]
        return np.column_stack([u, v]), depth

    def to_dict(self) -> dict[str, JSONValue]:
        assert self.K is not None
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "fov_y_deg": self.fov_y_deg,
            "K": [list(r) for r in self.K],
            "cam_to_world": [list(r) for r in self.cam_to_world],
        }

    @classmethod
    def from_dict(cls, data: object) -> Camera:
        mapping = _mapping(data, "")
        _reject_unknown(mapping, {f.name for f in fields(cls)})
        for required in ("name", "width", "height", "fov_y_deg", "cam_to_world"):
            if required not in mapping:
                raise SceneValidationError(required, "is missing")
        return cls(**mapping)


@dataclass(frozen=True)
class Ground:
    """The ground plane ``y = height``; objects of primitive splits stay inside the ranges."""

    height: float = 0.0
    x_range: tuple[float, float] = (-3.0, 3.0)
    z_range: tuple[float, float] = (-3.0, 3.0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "height", _number(self.height, "height"))
        for name in ("x_range", "z_range"):
            lo, hi = _vector(getattr(self, name), name, 2)
            if not lo < hi:
                raise SceneValidationError(name, f"expected min < max, got [{lo}, {hi}]")
            object.__setattr__(self, name, (lo, hi))

    def to_dict(self) -> dict[str, JSONValue]:
        return {"height": self.height, "x_range": list(self.x_range), "z_range": list(self.z_range)}

    @classmethod
    def from_dict(cls, data: object) -> Ground:
        mapping = _mapping(data, "")
        _reject_unknown(mapping, {f.name for f in fields(cls)})
        return cls(**mapping)


@dataclass(frozen=True)
class Scene:
    """A scene: objects, cameras (the first is the frontal view), the ground and free ``meta``.

    ``domain`` says what its classes are: ``primitive``, the six shapes (and ``unknown``), or
    ``open``, the descriptive classes of ``spatialbabel.open_classes`` (a predicted object of an
    open scene may also keep the primitive it was drawn with, when nothing names it)."""

    scene_id: str
    objects: tuple[SceneObject, ...] = ()
    cameras: tuple[Camera, ...] = ()
    ground: Ground = field(default_factory=Ground)
    meta: Mapping[str, JSONValue] = field(default_factory=dict)
    domain: Domain = "primitive"

    def __post_init__(self) -> None:
        object.__setattr__(self, "scene_id", _identifier(self.scene_id, "scene_id"))
        if self.domain not in DOMAINS:
            raise SceneValidationError(
                "domain", f"expected one of {', '.join(DOMAINS)}, got {_describe(self.domain)}"
            )
        objects = tuple(self.objects)
        seen: dict[str, int] = {}
        for i, obj in enumerate(objects):
            if not isinstance(obj, SceneObject):
                raise SceneValidationError(
                    f"objects[{i}]", f"expected a SceneObject, got {type(obj).__name__}"
                )
            if self.domain == "primitive" and obj.class_name not in _PRIMITIVE_NAMES:
                known = ", ".join(_PRIMITIVE_NAMES)
                raise SceneValidationError(
                    f"objects[{i}].class_name",
                    f"expected one of {known}, got {obj.class_name!r}, a class of the open "
                    "domain (the scene's domain is 'primitive')",
                )
            if obj.id in seen:
                raise SceneValidationError(
                    f"objects[{i}].id", f"duplicates objects[{seen[obj.id]}].id {obj.id!r}"
                )
            seen[obj.id] = i
        _check_attachments(objects, seen)
        object.__setattr__(self, "objects", objects)
        cameras = tuple(self.cameras)
        names: set[str] = set()
        for i, cam in enumerate(cameras):
            if not isinstance(cam, Camera):
                raise SceneValidationError(
                    f"cameras[{i}]", f"expected a Camera, got {type(cam).__name__}"
                )
            if cam.name in names:
                raise SceneValidationError(
                    f"cameras[{i}].name", f"duplicate camera name {cam.name!r}"
                )
            names.add(cam.name)
        object.__setattr__(self, "cameras", cameras)
        if not isinstance(self.ground, Ground):
            raise SceneValidationError(
                "ground", f"expected a Ground, got {type(self.ground).__name__}"
            )
        if not isinstance(self.meta, Mapping):
            raise SceneValidationError("meta", f"expected an object, got {_describe(self.meta)}")
        try:
            meta = json.loads(json.dumps(dict(self.meta), allow_nan=False))
        except (TypeError, ValueError) as error:
            raise SceneValidationError("meta", f"must be plain JSON: {error}") from None
        object.__setattr__(self, "meta", meta)

    def __hash__(self) -> int:
        return hash((self.scene_id, self.objects, self.cameras, self.ground))

    @property
    def frontal_camera(self) -> Camera | None:
        return self.cameras[0] if self.cameras else None

    def get_object(self, object_id: str) -> SceneObject:
        for obj in self.objects:
            if obj.id == object_id:
                return obj
        raise KeyError(f"scene {self.scene_id!r} has no object {object_id!r}")

    def with_objects(self, objects: Sequence[SceneObject]) -> Scene:
        return replace(self, objects=tuple(objects))

    # -- the attachment graph: ``parent`` links, a forest (at most one parent, no cycles)

    def children(self, object_id: str) -> tuple[str, ...]:
        """Ids of the objects resting directly on ``object_id``, in scene order."""
        self.get_object(object_id)
        return tuple(o.id for o in self.objects if o.parent == object_id)

    def descendants(self, object_id: str) -> tuple[str, ...]:
        """Ids of every object that moves with ``object_id`` (those resting on it, those
        resting on them, ...), itself excluded, in scene order."""
        self.get_object(object_id)
        return descendants(self.objects, object_id)

    def root_of(self, object_id: str) -> str:
        """Id of the object at the bottom of ``object_id``'s stack (itself when it rests on
        nothing)."""
        obj = self.get_object(object_id)
        while obj.parent is not None:
            obj = self.get_object(obj.parent)
        return obj.id

    def to_dict(self) -> dict[str, JSONValue]:
        # The domain is written only when it is not the default, so primitive scenes keep
        # their bytes.
        domain: dict[str, JSONValue] = {} if self.domain == "primitive" else {"domain": self.domain}
        return {
            "schema_version": SCHEMA_VERSION,
            "scene_id": self.scene_id,
            **domain,
            "objects": [o.to_dict() for o in self.objects],
            "cameras": [c.to_dict() for c in self.cameras],
            "ground": self.ground.to_dict(),
            "meta": dict(self.meta),
        }

    def to_json(self) -> str:
        """Canonical text of the scene: the same scene always gives the same bytes."""
        return json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n"

    @classmethod
    def from_dict(cls, data: object, *, source: str | None = None) -> Scene:
        try:
            mapping = _mapping(data, "")
            version = mapping.pop("schema_version", None)
            if version != SCHEMA_VERSION:
                raise SceneValidationError(
                    "schema_version", f"expected {SCHEMA_VERSION}, got {_describe(version)}"
                )
            _reject_unknown(mapping, {f.name for f in fields(cls)})
            if "scene_id" not in mapping:
                raise SceneValidationError("scene_id", "is missing")
            objects = [
                _nested(SceneObject.from_dict, item, f"objects[{i}]")
                for i, item in enumerate(_list(mapping.get("objects", []), "objects"))
            ]
            cameras = [
                _nested(Camera.from_dict, item, f"cameras[{i}]")
                for i, item in enumerate(_list(mapping.get("cameras", []), "cameras"))
            ]
            ground = (
                _nested(Ground.from_dict, mapping["ground"], "ground")
                if "ground" in mapping
                else Ground()
            )
            return cls(
                mapping["scene_id"],
                tuple(objects),
                tuple(cameras),
                ground,
                mapping.get("meta", {}),
                mapping.get("domain", "primitive"),
            )
        except SceneValidationError as error:
            raise error.in_file(source) if source else error from None

    @classmethod
    def from_json(cls, text: str, *, source: str | None = None) -> Scene:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise SceneValidationError(
                "",
                f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                source=source,
            ) from None
        return cls.from_dict(data, source=source)

    @classmethod
    def load(cls, path: str | Path) -> Scene:
        path = Path(path)
        return cls.from_json(path.read_text(encoding="utf-8"), source=str(path))

    def save(self, path: str | Path) -> None:
        from spatialbabel.files import atomic_write_text

        atomic_write_text(Path(path), self.to_json())


#: The classes a scene of the primitive domain may hold.
_PRIMITIVE_NAMES: Final = (*CLASSES, UNKNOWN_CLASS)


def descendants(objects: Sequence[SceneObject], object_id: str) -> tuple[str, ...]:
    """``Scene.descendants`` over a plain list of objects whose parents make no cycle (a
    layout being built, say)."""
    below = {o.id: o.parent for o in objects if o.parent is not None}
    found: list[str] = []
    for obj in objects:
        ancestor = below.get(obj.id)
        while ancestor is not None and ancestor != object_id:
            ancestor = below.get(ancestor)
        if ancestor == object_id:
            found.append(obj.id)
    return tuple(found)


def _check_attachments(objects: Sequence[SceneObject], index: Mapping[str, int]) -> None:
    """Every ``parent`` names another object of the scene, and following parents never comes
    back to an object (the graph is a forest)."""
    for i, obj in enumerate(objects):
        if obj.parent is not None and obj.parent not in index:
            raise SceneValidationError(
                f"objects[{i}].parent", f"names no object of the scene: {obj.parent!r}"
            )
    settled: set[str] = set()  # objects whose chain of parents is known to end
    for i, obj in enumerate(objects):
        chain: list[str] = []
        current: SceneObject | None = obj
        while current is not None and current.id not in settled:
            if current.id in chain:
                cycle = " -> ".join([*chain[chain.index(current.id) :], current.id])
                raise SceneValidationError(f"objects[{i}].parent", f"makes a cycle: {cycle}")
            chain.append(current.id)
            current = objects[index[current.parent]] if current.parent is not None else None
        settled.update(chain)


def _mapping(data: object, name: str) -> dict[str, JSONValue]:
    if not isinstance(data, Mapping):
        raise SceneValidationError(name, f"expected an object, got {_describe(data)}")
    return dict(data)


def _list(data: object, name: str) -> list[JSONValue]:
    if not isinstance(data, list):
        raise SceneValidationError(name, f"expected a list, got {_describe(data)}")
    return data


def _reject_unknown(mapping: Mapping[str, JSONValue], known: set[str]) -> None:
    for key in mapping:
        if key not in known:
            raise SceneValidationError(
                str(key), f"unknown field; expected one of {', '.join(sorted(known))}"
            )


def _nested(build: Any, item: object, prefix: str) -> Any:
    try:
        return build(item)
    except SceneValidationError as error:
        raise error.within(prefix) from None
    except TypeError as error:
        raise SceneValidationError(prefix, str(error)) from None
