"""The audit's Unity engine: Mono and the UnityEngine facade (``audit.unity_engine``), in the
sandbox, read back as the Unity parity tests read it.

A session compiles the replies of a batch in one sandboxed ``mcs`` call (Mono's compiler takes
about a second to start), each reply in a namespace of its own whose name no reply can guess;
a reply mcs rejects is compiled alone, as far as its lines compile, and never fails the batch.
Each reply then runs in its own sandboxed ``mono`` process: the driver first checks what the
reply's compiled code references (``unity/ReplyCheck.cs``: files, processes, the network,
native code, reflection are refused, and a refused reply does not run at all), then runs it and
prints the scene. mcs runs under the same walls as the replies (bubblewrap, rlimits, the
seccomp filter), with one folder of the audit's own writable for the assemblies it writes.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from audit.engines import EngineRead
from audit.sandbox import (
    ENGINE_FILES,
    Bind,
    Limits,
    Sandbox,
    exported_filter,
    popen,
    rlimit_setter,
    sandbox_missing,
)
from audit.sessions import OneShotSession, RunOutcome
from audit.unity_engine import (
    BUILD_FILES,
    MCS_OPTIONS,
    REFUSED_EXIT,
    Compiled,
    compile_replies,
    engine_folder,
    expected_scene,
    mono_available,
    not_compiled,
    read_run,
    script_code,
)

#: Where the batch's sources and assemblies are, inside the sandbox.
WORK: Final = "/sb/work"
#: Mono's configuration (its library map and machine.config), read by mono and mcs.
MONO_ETC: Final = Path("/etc/mono")
#: The longest a batch's compilation may take (many replies in one mcs call).
COMPILE_SECONDS: Final = 300.0


@cache
def mono_version() -> str:
    mono = shutil.which("mono")
    if mono is None:
        return ""
    done = subprocess.run([mono, "--version"], capture_output=True, text=True, check=False)
    words = done.stdout.split()
    return (
        words[4] if len(words) > 4 and words[:4] == ["Mono", "JIT", "compiler", "version"] else "?"
    )


def _mono_binds() -> list[Bind]:
    """Mono's configuration, and Mono itself when it is not under /usr."""
    binds = [Bind(MONO_ETC, str(MONO_ETC))] if MONO_ETC.is_dir() else []
    for tool in ("mono", "mcs"):
        path = os.path.realpath(shutil.which(tool) or f"/usr/bin/{tool}")
        if not path.startswith("/usr/"):
            prefix = Path(path).parents[1]
            if all(b.source != prefix for b in binds):
                binds.append(Bind(prefix, str(prefix)))
    return binds


