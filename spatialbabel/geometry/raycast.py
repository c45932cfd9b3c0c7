"""Ray casts against the exact primitives (not their tessellations), pure numpy.

A ray ``origin + t * direction`` is taken into an object's unit frame by the inverse of its
affine, which keeps ``t``: the hit distances are the world ones. There each unit primitive is a
solid given by exact inequalities. The convex ones (cube, pyramid, sphere, cylinder, cone) are
intersections of half-spaces, a slab and at most one quadric, so the parameters at which a ray
lies inside are one interval, found in closed form (``_convex_entry``). The torus is not convex:
its surface is crossed at the real roots of a quartic, between two consecutive of which the ray
is wholly inside or wholly outside, so testing one midpoint per stretch finds the first entry
exactly (``_torus_entry``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.scene import SceneObject

Array = NDArray[np.float64]

_CLASSES: Final = frozenset({"cube", "pyramid", "sphere", "cylinder", "cone", "torus"})

#: Half-spaces ``n . p <= c`` of the unit pyramid.
_PYRAMID_PLANES: Final = (
    np.array([[0, -1, 0], [1, 0.5, 0], [-1, 0.5, 0], [0, 0.5, 1], [0, 0.5, -1]], float),
    np.array([0.5, 0.25, 0.25, 0.25, 0.25]),
)


@lru_cache(maxsize=4096)
def _unit_frame(obj: SceneObject) -> tuple[Array, Array]:
    """The object's position and the inverse of its affine's linear part, which take world
    points to its unit frame; cached by the object's value."""
    if obj.class_name not in _CLASSES:
        raise ValueError(f"no exact ray cast for class {obj.class_name!r}")
    unit = np.asarray(UNIT_EXTENTS.get(obj.class_name, (1.0, 1.0, 1.0)), dtype=float)
    scale = np.asarray(obj.size, dtype=float) / unit
    if np.any(scale <= 0.0):
        raise ValueError(f"object {obj.id} has a zero size: nothing to hit")
    # The affine is R S (S the scale to the unit primitive), so its inverse is S^-1 R^T; no
    # general inverse needed.
    return np.asarray(obj.position, dtype=float), obj.rotation_matrix.T / scale[:, None]


def _quadratic_roots(a: NDArray[Any], b: NDArray[Any], c: NDArray[Any]) -> tuple[Array, Array]:
    """Real roots of ``a t^2 + 2 b t + c`` (NaN where there are none), the smaller first."""
    disc = b * b - a * c
    root = np.sqrt(np.where(disc >= 0.0, disc, np.nan))
    # The stable form: q = -(b + sign(b) sqrt(disc)); roots q / a and c / q.
    q = -(b + np.copysign(root, b))
    first, second = q / a, c / q
    linear = np.abs(a) < 1e-300
    single = np.where(np.abs(b) > 0.0, -c / (2.0 * b), np.nan)
    first = np.where(linear, single, first)
    second = np.where(linear, np.nan, second)
    return np.fmin(first, second), np.fmax(first, second)


def _slab(o: Array, d: Array, low: float, high: float) -> tuple[Array, Array]:
    """The parameters (an interval per ray) at which ``low <= o + t d <= high`` on one axis. A
    ray parallel to the slab divides by a signed zero: +-inf bounds, all or nothing as it
    should (NaN, for one lying exactly on a face, counts as a miss)."""
    a, b = (low - o) / d, (high - o) / d
    return np.fmin(a, b), np.fmax(a, b)


def _upward_roots(a: Array, b: Array, c: Array) -> tuple[Array, Array]:
    """Where ``a t^2 + 2 b t + c <= 0`` for ``a > 0``: between the two roots (NaN for none),
    found in the stable form q = -(b + sign(b) sqrt(disc)), roots q / a and c / q."""
    disc = b * b - a * c
    q = -(b + np.copysign(np.sqrt(np.where(disc >= 0.0, disc, np.nan)), b))
    first, second = q / a, c / q
    return np.fmin(first, second), np.fmax(first, second)


