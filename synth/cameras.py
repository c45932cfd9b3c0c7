"""The cameras of a generated scene: the frontal view and the optional views around it.

All cameras look at the origin from the same height and distance. The frontal camera
("front", ``Scene.cameras[0]``) sits on the +Z side; ``view1``..``view{K-1}`` turn about the
vertical axis by 360/K degrees each. The field of view frames the whole ground with the tallest
objects a tier can hold (tests/synth/test_cameras.py checks the margins): the frontal one is
tighter, since from +Z the square ground is narrowest; the others must fit it at any turn.
"""

from __future__ import annotations

import math
from typing import Final

from spatialbabel import Camera

ELEVATION_DEG: Final = 45.0
DISTANCE: Final = 11.0
FRONT_FOV_Y_DEG: Final = 44.0
VIEW_FOV_Y_DEG: Final = 50.0
FRONT_NAME: Final = "front"


def view_name(k: int) -> str:
    return FRONT_NAME if k == 0 else f"view{k}"


def scene_cameras(views: int, resolution: int) -> tuple[Camera, ...]:
    """``views`` cameras (at least 1), square images of ``resolution`` pixels."""
    if views < 1:
        raise ValueError(f"views must be at least 1, got {views}")
    elevation = math.radians(ELEVATION_DEG)
    cameras = []
    for k in range(views):
        azimuth = 2.0 * math.pi * k / views
        horizontal = DISTANCE * math.cos(elevation)
        eye = (
            round(horizontal * math.sin(azimuth), 9),
            round(DISTANCE * math.sin(elevation), 9),
            round(horizontal * math.cos(azimuth), 9),
        )
        fov = FRONT_FOV_Y_DEG if k == 0 else VIEW_FOV_Y_DEG
        cameras.append(
            Camera.looking_at(view_name(k), eye, width=resolution, height=resolution, fov_y_deg=fov)
        )
    return tuple(cameras)
