"""``spatialbabel score`` on a tiny split built here: tables, files, and every kind of bad input
reported with its line number and counted."""

from __future__ import annotations

import csv
import json
import sys
import types
from pathlib import Path

import pytest

from parsers import write
from scoring import OUTPUT_FILES, score_predictions
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import write_json
from tests.scoring.helpers import layout, moved

EVAL = ("s1", "s2", "s3")
SplitFixture = tuple[Path, dict[str, Scene]]


def make_split(root: Path) -> dict[str, Scene]:
    scenes = {}
    for k, scene_id in enumerate((*EVAL, "s4")):
        scene = Scene(scene_id, layout(k, count=3 + k).objects, meta={"tier": k % 5 + 1})
        scene.save(root / "scenes" / f"{scene_id}.json")
        scenes[scene_id] = scene
    write_json(root / "subsets.json", {"eval": list(EVAL), "phase1": ["s4"], "unused": []})
    write_json(root / "manifest.json", {"generator": "test", "counts": {"scenes": 4}})
    return scenes


def record(
    scene_id: str, text: str, model: str = "good", language: str = "json", mode: str = "image"
) -> str:
    return json.dumps(
        {"scene_id": scene_id, "model": model, "language": language, "mode": mode, "output": text}
    )


def clean_predictions(scenes: dict[str, Scene], ids: tuple[str, ...] = EVAL) -> list[str]:
    import numpy as np

    lines = []
    for scene_id in ids:
        scene = scenes[scene_id]
        lines.append(record(scene_id, write(scene, "json")))
        noisy = moved(
            scene, np.random.default_rng(len(lines)).normal(0, 0.4, (len(scene.objects), 3))
        )
        lines.append(record(scene_id, write(noisy, "json"), model="noisy"))
    lines.append(record("s1", "I would rather not.", model="lazy"))
    lines.append(record("s2", "[]", model="lazy"))
    lines.append(record("s3", write(scenes["s3"], "json")[:40], model="lazy"))
    return lines


@pytest.fixture
def split(tmp_path: Path) -> SplitFixture:
    root = tmp_path / "split"
    return root, make_split(root)


def run_cli(*args: str | Path) -> int:
    return main(["score", *(str(a) for a in args)])


