"""Overhead of ``spatialbabel run`` per request, over the server's own latency, at concurrency 32.

The stub server (``runner.stub_server``, in its own process, on loopback) answers every request
after a fixed ``--latency``. With ``C`` requests in flight, ``N`` requests ideally take
``N / C * latency``; the overhead per request is what a concurrency slot spends on a request
beyond the server's latency: ``wall * C / N - latency``. Printed for:

- the baseline: the bare HTTP client under the openai client (httpx), the same bodies at the
  same concurrency, nothing else;
- ``run``'s engine: the openai client, retry loop, journal with fsync, progress counting;
- the whole command: reading and keying the prompt file, the engine, writing the output.

Each body carries 8 kB of base64 as an image data URL, as prompt files do. Runs alternate, best
of ``--repeats``; the target is at most 2 ms per request over the server's latency. The client
CPU per request is printed too: with a short ``--latency`` the client or the stub server (pure
Python) saturates a core, and the wall then measures throughput, not overhead. The default
latency (0.5 s) is still well under a VLM's (seconds for 2,048 tokens).

    .venv/bin/python benchmarks/bench_run.py [--requests 640] [--latency 0.5] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.client import ChatClient
from runner.engine import RetryPolicy, send_all
from runner.journal import Journal
from runner.requests import BodyReader, RequestPlan, Settings
from spatialbabel.cli import main
from spatialbabel.files import write_jsonl

MODEL = "bench-model"


def write_inputs(folder: Path, count: int) -> tuple[Path, Path]:
    image = "data:image/png;base64," + base64.b64encode(os.urandom(6000)).decode("ascii")
    requests, replies = folder / "requests.jsonl", folder / "replies.jsonl"
    rows, answers = [], []
    for i in range(count):
        custom_id = f"qa/q{i:05d}/direct"
        content = [
            {"type": "image_url", "image_url": {"url": image}},
            {"type": "text", "text": f"Question {i}: how many cubes are there?"},
        ]
        body = {"model": MODEL, "messages": [{"role": "user", "content": content}]}
        rows.append(
            {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}
        )
        answers.append(
            {
                "question_id": f"q{i:05d}",
                "model": MODEL,
                "mode": "direct",
                "output": f"Final answer: {i % 7}",
            }
        )
    write_jsonl(requests, rows)
    write_jsonl(replies, answers)
    return requests, replies


def start_server(
    requests: Path, replies: Path, latency: float
) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "runner.stub_server", "--requests", str(requests)]
    command += ["--replies", str(replies), "--port", "0", "--latency", str(latency)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"(http://\S+/v1)", line)
    if not found:
        server.kill()
        raise RuntimeError(f"the stub server did not start: {line!r}")
    return server, found.group(1)


def bodies_of(requests: Path) -> list[dict[str, Any]]:
    plan = RequestPlan.read(requests, [None], Settings())
    with BodyReader(plan) as reader:
        return [reader.body(job) for job in plan.jobs]


async def baseline(url: str, bodies: list[dict[str, Any]], concurrency: int) -> float:
    try:
        import httpx2 as httpx
    except ImportError:
        import httpx  # type: ignore[no-redef,import-not-found,unused-ignore]
    queue = list(reversed(bodies))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:

        async def work() -> None:
            while queue:
                response = await client.post(url + "/chat/completions", json=queue.pop())
                json.loads(response.content)

        start = time.perf_counter()
        await asyncio.gather(*(work() for _ in range(concurrency)))
        return time.perf_counter() - start


def engine(url: str, requests: Path, folder: Path, concurrency: int) -> float:
    plan = RequestPlan.read(requests, [None], Settings())
    cache = folder / f"engine-{time.monotonic_ns()}.jsonl"
    journal, _ = Journal.open(cache)
    try:
        with BodyReader(plan) as reader:
            start = time.perf_counter()
            result = asyncio.run(
                send_all(
                    list(plan.jobs),
                    reader,
                    journal,
                    lambda: ChatClient(url, "none", timeout=60),
                    concurrency=concurrency,
                    policy=RetryPolicy(),
                    progress=False,
                )
            )
            elapsed = time.perf_counter() - start
    finally:
        journal.close()
    assert result.stats.answered == len(plan.jobs), result.failures
    return elapsed


def command(url: str, requests: Path, folder: Path, concurrency: int) -> float:
    out = folder / f"out-{time.monotonic_ns()}.jsonl"
    args = ["run", str(requests), "--out", str(out), "--base-url", url, "--no-progress"]
    start = time.perf_counter()
    code = main([*args, "--concurrency", str(concurrency)])
    elapsed = time.perf_counter() - start
    assert code == 0
    return elapsed


def main_bench() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=640)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        requests, replies = write_inputs(folder, args.requests)
        bodies = bodies_of(requests)
        server, url = start_server(requests, replies, args.latency)
        try:
            asyncio.run(baseline(url, bodies[:64], args.concurrency))  # warm the server's threads
            runs: dict[str, list[tuple[float, float]]] = {
                "baseline (httpx)": [],
                "run engine": [],
                "run command": [],
            }
            steps: dict[str, Callable[[], float]] = {
                "baseline (httpx)": lambda: asyncio.run(baseline(url, bodies, args.concurrency)),
                "run engine": lambda: engine(url, requests, folder, args.concurrency),
                "run command": lambda: command(url, requests, folder, args.concurrency),
            }
            for _ in range(args.repeats):
                for name, step in steps.items():
                    cpu = time.process_time()
                    wall = step()
                    runs[name].append((wall, time.process_time() - cpu))
        finally:
            server.terminate()
            server.wait(timeout=10)
    ideal = args.requests / args.concurrency * args.latency
    print(
        f"{args.requests} requests, server latency {args.latency * 1000:.0f} ms, concurrency "
        f"{args.concurrency}: ideal wall {ideal:.2f} s; best of {args.repeats}"
    )
    base_wall, base_cpu = min(runs["baseline (httpx)"])
    base_overhead = base_wall * args.concurrency / args.requests - args.latency
    for name, results in runs.items():
        wall, cpu = min(results)
        overhead = wall * args.concurrency / args.requests - args.latency
        print(
            f"  {name:17s} wall {wall:6.2f} s ({wall / base_wall:.3f}x the baseline)  "
            f"{args.requests / wall:6.1f} req/s  overhead {overhead * 1000:6.2f} ms/request "
            f"(+{(overhead - base_overhead) * 1000:5.2f} over the baseline's)  "
            f"client CPU {cpu / args.requests * 1000:.2f} ms/request ({cpu / base_cpu:.2f}x)"
        )


if __name__ == "__main__":
    main_bench()
