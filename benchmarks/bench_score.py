"""Time ``scoring`` on the benchmark's full load: 14 models x 6 languages x 100 scenes.

The scenes are random valid layouts built here (tiers 1-5 in turn, objects resting on the
ground, footprints apart); each "model" perturbs them with its own seeded noise (position and
size jitter, dropped and extra objects, class and colour slips, garbled replies) and each
language's reply is the perturbed scene written with ``parsers.write`` (json where a language
has no writer yet, said in the printout). Printed: the time to parse every reply alone (the
baseline), to parse and score them in one process and in ``--workers`` processes, and to
aggregate, with the ratios; then the cost of the mode differences (``scoring.modes``) on the
same replies seen as two modes of half the models.

    .venv/bin/python benchmarks/bench_score.py [--scenes 100] [--models 14] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
from dataclasses import replace

import numpy as np

from parsers import parse, write
from scoring import NumberedOutput, ReplyScore, aggregate, mode_differences, score_outputs
from spatialbabel import CLASSES, LANGUAGES, PALETTE_NAMES, ModelOutput, Scene, SceneObject

#: Objects per scene and footprint width of each tier (the generator's tiers).
TIERS = {
    1: (3, 3, 0.6, 1.2),
    2: (4, 6, 0.6, 1.2),
    3: (7, 10, 0.55, 1.1),
    4: (11, 15, 0.5, 1.0),
    5: (16, 20, 0.45, 0.9),
}
PLACEMENT_TRIES = 200
#: Replies per step when the baseline and the one-process run alternate.
CHUNK = 420


def random_scene(index: int, rng: np.random.Generator) -> Scene:
    """A layout of the tier of ``index`` on the [-3, 3]^2 ground, footprints not overlapping."""
    tier = index % 5 + 1
    low, high, smallest, largest = TIERS[tier]
    count = int(rng.integers(low, high + 1))
    objects: list[SceneObject] = []
    placed: list[tuple[float, float, float]] = []
    for k in range(count):
        for _ in range(PLACEMENT_TRIES):
            width = float(rng.uniform(smallest, largest))
            x, z = (float(v) for v in rng.uniform(-3 + width / 2, 3 - width / 2, 2))
            if all(math.hypot(x - px, z - pz) > (width + pw) / 2 * 1.05 for px, pz, pw in placed):
                break
        else:
            raise RuntimeError(
                f"scene {index}: no room for object {k} after {PLACEMENT_TRIES} tries"
            )
        placed.append((x, z, width))
        cls = str(rng.choice(CLASSES))
        height = width * (0.25 if cls == "torus" else float(rng.uniform(0.6, 1.4)))
        size = (
            (width, height, width)
            if cls != "cube"
            else (width, height, float(rng.uniform(0.6, 1.0)) * width)
        )
        yaw = float(rng.uniform(-90, 90))
        objects.append(
            SceneObject(
                f"{cls}_{k}",
                cls,
                (x, height / 2, z),
                (0.0, yaw, 0.0),
                size,
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    return Scene(f"bench_{index:03d}", tuple(objects), meta={"tier": tier})


def perturb(scene: Scene, level: float, rng: np.random.Generator) -> Scene | None:
    """The scene as a model of noise ``level`` (0 best) might describe it; None: garbled reply."""
    if rng.random() < 0.08 * level:
        return None
    objects = []
    for obj in scene.objects:
        if rng.random() < 0.1 * level:
            continue
        px, py, pz = (float(v) for v in np.asarray(obj.position) + rng.normal(0, 0.3 * level, 3))
        grown = np.abs(np.asarray(obj.size) * (1 + rng.normal(0, 0.2 * level, 3))) + 0.01
        sx, sy, sz = (float(v) for v in grown)
        cls = str(rng.choice(CLASSES)) if rng.random() < 0.15 * level else obj.class_name
        color = str(rng.choice(PALETTE_NAMES)) if rng.random() < 0.1 * level else obj.color
        yaw = obj.rotation[1] + float(rng.normal(0, 20 * level))
        objects.append(
            replace(
                obj,
                class_name=cls,
                position=(px, py, pz),
                size=(sx, sy, sz),
                color=color,
                rgb=None,
                rotation=(0.0, yaw, 0.0),
            )
        )
    if rng.random() < 0.2 * level:
        objects.append(
            SceneObject(
                "extra",
                "cube",
                (float(rng.uniform(-3, 3)), 0.4, float(rng.uniform(-3, 3))),
                size=(0.8, 0.8, 0.8),
                color="red",
            )
        )
    return scene.with_objects(objects)


def writer_languages() -> tuple[dict[str, str], list[str]]:
    """Language -> language whose writer produces its replies; and those that fell back to json."""
    probe = Scene("probe", (SceneObject("a", "cube", (0.0, 0.5, 0.0)),))
    used, fallback = {}, []
    for language in LANGUAGES:
        try:
            write(probe, language)
            parse("", language)
            used[language] = language
        except (KeyError, ImportError):
            used[language] = "json"
            fallback.append(language)
    return used, fallback


def build_replies(
    scenes: list[Scene], models: int, seed: int
) -> tuple[list[NumberedOutput], list[str], list[str]]:
    """The replies, the languages that fell back to json, and each reply's target language."""
    used, fallback = writer_languages()
    outputs: list[NumberedOutput] = []
    targets: list[str] = []
    for m in range(models):
        level = 0.1 + 1.2 * m / max(1, models - 1)
        for li, language in enumerate(LANGUAGES):
            for si, scene in enumerate(scenes):
                rng = np.random.default_rng([seed, m, li, si])
                noisy = perturb(scene, level, rng)
                text = "I cannot describe this." if noisy is None else write(noisy, used[language])
                # A reply is labelled with the language its text is in (the parser follows the
                # label); a json stand-in for another language gets its own mode so that no
                # line duplicates another. Aggregation sees the target language instead.
                mode = "bench" if used[language] == language else f"bench_for_{language}"
                output = ModelOutput(scene.scene_id, f"model_{m:02d}", used[language], mode, text)
                outputs.append(NumberedOutput(len(outputs) + 1, output))
                targets.append(language)
    return outputs, fallback, targets


