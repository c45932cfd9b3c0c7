"""The shared suite machinery on a toy suite: items folder, prompts, answers, grading, tables,
the command line. Labels are recomputed here from the scenes, not read from the suite."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import FileFormatError
from spatialbabel.run.batch import parse_request_id
from spatialbabel.stats import bootstrap_macro_mean
from suites import SUITES, load_suite
from suites.base import Grade, Item, SuiteError
from suites.choices import read_letters
from suites.items import read_items
from tests.qa.tiny_split import make_split
from tests.suites import toy_suite

SUITE = toy_suite.SUITE


@pytest.fixture()
def built(tmp_path: Path) -> tuple[Path, Path, list[Scene]]:
    split = tmp_path / "split"
    scenes = make_split(split, count=6)
    items = tmp_path / "items"
    assert (
        main(["suite", "build", "--suite", "toy", "--split", str(split), "--out", str(items)]) == 0
    )
    return split, items, scenes


def _truth(scene: Scene, item: Item) -> str:
    """The right letters, recomputed from the scene and the option texts."""
    if item.task == "count":
        return "ABCD"[item.options.index(str(len(scene.objects)))]
    colours = {o.color for o in scene.objects}
    return "".join("ABCD"[i] for i, c in enumerate(item.options) if c in colours)


def test_build_writes_items_with_true_labels(built: tuple[Path, Path, list[Scene]]) -> None:
    _, folder, scenes = built
    items = read_items(folder, SUITE)
    assert items.manifest["tasks"] == {"colours": 6, "count": 6}
    by_scene = {s.scene_id: s for s in scenes}
    for item in items.items:
        assert item.answer == _truth(by_scene[item.scene_id], item)
        assert all(items.input_path(name).is_file() for name in item.inputs)
    # Balanced positions: each of the four letters is the answer of a count item at least once.
    assert {i.answer for i in items.items if i.task == "count"} == set("ABCD")


def test_items_of_another_version_are_refused(built: tuple[Path, Path, list[Scene]]) -> None:
    _, folder, _ = built
    manifest = json.loads((folder / "suite.json").read_text())
    manifest["suite_version"] = "0"
    (folder / "suite.json").write_text(json.dumps(manifest))
    with pytest.raises(FileFormatError, match="rebuild the items"):
        read_items(folder, SUITE)


def test_a_bad_items_line_names_its_line(built: tuple[Path, Path, list[Scene]]) -> None:
    _, folder, _ = built
    lines = (folder / "items.jsonl").read_text().splitlines()
    lines[2] = (
        lines[2]
        .replace('"task": "count"', '"task": "no/slash"')
        .replace('"task": "colours"', '"task": "no/slash"')
    )
    (folder / "items.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match=r"items\.jsonl:3: task"):
        read_items(folder, SUITE)


def test_prompts_carry_ids_images_and_budget(
    built: tuple[Path, Path, list[Scene]], tmp_path: Path
) -> None:
    _, folder, _ = built
    out = tmp_path / "requests.jsonl"
    assert (
        main(
            ["suite", "prompts", "--suite", "toy", "--items", str(folder), "--out", str(out)]
            + ["--variants", "cot", "direct", "--max-tokens", "64"]
        )
        == 0
    )
    requests = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(requests) == 24
    ids = [parse_request_id(r["custom_id"]) for r in requests]
    assert {i.task for i in ids} == {"toy"} and {i.parts[1] for i in ids} == {"cot", "direct"}
    content = requests[0]["body"]["messages"][1]["content"]
    assert content[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert content[-1]["type"] == "text" and "A. " in content[-1]["text"]
    assert requests[0]["body"]["max_completion_tokens"] == 64
    again = tmp_path / "again.jsonl"
    main(
        ["suite", "prompts", "--suite", "toy", "--items", str(folder), "--out", str(again)]
        + ["--variants", "cot", "direct", "--max-tokens", "64"]
    )
    assert again.read_bytes() == out.read_bytes()


def _write(path: Path, records: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_scoring_oracle_missing_unreadable_and_problems(
    built: tuple[Path, Path, list[Scene]], tmp_path: Path
) -> None:
    _, folder, _ = built
    items = read_items(folder, SUITE).items
    records: list[dict[str, object]] = [
        {
            "item_id": i.item_id,
            "model": "oracle",
            "variant": "cot",
            "output": f"so...\nAnswer: {i.answer}",
        }
        for i in items
    ]
    # A second model answers half the items, one unreadably.
    records += [
        {"item_id": i.item_id, "model": "half", "variant": "direct", "output": i.answer}
        for i in items[:6]
    ]
    records[-1]["output"] = "I cannot tell."
    records += [
        {"item_id": "nope", "model": "x", "variant": "cot", "output": "A"},
        {"item_id": items[0].item_id, "model": "oracle", "variant": "cot", "output": "B"},
        {"item_id": items[0].item_id, "model": "x", "variant": "loud", "output": "B"},
    ]
    answers = tmp_path / "answers.jsonl"
    _write(answers, records)
    with answers.open("a") as stream:
        stream.write("{broken\n")
    out = tmp_path / "scores"
    status = main(
        ["suite", "score", "--suite", "toy", "--items", str(folder), "--answers", str(answers)]
        + ["--out", str(out)]
    )
    assert status == ExitCode.PROBLEMS
    scores = json.loads((out / "scores.json").read_text())
    assert [p["line"] for p in scores["problems"]] == [19, 20, 21, 22]
    rows = {(r["model"], r["variant"]): r for r in scores["rows"]}
    oracle = rows[("oracle", "cot")]
    assert oracle["overall"]["mean"] == 1.0 and oracle["statuses"]["correct"] == 12
    half = rows[("half", "direct")]
    assert half["statuses"]["generation_failure"] == 6
    assert half["statuses"]["parser_failure"] == 1
    assert half["statuses"]["correct"] == 5
    # Every row is graded over every item: missing answers stay in the denominator.
    assert half["tasks"]["count"]["n"] + half["tasks"]["colours"]["n"] == 12
    # The macro mean: the two tasks' means averaged, not the items'.
    per_task = [half["tasks"][t]["mean"] for t in ("count", "colours")]
    assert half["overall"]["mean"] == pytest.approx(sum(per_task) / 2)
    assert ("baseline:random", "-") in rows
    table = (out / "table.md").read_text()
    assert table.splitlines()[0].startswith(
        "| model | variant | overall | count | colours | level="
    )


def test_batch_output_is_scored_like_records(
    built: tuple[Path, Path, list[Scene]], tmp_path: Path
) -> None:
    _, folder, _ = built
    items = read_items(folder, SUITE).items
    lines = []
    for n, item in enumerate(items):
        body = {
            "model": "m",
            "choices": [
                {"message": {"content": f"Answer: {item.answer}"}, "finish_reason": "stop"}
            ],
        }
        record: dict[str, object] = {
            "custom_id": f"toy/{item.item_id}/cot",
            "response": {"status_code": 200, "body": body},
        }
        if n == 0:
            record = {
                "custom_id": f"toy/{item.item_id}/cot",
                "response": {"status_code": 429, "body": {"error": "slow down"}},
            }
        lines.append(record)
    lines.append(
        {
            "custom_id": f"qa/{items[1].item_id}/direct",
            "response": {"status_code": 200, "body": body},
        }
    )
    path = tmp_path / "batch.jsonl"
    _write(path, lines)
    out = tmp_path / "scores"
    main(
        [
            "suite",
            "score",
            "--suite",
            "toy",
            "--items",
            str(folder),
            "--answers",
            str(path),
            "--batch-output",
            "--out",
            str(out),
        ]
    )
    scores = json.loads((out / "scores.json").read_text())
    row = next(r for r in scores["rows"] if r["model"] == "m")
    assert row["statuses"]["correct"] == 11 and row["statuses"]["generation_failure"] == 1
    messages = [p["message"] for p in scores["problems"]]
    assert any("HTTP 429" in m for m in messages) and any("is not toy/" in m for m in messages)


def test_random_baseline_lands_at_chance(tmp_path: Path) -> None:
    split = tmp_path / "split"
    make_split(split, count=25)
    folder = tmp_path / "items"
    main(["suite", "build", "--suite", "toy", "--split", str(split), "--out", str(folder)])
    answers = tmp_path / "none.jsonl"
    answers.write_text("")
    main(
        [
            "suite",
            "score",
            "--suite",
            "toy",
            "--items",
            str(folder),
            "--answers",
            str(answers),
            "--out",
            str(tmp_path / "s"),
        ]
    )
    scores = json.loads((tmp_path / "s" / "scores.json").read_text())
    count = next(r for r in scores["rows"] if r["model"] == "baseline:random")["tasks"]["count"]
    assert count["low"] <= 0.25 <= count["high"]


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("Answer: B", {"B"}),
        ("I think...\n**Answer:** (c)", {"C"}),
        ("Answer: A, C", {"A", "C"}),
        ("Answer: A and D", {"A", "D"}),
        ("Answer: B. 1.0-2.0 m", {"B"}),
        ("Answer: B\nWait, no.\nAnswer: D", {"D"}),
        ("D", {"D"}),
        ("Answer: E", None),
        ("The answer is left.", None),
        ("Answer: the left one", None),
    ],
)
def test_reading_letters(text: str, letters: set[str] | None) -> None:
    got = read_letters(text, 4)
    assert (None if got is None else set(got)) == letters


def test_macro_bootstrap_against_brute_force() -> None:
    rng = np.random.default_rng(3)
    values = rng.random(60).round()
    tasks = [("a", "b", "c")[i % 3] for i in range(60)]
    scenes = [f"s{i // 6}" for i in range(60)]
    got = bootstrap_macro_mean(values, tasks, groups=scenes, resamples=300, seed=5)
    means = {t: values[[i for i in range(60) if tasks[i] == t]].mean() for t in "abc"}
    assert got.mean == pytest.approx(np.mean(list(means.values())))
    # Redo the resampling by hand with the same draws.
    draws = np.random.default_rng(5).integers(0, 10, size=(300, 10))
    names = sorted(set(scenes))
    stats = []
    for draw in draws:
        chosen = [i for d in draw for i in range(60) if scenes[i] == names[d]]
        per = [
            np.mean([values[i] for i in chosen if tasks[i] == t])
            for t in "abc"
            if any(tasks[i] == t for i in chosen)
        ]
        stats.append(np.mean(per))
    low, high = np.quantile(stats, [0.025, 0.975])
    assert got.low == pytest.approx(min(low, got.mean)) and got.high == pytest.approx(
        max(high, got.mean)
    )
    micro = bootstrap_macro_mean(values, tasks, macro=False, resamples=300)
    assert micro.mean == pytest.approx(values.mean()) and micro.low < micro.mean < micro.high


def test_grades_and_items_check_themselves() -> None:
    with pytest.raises(ValueError, match="scores 0"):
        Grade(0.5, "parser_failure")
    with pytest.raises(SuiteError, match="relative"):
        Item("toy", "i", "s", "count", "q?", "A", inputs=("/abs.png",))
    with pytest.raises(SuiteError, match="no '/'"):
        Item("toy", "a/b", "s", "count", "q?", "A")


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suite", "list"]) == 0
    assert "toy (version 1): count, colours" in capsys.readouterr().out
    assert main(["suite", "build", "--split", str(tmp_path)]) == ExitCode.USAGE
    assert main(["suite", "build", "--suite", "toy", "--split", str(tmp_path)]) == ExitCode.USAGE
    assert (
        main(
            ["suite", "build", "--suite", "nope", "--split", str(tmp_path), "--out", str(tmp_path)]
        )
        == ExitCode.BAD_INPUT
    )
    assert "unknown suite 'nope'; known:" in capsys.readouterr().err
    assert load_suite("toy") is SUITE and "toy" in SUITES
