"""The open domain end to end: a glTF scene of furniture built in Blender goes through
``import``, ``prompts``, the bundled mock replies (fixtures/real/furniture/, one per language),
``score`` and ``report``, each a command as a user runs it.

The replies are a mock model's: every one draws each piece as its box and names it its own
way (a couch for the true sofa, a dining_table, an Armchair, a floor_lamp; a variable, a
comment, a helper's call site), with the mistakes written into it: Unity leaves out the lamp,
JSON adds a rug, the DSL calls the table a desk and leaves the lamp a bare cylinder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("trimesh", reason="the real extra (trimesh) is not installed")

from spatialbabel import LANGUAGES
from spatialbabel.cli import main
from spatialbabel.files import write_jsonl
from tests.importers import furniture

pytestmark = [pytest.mark.bpy, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
REPLIES = ROOT / "fixtures" / "real" / "furniture"

#: Per language: class accuracy over the matched pairs, and how many objects the reply has.
EXPECTED = {
    "threejs": (1.0, 4),
    "unity": (1.0, 3),
    "blender": (1.0, 4),
    "open3d": (1.0, 4),
    "json": (1.0, 5),
    "dsl": (0.5, 4),
}


def bundled_replies(out: Path) -> Path:
    """The bundled replies as a predictions file for the imported scene."""
    records = [
        {
            "scene_id": "furniture",
            "model": "mock-real",
            "language": language,
            "mode": "direct",
            "output": (REPLIES / f"{language}.txt").read_text(encoding="utf-8"),
        }
        for language in LANGUAGES
    ]
    write_jsonl(out, records)
    return out


@pytest.fixture(scope="module")
def run(furniture_files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("real")
    labels = work / "labels.json"
    labels.write_text(json.dumps(furniture.LABELS))
    glb = furniture_files / "furniture.glb"
    assert (
        main(["import", "mesh", str(glb), "--labels", str(labels), "--out", str(work / "split")])
        == 0
    )
    assert (
        main(
            [
                "prompts",
                "--split",
                str(work / "split"),
                "--task",
                "reconstruct",
                "--modes",
                "direct",
                "--out",
                str(work / "requests.jsonl"),
            ]
        )
        == 0
    )
    replies = bundled_replies(work / "replies.jsonl")
    status = main(
        [
            "score",
            "--split",
            str(work / "split"),
            "--predictions",
            str(replies),
            "--out",
            str(work / "scores"),
            "--workers",
            "1",
            "--resamples",
            "200",
        ]
    )
    assert status == 0
    return work


def test_prompts_ask_for_named_boxes_of_real_furniture(run: Path) -> None:
    requests = [json.loads(line) for line in (run / "requests.jsonl").read_text().splitlines()]
    assert [r["custom_id"] for r in requests] == [
        f"reconstruct/furniture/{language}/direct" for language in LANGUAGES
    ]
    for request in requests:
        system, user = request["body"]["messages"]
        assert "real indoor scene" in system["content"]
        image, text = user["content"]
        assert image["image_url"]["url"].startswith("data:image/png;base64,")
        assert "descriptive class name" in system["content"]
        assert (
            "The floor is the plane" in text["text"]
            and "every object stands within" in text["text"]
        )
        assert "palette" not in text["text"].lower()


def test_scores_of_the_mock_replies(run: Path) -> None:
    data = json.loads((run / "scores" / "scores.json").read_text())
    replies = {r["language"]: r for r in data["replies"]}
    for language, (class_accuracy, n_predicted) in EXPECTED.items():
        reply = replies[language]
        assert reply["parsed"], reply["failure_reason"]
        assert reply["n_predicted"] == n_predicted, language
        assert reply["n_true"] == 4
        assert reply["values"]["class_accuracy"] == pytest.approx(class_accuracy), language
    codes = {d["code"] for d in replies["open3d"]["diagnostics"]}
    assert "open.class_from_variable" in codes
    assert "open.class_from_geometry" in {d["code"] for d in replies["dsl"]["diagnostics"]}
    # The couch of every reply is paired with the true sofa.
    for reply in data["replies"]:
        pairs = {p["true_id"]: p["predicted_id"] for p in reply["matching"]["pairs"]}
        assert "Couch" in pairs


@pytest.mark.render
def test_report(run: Path) -> None:
    pytest.importorskip("pyrender")
    status = main(["report", str(run / "scores"), "--out", str(run / "report"), "--workers", "1"])
    assert status in (0, 1)
    index = (run / "report" / "index.html").read_text(encoding="utf-8")
    assert "mock-real" in index
    assert any((run / "report").rglob("*.png"))
