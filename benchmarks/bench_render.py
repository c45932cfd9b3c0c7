"""Re-renders per second at 512x512 with the offscreen pyrender renderer (EGL, Mesa).

Scenes are the generator's tier mix (3, 5, 8, 13 and 18 objects in turn) built here from
seeded random layouts on the ground, or a real split's scenes with ``--split``. One renderer
draws them all, as the scorer and the report do (a second one, with pyrender's own shading,
shares its EGL context). Printed, each as renders per second and as ratios to baselines
measured in the same run (the empty scene, ground only, drawn the same way; and the empty
scene's instance pass, the floor every render pays):

- the instance pass alone (instances + depth), which is what ``silhouette_iou`` needs;
- a full re-render with the default shading (``lambert``: the colour image painted in numpy
  from the instance pass's light codes), which the report's figures use;
- a full re-render with pyrender's shading (``pbr``: instance pass + a multisampled
  physically based colour pass), the path before issue 7's speed-up and still an option.

Target (issue 7): at least 50 full re-renders per second at 512x512.

    .venv/bin/python benchmarks/bench_render.py [--scenes 50] [--repeats 5] [--split DIR]
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


def best_rates(runs: dict[str, Callable[[], None]], count: int, repeats: int) -> dict[str, float]:
    """Items per second of each run, best of ``repeats``. The runs take turns in every round,
    so a burst of load from other processes on a shared machine hits them alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: count / seconds for name, seconds in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
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
    pbr = Renderer(shading="pbr")
    for scene in scenes:  # uploads every mesh once and fills the colour caches
        renderer.render(scene)
        pbr.render(scene)

    def draw(chosen: Renderer, batch: list[Scene], *, color: bool = True) -> Callable[[], None]:
        def run() -> None:
            for scene in batch:
                chosen.render(scene, color=color)

        return run

    n = len(scenes)
    rates = best_rates(
        {
            "base_instances": draw(renderer, empty, color=False),
            "instances": draw(renderer, scenes, color=False),
            "base_full": draw(renderer, empty),
            "full": draw(renderer, scenes),
            "base_pbr": draw(pbr, empty),
            "pbr": draw(pbr, scenes),
        },
        n,
        args.repeats,
    )
    pbr.close()
    renderer.close()

    print(
        f"{n} scenes at {camera.width}x{camera.height}, {statistics.mean(objects):.1f} objects on average "
        f"({min(objects)}-{max(objects)}); {'split ' + str(args.split) if args.split else 'random layouts'}"
    )
    print(f"EGL context and shader start-up: {startup:.2f} s (once per process)")
    floor = rates["base_instances"]
    print(
        f"{'run':<44}{'renders/s':>10}{'ms each':>9}{'x empty':>9}{'x floor':>9}\n"
        f"{'':<44}{'':>10}{'':>9}{'(same)':>9}{'':>9}"
    )
    rows = [
        ("empty scene, instance pass (the floor)", "base_instances", "base_instances"),
        ("instance pass (instances + depth)", "instances", "base_instances"),
        ("empty scene, full, lambert (default)", "base_full", "base_full"),
        ("full re-render, lambert (default)", "full", "base_full"),
        ("empty scene, full, pbr (pyrender shading)", "base_pbr", "base_pbr"),
        ("full re-render, pbr (pyrender shading)", "pbr", "base_pbr"),
    ]
    for label, key, base in rows:
        value = rates[key]
        print(
            f"{label:<44}{value:>10.1f}{1000 / value:>9.1f}"
            f"{value / rates[base]:>9.2f}{value / floor:>9.2f}"
        )
    full, old = rates["full"], rates["pbr"]
    print(
        f"target {TARGET:.0f} full re-renders/s: {'met' if full >= TARGET else 'NOT met'} "
        f"({full:.1f}/s with the default shading, {full / old:.1f}x the pbr path's {old:.1f}/s; "
        f"instance pass alone {rates['instances']:.1f}/s)"
    )
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
