"""The ``spatialbabel`` command: help everywhere, parse on fixtures, documented exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from parsers import parse
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


# --- parse --predictions ------------------------------------------------------------------------
DEMO_REPLIES = ROOT / "demo" / "data" / "demo_replies.jsonl"


def _predictions_with_bad_lines(tmp_path: Path) -> tuple[Path, list[dict[str, str]]]:
    good = [json.loads(line) for line in DEMO_REPLIES.read_text(encoding="utf-8").splitlines()[:12]]
    lines = [json.dumps(r) for r in good[:5]]
    lines += ['{"scene_id": "s"}', "not json", ""]
    lines += [json.dumps({**good[5], "language": "cobol"})]
    lines += [json.dumps(r) for r in good[5:]]
    path = tmp_path / "replies.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, good


@pytest.mark.parametrize("workers", ["1", "2"])
def test_parse_predictions_writes_one_line_per_reply_in_order(tmp_path: Path, workers: str) -> None:
    path, good = _predictions_with_bad_lines(tmp_path)
    out = tmp_path / "parsed.jsonl"
    done = run_cli("parse", "--predictions", str(path), "--out", str(out), "--workers", workers)
    # Bad lines are reported by number and make the run exit 1; the good ones are all parsed.
    assert done.returncode == ExitCode.PROBLEMS
    assert f"{path}:6: missing field 'model'" in done.stderr
    assert f"{path}:7: not valid JSON" in done.stderr
    assert f"{path}:9: unknown language 'cobol'" in done.stderr
    entries = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [e["line"] for e in entries] == [1, 2, 3, 4, 5] + list(range(10, 17))
    assert [(e["scene_id"], e["model"], e["language"]) for e in entries] == [
        (r["scene_id"], r["model"], r["language"]) for r in good
    ]
    for entry, record in zip(entries, good, strict=True):
        direct = parse(record["output"], record["language"], scene_id=record["scene_id"])
        assert entry["scene"] == direct.scene.to_dict()
        assert entry["ok"] is direct.ok


def test_parse_predictions_of_good_replies_exits_0_to_stdout(tmp_path: Path) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text(
        DEMO_REPLIES.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8"
    )
    done = run_cli("parse", "--predictions", str(path))
    assert done.returncode == ExitCode.OK, done.stderr
    (entry,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert entry["ok"] and entry["scene"]["objects"]


@pytest.mark.parametrize(
    "args",
    [
        ("parse",),
        ("parse", "--predictions", "r.jsonl", "x.txt"),
        ("parse", "--predictions", "r.jsonl", "--workers", "0"),
    ],
    ids=["nothing", "both", "no-workers"],
)
def test_parse_argument_mistakes_are_usage_errors(args: tuple[str, ...]) -> None:
    assert run_cli(*args).returncode == ExitCode.USAGE


def test_parse_predictions_missing_file_exits_3(tmp_path: Path) -> None:
    assert main(["parse", "--predictions", str(tmp_path / "absent.jsonl")]) == ExitCode.BAD_INPUT


def test_parse_without_language_tells_it_from_the_reply(tmp_path: Path) -> None:
    fixtures = ROOT / "fixtures"
    cases = [
        fixtures / "blender" / "b01_plain_ops.txt",
        fixtures / "open3d" / "o01_basic.txt",
        fixtures / "unity" / "u01_basic_start.txt",
    ]
    for case in cases:
        language = case.parent.name
        guessed = run_cli("parse", str(case))
        told = run_cli("parse", "--language", language, str(case))
        assert guessed.returncode == told.returncode == ExitCode.OK
        assert guessed.stdout == told.stdout
        assert f"read as {language}" in guessed.stderr
    garbage = tmp_path / "reply.txt"
    garbage.write_text("I cannot see the image, sorry.", encoding="utf-8")
    done = run_cli("parse", str(garbage))
    assert done.returncode == ExitCode.PROBLEMS
    assert "cannot tell which language" in done.stderr
