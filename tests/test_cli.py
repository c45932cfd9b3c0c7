"""The ``spatialbabel`` command: help everywhere, parse on fixtures, documented exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spatialbabel.cli import COMMANDS, ExitCode, main

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spatialbabel.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_top_level_help_lists_the_commands() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    assert "parse" in done.stdout and "Exit codes" in done.stdout


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command: str) -> None:
    done = run_cli(command, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage: spatialbabel " + command in done.stdout


def test_parse_prints_canonical_json_and_diagnostics() -> None:
    case = ROOT / "fixtures" / "json" / "04_trailing_commas.txt"
    done = run_cli("parse", "--language", "json", str(case))
    assert done.returncode == ExitCode.OK
    scene = json.loads(done.stdout)
    assert [o["class_name"] for o in scene["objects"]] == ["cube", "sphere"]
    assert "json.trailing_comma" in done.stderr and str(case) in done.stderr


def test_parse_failure_exits_1_with_the_reason() -> None:
    done = run_cli("parse", "-l", "json", "-", stdin="no scene here")
    assert done.returncode == ExitCode.PROBLEMS
    assert "parse failed" in done.stderr and "json.no_json" in done.stderr


def test_missing_file_exits_3(tmp_path: Path) -> None:
    assert main(["parse", "-l", "json", str(tmp_path / "absent.txt")]) == ExitCode.BAD_INPUT


def test_unknown_language_is_a_usage_error() -> None:
    done = run_cli("parse", "-l", "vrml", "x.txt")
    assert done.returncode == ExitCode.USAGE


def test_every_command_is_documented() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"| `{command}" in text, command
