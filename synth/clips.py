"""Rendering a whole clip set: the pending clips on the same pool of Blender workers as a
split's scenes (``synth.pool``), then ``manifest.json``.

A clip set is ``clips/<clip_id>.json`` (the ground truth, ``spatialbabel.clip.Clip``),
``frames/<clip_id>/<t>.png`` (the observed frames), ``ids/<clip_id>/<t>.png`` (their ID
passes), ``videos/<clip_id>.mp4`` and ``manifest.json``; ``spatialbabel verify`` checks it like
a split. A rerun into the same folder removes the ``.tmp`` leftovers of interrupted writes,
skips every finished clip and makes the rest, with the same bytes as an uninterrupted run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from spatialbabel.clip import Clip
from spatialbabel.executor import Executor
from spatialbabel.files import write_json
from synth.clip_unit import (
    CLIP_GENERATOR_VERSION,
    CLIP_KIND,
    ClipParameters,
    ClipPaths,
    clip_done,
    clip_id,
    describe_clip,
)
from synth.config import GENERATOR_NAME
from synth.manifest import MANIFEST, build_manifest, file_hashes
from synth.pool import run_pool
from synth.split import remove_leftovers
from synth.workers import run_clip_unit


@dataclass(frozen=True)
class ClipSetRequest:
    out: Path
    n: int
    params: ClipParameters = field(default_factory=ClipParameters)
    workers: int = 1

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be at least 1, got {self.n}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")


def pending_clips(request: ClipSetRequest) -> list[int]:
    return [i for i in range(request.n) if not clip_done(request.out, i, request.params)]


def run_clips(
    request: ClipSetRequest,
    indices: list[int],
    *,
    progress: bool = True,
    executor: Executor | None = None,
) -> None:
    """Render ``indices`` on ``executor`` (default: ``request.workers`` local processes), with a
    progress bar."""
    run_pool(
        run_clip_unit,
        indices,
        root=request.out,
        params=request.params,
        workers=request.workers,
        total=request.n,
        label="clip",
        desc="clips",
        progress=progress,
        describe=partial(describe_clip, params=request.params),
        executor=executor,
    )


def load_clips(root: Path, n: int) -> list[Clip]:
    return [Clip.load(root / f"clips/{clip_id(i)}.json") for i in range(n)]


def finalise_clips(request: ClipSetRequest) -> dict[str, Any]:
    """Write the manifest from the finished clips; returns it."""
    root, params = request.out, request.params
    clips = load_clips(root, request.n)
    names = [p for c in clips for p in ClipPaths.of(c.clip_id, c.observed, params.video).all()]
    motions = Counter(m for c in clips for m in c.motions)
    manoeuvres = Counter(str(c.meta["manoeuvre"]) for c in clips)
    manifest = build_manifest(
        generator={"name": GENERATOR_NAME, "version": CLIP_GENERATOR_VERSION},
        blender_versions=[str(c.meta.get("blender_version", "unknown")) for c in clips],
        parameters={"n": request.n, **params.to_dict()},
        counts={
            "clips": len(clips),
            "observed_frames": sum(c.observed for c in clips),
            "future_frames": sum(c.frame_count - c.observed for c in clips),
            "objects": sum(len(c.objects) for c in clips),
            "motions": dict(sorted(motions.items())),
            "manoeuvres": dict(sorted(manoeuvres.items())),
        },
        files=file_hashes(root, names),
        kind=CLIP_KIND,
    )
    if params.video:
        manifest["ffmpeg_version"] = ", ".join(
            sorted({str(c.meta.get("ffmpeg_version")) for c in clips})
        )
    write_json(root / MANIFEST, manifest)
    return manifest


def generate_clips(
    request: ClipSetRequest, *, progress: bool = True, executor: Executor | None = None
) -> dict[str, Any]:
    """Render (or finish) the clip set ``request.out`` on ``executor`` (default: the local
    process pool with ``request.workers`` workers); returns its manifest."""
    request.out.mkdir(parents=True, exist_ok=True)
    remove_leftovers(request.out)
    run_clips(request, pending_clips(request), progress=progress, executor=executor)
    return finalise_clips(request)


__all__ = [
    "ClipSetRequest",
    "finalise_clips",
    "generate_clips",
    "load_clips",
    "pending_clips",
    "run_clips",
]
