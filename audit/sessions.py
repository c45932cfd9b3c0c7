"""How the audit drives an engine in its sandbox: the two kinds of session an engine opens.

- ``ForkServerSession``: one sandboxed worker (``audit.worker``) imports the engine once and
  forks a process per reply (the Python engines: importing bpy costs about a second, a fork ten
  milliseconds). A reply that hangs, crashes or exhausts a limit loses only its own process. If
  the worker itself dies or stops answering, the reply it was running is reported as lost, the
  worker is started again and the batch goes on with the next reply.
- ``OneShotSession``: one sandboxed process per reply (node + three: about 0.2 s each; a node
  process cannot be forked warm). Unity's session (``audit.unity_audit``) compiles the batch
  first (``prepare``), then runs a ``OneShotSession`` process per reply.

Both return a ``RunOutcome`` per reply: how the run ended, what it cost, what it tried that the
sandbox refused, and the engine's raw report.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Final

from audit.sandbox import CODE, Bind, Sandbox, code_bind, popen, python_binds, rlimit_setter

#: How long a worker may take to import its engine.
STARTUP_SECONDS: Final = 120.0
#: Extra wall-clock time the worker gets past a reply's own limit before it counts as hung.
WORKER_GRACE: Final = 15.0
#: Characters of a process's stderr kept for the report.
TAIL: Final = 2000
#: The prefix of a refusal line a guard writes to stderr (audit/node_guard.mjs).
BLOCKED_LINE: Final = "\0sandbox-blocked "


@dataclass
class RunOutcome:
    """How one reply's run in its engine ended.

    ``status``: ``ran`` (the engine finished; the reply's own error, if any, is in ``result``),
    ``timeout`` (killed at the wall-clock limit), ``killed`` (ended by a signal: ``signal``),
    ``crashed`` (ended without a result), ``too_large`` (a result past the size cap), ``lost``
    (the worker running it died or hung) or ``refused`` (not run: what its compiled code
    references is refused, ``blocked`` says what)."""

    status: str
    seconds: float
    result: dict[str, Any] | None = None
    cpu_seconds: float | None = None
    max_rss_kb: int | None = None
    signal: str | None = None
    exit_code: int | None = None
    blocked: list[dict[str, str]] = field(default_factory=list)
    blocked_count: int = 0
    log: str = ""


class _Lines:
    """A pipe read line by line on a thread of its own (so a read can time out)."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def get(self, timeout: float) -> str | None:
        """The next line; None at end of stream; raises ``queue.Empty`` past ``timeout``."""
        return self.lines.get(timeout=timeout)


class _Tail:
    """The last characters a stream carried, drained on a thread."""

    def __init__(self, stream: IO[str]) -> None:
        self.text: deque[str] = deque(maxlen=200)
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.text.append(line)

    def __str__(self) -> str:
        return "".join(self.text)[-TAIL:]


def _kill(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()


class ForkServerSession:
    """A sandboxed ``audit.worker`` for a Python engine's runner module."""

    def __init__(self, sandbox: Sandbox, runner: str) -> None:
        self.sandbox = sandbox
        self.runner = runner
        self.name = ""
        self.startup_seconds = 0.0
        self.restarts = 0
        self._process: subprocess.Popen[str] | None = None
        self._answers: _Lines | None = None
        self._stderr: _Tail | None = None

    def _start(self) -> None:
        binds = [*python_binds(), code_bind()]
        limits = self.sandbox.limits
        config = {
            "seconds": limits.seconds,
            "limits": limits.reply_limits().to_dict(),
            "readable": self.sandbox.readable(binds),
        }
        command = self.sandbox.command(
            [sys.executable, "-m", "audit.worker", self.runner, json.dumps(config)],
            binds=binds,
            env={"PYTHONPATH": CODE, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1"},
        )
        started = time.perf_counter()
        process = popen(
            command,
            rlimit_setter(limits.reply_limits(), cpu=False),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        assert process.stdout is not None and process.stderr is not None
        self._process, self._answers = process, _Lines(process.stdout)
        self._stderr = _Tail(process.stderr)
        try:
            line = self._answers.get(STARTUP_SECONDS)
        except queue.Empty:
            line = None
        if line is None:
            _kill(process)
            raise RuntimeError(f"the {self.runner} worker did not start: {self._stderr}")
        ready = json.loads(line)
        self.name = str(ready["ready"])
        self.startup_seconds += time.perf_counter() - started

    def prepare(self, jobs: Sequence[tuple[str, str]]) -> None:
        del jobs

    def run(self, job_id: str, code: str) -> RunOutcome:
        if self._process is None or self._process.poll() is not None:
            self._start()
        assert self._process is not None and self._process.stdin is not None
        assert self._answers is not None
        started = time.perf_counter()
        line: str | None = None
        try:
            self._process.stdin.write(json.dumps({"id": job_id, "code": code}) + "\n")
            self._process.stdin.flush()
            line = self._answers.get(self.sandbox.limits.seconds + WORKER_GRACE)
        except (OSError, queue.Empty):
            line = None
        if line is None:
            return self._lost(started)
        answer = json.loads(line)
        result = answer.get("result")
        blocked = (result or {}).pop("blocked", []) if result else []
        count = (result or {}).pop("blocked_count", len(blocked)) if result else 0
        return RunOutcome(
            status=answer["status"],
            # The host's wall clock: the fork, the run and the result's way back.
            seconds=time.perf_counter() - started,
            result=result,
            cpu_seconds=answer.get("cpu_seconds"),
            max_rss_kb=answer.get("max_rss_kb"),
            signal=answer.get("signal"),
            exit_code=answer.get("exit_code"),
            blocked=blocked,
            blocked_count=int(count),
            log=str(answer.get("log") or answer.get("internal_error") or ""),
        )

    def _lost(self, started: float) -> RunOutcome:
        """The worker died or hung on this reply: end it; the next reply starts a new one."""
        assert self._process is not None
        _kill(self._process)
        code = self._process.returncode
        self._process = None
        self.restarts += 1
        return RunOutcome(
            status="lost",
            seconds=time.perf_counter() - started,
            exit_code=code,
            log=f"the engine worker died or stopped answering (exit {code}): {self._stderr}",
        )

    def kill_worker(self) -> None:
        """End the worker as if it had died (the tests' way to show a batch survives it)."""
        if self._process is not None:
            os.killpg(self._process.pid, signal.SIGKILL)

    def close(self) -> None:
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _kill(self._process)
            self._process = None


def blocked_lines(stderr: str) -> tuple[list[dict[str, str]], int, str]:
    """The refusals a guard reported on stderr (at most 20 kept), their count, and the rest."""
    blocked: list[dict[str, str]] = []
    count = 0
    rest = []
    for line in stderr.splitlines(keepends=True):
        if line.startswith(BLOCKED_LINE):
            count += 1
            try:
                entry = json.loads(line[len(BLOCKED_LINE) :])
            except ValueError:
                continue
            if len(blocked) < 20 and isinstance(entry, dict):
                blocked.append({k: str(v) for k, v in entry.items()})
        else:
            rest.append(line)
    return blocked, count, "".join(rest)


class OneShotSession:
    """A sandboxed process per reply: ``argv`` reads the code on stdin and prints its JSON
    report on stdout; ``binds`` and ``env`` are the engine's files and variables."""

    def __init__(
        self,
        sandbox: Sandbox,
        argv: Sequence[str],
        *,
        name: str,
        binds: Sequence[Bind],
        env: dict[str, str] | None = None,
        seccomp: Callable[[], int] | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.argv = list(argv)
        self.name = name
        self.binds = list(binds)
        self.env = env or {}
        self.seccomp = seccomp
        self.startup_seconds = 0.0
        self.restarts = 0

    def prepare(self, jobs: Sequence[tuple[str, str]]) -> None:
        del jobs

    def run(self, job_id: str, code: str) -> RunOutcome:
        del job_id
        limits = self.sandbox.limits
        fd = self.seccomp() if self.seccomp is not None else None
        command = self.sandbox.command(self.argv, binds=self.binds, env=self.env, seccomp_fd=fd)
        started = time.perf_counter()
        process = popen(
            command,
            rlimit_setter(limits.reply_limits(), cpu=True),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            pass_fds=() if fd is None else (fd,),
        )
        if fd is not None:
            os.close(fd)
        timed_out = False
        try:
            stdout, stderr = process.communicate(code, timeout=limits.seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(process)
            stdout, stderr = process.communicate()
        seconds = time.perf_counter() - started
        blocked, count, rest = blocked_lines(stderr)
        outcome = RunOutcome(
            status="timeout" if timed_out else "ran",
            seconds=seconds,
            blocked=blocked,
            blocked_count=count,
            exit_code=process.returncode if process.returncode >= 0 else None,
            signal=signal.Signals(-process.returncode).name if process.returncode < 0 else None,
            log=rest[-TAIL:],
        )
        if timed_out:
            return outcome
        try:
            result = json.loads(stdout) if stdout.strip() else None
        except ValueError:
            result = None
        if process.returncode == 0 and isinstance(result, dict):
            outcome.result = result
        else:
            outcome.status = "killed" if outcome.signal is not None else "crashed"
        return outcome

    def close(self) -> None:
        pass
