"""Speed of SpatialMind's item building on a rendered clip set, beside a baseline measured in
the same run (these machines are shared and noisy: compare the ratios).

- Building: CPU seconds per clip of ``suites.spatialmind.build.build_items`` (reading the clip
  set, every task's candidates and labels, the balanced pick with its quotas, the spreading of
  the numeric tasks), the median of ``--repeats`` runs into a scratch folder.
- Baseline: CPU seconds per clip to read the same clip set (``load_clip_set``), the part of a
  build no choice of items can avoid.

Run it with another checkout first on ``PYTHONPATH`` (and its own clip set) to compare two
versions of the builder in one session.

    .venv/bin/python benchmarks/bench_spatialmind.py --clips clips/test [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from suites.spatialmind.build import build_items, load_clip_set
from suites.spatialmind.options import SpatialMindOptions


def cpu_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clips", type=Path, required=True, help="a clip set")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    count = len(load_clip_set(args.clips))
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        build = cpu_seconds(
            lambda: build_items(args.clips, out, SpatialMindOptions()), args.repeats
        )
    load = cpu_seconds(lambda: load_clip_set(args.clips), args.repeats)
    print(f"{count} clips, median of {args.repeats} runs, CPU seconds per clip")
    print(f"  build items       {build / count:.4f}")
    print(f"  read the clips    {load / count:.4f}  (baseline)")
    print(f"  build / baseline  {build / load:.2f}")


if __name__ == "__main__":
    main()
