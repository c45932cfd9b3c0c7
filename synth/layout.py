"""Layout sampling, pure numpy: which objects a scene holds and where they stand.

Every object turns only about the vertical axis and keeps its whole footprint inside the
ground's ranges. It rests on the ground (its lowest point at the ground's height) and keeps at
least ``LayoutRules.gap`` metres between its footprint and every other one on the ground; or,
with ``LayoutRules.stack_prob`` above 0, it may rest on the flat top of a cube or cylinder
already placed (``synth.stacking``): its footprint inside the support's top by
``stack_inset``, at least ``gap`` from the others resting on the same top, the stack no higher
than ``max_height``, and ``parent`` naming the support. At ``stack_prob`` 0 no random number
is drawn for stacking, so layouts are those of the generator before stacking existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from spatialbabel import CLASSES, PALETTE_NAMES, UNIT_EXTENTS, Ground, SceneObject, world_aabb
from spatialbabel.errors import SpatialBabelError
from spatialbabel.geometry.footprints import Footprint, clearance, contains, footprint
from spatialbabel.scene import descendants
from synth.stacking import is_support, top_of
from synth.tiers import TIERS, Tier

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

#: The highest a stack may reach: the tallest single object any tier holds, which the cameras
#: frame (synth/cameras.py), so they frame every stack too.
MAX_HEIGHT = max(t.scale[1] * HEIGHT_RATIOS[c][1] for t in TIERS.values() for c in CLASSES)

#: Positions drawn on one support before the next support is tried.
STACK_TRIES = 10


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
    #: Chance that an object is placed on a support (when one is placed already) rather than
    #: on the ground; it goes to the ground when no support has room for it.
    stack_prob: float = 0.0
    #: Metres between a resting object's footprint and the edge of its support's top.
    stack_inset: float = 0.02
    #: Highest point a stack may reach above the ground, in metres.
    max_height: float = MAX_HEIGHT

    def __post_init__(self) -> None:
        if not 0.0 <= self.stack_prob <= 1.0:
            raise ValueError(f"stack probability must lie in [0, 1], got {self.stack_prob}")


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
    spec: ObjectSpec,
    object_id: str,
    x: float,
    z: float,
    yaw: float,
    floor: float,
    parent: str | None = None,
) -> SceneObject:
    """The object with its lowest point at height ``floor`` (the ground's, or a support's top)."""
    obj = SceneObject(
        object_id,
        spec.class_name,
        (x, 0.0, z),
        (0.0, yaw, 0.0),
        spec.size,
        color=spec.color,
        parent=parent,
    )
    lowest = float(world_aabb(obj)[0][1])
    return replace(obj, position=(x, floor - lowest, z))


def _yaw(rng: np.random.Generator, spec: ObjectSpec) -> float:
    if spec.class_name in TURNING_CLASSES:
        return round(float(rng.uniform(0.0, 90.0)), ANGLE_DECIMALS) % 90.0
    return 0.0


def _place(
    rng: np.random.Generator,
    spec: ObjectSpec,
    object_id: str,
    others: Sequence[Footprint],
    rules: LayoutRules,
) -> SceneObject | None:
    ground = rules.ground
    for _ in range(rules.placement_tries):
        yaw = _yaw(rng, spec)
        probe = _standing(spec, object_id, 0.0, 0.0, yaw, ground.height)
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
        candidate = _standing(spec, object_id, x, z, yaw, ground.height)
        mine = footprint(candidate)
        if all(clearance(mine, other) >= rules.gap for other in others):
            return candidate
    return None


def _spot_on(
    rng: np.random.Generator, support: SceneObject, piece: Footprint, margin: float
) -> tuple[float, float] | None:
    """A centre (x, z), drawn uniformly, at which ``piece`` (a footprint centred at the origin)
    lies on the support's top with ``margin`` to spare; None when it cannot fit. A cylinder's
    top is a disc, a cube's a square along its own turned axes."""
    base = footprint(support)
    cx, cz = base.centre
    if base.radius is not None:
        reach = piece.radius
        if reach is None:
            assert piece.polygon is not None
            reach = float(np.hypot(piece.polygon[:, 0], piece.polygon[:, 1]).max())
        room = base.radius - reach - margin
        if room < 0.0:
            return None
        radius = room * float(np.sqrt(rng.random()))
        angle = float(rng.uniform(0.0, 2.0 * np.pi))
        return cx + radius * float(np.cos(angle)), cz + radius * float(np.sin(angle))
    rotation = support.rotation_matrix
    axes = np.array([[rotation[0, 0], rotation[2, 0]], [rotation[0, 2], rotation[2, 2]]])
    if piece.radius is not None:
        extents = np.array([piece.radius, piece.radius])
    else:
        assert piece.polygon is not None
        extents = np.abs(piece.polygon @ axes.T).max(axis=0)
    room = np.array([support.size[0], support.size[2]]) / 2.0 - extents - margin
    if np.any(room < 0.0):
        return None
    u, v = (float(rng.uniform(-r, r)) for r in room)
    x, z = np.array([cx, cz]) + u * axes[0] + v * axes[1]
    return float(x), float(z)


