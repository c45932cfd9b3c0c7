"""Stacking: which objects may carry others, and the check that every object is supported.

With ``spatialbabel generate --stack-prob P`` an object may rest on a flat top: a cube's, or an
upright cylinder's. It rests exactly (its lowest point at the support's highest) and fully (its
whole footprint inside the support's top), and ``SceneObject.parent`` names the support, so the
ground truth holds the attachment graph (``Scene.children``, ``Scene.descendants``: what moves
with an object). ``synth.layout`` places objects so; ``attachment_problems`` checks a finished
scene, and ``spatialbabel verify`` runs it on every scene of a split.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from spatialbabel import Scene, SceneObject, world_aabb
from spatialbabel.geometry.footprints import contains, footprint

#: Classes with a flat top another object can rest on (when upright, as generated ones are).
SUPPORT_CLASSES: Final = frozenset({"cube", "cylinder"})

#: Metres of float noise allowed when checking that an object rests on its support or the ground.
REST_TOLERANCE: Final = 1e-6


def is_support(obj: SceneObject) -> bool:
    """Whether ``obj`` has a flat, level top: a cube or a cylinder whose axis stays vertical."""
    upright = bool(np.allclose(obj.rotation_matrix[:, 1], (0.0, 1.0, 0.0), atol=1e-9))
    return obj.class_name in SUPPORT_CLASSES and upright


def top_of(obj: SceneObject) -> float:
    return float(world_aabb(obj)[1][1])


def attachment_problems(scene: Scene) -> list[str]:
    """Every way the scene breaks the stacking facts, one sentence each naming the object:
    an object with no ``parent`` stands on the ground; one with a parent rests on that
    object's flat top, with its footprint inside it. (``Scene`` itself already refuses a
    parent that names no object or makes a cycle.)"""
    problems = []
    for obj in scene.objects:
        lowest = float(world_aabb(obj)[0][1])
        if obj.parent is None:
            if abs(lowest - scene.ground.height) > REST_TOLERANCE:
                problems.append(
                    f"{obj.id} has no parent but does not stand on the ground "
                    f"(lowest point {lowest:.6f}, ground {scene.ground.height:.6f})"
                )
            continue
        support = scene.get_object(obj.parent)
        if not is_support(support):
            problems.append(
                f"{obj.id} rests on {support.id}, a {support.class_name} without a flat, level top"
            )
            continue
        gap = lowest - top_of(support)
        if abs(gap) > REST_TOLERANCE:
            problems.append(f"{obj.id} does not touch the top of {support.id} (gap {gap:.6f} m)")
        if not contains(footprint(support), footprint(obj), -REST_TOLERANCE):
            problems.append(f"{obj.id} overhangs the top of {support.id}")
    return problems


__all__ = ["REST_TOLERANCE", "SUPPORT_CLASSES", "attachment_problems", "is_support", "top_of"]
