"""Does a reply's static parse agree with what its engine built? The audit's criterion.

The two scenes are matched as the scorer matches a prediction to the truth (``scoring.matching.
match_centres``: scipy's Hungarian solver on the objects' centres). They agree when:

- they have the same number of objects;
- every matched pair has the same class;
- their centres lie within ``position`` x the scene's extent (the diagonal of the engine
  scene's box, ``scoring.boxes.scene_extent``, the same extent position errors are scored
  against), and at least ``floor`` apart is always tolerated;
- their exact shapes' world boxes (``spatialbabel.geometry.bounds.world_aabb``: size and rotation
  together, so that a cube turned by 90° is the same cube) have extents within ``size`` x the
  object's largest extent (at least ``floor``).

Colours do not enter the verdict (the score has no colour term); a colour the two read apart is
named in the diff all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from scoring.boxes import scene_extent
from scoring.matching import match_centres
from spatialbabel import Scene, SceneObject
from spatialbabel.geometry.bounds import world_aabb

#: At most this many differences are named in a diff line.
SHOWN: Final = 3


@dataclass(frozen=True)
class Criterion:
    position: float = 0.01
    size: float = 0.01
    floor: float = 1e-3

    def to_dict(self) -> dict[str, float]:
        return {"position": self.position, "size": self.size, "floor": self.floor}


@dataclass(frozen=True)
class AgreementVerdict:
    agrees: bool
    #: The differences, as one line ('' when they agree and no colour differs).
    diff: str


def _vector(values: NDArray[np.float64]) -> str:
    return "(" + ", ".join(f"{v:.3g}" for v in values) + ")"


def _extents(obj: SceneObject) -> NDArray[np.float64]:
    lo, hi = world_aabb(obj)
    return np.asarray(hi - lo, dtype=float)


def compare(parsed: Scene, engine: Scene, criterion: Criterion = Criterion()) -> AgreementVerdict:
    """The verdict on ``parsed`` (the static parse) against ``engine`` (what the engine built)."""
    problems: list[str] = []
    notes: list[str] = []
    n_parsed, n_engine = len(parsed.objects), len(engine.objects)
    if n_parsed != n_engine:
        problems.append(f"{n_parsed} objects parsed, the engine built {n_engine}")
    extent = scene_extent(engine.objects or parsed.objects)
    tolerance = max(criterion.floor, criterion.position * extent)
    matching = match_centres(
        np.array([o.position for o in parsed.objects], dtype=float).reshape(-1, 3),
        np.array([o.position for o in engine.objects], dtype=float).reshape(-1, 3),
    )
    for pair in matching.pairs:
        mine, theirs = parsed.objects[pair.predicted], engine.objects[pair.true]
        label = f"{theirs.id}"
        if mine.class_name != theirs.class_name:
            problems.append(
                f"{label}: parsed a {mine.class_name}, the engine built a {theirs.class_name}"
            )
        if pair.distance > tolerance:
            problems.append(
                f"{label}: centre {_vector(np.asarray(mine.position))}, the engine's "
                f"{_vector(np.asarray(theirs.position))} ({pair.distance:.3g} apart)"
            )
        mine_extents, their_extents = _extents(mine), _extents(theirs)
        size_tolerance = max(criterion.floor, criterion.size * float(their_extents.max()))
        if np.any(np.abs(mine_extents - their_extents) > size_tolerance):
            problems.append(
                f"{label}: box {_vector(mine_extents)}, the engine's {_vector(their_extents)}"
            )
        if mine.color != theirs.color:
            notes.append(f"{label}: colour {mine.color}, the engine's {theirs.color}")
    for index in matching.unmatched_true:
        obj = engine.objects[index]
        problems.append(f"{obj.id}: a {obj.class_name} the parse lacks")
    for index in matching.unmatched_predicted:
        obj = parsed.objects[index]
        problems.append(f"parsed {obj.id}: a {obj.class_name} the engine did not build")
    shown = problems[:SHOWN]
    if len(problems) > SHOWN:
        shown.append(f"and {len(problems) - SHOWN} more")
    if not problems and notes:
        shown = [f"(agrees; {n})" for n in notes[:1]]
    elif notes:
        shown.append(f"({notes[0]})")
    return AgreementVerdict(not problems, "; ".join(shown))