class UnitySession:
    """Replies compiled in batches and run one sandboxed mono process each."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.name = f"UnityEngine facade on Mono {mono_version()}"
        self.restarts = 0
        started = time.perf_counter()
        self._engine = engine_folder()
        self.startup_seconds = time.perf_counter() - started
        self._work = Path(tempfile.mkdtemp(prefix="sb_unity_audit_"))
        # The replies' namespaces (Reply_<token>_<n>): no reply can name another's types.
        self._token = "r" + secrets.token_hex(6)
        self._compiled: dict[str, tuple[str, Compiled]] = {}
        self._batches = 0

    def _binds(self, *, writable: bool) -> list[Bind]:
        return [
            *_mono_binds(),
            Bind(self._engine, ENGINE_FILES),
            Bind(self._work, WORK, writable=writable),
        ]

    def _mcs(self, arguments: list[str], folder: Path) -> tuple[int, str]:
        """mcs in the sandbox, in the batch's folder (the one place it may write)."""
        assert folder == self._work
        limits = Limits(
            seconds=max(COMPILE_SECONDS, self.sandbox.limits.seconds),
            memory_mb=self.sandbox.limits.memory_mb,
            file_mb=self.sandbox.limits.file_mb,
        )
        fd = exported_filter()
        command = Sandbox(limits).command(
            [shutil.which("mcs") or "mcs", *MCS_OPTIONS, *arguments],
            binds=self._binds(writable=True),
            seccomp_fd=fd,
            chdir=WORK,
        )
        process = popen(
            command,
            rlimit_setter(limits.reply_limits(), cpu=True),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            pass_fds=(fd,),
        )
        os.close(fd)
        try:
            output, _ = process.communicate(timeout=limits.seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.communicate()
            return 124, f"mcs ran past {limits.seconds:g} s and was stopped"
        return process.returncode, output

    def _compile(self, prepared: dict[str, str]) -> dict[str, Compiled]:
        library = f"{ENGINE_FILES}/{BUILD_FILES[0]}"
        try:
            return compile_replies(
                self._work, library, prepared, self._mcs, f"batch{self._batches}"
            )
        except RuntimeError:
            # mcs failed without naming a reply (stopped at its limit, or crashed): each reply
            # alone, so that only the one at fault fails.
            compiled: dict[str, Compiled] = {}
            for case, code in prepared.items():
                try:
                    compiled.update(
                        compile_replies(self._work, library, {case: code}, self._mcs, case)
                    )
                except RuntimeError as error:
                    compiled[case] = Compiled(case, None, compile_error=str(error)[-500:])
            return compiled

    def prepare(self, jobs: Sequence[tuple[str, str]]) -> None:
        """Compile every job not compiled yet in one mcs call (its time counts as start-up)."""
        todo = {
            job: code
            for job, code in jobs
            if job not in self._compiled or self._compiled[job][0] != code
        }
        if not todo:
            return
        cases = {job: f"{self._token}_{len(self._compiled) + i}" for i, job in enumerate(todo)}
        started = time.perf_counter()
        compiled = self._compile({cases[job]: script_code(code) for job, code in todo.items()})
        self._batches += 1
        alone = sum(item.alone_seconds for item in compiled.values())
        self.startup_seconds += time.perf_counter() - started - alone
        for job, code in todo.items():
            self._compiled[job] = (code, compiled[cases[job]])

    def run(self, job_id: str, code: str) -> RunOutcome:
        if job_id not in self._compiled or self._compiled[job_id][0] != code:
            self.prepare([(job_id, code)])
        item = self._compiled[job_id][1]
        if item.assembly is None:
            return RunOutcome("ran", item.alone_seconds, result=not_compiled(item))
        argv = [
            shutil.which("mono") or "mono",
            f"{ENGINE_FILES}/{BUILD_FILES[1]}",
            f"{WORK}/{item.assembly}",
            "-",
            item.case,
        ]
        session = OneShotSession(
            self.sandbox,
            argv,
            name=self.name,
            binds=self._binds(writable=False),
            seccomp=exported_filter,
        )
        outcome = session.run(job_id, "")
        # A reply compiled alone, after the batch rejected it, pays its own compilations.
        outcome.seconds += item.alone_seconds
        if outcome.result is not None:
            outcome.result["dropped_lines"] = item.dropped_lines
        elif outcome.exit_code == REFUSED_EXIT and outcome.blocked:
            outcome.status = "refused"
        return outcome

    def close(self) -> None:
        shutil.rmtree(self._work, ignore_errors=True)


@dataclass(frozen=True)
class UnityAuditEngine:
    language: str = "unity"
    label: str = "Mono + UnityEngine facade"

    def missing(self) -> str | None:
        if not mono_available():
            return "Mono is not installed (Debian: apt-get install mono-mcs mono-runtime)"
        return sandbox_missing()

    def open(self, sandbox: Sandbox) -> UnitySession:
        return UnitySession(sandbox)

    def read(self, result: dict[str, Any], scene_id: str, engine: str) -> EngineRead:
        run = read_run(scene_id, result)
        scene = expected_scene(run, engine)
        errors = [*run.errors, *([f"mcs: {run.compile_error}"] if run.compile_error else [])]
        return EngineRead(scene, "; ".join(errors) or None, tuple(scene.meta.get("left_out", ())))


ENGINE = UnityAuditEngine()