def _round(o: Array, d: Array, radius: float) -> tuple[Array, Array]:
    """Where the ray is within ``radius`` of the vertical axis (an infinite cylinder): one
    interval, all or nothing for a ray along the axis."""
    flat, radial = d[:, 0] ** 2 + d[:, 2] ** 2, o[:, 0] ** 2 + o[:, 2] ** 2 - radius * radius
    along = np.asarray(o[:, 0] * d[:, 0] + o[:, 2] * d[:, 2], dtype=np.float64)
    lo, hi = _upward_roots(flat, along, radial)
    upright = flat == 0.0
    if upright.any():
        lo = np.where(upright, np.where(radial <= 0.0, -np.inf, np.inf), lo)
        hi = np.where(upright, np.where(radial <= 0.0, np.inf, -np.inf), hi)
    return lo, hi


def _quadric(a: Array, b: Array, c: Array) -> tuple[Array, Array, Array, Array]:
    """Where ``a t^2 + 2 b t + c <= 0``, as the union of two intervals (lo1, hi1), (lo2, hi2)
    (either may be empty): between the roots when the quadric opens upwards; outside them
    when it opens downwards (everywhere when it has none); a half-line, all or nothing when it
    is linear or constant (a ray along a generator of a cone)."""
    disc = b * b - a * c
    real = disc >= 0.0
    q = -(b + np.copysign(np.sqrt(np.where(real, disc, 0.0)), b))
    first, second = q / a, c / q
    r1, r2 = np.fmin(first, second), np.fmax(first, second)
    up = a > 0.0
    lo1 = np.where(up & real, r1, np.where(up, np.inf, -np.inf))
    hi1 = np.where(real, np.where(up, r2, r1), np.where(up, -np.inf, np.inf))
    lo2 = np.where(~up & real, r2, np.inf)
    hi2 = np.where(~up & real, np.inf, -np.inf)
    flat = a == 0.0
    if flat.any():
        root = -c / (2.0 * b)
        lo1 = np.where(
            flat,
            np.where(
                b > 0.0, -np.inf, np.where(b < 0.0, root, np.where(c <= 0.0, -np.inf, np.inf))
            ),
            lo1,
        )
        hi1 = np.where(
            flat,
            np.where(b > 0.0, root, np.where(b < 0.0, np.inf, np.where(c <= 0.0, np.inf, -np.inf))),
            hi1,
        )
        lo2 = np.where(flat, np.inf, lo2)
        hi2 = np.where(flat, -np.inf, hi2)
    return lo1, hi1, lo2, hi2


def _entry(lo: Array, hi: Array) -> Array:
    """The first ``t >= 0`` of each interval, inf when it is empty or wholly behind."""
    return np.where((lo <= hi) & (hi >= 0.0), np.maximum(lo, 0.0), np.inf)


