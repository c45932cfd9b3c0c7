"""The tables the papers report that read cell means (issue 28, item 4): the five Reconstruct
components averaged over the languages per (model, mode) (SpatialBabel's Table 9), the drop
from primitives to real scenes per model with its per-language profile (Appendix F), and the
per-model correlation of Reconstruct F1 with QA accuracy (Table 10)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from scoring.correlation import correlate, qa_accuracy_by_model
from scoring.metrics import metric_names
from scoring.tables import (
    cell_means,
    correlation_lines,
    domain_model_drop_grid,
    domain_profile_grid,
    language_mean_columns,
    language_means,
    model_means_csv,
    render_latex,
    render_markdown,
)
from spatialbabel import LANGUAGES
from spatialbabel.cli import ExitCode, main
from tests.scoring.test_tables import two_language_run

COMPONENTS = ("parse", "f1", "class_accuracy", "position_fidelity", "scale_fidelity")


def test_the_language_means_are_the_reconstruct_score_and_its_five_components() -> None:
    # Table 9 averages the five components of the Reconstruct Score; the registry says which.
    assert tuple(metric_names("component")) == COMPONENTS
    assert language_mean_columns() == ("score", *COMPONENTS)


def test_language_means_average_the_cells_over_the_languages_where_defined() -> None:
    rng = np.random.default_rng(4)
    cells: dict[tuple[str, str, str], dict[str, float]] = {}
    for model in ("a", "b"):
        for mode in ("direct", "nl_cot"):
            for language in LANGUAGES:
                cells[(model, language, mode)] = {n: float(rng.uniform()) for n in COMPONENTS}
    cells[("a", "dsl", "direct")]["class_accuracy"] = math.nan  # no pair in that cell
    del cells[("b", "unity", "nl_cot")]  # a language never answered
    found = {(m.model, m.mode): m for m in language_means(cells, COMPONENTS)}
    assert list(found) == [("a", "direct"), ("b", "direct"), ("a", "nl_cot"), ("b", "nl_cot")]
    for (model, mode), mean in found.items():
        languages = [lang for lang in LANGUAGES if (model, lang, mode) in cells]
        assert list(mean.languages) == languages
        for name in COMPONENTS:
            values = [cells[(model, lang, mode)][name] for lang in languages]
            expected = np.nanmean(values)
            assert mean.means[name] == pytest.approx(expected, abs=1e-12)
    assert len(found[("b", "nl_cot")].languages) == 5


def test_score_writes_the_language_means_everywhere(tmp_path: Path) -> None:
    run = two_language_run()
    cells = cell_means(run.aggregate)
    means = language_means(cells)
    for mean in means:
        languages = [k for k in cells if k[0] == mean.model and k[2] == mean.mode]
        for name in language_mean_columns():
            expected = np.nanmean([cells[k][name] for k in languages])
            assert mean.means[name] == pytest.approx(expected)
    rows = list(csv.DictReader(io.StringIO(model_means_csv(means))))
    assert [(r["model"], r["mode"], r["n_languages"]) for r in rows] == [
        ("b_model", "m0", "1"),
        ("model_a", "m0", "2"),
    ]
    assert float(rows[1]["f1"]) == pytest.approx(means[1].means["f1"])
    markdown = render_markdown(run)
    assert "### Each model's mean over its languages (the paper's Table 9)" in markdown
    assert f"| model_a | 2 | {means[1].means['score']:.3f} |" in markdown
    assert "averaged over the model's languages" in render_latex(run)


@pytest.mark.render
def test_the_report_shows_the_language_means(tmp_path: Path) -> None:
    pytest.importorskip("pyrender")
    from render.report import build_report
    from scoring import write_outputs

    run = two_language_run()
    write_outputs(run, tmp_path / "scores")
    assert (tmp_path / "scores" / "model_means.csv").is_file()
    stored = json.loads((tmp_path / "scores" / "scores.json").read_text())["language_means"]
    index = build_report(tmp_path / "scores" / "scores.json", tmp_path / "site").index.read_text()
    table = index.split("Table 9)</h3>")[1].split("</table>")[0]
    for entry in stored:
        row = table.split(f'<td class="name">{entry["model"]}</td>')[1].split("</tr>")[0]
        assert f"<td>{entry['means']['f1']:.3f}</td>" in row
    assert (tmp_path / "site" / "tables" / "model_means.csv").is_file()


def _scores(path: Path, values: dict[tuple[str, str], dict[str, float]]) -> Path:
    cells = [
        {
            "model": model,
            "language": language,
            "mode": "direct",
            "tier": None,
            "estimates": {n: {"mean": v, "low": v, "high": v, "n": 4} for n, v in row.items()},
        }
        for (model, language), row in values.items()
    ]
    path.mkdir(parents=True)
    (path / "scores.json").write_text(json.dumps({"schema_version": 1, "cells": cells}))
    return path


def _row(score: float, f1: float = 0.8) -> dict[str, float]:
    return {
        "score": score,
        "parse": 1.0,
        "f1": f1,
        "class_accuracy": score,
        "position_fidelity": 0.9,
        "scale_fidelity": score,
    }


def test_the_domain_drop_per_model_and_its_language_profile(tmp_path: Path) -> None:
    from scoring.tables import read_cell_means

    languages = ("threejs", "unity", "json", "dsl")
    prim = {("kept", lang): _row(0.9 - 0.1 * k) for k, lang in enumerate(languages)}
    prim |= {("flipped", lang): _row(0.9 - 0.1 * k) for k, lang in enumerate(languages)}
    real = {("kept", lang): _row(0.6 - 0.05 * k) for k, lang in enumerate(languages)}
    # The other model's best language on primitives is its worst on real scenes, and so on.
    real |= {("flipped", lang): _row(0.4 + 0.05 * k) for k, lang in enumerate(languages)}
    p = read_cell_means(_scores(tmp_path / "p", prim))
    o = read_cell_means(_scores(tmp_path / "o", real))
    header, rows = domain_model_drop_grid(p, o, "direct")
    assert header == [
        "model",
        "languages",
        "Reconstruct Score drop",
        "Parse drop",
        "F1 drop",
        "Class drop",
        "Position drop",
        "Scale drop",
    ]
    by_model = {r[0]: r for r in rows}
    drops = [0.9 - 0.1 * k - (0.6 - 0.05 * k) for k in range(4)]
    assert by_model["kept"][1:4] == ["4", f"{np.mean(drops):.3f}", "0.000"]
    header, rows = domain_profile_grid(p, o, "direct")
    assert header == ["model", *languages, "mean", "ρ (profile kept)"]
    profile = {r[0]: r for r in rows}
    assert profile["kept"][1:5] == [f"{d:.3f}" for d in drops]
    assert profile["kept"][-1] == "1.00" and profile["flipped"][-1] == "-1.00"
    out = tmp_path / "domains.md"
    assert main(["domains", str(tmp_path / "p"), str(tmp_path / "o"), "--out", str(out)]) == 0
    text = out.read_text()
    assert "Appendix F" in text and "profile is kept" in text


MODELS = ("m1", "m2", "m3", "m4", "m5")
F1 = (0.42, 0.55, 0.61, 0.70, 0.66)
QA = (0.31, 0.35, 0.47, 0.52, 0.40)


def _qa_scores(path: Path, accuracy: dict[str, float]) -> Path:
    summary = {
        m: {
            "overall": {"mean": a},
            "by_mode": {
                "direct": {"mean": a, "low": a, "high": a, "n": 40},
                "nl_cot": {"mean": 1 - a},
            },
        }
        for m, a in accuracy.items()
    }
    path.mkdir(parents=True)
    (path / "qa_scores.json").write_text(
        json.dumps({"schema_version": 1, "summary": summary, "details": []})
    )
    return path


def test_the_correlation_of_f1_with_qa_accuracy(tmp_path: Path) -> None:
    recon = {
        (m, lang): _row(0.8, f1=f + 0.02 * k)
        for m, f in zip(MODELS, F1, strict=True)
        for k, lang in enumerate(("json", "dsl"))
    }
    means = language_means({(m, lang, "direct"): row for (m, lang), row in recon.items()})
    qa = dict(zip(MODELS, QA, strict=True))
    found = correlate(means, qa)
    xs = np.array([f + 0.01 for f in F1])
    assert found.models == MODELS and np.allclose(found.reconstruct, xs)
    assert found.pearson == pytest.approx(float(np.corrcoef(xs, QA)[0, 1]))
    ranks = np.argsort(np.argsort(xs)), np.argsort(np.argsort(QA))
    assert found.spearman == pytest.approx(float(np.corrcoef(*ranks)[0, 1]))
    assert 0 < found.pearson_p < 1 and found.n == 5
    # The critical r of a two-sided test at 5% with 5 points, as statistics tables give it.
    assert found.critical_r == pytest.approx(0.878, abs=1e-3)
    lines = correlation_lines(found)
    assert "n = 5 models" in lines[0] and "weak evidence" in lines[1] and "0.88" in lines[1]
    # A model in one run only is left out and named; two models are not enough.
    fewer = correlate(means, {"m1": 0.3, "m2": 0.4, "other": 0.9})
    assert (
        fewer.n == 2 and math.isnan(fewer.pearson) and fewer.unpaired == ("m3", "m4", "m5", "other")
    )
    assert "at least 3" in correlation_lines(fewer)[0]


def test_correlate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recon = {(m, "json"): _row(0.8, f1=f) for m, f in zip(MODELS, F1, strict=True)}
    scores = _scores(tmp_path / "scores", recon)
    qa = _qa_scores(tmp_path / "qa", dict(zip(MODELS, QA, strict=True)))
    out, js = tmp_path / "corr.md", tmp_path / "corr.json"
    assert main(["correlate", str(scores), str(qa), "--out", str(out), "--json", str(js)]) == 0
    printed = capsys.readouterr().out
    assert "Pearson r = " in printed and "Spearman ρ = " in printed and "n = 5 models" in printed
    data = json.loads(js.read_text())
    assert data["n_models"] == 5 and data["pearson"]["r"] == pytest.approx(
        float(np.corrcoef(F1, QA)[0, 1])
    )
    assert out.read_text().startswith("# Reconstruct f1")
    assert qa_accuracy_by_model(json.loads((qa / "qa_scores.json").read_text()), "nl_cot")[
        "m1"
    ] == pytest.approx(1 - QA[0])
    # Too few models: the table, and exit 1.
    small = _qa_scores(tmp_path / "small", {"m1": 0.2, "m2": 0.3})
    assert main(["correlate", str(scores), str(small)]) == ExitCode.PROBLEMS
    assert "3 are needed" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text(
        '{"schema_version": 1, "summary": {"m1": {"by_mode": {"direct": {"mean": "x"}}}}}'
    )
    assert main(["correlate", str(scores), str(tmp_path / "bad.json")]) == ExitCode.BAD_INPUT
