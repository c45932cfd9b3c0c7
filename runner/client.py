"""The one module that imports the ``openai`` client (the ``run`` extra).

``ChatClient.send`` makes one attempt at one request and says what came of it, without
retrying (the engine decides that): the reply body, or a failure sorted into what a retry may
cure (429, 408, 409, 5xx, a timeout, a dropped connection, a reply that is not a chat
completion), what it cannot (another 4xx: this request is wrong), and what ends the run (401,
403, 404: every request would fail the same way). The client's own retries are off.
"""

from __future__ import annotations

import json
import time
from email.utils import parsedate_to_datetime
from typing import Any, Final

import openai

from runner.engine import Outcome, Verdict

RETRY_STATUSES: Final = frozenset({408, 409, 429})
FATAL_STATUSES: Final = frozenset({401, 403, 404})
CONNECT_TIMEOUT: Final = 10.0


def retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` (or ``retry-after-ms``) header asks to wait; None if none."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name) if headers is not None else None
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            pass
        if name == "retry-after":
            try:
                moment = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            return max(0.0, moment.timestamp() - (time.time() if now is None else now))
    return None


def _message(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
        return json.dumps(inner)[:300]
    return str(error.message)[:300]


def is_completion(body: object) -> bool:
    """A chat completion with a message to read (its content may be null: a refusal)."""
    if not isinstance(body, dict):
        return False
    choices = body.get("choices")
    return (
        isinstance(choices, list)
        and bool(choices)
        and isinstance(choices[0], dict)
        and isinstance(choices[0].get("message"), dict)
    )


class ChatClient:
    """An ``openai.AsyncOpenAI`` client for one endpoint; use inside one event loop."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float) -> None:
        self.base_url = base_url
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key,
            max_retries=0,
            timeout=openai.Timeout(timeout, connect=min(timeout, CONNECT_TIMEOUT)),
        )

    async def send(self, body: dict[str, Any]) -> Outcome:
        start = time.perf_counter()
        try:
            # The whole body goes as ``extra_body``, which the client sends as it is and which
            # wins over the typed arguments: a server's own parameters pass through, and the
            # client does not walk every message part to transform it (a millisecond a request).
            raw = await self._client.chat.completions.with_raw_response.create(
                model=str(body.get("model", "")), messages=[], extra_body=body
            )
            content = raw.http_response.content
        except openai.APITimeoutError:
            return Outcome("retry", time.perf_counter() - start, error="timed out")
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            message = f"connection failed: {type(cause).__name__}: {cause}"
            return Outcome("retry", time.perf_counter() - start, error=message)
        except openai.APIStatusError as error:
            latency = time.perf_counter() - start
            status = error.status_code
            message = f"HTTP {status}: {_message(error)}"
            if status in RETRY_STATUSES or status >= 500:
                wait = retry_after(error.response.headers)
                return Outcome("retry", latency, status=status, error=message, retry_after=wait)
            verdict: Verdict = "fatal" if status in FATAL_STATUSES else "failed"
            return Outcome(verdict, latency, status=status, error=message)
        latency = time.perf_counter() - start
        try:
            reply = json.loads(content)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            return Outcome("retry", latency, status=200, error=f"malformed JSON reply: {error}")
        if not is_completion(reply):
            return Outcome("retry", latency, status=200, error="the reply is not a chat completion")
        return Outcome("ok", latency, body=reply, status=200)

    async def close(self) -> None:
        await self._client.close()


__all__ = ["ChatClient", "is_completion", "retry_after"]