def _convex_entry(class_name: str, o: Array, d: Array) -> Array:
    """First entry into a convex unit primitive: the intersection of the intervals in which the
    ray satisfies each of the solid's inequalities (half-spaces, a slab, one quadric)."""
    if class_name == "cube":
        (x0, x1), (y0, y1), (z0, z1) = (_slab(o[:, k], d[:, k], -0.5, 0.5) for k in range(3))
        return _entry(np.maximum(np.maximum(x0, y0), z0), np.minimum(np.minimum(x1, y1), z1))
    if class_name == "pyramid":
        normals, limits = _PYRAMID_PLANES
        room = limits - o @ normals.T  # >= 0 where the origin is on the inner side
        rate = d @ normals.T
        ratio = room / rate
        lo = np.where(rate < 0.0, ratio, -np.inf).max(axis=1)
        hi = np.where(rate > 0.0, ratio, np.inf).min(axis=1)
        blocked = ((rate == 0.0) & (room < 0.0)).any(axis=1)
        return np.where(blocked, np.inf, _entry(lo, hi))
    if class_name == "sphere":
        lo, hi = _upward_roots(
            np.einsum("ij,ij->i", d, d),
            np.einsum("ij,ij->i", o, d),
            np.einsum("ij,ij->i", o, o) - 0.25,
        )
        return _entry(lo, hi)
    low, high = _slab(o[:, 1], d[:, 1], -0.5, 0.5)
    if class_name == "cylinder":
        lo, hi = _round(o, d, 0.5)
        return _entry(np.maximum(lo, low), np.minimum(hi, high))
    # The cone: x^2 + z^2 <= ((0.5 - y) / 2)^2 is a double cone whose second nappe lies above
    # the apex (y > 0.5), outside the slab; within the slab it is the solid's one nappe.
    h, dh = 0.25 - 0.5 * o[:, 1], -0.5 * d[:, 1]
    lo1, hi1, lo2, hi2 = _quadric(
        d[:, 0] ** 2 + d[:, 2] ** 2 - dh * dh,
        o[:, 0] * d[:, 0] + o[:, 2] * d[:, 2] - h * dh,
        o[:, 0] ** 2 + o[:, 2] ** 2 - h * h,
    )
    lo1, hi1 = np.maximum(lo1, low), np.minimum(hi1, high)
    lo2, hi2 = np.maximum(lo2, low), np.minimum(hi2, high)
    # A convex solid: at most one piece is left (both only where they meet at the apex).
    return np.minimum(_entry(lo1, hi1), _entry(lo2, hi2))


def _cubic_roots(p: Array, q: Array) -> Array:
    """The real roots (n x 3, NaN padded) of ``u^3 + p u + q``: by the trigonometric form
    where there are three, Cardano's where there is one."""
    three = 4.0 * p**3 + 27.0 * q**2 < 0.0
    roots = np.full((len(p), 3), np.nan)
    if three.any():
        pt, qt = p[three], q[three]
        m = 2.0 * np.sqrt(-pt / 3.0)
        angle = np.arccos(np.clip(3.0 * qt / (pt * m), -1.0, 1.0)) / 3.0
        roots[three] = m[:, None] * np.cos(angle[:, None] - 2.0 * np.pi * np.arange(3) / 3.0)
    one = ~three
    if one.any():
        po, qo = p[one], q[one]
        root = np.sqrt(np.maximum(qo * qo / 4.0 + po**3 / 27.0, 0.0))
        roots[one, 0] = np.cbrt(-qo / 2.0 + root) + np.cbrt(-qo / 2.0 - root)
    return roots


