"""Blender workers: each imports bpy once and keeps one ``BlenderStage`` for all its units.

``init_worker`` is the ``setup`` of a Blender work-unit loop (``synth.pool``); ``run_unit``
makes one scene of a split and ``run_clip_unit`` one clip of a clip set, each a function of
the worker and the unit's index alone. The executor (``spatialbabel.run.executor``) starts each
worker fresh, never in the calling process, so the parent never imports bpy and a worker never
inherits a half-initialised Blender from it.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbabel.run.executor import WorkerContext

_BLENDER_SCRIPTS = re.compile(r"[/\\]bpy[/\\]\d+\.\d+[/\\]scripts([/\\]|$)")


@dataclass(frozen=True)
class BlenderWorker:
    """What a Blender worker keeps between units."""

    root: Path
    #: A split's ``SceneParameters`` (or another unit kind's parameters with an ``engine``).
    params: Any
    stage: Any
    blender_version: str


def init_worker(
    context: WorkerContext, root: str, params: Any, quiet: bool = True
) -> BlenderWorker:
    """Set up this worker: one ``BlenderStage`` for ``params.engine``, its scratch files in the
    worker's own folder."""
    # Headless Workbench draws with Mesa's llvmpipe, which starts a thread per core in every
    # process; W workers on C cores then fight over them. C // W threads each is faster
    # (benchmarks/bench_generate.py). A value the user set is kept.
    os.environ.setdefault("LP_NUM_THREADS", str(context.cpus))
    # A parent that imported bpy put Blender's script folders on sys.path, and a spawned worker
    # inherits its path: "import bpy" would then find the scripts' own bpy package, which needs
    # the module's _bpy. Importing bpy puts them back.
    sys.path[:] = [p for p in sys.path if not _BLENDER_SCRIPTS.search(p)]
    if quiet:
        # Blender reports every saved render and EGL probe on the process's own stdout and
        # stderr; they would tear the parent's progress bar. Errors come back as exceptions.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    from synth.blender_stage import BlenderStage, blender_version

    return BlenderWorker(
        Path(root), params, BlenderStage(params.engine, context.scratch), blender_version()
    )


def run_unit(worker: BlenderWorker, index: int) -> str:
    """The scene of ``index``, written into the split; its id."""
    from synth.unit import generate_unit

    return generate_unit(worker.root, index, worker.params, worker.stage, worker.blender_version)


def run_clip_unit(worker: BlenderWorker, index: int) -> str:
    """The clip of ``index``, written into the clip set; its id."""
    from synth.clip_unit import generate_clip_unit

    return generate_clip_unit(
        worker.root, index, worker.params, worker.stage, worker.blender_version
    )
