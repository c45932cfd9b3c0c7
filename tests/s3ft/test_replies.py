"""Reading replies: both file layouts, and every kind of bad line named by its line number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from s3ft.demo_replies import batch_line
from s3ft.phase1 import Phase1Split
from s3ft.replies import ModelChoiceError, ReplySet, read_replies
from spatialbabel.files import write_json, write_jsonl
from spatialbabel.run.batch import qa_id, reconstruct_id
from synth.questions import SplitRules
from tests.s3ft.helpers import make_split, prediction, reply_text


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Phase1Split:
    root = tmp_path_factory.mktemp("split")
    make_split(root, phase1=4, eval_size=2)
    return Phase1Split.load(root)


def read(path: Path, split: Phase1Split, model: str | None = None) -> ReplySet:
    return read_replies(path, phase1=split.scenes, subsets=split.others, model=model)


def test_phase1_split_knows_the_other_subsets(split: Phase1Split) -> None:
    assert sorted(split.scenes) == [f"scene_{i:06d}" for i in range(4)]
    assert split.others == {"scene_000004": "eval", "scene_000005": "eval"}
    assert split.views == 1


def test_batch_output_with_every_problem(tmp_path: Path, split: Phase1Split) -> None:
    scenes = [split.scenes[f"scene_{i:06d}"] for i in range(4)]
    good = [
        batch_line(reconstruct_id(s.scene_id, "threejs"), reply_text(s, i), "stop", i)
        for i, s in enumerate(scenes)
    ]
    # The old three-part id reads as mode direct.
    good[1]["custom_id"] = f"reconstruct/{scenes[1].scene_id}/threejs"
    truncated = dict(good[3])
    truncated["response"] = json.loads(json.dumps(good[3]["response"]))
    truncated["response"]["body"]["choices"][0]["finish_reason"] = "length"
    lines = [
        good[0],  # 1
        good[1],  # 2
        {
            "custom_id": reconstruct_id("scene_000004", "threejs"),
            **{k: v for k, v in good[0].items() if k != "custom_id"},
        },  # 3 eval
        {
            "custom_id": reconstruct_id("scene_999999", "threejs"),
            **{k: v for k, v in good[0].items() if k != "custom_id"},
        },  # 4 unknown
        {
            "custom_id": reconstruct_id(scenes[2].scene_id, "json"),
            **{k: v for k, v in good[0].items() if k != "custom_id"},
        },  # 5 language
        {
            "custom_id": qa_id("scene_000000-q00", "direct"),
            **{k: v for k, v in good[0].items() if k != "custom_id"},
        },  # 6 not a reconstruction
        {
            "custom_id": reconstruct_id(scenes[2].scene_id, "threejs"),
            "response": None,
            "error": {"code": "server_error", "message": "boom"},
        },  # 7
        good[0],  # 8 duplicate of line 1
        truncated,  # 9
    ]
    path = tmp_path / "out.jsonl"
    write_jsonl(path, lines)
    with path.open("a", encoding="utf-8") as stream:
        stream.write("{not json\n")  # 10
    read_set = read(path, split)
    assert read_set.format == "batch"
    assert read_set.model == "mock-base"
    assert [(r.line, r.scene_id, r.truncated) for r in read_set.replies] == [
        (1, "scene_000000", False),
        (2, "scene_000001", False),
        (9, "scene_000003", True),
    ]
    kinds = [(p.line, p.kind) for p in read_set.problems]
    assert kinds == [
        (3, "outside_phase1"),
        (4, "unknown_scene"),
        (5, "wrong_language"),
        (6, "malformed"),
        (7, "failed_request"),
        (8, "duplicate"),
        (10, "malformed"),
    ]
    assert "'eval' subset" in read_set.problems[0].message
    assert "boom" in read_set.problems[4].message
    assert "line 1" in read_set.problems[5].message
    assert read_set.unanswered == ("scene_000002",)
    counts = read_set.problem_counts()
    assert counts["malformed"] == 2 and sum(counts.values()) == 7


def test_predictions_and_the_choice_of_model(tmp_path: Path, split: Phase1Split) -> None:
    scene = split.scenes["scene_000000"]
    path = tmp_path / "predictions.jsonl"
    write_jsonl(
        path,
        [
            prediction(scene.scene_id, reply_text(scene, 0), model="a"),
            prediction(scene.scene_id, reply_text(scene, 0), model="b"),
            prediction("scene_000001", "", model="a") | {"error": "timeout"},
            {"scene_id": "scene_000002", "model": "a", "language": "threejs"},
        ],
    )
    with pytest.raises(ModelChoiceError, match="2 models"):
        read(path, split)
    with pytest.raises(ModelChoiceError, match="no reply of model 'c'"):
        read(path, split, model="c")
    chosen = read(path, split, model="b")
    assert chosen.format == "predictions"
    assert [r.line for r in chosen.replies] == [2]
    assert chosen.other_models == {"a": 1}
    assert [(p.line, p.kind) for p in chosen.problems] == [(3, "failed_request"), (4, "malformed")]
    assert "missing field 'mode'" in chosen.problems[1].message


def test_one_reconstruction_mode_is_used(tmp_path: Path, split: Phase1Split) -> None:
    # `spatialbabel prompts` asks for both modes unless told: the file holds both.
    scenes = [split.scenes[f"scene_{i:06d}"] for i in range(4)]
    lines = [
        batch_line(reconstruct_id(s.scene_id, "threejs", mode), reply_text(s, i), "stop", i)
        for mode in ("direct", "nl_cot")
        for i, s in enumerate(scenes)
    ]
    path = tmp_path / "both.jsonl"
    write_jsonl(path, lines)
    direct = read_replies(path, phase1=split.scenes, subsets=split.others)
    assert [r.line for r in direct.replies] == [1, 2, 3, 4]
    assert direct.problems == () and direct.other_modes == {"nl_cot": 4}
    nl_cot = read_replies(path, phase1=split.scenes, subsets=split.others, mode="nl_cot")
    assert [r.line for r in nl_cot.replies] == [5, 6, 7, 8] and nl_cot.mode == "nl_cot"
    write_jsonl(path, lines[4:])
    with pytest.raises(ModelChoiceError, match="in mode 'direct'; it has nl_cot"):
        read_replies(path, phase1=split.scenes, subsets=split.others)


def test_the_question_rules_follow_the_splits_generator(tmp_path: Path) -> None:
    make_split(tmp_path, phase1=2, eval_size=0)
    assert not Phase1Split.load(tmp_path).rules.stacked  # no manifest: nothing stacked
    write_json(tmp_path / "manifest.json", {"parameters": {"n": 2, "stack_prob": 0.3}})
    assert Phase1Split.load(tmp_path).rules == SplitRules.of_generator(0.3)
    write_json(tmp_path / "manifest.json", {"parameters": {"n": 2}})  # made before stacking
    assert not Phase1Split.load(tmp_path).rules.stacked
