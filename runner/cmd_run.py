"""``spatialbabel run``: send a prompt file to an OpenAI-compatible endpoint and write the
replies in the format ``score`` and ``score-qa`` read.

Every request goes to every ``--model`` (or to the model its body names), at most
``--concurrency`` at a time, with retries on 429, 5xx, timeouts and broken replies. Each reply
is journaled in the cache (``--cache``, by default ``OUT`` with ``.cache.jsonl`` for its
suffix) under the hash of the body sent, so a rerun, or a run after a kill, sends only what the
cache lacks. ``--out`` is then written whole (atomically) from the cache, one line per request
in the prompt file's order, model by model: what each line holds is in ``runner.records``.

Exit codes: 0 every request answered; 1 some requests failed or were not sent, or some lines
of the prompt file are not requests (each reported with its id or line); 3 unreadable prompt
file, a cache in use by another run, an unwritable output; 4 without the ``run`` extra; 130
interrupted (what was answered is kept; run the same command again to send the rest).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from runner.engine import RetryPolicy, RunResult, send_all
from runner.journal import Journal
from runner.records import FORMATS, Format, answered_line, failed_line
from runner.requests import TOKEN_FIELDS, BodyReader, Job, RequestPlan, Settings
from spatialbabel.cli import ExitCode
from spatialbabel.files import atomic_write_chunks
from spatialbabel.run.batch import (
    CODE_MAX_TOKENS,
    DEFAULT_TEMPERATURE,
    DIRECT_ANSWER_MAX_TOKENS,
    NL_COT_MAX_TOKENS,
    decoding_problem,
)

HELP = (
    "send a prompt file to an OpenAI-compatible endpoint (OpenAI, vLLM, SGLang, Ollama) and "
    "write the replies as score and score-qa read them"
)

OPENAI_URL: Final = "https://api.openai.com/v1"
#: Problems of one kind printed before the rest are only counted.
SHOWN: Final = 20


def default_cache(out: Path) -> Path:
    return out.with_name(out.stem + ".cache.jsonl")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "requests", type=Path, metavar="REQUESTS", help="prompt file (`spatialbabel prompts`)"
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the replies (JSONL) to write"
    )
    parser.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help=f"the endpoint, e.g. http://localhost:8000/v1 (default: $OPENAI_BASE_URL, else {OPENAI_URL})",
    )
    parser.add_argument(
        "--model",
        action="append",
        default=None,
        metavar="NAME",
        help="the model to ask, replacing the requests' own; repeat it to ask several (default: each request's model)",
    )
    parser.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="the environment variable holding the API key (default %(default)s); a key is never read from a flag or a file",
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=8,
        metavar="N",
        help="requests in flight (default %(default)s)",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=None,
        metavar="N",
        help=(
            "completion-token limit of every request (default: the request's own, else the paper's: "
            f"{CODE_MAX_TOKENS} for code, {NL_COT_MAX_TOKENS} for NL-CoT answers, {DIRECT_ANSWER_MAX_TOKENS} for direct answers)"
        ),
    )
    parser.add_argument(
        "--max-tokens-field",
        choices=TOKEN_FIELDS,
        default=None,
        help="the body field the limit goes in (default: the request's own, else max_completion_tokens; Ollama reads max_tokens)",
    )
    sampling = parser.add_mutually_exclusive_group()
    sampling.add_argument(
        "--temperature",
        type=float,
        default=None,
        metavar="T",
        help=f"sampling temperature (default: the request's own, else {DEFAULT_TEMPERATURE:g}, the paper's)",
    )
    sampling.add_argument(
        "--no-temperature",
        action="store_true",
        help="send no temperature, for models that refuse one (OpenAI's reasoning models)",
    )
    parser.add_argument(
        "--top-p",
        type=float,
        default=None,
        metavar="P",
        help="nucleus sampling's top_p (default: the request's own, else none sent; the papers set none)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="seconds one attempt may take (default %(default)g)",
    )
    parser.add_argument(
        "--max-retries",
        type=int,
        default=8,
        metavar="N",
        help="retries of a request after a 429, 5xx, timeout or broken reply (default %(default)s)",
    )
    parser.add_argument(
        "--backoff",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="first retry delay, doubled each retry up to 60 s, with jitter (default %(default)g)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        metavar="FILE",
        help="the journal of answered requests (default: OUT's name with .cache.jsonl); several runs may share one",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="records",
        help="records: predictions and answers records for reconstruct and qa requests, batch output for others; batch: batch output for all (default %(default)s)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _report(kind: str, messages: list[str]) -> None:
    for message in messages[:SHOWN]:
        print(f"spatialbabel run: {message}", file=sys.stderr)
    if len(messages) > SHOWN:
        print(f"spatialbabel run: ... and {len(messages) - SHOWN} more {kind}", file=sys.stderr)


def _usage_error(message: str) -> int:
    print(f"spatialbabel run: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _lines(
    plan: RequestPlan, journal: Journal, result: RunResult | None, fmt: Format
) -> Iterator[bytes]:
    failures = result.failures if result is not None else {}
    for job in plan.jobs:
        entry = journal.entries.get(job.key)
        if entry is not None:
            line = answered_line(job.request.custom_id, job.model, entry, fmt)
        elif job.key in failures:
            line = failed_line(job.request.custom_id, job.model, failures[job.key], fmt)
        else:
            continue
        yield (json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def run(args: argparse.Namespace) -> int:
    for name, low in (("concurrency", 1), ("max_tokens", 1), ("max_retries", 0)):
        value = getattr(args, name)
        if value is not None and value < low:
            return _usage_error(f"--{name.replace('_', '-')} must be at least {low}, got {value}")
    if args.timeout <= 0 or args.backoff < 0:
        return _usage_error("--timeout must be positive and --backoff not negative")
    problem = decoding_problem(None, args.temperature, args.top_p)
    if problem is not None:
        return _usage_error(f"--{problem.replace('_', '-')}")
    settings = Settings(
        args.max_tokens, args.max_tokens_field, args.temperature, args.no_temperature, args.top_p
    )
    base_url = args.base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
    api_key = os.environ.get(args.api_key_env, "")
    # The client is imported before the cache is touched: without the extra, nothing happens.
    from runner.client import ChatClient

    plan = RequestPlan.read(args.requests, args.model or [None], settings)
    _report("bad lines", [f"{args.requests}:{p.line}: {p.message}" for p in plan.problems])
    cache = args.cache or default_cache(args.out)
    journal, recovery = Journal.open(cache)
    if recovery.truncated_bytes:
        print(
            f"spatialbabel run: {cache}: dropped a cut-off last line ({recovery.truncated_bytes} bytes); its request is sent again",
            file=sys.stderr,
        )
    if recovery.bad_lines:
        print(
            f"spatialbabel run: {cache}: unreadable lines {list(recovery.bad_lines)} ignored",
            file=sys.stderr,
        )
    pending: dict[str, Job] = {}
    for job in plan.jobs:
        if job.key not in journal.entries:
            pending.setdefault(job.key, job)
    cached = sum(1 for job in plan.jobs if job.key in journal.entries)
    print(
        f"{len(plan.jobs)} request(s): {cached} in the cache {cache}, {len(pending)} to send to {base_url}",
        file=sys.stderr,
    )
    if pending and not api_key:
        print(
            f"spatialbabel run: ${args.api_key_env} is not set; sending no key (fine for a local server)",
            file=sys.stderr,
        )
    result: RunResult | None = None
    started = time.monotonic()
    try:
        if pending:
            with BodyReader(plan) as bodies:
                result = asyncio.run(
                    send_all(
                        list(pending.values()),
                        bodies,
                        journal,
                        lambda: ChatClient(base_url, api_key or "none", timeout=args.timeout),
                        concurrency=args.concurrency,
                        policy=RetryPolicy(max_retries=args.max_retries, backoff=args.backoff),
                        progress=not args.no_progress,
                    )
                )
    finally:
        journal.close()
    elapsed = time.monotonic() - started
    try:
        fmt: Format = args.format
        atomic_write_chunks(args.out, _lines(plan, journal, result, fmt))
    except OSError as error:
        print(f"spatialbabel run: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    return _summary(args, plan, journal, result, elapsed)


def _summary(
    args: argparse.Namespace,
    plan: RequestPlan,
    journal: Journal,
    result: RunResult | None,
    elapsed: float,
) -> int:
    failures = result.failures if result is not None else {}
    failed = [job for job in plan.jobs if job.key in failures and job.key not in journal.entries]
    answered = sum(1 for job in plan.jobs if job.key in journal.entries)
    not_sent = len(plan.jobs) - answered - len(failed)
    _report(
        "failed requests",
        [f"{job.request.custom_id} ({job.model}): {failures[job.key].error}" for job in failed],
    )
    text = f"wrote {answered + len(failed)} line(s) to {args.out}: {answered} answered, {len(failed)} failed"
    if result is not None:
        stats = result.stats
        rate = stats.sent / elapsed if elapsed > 0 else 0.0
        text += (
            f"; sent {stats.sent} in {elapsed:.1f} s ({rate:.1f} req/s), {stats.retries} retries, "
            f"{stats.prompt_tokens} prompt + {stats.completion_tokens} completion tokens"
        )
    print(text)
    if result is not None and result.fatal is not None:
        print(f"spatialbabel run: stopped: {result.fatal}", file=sys.stderr)
    if not_sent:
        print(
            f"spatialbabel run: {not_sent} request(s) not sent; run the same command again to send them",
            file=sys.stderr,
        )
    if result is not None and result.interrupted:
        return ExitCode.INTERRUPTED
    return ExitCode.PROBLEMS if failed or not_sent or plan.problems else ExitCode.OK
