"""Rendering chosen views of generated scenes: an image and an object-ID pass per camera, on a
pool of Blender workers (``synth.blender_stage``), for suites that pick their own views.

A job is one scene state and its cameras; each camera gives ``<name>.png`` (the image, as the
split's images are made) and ``<name>_ids.png`` (the ID pass, value = 1 + object index, as the
split's masks) in the job's folder. Files are written atomically and a view whose two files
exist is not rendered again, so an interrupted run resumes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbabel import Camera, Scene
from spatialbabel.files import atomic_write_bytes

_STATE: dict[str, Any] = {}


@dataclass(frozen=True)
class ViewJob:
    scene: Scene
    cameras: tuple[Camera, ...]
    folder: Path

    def paths(self, camera: Camera) -> tuple[Path, Path]:
        return self.folder / f"{camera.name}.png", self.folder / f"{camera.name}_ids.png"

    def pending(self) -> bool:
        return any(not p.is_file() for c in self.cameras for p in self.paths(c))


def _init(engine: str, scratch: str, workers: int) -> None:
    os.environ.setdefault("LP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    from synth.blender_stage import BlenderStage

    _STATE["stage"] = BlenderStage(engine, Path(tempfile.mkdtemp(prefix="views-", dir=scratch)))


def render_job(stage: Any, job: ViewJob) -> int:
    """Render a job's pending views with ``stage`` (a ``BlenderStage``); the count rendered."""
    stage.set_scene(job.scene.objects, job.cameras, job.scene.ground)
    done = 0
    for k, camera in enumerate(job.cameras):
        image, ids = job.paths(camera)
        if image.is_file() and ids.is_file():
            continue
        atomic_write_bytes(image, stage.render_image(k))
        atomic_write_bytes(ids, stage.render_ids(k)[0])
        done += 1
    return done


def _run(job: ViewJob) -> int:
    return render_job(_STATE["stage"], job)


def render_views(jobs: Sequence[ViewJob], *, workers: int = 1, engine: str = "workbench") -> int:
    """Render every pending view of ``jobs`` on ``workers`` spawned Blender processes; the
    number of views rendered."""
    pending = [job for job in jobs if job.pending()]
    if not pending:
        return 0
    for job in pending:
        job.folder.mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("spawn")
    count = min(workers, len(pending))
    with (
        tempfile.TemporaryDirectory(prefix="spatialbabel-views-") as scratch,
        context.Pool(count, initializer=_init, initargs=(engine, scratch, count)) as pool,
    ):
        return sum(pool.imap(_run, pending))


__all__ = ["ViewJob", "render_job", "render_views"]
