"""The audit of a predictions file: draw replies, run them in their engines in the sandbox,
compare each with its static parse, and gather the verdicts (``audit_predictions``).

    from audit.pipeline import audit_predictions
    report = audit_predictions("replies.jsonl", per_cell=20, seed=0)
    write_audit(report, Path("scores"))

This is what ``spatialbabel score --audit N`` and ``spatialbabel parse --predictions ... --audit
N`` call (through the CLI's ``engine_audit`` hook), and works on any predictions file.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from audit.agreement import Criterion, compare
from audit.engines import NO_ENGINE, Engine, find_engine
from audit.sandbox import Limits, Sandbox
from audit.sessions import RunOutcome
from parsers import parse
from parsers.extract import extract_code
from spatialbabel import LANGUAGES, ModelOutput
from spatialbabel.audit_file import (
    AUDIT_FILE,
    AUDIT_TABLE,
    AuditCell,
    AuditedReply,
    AuditReport,
    EngineCost,
    audit_markdown,
)
from spatialbabel.files import atomic_write_text, dump_json, model_output_from_record, read_jsonl
from spatialbabel.open_classes import Domain
from spatialbabel.stats import DEFAULT_RESAMPLES, bootstrap_mean

Progress = Callable[[str], None]
#: Engine errors naming a memory failure (Python, V8, numpy).
_MEMORY_SIGNS: Final = (
    "MemoryError",
    "allocation failed",
    "heap out of memory",
    "Fatal JavaScript invalid size",
    "Cannot allocate memory",
    "std::bad_alloc",
    "OutOfMemoryException",
)


@dataclass(frozen=True)
class PredictionLine:
    """A predictions line to audit."""

    line: int | None
    output: ModelOutput


def read_replies(path: Path) -> list[PredictionLine]:
    """The well-formed lines of a predictions file (the scorer reports the others)."""
    replies = []
    for item in read_jsonl(path):
        if item.record is None:
            continue
        try:
            output = model_output_from_record(item.record)
        except ValueError:
            continue
        if output.language in LANGUAGES:
            replies.append(PredictionLine(item.line, output))
    return replies


def _cell_seed(seed: int, model: str, language: str) -> int:
    """A seed of its own per cell, so that adding a model never changes another's draw."""
    digest = hashlib.sha256(f"{seed}\0{model}\0{language}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def draw(
    replies: Sequence[PredictionLine], per_cell: int, seed: int
) -> dict[tuple[str, str], list[PredictionLine]]:
    """``per_cell`` replies of each (model, language), drawn without replacement (all of them
    when the cell has fewer), in input order."""
    cells: dict[tuple[str, str], list[PredictionLine]] = defaultdict(list)
    for reply in replies:
        cells[(reply.output.model, reply.output.language)].append(reply)
    drawn = {}
    for (model, language), members in sorted(cells.items()):
        if len(members) <= per_cell:
            drawn[(model, language)] = list(members)
            continue
        rng = np.random.default_rng(_cell_seed(seed, model, language))
        chosen = sorted(rng.choice(len(members), size=per_cell, replace=False).tolist())
        drawn[(model, language)] = [members[i] for i in chosen]
    return drawn


def describe_stop(outcome: RunOutcome, limits: Limits, error: str | None) -> str | None:
    """What stopped a run, or an attempt inside it, as the report says it; None if nothing."""
    stops = [f"{b['what']}: refused by the {b['stopped_by']}" for b in outcome.blocked]
    if outcome.blocked_count > len(outcome.blocked):
        stops.append(f"{outcome.blocked_count - len(outcome.blocked)} more refusals")
    text = f"{error or ''}\n{outcome.log}"
    if outcome.status == "timeout":
        stops.append(f"time limit: killed after {limits.seconds:g} s of wall-clock time")
    elif outcome.signal == "SIGXCPU" or (
        outcome.signal == "SIGKILL"
        and outcome.cpu_seconds is not None
        and outcome.cpu_seconds >= limits.reply_limits().cpu_seconds
    ):
        stops.append(f"CPU limit: killed after {limits.reply_limits().cpu_seconds} s of CPU")
    elif any(sign in text for sign in _MEMORY_SIGNS):
        stops.append(f"memory limit: an allocation past {limits.memory_mb} MiB failed")
    elif outcome.status == "too_large":
        stops.append("result size limit: the engine's report was too large")
    elif outcome.status == "lost":
        stops.append("the engine worker died or hung; it was restarted")
    elif outcome.status == "refused":
        stops.append("not run: its compiled code references what the sandbox refuses")
    elif outcome.status in ("killed", "crashed"):
        ended = outcome.signal or f"exit {outcome.exit_code}"
        stops.append(f"the engine process ended ({ended}) without a result")
    for sign, wall in (
        ("Read-only file system", "read-only filesystem (bubblewrap's binds)"),
        ("Network is unreachable", "network namespace (no network)"),
        ("ERR_ACCESS_DENIED", "node's permission model"),
    ):
        if sign in text:
            stops.append(wall)
    return "; ".join(dict.fromkeys(stops)) or None


