"""The local executor: work units on worker processes of this machine (the default).

Each worker slot is a one-process ``concurrent.futures.ProcessPoolExecutor``, so the parent
knows which units a worker held when it died: that worker alone is started again and the unit
it was running is retried (``spatialbabel.run.dispatch``); the other workers go on. Long-lived
loops (Blender) start their workers with "spawn", so this process never imports what they do;
the others fork, so a loop's arguments (scoring's extra metrics) may be closures, and a small
run stays in this process. Workers ignore Ctrl-C: the parent alone handles it, and stops them.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from spatialbabel.run.dispatch import ProgressBar, WorkerLost, dispatch
from spatialbabel.run.executor import (
    DEFAULT_MAX_RETRIES,
    Progress,
    UnitLoop,
    WorkerContext,
)

U = TypeVar("U")
R = TypeVar("R")

#: This worker process's loop and, once built, its state.
_WORKER: dict[str, Any] = {}


def _init_process(
    setup: Callable[..., Any],
    run: Callable[[Any, Any], Any],
    args: tuple[Any, ...],
    cpus: int,
    scratch: str,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.clear()
    _WORKER.update(setup=setup, run=run, args=args, cpus=cpus, scratch=scratch)


def _run_batch(batch: list[Any]) -> list[Any]:
    if "state" not in _WORKER:
        # Built on the first unit, not in the pool's initializer: an error here then reaches
        # the parent as the exception it is, not as a broken pool.
        folder = Path(tempfile.mkdtemp(prefix="worker-", dir=_WORKER["scratch"]))
        context = WorkerContext(cpus=_WORKER["cpus"], scratch=folder)
        _WORKER["state"] = _WORKER["setup"](context, *_WORKER["args"])
    state, run = _WORKER["state"], _WORKER["run"]
    return [run(state, unit) for unit in batch]


class _Slots:
    """``dispatch``'s backend: one single-process pool per worker slot."""

    shared_fate = True

    def __init__(self, loop: UnitLoop[Any, Any, Any], workers: int, scratch: str) -> None:
        self.slots = workers
        self._loop = loop
        self._scratch = scratch
        self._context = multiprocessing.get_context("spawn" if loop.long_lived else "fork")
        # Threads of a renderer: the machine's cores shared out among the workers.
        self._cpus = max(1, (os.cpu_count() or 1) // workers)
        self._pools: dict[int, ProcessPoolExecutor] = {}

    def start(self, slot: int) -> None:
        loop = self._loop
        old = self._pools.pop(slot, None)
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        self._pools[slot] = ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_init_process,
            # Only what a worker calls goes to it: a loop's ``describe`` stays here.
            initargs=(loop.setup, loop.run, loop.args, self._cpus, self._scratch),
        )

    def submit(self, slot: int, batch: list[Any]) -> Future[list[Any]]:
        return self._pools[slot].submit(_run_batch, batch)

    def wait(self, handles: Collection[Future[list[Any]]]) -> list[Future[list[Any]]]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, handle: Future[list[Any]]) -> list[Any]:
        try:
            return handle.result()
        except BrokenProcessPool:
            raise WorkerLost("the worker process ended abruptly") from None

    def stop(self, *, finished: bool) -> None:
        for pool in self._pools.values():
            if finished:
                pool.shutdown(wait=True)
                continue
            # Interrupted, or a unit failed: stop the workers now. Finished units are kept and
            # an unfinished one leaves at most a .tmp file, which the next run removes.
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
        self._pools.clear()


class LocalExecutor:
    """Work units on ``workers`` processes of this machine."""

    name = "local"

    def __init__(self, workers: int = 1, *, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self._workers = workers
        self.max_retries = max_retries

    def workers(self, loop: UnitLoop[Any, Any, Any]) -> int:
        return self._workers

    def _in_process(self, loop: UnitLoop[Any, Any, Any], units: int) -> bool:
        return not loop.long_lived and (
            self._workers <= 1
            or units < 2 * self._workers
            or "fork" not in multiprocessing.get_all_start_methods()
        )

    def map(
        self,
        loop: UnitLoop[Any, U, R],
        units: Sequence[U],
        *,
        progress: Progress | None = None,
    ) -> list[R]:
        if not units:
            return []
        with tempfile.TemporaryDirectory(
            prefix="spatialbabel-workers-", ignore_cleanup_errors=True
        ) as scratch:
            if self._in_process(loop, len(units)):
                context = WorkerContext(cpus=os.cpu_count() or 1, scratch=Path(scratch))
                state = loop.setup(context, *loop.args)
                bar = ProgressBar(progress)
                try:
                    results = []
                    for unit in units:
                        results.append(loop.run(state, unit))
                        bar.update(1)
                    return results
                finally:
                    bar.close()
            workers = min(self._workers, len(units))
            backend = _Slots(loop, workers, scratch)
            return dispatch(backend, loop, units, max_retries=self.max_retries, progress=progress)

    def close(self) -> None:
        """Nothing outlives a ``map``."""
