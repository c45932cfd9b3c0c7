"""SpaceCast's analysis conditions (the paper's ablations: a BEV image of S_0, textual 3D
metadata instead of the images, no bridge views) and the paired comparisons of variants, on
small stacked layouts (no Blender): what each variant shows and says, which items it asks,
the comparisons' tests recomputed by hand, and the changed share per task beside the paper's.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom

from spatialbabel import Ground, Scene
from spatialbabel.geometry.bounds import world_aabb
from suites import load_suite
from suites.answers import with_missing
from suites.base import Item, Reply
from suites.grading import aggregate, grade_all, write_scores
from suites.items import ItemSet
from suites.paired import OVERALL, mcnemar_exact
from suites.prompts import requests
from suites.spacecast import conditions, text
from suites.spacecast.split_items import plan_split, render_jobs, word_split
from suites.spacecast.tasks import TASKS
from synth.cameras import scene_cameras
from synth.layout import LayoutRules, sample_layout
from synth.tiers import TIERS
from tests.qa.tiny_split import tiny_png

pytest.importorskip("fcl")

SUITE = load_suite("spacecast")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Items of eight stacked layouts with their saved truth, tiny PNG views and, for every
    scene, a bird's-eye view where the build puts it."""
    scenes = []
    for i, tier in enumerate(("T2", "T3") * 4):
        rng = np.random.default_rng([7, i])
        objects = sample_layout(rng, TIERS[tier], LayoutRules(stack_prob=0.6))
        scenes.append(
            Scene(f"scene_{i:06d}", tuple(objects), scene_cameras(1, 512), Ground(), {"index": i})
        )
    planned = plan_split(scenes, seed=0, resolution=512)
    items = word_split(planned)
    out = tmp_path_factory.mktemp("spacecast-conditions")
    jobs = render_jobs(planned, out, bev=conditions.bev_camera(64))
    for job in jobs:
        for camera in job.cameras:
            image, _ = job.paths(camera)
            image.parent.mkdir(parents=True, exist_ok=True)
            image.write_bytes(tiny_png())
    from suites.items import write_items

    write_items(out, SUITE, items, split=out, options={})
    return out


@pytest.fixture(scope="module")
def items(folder: Path) -> ItemSet:
    from suites.items import read_items

    found = read_items(folder, SUITE)
    SUITE.prepare(folder, found.items)
    return found


def _prompt(item: Item, variant: str) -> tuple[str, tuple[str, ...]]:
    said = SUITE.prompt(item, variant)
    return said.text, item.inputs if said.inputs is None else said.inputs


def test_the_variants_are_the_papers_prompts_with_one_condition_each() -> None:
    assert SUITE.variants[:2] == ("cot", "direct")
    assert set(SUITE.variants) == {
        f"{mode}{suffix}"
        for mode in ("cot", "direct")
        for suffix in ("", "+bev", "+text", "+nobridge")
    }
    assert SUITE.max_tokens("cot+text") == SUITE.max_tokens("cot") == 1024
    assert SUITE.max_tokens("direct+bev") == SUITE.max_tokens("direct") == 16
    with pytest.raises(ValueError, match="unknown variant"):
        conditions.split_variant("cot+depth")


def test_the_bev_variant_adds_one_image_of_the_scene_before_the_change(items: ItemSet) -> None:
    """The paper: a "BEV image of S_0" added as evidence; the views stay as they are."""
    camera = conditions.bev_camera(512)
    # Straight down from above the floor's centre, the picture's top towards -z.
    assert np.allclose(-camera.pose[:3, 2], [0, -1, 0])
    assert np.allclose(camera.pose[:3, 1], [0, 0, -1])
    half = conditions.BEV_HEIGHT_M * math.tan(math.radians(conditions.BEV_FOV_DEG) / 2)
    assert half > 3.0 * conditions.BEV_HEIGHT_M / (conditions.BEV_HEIGHT_M - 2.0)
    for item in items.items:
        said, shown = _prompt(item, "cot+bev")
        plain, _ = _prompt(item, "cot")
        assert shown == (*item.inputs, f"views/{item.scene_id}/bev.png")
        assert (items.folder / shown[-1]).is_file()
        n = len(shown)
        assert f"Image {n} is a bird's-eye view: the same scene before any change" in said
        assert (
            said.replace(
                f" Image {n} is a bird's-eye view: the same scene before any change, seen from "
                "straight above (the cameras are not in it).",
                "",
            )
            == plain
        )
    # The truth the shortcuts read names only the cameras questions use.
    truth = Scene.load(items.folder / "views" / f"{items.items[0].scene_id}.json")
    assert conditions.BEV_CAMERA not in {c.name for c in truth.cameras}