@dataclass
class _Costs:
    engine: str = ""
    runs: int = 0
    engine_seconds: float = 0.0
    parse_seconds: float = 0.0


def _audit_reply(
    engine: Engine,
    session_name: str,
    outcome: RunOutcome,
    reply: PredictionLine,
    limits: Limits,
    criterion: Criterion,
    domain: Domain,
) -> AuditedReply:
    out = reply.output
    started = time.perf_counter()
    parsed = parse(out.output, out.language, scene_id=out.scene_id, domain=domain)
    parse_seconds = time.perf_counter() - started
    error = None
    engine_objects = None
    started = time.perf_counter()
    if outcome.result is not None:
        read = engine.read(outcome.result, out.scene_id, session_name)
        error = read.error
        engine_objects = len(read.scene.objects)
        verdict = compare(parsed.scene, read.scene, criterion)
        status = "agrees" if verdict.agrees else "disagrees"
        diff = verdict.diff
        if not parsed.ok and not verdict.agrees:
            diff = f"parse failed ({parsed.failure_reason}); {diff}"
    else:
        status, diff = "engine_failed", ""
    # The engine's side of the cost: its run, and reading and comparing what it built.
    engine_seconds = outcome.seconds + time.perf_counter() - started
    return AuditedReply(
        line=reply.line,
        scene_id=out.scene_id,
        model=out.model,
        language=out.language,
        mode=out.mode,
        verdict=status,
        run=outcome.status,
        diff=diff,
        stopped_by=describe_stop(outcome, limits, error),
        blocked=tuple(outcome.blocked),
        blocked_count=outcome.blocked_count,
        engine_error=error,
        parsed_objects=len(parsed.scene.objects),
        engine_objects=engine_objects,
        engine_seconds=engine_seconds,
        parse_seconds=parse_seconds,
    )


def audit_replies(
    replies: Sequence[PredictionLine],
    *,
    predictions: str,
    per_cell: int,
    seed: int = 0,
    limits: Limits | None = None,
    criterion: Criterion | None = None,
    domain: Domain = "primitive",
    resamples: int = DEFAULT_RESAMPLES,
    progress: Progress | None = None,
) -> AuditReport:
    """Audit ``per_cell`` replies of each (model, language) of ``replies``."""
    if per_cell < 1:
        raise ValueError(f"the audit draws at least 1 reply per cell, not {per_cell}")
    limits = limits or Limits()
    criterion = criterion or Criterion()
    say = progress or (lambda _message: None)
    drawn = draw(replies, per_cell, seed)
    totals: dict[tuple[str, str], int] = defaultdict(int)
    for reply in replies:
        totals[(reply.output.model, reply.output.language)] += 1
    by_language: dict[str, list[PredictionLine]] = defaultdict(list)
    for (_, language), chosen in drawn.items():
        by_language[language].extend(chosen)
    audited: list[AuditedReply] = []
    #: language -> (the table's short note, the reason in full)
    skipped: dict[str, tuple[str, str]] = {}
    costs: list[EngineCost] = []
    sandbox = Sandbox(limits)
    for language in sorted(by_language):
        found = find_engine(language)
        if isinstance(found, str):
            short = "no engine" if language in NO_ENGINE else "engine not plugged in"
            skipped[language] = (short, found)
            continue
        why = found.missing()
        if why is not None:
            skipped[language] = ("skipped: engine missing", why)
            say(f"{language}: not audited: {why}")
            continue
        chosen = sorted(by_language[language], key=lambda r: (r.line or 0, r.output.model))
        say(f"{language}: running {len(chosen)} replies in {found.label}")
        session = found.open(sandbox)
        spent = _Costs()
        jobs = [
            (f"{language}-{index}", extract_code(reply.output.output, language).code)
            for index, reply in enumerate(chosen)
        ]
        try:
            session.prepare(jobs)
            for reply, (job_id, code) in zip(chosen, jobs, strict=True):
                outcome = session.run(job_id, code)
                item = _audit_reply(found, session.name, outcome, reply, limits, criterion, domain)
                audited.append(item)
                spent.runs += 1
                spent.engine_seconds += item.engine_seconds
                spent.parse_seconds += item.parse_seconds
        finally:
            session.close()
        if spent.runs:
            costs.append(
                EngineCost(
                    language,
                    session.name,
                    spent.runs,
                    session.startup_seconds,
                    spent.engine_seconds / spent.runs,
                    spent.parse_seconds / spent.runs,
                    session.restarts,
                )
            )
    cells = _cells(drawn, totals, audited, skipped, seed, resamples)
    return AuditReport(
        predictions=predictions,
        per_cell=per_cell,
        seed=seed,
        criterion=criterion.to_dict(),
        limits=limits.to_dict(),
        engines=tuple(costs),
        cells=cells,
        replies=tuple(sorted(audited, key=lambda r: (r.model, r.language, r.line or 0))),
        skipped={language: why for language, (_, why) in skipped.items()},
    )


