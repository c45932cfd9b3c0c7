"""Rendering chosen views of generated scenes: an image and an object-ID pass per camera, on a
pool of Blender workers (``synth.blender_stage``), for suites that pick their own views.

A job is one scene state and its cameras; each camera gives ``<name>.png`` (the image, as the
split's images are made) and ``<name>_ids.png`` (the ID pass, value = 1 + object index, as the
split's masks) in the job's folder. A job is a work unit of a long-lived Blender loop, so any
executor runs it (``spatialbabel.run.executor``: local processes, or Ray actors). Files are
written atomically and a view whose two files
exist is not rendered again, so an interrupted run resumes.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbabel import Camera, Scene
from spatialbabel.files import atomic_write_bytes
from spatialbabel.run.executor import Executor, Progress, UnitLoop
from synth.workers import BlenderWorker, init_worker


@dataclass(frozen=True)
class ViewJob:
    scene: Scene
    cameras: tuple[Camera, ...]
    folder: Path

    def paths(self, camera: Camera) -> tuple[Path, Path]:
        return self.folder / f"{camera.name}.png", self.folder / f"{camera.name}_ids.png"

    def pending(self) -> bool:
        return any(not p.is_file() for c in self.cameras for p in self.paths(c))


@dataclass(frozen=True)
class ViewParams:
    """What a view-rendering worker needs besides its jobs (``synth.workers.init_worker``)."""

    engine: str = "workbench"


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


def run_view_job(worker: BlenderWorker, job: ViewJob) -> int:
    """A work unit: one job on a Blender worker."""
    return render_job(worker.stage, job)


def _describe(job: ViewJob) -> str:
    return f"views of {job.scene.scene_id}"


def render_views(
    jobs: Sequence[ViewJob],
    *,
    workers: int = 1,
    engine: str = "workbench",
    executor: Executor | None = None,
    progress: bool = False,
) -> int:
    """Render every pending view of ``jobs`` on ``executor`` (default: ``workers`` local
    Blender processes), one job per unit; the number of views rendered."""
    pending = [job for job in jobs if job.pending()]
    if not pending:
        return 0
    if importlib.util.find_spec("bpy") is None:
        raise ModuleNotFoundError("No module named 'bpy'", name="bpy")
    for job in pending:
        job.folder.mkdir(parents=True, exist_ok=True)
    loop = UnitLoop(
        setup=init_worker,
        run=run_view_job,
        args=("", ViewParams(engine)),
        long_lived=True,
        describe=_describe,
    )
    bar = Progress(len(pending), unit="scene", desc="views") if progress else None
    if executor is not None:
        return sum(executor.map(loop, pending, progress=bar))
    from spatialbabel.run.local_pool import LocalExecutor

    local = LocalExecutor(min(workers, len(pending)))
    try:
        return sum(local.map(loop, pending, progress=bar))
    finally:
        local.close()


__all__ = ["ViewJob", "ViewParams", "render_job", "render_views", "run_view_job"]
