"""Spatial relations and comparisons between objects, as seen from a camera.

Each relation has two readings. The *strict* one, used on ground truth, applies margins and
answers HOLDS, FAILS (clearly the opposite, under every reading of the words) or UNCLEAR, so a
question is only asked where no reasonable reading could change its answer. The *plain* one,
used on scenes a model wrote, decides by sign alone.

Readings (docs/qa.md; the QA prompt states them as ``DEFINITIONS`` in synth/prompts.py):
left/right compare the object centres both in the camera frame's x and in the image's x; in
front/behind compare the centres' depth along the view axis and along the camera's heading on
the ground; above/below mean stacking: A is above B when A rests on B, its lowest point within
``CONTACT_GAP`` of B's highest point and their footprints overlapping; larger compares exact
volumes, taller the vertical extents of the exact geometry, closer the distances from the
camera centre and the depths. Every strict HOLDS or FAILS implies the plain reading's verdict,
so the generator's answers are what a model's exact reconstruction would give.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Final, Literal

import numpy as np

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.frames import Matrix
from spatialbabel.geometry.bounds import cached_world_aabb, world_aabb
from spatialbabel.geometry.footprints import Footprint, clearance, depth_inside, footprint
from spatialbabel.scene import Camera, SceneObject

Relation = Literal["left", "right", "in front", "behind", "above", "below"]
Axis = Literal["horizontal", "depth", "vertical"]
Comparison = Literal["larger", "taller", "closer"]

RELATIONS: Final[tuple[Relation, ...]] = ("left", "right", "in front", "behind", "above", "below")
OPPOSITE: Final[dict[Relation, Relation]] = {
    "left": "right",
    "right": "left",
    "in front": "behind",
    "behind": "in front",
    "above": "below",
    "below": "above",
}
#: How each relation reads before the object it relates to ("the cube to the left of ...").
RELATION_PHRASES: Final[dict[Relation, str]] = {
    "left": "to the left of",
    "right": "to the right of",
    "in front": "in front of",
    "behind": "behind",
    "above": "above",
    "below": "below",
}
#: The two answers of a question along each axis; the first is the one ``relation_truth`` tests.
AXES: Final[dict[Axis, tuple[Relation, Relation]]] = {
    "horizontal": ("left", "right"),
    "depth": ("in front", "behind"),
    "vertical": ("above", "below"),
}
COMPARISONS: Final[tuple[Comparison, ...]] = ("larger", "taller", "closer")
#: The relations that mean stacking (one object resting on another).
VERTICAL: Final[frozenset[Relation]] = frozenset(AXES["vertical"])

#: The stacking definition: A rests on B when A's lowest point lies within this many metres of
#: B's highest point (either side) and their footprints overlap.
CONTACT_GAP: Final = 0.05

#: Volume of each unit primitive (extents ``UNIT_EXTENTS``); a scaled object's volume is this
#: times the product of its scale factors.
UNIT_VOLUMES: Final[dict[str, float]] = {
    "cube": 1.0,
    "sphere": math.pi / 6.0,
    "cylinder": math.pi / 4.0,
    "cone": math.pi / 12.0,
    "pyramid": 1.0 / 3.0,
    "torus": 2.0 * math.pi**2 * TORUS_MAJOR_RADIUS * TORUS_MINOR_RADIUS**2,
}


class Truth(Enum):
    HOLDS = "holds"
    FAILS = "fails"
    UNCLEAR = "unclear"


@dataclass(frozen=True)
class Margins:
    """How clearly a relation must hold (or fail) on ground truth for a question to be asked."""

    #: Metres between centres along the camera's x axis (left/right).
    lateral: float = 0.4
    #: Fraction of the image width between projected centres (left/right).
    image: float = 0.04
    #: Metres between centres along the view axis and along the heading on the ground.
    depth: float = 0.4
    #: Metres by which the gap between A's bottom and B's top must clear ``CONTACT_GAP`` for
    #: above/below (resting: within CONTACT_GAP - contact; not resting: beyond CONTACT_GAP +
    #: contact).
    contact: float = 0.03
    #: Metres for the footprints in above/below: resting needs A's centre at least this far
    #: inside B's footprint; footprints at least this far apart clearly do not rest.
    overlap: float = 0.1
    #: Ratio of volumes for larger.
    volume_ratio: float = 1.5
    #: Ratio and difference (metres) of vertical extents for taller.
    height_ratio: float = 1.25
    height: float = 0.15
    #: Metres between distances from the camera centre for closer (the depths must also differ
    #: by ``depth``).
    distance: float = 0.4

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_MARGINS: Final = Margins()


@dataclass(frozen=True)
class ViewMeasures:
    """The facts about one object that every relation and comparison reads."""

    camera_x: float
    image_x: float
    depth: float
    ground_depth: float
    distance: float
    bottom: float
    top: float
    height: float
    volume: float
    #: The outline seen from straight above (stacking reads it).
    footprint: Footprint = field(compare=False)


def object_volume(obj: SceneObject) -> float:
    """Exact volume of the object's primitive (an unknown class counts as a box)."""
    unit = UNIT_EXTENTS.get(obj.class_name, (1.0, 1.0, 1.0))
    factor = float(np.prod(np.asarray(obj.size, dtype=float) / np.asarray(unit, dtype=float)))
    return UNIT_VOLUMES.get(obj.class_name, 1.0) * factor


