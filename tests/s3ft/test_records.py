"""The records of one scene: the nine structured tasks and the natural-language records, every
answer read off the pseudo-ground truth, checked here against independent computations."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import numpy as np
import pytest

from s3ft.pseudo import PseudoTruth
from s3ft.records import Record, scene_records
from s3ft.tasks import TASK_NAMES
from spatialbabel import Scene, world_aabb
from spatialbabel.geometry.relations import RELATION_PHRASES
from synth.cameras import scene_cameras
from synth.questions import generate_scene_questions
from tests.qa.scene_factory import FACTORY_RULES, random_scene

SEEDS = range(20, 32)


def scene_of(seed: int, views: int = 1) -> Scene:
    return replace(random_scene(seed), cameras=scene_cameras(views, 512))


def records_of(scene: Scene, *, seed: int = 42, natural_language: bool = True) -> list[Record]:
    pseudo = PseudoTruth(scene, "const scene = new THREE.Scene();")
    return scene_records(
        pseudo,
        image_of=lambda view: f"images/{scene.scene_id}_{view}.png",
        seed=seed,
        natural_language=natural_language,
        rules=FACTORY_RULES,
    )


def by_task(records: list[Record], task: str) -> list[Record]:
    return [r for r in records if r.task == task]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_task_once_and_the_generators_questions(seed: int) -> None:
    scene = scene_of(seed)
    records = records_of(scene, seed=42)
    for task in TASK_NAMES:
        assert len(by_task(records, task)) == 1, task
    questions = generate_scene_questions(scene, 42, rules=FACTORY_RULES)
    qa = [r for r in records if r.task.startswith("qa_")]
    assert [r.task for r in qa] == [f"qa_{q.category}" for q in questions]
    assert len(by_task(records, "description")) == 1
    assert len(by_task(records, "code_paraphrase")) == 2
    assert len({r.record_id for r in records}) == len(records)
    assert all(r.view == "front" and r.image == f"images/{scene.scene_id}_0.png" for r in records)
    for record in records:
        if record.kind == "structured" and record.task != "code":
            json.loads(record.answer)
    # Plain words: never a JSON literal or object.
    for record in qa:
        assert record.answer not in ("true", "false", "yes", "no", "null")
        assert not record.answer.startswith(("{", "["))
        if record.task == "qa_existence":
            assert record.answer in ("Yes", "No")
    # The code prompt and its two paraphrases share the reply's code as their target.
    targets = {r.answer for r in records if r.task in ("code", "code_paraphrase")}
    assert targets == {"```javascript\nconst scene = new THREE.Scene();\n```"}


def test_the_generator_asks_the_papers_mixture() -> None:
    counts: dict[str, int] = {}
    full = 0
    for seed in SEEDS:
        tasks = [r.task for r in records_of(scene_of(seed)) if r.task.startswith("qa_")]
        full += len(tasks) == 8
        for task in tasks:
            counts[task] = counts.get(task, 0) + 1
    assert full >= len(SEEDS) // 2
    for task in (
        "qa_localization",
        "qa_relationship",
        "qa_counting",
        "qa_existence",
        "qa_comparison",
    ):
        assert counts.get(task, 0) > 0


def test_no_nl_is_structured_only() -> None:
    records = records_of(scene_of(21), natural_language=False)
    assert [r.task for r in records] == list(TASK_NAMES)
    assert all(r.kind == "structured" for r in records)


def test_answers_come_from_the_pseudo_truth_not_the_scene() -> None:
    truth = scene_of(22)
    moved = [
        replace(o, position=(o.position[0] + 0.5, o.position[1], o.position[2]))
        for o in truth.objects[1:]
    ]
    pseudo = truth.with_objects(moved)
    records = records_of(pseudo)
    assert json.loads(by_task(records, "count")[0].answer) == {"count": len(truth.objects) - 1}
    positions = json.loads(by_task(records, "positions_3d")[0].answer)["objects"]
    assert sorted(p["position"][0] for p in positions) == sorted(
        round(o.position[0], 2) for o in moved
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_view_dependent_answers_against_the_camera(seed: int) -> None:
    scene = scene_of(seed)
    camera = scene.cameras[0]
    records = records_of(scene)
    graph = json.loads(by_task(records, "scene_graph")[0].answer)
    nodes = {n["name"]: n for n in graph["nodes"]}
    assert len(nodes) == len(scene.objects)

    # Independently of the hub: the centre's pixel column and its depth along the view axis.
    eye = np.array(camera.position)
    forward = -np.array(camera.cam_to_world)[:3, 2]

    def column(name: str) -> float:
        pixels, _ = camera.project(np.array(nodes[name]["position"]))
        return float(pixels[0, 0])

    def depth(name: str) -> float:
        return float((np.array(nodes[name]["position"]) - eye) @ forward)

    names = [n["name"] for n in graph["nodes"]]
    # Left to right (the answer's positions are rounded to centimetres: a pixel of slack).
    columns = [column(n) for n in names]
    assert all(a <= b + 1.0 for a, b in itertools.pairwise(columns))
    for name in names:  # repeats numbered left to right
        if name[-1].isdigit():
            base, number = name.rsplit(" ", 1)
            if int(number) > 1:
                assert column(f"{base} {int(number) - 1}") <= column(name) + 1.0
    order = json.loads(by_task(records, "depth_order")[0].answer)["order"]
    depths = [depth(o["object"]) for o in order]
    assert all(a <= b + 0.02 for a, b in itertools.pairwise(depths))
    for item in order:
        assert item["depth"] == pytest.approx(depth(item["object"]), abs=0.02)
    relations = json.loads(by_task(records, "relations")[0].answer)["relations"]
    assert relations == graph["edges"]
    phrases = {v: k for k, v in RELATION_PHRASES.items()}
    for edge in relations:
        relation = phrases[edge["relation"]]
        a, b = edge["subject"], edge["object"]
        if relation in ("left", "right"):
            assert (column(a) < column(b)) == (relation == "left")
        elif relation in ("in front", "behind"):
            assert (depth(a) < depth(b)) == (relation == "in front")
        else:
            upper, lower = (a, b) if relation == "above" else (b, a)
            assert nodes[upper]["position"][1] > nodes[lower]["position"][1]
    boxes = json.loads(by_task(records, "boxes_2d")[0].answer)
    assert boxes["image_size"] == [camera.width, camera.height]
    for item in boxes["objects"]:
        x0, y0, x1, y1 = item["bbox"]
        u, v = camera.project(np.array(nodes[item["object"]]["position"]))[0][0]
        assert x0 <= u <= x1 and y0 <= v <= y1
        assert 0 <= x0 < x1 <= camera.width and 0 <= y0 < y1 <= camera.height


def test_boxes_3d_are_the_exact_bounds() -> None:
    scene = scene_of(23)
    boxes = json.loads(by_task(records_of(scene), "boxes_3d")[0].answer)["objects"]
    expected = sorted(
        ([round(v, 2) for v in world_aabb(o)[0]], [round(v, 2) for v in world_aabb(o)[1]])
        for o in scene.objects
    )
    assert sorted((b["min"], b["max"]) for b in boxes) == expected
    assert all(b["min"][1] >= -0.01 for b in boxes)  # everything stands on the ground
