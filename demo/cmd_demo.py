"""``spatialbabel demo``: the main job on a small built-in default.

Generates a six-scene split with Blender (one or two scenes of every tier), scores the bundled
replies of three mock models in all six languages against it (parsing every reply; one model
answers in both reconstruction modes, direct and nl_cot), prints the tables with the mode
difference and the replies cut at the token limit, has the same mock models answer the split's
questions (direct, NL-CoT, Code-CoT in each one's best and worst language, graded by the
project's reader and the paper's: ``demo.qa_replies``), builds S3-FT training data from a mock base
model's bundled replies to a second, small ``phase1`` split (four views per scene): it writes
S3-FT's phase-1 prompts of that split, which the bundled replies answer, and builds from them;
and builds the HTML report. Each step is the matching subcommand, run as a user would.
"""

from __future__ import annotations

import argparse
import importlib.util
from importlib import resources
from pathlib import Path
from typing import Final

from spatialbabel.cli import ExitCode

HELP = "run the whole pipeline on a small built-in default: generate, parse, score, report"

#: The split the bundled replies answer (demo/data/demo_replies.jsonl).
DEMO_SCENES: Final = 6
DEMO_SEED: Final = 0
#: The S3-FT step's own split: its phase1 scenes are what the bundled phase1 replies
#: (demo/data/demo_s3ft_replies.jsonl, ``python -m s3ft.demo_replies``) answer.
S3FT_SCENES: Final = 16
S3FT_SEED: Final = 1
S3FT_EVAL: Final = 2
S3FT_VIEWS: Final = 4
STEPS: Final = 5


def bundled_replies() -> Path:
    return Path(str(resources.files("demo").joinpath("data", "demo_replies.jsonl")))


def bundled_s3ft_replies() -> Path:
    return Path(str(resources.files("demo").joinpath("data", "demo_s3ft_replies.jsonl")))


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
    parser.add_argument("--no-s3ft", action="store_true", help="skip the S3-FT step")
    parser.add_argument("--no-qa", action="store_true", help="skip the QA step (demo.qa_replies)")
    parser.add_argument(
        "--via-server",
        action="store_true",
        help="take the replies the long way: prompts, a local OpenAI-compatible stub server serving them, spatialbabel run (needs the run extra)",
    )


def _step(number: int, text: str) -> None:
    print(f"\n== {number}/{STEPS} {text}", flush=True)


def s3ft_step(out: Path, workers: int) -> int:
    """Generate the phase1 split, write its phase-1 prompts (the requests the bundled mock base
    model's replies answer), build the S3-FT data from those replies (all three formats where
    the s3ft extra is installed), print its statistics."""
    from spatialbabel.cli import main

    split, data = out / "split", out / "data"
    status = main(
        ["generate", "--n", str(S3FT_SCENES), "--seed", str(S3FT_SEED), "--out", str(split)]
        + ["--workers", str(workers), "--views", str(S3FT_VIEWS), "--no-progress"]
        + ["--eval-size", str(S3FT_EVAL), "--phase1-size", str(S3FT_SCENES - S3FT_EVAL)]
    )
    if status != ExitCode.OK:
        return status
    status = main(
        ["prompts", "--split", str(split), "--task", "s3ft-phase1"]
        + ["--out", str(out / "phase1_requests.jsonl")]
    )
    if status != ExitCode.OK:
        return status
    formats = "openai,messages,hf"
    if importlib.util.find_spec("datasets") is None:
        formats = "openai,messages"
        print("the datasets output needs the s3ft extra: pip install 'spatialbabel[s3ft]'")
    status = main(
        ["s3ft", "build", "--split", str(split), "--replies", str(bundled_s3ft_replies())]
        + ["--out", str(data), "--cross-view", "--formats", formats, "--workers", str(workers)]
    )
    if status != ExitCode.OK:
        return status
    html = ["--html", str(out)] if importlib.util.find_spec("matplotlib") is not None else []
    return main(["s3ft", "stats", str(data), *html])


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
    if args.via_server:
        from runner.demo_route import replies_via_server

        print(f"\n== 1b running the replies in {replies} through a local server", flush=True)
        status, replies = replies_via_server(split, replies, args.out)
        if status != ExitCode.OK:
            return status
    _step(2, f"parsing and scoring the replies in {replies}")
    status = main(
        ["score", "--split", str(split), "--predictions", str(replies), "--out", str(scores)]
        + (["--silhouette"] if renderer else [])
    )
    if status not in (ExitCode.OK, ExitCode.PROBLEMS):
        return status
    if not args.no_qa:
        from demo.qa_replies import qa_step

        _step(3, "QA: direct, NL-CoT and Code-CoT in each model's best and worst language")
        status = qa_step(args.out / "qa", split, scores)
        if status != ExitCode.OK:
            return status
    if not args.no_s3ft:
        _step(
            4, "S3-FT: a phase1 split with 4 views, training data from a mock model's own replies"
        )
        status = s3ft_step(args.out / "s3ft", args.workers)
        if status != ExitCode.OK:
            return status
    if args.no_report:
        return ExitCode.OK
    if not renderer:
        print("\nthe report needs the render extra: pip install 'spatialbabel[render]'")
        return ExitCode.OK
    _step(5, f"building the report in {report}")
    status = main(["report", str(scores), "--out", str(report)])
    if status in (ExitCode.OK, ExitCode.PROBLEMS):
        print(f"\nopen {report / 'index.html'} in a browser")
    return status
