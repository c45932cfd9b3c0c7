"""``audit.json``, the engine audit's file (docs/audit.md), and its table.

The audit (``audit``) writes it beside a run's scores; the report (``render.report``) shows its
table beside the score table and ``compare`` reads two of them to flag a language whose
agreement fell. The file format is the hub's, so that none of them imports another.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import FileFormatError, read_json
from spatialbabel.stats import Estimate

#: Each reply's default limits in its engine: wall-clock (and CPU) seconds, address space.
AUDIT_SECONDS: Final = 20.0
AUDIT_MEMORY_MB: Final = 4096
AUDIT_FILE: Final = "audit.json"
AUDIT_TABLE: Final = "audit.md"
SCHEMA_VERSION: Final = 1
#: How an audited reply came out: its parse agrees with what the engine built, or not, or the
#: engine run gave no scene to compare (time, memory or CPU limit, a crash).
VERDICTS: Final = ("agrees", "disagrees", "engine_failed")


@dataclass(frozen=True)
class AuditedReply:
    """One reply run in its engine: the verdict, its one-line diff, how the run ended (and what
    stopped it), what it tried that the sandbox refused, and what it cost."""

    line: int | None
    scene_id: str
    model: str
    language: str
    mode: str
    verdict: str
    run: str
    diff: str = ""
    stopped_by: str | None = None
    blocked: tuple[Mapping[str, str], ...] = ()
    blocked_count: int = 0
    engine_error: str | None = None
    parsed_objects: int = 0
    engine_objects: int | None = None
    engine_seconds: float = 0.0
    parse_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "scene_id": self.scene_id,
            "model": self.model,
            "language": self.language,
            "mode": self.mode,
            "verdict": self.verdict,
            "run": self.run,
            "diff": self.diff,
            "stopped_by": self.stopped_by,
            "blocked": [dict(b) for b in self.blocked],
            "blocked_count": self.blocked_count,
            "engine_error": self.engine_error,
            "parsed_objects": self.parsed_objects,
            "engine_objects": self.engine_objects,
            "engine_seconds": self.engine_seconds,
            "parse_seconds": self.parse_seconds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditedReply:
        return cls(
            line=data.get("line"),
            scene_id=str(data["scene_id"]),
            model=str(data["model"]),
            language=str(data["language"]),
            mode=str(data.get("mode", "")),
            verdict=str(data["verdict"]),
            run=str(data["run"]),
            diff=str(data.get("diff", "")),
            stopped_by=data.get("stopped_by"),
            blocked=tuple(dict(b) for b in data.get("blocked", [])),
            blocked_count=int(data.get("blocked_count", 0)),
            engine_error=data.get("engine_error"),
            parsed_objects=int(data.get("parsed_objects", 0)),
            engine_objects=data.get("engine_objects"),
            engine_seconds=float(data.get("engine_seconds", 0.0)),
            parse_seconds=float(data.get("parse_seconds", 0.0)),
        )

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.scene_id, self.model, self.language, self.mode)


@dataclass(frozen=True)
class AuditCell:
    """A (model, language): its replies, how many were drawn, how many of those the engine
    built a scene for (``compared``) and how many agree; ``note`` says why a cell has no
    agreement (no engine for the language, the engine missing here)."""

    model: str
    language: str
    replies: int
    audited: int
    compared: int
    agreeing: int
    agreement: Estimate | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "language": self.language,
            "replies": self.replies,
            "audited": self.audited,
            "compared": self.compared,
            "agreeing": self.agreeing,
            "agreement": None if self.agreement is None else _estimate_dict(self.agreement),
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditCell:
        found = data.get("agreement")
        return cls(
            model=str(data["model"]),
            language=str(data["language"]),
            replies=int(data["replies"]),
            audited=int(data["audited"]),
            compared=int(data["compared"]),
            agreeing=int(data["agreeing"]),
            agreement=None if found is None else _estimate(found),
            note=data.get("note"),
        )


@dataclass(frozen=True)
class EngineCost:
    """An engine as the run used it: its name and version, its start-up time, and the mean
    wall-clock seconds of a reply in it against the static parse of the same replies."""

    language: str
    engine: str
    runs: int
    startup_seconds: float
    engine_seconds: float
    parse_seconds: float
    restarts: int = 0

    @property
    def ratio(self) -> float:
        return self.engine_seconds / self.parse_seconds if self.parse_seconds > 0 else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "engine": self.engine,
            "runs": self.runs,
            "startup_seconds": self.startup_seconds,
            "engine_seconds_per_reply": self.engine_seconds,
            "parse_seconds_per_reply": self.parse_seconds,
            "ratio": None if math.isnan(self.ratio) else self.ratio,
            "restarts": self.restarts,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EngineCost:
        return cls(
            language=str(data["language"]),
            engine=str(data["engine"]),
            runs=int(data["runs"]),
            startup_seconds=float(data["startup_seconds"]),
            engine_seconds=float(data["engine_seconds_per_reply"]),
            parse_seconds=float(data["parse_seconds_per_reply"]),
            restarts=int(data.get("restarts", 0)),
        )


@dataclass(frozen=True)
class AuditReport:
    """Everything ``audit.json`` holds."""

    predictions: str
    per_cell: int
    seed: int
    criterion: Mapping[str, float]
    limits: Mapping[str, float | int]
    engines: tuple[EngineCost, ...]
    cells: tuple[AuditCell, ...]
    replies: tuple[AuditedReply, ...]
    #: Languages whose engine could not run here or that have none: language -> why.
    skipped: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "predictions": self.predictions,
            "per_cell": self.per_cell,
            "seed": self.seed,
            "criterion": dict(self.criterion),
            "limits": dict(self.limits),
            "engines": [e.to_dict() for e in self.engines],
            "skipped": dict(self.skipped),
            "cells": [c.to_dict() for c in self.cells],
            "replies": [r.to_dict() for r in self.replies],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditReport:
        return cls(
            predictions=str(data["predictions"]),
            per_cell=int(data["per_cell"]),
            seed=int(data["seed"]),
            criterion=dict(data["criterion"]),
            limits=dict(data["limits"]),
            engines=tuple(EngineCost.from_dict(e) for e in data["engines"]),
            cells=tuple(AuditCell.from_dict(c) for c in data["cells"]),
            replies=tuple(AuditedReply.from_dict(r) for r in data["replies"]),
            skipped=dict(data.get("skipped", {})),
        )

    def cell(self, model: str, language: str) -> AuditCell | None:
        return next((c for c in self.cells if (c.model, c.language) == (model, language)), None)

    @property
    def escapes(self) -> tuple[AuditedReply, ...]:
        """Replies that tried something the sandbox refused, or were stopped by a limit."""
        return tuple(r for r in self.replies if r.blocked_count or r.stopped_by)


def _estimate_dict(e: Estimate) -> dict[str, float | int | None]:
    return {
        k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in e.to_dict().items()
    }


def _estimate(data: Mapping[str, Any]) -> Estimate:
    def number(key: str) -> float:
        value = data.get(key)
        return math.nan if value is None else float(value)

    return Estimate(number("mean"), number("low"), number("high"), int(data.get("n", 0)))


def read_audit(path: Path) -> AuditReport:
    """``audit.json`` (or the one in a folder); ``FileFormatError`` naming the file if broken."""
    path = Path(path)
    if path.is_dir():
        path = path / AUDIT_FILE
    data = read_json(path)
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
        raise FileFormatError(path, f"not an audit.json of schema {SCHEMA_VERSION}")
    try:
        return AuditReport.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise FileFormatError(path, f"broken audit.json ({error!r})") from None


# --- the table -----------------------------------------------------------------------------------


def agreement_text(cell: AuditCell) -> str:
    """A cell as the table shows it: ``0.83 [0.60, 1.00] (10/12)``, or why it has none."""
    if cell.agreement is None or cell.compared == 0:
        if cell.note:
            return cell.note
        return f"– (0 of {cell.audited} ran)" if cell.audited else "–"
    e = cell.agreement
    text = f"{e.mean:.2f} [{e.low:.2f}, {e.high:.2f}] ({cell.agreeing}/{cell.compared})"
    failed = cell.audited - cell.compared
    return text + (f", {failed} failed in the engine" if failed else "")


def _languages(report: AuditReport) -> list[str]:
    order = ("threejs", "unity", "blender", "open3d", "json", "dsl")
    found = {c.language for c in report.cells}
    return sorted(
        found, key=lambda lang: (order.index(lang) if lang in order else len(order), lang)
    )


def table_rows(report: AuditReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the agreement table: models x languages."""
    languages = _languages(report)
    rows = []
    for model in sorted({c.model for c in report.cells}):
        row = [model]
        for language in languages:
            cell = report.cell(model, language)
            row.append("–" if cell is None else agreement_text(cell))
        rows.append(row)
    return ["model", *languages], rows


