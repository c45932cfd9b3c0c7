"""``spatialbabel clips``: a set of moving-scene clips rendered with Blender, with the exact
pose of every object and of the camera in every frame (SpatialMind's input)."""

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
from synth.clip_unit import ClipParameters

HELP = "render a set of moving-scene clips (frames, ID passes, MP4, per-frame ground truth)"


def _range(text: str) -> tuple[int, int]:
    parts = text.replace("..", "-").split("-")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or LOW-HIGH, got {text!r}") from None
    if len(values) == 1:
        return values[0], values[0]
    if len(values) == 2:
        return values[0], values[1]
    raise argparse.ArgumentTypeError(f"expected N or LOW-HIGH, got {text!r}")


def configure(parser: argparse.ArgumentParser) -> None:
    defaults = ClipParameters()
    parser.add_argument("--n", type=int, required=True, help="number of clips")
    parser.add_argument(
        "--seed", type=int, default=defaults.seed, help="seed of the set (default %(default)s)"
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="folder of the clip set; a rerun finishes it"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Blender workers (default: 1 locally; on Ray, one per CPU of the cluster)",
    )
    parser.add_argument(
        "--resolution",
        type=int,
        default=defaults.resolution,
        help="square frames of this many pixels, even (default %(default)s)",
    )
    parser.add_argument(
        "--fps", type=float, default=defaults.fps, help="frames per second (default %(default)s)"
    )
    parser.add_argument(
        "--observed",
        type=_range,
        default=defaults.observed,
        metavar="LOW-HIGH",
        help="frames of the observed prefix, rendered (default 16-40)",
    )
    parser.add_argument(
        "--horizon",
        type=_range,
        default=defaults.horizon,
        metavar="LOW-HIGH",
        help="future frames after it, ground truth only (default 5-20)",
    )
    parser.add_argument(
        "--objects",
        type=_range,
        default=defaults.objects,
        metavar="LOW-HIGH",
        help="primitives per clip (default 3-6)",
    )
    parser.add_argument("--no-video", action="store_true", help="write no MP4 files")
    parser.add_argument(
        "--max-tries",
        type=int,
        default=defaults.max_tries,
        help="motions drawn per clip before giving up (default %(default)s)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_executor_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from synth.clips import ClipSetRequest, generate_clips
    from synth.unit import GenerationError

    try:
        params = ClipParameters(
            seed=args.seed,
            resolution=args.resolution,
            fps=args.fps,
            observed=args.observed,
            horizon=args.horizon,
            objects=args.objects,
            video=not args.no_video,
            max_tries=args.max_tries,
        )
        options = executor_options(args)
        request = ClipSetRequest(args.out, args.n, params, options.workers or 1)
    except ValueError as error:
        print(f"spatialbabel clips: {error}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        with open_executor(options, default_workers=request.workers) as executor:
            manifest = generate_clips(request, progress=not args.no_progress, executor=executor)
    except GenerationError as error:
        print(f"spatialbabel clips: {error}", file=sys.stderr)
        return ExitCode.PROBLEMS
    except UnitFailed as error:
        print(
            f"spatialbabel clips: {error}; the finished clips are kept: rerun the same command "
            "to resume",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS
    counts = manifest["counts"]
    print(
        f"{args.out}: {counts['clips']} clips, {counts['observed_frames']} observed frames "
        f"(+{counts['future_frames']} future, ground truth only), {counts['objects']} objects, "
        f"{len(manifest['files'])} files in the manifest"
    )
    return ExitCode.OK
