"""The audit of a predictions file: the seeded draw, verdicts against the real engine, the
cells' agreement with its CI, languages without an engine or whose engine is missing, and
audit.json read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import audit.python_engines
from audit.pipeline import PredictionLine, audit_predictions, draw, write_audit
from audit.python_engines import PythonEngine
from audit.sandbox import Limits, sandbox_missing
from spatialbabel import ModelOutput
from spatialbabel.audit_file import audit_markdown, audit_text, read_audit


def reply(line: int, model: str, language: str, scene: str = "s") -> PredictionLine:
    return PredictionLine(line, ModelOutput(scene, model, language, "direct", "{}"))


def test_the_draw_is_seeded_per_cell_and_keeps_input_order() -> None:
    replies = [reply(i, m, "json", f"s{i}") for i in range(30) for m in ("a", "b")]
    first = draw(replies, 5, seed=3)
    again = draw(list(replies), 5, seed=3)
    assert first == again
    assert [len(v) for v in first.values()] == [5, 5]
    assert all(
        [r.line for r in chosen] == sorted(r.line or 0 for r in chosen) for chosen in first.values()
    )
    assert draw(replies, 5, seed=4) != first
    # Another model joining the file does not change the draw of the others.
    more = replies + [reply(100 + i, "c", "json", f"t{i}") for i in range(10)]
    assert draw(more, 5, seed=3)[("a", "json")] == first[("a", "json")]
    # A cell smaller than N is audited whole.
    assert len(draw(replies[:6], 5, seed=3)[("a", "json")]) == 3


CUBE = "```python\nimport bpy\nbpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 1))\n```"
#: Code the static parser, which never runs code, cannot follow: the engine builds a cube.
HIDDEN = "```python\nimport bpy\nexec('bpy.ops.mesh.primitive_cube_add(size=2)')\n```"
HANGS = "```python\nimport bpy\nwhile True:\n    pass\n```"
JSON = '{"objects": [{"class_name": "cube", "position": [0, 0.5, 0]}]}'


def _records(path: Path) -> None:
    rows = [
        ("s1", "blender", CUBE),
        ("s2", "blender", HIDDEN),
        ("s3", "blender", HANGS),
        ("s1", "json", JSON),
        ("s1", "open3d", "import open3d as o3d\nm = o3d.geometry.TriangleMesh.create_box()"),
    ]
    path.write_text(
        "".join(
            json.dumps(
                {"scene_id": s, "model": "m", "language": lang, "mode": "direct", "output": text}
            )
            + "\n"
            for s, lang, text in rows
        ),
        encoding="utf-8",
    )


@pytest.mark.bpy
@pytest.mark.skipif(sandbox_missing() is not None, reason=str(sandbox_missing()))
def test_an_audit_finds_what_the_parser_cannot_follow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("bpy")
    # An engine whose module is not installed: its language is skipped, the table says why.
    monkeypatch.setattr(
        audit.python_engines,
        "OPEN3D",
        PythonEngine("open3d", "open3d", "no_such_engine_module", "audit.open3d_runner"),
    )
    predictions = tmp_path / "replies.jsonl"
    _records(predictions)
    report = audit_predictions(predictions, per_cell=5, seed=0, limits=Limits(seconds=3))
    verdicts = {r.scene_id: r for r in report.replies if r.language == "blender"}
    assert verdicts["s1"].verdict == "agrees" and verdicts["s1"].diff == ""
    assert verdicts["s2"].verdict == "disagrees"
    assert "0 objects parsed, the engine built 1" in verdicts["s2"].diff
    assert verdicts["s3"].verdict == "engine_failed" and verdicts["s3"].run == "timeout"
    assert "time limit" in str(verdicts["s3"].stopped_by)
    cell = report.cell("m", "blender")
    assert cell is not None and (cell.audited, cell.compared, cell.agreeing) == (3, 2, 1)
    assert cell.agreement is not None and cell.agreement.mean == 0.5
    assert cell.agreement.low == 0.0 and cell.agreement.high == 1.0
    json_cell = report.cell("m", "json")
    assert json_cell is not None and json_cell.note == "no engine" and json_cell.audited == 0
    assert "JSON is data" in report.skipped["json"]
    assert "spatialbabel[engines]" in report.skipped["open3d"]
    (cost,) = report.engines
    assert cost.language == "blender" and cost.engine.startswith("bpy ")
    assert cost.engine_seconds > cost.parse_seconds > 0
    # The files: audit.json reads back to the same report; the table shows every cell.
    write_audit(report, tmp_path)
    assert read_audit(tmp_path) == report
    table = audit_markdown(report)
    assert "| m | 0.50 [0.00, 1.00] (1/2), 1 failed in the engine |" in table
    assert "no engine" in table and "skipped: engine missing" in table
    assert "0 objects parsed, the engine built 1" in audit_text(report)


def _unity(body: str) -> str:
    return (
        "```csharp\nusing UnityEngine;\npublic class Build : MonoBehaviour {\n  void Start() {\n"
        f"{body}\n  }}\n}}\n```"
    )


UNITY_CUBE = _unity(
    "    var c = GameObject.CreatePrimitive(PrimitiveType.Cube);\n"
    "    c.transform.position = new Vector3(1f, 2f, 3f);"
)
#: A seeded System.Random: the engine draws a number the static parse cannot know.
UNITY_RANDOM = _unity(
    "    var r = new System.Random(3);\n"
    "    var c = GameObject.CreatePrimitive(PrimitiveType.Sphere);\n"
    "    c.transform.position = new Vector3(1f + (float)r.NextDouble() * 4f, 0.5f, 0f);"
)
UNITY_READS_A_FILE = _unity(
    '    var text = System.IO.File.ReadAllText("/etc/hostname");\n'
    "    GameObject.CreatePrimitive(PrimitiveType.Cube);"
)


@pytest.mark.mono
@pytest.mark.skipif(sandbox_missing() is not None, reason=str(sandbox_missing()))
def test_unity_replies_are_audited_in_mono(tmp_path: Path) -> None:
    from audit.unity_audit import ENGINE

    if ENGINE.missing() is not None:
        pytest.skip(str(ENGINE.missing()))
    predictions = tmp_path / "replies.jsonl"
    predictions.write_text(
        "".join(
            json.dumps(
                {"scene_id": s, "model": "m", "language": "unity", "mode": "direct", "output": t}
            )
            + "\n"
            for s, t in (("u1", UNITY_CUBE), ("u2", UNITY_RANDOM), ("u3", UNITY_READS_A_FILE))
        ),
        encoding="utf-8",
    )
    report = audit_predictions(predictions, per_cell=5, seed=0, limits=Limits(seconds=10))
    verdicts = {r.scene_id: r for r in report.replies}
    assert verdicts["u1"].verdict == "agrees", verdicts["u1"].diff
    assert verdicts["u2"].verdict == "disagrees"
    assert "Sphere: centre (0, 0.5, 0), the engine's (2.17, 0.5, 0)" in verdicts["u2"].diff
    assert verdicts["u3"].verdict == "engine_failed" and verdicts["u3"].run == "refused"
    assert "refused by the C# reference check" in str(verdicts["u3"].stopped_by)
    cell = report.cell("m", "unity")
    assert cell is not None and (cell.audited, cell.compared, cell.agreeing) == (3, 2, 1)
    (cost,) = report.engines
    assert cost.language == "unity" and cost.engine.startswith("UnityEngine facade on Mono")
    # The batch's compilation is the session's start-up; each run costs more than its parse.
    assert cost.startup_seconds > 0 and cost.engine_seconds > cost.parse_seconds > 0
