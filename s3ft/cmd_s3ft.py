"""``spatialbabel s3ft``: self-supervised fine-tuning data from a model's own reconstructions.

``s3ft build`` turns a model's replies to the ``phase1`` Three.js prompts into training
records in three formats; ``s3ft stats`` prints (and draws) what a build found.

Exit codes of ``build``: 0 built; 1 built, but some input lines had problems (each reported
with its line number, all in stats.json); 3 an unreadable split or replies file, a foreign
``--out``, or any input problem under ``--strict`` (then nothing is written); 4 the ``s3ft``
extra (datasets) is missing for the Hugging Face output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode, default_workers, report_problems
from spatialbabel.run.executor import (
    UnitFailed,
    add_executor_arguments,
    executor_options,
    open_executor,
)

HELP = "S3-FT: build fine-tuning data from a model's own phase1 Three.js replies, and its stats"


def _formats(text: str) -> tuple[str, ...]:
    from s3ft.build import FORMATS

    names = tuple(n for n in text.replace(",", " ").split() if n)
    unknown = [n for n in names if n not in FORMATS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown format {unknown[0] if unknown else text!r}; known: {', '.join(FORMATS)}"
        )
    return names


def _configure_build(parser: argparse.ArgumentParser) -> None:
    from s3ft.build import FORMATS
    from s3ft.replies import FORMATS as REPLY_FORMATS
    from s3ft.replies import PHASE1_MODE
    from s3ft.splitting import DEFAULT_SEED, DEFAULT_VAL_FRACTION
    from spatialbabel.run.batch import DEFAULT_RECONSTRUCT_MODE

    parser.add_argument(
        "--split", type=Path, required=True, help="the split (scenes/, images/, subsets.json)"
    )
    parser.add_argument(
        "--replies",
        type=Path,
        required=True,
        help="the model's replies to the phase1 scenes' Three.js prompts (prompts --task "
        "s3ft-phase1): predictions JSONL or an OpenAI batch output file",
    )
    parser.add_argument("--out", type=Path, required=True, help="folder for the training data")
    parser.add_argument(
        "--replies-format",
        choices=("auto", *REPLY_FORMATS),
        default="auto",
        help="how --replies is laid out (default: told from its first line)",
    )
    parser.add_argument(
        "--model", default=None, help="the model to learn from, when the file holds several"
    )
    parser.add_argument(
        "--mode",
        default=None,
        help=f"the mode whose replies are used (default: {PHASE1_MODE}, the replies to the phase-1 "
        f"prompt, where the file has any; else {DEFAULT_RECONSTRUCT_MODE}, the reconstruction prompt's)",
    )
    parser.add_argument(
        "--cross-view",
        action="store_true",
        help="copy every view-invariant record onto each other view's image (splits made with --views)",
    )
    parser.add_argument(
        "--no-nl",
        action="store_true",
        help="structured tasks only: no QA pairs, description or prompt paraphrases (the ablation)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help="seed of the train/val split and of the questions (default %(default)s)",
    )
    parser.add_argument(
        "--val-fraction",
        type=float,
        default=DEFAULT_VAL_FRACTION,
        help="share of the phase1 scenes held out for validation (default %(default)s)",
    )
    parser.add_argument(
        "--formats",
        type=_formats,
        default=FORMATS,
        help="outputs to write, of openai, messages, hf (default: all three)",
    )
    parser.add_argument(
        "--image-base-url",
        default=None,
        metavar="URL",
        help="in the OpenAI files, point at URL/images/<name>.png instead of embedding base64 data URLs",
    )
    parser.add_argument(
        "--absolute-image-paths",
        action="store_true",
        help="absolute image paths in the messages files (default: relative to --out)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that parse replies and make records (default: CPUs, at most 8; on "
        "Ray, the cluster's CPUs)",
    )
    add_executor_arguments(parser)
    parser.add_argument(
        "--strict",
        action="store_true",
        help="any bad line, unknown or non-phase1 scene, other language or duplicate is fatal (exit 3)",
    )


def _configure_stats(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "builds", type=Path, nargs="+", metavar="DIR", help="folders written by s3ft build"
    )
    parser.add_argument(
        "--html",
        type=Path,
        default=None,
        metavar="DIR",
        help="also write s3ft.html and its charts into DIR (needs the render extra)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="s3ft_verb", metavar="VERB", required=True)
    _configure_build(
        verbs.add_parser(
            "build",
            help="build the training data",
            description="Filter and parse the replies into pseudo-ground truth, make the "
            "records, write them as OpenAI chat JSONL, messages+images JSONL and a datasets folder.",
        )
    )
    _configure_stats(
        verbs.add_parser(
            "stats",
            help="print the statistics of one or more builds",
            description="Pass rate and rejections, coverage, the pseudo-ground truth's "
            "Reconstruct Score and F1, records per task and view.",
        )
    )


def _run_build(args: argparse.Namespace) -> int:
    from s3ft.build import BuildError, BuildOptions, build
    from s3ft.replies import ModelChoiceError
    from s3ft.stats import format_summary

    try:
        running = executor_options(args)
    except ValueError as error:
        print(f"spatialbabel s3ft build: {error}", file=sys.stderr)
        return ExitCode.USAGE
    if not 0.0 <= args.val_fraction < 1.0:
        print("spatialbabel s3ft build: --val-fraction must lie in [0, 1)", file=sys.stderr)
        return ExitCode.USAGE
    options = BuildOptions(
        cross_view=args.cross_view,
        natural_language=not args.no_nl,
        seed=args.seed,
        val_fraction=args.val_fraction,
        formats=tuple(args.formats),
        image_base_url=args.image_base_url,
        absolute_paths=args.absolute_image_paths,
        workers=running.workers or default_workers(),
    )
    try:
        with open_executor(running, default_workers=default_workers()) as executor:
            result = build(
                args.split,
                args.replies,
                args.out,
                options=options,
                model=args.model,
                mode=args.mode,
                reply_format=None if args.replies_format == "auto" else args.replies_format,
                strict=args.strict,
                executor=executor,
            )
    except UnitFailed as error:
        print(f"spatialbabel s3ft build: {error}; nothing written", file=sys.stderr)
        return ExitCode.PROBLEMS
    except ModelChoiceError as error:
        print(f"spatialbabel s3ft build: {error}", file=sys.stderr)
        return ExitCode.USAGE
    except BuildError as error:
        print(f"spatialbabel s3ft build: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    problems = result.replies.problems
    report_problems("s3ft build", problems, args.replies, listed_in="stats.json")
    if args.strict and problems:
        print(
            f"spatialbabel s3ft build: --strict: {len(problems)} input problems; nothing written",
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    print(format_summary(result.stats))
    print(
        f"\nwritten to {args.out}/ in {result.stats['seconds']:.1f} s: {', '.join(sorted({p.name for p in result.written}))}"
    )
    return ExitCode.PROBLEMS if problems else ExitCode.OK


def _run_stats(args: argparse.Namespace) -> int:
    from s3ft.build import STATS_FILE
    from s3ft.stats import KIND, format_tables
    from spatialbabel.files import FileFormatError, read_json

    stats_list = []
    for folder in args.builds:
        stats = read_json(folder / STATS_FILE)
        if stats.get("kind") != KIND:
            raise FileFormatError(
                folder / STATS_FILE, f"kind: expected {KIND!r}, got {stats.get('kind')!r}"
            )
        stats_list.append(stats)
    print(format_tables(stats_list))
    if args.html is not None:
        from s3ft.report import write_report

        page = write_report(stats_list, args.html)
        print(f"\nwritten {page}")
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    if args.s3ft_verb == "build":
        return _run_build(args)
    return _run_stats(args)
