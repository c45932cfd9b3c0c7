"""Speed of the static parsers: replies per second per language, and for languages with a real
engine the ratio against running the same replies in that engine, measured in the same run.

For three.js the baseline is what the parity test does per reply: node + the ``three`` npm
package running the reply's code (tests/engines/three_harness.mjs), one process per reply,
since a reply is a program of its own. Target (issue 4): the static parse at least 20 times
faster than node + three on the same files.

    .venv/bin/python benchmarks/bench_parse.py [--repeat 5] [--baseline-replies 12] [--language threejs]

A language joins the table with one ``Row`` in ``ROWS``: its fixtures folder and, if it has an
engine, a function running one reply there (the Blender, Open3D and Unity parsers add theirs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parsers import parse  # noqa: E402


@dataclass(frozen=True)
class Row:
    language: str
    fixtures: Path
    #: Runs one reply in the real engine (None: the language has no engine).
    baseline: Callable[[str], object] | None = None
    baseline_name: str = ""
    #: Prepares the engine once (installs, warms caches), outside the timing.
    prepare: Callable[[], None] | None = None


def _three_baseline(reply: str) -> object:
    from tests.engines.three_engine import reply_code, run_three

    return run_three(reply_code(reply))


def _three_prepare() -> None:
    from tests.engines.three_engine import ensure_three

    ensure_three()


ROWS: list[Row] = [
    Row(
        "threejs",
        REPO / "fixtures" / "threejs",
        _three_baseline,
        "node + three (a process per reply)",
        _three_prepare,
    ),
    Row("dsl", REPO / "fixtures" / "dsl"),
    Row("json", REPO / "fixtures" / "json"),
]


def replies_of(row: Row) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(row.fixtures.glob("*.txt"))]


def parse_rate(language: str, replies: list[str], repeat: int) -> tuple[float, float]:
    """Replies per second (median over ``repeat`` passes) and the slowest single parse."""
    for reply in replies:
        parse(reply, language)
    rates = []
    slowest = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        for reply in replies:
            one = time.perf_counter()
            parse(reply, language)
            slowest = max(slowest, time.perf_counter() - one)
        rates.append(len(replies) / (time.perf_counter() - start))
    return statistics.median(rates), slowest


def baseline_rate(row: Row, replies: list[str]) -> float:
    assert row.baseline is not None
    start = time.perf_counter()
    for reply in replies:
        row.baseline(reply)
    return len(replies) / (time.perf_counter() - start)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument(
        "--repeat", type=int, default=5, help="timed passes over the fixtures (median reported)"
    )
    options.add_argument(
        "--baseline-replies",
        type=int,
        default=12,
        help="replies run in the engine for the baseline",
    )
    options.add_argument("--language", action="append", help="only these languages (repeatable)")
    args = options.parse_args()
    print(
        f"{'language':<10} {'replies':>7} {'parse/s':>9} {'slowest':>9} {'engine/s':>9} {'ratio':>8}  baseline"
    )
    for row in ROWS:
        if args.language and row.language not in args.language:
            continue
        replies = replies_of(row)
        if not replies:
            continue
        rate, slowest = parse_rate(row.language, replies, args.repeat)
        engine = ratio = "-"
        if row.baseline is not None:
            if row.prepare is not None:
                row.prepare()
            sample = replies[: args.baseline_replies]
            row.baseline(sample[0])
            base = baseline_rate(row, sample)
            engine, ratio = f"{base:9.1f}", f"{rate / base:7.1f}x"
        print(
            f"{row.language:<10} {len(replies):>7} {rate:9.1f} {slowest * 1000:7.1f}ms {engine:>9} {ratio:>8}  {row.baseline_name}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
