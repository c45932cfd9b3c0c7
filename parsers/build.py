"""From what an engine would build to canonical ``SceneObject``s, shared by every parser.

A parser describes each object as the affine that takes the canonical unit primitive of its
class into the engine's own world frame (``unit_to_native``). This module changes the frame,
splits the affine into position, rotation and size, names the objects, and leaves out the
ground slab a model may add, each step with its diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import numpy as np

from parsers.result import Diagnostics, ObjectSource
from spatialbabel import (
    UNIT_EXTENTS,
    UNKNOWN_CLASS,
    SceneObject,
    decompose,
    language_frame,
    matrix_to_euler,
)
from spatialbabel.frames import Matrix, Vec3, euler_rows
from spatialbabel.geometry.bounds import placed_units, primitive_aabbs
from spatialbabel.palette import RGB

#: More objects than this is no scene of the benchmark (a runaway loop); parsers keep the
#: first ones and report the rest.
MAX_OBJECTS = 256

#: A slab is ground when it is this thin relative to its footprint...
GROUND_MAX_THICKNESS_RATIO = 0.1
#: ...at least this wide and deep (scene units)...
GROUND_MIN_SPAN = 2.5
#: ...and every other object's centre lies beyond its face, less this (scene units).
GROUND_TOP_TOLERANCE = 0.05
#: The classes a slab can be: a box, or a disc (a flat cylinder).
SLAB_CLASSES: Final = frozenset({"cube", "cylinder"})


@dataclass
class NativeObject:
    """One object as a parser found it, still in the engine's frame."""

    class_name: str
    unit_to_native: Matrix
    rgb: RGB | None = None
    name: str | None = None
    line: int | None = None
    #: How the class was decided, when it was not a plain primitive call (Unity stand-ins).
    class_reason: str | None = None
    #: Position, Euler XYZ degrees and size when the language states them in the canonical
    #: frame (json, dsl): kept as written instead of re-derived from the affine, so a scene
    #: written out and read back is the same scene to the last bit.
    canonical_trs: tuple[Vec3, Vec3, Vec3] | None = None
    #: The word the reply wrote where a class goes (JSON's class_name, the DSL's shape),
    #: whether or not it names a primitive.
    class_word: str | None = None


_ID_CLEAN = re.compile(r"[^A-Za-z0-9_.\-]+")


def _unique_id(
    wanted: str | None, class_name: str, taken: set[str], counters: dict[str, int]
) -> str:
    base = _ID_CLEAN.sub("_", wanted).strip("_") if wanted else ""
    if base and base not in taken:
        taken.add(base)
        return base
    stem = base or class_name
    while True:
        counters[stem] = counters.get(stem, 0) + 1
        candidate = f"{stem}_{counters[stem]}"
        if candidate not in taken:
            taken.add(candidate)
            return candidate


def canonical_object(
    language: str, native: NativeObject, object_id: str, diagnostics: Diagnostics
) -> SceneObject | None:
    """One native object in the canonical frame, or None (with an error) when it is degenerate."""
    if native.canonical_trs is not None:
        position, rotation, size = native.canonical_trs
        return SceneObject(object_id, native.class_name, position, rotation, size, rgb=native.rgb)
    frame = language_frame(language)
    affine = frame.affine(np.asarray(native.unit_to_native, dtype=float))
    if not np.isfinite(affine).all():
        diagnostics.error(
            "build.non_finite", f"{object_id}: transform is not finite; object dropped", native.line
        )
        return None
    parts = decompose(affine)
    if parts.shear > 1e-6:
        diagnostics.warning(
            "build.shear",
            f"{object_id}: its transform shears the primitive ({parts.shear:.3g}); kept the nearest rotation and scale",
            native.line,
        )
    unit = UNIT_EXTENTS.get(native.class_name, (1.0, 1.0, 1.0))
    size = (parts.scale[0] * unit[0], parts.scale[1] * unit[1], parts.scale[2] * unit[2])
    if min(size) <= 1e-9:
        diagnostics.warning(
            "build.zero_size", f"{object_id}: has zero size along an axis", native.line
        )
    return SceneObject(
        id=object_id,
        class_name=native.class_name,
        position=parts.translation,
        rotation=matrix_to_euler(parts.rotation),
        size=(size[0], size[1], size[2]),
        rgb=native.rgb,
    )


