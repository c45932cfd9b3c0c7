"""The walls a reply's process puts up around itself before the reply's code runs, inside the
sandbox (``audit.sandbox`` builds the sandbox; ``audit.worker`` forks one process per reply and
calls ``enter`` in it).

Three layers, each stopping what the one before lets through:

1. **Python's audit hooks** (PEP 578, ``sys.addaudithook``; a hook once added cannot be
   removed): every event that spawns a process, opens a socket, loads a C library through
   ctypes, signals another process, writes a file outside ``/tmp`` or reads one outside the
   folders bound into the sandbox raises ``PermissionError`` and is recorded in ``BLOCKED``, so
   the audit reports the attempt even when the reply catches the error.
2. **A seccomp filter** (libseccomp through ``pyseccomp``): the kernel refuses new processes
   (``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD``, ``execve``), signals to anything
   but this process, sockets other than Unix ones, ``ptrace`` and the namespace and io_uring
   calls, whatever way the call is reached (a C extension, ctypes, the engine's own code).
3. **rlimits**: CPU seconds (``SIGXCPU``, then ``SIGKILL``), address space (an allocation past it
   fails: ``MemoryError``), file size (``EFBIG``), open files, no core dumps.

Only the standard library and ``pyseccomp`` are imported: this runs inside the sandbox, where
the product's other packages are not.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

#: At most this many blocked attempts are kept per reply (a loop may try forever); the rest counted.
MAX_RECORDED: Final = 20
#: Where a reply may write; the sandbox mounts a fresh, size-limited tmpfs there.
WRITABLE: Final = "/tmp"

CLONE_THREAD: Final = 0x00010000

#: Audit events refused outright, with what the attempt was.
REFUSED_EVENTS: Final[dict[str, str]] = {
    "os.system": "run a shell command",
    "os.exec": "replace the process with another program",
    "os.posix_spawn": "spawn a process",
    "os.spawn": "spawn a process",
    "os.fork": "fork a process",
    "os.forkpty": "fork a process",
    "subprocess.Popen": "spawn a process",
    "pty.spawn": "spawn a process",
    "os.startfile": "start a program",
    "webbrowser.open": "open a browser",
    "socket.__new__": "open a socket",
    "socket.connect": "connect a socket",
    "socket.bind": "bind a socket",
    "socket.getaddrinfo": "resolve a host name",
    "socket.gethostbyname": "resolve a host name",
    "socket.gethostbyaddr": "resolve a host name",
    "urllib.Request": "open a URL",
    "http.client.connect": "open an HTTP connection",
    "ftplib.connect": "open an FTP connection",
    "smtplib.connect": "open an SMTP connection",
    "ctypes.dlopen": "load a C library through ctypes",
    "ctypes.dlsym": "look up a C function through ctypes",
    "ctypes.dlsym/handle": "look up a C function through ctypes",
    "os.kill": "signal a process",
    "os.killpg": "signal a process group",
    "signal.pthread_kill": "signal a thread",
    "gc.get_objects": "walk the interpreter's objects",
    "gc.get_referrers": "walk the interpreter's objects",
    "gc.get_referents": "walk the interpreter's objects",
}
#: Audit events whose first argument is a path the event changes: allowed under ``/tmp`` only.
WRITE_EVENTS: Final = frozenset(
    {
        "os.remove",
        "os.rmdir",
        "os.mkdir",
        "os.rename",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.utime",
        "os.mkfifo",
        "os.mknod",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
        "shutil.rmtree",
        "shutil.move",
        "shutil.make_archive",
        "shutil.unpack_archive",
    }
)
_WRITE_FLAGS: Final = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

#: Files a process reads for itself wherever it runs (randomness, the null device).
_ALWAYS_READABLE: Final = ("/dev/",)


@dataclass(frozen=True)
class ReplyLimits:
    """The limits one reply's process runs under."""

    cpu_seconds: int
    memory_bytes: int
    file_bytes: int
    open_files: int

    def to_dict(self) -> dict[str, int]:
        return {
            "cpu_seconds": self.cpu_seconds,
            "memory_bytes": self.memory_bytes,
            "file_bytes": self.file_bytes,
            "open_files": self.open_files,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReplyLimits:
        return cls(
            int(data["cpu_seconds"]),
            int(data["memory_bytes"]),
            int(data["file_bytes"]),
            int(data["open_files"]),
        )


#: What this process's hook refused: ``{"what", "detail", "stopped_by"}``, at most MAX_RECORDED.
BLOCKED: list[dict[str, str]] = []
_COUNT = [0]


def blocked_count() -> int:
    return _COUNT[0]


def _record(what: str, detail: str, stopped_by: str) -> None:
    _COUNT[0] += 1
    if len(BLOCKED) < MAX_RECORDED:
        BLOCKED.append({"what": what, "detail": detail[:200], "stopped_by": stopped_by})


def _path_of(value: Any) -> str | None:
    if isinstance(value, int):
        return None  # an open file descriptor: already allowed when it was opened
    if isinstance(value, bytes):
        value = os.fsdecode(value)
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        return None
    return os.path.realpath(value)


def _under(path: str, roots: Sequence[str]) -> bool:
    return any(path == root.rstrip("/") or path.startswith(root) for root in roots)


def _writes(mode: Any, flags: Any) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def make_hook(readable: Sequence[str]) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook: refuses ``REFUSED_EVENTS``, writes outside ``/tmp`` and reads outside
    ``readable`` (the folders the sandbox binds, each ending in ``/``)."""
    # Its own /proc entries (the realpath of /proc/self); made here, in the reply's process.
    roots = tuple(readable) + (WRITABLE + "/", f"/proc/{os.getpid()}/") + _ALWAYS_READABLE
    writable = (WRITABLE + "/",)
    refused = dict(REFUSED_EVENTS)
    write_events = WRITE_EVENTS

    def hook(event: str, args: tuple[Any, ...]) -> None:
        what = refused.get(event)
        if what is not None:
            detail = f"{event}{_brief(args)}"
            _record(what, detail, "python guard (audit hook)")
            raise PermissionError(errno.EPERM, f"sandbox: not allowed to {what} ({detail})")
        if event == "open":
            path = _path_of(args[0])
            if path is None:
                return
            if _writes(args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else None):
                if not _under(path, writable):
                    _record("write a file outside /tmp", path, "python guard (audit hook)")
                    raise PermissionError(errno.EACCES, f"sandbox: not allowed to write {path}")
            elif not _under(path, roots):
                _record("read a file outside the sandbox", path, "python guard (audit hook)")
                raise PermissionError(errno.EACCES, f"sandbox: not allowed to read {path}")
        elif event in write_events:
            for value in args[:2]:
                path = _path_of(value)
                if path is not None and not _under(path, writable):
                    _record(
                        "change a file outside /tmp", f"{event} {path}", "python guard (audit hook)"
                    )
                    raise PermissionError(errno.EACCES, f"sandbox: not allowed to change {path}")

    return hook


def _brief(args: tuple[Any, ...]) -> str:
    text = repr(args)
    return text if len(text) <= 120 else text[:117] + "..."


def syscall_filter(own_pid: int | None, *, allow_exec: bool = False) -> Any:
    """The seccomp filter of a reply's process (``pyseccomp.SyscallFilter``, not yet loaded):
    everything is allowed but the calls below, which fail with ``EPERM`` (``clone3`` with
    ``ENOSYS``, so the C library falls back to ``clone`` for threads, which the filter can read).
    ``own_pid``: the one process ``tgkill`` may signal (None: any, for a process alone in its
    sandbox); ``allow_exec``: leave ``execve`` open (for a filter bwrap loads before it starts
    the engine's command)."""
    import pyseccomp as seccomp

    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in (
        "fork",
        "vfork",
        *(() if allow_exec else ("execve", "execveat")),
        "kill",
        "tkill",
        "ptrace",
        "process_vm_readv",
        "process_vm_writev",
        "pidfd_open",
        "pidfd_send_signal",
        "unshare",
        "setns",
        "mount",
        "umount2",
        "pivot_root",
        "chroot",
        "bpf",
        "perf_event_open",
        "userfaultfd",
        "keyctl",
        "add_key",
        "request_key",
        "io_uring_setup",
        "io_uring_enter",
        "io_uring_register",
    ):
        rules.add_rule(refuse, name)
    rules.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    if own_pid is not None:
        # A thread may signal its own process (abort() does); no other.
        rules.add_rule(refuse, "tgkill", seccomp.Arg(0, seccomp.NE, own_pid))
    rules.add_rule(refuse, "socket", seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    return rules


def set_limits(limits: ReplyLimits) -> None:
    """This process's rlimits (hard limits too, so the reply cannot raise them)."""
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # A write past the file size limit then fails with EFBIG instead of killing the process.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def enter(limits: ReplyLimits, readable: Sequence[str]) -> None:
    """Put every wall up in this process, for the rest of its life: rlimits, the seccomp
    filter, the audit hook. Call it in the reply's own (forked) process, just before the code."""
    set_limits(limits)
    syscall_filter(os.getpid()).load()
    BLOCKED.clear()
    _COUNT[0] = 0
    sys.addaudithook(make_hook(readable))
