"""Choosing the views an item shows, from ray casts against the exact shapes.

Each candidate camera (the split's frontal camera and ``synth.candidate_views``) is measured
once per scene: for every object, whether the view shows it *referable* (wholly in frame, at
least half of it seen, and at least ``REFERABLE_PIXELS``), *absent* (wholly out of frame, or
hidden beyond the occlusion margins), or only *partly*.

A cross-view item splits its queried objects into two groups. Anchor A shows every object of the
first group referable and none of the second (absent); anchor B the reverse. Bridge views join
them along the *corridor*, the ground segment from the first group's centre to the second's:
a view covers the stretch of it (as a share of its length, sampled at ``CORRIDOR_SAMPLES``
points) that projects into its image and that no other object hides. Starting from A's
coverage, each next view must overlap what is covered so far by at least ``OVERLAP`` (0.10)
and reach further; B must overlap the last by as much. A bridge that shows any object of both
groups is never used. Every two consecutive views must *share* an object: one that both show
*seen* (at least ``REFERABLE_PIXELS`` of it, and at least half of what of it the frame holds)
and that its colour and shape name alone (``ViewTable.linkable``), so that a viewer can tell it
is the same object in both. A chain has at least ``MIN_BRIDGES`` bridges (the paper's chains
have bridges in all but 2 of 3,328); the route with the fewest (at most ``MAX_BRIDGES``) wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Scene
from spatialbabel.geometry.bounds import cached_world_aabb
from spatialbabel.geometry.occlusion import DEFAULT_OCCLUSION_MARGINS, ViewCaster, occlusion_state
from spatialbabel.geometry.raycast import Solids, pair_hits
from suites.spacecast.labels import OCCLUSION_LARGE, OCCLUSION_STRIDE

Presence = Literal["referable", "absent", "partly"]
PRESENCES: Final[tuple[Presence, ...]] = ("referable", "absent", "partly")
REFERABLE, ABSENT, PARTLY, UNSETTLED = 0, 1, 2, 3

OVERLAP: Final = 0.10
MIN_BRIDGES: Final = 1
MAX_BRIDGES: Final = 6
CORRIDOR_SAMPLES: Final = 41
#: Least visible pixels (at full resolution) of a referable object.
REFERABLE_PIXELS: Final = 300
#: Pixel stride of the presence casts.
PRESENCE_STRIDE: Final = 8
#: Least share of an object's projected bounds inside the image for a view to show it *seen*
#: (the rest of it may be cut by the border: it is still known by its colour and shape).
LINK_IN_FRAME: Final = 0.6
#: Anchor pairs tried per item before it is given up.
ANCHOR_PAIRS: Final = 24
#: Pixels a corridor point keeps from the image border to count as seen.
CORRIDOR_BORDER: Final = 4
#: Metres in front of a camera a corridor point must lie to count as seen.
CORRIDOR_NEAR: Final = 0.05


@dataclass
class ViewTable:
    """The candidate cameras of one scene state and what each shows of every object: its
    presence (a code per camera and object), and its full and visible counts on the survey
    grid. An object the survey sees nothing of, yet is in frame, is *absent* only if the
    occlusion casts (``OCCLUSION_STRIDE``) find it not visible beyond the margins; that costly
    check is made when a question first needs it (``UNSETTLED`` until then)."""

    scene: Scene
    caster: ViewCaster
    codes: NDArray[np.int8]
    #: Per camera and object: wholly out of frame (absent however the others stand).
    outside: NDArray[np.bool_]
    full: NDArray[np.intp]
    visible: NDArray[np.intp]
    #: Per camera and object: seen there, and named by colour and shape alone, so that two
    #: views both showing it share it.
    linkable: NDArray[np.bool_]
    ids: dict[str, int] = field(default_factory=dict)
    corridors: dict[tuple[tuple[str, ...], tuple[str, ...]], Corridor | None] = field(
        default_factory=dict
    )
    routes: dict[tuple[Any, int, int], list[int] | None] = field(default_factory=dict)

    @classmethod
    def measure(
        cls, scene: Scene, caster: ViewCaster, named: Sequence[str] | None = None
    ) -> ViewTable:
        """The survey of every candidate view; ``named``: the objects whose colour and shape
        name them alone (all, by default)."""
        objects = scene.objects
        border = DEFAULT_OCCLUSION_MARGINS.border
        shape = (len(caster.cameras), len(objects))
        framed = np.array([caster.in_frame(o, border) for o in objects]).T.reshape(shape)
        mostly = np.array([_share_in_frame(caster, o) for o in objects]).T.reshape(shape)
        mostly = mostly >= LINK_IN_FRAME
        full, visible = caster.survey(objects, PRESENCE_STRIDE, targets=framed | mostly)
        # An object cut by the image border counts as shown (partly).
        codes = np.full(full.shape, PARTLY, dtype=np.int8)
        outside = np.zeros(full.shape, dtype=bool)
        for i, obj in enumerate(objects):
            referable = (
                framed[:, i]
                & (full[:, i] > 0)
                & (visible[:, i] >= 0.5 * full[:, i])
                & (visible[:, i] >= REFERABLE_PIXELS)
            )
            codes[referable, i] = REFERABLE
            codes[framed[:, i] & (visible[:, i] == 0), i] = UNSETTLED
            outside[:, i] = caster.out_of_frame(obj)
            codes[outside[:, i], i] = ABSENT
        ids = {o.id: i for i, o in enumerate(objects)}
        unique = np.array([named is None or o.id in named for o in objects], dtype=bool)
        seen = mostly & (full > 0) & (visible >= REFERABLE_PIXELS) & (2 * visible >= full)
        # Counts of objects cut by the border serve the links only.
        full, visible = np.where(framed, full, 0), np.where(framed, visible, 0)
        return cls(scene, caster, codes, outside, full, visible, seen & unique[None, :], ids)

    @cached_property
    def solids(self) -> Solids:
        return Solids.of(self.scene.objects)

    @cached_property
    def boxes(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Lows and highs (objects x 3) of the objects' exact bounding boxes."""
        found = [cached_world_aabb(o) for o in self.scene.objects]
        return (
            np.array([f[0] for f in found]).reshape(-1, 3),
            np.array([f[1] for f in found]).reshape(-1, 3),
        )

    @property
    def cameras(self) -> tuple[Camera, ...]:
        return self.caster.cameras

    @cached_property
    def links(self) -> NDArray[np.bool_]:
        """Per pair of cameras: they share an object (``linkable`` in both)."""
        both = self.linkable.astype(np.intp)
        return np.asarray((both @ both.T) > 0)

    def index(self, object_id: str) -> int:
        return self.ids[object_id]

    def code(self, c: int, i: int) -> int:
        found = int(self.codes[c, i])
        if found == UNSETTLED:
            fine = self.caster.count(
                self.scene.objects, i, c, OCCLUSION_STRIDE, large=OCCLUSION_LARGE
            )
            hidden = fine.visible == 0 and occlusion_state(fine) == "not visible"
            found = ABSENT if hidden else PARTLY
            self.codes[c, i] = found
        return found

    def shows(self, camera: str, object_id: str) -> Presence:
        return PRESENCES[self.code(self.caster.index[camera], self.index(object_id))]

    def camera(self, name: str) -> Camera:
        return self.caster.cameras[self.caster.index[name]]

    def seen(self, camera: str, object_id: str) -> bool:
        """The view shows the object seen (and named alone)."""
        return bool(self.linkable[self.caster.index[camera], self.index(object_id)])

    def shared(self, first: str, second: str) -> tuple[str, ...]:
        """The objects both views show seen (the ones a viewer can match between them)."""
        both = self.linkable[self.caster.index[first]] & self.linkable[self.caster.index[second]]
        return tuple(self.scene.objects[i].id for i in np.flatnonzero(both))

    def hides_all(self, c: int, group: Sequence[int]) -> bool:
        """Whether camera ``c`` shows nothing of ``group`` (every one absent)."""
        row = self.codes[c, list(group)]
        if ((row == REFERABLE) | (row == PARTLY)).any():
            return False
        return all(self.code(c, i) == ABSENT for i in group)

    def anchors(self, show: Sequence[int], hide: Sequence[int]) -> tuple[int, ...]:
        """The views showing every one of ``show`` referable and nothing of ``hide``: those
        that leave ``hide`` out of frame, or, only when there are none, those that hide it
        behind other objects (settled by the occlusion casts)."""
        shows = (self.codes[:, list(show)] == REFERABLE).all(axis=1)
        framed_out = shows & self.outside[:, list(hide)].all(axis=1)
        if framed_out.any():
            return tuple(int(c) for c in np.flatnonzero(framed_out))
        return tuple(int(c) for c in np.flatnonzero(shows) if self.hides_all(int(c), hide))

    def hiding(self, first: Sequence[int], second: Sequence[int]) -> NDArray[np.bool_]:
        """Per camera: whether it leaves every one of ``first``, or every one of ``second``,
        out of frame (a bridge must show nothing of one group, and settling whether an
        object in frame is wholly hidden would cost more than the bridge it might free)."""
        return self.outside[:, list(first)].all(axis=1) | self.outside[:, list(second)].all(axis=1)


