"""A local OpenAI-compatible chat completions server with canned replies, and faults on demand.

It answers ``POST /v1/chat/completions`` with the reply canned for the request's (model,
messages), as a real server would: a ``chat.completion`` with ``usage`` (about four characters
a token) and ``finish_reason`` (``"length"`` when the canned reply is longer than the request's
token limit, which then cuts it). A fault plan makes chosen attempts fail the ways servers do:

- ``429``: rate limited, with ``Retry-After``;
- ``500``: a server error;
- ``hang``: no answer until well past the client's timeout;
- ``malformed``: a 200 whose body is not JSON;
- ``drop``: the connection closed halfway through the body;
- any other HTTP status as digits (``"401"``, ``"400"``): that status with an error body.

Tests, ``benchmarks/bench_run.py`` and ``spatialbabel demo --via-server`` use it;
``python -m runner.stub_server --requests R --replies P`` serves the replies of a predictions
or answers file for a prompt file, on loopback. It is stdlib only (``http.server``), and it
records every attempt so that a test can check what was sent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import read_jsonl
from spatialbabel.run.batch import QA, RECONSTRUCT, parse_request_id, qa_id, reconstruct_id

#: A fault: one of FAULT_KINDS, or an HTTP status as digits.
FaultKind = str
FAULT_KINDS: Final[tuple[FaultKind, ...]] = ("429", "500", "hang", "malformed", "drop")

#: (model, messages key, attempt number from 0) -> the fault of that attempt, or None.
FaultPlan = Callable[[str, str, int], FaultKind | None]

CHARS_PER_TOKEN: Final = 4


def messages_key(messages: object) -> str:
    """What the server knows a request by: the hash of its messages."""
    text = json.dumps(messages, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tokens(text: str) -> int:
    return max(1, -(-len(text) // CHARS_PER_TOKEN))


def _prompt_tokens(messages: object) -> int:
    count = 0
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for part in parts:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "image_url":
                count += 85
            elif isinstance(part.get("text"), str):
                count += tokens(part["text"])
    return count


@dataclass(frozen=True)
class Canned:
    """A reply to serve, with the ``finish_reason`` its model gave (None: ``stop``, or
    ``length`` when the request's limit cuts it here)."""

    text: str
    finish_reason: str | None = None


@dataclass(frozen=True)
class Attempt:
    """One request the server received: when, for what, and what it did."""

    at: float
    model: str
    key: str
    number: int
    outcome: str
    authorization: str | None = None


def rate_faults(
    rate: float, *, seed: int = 0, kinds: tuple[FaultKind, ...] = FAULT_KINDS
) -> FaultPlan:
    """A fault on the first attempt of about ``rate`` of the requests, the kind drawn from
    ``kinds``; retries succeed. Decided by hashing (seed, model, key), so it does not depend
    on the order requests arrive in."""

    def plan(model: str, key: str, attempt: int) -> FaultKind | None:
        if attempt > 0 or not kinds:
            return None
        digest = hashlib.sha256(f"{seed}/{model}/{key}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        if draw >= rate:
            return None
        return kinds[digest[8] % len(kinds)]

    return plan


class StubServer:
    """``with StubServer(replies) as server: ... server.base_url ...``.

    ``replies`` maps (model, messages key) to the reply: its text, or a ``Canned`` reply with
    the ``finish_reason`` the model gave (a reply it cut itself); a request without one gets a
    400. ``latency``: seconds every answer takes; ``retry_after``: the header of a 429;
    ``hang``: how long a hanging attempt stalls.
    """

    def __init__(
        self,
        replies: Mapping[tuple[str, str], str | Canned],
        *,
        faults: FaultPlan | None = None,
        latency: float = 0.0,
        retry_after: float = 1.0,
        hang: float = 30.0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.replies = {
            pair: reply if isinstance(reply, Canned) else Canned(reply)
            for pair, reply in replies.items()
        }
        self.faults = faults
        self.latency = latency
        self.retry_after = retry_after
        self.hang = hang
        self.attempts: list[Attempt] = []
        self._counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()
        self._server = _Server((host, port), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> StubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answered(self) -> Counter[tuple[str, str]]:
        """How many whole replies each (model, key) got."""
        with self._lock:
            return Counter((a.model, a.key) for a in self.attempts if a.outcome == "200")

    def _next_attempt(self, model: str, key: str) -> int:
        with self._lock:
            number = self._counts[(model, key)]
            self._counts[(model, key)] += 1
            return number

    def _record(
        self, model: str, key: str, number: int, outcome: str, authorization: str | None = None
    ) -> None:
        with self._lock:
            self.attempts.append(
                Attempt(time.monotonic(), model, key, number, outcome, authorization)
            )


class _Server(ThreadingHTTPServer):
    # Room for many clients connecting at once (the default backlog is 5).
    request_queue_size = 256


def completion(model: str, reply: Canned, messages: object, limit: int | None) -> dict[str, Any]:
    """A ``chat.completion`` answering with ``reply``, cut at ``limit`` tokens."""
    text, finish = reply.text, reply.finish_reason or "stop"
    if limit is not None and tokens(text) > limit:
        text, finish = text[: limit * CHARS_PER_TOKEN], "length"
    prompt = _prompt_tokens(messages)
    return {
        "id": "chatcmpl-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:24],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish,
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": tokens(text),
            "total_tokens": prompt + tokens(text),
        },
    }


def _handler(stub: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, payload: bytes, headers: Mapping[str, str] = {}) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def _error(self, status: int, message: str, headers: Mapping[str, str] = {}) -> None:
            body = {"error": {"message": message, "type": "stub_error", "code": status}}
            self._send(status, json.dumps(body).encode(), headers)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._error(404, f"no route {self.path}")
                return
            try:
                body = json.loads(raw)
                model, messages = str(body["model"]), body["messages"]
            except (ValueError, KeyError, TypeError):
                self._error(400, "the body is not a chat completions request")
                return
            key = messages_key(messages)
            number = stub._next_attempt(model, key)
            fault = stub.faults(model, key, number) if stub.faults else None
            reply = stub.replies.get((model, key))
            outcome = fault or ("200" if reply is not None else "400")
            stub._record(model, key, number, outcome, self.headers.get("Authorization"))
            if fault == "429":
                self._error(429, "rate limited", {"Retry-After": f"{stub.retry_after:g}"})
                return
            if fault is not None and fault.isdigit():
                self._error(int(fault), f"stub fault {fault}")
                return
            if fault == "hang":
                time.sleep(stub.hang)
                self.close_connection = True
                return
            if stub.latency:
                time.sleep(stub.latency)
            if reply is None:
                self._error(400, f"the stub has no reply for this request to {model}")
                return
            limit = body.get("max_completion_tokens", body.get("max_tokens"))
            payload = json.dumps(
                completion(model, reply, messages, limit if isinstance(limit, int) else None),
                ensure_ascii=False,
            ).encode("utf-8")
            if fault == "malformed":
                self._send(200, payload[: len(payload) // 2])
                return
            if fault == "drop":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload[: len(payload) // 2])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            self._send(200, payload)

    return Handler


def _record_id(record: Mapping[str, Any]) -> str | None:
    """The request id a predictions or answers record answers."""
    given = record.get("request_id")
    if isinstance(given, str):
        return given
    try:
        if "question_id" in record:
            return qa_id(record["question_id"], record["mode"])
        return reconstruct_id(record["scene_id"], record["language"], record["mode"])
    except (KeyError, TypeError, ValueError):
        return None


def _normal_id(custom_id: str) -> str:
    """A reconstruct id in its full form (the three-part form reads as mode ``direct``)."""
    try:
        request = parse_request_id(custom_id)
    except ValueError:
        return custom_id
    return str(request) if request.task in (RECONSTRUCT, QA) else custom_id


def canned_replies(requests: Path, records: Path) -> dict[tuple[str, str], Canned]:
    """The replies of a predictions or answers file (``{scene_id, model, language, mode,
    output}`` or ``{question_id, model, mode, output}``), keyed as the server sees requests:
    by the model and the messages of the prompt file's request with the record's id; a
    record's ``finish_reason`` is served with it."""
    messages: dict[str, str] = {}
    for item in read_jsonl(requests):
        record = item.record or {}
        body = record.get("body")
        if isinstance(record.get("custom_id"), str) and isinstance(body, dict):
            messages[_normal_id(record["custom_id"])] = messages_key(body.get("messages"))
    replies: dict[tuple[str, str], Canned] = {}
    for item in read_jsonl(records):
        record = item.record or {}
        request_id = _record_id(record)
        key = messages.get(_normal_id(request_id)) if request_id else None
        if key is not None and isinstance(record.get("output"), str):
            finish = record.get("finish_reason")
            replies[(str(record.get("model")), key)] = Canned(
                record["output"], finish if isinstance(finish, str) else None
            )
    return replies


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m runner.stub_server",
        description="Serve canned replies as an OpenAI-compatible chat completions endpoint.",
    )
    parser.add_argument("--requests", type=Path, required=True, help="the prompt file")
    parser.add_argument(
        "--replies", type=Path, required=True, help="predictions or answers JSONL to serve"
    )
    parser.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any free)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    parser.add_argument(
        "--fault-rate", type=float, default=0.0, help="share of requests whose first try fails"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the fault draw")
    args = parser.parse_args(argv)
    replies = canned_replies(args.requests, args.replies)
    faults = rate_faults(args.fault_rate, seed=args.seed) if args.fault_rate else None
    with StubServer(replies, faults=faults, latency=args.latency, port=args.port) as server:
        print(f"serving {len(replies)} replies at {server.base_url} (Ctrl-C stops)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = [
    "FAULT_KINDS",
    "Attempt",
    "Canned",
    "FaultKind",
    "FaultPlan",
    "StubServer",
    "canned_replies",
    "completion",
    "messages_key",
    "rate_faults",
    "tokens",
]
