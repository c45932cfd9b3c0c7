"""ProVisE on a real 5-scene split made by Blender: items of every task, their labels recomputed
here by other means (a recount, mesh volumes, the camera frame, the render stage's depth pass),
the protocol checks (oracle, perturbations, wrong, empty, all-ink, text), and the command line
end to end with drawn answers on disk."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import ndimage

from spatialbabel import Scene
from spatialbabel.cli import ExitCode, main
from suites.items import ItemSet, read_items

pytest.importorskip("bpy")
cv2 = pytest.importorskip("cv2")

from spatialbabel.geometry.footprints import footprint  # noqa: E402
from suites.grading import grade_references  # noqa: E402
from suites.provise import SUITE, TASKS, pixels  # noqa: E402
from suites.provise.build import PLAN_CLEARANCE  # noqa: E402
from suites.provise.checks import CHECKS, SINGLE, overall, run_checks  # noqa: E402
from suites.provise.geometry import footprint_distance, pixel_rays  # noqa: E402
from suites.provise.oracle import COMBINED, Oracle  # noqa: E402
from suites.provise.protocols import protocol  # noqa: E402
from suites.shortcuts import check_shortcuts  # noqa: E402
from synth.meshes import unit_mesh  # noqa: E402

pytestmark = [pytest.mark.bpy, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
#: Stacked (some objects rest on cubes and cylinders), so free tops are tested too.
SPLIT = ["--n", "5", "--seed", "3", "--tiers", "T3,T4", "--stack-prob", "0.5"]
SPLIT += ["--eval-size", "2", "--phase1-size", "1"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ItemSet]:
    """The split and its items, made once per test run: pytest-xdist workers share the folder
    above their own temporary folders, and the first to take the lock builds."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "provise-shared"
    root.mkdir(exist_ok=True)
    split, items = root / "split", root / "items"
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (items / "suite.json").is_file():
            done = subprocess.run(
                [sys.executable, "-m", "spatialbabel.cli", "generate", *SPLIT, "--out", str(split)]
                + ["--workers", "1", "--no-progress"],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
                timeout=600,
            )
            assert done.returncode == 0, done.stderr[-2000:]
            build = ["suite", "build", "--suite", "provise", "--split", str(split)]
            assert main([*build, "--out", str(items)]) == 0
    return split, read_items(items, SUITE)


def _scene(split: Path, scene_id: str) -> Scene:
    return Scene.load(split / "scenes" / f"{scene_id}.json")


def _mesh_volume(obj: Any) -> float:
    """Volume of the rendered mesh by the divergence theorem (not the hub's formula)."""
    from spatialbabel import object_affine

    mesh = unit_mesh(obj.class_name)
    affine = object_affine(obj)
    world = mesh.vertices @ affine[:3, :3].T + affine[:3, 3]
    total = 0.0
    for face in mesh.faces:
        for k in range(1, len(face) - 1):
            a, b, c = world[face[0]], world[face[k]], world[face[k + 1]]
            total += float(np.dot(a, np.cross(b, c))) / 6.0
    return abs(total)


