"""The engine worker that runs inside the sandbox: import an engine once, then run each reply
in a process of its own, forked from the warm engine.

    python -m audit.worker audit.bpy_runner '{"seconds": 20, "limits": {...}, "readable": [...]}'

It reads one request per line on stdin (``{"id": ..., "code": ...}``) and writes one answer per
line on the stdout it started with (the engine's own printing goes to stderr). For each reply it
forks: the child puts up the guard's walls (``audit.guard.enter``), sends its output to a log
file under ``/tmp``, runs the runner's ``run_case`` on a fresh scene and writes the result into
a pipe; the parent waits at most the wall-clock limit, kills the child past it, tells how the
child ended, and empties ``/tmp``. So a reply never sees another's state (it starts from the
engine as it stood before any reply ran), and a reply that crashes, hangs or exhausts a limit
costs only itself. Importing bpy takes about a second; a fork about ten milliseconds.

Only the standard library, the runner's engine and ``pyseccomp`` are imported here.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import shutil
import signal
import sys
import time
import traceback
from typing import IO, Any, Final

from audit.guard import BLOCKED, WRITABLE, ReplyLimits, blocked_count, enter

#: Where a reply's own output (and its engine's) goes; its tail comes back with the answer.
LOG: Final = os.path.join(WRITABLE, "reply.log")
LOG_TAIL: Final = 2000
#: A result larger than this is refused (a reply drawing millions of vertices).
MAX_RESULT_BYTES: Final = 256 * 1024 * 1024


def _child(
    runner: Any, code: str, limits: ReplyLimits, readable: list[str], pipe: int, channel: int
) -> None:
    """The reply's process: never returns."""
    status = 1
    # The JSON writer is taken before the reply runs, so a reply rebinding json.dumps
    # cannot change how its own result is sent.
    dumps = json.dumps
    try:
        os.close(channel)  # the worker's answers: not the reply's to write
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        log = os.open(LOG, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        enter(limits, readable)
        result = runner.run_case(code, 1)
        result["blocked"] = list(BLOCKED)
        result["blocked_count"] = blocked_count()
        data = dumps(result).encode()
        status = 0
    except BaseException:  # the child reports anything, then exits
        data = dumps({"internal_error": traceback.format_exc()[-LOG_TAIL:]}).encode()
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(pipe, view) :]
    finally:
        os._exit(status)


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool, bool]:
    """Everything written into ``fd`` until EOF: (data, timed out, too large)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks), True, False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks), False, False
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_RESULT_BYTES:
            return b"", False, True


def _log_tail() -> str:
    try:
        with open(LOG, "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - LOG_TAIL))
            return log.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _empty_tmp(keep: set[str]) -> None:
    for name in os.listdir(WRITABLE):
        if name in keep:
            continue
        path = os.path.join(WRITABLE, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)


def run_reply(
    runner: Any,
    code: str,
    limits: ReplyLimits,
    readable: list[str],
    seconds: float,
    channel: int,
) -> dict[str, Any]:
    """Run one reply in a forked process; the answer (without its id). ``channel``: the
    worker's answer descriptor, closed in the child."""
    read_end, write_end = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(runner, code, limits, readable, write_end, channel)
    os.close(write_end)
    data, timed_out, too_large = _read_until(read_end, start + seconds)
    os.close(read_end)
    if timed_out or too_large:
        os.kill(pid, signal.SIGKILL)
    _, wait_status, usage = os.wait4(pid, 0)
    answer: dict[str, Any] = {
        "seconds": time.monotonic() - start,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "max_rss_kb": usage.ru_maxrss,
        "signal": None,
        "exit_code": None,
        "result": None,
    }
    if os.WIFSIGNALED(wait_status):
        answer["signal"] = signal.Signals(os.WTERMSIG(wait_status)).name
    else:
        answer["exit_code"] = os.WEXITSTATUS(wait_status)
    if timed_out:
        answer["status"] = "timeout"
    elif too_large:
        answer["status"] = "too_large"
    elif answer["signal"] is not None:
        answer["status"] = "killed"
    else:
        try:
            result = json.loads(data) if data else None
        except ValueError:
            result = None
        if isinstance(result, dict) and "internal_error" not in result:
            answer["status"] = "ran"
            answer["result"] = result
        else:
            answer["status"] = "crashed"
            if isinstance(result, dict):
                answer["internal_error"] = result["internal_error"]
    if answer["status"] != "ran":
        answer["log"] = _log_tail()
    return answer


def serve(runner_name: str, config: dict[str, Any], requests: IO[str], answers: IO[str]) -> int:
    started = time.monotonic()
    runner = importlib.import_module(runner_name)
    engine = runner.setup()
    limits = ReplyLimits.from_dict(config["limits"])
    readable = [str(p) for p in config["readable"]]
    seconds = float(config["seconds"])
    # The guard's seccomp filter is built in each child; importing its library here pays the
    # library's lookup once, before any reply.
    import pyseccomp  # noqa: F401

    keep = set(os.listdir(WRITABLE))
    answers.write(json.dumps({"ready": engine, "seconds": time.monotonic() - started}) + "\n")
    answers.flush()
    for line in requests:
        request = json.loads(line)
        answer = run_reply(runner, request["code"], limits, readable, seconds, answers.fileno())
        answer["id"] = request["id"]
        _empty_tmp(keep)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


def main(argv: list[str]) -> int:
    # Answers go to the stdout this process started with; everything else printed to stdout
    # (by the engine, as it loads) goes to stderr.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return serve(argv[1], json.loads(argv[2]), sys.stdin, answers)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
