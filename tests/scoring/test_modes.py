"""Mode differences (nl_cot − direct, paired by scene) and replies cut at the token limit: the
numbers, and every table that carries them."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from parsers import write
from scoring import ReplyScore, aggregate, score_predictions, score_reply
from scoring.metrics import metric_names
from scoring.modes import significant
from scoring.tables import modes_csv, render_latex, render_markdown, render_text, write_outputs
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import write_json
from spatialbabel.stats import bootstrap_mean
from tests.scoring.helpers import layout, moved


def _scenes(n: int) -> list[Scene]:
    return [
        replace(layout(2000 + i, count=4), scene_id=f"s{i:03d}", meta={"tier": 1}) for i in range(n)
    ]


def _reply(truth: Scene, noise: float, rng: np.random.Generator, mode: str) -> ReplyScore:
    prediction = moved(truth, rng.normal(0, noise, (len(truth.objects), 3)))
    return replace(score_reply(prediction, truth), model="m", language="json", mode=mode)


def _failed(truth: Scene, mode: str) -> ReplyScore:
    return replace(
        score_reply(truth.with_objects([]), truth), model="m", language="json", mode=mode
    )


def paired_replies(n: int = 24, seed: int = 0) -> list[ReplyScore]:
    """Scenes of very different difficulty (the noise of a scene ranges over 0.05..0.9 in both
    modes), nl_cot a little less noisy on every scene, and one failed parse per mode."""
    rng = np.random.default_rng(seed)
    replies = []
    for k, truth in enumerate(_scenes(n)):
        difficulty = 0.05 + 0.85 * k / (n - 1)
        if k == 3:
            replies.append(_failed(truth, "direct"))
        else:
            replies.append(_reply(truth, difficulty, np.random.default_rng([seed, k]), "direct"))
        if k == 7:
            replies.append(_failed(truth, "nl_cot"))
        else:
            replies.append(
                _reply(truth, difficulty * 0.8, np.random.default_rng([seed, k]), "nl_cot")
            )
    order = rng.permutation(len(replies))  # the order of the replies must not matter
    return [replies[i] for i in order]


def test_the_difference_is_the_difference_of_the_cell_means() -> None:
    replies = paired_replies()
    agg = aggregate(replies, seed=0, resamples=300)
    (difference,) = agg.mode_differences
    assert (difference.mode, difference.baseline, difference.n_scenes) == ("nl_cot", "direct", 24)
    direct, nl_cot = agg.cell("m", "json", "direct"), agg.cell("m", "json", "nl_cot")
    assert direct is not None and nl_cot is not None
    # Every metric by its own rule, paired-scope ones over the replies with a pair.
    for name in ("score", "aligned_score", *metric_names()):
        e = difference.estimates[name]
        assert e.mean == pytest.approx(nl_cot.mean(name) - direct.mean(name), abs=1e-12), name
        assert e.low <= e.mean <= e.high


def test_only_scenes_answered_in_both_modes_are_paired() -> None:
    replies = paired_replies()
    dropped = {"s000", "s001"}
    kept = [r for r in replies if not (r.mode == "nl_cot" and r.scene_id in dropped)]
    agg = aggregate(kept, seed=0, resamples=200)
    (difference,) = agg.mode_differences
    assert difference.n_scenes == 22
    common = [r for r in kept if r.scene_id not in dropped]
    again = aggregate(common, seed=0, resamples=200)
    direct, nl_cot = again.cell("m", "json", "direct"), again.cell("m", "json", "nl_cot")
    assert direct is not None and nl_cot is not None
    expected = nl_cot.mean("score") - direct.mean("score")
    assert difference.estimates["score"].mean == pytest.approx(expected, abs=1e-12)


def test_pairing_by_scene_removes_the_scenes_own_difficulty() -> None:
    agg = aggregate(paired_replies(), seed=0, resamples=1000)
    (difference,) = agg.mode_differences
    e = difference.estimates["position_fidelity"]
    # nl_cot is less noisy on every scene: the paired CI sees it...
    assert e.mean > 0 and significant(e)
    # ...where two unpaired CIs, each as wide as the spread of the scenes, overlap.
    direct, nl_cot = agg.cell("m", "json", "direct"), agg.cell("m", "json", "nl_cot")
    assert direct is not None and nl_cot is not None
    a, b = direct.estimates["position_fidelity"], nl_cot.estimates["position_fidelity"]
    assert a.high > b.low
    assert (e.high - e.low) < 0.5 * (a.high - a.low)


def test_for_the_score_the_ci_is_the_shared_seeded_bootstrap_of_per_scene_differences() -> None:
    # With every reply parsed, the influence values of the score are the replies' own scores.
    replies = [r for r in paired_replies() if r.parsed and r.scene_id not in {"s003", "s007"}]
    agg = aggregate(replies, seed=5, resamples=400)
    (difference,) = agg.mode_differences
    scores = {(r.scene_id, r.mode): r.score for r in replies}
    scenes = sorted({r.scene_id for r in replies})
    deltas = [scores[(s, "nl_cot")] - scores[(s, "direct")] for s in scenes]  # type: ignore[operator]
    expected = bootstrap_mean(deltas, seed=5, resamples=400, groups=scenes)
    got = difference.estimates["score"]
    assert (got.mean, got.low, got.high, got.n) == pytest.approx(
        (expected.mean, expected.low, expected.high, expected.n), abs=1e-12
    )


def test_the_same_replies_in_both_modes_differ_by_nothing() -> None:
    direct = [r for r in paired_replies() if r.mode == "direct"]
    twins = [*direct, *(replace(r, mode="nl_cot") for r in direct)]
    (difference,) = aggregate(twins, seed=0, resamples=200).mode_differences
    for name, e in difference.estimates.items():
        if not math.isnan(e.mean):
            assert (e.mean, e.low, e.high) == (0.0, 0.0, 0.0), name
            assert not significant(e)


def test_no_baseline_no_difference() -> None:
    replies = [r for r in paired_replies() if r.mode == "nl_cot"]
    assert aggregate(replies, seed=0, resamples=50).mode_differences == ()


# --- the tables, on a run from disk ----------------------------------------------------------


def _split(root: Path, scenes: list[Scene]) -> None:
    for scene in scenes:
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
    ids = [s.scene_id for s in scenes]
    write_json(root / "subsets.json", {"eval": ids, "phase1": [], "unused": []})
    write_json(root / "manifest.json", {"generator": "test", "counts": {"scenes": len(ids)}})


def _predictions(path: Path, scenes: list[Scene]) -> None:
    """Two models; model "m" in both modes, its nl_cot replies better, two of them cut."""
    lines: list[dict[str, object]] = []
    for k, scene in enumerate(scenes):
        rng = np.random.default_rng(k)
        noisy = moved(scene, rng.normal(0, 0.6, (len(scene.objects), 3)))
        better = moved(scene, rng.normal(0, 0.1, (len(scene.objects), 3)))
        lines.append({"model": "m", "mode": "direct", "output": write(noisy, "json")})
        cut = k < 2
        text = write(better, "json")
        lines.append(
            {
                "model": "m",
                "mode": "nl_cot",
                "output": "1. a cube on the left\n\n```json\n" + (text[:60] if cut else text),
                "finish_reason": "length" if cut else "stop",
                "request_id": f"reconstruct/{scene.scene_id}/json/nl_cot",
                "usage": {"completion_tokens": 2048 if cut else 300},
            }
        )
        lines.append({"model": "other", "mode": "direct", "output": write(scene, "json")})
        for record in lines[-3:]:
            record.update(scene_id=scene.scene_id, language="json")
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("modes")
    scenes = _scenes(8)
    _split(root / "split", scenes)
    _predictions(root / "replies.jsonl", scenes)
    return root


def test_truncated_replies_are_counted_beside_the_parse_rate(run_dir: Path) -> None:
    run = score_predictions(run_dir / "split", run_dir / "replies.jsonl", resamples=200)
    assert run.problems == ()
    cell = run.aggregate.cell("m", "json", "nl_cot")
    assert cell is not None and (cell.n, cell.n_truncated) == (8, 2)
    assert [c.n_truncated for c in run.aggregate.cells if c is not cell] == [0, 0]
    assert run.summary()["truncated"] == 2
    markdown = render_markdown(run)
    assert f"| {cell.mean('parse'):.3f} (2 cut) |" in markdown
    assert "| cut at the token limit | 2 |" in markdown
    assert "Cut at the token limit (finish_reason length), mode 'nl_cot': m json 2/8" in (
        render_text(run)
    )
    assert f"{cell.mean('parse'):.2f} (2)" in render_latex(run)
    written = {p.name: p for p in write_outputs(run, run_dir / "scores")}
    rows = list(csv.DictReader(written["cells.csv"].open()))
    assert [(r["model"], r["mode"], r["n_truncated"]) for r in rows] == [
        ("m", "direct", "0"),
        ("other", "direct", "0"),
        ("m", "nl_cot", "2"),
    ]
    replies = list(csv.DictReader(written["replies.csv"].open()))
    assert sum(int(r["truncated"]) for r in replies) == 2
    data = json.loads(written["scores.json"].read_text())
    assert sum(r["truncated"] for r in data["replies"]) == 2
    assert [c["n_truncated"] for c in data["cells"]] == [0, 0, 2]


def test_the_mode_difference_is_in_every_output(run_dir: Path) -> None:
    run = score_predictions(run_dir / "split", run_dir / "replies.jsonl", resamples=200)
    (difference,) = run.aggregate.mode_differences
    assert (difference.model, difference.language, difference.n_scenes) == ("m", "json", 8)
    e = difference.estimates["score"]
    text = f"{e.mean:+.3f} [{e.low:+.3f}, {e.high:+.3f}]"
    markdown = render_markdown(run)
    assert "## Mode difference: nl_cot − direct" in markdown
    assert text in markdown
    for name in metric_names("component"):
        label = next(m.label for m in run.aggregate.metrics if m.name == name)
        section = markdown.split("## Mode difference")[1]
        assert f"### {label}" in section
    printed = render_text(run)
    assert "Mode difference nl_cot − direct" in printed
    assert f"{e.mean:+.3f}" in printed.split("Mode difference")[1]
    latex = render_latex(run)
    assert rf"${e.mean:+.3f}$" in latex and "nl\\_cot minus direct" in latex
    rows = list(csv.DictReader(io.StringIO(modes_csv(run.aggregate))))
    assert len(rows) == 1 and rows[0]["baseline"] == "direct" and rows[0]["n_scenes"] == "8"
    assert float(rows[0]["score"]) == e.mean and float(rows[0]["score_low"]) == e.low
    names = [c.name for c in run.aggregate.metrics]
    assert all(name in rows[0] for name in names)
    data = json.loads(json.dumps(run.to_dict()))
    assert data["mode_differences"][0]["estimates"]["score"]["mean"] == e.mean


def test_a_finish_reason_that_is_not_text_is_a_malformed_line(tmp_path: Path) -> None:
    scenes = _scenes(1)
    _split(tmp_path / "split", scenes)
    record = {
        "scene_id": scenes[0].scene_id,
        "model": "m",
        "language": "json",
        "mode": "direct",
        "output": write(scenes[0], "json"),
        "finish_reason": 7,
        "latency_s": 1.5,
    }
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text(json.dumps(record) + "\n" + json.dumps({**record, "model": "n"}) + "\n")
    code = main(
        [
            "score",
            "--split",
            str(tmp_path / "split"),
            "--predictions",
            str(predictions),
            "--out",
            str(tmp_path / "out"),
            "--workers",
            "1",
        ]
    )
    assert code == ExitCode.PROBLEMS
    data = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert [p["kind"] for p in data["problems"]] == ["malformed", "malformed"]
    assert "finish_reason" in data["problems"][0]["message"]
