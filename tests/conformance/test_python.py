"""Python conformance: every program of ``tests/conformance/python/`` printed by CPython and by
the static evaluator (the Blender and Open3D parsers' reading of Python) must agree, or the
evaluator must have named the construct it could not follow before the first line it got wrong
(``tests/conformance/harness.py``). ``REPORTED`` lists the programs only reported, with why:
a construct that starts to be followed, or stops, shows as a change here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import judge, programs
from tests.conformance.python_runner import run_cpython, run_evaluator

PROGRAMS = programs("python")

#: Programs the evaluator only reports (a warning with its line before the first wrong line),
#: and why. Every other program must print exactly what CPython prints.
REPORTED: dict[str, str] = {
    "random_seeded.py": "random numbers have no static value, seeded or not",
    "dynamic_code.py": "eval() and exec() run code built at run time, which is not read",
    "objects_in_sets.py": "objects as set items or dict keys (hashed by identity) are not modelled",
}

_REAL: dict[Path, tuple[list[str], str | None]] = {}


def _real(path: Path) -> tuple[list[str], str | None]:
    if not _REAL:
        _REAL.update(run_cpython(PROGRAMS))
    return _REAL[path]


def test_suite_is_large_enough() -> None:
    assert len(PROGRAMS) >= 69
    assert set(REPORTED) <= {p.name for p in PROGRAMS}


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(path: Path) -> None:
    lines, error = _real(path)
    assert error is None, f"CPython fails on {path.name}: {error}"
    assert lines, f"{path.name} prints nothing under CPython"
    verdict = judge(lines, run_evaluator(path.read_text(encoding="utf-8")))
    expected = "reported" if path.name in REPORTED else "equal"
    assert verdict.kind == expected, f"{path.name}: {verdict}"
