"""``spatialbabel parse --predictions P --compare OLD.jsonl``: the replies whose parsed scene
changed since an earlier parser version, as a parser fix is reviewed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spatialbabel.cli import ExitCode, main

ROOT = Path(__file__).resolve().parents[2]
DEMO_REPLIES = ROOT / "demo" / "data" / "demo_replies.jsonl"


@pytest.fixture
def parsed(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """Eight demo replies that parse, and this checkout's parse of them."""
    records = [json.loads(line) for line in DEMO_REPLIES.read_text().splitlines()]
    chosen = [r for r in records if r["model"] == "mock-careful"][:8]
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("".join(json.dumps(r) + "\n" for r in chosen))
    out = tmp_path / "parsed.jsonl"
    assert main(["parse", "--predictions", str(predictions), "--out", str(out), "-q"]) == 0
    return predictions, [json.loads(line) for line in out.read_text().splitlines()]


def write_lines(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def test_the_same_parser_changes_nothing(
    parsed: tuple[Path, list[dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    predictions, entries = parsed
    old = write_lines(tmp_path / "old.jsonl", entries)
    assert main(["parse", "--predictions", str(predictions), "--compare", str(old)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing changed, and the parsed replies go to --out only
    assert "8 replies compared" in captured.err and "0 changed" in captured.err


def test_changed_replies_are_listed_with_what_changed(
    parsed: tuple[Path, list[dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    predictions, entries = parsed
    old = [json.loads(json.dumps(e)) for e in entries]  # an "older parser" made by hand
    objects = [e["scene"]["objects"] for e in old]
    lost_id = objects[0].pop()["id"]  # the old parser missed an object
    objects[1][0]["position"][0] += 1e-3  # ... read a position differently
    objects[2][0]["position"][0] += 1e-7  # ... within 1e-6: the same
    old[3].update(ok=False, failure_reason="no object found")  # ... failed on a reply
    objects[3].clear()
    renamed = objects[4][0]["id"]
    objects[4][0]["id"] = "old_name"  # ... named an object otherwise: not a change
    gone = old.pop(5)  # ... never saw a reply
    old.append({**old[0], "line": 99, "scene_id": "scene_x"})  # ... saw one that is gone now
    old_path = write_lines(tmp_path / "old.jsonl", old)
    out = tmp_path / "new.jsonl"
    code = main(
        ["parse", "--predictions", str(predictions), "--compare", str(old_path), "--out", str(out)]
    )
    assert code == ExitCode.PROBLEMS
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 5, lines
    assert lines[0].startswith(f"{predictions}:1: mock-careful ")
    assert lines[0].endswith(f"1 added ({lost_id})")
    moved = objects[1][0]["id"]
    assert f"{predictions}:2:" in lines[1] and f"1 changed ({moved}: position by 0.001)" in lines[1]
    assert f"{predictions}:4:" in lines[2] and "now parses" in lines[2] and "added" in lines[2]
    assert lines[3] == (
        f"{predictions}:6: mock-careful {gone['language']} direct {gone['scene_id']}: "
        f"not in {old_path}"
    )
    assert lines[4].startswith(f"{old_path}:8: ") and "scene_x: not in" in lines[4]
    assert not any(f"{predictions}:3:" in line or f"{predictions}:5:" in line for line in lines)
    assert renamed != "old_name"
    assert "3 changed (0 now fail, 1 now parse, 3 scenes differ), 4 the same" in captured.err
    assert len(out.read_text().splitlines()) == 8


def test_compare_needs_predictions_and_a_readable_old_file(tmp_path: Path) -> None:
    assert main(["parse", "x.txt", "--compare", str(tmp_path / "o.jsonl")]) == ExitCode.USAGE
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text(DEMO_REPLIES.read_text().splitlines()[0] + "\n")
    missing = tmp_path / "absent.jsonl"
    assert main(["parse", "--predictions", str(predictions), "--compare", str(missing)]) == 3
