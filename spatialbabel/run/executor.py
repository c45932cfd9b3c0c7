"""Running work units: one interface over the local process pool and a Ray cluster.

A work-unit loop (a split's scenes, a clip set's clips, the replies to score or parse) is a
``UnitLoop``: a ``setup`` that builds each worker's state once (a ``BlenderStage``, the true
scenes) and a ``run(state, unit)`` that does one unit and returns a small result. Both are
module-level functions, so any worker on any machine can import them. An ``Executor`` maps a
loop over units and returns the results in the order of the units:

- ``spatialbabel.run.local_pool.LocalExecutor`` (the default): worker processes on this machine;
- ``spatialbabel.run.ray_cluster.RayExecutor``: Ray actors (``long_lived`` loops: one per CPU,
  each keeping its Blender) or plain Ray tasks; the only module that imports ``ray``.

Whichever runs it, a unit is the same call with the same arguments, so what it writes is the
same bytes. A worker that dies mid-unit (killed, out of memory, its machine gone) costs that
unit one attempt: it is run again on another worker, up to ``max_retries`` times, and a unit
that still fails ends the run with ``UnitFailed`` naming it. A unit that raises is not retried
(the same call would raise again): its exception ends the run as it is.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from spatialbabel.errors import SpatialBabelError

S = TypeVar("S")
U = TypeVar("U")
R = TypeVar("R")

EXECUTORS: Final = ("local", "ray")
ExecutorName = Literal["local", "ray"]
#: Attempts after the first that a unit gets when its worker dies under it.
DEFAULT_MAX_RETRIES: Final = 3


class UnitFailed(SpatialBabelError):
    """A unit whose worker died under it on every attempt; the message names the unit."""

    def __init__(self, unit: str, attempts: int, reason: str) -> None:
        self.unit = unit
        self.attempts = attempts
        self.reason = reason
        super().__init__(f"{unit}: its worker died on all {attempts} attempts (last: {reason})")


@dataclass(frozen=True)
class WorkerContext:
    """What a loop's ``setup`` learns about the worker it builds state for."""

    #: CPUs this worker may keep busy with threads of its own (a renderer's).
    cpus: int
    #: A folder of this worker's own for scratch files, removed when the run ends.
    scratch: Path


def _describe(unit: object) -> str:
    return f"unit {unit!r}"


@dataclass(frozen=True)
class UnitLoop(Generic[S, U, R]):
    """A work-unit loop: ``setup(context, *args)`` once per worker, then ``run(state, unit)``
    for each unit the worker is given.

    ``long_lived`` loops (Blender) get workers of their own that start fresh ("spawn") and
    never run in the calling process, one unit at a time: Ray actors, one per CPU. The others
    (parsing, scoring) are cheap per unit: their units go in batches, to forked processes (so
    ``args`` may hold closures) or plain Ray tasks, and a small run stays in the calling
    process. ``describe`` names a unit in errors; ``batches_per_worker`` sets the batch size.
    """

    setup: Callable[..., S]
    run: Callable[[S, U], R]
    args: tuple[Any, ...] = ()
    long_lived: bool = False
    describe: Callable[[U], str] = _describe
    batches_per_worker: int = 8

    def batch_size(self, units: int, workers: int) -> int:
        if self.long_lived:
            return 1
        return max(1, units // (max(1, workers) * self.batches_per_worker))


@dataclass(frozen=True)
class Progress:
    """A progress bar (tqdm, on stderr) over ``total`` units, ``done`` of them finished before."""

    total: int
    done: int = 0
    unit: str = "unit"
    desc: str | None = None


class Executor(Protocol):
    """Runs work-unit loops; see the module's docstring."""

    @property
    def name(self) -> str: ...

    def workers(self, loop: UnitLoop[Any, Any, Any]) -> int:
        """How many workers a run of ``loop`` gets."""
        ...

    def map(
        self,
        loop: UnitLoop[Any, U, R],
        units: Sequence[U],
        *,
        progress: Progress | None = None,
    ) -> list[R]:
        """``loop.run`` over ``units`` on this executor's workers, the results in unit order."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class ExecutorOptions:
    """The executor a command was asked for (``--executor``, ``--workers``, ``--ray-address``,
    ``--max-retries``). ``workers`` None: the command's own default locally, and one worker
    per CPU of the cluster on Ray."""

    executor: ExecutorName = "local"
    workers: int | None = None
    address: str | None = None
    max_retries: int = DEFAULT_MAX_RETRIES
    #: Extra keyword arguments of ``ray.init`` when this run starts a local Ray (tests, benchmarks).
    ray_init: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise ValueError(
                f"executor must be one of {', '.join(EXECUTORS)}, got {self.executor!r}"
            )
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if self.max_retries < 0:
            raise ValueError(f"max retries must not be negative, got {self.max_retries}")
        if self.address is not None and self.executor != "ray":
            raise ValueError("a Ray address needs the ray executor (--executor ray)")


def make_executor(options: ExecutorOptions, *, default_workers: int = 1) -> Executor:
    """The executor ``options`` asks for. Ray is imported only here, and only when asked for:
    without it this raises ``ModuleNotFoundError`` (name ``ray``)."""
    if options.executor == "ray":
        from spatialbabel.run.ray_cluster import RayExecutor

        return RayExecutor(
            options.workers,
            address=options.address,
            max_retries=options.max_retries,
            init=options.ray_init,
        )
    from spatialbabel.run.local_pool import LocalExecutor

    workers = options.workers if options.workers is not None else default_workers
    return LocalExecutor(workers, max_retries=options.max_retries)


@contextmanager
def open_executor(options: ExecutorOptions, *, default_workers: int = 1) -> Iterator[Executor]:
    """``make_executor``, closed (a Ray this run started is shut down) however the block ends."""
    executor = make_executor(options, default_workers=default_workers)
    try:
        yield executor
    finally:
        executor.close()


# --- the command line -----------------------------------------------------------------------------
def add_executor_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--executor``, ``--ray-address`` and ``--max-retries`` (each command has its own
    ``--workers``, defaulting to None: see ``ExecutorOptions``)."""
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default=None,
        help="where the work units run: local worker processes (default), or a Ray cluster "
        "(pip install 'spatialbabel[ray]'; docs/scale.md)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        default=None,
        help="the Ray cluster to join: 'auto' (the one running here), HOST:PORT or "
        "ray://HOST:PORT; implies --executor ray (default: $RAY_ADDRESS, else a new local Ray)",
    )
    parser.add_argument(
        "--max-retries",
        type=int,
        default=DEFAULT_MAX_RETRIES,
        metavar="N",
        help="times a unit is run again when its worker dies under it (default %(default)s)",
    )


def executor_options(args: argparse.Namespace, *, workers: int | None = None) -> ExecutorOptions:
    """The options of ``add_executor_arguments`` and ``--workers`` (or ``workers``, for a
    command whose workers flag has another name); ValueError on a bad mix."""
    executor: ExecutorName = args.executor or ("ray" if args.ray_address is not None else "local")
    address = args.ray_address
    if executor == "ray" and address is None:
        address = os.environ.get("RAY_ADDRESS") or None
    return ExecutorOptions(
        executor=executor,
        workers=workers if workers is not None else args.workers,
        address=address,
        max_retries=args.max_retries,
    )


__all__ = [
    "DEFAULT_MAX_RETRIES",
    "EXECUTORS",
    "Executor",
    "ExecutorOptions",
    "Progress",
    "UnitFailed",
    "UnitLoop",
    "WorkerContext",
    "add_executor_arguments",
    "executor_options",
    "make_executor",
    "open_executor",
]
