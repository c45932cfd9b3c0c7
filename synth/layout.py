"""Layout sampling, pure numpy: which objects a scene holds and where they stand.

Every object rests on the ground (its lowest point at the ground's height), turns only about
the vertical axis, keeps its whole footprint inside the ground's ranges, and keeps at least
``LayoutRules.gap`` metres between its footprint and every other one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from spatialbabel import CLASSES, PALETTE_NAMES, UNIT_EXTENTS, Ground, SceneObject, world_aabb
from spatialbabel.errors import SpatialBabelError
from synth.footprints import Footprint, clearance, footprint
from synth.tiers import Tier

#: Height of each class as a multiple of its footprint width (inclusive range); the torus keeps
#: the proportions of its unit shape.
HEIGHT_RATIOS: dict[str, tuple[float, float]] = {
    "cube": (1.0, 1.0),
    "sphere": (1.0, 1.0),
    "cylinder": (0.6, 1.4),
    "cone": (0.8, 1.5),
    "pyramid": (0.7, 1.2),
    "torus": (UNIT_EXTENTS["torus"][1] / UNIT_EXTENTS["torus"][0],) * 2,
}
assert set(HEIGHT_RATIOS) == set(CLASSES)

#: Classes whose look changes with a turn about Y; the others stand unturned. Cubes and
#: pyramids look the same every 90 degrees, so their yaw is drawn from [0, 90).
TURNING_CLASSES = frozenset({"cube", "pyramid"})

#: Decimal places kept in the scene file (millimetres and tenths of a degree).
LENGTH_DECIMALS = 3
ANGLE_DECIMALS = 1


class LayoutError(SpatialBabelError):
    """No layout satisfying the rules was found within the bounded number of tries."""


@dataclass(frozen=True)
class LayoutRules:
    ground: Ground = field(default_factory=Ground)
    #: Minimum distance between two footprints, in metres.
    gap: float = 0.05
    #: Positions drawn for one object before the whole layout is drawn again.
    placement_tries: int = 300
    #: Whole layouts drawn before giving up.
    layout_tries: int = 50


@dataclass(frozen=True)
class ObjectSpec:
    """What an object is, before it is placed: class, colour and size."""

    class_name: str
    color: str
    size: tuple[float, float, float]


def sample_specs(rng: np.random.Generator, tier: Tier) -> list[ObjectSpec]:
    """Object count, classes, colours and sizes of one scene; every (class, colour) pair is
    used at most once, so each object can be named by its colour and class alone."""
    lo, hi = tier.objects
    count = int(rng.integers(lo, hi + 1))
    pairs = [(c, k) for c in CLASSES for k in PALETTE_NAMES]
    chosen = rng.choice(len(pairs), size=count, replace=False)
    specs = []
    for pick in chosen:
        class_name, color = pairs[int(pick)]
        width = round(float(rng.uniform(*tier.scale)), LENGTH_DECIMALS)
        height = round(width * float(rng.uniform(*HEIGHT_RATIOS[class_name])), LENGTH_DECIMALS)
        specs.append(ObjectSpec(class_name, color, (width, height, width)))
    return specs


def _standing(
    spec: ObjectSpec, object_id: str, x: float, z: float, yaw: float, ground: Ground
) -> SceneObject:
    obj = SceneObject(
        object_id, spec.class_name, (x, 0.0, z), (0.0, yaw, 0.0), spec.size, color=spec.color
    )
    lowest = float(world_aabb(obj)[0][1])
    return replace(obj, position=(x, ground.height - lowest, z))


def _place(
    rng: np.random.Generator,
    spec: ObjectSpec,
    object_id: str,
    others: Sequence[Footprint],
    rules: LayoutRules,
) -> SceneObject | None:
    ground = rules.ground
    for _ in range(rules.placement_tries):
        yaw = 0.0
        if spec.class_name in TURNING_CLASSES:
            yaw = round(float(rng.uniform(0.0, 90.0)), ANGLE_DECIMALS) % 90.0
        probe = _standing(spec, object_id, 0.0, 0.0, yaw, ground)
        lo, hi = world_aabb(probe)
        # One rounding step inside the border, so the rounded position still keeps the object in.
        step = 10.0**-LENGTH_DECIMALS
        x_lo, x_hi = ground.x_range[0] - lo[0] + step, ground.x_range[1] - hi[0] - step
        z_lo, z_hi = ground.z_range[0] - lo[2] + step, ground.z_range[1] - hi[2] - step
        if x_lo > x_hi or z_lo > z_hi:
            raise LayoutError(
                f"object {object_id} ({spec.class_name}, size {spec.size}) does not fit on the ground"
            )
        x = round(float(rng.uniform(x_lo, x_hi)), LENGTH_DECIMALS)
        z = round(float(rng.uniform(z_lo, z_hi)), LENGTH_DECIMALS)
        candidate = _standing(spec, object_id, x, z, yaw, ground)
        mine = footprint(candidate)
        if all(clearance(mine, other) >= rules.gap for other in others):
            return candidate
    return None


def _spec_of(obj: SceneObject) -> ObjectSpec:
    assert obj.color is not None
    return ObjectSpec(obj.class_name, obj.color, obj.size)


def _by_width(specs: Sequence[ObjectSpec]) -> list[int]:
    # Widest first: the large objects find room while the ground is still empty.
    return sorted(range(len(specs)), key=lambda i: (-specs[i].size[0], i))


def sample_layout(
    rng: np.random.Generator, tier: Tier, rules: LayoutRules = LayoutRules()
) -> list[SceneObject]:
    """A new layout for ``tier``: objects ``obj0``..``objN-1`` in a random order."""
    specs = sample_specs(rng, tier)
    order = [int(i) for i in rng.permutation(len(specs))]
    ids = {i: f"obj{order.index(i)}" for i in range(len(specs))}
    for _ in range(rules.layout_tries):
        placed: dict[int, SceneObject] = {}
        for i in _by_width(specs):
            obj = _place(rng, specs[i], ids[i], [footprint(o) for o in placed.values()], rules)
            if obj is None:
                break
            placed[i] = obj
        else:
            return sorted(placed.values(), key=lambda o: int(o.id[3:]))
    raise LayoutError(
        f"could not place {len(specs)} objects of tier {tier.name} on the ground after {rules.layout_tries} layouts"
    )


def move_objects(
    rng: np.random.Generator,
    objects: Sequence[SceneObject],
    which: Sequence[int],
    rules: LayoutRules = LayoutRules(),
) -> list[SceneObject] | None:
    """The same objects with those at positions ``which`` moved to new places (and turns),
    the others kept; None when there is no room for them."""
    moving = set(which)
    kept = [o for i, o in enumerate(objects) if i not in moving]
    result = list(objects)
    for i in sorted(moving, key=lambda i: (-objects[i].size[0], i)):
        others = [footprint(o) for o in kept]
        obj = _place(rng, _spec_of(objects[i]), objects[i].id, others, rules)
        if obj is None:
            return None
        result[i] = obj
        kept.append(obj)
    return result
