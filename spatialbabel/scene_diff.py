"""What changed between two readings of the same scene: objects added, lost, or changed
(moved, turned or resized beyond a tolerance, or given another class or colour).

Objects are paired by id first (a parser names objects after the reply's variables, so the
same reply read twice keeps its ids); an object left over on each side is then paired with one
of the same class at the same place (within the tolerance), which is a rename, not a change.
Rotations are compared as matrices, so two Euler triples of one orientation are the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from spatialbabel.scene import Scene, SceneObject

#: Differences in scene units (and rotation-matrix entries) at or below this are the same.
DEFAULT_TOLERANCE: Final = 1e-6


@dataclass(frozen=True)
class ObjectChange:
    """One object in both scenes whose ``fields`` differ; ``moved_by`` is the distance
    between its centres."""

    old_id: str
    new_id: str
    fields: tuple[str, ...]
    moved_by: float

    def describe(self) -> str:
        name = self.old_id if self.old_id == self.new_id else f"{self.old_id} -> {self.new_id}"
        what = [f"position by {self.moved_by:.3g}" if f == "position" else f for f in self.fields]
        return f"{name}: {', '.join(what)}"


@dataclass(frozen=True)
class SceneDiff:
    added: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    changed: tuple[ObjectChange, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        """Whether the scenes differ (a rename alone does not change a scene)."""
        return bool(self.added or self.lost or self.changed)

    def describe(self, limit: int = 6) -> str:
        def listed(items: list[str]) -> str:
            shown = ", ".join(items[:limit])
            return shown + (f", and {len(items) - limit} more" if len(items) > limit else "")

        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added ({listed(list(self.added))})")
        if self.lost:
            parts.append(f"{len(self.lost)} lost ({listed(list(self.lost))})")
        if self.changed:
            parts.append(
                f"{len(self.changed)} changed ({listed([c.describe() for c in self.changed])})"
            )
        if self.renamed:
            renames = [f"{a} -> {b}" for a, b in self.renamed]
            parts.append(f"{len(self.renamed)} renamed ({listed(renames)})")
        return "; ".join(parts) or "the same"


def _differing(old: SceneObject, new: SceneObject, tolerance: float) -> tuple[str, ...]:
    fields = []
    if old.class_name != new.class_name:
        fields.append("class")
    if np.max(np.abs(np.subtract(old.position, new.position))) > tolerance:
        fields.append("position")
    if np.max(np.abs(old.rotation_matrix - new.rotation_matrix)) > tolerance:
        fields.append("rotation")
    if np.max(np.abs(np.subtract(old.size, new.size))) > tolerance:
        fields.append("size")
    if old.color != new.color:
        fields.append("colour")
    return tuple(fields)


def diff_scenes(old: Scene, new: Scene, *, tolerance: float = DEFAULT_TOLERANCE) -> SceneDiff:
    """The objects ``new`` adds, loses and changes against ``old`` (see the module docstring)."""
    old_by_id = {o.id: o for o in old.objects}
    new_by_id = {o.id: o for o in new.objects}
    changed = []
    for obj in old.objects:
        twin = new_by_id.get(obj.id)
        if twin is not None and (fields := _differing(obj, twin, tolerance)):
            distance = float(np.linalg.norm(np.subtract(obj.position, twin.position)))
            changed.append(ObjectChange(obj.id, twin.id, fields, distance))
    lost = [o for o in old.objects if o.id not in new_by_id]
    added = [o for o in new.objects if o.id not in old_by_id]
    renamed = []
    for obj in list(lost):
        twin = next((n for n in added if not _differing(obj, n, tolerance)), None)
        if twin is not None:
            renamed.append((obj.id, twin.id))
            lost.remove(obj)
            added.remove(twin)
    return SceneDiff(
        tuple(o.id for o in added), tuple(o.id for o in lost), tuple(changed), tuple(renamed)
    )
