"""The layering of docs/conventions.md (section 1), read from every import statement (lazy ones
included): the hub knows no stage, the parsers never import synth or render, no other stage
imports the engine audit, and no stage imports a suite, S3-FT, the harness exports or the demo.
The CLI (``spatialbabel/cli.py``) and the command modules its table ``COMMANDS`` names wire the
stages together, lazily, and are exempt; nothing else is."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from spatialbabel.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("synth", "parsers", "grammars", "scoring", "render", "runner", "importers", "audit")
ON_TOP = ("suites", "s3ft", "harnesses", "demo")
#: Package -> the top-level packages it must never import.
#: The engine audit sits on the parsers and the scorer: no other stage imports it.
AUDIT = ("audit",)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "spatialbabel": STAGES + ON_TOP,
    "parsers": ("synth", "render") + AUDIT + ON_TOP,
    **{stage: AUDIT + ON_TOP for stage in STAGES if stage not in ("parsers", "audit")},
    "audit": ON_TOP,
}


#: The exempt modules: the CLI and the command modules it names.
WIRING = frozenset(
    {ROOT / "spatialbabel" / "cli.py"}
    | {ROOT / (module.replace(".", "/") + ".py") for module in COMMANDS.values()}
)


def wiring(path: Path) -> bool:
    return path in WIRING


def test_every_exempt_module_exists() -> None:
    """A command table entry that names no file would exempt nothing, and hide a stale name."""
    assert sorted(str(p.relative_to(ROOT)) for p in WIRING if not p.is_file()) == []


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """Each absolute import's full dotted name; ``from a.b import c`` gives ``a.b`` and
    ``a.b.c``, since ``c`` may be a module."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def imported(path: Path) -> Iterator[tuple[int, str]]:
    for line, module in imported_modules(path):
        yield line, module.split(".")[0]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_part_imports_a_layer_above_it(package: str) -> None:
    broken = [
        f"{path.relative_to(ROOT)}:{line} imports {top}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if not wiring(path)
        for line, top in imported(path)
        if top in FORBIDDEN[package]
    ]
    assert broken == []


EVALUATOR = ROOT / "parsers" / "evaluator"
LANGUAGE_ROOMS = tuple(
    f"parsers.evaluator.{room.name}"
    for room in sorted(EVALUATOR.iterdir())
    if (room / "__init__.py").is_file() and room.name != "core"
)


def test_evaluator_core_imports_no_language() -> None:
    """The evaluator's core runs any language's ``ir``: a language room builds on it, never the
    other way (docs/evaluator.md)."""
    assert {"parsers.evaluator.python", "parsers.evaluator.csharp"} <= set(LANGUAGE_ROOMS)
    broken = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((EVALUATOR / "core").rglob("*.py"))
        for line, module in imported_modules(path)
        if module.startswith(tuple(f"{room}." for room in LANGUAGE_ROOMS))
        or module in LANGUAGE_ROOMS
    ]
    assert broken == []