def test_clean_run_prints_the_table_and_writes_every_file(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    out = tmp_path / "scores"
    assert (
        run_cli("--split", root, "--predictions", predictions, "--out", out, "--workers", "1")
        == ExitCode.OK
    )
    printed = capsys.readouterr().out
    header = next(line for line in printed.splitlines() if line.startswith("model"))
    assert header.split() == ["model", "json", "Δ", "best", "worst"]
    good_row = next(line for line in printed.splitlines() if line.startswith("good "))
    assert good_row.split()[1] == "1.000"
    assert "gaps.csv" in OUTPUT_FILES
    for name in OUTPUT_FILES:
        assert (out / name).stat().st_size > 0
    data = json.loads((out / "scores.json").read_text())
    assert data["schema_version"] == 1
    assert data["summary"] == {
        "lines_scored": 9,
        "parse_failures": 3,
        "truncated": 0,
        "skipped_outside_subset": 0,
        "skipped_other_tasks": 0,
        "problems": {
            "malformed": 0,
            "unknown_scene": 0,
            "unknown_language": 0,
            "duplicate": 0,
            "missing": 0,
            "failed": 0,
        },
    }
    # One language each: the gap across languages is undefined, not zero.
    assert [m["delta"] for m in data["models"]] == [None, None, None]
    lazy = [r for r in data["replies"] if r["model"] == "lazy"]
    assert all(not r["parsed"] and r["failure_reason"] for r in lazy)
    assert all(r["values"]["class_accuracy"] is None for r in lazy)
    good = next(r for r in data["replies"] if r["model"] == "good")
    assert good["matching"]["pairs"][0]["predicted_id"] == good["matching"]["pairs"][0]["true_id"]
    with (out / "cells.csv").open() as stream:
        rows = {r["model"]: r for r in csv.DictReader(stream)}
    assert float(rows["good"]["score"]) == 1.0
    assert float(rows["lazy"]["score"]) == 0.0
    assert (
        float(rows["noisy"]["score_low"])
        <= float(rows["noisy"]["score"])
        <= float(rows["noisy"]["score_high"])
    )
    assert r"\begin{tabular}" in (out / "scores.tex").read_text()
    assert "| good |" in (out / "scores.md").read_text()


def bad_predictions(scenes: dict[str, Scene]) -> str:
    good = [record(s, write(scenes[s], "json")) for s in EVAL]
    lines = [
        good[0],
        '{"scene_id": "s2", "model": "good", ',  # 2: broken JSON
        json.dumps(
            {"scene_id": "s2", "model": "good", "language": "json", "mode": "image"}
        ),  # 3: no output
        record("s2", "x", language="cobol"),  # 4
        record("nope", write(scenes["s1"], "json")),  # 5
        good[1],
        good[1],  # 7: duplicate of 6
        record("s4", write(scenes["s4"], "json")),  # 8: outside the eval subset
        "",  # blank lines are not records
        "[1, 2]",  # 10
    ]
    return "\n".join(lines) + "\n"


def test_every_bad_line_is_reported_with_its_number_and_counted(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    predictions = tmp_path / "bad.jsonl"
    predictions.write_text(bad_predictions(scenes))
    out = tmp_path / "scores"
    assert (
        run_cli("--split", root, "--predictions", predictions, "--out", out, "--workers", "1")
        == ExitCode.PROBLEMS
    )
    err = capsys.readouterr().err
    for line, kind in (
        (2, "malformed"),
        (3, "malformed"),
        (4, "unknown_language"),
        (5, "unknown_scene"),
        (7, "duplicate"),
        (10, "malformed"),
    ):
        assert f"{predictions}:{line}: {kind}:" in err, (line, kind)
    assert "missing field 'output'" in err and "already given on line 6" in err
    assert "has no reply for scene 's3'" in err
    data = json.loads((out / "scores.json").read_text())
    assert data["summary"]["problems"] == {
        "malformed": 3,
        "unknown_scene": 1,
        "unknown_language": 1,
        "duplicate": 1,
        "missing": 1,
        "failed": 0,
    }
    assert data["summary"]["skipped_outside_subset"] == 1 and data["skipped_lines"] == [8]
    assert sorted(r["line"] for r in data["replies"]) == [1, 6]


def test_strict_makes_any_problem_fatal_and_writes_nothing(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    predictions = tmp_path / "bad.jsonl"
    predictions.write_text(bad_predictions(scenes))
    out = tmp_path / "scores"
    code = run_cli("--split", root, "--predictions", predictions, "--out", out, "--strict")
    assert code == ExitCode.BAD_INPUT
    assert "--strict" in capsys.readouterr().err
    assert not out.exists()


def test_strict_passes_a_clean_file(split: SplitFixture, tmp_path: Path) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    assert (
        run_cli("--split", root, "--predictions", predictions, "--out", tmp_path / "o", "--strict")
        == ExitCode.OK
    )


def test_subsets(split: SplitFixture, tmp_path: Path) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes, (*EVAL, "s4"))) + "\n")
    run_all = score_predictions(root, predictions, subset="all", resamples=50)
    assert len(run_all.split.scenes) == 4 and not run_all.predictions.skipped
    run_phase1 = score_predictions(root, predictions, subset="phase1", resamples=50)
    assert {r.scene_id for r in run_phase1.replies} == {"s4"}
    assert len(run_phase1.predictions.skipped) == 9  # good, noisy and lazy on s1-s3
    # "lazy" replied only for s1-s3, so under "all" its s4 reply is missing, and said so.
    assert [p.message for p in run_all.problems if p.kind == "missing"] == [
        "model 'lazy', language 'json', mode 'image' has no reply for scene 's4'"
    ]