def _torus_entry(o: Array, d: Array, start: Array, stop: Array) -> Array:
    """First entry into the unit torus of rays known to cross its drum between ``start`` and
    ``stop``, or inf.

    A point is in the torus exactly where the quartic ``f = (|p|^2 + R^2 - r^2)^2 -
    4 R^2 (x^2 + z^2)`` is at most 0. Along the ray its derivative is a depressed cubic, solved
    in closed form; its real roots cut the ray into stretches on which ``f`` is monotone. The
    first stretch ending with ``f <= 0`` holds the entry, and exactly one root of ``f``, found
    by Newton steps kept inside the stretch (a chord step where one would leave it).
    """
    big, small = TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
    speed = np.linalg.norm(d, axis=1)
    d = d / speed[:, None]
    first, last = start * speed, stop * speed
    o = o + first[:, None] * d
    span = last - first
    b = np.einsum("ij,ij->i", o, d)
    across = o - b[:, None] * d
    offset = np.einsum("ij,ij->i", across, across) + big * big - small * small
    flat_a = d[:, 0] ** 2 + d[:, 2] ** 2
    flat_b = o[:, 0] * d[:, 0] + o[:, 2] * d[:, 2]
    flat_c = o[:, 0] ** 2 + o[:, 2] ** 2

    def f(s: Array) -> Array:
        """The quartic at parameters ``s`` (rays x marks)."""
        u = s + b[:, None]
        reach = u * u + offset[:, None]
        ring = flat_a[:, None] * s * s + 2.0 * flat_b[:, None] * s + flat_c[:, None]
        return reach * reach - 4.0 * big * big * ring

    turning = _cubic_roots(
        offset - 2.0 * big * big * flat_a, 2.0 * big * big * (flat_a * b - flat_b)
    )
    turning = turning - b[:, None]
    turning = np.where((turning > 0.0) & (turning < span[:, None]), turning, span[:, None])
    marks = np.column_stack([np.zeros(len(o)), np.sort(turning, axis=1), span])
    values = f(marks)
    under = values <= 0.0
    hit = under.any(axis=1)
    j = np.argmax(under, axis=1)
    result = np.full(len(o), np.inf)
    result[hit & (j == 0)] = first[hit & (j == 0)]
    rows = np.flatnonzero(hit & (j > 0))
    low, high = marks[rows, j[rows] - 1], marks[rows, j[rows]]
    # Start where the chord across the stretch meets 0 (a stretch's end is often a turning
    # point, where a Newton step from it would be flat).
    f_low, f_high = values[rows, j[rows] - 1], values[rows, j[rows]]
    s = low + (high - low) * f_low / (f_low - f_high)
    # The rays' own quantities, gathered once.
    b, offset, flat_a, flat_b, flat_c = (v[rows] for v in (b, offset, flat_a, flat_b, flat_c))
    for sweep in range(60):
        if not len(rows):
            break
        u = s + b
        reach = u * u + offset
        value = reach * reach - 4.0 * big * big * (flat_a * s * s + 2.0 * flat_b * s + flat_c)
        slope = 4.0 * (reach * u - 2.0 * big * big * (flat_a * s + flat_b))
        # f falls across the stretch: above 0 the root is beyond s, below it before s.
        above = value > 0.0
        low, high = np.where(above, s, low), np.where(above, high, s)
        # The end kept has its value halved (as in the Illinois method), so that the chord,
        # used where a Newton step would leave the stretch, does not stall at one end.
        f_low = np.where(above, value, 0.5 * f_low)
        f_high = np.where(above, 0.5 * f_high, value)
        step = s - value / slope
        chord = low + (high - low) * f_low / (f_low - f_high)
        following = np.where((step > low) & (step < high), step, chord)
        moved = np.abs(following - s)
        s = following
        if sweep < 4:
            continue  # most rays need about this many steps: no bookkeeping before
        done = (moved <= 1e-11 * (1.0 + np.abs(s))) | (high - low <= 1e-11)
        result[rows[done]] = first[rows[done]] + s[done]
        keep = ~done
        rows, s, low, high, f_low, f_high = (v[keep] for v in (rows, s, low, high, f_low, f_high))
        b, offset, flat_a, flat_b, flat_c = (v[keep] for v in (b, offset, flat_a, flat_b, flat_c))
    result[rows] = first[rows] + s
    return result / speed


def _class_entry(class_name: str, o: Array, d: Array) -> Array:
    if class_name != "torus":
        return _convex_entry(class_name, o, d)
    # Rays that miss the flat drum holding the torus have nothing to meet.
    result = np.full(len(o), np.inf)
    low, high = _slab(o[:, 1], d[:, 1], -TORUS_MINOR_RADIUS, TORUS_MINOR_RADIUS)
    lo, hi = _round(o, d, TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS)
    start, stop = np.maximum(np.maximum(lo, low), 0.0), np.minimum(hi, high)
    near = np.flatnonzero(start <= stop)
    if len(near):
        result[near] = _torus_entry(o[near], d[near], start[near], stop[near])
    return result


@dataclass(frozen=True)
class Solids:
    """Objects made ready for ray casts, for a caller that casts against the same ones many
    times: their positions, the inverses of their affines' linear parts, and their classes."""

    objects: tuple[SceneObject, ...]
    positions: Array
    inverses: Array
    kinds: NDArray[np.intp]
    names: tuple[str, ...]

    @classmethod
    def of(cls, objects: Sequence[SceneObject]) -> Solids:
        frames = [_unit_frame(obj) for obj in objects]
        names = tuple(sorted({obj.class_name for obj in objects}))
        return cls(
            tuple(objects),
            np.array([f[0] for f in frames]).reshape(-1, 3),
            np.array([f[1] for f in frames]).reshape(-1, 3, 3),
            np.array([names.index(obj.class_name) for obj in objects], dtype=np.intp),
            names,
        )


