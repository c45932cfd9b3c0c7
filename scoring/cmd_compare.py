"""``spatialbabel compare BASE NEW``: what moved between two scoring runs, whether it is real,
and whether it fails a gate (docs/ci.md).

Exit codes: 0 no gate failed; 1 a gate failed (every failure is in the verdict file); 2 bad
command line; 3 a scores file cannot be read or an output cannot be written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from scoring.compare import Comparison, Gates, Verdict, compare_runs, judge, read_scored_run
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


def _outputs(
    args: argparse.Namespace, comparison: Comparison, verdict: Verdict
) -> dict[Path, Callable[[], str]]:
    makers: dict[str, Callable[[], str]] = {
        "json": lambda: dump_json({"schema_version": 1, **comparison.to_dict()}),
        "verdict": lambda: dump_json(verdict.to_dict(comparison)),
        "markdown": lambda: markdown_summary(comparison, verdict),
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
    for path, make in _outputs(args, comparison, verdict).items():
        try:
            atomic_write_text(path, make())
        except OSError as error:
            print(f"spatialbabel compare: cannot write {path}: {error.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    print(console_table(comparison, verdict))
    return ExitCode.OK if verdict.passed else ExitCode.PROBLEMS
