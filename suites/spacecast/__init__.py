"""SpaceCast on primitives: questions about a scene after a change no view shows
(docs/spacecast.md). ``SUITE`` is the suite; the build's heavy parts load when it runs."""

from suites.spacecast.suite import SUITE

__all__ = ["SUITE"]
