"""Speed of ProVisE's grading of drawn answers, per 1,024 x 1,024 drawn answer.

Every item's oracle drawing is upscaled to 1,024 x 1,024 and encoded as PNG in memory (what an
image model hands back). Printed per task, each next to the baseline measured in the same run:

- decode: decoding the PNG alone (the floor any grader pays);
- grade: decoding, resizing to the source's size, running the task's protocol and scoring
  (``suites.provise.grade.grade_drawing``), in milliseconds and as a ratio to decode.

    .venv/bin/python benchmarks/bench_provise.py --items ITEMS [--repeats 3] [--limit 20]

ITEMS is a built items folder (``spatialbabel suite build --suite provise``).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from suites.items import read_items
from suites.provise import SUITE, pixels
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=Path, required=True, help="a built ProVisE items folder")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=int, default=20, help="items per task at most")
    args = parser.parse_args()
    items = read_items(args.items, SUITE)
    SUITE.prepare(items.folder, items.items)
    oracle = Oracle(items)
    by_task: dict[str, list[tuple[object, bytes, object, object]]] = defaultdict(list)
    for item in items.items:
        if len(by_task[item.task]) >= args.limit:
            continue
        drawn = pixels.encode_png(pixels.resize(oracle.draw(item), 1024, 1024))
        by_task[item.task].append((item, drawn, oracle.source(item), oracle.truth(item)))
    print(f"{'task':<14}{'answers':>8}{'decode ms':>11}{'grade ms':>10}{'ratio':>8}")
    totals = [0.0, 0.0, 0]
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

        decode = best_of(args.repeats, decode_all) / len(cases)
        grade = best_of(args.repeats, grade_all) / len(cases)
        totals[0] += decode * len(cases)
        totals[1] += grade * len(cases)
        totals[2] += len(cases)
        print(
            f"{task:<14}{len(cases):>8}{decode * 1e3:>11.2f}{grade * 1e3:>10.2f}{grade / decode:>8.2f}"
        )
    count = int(totals[2])
    decode, grade = totals[0] / count, totals[1] / count
    print(f"{'all':<14}{count:>8}{decode * 1e3:>11.2f}{grade * 1e3:>10.2f}{grade / decode:>8.2f}")


if __name__ == "__main__":
    main()
