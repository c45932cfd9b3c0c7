"""Nothing silent in the tables: the replies whose parse is a partial reading (a construct
skipped, a value not followed) are counted per model and language, in scores.json, the CSV,
the Markdown table, the printed summary and the report; the codes that count are one list,
the one docs/scoring.md shows."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from parsers import parse, write
from parsers.partial_reading import PARTIAL_CODES, PARTIAL_SUFFIXES, is_partial, reads_in_part
from scoring.reply import score_reply
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import write_json
from tests.scoring.helpers import layout

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
#: A statement the JavaScript front end does not lower: a partial reading of the reply.
UNFOLLOWED = "with (Math) { max(1, 2); }\n"


def _partial(scene: Scene) -> str:
    """The scene's three.js reply with a statement the reader skips before its first object."""
    return write(scene, "threejs").replace("scene.add", UNFOLLOWED + "scene.add", 1)


def test_a_skipped_construct_makes_a_reply_read_in_part() -> None:
    truth = layout(0, count=3)
    clean = parse(write(truth, "threejs"), "threejs")
    skipped = parse(_partial(truth), "threejs")
    assert "js.unsupported" in {d.code for d in skipped.diagnostics}
    assert score_reply(clean, truth).values["partial_reading"] == 0.0
    assert score_reply(skipped, truth).values["partial_reading"] == 1.0
    # The same objects either way: the score alone would not show it.
    assert score_reply(skipped, truth).score == score_reply(clean, truth).score


def test_only_warnings_of_the_listed_codes_count() -> None:
    assert is_partial("cs.unsupported") and is_partial("py.too_deep")
    assert is_partial("eval.struct_copy") and is_partial("unity.unknown_call")
    assert not is_partial("js.syntax") and not is_partial("eval.helper_without_body")
    warning = {"severity": "warning", "code": "eval.unknown_target"}
    assert reads_in_part([warning])
    assert not reads_in_part([{**warning, "severity": "info"}])
    assert not reads_in_part([{"severity": "warning", "code": "threejs.ground_plane"}])


def test_the_docs_list_the_codes_that_count() -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- partial-reading-codes -->")[1].split("<!-- /partial-reading-codes")[0]
    assert set(re.findall(r"`([a-z0-9_.]+)`", block)) == PARTIAL_CODES
    for suffix in PARTIAL_SUFFIXES:
        assert f"`{suffix}`" in text, suffix


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """A score run: model ``careful`` writes three clean three.js replies, ``sloppy`` writes
    one of its three with a statement the reader skips."""
    root = tmp_path / "split"
    scenes = {}
    for k, scene_id in enumerate(("s1", "s2", "s3")):
        scene = Scene(scene_id, layout(k, count=3).objects, meta={"tier": 1})
        scene.save(root / "scenes" / f"{scene_id}.json")
        scenes[scene_id] = scene
    write_json(root / "subsets.json", {"eval": ["s1", "s2", "s3"]})
    write_json(root / "manifest.json", {"generator": "test", "counts": {"scenes": 3}})
    lines = []
    for scene_id, scene in scenes.items():
        for model, text in (
            ("careful", write(scene, "threejs")),
            ("sloppy", _partial(scene) if scene_id == "s2" else write(scene, "threejs")),
        ):
            record = {"scene_id": scene_id, "model": model, "language": "threejs"}
            lines.append(json.dumps({**record, "mode": "image", "output": text}))
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "scores"
    command = ["score", "--split", str(root), "--predictions", str(predictions)]
    assert main([*command, "--out", str(out), "--workers", "1"]) == ExitCode.OK
    return out, capsys.readouterr().out


def test_every_table_counts_the_replies_read_in_part(run: tuple[Path, str]) -> None:
    out, printed = run
    assert "Read in part (docs/scoring.md), mode 'image': sloppy threejs 1/3" in printed
    assert "careful threejs" not in printed.split("Read in part")[1].split("\n")[0]
    data = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    estimates = {c["model"]: c["estimates"]["partial_reading"] for c in data["cells"]}
    assert estimates["sloppy"]["mean"] == pytest.approx(1 / 3)
    assert estimates["sloppy"]["n"] == 3 and estimates["careful"]["mean"] == 0.0
    assert "partial_reading" in {m["name"] for m in data["metrics"]}
    with (out / "cells.csv").open(encoding="utf-8") as stream:
        rows = {r["model"]: r for r in csv.DictReader(stream)}
    assert float(rows["sloppy"]["partial_reading"]) == pytest.approx(1 / 3)
    with (out / "replies.csv").open(encoding="utf-8") as stream:
        flagged = [
            (r["model"], r["scene_id"])
            for r in csv.DictReader(stream)
            if float(r["partial_reading"]) == 1.0
        ]
    assert flagged == [("sloppy", "s2")]
    markdown = (out / "scores.md").read_text(encoding="utf-8")
    table = markdown.split("### Read in part")[1]
    assert "| careful | 0/3 |" in table and "| sloppy | 1/3 |" in table


def test_the_report_shows_the_count_under_the_score_table(run: tuple[Path, str]) -> None:
    out, _ = run
    from render.report import _Writer
    from render.scores_file import read_scores

    writer = _Writer(read_scores(out / "scores.json"), out, None)
    html = writer.partial_table("image")
    assert "<h3>Read in part</h3>" in html
    assert "<td>1/3</td>" in html and "<td>0/3</td>" in html
