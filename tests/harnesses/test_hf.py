"""`spatialbabel export hf`: a split and suites' items as a Hugging Face dataset that
`datasets.load_dataset` reads, whose rows are the request files' lines (ids, texts, images,
decoding settings) with their truth, whose bytes are the same run to run, and whose answers
score, through the usual commands on the export's truth, exactly as on the original data."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml

from harnesses.grading import HarnessReply, score_replies
from spatialbabel.cli import main
from tests.harnesses.conftest import MODEL, Built


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_rows_are_the_request_files_lines(built: Built, tmp_path: Path) -> None:
    requests = built.requests()
    seen: list[str] = []
    for config in built.export.configs:
        for row in built.rows(config.config.name):
            request = requests[row["id"]]
            assert row["system"] == request.system and row["prompt"] == request.text
            assert json.loads(row["generation"]) == dict(request.settings)
            images = [m.data for m in request.media]
            loaded = [image.tobytes() for image in row["images"]]
            import io

            from PIL import Image

            assert loaded == [Image.open(io.BytesIO(data)).tobytes() for data in images]
            seen.append(row["id"])
    # Every request, once; in each config in the request file's order.
    assert sorted(seen) == sorted(requests)
    for task, ids in built.request_ids.items():
        in_export = [i for i in seen if i.split("/")[0] == task]
        assert sorted(in_export) == sorted(ids)
    several = [c for c in built.export.configs if c.config.task == "spacecast"]
    if several:
        rows = built.rows(several[0].config.name)
        assert max(len(r["images"]) for r in rows) > 1


def test_images_are_embedded_byte_for_byte(built: Built) -> None:
    import pyarrow.parquet as pq

    config = built.export.config("reconstruct_json_direct")
    table = pq.read_table(built.export.folder / config.files[0]).to_pylist()
    requests = built.requests()
    for row in table:
        # The PNG bytes the request file sends, unchanged.
        assert [i["bytes"] for i in row["images"]] == [m.data for m in requests[row["id"]].media]
        truth = json.loads(row["truth"])
        scene = json.loads((built.split / "scenes" / f"{row['scene_id']}.json").read_text())
        assert truth == scene and json.loads(row["answer"]) == {"objects": scene["objects"]}


def test_card_header_and_record(built: Built) -> None:
    text = (built.export.folder / "README.md").read_text()
    header = yaml.safe_load(text.split("---\n")[1])
    names = {c.config.name for c in built.export.configs}
    assert {c["config_name"] for c in header["configs"]} == names
    assert [c["config_name"] for c in header["configs"] if c.get("default")] == [
        "reconstruct_threejs_direct"
    ]
    assert {i["config_name"] for i in header["dataset_info"]} == names
    assert header["license"] == "apache-2.0"
    for info in header["dataset_info"]:
        assert info["splits"][0]["num_examples"] == built.export.config(info["config_name"]).rows
    assert "spatialbabel export hf " in text and str(built.split) in text
    for source in built.export.sources:
        if source["kind"] == "items":
            assert source["items_sha256"] in text


def test_same_sources_give_the_same_bytes(built: Built, tmp_path: Path) -> None:
    again = tmp_path / "again"
    sources = [str(built.split), *(str(p) for p in built.items.values())]
    assert main(["export", "hf", *sources, "--out", str(again)]) == 0
    first, second = _digest(built.export.folder), _digest(again)
    assert first.keys() == second.keys()
    named = ("README.md", "spatialbabel_export.json")
    differ = [name for name in first if first[name] != second[name] and name not in named]
    assert differ == [] and len(first) > 30
    # The card and the record name the output folder in the command; the rest is the same.
    for name in named:
        text = (again / name).read_text().replace(str(again), str(built.export.folder))
        assert text == (built.export.folder / name).read_text()


def test_answers_keyed_by_the_dataset_ids_score_as_on_the_original(
    built: Built, tmp_path: Path
) -> None:
    between: dict[str, bool] = {}
    for config in built.export.configs:
        rows = built.rows(config.config.name)
        replies = [HarnessReply(row["id"], built.replies[row["id"]], MODEL) for row in rows]
        scored = score_replies(
            built.export.folder, config.config, replies, tmp_path / config.config.name
        )
        assert scored.exit_code == 0, scored.table
        expected = built.baseline(config.config)
        assert expected and scored.numbers == pytest.approx(expected, nan_ok=True, rel=0, abs=0)
        values = [v for v in expected.values() if v == v]
        between[config.config.task] = between.get(config.config.task, False) or any(
            0 < v < 1 for v in values
        )
        if config.config.task not in ("reconstruct", "qa"):
            rows_original = [
                r
                for r in built.results[config.config.task]["rows"]
                if r["model"] == MODEL and r["variant"] == config.config.mode
            ]
            rows_export = [r for r in scored.result["rows"] if r["model"] == MODEL]
            assert rows_export == rows_original
    # The canned replies are partly right in every task, so a mix-up of ids would show.
    assert all(between.values()), between


def test_bad_sources_are_named(
    built: Built, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "hf", str(tmp_path), "--out", str(tmp_path / "x")]) == 3
    assert "neither a split" in capsys.readouterr().err
    code = main(
        [
            "export",
            "hf",
            str(built.items["toy"]),
            "--variants",
            "loud",
            "--out",
            str(tmp_path / "y"),
        ]
    )
    assert code == 2 and "unknown variant 'loud'" in capsys.readouterr().err
    code = main(["export", "lmms-eval", "--dataset", str(tmp_path), "--out", str(tmp_path / "z")])
    assert code == 3 and "spatialbabel_export.json" in capsys.readouterr().err