def test_every_task_has_items_with_labels_recomputed(built: tuple[Path, ItemSet]) -> None:
    split, items = built
    assert set(items.manifest["tasks"]) == set(TASKS)
    assert items.manifest["options"] == {"provise_seed": 0, "provise_tasks": list(TASKS)}
    for item in items.items:
        scene = _scene(split, item.scene_id)
        camera = scene.cameras[0]
        ids = pixels.read_labels(split / "masks" / f"{scene.scene_id}.png")
        by_id = {o.id: (i, o) for i, o in enumerate(scene.objects)}
        assert item.facts["protocol"] == protocol(item.task).sha256
        if item.task == "counting":
            key = "class_name" if item.facts["by"] == "class" else "color"
            assert item.answer == sum(getattr(o, key) == item.facts["value"] for o in scene.objects)
        elif item.task == "size":
            volumes = [_mesh_volume(by_id[k][1]) for k in item.facts["objects"]]
            assert item.answer == "AB"[int(np.argmax(volumes))]
            assert max(volumes) >= 1.4 * min(volumes)
        elif item.task == "grounding":
            index = by_id[item.answer][0]
            truth = pixels.read_labels(items.input_path(item.facts["truth"]))
            # The object's pixels, and the background it encloses (a torus's hole).
            own = ids == index + 1
            assert np.array_equal(truth == 1, own | (ndimage.binary_fill_holes(own) & (ids == 0)))
        elif item.task == "relationship":
            a, b = (by_id[item.facts[k]][1] for k in ("subject", "object"))
            cam = camera.world_to_camera(np.array([a.position, b.position]))
            relation = item.facts["relation"]
            holds = {
                "left": cam[0, 0] < cam[1, 0],
                "right": cam[0, 0] > cam[1, 0],
                "in front": -cam[0, 2] < -cam[1, 2],
                "behind": -cam[0, 2] > -cam[1, 2],
            }[relation]
            assert item.answer == ("true" if holds else "false")
        elif item.task == "multihop":
            anchor = by_id[item.facts["anchor"]][1]
            relation = item.facts["relation"]
            cams = {o.id: camera.world_to_camera(np.array([o.position]))[0] for o in scene.objects}
            axis, sign = {"left": (0, -1), "right": (0, 1), "in front": (2, 1), "behind": (2, -1)}[
                relation
            ]
            members = [
                o.id
                for o in scene.objects
                if o.id != anchor.id and sign * (cams[o.id][axis] - cams[anchor.id][axis]) > 0
            ]
            # The strict members are members by sign; objects whose relation is unclear may be
            # members by sign too, but are farther than the answer and never options.
            assert set(item.facts["members"]) <= set(members)
            winner = max(members, key=lambda k: cams[k][2])  # nearest: least far down -Z
            answer_text = item.options["ABCD".index(item.answer)]
            assert answer_text == f"the {by_id[winner][1].color} {by_id[winner][1].class_name}"
            options = item.facts["options"]
            assert all(k in item.facts["members"] or k not in members for k in options)
            nearer = [k for k in options if cams[k][2] > cams[winner][2]]
            assert item.facts["rank"] == 1 + len(nearer)
            assert not set(nearer) & set(members)
        elif item.task == "trajectory":
            path = np.asarray(item.answer, float) * np.array([camera.width, camera.height], float)
            origin, rays = pixel_rays(camera, path)
            t = (scene.ground.height - origin[1]) / rays[:, 1]
            ground = origin + t[:, None] * rays
            for obj in scene.objects:
                gap = footprint_distance(ground[:, [0, 2]], footprint(obj))
                assert gap.min() >= PLAN_CLEARANCE - 0.06, (item.item_id, obj.id)
            start = np.asarray(item.facts["points"]["S"])
            assert np.hypot(*(np.asarray(item.answer[0]) - start)) < 0.01
            # The straight line from S to G goes through an object on the ground.
            ends = np.array([item.facts["points"][k] for k in "SG"]) * [camera.width, camera.height]
            line = ends[0] + np.linspace(0, 1, 200)[:, None] * (ends[1] - ends[0])
            origin, rays = pixel_rays(camera, line)
            t = (scene.ground.height - origin[1]) / rays[:, 1]
            ground = (origin + t[:, None] * rays)[:, [0, 2]]
            assert any(footprint_distance(ground, footprint(o)).min() == 0 for o in scene.objects)
        elif item.task in ("relationship", "feasibility"):
            truth = pixels.read_labels(items.input_path(item.facts["truth"]))
            named = (
                [item.facts["subject"], item.facts["object"]]
                if item.task == "relationship"
                else [item.facts["mover"], *item.facts["frame"]]
            )
            for label, object_id in zip((1, 2, 3), named, strict=False):
                assert np.array_equal(truth == label, ids == by_id[object_id][0] + 1)