def _cells(
    drawn: dict[tuple[str, str], list[PredictionLine]],
    totals: dict[tuple[str, str], int],
    audited: Sequence[AuditedReply],
    skipped: dict[str, tuple[str, str]],
    seed: int,
    resamples: int,
) -> tuple[AuditCell, ...]:
    by_cell: dict[tuple[str, str], list[AuditedReply]] = defaultdict(list)
    for item in audited:
        by_cell[(item.model, item.language)].append(item)
    cells = []
    for (model, language), chosen in sorted(drawn.items()):
        items = by_cell.get((model, language), [])
        compared = [i for i in items if i.verdict != "engine_failed"]
        agreeing = sum(i.verdict == "agrees" for i in compared)
        estimate = (
            bootstrap_mean(
                [1.0 if i.verdict == "agrees" else 0.0 for i in compared],
                seed=seed,
                resamples=resamples,
            )
            if compared
            else None
        )
        cells.append(
            AuditCell(
                model,
                language,
                totals[(model, language)],
                len(chosen) if language not in skipped else 0,
                len(compared),
                agreeing,
                estimate,
                skipped[language][0] if language in skipped else None,
            )
        )
    return tuple(cells)


def audit_predictions(
    predictions: str | Path,
    *,
    per_cell: int,
    seed: int = 0,
    limits: Limits | None = None,
    criterion: Criterion | None = None,
    domain: Domain = "primitive",
    resamples: int = DEFAULT_RESAMPLES,
    progress: Progress | None = None,
) -> AuditReport:
    """Audit a predictions JSONL: the Python form of ``--audit N``."""
    path = Path(predictions)
    return audit_replies(
        read_replies(path),
        predictions=str(path),
        per_cell=per_cell,
        seed=seed,
        limits=limits,
        criterion=criterion,
        domain=domain,
        resamples=resamples,
        progress=progress,
    )


def write_audit(report: AuditReport, out: Path) -> list[Path]:
    """``audit.json`` and ``audit.md`` into the folder ``out``."""
    paths = [out / AUDIT_FILE, out / AUDIT_TABLE]
    atomic_write_text(paths[0], dump_json(report.to_dict()))
    atomic_write_text(paths[1], audit_markdown(report))
    return paths


def run_audit(
    source: Path | Sequence[tuple[int | None, ModelOutput]],
    out: Path,
    *,
    per_cell: int,
    seed: int,
    seconds: float = Limits.seconds,
    memory_mb: int = Limits.memory_mb,
    predictions: str | None = None,
    domain: Domain = "primitive",
) -> AuditReport:
    """The CLI's ``engine_audit`` hook: audit a predictions file (or the replies a command
    already read, with their line numbers), write ``audit.json`` and ``audit.md`` into ``out``,
    print progress on stderr."""
    replies = (
        read_replies(source)
        if isinstance(source, Path)
        else [PredictionLine(line, output) for line, output in source]
    )
    report = audit_replies(
        replies,
        predictions=predictions or str(source if isinstance(source, Path) else "predictions"),
        per_cell=per_cell,
        seed=seed,
        limits=Limits(seconds=seconds, memory_mb=memory_mb),
        domain=domain,
        progress=lambda message: print(f"audit: {message}", file=sys.stderr, flush=True),
    )
    write_audit(report, out)
    return report
