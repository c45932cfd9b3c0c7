"""Blender work-unit loops: a unit function of one index mapped over the pending indices by an
executor (``spatialbabel.run.executor``: the local process pool by default, or Ray), each worker
with one ``BlenderStage`` (``synth.workers.init_worker``), with a progress bar.

The resumable set of units (``synth.unit_set``: a split's scenes, a clip set's clips) runs
here, with no scheduling logic of its own. A unit function is ``unit(worker, index) -> id``
(``synth.workers``), module-level, and writes its files atomically; it depends on nothing but
the index and the parameters, so it gives the same bytes on any worker of any machine and can
be run again after its worker died.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from spatialbabel.run.executor import Executor, Progress, UnitLoop
from synth.workers import BlenderWorker, init_worker


def blender_loop(
    unit: Callable[[BlenderWorker, int], str],
    *,
    root: Path,
    params: Any,
    describe: Callable[[int], str],
) -> UnitLoop[BlenderWorker, int, str]:
    """The loop of ``unit`` over indices, on long-lived Blender workers."""
    return UnitLoop(
        setup=init_worker,
        run=unit,
        args=(str(root), params),
        long_lived=True,
        describe=describe,
    )


def run_pool(
    unit: Callable[[BlenderWorker, int], str],
    indices: Sequence[int],
    *,
    root: Path,
    params: Any,
    workers: int,
    total: int,
    label: str = "scene",
    desc: str = "generate",
    progress: bool = True,
    describe: Callable[[int], str] | None = None,
    executor: Executor | None = None,
) -> None:
    """Run ``unit(worker, i)`` for every index on ``executor`` (default: ``workers`` local
    processes), with a progress bar over ``total`` units of which ``total - len(indices)`` are
    already done."""
    if not indices:
        return
    if importlib.util.find_spec("bpy") is None:
        raise ModuleNotFoundError("No module named 'bpy'", name="bpy")
    loop = blender_loop(
        unit, root=root, params=params, describe=describe or partial(_describe, label)
    )
    bar = Progress(total, total - len(indices), unit=label, desc=desc) if progress else None
    if executor is None:
        from spatialbabel.run.local_pool import LocalExecutor

        executor = LocalExecutor(workers)
    executor.map(loop, indices, progress=bar)


def _describe(label: str, index: int) -> str:
    return f"{label} {index}"
