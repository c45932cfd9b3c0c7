"""One clip work unit: the moving scene of (seed, index), its observed frames rendered with
their ID passes, its MP4, and its ground truth, written to a clip set.

Like a split's scene (``synth.unit``), a clip depends only on ``SeedSequence([seed, index])``
and the renders are deterministic, so any clip can be made alone, on any worker, with the same
bytes. Files are written atomically, the clip JSON last: a clip whose JSON exists is complete.
Only the observed prefix is rendered; the future frames are ground truth only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Ground, SceneObject
from spatialbabel.clip import Clip, ClipFrame
from spatialbabel.errors import SceneValidationError
from spatialbabel.files import atomic_write_bytes
from synth.config import GENERATOR_NAME
from synth.motion import (
    GROUND_HALF,
    MANOEUVRE_WEIGHTS,
    MANOEUVRES,
    POSITION_DECIMALS,
    SUBSTEPS,
    TILE,
    YAW_DECIMALS,
    MotionError,
    MotionPlan,
    camera_at,
    camera_pose,
    sample_motion,
)
from synth.unit import GenerationError, scene_rng
from synth.visibility import pixel_boxes, pixel_counts

#: Bumped whenever the same parameters would give different clips, frames or videos.
CLIP_GENERATOR_VERSION: Final = "1.1"
CLIP_KIND: Final = "spatialbabel-clips"


@dataclass(frozen=True)
class ClipParameters:
    """Everything a clip depends on besides its index (worker count and set size are not here:
    they change no clip). Ranges are inclusive; each clip draws its own counts from them."""

    seed: int = 0
    resolution: int = 512
    fps: float = 5.0
    observed: tuple[int, int] = (16, 40)
    horizon: tuple[int, int] = (5, 20)
    objects: tuple[int, int] = (3, 6)
    video: bool = True
    max_tries: int = 50

    def __post_init__(self) -> None:
        for name in ("observed", "horizon", "objects"):
            lo, hi = (int(v) for v in getattr(self, name))
            if not 1 <= lo <= hi:
                raise ValueError(f"{name} must be a range 1 <= low <= high, got {lo}-{hi}")
            object.__setattr__(self, name, (lo, hi))
        if self.observed[0] < 16:
            raise ValueError(
                f"observed prefixes need at least 16 frames (a relative-motion window), got {self.observed[0]}"
            )
        if self.horizon[0] < 5:
            raise ValueError(
                f"the future horizon needs at least 5 frames (the stop rule's last 5 intervals), got {self.horizon[0]}"
            )
        if self.objects[1] > 12:
            raise ValueError(f"at most 12 objects per clip, got {self.objects[1]}")
        if self.resolution < 16 or self.resolution % 2:
            raise ValueError(f"resolution must be even and at least 16, got {self.resolution}")
        if not self.fps > 0:
            raise ValueError(f"fps must be positive, got {self.fps}")
        if self.seed < 0:
            raise ValueError(f"seed must not be negative, got {self.seed}")
        if self.max_tries < 1:
            raise ValueError(f"max tries must be at least 1, got {self.max_tries}")

    @property
    def engine(self) -> str:
        """Clips are rendered with Workbench only (Cycles would take seconds a frame)."""
        return "workbench"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("observed", "horizon", "objects"):
            data[name] = list(getattr(self, name))
        return data


def clip_id(index: int) -> str:
    return f"clip_{index:06d}"


@dataclass(frozen=True)
class ClipPaths:
    """Where the files of one clip go, relative to the clip set's root."""

    clip: str
    frames: tuple[str, ...]
    ids: tuple[str, ...]
    video: str | None

    @classmethod
    def of(cls, identifier: str, observed: int, video: bool) -> ClipPaths:
        return cls(
            f"clips/{identifier}.json",
            tuple(f"frames/{identifier}/{t:03d}.png" for t in range(observed)),
            tuple(f"ids/{identifier}/{t:03d}.png" for t in range(observed)),
            f"videos/{identifier}.mp4" if video else None,
        )

    def all(self) -> tuple[str, ...]:
        return (self.clip, *self.frames, *self.ids, *((self.video,) if self.video else ()))


