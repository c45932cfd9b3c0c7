"""SpaceCast's labels on one state of a scene (before or after a change), from the hub's exact
geometry: directions in 8 sectors plus resting on (``spatialbabel.geometry.directions``,
``spatialbabel.geometry.relations.rests_on_truth``), surface distances in four bins
(``spatialbabel.geometry.distances``), occlusion in three states (``spatialbabel.geometry.occlusion``) and the
set of objects that move with a root (``Scene.descendants``). Each returns None where the
answer lies within a margin: such questions are not asked.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Scene
from spatialbabel.geometry.directions import CARDINALS, SECTORS, sector
from spatialbabel.geometry.distances import surface_distance
from spatialbabel.geometry.occlusion import OcclusionState, PixelCount, ViewCaster, occlusion_state
from spatialbabel.geometry.relations import Truth, rests_on_truth

#: Bin edges of surface distances (metres) and the margin kept from each.
DISTANCE_EDGES: Final = (1.0, 2.0, 3.3)
DISTANCE_MARGIN: Final = 0.1
DISTANCE_BINS: Final = ("less than 1.0 m", "1.0 m to 2.0 m", "2.0 m to 3.3 m", "more than 3.3 m")
ABOVE: Final = "above"
BELOW: Final = "below"

#: Pixel stride of the occlusion casts (every other pixel each way), doubled for a target whose
#: window (grown by the ring) holds ``OCCLUSION_LARGE`` grid pixels or more at that stride.
OCCLUSION_STRIDE: Final = 2
OCCLUSION_LARGE: Final = 1000


def distance_bin(distance: float) -> int | None:
    """The bin of a distance, None within ``DISTANCE_MARGIN`` of an edge."""
    if any(abs(distance - edge) < DISTANCE_MARGIN for edge in DISTANCE_EDGES):
        return None
    return sum(distance > edge for edge in DISTANCE_EDGES)


def distance_label(state: Scene, first: str, second: str) -> tuple[str | None, float]:
    d = surface_distance(state.get_object(first), state.get_object(second))
    index = distance_bin(d)
    return (None if index is None else DISTANCE_BINS[index]), d


def direction_label(
    state: Scene, target: str, reference: str, forward: NDArray[np.float64], *, world: bool
) -> str | None:
    """Where ``target`` is from ``reference`` in the frame ``forward``: ``above`` when it rests
    on it, ``below`` when the reference rests on it, else the sector of centre to centre."""
    a, b = state.get_object(target), state.get_object(reference)
    on, under = rests_on_truth(a, b), rests_on_truth(b, a)
    if on is Truth.HOLDS:
        return ABOVE
    if under is Truth.HOLDS:
        return BELOW
    if Truth.UNCLEAR in (on, under):
        return None
    index = sector(b.position, a.position, forward)
    if index is None:
        return None
    return (CARDINALS if world else SECTORS)[index]


def occlusion_count(caster: ViewCaster, state: Scene, target: str, camera: int) -> PixelCount:
    """The occlusion casts of ``target`` in ``state`` from camera number ``camera`` of
    ``caster`` (whose cache the states of one scene share)."""
    index = next(i for i, o in enumerate(state.objects) if o.id == target)
    return caster.count(state.objects, index, camera, OCCLUSION_STRIDE, large=OCCLUSION_LARGE)


def occlusion_label(
    caster: ViewCaster, state: Scene, target: str, camera: int
) -> OcclusionState | None:
    """The occlusion state of ``target`` in ``state`` from camera number ``camera``."""
    return occlusion_state(occlusion_count(caster, state, target, camera))


def moving_with(state: Scene, root: str) -> frozenset[str]:
    return frozenset(state.descendants(root))


__all__ = [
    "ABOVE",
    "BELOW",
    "DISTANCE_BINS",
    "DISTANCE_EDGES",
    "DISTANCE_MARGIN",
    "OCCLUSION_LARGE",
    "OCCLUSION_STRIDE",
    "direction_label",
    "distance_bin",
    "distance_label",
    "moving_with",
    "occlusion_count",
    "occlusion_label",
]
