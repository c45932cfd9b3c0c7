"""The layering of DEVELOPERS.md, read from every import statement (lazy ones included):
the hub knows no stage, the parsers never import synth or render, no other stage imports the
engine audit, and no stage imports a suite, S3-FT or the harness exports. The CLI (``spatialbabel/cli.py``, the
``cmd_*`` modules) and the demo command's parts wire the stages together, lazily, and are
exempt."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("synth", "parsers", "grammars", "scoring", "render", "runner", "importers", "audit")
ON_TOP = ("suites", "s3ft", "harnesses")
#: Package -> the top-level packages it must never import.
#: The engine audit sits on the parsers and the scorer: no other stage imports it.
AUDIT = ("audit",)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "spatialbabel": STAGES + ON_TOP,
    "parsers": ("synth", "render") + AUDIT + ON_TOP,
    **{stage: AUDIT + ON_TOP for stage in STAGES if stage not in ("parsers", "audit")},
    "audit": ON_TOP,
}


def wiring(path: Path) -> bool:
    name = path.name
    return name == "cli.py" or name.startswith(("cmd_", "demo_"))


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
