"""Speed of ProVisE's grading of drawn answers, per 1,024 x 1,024 drawn answer, and of its
item building, per scene.

Every item's oracle drawing is upscaled to 1,024 x 1,024 and encoded as PNG in memory (what an
image model hands back). Printed per task, each next to the baseline measured in the same run:

- decode: decoding the PNG alone (the floor any grader pays);
- grade: decoding, registering to the source (letterbox bars, resize, ECC), running the task's
  protocol and scoring (``suites.provise.grade.grade_drawing``), in milliseconds and as a
  ratio to decode;
- moved: the same for the drawing shifted by 6 px and zoomed by 3% (ECC finds and undoes it).

With ``--split``, the time each task's builder takes per scene (no files kept), beside the
baseline of loading the scene (its file, ID pass and per-object interiors, which every
builder reads), in the same run.

    .venv/bin/python benchmarks/bench_provise.py --items ITEMS [--repeats 3] [--limit 20]
    .venv/bin/python benchmarks/bench_provise.py --split SPLIT [--scenes 20]

ITEMS is a built items folder (``spatialbabel suite build --suite provise``), SPLIT a generated
split.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable
from pathlib import Path

import numpy as np

from suites.items import read_items
from suites.provise import SUITE, build, pixels
from suites.provise.grade import grade_drawing
from suites.provise.oracle import Oracle
from suites.provise.protocols import Protocol, protocol


def best_of(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def time_build(split: Path, scenes: int) -> None:
    """Seconds per scene of each task's builder, beside loading the scene."""
    hashes = {task: protocol(task).sha256 for task in build.TASKS}
    load = 0.0
    spent: dict[str, float] = defaultdict(float)
    tallies: dict[str, Counter[Hashable]] = {task: Counter() for task in build.TASKS}
    count = 0
    with tempfile.TemporaryDirectory() as out:
        views = build.load_views(split)
        while count < scenes:
            start = time.perf_counter()
            view = next(views, None)
            if view is None:
                break
            for index in range(len(view.scene.objects)):
                view.markable(index)
            load += time.perf_counter() - start
            for k, task in enumerate(build.TASKS):
                rng = np.random.default_rng([0, view.index, k])
                ctx = build.Context(
                    view, Path(out), build.Want(0), rng, hashes[task], tallies[task]
                )
                start = time.perf_counter()
                build.BUILDERS[task](ctx)
                spent[task] += time.perf_counter() - start
            count += 1
    print(f"{'task':<14}{'s/scene':>9}{'ratio to load':>15}")
    print(f"{'(load)':<14}{load / count:>9.3f}{1.0:>15.2f}")
    for task in build.TASKS:
        print(f"{task:<14}{spent[task] / count:>9.3f}{spent[task] / load:>15.2f}")
    total = sum(spent.values())
    print(f"{'all':<14}{total / count:>9.3f}{total / load:>15.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=Path, help="a built ProVisE items folder")
    parser.add_argument("--split", type=Path, help="time the builders on this split instead")
    parser.add_argument("--scenes", type=int, default=20, help="scenes to build at most")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=int, default=20, help="items per task at most")
    args = parser.parse_args()
    if args.split is not None:
        time_build(args.split, args.scenes)
        return
    if args.items is None:
        parser.error("give --items (grading) or --split (building)")
    items = read_items(args.items, SUITE)
    SUITE.prepare(items.folder, items.items)
    oracle = Oracle(items)
    by_task: dict[str, list[tuple[object, bytes, object, object]]] = defaultdict(list)
    by_moved: dict[str, list[bytes]] = defaultdict(list)
    for item in items.items:
        if len(by_task[item.task]) >= args.limit:
            continue
        image = oracle.draw(item)
        drawn = pixels.encode_png(pixels.resize(image, 1024, 1024))
        moved = pixels.warp_similarity(image, dx=6.0, dy=-3.0, scale=1.03)
        by_task[item.task].append((item, drawn, oracle.source(item), oracle.truth(item)))
        by_moved[item.task].append(pixels.encode_png(pixels.resize(moved, 1024, 1024)))
    header = f"{'task':<14}{'answers':>8}{'decode ms':>11}{'grade ms':>10}{'ratio':>8}"
    print(header + f"{'moved ms':>10}{'ratio':>8}")
    totals = [0.0, 0.0, 0, 0.0]
    for task in SUITE.tasks:
        cases = by_task.get(task)
        if not cases:
            continue
        rules = protocol(task)

        def decode_all(cases: list[tuple[object, bytes, object, object]] = cases) -> None:
            for _, data, _, _ in cases:
                pixels.decode(data)

        def grade_all(
            cases: list[tuple[object, bytes, object, object]] = cases, rules: Protocol = rules
        ) -> None:
            for item, data, source, truth in cases:
                grade = grade_drawing(rules, item, pixels.decode(data), source, truth)  # type: ignore[arg-type]
                assert grade.score > 0, (item, grade)

        def grade_moved(
            cases: list[tuple[object, bytes, object, object]] = cases,
            moved: list[bytes] = by_moved[task],
            rules: Protocol = rules,
        ) -> None:
            for (item, _, source, truth), data in zip(cases, moved, strict=True):
                grade_drawing(rules, item, pixels.decode(data), source, truth)  # type: ignore[arg-type]

        decode = best_of(args.repeats, decode_all) / len(cases)
        grade = best_of(args.repeats, grade_all) / len(cases)
        shifted = best_of(args.repeats, grade_moved) / len(cases)
        totals[0] += decode * len(cases)
        totals[1] += grade * len(cases)
        totals[2] += len(cases)
        totals[3] += shifted * len(cases)
        print(
            f"{task:<14}{len(cases):>8}{decode * 1e3:>11.2f}{grade * 1e3:>10.2f}"
            f"{grade / decode:>8.2f}{shifted * 1e3:>10.2f}{shifted / decode:>8.2f}"
        )
    count = int(totals[2])
    decode, grade, shifted = totals[0] / count, totals[1] / count, totals[3] / count
    print(
        f"{'all':<14}{count:>8}{decode * 1e3:>11.2f}{grade * 1e3:>10.2f}{grade / decode:>8.2f}"
        f"{shifted * 1e3:>10.2f}{shifted / decode:>8.2f}"
    )


if __name__ == "__main__":
    main()
