"""The Ray executor: work units on a Ray cluster. The only module that imports ``ray``.

Long-lived loops (Blender) run on actors, one per CPU of the cluster, each building its state
once and keeping it for every unit it is given; the other loops run as plain Ray tasks, each
worker process building the loop's state on its first task and keeping it for the next. The
driver (this process) hands out the units, feeds the progress bar as results come back and
retries the units of a worker that died (``spatialbabel.run.dispatch``). Units write their files
themselves, so the output folder must be one path that every node can write (docs/scale.md).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, Final, TypeVar

import ray
from ray.exceptions import GetTimeoutError, RayError, RayTaskError

from spatialbabel.run.dispatch import WorkerLost, dispatch
from spatialbabel.run.executor import DEFAULT_MAX_RETRIES, Progress, UnitLoop, WorkerContext

U = TypeVar("U")
R = TypeVar("R")

#: What one worker calls: the loop's setup, its unit function and the setup's arguments.
Spec = tuple[Callable[..., Any], Callable[[Any, Any], Any], tuple[Any, ...]]

#: Seconds the actors get to tidy up (remove their scratch folders) at the end of a run.
CLOSE_TIMEOUT: Final = 30.0

#: This worker process's state for plain tasks, by run token (only the latest run's is kept).
_TASK_STATE: dict[str, Any] = {}


def _scratch(token: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"spatialbabel-{token}-"))


class _UnitWorker:
    """A long-lived worker: one per CPU, its state built on the first batch it is given."""

    def __init__(self, spec: Spec, token: str) -> None:
        self._spec = spec
        self._token = token
        self._state: Any = None
        self._ready = False
        self._folder: Path | None = None

    def run(self, batch: list[Any]) -> list[Any]:
        setup, run, args = self._spec
        if not self._ready:
            self._folder = self._folder or _scratch(self._token)
            self._state = setup(WorkerContext(cpus=1, scratch=self._folder), *args)
            self._ready = True
        return [run(self._state, unit) for unit in batch]

    def close(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


# Never restarted by Ray: the driver starts a new actor itself and retries the unit, so that
# attempts count per unit, not per actor.
_Actor: Any = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_UnitWorker)


def _run_task(box: list[Any], token: str, batch: list[Any]) -> list[Any]:
    """A plain task. The spec comes boxed in a list, so Ray does not fetch it for every task:
    only a worker process that has not yet built this run's state reads it."""
    if token not in _TASK_STATE:
        # A process keeps one run's state; the scratch folder of the one before goes with it
        # (a task's process outlives the run, so this is the first moment it is not needed).
        for _, _, folder in _TASK_STATE.values():
            shutil.rmtree(folder, ignore_errors=True)
        _TASK_STATE.clear()
        setup, run, args = ray.get(box[0])
        folder = _scratch(token)
        _TASK_STATE[token] = (setup(WorkerContext(cpus=1, scratch=folder), *args), run, folder)
    state, run, _ = _TASK_STATE[token]
    return [run(state, unit) for unit in batch]


_task: Any = ray.remote(num_cpus=1, max_retries=0)(_run_task)


def _lost(error: RayError) -> WorkerLost:
    text = str(error).strip().splitlines()
    return WorkerLost(f"{type(error).__name__}: {text[0] if text else 'no message'}")


def _result(handle: Any) -> list[Any]:
    try:
        values: list[Any] = ray.get(handle)
    except RayTaskError as error:
        # The unit raised: its own exception, as the local pool gives it.
        cause = error.cause
        if isinstance(cause, BaseException):
            raise cause from None
        raise
    except RayError as error:
        raise _lost(error) from None
    return values


def _wait(handles: Collection[Any]) -> list[Any]:
    pending = list(handles)
    ready, _ = ray.wait(pending, num_returns=1)
    more, _ = ray.wait(pending, num_returns=len(pending), timeout=0)
    return list({*ready, *more})


