"""The rule every conformance suite judges by, whatever the language.

A conformance program is pure language semantics that prints its results. The real runtime
(CPython, node, Mono) runs it and prints its lines; the evaluator runs it with its print
captured (``print``, ``console.log``, ``Console.WriteLine``), keeping for each printed line
how many warnings it had reported before printing it. The evaluator passes a program when

- it prints exactly what the runtime printed (``equal``), or
- its lines equal the runtime's up to a point, and before the first line that differs (or the
  first line missing) it had reported a warning or error with a line: the construct it could
  not follow is named, so a user sees where the reading is partial (``reported``).

Anything else is ``silent``: a wrong value with no remark, the one outcome a benchmark cannot
afford. Each language's suite supplies ``run_real`` and ``run_evaluator`` and asserts
``judge(...).kind != "silent"``; the suites also keep the list of programs they expect to be
only ``reported``, so a construct that starts to be followed, or stops, shows up as a change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from parsers.result import Diagnostic

HERE = Path(__file__).parent

#: The suffixes a language's programs carry in ``tests/conformance/<language>/``.
SUFFIXES: dict[str, tuple[str, ...]] = {
    "python": (".py",),
    "javascript": (".js", ".ts"),
    "csharp": (".cs",),
}


def programs(language: str) -> list[Path]:
    """The programs of one language's suite, in name order."""
    folder = HERE / language
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES[language])


@dataclass(frozen=True)
class Printed:
    """One line the evaluator printed, with how many warnings or errors it had reported
    before printing it (the reporter's order is the order of the run)."""

    text: str
    warnings_before: int


@dataclass
class Transcript:
    """What the evaluator printed, and every remark it made."""

    lines: list[Printed] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def text(self) -> list[str]:
        return [line.text for line in self.lines]

    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity != "info" and d.line is not None]


Kind = Literal["equal", "reported", "silent"]


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def output_lines(text: str) -> list[str]:
    """A runtime's standard output as lines (one final newline is no line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def judge(real: Sequence[str], transcript: Transcript) -> Verdict:
    """Judge the evaluator's ``transcript`` against the ``real`` runtime's lines."""
    ours = transcript.text()
    if ours == list(real):
        return Verdict("equal", f"{len(real)} lines")
    first = next(
        (i for i, (a, b) in enumerate(zip(real, ours, strict=False)) if a != b),
        min(len(real), len(ours)),
    )
    want = real[first] if first < len(real) else "<nothing>"
    got = ours[first] if first < len(ours) else "<nothing>"
    # Warnings made before the first differing line: for a missing line, every warning counts.
    made = transcript.lines[first].warnings_before if first < len(ours) else None
    named = transcript.warnings() if made is None else _first(transcript.diagnostics, made)
    where = f"line {first + 1} of the output: runtime {want!r}, evaluator {got!r}"
    if named:
        return Verdict("reported", f"{where}; after {_describe(named)}")
    return Verdict("silent", f"{where}; no warning before it")


def _first(diagnostics: Iterable[Diagnostic], count: int) -> list[Diagnostic]:
    made = [d for d in diagnostics if d.severity != "info"][:count]
    return [d for d in made if d.line is not None]


def _describe(diagnostics: Sequence[Diagnostic]) -> str:
    shown = "; ".join(str(d) for d in diagnostics[:3])
    more = f" (+{len(diagnostics) - 3} more)" if len(diagnostics) > 3 else ""
    return shown + more
