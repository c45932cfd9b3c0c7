"""Question suites over generated splits, one package each under ``suites/``, behind one
interface (``suites.base.Suite``) and one command (``spatialbabel suite build|prompts|score``).

A suite is found by name in ``SUITES``, which maps it to the module that defines it; the module
is imported only when the suite is used, so one suite's dependencies are not paid by another.
Each module exposes its suite as ``SUITE``.
"""

from __future__ import annotations

import importlib

from spatialbabel.registry import Registry
from suites.base import Suite, SuiteError

#: Suite name -> the module that defines it (its ``SUITE``).
SUITES: Registry[str] = Registry("suite")
SUITES.add("spacecast", "suites.spacecast")
SUITES.add("provise", "suites.provise")
SUITES.add("spatialmind", "suites.spatialmind")
SUITES.add("qa", "suites.qa")


def load_suite(name: str) -> Suite:
    """The suite registered as ``name``; an unknown name lists the known ones."""
    module = importlib.import_module(SUITES.get(name))
    suite = getattr(module, "SUITE", None)
    if not isinstance(suite, Suite) or suite.name != name:
        raise SuiteError(f"module {module.__name__} does not define SUITE for suite {name!r}")
    return suite


__all__ = ["SUITES", "load_suite"]
