"""Candidate cameras for view selection (SpaceCast's view chains), pure numpy.

Besides the split's own cameras (which frame the whole ground, so every object shows in them),
a question suite that must show one group of objects without another needs narrower views, from
inside the scene and from its rim:

- *inside*: standing on a 3 x 3 grid of points of the ground (x, z in {-1.5, 0, 1.5}) that keep
  ``CLEARANCE`` from every object's footprint, eyes at ``EYE_HEIGHT``, looking in the eight
  directions of the compass, ``PITCH_DEG`` down, ``INSIDE_FOV_Y_DEG`` field of view;
- *rim*: standing a metre off the ground's edge at ``RIM_POINTS`` points round it (evenly by
  angle about the centre, on the square ``RIM_RADIUS`` from the centre line of the ground's
  sides), looking towards the centre and ``RIM_TURNS_DEG`` either side of it, with
  ``RIM_FOV_Y_DEG``. Sixteen points of five headings give views enough that show two or three
  objects wholly, which a chain of views needs to share an object from view to view.

Each is a ``Camera`` with its ``K`` and pose, square at the given resolution, named by where it
stands and where it looks (``in4_h090``: grid point 4, heading 90 degrees clockwise from -Z;
``rim02_l35``: rim point 2, turned 35 degrees left). They depend on the scene only through which
grid points are free, so the same scene always gives the same candidates.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from spatialbabel import Camera, Scene
from spatialbabel.geometry.footprints import Footprint, clearance, footprint

EYE_HEIGHT: Final = 1.1
PITCH_DEG: Final = 20.0
INSIDE_FOV_Y_DEG: Final = 55.0
RIM_FOV_Y_DEG: Final = 50.0
#: Half the side of the square the rim cameras stand on (the ground's half side is 3 m).
RIM_RADIUS: Final = 4.0
RIM_POINTS: Final = 16
#: Headings of the rim cameras, degrees clockwise from the centre's direction (negative: left).
RIM_TURNS_DEG: Final = (-35.0, -17.5, 0.0, 17.5, 35.0)
#: Metres between an inside camera's standing point and every object's footprint.
CLEARANCE: Final = 0.45
GRID: Final = (-1.5, 0.0, 1.5)
HEADINGS_DEG: Final = tuple(45.0 * k for k in range(8))


@lru_cache(maxsize=1024)
def _looking(
    name: str, eye: tuple[float, float, float], heading_deg: float, fov: float, resolution: int
) -> Camera:
    """A camera at ``eye`` looking along ``heading_deg`` (clockwise from -Z seen from above),
    pitched ``PITCH_DEG`` down. Cached: scenes share their candidates' spots (cameras are
    frozen values)."""
    heading, pitch = math.radians(heading_deg), math.radians(PITCH_DEG)
    forward = (
        math.sin(heading) * math.cos(pitch),
        -math.sin(pitch),
        -math.cos(heading) * math.cos(pitch),
    )
    target = (eye[0] + forward[0], eye[1] + forward[1], eye[2] + forward[2])
    return Camera.looking_at(name, eye, target, width=resolution, height=resolution, fov_y_deg=fov)


def free_grid_points(scene: Scene) -> list[int]:
    """Indices (into the 3 x 3 grid, row by row in z then x) of the points far enough from
    every object to stand on."""
    prints = [footprint(o) for o in scene.objects]
    free = []
    for index, (z, x) in enumerate((z, x) for z in GRID for x in GRID):
        spot = Footprint((x, z), radius=0.0)
        if all(clearance(spot, other) >= CLEARANCE for other in prints):
            free.append(index)
    return free


def candidate_cameras(scene: Scene, resolution: int = 512) -> tuple[Camera, ...]:
    """The inside and rim candidates of ``scene``, inside first."""
    cameras = []
    points = [(x, z) for z in GRID for x in GRID]
    for index in free_grid_points(scene):
        x, z = points[index]
        for heading in HEADINGS_DEG:
            cameras.append(
                _looking(
                    f"in{index}_h{int(heading):03d}",
                    (x, EYE_HEIGHT, z),
                    heading,
                    INSIDE_FOV_Y_DEG,
                    resolution,
                )
            )
    for k in range(RIM_POINTS):
        # Round the square ground, off its edge, evenly by angle about the centre.
        angle = 2.0 * math.pi * k / RIM_POINTS
        reach = RIM_RADIUS / max(abs(math.sin(angle)), abs(math.cos(angle)))
        eye = (
            round(reach * math.sin(angle), 9),
            EYE_HEIGHT,
            round(reach * math.cos(angle), 9),
        )
        # Heading of the centre from the eye, clockwise from -Z.
        towards = math.degrees(math.atan2(-eye[0], eye[2]))
        for turn in RIM_TURNS_DEG:
            label = "c" if turn == 0 else f"{'l' if turn < 0 else 'r'}{int(abs(turn)):02d}"
            cameras.append(
                _looking(f"rim{k:02d}_{label}", eye, towards + turn, RIM_FOV_Y_DEG, resolution)
            )
    return tuple(cameras)


__all__ = ["candidate_cameras", "free_grid_points"]
