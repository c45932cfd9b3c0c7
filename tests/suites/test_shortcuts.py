"""The shortcut battery on the toy suite: a shortcut that cannot know the answer stays at
chance, one that reads the answer off the item's facts is caught, and ``suite score`` shows
both beside the table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from spatialbabel.cli import main
from suites.base import Item, Reply, Shortcut, SuiteError
from suites.choices import letter
from suites.grading import SHORTCUT_PREFIX, aggregate, grade_references
from suites.items import read_items
from suites.shortcuts import above_chance, check_rows, check_shortcuts
from tests.qa.tiny_split import make_split
from tests.suites import toy_suite


class BatteryToy(toy_suite.ToySuite):
    """The toy with two shortcuts on its count task: always the first option (the positions
    are balanced, so chance) and the option that says the true count (a leak)."""

    def shortcuts(self, items: Sequence[Item], seed: int) -> Sequence[Shortcut]:
        count = [item for item in items if item.task == "count"]
        first = {i.item_id: Reply(i.item_id, "", "", output="Answer: A") for i in count}
        leak = {
            i.item_id: Reply(
                i.item_id,
                "",
                "",
                output=f"Answer: {letter(i.options.index(str(i.facts['count'])))}",
            )
            for i in count
        }
        return (
            Shortcut("first_option", "always option A", ("count",), first),
            Shortcut("read_facts", "the count the item's facts hold", ("count",), leak),
        )


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> list[Item]:
    root = tmp_path_factory.mktemp("battery")
    make_split(root / "split", count=25)
    folder = root / "items"
    main(["suite", "build", "--suite", "toy", "--split", str(root / "split"), "--out", str(folder)])
    return list(read_items(folder, toy_suite.SUITE).items)


def test_a_leak_is_caught_and_a_blind_guess_is_not(items: list[Item]) -> None:
    checks = {(c.shortcut, c.task): c for c in check_shortcuts(BatteryToy(), items)}
    assert set(checks) == {("first_option", "count"), ("read_facts", "count")}
    assert checks[("first_option", "count")].at_chance
    leak = checks[("read_facts", "count")]
    assert not leak.at_chance and leak.score.mean == 1.0 and leak.score.n == 25
    assert above_chance(list(checks.values())) == [leak]
    assert "ABOVE CHANCE" in str(leak)


def test_shortcut_rows_cover_only_their_tasks(items: list[Item]) -> None:
    rows = aggregate(BatteryToy(), grade_references(BatteryToy(), items))
    models = [row.model for row in rows]
    assert models == ["baseline:random", "shortcut:first_option", "shortcut:read_facts"]
    shortcut = next(row for row in rows if row.model.startswith(SHORTCUT_PREFIX))
    assert set(shortcut.tasks) == {"count"}


def test_shortcuts_without_a_chance_baseline_are_refused(items: list[Item]) -> None:
    class NoChance(BatteryToy):
        chance_baseline = "missing"

    suite = NoChance()
    rows = aggregate(suite, grade_references(suite, items))
    with pytest.raises(SuiteError, match="no chance baseline 'missing'"):
        check_rows(suite, rows)


def test_a_shortcut_must_name_a_task() -> None:
    with pytest.raises(SuiteError, match="names no task"):
        Shortcut("empty", "nothing", (), {})


def test_suite_score_shows_the_battery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_split(tmp_path / "split", count=12)
    folder = tmp_path / "items"
    main(
        [
            "suite",
            "build",
            "--suite",
            "toy",
            "--split",
            str(tmp_path / "split"),
            "--out",
            str(folder),
        ]
    )
    monkeypatch.setattr(toy_suite, "SUITE", BatteryToy())
    (tmp_path / "none.jsonl").write_text("")
    args = ["suite", "score", "--suite", "toy", "--items", str(folder)]
    main([*args, "--answers", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "s")])
    scores = json.loads((tmp_path / "s" / "scores.json").read_text())
    verdicts = {c["shortcut"]: c["at_chance"] for c in scores["shortcuts"]}
    assert verdicts == {"first_option": True, "read_facts": False}
    table = (tmp_path / "s" / "table.md").read_text()
    assert "| shortcut:read_facts | - |" in table and "| read_facts | count |" in table
