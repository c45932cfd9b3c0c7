"""The HTML report built from a real scoring run on the synthetic split: every page, link and
picture, the optional silhouette column, and what happens when inputs are missing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyrender")
pytest.importorskip("matplotlib")

from render import build_report
from render.report import select_replies
from render.scores_file import read_scores
from spatialbabel.files import FileFormatError
from tests.render.conftest import ROOT, score

pytestmark = pytest.mark.render


class Links(HTMLParser):
    """Every ``src`` and ``href`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "img" and values.get("src"):
            self.images.append(str(values["src"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        if tag in ("link", "script") and (values.get("href") or values.get("src")):
            self.links.append(str(values.get("href") or values.get("src")))


def links_of(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def crawl(index: Path) -> dict[Path, Links]:
    """Every HTML page reachable from ``index`` through relative links."""
    seen: dict[Path, Links] = {}
    todo = [index.resolve()]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen[page] = links_of(page)
        todo += [
            (page.parent / href.split("#")[0]).resolve()
            for href in seen[page].links
            if href.split("#")[0].endswith(".html")
        ]
    return seen


@pytest.fixture(scope="module")
def scored(
    synthetic_split: Path, synthetic_replies: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    out = tmp_path_factory.mktemp("scored")
    done = score(synthetic_split, synthetic_replies, out, "--silhouette")
    assert done.returncode in (0, 1), done.stderr
    return out


@pytest.fixture(scope="module")
def report(scored: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return build_report(scored / "scores.json", tmp_path_factory.mktemp("report") / "site")


def test_every_link_and_picture_is_a_relative_file_that_exists(report: Any) -> None:
    pages = crawl(report.index)
    assert len(pages) == 1 + 2  # the index and one page per model
    for page, found in pages.items():
        for target in found.images + found.links:
            assert "://" not in target and not target.startswith(("/", "//")), (
                f"{page.name}: {target}"
            )
            path = (page.parent / target.split("#")[0]).resolve()
            assert path.is_file(), f"{page.name} links to missing {target}"
            assert report.out_dir.resolve() in path.parents
    pictures = {
        (page.parent / src).resolve() for page, found in pages.items() for src in found.images
    }
    assert pictures == {p.resolve() for p in report.images}


def test_report_holds_charts_tables_and_one_figure_per_reply(report: Any, scored: Path) -> None:
    scores = json.loads((scored / "scores.json").read_text())
    names = {p.relative_to(report.out_dir).as_posix() for p in report.images}
    assert {
        "charts/direct-scores.png",
        "charts/direct-ranks.png",
        "charts/direct-tiers.png",
    } <= names
    assert (
        report.replies_drawn
        == len(scores["replies"])
        == len([n for n in names if n.startswith("replies/")])
    )
    for table in (
        "scores.json",
        "cells.csv",
        "tiers.csv",
        "modes.csv",
        "replies.csv",
        "gaps.csv",
        "scores.md",
        "scores.tex",
    ):
        assert (report.out_dir / "tables" / table).read_bytes() == (scored / table).read_bytes()
    assert report.notes == ()


def test_silhouette_column_is_shown_when_scored(report: Any) -> None:
    index = report.index.read_text()
    assert "Silhouette" in index and "silhouette IoU" in index
    page = (report.out_dir / "replies" / "direct--model-a.html").read_text()
    assert page.count("Silhouette <b>") == 3


def test_failed_parse_is_said_on_its_reply(report: Any) -> None:
    page = (report.out_dir / "replies" / "direct--model-b.html").read_text()
    assert "parse failed:" in page


def test_best_and_worst_are_only_marked_with_two_languages(report: Any) -> None:
    # The synthetic replies are all in one language: nothing to mark.
    assert 'class="best"' not in report.index.read_text()


def test_best_and_worst_are_marked_only_where_significant(tmp_path: Path) -> None:
    from scoring import write_outputs
    from tests.scoring.test_gaps import marked_run

    run = marked_run()  # model "apart": json best, dsl worst; model "m": tied
    write_outputs(run, tmp_path / "scores")
    summary = build_report(tmp_path / "scores" / "scores.json", tmp_path / "site")
    # The score matrix is the mode's first table; the partial-reading table follows it.
    matrix = summary.index.read_text().split("<h2>Mode: m0</h2>")[1].split("</table>")[0]
    rows = {row.split("</td>")[0].split(">")[-1]: row for row in matrix.split("<tr>")[1:]}
    assert rows["apart"].count('class="best"') == 1 and rows["apart"].count('class="worst"') == 1
    assert 'class="best"' not in rows["m"] and 'class="worst"' not in rows["m"]
    assert "<td>tied</td><td>tied</td></tr>" in rows["m"]
    gap = run.aggregate.gap("apart", "m0")
    assert gap is not None and f"[{gap.delta.low:.3f}, {gap.delta.high:.3f}]" in rows["apart"]
    assert not [n for n in summary.notes if "language gaps" in n]


def test_a_scores_file_without_gaps_marks_nothing_and_says_so(tmp_path: Path) -> None:
    from scoring import write_outputs
    from tests.scoring.test_gaps import marked_run

    write_outputs(marked_run(), tmp_path / "scores")
    data = json.loads((tmp_path / "scores" / "scores.json").read_text())
    del data["language_gaps"]
    (tmp_path / "old.json").write_text(json.dumps(data))
    summary = build_report(tmp_path / "old.json", tmp_path / "site")
    assert 'class="best"' not in summary.index.read_text()
    assert [n for n in summary.notes if "no language gaps" in n]


def test_without_the_split_the_report_keeps_tables_and_charts(scored: Path, tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    data = json.loads((scored / "scores.json").read_text())
    data["split"] = str(tmp_path / "gone")
    (moved / "scores.json").write_text(json.dumps(data))
    summary = build_report(moved / "scores.json", tmp_path / "site")
    assert summary.replies_drawn == 0
    assert any("not found" in note and "--split" in note for note in summary.notes)
    assert "not found" in summary.index.read_text()
    assert (tmp_path / "site" / "charts" / "direct-scores.png").is_file()


def test_a_reply_gone_from_the_predictions_is_noted(
    scored: Path, synthetic_split: Path, tmp_path: Path
) -> None:
    data = json.loads((scored / "scores.json").read_text())
    lines = Path(data["predictions"]).read_text().splitlines(keepends=True)
    shorter = tmp_path / "replies.jsonl"
    shorter.write_text("".join(lines[:-1]))
    summary = build_report(
        scored / "scores.json", tmp_path / "site", split_dir=synthetic_split, predictions=shorter
    )
    assert summary.replies_drawn == len(data["replies"])
    assert [n for n in summary.notes if f"line {len(lines)} is not in the predictions file" in n]


def test_max_replies_spreads_the_figures_over_the_cells(report: Any) -> None:
    scores = read_scores(report.out_dir / "tables" / "scores.json")
    chosen = select_replies(scores.replies, 4)
    assert len(chosen) == 4
    assert {r.model for r in chosen} == {"model-a", "model-b"}
    best = max((r for r in scores.replies if r.model == "model-a"), key=lambda r: r.score or 0)
    assert best in chosen
    assert select_replies(scores.replies, None) == list(scores.replies)


def test_figures_drawn_by_worker_processes_are_the_same(
    report: Any, scored: Path, tmp_path: Path
) -> None:
    parallel = build_report(scored / "scores.json", tmp_path / "site", workers=2)
    assert parallel.replies_drawn == report.replies_drawn and parallel.notes == ()
    for image in report.images:
        relative = image.relative_to(report.out_dir)
        if relative.parts[0] == "replies":
            assert (tmp_path / "site" / relative).read_bytes() == image.read_bytes(), relative


def test_cli_builds_the_report_from_the_scores_folder(scored: Path, tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "report",
        str(scored),
        "--out",
        str(tmp_path / "site"),
        "--max-replies",
        "2",
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "2 reply figures" in done.stdout
    assert len(list((tmp_path / "site" / "replies").glob("*.png"))) == 2


def test_cli_says_why_a_scores_file_cannot_be_read(tmp_path: Path) -> None:
    bad = tmp_path / "scores.json"
    bad.write_text('{"schema_version": 1, "replies": []}')
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "report",
        str(bad),
        "--out",
        str(tmp_path / "site"),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=600
    )
    assert done.returncode == 3
    assert f"{bad}: cells: is missing" in done.stderr


def test_reader_names_the_bad_field(scored: Path, tmp_path: Path) -> None:
    data = json.loads((scored / "scores.json").read_text())
    data["replies"][1]["matching"]["pairs"][0]["true"] = "zero"
    broken = tmp_path / "scores.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(
        FileFormatError, match=r"replies\[1\]\.matching\.pairs\[0\]\.true: expected an integer"
    ):
        read_scores(broken)
    shutil.copyfile(scored / "scores.json", broken)
    assert len(read_scores(broken).replies) == len(data["replies"])


def test_a_run_in_two_modes_shows_their_difference_and_the_cut_replies(
    synthetic_split: Path, synthetic_replies: Path, tmp_path: Path
) -> None:
    from scoring import score_predictions, write_outputs
    from spatialbabel import Scene
    from tests.render.make_replies import as_json, perturb

    records = [json.loads(line) for line in synthetic_replies.read_text().splitlines()]
    for k, path in enumerate(sorted((synthetic_split / "scenes").glob("*.json"))):
        truth = Scene.load(path)
        text = as_json(perturb(truth, 0.02, 0, 0, np.random.default_rng(k)))
        cut = k == 0
        records.append(
            {
                "scene_id": truth.scene_id,
                "model": "model-a",
                "language": "json",
                "mode": "nl_cot",
                "output": "1. the objects, in words\n\n```json\n" + (text[:50] if cut else text),
                "finish_reason": "length" if cut else "stop",
            }
        )
    replies = tmp_path / "replies.jsonl"
    replies.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = score_predictions(synthetic_split, replies, resamples=200)
    write_outputs(run, tmp_path / "scores")
    summary = build_report(tmp_path / "scores" / "scores.json", tmp_path / "site", max_replies=0)
    index = summary.index.read_text()
    assert "<h2>Mode difference: nl_cot − direct</h2>" in index
    (difference,) = run.aggregate.mode_differences
    e = difference.estimates["score"]
    assert f"{e.mean:+.3f}<br>" in index and f"[{e.low:+.3f}, {e.high:+.3f}] · 3 scenes" in index
    chart = tmp_path / "site" / "charts" / "nl_cot-minus-direct.png"
    assert chart in summary.images and "charts/nl_cot-minus-direct.png" in index
    assert (tmp_path / "site" / "tables" / "modes.csv").is_file()
    # The cut reply: in the page's facts and in its cell's row of the per-cell table.
    assert '<th class="name">cut at the token limit</th><td>1</td>' in index
    section = index.split("<h2>Mode: nl_cot</h2>")[1].split("<h2>")[0]
    row = next(
        line
        for line in section.splitlines()
        if '<td class="name">model-a</td><td class="name">json</td>' in line
    )
    cells = re.findall(r"<td>([^<]*)</td>", row)
    assert cells[:3] == ["3", "2", "1"]  # replies, parsed, cut


