"""Directions on the ground in eight 45-degree sectors, in a frame given by a facing.

A horizontal frame is a unit *forward* vector on the ground (x, z); *right* is forward turned
a quarter clockwise seen from above (looking down -Y with +X to the right, -Z is up, so
clockwise takes -Z to +X). The direction of a point B from a point A in that frame is the angle
of B - A (projected on the ground) from forward towards right, in (-180, 180]; sector k covers
45k +- 22.5 degrees: front, front-right, right, back-right, back, back-left, left, front-left,
or north, north-east, ... when forward is north. A direction lies ``margin`` degrees from the
nearest sector edge; near an edge, or when the points nearly coincide on the ground, the sector
is not decided (``sector`` returns None).

Frames: a camera's is its viewing direction flattened on the ground; an object's is the facing
a question states (towards another object, or a world direction); the world's is fixed once.
Turning a frame, or a layout, about the vertical axis is ``turn``: positive angles are
counter-clockwise seen from above (a right-handed turn about +Y).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.scene import Camera

Array = NDArray[np.float64]

SECTORS: Final = (
    "front",
    "front-right",
    "right",
    "back-right",
    "back",
    "back-left",
    "left",
    "front-left",
)
CARDINALS: Final = (
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
)
SECTOR_WIDTH: Final = 45.0


@dataclass(frozen=True)
class SectorMargins:
    #: Degrees a direction must keep from the nearest sector edge.
    angle: float = 7.5
    #: Metres the two points must lie apart on the ground.
    distance: float = 0.3


DEFAULT_SECTOR_MARGINS: Final = SectorMargins()


def ground(vector: Array | tuple[float, ...]) -> Array:
    """The (x, z) part of a 3D vector."""
    v = np.asarray(vector, dtype=float)
    return np.array([v[0], v[2]])


def unit(vector: Array) -> Array:
    norm = float(np.linalg.norm(vector))
    if norm < 1e-12:
        raise ValueError("a direction on the ground needs a non-zero vector")
    return np.asarray(vector, dtype=float) / norm


def right_of(forward: Array) -> Array:
    """Forward turned a quarter clockwise seen from above."""
    return np.array([-forward[1], forward[0]])


def camera_forward(camera: Camera) -> Array:
    """The camera's viewing direction flattened on the ground (its image's up for a camera
    looking straight down)."""
    pose = camera.pose
    forward = ground(-pose[:3, 2])
    if np.linalg.norm(forward) < 1e-9:
        forward = ground(pose[:3, 1])
    return unit(forward)


def turn(vector: Array, degrees: float) -> Array:
    """A ground vector turned counter-clockwise seen from above by ``degrees``."""
    # Rotating by +theta about +Y takes (x, z) to (x cos + z sin, -x sin + z cos).
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    x, z = float(vector[0]), float(vector[1])
    return np.array([x * c + z * s, -x * s + z * c])


def bearing(offset: Array, forward: Array) -> float:
    """Degrees from forward towards right of a ground offset, in (-180, 180]."""
    f = unit(forward)
    angle = math.degrees(math.atan2(float(offset @ right_of(f)), float(offset @ f)))
    return 180.0 if angle == -180.0 else angle


def sector_of_bearing(angle: float) -> tuple[int, float]:
    """The sector index of a bearing and its margin (degrees to the nearest sector edge)."""
    k = round(angle / SECTOR_WIDTH)
    return int(k) % 8, SECTOR_WIDTH / 2.0 - abs(angle - SECTOR_WIDTH * k)


def sector(
    origin: Array | tuple[float, ...],
    point: Array | tuple[float, ...],
    forward: Array,
    margins: SectorMargins = DEFAULT_SECTOR_MARGINS,
) -> int | None:
    """The sector of ``point`` seen from ``origin`` (3D points, compared on the ground) in the
    frame ``forward``; None within the margins."""
    offset = ground(point) - ground(origin)
    if np.linalg.norm(offset) < margins.distance:
        return None
    index, margin = sector_of_bearing(bearing(offset, forward))
    return index if margin >= margins.angle else None


def sectors(
    offsets: Array, forwards: Array, margins: SectorMargins = DEFAULT_SECTOR_MARGINS
) -> NDArray[np.intp]:
    """``sector`` of many ground offsets (n x 2) in their frames (n x 2, or one 2-vector for
    all), -1 within the margins."""
    offsets = np.asarray(offsets, dtype=float).reshape(-1, 2)
    f = np.broadcast_to(np.asarray(forwards, dtype=float), offsets.shape)
    f = f / np.linalg.norm(f, axis=1, keepdims=True)
    right = np.column_stack([-f[:, 1], f[:, 0]])
    angle = np.degrees(
        np.arctan2(np.einsum("ij,ij->i", offsets, right), np.einsum("ij,ij->i", offsets, f))
    )
    angle = np.where(angle == -180.0, 180.0, angle)
    k = np.round(angle / SECTOR_WIDTH)
    margin = SECTOR_WIDTH / 2.0 - np.abs(angle - SECTOR_WIDTH * k)
    clear = (margin >= margins.angle) & (np.linalg.norm(offsets, axis=1) >= margins.distance)
    return np.where(clear, k.astype(np.intp) % 8, -1)


def forward_of_sector(index: int, forward: Array) -> Array:
    """The ground direction at the middle of sector ``index`` of the frame ``forward``."""
    return turn(unit(forward), -SECTOR_WIDTH * index)


__all__ = [
    "CARDINALS",
    "DEFAULT_SECTOR_MARGINS",
    "SECTORS",
    "SECTOR_WIDTH",
    "SectorMargins",
    "bearing",
    "camera_forward",
    "forward_of_sector",
    "ground",
    "right_of",
    "sector",
    "sector_of_bearing",
    "sectors",
    "turn",
    "unit",
]
