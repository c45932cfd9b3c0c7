"""The primitives' solids and surfaces written out from their definitions (docs/conventions.md),
for tests that check the hub's exact geometry by separate code: an inside test in world
coordinates and dense surface samples."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spatialbabel import SceneObject, euler_to_matrix

MAJOR, MINOR = 0.375, 0.125
#: The 8 direction words clockwise from straight ahead, and from north (written out here
#: rather than imported, so the tests check the hub's tables too).
SECTORS = ["front", "front-right", "right", "back-right", "back", "back-left", "left", "front-left"]
CARDINALS = [
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
]


def _local(obj: SceneObject, points: Any) -> Any:
    rotation = euler_to_matrix(obj.rotation)
    return (points - np.asarray(obj.position)) @ rotation


def inside(obj: SceneObject, points: Any) -> Any:
    """Whether world points lie in the object's solid (sizes in metres, no unit frame)."""
    p = _local(obj, np.atleast_2d(points))
    x, y, z = p[:, 0], p[:, 1], p[:, 2]
    sx, sy, sz = obj.size
    if obj.class_name == "cube":
        return (np.abs(x) <= sx / 2) & (np.abs(y) <= sy / 2) & (np.abs(z) <= sz / 2)
    if obj.class_name == "sphere":
        return (x / (sx / 2)) ** 2 + (y / (sy / 2)) ** 2 + (z / (sz / 2)) ** 2 <= 1
    if obj.class_name == "cylinder":
        return (x * x + z * z <= (sx / 2) ** 2) & (np.abs(y) <= sy / 2)
    if obj.class_name == "cone":
        rise = (y + sy / 2) / sy  # 0 at the base, 1 at the apex
        return (np.hypot(x, z) <= (sx / 2) * (1 - rise)) & (rise >= 0) & (rise <= 1)
    if obj.class_name == "pyramid":
        rise = (y + sy / 2) / sy
        half = 0.5 * (1 - rise)
        return (np.abs(x) <= sx * half) & (np.abs(z) <= sz * half) & (rise >= 0) & (rise <= 1)
    return (np.hypot(x, z) - MAJOR * sx) ** 2 + y**2 <= (MINOR * sx) ** 2


def surface(obj: SceneObject, n: int = 60) -> Any:
    """Points covering the object's surface (spacing about size / n)."""
    sx, sy, sz = obj.size
    t = np.linspace(0, 1, n)
    a = np.linspace(0, 2 * math.pi, 2 * n, endpoint=False)
    pts: list[Any] = []
    if obj.class_name == "cube":
        u, v = (g.ravel() for g in np.meshgrid(t - 0.5, t - 0.5))
        for axis in range(3):
            for sign in (-0.5, 0.5):
                face = np.insert(np.column_stack([u, v]), axis, sign, axis=1)
                pts.append(face * np.array([sx, sy, sz]))
    elif obj.class_name == "pyramid":
        rise, u = (g.ravel() for g in np.meshgrid(t, t - 0.5))
        half = 1 - rise
        y = rise * sy - sy / 2
        for sign in (-1, 1):
            pts.append(np.column_stack([sign * 0.5 * half * sx, y, u * half * sz]))
            pts.append(np.column_stack([u * half * sx, y, sign * 0.5 * half * sz]))
        bu, bv = np.meshgrid(t - 0.5, t - 0.5)
        pts.append(np.column_stack([bu.ravel() * sx, np.full(bu.size, -sy / 2), bv.ravel() * sz]))
    elif obj.class_name == "sphere":
        polar, az = np.meshgrid(np.linspace(0, math.pi, n), a)
        pts.append(
            np.column_stack(
                [
                    (np.sin(polar) * np.cos(az)).ravel() * sx / 2,
                    np.cos(polar).ravel() * sy / 2,
                    (np.sin(polar) * np.sin(az)).ravel() * sz / 2,
                ]
            )
        )
    elif obj.class_name in ("cylinder", "cone"):
        h, az = np.meshgrid(t, a)
        radius = np.full_like(h, 1.0) if obj.class_name == "cylinder" else 1 - h
        pts.append(
            np.column_stack(
                [
                    (radius * np.cos(az)).ravel() * sx / 2,
                    (h * sy - sy / 2).ravel(),
                    (radius * np.sin(az)).ravel() * sz / 2,
                ]
            )
        )
        r, az = np.meshgrid(t, a)
        for cap in (-sy / 2, sy / 2) if obj.class_name == "cylinder" else (-sy / 2,):
            pts.append(
                np.column_stack(
                    [
                        (r * np.cos(az)).ravel() * sx / 2,
                        np.full(r.size, cap),
                        (r * np.sin(az)).ravel() * sz / 2,
                    ]
                )
            )
    else:
        u, v = np.meshgrid(a, a)
        ring = MAJOR * sx + MINOR * sx * np.cos(v)
        pts.append(
            np.column_stack(
                [
                    (ring * np.cos(u)).ravel(),
                    (MINOR * sx * np.sin(v)).ravel(),
                    (ring * np.sin(u)).ravel(),
                ]
            )
        )
    local = np.concatenate(pts)
    return local @ euler_to_matrix(obj.rotation).T + np.asarray(obj.position)
