"""A clip set: the set of clips (``synth.unit_set`` with the clip kind), then
``manifest.json``.

A clip set is ``clips/<clip_id>.json`` (the ground truth, ``spatialbabel.clip.Clip``),
``frames/<clip_id>/<t>.png`` (the observed frames), ``ids/<clip_id>/<t>.png`` (their ID
passes), ``videos/<clip_id>.mp4`` and ``manifest.json``; ``spatialbabel verify`` checks it like
a split.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Final

from spatialbabel.clip import Clip
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
from synth.unit_set import UnitKind, UnitSet
from synth.workers import run_clip_unit


def load_clips(root: Path, n: int) -> list[Clip]:
    return [Clip.load(root / f"clips/{clip_id(i)}.json") for i in range(n)]


def finalise_clips(clip_set: UnitSet[ClipParameters]) -> dict[str, Any]:
    """Write the manifest from the finished clips; returns it."""
    root, params = clip_set.out, clip_set.params
    clips = load_clips(root, clip_set.n)
    names = [p for c in clips for p in ClipPaths.of(c.clip_id, c.observed, params.video).all()]
    motions = Counter(m for c in clips for m in c.motions)
    manoeuvres = Counter(str(c.meta["manoeuvre"]) for c in clips)
    manifest = build_manifest(
        generator={"name": GENERATOR_NAME, "version": CLIP_GENERATOR_VERSION},
        blender_versions=[str(c.meta.get("blender_version", "unknown")) for c in clips],
        parameters={"n": clip_set.n, **params.to_dict()},
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


CLIPS: Final[UnitKind[ClipParameters]] = UnitKind(
    label="clip",
    desc="clips",
    unit=run_clip_unit,
    done=clip_done,
    describe=describe_clip,
    finalise=finalise_clips,
)


def clip_set(
    out: Path, n: int, params: ClipParameters | None = None, workers: int = 1
) -> UnitSet[ClipParameters]:
    """The clip set of ``n`` clips in ``out``; ``.generate()`` renders (or finishes) it and
    returns its manifest."""
    return UnitSet(CLIPS, out, n, ClipParameters() if params is None else params, workers)


__all__ = ["CLIPS", "clip_set", "finalise_clips", "load_clips"]