def _may_be_slab(obj: SceneObject) -> bool:
    """Whether ``obj`` is itself a slab: a box or disc whose own extents are at least
    ``GROUND_MIN_SPAN`` on two axes and thin on the third. Its world box then says which
    axis is thin and on which side the others lie (``ground_side``). Own extents, not the
    world box, decide: a 2 x 2 plate turned on edge spans more than 2.5 in the world but is
    an object, not a ground (hypothesis found one in a canonical JSON round trip)."""
    if obj.class_name not in SLAB_CLASSES:
        return False
    thin, narrow, _ = sorted(obj.size)
    narrow *= 1 + 1e-9  # rounding
    return narrow >= GROUND_MIN_SPAN and thin <= GROUND_MAX_THICKNESS_RATIO * narrow


def slab_axis(lo: Matrix, hi: Matrix) -> int | None:
    """The thin axis (0, 1, 2 for x, y, z) of a world AABB that is a slab: at least
    ``GROUND_MIN_SPAN`` on the two other axes and at most ``GROUND_MAX_THICKNESS_RATIO`` of
    the narrower of them on this one; None when it is no slab."""
    spans = (np.asarray(hi, dtype=float) - np.asarray(lo, dtype=float)).tolist()
    thin = min(range(3), key=spans.__getitem__)
    wide = [spans[i] for i in range(3) if i != thin]
    if min(wide) < GROUND_MIN_SPAN or spans[thin] > GROUND_MAX_THICKNESS_RATIO * min(wide):
        return None
    return thin


#: What a slab on each side of the others along its thin axis is, in the canonical frame
#: (+X right, +Y up, +Z towards the viewer): (axis, slab on the low side) -> words.
_SIDES: Final[dict[tuple[int, bool], str]] = {
    (0, True): "left of",
    (0, False): "right of",
    (1, True): "under",
    (2, True): "behind",
    (2, False): "in front of",
}


def ground_side(
    lo: Matrix, hi: Matrix, others_lo: Matrix, others_hi: Matrix, *, round_slab: bool = False
) -> str | None:
    """Where a slab lies relative to every other object when it is the ground ("under",
    "behind"...), else None.

    The ground is a slab (``slab_axis``) with every other object on one side of it along its
    thin axis: each one's centre is beyond the slab's face on that side (less
    ``GROUND_TOP_TOLERANCE``), so objects that rest on it or sink into it a little still
    count, but none lies on the far side. Any axis may be the thin one: models write Z-up
    code in Y-up engines and the reverse, so their ground can stand upright in our frame. On
    the vertical axis only a slab under the others is ground (a ceiling is not). Also the
    ground: a slab whose top is no higher than the lowest other bottom plus the tolerance
    (the original rule, which the centre rule contains).

    And the ground is under the others: at least half of them (at least one) stand over its
    footprint (their centres within its rectangle, or within the ellipse of a disc:
    ``round_slab``). A thin disc or plate lying beside the other objects (a coin, a coaster,
    a tray on the floor next to them) is an object of the scene, not its ground."""
    axis = slab_axis(lo, hi)
    if axis is None:
        return None
    if len(others_lo) == 0:
        return _SIDES[(axis, True)]
    if not _under_others(lo, hi, others_lo, others_hi, axis, round_slab):
        return None
    centres = (np.asarray(others_lo)[:, axis] + np.asarray(others_hi)[:, axis]) / 2
    if float(centres.min()) >= float(hi[axis]) - GROUND_TOP_TOLERANCE:
        return _SIDES[(axis, True)]
    if (axis, False) in _SIDES and float(centres.max()) <= float(lo[axis]) + GROUND_TOP_TOLERANCE:
        return _SIDES[(axis, False)]
    return None


