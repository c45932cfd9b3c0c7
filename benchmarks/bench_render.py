"""Re-renders per second at 512x512 with the offscreen pyrender renderer (EGL, Mesa).

Scenes are the generator's tier mix (3, 5, 8, 13 and 18 objects in turn) built here from
seeded random layouts on the ground, or a real split's scenes with ``--split``. One renderer
draws them all, as the scorer and the report do. Printed, each as renders per second and as
a ratio to the baseline measured in the same run (the empty scene: ground only):

- the instance pass alone (instances + depth), which is what ``silhouette_iou`` needs;
- a full re-render (instance pass + shaded colour pass), which the report's figures need.

Target (issue 7): at least 50 re-renders per second at 512x512.

    .venv/bin/python benchmarks/bench_render.py [--scenes 50] [--repeats 3] [--split DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

import numpy as np

from render import Renderer
from spatialbabel import CLASSES, PALETTE_NAMES, UNIT_EXTENTS, Camera, Scene, SceneObject

TIER_OBJECTS = (3, 5, 8, 13, 18)
TARGET = 50.0


def random_scene(index: int, rng: np.random.Generator, resolution: int) -> Scene:
    """Objects of random class, colour, yaw and size resting on the ground (overlaps allowed:
    they cost the renderer the same)."""
    objects = []
    for k in range(TIER_OBJECTS[index % len(TIER_OBJECTS)]):
        class_name = str(rng.choice(CLASSES))
        width = float(rng.uniform(0.45, 1.2))
        unit = UNIT_EXTENTS[class_name]
        size = (width, width * unit[1] / unit[0] * float(rng.uniform(0.7, 1.3)), width)
        x, z = rng.uniform(-2.5, 2.5, 2)
        objects.append(
            SceneObject(
                f"obj{k}",
                class_name,
                (float(x), size[1] / 2, float(z)),
                (0.0, float(rng.uniform(0, 360)), 0.0),
                size,
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    camera = Camera.looking_at(
        "front", (0.0, 7.778, 7.778), width=resolution, height=resolution, fov_y_deg=44.0
    )
    return Scene(f"bench_{index:04d}", tuple(objects), (camera,))


def load_scenes(args: argparse.Namespace) -> list[Scene]:
    if args.split is not None:
        paths = sorted((args.split / "scenes").glob("*.json"))[: args.scenes]
        return [Scene.load(p) for p in paths]
    rng = np.random.default_rng(args.seed)
    return [random_scene(i, rng, args.resolution) for i in range(args.scenes)]


def rate(run: Callable[[], None], count: int, repeats: int) -> float:
    """Best of ``repeats`` timings, as items per second (the best is the least disturbed by
    other processes on a shared machine)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resolution", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--split", type=Path, help="render this split's scenes instead of random ones"
    )
    args = parser.parse_args()
    scenes = load_scenes(args)
    empty = [Scene(f"empty_{i}", (), s.cameras) for i, s in enumerate(scenes)]
    objects = [len(s.objects) for s in scenes]
    camera = scenes[0].cameras[0]

    start = time.perf_counter()
    renderer = Renderer()
    renderer.render(empty[0])  # opens the EGL context and compiles the shaders
    startup = time.perf_counter() - start
    for scene in scenes:  # uploads every (class, colour) mesh once
        renderer.render(scene)

    def instances(batch: list[Scene]) -> Callable[[], None]:
        def run() -> None:
            for scene in batch:
                renderer.render(scene, color=False)

        return run

    def full(batch: list[Scene]) -> Callable[[], None]:
        def run() -> None:
            for scene in batch:
                renderer.render(scene)

        return run

    n = len(scenes)
    base_instances = rate(instances(empty), n, args.repeats)
    base_full = rate(full(empty), n, args.repeats)
    got_instances = rate(instances(scenes), n, args.repeats)
    got_full = rate(full(scenes), n, args.repeats)
    renderer.close()

    print(
        f"{n} scenes at {camera.width}x{camera.height}, {statistics.mean(objects):.1f} objects on average "
        f"({min(objects)}-{max(objects)}); {'split ' + str(args.split) if args.split else 'random layouts'}"
    )
    print(f"EGL context and shader start-up: {startup:.2f} s (once per process)")
    print(f"{'pass':<36}{'renders/s':>10}{'ms each':>9}{'x baseline':>12}")
    rows = [
        ("baseline: empty scene, instance pass", base_instances, base_instances),
        ("instance pass (instances + depth)", got_instances, base_instances),
        ("baseline: empty scene, full", base_full, base_full),
        ("full re-render (+ shaded colour)", got_full, base_full),
    ]
    for label, value, base in rows:
        print(f"{label:<36}{value:>10.1f}{1000 / value:>9.1f}{value / base:>12.2f}")
    verdict = "met" if got_instances >= TARGET else "NOT met"
    print(
        f"target {TARGET:.0f}/s: {verdict} by the instance pass ({got_instances:.1f}/s); "
        f"full re-render {got_full:.1f}/s ({'met' if got_full >= TARGET else 'not met'})"
    )
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
