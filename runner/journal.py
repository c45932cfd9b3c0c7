"""The cache of a run: an append-only JSONL journal of answered requests, keyed by the hash of
the body sent.

Each answered request is one line ``{"key", "custom_id", "model", "body", "latency_s",
"attempts", "base_url", "at"}`` (``body``: the endpoint's reply). Lines are appended by one
writer thread that writes whatever has queued up in one ``write`` and then ``fsync``s, so a
killed run loses at most the replies of its last moments (sent again on resume) and never holds
one twice: a request is sent only when its key is not in the journal. A last line cut off by a
kill is recovered on opening: the file is truncated back to its last whole line. An exclusive
lock keeps two runs from appending to one journal at once.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbabel.errors import SpatialBabelError


class JournalBusy(SpatialBabelError):
    """Another run holds the journal."""


@dataclass(frozen=True)
class Recovery:
    """What opening the journal found: the replies it holds and the damage it repaired."""

    entries: int
    truncated_bytes: int
    bad_lines: tuple[int, ...]


def _read(data: bytes) -> tuple[dict[str, dict[str, Any]], int, list[int]]:
    """Entries by key, the length of the whole lines, and the numbers of unreadable lines."""
    entries: dict[str, dict[str, Any]] = {}
    bad: list[int] = []
    whole = data.rfind(b"\n") + 1
    for number, raw in enumerate(data[:whole].split(b"\n")[:-1], start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            bad.append(number)
            continue
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            entries[entry["key"]] = entry
        else:
            bad.append(number)
    return entries, whole, bad


class Journal:
    """Open with ``Journal.open(path)``; ``append`` from any thread; ``close`` when done."""

    def __init__(self, path: Path, fd: int, entries: dict[str, dict[str, Any]]) -> None:
        self.path = path
        self._fd = fd
        self.entries = entries
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._failure: OSError | None = None
        self._writer = threading.Thread(target=self._write_loop, name="journal", daemon=True)
        self._writer.start()

    @classmethod
    def open(cls, path: Path) -> tuple[Journal, Recovery]:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalBusy(f"{path}: another spatialbabel run is using this cache") from None
        try:
            size = os.fstat(fd).st_size
            data = os.pread(fd, size, 0) if size else b""
            entries, whole, bad = _read(data)
            if whole < len(data):
                # A line cut off by a kill: its reply is sent again.
                os.ftruncate(fd, whole)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, entries), Recovery(len(entries), len(data) - whole, tuple(bad))

    def append(self, entry: Mapping[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False, allow_nan=False) + "\n"
        self.entries[str(entry["key"])] = dict(entry)
        self._queue.put(line.encode("utf-8"))

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            chunks: list[bytes] = []
            done = item is None
            if item is not None:
                chunks.append(item)
            # Group commit: everything queued meanwhile goes in the same write and fsync.
            while not done:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    done = True
                else:
                    chunks.append(more)
            if chunks and self._failure is None:
                try:
                    data = memoryview(b"".join(chunks))
                    while data:
                        data = data[os.write(self._fd, data) :]
                    os.fsync(self._fd)
                except OSError as error:
                    self._failure = error
            if done:
                return

    def close(self) -> None:
        """Write out everything appended, then release the journal; an OSError if a write
        failed (the run's replies are then not all cached)."""
        self._queue.put(None)
        self._writer.join()
        os.close(self._fd)
        if self._failure is not None:
            raise self._failure


__all__ = ["Journal", "JournalBusy", "Recovery"]
