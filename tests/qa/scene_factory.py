"""Random scenes for the QA tests, built with numpy alone (no Blender).

``random_scene``: unlike the generator's layouts these repeat colour-and-shape pairs (so
referring expressions need relations), stack objects on any shape, some floating 0.3 m over
the one below (so above/below questions arise, and some clearly fail), and turn the camera.
``generator_scenes``: layouts as the generator draws them (``synth.layout``, stacked or not),
seen from its frontal camera, without the visibility rule that needs Blender.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from spatialbabel import CLASSES, PALETTE_NAMES, Camera, Scene, SceneObject, world_aabb
from synth.questions import SplitRules

#: What ``random_scene`` guarantees: objects may rest on any shape.
FACTORY_RULES = SplitRules(supports=frozenset(CLASSES))


def _standing(obj: SceneObject, floor: float) -> SceneObject:
    lowest = float(world_aabb(obj)[0][1])
    x, y, z = obj.position
    return replace(obj, position=(x, y + floor - lowest, z))


def random_scene(seed: int, *, scene_id: str | None = None, unique_pairs: bool = False) -> Scene:
    rng = np.random.default_rng(seed)
    count = int(rng.integers(3, 13))
    colors = (
        list(PALETTE_NAMES)
        if unique_pairs
        else [str(c) for c in rng.choice(PALETTE_NAMES, size=4, replace=False)]
    )
    pairs = [(c, k) for c in CLASSES for k in colors]
    picks = rng.choice(len(pairs), size=count, replace=unique_pairs is False)
    objects: list[SceneObject] = []
    for i, pick in enumerate(picks):
        class_name, color = pairs[int(pick)]
        width = float(rng.uniform(0.4, 1.2))
        height = width * float(rng.uniform(0.6, 1.4)) if class_name != "torus" else width * 0.25
        yaw = float(rng.uniform(0, 90)) if class_name in ("cube", "pyramid") else 0.0
        obj = SceneObject(
            f"obj{i}",
            class_name,
            (float(rng.uniform(-2.5, 2.5)), 0.0, float(rng.uniform(-2.5, 2.5))),
            (0.0, yaw, 0.0),
            (width, height, width),
            color=color,
        )
        floor = 0.0
        if objects and rng.random() < 0.2:
            below = objects[int(rng.integers(len(objects)))]
            floor = float(world_aabb(below)[1][1]) + float(rng.choice([0.0, 0.3]))
            obj = replace(obj, position=(below.position[0], 0.0, below.position[2]))
        objects.append(_standing(obj, floor))
    azimuth = math.radians(float(rng.choice([0.0, 0.0, 20.0, -35.0])))
    elevation = math.radians(float(rng.uniform(30, 50)))
    distance = 11.0
    eye = (
        distance * math.cos(elevation) * math.sin(azimuth),
        distance * math.sin(elevation),
        distance * math.cos(elevation) * math.cos(azimuth),
    )
    camera = Camera.looking_at("front", eye, width=512, height=512, fov_y_deg=44.0)
    return Scene(scene_id or f"scene_{seed:06d}", tuple(objects), (camera,))


def generator_scenes(count: int, *, stack_prob: float = 0.0, seed: int = 7) -> list[Scene]:
    """Layouts as the generator draws them (unique colour-shape pairs; with ``stack_prob``,
    some objects resting on cubes and cylinders), tiers in turn, seen from its frontal camera."""
    from synth.cameras import scene_cameras
    from synth.layout import LayoutRules, sample_layout
    from synth.tiers import TIERS

    cameras = scene_cameras(1, 512)
    tiers = list(TIERS.values())
    rules = LayoutRules(stack_prob=stack_prob)
    return [
        Scene(
            f"scene_{i:06d}",
            tuple(sample_layout(np.random.default_rng([seed, i]), tiers[i % len(tiers)], rules)),
            cameras,
        )
        for i in range(count)
    ]