def test_the_bev_variant_needs_the_views_built_with_it(items: ItemSet, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("items.jsonl", "suite.json"):
        (bare / name).write_bytes((items.folder / name).read_bytes())
    suite = type(SUITE)()
    suite.prepare(bare, items.items)
    problem = suite.unavailable("cot+bev")
    assert problem is not None and "--spacecast-bev" in problem
    assert suite.unavailable("cot+text") is None
    with pytest.raises(ValueError, match="--spacecast-bev"):
        next(requests(suite, ItemSet(bare, items.manifest, items.items), ["direct+bev"], model="m"))


def test_the_text_variant_gives_the_3d_metadata_instead_of_the_images(items: ItemSet) -> None:
    """The paper: "textual 3D metadata" instead of the images; every object's centre and box
    and the camera of every image the question names, read back and checked against the
    truth."""
    for item in items.items:
        said, shown = _prompt(item, "direct+text")
        assert shown == ()
        truth = Scene.load(items.folder / "views" / f"{item.scene_id}.json")
        boxes = re.findall(
            r"^- (the [\w-]+ [\w-]+): centre \(([^)]*)\); box \(([^)]*)\) to \(([^)]*)\)$",
            said,
            re.M,
        )
        assert len(boxes) == len(truth.objects)
        for (name, centre, low, high), obj in zip(boxes, truth.objects, strict=True):
            assert name == text.name(obj)
            assert np.allclose([float(v) for v in centre.split(",")], obj.position, atol=0.005)
            exact = world_aabb(obj)
            assert np.allclose([float(v) for v in low.split(",")], exact[0], atol=0.005)
            assert np.allclose([float(v) for v in high.split(",")], exact[1], atol=0.005)
        cams = re.findall(
            r"^- image (\d+): camera at \(([^)]*)\), looking along \(([^)]*)\)", said, re.M
        )
        by_name = {c.name: c for c in truth.cameras}
        assert [int(k) for k, _, _ in cams] == list(range(1, len(item.inputs) + 1))
        for (_, at, along), name in zip(cams, item.facts["views"], strict=True):
            pose = by_name[name].pose
            assert np.allclose([float(v) for v in at.split(",")], pose[:3, 3], atol=0.005)
            assert np.allclose([float(v) for v in along.split(",")], -pose[:3, 2], atol=0.005)
        assert "No images are shown" in said
        assert "The images show" not in said and "images (image 1" not in said
        # The question itself and its options are the item's.
        assert item.question.partition("\n")[2].split("\n")[-1] in said


def test_the_nobridge_variant_keeps_the_anchors_and_asks_only_chains(items: ItemSet) -> None:
    """The paper: "No bridge views": the two anchors alone, on the items with a chain."""
    chains = [i for i in items.items if conditions.has_chain(i)]
    assert chains and len(chains) < len(items.items)
    for item in items.items:
        asked = SUITE.asks(item, "cot+nobridge")
        assert asked == (not TASKS[item.task].single_view and len(item.inputs) >= 3)
        assert SUITE.asks(item, "cot+bev") and SUITE.asks(item, "cot+text")
        if not asked:
            continue
        said, shown = _prompt(item, "cot+nobridge")
        assert shown == (item.inputs[0], item.inputs[-1])
        assert said.startswith(text.views_text(2, True) + "\n")
        assert set(re.findall(r"\bimages? (\d+)", said)) <= {"1", "2"}
        if item.group.get("frame") == "camera":
            # The camera frame is the last anchor's, image n before and image 2 now.
            assert "from the viewpoint of the camera of image 2" in said
    ids = [r["custom_id"] for r in requests(SUITE, items, ["cot+nobridge"], model="m")]
    assert ids == [f"spacecast/{i.item_id}/cot+nobridge" for i in chains]


def test_requests_send_the_variants_inputs(items: ItemSet) -> None:
    item = next(i for i in items.items if conditions.has_chain(i))
    one = ItemSet(items.folder, items.manifest, (item,))
    counts = {
        variant: sum(
            part.get("type") == "image_url" for part in request["body"]["messages"][-1]["content"]
        )
        for request in requests(SUITE, one, list(SUITE.variants), model="m")
        for variant in [request["custom_id"].rsplit("/", 1)[1]]
    }
    n = len(item.inputs)
    assert counts == {
        "cot": n,
        "direct": n,
        "cot+bev": n + 1,
        "direct+bev": n + 1,
        "cot+text": 0,
        "direct+text": 0,
        "cot+nobridge": 2,
        "direct+nobridge": 2,
    }


def test_mcnemar_is_the_exact_binomial_on_the_discordant_items() -> None:
    variant = [True] * 7 + [False] * 2 + [True] * 5 + [False] * 4
    baseline = [False] * 7 + [True] * 2 + [True] * 5 + [False] * 4
    found = mcnemar_exact(variant, baseline)
    assert (found.variant_only, found.baseline_only) == (7, 2)
    # Two-sided: twice the smaller tail of Binomial(9, 1/2), capped at 1.
    assert found.p_value == pytest.approx(min(1.0, 2 * binom.cdf(2, 9, 0.5)))
    assert mcnemar_exact([True, False], [True, False]).p_value == 1.0


def test_scores_compare_each_condition_with_the_same_prompt_item_by_item(
    items: ItemSet, tmp_path: Path
) -> None:
    """Mock answers: "cot" right on every item, "direct" right on every other, the conditions
    as their prompt but wrong on every third item; the comparisons are recomputed by hand."""
    replies = []
    right = {i.item_id: i.answer for i in items.items}
    for k, item in enumerate(items.items):
        for variant in SUITE.variants:
            if not SUITE.asks(item, variant):
                continue
            mode, condition = conditions.split_variant(variant)
            good = k % 2 == 0 if mode == "direct" else True
            if condition is not None and k % 3 == 0:
                good = False
            answer = right[item.item_id] if good else ("A" if right[item.item_id] != "A" else "B")
            replies.append(Reply(item.item_id, "mock", variant, output=f"Answer: {answer}"))
    graded = grade_all(SUITE, items, with_missing(replies, items.by_id(), SUITE))
    rows = aggregate(SUITE, graded)
    write_scores(tmp_path, SUITE, items, graded, rows, [], answers=None)
    scores = json.loads((tmp_path / "scores.json").read_text())
    found = {(c["variant"], c["baseline"], c["scope"]): c for c in scores["comparisons"]}
    assert {(v, b) for v, b, _ in found} == {
        ("cot", "direct"),
        ("cot+bev", "cot"),
        ("direct+bev", "direct"),
        ("cot+text", "cot"),
        ("direct+text", "direct"),
        ("cot+nobridge", "cot"),
        ("direct+nobridge", "direct"),
    }
    cot = found[("cot", "direct", OVERALL)]
    assert cot["n"] == len(items.items)
    assert cot["variant_only"] == sum(1 for k in range(len(items.items)) if k % 2)
    assert cot["baseline_only"] == 0
    nobridge = found[("cot+nobridge", "cot", OVERALL)]
    chains = [k for k, i in enumerate(items.items) if conditions.has_chain(i)]
    assert nobridge["n"] == len(chains)
    assert nobridge["baseline_only"] == sum(1 for k in chains if k % 3 == 0)
    assert nobridge["variant_only"] == 0
    p = min(1.0, 2 * binom.cdf(0, nobridge["baseline_only"], 0.5))
    assert nobridge["p_value"] == pytest.approx(p)
    assert nobridge["difference"]["high"] < 0 < cot["difference"]["low"]
    # Overall: the macro difference equals the difference of the macro accuracies.
    assert nobridge["difference"]["mean"] == pytest.approx(
        nobridge["accuracy"] - nobridge["baseline_accuracy"]
    )
    # Per task: the plain difference of the two accuracies on the task's paired items.
    for (_, _, scope), c in found.items():
        if scope == OVERALL:
            continue
        assert c["difference"]["mean"] == pytest.approx(c["accuracy"] - c["baseline_accuracy"])
        assert c["difference"]["low"] <= c["difference"]["mean"] <= c["difference"]["high"]
    # No request of +nobridge on a single-view item, so no missing answer graded there.
    nob_rows = [r for r in scores["rows"] if r["variant"] == "cot+nobridge"]
    assert nob_rows[0]["statuses"]["generation_failure"] == 0
    table = (tmp_path / "table.md").read_text()
    assert "Paired comparisons" in table and "| mock | cot+nobridge | cot | overall |" in table


def test_the_changed_share_per_task_stands_beside_the_papers(items: ItemSet) -> None:
    """The paper: of 2,494 L2 and L3 questions 2,217 (88.9 %) change the relation."""
    table = SUITE.summary(items.items)
    assert "2,217 of 2,494 local and global questions, 88.9 %" in table
    for task, (k, n) in conditions.changed_shares(items.items).items():
        asked = [i for i in items.items if i.task == task]
        assert TASKS[task].change != "none"
        assert n == len(asked) and k == sum(1 for i in asked if i.facts["changed"])
        assert f"| {task} | {k} | {n} | {100 * k / n:.1f} |" in table
    assert not any(TASKS[t].change == "none" for t in conditions.changed_shares(items.items))


def test_a_reply_to_an_item_its_variant_does_not_ask_is_a_problem(
    items: ItemSet, tmp_path: Path
) -> None:
    from suites.answers import read_replies

    single = next(i for i in items.items if not conditions.has_chain(i))
    path = tmp_path / "answers.jsonl"
    path.write_text(
        json.dumps(
            {"item_id": single.item_id, "model": "m", "variant": "cot+nobridge", "output": "A"}
        )
        + "\n"
    )
    replies, problems = read_replies(path, SUITE, items.by_id())
    assert not replies and "does not ask" in problems[0].message


def test_the_saved_truth_is_what_the_text_reads(items: ItemSet) -> None:
    item = items.items[0]
    truth = Scene.load(items.folder / "views" / f"{item.scene_id}.json")
    said, _ = _prompt(item, "cot+text")
    assert (
        conditions.metadata_text(
            truth, [{c.name: c for c in truth.cameras}[n] for n in item.facts["views"]]
        )
        in said
    )
    assert replace(truth, cameras=()).objects == truth.objects
