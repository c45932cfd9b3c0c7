"""``spatialbabel generate``: a tiered split of primitive scenes rendered with Blender."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.executor import (
    UnitFailed,
    add_executor_arguments,
    executor_options,
    open_executor,
)
from synth.config import SceneParameters
from synth.tiers import TIER_NAMES, parse_tiers

HELP = "generate a split of Blender-rendered primitive scenes with exact ground truth"


def _tiers(text: str) -> tuple[str, ...]:
    try:
        return parse_tiers([t for t in text.replace(",", " ").split() if t])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    defaults = SceneParameters()
    parser.add_argument("--n", type=int, required=True, help="number of scenes")
    parser.add_argument(
        "--seed", type=int, default=defaults.seed, help="seed of the split (default %(default)s)"
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="folder of the split; a rerun finishes it"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Blender workers (default: 1 locally; on Ray, one per CPU of the cluster)",
    )
    parser.add_argument(
        "--views",
        type=int,
        default=defaults.views,
        help="cameras per scene, the frontal one first (default %(default)s)",
    )
    parser.add_argument(
        "--engine",
        choices=("workbench", "cycles"),
        default=defaults.engine,
        help="renderer of the images (default %(default)s); ID passes always use Workbench",
    )
    parser.add_argument(
        "--resolution",
        type=int,
        default=defaults.resolution,
        help="square image size in pixels (default %(default)s)",
    )
    parser.add_argument(
        "--min-visible-fraction",
        type=float,
        default=defaults.min_visible_fraction,
        help="least visible share of each object's projected area (default %(default)s)",
    )
    parser.add_argument(
        "--min-visible-pixels",
        type=int,
        default=defaults.min_visible_pixels,
        help="least visible pixels of each object (default %(default)s)",
    )
    parser.add_argument(
        "--eval-size", type=int, default=101, help="scenes in the eval subset (default %(default)s)"
    )
    parser.add_argument(
        "--phase1-size",
        type=int,
        default=467,
        help="scenes in the phase1 subset (default %(default)s)",
    )
    parser.add_argument(
        "--tiers",
        type=_tiers,
        default=TIER_NAMES,
        help=f"tiers in turn, e.g. T1,T3 (default {','.join(TIER_NAMES)})",
    )
    parser.add_argument(
        "--max-tries",
        type=int,
        default=defaults.max_tries,
        help="layouts tried per scene before giving up (default %(default)s)",
    )
    parser.add_argument(
        "--stack-prob",
        type=float,
        default=defaults.stack_prob,
        metavar="P",
        help="chance that an object rests on a cube or an upright cylinder instead of the "
        "ground; 0 stacks nothing (default %(default)s)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_executor_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from synth.split import SplitRequest, generate_split
    from synth.unit import GenerationError

    try:
        params = SceneParameters(
            seed=args.seed,
            views=args.views,
            engine=args.engine,
            resolution=args.resolution,
            min_visible_fraction=args.min_visible_fraction,
            min_visible_pixels=args.min_visible_pixels,
            tiers=tuple(args.tiers),
            max_tries=args.max_tries,
            stack_prob=args.stack_prob,
        )
        options = executor_options(args)
        request = SplitRequest(
            args.out, args.n, params, options.workers or 1, args.eval_size, args.phase1_size
        )
    except ValueError as error:
        print(f"spatialbabel generate: {error}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        with open_executor(options, default_workers=request.workers) as executor:
            manifest = generate_split(request, progress=not args.no_progress, executor=executor)
    except GenerationError as error:
        print(f"spatialbabel generate: {error}", file=sys.stderr)
        return ExitCode.PROBLEMS
    except UnitFailed as error:
        print(
            f"spatialbabel generate: {error}; the finished scenes are kept: rerun the same "
            "command to resume",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS
    counts = manifest["counts"]
    print(
        f"{args.out}: {counts['scenes']} scenes, {counts['objects']} objects, "
        f"{counts['questions']} questions, {len(manifest['files'])} files in the manifest"
    )
    return ExitCode.OK
