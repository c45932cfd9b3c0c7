"""The sandbox a reply's code runs in: bubblewrap (``bwrap``, from Debian) for namespaces and
mounts, rlimits for time, memory and files, and a seccomp filter (libseccomp) against new
processes (docs/audit.md says why this route and what each wall stops).

``Sandbox.command(argv, binds=...)`` is the ``bwrap`` command line running ``argv`` with:

- every namespace of its own (user, PID, network, IPC, UTS, cgroup), so no network but a
  loopback of its own and no process outside it to see or signal; no further user namespace;
- no capabilities, user ``nobody`` inside, a new session (no terminal to inject keys into);
- a filesystem of read-only binds only: ``/usr`` and the dynamic loader's cache, the Python
  installation (when the engine is Python), the engine's own files, and a fresh,
  size-limited tmpfs on ``/tmp``, the only place it can write (bwrap's own ``/`` and ``/dev``
  are remounted read-only); nothing of the host's home, work or data folders exists inside
  (Mono's compiler alone also writes into a fresh folder of the audit's own, bound writable);
- a clean environment.

``Limits`` holds the per-reply limits; ``rlimit_setter`` applies them to the process started.
"""

from __future__ import annotations

import math
import os
import resource
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from audit.guard import ReplyLimits
from spatialbabel.audit_file import AUDIT_MEMORY_MB, AUDIT_SECONDS

#: The user the code runs as inside (``nobody``).
SANDBOX_UID: Final = 65534
#: Where the product's code and an engine's files are bound inside.
CODE: Final = "/sb/code"
ENGINE_FILES: Final = "/sb/engine"
#: Top-level folders that are (on merged-/usr systems) links into /usr.
_SYSTEM_LINKS: Final = ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
#: What of /etc a program needs to load its libraries (and Debian's alternatives links).
_ETC: Final = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")
#: What the engines need that bwrap sets up (not bound from the host).
_FRESH: Final = ("/proc", "/dev", "/tmp")


@dataclass(frozen=True)
class Limits:
    """One reply's limits: wall-clock and CPU seconds, address space, the largest file it may
    write (and the size of its ``/tmp``), open files."""

    seconds: float = AUDIT_SECONDS
    memory_mb: int = AUDIT_MEMORY_MB
    file_mb: int = 64
    open_files: int = 256

    def reply_limits(self) -> ReplyLimits:
        # The CPU limit stands one second behind the wall clock: were they equal, a
        # single-threaded loop would race the two (CI saw either win), and the report would
        # name a different wall from run to run. Threads burning both cores still reach it first.
        return ReplyLimits(
            cpu_seconds=max(1, math.ceil(self.seconds)) + 1,
            memory_bytes=self.memory_mb * 1024 * 1024,
            file_bytes=self.file_mb * 1024 * 1024,
            open_files=self.open_files,
        )

    def to_dict(self) -> dict[str, float | int]:
        return {
            "seconds": self.seconds,
            "cpu_seconds": self.reply_limits().cpu_seconds,
            "memory_mb": self.memory_mb,
            "file_mb": self.file_mb,
            "open_files": self.open_files,
        }


@dataclass(frozen=True)
class Bind:
    """A host path made visible inside the sandbox at ``target``: read-only, unless
    ``writable`` (a fresh folder of the audit's own, such as the one Mono's compiler writes the
    replies' assemblies into)."""

    source: Path
    target: str
    writable: bool = False


def rlimit_setter(limits: ReplyLimits, *, cpu: bool) -> Callable[[], None]:
    """A ``preexec_fn`` setting ``limits`` on the process about to start (and so on bwrap and
    everything it runs); ``cpu=False`` for a worker that lives for many replies (each of its
    replies sets its own CPU limit)."""

    def apply() -> None:
        if cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def python_binds() -> list[Bind]:
    """The running Python installation: its prefixes (the virtual environment and the base
    interpreter) and any site-packages outside them, each at its own path."""
    paths = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *sysconfig.get_paths().values(),
        *site.getsitepackages(),
    }
    existing = sorted({os.path.realpath(p) for p in paths if p and os.path.isdir(p)})
    roots = [p for p in existing if not any(p != q and p.startswith(q + "/") for q in existing)]
    # A path under /usr is there already.
    binds = [Bind(Path(p), p) for p in roots if not (p == "/usr" or p.startswith("/usr/"))]
    if sys.prefix != os.path.realpath(sys.prefix):
        binds.append(Bind(Path(os.path.realpath(sys.prefix)), sys.prefix))
    return binds


