"""``spatialbabel s3ft build`` and ``stats`` end to end on a tiny split (no Blender): every output
read back by what consumes it (``datasets.load_from_disk``, a JSON schema per JSONL layout),
the train/val split, and the eval scenes kept out of everything."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from s3ft.stats import KIND
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl, write_jsonl
from tests.s3ft.helpers import batch_replies, make_split

HERE = Path(__file__).parent
OPENAI = jsonschema.Draft202012Validator(json.loads((HERE / "openai_chat.schema.json").read_text()))
MESSAGES = jsonschema.Draft202012Validator(
    json.loads((HERE / "messages_images.schema.json").read_text())
)
PHASE1, EVAL = 8, 2
#: Replies bent into failures: two rejected by the filter, one that parses to nothing.
FAILURES = {2: "snippet", 5: "centimetres", 6: "never_added"}


def records(path: Path) -> list[dict[str, Any]]:
    return [item.record for item in read_jsonl(path) if item.record is not None]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int, str]:
    root = tmp_path_factory.mktemp("s3ft")
    split = root / "split"
    scenes = make_split(split, phase1=PHASE1, eval_size=EVAL, views=4)
    replies = batch_replies(root / "replies.jsonl", scenes[:PHASE1], FAILURES)
    out = root / "out"
    argv = ["s3ft", "build", "--split", str(split), "--replies", str(replies), "--out", str(out)]
    status = main([*argv, "--cross-view", "--workers", "2"])
    return split, out, status, replies.read_text()


def test_build_succeeds_and_reports(
    built: tuple[Path, Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, status, _ = built
    assert status == ExitCode.OK
    stats = json.loads((out / "stats.json").read_text())
    assert stats["kind"] == KIND and stats["model"] == "mock-base"
    f = stats["filter"]
    assert (f["replies"], f["passed"], f["kept"], f["no_objects"]) == (8, 6, 5, 1)
    assert f["rejections"]["no_camera"] == 1 and f["rejections"]["position_range"] == 1
    assert f["pass_rate"] == 0.75
    verdicts = records(out / "replies.jsonl")
    assert [v["status"] for v in verdicts] == [
        "kept",
        "kept",
        "rejected",
        "kept",
        "kept",
        "rejected",
        "no_objects",
        "kept",
    ]
    assert verdicts[6]["parse_failure"]
    p = stats["pseudo_truth"]
    assert (
        p["scenes"] == 5
        and 0.5 < p["reconstruct_score"]["mean"] <= 1.0
        and 0.5 < p["f1"]["mean"] <= 1.0
    )
    assert len(p["per_scene"]) == 5
    pseudo = [Scene.from_dict(r) for r in records(out / "pseudo_truth.jsonl")]
    assert [p.scene_id for p in pseudo] == [
        v["scene_id"] for v in verdicts if v["status"] == "kept"
    ]
    assert [len(p.objects) for p in pseudo] == [
        v["kept_objects"] for v in verdicts if v["status"] == "kept"
    ]


def test_splits_are_by_scene_and_eval_never_leaks(built: tuple[Path, Path, int, str]) -> None:
    split, out, _, _ = built
    rows = records(out / "records.jsonl")
    sides: dict[str, set[str]] = {}
    for row in rows:
        sides.setdefault(row["scene_id"], set()).add(row["split"])
    assert all(len(s) == 1 for s in sides.values())
    assert {next(iter(s)) for s in sides.values()} <= {"train", "val"}
    subsets = json.loads((split / "subsets.json").read_text())
    assert set(sides) <= set(subsets["phase1"])
    # No eval scene id anywhere: text outputs, image copies, the datasets folder.
    for path in out.rglob("*"):
        if path.is_file():
            for scene_id in subsets["eval"]:
                assert scene_id not in path.name
                assert scene_id.encode() not in path.read_bytes(), path


def test_openai_files_match_the_schema_and_the_records(built: tuple[Path, Path, int, str]) -> None:
    split, out, _, _ = built
    rows = records(out / "records.jsonl")
    for side in ("train", "val"):
        lines = records(out / f"openai_{side}.jsonl")
        expected = [r for r in rows if r["split"] == side]
        assert len(lines) == len(expected) > 0
        for line, record in zip(lines, expected, strict=True):
            errors = sorted(OPENAI.iter_errors(line), key=str)
            assert not errors, errors[0].message
            user = next(m for m in line["messages"] if m["role"] == "user")
            url = user["content"][0]["image_url"]["url"]
            assert base64.b64decode(url.split(",", 1)[1]) == (split / record["image"]).read_bytes()
            assert user["content"][1]["text"] == record["instruction"]
            assert line["messages"][-1] == {"role": "assistant", "content": record["answer"]}
            assert (line["messages"][0]["role"] == "system") == (record["system"] is not None)


def test_messages_files_match_the_schema_and_point_at_images(
    built: tuple[Path, Path, int, str],
) -> None:
    split, out, _, _ = built
    rows = records(out / "records.jsonl")
    info = json.loads((out / "dataset_info.json").read_text())
    assert {v["file_name"] for v in info.values()} == {"messages_train.jsonl", "messages_val.jsonl"}
    for side in ("train", "val"):
        lines = records(out / f"messages_{side}.jsonl")
        expected = [r for r in rows if r["split"] == side]
        assert len(lines) == len(expected)
        for line, record in zip(lines, expected, strict=True):
            errors = sorted(MESSAGES.iter_errors(line), key=str)
            assert not errors, errors[0].message
            tags = sum(m["content"].count("<image>") for m in line["messages"])
            assert tags == len(line["images"]) == 1
            assert (out / line["images"][0]).read_bytes() == (split / record["image"]).read_bytes()
            assert [m["role"] for m in line["messages"]][-2:] == ["user", "assistant"]


def test_the_datasets_folder_loads_as_trl_reads_it(built: tuple[Path, Path, int, str]) -> None:
    datasets = pytest.importorskip("datasets")
    _split, out, _, _ = built
    rows = records(out / "records.jsonl")
    loaded = datasets.load_from_disk(str(out / "hf"))
    assert set(loaded) == {"train", "val"}
    for side in ("train", "val"):
        part = loaded[side]
        expected = [r for r in rows if r["split"] == side]
        assert part.num_rows == len(expected)
        assert set(part.column_names) >= {"prompt", "completion", "images"}
        assert part.features["images"].feature.__class__.__name__ == "Image"
        for index in (0, part.num_rows - 1):
            row, record = part[index], expected[index]
            assert row["record_id"] == record["record_id"]
            image = row["images"][0]
            assert image.size == (4, 3)  # the tiny PNGs of the test split
            user = row["prompt"][-1]
            assert user["role"] == "user"
            assert [c["type"] for c in user["content"]] == ["image", "text"]
            assert user["content"][1]["text"] == record["instruction"]
            assert row["completion"] == [
                {"role": "assistant", "content": [{"type": "text", "text": record["answer"]}]}
            ]
            assert row["view_invariant"] == record["view_invariant"]


def test_cross_view_copies_carry_their_view(built: tuple[Path, Path, int, str]) -> None:
    _, out, _, _ = built
    stats = json.loads((out / "stats.json").read_text())
    by_task = stats["records"]["by_task"]
    assert by_task["count"] == {"front": 5, "view1": 5, "view2": 5, "view3": 5}
    assert by_task["boxes_2d"] == {"front": 5, "view1": 0, "view2": 0, "view3": 0}
    rows = records(out / "records.jsonl")
    assert all(r["view_invariant"] for r in rows if r["view"] != "front")
    assert {r["image"].split("_view")[-1] for r in rows if r["view"] == "view2"} == {"2.png"}


def test_stats_prints_tables_and_draws(
    built: tuple[Path, Path, int, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _, _ = built
    capsys.readouterr()
    assert main(["s3ft", "stats", str(out)]) == ExitCode.OK
    text = capsys.readouterr().out
    assert "75.0%" in text and "qa_counting" in text and "no THREE.PerspectiveCamera" in text
    pytest.importorskip("matplotlib")
    assert (
        main(["s3ft", "stats", str(out), str(out), "--html", str(tmp_path / "report")])
        == ExitCode.OK
    )
    page = (tmp_path / "report" / "s3ft.html").read_text()
    assert "mock-base" in page and "Rejections" in page
    assert len(list((tmp_path / "report" / "charts").glob("*.png"))) == 3


def test_bad_input_is_reported_and_strict_is_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, phase1=3, eval_size=1)
    replies = batch_replies(tmp_path / "replies.jsonl", scenes)  # line 4 answers the eval scene
    with replies.open("a", encoding="utf-8") as stream:
        stream.write("not json\n")
    argv = [
        "s3ft",
        "build",
        "--split",
        str(split),
        "--replies",
        str(replies),
        "--formats",
        "openai,messages",
    ]
    assert main([*argv, "--out", str(tmp_path / "strict"), "--strict"]) == ExitCode.BAD_INPUT
    assert not (tmp_path / "strict").exists()
    err = capsys.readouterr().err
    assert "replies.jsonl:4: outside_phase1" in err and "replies.jsonl:5: malformed" in err
    assert main([*argv, "--out", str(tmp_path / "lenient"), "--no-nl"]) == ExitCode.PROBLEMS
    stats = json.loads((tmp_path / "lenient" / "stats.json").read_text())
    assert stats["input"]["problems"]["outside_phase1"] == 1
    assert stats["input"]["problems"]["malformed"] == 1
    assert {t for t in stats["records"]["by_task"]} == {
        "count",
        "classes",
        "positions_3d",
        "boxes_3d",
        "boxes_2d",
        "relations",
        "depth_order",
        "scene_graph",
        "code",
    }
    assert not (tmp_path / "lenient" / "hf").exists()
    # A rebuild into the same folder replaces it; a foreign folder is refused.
    assert main([*argv, "--out", str(tmp_path / "lenient")]) == ExitCode.PROBLEMS
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    assert main([*argv, "--out", str(foreign)]) == ExitCode.BAD_INPUT
    assert (foreign / "notes.txt").read_text() == "mine"
    assert main([*argv, "--out", str(tmp_path / "x"), "--cross-view"]) == ExitCode.BAD_INPUT
    assert "--views 4" in capsys.readouterr().err


def test_several_models_need_a_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, phase1=2, eval_size=0)
    lines = records(batch_replies(tmp_path / "a.jsonl", scenes))
    lines[1]["response"]["body"]["model"] = "other"
    write_jsonl(tmp_path / "mixed.jsonl", lines)
    argv = [
        "s3ft",
        "build",
        "--split",
        str(split),
        "--replies",
        str(tmp_path / "mixed.jsonl"),
        "--formats",
        "messages",
    ]
    assert main([*argv, "--out", str(tmp_path / "o1")]) == ExitCode.USAGE
    assert "choose one with --model" in capsys.readouterr().err
    assert main([*argv, "--out", str(tmp_path / "o2"), "--model", "other"]) == ExitCode.OK
    stats = json.loads((tmp_path / "o2" / "stats.json").read_text())
    assert stats["model"] == "other" and stats["input"]["other_models"] == {"mock-base": 1}


def test_hosted_images_and_absolute_paths(tmp_path: Path) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, phase1=2, eval_size=0)
    replies = batch_replies(tmp_path / "replies.jsonl", scenes)
    out = tmp_path / "out"
    argv = ["s3ft", "build", "--split", str(split), "--replies", str(replies), "--out", str(out)]
    argv += ["--formats", "openai,messages", "--image-base-url", "https://data.example/s3ft/"]
    assert main([*argv, "--absolute-image-paths", "--val-fraction", "0"]) == ExitCode.OK
    lines = records(out / "openai_train.jsonl")
    assert records(out / "openai_val.jsonl") == []
    for line in lines:
        assert not list(OPENAI.iter_errors(line))
        url = line["messages"][-2]["content"][0]["image_url"]["url"]
        assert url.startswith("https://data.example/s3ft/images/scene_00000")
        # The hosted path is the copy in the output folder.
        assert (out / url.removeprefix("https://data.example/s3ft/")).is_file()
    for line in records(out / "messages_train.jsonl"):
        assert not list(MESSAGES.iter_errors(line))
        assert Path(line["images"][0]).is_absolute() and Path(line["images"][0]).is_file()
