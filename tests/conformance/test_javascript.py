"""The JavaScript/TypeScript conformance suite (``javascript_suite``): node and the static
evaluator run each program of ``tests/conformance/javascript/``; the evaluator's output must
equal node's, or differ only after a warning naming the construct. The programs expected to
be only reported are listed, with the reason, in ``EXPECTED_REPORTED``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import programs
from tests.conformance.javascript_suite import (
    EXPECTED_REPORTED,
    RealRun,
    node_available,
    run_real,
    verdict,
)

pytestmark = [
    pytest.mark.node,
    pytest.mark.skipif(not node_available(), reason="node or the typescript package is missing"),
]

PROGRAMS = programs("javascript")


@pytest.fixture(scope="module")
def real_runs() -> dict[str, RealRun]:
    """Every program run by node, in one process for the whole module."""
    return run_real(PROGRAMS)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program(path: Path, real_runs: dict[str, RealRun]) -> None:
    found = verdict(path, real_runs[path.name])
    assert found.kind != "silent", str(found)
    expected = "reported" if path.name in EXPECTED_REPORTED else "equal"
    assert found.kind == expected, str(found)


def test_every_expected_report_names_a_program() -> None:
    names = {p.name for p in PROGRAMS}
    assert set(EXPECTED_REPORTED) <= names


def test_the_suite_covers_javascript_and_typescript() -> None:
    suffixes = [p.suffix for p in PROGRAMS]
    assert suffixes.count(".js") >= 30 and suffixes.count(".ts") >= 10