class Clock:
    """Wall time and CPU time (this process and its finished children): on a shared machine the
    CPU seconds say what the work costs, the wall seconds what the other load allowed."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), _cpu()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, _cpu() - self.cpu

    @classmethod
    def zero(cls) -> Clock:
        clock = cls()
        clock.wall = clock.cpu = 0.0
        return clock

    def add(self, other: Clock) -> None:
        self.wall += other.wall
        self.cpu += other.cpu


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def report(label: str, clock: Clock, note: str) -> None:
    print(f"{label:<38} {clock.wall:7.2f} s wall {clock.cpu:7.2f} s CPU  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--models", type=int, default=14)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--skip-serial", action="store_true", help="skip the one-process scoring run"
    )
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    scenes = [random_scene(i, rng) for i in range(args.scenes)]
    outputs, fallback, targets = build_replies(scenes, args.models, args.seed)
    by_id = {s.scene_id: s for s in scenes}
    n = len(outputs)
    objects = sum(len(s.objects) for s in scenes) / len(scenes)
    print(
        f"{n} replies: {args.models} models x {len(LANGUAGES)} languages x {args.scenes} scenes "
        f"({objects:.1f} objects per scene on average)"
    )
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    if fallback:
        missing = ", ".join(fallback)
        print(
            f"no writer or parser yet for {missing}: their replies are written and parsed as json"
        )

    # Parse-only and parse + score alternate over chunks of the replies, so that load from
    # elsewhere on a shared machine falls on the baseline and the measured run alike.
    parsing, serial = Clock.zero(), Clock.zero()
    for start in range(0, n, CHUNK):
        chunk = outputs[start : start + CHUNK]
        with Clock() as step:
            for item in chunk:
                parse(item.output.output, item.output.language, scene_id=item.output.scene_id)
        parsing.add(step)
        if not args.skip_serial:
            with Clock() as step:
                score_outputs(chunk, by_id, workers=1)
            serial.add(step)
    per_reply = f"{1e3 * parsing.cpu / n:.2f} ms CPU per reply"
    report("baseline: parse only, 1 process", parsing, per_reply)
    if not args.skip_serial:
        ratio = serial.cpu / parsing.cpu
        extra = 1e3 * (serial.cpu - parsing.cpu) / n
        report(
            "parse + score, 1 process",
            serial,
            f"{ratio:.2f} x parse alone (+{extra:.2f} ms CPU per reply)",
        )

    with Clock() as scoring:
        replies = score_outputs(outputs, by_id, workers=args.workers)
    ratio = scoring.cpu / parsing.cpu
    report(f"parse + score, {args.workers} processes", scoring, f"{ratio:.2f} x parse alone (CPU)")

    # The benchmark's cell layout (models x 6 languages, one mode) whatever the writers were.
    replies = [replace(r, language=t, mode="bench") for r, t in zip(replies, targets, strict=True)]
    with Clock() as aggregating:
        summary = aggregate(replies, seed=0)
    cells = len(summary.cells) + len(summary.tiers) + len(summary.model_tiers)
    report("aggregate, 1,000 bootstrap resamples", aggregating, f"{cells} cells")
    wall = scoring.wall + aggregating.wall
    idle = scoring.cpu / max(1, min(args.workers, os.cpu_count() or 1)) + aggregating.cpu
    print(
        f"total: {wall:.2f} s wall here; {idle:.2f} s on {args.workers} idle cores "
        "(CPU seconds spread over the workers; target: at most 30 s on 2 cores)"
    )
    failed = sum(not r.parsed for r in replies)
    means = [float(np.mean(list(s.scores.values()))) for s in summary.models]
    print(
        f"sanity: {failed} failed parses; mean Reconstruct Score of the best model "
        f"{max(means):.3f}, of the worst {min(means):.3f}"
    )
    time_mode_differences(replies, aggregating)


def time_mode_differences(replies: list[ReplyScore], one_mode: Clock) -> None:
    """The replies of model 2k as mode direct and of model 2k+1 as mode nl_cot of one model:
    as many cells and replies as before, half of them paired with the other half."""

    def as_mode(reply: ReplyScore) -> ReplyScore:
        index = int(reply.model.rsplit("_", 1)[1])
        mode = "direct" if index % 2 == 0 else "nl_cot"
        return replace(reply, model=f"model_{index // 2 * 2:02d}", mode=mode)

    paired = [as_mode(r) for r in replies]
    with Clock() as both:
        summary = aggregate(paired, seed=0)
    with Clock() as differences:
        found = mode_differences(paired, summary.metrics, seed=0, resamples=summary.resamples)
    report(
        "aggregate, the replies as two modes",
        both,
        f"{both.cpu / one_mode.cpu:.2f} x one mode (CPU); {len(found)} mode differences",
    )
    report(
        "  of which the mode differences",
        differences,
        f"{differences.cpu / one_mode.cpu:.2f} x the one-mode aggregate (CPU)",
    )


if __name__ == "__main__":
    main()
