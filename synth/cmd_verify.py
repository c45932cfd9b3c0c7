"""``spatialbabel verify``: check a split's files against its manifest, and its scenes' stacking
facts."""

from __future__ import annotations

import argparse
from pathlib import Path

from spatialbabel.cli import ExitCode

HELP = (
    "report every missing, extra or corrupt file of a split against its manifest, and every "
    "scene whose stacking facts do not hold"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("split", type=Path, metavar="SPLIT", help="folder of the split")


def run(args: argparse.Namespace) -> int:
    from synth.manifest import verify_split

    problems = verify_split(args.split)
    for problem in problems:
        print(f"{args.split}: {problem}")
    if problems:
        print(f"{args.split}: {len(problems)} problem(s)")
        return ExitCode.PROBLEMS
    print(f"{args.split}: ok")
    return ExitCode.OK
