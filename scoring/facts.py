"""Per-scene arrays the metrics read: centres, sizes, canonical classes, colours, boxes.

A true scene is scored against every model's reply in every language, so its facts are
computed once (``truth_facts`` keeps the last scenes seen) instead of once per reply.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

from scoring.boxes import OrientedBox, scene_extent
from spatialbabel import Scene, canonical_class
from spatialbabel.frames import Matrix, euler_rows
from spatialbabel.geometry.bounds import placed_units, primitive_aabbs
from spatialbabel.open_classes import class_group, is_catch_all, open_class

#: True scenes whose facts are kept; a split's eval subset fits.
TRUTH_CACHE_SIZE = 4096

#: Predicted positions and sizes are clipped to +-this (scene units) before scoring: a value
#: this far off already scores as badly as any, and clipping keeps every error finite.
COORDINATE_LIMIT = 1e6


def within_limits(scene: Scene) -> Scene:
    """``scene`` with positions and sizes clipped to ``COORDINATE_LIMIT`` (itself if none is over)."""

    def clip(values: tuple[float, float, float]) -> tuple[float, float, float]:
        x, y, z = (min(max(v, -COORDINATE_LIMIT), COORDINATE_LIMIT) for v in values)
        return (x, y, z)

    limit = COORDINATE_LIMIT
    if all(abs(v) <= limit for o in scene.objects for v in (*o.position, *o.size)):
        return scene
    return scene.with_objects(
        [replace(o, position=clip(o.position), size=clip(o.size)) for o in scene.objects]
    )


class SceneFacts:
    """Arrays over a scene's objects, in object order."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.positions = np.array([o.position for o in scene.objects], dtype=float).reshape(-1, 3)
        self.sizes = np.array([o.size for o in scene.objects], dtype=float).reshape(-1, 3)
        # Synonym-aware classes, by the hub's one table of the scene's domain
        # (classes_equivalent's and open_classes_equivalent's own rules).
        canonical = open_class if scene.domain == "open" else canonical_class
        self.classes = np.array(
            [canonical(o.class_name) or "" for o in scene.objects], dtype=object
        )
        self.colors = tuple(o.color for o in scene.objects)

    def __len__(self) -> int:
        return len(self.scene.objects)

    @cached_property
    def class_groups(self) -> NDArray[np.object_]:
        """The NYU40 class each object's open class falls under ("" for none)."""
        return np.array([class_group(c) if c else "" for c in self.classes], dtype=object)

    @cached_property
    def catch_alls(self) -> NDArray[np.bool_]:
        """Whether each object's open class is one of NYU40's catch-alls."""
        return np.array([bool(c) and is_catch_all(c) for c in self.classes], dtype=bool)

    @cached_property
    def extent(self) -> float:
        return scene_extent(self.scene.objects)

    @cached_property
    def rotations(self) -> Matrix:
        """Each object's rotation matrix (n x 3 x 3)."""
        rows = [euler_rows(o.rotation) for o in self.scene.objects]  # each o.rotation_matrix
        return np.array(rows, dtype=float).reshape(-1, 3, 3)

    def box(self, index: int) -> OrientedBox:
        """Object ``index``'s oriented box (``OrientedBox.of``, from the arrays already built;
        made when first asked for: most objects never reach the exact IoU)."""
        cache = self._boxes
        if index not in cache:
            half = 0.5 * self.sizes[index]
            cache[index] = OrientedBox(self.positions[index], self.rotations[index], half)
        return cache[index]

    @cached_property
    def _boxes(self) -> dict[int, OrientedBox]:
        return {}

    @cached_property
    def box_bounds(self) -> tuple[Matrix, Matrix, Matrix]:
        """World AABBs of the oriented boxes (lo, hi: n x 3) and their volumes (n)."""
        reach = np.einsum("nij,nj->ni", np.abs(self.rotations), 0.5 * self.sizes)
        volumes = np.prod(self.sizes, axis=1)
        return self.positions - reach, self.positions + reach, volumes

    @cached_property
    def world_extents(self) -> Matrix:
        """The size of each object's exact world AABB (n x 3; hub geometry, as ``world_aabb``),
        from the rotation matrices the boxes already hold."""
        names = [o.class_name for o in self.scene.objects]
        affines = placed_units(names, self.positions, self.rotations, self.sizes)
        lo, hi = primitive_aabbs(names, affines)
        return np.asarray(hi - lo, dtype=float)


@lru_cache(maxsize=TRUTH_CACHE_SIZE)
def truth_facts(scene: Scene) -> SceneFacts:
    return SceneFacts(scene)
