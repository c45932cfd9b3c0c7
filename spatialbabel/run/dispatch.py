"""The one dispatch loop both executors share: batches of units handed to worker slots, results
collected in unit order, a progress bar fed as they come back, and bounded retries when a
worker dies.

An executor supplies a ``Backend``: how to start a slot's worker, hand it a batch, wait for
handed-out batches and read one's result. Each slot keeps ``DEPTH`` batches handed out, so a
worker never waits for the driver between units. ``shared_fate`` says what a worker's death
takes with it: on a process of its own (a local worker, a Ray actor) every batch queued on it
fails together, and only the oldest, the one it was running, is charged an attempt; the
others go back to the queue as they were. A plain Ray task dies alone.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Protocol, TypeVar

from spatialbabel.run.executor import Progress, UnitFailed, UnitLoop

H = TypeVar("H", bound=Hashable)

#: Batches handed to one worker at a time: the one it runs and the next.
DEPTH: Final = 2


class WorkerLost(Exception):
    """A batch's worker died under it (raised by ``Backend.result``); ``reason`` says how."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class Backend(Protocol[H]):
    @property
    def slots(self) -> int: ...

    @property
    def shared_fate(self) -> bool: ...

    def start(self, slot: int) -> None:
        """Start (or start again, after a death) the worker of ``slot``."""
        ...

    def submit(self, slot: int, batch: list[Any]) -> H: ...

    def wait(self, handles: Collection[H]) -> list[H]:
        """Some of ``handles`` that are done (at least one)."""
        ...

    def result(self, handle: H) -> list[Any]:
        """The batch's results; ``WorkerLost`` when its worker died, else what the unit raised."""
        ...

    def stop(self, *, finished: bool) -> None:
        """Stop every worker: at once (``finished`` False) or after it tidies up."""
        ...


@dataclass
class _Batch:
    index: int
    start: int
    units: list[Any]
    attempts: int = 0


@dataclass
class _Out(Generic[H]):
    slot: int
    batch: _Batch
    handle: H
    order: int


class ProgressBar:
    """tqdm when asked for; imported only then (it comes with the synth extra)."""

    def __init__(self, progress: Progress | None) -> None:
        self._bar: Any = None
        if progress is not None:
            from tqdm import tqdm

            self._bar = tqdm(
                total=progress.total,
                initial=progress.done,
                unit=progress.unit,
                desc=progress.desc,
                file=sys.stderr,
                smoothing=0.1,
            )

    def update(self, count: int) -> None:
        if self._bar is not None:
            self._bar.update(count)

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def dispatch(
    backend: Backend[H],
    loop: UnitLoop[Any, Any, Any],
    units: Sequence[Any],
    *,
    max_retries: int,
    progress: Progress | None = None,
) -> list[Any]:
    """Every unit of ``loop`` through ``backend``, the results in unit order."""
    batch_size, describe = loop.batch_size(len(units), backend.slots), loop.describe
    batches = [
        _Batch(k, start, list(units[start : start + batch_size]))
        for k, start in enumerate(range(0, len(units), batch_size))
    ]
    results: list[list[Any] | None] = [None] * len(batches)
    queue = deque(batches)
    out: dict[H, _Out[H]] = {}
    slots = min(backend.slots, len(batches))
    per_slot: list[deque[_Out[H]]] = [deque() for _ in range(slots)]
    # One entry per free place on a worker; only those are refilled, so a round costs the same
    # on a cluster of a thousand workers as on two.
    free: deque[int] = deque(slot for _ in range(DEPTH) for slot in range(slots))
    bar = ProgressBar(progress)
    finished = False
    handed = 0
    try:
        for slot in range(slots):
            backend.start(slot)
        while queue or out:
            while queue and free:
                slot = free.popleft()
                batch = queue.popleft()
                item = _Out(slot, batch, backend.submit(slot, batch.units), handed)
                handed += 1
                out[item.handle] = item
                per_slot[slot].append(item)
            # In the order handed out: a worker's finished batch is taken before the death of
            # the batch it ran next is seen.
            ready = [out[h] for h in backend.wait(list(out)) if h in out]
            for item in sorted(ready, key=lambda o: o.order):
                if out.pop(item.handle, None) is None:
                    continue  # handed back already, with the rest of a dead worker's queue
                try:
                    values = backend.result(item.handle)
                except WorkerLost as lost:
                    lost_items = list(per_slot[item.slot]) if backend.shared_fate else [item]
                    for other in lost_items:
                        out.pop(other.handle, None)
                        per_slot[item.slot].remove(other)
                        free.append(item.slot)
                    _charge(lost_items[0].batch, lost.reason, max_retries, describe, bar)
                    if backend.shared_fate:
                        backend.start(item.slot)
                    # The batch that was running first: it has waited longest.
                    queue.extendleft(reversed([o.batch for o in lost_items]))
                    continue
                per_slot[item.slot].remove(item)
                free.append(item.slot)
                results[item.batch.index] = values
                bar.update(len(values))
        finished = True
    finally:
        bar.close()
        backend.stop(finished=finished)
    return [value for values in results if values is not None for value in values]


def _charge(
    batch: _Batch, reason: str, max_retries: int, describe: Callable[[Any], str], bar: ProgressBar
) -> None:
    """One more attempt of ``batch`` lost; ``UnitFailed`` when it has no attempts left."""
    batch.attempts += 1
    name = describe(batch.units[0])
    if len(batch.units) > 1:
        name = f"{name} and the {len(batch.units) - 1} units after it"
    if batch.attempts > max_retries:
        raise UnitFailed(name, batch.attempts, reason)
    bar.note(
        f"{name}: its worker died ({reason}); running it again "
        f"(attempt {batch.attempts + 1} of {max_retries + 1})"
    )
