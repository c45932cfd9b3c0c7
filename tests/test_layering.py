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


def imported(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module.split(".")[0]


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
