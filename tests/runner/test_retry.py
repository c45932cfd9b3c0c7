"""Backoff with jitter, and Retry-After in its three spellings."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from runner.engine import RetryPolicy

pytest.importorskip("openai")
from runner.client import retry_after


def test_backoff_doubles_up_to_the_cap_with_jitter_never_near_zero() -> None:
    policy = RetryPolicy(backoff=1.0, max_backoff=8.0)
    rng = random.Random(0)
    for retry, ceiling in ((0, 1.0), (1, 2.0), (2, 4.0), (3, 8.0), (6, 8.0)):
        waits = [policy.delay(retry, None, rng) for _ in range(200)]
        assert all(w is not None and ceiling / 2 <= w <= ceiling for w in waits)
        assert len({round(w or 0, 6) for w in waits}) > 100


def test_retry_after_is_honoured_never_earlier_and_refused_when_too_long() -> None:
    policy = RetryPolicy(backoff=0.01, max_retry_after=30.0)
    rng = random.Random(1)
    waits = [policy.delay(0, 2.0, rng) for _ in range(100)]
    assert all(w is not None and 2.0 <= w <= 2.2 for w in waits)
    assert policy.delay(0, 31.0, rng) is None


def test_retry_after_header_forms() -> None:
    assert retry_after({"retry-after": "3"}) == 3.0
    assert retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    now = datetime(2025, 1, 1, tzinfo=UTC)
    date = format_datetime(now + timedelta(seconds=5), usegmt=True)
    assert retry_after({"retry-after": date}, now=now.timestamp()) == pytest.approx(5.0)
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