def _share_in_frame(caster: ViewCaster, obj: Any) -> NDArray[np.float64]:
    """Per camera: the share of the object's projected bounds inside the image (0 where part
    of it lies behind the camera)."""
    f = caster.framing(obj)
    x0, y0, x1, y1 = f.corners.T
    with np.errstate(invalid="ignore"):
        area = np.maximum(x1 - x0, 1e-9) * np.maximum(y1 - y0, 1e-9)
        inside = np.clip(np.minimum(x1, caster.width) - np.maximum(x0, 0.0), 0.0, None) * np.clip(
            np.minimum(y1, caster.height) - np.maximum(y0, 0.0), 0.0, None
        )
    return np.where(f.front, inside / area, 0.0)


_SHARES: Final = np.linspace(0.0, 1.0, CORRIDOR_SAMPLES)


def _sight(
    table: ViewTable, cameras: Sequence[int], start: NDArray[np.float64], end: NDArray[np.float64]
) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.bool_]]:
    """The cameras (numbers), their sight lines to the corridor's samples (cameras x samples
    x 3) and which samples fall in their images."""
    caster = table.caster
    points = start + _SHARES[:, None] * (end - start)
    chosen = np.asarray(cameras, dtype=np.intp)
    offsets = points[None, :, :] - caster.eye[chosen][:, None, :]
    local = np.einsum("csj,cji->csi", offsets, caster.rotation[chosen])
    depth = -local[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = caster.fx[chosen, None] * local[..., 0] / depth + caster.cx[chosen, None]
        y = -caster.fy[chosen, None] * local[..., 1] / depth + caster.cy[chosen, None]
    framed = (
        (depth > CORRIDOR_NEAR)
        & (x >= CORRIDOR_BORDER)
        & (x <= caster.width[chosen, None] - CORRIDOR_BORDER)
        & (y >= CORRIDOR_BORDER)
        & (y <= caster.height[chosen, None] - CORRIDOR_BORDER)
    )
    return chosen, offsets, framed


def coverages(
    table: ViewTable,
    cameras: Sequence[int],
    start: NDArray[np.float64],
    end: NDArray[np.float64],
    skip: set[str],
    sight: tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.bool_]] | None = None,
) -> dict[int, tuple[float, float] | None]:
    """For each camera (by number), the longest stretch (as shares of the corridor
    ``start`` -> ``end``) it sees: in its image and hidden by no object but those in ``skip``
    (the queried ones). All the cameras' sight lines at once, each object cast only on those
    passing its bounding sphere. ``sight``: what ``_sight`` gave for these cameras."""
    chosen, offsets, seen = sight if sight is not None else _sight(table, cameras, start, end)
    seen = seen.copy()
    lines = np.flatnonzero(seen)
    objects = table.scene.objects
    # Class by class, so that the casts need no sorting.
    others = np.array(
        sorted(
            (i for i, o in enumerate(objects) if o.id not in skip),
            key=lambda i: objects[i].class_name,
        ),
        dtype=np.intp,
    )
    if len(lines) and len(others):
        origins = np.repeat(table.caster.eye[chosen], CORRIDOR_SAMPLES, axis=0)[lines]
        rays = offsets.reshape(-1, 3)[lines]
        lengths = np.linalg.norm(rays, axis=1)
        rays = rays / lengths[:, None]
        # Only sight lines passing through an object's exact box before their end are cast
        # against it (the slabs of all the boxes and lines at once).
        low, high = table.boxes
        with np.errstate(divide="ignore", invalid="ignore"):
            a = (low[others][:, None, :] - origins[None]) / rays[None]
            b = (high[others][:, None, :] - origins[None]) / rays[None]
        enter = np.fmin(a, b).max(axis=2)
        leave = np.fmax(a, b).min(axis=2)
        which, line = np.nonzero((enter <= leave) & (leave >= 0.0) & (enter < lengths[None]))
        t = pair_hits(table.solids, others[which], origins[line], rays[line])
        seen.reshape(-1)[lines[line[t < lengths[line] - 1e-6]]] = False
    return dict(zip(chosen.tolist(), _longest_runs(seen), strict=True))


