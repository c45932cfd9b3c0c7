"""What ``generate`` and ``clips`` share on the command line: the flags of a resumable set of
Blender work units (how many, seed, folder, workers, executor) and running it with the same
errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spatialbabel.cli import ExitCode
from spatialbabel.executor import (
    Executor,
    ExecutorOptions,
    UnitFailed,
    add_executor_arguments,
    open_executor,
)


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
    unit: str,
    options: ExecutorOptions,
    workers: int,
    make: Callable[[Executor], dict[str, Any]],
) -> dict[str, Any] | int:
    """``make(executor)``: the set's manifest, or the exit code of its failure, reported."""
    from synth.unit import GenerationError

    try:
        with open_executor(options, default_workers=workers) as executor:
            return make(executor)
    except GenerationError as error:
        print(f"spatialbabel {command}: {error}", file=sys.stderr)
        return ExitCode.PROBLEMS
    except UnitFailed as error:
        print(
            f"spatialbabel {command}: {error}; the finished {unit}s are kept: rerun the same "
            "command to resume",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS


__all__ = ["add_progress_and_executor", "add_set_arguments", "run_set"]
