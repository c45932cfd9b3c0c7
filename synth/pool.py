"""The process pool that maps a work-unit function over indices: spawned Blender workers, each
set up once (``synth.workers.init_worker``), a progress bar, and a clean stop.

Split generation (``synth.split``) and clip rendering (``synth.clips``) both run here; neither
has scheduling logic of its own. A work unit is a module-level function of one index that
writes its files atomically and returns its id, so the pool only hands out indices and waits.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from synth.unit import GenerationError
from synth.workers import init_worker


def run_pool(
    unit: Callable[[int], str],
    indices: Sequence[int],
    *,
    root: Path,
    params: Any,
    workers: int,
    total: int,
    label: str = "scene",
    desc: str = "generate",
    progress: bool = True,
) -> None:
    """Run ``unit(i)`` for every index on ``workers`` spawned processes (each with one
    ``BlenderStage`` built from ``params.engine``), with a progress bar over ``total`` units
    of which ``total - len(indices)`` are already done."""
    if not indices:
        return
    if importlib.util.find_spec("bpy") is None:
        raise ModuleNotFoundError("No module named 'bpy'", name="bpy")
    from tqdm import tqdm

    context = multiprocessing.get_context("spawn")
    workers = min(workers, len(indices))
    bar = tqdm(
        total=total,
        initial=total - len(indices),
        unit=label,
        desc=desc,
        file=sys.stderr,
        disable=not progress,
        smoothing=0.1,
    )
    scratch = tempfile.TemporaryDirectory(
        prefix="spatialbabel-generate-", ignore_cleanup_errors=True
    )
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=init_worker,
        initargs=(str(root), params, scratch.name, workers),
    )
    try:
        futures: set[Future[str]] = {executor.submit(unit, i) for i in indices}
        while futures:
            done, futures = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                future.result()
                bar.update(1)
    except BrokenProcessPool as error:
        executor.shutdown(wait=False, cancel_futures=True)
        raise GenerationError(
            f"a Blender worker died ({error}); the finished {label}s are kept: rerun the same command to resume"
        ) from None
    except BaseException:
        # Interrupted (Ctrl-C) or a unit failed: stop the workers now; finished units are kept
        # and an unfinished one leaves at most a .tmp file, which the next run removes.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        raise
    else:
        executor.shutdown(wait=True)
    finally:
        bar.close()
        scratch.cleanup()
