"""``spatialbabel compare BASE NEW``: what moved between two scoring runs, whether it is real,
and whether it fails a gate (docs/ci.md).

Exit codes: 0 no gate failed; 1 a gate failed (every failure is in the verdict file); 2 bad
command line; 3 a scores file cannot be read or an output cannot be written. When both runs were
audited (``score --audit N``), a language whose engine agreement fell is flagged (printed, and in
the Markdown and JSON); it is no gate.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from scoring.audit_changes import AgreementChange, agreement_lines, audit_of, compare_audits
from scoring.compare import (
    Comparison,
    ComparisonVerdict,
    Gates,
    compare_runs,
    judge,
    read_scored_run,
)
from scoring.compare_report import console_table, junit_xml, markdown_summary
from spatialbabel.cli import ExitCode
from spatialbabel.files import atomic_write_text, dump_json
from spatialbabel.stats import DEFAULT_RESAMPLES

HELP = "compare two scoring runs: paired differences with CIs, gates for CI, Markdown and JUnit"

#: What ``--out DIR`` writes, by the flag that names one file alone.
OUT_FILES: Final = {
    "json": "comparison.json",
    "verdict": "verdict.json",
    "markdown": "summary.md",
    "junit": "junit.xml",
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=Path, help="the reference run: a scores folder or scores.json")
    parser.add_argument("new", type=Path, help="the run to judge: a scores folder or scores.json")
    parser.add_argument(
        "--fail-below",
        type=float,
        metavar="X",
        help="exit 1 when a cell's Reconstruct Score drops by more than X and the CI of the "
        "drop excludes 0 (0 fails on any significant drop)",
    )
    parser.add_argument(
        "--fail-on-parse-change",
        action="store_true",
        help="exit 1 when a reply that parsed in BASE no longer parses in NEW",
    )
    parser.add_argument(
        "--fail-on-missing",
        action="store_true",
        help="exit 1 when a cell, or a reply of a cell, of BASE is not in NEW",
    )
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help="write " + ", ".join(OUT_FILES.values()) + " here"
    )
    parser.add_argument(
        "--json", type=Path, metavar="FILE", help="every difference of every cell, as JSON"
    )
    parser.add_argument(
        "--verdict",
        type=Path,
        metavar="FILE",
        help="the verdict: every failing cell with its numbers",
    )
    parser.add_argument(
        "--markdown",
        type=Path,
        metavar="FILE",
        help="the summary in Markdown (for $GITHUB_STEP_SUMMARY or a merge-request comment)",
    )
    parser.add_argument(
        "--junit", type=Path, metavar="FILE", help="JUnit XML, one test case per cell"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument(
        "--resamples",
        type=int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})",
    )
    parser.epilog = (
        "Exit codes: 0 no gate failed; 1 a gate failed; 2 bad arguments; 3 a scores file cannot "
        "be read or an output cannot be written."
    )


def _audit_markdown(changes: list[AgreementChange] | None) -> str:
    if changes is None:
        return ""
    lines = agreement_lines(changes)
    body = "\n".join(f"- {line}" for line in lines) if lines else "No language's agreement fell."
    return f"\n## Engine audit\n\n{body}\n"


def _audit_json(changes: list[AgreementChange] | None) -> dict[str, object]:
    if changes is None:
        return {}
    return {
        "audit": [
            {
                "model": c.model,
                "language": c.language,
                "base": c.base.to_dict()["agreement"],
                "new": c.new.to_dict()["agreement"],
                "fell": c.fell,
                "significant": c.significant,
                "now_disagreeing": [r.line for r in c.now_disagreeing],
            }
            for c in changes
        ]
    }


def _outputs(
    args: argparse.Namespace,
    comparison: Comparison,
    verdict: ComparisonVerdict,
    changes: list[AgreementChange] | None,
) -> dict[Path, Callable[[], str]]:
    makers: dict[str, Callable[[], str]] = {
        "json": lambda: dump_json(
            {"schema_version": 1, **comparison.to_dict(), **_audit_json(changes)}
        ),
        "verdict": lambda: dump_json(verdict.to_dict(comparison)),
        "markdown": lambda: markdown_summary(comparison, verdict) + _audit_markdown(changes),
        "junit": lambda: junit_xml(comparison, verdict),
    }
    chosen: dict[Path, Callable[[], str]] = {}
    for flag, name in OUT_FILES.items():
        path = getattr(args, flag) or (args.out / name if args.out is not None else None)
        if path is not None:
            chosen[path] = makers[flag]
    return chosen


def run(args: argparse.Namespace) -> int:
    if args.fail_below is not None and not args.fail_below >= 0:
        print(
            f"spatialbabel compare: --fail-below must be 0 or more, got {args.fail_below}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    if args.resamples < 1:
        print(
            f"spatialbabel compare: --resamples must be at least 1, got {args.resamples}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    # FileFormatError (no such file, not a scores.json) reaches the CLI: exit 3.
    base, new = read_scored_run(args.base), read_scored_run(args.new)
    comparison = compare_runs(base, new, seed=args.seed, resamples=args.resamples)
    gates = Gates(args.fail_below, args.fail_on_parse_change, args.fail_on_missing)
    verdict = judge(comparison, gates)
    # Each run's engine audit (audit.json beside its scores, from score --audit N), if both have one.
    audits = audit_of(args.base), audit_of(args.new)
    changes = (
        compare_audits(audits[0], audits[1], seed=args.seed, resamples=args.resamples)
        if audits[0] is not None and audits[1] is not None
        else None
    )
    for path, make in _outputs(args, comparison, verdict, changes).items():
        try:
            atomic_write_text(path, make())
        except OSError as error:
            print(f"spatialbabel compare: cannot write {path}: {error.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    print(console_table(comparison, verdict))
    for line in agreement_lines(changes or []):
        print(f"audit: {line}")
    return ExitCode.OK if verdict.passed else ExitCode.PROBLEMS