def _longest_runs(seen: NDArray[np.bool_]) -> list[tuple[float, float] | None]:
    """Each row's longest run of True samples (the first of equal ones), as shares."""
    flags = np.zeros((len(seen), CORRIDOR_SAMPLES + 2), dtype=np.int8)
    flags[:, 1:-1] = seen
    steps = np.diff(flags, axis=1)
    rows, starts = np.nonzero(steps == 1)
    stops = np.nonzero(steps == -1)[1]
    order = np.lexsort((starts, starts - stops, rows))
    rows, first = np.unique(rows[order], return_index=True)
    best = {
        int(r): (int(starts[order][k]), int(stops[order][k]))
        for r, k in zip(rows, first, strict=True)
    }
    return [
        None
        if row not in best
        else (float(_SHARES[best[row][0]]), float(_SHARES[best[row][1] - 1]))
        for row in range(len(seen))
    ]


def _longest_hulls(framed: NDArray[np.bool_]) -> list[tuple[float, float] | None]:
    """Each row's hull of True samples (first to last), as shares."""
    some = framed.any(axis=1)
    first = np.argmax(framed, axis=1)
    last = CORRIDOR_SAMPLES - 1 - np.argmax(framed[:, ::-1], axis=1)
    return [
        (float(_SHARES[f]), float(_SHARES[e])) if ok else None
        for f, e, ok in zip(first.tolist(), last.tolist(), some.tolist(), strict=True)
    ]


