"""Sending the requests: ``concurrency`` workers on one event loop, retries with exponential
backoff and jitter, the journal, and a progress bar.

A retry waits ``uniform(d/2, d)`` with ``d = min(max_backoff, backoff * 2**retry)`` ("equal
jitter": spread out, never near zero), or, when the server says ``Retry-After``, that long
plus up to a tenth more: never earlier than asked. A server that asks for more than
``max_retry_after`` fails the request at once rather than stall the run. SIGINT and SIGTERM stop
the run cleanly: what was answered is in the journal, the rest is sent by the next run.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from runner.journal import Journal
from runner.records import Failure
from runner.requests import BodyReader, Job

Verdict = Literal["ok", "retry", "failed", "fatal"]


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to. ``body`` is the endpoint's reply when ``verdict`` is ok."""

    verdict: Verdict
    latency_s: float
    body: dict[str, Any] = field(default_factory=dict)
    status: int | None = None
    error: str | None = None
    retry_after: float | None = None


class Sender(Protocol):
    base_url: str

    def send(self, body: dict[str, Any]) -> Awaitable[Outcome]: ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 8
    backoff: float = 1.0
    max_backoff: float = 60.0
    max_retry_after: float = 600.0

    def delay(self, retry: int, asked: float | None, rng: random.Random) -> float | None:
        """Seconds to wait before retry ``retry`` (from 0); None when the server asks for
        longer than ``max_retry_after``."""
        if asked is not None:
            if asked > self.max_retry_after:
                return None
            return asked + rng.uniform(0.0, 0.1 * max(asked, self.backoff))
        ceiling = min(self.max_backoff, self.backoff * 2.0**retry)
        return rng.uniform(ceiling / 2, ceiling)


@dataclass
class RunStats:
    """Counts of one run (this process), for the progress bar and the summary."""

    sent: int = 0
    answered: int = 0
    failed: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def count_usage(self, body: dict[str, Any]) -> None:
        usage = body.get("usage")
        if isinstance(usage, dict):
            for name in ("prompt_tokens", "completion_tokens"):
                value = usage.get(name)
                if isinstance(value, int):
                    setattr(self, name, getattr(self, name) + value)


@dataclass
class RunResult:
    stats: RunStats
    failures: dict[str, Failure]
    interrupted: bool = False
    fatal: str | None = None


class _Progress:
    """A tqdm bar with requests/s and the tokens used, or nothing."""

    def __init__(self, total: int, show: bool) -> None:
        self._bar: Any = None
        if show and total:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit="req", file=sys.stderr, dynamic_ncols=True)

    def update(self, stats: RunStats) -> None:
        if self._bar is None:
            return
        self._bar.set_postfix(
            tokens=stats.tokens, retries=stats.retries, failed=stats.failed, refresh=False
        )
        self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


async def _attempts(
    sender: Sender, body: dict[str, Any], policy: RetryPolicy, rng: random.Random, stats: RunStats
) -> tuple[Outcome, int, str | None]:
    """The last outcome of up to ``1 + max_retries`` attempts, how many were made, and why
    retrying stopped (None when it did not run out)."""
    retry = 0
    while True:
        outcome = await sender.send(body)
        if outcome.verdict != "retry":
            return outcome, retry + 1, None
        if retry >= policy.max_retries:
            return outcome, retry + 1, f"gave up after {retry + 1} attempts"
        wait = policy.delay(retry, outcome.retry_after, rng)
        if wait is None:
            asked = outcome.retry_after or 0.0
            return outcome, retry + 1, f"the server asks to wait {asked:g} s, over the limit"
        stats.retries += 1
        await asyncio.sleep(wait)
        retry += 1


async def send_all(
    jobs: Sequence[Job],
    bodies: BodyReader,
    journal: Journal,
    make_sender: Callable[[], Sender],
    *,
    concurrency: int,
    policy: RetryPolicy,
    progress: bool,
    seed: int | None = None,
) -> RunResult:
    """Send every job (each key once) and journal every reply."""
    stats = RunStats()
    result = RunResult(stats, {})
    rng = random.Random(seed)
    queue: asyncio.Queue[Job] = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    bar = _Progress(len(jobs), progress)
    sender = make_sender()
    workers: list[asyncio.Task[None]] = []

    def stop() -> None:
        result.interrupted = True
        for task in workers:
            task.cancel()

    async def work() -> None:
        while not queue.empty():
            job = queue.get_nowait()
            body = bodies.body(job)
            stats.sent += 1
            outcome, attempts, gave_up = await _attempts(sender, body, policy, rng, stats)
            if outcome.verdict == "ok":
                stats.answered += 1
                stats.count_usage(outcome.body)
                journal.append(
                    {
                        "key": job.key,
                        "custom_id": job.request.custom_id,
                        "model": job.model,
                        "body": outcome.body,
                        "latency_s": round(outcome.latency_s, 4),
                        "attempts": attempts,
                        "base_url": sender.base_url,
                        "at": datetime.now(UTC).isoformat(timespec="seconds"),
                    }
                )
            else:
                stats.failed += 1
                error = outcome.error or "failed"
                if gave_up:
                    error = f"{error} ({gave_up})"
                result.failures[job.key] = Failure(
                    error, outcome.status, outcome.latency_s, attempts
                )
                if outcome.verdict == "fatal" and result.fatal is None:
                    result.fatal = error
                    for task in workers:
                        if task is not asyncio.current_task():
                            task.cancel()
                    bar.update(stats)
                    return
            bar.update(stats)

    loop = asyncio.get_running_loop()
    handled = []
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop)
            handled.append(number)
    try:
        workers.extend(asyncio.create_task(work()) for _ in range(max(1, concurrency)))
        await asyncio.gather(*workers, return_exceptions=True)
        for task in workers:
            if not task.cancelled() and (error := task.exception()) is not None:
                raise error
    finally:
        for number in handled:
            loop.remove_signal_handler(number)
        bar.close()
        await sender.close()
    return result


__all__ = ["Outcome", "RetryPolicy", "RunResult", "RunStats", "Sender", "Verdict", "send_all"]
