"""The core paper's real-scene route on a 20-view Hypersim miniature (issue 28, item 7):
``import hypersim --subset`` (the stratified evaluation subset, the paper's 200 of 405), QA on
the open-domain scenes (the question generator's programs over open classes), and S3-FT from
open-domain replies to the phase-1 prompt, each a command as a user runs it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("h5py", reason="the real extra (h5py) is not installed")
pytest.importorskip("pandas", reason="the real extra (pandas) is not installed")

from importers.subsets import STRATA, evaluation_subsets
from s3ft.demo_replies import batch_line
from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl, write_jsonl
from spatialbabel.geometry.relations import DEFAULT_MARGINS
from spatialbabel.open_classes import class_group, is_catch_all
from spatialbabel.qa import Question, run_program
from spatialbabel.run.batch import s3ft_phase1_id
from synth.prompts import SYSTEM_QA_OPEN, SYSTEM_S3FT_PHASE1_OPEN, s3ft_phase1_prompt
from tests.importers import open_route
from tests.importers.hypersim_layout import write_miniature

SUBSET, PHASE1, VIEWS = 10, 10, 20


@pytest.fixture(scope="module")
def route(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("route")
    write_miniature(work / "hypersim")
    command = ["import", "hypersim", str(work / "hypersim"), "--out", str(work / "split")]
    flags = ["--subset", str(SUBSET), "--phase1-size", str(PHASE1), "--seed", "0"]
    assert main([*command, *flags]) == ExitCode.OK
    return work


def _scenes(split: Path) -> dict[str, Scene]:
    return {p.stem: Scene.load(p) for p in sorted((split / "scenes").glob("*.json"))}


def _questions(split: Path) -> list[Question]:
    return [Question.from_dict(line.record) for line in read_jsonl(split / "qa.jsonl")]


def test_the_subset_keeps_each_stratum_in_proportion(route: Path) -> None:
    split = route / "split"
    scenes = _scenes(split)
    subsets = json.loads((split / "subsets.json").read_text())
    assert len(scenes) == VIEWS
    assert [len(subsets[k]) for k in ("eval", "phase1", "unused")] == [SUBSET, PHASE1, 0]
    assert subsets["stratified_by"] == "object_count_quintile" and subsets["seed"] == 0
    # The strata are object-count ranges in order, and every stratum gives the subset its
    # share of the split, within the one scene rounding costs.
    ranges = [subsets["strata"][name]["objects"] for name in STRATA if name in subsets["strata"]]
    assert all(a[1] < b[0] for a, b in itertools.pairwise(ranges))
    for name, entry in subsets["strata"].items():
        members = [
            s
            for s in scenes.values()
            if entry["objects"][0] <= len(s.objects) <= entry["objects"][1]
        ]
        assert len(members) == entry["scenes"]
        chosen = sum(s.scene_id in subsets["eval"] for s in members)
        assert chosen == subsets["counts"]["eval"][name]
        assert abs(chosen - SUBSET * len(members) / VIEWS) < 1
    assert main(["verify", str(split)]) == ExitCode.OK


def test_the_subset_is_the_same_for_the_same_seed_and_moves_with_it(route: Path) -> None:
    again, other = route / "again", route / "other"
    base = ["import", "hypersim", str(route / "hypersim"), "--subset", str(SUBSET)]
    assert main([*base, "--phase1-size", str(PHASE1), "--out", str(again)]) == ExitCode.OK
    assert main([*base, "--seed", "1", "--out", str(other)]) == ExitCode.OK
    for name in ("subsets.json", "qa.jsonl"):
        assert (again / name).read_bytes() == (route / "split" / name).read_bytes()
    first = json.loads((route / "split" / "subsets.json").read_text())
    moved = json.loads((other / "subsets.json").read_text())
    assert moved["eval"] != first["eval"] and moved["counts"]["eval"] == first["counts"]["eval"]
    assert moved["phase1"] == [] and len(moved["unused"]) == VIEWS - SUBSET


def test_the_papers_200_of_405() -> None:
    rng = np.random.default_rng(0)
    counts = {f"view_{k:03d}": int(n) for k, n in enumerate(rng.poisson(61.3, 405))}
    subsets = evaluation_subsets(counts, size=200, seed=0)
    assert len(subsets["eval"]) == 200 and len(subsets["unused"]) == 205
    for name, entry in subsets["strata"].items():
        assert abs(subsets["counts"]["eval"][name] - 200 * entry["scenes"] / 405) < 1
    assert evaluation_subsets(counts, size=200, seed=0) == subsets


def test_qa_asks_the_generators_programs_over_the_open_classes(route: Path) -> None:
    split = route / "split"
    scenes = _scenes(split)
    questions = _questions(split)
    assert {q.scene_id for q in questions} <= set(scenes) and len(questions) >= 4 * VIEWS
    assert {q.category for q in questions} == {
        "localization",
        "relationship",
        "counting",
        "existence",
    }
    for question in questions:
        scene = scenes[question.scene_id]
        # Every answer is its program's on the ground truth, clear of every margin.
        assert run_program(question.program, scene, margins=DEFAULT_MARGINS) == question.answer
        named = {s["value"] for s in question.program if s["op"] == "filter_shape"}
        assert not any(step["op"] == "filter_color" for step in question.program)
        unsure = set(scene.meta["fov_dropped_classes"]) | {"wall", "floor", "ceiling"}
        assert not named & unsure and not any(is_catch_all(c) for c in named)
        # Nor a class an NYU40 catch-all of the scene may be (a vase where an "other prop" is).
        hidden = {o.class_name for o in scene.objects if is_catch_all(o.class_name)}
        assert not {class_group(c) for c in named} & hidden
        assert all(m.color == "" and m.ref.startswith(f"the {m.shape}") for m in question.objects)
    # The QA prompts speak of a real room.
    out = route / "qa_requests.jsonl"
    command = ["prompts", "--split", str(split), "--task", "qa", "--subset", "eval"]
    assert main([*command, "--modes", "direct", "nl_cot", "--out", str(out)]) == ExitCode.OK
    requests = [line.record for line in read_jsonl(out)]
    subsets = json.loads((split / "subsets.json").read_text())
    assert len(requests) == 2 * sum(q.scene_id in subsets["eval"] for q in questions)
    assert all(r["body"]["messages"][0]["content"] == SYSTEM_QA_OPEN for r in requests if r)


def _answers(split: Path) -> tuple[Path, dict[str, bool | None]]:
    """The mock's answers to the evaluation subset's questions, and the verdict each must get
    (None: the mock gave none)."""
    scenes = _scenes(split)
    eval_ids = set(json.loads((split / "subsets.json").read_text())["eval"])
    records: list[dict[str, str]] = []
    expected: dict[str, bool | None] = {}
    for question in _questions(split):
        if question.scene_id not in eval_ids:
            continue
        seen = open_route.bent(
            scenes[question.scene_id],
            np.random.default_rng([7, sorted(eval_ids).index(question.scene_id)]),
        )
        text = open_route.answer(question, seen)
        records.append(
            {
                "question_id": question.question_id,
                "scene_id": question.scene_id,
                "model": open_route.MODEL,
                "mode": "direct",
                "output": text,
            }
        )
        try:
            value: Any = run_program(question.program, seen)
        except Exception:
            expected[question.question_id] = None
            continue
        if question.category == "localization":
            value = float(np.linalg.norm(np.round(value, 2) - np.asarray(question.answer))) <= (
                question.tolerance or 0
            )
            expected[question.question_id] = bool(value)
        else:
            expected[question.question_id] = value == question.answer
    path = split.parent / "qa_answers.jsonl"
    write_jsonl(path, records)
    return path, expected


def test_the_open_domain_answers_are_graded_as_the_mock_meant_them(route: Path) -> None:
    split = route / "split"
    answers, expected = _answers(split)
    out = route / "qa_scores"
    assert (
        main(["score-qa", "--split", str(split), "--answers", str(answers), "--out", str(out)])
        == ExitCode.OK
    )
    report = json.loads((out / "qa_scores.json").read_text())
    verdicts = {d["question_id"]: d for d in report["details"]}
    assert set(verdicts) == set(expected)
    for question_id, meant in expected.items():
        detail = verdicts[question_id]
        if meant is None:
            assert not detail["correct"]
        else:
            assert detail["correct"] == meant, detail
    accuracy = report["summary"][open_route.MODEL]["overall"]["mean"]
    assert 0.3 < accuracy < 1.0  # the mock's bent scene answers some questions wrong


def test_s3ft_learns_from_open_domain_replies_to_the_phase1_prompt(route: Path) -> None:
    split = route / "split"
    scenes = _scenes(split)
    subsets = json.loads((split / "subsets.json").read_text())
    requests = route / "phase1_requests.jsonl"
    assert (
        main(["prompts", "--split", str(split), "--task", "s3ft-phase1", "--out", str(requests)])
        == 0
    )
    asked = [line.record for line in read_jsonl(requests)]
    assert [r["custom_id"] for r in asked if r] == [
        s3ft_phase1_id(i) for i in sorted(subsets["phase1"])
    ]
    first = asked[0]
    assert first is not None and first["body"]["messages"][0]["content"] == SYSTEM_S3FT_PHASE1_OPEN
    lines, seen_scenes = [], {}
    for index, scene_id in enumerate(sorted(subsets["phase1"])):
        truth = scenes[scene_id]
        request = asked[index]
        assert request is not None
        assert (
            request["body"]["messages"][1]["content"][-1]["text"] == s3ft_phase1_prompt(truth).text
        )
        seen = open_route.bent(truth, np.random.default_rng([11, index]))
        seen_scenes[scene_id] = seen
        text = open_route.phase1_reply(truth, seen, refuse=index == 0)
        lines.append(batch_line(s3ft_phase1_id(scene_id), text, "stop", index))
    write_jsonl(route / "phase1_replies.jsonl", lines)
    data = route / "s3ft"
    command = [
        "s3ft",
        "build",
        "--split",
        str(split),
        "--replies",
        str(route / "phase1_replies.jsonl"),
    ]
    assert (
        main([*command, "--out", str(data), "--formats", "openai,messages", "--workers", "1"]) == 0
    )
    stats = json.loads((data / "stats.json").read_text())
    assert stats["phase1_prompt"] and stats["filter"]["replies"] == PHASE1
    assert stats["filter"]["passed"] == stats["filter"]["kept"] == PHASE1 - 1
    # The pseudo-ground truth is the mock's scene, its classes read from the meshes' names.
    for line in read_jsonl(data / "pseudo_truth.jsonl"):
        pseudo = Scene.from_dict(line.record)
        assert pseudo.domain == "open"
        assert sorted(o.class_name for o in pseudo.objects) == sorted(
            o.class_name for o in seen_scenes[pseudo.scene_id].objects
        )
        assert all(o.color is None for o in pseudo.objects)
    records = [line.record for line in read_jsonl(data / "records.jsonl") if line.record]
    assert not {r["scene_id"] for r in records} & set(subsets["eval"])
    tasks = {r["task"] for r in records}
    assert {"classes", "relations", "code", "description", "qa_counting", "qa_existence"} <= tasks
    classes = [json.loads(r["answer"])["classes"] for r in records if r["task"] == "classes"]
    assert all(
        set(c) <= {o.class_name for s in seen_scenes.values() for o in s.objects} for c in classes
    )
    assert all("flat grey ground" not in r["answer"] for r in records if r["task"] == "description")
