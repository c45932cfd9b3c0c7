"""``spatialbabel compare``: paired differences with CIs between two scoring runs, the gates,
and the CI outputs (verdict JSON, Markdown, JUnit XML validated against the JUnit schema)."""

from __future__ import annotations

import copy
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xmlschema
from markdown_it import MarkdownIt

from parsers import write
from scoring import score_predictions, write_outputs
from scoring.compare import COMPONENTS, Gates, compare_runs, judge, read_scored_run
from scoring.compare_report import junit_xml, markdown_summary
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import FileFormatError, write_json
from tests.scoring.helpers import layout, moved

N_SCENES = 30
MODELS = {"steady": 0.08, "shaky": 0.45}  # position noise of each model's replies
LANGUAGES = ("json", "dsl")
JUNIT_SCHEMA = Path(__file__).parent / "data" / "junit-10.xsd"
Record = dict[str, str]


def make_split(root: Path) -> list[Scene]:
    scenes = [
        Scene(f"s{k:02d}", layout(200 + k, count=4 + k % 5).objects, meta={"tier": k % 5 + 1})
        for k in range(N_SCENES)
    ]
    for scene in scenes:
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
    ids = [s.scene_id for s in scenes]
    write_json(root / "subsets.json", {"eval": ids, "phase1": [], "unused": []})
    write_json(root / "manifest.json", {"generator": "test", "counts": {"scenes": N_SCENES}})
    return scenes


def replies(scenes: list[Scene], bend: Callable[[str, Scene], Scene] | None = None) -> list[Record]:
    """Every model's reply in every language; ``bend(model, scene)`` changes a reply's scene."""
    records = []
    for m, (model, noise) in enumerate(MODELS.items()):
        for language in LANGUAGES:
            for k, scene in enumerate(scenes):
                rng = np.random.default_rng([m, k, len(language)])
                reply = moved(scene, rng.normal(0.0, noise, (len(scene.objects), 3)))
                if bend is not None:
                    reply = bend(model, reply)
                records.append(
                    {
                        "scene_id": scene.scene_id,
                        "model": model,
                        "language": language,
                        "mode": "direct",
                        "output": f"```{language}\n{write(reply, language)}\n```",
                    }
                )
    return records


def score_into(split: Path, records: list[Record], out: Path) -> Path:
    predictions = out.with_suffix(".jsonl")
    predictions.write_text("".join(json.dumps(r) + "\n" for r in records))
    write_outputs(score_predictions(split, predictions, resamples=200, workers=1), out)
    return out


