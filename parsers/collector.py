"""Pausing Python's cyclic garbage collector while a reply is parsed.

A parse allocates many short-lived objects, in reference cycles, and keeps few: with the
collector running, its passes over the objects still alive (the tree, the program, the
interpreter's scopes) cost a large part of the parse. Paused, it runs once at the end.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector paused (a no-op when it is already off)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        # The collector starts on an allocation past its threshold, and a loop that only
        # parses allocates nothing between parses: run the collection that is due now, the
        # generation the collector itself would pick (short of a full collection).
        count, threshold = gc.get_count(), gc.get_threshold()
        if count[1] > threshold[1] and count[0] > threshold[0]:
            gc.collect(1)
        elif count[0] > threshold[0]:
            gc.collect(0)
