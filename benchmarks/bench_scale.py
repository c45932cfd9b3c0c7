"""Ray against the local process pool on the same work units, and what a 100,000-scene split
would take on N nodes.

1. Generation: the same 100 scenes (T1-T5 mix, 512x512, Workbench) on 2 workers, the local
   pool and Ray (a local Ray of 2 CPUs, started once, its start-up timed apart) taking turns,
   each into a fresh folder, ``--repeats`` times. Each run is timed in wall seconds and in CPU
   seconds of everything it used: this process (the driver), the workers (each reports its own
   CPU time with every unit, so the last report is its total) and, on Ray, the cluster's own
   processes (raylet, GCS, idle workers: their CPU time read from /proc before and after).
   The machine is shared, so the figures are medians and the ratios are taken between runs
   made back to back; CPU seconds are what other load inflates least.
2. Scoring: the same replies (bench_score's perturbed scenes in all six languages) scored on 2
   workers by the stdlib pool as scoring ran before the executor (``ProcessPoolExecutor.map``,
   forked, chunked), the local executor and Ray, in turns.
3. A projection of a 100,000-scene split on N nodes from the figures of part 1, with its
   assumptions printed.

    .venv/bin/python benchmarks/bench_scale.py [--scenes 100] [--workers 2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Collection
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from bench_score import build_replies, random_scene

from scoring import NumberedOutput, ReplyScore, score_output, score_outputs
from spatialbabel import Scene
from spatialbabel.run.executor import Executor, UnitLoop
from spatialbabel.run.local_pool import LocalExecutor
from synth.config import SceneParameters
from synth.split import split_set
from synth.unit import describe_scene
from synth.workers import BlenderWorker, init_worker, run_unit

TICK = os.sysconf("SC_CLK_TCK")
# Ray is imported in main() only: the local pool's spawned workers import this script, and
# must not pay for importing Ray.


def timed_unit(worker: BlenderWorker, index: int) -> tuple[str, int, float]:
    """``run_unit``, reporting the worker's pid and its CPU seconds so far."""
    scene = run_unit(worker, index)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return scene, os.getpid(), usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def descendants_cpu(exclude: Collection[int] = ()) -> dict[int, float]:
    """CPU seconds (own, not their children's) of every live descendant of this process."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / TICK
    mine, changed = {os.getpid()}, True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                changed = True
    return {pid: cpu[pid] for pid in mine - {os.getpid(), *exclude}}


def cluster_delta(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


@dataclass
class Run:
    wall: float
    driver: float
    workers: float
    cluster: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def cpu(self) -> float:
        return self.driver + self.workers + self.cluster


def generate_once(executor: Executor, root: Path, scenes: int, params: SceneParameters) -> Run:
    request = split_set(root, scenes, params, eval_size=0, phase1_size=0)
    root.mkdir(parents=True)
    loop = UnitLoop(
        setup=init_worker,
        run=timed_unit,
        args=(str(root), params),
        long_lived=True,
        describe=lambda i: describe_scene(i, params),
    )
    on_ray = executor.name == "ray"
    cluster_before = descendants_cpu() if on_ray else {}
    driver, children = own_cpu(), children_cpu()
    start = time.perf_counter()
    reports = executor.map(loop, list(range(scenes)))
    wall = time.perf_counter() - start
    driver = own_cpu() - driver
    per_worker: dict[int, float] = {}
    for _, pid, seconds in reports:
        per_worker[pid] = max(per_worker.get(pid, 0.0), seconds)
    cluster = 0.0
    if on_ray:
        time.sleep(1.0)  # the killed actors are reaped, and no longer counted below
        cluster = cluster_delta(cluster_before, descendants_cpu(exclude=set(per_worker)))
    else:
        children = children_cpu() - children  # the pool's workers, joined: a check below
    run = Run(wall, driver, sum(per_worker.values()), cluster)
    run.extra["reaped"] = 0.0 if on_ray else children
    start = time.perf_counter()
    request.finalise()
    run.extra["finalise"] = time.perf_counter() - start
    run.extra["bytes"] = float(sum(p.stat().st_size for p in root.rglob("*") if p.is_file()))
    return run


# --- scoring --------------------------------------------------------------------------------------
_SCENES: dict[str, Scene] = {}


def _score_one(item: NumberedOutput) -> ReplyScore:
    return replace(
        score_output(item.output, _SCENES[item.output.scene_id], line=item.line), truth=None
    )


def stdlib_pool(
    outputs: list[NumberedOutput], scenes: dict[str, Scene], workers: int
) -> list[ReplyScore]:
    """Scoring as it ran before the executor: one forked pool, ``map`` in chunks."""
    _SCENES.clear()
    _SCENES.update(scenes)
    chunk = max(1, len(outputs) // (workers * 32))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        scored = list(pool.map(_score_one, outputs, chunksize=chunk))
    return [replace(r, truth=scenes[r.scene_id]) for r in scored]


def score_once(
    name: str, run: Callable[[], list[ReplyScore]], on_ray: bool
) -> tuple[Run, list[ReplyScore]]:
    before = descendants_cpu() if on_ray else {}
    driver, children = own_cpu(), children_cpu()
    start = time.perf_counter()
    replies = run()
    wall = time.perf_counter() - start
    driver = own_cpu() - driver
    if on_ray:
        return Run(wall, driver, 0.0, cluster_delta(before, descendants_cpu())), replies
    return Run(wall, driver, children_cpu() - children), replies


# --- printing -------------------------------------------------------------------------------------
def median(values: list[float]) -> float:
    return statistics.median(values)


def show(label: str, runs: list[Run], per: int, unit: str) -> None:
    wall, cpu = median([r.wall for r in runs]), median([r.cpu for r in runs])
    print(
        f"  {label:<28} {wall:7.2f} s wall  {cpu:7.2f} s CPU  "
        f"({per / wall:7.1f} {unit}/s wall, {1e3 * cpu / per:6.1f} ms CPU per {unit})"
    )


def ratio_line(label: str, ours: list[Run], base: list[Run]) -> tuple[float, float]:
    walls = [a.wall / b.wall for a, b in zip(ours, base, strict=True)]
    cpus = [a.cpu / b.cpu for a, b in zip(ours, base, strict=True)]
    wall, cpu = median(walls), median(cpus)
    print(
        f"  {label}: wall {wall:.3f}x (runs: {', '.join(f'{w:.3f}' for w in walls)}), "
        f"CPU {cpu:.3f}x (runs: {', '.join(f'{c:.3f}' for c in cpus)})"
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resolution", type=int, default=512)
    parser.add_argument("--replies-models", type=int, default=7, help="models of the scoring part")
    parser.add_argument("--cores-per-node", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-generate", action="store_true")
    args = parser.parse_args()
    import ray

    from spatialbabel.run.ray_cluster import RayExecutor

    print(
        f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start; "
        f"{args.workers} workers; {args.repeats} runs of each, in turns"
    )
    start = time.perf_counter()
    ray.init(
        num_cpus=args.workers,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.WARNING,
    )
    ray_start = time.perf_counter() - start
    print(
        f"local Ray of {args.workers} CPUs started in {ray_start:.1f} s (once; a running cluster is joined in about a second)"
    )
    pool, on_ray = LocalExecutor(args.workers), RayExecutor(args.workers)
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        gen: dict[str, list[Run]] = {"pool": [], "ray": []}
        if not args.skip_generate:
            params = SceneParameters(seed=0, resolution=args.resolution)
            # A warm-up run of each first, not counted: the file cache and the shader caches
            # are then as warm for both.
            for name, executor in (("pool", pool), ("ray", on_ray)):
                generate_once(executor, folder / f"warm-{name}", args.workers, params)
            for k in range(args.repeats):
                for name, executor in (
                    (("pool", pool), ("ray", on_ray))
                    if k % 2 == 0
                    else (("ray", on_ray), ("pool", pool))
                ):
                    gen[name].append(
                        generate_once(executor, folder / f"{name}-{k}", args.scenes, params)
                    )
                first = (folder / f"pool-{k}" / "manifest.json").read_bytes()
                assert first == (folder / f"ray-{k}" / "manifest.json").read_bytes(), (
                    "splits differ"
                )
                shutil.rmtree(folder / f"pool-{k}")
                shutil.rmtree(folder / f"ray-{k}")
            print(
                f"\n1. generation: {args.scenes} scenes, {args.resolution}x{args.resolution}, T1-T5, {args.workers} workers (same manifest on both: checked)"
            )
            show("local process pool", gen["pool"], args.scenes, "scene")
            show("Ray (actors)", gen["ray"], args.scenes, "scene")
            wall, cpu = ratio_line("Ray / pool", gen["ray"], gen["pool"])
            print(
                f"  Ray's overhead: {100 * (wall - 1):+.1f} % wall, {100 * (cpu - 1):+.1f} % CPU "
                "(target: at most +15 %)"
            )
            ray_runs = gen["ray"]
            print(
                "  Ray's CPU split: driver {:.2f} s, workers {:.2f} s, cluster processes {:.2f} s; "
                "pool: driver {:.2f} s, workers {:.2f} s (reaped children {:.2f} s)".format(
                    median([r.driver for r in ray_runs]),
                    median([r.workers for r in ray_runs]),
                    median([r.cluster for r in ray_runs]),
                    median([r.driver for r in gen["pool"]]),
                    median([r.workers for r in gen["pool"]]),
                    median([r.extra["reaped"] for r in gen["pool"]]),
                )
            )

        score_runs(args, pool, on_ray)
        if not args.skip_generate:
            project(args, gen["ray"], ray_start)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        on_ray.close()
        ray.shutdown()


def score_runs(args: argparse.Namespace, pool: Executor, on_ray: Executor) -> None:
    rng = np.random.default_rng(0)
    scenes = [random_scene(i, rng) for i in range(100)]
    outputs, _, _ = build_replies(scenes, args.replies_models, 0)
    by_id = {s.scene_id: s for s in scenes}
    n = len(outputs)
    variants: dict[str, tuple[Callable[[], list[ReplyScore]], bool]] = {
        "stdlib pool (before)": (lambda: stdlib_pool(outputs, by_id, args.workers), False),
        "local executor": (lambda: score_outputs(outputs, by_id, executor=pool), False),
        "Ray (tasks)": (lambda: score_outputs(outputs, by_id, executor=on_ray), True),
    }
    runs: dict[str, list[Run]] = {name: [] for name in variants}
    texts: dict[str, str] = {}
    for k in range(args.repeats):
        order = list(variants) if k % 2 == 0 else list(reversed(variants))
        for name in order:
            run, replies = score_once(name, *variants[name])
            runs[name].append(run)
            texts[name] = repr([r.to_dict() for r in replies])
    same = len(set(texts.values())) == 1
    print(f"\n2. scoring {n} replies on {args.workers} workers (bit-identical on all: {same})")
    for name in variants:
        show(name, runs[name], n, "reply")
    ratio_line("local executor / stdlib pool", runs["local executor"], runs["stdlib pool (before)"])
    ratio_line("Ray / local executor", runs["Ray (tasks)"], runs["local executor"])


def project(args: argparse.Namespace, ray_runs: list[Run], ray_start: float) -> None:
    scenes = args.scenes
    worker_cpu = median([r.workers for r in ray_runs]) / scenes
    cluster_cpu = median([r.cluster for r in ray_runs]) / scenes
    driver_cpu = median([r.driver for r in ray_runs]) / scenes
    finalise_s = median([r.extra["finalise"] for r in ray_runs]) / scenes
    size = median([r.extra["bytes"] for r in ray_runs]) / scenes
    total, cores = 100_000, args.cores_per_node
    print(f"\n3. projection: a {total:,}-scene split on N nodes of {cores} cores each")
    print(
        f"  from part 1: {worker_cpu:.3f} CPU s per scene on a worker, {cluster_cpu:.4f} on Ray's "
        f"own processes, {driver_cpu * 1e3:.2f} ms on the driver; finalising (questions, subsets, "
        f"manifest hashes) {finalise_s * 1e3:.1f} ms per scene on the driver; {size / 1e3:.0f} kB "
        "per scene written"
    )
    print(
        "  assumptions: nodes whose cores are as fast as these; one actor per core, each core "
        "kept busy (a free core per worker, unlike this shared machine); the per-scene cost of "
        "this mix and resolution; the shared filesystem takes the writes as fast as they come; "
        "no failures; the driver hands out units on one core, and finalises alone afterwards; "
        "start-up: a running cluster joined, then each actor starts Blender (about 5 s)"
    )
    driver_ceiling = 1.0 / driver_cpu
    print(f"  driver ceiling: {driver_ceiling:,.0f} scenes/s")
    print(
        f"  {'nodes':>5} {'cores':>6} {'scenes/s':>9} {'render':>9} {'finalise':>9} {'total':>9} {'writes':>10}"
    )
    for nodes in (1, 2, 4, 8, 16, 32, 64, 128):
        rate = min(nodes * cores / (worker_cpu + cluster_cpu), driver_ceiling)
        render = total / rate + 5.0
        final = total * finalise_s
        print(
            f"  {nodes:>5} {nodes * cores:>6} {rate:>9.1f} {render / 60:>7.1f} m {final / 60:>7.1f} m "
            f"{(render + final) / 60:>7.1f} m {rate * size / 1e6:>7.1f} MB/s"
        )
    print(f"  (a local Ray, started rather than joined, adds {ray_start:.0f} s once)")


if __name__ == "__main__":
    main()
