"""``spatialbabel generate``: a tiered split of primitive scenes rendered with Blender."""

from __future__ import annotations

import argparse

from spatialbabel.cli import ExitCode
from synth.cmd_sets import add_progress_and_executor, add_set_arguments, run_set
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
    add_set_arguments(parser, unit="scene", seed=defaults.seed)
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
    add_progress_and_executor(parser)


def run(args: argparse.Namespace) -> int:
    from synth.split import split_set

    manifest = run_set(
        "generate",
        args,
        lambda: SceneParameters(
            seed=args.seed,
            views=args.views,
            engine=args.engine,
            resolution=args.resolution,
            min_visible_fraction=args.min_visible_fraction,
            min_visible_pixels=args.min_visible_pixels,
            tiers=tuple(args.tiers),
            max_tries=args.max_tries,
            stack_prob=args.stack_prob,
        ),
        lambda params, workers: split_set(
            args.out, args.n, params, workers, args.eval_size, args.phase1_size
        ),
    )
    if isinstance(manifest, int):
        return manifest
    counts = manifest["counts"]
    print(
        f"{args.out}: {counts['scenes']} scenes, {counts['objects']} objects, "
        f"{counts['questions']} questions, {len(manifest['files'])} files in the manifest"
    )
    return ExitCode.OK