def dropped_in(scenes: list[Scene], share: float = 0.4, seed: int = 1) -> set[str]:
    rng = np.random.default_rng(seed)
    return set(rng.choice([s.scene_id for s in scenes], round(share * len(scenes)), replace=False))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("compare")
    split = root / "split"
    scenes = make_split(split)
    lost = dropped_in(scenes)

    def drop(model: str, scene: Scene) -> Scene:
        # The planted regression: "steady" loses half its objects in 40% of the scenes.
        if model != "steady" or scene.scene_id not in lost:
            return scene
        return scene.with_objects(scene.objects[: len(scene.objects) // 2])

    base_records = replies(scenes)
    refused = copy.deepcopy(base_records)
    refused[3]["output"] = "I am sorry, I cannot reconstruct this scene."
    return {
        "split": split,
        "base": score_into(split, base_records, root / "base"),
        "dropped": score_into(split, replies(scenes, drop), root / "dropped"),
        "refused": score_into(split, refused, root / "refused"),
    }


def edited(source: Path, target: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads((source / "scores.json").read_text())
    change(data)
    target.mkdir()
    (target / "scores.json").write_text(json.dumps(data))
    return target


def compare(*args: str | Path) -> int:
    return main(["compare", *(str(a) for a in args)])


def test_identical_runs_give_zero_differences_and_pass(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = read_scored_run(runs["base"])
    comparison = compare_runs(base, read_scored_run(runs["base"] / "scores.json"), resamples=200)
    assert len(comparison.cells) == len(MODELS) * len(LANGUAGES)
    for cell in comparison.cells:
        assert cell.scenes == N_SCENES and not cell.moved and cell.parse_changes == ()
        for name, d in cell.differences.items():
            e = d.difference
            assert (e.mean, e.low, e.high) == (0.0, 0.0, 0.0) or math.isnan(d.base), name
    assert not comparison.only_base and not comparison.only_new and comparison.settings == ()
    code = compare(
        runs["base"],
        runs["base"],
        "--fail-below",
        "0",
        "--fail-on-parse-change",
        "--fail-on-missing",
        "--out",
        tmp_path,
    )
    assert code == ExitCode.OK
    verdict = json.loads((tmp_path / "verdict.json").read_text())
    assert verdict["passed"] is True and verdict["failures"] == []
    assert "verdict: passed" in capsys.readouterr().out


def test_a_planted_drop_is_flagged_with_a_ci_that_excludes_zero(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comparison = compare_runs(
        read_scored_run(runs["base"]), read_scored_run(runs["dropped"]), resamples=500
    )
    by_model = {c.cell.model: c for c in comparison.cells if c.cell.language == "json"}
    steady = by_model["steady"]
    assert steady.moved and steady.score.difference.high < 0
    assert steady.differences["f1"].significant and steady.differences["f1"].difference.mean < 0
    assert steady.differences["parse"].difference.mean == 0.0  # it still parses
    assert not by_model["shaky"].moved  # the other model's replies did not change
    verdict_file = tmp_path / "verdict.json"
    code = compare(runs["base"], runs["dropped"], "--fail-below", "0.02", "--verdict", verdict_file)
    assert code == ExitCode.PROBLEMS
    verdict = json.loads(verdict_file.read_text())
    failing = {(f["model"], f["language"], f["kind"]) for f in verdict["failures"]}
    assert failing == {("steady", language, "score_drop") for language in LANGUAGES}
    for failure in verdict["failures"]:
        assert failure["high"] < 0 and failure["difference"] < -0.02
        assert failure["new"] - failure["base"] == pytest.approx(failure["difference"])
        assert failure["scenes"] == N_SCENES
    out = capsys.readouterr().out
    assert "verdict: FAILED: 2 cells dropped by more than 0.02" in out
    # A larger threshold than the drop passes.
    assert compare(runs["base"], runs["dropped"], "--fail-below", "0.5") == ExitCode.OK


def test_a_change_of_a_thousandth_on_noisy_cells_is_not_flagged(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    rng = np.random.default_rng(7)
    noise = rng.normal(0.0, 0.05, N_SCENES)
    noise -= noise.mean()

    def nudge(data: dict[str, Any], *, noisy: bool) -> None:
        # Position fidelity of every "shaky" reply moves by 0.005 on average (the score by
        # 0.001), scene by scene by as much as real noise moves it.
        for reply in data["replies"]:
            if reply["model"] == "shaky" and reply["values"]["position_fidelity"] is not None:
                k = int(reply["scene_id"][1:])
                reply["values"]["position_fidelity"] -= 0.005 + (noise[k] if noisy else 0.0)

    noisy = edited(runs["base"], tmp_path / "noisy", lambda d: nudge(d, noisy=True))
    comparison = compare_runs(read_scored_run(runs["base"]), read_scored_run(noisy), resamples=500)
    shaky = [c for c in comparison.cells if c.cell.model == "shaky"]
    for cell in shaky:
        assert cell.score.difference.mean == pytest.approx(-0.001, abs=1e-9)
        assert not cell.moved
    assert compare(runs["base"], noisy, "--fail-below", "0") == ExitCode.OK
    # The same 0.001 on every scene is a real change, but below any sensible threshold.
    steady_drop = edited(runs["base"], tmp_path / "steady", lambda d: nudge(d, noisy=False))
    comparison = compare_runs(read_scored_run(runs["base"]), read_scored_run(steady_drop))
    assert all(c.moved for c in comparison.cells if c.cell.model == "shaky")
    assert compare(runs["base"], steady_drop, "--fail-below", "0.01") == ExitCode.OK
    assert compare(runs["base"], steady_drop, "--fail-below", "0") == ExitCode.PROBLEMS


def test_what_one_side_lacks_is_listed(runs: dict[str, Path], tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        kept = []
        for reply in data["replies"]:
            if (reply["model"], reply["language"]) == ("shaky", "dsl"):
                continue  # a whole cell gone
            if (reply["model"], reply["language"], reply["scene_id"]) in {
                ("steady", "json", "s03"),
                ("steady", "json", "s04"),
            }:
                continue  # two replies gone
            kept.append(reply)
            if reply["model"] == "steady" and reply["language"] == "json":
                kept.append({**reply, "model": "fresh"})  # a model only the new run has
        data["replies"] = kept

    new = edited(runs["base"], tmp_path / "new", change)
    comparison = compare_runs(read_scored_run(runs["base"]), read_scored_run(new), resamples=100)
    assert [tuple(c) for c in comparison.only_base.cells] == [("shaky", "dsl", "direct")]
    assert comparison.only_new.models == ("fresh",)
    assert [tuple(c) for c in comparison.only_new.cells] == [("fresh", "json", "direct")]
    steady = next(c for c in comparison.cells if tuple(c.cell) == ("steady", "json", "direct"))
    assert steady.only_base_scenes == ("s03", "s04") and steady.scenes == N_SCENES - 2
    summary = markdown_summary(comparison, judge(comparison, Gates()))
    assert "only in the base run: 1 cells (shaky / dsl / direct)" in summary
    assert "only in the new run: 1 models (fresh); 1 cells (fresh / json / direct)" in summary
    assert "steady / json / direct: scenes only in the base run: s03, s04" in summary
    # Listing is not failing, unless asked.
    assert compare(runs["base"], new) == ExitCode.OK
    verdict = tmp_path / "verdict.json"
    assert compare(runs["base"], new, "--fail-on-missing", "--verdict", verdict) == 1
    failures = json.loads(verdict.read_text())["failures"]
    assert {(f["model"], f["language"]) for f in failures} == {("steady", "json"), ("shaky", "dsl")}


def test_a_reply_that_no_longer_parses_fails_the_parse_gate(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    comparison = compare_runs(
        read_scored_run(runs["base"]), read_scored_run(runs["refused"]), resamples=100
    )
    (change,) = comparison.parse_changes
    assert change.kind == "lost" and change.cell.model == "steady" and change.scene_id == "s03"
    assert change.base_line == change.new_line == 4
    assert compare(runs["base"], runs["refused"]) == ExitCode.OK
    verdict = tmp_path / "verdict.json"
    code = compare(runs["base"], runs["refused"], "--fail-on-parse-change", "--verdict", verdict)
    assert code == ExitCode.PROBLEMS
    (failure,) = json.loads(verdict.read_text())["failures"]
    assert failure["kind"] == "parse_change" and failure["scene_id"] == "s03"
    # The other way round the reply now parses: a change, not a failure.
    assert compare(runs["refused"], runs["base"], "--fail-on-parse-change") == ExitCode.OK


def test_junit_validates_against_the_junit_schema(runs: dict[str, Path], tmp_path: Path) -> None:
    schema = xmlschema.XMLSchema(str(JUNIT_SCHEMA))
    one_sided = edited(
        runs["dropped"],
        tmp_path / "one_sided",
        lambda d: d.update(replies=[r for r in d["replies"] if r["language"] != "dsl"]),
    )
    for new, gates in (
        (runs["base"], Gates()),
        (runs["dropped"], Gates(fail_below=0.02)),
        (one_sided, Gates(fail_below=0.0, fail_on_missing=True)),
    ):
        comparison = compare_runs(
            read_scored_run(runs["base"]), read_scored_run(new), resamples=100
        )
        verdict = judge(comparison, gates)
        text = junit_xml(comparison, verdict)
        schema.validate(text)  # raises on any breach of the schema
        root = ET.fromstring(text)
        cases = list(root.iter("testcase"))
        assert len(cases) == len(MODELS) * len(LANGUAGES)
        failed = [case for case in cases if case.find("failure") is not None]
        assert len(failed) == len({f.cell for f in verdict.failures})
        assert int(root.get("failures", "")) == len(failed)
    # The last one: steady's json cell dropped, and both dsl cells are missing.
    names = sorted((c.get("classname"), c.get("name")) for c in failed)
    assert names == [
        ("spatialbabel.shaky.direct", "dsl"),
        ("spatialbabel.steady.direct", "dsl"),
        ("spatialbabel.steady.direct", "json"),
    ]


def test_markdown_summary_renders_as_tables(runs: dict[str, Path], tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    compare(runs["base"], runs["dropped"], "--fail-below", "0.02", "--markdown", summary)
    text = summary.read_text()
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert html.count("<table>") == 2  # the regressions, and every cell
    regressions = html.split("Regressions (worst first)")[1].split("</table>")[0]
    rows = regressions.split("<tr>")[2:]  # past the header row
    assert len(rows) == 2 and all("steady" in row and "❌" in row for row in rows)
    differences = [float(row.split("<strong>")[1].split("</strong>")[0]) for row in rows]
    assert differences == sorted(differences) and differences[0] < 0  # worst first
    header = html.split("<thead>")[1].split("</thead>")[0]
    for label in ("Δ score", "95% CI", *(f"Δ {n}" for n in ("Parse", "F1", "Class"))):
        assert label in header
    assert text.startswith("## SpatialBabel: scores compared\n\n**❌ FAILED")
    assert len(COMPONENTS) == 5


def test_bad_inputs_and_flags_say_so(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare(runs["base"], tmp_path / "nowhere") == ExitCode.BAD_INPUT
    assert "nowhere" in capsys.readouterr().err
    broken = edited(runs["base"], tmp_path / "broken", lambda d: d["replies"][2].pop("values"))
    with pytest.raises(FileFormatError, match=r"replies\[2\]\.values: expected an object"):
        read_scored_run(broken)
    assert compare(runs["base"], broken) == ExitCode.BAD_INPUT
    assert compare(runs["base"], runs["base"], "--fail-below", "-1") == ExitCode.USAGE


def test_the_python_example_of_the_docs_runs(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    (code,) = re.findall(r"^```python\n(.*?)^```$", doc, flags=re.S | re.M)
    code = code.replace('"baseline/"', repr(str(runs["base"]))).replace(
        '"scores/"', repr(str(runs["dropped"]))
    )
    exec(compile(code, "docs/ci.md", "exec"), {})
    printed = capsys.readouterr().out
    moved = [line for line in printed.splitlines() if "Estimate(" in line]
    assert [line.split()[0] for line in moved] == ["steady", "steady"]
    assert "## SpatialBabel: scores compared" in printed


def _audit(verdicts: dict[str, list[str]]) -> dict[str, Any]:
    """An audit.json of cells ``language -> verdicts`` (one reply per scene s0, s1, ...)."""
    from spatialbabel.audit_file import AuditCell, AuditedReply, AuditReport
    from spatialbabel.stats import bootstrap_mean

    cells, replies = [], []
    for language, found in verdicts.items():
        agree = [1.0 if v == "agrees" else 0.0 for v in found]
        cells.append(
            AuditCell(
                "m",
                language,
                len(found),
                len(found),
                len(found),
                int(sum(agree)),
                bootstrap_mean(agree),
            )
        )
        replies += [
            AuditedReply(
                k + 1,
                f"s{k}",
                "m",
                language,
                "direct",
                v,
                "ran",
                "" if v == "agrees" else "o1: box (1, 1, 1), the engine's (2, 1, 1)",
            )
            for k, v in enumerate(found)
        ]
    report = AuditReport("p.jsonl", 10, 0, {}, {}, (), tuple(cells), tuple(replies))
    return report.to_dict()


def test_audit_agreement_that_fell_is_flagged(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = edited(runs["base"], tmp_path / "base", lambda _data: None)
    new = edited(runs["base"], tmp_path / "new", lambda _data: None)
    write_json(
        base / "audit.json", _audit({"threejs": ["agrees"] * 10, "blender": ["agrees"] * 10})
    )
    write_json(
        new / "audit.json",
        _audit({"threejs": ["agrees"] * 4 + ["disagrees"] * 6, "blender": ["agrees"] * 10}),
    )
    code = compare(base, new, "--out", tmp_path / "out", "--resamples", "200")
    assert code == ExitCode.OK  # a flag, not a gate
    printed = capsys.readouterr().out
    flagged = [line for line in printed.splitlines() if line.startswith("audit: agreement fell")]
    assert len(flagged) == 1 and "m / threejs: agreement 1.00 -> 0.40" in flagged[0]
    assert "significant" in flagged[0] and "now disagrees: line 5 (s4)" in flagged[0]
    data = json.loads((tmp_path / "out" / "comparison.json").read_text())
    fell = {(c["language"], c["fell"], c["significant"]) for c in data["audit"]}
    assert fell == {("threejs", True, True), ("blender", False, False)}
    assert "agreement fell: m / threejs" in (tmp_path / "out" / "summary.md").read_text()
