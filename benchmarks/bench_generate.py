"""Speed of ``spatialbabel generate`` for the T1-T5 mix at 512x512 with Workbench.

Prints seconds per scene per worker and total scenes per second for a fresh split, next to a
baseline measured in the same run: a bare Workbench render of an empty scene (ground only) in
one long-lived Blender, which is the floor of what one image costs on this machine.
Target (issue 3): at most 0.6 s per scene per worker.

    .venv/bin/python benchmarks/bench_generate.py [--n 60] [--workers 2] [--resolution 512]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from synth.config import SceneParameters
from synth.split import split_set

_BASELINE = """
import sys, time
from synth.blender_stage import BlenderStage
from synth.cameras import scene_cameras
from spatialbabel import Ground
stage = BlenderStage("workbench")
stage.set_scene([], scene_cameras(1, int(sys.argv[1])), Ground())
stage.render_image(0)  # the first render compiles shaders
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    stage.render_image(0)
    times.append(time.perf_counter() - start)
print(sorted(times)[len(times) // 2])
"""


def baseline(resolution: int, repeats: int = 15) -> float:
    """Median seconds of a bare Workbench render of the empty scene (own process, quiet)."""
    result = subprocess.run(
        [sys.executable, "-c", _BASELINE, str(resolution), str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout.strip().splitlines()[-1])


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--n", type=int, default=60, help="scenes (a multiple of 5 keeps the tiers even)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--resolution", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    base = baseline(args.resolution)
    with tempfile.TemporaryDirectory(prefix="bench-generate-") as folder:
        params = SceneParameters(seed=args.seed, resolution=args.resolution)
        request = split_set(
            Path(folder) / "split", args.n, params, workers=args.workers, eval_size=0, phase1_size=0
        )
        request.out.mkdir(parents=True)
        # Worker start-up (spawn, import bpy, first shader compile) is timed apart by a split of
        # one scene per worker: a split pays it once, however many scenes it holds.
        warm = split_set(Path(folder) / "warm", args.workers, params, workers=args.workers)
        warm.out.mkdir(parents=True)
        start = time.perf_counter()
        warm.run(warm.pending(), progress=False)
        startup = time.perf_counter() - start
        cpu_before = _children_cpu()
        start = time.perf_counter()
        request.run(request.pending(), progress=False)
        elapsed = time.perf_counter() - start
        # The pool is joined when run returns, so its workers' CPU time is counted.
        cpu = _children_cpu() - cpu_before
        request.finalise()
        metas = [
            json.loads(p.read_text())["meta"]
            for p in sorted((request.out / "scenes").glob("*.json"))
        ]
    # The start-up split also made one scene per worker; take both out.
    steady = args.n - args.workers
    elapsed_net = max(elapsed - startup, 1e-9)
    per_scene_worker = elapsed_net * args.workers / steady
    print(
        f"machine: {args.workers} worker(s), {args.resolution}x{args.resolution}, Workbench, seed {args.seed}"
    )
    print(f"baseline: bare Workbench render of an empty scene: {base:.3f} s")
    print(
        f"worker start-up (spawn, import bpy, first render), paid once per split: {startup:.2f} s"
    )
    print(f"split of {args.n} scenes: {elapsed:.2f} s wall including start-up")
    print(
        f"  {per_scene_worker:.3f} s per scene per worker (target <= 0.6) = {per_scene_worker / base:.1f}x baseline"
    )
    print(
        f"  {cpu / args.n:.3f} CPU s per scene (workers' user + system time, start-up included): "
        "the figure other processes on the machine do not inflate"
    )
    rate = steady / elapsed_net
    print(
        f"  {rate:.2f} scenes/s total; 1,000 scenes would take {(1000 / rate + startup) / 60:.1f} min"
    )
    for tier in sorted({m["tier"] for m in metas}):
        tries = [m["tries"] for m in metas if m["tier"] == tier]
        print(
            f"  {tier}: {len(tries)} scenes, mean tries {statistics.mean(tries):.2f}, max {max(tries)}"
        )


if __name__ == "__main__":
    main()
