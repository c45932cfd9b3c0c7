"""``spatialbabel score``: score a predictions JSONL against a split and write the tables.

Exit codes: 0 all lines scored; 1 scored, but some input lines had problems (each reported
with its line number, listed in scores.json; a failed request with its id); 3 unreadable input, an unwritable ``--out``, or
any problem under ``--strict`` (then nothing is written); 4 ``--silhouette`` without the
stage that draws silhouettes (the CLI's ``silhouette_iou`` hook), or ``--audit`` without the
audit stage. ``--audit N`` adds audit.json and audit.md (docs/audit.md); disagreements it finds
do not change the exit code.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from scoring.inputs import SUBSETS, InputProblem, load_truth, read_predictions
from scoring.metrics import DEFAULT_GATE, Metric, ScoreOptions
from scoring.pipeline import score_predictions
from scoring.silhouette import silhouette_metric
from scoring.tables import OUTPUT_FILES, render_text, write_outputs
from spatialbabel.cli import (
    ExitCode,
    MissingStage,
    add_audit_arguments,
    audit_usage_problem,
    default_workers,
    run_audit_step,
    stage_hook,
)
from spatialbabel.cli import report_problems as shared_report_problems
from spatialbabel.run.executor import (
    UnitFailed,
    add_executor_arguments,
    executor_options,
    open_executor,
)
from spatialbabel.stats import DEFAULT_RESAMPLES

HELP = "score model replies against a split: Reconstruct Score tables with bootstrap CIs"

#: Problems of one kind printed before the rest are only counted (all are in scores.json).
SHOWN_PER_KIND: Final = 20


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--split", type=Path, required=True, help="split folder (scenes/, subsets.json)"
    )
    parser.add_argument(
        "--predictions",
        type=Path,
        required=True,
        help="JSONL of {scene_id, model, language, mode, output} (what `spatialbabel run` writes)",
    )
    parser.add_argument(
        "--batch-output",
        action="store_true",
        help="the predictions file is the output of an OpenAI batch run or `vllm run-batch` of `spatialbabel prompts --task reconstruct`",
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="folder for scores.json, CSV, Markdown, LaTeX"
    )
    parser.add_argument(
        "--subset", choices=SUBSETS, default="eval", help="scenes to score (default: eval)"
    )
    parser.add_argument(
        "--failed-as-zero",
        action="store_true",
        help="a failed parse scores 0 on every component, not only parse and F1",
    )
    parser.add_argument(
        "--gate",
        type=float,
        default=DEFAULT_GATE,
        help=f"distance gate of the stricter F1, scene units (default {DEFAULT_GATE})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument(
        "--resamples",
        type=int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="any bad line, unknown scene or language, duplicate or missing reply is fatal (exit 3)",
    )
    parser.add_argument(
        "--silhouette",
        action="store_true",
        help="add the silhouette-IoU column (needs the render stage)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that parse and score replies (default: CPUs, at most 8; on Ray, "
        "the cluster's CPUs)",
    )
    add_executor_arguments(parser)
    add_audit_arguments(parser)


def report_problems(
    problems: tuple[InputProblem, ...], source: Path, *, limit: int = SHOWN_PER_KIND
) -> None:
    shared_report_problems("score", problems, source, listed_in="scores.json", limit=limit)


def run(args: argparse.Namespace) -> int:
    if args.gate <= 0:
        print(f"spatialbabel score: --gate must be positive, got {args.gate}", file=sys.stderr)
        return ExitCode.USAGE
    if args.resamples < 1:
        print(
            f"spatialbabel score: --resamples must be at least 1, got {args.resamples}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    try:
        options = executor_options(args)
    except ValueError as error:
        print(f"spatialbabel score: {error}", file=sys.stderr)
        return ExitCode.USAGE
    problem = audit_usage_problem(args)
    if problem is not None:
        print(f"spatialbabel score: {problem}", file=sys.stderr)
        return ExitCode.USAGE
    extra: list[Metric] = []
    if args.silhouette:
        try:
            extra.append(silhouette_metric(args.split, stage_hook("silhouette_iou")))
        except MissingStage as error:
            print(f"spatialbabel score: {error}", file=sys.stderr)
            return ExitCode.MISSING_DEPENDENCY
    # FileFormatError (a broken split, an unreadable predictions file) reaches the CLI: exit 3.
    split = load_truth(args.split, args.subset)
    predictions = read_predictions(args.predictions, split, batch=args.batch_output)
    report_problems(predictions.problems, args.predictions)
    if predictions.other_tasks:
        print(
            f"spatialbabel score: {len(predictions.other_tasks)} line(s) of {args.predictions} answer another task (QA or a suite); left to its scorer",
            file=sys.stderr,
        )
    if args.strict and predictions.problems:
        print(
            f"spatialbabel score: --strict: {len(predictions.problems)} input problems; nothing written",
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    try:
        with open_executor(options, default_workers=default_workers()) as executor:
            result = score_predictions(
                split,
                predictions,
                options=ScoreOptions(failed_as_zero=args.failed_as_zero, gate=args.gate),
                seed=args.seed,
                resamples=args.resamples,
                extra_metrics=extra,
                executor=executor,
            )
    except UnitFailed as error:
        print(f"spatialbabel score: {error}; nothing written", file=sys.stderr)
        return ExitCode.PROBLEMS
    try:
        write_outputs(result, args.out)
    except OSError as error:
        print(
            f"spatialbabel score: cannot write into {args.out}: {error.strerror}", file=sys.stderr
        )
        return ExitCode.BAD_INPUT
    print(render_text(result))
    print(f"\nwritten to {args.out}/: {', '.join(OUTPUT_FILES)}")
    if args.audit:
        # The replies the scorer read (batch output unwrapped, the subset's scenes only).
        replies = [(item.line, item.output) for item in predictions.outputs]
        status = run_audit_step("score", args, replies, args.out, predictions=str(args.predictions))
        if status != ExitCode.OK:
            return status
    return ExitCode.PROBLEMS if predictions.problems else ExitCode.OK
