"""SpaceCast over a whole split: drafts scene by scene, positions balanced per task, the chosen
views rendered into the items folder, then the items.

The items folder holds, per scene, ``views/<scene_id>/<camera>.png`` (what the model sees),
``views/<scene_id>/<camera>_ids.png`` (the ID pass of that view) and ``views/<scene_id>.json``:
the scene before any change with the cameras the items use (name, K, pose), its ground truth.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from spatialbabel import Camera, Scene
from spatialbabel.run.executor import ExecutorOptions, open_executor
from spatialbabel.split import Split
from suites.base import Item, SuiteError
from suites.spacecast.build import Draft, SplitBalance, scene_drafts
from suites.spacecast.selection import select
from suites.spacecast.wording import word
from synth.candidate_views import candidate_cameras
from synth.view_render import ViewJob

VIEWS = "views"


def scene_cameras(scene: Scene, resolution: int) -> tuple[Camera, ...]:
    """The split's frontal camera (at ``resolution``) and the candidates of ``scene``."""
    cameras = []
    if scene.cameras:
        front = scene.cameras[0]
        cameras.append(
            Camera(front.name, resolution, resolution, front.fov_y_deg, front.cam_to_world)
        )
    return (*cameras, *candidate_cameras(scene, resolution))


def load_scenes(split: Path, limit: int | None) -> list[Scene]:
    folder = Split(split)
    ids = folder.scene_ids
    if not ids:
        raise SuiteError(f"{folder.scenes_dir}: no scenes (is {split} a split?)")
    return [folder.scene(scene_id) for scene_id in ids[:limit]]


def plan_split(
    scenes: list[Scene], *, seed: int, resolution: int
) -> list[tuple[Scene, list[Draft]]]:
    """Every scene's chosen drafts, in scene order: each scene's drafts with the split's label
    balance, then the split's choice among them (``suites.spacecast.selection``)."""
    balance = SplitBalance()
    planned = []
    for position, scene in enumerate(scenes):
        index = int(scene.meta.get("index", position))
        rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
        planned.append((scene, scene_drafts(scene, scene_cameras(scene, resolution), rng, balance)))
    return select(planned)


def view_path(scene_id: str, camera: Camera) -> str:
    return f"{VIEWS}/{scene_id}/{camera.name}.png"


def word_split(planned: list[tuple[Scene, list[Draft]]]) -> list[Item]:
    """The items, scene by scene (``suites.spacecast.wording.word``)."""
    return [
        word(draft, scene, [view_path(scene.scene_id, c) for c in draft.views])
        for scene, drafts in planned
        for draft in drafts
    ]


def render_jobs(
    planned: list[tuple[Scene, list[Draft]]], out: Path, *, bev: Camera | None = None
) -> list[ViewJob]:
    """A job per scene with items: its chosen views and, given ``bev``, its bird's-eye view
    (``suites.spacecast.conditions``), which the saved truth leaves out (no question names it)."""
    jobs = []
    for scene, drafts in planned:
        cameras: dict[str, Camera] = {}
        for draft in drafts:
            for camera in draft.views:
                cameras.setdefault(camera.name, camera)
        if not cameras:
            continue
        truth = replace(scene, cameras=tuple(cameras.values()))
        truth.save(out / VIEWS / f"{scene.scene_id}.json")
        shown = truth.cameras if bev is None else (*truth.cameras, bev)
        jobs.append(ViewJob(truth, shown, out / VIEWS / scene.scene_id))
    return jobs


def build_split(
    split: Path,
    out: Path,
    *,
    seed: int,
    executor: ExecutorOptions,
    resolution: int,
    limit: int | None,
    bev: bool = False,
) -> Iterator[Item]:
    """The items of ``split``; their views (and, with ``bev``, each scene's bird's-eye view)
    are rendered into ``out`` on ``executor``."""
    from suites.spacecast.conditions import bev_camera
    from synth.view_render import render_views

    planned = plan_split(load_scenes(split, limit), seed=seed, resolution=resolution)
    items = word_split(planned)
    jobs = render_jobs(planned, out, bev=bev_camera(resolution) if bev else None)
    with open_executor(executor) as running:
        render_views(jobs, executor=running, progress=True)
    yield from items


__all__ = ["build_split", "load_scenes", "plan_split", "render_jobs", "scene_cameras", "word_split"]
