"""Worker processes: each imports bpy once and keeps one ``BlenderStage`` for all its units.

``run_unit`` makes one scene of a split, ``run_clip_unit`` one clip of a clip set; both are
functions of the unit's index alone, which ``synth.pool.run_pool`` maps over the pending ones.

Workers are started with "spawn", so the parent never imports bpy and a worker never inherits
a half-initialised Blender from it.
"""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path
from typing import Any

_STATE: dict[str, Any] = {}


def init_worker(root: str, params: Any, scratch: str, workers: int = 1, quiet: bool = True) -> None:
    """Set up this worker: one ``BlenderStage`` for ``params.engine`` (``params`` is a
    split's ``SceneParameters`` or a clip set's ``ClipParameters``), scratch files in a folder
    of its own under ``scratch`` (which the parent removes, however the run ends)."""
    # Headless Workbench draws with Mesa's llvmpipe, which starts a thread per core in every
    # process; W workers on C cores then fight over them. C // W threads each is faster
    # (benchmarks/bench_generate.py). A value the user set is kept.
    os.environ.setdefault("LP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    # Ctrl-C reaches the whole process group; the parent alone handles it and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if quiet:
        # Blender reports every saved render and EGL probe on the process's own stdout and
        # stderr; they would tear the parent's progress bar. Errors come back as exceptions.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    from synth.blender_stage import BlenderStage, blender_version

    workdir = Path(tempfile.mkdtemp(prefix="worker-", dir=scratch))
    _STATE["root"] = Path(root)
    _STATE["params"] = params
    _STATE["stage"] = BlenderStage(params.engine, workdir)
    _STATE["blender_version"] = blender_version()


def run_unit(index: int) -> str:
    from synth.unit import generate_unit

    return generate_unit(
        _STATE["root"], index, _STATE["params"], _STATE["stage"], _STATE["blender_version"]
    )


def run_clip_unit(index: int) -> str:
    from synth.clip_unit import generate_clip_unit

    return generate_clip_unit(
        _STATE["root"], index, _STATE["params"], _STATE["stage"], _STATE["blender_version"]
    )
