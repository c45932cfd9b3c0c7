"""Speed of question generation and of QA grading.

Scenes are the generator's tier mix (``synth.layout.sample_layout`` with the frontal camera,
no Blender). Printed, each next to a baseline measured in the same run:

- questions: scenes per second for ``generate_scene_questions``, against measuring every
  object's view facts once (``spatialbabel.geometry.relations.measure``), the floor any question needs;
- grading: replies per second for ``suites.qa.grading.grade`` on Code-CoT-sized replies (a
  JSON scene in a fenced block, a scratchpad and a final line), against flattening the same
  replies to their answer text alone (``suites.qa.reading.answer_text``);
- Code-CoT: replies per second for the reconstruction check (parse + program), against
  ``parsers.parse`` alone.

    .venv/bin/python benchmarks/bench_qa.py [--scenes 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from parsers import parse, write
from spatialbabel import Scene
from spatialbabel.geometry.relations import measure
from spatialbabel.qa import Question
from suites.qa.codecot import reconstruct_answer
from suites.qa.grading import grade
from suites.qa.reading import answer_text
from synth.cameras import scene_cameras
from synth.layout import sample_layout
from synth.questions import generate_scene_questions
from synth.tiers import TIERS


def best_of(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cameras = scene_cameras(1, 512)
    tiers = list(TIERS.values())
    scenes = [
        Scene(
            f"scene_{i:06d}",
            tuple(sample_layout(np.random.default_rng([1, i]), tiers[i % len(tiers)])),
            cameras,
        )
        for i in range(args.scenes)
    ]
    objects = sum(len(s.objects) for s in scenes)

    baseline = best_of(
        args.repeats, lambda: [measure(o, s.cameras[0]) for s in scenes for o in s.objects]
    )
    generate = best_of(args.repeats, lambda: [generate_scene_questions(s, 0) for s in scenes])
    print(f"{args.scenes} scenes, {objects} objects")
    print(
        f"questions: {args.scenes / generate:8.1f} scenes/s   baseline (measure every object): {args.scenes / baseline:8.1f} scenes/s   ratio {generate / baseline:.1f}x"
    )

    pairs: list[tuple[Question, str, Scene]] = []
    for scene in scenes:
        code = write(scene, "json")
        for question in generate_scene_questions(scene, 0):
            reply = f"Let me rebuild the scene.\n```json\n{code}\n```\nFrom the code, I reason step by step.\n**Final answer:** {question.answer}"
            pairs.append((question, reply, scene))
    flatten = best_of(args.repeats, lambda: [answer_text(r) for _, r, _ in pairs])
    graded = best_of(args.repeats, lambda: [grade(q, r) for q, r, _ in pairs])
    print(
        f"grading:   {len(pairs) / graded:8.1f} replies/s  baseline (answer text only):      {len(pairs) / flatten:8.1f} replies/s  ratio {graded / flatten:.1f}x"
    )

    sample = pairs[: min(len(pairs), 200)]
    parsed = best_of(args.repeats, lambda: [parse(r, "json") for _, r, _ in sample])
    rebuilt = best_of(
        args.repeats, lambda: [reconstruct_answer(q, r, "json", s) for q, r, s in sample]
    )
    print(
        f"code-cot:  {len(sample) / rebuilt:8.1f} replies/s  baseline (parsers.parse alone):   {len(sample) / parsed:8.1f} replies/s  ratio {rebuilt / parsed:.2f}x"
    )


if __name__ == "__main__":
    main()
