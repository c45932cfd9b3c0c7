"""Speed of ``spatialbabel clips`` at 512x512 with Workbench: seconds per rendered frame per
worker, next to a baseline measured in the same run: a bare render of the empty scene (the
clip camera over the checker ground, no objects) in one long-lived Blender, with the clips'
render settings. Target (issue 15): at most 0.15 s per frame per worker.

A clip's frame costs its picture, its ID pass and its share of the clip's MP4; the breakdown
times each for one clip in one Blender.

    .venv/bin/python benchmarks/bench_clips.py [--n 8] [--workers 2] [--resolution 512]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from synth.clip_unit import ClipParameters
from synth.clips import clip_set, load_clips

_BASELINE = """
import sys, time
import numpy as np
from synth.blender_stage import BlenderStage
from synth.clip_unit import clip_ground
from synth.motion import TILE, camera_at, camera_pose
resolution, repeats = int(sys.argv[1]), int(sys.argv[2])
camera = camera_at(camera_pose(0.0, 0.0, 0.3), resolution)
stage = BlenderStage("workbench")
stage.set_scene([], [camera], clip_ground(), tile=TILE)
stage.render_image(0, antialias=False)  # the first render compiles shaders
def median(f, clock):
    times = []
    for _ in range(repeats):
        start = clock(); f(); times.append(clock() - start)
    return sorted(times)[len(times) // 2]
bare = lambda: stage.render_image(0, antialias=False)
print(median(bare, time.perf_counter), median(bare, time.process_time),
      median(lambda: stage.render_image(0), time.perf_counter))
"""

_BREAKDOWN = """
import sys, time, json
from synth.blender_stage import BlenderStage
from synth.clip_unit import ClipParameters, build_clip
from synth import clip_unit
resolution, index = int(sys.argv[1]), int(sys.argv[2])
stage = BlenderStage("workbench")
timings = {"image": 0.0, "ids": 0.0, "video": 0.0, "frames": 0}
image, ids = stage.render_image, stage.render_ids
def timed(name, f):
    def run(*a, **k):
        start = time.perf_counter(); out = f(*a, **k); timings[name] += time.perf_counter() - start
        return out
    return run
stage.render_image = timed("image", image)
stage.render_ids = timed("ids", ids)
from synth import video
encode = video.encode_mp4
video.encode_mp4 = timed("video", encode)
params = ClipParameters(resolution=resolution)
build_clip(index, params, stage, "bench")  # warm up: shaders, ffmpeg
timings.update(image=0.0, ids=0.0, video=0.0)
start, cpu = time.perf_counter(), time.process_time()
rendered = build_clip(index, params, stage, "bench")
timings["total"] = time.perf_counter() - start
timings["cpu"] = time.process_time() - cpu
timings["frames"] = rendered.clip.observed
print(json.dumps(timings))
"""


def _run(script: str, *args: object) -> str:
    result = subprocess.run(
        [sys.executable, "-c", script, *(str(a) for a in args)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip().splitlines()[-1]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=8, help="clips (about 28 frames each)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--resolution", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    bare, bare_cpu, bare_fxaa = (float(v) for v in _run(_BASELINE, args.resolution, 15).split())
    parts = json.loads(_run(_BREAKDOWN, args.resolution, 1))
    with tempfile.TemporaryDirectory(prefix="bench-clips-") as folder:
        params = ClipParameters(seed=args.seed, resolution=args.resolution)
        request = clip_set(Path(folder) / "clips", args.n, params, workers=args.workers)
        # Worker start-up (spawn, import bpy, first shader compile) is timed apart by a set of
        # one clip per worker, with another seed: a clip set pays it once, however large.
        warm = clip_set(
            Path(folder) / "warm",
            args.workers,
            ClipParameters(seed=args.seed + 1, resolution=args.resolution),
            workers=args.workers,
        )
        start = time.perf_counter()
        warm.run(warm.pending(), progress=False)
        startup = time.perf_counter() - start
        warm_frames = sum(c.observed for c in load_clips(warm.out, warm.n))
        cpu_before = _children_cpu()
        start = time.perf_counter()
        request.run(request.pending(), progress=False)
        elapsed = time.perf_counter() - start
        cpu = _children_cpu() - cpu_before
        manifest = request.finalise()
    frames = manifest["counts"]["observed_frames"]
    # The start-up set rendered frames too; at steady state they would have cost as much.
    per_frame_worker = elapsed * args.workers / frames
    print(f"machine: {args.workers} worker(s), {args.resolution}x{args.resolution}, Workbench")
    print(
        f"baseline: bare render of the empty scene, clip settings (no anti-aliasing): {bare:.3f} s "
        f"wall, {bare_cpu:.3f} CPU s (with FXAA, as a split's images: {bare_fxaa:.3f} s wall)"
    )
    print(
        f"worker start-up (spawn, import bpy, first render) with {warm_frames} frames, "
        f"paid once per set: {startup:.2f} s"
    )
    print(f"{args.n} clips, {frames} rendered frames: {elapsed:.2f} s wall")
    print(
        f"  {per_frame_worker:.3f} s per frame per worker (target <= 0.15) = "
        f"{per_frame_worker / bare:.2f}x baseline"
    )
    print(
        f"  {cpu / frames:.3f} CPU s per frame (workers' user + system time) = "
        f"{cpu / frames / bare_cpu:.2f}x the baseline's CPU s: the figures other processes on the "
        "machine do not inflate"
    )
    n = parts["frames"]
    print(
        f"one clip of {n} frames in one Blender: {parts['total'] / n:.3f} s per frame = picture "
        f"{parts['image'] / n:.3f} + ID pass {parts['ids'] / n:.3f} + MP4 {parts['video'] / n:.3f} "
        f"+ the rest {(parts['total'] - parts['image'] - parts['ids'] - parts['video']) / n:.3f}; "
        f"{parts['cpu'] / n:.3f} CPU s per frame"
    )


if __name__ == "__main__":
    main()
