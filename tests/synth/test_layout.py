"""Layout sampling without Blender: every object on the ground, inside the plane, apart."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from spatialbabel import CLASSES, PALETTE_NAMES, Ground, SceneObject, world_aabb
from spatialbabel.geometry.footprints import Footprint, clearance, footprint
from synth.layout import HEIGHT_RATIOS, LayoutError, LayoutRules, move_objects, sample_layout
from synth.tiers import TIER_NAMES, TIERS, parse_tiers, tier_of
from tests.synth.geometry_checks import (
    covers,
    footprints_apart,
    inside,
    on_ground,
    upright,
    yaw_only,
)

RULES = LayoutRules()


@pytest.mark.parametrize("tier_name", TIER_NAMES)
@pytest.mark.parametrize("seed", range(6))
def test_layouts_keep_every_contract(tier_name: str, seed: int) -> None:
    tier = TIERS[tier_name]
    objects = sample_layout(np.random.default_rng([seed, 7]), tier, RULES)
    assert tier.objects[0] <= len(objects) <= tier.objects[1]
    assert [o.id for o in objects] == [f"obj{i}" for i in range(len(objects))]
    assert len({(o.class_name, o.color) for o in objects}) == len(objects)
    for obj in objects:
        assert on_ground(obj, RULES.ground), obj
        assert inside(obj, RULES.ground), obj
        assert yaw_only(obj), obj
        assert tier.scale[0] <= obj.size[0] <= tier.scale[1]
        assert obj.size[0] == obj.size[2]
        low, high = HEIGHT_RATIOS[obj.class_name]
        assert low * obj.size[0] - 1e-3 <= obj.size[1] <= high * obj.size[0] + 1e-3
        if obj.class_name not in ("cube", "pyramid"):
            assert obj.rotation == (0.0, 0.0, 0.0)
        else:
            assert 0.0 <= obj.rotation[1] < 90.0
    for a, b in itertools.combinations(objects, 2):
        assert footprints_apart(a, b, RULES.gap), (a, b)


def test_same_generator_state_gives_the_same_layout() -> None:
    first = sample_layout(np.random.default_rng(11), TIERS["T4"])
    second = sample_layout(np.random.default_rng(11), TIERS["T4"])
    third = sample_layout(np.random.default_rng(12), TIERS["T4"])
    assert first == second
    assert first != third


def test_every_class_and_colour_appears_over_many_scenes() -> None:
    seen = set()
    for seed in range(30):
        seen |= {
            (o.class_name, o.color) for o in sample_layout(np.random.default_rng(seed), TIERS["T5"])
        }
    assert {c for c, _ in seen} == set(CLASSES)
    assert {k for _, k in seen} == set(PALETTE_NAMES)


def test_moving_objects_keeps_the_others_and_the_contracts() -> None:
    rng = np.random.default_rng(3)
    objects = sample_layout(rng, TIERS["T3"])
    moved = move_objects(rng, objects, [0, 2])
    assert moved is not None
    assert [o.id for o in moved] == [o.id for o in objects]
    for i, (before, after) in enumerate(zip(objects, moved, strict=True)):
        same_kind = (before.class_name, before.color, before.size) == (
            after.class_name,
            after.color,
            after.size,
        )
        assert same_kind
        if i in (0, 2):
            assert before.position != after.position
        else:
            assert before == after
    for a, b in itertools.combinations(moved, 2):
        assert footprints_apart(a, b, RULES.gap)
    assert all(on_ground(o, RULES.ground) and inside(o, RULES.ground) for o in moved)


def test_a_ground_too_small_is_a_clear_error() -> None:
    tiny = LayoutRules(ground=Ground(x_range=(-0.3, 0.3), z_range=(-0.3, 0.3)))
    with pytest.raises(LayoutError, match="does not fit on the ground"):
        sample_layout(np.random.default_rng(0), TIERS["T1"], tiny)


def test_a_crowded_ground_gives_up_after_bounded_tries() -> None:
    crowded = LayoutRules(
        ground=Ground(x_range=(-1.5, 1.5), z_range=(-1.5, 1.5)), placement_tries=20, layout_tries=3
    )
    with pytest.raises(LayoutError, match="after 3 layouts"):
        sample_layout(np.random.default_rng(0), TIERS["T5"], crowded)


def test_ground_height_is_honoured() -> None:
    raised = LayoutRules(ground=Ground(height=0.25))
    for obj in sample_layout(np.random.default_rng(1), TIERS["T2"], raised):
        assert on_ground(obj, raised.ground)


# -- footprints ----------------------------------------------------------------------------


def test_clearance_of_known_pairs() -> None:
    assert clearance(
        footprint(upright("sphere", 0, 0, 1)), footprint(upright("cylinder", 2, 0, 1))
    ) == pytest.approx(1.0)
    assert clearance(
        footprint(upright("cube", 0, 0, 1)), footprint(upright("cube", 1.5, 0, 1))
    ) == pytest.approx(0.5)
    # A cube turned by 45 degrees reaches sqrt(2)/2 along X.
    turned = footprint(upright("cube", 0, 0, 1, 45.0))
    assert clearance(turned, footprint(upright("cube", 2, 0, 1))) == pytest.approx(
        1.5 - math.sqrt(0.5)
    )
    assert clearance(turned, footprint(upright("sphere", 0, 2, 1))) == pytest.approx(
        1.5 - math.sqrt(0.5)
    )
    assert clearance(
        footprint(upright("pyramid", 0, 0, 1)), footprint(upright("torus", 0.9, 0.9, 1))
    ) == pytest.approx(math.hypot(0.4, 0.4) - 0.5)
    assert (
        clearance(footprint(upright("cube", 0, 0, 1)), footprint(upright("cube", 0.2, 0.1, 1, 30)))
        == 0.0
    )


def _sampled_distance(a: SceneObject, b: SceneObject) -> float:
    """Distance between footprints from a 5 mm grid over both (scipy's k-d tree for the pairs)."""
    lo = np.minimum(world_aabb(a)[0], world_aabb(b)[0])[[0, 2]] - 0.05
    hi = np.maximum(world_aabb(a)[1], world_aabb(b)[1])[[0, 2]] + 0.05
    xs, zs = np.arange(lo[0], hi[0], 0.005), np.arange(lo[1], hi[1], 0.005)
    grid = np.array(np.meshgrid(xs, zs)).reshape(2, -1).T
    in_a, in_b = covers(a, grid, 0.0), covers(b, grid, 0.0)
    if np.any(in_a & in_b):
        return 0.0
    distances, _ = cKDTree(grid[in_b]).query(grid[in_a])
    return float(distances.min())


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CLASSES),
    st.sampled_from(CLASSES),
    st.floats(-1.5, 1.5),
    st.floats(-1.5, 1.5),
    st.floats(0, 90),
    st.floats(0, 90),
)
def test_clearance_matches_dense_sampling(
    a_class: str, b_class: str, x: float, z: float, yaw_a: float, yaw_b: float
) -> None:
    a = upright(a_class, 0.0, 0.0, 1.0, yaw_a if a_class in ("cube", "pyramid") else 0.0)
    b = upright(b_class, x, z, 0.8, yaw_b if b_class in ("cube", "pyramid") else 0.0)
    # Grid points lie inside the shapes, so the sampled distance is never shorter than the true
    # one, and each shape has a grid point within a diagonal step (7.1 mm) of its nearest point.
    exact, sampled = clearance(footprint(a), footprint(b)), _sampled_distance(a, b)
    assert exact <= sampled + 1e-9
    assert sampled - exact <= 0.015


def test_turned_round_objects_keep_a_polygon_footprint() -> None:
    tilted = SceneObject("o", "cylinder", (0, 1, 0), (90.0, 0.0, 0.0), (1, 2, 1), color="red")
    print_ = footprint(tilted)
    assert isinstance(print_, Footprint) and print_.radius is None and print_.polygon is not None
    assert print_.polygon[:, 1].max() - print_.polygon[:, 1].min() == pytest.approx(2.0)


# -- tiers ---------------------------------------------------------------------------------


def test_tiers_are_balanced_over_indices() -> None:
    counts = {name: 0 for name in TIER_NAMES}
    for index in range(1000):
        counts[tier_of(index).name] += 1
    assert set(counts.values()) == {200}
    assert [tier_of(i, ("T2", "T5")).name for i in range(4)] == ["T2", "T5", "T2", "T5"]


def test_tier_names_are_checked() -> None:
    assert parse_tiers(["t1", "T3"]) == ("T1", "T3")
    with pytest.raises(ValueError, match="unknown tier 'T9'"):
        parse_tiers(["T9"])
    with pytest.raises(ValueError, match="listed twice"):
        parse_tiers(["T1", "T1"])
    with pytest.raises(ValueError, match="negative"):
        tier_of(-1)
