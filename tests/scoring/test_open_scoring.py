"""Scoring in the open domain: synonym-aware class accuracy through the one taxonomy, and the
table of the primitive domain against the open one."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from scoring.reply import score_output
from scoring.tables import cell_means_from_scores, domain_drop_grid
from spatialbabel import ModelOutput, Scene, SceneObject
from spatialbabel.cli import main

ROOM = Scene(
    "room",
    (
        SceneObject("sofa_1", "sofa", (0.0, 0.45, -1.5), (0.0, -8.0, 0.0), (2.0, 0.9, 0.9)),
        SceneObject("prop_2", "other prop", (1.5, 0.8, -1.0), (0.0, 0.0, 0.0), (0.2, 0.3, 0.2)),
    ),
    domain="open",
)


def _json_reply(first: str, second: str) -> str:
    return (
        '```json\n{"objects": [\n'
        f'  {{"class_name": "{first}", "position": [0, 0.45, -1.5], "rotation": [0, -8, 0], "scale": [2, 0.9, 0.9]}},\n'
        f'  {{"class_name": "{second}", "position": [1.5, 0.8, -1.0], "scale": [0.2, 0.3, 0.2]}}\n'
        "]}\n```"
    )


def _class_accuracy(text: str, language: str = "json") -> float | None:
    output = ModelOutput("room", "m", language, "direct", text)
    return score_output(output, ROOM).values["class_accuracy"]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("couch", "vase", 1.0),  # couch = sofa; a vase is an "other prop"
        ("sofa", "other prop", 1.0),
        ("chair", "vase", 0.5),
        ("couch", "stool", 0.5),  # a stool is other furniture, not other prop
        ("cube", "cube", 0.0),  # the primitive of an unnamed box matches no class
    ],
)
def test_class_accuracy_is_synonym_aware(first: str, second: str, expected: float) -> None:
    assert _class_accuracy(_json_reply(first, second)) == pytest.approx(expected)


def test_a_reply_naming_a_couch_for_the_true_sofa_scores_class_accuracy_one() -> None:
    reply = """```javascript
const couch = new THREE.Mesh(new THREE.BoxGeometry(2, 0.9, 0.9), new THREE.MeshStandardMaterial());
couch.position.set(0, 0.45, -1.5);
scene.add(couch);
```"""
    truth = Scene("room", ROOM.objects[:1], domain="open")
    output = ModelOutput("room", "m", "threejs", "direct", reply)
    assert score_output(output, truth).values["class_accuracy"] == 1.0


def _scores(path: Path, score: float, class_accuracy: float) -> Path:
    def cell(model: str, language: str, tier: int | None) -> dict[str, object]:
        estimates = {
            "score": {"mean": score, "low": 0, "high": 1, "n": 3},
            "class_accuracy": {"mean": class_accuracy, "low": 0, "high": 1, "n": 3},
            "scale_fidelity": {"mean": None, "low": None, "high": None, "n": 0},
        }
        return {
            "model": model,
            "language": language,
            "mode": "direct",
            "tier": tier,
            "estimates": estimates,
        }

    cells = [cell("m", "json", None), cell("m", "dsl", None), cell("m", "json", 1)]
    path.mkdir()
    (path / "scores.json").write_text(json.dumps({"schema_version": 1, "cells": cells}))
    return path


def test_domain_table_gives_each_drop_and_the_model_mean(tmp_path: Path) -> None:
    primitive = cell_means_from_scores(
        json.loads(_scores(tmp_path / "p", 0.9, 1.0).joinpath("scores.json").read_text())
    )
    open_domain = cell_means_from_scores(
        json.loads(_scores(tmp_path / "o", 0.7, 0.6).joinpath("scores.json").read_text())
    )
    header, rows = domain_drop_grid(primitive, open_domain, "direct")
    assert header[:5] == ["model", "language", "score prim", "score open", "score drop"]
    assert [r[:5] for r in rows] == [
        ["m", "json", "0.900", "0.700", "0.200"],
        ["m", "dsl", "0.900", "0.700", "0.200"],
        ["m", "mean", "0.900", "0.700", "0.200"],
    ]
    assert rows[0][5:8] == ["1.000", "0.600", "0.400"]
    assert rows[0][8:] == ["–", "–", "–"]  # undefined on both sides
    assert math.isnan(primitive[("m", "json", "direct")]["scale_fidelity"])


def test_domains_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p, o = _scores(tmp_path / "p", 0.9, 1.0), _scores(tmp_path / "o", 0.75, 0.5)
    out = tmp_path / "domains.md"
    assert main(["domains", str(p), str(o / "scores.json"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "0.150" in printed and "0.500" in printed
    assert out.read_text().startswith("# Primitive against open domain")
    assert main(["domains", str(p), str(o), "--mode", "nl_cot"]) == 1
    (tmp_path / "bad.json").write_text('{"schema_version": 1, "cells": [{"model": "m"}]}')
    assert main(["domains", str(p), str(tmp_path / "bad.json")]) == 3
