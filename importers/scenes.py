"""From a source's objects and camera to a scene of the open domain, and the split on disk.

Every importer hands over a ``SourceScene``: upright boxes in the scene frame (Y up, metres)
with open classes, one camera, and the picture that camera took. ``assemble`` then does what
is the same for every source:

1. the floor goes to y = 0: its height is the top of the floor instance under the camera (the
   highest below it whose footprint holds it), else of the largest floor instance, else the
   lowest bottom of any object;
2. the classes left out (wall, floor and ceiling unless told otherwise: the room, not objects
   in it) are removed and counted per class;
3. the FOV filter (``spatialbabel.geometry.frustum``) drops the objects whose centre the camera does
   not see, and counts them;
4. the ground's ranges are the objects' footprint bounds (the per-scene bounds the prompts
   give), rounded outwards to 10 cm.

``write_split`` writes the split the rest of the toolchain reads: ``scenes/``, ``images/``,
``subsets.json`` (every scene in ``eval``, or with a subset size the stratified evaluation
subset of ``importers.subsets``), ``qa.jsonl`` (the question generator's programs over the open
classes, ``synth.questions``) and ``manifest.json`` (the importer, its parameters, counts and
every file's sha256), each file atomically.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import numpy as np

from spatialbabel import Camera, Ground, Scene, SceneObject, __version__
from spatialbabel.files import (
    FileFormatError,
    atomic_write_bytes,
    sha256_file,
    split_paths,
    write_json,
    write_jsonl,
)
from spatialbabel.frames import Vec3, axis_rotation
from spatialbabel.geometry.frustum import fov_filter

#: Classes left out unless told otherwise: the room itself.
DEFAULT_EXCLUDED: Final = ("wall", "floor", "ceiling")
#: The class whose instances give the floor's height.
FLOOR_CLASS: Final = "floor"
#: The ground's ranges are rounded outwards to this (metres).
BOUNDS_STEP: Final = 0.1
#: The manifest's kind, as the generator writes it.
SPLIT_KIND: Final = "spatialbabel-split"


@dataclass(frozen=True)
class UprightBox:
    """A box standing upright: centre, extents along its own x, up and depth axes (metres),
    turned by ``yaw_deg`` about the vertical (Euler ``(0, yaw, 0)``)."""

    centre: Vec3
    size: Vec3
    yaw_deg: float

    @property
    def rotation(self) -> np.ndarray[Any, Any]:
        return axis_rotation("Y", math.radians(self.yaw_deg))

    def corners(self) -> np.ndarray[Any, Any]:
        """The 8 corners (8 x 3)."""
        signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        return (signs * np.asarray(self.size) / 2) @ self.rotation.T + np.asarray(self.centre)

    def holds_above(self, point: Vec3) -> bool:
        """Whether ``point``'s place on the floor lies inside the box's footprint."""
        local = self.rotation.T @ (np.asarray(point, float) - np.asarray(self.centre, float))
        return abs(local[0]) <= self.size[0] / 2 and abs(local[2]) <= self.size[2] / 2

    @property
    def top(self) -> float:
        return self.centre[1] + self.size[1] / 2

    @property
    def bottom(self) -> float:
        return self.centre[1] - self.size[1] / 2


def canonical_yaw(box: UprightBox) -> UprightBox:
    """The same box with its yaw in (-45, 45] degrees (a quarter turn swaps width and depth):
    a box fitted to points has no front, so this picks one of its four descriptions."""
    yaw, (sx, sy, sz) = box.yaw_deg, box.size
    while yaw > 45.0:
        yaw, sx, sz = yaw - 90.0, sz, sx
    while yaw <= -45.0:
        yaw, sx, sz = yaw + 90.0, sz, sx
    return UprightBox(box.centre, (sx, sy, sz), yaw)


@dataclass(frozen=True)
class SourceObject:
    """One object as a source describes it: its id, its class of the open vocabulary and its
    box in the scene frame (before the floor is moved to y = 0)."""

    id: str
    class_name: str
    box: UprightBox

    def scene_object(self, lift: float) -> SceneObject:
        x, y, z = self.box.centre
        return SceneObject(
            self.id,
            self.class_name,
            (x, y - lift, z),
            (0.0, self.box.yaw_deg, 0.0),
            self.box.size,
        )


@dataclass
class SourceScene:
    """What an importer read for one scene: objects, the camera and its picture (PNG bytes)."""

    scene_id: str
    objects: list[SourceObject]
    camera: Camera
    image_png: bytes | None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Assembled:
    """A scene of the open domain, its picture, and what was left out of it."""

    scene: Scene
    image_png: bytes | None
    excluded: Mapping[str, int]
    fov_dropped: int


def floor_height(objects: Sequence[SourceObject], camera: Camera) -> float:
    """The floor's height (the rule in this module's docstring)."""
    floors = [o.box for o in objects if o.class_name == FLOOR_CLASS]
    eye = camera.position
    under = [b.top for b in floors if b.top < eye[1] and b.holds_above(eye)]
    if under:
        return max(under)
    if floors:
        return max(floors, key=lambda b: b.size[0] * b.size[2]).top
    others = [o.box.bottom for o in objects]
    return min(others) if others else 0.0


def _bounds(objects: Sequence[SceneObject]) -> Ground:
    if not objects:
        return Ground()
    corners = np.vstack([UprightBox(o.position, o.size, o.rotation[1]).corners() for o in objects])
    lo, hi = corners.min(axis=0), corners.max(axis=0)

    def outwards(low: float, high: float) -> tuple[float, float]:
        a = math.floor(round(low / BOUNDS_STEP, 9)) * BOUNDS_STEP
        b = math.ceil(round(high / BOUNDS_STEP, 9)) * BOUNDS_STEP
        if b <= a:
            b = a + BOUNDS_STEP
        return (round(a, 6), round(b, 6))

    return Ground(0.0, outwards(lo[0], hi[0]), outwards(lo[2], hi[2]))


def _lifted(camera: Camera, lift: float) -> Camera:
    pose = camera.pose
    pose[1, 3] -= lift
    return replace(camera, cam_to_world=tuple(tuple(float(v) for v in row) for row in pose))


def assemble(source: SourceScene, excluded: Iterable[str] = DEFAULT_EXCLUDED) -> Assembled:
    """The scene of the open domain ``source`` makes (the steps in this module's docstring)."""
    left_out = set(excluded)
    lift = floor_height(source.objects, source.camera)
    camera = _lifted(source.camera, lift)
    counted: Counter[str] = Counter()
    objects = []
    for item in source.objects:
        if item.class_name in left_out:
            counted[item.class_name] += 1
        else:
            objects.append(item.scene_object(lift))
    seen = fov_filter(objects, camera)
    dropped = Counter(o.class_name for o in seen.dropped)
    meta = {
        **source.meta,
        "floor_height": lift,
        "objects_in_source": len(source.objects),
        "excluded": dict(sorted(counted.items())),
        "fov_dropped": seen.n_dropped,
        # Part of such an object may be in the picture: questions leave its class alone.
        "fov_dropped_classes": dict(sorted(dropped.items())),
    }
    scene = Scene(
        source.scene_id,
        seen.kept,
        (camera,),
        _bounds(seen.kept),
        meta,
        domain="open",
    )
    return Assembled(scene, source.image_png, dict(counted), seen.n_dropped)


def prepare_out(out: Path) -> None:
    """Refuse a folder that already holds a split (its manifest would list stale files)."""
    paths = split_paths(out)
    if paths["manifest"].exists() or (paths["scenes"].is_dir() and any(paths["scenes"].iterdir())):
        raise FileFormatError(out, "already holds a split; import into a new folder")


def write_split(
    out: Path,
    scenes: Iterable[Assembled],
    *,
    importer: str,
    version: str,
    parameters: Mapping[str, Any],
    skipped: Mapping[str, int] | None = None,
    excluded_classes: Sequence[str] = DEFAULT_EXCLUDED,
    seed: int = 0,
    subset: int | None = None,
    phase1_size: int = 0,
) -> dict[str, Any]:
    """Write every scene (as it comes) and then the split's files; the manifest's counts.

    Questions are generated for every scene with ``seed``, never about ``excluded_classes``.
    ``subset`` (a number of scenes) makes ``eval`` the stratified evaluation subset and
    ``phase1`` the next ``phase1_size`` scenes; without it every scene is in ``eval``."""
    from importers.subsets import evaluation_subsets
    from synth.questions import SplitRules, generate_scene_questions

    if subset is None and phase1_size:
        raise ValueError("a phase1 subset needs an evaluation subset (--subset N)")
    prepare_out(out)
    paths = split_paths(out)
    rules = SplitRules.of_import(excluded_classes)
    questions: list[dict[str, Any]] = []
    per_scene: dict[str, int] = {}
    ids: list[str] = []
    objects = in_source = dropped = 0
    excluded: Counter[str] = Counter()
    for item in scenes:
        scene = item.scene
        if scene.scene_id in ids:
            raise FileFormatError(out, f"two scenes are named {scene.scene_id!r}")
        if item.image_png is not None:
            atomic_write_bytes(paths["images"] / f"{scene.scene_id}.png", item.image_png)
        scene.save(paths["scenes"] / f"{scene.scene_id}.json")
        questions += [q.to_dict() for q in generate_scene_questions(scene, seed, rules=rules)]
        per_scene[scene.scene_id] = len(scene.objects)
        ids.append(scene.scene_id)
        objects += len(scene.objects)
        in_source += int(scene.meta.get("objects_in_source", len(scene.objects)))
        dropped += item.fov_dropped
        excluded.update(item.excluded)
    if subset is None:
        write_json(paths["subsets"], {"eval": sorted(ids), "phase1": [], "unused": []})
    else:
        write_json(
            paths["subsets"],
            evaluation_subsets(per_scene, size=subset, phase1_size=phase1_size, seed=seed),
        )
    write_jsonl(paths["qa"], questions)
    counts = {
        "scenes": len(ids),
        "objects": objects,
        "objects_in_source": in_source,
        "fov_dropped": dropped,
        "excluded": dict(sorted(excluded.items())),
        "skipped": dict(skipped or {}),
        "objects_per_scene": round(objects / len(ids), 3) if ids else 0.0,
        "objects_per_scene_unfiltered": round((objects + dropped) / len(ids), 3) if ids else 0.0,
        "questions": len(questions),
    }
    files = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name != paths["manifest"].name
    )
    write_json(
        paths["manifest"],
        {
            "kind": SPLIT_KIND,
            "generator": {"name": importer, "version": version, "spatialbabel": __version__},
            "domain": "open",
            "parameters": dict(parameters),
            "counts": counts,
            "files": {name: sha256_file(out / name) for name in files},
        },
    )
    return counts


__all__ = [
    "DEFAULT_EXCLUDED",
    "Assembled",
    "SourceObject",
    "SourceScene",
    "UprightBox",
    "assemble",
    "canonical_yaw",
    "floor_height",
    "prepare_out",
    "write_split",
]