def test_depth_and_top_faces_agree_with_the_render_stage(built: tuple[Path, ItemSet]) -> None:
    """Ray-cast depths and top faces checked against pyrender's depth pass of the same scene."""
    pytest.importorskip("pyrender")
    from render.offscreen import render_scene

    split, items = built
    for item in items.items:
        if item.task not in ("depth", "affordance"):
            continue
        scene = _scene(split, item.scene_id)
        camera = scene.cameras[0]
        rendering = render_scene(scene, color=False)
        if item.task == "depth":
            for name, expected in zip("AB", item.facts["depths"], strict=True):
                x, y = item.facts["points"][name]
                got = float(rendering.depth[int(y * camera.height), int(x * camera.width)])
                assert got == pytest.approx(expected, abs=0.02)
            near = int(np.argmin(item.facts["depths"]))
            assert item.answer == "AB"[near]
            continue
        truth = pixels.read_labels(items.input_path(item.facts["truth"])) == 1
        rows, cols = np.nonzero(truth & (rendering.instances > 0))
        origin, rays = pixel_rays(camera, np.column_stack([cols + 0.5, rows + 0.5]).astype(float))
        heights = origin[1] + rendering.depth[rows, cols] * rays[:, 1]
        tops = np.array(
            [
                scene.objects[i - 1].position[1] + scene.objects[i - 1].size[1] / 2
                for i in rendering.instances[rows, cols]
            ]
        )
        # Away from the outlines (where the two rasterisers may differ) every pixel is a top.
        inner = pixels.morph(truth, "erode", 5)[rows, cols]
        assert np.all(np.abs(heights - tops)[inner] < 0.02)


def test_protocol_checks_pass(built: tuple[Path, ItemSet]) -> None:
    _, items = built
    results = run_checks(items)
    for task in TASKS:
        checks = results[task]
        for check in CHECKS:
            # Each perturbation alone keeps the bar (98% overall, 95% in every task:
            # on five scenes, every item); the combinations are reported in docs/provise.md
            # and only held to 60%.
            floor = 60.0 if check in COMBINED else 95.0 if check in SINGLE else 100.0
            assert checks.rate(check) >= floor, (task, check, checks.failures[check])
    for check in SINGLE:
        assert overall(results, check) >= 98.0, check


