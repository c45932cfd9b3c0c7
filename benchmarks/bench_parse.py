"""Speed of the static parsers: replies per second per language, and for languages with a real
engine the ratio against running the same replies in that engine, measured in the same run.

For three.js the baseline is what the parity test does per reply: node + the ``three`` npm
package running the reply's code (audit/three_harness.mjs), one process per reply,
since a reply is a program of its own. Target (issue 4): the static parse at least 20 times
faster than node + three on the same files.

    .venv/bin/python benchmarks/bench_parse.py [--repeat 5] [--baseline-replies 12] [--language threejs]

A language joins the table with one ``Row`` in ``ROWS``: its fixtures folder and, if it has an
engine, a function running one reply there. Blender and Open3D replies run in their engines
in one warm process each (``batch_baseline``): bpy with a factory reset per reply, open3d with
draw calls stubbed; Unity's run in Mono against the UnityEngine facade of the Unity harness
(audit/unity_engine.py), all in one mcs call and one mono run, or one of each per reply.
Target (issue 5): the static parse at least 50 times faster than bpy on the same replies.
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
    #: For engines that run many replies in one warm process: replies per second measured
    #: inside the engine (its own clock), given the replies.
    batch_baseline: Callable[[list[str]], float] | None = None


def _three_baseline(reply: str) -> object:
    from audit.three_engine import reply_code, run_three

    return run_three(reply_code(reply))


def _three_prepare() -> None:
    from audit.three_engine import ensure_three

    ensure_three()


def _unity_process(reply: str) -> object:
    """One reply compiled by mcs against the UnityEngine facade and run by mono, afresh."""
    from audit.engine_scenes import reply_code
    from audit.unity_engine import run_unity

    return run_unity([("reply", reply_code(reply, "unity"))], cache=False)


def _unity_batch(replies: list[str]) -> float:
    """Replies per second when every reply is compiled in one mcs call and run in one mono
    process (as the harness runs the fixtures), timed around both."""
    from audit.engine_scenes import reply_code
    from audit.unity_engine import run_unity

    cases = [(f"r{i}", reply_code(reply, "unity")) for i, reply in enumerate(replies)]
    start = time.perf_counter()
    run_unity(cases, cache=False)
    return len(cases) / (time.perf_counter() - start)


def _unity_prepare() -> None:
    from audit.unity_engine import facade_library

    facade_library()


def _engine_rate(language: str) -> Callable[[list[str]], float]:
    """Replies per second of a Python engine (bpy, open3d) in one warm subprocess: each reply
    from a clean state (bpy: the factory-empty scene), the median of 3 runs per reply, timed
    inside the engine. Process start and imports are left out: the kindest baseline."""

    def rate(replies: list[str]) -> float:
        from audit.engine_scenes import reply_code, run_engine

        cases = [(f"r{i}", reply_code(reply, language)) for i, reply in enumerate(replies)]
        runs = run_engine(language, cases, repeat=3)
        return len(runs) / sum(statistics.median(run.seconds) for run in runs)

    return rate


def _engine_process(language: str) -> Callable[[str], object]:
    """Run one reply in a fresh engine process, as a reply on its own is run (what the three.js
    row measures): process start and the engine's import included."""

    def run(reply: str) -> object:
        from audit.engine_scenes import reply_code, run_engine

        return run_engine(language, [("reply", reply_code(reply, language))])

    return run


ROWS: list[Row] = [
    Row(
        "threejs",
        REPO / "fixtures" / "threejs",
        _three_baseline,
        "node + three (a process per reply)",
        _three_prepare,
    ),
    Row(
        "blender",
        REPO / "fixtures" / "blender",
        None,
        "bpy 5.0.1, one warm process, factory-empty scene per reply",
        None,
        _engine_rate("blender"),
    ),
    Row(
        "blender",
        REPO / "fixtures" / "blender",
        _engine_process("blender"),
        "bpy 5.0.1, a process per reply",
    ),
    Row(
        "open3d",
        REPO / "fixtures" / "open3d",
        None,
        "open3d 0.20, one warm process",
        None,
        _engine_rate("open3d"),
    ),
    Row(
        "open3d",
        REPO / "fixtures" / "open3d",
        _engine_process("open3d"),
        "open3d 0.20, a process per reply",
    ),
    Row(
        "unity",
        REPO / "fixtures" / "unity",
        None,
        "mono + UnityEngine facade, every reply in one mcs call and one mono run",
        _unity_prepare,
        _unity_batch,
    ),
    Row(
        "unity",
        REPO / "fixtures" / "unity",
        _unity_process,
        "mono + UnityEngine facade, an mcs call and a mono run per reply",
        _unity_prepare,
    ),
    Row("dsl", REPO / "fixtures" / "dsl"),
    Row("json", REPO / "fixtures" / "json"),
]


def replies_of(row: Row) -> list[str]:
    # ``<case>.completed.txt`` beside a reply is its completed twin, not a reply of its own.
    return [
        p.read_text(encoding="utf-8")
        for p in sorted(row.fixtures.glob("*.txt"))
        if p.name.count(".") == 1
    ]


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
        if row.batch_baseline is not None:
            if row.prepare is not None:
                row.prepare()
            base = row.batch_baseline(replies[: args.baseline_replies])
            engine, ratio = f"{base:9.1f}", f"{rate / base:7.1f}x"
        elif row.baseline is not None:
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
