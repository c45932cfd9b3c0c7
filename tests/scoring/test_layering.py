"""Scoring never names the render stage: the CLI hands it the render stage's silhouette
function (``spatialbabel.cli.stage_hook``), so the scorer installs and runs without it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from spatialbabel.cli import STAGE_HOOKS, MissingStage, stage_hook

ROOT = Path(__file__).resolve().parents[2]
OTHER_STAGES = ("render", "synth", "suites", "s3ft")


def _named_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module the code imports, and every string that could name one for importlib."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if text.isidentifier() or all(part.isidentifier() for part in text.split(".")):
                found.append((node.lineno, text))
    return found


def test_no_scoring_module_imports_or_names_another_stage() -> None:
    offences = []
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        for line, name in _named_modules(ast.parse(path.read_text(), filename=str(path))):
            if name.split(".")[0] in OTHER_STAGES:
                offences.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert offences == []


def test_importing_every_scoring_module_loads_no_render_module() -> None:
    probe = (
        "import importlib, json, pkgutil, sys, scoring\n"
        "for m in pkgutil.iter_modules(scoring.__path__):\n"
        "    importlib.import_module('scoring.' + m.name)\n"
        "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] == 'render')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert json.loads(done.stdout) == []


def test_the_cli_hook_is_the_render_stages_function() -> None:
    module, attribute, _extra = STAGE_HOOKS["silhouette_iou"]
    function = stage_hook("silhouette_iou")
    assert (function.__module__, function.__name__) == (f"{module}.silhouette", attribute)


def test_a_missing_stage_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # A module that cannot be imported: None in sys.modules makes import raise ImportError.
    monkeypatch.setitem(sys.modules, "render", None)
    with pytest.raises(MissingStage, match=r"pip install 'spatialbabel\[render\]'"):
        stage_hook("silhouette_iou")
