"""Speed of SpaceCast's item building and view rendering, each beside a baseline measured in
the same run (these machines are shared and noisy: compare the ratios).

- Building: CPU seconds per scene to plan a scene's items (roles, ray-cast view survey, view
  chains, changes, exact labels), on stacked layouts of the T1-T5 mix made without Blender;
  baseline: the benchmark's own QA questions for the same scenes
  (``synth.questions.generate_split_questions``). Issue 14 set 0.1 s per scene; since issue 27
  (chains that share objects, up to 5 drafts per task, the shortcuts' selection) it is about 0.5.
- Rendering: seconds per chosen view (an image and an ID pass) in one long-lived Blender at
  512 x 512; baseline: a bare Workbench render of the empty ground in the same Blender.
  Target: at most 0.5 s per view per worker.

    .venv/bin/python benchmarks/bench_spacecast.py [--scenes 10] [--views 12]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from spatialbabel import Ground, Scene
from suites.spacecast.split_items import plan_split
from synth.cameras import scene_cameras
from synth.layout import LayoutRules, sample_layout
from synth.questions import generate_split_questions
from synth.tiers import TIER_NAMES, TIERS


def scenes(count: int) -> list[Scene]:
    made = []
    for i in range(count):
        rng = np.random.default_rng([11, i])
        tier = TIERS[TIER_NAMES[i % len(TIER_NAMES)]]
        objects = sample_layout(rng, tier, LayoutRules(stack_prob=0.3))
        made.append(
            Scene(f"scene_{i:06d}", tuple(objects), scene_cameras(1, 512), Ground(), {"index": i})
        )
    return made


def building(count: int) -> tuple[float, float, int]:
    batch = scenes(count)
    plan_split(batch[:1], seed=0, resolution=512)  # imports and FCL's first call
    import scipy.optimize  # noqa: F401  (the torus distance's, imported on first use)

    start = time.process_time()
    planned = plan_split(batch, seed=0, resolution=512)
    spacecast = (time.process_time() - start) / count
    start = time.process_time()
    generate_split_questions(batch, 0)
    baseline = (time.process_time() - start) / count
    return spacecast, baseline, sum(len(d) for _, d in planned)


def rendering(views: int) -> tuple[float, float]:
    from synth.blender_stage import BlenderStage
    from synth.candidate_views import candidate_cameras

    stage = BlenderStage("workbench")
    scene = scenes(3)[2]
    cameras = candidate_cameras(scene)[:views]
    stage.set_scene([], cameras, Ground())
    stage.render_image(0)
    empty = []
    for k in range(len(cameras)):
        start = time.perf_counter()
        stage.render_image(k)
        empty.append(time.perf_counter() - start)
    stage.set_scene(scene.objects, cameras, scene.ground)
    stage.render_image(0)
    per_view = []
    for k in range(len(cameras)):
        start = time.perf_counter()
        stage.render_image(k)
        stage.render_ids(k)
        per_view.append(time.perf_counter() - start)
    return statistics.median(per_view), statistics.median(empty)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--views", type=int, default=12)
    parser.add_argument("--no-render", action="store_true", help="time the building only")
    args = parser.parse_args()
    spacecast, baseline, drafts = building(args.scenes)
    print(
        f"building: {spacecast:.3f} CPU s/scene ({drafts} items over {args.scenes} scenes); "
        f"baseline QA questions {baseline:.4f} s/scene; ratio {spacecast / baseline:.0f}x; "
        f"target 0.1 s/scene"
    )
    if not args.no_render:
        view, empty = rendering(args.views)
        print(
            f"rendering: {view:.3f} s/view/worker at 512x512 (image + ID pass); baseline empty "
            f"render {empty:.3f} s; ratio {view / empty:.1f}x; target 0.5 s/view"
        )


if __name__ == "__main__":
    main()
