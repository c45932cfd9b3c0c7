"""``spatialbabel report``: the static HTML report of a scoring run.

Exit codes: 0 written; 1 written, with notes on parts left out (no split or predictions found,
a reply that could not be drawn); 3 scores.json unreadable; 4 matplotlib or pyrender missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode, default_workers

HELP = "build a static HTML report (tables, charts, per-reply comparisons) from a scores.json"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "scores",
        type=Path,
        metavar="SCORES",
        help="scores.json written by 'spatialbabel score' (or the folder holding it)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="folder of the report (index.html)"
    )
    parser.add_argument(
        "--split", type=Path, help="split folder (default: the one recorded in scores.json)"
    )
    parser.add_argument(
        "--predictions",
        type=Path,
        help="predictions JSONL (default: the one recorded in scores.json)",
    )
    parser.add_argument(
        "--max-replies",
        type=int,
        metavar="N",
        help="draw at most N per-reply figures, spread over models and languages (default: all)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="processes drawing the per-reply figures (default: CPUs, at most 8)",
    )


def run(args: argparse.Namespace) -> int:
    if args.workers < 1:
        print(
            f"spatialbabel report: --workers must be at least 1, got {args.workers}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    if args.max_replies is not None and args.max_replies < 0:
        print(
            f"spatialbabel report: --max-replies must not be negative, got {args.max_replies}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    from render.errors import RendererUnavailable
    from render.report import build_report

    scores = args.scores / "scores.json" if args.scores.is_dir() else args.scores
    try:
        summary = build_report(
            scores,
            args.out,
            split_dir=args.split,
            predictions=args.predictions,
            max_replies=args.max_replies,
            workers=args.workers,
            progress=lambda message: print(f"spatialbabel report: {message}", file=sys.stderr),
        )
    except RendererUnavailable as error:
        print(f"spatialbabel report: {error}", file=sys.stderr)
        return ExitCode.MISSING_DEPENDENCY
    for note in summary.notes:
        print(f"spatialbabel report: note: {note}", file=sys.stderr)
    print(
        f"{summary.index}: {len(summary.pages)} pages, {len(summary.images)} images, "
        f"{summary.replies_drawn} reply figures"
    )
    return ExitCode.PROBLEMS if summary.notes else ExitCode.OK
