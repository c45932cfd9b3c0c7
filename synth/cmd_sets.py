"""What ``generate`` and ``clips`` share on the command line: the flags of a resumable set of
Blender work units (how many, seed, folder, workers, executor) and making it
(``synth.unit_set.UnitSet``) with the same errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from spatialbabel.cli import ExitCode
from spatialbabel.run.executor import (
    UnitFailed,
    add_executor_arguments,
    executor_options,
    open_executor,
)

if TYPE_CHECKING:
    from synth.unit_set import UnitSet

P = TypeVar("P")


def add_set_arguments(parser: argparse.ArgumentParser, *, unit: str, seed: int) -> None:
    """``--n``, ``--seed``, ``--out`` and ``--workers`` of a set of ``unit``s ("scene")."""
    kind = "split" if unit == "scene" else f"{unit} set"
    parser.add_argument("--n", type=int, required=True, help=f"number of {unit}s")
    parser.add_argument(
        "--seed", type=int, default=seed, help=f"seed of the {kind} (default %(default)s)"
    )
    parser.add_argument(
        "--out", type=Path, required=True, help=f"folder of the {kind}; a rerun finishes it"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Blender workers (default: 1 locally; on Ray, one per CPU of the cluster)",
    )


def add_progress_and_executor(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_executor_arguments(parser)


def run_set(
    command: str,
    args: argparse.Namespace,
    params: Callable[[], P],
    make: Callable[[P, int], UnitSet[P]],
) -> dict[str, Any] | int:
    """The set ``make(params(), workers)`` made (or finished) on the executor of ``args``: its
    manifest, or the exit code of its failure, reported."""
    from synth.unit import GenerationError

    try:
        parameters = params()
        options = executor_options(args)
        unit_set = make(parameters, options.workers or 1)
    except ValueError as error:
        print(f"spatialbabel {command}: {error}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        with open_executor(options, default_workers=unit_set.workers) as executor:
            return unit_set.generate(progress=not args.no_progress, executor=executor)
    except GenerationError as error:
        print(f"spatialbabel {command}: {error}", file=sys.stderr)
        return ExitCode.PROBLEMS
    except UnitFailed as error:
        print(
            f"spatialbabel {command}: {error}; the finished {unit_set.kind.label}s are kept: "
            "rerun the same command to resume",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS


__all__ = ["add_progress_and_executor", "add_set_arguments", "run_set"]
