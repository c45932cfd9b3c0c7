"""SpaceCast's sixteen task types: level, relation, frame and change of each (docs/spacecast.md).

- static (identity change): direction in the camera's, an object's and the world's frame,
  distance, occlusion, attachment;
- local (one root moved, orbited or removed, with what rests on it): direction after a move or
  an orbit (its frame drawn per item), distance after a move or an orbit, occlusion after a
  move, an orbit or a removal;
- global (the whole layout turned, cameras fixed): direction in each frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Level = Literal["static", "local", "global"]
RelationKind = Literal["direction", "distance", "occlusion", "attachment"]
Change = Literal["none", "move", "orbit", "remove", "turn"]
Frame = Literal["camera", "object", "world"]
FRAMES: Final[tuple[Frame, ...]] = ("camera", "object", "world")


@dataclass(frozen=True)
class Task:
    name: str
    level: Level
    relation: RelationKind
    change: Change
    #: The frame of a direction task; None for other relations, or when drawn per item.
    frame: Frame | None = None

    @property
    def single_view(self) -> bool:
        """Occlusion is asked of one named view, attachment of one view showing the stack."""
        return self.relation in ("occlusion", "attachment")


TASKS: Final = {
    task.name: task
    for task in (
        Task("static_cam_dir", "static", "direction", "none", "camera"),
        Task("static_obj_dir", "static", "direction", "none", "object"),
        Task("static_world_dir", "static", "direction", "none", "world"),
        Task("static_dist", "static", "distance", "none"),
        Task("static_occ", "static", "occlusion", "none"),
        Task("static_att", "static", "attachment", "none"),
        Task("move_dir", "local", "direction", "move"),
        Task("move_dist", "local", "distance", "move"),
        Task("move_occ", "local", "occlusion", "move"),
        Task("orbit_dir", "local", "direction", "orbit"),
        Task("orbit_dist", "local", "distance", "orbit"),
        Task("orbit_occ", "local", "occlusion", "orbit"),
        Task("remove_occ", "local", "occlusion", "remove"),
        Task("turn_cam_dir", "global", "direction", "turn", "camera"),
        Task("turn_obj_dir", "global", "direction", "turn", "object"),
        Task("turn_world_dir", "global", "direction", "turn", "world"),
    )
}
TASK_NAMES: Final = tuple(TASKS)

#: The chance of a random guess per relation: 4 options, 4 bins, 3 states, 8 answer sets.
CHANCE: Final[dict[RelationKind, float]] = {
    "direction": 0.25,
    "distance": 0.25,
    "occlusion": 1.0 / 3.0,
    "attachment": 0.125,
}

__all__ = ["CHANCE", "FRAMES", "TASKS", "TASK_NAMES", "Change", "Frame", "Level", "Task"]
