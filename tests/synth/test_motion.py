"""Moving scenes without Blender: the motion rules re-checked on the integration grid, frame
ground truth, determinism per (seed, index), and the clip file's round trip and errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from spatialbabel.clip import Clip
from spatialbabel.errors import SceneValidationError
from synth.clip_unit import ClipParameters, build_clip, clip_done, plan_clip
from synth.motion import (
    EGO_CLEARANCE,
    EGO_CRUISE,
    GROUND_HALF,
    LEADER_PULL,
    MANOEUVRE_LEAD,
    MANOEUVRES,
    OBJECT_GAP,
    OBJECT_SPEED,
    SUBSTEPS,
    TURN_RATE_DEG,
    ObjectPlan,
    direction,
)
from synth.unit import GenerationError
from tests.suites.spatialmind.boxes_renderer import BoxesRenderer

PARAMS = ClipParameters(seed=3, resolution=32, observed=(16, 20), horizon=(5, 8), video=False)


def circle(obj: ObjectPlan) -> float:
    """Independent bounding radius of the footprint: half the diagonal of its square for the
    classes that turn, half the width for the round ones."""
    w = obj.size[0]
    return w / math.sqrt(2) if obj.class_name in ("cube", "pyramid") else w / 2


@pytest.mark.parametrize("index", range(8))
def test_motion_keeps_every_rule_on_the_grid(index: int) -> None:
    plan, tries = plan_clip(index, PARAMS)
    assert tries >= 1
    assert plan.manoeuvre in MANOEUVRES
    n = (plan.frames - 1) * SUBSTEPS + 1
    assert len(plan.ego) == n and all(len(o.ground) == n for o in plan.objects)
    pairs = {(o.class_name, o.color) for o in plan.objects}
    assert len(pairs) == len(plan.objects)  # each object is named by colour and class alone
    for obj in plan.objects:
        r = circle(obj)
        assert np.all(np.abs(obj.ground) <= GROUND_HALF - r)
        assert np.min(np.linalg.norm(obj.ground - plan.ego, axis=1)) >= r + EGO_CLEARANCE
        # Smooth: no grid step moves an object faster than its kind allows (a leader drives
        # the observer's path, pulling away by up to LEADER_PULL seconds a second).
        steps = np.linalg.norm(np.diff(obj.ground, axis=0), axis=1) * plan.fps * SUBSTEPS
        fastest = (
            EGO_CRUISE[1] * (1 + LEADER_PULL[1]) if obj.motion == "leader" else OBJECT_SPEED[1]
        )
        assert steps.max() < fastest * 1.01
        if obj.motion == "static":
            assert np.ptp(obj.ground, axis=0).max() == 0.0
        if obj.motion == "leader":
            # On the observer's own path, ahead of it: where a leader's position is one the
            # observer passes within the clip, it passes it later.
            for step in range(0, n, SUBSTEPS):
                gaps = np.linalg.norm(plan.ego - obj.ground[step], axis=1)
                if gaps.min() < 0.02:
                    assert int(np.argmin(gaps)) > step
    for a in range(len(plan.objects)):
        for b in range(a + 1, len(plan.objects)):
            gap = np.linalg.norm(plan.objects[a].ground - plan.objects[b].ground, axis=1)
            assert gap.min() >= circle(plan.objects[a]) + circle(plan.objects[b]) + OBJECT_GAP
    # The observer moves along its heading.
    velocity = np.diff(plan.ego, axis=0)
    moving = np.linalg.norm(velocity, axis=1) > 1e-6
    along = np.einsum("ij,ij->i", velocity[moving], direction(plan.ego_heading[1:][moving]))
    assert np.all(along > 0)


def test_the_same_seed_and_index_give_the_same_motion_and_another_does_not() -> None:
    a, _ = plan_clip(5, PARAMS)
    b, _ = plan_clip(5, PARAMS)
    c, _ = plan_clip(5, ClipParameters(seed=4, resolution=32, observed=(16, 20), horizon=(5, 8)))
    assert np.array_equal(a.ego, b.ego)
    assert all(
        np.array_equal(x.ground, y.ground) for x, y in zip(a.objects, b.objects, strict=True)
    )
    assert not np.array_equal(a.ego, c.ego)


def test_manoeuvres_are_drawn_from_the_seed_and_begin_in_view() -> None:
    """The manoeuvre is drawn from the clip's own stream (not its index), begins 1-2 s before
    the last observed frame, and by then shows where it goes: a turn already turns its way and
    keeps turning harder after the frames end, a stop has slowed by a fifth and goes on
    slowing, straight on eases whatever turn the observer was in."""
    params = ClipParameters(seed=5, resolution=32, observed=(16, 30), horizon=(10, 20), video=False)
    drawn = []
    for index in range(24):
        plan, _ = plan_clip(index, params)
        drawn.append(plan.manoeuvre)
        t_o = (plan.observed - 1) * SUBSTEPS
        lead = plan.times[t_o] - plan.onset
        assert MANOEUVRE_LEAD[0] - 1e-9 <= lead <= MANOEUVRE_LEAD[1] + 1e-9
        onset = math.floor(plan.onset * plan.fps * SUBSTEPS) - 1
        rate = np.gradient(np.unwrap(plan.ego_heading), plan.times)  # rad/s, left-positive
        speed = plan.ego_speed
        if plan.manoeuvre in ("left", "right"):
            sign = 1.0 if plan.manoeuvre == "left" else -1.0
            assert abs(rate[onset]) < 1e-4  # from going straight
            assert sign * math.degrees(rate[t_o]) >= 0.2 * TURN_RATE_DEG[0]
            assert sign * rate[-1] > sign * rate[t_o]
        elif plan.manoeuvre == "stop":
            assert speed[t_o] <= 0.8 * speed[onset] + 1e-9
            assert speed[-1] < speed[t_o] or speed[t_o] == 0.0
        else:
            assert abs(rate[-1]) <= abs(rate[t_o]) + 1e-9
    assert set(drawn) == set(MANOEUVRES)
    assert drawn != [MANOEUVRES[i % 4] for i in range(24)]


def test_clip_unit_writes_ground_truth_that_round_trips(tmp_path: Path) -> None:
    renderer = BoxesRenderer()
    rendered = build_clip(2, PARAMS, renderer, "none")
    clip = rendered.clip
    assert clip.observed == len(rendered.frames) == len(rendered.ids)
    assert all(f.observed for f in clip.frames[: clip.observed])
    assert not any(f.observed for f in clip.frames[clip.observed :])
    assert renderer.frames == clip.observed  # the future is never rendered
    again = Clip.from_dict(json.loads(clip.to_json()))
    assert again == clip
    assert np.array_equal(again.positions(), clip.positions())
    scene = clip.scene(clip.last_observed)
    assert scene.cameras[0].cam_to_world == clip.frames[clip.last_observed].cam_to_world
    assert [o.visible_pixels for o in scene.objects] == list(
        clip.frames[clip.last_observed].visible_pixels or ()
    )
    # Objects stand on the ground.
    for obj, position in zip(clip.objects, clip.frames[3].positions, strict=True):
        assert position[1] == pytest.approx(obj.size[1] / 2)


def test_clip_done_refuses_other_parameters(tmp_path: Path) -> None:
    from synth.clip_unit import generate_clip_unit

    generate_clip_unit(tmp_path, 0, PARAMS, BoxesRenderer(), "none")
    assert clip_done(tmp_path, 0, PARAMS)
    assert not clip_done(tmp_path, 1, PARAMS)
    (tmp_path / "frames/clip_000000/001.png").unlink()
    assert not clip_done(tmp_path, 0, PARAMS)
    with pytest.raises(GenerationError, match="other parameters"):
        clip_done(tmp_path, 0, ClipParameters(seed=9, resolution=32, video=False))


def test_bad_clip_files_name_the_field(tmp_path: Path) -> None:
    clip = build_clip(1, PARAMS, BoxesRenderer(), "none").clip
    data = json.loads(clip.to_json())
    last = clip.frame_count - 1  # a future frame: positions and yaws only
    data["frames"][last]["positions"] = data["frames"][last]["positions"][:-1]
    data["frames"][last]["yaws"] = data["frames"][last]["yaws"][:-1]
    with pytest.raises(SceneValidationError, match=rf"frames\[{last}\]\.positions: expected"):
        Clip.from_dict(data)
    data = json.loads(clip.to_json())
    del data["frames"][0]["visible_pixels"]
    with pytest.raises(SceneValidationError, match="observed frame needs visible pixels"):
        Clip.from_dict(data)
    data = json.loads(clip.to_json())
    data["frames"][2]["time"] = 1.0
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SceneValidationError, match=r"bad\.json: frames\[2\]\.time"):
        Clip.load(path)


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="16 frames"):
        ClipParameters(observed=(8, 20))
    with pytest.raises(ValueError, match="5 frames"):
        ClipParameters(horizon=(2, 3))
    with pytest.raises(ValueError, match="even"):
        ClipParameters(resolution=33)
