"""The README's Python example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^````python\n(.*?)^````$", text, flags=re.S | re.M)
    assert blocks, "the README lost its Python example"
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(blocks[0], str(README), "exec"), {})
    printed = output.getvalue()
    assert "cube" in printed and "sphere" in printed
    assert "json.class_synonym" in printed and "json.scalar_scale" in printed


def test_readme_names_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "scripts/demo.sh" in text and "scripts/test.sh" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test.sh" in ci
