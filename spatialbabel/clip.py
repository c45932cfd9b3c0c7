"""A moving scene: one set of primitives and one camera (the observer, or "ego"), sampled at a
fixed frame rate, with the exact pose of everything in every frame.

A ``Clip`` holds what stays fixed (each object's class, colour and size, the camera's image
size and intrinsics, the ground, the frame rate) once, and per frame (``ClipFrame``) only what
moves: every object's centre and yaw about the vertical axis (objects stay upright on the
ground) and the camera's ``cam_to_world``. The first ``observed`` frames are the ones rendered
and shown; they also carry each object's visible pixels and box, measured on the frame's ID
pass. The frames after them are the withheld future: ground truth only, never rendered.

``Clip.scene(t)`` gives frame ``t`` as a hub ``Scene``, so everything that reads a scene (the
re-renderer, the projection code) reads a clip frame too. Values are checked when a clip is
built, and ``from_dict`` errors name the field (``frames[12].positions: expected 4 entries``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.errors import SceneValidationError
from spatialbabel.frames import Vec3
from spatialbabel.scene import Camera, Ground, Scene, SceneObject

CLIP_SCHEMA_VERSION: Final = 1

Box = tuple[int, int, int, int]


def _fail(where: str, message: str) -> SceneValidationError:
    return SceneValidationError(where, message)


def _floats(value: object, where: str, length: int) -> tuple[float, ...]:
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != length:
        raise _fail(where, f"expected {length} numbers")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating):
            raise _fail(f"{where}[{i}]", f"expected a number, got {v!r}")
        if not math.isfinite(float(v)):
            raise _fail(f"{where}[{i}]", "expected a finite number")
        out.append(float(v))
    return tuple(out)


@dataclass(frozen=True)
class ClipFrame:
    """What moves in one frame. ``visible_pixels`` and ``bboxes`` (``[x0, y0, x1, y1]`` with
    the ends exclusive, None for an object with no pixel) are set on observed frames only."""

    index: int
    time: float
    cam_to_world: tuple[tuple[float, ...], ...]
    positions: tuple[Vec3, ...]
    yaws: tuple[float, ...]
    visible_pixels: tuple[int, ...] | None = None
    bboxes: tuple[Box | None, ...] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        pose = tuple(
            _floats(row, f"cam_to_world[{i}]", 4) for i, row in enumerate(self.cam_to_world)
        )
        if len(pose) != 4 or pose[3] != (0.0, 0.0, 0.0, 1.0):
            raise _fail("cam_to_world", "expected a 4x4 matrix ending in [0, 0, 0, 1]")
        set_(self, "cam_to_world", pose)
        positions = tuple(_floats(p, f"positions[{i}]", 3) for i, p in enumerate(self.positions))
        set_(self, "positions", positions)
        if len(self.yaws) != len(positions):
            raise _fail(
                "yaws", f"expected one per position: {len(positions)}, got {len(self.yaws)}"
            )
        set_(self, "yaws", _floats(self.yaws, "yaws", len(positions)))
        if self.visible_pixels is not None:
            pixels = tuple(int(v) for v in self.visible_pixels)
            if len(pixels) != len(positions) or min(pixels, default=0) < 0:
                raise _fail("visible_pixels", f"expected {len(positions)} counts >= 0")
            set_(self, "visible_pixels", pixels)
        if self.bboxes is not None:
            if len(self.bboxes) != len(positions):
                raise _fail("bboxes", f"expected {len(positions)} entries")
            boxes: list[Box | None] = []
            for i, box in enumerate(self.bboxes):
                if box is None:
                    boxes.append(None)
                    continue
                x0, y0, x1, y1 = (int(v) for v in _floats(box, f"bboxes[{i}]", 4))
                if x1 < x0 or y1 < y0:
                    raise _fail(f"bboxes[{i}]", "expected x0 <= x1 and y0 <= y1")
                boxes.append((x0, y0, x1, y1))
            set_(self, "bboxes", tuple(boxes))

    @property
    def observed(self) -> bool:
        return self.visible_pixels is not None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "time": self.time,
            "cam_to_world": [list(r) for r in self.cam_to_world],
            "positions": [list(p) for p in self.positions],
            "yaws": list(self.yaws),
        }
        if self.visible_pixels is not None:
            data["visible_pixels"] = list(self.visible_pixels)
        if self.bboxes is not None:
            data["bboxes"] = [None if b is None else list(b) for b in self.bboxes]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClipFrame:
        try:
            return cls(
                index=int(data["index"]),
                time=float(data["time"]),
                cam_to_world=data["cam_to_world"],
                positions=data["positions"],
                yaws=data["yaws"],
                visible_pixels=data.get("visible_pixels"),
                bboxes=data.get("bboxes"),
            )
        except KeyError as error:
            raise _fail(str(error.args[0]), "is missing") from None
        except (TypeError, ValueError) as error:
            raise _fail("", str(error)) from None


@dataclass(frozen=True)
class Clip:
    """A clip's ground truth. ``objects`` give each object's class, colour and size (their
    pose is frame 0's); ``motions`` name how each moves (``static``, ``straight``, ...);
    ``camera`` gives the image size, field of view and ``K`` (its pose is frame 0's)."""

    clip_id: str
    fps: float
    observed: int
    objects: tuple[SceneObject, ...]
    motions: tuple[str, ...]
    camera: Camera
    frames: tuple[ClipFrame, ...]
    ground: Ground = field(default_factory=Ground)
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (isinstance(self.fps, int | float) and self.fps > 0):
            raise _fail("fps", f"expected a positive number, got {self.fps!r}")
        count = len(self.objects)
        if len(self.motions) != count:
            raise _fail("motions", f"expected {count} entries, one per object")
        if not 1 <= self.observed <= len(self.frames):
            raise _fail("observed", f"expected 1..{len(self.frames)}, got {self.observed}")
        for t, frame in enumerate(self.frames):
            where = f"frames[{t}]"
            if frame.index != t:
                raise _fail(f"{where}.index", f"expected {t}, got {frame.index}")
            if not math.isclose(frame.time, t / self.fps, abs_tol=1e-9):
                raise _fail(f"{where}.time", f"expected {t / self.fps:g} s at {self.fps:g} fps")
            if len(frame.positions) != count:
                raise _fail(f"{where}.positions", f"expected {count} entries, one per object")
            if frame.observed != (t < self.observed):
                kind = "an observed" if t < self.observed else "a future"
                raise _fail(
                    f"{where}.visible_pixels",
                    f"{kind} frame {'needs' if t < self.observed else 'has no'} visible pixels",
                )
        object.__setattr__(self, "meta", json.loads(json.dumps(dict(self.meta))))

    # -- views ------------------------------------------------------------------------------

    @property
    def frame_count(self) -> int:
        return len(self.frames)

    @property
    def last_observed(self) -> int:
        """``t_o``: the index of the last frame shown."""
        return self.observed - 1

    def times(self) -> NDArray[np.float64]:
        return np.array([f.time for f in self.frames])

    def positions(self) -> NDArray[np.float64]:
        """Object centres, frames x objects x 3."""
        return np.array([f.positions for f in self.frames], dtype=float).reshape(
            len(self.frames), len(self.objects), 3
        )

    def camera_poses(self) -> NDArray[np.float64]:
        """``cam_to_world`` per frame, frames x 4 x 4 (OpenGL: the camera looks down its -Z)."""
        return np.array([f.cam_to_world for f in self.frames], dtype=float)

    def visible_pixels(self) -> NDArray[np.int64]:
        """Visible pixels, observed frames x objects."""
        return np.array(
            [f.visible_pixels for f in self.frames[: self.observed]], dtype=np.int64
        ).reshape(self.observed, len(self.objects))

    def scene(self, t: int) -> Scene:
        """Frame ``t`` as a hub scene (one camera, ``observer``)."""
        frame = self.frames[t]
        objects = []
        for i, obj in enumerate(self.objects):
            moved = replace(obj, position=frame.positions[i], rotation=(0.0, frame.yaws[i], 0.0))
            if frame.visible_pixels is not None and frame.bboxes is not None:
                moved = replace(
                    moved, visible_pixels=frame.visible_pixels[i], bbox_2d=frame.bboxes[i]
                )
            objects.append(moved)
        camera = replace(self.camera, name="observer", cam_to_world=frame.cam_to_world)
        return Scene(
            f"{self.clip_id}_f{t:03d}",
            tuple(objects),
            (camera,),
            self.ground,
            {"clip_id": self.clip_id, "frame": t, "time": frame.time},
        )

    # -- files ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": CLIP_SCHEMA_VERSION,
            "clip_id": self.clip_id,
            "fps": self.fps,
            "observed": self.observed,
            "objects": [
                {
                    "id": o.id,
                    "class_name": o.class_name,
                    "color": o.color,
                    "size": list(o.size),
                    "motion": m,
                }
                for o, m in zip(self.objects, self.motions, strict=True)
            ],
            "camera": {
                "width": self.camera.width,
                "height": self.camera.height,
                "fov_y_deg": self.camera.fov_y_deg,
                "K": [list(r) for r in self.camera.intrinsics],
            },
            "ground": self.ground.to_dict(),
            "frames": [f.to_dict() for f in self.frames],
            "meta": dict(self.meta),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), allow_nan=False) + "\n"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str | None = None) -> Clip:
        try:
            if data.get("schema_version") != CLIP_SCHEMA_VERSION:
                raise _fail(
                    "schema_version",
                    f"expected {CLIP_SCHEMA_VERSION}, got {data.get('schema_version')!r}",
                )
            frames = []
            for t, raw in enumerate(data["frames"]):
                try:
                    frames.append(ClipFrame.from_dict(raw))
                except SceneValidationError as error:
                    raise error.within(f"frames[{t}]") from None
            if not frames:
                raise _fail("frames", "a clip needs at least one frame")
            first = frames[0]
            objects = []
            motions = []
            for i, raw in enumerate(data["objects"]):
                try:
                    objects.append(
                        SceneObject(
                            id=raw["id"],
                            class_name=raw["class_name"],
                            position=first.positions[i],
                            rotation=(0.0, first.yaws[i], 0.0),
                            size=raw["size"],
                            color=raw["color"],
                        )
                    )
                    motions.append(str(raw["motion"]))
                except (KeyError, IndexError) as error:
                    raise _fail(f"objects[{i}]", f"missing {error}") from None
                except SceneValidationError as error:
                    raise error.within(f"objects[{i}]") from None
            spec = data["camera"]
            camera = Camera(
                "observer",
                spec["width"],
                spec["height"],
                spec["fov_y_deg"],
                first.cam_to_world,
                spec.get("K"),
            )
            return cls(
                clip_id=str(data["clip_id"]),
                fps=float(data["fps"]),
                observed=int(data["observed"]),
                objects=tuple(objects),
                motions=tuple(motions),
                camera=camera,
                frames=tuple(frames),
                ground=Ground.from_dict(data.get("ground", {})),
                meta=data.get("meta", {}),
            )
        except KeyError as error:
            problem = _fail(str(error.args[0]), "is missing")
            raise problem.in_file(source) if source else problem from None
        except SceneValidationError as error:
            raise error.in_file(source) if source else error from None

    @classmethod
    def load(cls, path: str | Path) -> Clip:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise SceneValidationError(
                "", f"not valid JSON: {error.msg} at line {error.lineno}", source=str(path)
            ) from None
        if not isinstance(data, dict):
            raise SceneValidationError("", "expected a JSON object", source=str(path))
        return cls.from_dict(data, source=str(path))

    def save(self, path: str | Path) -> None:
        from spatialbabel.files import atomic_write_text

        atomic_write_text(Path(path), self.to_json())


__all__ = ["CLIP_SCHEMA_VERSION", "Clip", "ClipFrame"]