def test_failed_as_zero_flag(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    lines = [record(s, write(scenes[s], "json"), model="half") for s in EVAL[:2]] + [
        record("s3", "nothing", model="half")
    ]
    predictions.write_text("\n".join(lines) + "\n")
    scores = {}
    for flag in ((), ("--failed-as-zero",)):
        out = tmp_path / f"o{len(flag)}"
        assert (
            run_cli("--split", root, "--predictions", predictions, "--out", out, *flag)
            == ExitCode.OK
        )
        with (out / "cells.csv").open() as stream:
            scores[bool(flag)] = float(next(csv.DictReader(stream))["score"])
    # Paper rule: (2/3 + 2/3 + 1 + 1 + 1) / 5; failed as zero: every component 2/3.
    assert scores[False] == pytest.approx((2 / 3 + 2 / 3 + 3) / 5, abs=1e-9)
    assert scores[True] == pytest.approx(2 / 3, abs=1e-9)


def test_a_language_without_an_installed_parser_is_reported(
    split: SplitFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scoring.inputs

    root, _ = split
    monkeypatch.setattr(scoring.inputs, "_parser_available", lambda language: language != "unity")
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text(record("s1", "using UnityEngine;", language="unity") + "\n")
    run = score_predictions(root, predictions, resamples=10)
    assert [(p.kind, p.line) for p in run.problems] == [("unknown_language", 1)]
    assert "no parser" in run.problems[0].message


def test_broken_split_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("")
    assert (
        run_cli(
            "--split", tmp_path / "nowhere", "--predictions", predictions, "--out", tmp_path / "o"
        )
        == ExitCode.BAD_INPUT
    )
    assert "no scenes/ folder" in capsys.readouterr().err


def test_subset_listing_a_missing_scene_is_bad_input(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = split
    write_json(root / "subsets.json", {"eval": ["s1", "ghost"], "phase1": [], "unused": []})
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("")
    assert (
        run_cli("--split", root, "--predictions", predictions, "--out", tmp_path / "o")
        == ExitCode.BAD_INPUT
    )
    assert "'ghost'" in capsys.readouterr().err


def test_missing_predictions_file_is_bad_input(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = split
    assert (
        run_cli("--split", root, "--predictions", tmp_path / "none.jsonl", "--out", tmp_path / "o")
        == ExitCode.BAD_INPUT
    )
    assert "none.jsonl: no such file" in capsys.readouterr().err


def test_silhouette_without_the_renderer_exits_4(
    split: SplitFixture,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, scenes = split
    monkeypatch.setitem(sys.modules, "render", types.ModuleType("render"))
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    code = run_cli(
        "--split", root, "--predictions", predictions, "--out", tmp_path / "o", "--silhouette"
    )
    assert code == ExitCode.MISSING_DEPENDENCY
    assert "render.silhouette_iou" in capsys.readouterr().err


def test_silhouette_column_from_the_renderer(
    split: SplitFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, scenes = split
    calls: list[tuple[str, Path]] = []

    def silhouette_iou(predicted: Scene, truth: Scene, split_dir: Path) -> float:
        calls.append((truth.scene_id, split_dir))
        return 1.0 if predicted.objects == truth.objects else 0.25

    fake = types.ModuleType("render")
    fake.silhouette_iou = silhouette_iou  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "render", fake)
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    out = tmp_path / "o"
    args = (
        "--split",
        root,
        "--predictions",
        predictions,
        "--out",
        out,
        "--silhouette",
        "--workers",
        "1",
    )
    assert run_cli(*args) == ExitCode.OK
    with (out / "cells.csv").open() as stream:
        rows = {r["model"]: r for r in csv.DictReader(stream)}
    assert float(rows["noisy"]["silhouette_iou"]) == 0.25
    assert rows["lazy"]["silhouette_iou"] == ""  # failed parses are left out, as for the fidelities
    assert len(calls) == 6 and all(split_dir == root for _, split_dir in calls)


def test_worker_processes_give_the_same_results(split: SplitFixture, tmp_path: Path) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    one = score_predictions(root, predictions, resamples=20, workers=1)
    two = score_predictions(root, predictions, resamples=20, workers=2)
    assert [r.to_dict() for r in one.replies] == [r.to_dict() for r in two.replies]
    assert one.aggregate.to_dict() == two.aggregate.to_dict()


def test_the_tables_do_not_depend_on_the_order_of_the_lines(
    split: SplitFixture, tmp_path: Path
) -> None:
    # A runner writes model by model; a batch output comes back in any order. Float sums and
    # the bootstrap's group sums once followed line order, moving the last bits of a table.
    import numpy as np

    root, scenes = split
    lines = clean_predictions(scenes)
    for seed in range(4):
        lines += [
            record(
                s,
                write(
                    moved(
                        scenes[s],
                        np.random.default_rng(seed).normal(0, 0.3, (len(scenes[s].objects), 3)),
                    ),
                    language,
                ),
                model=f"m{seed}",
                language=language,
            )
            for s in EVAL
            for language in ("json", "dsl")
        ]
    given, shuffled = tmp_path / "given.jsonl", tmp_path / "shuffled.jsonl"
    given.write_text("\n".join(lines) + "\n")
    order = np.random.default_rng(7).permutation(len(lines))
    shuffled.write_text("\n".join(lines[i] for i in order) + "\n")
    one = score_predictions(root, given, resamples=50, workers=1)
    two = score_predictions(root, shuffled, resamples=50, workers=1)
    assert one.aggregate.to_dict() == two.aggregate.to_dict()


def test_an_unwritable_output_folder_is_reported(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, scenes = split
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    blocker = tmp_path / "taken"
    blocker.write_text("a file, not a folder")
    code = run_cli(
        "--split", root, "--predictions", predictions, "--out", blocker, "--workers", "1"
    )
    assert code == ExitCode.BAD_INPUT
    assert f"cannot write into {blocker}" in capsys.readouterr().err


def test_audit_writes_audit_json_beside_the_scores(
    split: SplitFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--audit N``: the scored replies' draw, audit.json and audit.md in the scores folder;
    JSON has no engine, which the table says; a three.js reply runs in node when it is here."""
    from audit.three_audit import ENGINE
    from spatialbabel.audit_file import read_audit

    root, scenes = split
    three = (
        "```js\nimport * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
        "const m = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));\n"
        "m.position.set(0, 0.5, 0);\nscene.add(m);\n```"
    )
    lines = clean_predictions(scenes) + [
        record(s, three, model="good", language="threejs") for s in EVAL
    ]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(lines) + "\n")
    out = tmp_path / "scores"
    args = ["score", "--split", str(root), "--predictions", str(predictions), "--out", str(out)]
    code = main([*args, "--workers", "1", "--audit", "2", "--audit-seed", "7"])
    assert code == ExitCode.OK
    report = read_audit(out)
    assert (out / "audit.md").is_file()
    assert report.per_cell == 2 and report.seed == 7
    assert {(c.model, c.language) for c in report.cells} == {
        ("good", "json"),
        ("noisy", "json"),
        ("lazy", "json"),
        ("good", "threejs"),
    }
    assert all(c.note == "no engine" for c in report.cells if c.language == "json")
    printed = capsys.readouterr().out
    assert "engine audit" in printed and "no engine" in printed
    (cell,) = [c for c in report.cells if c.language == "threejs"]
    if ENGINE.missing() is None:
        assert (cell.replies, cell.compared, cell.agreeing) == (3, 2, 2)
    else:
        assert cell.note == "skipped: engine missing" and str(ENGINE.missing()) in printed


def test_audit_arguments_are_checked(split: SplitFixture, tmp_path: Path) -> None:
    root, scenes = split
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(clean_predictions(scenes)) + "\n")
    args = ["score", "--split", str(root), "--predictions", str(predictions)]
    args += ["--out", str(tmp_path / "o")]
    assert main([*args, "--audit", "-1"]) == ExitCode.USAGE
    assert main([*args, "--audit", "1", "--audit-timeout", "0"]) == ExitCode.USAGE
    assert not (tmp_path / "o").exists()
