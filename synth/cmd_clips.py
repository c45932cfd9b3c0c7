"""``spatialbabel clips``: a set of moving-scene clips rendered with Blender, with the exact
pose of every object and of the camera in every frame (SpatialMind's input)."""

from __future__ import annotations

import argparse

from spatialbabel.cli import ExitCode
from synth.clip_unit import ClipParameters
from synth.cmd_sets import add_progress_and_executor, add_set_arguments, run_set

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
    add_set_arguments(parser, unit="clip", seed=defaults.seed)
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
    add_progress_and_executor(parser)


def run(args: argparse.Namespace) -> int:
    from synth.clips import clip_set

    manifest = run_set(
        "clips",
        args,
        lambda: ClipParameters(
            seed=args.seed,
            resolution=args.resolution,
            fps=args.fps,
            observed=args.observed,
            horizon=args.horizon,
            objects=args.objects,
            video=not args.no_video,
            max_tries=args.max_tries,
        ),
        lambda params, workers: clip_set(args.out, args.n, params, workers),
    )
    if isinstance(manifest, int):
        return manifest
    counts = manifest["counts"]
    print(
        f"{args.out}: {counts['clips']} clips, {counts['observed_frames']} observed frames "
        f"(+{counts['future_frames']} future, ground truth only), {counts['objects']} objects, "
        f"{len(manifest['files'])} files in the manifest"
    )
    return ExitCode.OK
