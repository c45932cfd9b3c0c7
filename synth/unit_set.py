"""A resumable set of Blender work units: a split's scenes (``synth.split``) or a clip set's
clips (``synth.clips``), one pipeline for both.

A set is the folder ``out`` holding units ``0 .. n-1``, each made on the pool of Blender
workers (``synth.pool``) by a module-level unit function of the worker and the index alone,
its files written atomically with its JSON last; then the set-level files, the manifest last.
A rerun into the same folder removes the ``.tmp`` leftovers of interrupted writes, skips every
finished unit and makes the rest; since a unit depends only on (seed, index), the result is
the same bytes as an uninterrupted run. What one kind of set does its own way (its unit, when
a unit is done, its set-level files) is its ``UnitKind``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from spatialbabel.run.executor import Executor
from synth.pool import run_pool
from synth.workers import BlenderWorker

P = TypeVar("P")


@dataclass(frozen=True)
class UnitKind(Generic[P]):
    """What one kind of set (parameters ``P``) does its own way."""

    #: The unit's name in progress bars and errors ("scene", "clip").
    label: str
    #: The progress bar's description ("generate", "clips").
    desc: str
    #: Makes and writes unit ``index`` on a worker; module-level, so every worker imports it.
    unit: Callable[[BlenderWorker, int], str]
    #: Whether unit ``index`` is complete under ``root``; raises on one made otherwise.
    done: Callable[[Path, int, P], bool]
    #: The unit named for a failure report: "scene scene_000003 (seed 0, index 3, ...)".
    describe: Callable[[int, P], str]
    #: Writes the set-level files from the finished units; returns the manifest.
    finalise: Callable[[UnitSet[P]], dict[str, Any]]


@dataclass(frozen=True)
class UnitSet(Generic[P]):
    """The set of ``n`` units of ``kind`` with ``params`` in ``out``, made by ``workers`` local
    processes unless an executor is given."""

    kind: UnitKind[P]
    out: Path
    n: int
    params: P
    workers: int = 1

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be at least 1, got {self.n}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")

    def pending(self) -> list[int]:
        return [i for i in range(self.n) if not self.kind.done(self.out, i, self.params)]

    def run(
        self, indices: list[int], *, progress: bool = True, executor: Executor | None = None
    ) -> None:
        """Make ``indices`` on ``executor`` (default: ``workers`` local processes), with a
        progress bar."""
        run_pool(
            self.kind.unit,
            indices,
            root=self.out,
            params=self.params,
            workers=self.workers,
            total=self.n,
            label=self.kind.label,
            desc=self.kind.desc,
            progress=progress,
            describe=partial(_describe, self.kind.describe, self.params),
            executor=executor,
        )

    def finalise(self) -> dict[str, Any]:
        """Write the set-level files from the finished units; returns the manifest."""
        return self.kind.finalise(self)

    def generate(
        self, *, progress: bool = True, executor: Executor | None = None
    ) -> dict[str, Any]:
        """Make (or finish) the set; returns its manifest."""
        self.out.mkdir(parents=True, exist_ok=True)
        remove_leftovers(self.out)
        self.run(self.pending(), progress=progress, executor=executor)
        return self.finalise()


def _describe(describe: Callable[[int, P], str], params: P, index: int) -> str:
    return describe(index, params)


def remove_leftovers(root: Path) -> list[Path]:
    """Delete the temporary files an interrupted atomic write leaves behind."""
    leftovers = sorted(p for p in root.rglob(".*.tmp") if p.is_file())
    for path in leftovers:
        path.unlink()
    return leftovers


__all__ = ["UnitKind", "UnitSet", "remove_leftovers"]
