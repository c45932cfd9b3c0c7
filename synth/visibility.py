"""The no-major-occlusion rule, measured on object-ID passes (pure numpy).

An ID pass holds, per pixel, 1 + the index of the object seen there (0 for ground and sky).
An object's visible pixels are its count in the full scene's pass; its full area is its count in
a pass where nothing can cover it. Objects whose projected boxes overlap no other object's are
never covered, so their full area is their visible area; the others are rendered again in
groups whose members' boxes are pairwise disjoint (``cover_groups``), so a few extra passes
give every full area exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, SceneObject, object_affine
from synth.meshes import unit_mesh

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Visibility:
    """One object's measures in the frontal view; ``bbox`` is ``(x0, y0, x1, y1)`` with the
    ends exclusive, so ``mask[y0:y1, x0:x1]`` holds all its visible pixels (None when none)."""

    visible_pixels: int
    full_pixels: int
    bbox: Box | None

    @property
    def fraction(self) -> float:
        return self.visible_pixels / self.full_pixels if self.full_pixels else 0.0


def pixel_counts(mask: NDArray[np.uint8], count: int) -> list[int]:
    """Pixels of objects 0..count-1 in an ID pass."""
    return [int(c) for c in np.bincount(mask.ravel(), minlength=count + 1)[1 : count + 1]]


def pixel_boxes(mask: NDArray[np.uint8], count: int) -> list[Box | None]:
    """Tight box (ends exclusive) of each object's pixels in an ID pass, None when it has none."""
    rows, cols = np.nonzero(mask)
    ids = mask[rows, cols].astype(np.intp)
    known = ids <= count
    rows, cols, ids = rows[known], cols[known], ids[known]
    big = np.iinfo(np.intp).max
    x0, y0 = np.full(count + 1, big), np.full(count + 1, big)
    x1, y1 = np.full(count + 1, -1), np.full(count + 1, -1)
    np.minimum.at(x0, ids, cols)
    np.minimum.at(y0, ids, rows)
    np.maximum.at(x1, ids, cols)
    np.maximum.at(y1, ids, rows)
    return [
        None if x1[i] < 0 else (int(x0[i]), int(y0[i]), int(x1[i]) + 1, int(y1[i]) + 1)
        for i in range(1, count + 1)
    ]


def projected_box(obj: SceneObject, camera: Camera) -> tuple[float, float, float, float]:
    """Image-space box (u0, v0, u1, v1) of the object's rendered mesh (before occlusion)."""
    affine = object_affine(obj)
    points = unit_mesh(obj.class_name).vertices @ affine[:3, :3].T + affine[:3, 3]
    uv, _ = camera.project(points)
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _boxes_meet(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], margin: float
) -> bool:
    return (
        a[0] - margin <= b[2]
        and b[0] - margin <= a[2]
        and a[1] - margin <= b[3]
        and b[1] - margin <= a[3]
    )


def cover_groups(
    objects: Sequence[SceneObject], camera: Camera, *, margin: float = 2.0
) -> list[list[int]]:
    """Indices of the objects another object may cover, split into groups whose projected boxes
    (grown by ``margin`` pixels) are pairwise disjoint; greedy colouring in index order."""
    boxes = [projected_box(o, camera) for o in objects]
    n = len(objects)
    touched = [
        i
        for i in range(n)
        if any(j != i and _boxes_meet(boxes[i], boxes[j], margin) for j in range(n))
    ]
    groups: list[list[int]] = []
    for i in touched:
        for group in groups:
            if not any(_boxes_meet(boxes[i], boxes[j], margin) for j in group):
                group.append(i)
                break
        else:
            groups.append([i])
    return groups


def failing(measures: Sequence[Visibility], min_fraction: float, min_pixels: int) -> list[int]:
    """Indices of the objects breaking the rule (too few pixels or too small a fraction)."""
    return [
        i
        for i, m in enumerate(measures)
        if m.visible_pixels < min_pixels or m.fraction < min_fraction
    ]
