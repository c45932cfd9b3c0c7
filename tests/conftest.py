"""Hypothesis profiles: local runs draw new examples each time (and keep the failures they
find in .hypothesis/); CI (``HYPOTHESIS_PROFILE=ci``, set by .ci/run) draws the same examples
on every run, so a landing never depends on the draw. A failure found locally is fixed, and
its example pinned with ``@example``, before it lands."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