def disagreement_lines(report: AuditReport, limit: int | None = None) -> list[str]:
    """One line per reply whose parse and engine disagree, or whose run failed."""
    found = [r for r in report.replies if r.verdict != "agrees"]
    lines = []
    for reply in found[:limit]:
        where = f"line {reply.line}" if reply.line is not None else reply.scene_id
        what = reply.diff if reply.verdict == "disagrees" else f"engine run {reply.run}"
        if reply.stopped_by and reply.verdict != "disagrees":
            what += f" ({reply.stopped_by})"
        lines.append(f"{reply.model} / {reply.language} / {where} ({reply.scene_id}): {what}")
    if limit is not None and len(found) > limit:
        lines.append(f"... and {len(found) - limit} more (all in {AUDIT_FILE})")
    return lines


def audit_markdown(report: AuditReport) -> str:
    header, rows = table_rows(report)
    out = [
        "# Engine audit",
        "",
        f"{report.per_cell} replies drawn per model and language (seed {report.seed}) from "
        f"{report.predictions}, each run in its real engine in a sandbox; the share whose static "
        "parse agrees with what the engine built, with its 95% bootstrap CI (docs/audit.md).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
    ]
    if report.engines:
        out += [
            "## Engines",
            "",
            "| language | engine | replies | start-up s | s per reply | parse s per reply | engine / parse |",
            "|---|---|---|---|---|---|---|",
        ]
        for e in report.engines:
            ratio = "–" if math.isnan(e.ratio) else f"{e.ratio:.0f}x"
            out.append(
                f"| {e.language} | {e.engine} | {e.runs} | {e.startup_seconds:.2f} | "
                f"{e.engine_seconds:.3f} | {e.parse_seconds:.4f} | {ratio} |"
            )
        out.append("")
    if report.skipped:
        out += ["## Not audited", ""]
        out += [f"- {language}: {why}" for language, why in sorted(report.skipped.items())]
        out.append("")
    lines = disagreement_lines(report)
    out += ["## Disagreements and failed runs", ""]
    out += [f"- {line}" for line in lines] if lines else ["None."]
    escapes = report.escapes
    if escapes:
        out += ["", "## Refused by the sandbox", ""]
        for reply in escapes:
            tried = "; ".join(f"{b['what']} ({b['stopped_by']})" for b in reply.blocked)
            stopped = (
                f"; {reply.stopped_by}"
                if reply.stopped_by and reply.stopped_by not in tried
                else ""
            )
            out.append(f"- {reply.model} / {reply.language} / line {reply.line}: {tried}{stopped}")
    return "\n".join(out) + "\n"


def audit_text(report: AuditReport, *, limit: int = 20) -> str:
    """The table and the first disagreements, for the console."""
    header, rows = table_rows(report)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["engine audit: share of sampled replies whose parse agrees with the engine"]
    lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    for e in report.engines:
        ratio = "–" if math.isnan(e.ratio) else f"{e.ratio:.0f}x the static parse"
        lines.append(
            f"  {e.language}: {e.engine}, {e.engine_seconds:.3f} s per reply ({ratio}), "
            f"start-up {e.startup_seconds:.2f} s"
        )
    for language, why in sorted(report.skipped.items()):
        lines.append(f"  {language}: not audited: {why}")
    disagreements = disagreement_lines(report, limit)
    if disagreements:
        lines.append("disagreements:")
        lines += [f"  {line}" for line in disagreements]
    return "\n".join(lines)


__all__: Sequence[str] = (
    "AUDIT_FILE",
    "AUDIT_TABLE",
    "AuditCell",
    "AuditReport",
    "AuditedReply",
    "EngineCost",
    "audit_markdown",
    "audit_text",
    "read_audit",
)
