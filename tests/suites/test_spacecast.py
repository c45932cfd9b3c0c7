"""SpaceCast's items on small stacked layouts (no Blender): every label recomputed by separate
code from the ground truth and the stated change, nothing within a margin, oracle answers score
100 %, the seeded random baseline lands at chance within its CI, and the prompt's contract."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.spatial import cKDTree

from spatialbabel import Ground, Scene, SceneObject
from suites import load_suite
from suites.base import Item, Reply
from suites.grading import aggregate, grade_all
from suites.items import ItemSet
from suites.spacecast.labels import DISTANCE_EDGES
from suites.spacecast.split_items import plan_split, word_split
from suites.spacecast.suite import chance
from synth.cameras import scene_cameras
from synth.layout import LayoutRules, sample_layout
from synth.tiers import TIERS
from tests.suites.shapes import CARDINALS, SECTORS, surface

pytest.importorskip("fcl")

SUITE = load_suite("spacecast")


@pytest.fixture(scope="module")
def built() -> tuple[list[Scene], list[Item], dict[str, Any]]:
    scenes = []
    # Eight scenes (about 110 items): enough for every task type, and for the random
    # baseline's CI over scenes to mean something.
    for i, tier in enumerate(("T2", "T3") * 4):
        rng = np.random.default_rng([7, i])
        objects = sample_layout(rng, TIERS[tier], LayoutRules(stack_prob=0.6))
        scenes.append(
            Scene(f"scene_{i:06d}", tuple(objects), scene_cameras(1, 512), Ground(), {"index": i})
        )
    planned = plan_split(scenes, seed=0, resolution=512)
    items = word_split(planned, 0)
    cameras = {s.scene_id: {c.name: c for d in drafts for c in d.views} for s, drafts in planned}
    return scenes, items, cameras


# -- separate code: the change and the labels, from the definitions ---------------------------


def _riders(objects: dict[str, SceneObject], root: str) -> set[str]:
    found = {root}
    grew = True
    while grew:
        grew = False
        for o in objects.values():
            if o.parent in found and o.id not in found:
                found.add(o.id)
                grew = True
    return found


def _after(scene: Scene, change: dict[str, Any]) -> dict[str, SceneObject]:
    objects = {o.id: o for o in scene.objects}
    kind = change.get("kind")
    if kind is None:
        return objects
    if kind == "remove":
        gone = _riders(objects, change["object"])
        return {k: v for k, v in objects.items() if k not in gone}
    if kind == "turn":
        a = math.radians(change["degrees_ccw"])
        out = {}
        for k, o in objects.items():
            x, y, z = o.position
            # Counter-clockwise seen from above (+Y towards the eye, +X right, -Z up).
            out[k] = SceneObject(
                o.id,
                o.class_name,
                (x * math.cos(a) + z * math.sin(a), y, -x * math.sin(a) + z * math.cos(a)),
                (0, o.rotation[1] + change["degrees_ccw"], 0),
                o.size,
                o.color,
                parent=o.parent,
            )
        return out
    return objects  # a move or an orbit: carried out in _state, which knows the views


def _compass(camera, index: int) -> Any:
    forward = -np.asarray(camera.cam_to_world)[:3, 2]
    north = np.array([forward[0], forward[2]]) / math.hypot(forward[0], forward[2])
    a = -math.radians(45 * index)  # clockwise seen from above
    return np.array(
        [
            north[0] * math.cos(a) + north[1] * math.sin(a),
            -north[0] * math.sin(a) + north[1] * math.cos(a),
        ]
    )


def _state(scene: Scene, item: Item, cameras: dict[str, Any]) -> dict[str, SceneObject]:
    change = item.facts.get("change", {})
    objects = _after(scene, change)
    if change.get("kind") in ("move", "orbit"):
        riders = _riders(objects, change["object"])
        x, _, z = objects[change["object"]].position
        if change["kind"] == "move":
            step = (
                _compass(cameras[item.facts["views"][0]], CARDINALS.index(change["toward"]))
                * change["distance"]
            )
        else:
            px, _, pz = objects[change["pivot"]].position
            a = math.radians(change["degrees_ccw"])
            dx, dz = x - px, z - pz
            step = np.array(
                [
                    px + dx * math.cos(a) + dz * math.sin(a) - x,
                    pz - dx * math.sin(a) + dz * math.cos(a) - z,
                ]
            )
        for k in riders:
            o = objects[k]
            objects[k] = SceneObject(
                o.id,
                o.class_name,
                (o.position[0] + step[0], o.position[1], o.position[2] + step[1]),
                o.rotation,
                o.size,
                o.color,
                parent=o.parent,
            )
    return objects


def _direction(item: Item, objects: dict[str, SceneObject], cameras: dict[str, Any]) -> str:
    roles = item.facts["roles"]
    target, reference = objects[roles["target"]], objects[roles["reference"]]
    if target.parent == reference.id:
        return "above"
    if reference.parent == target.id:
        return "below"
    views = [cameras[n] for n in item.facts["views"]]
    frame = item.group["frame"]
    if frame == "camera":
        forward = _compass(views[-1], 0)
    elif frame == "world":
        forward = _compass(views[0], 0)
    elif "cardinal" in item.facts["facing"]:
        forward = _compass(views[0], item.facts["facing"]["cardinal"])
    else:
        f = objects[item.facts["facing"]["object"]]
        forward = np.array(
            [f.position[0] - reference.position[0], f.position[2] - reference.position[2]]
        )
        forward /= np.linalg.norm(forward)
    offset = np.array(
        [target.position[0] - reference.position[0], target.position[2] - reference.position[2]]
    )
    right = np.array([-forward[1], forward[0]])
    angle = math.degrees(math.atan2(offset @ right, offset @ forward))
    k = round(angle / 45)
    assert abs(angle - 45 * k) <= 22.5 - 7.5, "within the sector margin"
    assert np.linalg.norm(offset) >= 0.3
    return (CARDINALS if frame == "world" else SECTORS)[k % 8]


def _distance(item: Item, objects: dict[str, SceneObject]) -> str:
    roles = item.facts["roles"]
    a, b = objects[roles["first"]], objects[roles["second"]]
    d = float(cKDTree(surface(a, 40)).query(surface(b, 40))[0].min())
    assert all(abs(d - e) >= 0.1 - 0.05 for e in DISTANCE_EDGES), "within a bin margin"
    return ["less than 1.0 m", "1.0 m to 2.0 m", "2.0 m to 3.3 m", "more than 3.3 m"][
        sum(d > e for e in DISTANCE_EDGES)
    ]


def _distance_of(item: Item, objects: dict[str, SceneObject], _: dict[str, Any]) -> str:
    return _distance(item, objects)


def test_every_label_is_recomputed_from_the_ground_truth(built) -> None:
    scenes, items, cameras = built
    by_id = {s.scene_id: s for s in scenes}
    checked = {"direction": 0, "distance": 0, "attachment": 0, "changes": 0}
    for item in items:
        scene, views = by_id[item.scene_id], cameras[item.scene_id]
        relation = item.group["relation"]
        right = item.options["ABCD".index(item.answer[0])] if relation != "attachment" else None
        if relation == "attachment":
            objects = {o.id: o for o in scene.objects}
            moving = _riders(objects, item.facts["roles"]["root"]) - {item.facts["roles"]["root"]}
            names = {f"the {o.color} {o.class_name}": o.id for o in scene.objects}
            chosen = {names[item.options["ABC".index(c)]] for c in item.answer if c != "D"}
            offered = {names[t] for t in item.options[:3]}
            assert chosen == moving & offered, item.item_id
            assert (item.answer == "D") == (not moving & offered)
        elif relation in ("direction", "distance"):
            label = _direction if relation == "direction" else _distance_of
            assert label(item, _state(scene, item, views), views) == right, item.item_id
            if "change" in item.facts:
                # The relation before the change, and whether the change altered it.
                before = label(item, {o.id: o for o in scene.objects}, views)
                assert item.facts["before"] == before, item.item_id
                assert item.facts["changed"] == (before != right), item.item_id
                checked["changes"] += 1
        else:
            continue
        checked[relation] += 1
    assert (
        checked["direction"] >= 3
        and checked["distance"] >= 3
        and checked["attachment"] >= 1
        and checked["changes"] >= 10
    ), checked


def test_items_cover_the_tasks_and_balance_positions(built) -> None:
    _, items, _ = built
    tasks = {i.task for i in items}
    assert len(tasks) >= 14, sorted(set(SUITE.tasks) - tasks)
    for item in items:
        assert len(item.options) == (3 if item.group["relation"] == "occlusion" else 4)
        assert (
            len(item.inputs) == 1
            if item.group["relation"] in ("occlusion", "attachment")
            else 2 <= len(item.inputs) <= 8
        )
        if item.group["level"] != "static":
            assert "The images show the scene before this change." in item.question
            assert isinstance(item.facts["changed"], bool)
    singles = [i.answer for i in items if i.group["relation"] == "direction"]
    counts = {letter: singles.count(letter) for letter in "ABCD"}
    assert max(counts.values()) - min(counts.values()) <= len(
        {i.task for i in items if i.group["relation"] == "direction"}
    ), counts


def test_oracle_scores_everything_and_random_guessing_scores_chance(built, tmp_path: Path) -> None:
    _, items, _ = built
    replies = [
        Reply(
            i.item_id, "oracle", "cot", output=f"Reasoning: known.\nAnswer: {', '.join(i.answer)}"
        )
        for i in items
    ]
    graded = grade_all(SUITE, ItemSet(tmp_path, {}, tuple(items)), replies)
    rows = {row.model: row for row in aggregate(SUITE, graded)}
    assert rows["oracle"].overall.mean == 1.0
    random = rows["baseline:random"].overall
    assert random.low <= chance(items) <= random.high


def test_prompts_ask_for_a_last_answer_line_and_the_direct_variant_for_letters(built) -> None:
    _, items, _ = built
    multi = next(i for i in items if i.task == "static_att")
    single = next(i for i in items if i.task == "static_dist")
    assert "Answer: <letter(s)>" in SUITE.prompt(multi, "cot").text
    assert "Answer: <single letter>" in SUITE.prompt(single, "cot").text
    assert SUITE.prompt(single, "direct").text.endswith(
        "Reply with the letter of your choice only."
    )
    assert (
        SUITE.grade(single, Reply(single.item_id, "m", "cot", output="no idea")).status
        == "parser_failure"
    )
    wrong_set = "AD" if multi.answer != "AD" else "BD"
    assert (
        SUITE.grade(multi, Reply(multi.item_id, "m", "cot", output=f"Answer: {wrong_set}")).score
        == 0.0
    )