def _reach(a: tuple[float, float], spans: list[tuple[float, float]]) -> float:
    """How far along the corridor bridges seeing at most ``spans`` (each the hull of what a
    view frames) could take a route from coverage ``a``: every step of a route reaches no
    further than these let it, so where even this falls short of an anchor, no route can
    reach it (``_route`` need not be tried)."""
    reach, grew = a[1], True
    while grew:
        grew = False
        for low, high in spans:
            if low <= reach - OVERLAP and high > reach:
                reach, grew = high, True
    return reach


@dataclass(frozen=True)
class Chain:
    """Anchor A, the bridges in order, anchor B (camera names), each one's coverage, and the
    objects each two consecutive views share."""

    views: tuple[str, ...]
    coverage: tuple[tuple[float, float], ...]
    shared: tuple[tuple[str, ...], ...] = ()


def _route(
    x: int,
    y: int,
    cover: dict[int, tuple[float, float] | None],
    bridges: dict[int, tuple[float, float]],
    linked: NDArray[np.bool_],
) -> list[int] | None:
    """The fewest bridges (at least ``MIN_BRIDGES``) from anchor ``x``'s coverage to anchor
    ``y``'s, each step sharing an object with the one before (``linked``, camera by camera);
    breadth first, camera numbers in order. A step's reach is its view's, so a view once
    reached need not be reached again."""
    a, b = cover[x], cover[y]
    assert a is not None and b is not None
    frontier: list[tuple[float, list[int]]] = [(a[1], [])]
    seen: set[int] = set()
    for _ in range(MAX_BRIDGES + 1):
        for reach, path in frontier:
            last = path[-1] if path else x
            if (
                len(path) >= MIN_BRIDGES
                and b[0] <= reach - OVERLAP
                and b[1] > reach
                and linked[last, y]
            ):
                return path
        following: list[tuple[float, list[int]]] = []
        for reach, path in frontier:
            last = path[-1] if path else x
            for name, (low, high) in bridges.items():
                if name in seen or name in path or not linked[last, name]:
                    continue
                if low <= reach - OVERLAP and high > reach:
                    following.append((high, [*path, name]))
        seen.update(name for _, path in following for name in path)
        if not following:
            return None
        frontier = following
    return None


