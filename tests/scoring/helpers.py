"""Scenes for the scoring tests, built with the hub's types and seeded generators."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from scoring import ReplyScore
from spatialbabel import CLASSES, PALETTE_NAMES, Scene, SceneObject


def layout(seed: int, count: int = 6, *, tier: int = 2, spacing: float = 1.6) -> Scene:
    """``count`` objects of random class, colour, size and yaw on a grid ``spacing`` apart
    (so small jitter never changes which true object is nearest)."""
    rng = np.random.default_rng(seed)
    columns = math.ceil(math.sqrt(count))
    objects = []
    for k in range(count):
        x = (k % columns - (columns - 1) / 2) * spacing
        z = (k // columns - (columns - 1) / 2) * spacing
        cls = str(rng.choice(CLASSES))
        width = float(rng.uniform(0.5, 1.0))
        height = width / 4 if cls == "torus" else float(rng.uniform(0.5, 1.2))
        objects.append(
            SceneObject(
                f"{cls}_{k}",
                cls,
                (x, height / 2, z),
                (0.0, float(rng.uniform(-60, 60)), 0.0),
                (width, height, width),
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    return Scene(f"scene_{seed}", tuple(objects), meta={"tier": tier})


def random_scene(seed: int, count: int = 6) -> Scene:
    """Objects anywhere on the ground, unrelated to any other scene."""
    rng = np.random.default_rng(seed)
    objects = []
    for k in range(count):
        sx, sy, sz = (float(v) for v in rng.uniform(0.3, 1.3, 3))
        size = (sx, sy, sz)
        position = (float(rng.uniform(-3, 3)), sy / 2, float(rng.uniform(-3, 3)))
        objects.append(
            SceneObject(
                f"o{k}",
                str(rng.choice(CLASSES)),
                position,
                (0.0, float(rng.uniform(-180, 180)), 0.0),
                size,
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    return Scene(f"random_{seed}", tuple(objects))


def moved(scene: Scene, offsets: NDArray[np.float64]) -> Scene:
    """The scene with object i's centre moved by ``offsets[i]``."""
    return scene.with_objects(
        [
            replace(o, position=_vec3(np.asarray(o.position) + d))
            for o, d in zip(scene.objects, offsets, strict=True)
        ]
    )


def _vec3(values: NDArray[np.float64]) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def value(reply: ReplyScore, name: str) -> float:
    """A metric's value that the test expects to be defined."""
    result = reply.values[name]
    assert result is not None, f"{name} is undefined"
    return result
