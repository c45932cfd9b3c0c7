"""The furniture scene the importer tests build: pieces made of boxes, placed by hand.

Each piece is parts (box sizes and local centres, Blender frame: Z up) under one parent, placed
at a location and turned by a yaw about the vertical. Its true box is worked out here from the
parts, independently of any importer: the union of the parts' boxes in the piece's own frame,
then placed. ``OUTSIDE`` are the pieces the camera cannot see (one behind it, one far to its
side): the FOV filter must drop exactly those.

Importing this module imports no engine; ``tests.importers.blender_furniture`` builds the scene
in bpy from ``spec()``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Part = tuple[tuple[float, float, float], tuple[float, float, float]]


def _legs(half_x: float, half_y: float, side: float, height: float) -> list[Part]:
    return [
        ((side, side, height), (sx * half_x, sy * half_y, height / 2))
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


#: name -> (parts, location (x, y) on the floor, yaw in degrees about +Z).
PIECES: dict[str, tuple[list[Part], tuple[float, float], float]] = {
    # A table of 5 boxes: the top and four legs.
    "Table": (
        [((1.2, 0.8, 0.05), (0.0, 0.0, 0.725)), *_legs(0.55, 0.35, 0.05, 0.7)],
        (0.9, 0.4),
        0.0,
    ),
    # A chair of 6 boxes: seat, back and four legs, turned towards the table.
    "Chair": (
        [
            ((0.45, 0.45, 0.05), (0.0, 0.0, 0.45)),
            ((0.45, 0.05, 0.5), (0.0, 0.2, 0.725)),
            *_legs(0.2, 0.2, 0.04, 0.425),
        ],
        (-0.4, 0.2),
        30.0,
    ),
    # A couch of 4 boxes: base, back and two arms.
    "Couch": (
        [
            ((2.0, 0.9, 0.4), (0.0, 0.0, 0.2)),
            ((2.0, 0.2, 0.5), (0.0, 0.35, 0.65)),
            ((0.2, 0.9, 0.25), (-0.9, 0.0, 0.525)),
            ((0.2, 0.9, 0.25), (0.9, 0.0, 0.525)),
        ],
        (-0.3, 1.9),
        -8.0,
    ),
    "Lamp": ([((0.3, 0.3, 1.5), (0.0, 0.0, 0.75))], (1.9, 1.8), 0.0),
    # Behind the camera.
    "Shelf": ([((1.0, 0.35, 1.8), (0.0, 0.0, 0.9))], (0.0, -7.0), 0.0),
    # Far to the camera's right.
    "Plant": ([((0.4, 0.4, 0.9), (0.0, 0.0, 0.45))], (7.0, -2.5), 0.0),
}
OUTSIDE = ("Shelf", "Plant")

#: The user's label map: node name patterns -> classes (a synonym, "couch", on purpose).
LABELS = {
    "Table*": "table",
    "Chair*": "chair",
    "Couch*": "couch",
    "Lamp*": "lamp",
    "Shelf*": "bookshelf",
    "Plant*": "plant",
}
#: The class each piece must get (synonyms resolved through the taxonomy).
CLASSES = {
    "Table": "table",
    "Chair": "chair",
    "Couch": "sofa",
    "Lamp": "lamp",
    "Shelf": "bookshelf",
    "Plant": "plant",
}

#: The camera, Blender frame: eye, the point it looks at, vertical field of view, image size.
EYE = (0.3, -4.2, 1.7)
TARGET = (0.3, 0.8, 0.5)
FOV_Y_DEG = 50.0
WIDTH, HEIGHT = 320, 240


def spec() -> dict[str, Any]:
    """Everything the Blender runner needs, as plain JSON."""
    return {
        "pieces": {
            name: {"parts": [list(map(list, p)) for p in parts], "location": list(loc), "yaw": yaw}
            for name, (parts, loc, yaw) in PIECES.items()
        },
        "camera": {
            "eye": EYE,
            "target": TARGET,
            "fov_y_deg": FOV_Y_DEG,
            "width": WIDTH,
            "height": HEIGHT,
        },
    }


def to_scene_frame(point: Any) -> np.ndarray[Any, Any]:
    """A Blender point (Z up) in the scene frame (Y up): (x, z, -y)."""
    x, y, z = (float(v) for v in point)
    return np.array([x, z, -y])


def true_box(name: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], float]:
    """(centre, size along the piece's own x, up, depth, yaw in degrees) in the scene frame."""
    parts, (lx, ly), yaw = PIECES[name]
    lows = np.array([np.subtract(c, np.divide(s, 2)) for s, c in parts])
    highs = np.array([np.add(c, np.divide(s, 2)) for s, c in parts])
    lo, hi = lows.min(axis=0), highs.max(axis=0)
    centre_local = (lo + hi) / 2
    size = hi - lo
    turn = math.radians(yaw)
    rotated = (
        centre_local[0] * math.cos(turn) - centre_local[1] * math.sin(turn),
        centre_local[0] * math.sin(turn) + centre_local[1] * math.cos(turn),
        centre_local[2],
    )
    centre = to_scene_frame((lx + rotated[0], ly + rotated[1], rotated[2]))
    # Blender's x, y, z extents are the scene frame's x, depth (z) and height (y).
    return centre, np.array([size[0], size[2], size[1]]), yaw