def _ground_heading(camera: Camera) -> Matrix:
    pose = camera.pose
    forward = -pose[:3, 2]
    heading = np.array([forward[0], 0.0, forward[2]])
    if np.linalg.norm(heading) < 1e-9:
        # Looking straight down: "further" is the image's upward direction on the ground.
        up = pose[:3, 1]
        heading = np.array([up[0], 0.0, up[2]])
    return heading / np.linalg.norm(heading)


def measure(obj: SceneObject, camera: Camera) -> ViewMeasures:
    centre = np.asarray(obj.position, dtype=float)
    pixels, depth = camera.project(centre)
    low, high = world_aabb(obj)
    offset = centre - np.asarray(camera.position, dtype=float)
    return ViewMeasures(
        camera_x=float(camera.world_to_camera(centre[None, :])[0, 0]),
        image_x=float(pixels[0, 0]) / camera.width,
        depth=float(depth[0]),
        ground_depth=float(offset @ _ground_heading(camera)),
        distance=float(np.linalg.norm(offset)),
        bottom=float(low[1]),
        top=float(high[1]),
        height=float(high[1] - low[1]),
        volume=object_volume(obj),
        footprint=footprint(obj),
    )


def _all_at_least(values: tuple[float, ...], limits: tuple[float, ...]) -> bool:
    return all(v >= m for v, m in zip(values, limits, strict=True))


def _separation(values: tuple[float, ...], limits: tuple[float, ...]) -> Truth:
    """HOLDS when every signed difference clears its margin, FAILS when every one clears it
    the other way, UNCLEAR otherwise."""
    if _all_at_least(values, limits):
        return Truth.HOLDS
    if _all_at_least(tuple(-v for v in values), limits):
        return Truth.FAILS
    return Truth.UNCLEAR


def _rests_on(a: ViewMeasures, b: ViewMeasures, margins: Margins) -> Truth:
    """Whether ``a`` rests on ``b``: a's bottom within ``CONTACT_GAP`` of b's top and their
    footprints overlapping, each clear of its margin."""
    gap = abs(a.bottom - b.top)
    if gap <= CONTACT_GAP - margins.contact and (
        depth_inside(a.footprint.centre, b.footprint) >= margins.overlap
    ):
        return Truth.HOLDS
    if gap >= CONTACT_GAP + margins.contact or (
        clearance(a.footprint, b.footprint) >= margins.overlap
    ):
        return Truth.FAILS
    return Truth.UNCLEAR