class _Actors:
    """``dispatch``'s backend for long-lived loops."""

    shared_fate = True

    def __init__(self, spec: Spec, slots: int, token: str) -> None:
        self.slots = slots
        self._spec = ray.put(spec)
        self._token = token
        self._actors: dict[int, Any] = {}

    def start(self, slot: int) -> None:
        old = self._actors.pop(slot, None)
        if old is not None:
            ray.kill(old, no_restart=True)
        self._actors[slot] = _Actor.remote(self._spec, self._token)

    def submit(self, slot: int, batch: list[Any]) -> Any:
        return self._actors[slot].run.remote(batch)

    def wait(self, handles: Collection[Any]) -> list[Any]:
        return _wait(handles)

    def result(self, handle: Any) -> list[Any]:
        return _result(handle)

    def stop(self, *, finished: bool) -> None:
        actors = list(self._actors.values())
        self._actors.clear()
        if finished:
            # At worst a scratch folder is left in a node's temporary directory.
            with suppress(GetTimeoutError, RayError):
                ray.get([a.close.remote() for a in actors], timeout=CLOSE_TIMEOUT)
        for actor in actors:
            ray.kill(actor, no_restart=True)


class _Tasks:
    """``dispatch``'s backend for the other loops: plain tasks, each failing alone."""

    shared_fate = False

    def __init__(self, spec: Spec, slots: int, token: str) -> None:
        self.slots = slots
        self._box = [ray.put(spec)]
        self._token = token
        self._out: set[Any] = set()

    def start(self, slot: int) -> None:
        """Ray starts the processes of plain tasks itself."""

    def submit(self, slot: int, batch: list[Any]) -> Any:
        handle = _task.remote(self._box, self._token, batch)
        self._out.add(handle)
        return handle

    def wait(self, handles: Collection[Any]) -> list[Any]:
        return _wait(handles)

    def result(self, handle: Any) -> list[Any]:
        self._out.discard(handle)
        return _result(handle)

    def stop(self, *, finished: bool) -> None:
        for handle in self._out:
            ray.cancel(handle, force=True)
        self._out.clear()


class RayExecutor:
    """Work units on a Ray cluster: joined at ``address`` ("auto": the one running on this
    machine; HOST:PORT; ray://HOST:PORT), or a new local Ray when there is none. A Ray this
    executor started is shut down by ``close``; one that was running already is left alone."""

    name = "ray"

    def __init__(
        self,
        workers: int | None = None,
        *,
        address: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        init: dict[str, Any] | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self._workers = workers
        self.max_retries = max_retries
        self._address = address
        self._init = dict(init or {})
        self._started = False
        self._runs = 0

    def _connect(self) -> None:
        """Join (or start) the cluster on first use: a run with nothing to do needs none."""
        if ray.is_initialized():
            return
        # Worker output (Blender's chatter) stays in the cluster's logs: it would tear the
        # progress bar, and a unit's errors come back as exceptions anyway.
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        if self._address is None:
            options.update(include_dashboard=False, **self._init)
        elif "://" in self._address:
            options = {}  # Ray Client: the cluster's own settings hold
        ray.init(address=self._address or "local", **options)
        self._started = True

    def cpus(self) -> int:
        """CPUs of the cluster."""
        self._connect()
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        return max(1, int(resources.get("CPU", 1)))

    def workers(self, loop: UnitLoop[Any, Any, Any]) -> int:
        cpus = self.cpus()
        if self._workers is None:
            return cpus
        # An actor holds its CPU for the whole run: more actors than CPUs would wait forever.
        return min(self._workers, cpus) if loop.long_lived else self._workers

    def map(
        self,
        loop: UnitLoop[Any, U, R],
        units: Sequence[U],
        *,
        progress: Progress | None = None,
    ) -> list[R]:
        if not units:
            return []
        self._connect()
        self._runs += 1
        token = f"{os.getpid()}-{self._runs}-{os.urandom(4).hex()}"
        spec: Spec = (loop.setup, loop.run, loop.args)
        workers = min(self.workers(loop), len(units))
        backend = _Actors(spec, workers, token) if loop.long_lived else _Tasks(spec, workers, token)
        return dispatch(backend, loop, units, max_retries=self.max_retries, progress=progress)

    def close(self) -> None:
        if self._started:
            ray.shutdown()
            self._started = False
