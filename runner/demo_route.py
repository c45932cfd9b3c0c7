"""The demo's bundled replies taken the long way: prompts, a local OpenAI-compatible server,
``spatialbabel run`` (``spatialbabel demo --via-server``).

The stub server serves the bundled replies of each mock model for the split's reconstruction
prompts, and fails a share of first attempts (429 with Retry-After, 500, malformed JSON, a
dropped connection) so that the run shows its retries; every request still ends answered, and
the replies written are the bundled ones, so the scores are the default demo's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from runner.stub_server import StubServer, canned_replies, rate_faults
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl

FAULT_RATE: Final = 0.15


def replies_via_server(split: Path, bundled: Path, folder: Path) -> tuple[int, Path]:
    """Write the split's prompts, serve ``bundled`` for them and run every mock model through
    the server; the exit status and the replies file (what ``score`` reads)."""
    requests, replies = folder / "requests.jsonl", folder / "replies.jsonl"
    print(f"   writing the reconstruction prompts of {split} to {requests}", flush=True)
    status = main(
        ["prompts", "--split", str(split), "--task", "reconstruct", "--out", str(requests)]
    )
    if status != ExitCode.OK:
        return status, replies
    models = sorted({str(item.record["model"]) for item in read_jsonl(bundled) if item.record})
    faults = rate_faults(FAULT_RATE, kinds=("429", "500", "malformed", "drop"))
    served = canned_replies(requests, bundled)
    with StubServer(served, faults=faults, retry_after=0.5) as server:
        print(
            f"   serving {len(served)} bundled replies at {server.base_url} "
            f"({FAULT_RATE:.0%} of first attempts fail); spatialbabel run:",
            flush=True,
        )
        command = ["run", str(requests), "--out", str(replies), "--base-url", server.base_url]
        command += [f"--model={model}" for model in models]
        # The bundled replies were written with no token limit: none is cut here.
        command += ["--max-tokens", "8192", "--concurrency", "8", "--backoff", "0.1"]
        status = main([*command, "--no-progress"])
    return status, replies


__all__ = ["replies_via_server"]
