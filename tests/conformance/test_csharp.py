"""The C# conformance suite: every program of ``tests/conformance/csharp/`` is run by Mono (all
of them compiled in one ``mcs`` invocation, ``csharp_mono``) and by the static evaluator with
its console captured (``csharp_static``); the evaluator must print what Mono printed, or have
said which construct it could not follow before the first line that differs (``harness``).

Mono's ``mcs`` compiles C# up to 7.2, and not all of C# 7 (local functions, type patterns in a
``switch``, constant patterns, user ``Deconstruct``): a program using later syntax carries its
output in ``<name>.expected.txt``, worked out from the C# specification, and says so in a
comment; the suite checks that mcs does reject it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.csharp_mono import MonoRun, mono_available, run_programs
from tests.conformance.csharp_static import run_static
from tests.conformance.harness import judge, output_lines, programs

PROGRAMS = programs("csharp")


def _spec_output(program: Path) -> Path:
    return program.with_name(f"{program.stem}.expected.txt")


COMPILED = [p for p in PROGRAMS if not _spec_output(p).exists()]
FROM_SPEC = [p for p in PROGRAMS if _spec_output(p).exists()]

#: Programs the evaluator only ``reported`` (a warning with its line before the first line
#: that differs), and why. A program that starts to be followed, or stops, fails here.
ONLY_REPORTED: dict[str, str] = {
    "dictionary_members": (
        "reading a missing key: C# throws KeyNotFoundException, the evaluator reads on with an"
        " unknown value (a scene keeps what else it builds)"
    ),
    "exceptions": (
        "writing past an array's end: C# throws IndexOutOfRangeException, the evaluator warns"
        " and ignores the write"
    ),
    "file_scoped_namespace": "the namespaces a type is declared in are not kept",
    "foreach_deconstruction": (
        "tree-sitter-c-sharp reads new List<(string Kind, int Count)> as comparisons"
    ),
    "nullable_values": "the default of a null nullable (GetValueOrDefault()) needs its type",
    "switch_statement": "goto case is not followed",
}

_RUNS: dict[str, MonoRun] = {}


def _mono_runs() -> dict[str, MonoRun]:
    if not _RUNS:
        _RUNS.update(run_programs({p.stem: p.read_text(encoding="utf-8") for p in PROGRAMS}))
    return _RUNS


def _check(program: Path, real: list[str]) -> None:
    verdict = judge(real, run_static(program.read_text(encoding="utf-8")))
    assert verdict.kind != "silent", f"{program.name}: {verdict}"
    if program.stem in ONLY_REPORTED:
        assert verdict.kind == "reported", f"{program.name} is now {verdict}: update ONLY_REPORTED"
    else:
        assert verdict.kind == "equal", f"{program.name}: {verdict}"


def test_suite_covers_enough_programs() -> None:
    assert len(PROGRAMS) >= 50
    assert set(ONLY_REPORTED) <= {p.stem for p in PROGRAMS}


@pytest.mark.mono
@pytest.mark.skipif(not mono_available(), reason="Mono (mcs, mono) is not installed")
@pytest.mark.parametrize("program", COMPILED, ids=lambda p: p.stem)
def test_evaluator_prints_what_mono_prints(program: Path) -> None:
    run = _mono_runs()[program.stem]
    assert run.compile_error == "", run.compile_error
    assert run.error == "", f"the program throws on Mono: {run.error}"
    _check(program, output_lines(run.output))


@pytest.mark.parametrize("program", FROM_SPEC, ids=lambda p: p.stem)
def test_evaluator_prints_the_specified_output(program: Path) -> None:
    source = program.read_text(encoding="utf-8")
    assert "mcs" in source.split("using", 1)[0], "say in a comment why mcs cannot run it"
    _check(program, output_lines(_spec_output(program).read_text(encoding="utf-8")))


@pytest.mark.mono
@pytest.mark.skipif(not mono_available(), reason="Mono (mcs, mono) is not installed")
@pytest.mark.parametrize("program", FROM_SPEC, ids=lambda p: p.stem)
def test_programs_with_a_specified_output_are_beyond_mcs(program: Path) -> None:
    assert _mono_runs()[program.stem].compile_error != ""
