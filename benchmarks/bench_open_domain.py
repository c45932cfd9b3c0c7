"""Cost of the open domain's naming layer: every parser fixture reply parsed in the primitive
domain and in the open domain, in the same run, and the ratio of the two times.

    .venv/bin/python benchmarks/bench_open_domain.py [--repeat 5]

The layer reads each object's name, variable and comments from the reply's text after the
engine has run (``parsers/open_domain.py``); the geometry is the same parse, so the ratio is
the layer's share on top of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parsers import parse  # noqa: E402
from parsers.open_domain import name_objects  # noqa: E402
from spatialbabel import LANGUAGES  # noqa: E402


def replies() -> list[tuple[str, str]]:
    found = []
    for language in LANGUAGES:
        for path in sorted((REPO / "fixtures" / language).glob("*.txt")):
            found.append((language, path.read_text(encoding="utf-8")))
    for path in sorted((REPO / "fixtures" / "real" / "furniture").glob("*.txt")):
        found.append((path.stem, path.read_text(encoding="utf-8")))
    return found


def timed(items: list[tuple[str, str]], domain: str) -> float:
    start = time.perf_counter()
    for language, text in items:
        parse(text, language, domain=domain)  # type: ignore[arg-type]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    items = replies()
    timed(items, "primitive")  # warm: grammars, caches
    timed(items, "open")
    runs: dict[str, list[float]] = {"primitive": [], "open": []}
    for _ in range(args.repeat):
        for domain in runs:  # interleaved, so load changes hit both alike
            runs[domain].append(timed(items, domain))
    best = {domain: min(times) for domain, times in runs.items()}
    median = {domain: statistics.median(times) for domain, times in runs.items()}
    print(f"{len(items)} replies, best of {args.repeat} (median in brackets)")
    for domain in runs:
        print(
            f"  {domain:9s} {best[domain]:.3f} s ({median[domain]:.3f} s), "
            f"{len(items) / best[domain]:.0f} replies/s"
        )
    print(f"  open / primitive: {best['open'] / best['primitive']:.3f}")
    # The layer alone, on the parses already made: steadier than the difference of two runs.
    parsed = [(parse(text, language), text) for language, text in items]
    layer = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for result, text in parsed:
            name_objects(result, text)
        layer.append(time.perf_counter() - start)
    print(
        f"  the naming layer alone: {min(layer):.3f} s, "
        f"{1000 * min(layer) / len(items):.2f} ms a reply, "
        f"{min(layer) / best['primitive']:.3f} of the primitive parse"
    )


if __name__ == "__main__":
    main()