def _place_on_support(
    rng: np.random.Generator,
    spec: ObjectSpec,
    object_id: str,
    supports: Sequence[SceneObject],
    placed: Sequence[SceneObject],
    rules: LayoutRules,
) -> SceneObject | None:
    """The object resting on one of ``supports`` (tried in a random order), or None when none
    has room for it. Its footprint keeps ``stack_inset`` inside the support's top and ``gap``
    from the other objects on that top; objects elsewhere cannot meet it, since each stands
    on a footprint of its own that keeps ``gap`` from the support's."""
    # One rounding step more, so the position rounded to the millimetre still fits.
    margin = rules.stack_inset + 10.0**-LENGTH_DECIMALS
    for pick in rng.permutation(len(supports)):
        support = supports[int(pick)]
        floor = top_of(support)
        if floor + spec.size[1] > rules.max_height:
            continue
        base = footprint(support)
        siblings = [footprint(o) for o in placed if o.parent == support.id]
        for _ in range(STACK_TRIES):
            yaw = _yaw(rng, spec)
            spot = _spot_on(
                rng, support, footprint(_standing(spec, object_id, 0.0, 0.0, yaw, floor)), margin
            )
            if spot is None:
                break  # wider than this top: try the next support
            x, z = (round(v, LENGTH_DECIMALS) for v in spot)
            candidate = _standing(spec, object_id, x, z, yaw, floor, parent=support.id)
            mine = footprint(candidate)
            if contains(base, mine, rules.stack_inset) and all(
                clearance(mine, other) >= rules.gap for other in siblings
            ):
                return candidate
    return None


def _place_object(
    rng: np.random.Generator,
    spec: ObjectSpec,
    object_id: str,
    placed: Sequence[SceneObject],
    rules: LayoutRules,
) -> SceneObject | None:
    """The object on a support (with chance ``stack_prob``, when one is placed) or on the
    ground; None when the ground has no room for it."""
    if rules.stack_prob > 0.0:
        supports = [o for o in placed if is_support(o)]
        if supports and rng.random() < rules.stack_prob:
            stacked = _place_on_support(rng, spec, object_id, supports, placed, rules)
            if stacked is not None:
                return stacked
    return _place(rng, spec, object_id, [footprint(o) for o in placed], rules)


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
            obj = _place_object(rng, specs[i], ids[i], list(placed.values()), rules)
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
    the others kept; None when there is no room for them. Whatever rests on a moved object,
    directly or not, is placed anew as well (it may land on another support or the ground)."""
    moving = set(which)
    riding = {d for i in which for d in descendants(objects, objects[i].id)}
    moving |= {i for i, o in enumerate(objects) if o.id in riding}
    kept = [o for i, o in enumerate(objects) if i not in moving]
    result = list(objects)
    for i in sorted(moving, key=lambda i: (-objects[i].size[0], i)):
        obj = _place_object(rng, _spec_of(objects[i]), objects[i].id, kept, rules)
        if obj is None:
            return None
        result[i] = obj
        kept.append(obj)
    return result
