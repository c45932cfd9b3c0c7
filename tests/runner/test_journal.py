"""The cache journal: appended and fsynced, a cut-off last line recovered, one run at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.journal import Journal, JournalBusy


def entry(n: int) -> dict[str, object]:
    return {"key": f"k{n}", "custom_id": f"qa/q{n}/direct", "body": {"n": n}}


def test_entries_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    journal, recovery = Journal.open(path)
    assert recovery.entries == 0
    for n in range(50):
        journal.append(entry(n))
    journal.close()
    again, recovery = Journal.open(path)
    assert recovery.entries == 50 and recovery.truncated_bytes == 0
    assert again.entries["k7"]["body"] == {"n": 7}
    again.close()
    assert len(path.read_text().splitlines()) == 50


def test_a_cut_off_last_line_is_dropped_and_appending_goes_on_after_it(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    whole = "".join(json.dumps(entry(n)) + "\n" for n in range(3))
    cut = json.dumps(entry(3))[:17]
    path.write_text(whole + cut)
    journal, recovery = Journal.open(path)
    assert (recovery.entries, recovery.truncated_bytes) == (3, len(cut))
    assert path.read_text() == whole
    journal.append(entry(3))
    journal.close()
    lines = path.read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["k0", "k1", "k2", "k3"]


def test_an_unreadable_middle_line_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    path.write_text(json.dumps(entry(0)) + "\n{garbage\n" + json.dumps(entry(1)) + "\n")
    journal, recovery = Journal.open(path)
    journal.close()
    assert recovery.bad_lines == (2,) and set(journal.entries) == {"k0", "k1"}


def test_two_runs_cannot_share_a_journal_at_once(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    first, _ = Journal.open(path)
    with pytest.raises(JournalBusy, match="another spatialbabel run"):
        Journal.open(path)
    first.close()
    second, _ = Journal.open(path)
    second.close()