def test_the_engine_audit_is_shown_beside_the_score_table(tmp_path: Path) -> None:
    from scoring import write_outputs
    from spatialbabel.audit_file import AuditCell, AuditedReply, AuditReport
    from spatialbabel.stats import Estimate
    from tests.scoring.test_gaps import marked_run

    run = marked_run()
    write_outputs(run, tmp_path / "scores")
    model, language = run.aggregate.cells[0].model, run.aggregate.cells[0].language
    audit = AuditReport(
        predictions="p.jsonl",
        per_cell=2,
        seed=0,
        criterion={"position": 0.01, "size": 0.01, "floor": 0.001},
        limits={"seconds": 20.0},
        engines=(),
        cells=(
            AuditCell(model, language, 5, 2, 2, 1, Estimate(0.5, 0.0, 1.0, 2)),
            AuditCell(model, "json", 5, 0, 0, 0, None, "no engine"),
        ),
        replies=(
            AuditedReply(
                3,
                "s1",
                model,
                language,
                "direct",
                "disagrees",
                "ran",
                "o1: box (1, 1, 1), the engine's (2, 1, 1)",
            ),
        ),
    )
    (tmp_path / "scores" / "audit.json").write_text(json.dumps(audit.to_dict()))
    summary = build_report(tmp_path / "scores" / "scores.json", tmp_path / "site")
    page = summary.index.read_text()
    # After the first score table, before the cell tables.
    assert page.index("</table>") < page.index("Engine audit")
    assert "0.50 [0.00, 1.00] (1/2)" in page and "no engine" in page
    assert "o1: box (1, 1, 1), the engine&#x27;s (2, 1, 1)" in page
    assert (tmp_path / "site" / "tables" / "audit.json").is_file()