def _under_others(
    lo: Matrix, hi: Matrix, others_lo: Matrix, others_hi: Matrix, axis: int, round_slab: bool
) -> bool:
    """Whether at least half of the other objects (at least one) have their centres over the
    slab's footprint, along its two wide axes."""
    wide = [i for i in range(3) if i != axis]
    centres = (np.asarray(others_lo)[:, wide] + np.asarray(others_hi)[:, wide]) / 2
    middle = (np.asarray(lo)[wide] + np.asarray(hi)[wide]) / 2
    half = (np.asarray(hi)[wide] - np.asarray(lo)[wide]) / 2 + GROUND_TOP_TOLERANCE
    offsets = np.abs(centres - middle) / half
    # A disc's footprint is the ellipse in its box; a box's, the whole box.
    over = np.sum(offsets**2, axis=1) <= 1.0 if round_slab else np.all(offsets <= 1.0, axis=1)
    count = int(over.sum())
    return count >= 1 and 2 * count >= len(centres)


def build_objects(
    language: str,
    natives: list[NativeObject],
    diagnostics: Diagnostics,
    sources: list[ObjectSource] | None = None,
) -> list[SceneObject]:
    """Canonical objects with unique ids; ground slabs left out with a diagnostic. When
    ``sources`` is given, each object's ``ObjectSource`` is appended to it, in object order."""
    kept = _build_objects(language, natives, diagnostics)
    if sources is not None:
        # A native line is a line of the code read; only a line map makes it a reply line
        # (the declarative languages read several blocks, each with its own map, and keep
        # none).
        line_map = diagnostics.line_map
        for native, _ in kept:
            line = None if native.line is None or line_map is None else line_map(native.line)
            sources.append(ObjectSource(native.name, native.class_word, line))
    return [obj for _, obj in kept]


def _build_objects(
    language: str, natives: list[NativeObject], diagnostics: Diagnostics
) -> list[tuple[NativeObject, SceneObject]]:
    taken: set[str] = set()
    counters: dict[str, int] = {}
    built: list[tuple[NativeObject, SceneObject]] = []
    for native in natives:
        object_id = _unique_id(native.name, native.class_name, taken, counters)
        if native.class_name == UNKNOWN_CLASS:
            diagnostics.warning(
                "build.unknown_class",
                f"{object_id}: primitive not recognised; kept as class 'unknown'",
                native.line,
            )
        elif native.class_reason:
            diagnostics.info(
                "build.class_from_context",
                f"{object_id}: class {native.class_name!r} decided {native.class_reason}",
                native.line,
            )
        obj = canonical_object(language, native, object_id, diagnostics)
        if obj is not None:
            built.append((native, obj))
    if len(built) < 2:
        return built
    kept: list[tuple[NativeObject, SceneObject]] = []
    objects = [obj for _, obj in built]
    if not any(_may_be_slab(obj) for obj in objects):
        return built
    names = [obj.class_name for obj in objects]
    # Every object's world AABB at once (each as primitive_aabb(object_affine(obj)) gives it).
    affines = placed_units(
        names,
        np.array([obj.position for obj in objects], dtype=float),
        np.array([euler_rows(obj.rotation) for obj in objects], dtype=float),
        np.array([obj.size for obj in objects], dtype=float),
    )
    lows, highs = primitive_aabbs(names, affines)
    others = np.ones(len(objects), dtype=bool)
    for index, (native, obj) in enumerate(built):
        if not _may_be_slab(obj):
            kept.append((native, obj))
            continue
        others[index] = False
        side = ground_side(
            lows[index],
            highs[index],
            lows[others],
            highs[others],
            round_slab=obj.class_name == "cylinder",
        )
        others[index] = True
        if side is None:
            kept.append((native, obj))
            continue
        diagnostics.info(
            "build.ground_removed",
            f"{obj.id}: a thin slab {side} every other object is the ground, not an object; left out",
            native.line,
        )
    return kept
