"""What a camera sees: the FOV filter of real scenes.

A mesh dataset's instance list holds the whole building, most of it behind or beside the
camera. The benchmark keeps an object only when its 3D centre lies inside the camera's view
frustum: in front of the camera and projecting inside the image (edges included). The objects
dropped are counted, not hidden: importers record how many each scene lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbabel.frames import Matrix
from spatialbabel.scene import Camera, SceneObject

#: A centre nearer the camera's plane than this (metres along the view) is not in view.
NEAR: float = 1e-6


def centres_in_view(camera: Camera, points: Matrix) -> NDArray[np.bool_]:
    """Whether each point (N x 3) lies inside ``camera``'s frustum: depth above ``NEAR`` and its
    projection within [0, width] x [0, height] pixels."""
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    if len(pts) == 0:
        return np.zeros(0, dtype=bool)
    pixels, depth = camera.project(pts)
    u, v = pixels[:, 0], pixels[:, 1]
    with np.errstate(invalid="ignore"):
        inside = (depth > NEAR) & (u >= 0) & (u <= camera.width) & (v >= 0) & (v <= camera.height)
    return np.asarray(inside, dtype=bool)


@dataclass(frozen=True)
class FovFilter:
    """The objects a camera keeps, in their order, and those it drops."""

    kept: tuple[SceneObject, ...]
    dropped: tuple[SceneObject, ...]

    @property
    def n_dropped(self) -> int:
        return len(self.dropped)


def fov_filter(objects: Sequence[SceneObject], camera: Camera) -> FovFilter:
    """Split ``objects`` into those whose centre ``camera`` sees and the rest."""
    inside = centres_in_view(camera, np.array([o.position for o in objects], dtype=float))
    kept = tuple(o for o, keep in zip(objects, inside.tolist(), strict=True) if keep)
    dropped = tuple(o for o, keep in zip(objects, inside.tolist(), strict=True) if not keep)
    return FovFilter(kept, dropped)


__all__ = ["NEAR", "FovFilter", "centres_in_view", "fov_filter"]
