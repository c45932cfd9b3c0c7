"""Cost of the engine audit: a reply run in its real engine inside the sandbox, against the
static parse of the same reply, measured in the same run; and the two ways of running a batch.

    .venv/bin/python benchmarks/bench_audit.py [--predictions replies.jsonl] [--replies 24]

Per engine (node + three, bpy, open3d, Mono + the UnityEngine facade) over the same replies
(default: the demo's bundled replies of that language):

- ``parse``: the static parse (``parsers.parse``), warm, the median of 3 per reply;
- ``audit``: the audit's way, wall clock per reply: one sandboxed worker for the batch that
  forks a process per reply (the Python engines), a sandboxed process per reply (node), or
  the batch compiled in one sandboxed mcs call and a sandboxed mono process per reply (Unity);
  the worker's start-up (Unity: the batch's compilation) is printed apart;
- ``fresh``: a new sandboxed worker per reply (start-up included; Unity: each reply compiled
  alone), the alternative the worker and batch designs avoid;
- ``bare``: the engine without the sandbox (the tests' runners: one unsandboxed process for
  the batch, per reply inside it; for node a plain process per reply; for Unity the batch
  compiled in one mcs call and run in one mono process, compilation included), what the
  sandbox costs.

The ratios printed are ``audit / parse``, ``fresh / audit`` and ``audit / bare`` (for Unity the
audit's side of the last one includes its share of the batch's compilation, as ``bare`` does).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from audit.engine_scenes import run_engine  # noqa: E402
from audit.engines import Engine, find_engine  # noqa: E402
from audit.pipeline import read_replies  # noqa: E402
from audit.sandbox import Limits, Sandbox  # noqa: E402
from audit.three_engine import run_three  # noqa: E402
from audit.unity_engine import run_unity  # noqa: E402
from demo.cmd_demo import bundled_replies  # noqa: E402
from parsers import parse  # noqa: E402
from parsers.extract import extract_code  # noqa: E402


def _parse_seconds(replies: list[str], language: str) -> float:
    for reply in replies[:2]:
        parse(reply, language)  # grammars and caches, outside the timing
    times = []
    for reply in replies:
        runs = []
        for _ in range(3):
            start = time.perf_counter()
            parse(reply, language)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs))
    return statistics.mean(times)


def _audit_seconds(engine: Engine, codes: list[str]) -> tuple[float, float]:
    session = engine.open(Sandbox(Limits()))
    try:
        times = []
        session.prepare([(str(index), code) for index, code in enumerate(codes)])
        for index, code in enumerate(codes):
            outcome = session.run(str(index), code)
            assert outcome.status == "ran", outcome
            times.append(outcome.seconds)
    finally:
        session.close()
    return statistics.mean(times), session.startup_seconds


def _fresh_seconds(engine: Engine, codes: list[str]) -> float:
    times = []
    for index, code in enumerate(codes):
        start = time.perf_counter()
        session = engine.open(Sandbox(Limits()))
        session.run(str(index), code)
        session.close()
        times.append(time.perf_counter() - start)
    return statistics.mean(times)


def _bare_seconds(language: str, codes: list[str]) -> float:
    if language == "threejs":
        times = []
        for code in codes:
            start = time.perf_counter()
            run_three(code)
            times.append(time.perf_counter() - start)
        return statistics.mean(times)
    if language == "unity":
        start = time.perf_counter()
        run_unity([(f"r{i}", code) for i, code in enumerate(codes)], cache=False)
        return (time.perf_counter() - start) / len(codes)
    runs = run_engine(language, [(str(i), code) for i, code in enumerate(codes)])
    return statistics.mean(run.seconds[0] for run in runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--predictions", type=Path, default=bundled_replies())
    parser.add_argument("--replies", type=int, default=24, help="replies per engine")
    parser.add_argument("--fresh", type=int, default=4, help="replies timed with a fresh worker")
    args = parser.parse_args(argv)
    replies = read_replies(args.predictions)
    print(f"replies from {args.predictions}")
    header = f"{'language':<9} {'engine':<34} {'n':>3} {'parse ms':>9} {'audit ms':>9} {'start s':>8} {'fresh ms':>9} {'bare ms':>8}  audit/parse  fresh/audit  audit/bare"
    print(header)
    for language in ("threejs", "unity", "blender", "open3d"):
        engine = find_engine(language)
        if isinstance(engine, str) or engine.missing() is not None:
            print(
                f"{language:<9} not measured: {engine if isinstance(engine, str) else engine.missing()}"
            )
            continue
        texts = [r.output.output for r in replies if r.output.language == language][: args.replies]
        codes = [extract_code(text, language).code for text in texts]
        parse_s = _parse_seconds(texts, language)
        audit_s, startup = _audit_seconds(engine, codes)
        fresh_s = _fresh_seconds(engine, codes[: args.fresh])
        bare_s = _bare_seconds(language, codes)
        name = engine.label
        if language in ("threejs", "unity"):
            opened = engine.open(Sandbox(Limits()))
            name = opened.name
            opened.close()
        # Unity's bare run compiles the batch too: the audit's side takes its share of it.
        audit_vs_bare = audit_s + (startup / len(codes) if language == "unity" else 0.0)
        print(
            f"{language:<9} {name[:34]:<34} {len(codes):>3} {parse_s * 1e3:>9.2f} {audit_s * 1e3:>9.1f} "
            f"{startup:>8.2f} {fresh_s * 1e3:>9.1f} {bare_s * 1e3:>8.1f}  {audit_s / parse_s:>10.0f}x "
            f"{fresh_s / audit_s:>11.1f}x {audit_vs_bare / bare_s:>10.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