class ClipRenderer(Protocol):
    """What a clip needs from Blender (``synth.blender_stage.BlenderStage``)."""

    def set_scene(
        self,
        objects: Sequence[SceneObject],
        cameras: Sequence[Camera],
        ground: Ground,
        *,
        tile: float | None = None,
    ) -> None: ...

    def move(self, objects: Sequence[SceneObject], cameras: Sequence[Camera]) -> None: ...

    def render_ids(
        self, camera_index: int = 0, only: Iterable[int] | None = None
    ) -> tuple[bytes, NDArray[np.uint8]]: ...

    def render_image(self, camera_index: int = 0, *, antialias: bool = True) -> bytes: ...


def clip_ground() -> Ground:
    return Ground(0.0, (-GROUND_HALF, GROUND_HALF), (-GROUND_HALF, GROUND_HALF))


def describe_clip(index: int, params: ClipParameters) -> str:
    return f"clip {clip_id(index)} (seed {params.seed}, index {index})"


def plan_clip(index: int, params: ClipParameters) -> tuple[MotionPlan, int]:
    """The motion of clip ``index`` (no rendering) and the number of motions drawn."""
    rng = scene_rng(params.seed, index)
    observed = int(rng.integers(params.observed[0], params.observed[1] + 1))
    horizon = int(rng.integers(params.horizon[0], params.horizon[1] + 1))
    count = int(rng.integers(params.objects[0], params.objects[1] + 1))
    try:
        return sample_motion(
            rng,
            fps=params.fps,
            observed=observed,
            horizon=horizon,
            object_count=count,
            manoeuvre=MANOEUVRES[int(rng.choice(len(MANOEUVRES), p=MANOEUVRE_WEIGHTS))],
            resolution=params.resolution,
            tries=params.max_tries,
        )
    except MotionError as error:
        raise GenerationError(f"{describe_clip(index, params)}: {error}") from None


def frame_truth(
    plan: MotionPlan, t: int
) -> tuple[NDArray[np.float64], list[tuple[float, float, float]], list[float]]:
    """Frame ``t``'s camera pose, object centres and yaws, rounded as the clip file keeps them."""
    step = t * SUBSTEPS
    x, z = (float(v) for v in plan.ego[step])
    pose = camera_pose(x, z, float(plan.ego_heading[step]))
    positions = []
    yaws = []
    for obj in plan.objects:
        gx, gz = (round(float(v), POSITION_DECIMALS) + 0.0 for v in obj.ground[step])
        positions.append((gx, obj.size[1] / 2.0, gz))
        yaws.append(round(float(obj.yaws_deg(np.array([step]))[0]), YAW_DECIMALS) + 0.0)
    return pose, positions, yaws


def _objects(
    plan: MotionPlan, positions: Sequence[tuple[float, float, float]], yaws: Sequence[float]
) -> list[SceneObject]:
    return [
        SceneObject(
            f"obj{i}", o.class_name, positions[i], (0.0, yaws[i], 0.0), o.size, color=o.color
        )
        for i, o in enumerate(plan.objects)
    ]


@dataclass(frozen=True)
class RenderedClip:
    clip: Clip
    frames: tuple[bytes, ...]
    ids: tuple[bytes, ...]
    video: bytes | None