def pair_hits(
    objects: Sequence[SceneObject] | Solids,
    which: NDArray[np.intp],
    origins: Array,
    directions: Array,
) -> Array:
    """For each ray k, the parameter ``t >= 0`` at which it first enters the exact solid of
    ``objects[which[k]]`` (0 when it starts inside), ``inf`` when it misses: many objects' rays
    in one call, each class's in one array operation (fastest when ``which`` already runs
    through the objects in order, class by class). ``directions`` need not be unit vectors;
    ``t`` is in their units."""
    solids = objects if isinstance(objects, Solids) else Solids.of(objects)
    origins = np.asarray(origins, dtype=float).reshape(-1, 3)
    directions = np.asarray(directions, dtype=float).reshape(-1, 3)
    which = np.asarray(which, dtype=np.intp).reshape(-1)
    if not len(which):
        return np.full(0, np.inf)
    count = len(solids.objects)
    # Rays grouped class by class, then object by object: each object's rays a slice.
    key = solids.kinds[which] * count + which
    order = None
    if len(key) > 1 and bool((key[1:] < key[:-1]).any()):
        order = np.argsort(key, kind="stable")
        key, which = key[order], which[order]
        origins, directions = origins[order], directions[order]
    cuts = np.flatnonzero(key[1:] != key[:-1]) + 1
    starts, stops = np.concatenate([[0], cuts]), np.concatenate([cuts, [len(key)]])
    o, d = np.empty_like(origins), np.empty_like(directions)
    for start, stop in zip(starts.tolist(), stops.tolist(), strict=True):
        w = int(which[start])
        inverse = solids.inverses[w]
        o[start:stop] = (origins[start:stop] - solids.positions[w]) @ inverse.T
        d[start:stop] = directions[start:stop] @ inverse.T
    result = np.empty(len(key))
    classes = solids.kinds[which[starts]]
    runs = np.flatnonzero(np.concatenate([[True], classes[1:] != classes[:-1]]))
    ends = np.concatenate([runs[1:], [len(classes)]])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for run, end in zip(runs.tolist(), ends.tolist(), strict=True):
            begin, stop = int(starts[run]), int(stops[end - 1])
            name = solids.names[int(classes[run])]
            result[begin:stop] = _class_entry(name, o[begin:stop], d[begin:stop])
    if order is not None:
        unsorted = np.empty_like(result)
        unsorted[order] = result
        return unsorted
    return result


def hit_distances(obj: SceneObject, origins: Array, directions: Array) -> Array:
    """For each ray, the parameter ``t >= 0`` at which it first enters the object's exact
    solid (0 when it starts inside), ``inf`` when it misses. ``directions`` need not be unit
    vectors; ``t`` is in their units."""
    count = np.asarray(origins).size // 3
    return pair_hits([obj], np.zeros(count, dtype=np.intp), origins, directions)


def first_hits(
    objects: Sequence[SceneObject], origins: Array, directions: Array
) -> tuple[NDArray[np.intp], Array]:
    """For each ray, the index of the object it enters first (-1 for none) and its ``t``."""
    origins = np.asarray(origins, dtype=float).reshape(-1, 3)
    directions = np.asarray(directions, dtype=float).reshape(-1, 3)
    best = np.full(len(origins), np.inf)
    index = np.full(len(origins), -1, dtype=np.intp)
    for i, obj in enumerate(objects):
        t = hit_distances(obj, origins, directions)
        closer = t < best
        best[closer] = t[closer]
        index[closer] = i
    return index, best


__all__ = ["Solids", "first_hits", "hit_distances", "pair_hits"]
