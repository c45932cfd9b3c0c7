"""Code-CoT in each model's best and worst language (the paper's QA modes iii and iv): the picks
read from a scores folder as the gap tables judge them (a tie said), the requests written in
the picked languages with a side file, and the QA table's best − direct and worst − direct
with paired CIs; and ``score-qa --protocol paper`` recorded and applied."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.gaps import LanguageGap
from spatialbabel import LANGUAGES
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_json, read_jsonl
from spatialbabel.run.batch import parse_request_id
from spatialbabel.stats import Estimate
from suites.qa.code_cot_languages import read_picks, resolve_modes, side_file
from tests.qa.test_score_qa import _questions, _write, reply_for
from tests.qa.tiny_split import make_split

SCORES = dict(zip(LANGUAGES, (0.70, 0.72, 0.60, 0.71, 0.90, 0.69), strict=True))


def _gap(model: str, mode: str = "direct", *, clear: bool = True) -> dict[str, Any]:
    """A gap record as ``spatialbabel score`` writes it: json significantly best (when
    ``clear``), blender lowest but within reach of unity and open3d."""
    others = [lang for lang in LANGUAGES if lang != "json"]
    better = {("json", lang) for lang in others} if clear else set()
    better |= {("threejs", "blender"), ("dsl", "blender")}
    gap = LanguageGap(
        model, mode, LANGUAGES, 20, SCORES, Estimate(0.3, 0.2, 0.4, 20), "json", "blender",
        frozenset(better),
    )  # fmt: skip
    return gap.to_dict()


@pytest.fixture
def scores(tmp_path: Path) -> Path:
    folder = tmp_path / "scores"
    folder.mkdir()
    gaps = [_gap("m1"), _gap("m1", "nl_cot", clear=False), _gap("m2", clear=False)]
    (folder / "scores.json").write_text(json.dumps({"language_gaps": gaps}))
    return folder


def test_picks_follow_the_gap_tables_judgement_and_say_a_tie(scores: Path) -> None:
    picks = read_picks(scores)
    assert set(picks) == {"m1", "m2"}
    clear, tied = picks["m1"], picks["m2"]
    # The direct table decides (the nl_cot gap of m1 is not read).
    assert (clear.best, clear.tied_best) == ("json", ("json",))
    # No language is significantly worse than every other: the lowest is taken, its ties said.
    assert clear.worst == "blender" and clear.tied_worst == ("unity", "blender", "open3d")
    assert clear.describe() == "m1: best json, worst blender (tied with unity, open3d)"
    assert tied.best == "json" and len(tied.tied_best) > 1
    assert tied.to_dict()["best_tied"] and tied.to_dict()["worst_tied"]
    assert resolve_modes(["direct", "code_cot:best", "code_cot:worst"], clear) == [
        "direct",
        "code_cot:json",
        "code_cot:blender",
    ]


def test_a_scores_file_without_gaps_is_named(tmp_path: Path) -> None:
    (tmp_path / "scores.json").write_text(json.dumps({"cells": []}))
    with pytest.raises(Exception, match="language_gaps: is missing"):
        read_picks(tmp_path)


def test_prompts_write_the_picked_languages_and_record_them(
    tmp_path: Path, scores: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    make_split(split)
    out = tmp_path / "requests.jsonl"
    args = ["prompts", "--split", str(split), "--task", "qa", "--model", "m1"]
    args += ["--modes", "direct", "code_cot:best", "code_cot:worst", "--out", str(out)]
    assert main(args) == ExitCode.USAGE
    assert "need --languages-from" in capsys.readouterr().err
    assert main([*args, "--languages-from", str(scores)]) == ExitCode.OK
    printed = capsys.readouterr().out
    assert "m1: best json, worst blender (tied with unity, open3d)" in printed
    requests = [item.record for item in read_jsonl(out)]
    modes = {parse_request_id(r["custom_id"]).parts[1] for r in requests if r}
    assert modes == {"direct", "code_cot:json", "code_cot:blender"}
    assert len(requests) == 3 * len(_questions(split))
    recorded = read_json(side_file(out), expect_version=False)
    assert side_file(out).name == "requests.languages.json"
    assert recorded["best"] == "json" and recorded["worst"] == "blender"
    assert recorded["tied_worst"] == ["unity", "blender", "open3d"] and recorded["worst_tied"]
    # A model the scores do not know is a clear error naming it and those they know.
    assert main([*args[:-6], "--model", "m9", *args[-6:], "--languages-from", str(scores)]) == 3
    assert "no direct language gap for model 'm9' (models with one: m1, m2)" in (
        capsys.readouterr().err
    )


def test_score_qa_shows_best_and_worst_minus_direct_with_paired_cis(
    tmp_path: Path, scores: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    make_split(split)
    questions = _questions(split)
    records = []
    for k, q in enumerate(questions):
        base = {"question_id": q.question_id, "scene_id": q.scene_id, "model": "m1"}
        records.append({**base, "mode": "direct", "output": reply_for(q, k % 2 == 0)})
        records.append({**base, "mode": "code_cot:json", "output": reply_for(q, True)})
        records.append({**base, "mode": "code_cot:blender", "output": reply_for(q, False)})
    answers = tmp_path / "answers.jsonl"
    _write(answers, records)
    out = tmp_path / "qa"
    argv = ["score-qa", "--split", str(split), "--answers", str(answers), "--out", str(out)]
    assert main([*argv, "--languages-from", str(scores)]) == ExitCode.OK
    printed = capsys.readouterr().out
    report = read_json(out / "qa_scores.json", expect_version=False)
    assert report["protocol"] == "project"
    (row,) = report["best_worst"]
    n = len(questions)
    direct = sum(k % 2 == 0 for k in range(n)) / n
    best, worst = row["best_minus_direct"], row["worst_minus_direct"]
    assert best["direct"] == pytest.approx(direct) and best["code_cot"] == 1.0
    assert best["difference"]["mean"] == pytest.approx(1.0 - direct)
    assert worst["difference"]["mean"] == pytest.approx(-direct)
    for found in (best, worst):
        d = found["difference"]
        assert d["low"] <= d["mean"] <= d["high"] and d["n"] == n and isinstance(d["n"], int)
    assert row["best"] == "json" and row["worst_tied"]
    assert "best language" in printed and "blender (tied with unity, open3d)" in printed


def test_score_qa_protocol_paper_is_applied_and_recorded(tmp_path: Path) -> None:
    split = tmp_path / "split"
    make_split(split)
    relationship = next(q for q in _questions(split) if q.category == "relationship")
    # The project reads a negated option as no answer; the paper finds the true phrase.
    reply = f"Final answer: not {relationship.answer}"
    answers = tmp_path / "answers.jsonl"
    record = {"question_id": relationship.question_id, "model": "m1", "mode": "direct"}
    _write(answers, [{**record, "output": reply}])
    found = {}
    for protocol in ("project", "paper"):
        out = tmp_path / protocol
        argv = ["score-qa", "--split", str(split), "--answers", str(answers), "--out", str(out)]
        assert main([*argv, "--protocol", protocol]) == ExitCode.OK
        report = read_json(out / "qa_scores.json", expect_version=False)
        assert report["protocol"] == protocol
        found[protocol] = report["details"][0]["status"]
    assert found == {"project": "no_answer", "paper": "correct"}