def build_clip(
    index: int, params: ClipParameters, renderer: ClipRenderer, blender_version: str
) -> RenderedClip:
    """Clip ``index`` with its ground truth, its observed frames' PNGs and ID passes, and its
    MP4 (when ``params.video``)."""
    plan, tries = plan_clip(index, params)
    identifier = clip_id(index)
    ground = clip_ground()
    truths = [frame_truth(plan, t) for t in range(plan.frames)]
    pose0, positions0, yaws0 = truths[0]
    renderer.set_scene(
        _objects(plan, positions0, yaws0), [camera_at(pose0, params.resolution)], ground, tile=TILE
    )
    count = len(plan.objects)
    images: list[bytes] = []
    id_passes: list[bytes] = []
    frames: list[ClipFrame] = []
    scenes = [
        (_objects(plan, positions, yaws), [camera_at(pose, params.resolution)])
        for pose, positions, yaws in truths[: plan.observed]
    ]
    # All pictures, then all ID passes: Workbench pays for a change of shading settings, so
    # they change twice a clip rather than twice a frame.
    for objects, cameras in scenes:
        renderer.move(objects, cameras)
        images.append(renderer.render_image(0, antialias=False))
    measured = []
    for objects, cameras in scenes:
        renderer.move(objects, cameras)
        id_png, mask = renderer.render_ids(0)
        id_passes.append(id_png)
        measured.append((tuple(pixel_counts(mask, count)), tuple(pixel_boxes(mask, count))))
    for t, (pose, positions, yaws) in enumerate(truths):
        pixels, boxes = measured[t] if t < plan.observed else (None, None)
        frames.append(
            ClipFrame(
                t,
                t / params.fps,
                tuple(tuple(r) for r in pose.tolist()),
                tuple(positions),
                tuple(yaws),
                pixels,
                boxes,
            )
        )
    video = None
    if params.video:
        from synth.video import encode_mp4, ffmpeg_version

        video = encode_mp4(images, params.fps)
    paths = ClipPaths.of(identifier, plan.observed, params.video)
    meta = {
        "seed": params.seed,
        "index": index,
        "manoeuvre": plan.manoeuvre,
        "manoeuvre_onset": round(plan.onset, 6),
        "horizon": plan.horizon,
        "generator": {"name": GENERATOR_NAME, "version": CLIP_GENERATOR_VERSION},
        "blender_version": blender_version,
        "ffmpeg_version": ffmpeg_version() if params.video else None,
        "parameters": params.to_dict(),
        "tries": tries,
        "files": {"frames": list(paths.frames), "ids": list(paths.ids), "video": paths.video},
    }
    clip = Clip(
        identifier,
        params.fps,
        plan.observed,
        tuple(_objects(plan, positions0, yaws0)),
        tuple(o.motion for o in plan.objects),
        camera_at(pose0, params.resolution),
        tuple(frames),
        ground,
        meta,
    )
    return RenderedClip(clip, tuple(images), tuple(id_passes), video)


def write_clip_unit(root: Path, rendered: RenderedClip) -> None:
    """Write a clip's files atomically, the clip JSON last."""
    clip = rendered.clip
    paths = ClipPaths.of(clip.clip_id, clip.observed, rendered.video is not None)
    for path, data in zip(paths.frames, rendered.frames, strict=True):
        atomic_write_bytes(root / path, data)
    for path, data in zip(paths.ids, rendered.ids, strict=True):
        atomic_write_bytes(root / path, data)
    if paths.video is not None and rendered.video is not None:
        atomic_write_bytes(root / paths.video, rendered.video)
    clip.save(root / paths.clip)


def generate_clip_unit(
    root: Path, index: int, params: ClipParameters, renderer: ClipRenderer, blender_version: str
) -> str:
    """Make and write clip ``index``; returns its id. This is the work unit a pool maps."""
    rendered = build_clip(index, params, renderer, blender_version)
    write_clip_unit(root, rendered)
    return rendered.clip.clip_id


def clip_done(root: Path, index: int, params: ClipParameters) -> bool:
    """Whether the clip's files are all there; a clip made with other parameters or another
    generator version is an error (a clip set no single command could reproduce)."""
    path = root / f"clips/{clip_id(index)}.json"
    if not path.exists():
        return False
    try:
        clip = Clip.load(path)
    except SceneValidationError:
        return False
    made_with = clip.meta.get("parameters")
    version = clip.meta.get("generator", {}).get("version")
    if made_with != params.to_dict() or version != CLIP_GENERATOR_VERSION:
        raise GenerationError(
            f"{path} was made with other parameters or generator version ({made_with}, version "
            f"{version}); write the clips into another --out"
        )
    paths = ClipPaths.of(clip.clip_id, clip.observed, params.video)
    return all((root / p).exists() for p in paths.all())


__all__ = [
    "CLIP_GENERATOR_VERSION",
    "CLIP_KIND",
    "ClipParameters",
    "ClipPaths",
    "ClipRenderer",
    "RenderedClip",
    "build_clip",
    "clip_done",
    "clip_ground",
    "clip_id",
    "frame_truth",
    "generate_clip_unit",
    "plan_clip",
    "write_clip_unit",
]
