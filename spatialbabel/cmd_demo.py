"""``spatialbabel demo``: the main job on a small built-in default.

Generates a six-scene split with Blender (one or two scenes of every tier), scores the bundled
replies of three mock models in all six languages against it (parsing every reply; one model
answers in both reconstruction modes, direct and nl_cot), prints the tables with the mode
difference and the replies cut at the token limit, and builds the HTML report. Each step is the matching subcommand, run as a user would.
"""

from __future__ import annotations

import argparse
import importlib.util
from importlib import resources
from pathlib import Path
from typing import Final

from spatialbabel.cli import ExitCode

HELP = "run the whole pipeline on a small built-in default: generate, parse, score, report"

#: The split the bundled replies answer (spatialbabel/data/demo_replies.jsonl).
DEMO_SCENES: Final = 6
DEMO_SEED: Final = 0


def bundled_replies() -> Path:
    return Path(str(resources.files("spatialbabel").joinpath("data", "demo_replies.jsonl")))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("demo_out"),
        help="folder for the split, scores and report (default %(default)s)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="Blender worker processes (default %(default)s)"
    )
    parser.add_argument(
        "--replies",
        type=Path,
        default=None,
        help="model replies to score instead of the bundled ones (JSONL records for the demo split)",
    )
    parser.add_argument("--no-report", action="store_true", help="skip the HTML report")


def _step(number: int, text: str) -> None:
    print(f"\n== {number}/3 {text}", flush=True)


def run(args: argparse.Namespace) -> int:
    from spatialbabel.cli import main

    split, scores, report = args.out / "split", args.out / "scores", args.out / "report"
    replies = args.replies or bundled_replies()
    _step(1, f"generating {DEMO_SCENES} scenes with Blender into {split}")
    status = main(
        [
            "generate",
            "--n",
            str(DEMO_SCENES),
            "--seed",
            str(DEMO_SEED),
            "--out",
            str(split),
            "--workers",
            str(args.workers),
        ]
        + ["--eval-size", str(DEMO_SCENES), "--phase1-size", "0"]
    )
    if status != ExitCode.OK:
        return status
    renderer = importlib.util.find_spec("pyrender") is not None
    _step(2, f"parsing and scoring the replies in {replies}")
    status = main(
        ["score", "--split", str(split), "--predictions", str(replies), "--out", str(scores)]
        + (["--silhouette"] if renderer else [])
    )
    if status not in (ExitCode.OK, ExitCode.PROBLEMS):
        return status
    if args.no_report:
        return ExitCode.OK
    if not renderer:
        print("\nthe report needs the render extra: pip install 'spatialbabel[render]'")
        return ExitCode.OK
    _step(3, f"building the report in {report}")
    status = main(["report", str(scores), "--out", str(report)])
    if status in (ExitCode.OK, ExitCode.PROBLEMS):
        print(f"\nopen {report / 'index.html'} in a browser")
    return status