@dataclass
class Corridor:
    """What a chain between two groups may use: the anchors of each side, the coverage of
    each view worked out so far (by camera number), the anchor pairs that both see some of
    the corridor, and (once asked for) the bridges."""

    groups: tuple[list[int], list[int]]
    ends: tuple[NDArray[np.float64], NDArray[np.float64]]
    skip: set[str]
    anchors: tuple[tuple[int, ...], tuple[int, ...]]
    cover: dict[int, tuple[float, float] | None]
    pairs: tuple[tuple[int, int], ...]
    bridges: dict[int, tuple[float, float]] | None = None

    def bridging(self, table: ViewTable) -> dict[int, tuple[float, float]]:
        """The views that may bridge the anchors (they show nothing of one group, by the
        survey) that see some of the corridor, with what they see."""
        if self.bridges is None:
            hiding = table.hiding(*self.groups)
            hiding[[*self.anchors[0], *self.anchors[1]]] = False
            cameras = np.flatnonzero(hiding).tolist()
            # What the views frame bounds what they see: where even that cannot join any pair
            # of anchors, no cast is needed to know there is no route.
            sight = _sight(table, cameras, *self.ends)
            hulls = _longest_hulls(sight[2])
            spans = [s for s in hulls if s is not None]
            # A view can lie on a route only if it frames some of the stretch between an
            # anchor's reach and the farthest any route from it could go.
            useful = np.zeros(len(cameras), dtype=bool)
            for x, y in self.pairs:
                a, b = self.cover[x], self.cover[y]
                assert a is not None and b is not None
                reach = _reach(a, spans)
                if b[0] <= reach - OVERLAP:
                    useful |= np.array(
                        [h is not None and h[0] <= reach - OVERLAP and h[1] > a[1] for h in hulls],
                        dtype=bool,
                    )
            if not useful.any():
                self.bridges = {}
                return self.bridges
            keep = np.flatnonzero(useful)
            sight = (sight[0][keep], sight[1][keep], sight[2][keep])
            cameras = [cameras[i] for i in keep.tolist()]
            found = coverages(table, cameras, *self.ends, self.skip, sight)
            self.cover.update(found)
            self.bridges = {c: stretch for c, stretch in found.items() if stretch is not None}
        return self.bridges


def corridor(table: ViewTable, first: Sequence[str], second: Sequence[str]) -> Corridor | None:
    """The corridor between two groups, None when some side has no anchor or no anchor pair
    sees the corridor."""
    state = table.scene
    one, two = [table.index(o) for o in first], [table.index(o) for o in second]
    anchors_a = table.anchors(one, two)
    if not anchors_a:
        return None
    anchors_b = table.anchors(two, one)
    if not anchors_b:
        return None
    start = np.mean([state.objects[i].position for i in one], axis=0)
    end = np.mean([state.objects[i].position for i in two], axis=0)
    skip = {*first, *second}
    cover = coverages(table, sorted({*anchors_a, *anchors_b}), start, end, skip)
    pairs = tuple((x, y) for x in anchors_a for y in anchors_b if cover[x] and cover[y])
    if not pairs:
        return None
    return Corridor((one, two), (start, end), skip, (anchors_a, anchors_b), cover, pairs)


def cross_view_chain(
    table: ViewTable,
    first: Sequence[str],
    second: Sequence[str],
    rng: np.random.Generator,
) -> Chain | None:
    """A chain from an anchor showing only ``first`` to one showing only ``second``, through
    at least ``MIN_BRIDGES`` bridges: of up to ``ANCHOR_PAIRS`` anchor pairs in random order,
    the one with the fewest bridges (the first of equals). A scene draws the same groups again
    and again: their corridor, and the route between each pair of anchors, are worked out once
    per table."""
    key = (tuple(first), tuple(second))
    if key not in table.corridors:
        table.corridors[key] = corridor(table, first, second)
    found = table.corridors[key]
    if found is None:
        return None
    chosen = [found.pairs[int(i)] for i in rng.permutation(len(found.pairs))[:ANCHOR_PAIRS]]
    bridges = found.bridging(table)
    if not bridges:
        return None
    links = table.links
    best: tuple[int, ...] | None = None
    for x, y in chosen:
        if (key, x, y) not in table.routes:
            table.routes[(key, x, y)] = _route(x, y, found.cover, bridges, links)
        path = table.routes[(key, x, y)]
        if path is not None and (best is None or len(path) + 2 < len(best)):
            best = (x, *path, y)
    if best is None:
        return None
    names = tuple(table.cameras[c].name for c in best)
    return Chain(
        names,
        tuple(found.cover[c] or (0.0, 0.0) for c in best),
        tuple(table.shared(u, v) for u, v in pairwise(names)),
    )


__all__ = [
    "CORRIDOR_SAMPLES",
    "MAX_BRIDGES",
    "MIN_BRIDGES",
    "OVERLAP",
    "Chain",
    "Corridor",
    "ViewTable",
    "corridor",
    "coverages",
    "cross_view_chain",
]
