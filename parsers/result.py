"""What a parser returns: the scene it read and every diagnostic about how it read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from spatialbabel import Scene

Severity = Literal["info", "warning", "error"]


@dataclass(frozen=True)
class Diagnostic:
    """One remark about a reply. ``code`` is a stable slug (``json.trailing_comma``); ``line``
    and ``column`` are 1-based positions in the model's reply, when known."""

    severity: Severity
    code: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"{self.line}:{self.column}: " if self.column is not None else f"{self.line}: "
        return f"{where}{self.severity} [{self.code}] {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }


@dataclass
class Diagnostics:
    """A growing list of diagnostics, with line numbers shifted from code to reply lines."""

    items: list[Diagnostic] = field(default_factory=list)
    line_map: Any = None  # callable code line -> reply line, set by the front end

    def add(
        self,
        severity: Severity,
        code: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        if line is not None and self.line_map is not None:
            line = self.line_map(line)
        self.items.append(Diagnostic(severity, code, message, line, column))

    def info(
        self, code: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.add("info", code, message, line, column)

    def warning(
        self, code: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.add("warning", code, message, line, column)

    def error(
        self, code: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.add("error", code, message, line, column)

    def extend(self, other: list[Diagnostic]) -> None:
        self.items.extend(other)


@dataclass(frozen=True)
class ObjectSource:
    """Where one parsed object came from, as the language's engine recorded it: the name the
    code gave it (or the engine's own default), the word written in its class slot (JSON's
    ``class_name``, the DSL's ``shape``) and the reply line that made it. The open domain
    reads its class from these (``parsers.open_domain``)."""

    name: str | None = None
    class_word: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class ParseResult:
    """The scene a reply describes, in the canonical frame, and how it was read.
    ``sources`` holds one ``ObjectSource`` per object of the scene, in order (empty for a
    scene built without the shared object builder)."""

    language: str
    scene: Scene
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: tuple[ObjectSource, ...] = ()

    @property
    def ok(self) -> bool:
        """The benchmark's parse criterion: the reply yields at least one object."""
        return len(self.scene.objects) > 0

    @property
    def failure_reason(self) -> str | None:
        if self.ok:
            return None
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if errors:
            return str(errors[0])
        return "the reply yields no object"

    def to_dict(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "ok": self.ok,
            "failure_reason": self.failure_reason,
            "scene": self.scene.to_dict(),
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }
