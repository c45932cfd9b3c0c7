"""The ``spatialbabel`` command: one subcommand per stage, loaded only when used.

Each subcommand lives in its stage as a module with ``HELP``, ``configure(parser)`` and
``run(args) -> int``; importing it must not import bpy or pyrender, so ``--help`` works on the
plain install. Exit codes are documented in docs/cli.md and held in ``ExitCode``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from enum import IntEnum
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Protocol, cast

from spatialbabel import __version__
from spatialbabel.errors import SpatialBabelError


def default_workers() -> int:
    """Worker processes a command uses unless told: one per CPU, at most 8."""
    return max(1, min(8, os.cpu_count() or 1))


class ExitCode(IntEnum):
    OK = 0
    #: The command ran and found problems: failed parses, a split that does not verify.
    PROBLEMS = 1
    #: Bad command line (argparse's own code).
    USAGE = 2
    #: An input file could not be read or broke its format.
    BAD_INPUT = 3
    #: An optional part is not installed (``pip install spatialbabel[synth]`` and so on).
    MISSING_DEPENDENCY = 4
    INTERRUPTED = 130


#: Subcommand name -> module implementing it.
COMMANDS: Final[dict[str, str]] = {
    "demo": "demo.cmd_demo",
    "generate": "synth.cmd_generate",
    "verify": "synth.cmd_verify",
    "clips": "synth.cmd_clips",
    "parse": "parsers.cmd_parse",
    "score": "scoring.cmd_score",
    "compare": "scoring.cmd_compare",
    "prompts": "synth.cmd_prompts",
    "score-qa": "suites.qa.cmd_score_qa",
    "render": "render.cmd_render",
    "report": "render.cmd_report",
    "suite": "suites.cmd_suite",
    "s3ft": "s3ft.cmd_s3ft",
    "run": "runner.cmd_run",
    "import": "importers.cmd_import",
    "domains": "scoring.cmd_domains",
    "correlate": "scoring.cmd_correlate",
    "export": "harnesses.cmd_export",
}


class InputProblem(Protocol):
    """A bad input line as the commands report it (``scoring.inputs``, ``s3ft.replies``)."""

    @property
    def kind(self) -> str: ...

    def describe(self, source: str | Path) -> str: ...


def report_problems(
    command: str,
    problems: Sequence[InputProblem],
    source: Path,
    *,
    listed_in: str,
    limit: int = 20,
) -> None:
    """Each problem on stderr with its file and line, at most ``limit`` of each kind (the rest
    are counted, and all are in ``listed_in``)."""
    by_kind: dict[str, list[InputProblem]] = {}
    for problem in problems:
        by_kind.setdefault(problem.kind, []).append(problem)
    for kind, items in by_kind.items():
        for problem in items[:limit]:
            print(f"spatialbabel {command}: {problem.describe(source)}", file=sys.stderr)
        if len(items) > limit:
            print(
                f"spatialbabel {command}: ... and {len(items) - limit} more {kind} problems (all in {listed_in})",
                file=sys.stderr,
            )


#: What one stage offers another, handed over by the CLI so that neither names the other:
#: hook name -> (module, attribute, extra that installs it).
STAGE_HOOKS: Final[dict[str, tuple[str, str, str]]] = {
    # ``silhouette_iou(predicted, truth, split_dir) -> float``, the ``score --silhouette`` column.
    "silhouette_iou": ("render", "silhouette_iou", "render"),
    # ``run_audit(replies, out, per_cell=, seed=, ...) -> AuditReport``, ``--audit N`` of score
    # and parse (docs/audit.md); its engines come with the engines extra.
    "engine_audit": ("audit.pipeline", "run_audit", "engines"),
}


class MissingStage(SpatialBabelError):
    """A stage hook cannot be had in this installation; the message says what to install."""


def stage_hook(name: str) -> Callable[..., Any]:
    """The function registered as hook ``name`` (``STAGE_HOOKS``), imported now; raises
    ``MissingStage`` saying what to install when its stage is not there."""
    module_name, attribute, extra = STAGE_HOOKS[name]
    where = f"{module_name}.{attribute}"
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise MissingStage(
            f"{where} cannot be imported ({error}); "
            f"install it with: pip install 'spatialbabel[{extra}]'"
        ) from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise MissingStage(f"this installation's {module_name} stage has no {where}")
    return cast("Callable[..., Any]", function)


# --- the engine audit, shared by score and parse ------------------------------------------------


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    """``--audit N`` and its settings (docs/audit.md)."""
    from spatialbabel.audit_file import AUDIT_MEMORY_MB, AUDIT_SECONDS

    group = parser.add_argument_group("engine audit (docs/audit.md)")
    group.add_argument(
        "--audit",
        type=int,
        default=0,
        metavar="N",
        help="also run N replies per model and language (drawn with --audit-seed) in their real "
        "engines, in a sandbox, and report how far the static parse agrees with what each engine "
        "built: audit.json and audit.md. Needs the engines extra (pip install "
        "'spatialbabel[engines]'), bubblewrap, and node with the three npm package for three.js; "
        "a language whose engine is missing is skipped and named (default 0: no audit)",
    )
    group.add_argument(
        "--audit-seed", type=int, default=0, help="seed of the audit's draw (default 0)"
    )
    group.add_argument(
        "--audit-timeout",
        type=float,
        default=AUDIT_SECONDS,
        metavar="SECONDS",
        help=f"wall-clock and CPU limit of one reply in its engine (default {AUDIT_SECONDS:g})",
    )
    group.add_argument(
        "--audit-memory",
        type=int,
        default=AUDIT_MEMORY_MB,
        metavar="MB",
        help=f"address-space limit of one reply's engine process (default {AUDIT_MEMORY_MB})",
    )


def audit_usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the audit's arguments, if anything."""
    if args.audit < 0:
        return f"--audit must be 0 or more, got {args.audit}"
    if not args.audit_timeout > 0:
        return f"--audit-timeout must be positive, got {args.audit_timeout}"
    if args.audit_memory < 512:
        return f"--audit-memory must be at least 512 (MB), got {args.audit_memory}"
    return None


def run_audit_step(
    command: str,
    args: argparse.Namespace,
    source: Path | Sequence[tuple[int | None, Any]],
    out: Path,
    *,
    predictions: str,
    stream: Any = None,
) -> int:
    """Run the engine audit of ``--audit N`` through the ``engine_audit`` hook, write its files
    into ``out`` and print its table (on ``stream``, default stdout)."""
    try:
        hook = stage_hook("engine_audit")
    except MissingStage as error:
        print(f"spatialbabel {command}: {error}", file=sys.stderr)
        return ExitCode.MISSING_DEPENDENCY
    from spatialbabel.audit_file import AUDIT_FILE, AUDIT_TABLE, audit_text

    try:
        report = hook(
            source,
            out,
            per_cell=args.audit,
            seed=args.audit_seed,
            seconds=args.audit_timeout,
            memory_mb=args.audit_memory,
            predictions=predictions,
        )
    except OSError as error:
        print(
            f"spatialbabel {command}: cannot write the audit into {out}: {error}", file=sys.stderr
        )
        return ExitCode.BAD_INPUT
    target = stream or sys.stdout
    print("\n" + audit_text(report), file=target)
    print(f"\nwritten to {out}/: {AUDIT_FILE}, {AUDIT_TABLE}", file=target)
    return ExitCode.OK


def _load(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name])


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spatialbabel",
        description="Generate primitive scenes, parse scene code in six languages, score reconstructions.",
        epilog="Exit codes: 0 ok, 1 problems found, 2 usage, 3 bad input, 4 missing optional dependency.",
    )
    parser.add_argument("--version", action="version", version=f"spatialbabel {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is not None and name != only:
            subparsers.add_parser(name, add_help=False)
            continue
        module = _load(name)
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    # Only the chosen command's module is imported, so one stage's import cost is not paid by all.
    chosen = next((a for a in arguments if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(arguments)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return ExitCode.USAGE
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except ModuleNotFoundError as error:
        extra = {
            "bpy": "synth",
            "pyrender": "render",
            "matplotlib": "render",
            "open3d": "dev",
            "datasets": "s3ft",
            "pyarrow": "s3ft",
            "openai": "run",
            "imageio_ffmpeg": "clips",
            "h5py": "real",
            "pandas": "real",
            "trimesh": "real",
            "ray": "ray",
            "pyseccomp": "engines",
        }.get((error.name or "").split(".")[0])
        hint = f"; install it with: pip install 'spatialbabel[{extra}]'" if extra else ""
        print(f"spatialbabel {args.command}: {error.name} is not installed{hint}", file=sys.stderr)
        return ExitCode.MISSING_DEPENDENCY
    except SpatialBabelError as error:
        print(f"spatialbabel {args.command}: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