def test_the_shortcut_battery_sits_at_chance(built: tuple[Path, ItemSet]) -> None:
    _, items = built
    SUITE.prepare(items.folder, items.items)
    checks = check_shortcuts(SUITE, items.items)
    assert {c.shortcut for c in checks} >= {
        "majority_label",
        "lower_point",
        "larger_area",
        "closest_option",
        "straight_line",
        "straight_line_text",
        "unchanged_input",
        "vertical_gradient",
        "unnamed_overlays",
    }
    # Five scenes give the chance baseline's CI too few items to hold a shortcut to (the
    # 50-scene verdicts are in docs/provise.md); what is held here is the balancing each
    # shortcut of a two-way task meets: it is right on at most one item more than half. (The
    # majority by kind is not: five items split into up to four kinds.)
    for check in checks:
        if check.task in ("depth", "size", "relationship") and check.shortcut in (
            "majority_label",
            "lower_point",
            "larger_area",
            "closest_option",
            "vertical_gradient",
        ):
            n = check.score.n
            assert check.score.mean * n <= n // 2 + 1 + 1e-9, str(check)
    graded = {
        (g.reply.model, g.item.item_id): g.grade for g in grade_references(SUITE, items.items)
    }
    for item in items.items:
        unchanged = graded[("shortcut:unchanged_input", item.item_id)]
        assert unchanged.status == "noncompliance", (item.item_id, unchanged)
        if item.task == "trajectory":
            for name in ("straight_line", "straight_line_text"):
                assert graded[(f"shortcut:{name}", item.item_id)].score == 0.0
        if item.task in ("relationship", "feasibility"):
            assert graded[("shortcut:unnamed_overlays", item.item_id)].score == 0.0


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_command_line_grades_drawn_and_text_answers(
    built: tuple[Path, ItemSet], tmp_path: Path
) -> None:
    _, items = built
    folder = items.folder
    requests = tmp_path / "requests.jsonl"
    command = [
        "suite",
        "prompts",
        "--suite",
        "provise",
        "--items",
        str(folder),
        "--out",
        str(requests),
    ]
    assert main([*command, "--variants", "visual", "text"]) == 0
    lines = [json.loads(line) for line in requests.read_text().splitlines()]
    assert len(lines) == 2 * len(items.items)
    visual = next(r for r in lines if r["custom_id"].endswith("-depth/visual"))
    text = visual["body"]["messages"][1]["content"][-1]["text"]
    assert "brighter is closer" in text and "A. the point marked A" in text

    oracle = Oracle(items)
    drawings = tmp_path / "drawn"
    drawings.mkdir()
    records: list[dict[str, Any]] = []
    for n, item in enumerate(items.items):
        image = oracle.draw(item)
        if n % 3 == 0:
            name, data = f"{item.item_id}.jpg", pixels.encode_jpeg(image, 85)
        else:
            name, data = f"{item.item_id}.png", pixels.encode_png(pixels.resize(image, 1024, 1024))
        (drawings / name).write_bytes(data)
        records.append(
            {
                "item_id": item.item_id,
                "model": "painter",
                "variant": "visual",
                "output": "",
                "image": f"drawn/{name}",
            }
        )
        records.append(
            {
                "item_id": item.item_id,
                "model": "writer",
                "variant": "text",
                "output": oracle.text(item),
            }
        )
    first, second, third = items.items[:3]
    (drawings / "broken.png").write_bytes(b"not a png")
    records += [
        {
            "item_id": first.item_id,
            "model": "flaky",
            "variant": "visual",
            "output": "",
            "image": "drawn/gone.png",
        },
        {
            "item_id": second.item_id,
            "model": "flaky",
            "variant": "visual",
            "output": "",
            "image": "drawn/broken.png",
        },
        {
            "item_id": third.item_id,
            "model": "flaky",
            "variant": "visual",
            "output": "I would draw a star.",
        },
    ]
    answers = tmp_path / "answers.jsonl"
    _write(answers, records)
    out = tmp_path / "scores"
    score = [
        "suite",
        "score",
        "--suite",
        "provise",
        "--items",
        str(folder),
        "--answers",
        str(answers),
    ]
    assert main([*score, "--out", str(out)]) == 0
    scores = json.loads((out / "scores.json").read_text())
    rows = {(r["model"], r["variant"]): r for r in scores["rows"]}
    for key in (("painter", "visual"), ("writer", "text")):
        assert rows[key]["overall"]["mean"] == pytest.approx(1.0, abs=0.02), rows[key]
        assert (
            rows[key]["statuses"]["noncompliance"] == rows[key]["statuses"]["parser_failure"] == 0
        )
    flaky = rows[("flaky", "visual")]["statuses"]
    assert (
        flaky["generation_failure"] == len(items.items) - 2
    )  # the missing file and the unanswered
    assert flaky["parser_failure"] == 1 and flaky["noncompliance"] == 1
    hashes = {task: protocol(task).sha256 for task in TASKS}
    assert all(g["protocol"] == hashes[g["task"]] for g in scores["grades"])
    assert ("baseline:random", "-") in rows
    # The shortcut battery's rows and verdicts; each drawn answer's registration.
    assert ("shortcut:straight_line", "-") in rows
    verdicts = {(c["shortcut"], c["task"]): c["at_chance"] for c in scores["shortcuts"]}
    assert verdicts[("straight_line", "trajectory")] and verdicts[("unchanged_input", "depth")]
    painted = [g for g in scores["grades"] if g["model"] == "painter" and g["parsed"]]
    assert painted and all("registration" in g["parsed"] for g in painted)
    assert any(g["parsed"]["registration"]["answer_size"] == [1024, 1024] for g in painted)
    assert scores["aggregation"] == {
        "overall": "macro",
        "resample": "within_task",
        "resamples": 10000,
        "seed": 0,
    }

    # Items built under another protocol are refused, and nothing is graded.
    lines_text = (folder / "items.jsonl").read_text()
    old = protocol("depth").sha256
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    for name in ("suite.json", "inputs", "truth"):
        (tampered / name).symlink_to(folder / name)
    (tampered / "items.jsonl").write_text(lines_text.replace(old, "0" * 64))
    score = [
        "suite",
        "score",
        "--suite",
        "provise",
        "--items",
        str(tampered),
        "--answers",
        str(answers),
    ]
    assert main([*score, "--out", str(tmp_path / "again")]) == ExitCode.BAD_INPUT
    assert not (tmp_path / "again" / "scores.json").exists()