def code_bind() -> Bind:
    """The ``audit`` package, importable inside as ``audit`` from ``CODE``."""
    return Bind(Path(__file__).resolve().parent, f"{CODE}/audit")


def _system_arguments() -> list[str]:
    arguments = ["--ro-bind", "/usr", "/usr"]
    for link in _SYSTEM_LINKS:
        if os.path.islink(link):
            arguments += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            arguments += ["--ro-bind", link, link]
    for path in _ETC:
        arguments += ["--ro-bind-try", path, path]
    return arguments


def _bind_arguments(bind: Bind) -> list[str]:
    return ["--bind" if bind.writable else "--ro-bind", str(bind.source), bind.target]


@dataclass(frozen=True)
class Sandbox:
    """Builds the bwrap command lines of one audit run."""

    limits: Limits

    def readable(self, binds: Sequence[Bind]) -> list[str]:
        """The folders a process inside may read (for the Python guard's reading rule)."""
        roots = ["/usr/", "/etc/", f"{CODE}/", f"{ENGINE_FILES}/"]
        roots += [link + "/" for link in _SYSTEM_LINKS]
        roots += [b.target.rstrip("/") + "/" for b in binds]
        return sorted(set(roots))

    def command(
        self,
        argv: Sequence[str],
        *,
        binds: Sequence[Bind] = (),
        env: dict[str, str] | None = None,
        seccomp_fd: int | None = None,
        chdir: str = "/tmp",
    ) -> list[str]:
        bwrap = shutil.which("bwrap") or "bwrap"
        arguments = [
            bwrap,
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--uid",
            str(SANDBOX_UID),
            "--gid",
            str(SANDBOX_UID),
            "--hostname",
            "sandbox",
            *_system_arguments(),
        ]
        # A bind under /tmp (a checkout or virtual environment kept there) goes on top of the
        # fresh /tmp, which would otherwise hide it: bwrap mounts in the order it is given.
        under_tmp = [b for b in binds if b.target == "/tmp" or b.target.startswith("/tmp/")]
        for bind in [b for b in binds if b not in under_tmp]:
            arguments += _bind_arguments(bind)
        arguments += ["--proc", "/proc", "--dev", "/dev"]
        arguments += ["--size", str(self.limits.file_mb * 1024 * 1024), "--tmpfs", "/tmp"]
        for bind in under_tmp:
            arguments += _bind_arguments(bind)
        # bwrap builds / and /dev on tmpfs of its own; neither stays writable (non-recursive:
        # /tmp keeps its own, writable mount).
        arguments += ["--remount-ro", "/dev", "--remount-ro", "/"]
        arguments += ["--chdir", chdir, "--clearenv"]
        variables = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": "/tmp",
            "TMPDIR": "/tmp",
            "LANG": "C.UTF-8",
            **(env or {}),
        }
        for name, value in sorted(variables.items()):
            arguments += ["--setenv", name, value]
        if seccomp_fd is not None:
            arguments += ["--seccomp", str(seccomp_fd)]
        return [*arguments, "--", *argv]


def exported_filter(own_pid: int | None = None) -> int:
    """The guard's seccomp filter as a BPF program in an open, unlinked file (its descriptor),
    for ``bwrap --seccomp``, which loads it just before the engine's command starts. ``execve``
    stays allowed there (bwrap needs it to start the command; without ``fork`` a process can
    only replace itself, inside the same walls)."""
    from audit.guard import syscall_filter

    rules = syscall_filter(own_pid=own_pid, allow_exec=True)
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.flush()
        handle.seek(0)
        return os.dup(handle.fileno())


@cache
def sandbox_missing() -> str | None:
    """Why no sandbox can be made here (no bwrap, no user namespaces, no libseccomp), or None."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, RuntimeError) as error:
        return f"pyseccomp cannot load libseccomp ({error}): pip install 'spatialbabel[engines]'"
    probe = Sandbox(Limits()).command(["/bin/true"])
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap cannot start: {error}"
    if done.returncode != 0:
        return f"bwrap cannot make a sandbox here: {done.stderr.strip()[-300:]}"
    return None


def popen(command: list[str], preexec: Callable[[], None], **kwargs: Any) -> subprocess.Popen[Any]:
    """Start a sandboxed command in a session of its own (so a timeout kills all of it)."""
    return subprocess.Popen(command, preexec_fn=preexec, start_new_session=True, **kwargs)
