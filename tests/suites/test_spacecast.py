"""SpaceCast's items on small stacked layouts (no Blender): every label recomputed by separate
code from the ground truth and the stated change, nothing within a margin, oracle answers score
100 %, the seeded random baseline lands at chance within its CI, and the prompt's contract.
Views and changes by separate code too (surface samples, an inside test marched along the
sight lines): consecutive views share an object, chains have bridges, every object a question
needs is seen; labels are balanced per task, and the shortcut battery sits at chance."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import replace
from itertools import pairwise
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
from suites.shortcuts import check_shortcuts
from suites.spacecast.labels import DISTANCE_EDGES
from suites.spacecast.shortcuts import SHORTCUTS, Truth, all_guesses, hit
from suites.spacecast.split_items import plan_split, word_split
from suites.spacecast.suite import chance
from synth.cameras import scene_cameras
from synth.layout import LayoutRules, sample_layout
from synth.tiers import TIERS
from tests.suites.shapes import CARDINALS, SECTORS, inside, surface

pytest.importorskip("fcl")

SUITE = load_suite("spacecast")


@pytest.fixture(scope="module")
def built() -> tuple[list[Scene], list[Item], dict[str, Any]]:
    scenes = []
    # Twenty-four scenes: enough for every task type (the selection keeps a task's labels
    # even, which on few scenes leaves few items), and for the random
    # baseline's CI over scenes to mean something.
    for i, tier in enumerate(("T2", "T3") * 12):
        rng = np.random.default_rng([7, i])
        objects = sample_layout(rng, TIERS[tier], LayoutRules(stack_prob=0.6))
        scenes.append(
            Scene(f"scene_{i:06d}", tuple(objects), scene_cameras(1, 512), Ground(), {"index": i})
        )
    planned = plan_split(scenes, seed=0, resolution=512)
    items = word_split(planned)
    cameras = {s.scene_id: {c.name: c for d in drafts for c in d.views} for s, drafts in planned}
    return scenes, items, cameras


@pytest.fixture(scope="module")
def folder(built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An items folder holding the truth the build saves beside its items (the views' images
    are not rendered: the shortcuts read only the truth)."""
    scenes, _, cameras = built
    out = tmp_path_factory.mktemp("spacecast-items")
    by_id = {s.scene_id: s for s in scenes}
    for scene_id, views in cameras.items():
        if views:
            replace(by_id[scene_id], cameras=tuple(views.values())).save(
                out / "views" / f"{scene_id}.json"
            )
    return out


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
    # Even labels per task leave a local direction task empty now and then on few scenes.
    assert len(tasks) >= 13, sorted(set(SUITE.tasks) - tasks)
    for item in items:
        assert len(item.options) == (3 if item.group["relation"] == "occlusion" else 4)
        # Cross-view chains: two anchors and one to six bridges; a removal and an orbit's
        # occlusion item add a view to the one asked about.
        views = {"remove_occ": 2, "orbit_occ": 2, "static_occ": 1, "move_occ": 1, "static_att": 1}
        if item.task in views:
            assert len(item.inputs) == views[item.task], item.item_id
        else:
            assert 3 <= len(item.inputs) <= 8, item.item_id
        if item.group["level"] != "static":
            assert "The images show the scene before this change." in item.question
            assert isinstance(item.facts["changed"], bool)
    singles = [i.answer for i in items if i.group["relation"] == "direction"]
    counts = {letter: singles.count(letter) for letter in "ABCD"}
    assert max(counts.values()) - min(counts.values()) <= len(
        {i.task for i in items if i.group["relation"] == "direction"}
    ), counts


def test_oracle_scores_everything_and_random_guessing_scores_chance(built, folder: Path) -> None:
    _, items, _ = built
    replies = [
        Reply(
            i.item_id, "oracle", "cot", output=f"Reasoning: known.\nAnswer: {', '.join(i.answer)}"
        )
        for i in items
    ]
    graded = grade_all(SUITE, ItemSet(folder, {}, tuple(items)), replies)
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