def rests_on_truth(a: SceneObject, b: SceneObject, margins: Margins = DEFAULT_MARGINS) -> Truth:
    """Whether ``a`` rests on ``b`` (the strict reading of ``a`` above ``b``), from the objects
    alone: stacking needs no camera."""
    (_, a_bottom, _), (_, b_top, _) = cached_world_aabb(a)[0], cached_world_aabb(b)[1]
    if abs(float(a_bottom) - float(b_top)) >= CONTACT_GAP + margins.contact:
        return Truth.FAILS  # too far apart up or down, whatever the footprints

    def vertical(obj: SceneObject) -> ViewMeasures:
        low, high = cached_world_aabb(obj)
        nan = float("nan")
        return ViewMeasures(
            nan, nan, nan, nan, nan, float(low[1]), float(high[1]), float(high[1] - low[1]), nan,
            footprint(obj),
        )  # fmt: skip

    return _rests_on(vertical(a), vertical(b), margins)


def relation_truth(relation: Relation, a: ViewMeasures, b: ViewMeasures, margins: Margins) -> Truth:
    """Whether ``a`` is ``relation`` ``b`` (``left``: a is to the left of b) beyond the margins."""
    if relation == "left":
        return _separation(
            (b.camera_x - a.camera_x, b.image_x - a.image_x), (margins.lateral, margins.image)
        )
    if relation == "in front":
        return _separation(
            (b.depth - a.depth, b.ground_depth - a.ground_depth), (margins.depth, margins.depth)
        )
    if relation == "above":
        return _rests_on(a, b, margins)
    return relation_truth(OPPOSITE[relation], b, a, margins)


def relation_plain(relation: Relation, a: ViewMeasures, b: ViewMeasures) -> bool:
    """Whether ``a`` is ``relation`` ``b`` by sign alone (above: a rests on b by the
    definition itself, with no margin)."""
    if relation == "left":
        return a.camera_x < b.camera_x
    if relation == "in front":
        return a.depth < b.depth
    if relation == "above":
        return abs(a.bottom - b.top) < CONTACT_GAP and clearance(a.footprint, b.footprint) == 0.0
    return relation_plain(OPPOSITE[relation], b, a)


def comparison_truth(
    comparison: Comparison, a: ViewMeasures, b: ViewMeasures, margins: Margins
) -> Truth:
    """HOLDS when ``a`` is clearly ``comparison`` than ``b`` (larger, taller, closer to the
    camera), FAILS when ``b`` clearly is, UNCLEAR otherwise."""
    if comparison == "larger":
        if a.volume > 0 and a.volume >= margins.volume_ratio * b.volume:
            return Truth.HOLDS
        if b.volume > 0 and b.volume >= margins.volume_ratio * a.volume:
            return Truth.FAILS
        return Truth.UNCLEAR
    if comparison == "taller":
        for first, second, verdict in ((a, b, Truth.HOLDS), (b, a, Truth.FAILS)):
            if (
                first.height - second.height >= margins.height
                and first.height >= margins.height_ratio * second.height
            ):
                return verdict
        return Truth.UNCLEAR
    return _separation(
        (b.distance - a.distance, b.depth - a.depth), (margins.distance, margins.depth)
    )


def comparison_plain(comparison: Comparison, a: ViewMeasures, b: ViewMeasures) -> bool | None:
    """True when ``a`` wins by sign alone, False when ``b`` does, None on a tie."""
    if comparison == "larger":
        first, second = a.volume, b.volume
    elif comparison == "taller":
        first, second = a.height, b.height
    else:
        first, second = b.distance, a.distance
    if first == second:
        return None
    return first > second


__all__ = [
    "AXES",
    "COMPARISONS",
    "CONTACT_GAP",
    "DEFAULT_MARGINS",
    "OPPOSITE",
    "RELATIONS",
    "RELATION_PHRASES",
    "UNIT_VOLUMES",
    "VERTICAL",
    "Axis",
    "Comparison",
    "Margins",
    "Relation",
    "Truth",
    "ViewMeasures",
    "comparison_plain",
    "comparison_truth",
    "measure",
    "object_volume",
    "relation_plain",
    "relation_truth",
    "rests_on_truth",
]
