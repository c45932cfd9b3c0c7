"""The demo's bundled replies taken the long way: prompts, a local OpenAI-compatible server,
``spatialbabel run`` (``spatialbabel demo --via-server``).

The stub server serves the bundled replies of each mock model, in each mode it answers in, for
the split's reconstruction prompts, and fails a share of first attempts (429 with Retry-After, 500, malformed JSON, a
dropped connection) so that the run shows its retries; every request still ends answered, and
the replies written are the bundled ones, so the scores are the default demo's.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Final

from runner.stub_server import StubServer, canned_replies, rate_faults
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import atomic_write_chunks, read_jsonl

FAULT_RATE: Final = 0.15


def replies_via_server(split: Path, bundled: Path, folder: Path) -> tuple[int, Path]:
    """Write the split's prompts, serve ``bundled`` for them and run every mock model through
    the server; the exit status and the replies file (what ``score`` reads).

    Each model is asked in the modes it has replies for: one prompt file and one run per set
    of modes, all sharing one cache; the runs' outputs are then put together in one file."""
    modes: dict[str, set[str]] = defaultdict(set)
    for item in read_jsonl(bundled):
        if item.record:
            modes[str(item.record["model"])].add(str(item.record["mode"]))
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for model in sorted(modes):
        groups[tuple(sorted(modes[model]))].append(model)
    replies, cache = folder / "replies.jsonl", folder / "replies.cache.jsonl"
    faults = rate_faults(FAULT_RATE, kinds=("429", "500", "malformed", "drop"))
    parts = []
    for number, (group_modes, models) in enumerate(groups.items(), start=1):
        requests = folder / f"requests-{number}.jsonl"
        print(
            f"   writing the {'+'.join(group_modes)} prompts of {split} to {requests}", flush=True
        )
        command = [
            "prompts",
            "--split",
            str(split),
            "--task",
            "reconstruct",
            "--out",
            str(requests),
        ]
        status = main([*command, "--modes", *group_modes])
        if status != ExitCode.OK:
            return status, replies
        served = canned_replies(requests, bundled)
        with StubServer(served, faults=faults, retry_after=0.5) as server:
            print(
                f"   serving {len(served)} bundled replies of {', '.join(models)} at "
                f"{server.base_url} ({FAULT_RATE:.0%} of first attempts fail); spatialbabel run:",
                flush=True,
            )
            parts.append(folder / f"replies-{number}.jsonl")
            command = ["run", str(requests), "--out", str(parts[-1]), "--cache", str(cache)]
            command += ["--base-url", server.base_url, *(f"--model={m}" for m in models)]
            # The bundled replies were written with no token limit: none is cut here.
            command += ["--max-tokens", "8192", "--concurrency", "8", "--backoff", "0.1"]
            status = main([*command, "--no-progress"])
            if status != ExitCode.OK:
                return status, replies
    atomic_write_chunks(replies, (part.read_bytes() for part in parts))
    print(f"   put the {len(parts)} runs' replies together in {replies}", flush=True)
    return ExitCode.OK, replies


__all__ = ["replies_via_server"]