# -- separate code: what a view shows, from surface samples and an inside test ----------------


def _seen_share(objects: dict[str, SceneObject], object_id: str, camera: Any) -> float:
    """The share of an object's surface samples that fall in the image and that no solid (its
    own included) hides: the sight line from the eye, marched, enters none before it."""
    points = surface(objects[object_id], 10)
    points = points[:: max(1, len(points) // 300)]
    uv, depth = camera.project(points)
    framed = (
        (depth > 0.05)
        & (uv[:, 0] >= 0)
        & (uv[:, 0] < camera.width)
        & (uv[:, 1] >= 0)
        & (uv[:, 1] < camera.height)
    )
    eye = np.asarray(camera.pose[:3, 3], dtype=float)
    steps = np.linspace(0.0, 0.97, 97)[:, None, None]
    march = eye + steps * (points[None] - eye)
    hidden = np.zeros(len(points), dtype=bool)
    for other in objects.values():
        hidden |= inside(other, march.reshape(-1, 3)).reshape(len(steps), -1).any(axis=0)
    return float((framed & ~hidden).mean())


def test_consecutive_views_share_an_object_and_chains_have_bridges(built) -> None:
    scenes, items, cameras = built
    by_id = {s.scene_id: {o.id: o for o in s.objects} for s in scenes}
    links = 0
    for item in items:
        if item.group["relation"] in ("direction", "distance"):
            assert len(item.inputs) >= 3, f"{item.item_id}: a chain without a bridge"
        views = [cameras[item.scene_id][n] for n in item.facts["views"]]
        objects = by_id[item.scene_id]
        for k, (a, b) in enumerate(pairwise(views)):
            shared = item.facts["shared"][k]
            assert shared, f"{item.item_id}: views {k + 1} and {k + 2} share nothing"
            best = max(min(_seen_share(objects, o, a), _seen_share(objects, o, b)) for o in shared)
            assert best >= 0.1, (item.item_id, k, shared, best)
            links += 1
    assert links >= 50, links


def test_every_object_a_question_needs_is_seen(built) -> None:
    """The queried objects, the moved or removed object and the pivot each show in some view
    of the item (a target hidden in the view asked about shows in the other)."""
    scenes, items, cameras = built
    by_id = {s.scene_id: {o.id: o for o in s.objects} for s in scenes}
    checked = 0
    for item in items:
        if "change" not in item.facts:
            continue
        change = item.facts["change"]
        needed = [v for k, v in item.facts["roles"].items() if k != "options"]
        needed += [change[k] for k in ("object", "pivot") if k in change]
        views = [cameras[item.scene_id][n] for n in item.facts["views"]]
        for object_id in needed:
            best = max(_seen_share(by_id[item.scene_id], object_id, v) for v in views)
            assert best >= 0.05, (item.item_id, object_id, best)
        checked += 1
    assert checked >= 30, checked


def test_pairwise_occlusion_asks_whether_one_object_hides_another(built) -> None:
    scenes, items, cameras = built
    by_id = {s.scene_id: s for s in scenes}
    pairs = [i for i in items if i.task in ("move_occ", "orbit_occ")]
    assert pairs
    for item in pairs:
        roles = item.facts["roles"]
        assert set(roles) == {"occluder", "target"}
        assert "occlude" in item.question and "alone" in item.question
        # The occluder ends nearer the camera of image 1: depth order alone gives nothing.
        state = _state(by_id[item.scene_id], item, cameras[item.scene_id])
        eye = np.asarray(cameras[item.scene_id][item.facts["views"][0]].pose[:3, 3])
        near = [np.linalg.norm(np.asarray(state[roles[k]].position) - eye) for k in roles]
        assert near[0] < near[1], item.item_id


def test_prompts_define_front_for_a_camera_and_no_unused_words(built) -> None:
    _, items, _ = built
    for item in items:
        text = SUITE.prompt(item, "cot").text
        if item.group.get("frame") == "camera":
            assert "'front' is the direction in which the camera looks" in text
            assert "farther from the camera" in text
        # No stacked pair can be shown apart: above and below are neither asked nor defined.
        assert "'above'" not in text and "above" not in item.options


def test_labels_are_balanced_per_task(built) -> None:
    """No label is right more often than chance over the items that offer it; attachment, on
    scenes whose supports hold one object, over its reachable sets."""
    _, items, _ = built
    by_task: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_task[item.task].append(item)
    for task, group in by_task.items():
        right: Counter[str] = Counter()
        offers: Counter[str] = Counter()
        if group[0].group["relation"] == "attachment":
            right.update(i.answer for i in group)
            sets = set(right)
            offers.update({label: len(group) for label in sets})
            share = max(1 / 8, 1 / len(sets))
        else:
            for i in group:
                right[i.options["ABCD".index(i.answer)]] += 1
                offers.update(i.options)
            share = 1 / len(group[0].options)
        for label, count in right.items():
            assert count <= share * offers[label] + 1e-9, (task, label, right, offers)


def test_the_shortcut_battery_sits_at_chance(built, folder: Path) -> None:
    """Every shortcut's expected score on every task (ties drawn evenly) is at most chance
    plus half an item: the build's promise, which holds a shortcut inside the random guess's
    CI on a split large enough for that CI to be tight (measured in docs/spacecast.md). Here,
    ten scenes give a few items per task, where the seeded guess may score 0 on a task."""
    _, items, _ = built
    SUITE.prepare(folder, items)
    truths = {
        scene_id: Truth(Scene.load(folder / "views" / f"{scene_id}.json"))
        for scene_id in {i.scene_id for i in items}
    }
    by_id = {i.item_id: i for i in items}
    guesses = all_guesses(items, truths)
    answered = {name for name, found in guesses.items() if found}
    assert answered <= set(SHORTCUTS) and len(answered) >= 9, answered
    # The options come in their natural order: their order reads chance (with the wrong ones
    # in that order and the right one put in at a drawn place, about three answers in four).
    order = [hit(by_id[k], g) for k, g in guesses.pop("option_order").items()]
    assert len(order) >= 100 and sum(order) / len(order) <= 0.36, sum(order) / len(order)
    for name, found in guesses.items():
        per_task: dict[str, list[float]] = defaultdict(list)
        for item_id, guess in found.items():
            per_task[by_id[item_id].task].append(hit(by_id[item_id], guess))
        for task, hits in per_task.items():
            group = [i for i in items if i.task == task]
            if group[0].group["relation"] == "attachment":
                share = max(1 / 8, 1 / len({i.answer for i in group}))
            else:
                share = 1 / len(group[0].options)
            assert sum(hits) <= share * len(hits) + 0.5 + 1e-9, (name, task, sum(hits), len(hits))
    # The battery as ``suite score`` grades it: one row per shortcut, on the tasks it answers.
    checks = check_shortcuts(SUITE, items)
    assert {c.shortcut for c in checks} == answered


def test_shortcuts_answer_as_defined(built, folder: Path) -> None:
    """A few shortcuts recomputed from their definitions: persistence gives the label before
    the change where it is offered, "not occluded" and "none of these" their option."""
    _, items, _ = built
    SUITE.prepare(folder, items)
    by_name = {s.name: s for s in SUITE.shortcuts(items, 0)}
    checked = 0
    for item in items:
        before = item.facts.get("before")
        if before in item.options and item.group["relation"] != "attachment":
            reply = by_name["persistence"].answers[item.item_id].output
            assert reply == f"Answer: {'ABCD'[item.options.index(before)]}", item.item_id
            checked += 1
        if item.group["relation"] == "occlusion":
            reply = by_name["not_occluded"].answers[item.item_id].output
            assert reply == f"Answer: {'ABC'[item.options.index('not occluded')]}"
        if item.group["relation"] == "attachment":
            assert by_name["none_of_these"].answers[item.item_id].output == "Answer: D"
    assert checked >= 20, checked
