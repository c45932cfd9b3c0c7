"""``spatialbabel suite build|prompts|score --suite NAME``: the question suites' one command.

``build`` turns a split into an items folder, ``prompts`` writes the items as an OpenAI batch
request file, ``score`` grades a file of answers (or a batch output file) into a table with
the suite's baselines beside the models. ``list`` names the registered suites.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.files import atomic_write_chunks
from spatialbabel.run.batch import add_decoding_arguments, decoding_problem
from spatialbabel.run.executor import add_executor_arguments
from suites import SUITES, load_suite
from suites.base import Suite, SuiteError
from suites.options import add_option_flags, recorded_options

HELP = "Question suites over generated splits (SpaceCast, SpatialMind, ProVisE): build, prompts, score."
ACTIONS = ("build", "prompts", "score", "list")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=ACTIONS, help="what to do")
    parser.add_argument(
        "--suite", metavar="NAME", help=f"the suite ({', '.join(SUITES.names()) or 'none yet'})"
    )
    common = parser.add_argument_group("build")
    common.add_argument("--split", type=Path, metavar="DIR", help="the split to build items from")
    common.add_argument(
        "--out",
        type=Path,
        metavar="PATH",
        help="build: the items folder; prompts: the request file; score: the scores folder",
    )
    asking = parser.add_argument_group("prompts and score")
    asking.add_argument("--items", type=Path, metavar="DIR", help="a built items folder")
    asking.add_argument(
        "--variants",
        nargs="+",
        metavar="VARIANT",
        help="prompts: the variants to write (default: the suite's first)",
    )
    asking.add_argument("--model", default="gpt-4o", help="prompts: the model named in requests")
    add_decoding_arguments(
        asking, max_tokens_help="prompts: override the suite's token budget of every request"
    )
    asking.add_argument(
        "--answers",
        type=Path,
        metavar="FILE",
        help="score: JSONL answers {item_id, model, variant, output[, image]}",
    )
    asking.add_argument(
        "--batch-output",
        action="store_true",
        help="score: --answers is the output file of a batch run of the prompts",
    )
    # Where a suite's own work units run (SpaceCast's view rendering).
    add_executor_arguments(common)
    for name in SUITES.names():
        suite = load_suite(name)
        group = parser.add_argument_group(f"build, --suite {name}")
        add_option_flags(group, suite.options_type, suite.name)


class _UsageError(Exception):
    """A flag the action needs is missing (exit code 2, as argparse's own errors)."""


def _need(args: argparse.Namespace, *names: str) -> None:
    missing = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is None]
    if missing:
        raise _UsageError(f"{args.action} needs {', '.join(missing)}")


def _build(args: argparse.Namespace, suite: Suite) -> int:
    from suites.items import write_items

    _need(args, "split", "out")
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    options = suite.options_from(args)
    built = write_items(
        args.out,
        suite,
        suite.build(args.split, args.out, options),
        split=args.split,
        options=recorded_options(options, suite.name),
    )
    seconds = time.perf_counter() - start
    print(f"{len(built.items)} {suite.name} items in {args.out} ({seconds:.1f} s)")
    for task, count in built.manifest["tasks"].items():
        print(f"  {task}: {count}")
    summary = suite.summary(built.items)
    if summary:
        print(summary, end="")
    return ExitCode.OK


def _prompts(args: argparse.Namespace, suite: Suite) -> int:
    import json

    from suites.items import read_items
    from suites.prompts import requests

    _need(args, "items", "out")
    problem = decoding_problem(args.max_tokens, args.temperature, args.top_p)
    if problem is not None:
        print(f"spatialbabel suite: --{problem.replace('_', '-')}", file=sys.stderr)
        return ExitCode.USAGE
    items = read_items(args.items, suite)
    suite.prepare(items.folder, items.items)
    variants = args.variants or [suite.variants[0]]
    lines = requests(
        suite,
        items,
        variants,
        model=args.model,
        max_tokens=args.max_tokens,
        temperature=args.temperature,
        top_p=args.top_p,
    )
    written = 0

    def encoded() -> Iterator[bytes]:
        nonlocal written
        for line in lines:
            written += 1
            yield json.dumps(line, ensure_ascii=False).encode() + b"\n"

    atomic_write_chunks(args.out, encoded())
    # A variant may leave items out (``Suite.asks``), so the count is of what was written.
    print(f"{written} requests in {args.out}")
    return ExitCode.OK


def _score(args: argparse.Namespace, suite: Suite) -> int:
    from suites.answers import print_problems, read_replies, with_missing
    from suites.grading import aggregate, grade_all, markdown_table, write_scores
    from suites.items import read_items

    _need(args, "items", "answers", "out")
    items = read_items(args.items, suite)
    by_id = items.by_id()
    replies, problems = read_replies(args.answers, suite, by_id, batch=args.batch_output)
    graded = grade_all(suite, items, with_missing(replies, by_id, suite))
    rows = aggregate(suite, graded)
    args.out.mkdir(parents=True, exist_ok=True)
    write_scores(args.out, suite, items, graded, rows, problems, answers=args.answers)
    print(markdown_table(suite, rows), end="")
    if print_problems(args.answers, problems, left="could not be graded"):
        return ExitCode.PROBLEMS
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        for name in SUITES.names():
            suite = load_suite(name)
            print(f"{name} (version {suite.version}): {', '.join(suite.tasks)}")
        return ExitCode.OK
    if args.suite is None:
        print(f"spatialbabel suite {args.action}: --suite is required", file=sys.stderr)
        return ExitCode.USAGE
    suite = load_suite(args.suite)
    try:
        action = {"build": _build, "prompts": _prompts, "score": _score}[args.action]
        return action(args, suite)
    except _UsageError as error:
        print(f"spatialbabel suite: {error}", file=sys.stderr)
        return ExitCode.USAGE
    except SuiteError:
        raise
    except ValueError as error:
        # A suite's own checks of a split or an option, as the CLI reports bad input.
        raise SuiteError(str(error)) from None
