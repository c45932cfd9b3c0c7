"""ProVisE items from a generated split: per scene, one item of each task its layout allows.

Every label comes from exact ground truth: the scene file (objects, camera), the split's
frontal ID pass (``masks/<scene>.png``, Blender's, pixel-exact for the image the model sees)
and the meshes Blender rendered (depth by ray casting, ``suites.provise.geometry``). What the
model is shown is the split's image, or a copy with markers (depth's A and B, trajectory's S
and G) written to ``inputs/``; what only the grader reads (target masks, option regions) is
written to ``truth/`` as 8-bit label maps.
"""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Scene, SceneObject
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.files import FileFormatError, atomic_write_bytes
from spatialbabel.geometry.footprints import ROUND_CLASSES, clearance, footprint
from spatialbabel.geometry.relations import (
    DEFAULT_MARGINS,
    OPPOSITE,
    RELATION_PHRASES,
    Relation,
    Truth,
    comparison_truth,
    measure,
    relation_truth,
)
from spatialbabel.split import Split
from suites.base import Item
from suites.choices import balanced_positions, letter, place
from suites.provise import geometry
from synth.questions import PLURALS

SUITE_NAME: Final = "provise"
#: Tasks in the paper's order, with its capability levels.
LEVELS: Final[dict[str, str]] = {
    "counting": "perception",
    "depth": "perception",
    "size": "perception",
    "relationship": "understanding",
    "grounding": "understanding",
    "multihop": "reasoning",
    "feasibility": "reasoning",
    "affordance": "interaction",
    "trajectory": "interaction",
}
TASKS: Final = tuple(LEVELS)

#: Marker sizes are given for a 512-pixel image and scale with the image.
REFERENCE_SIZE: Final = 512
#: Pixels (at 512) a mark's centre keeps from its object's outline.
MIN_INTERIOR: Final = 5.0
#: Depth margin between the two marked points: metres, and share of the nearer depth.
DEPTH_MARGIN: Final = (DEFAULT_MARGINS.depth, 0.05)
#: A fit is asked only when the size and the opening differ by this ratio either way.
FIT_RATIO: Final = 1.2
#: Ground planning: cell size and how far (metres) a path keeps from every footprint.
PLAN_CELL: Final = 0.04
PLAN_CLEARANCE: Final = 0.2
#: Shortest start-to-goal distance in normalised image units: shorter, and a path drawn the
#: wrong way round could still land within the DFD threshold.
MIN_PATH_SPAN: Final = 0.45
PATH_POINTS: Final = 20
PATH_TRIES: Final = 300
#: A trajectory is asked only where the straight line from S to G goes through an object on
#: the ground and, in the image, runs over at least ``STRAIGHT_CROSSING`` pixels (at 512) of
#: objects lying ``STRAIGHT_INSET`` pixels inside their outlines (deeper than the protocol's
#: clearance), so that the straight line is graded a failure.
STRAIGHT_CROSSING: Final = 6.0
STRAIGHT_INSET: Final = 4.0
RELATIONS: Final[tuple[Relation, ...]] = ("left", "right", "in front", "behind")
#: Counting asks for 1 to ``MAX_COUNT`` objects (the random baseline guesses in that range).
MAX_COUNT: Final = 6

T = TypeVar("T")


def name(obj: SceneObject) -> str:
    return f"the {obj.color} {obj.class_name}"


def _norm(point: tuple[float, float], width: int, height: int) -> list[float]:
    return [round(point[0] / width, 6), round(point[1] / height, 6)]


@dataclass
class SceneView:
    """One scene with its frontal camera, ID pass and the derived per-object facts."""

    scene: Scene
    index: int
    image: Path
    ids: NDArray[np.uint8]
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def camera(self) -> Camera:
        camera = self.scene.frontal_camera
        assert camera is not None
        return camera

    @property
    def width(self) -> int:
        return self.camera.width

    @property
    def height(self) -> int:
        return self.camera.height

    @property
    def scale(self) -> float:
        return self.width / REFERENCE_SIZE

    def mask(self, index: int) -> NDArray[np.bool_]:
        return self.ids == index + 1

    @cached_property
    def interiors(self) -> list[tuple[tuple[float, float], float]]:
        """Per object, its visible pixel farthest from its outline and that distance."""
        from suites.provise import pixels

        found = []
        for i in range(len(self.scene.objects)):
            distance = pixels.inside_distance(self.mask(i))
            flat = int(np.argmax(distance))
            y, x = divmod(flat, distance.shape[1])
            found.append(((x + 0.5, y + 0.5), float(distance[y, x])))
        return found

    def markable(self, index: int) -> bool:
        return self.interiors[index][1] >= MIN_INTERIOR * self.scale

    @cached_property
    def measures(self) -> list[Any]:
        return [measure(o, self.camera) for o in self.scene.objects]

    def point(self, index: int) -> list[float]:
        return _norm(self.interiors[index][0], self.width, self.height)

    def area(self, index: int) -> int:
        """Visible pixels of an object."""
        return int(np.count_nonzero(self.mask(index)))

    def option_facts(self, indices: Sequence[int]) -> dict[str, list[Any]]:
        """What a test-taker sees of each option's object without answering the question: its
        visible pixels and its distance from the camera (the battery's shortcuts read them)."""
        return {
            "areas": [self.area(k) for k in indices],
            "distances": [round(self.measures[k].distance, 6) for k in indices],
        }


@dataclass(frozen=True)
class Want:
    """What a builder is asked to aim for so answers stay balanced: an option position."""

    position: int


Builder = Callable[["Context"], Item | None]


@dataclass
class Context:
    view: SceneView
    out: Path
    want: Want
    rng: np.random.Generator
    protocol_sha256: str
    #: How often each balancing cell was chosen so far in this task, across scenes (``pick``).
    tally: Counter[Hashable] = field(default_factory=Counter)

    def pick(self, candidates: Sequence[T], cell: Callable[[T], Hashable]) -> T:
        """One of ``candidates``, from the cell chosen least often so far in the task (a seeded
        choice among equals), so that what a shortcut reads (the label, which point is lower,
        which option looks larger) is spread evenly over the build."""
        cells = [cell(c) for c in candidates]
        least = min(self.tally[c] for c in cells)
        pool = [k for k, c in enumerate(cells) if self.tally[c] == least]
        chosen = pool[int(self.rng.integers(len(pool)))]
        self.tally[cells[chosen]] += 1
        return candidates[chosen]

    def item(self, task: str, question: str, answer: Any, **kwargs: Any) -> Item:
        scene_id = self.view.scene.scene_id
        facts = {"protocol": self.protocol_sha256, **kwargs.pop("facts", {})}
        inputs = kwargs.pop("inputs", None) or (os.path.relpath(self.view.image, self.out),)
        return Item(
            SUITE_NAME,
            f"{scene_id}-{task}",
            scene_id,
            task,
            question,
            answer,
            inputs=tuple(inputs),
            group={"level": LEVELS[task]},
            facts=facts,
            **kwargs,
        )

    def write_truth(self, task: str, labels: NDArray[np.uint8]) -> str:
        from suites.provise import pixels

        relative = f"truth/{self.view.scene.scene_id}-{task}.png"
        atomic_write_bytes(self.out / relative, pixels.encode_png(labels))
        return relative

    def write_input(self, task: str, image: NDArray[np.uint8]) -> str:
        from suites.provise import pixels

        relative = f"inputs/{self.view.scene.scene_id}-{task}.png"
        atomic_write_bytes(self.out / relative, pixels.encode_png(image))
        return relative

    def source(self) -> NDArray[np.uint8]:
        from suites.provise import pixels

        return pixels.read_image(self.view.image).copy()


# -- perception --------------------------------------------------------------------------------


def counting(ctx: Context) -> Item | None:
    """How many objects of a class or a colour: every group whose members can each carry a
    star apart from the others, the count spread evenly over 1 to ``MAX_COUNT`` across the
    build (``Context.pick``), within counting by class and by colour alike."""
    view = ctx.view
    objects = view.scene.objects
    radius = 9.0 * view.scale
    groups: list[tuple[str, str, list[int]]] = []
    for kind, values in (
        ("class", sorted({o.class_name for o in objects})),
        ("color", sorted({str(o.color) for o in objects})),
    ):
        for value in values:
            members = [
                i
                for i, o in enumerate(objects)
                if (o.class_name if kind == "class" else o.color) == value
            ]
            points = np.array([view.interiors[i][0] for i in members])
            apart = (
                len(members) < 2
                or min(
                    float(np.hypot(*(points[a] - points[b])))
                    for a in range(len(members))
                    for b in range(a + 1, len(members))
                )
                >= 2 * radius + 4
            )
            fits = all(view.interiors[i][1] >= 4 * view.scale for i in members)
            if apart and fits and len(members) <= MAX_COUNT:
                groups.append((kind, value, members))
    if not groups:
        return None
    kind, value, members = ctx.pick(groups, lambda g: (g[0], len(g[2])))
    what = PLURALS[value] if kind == "class" else f"{value} objects"
    return ctx.item(
        "counting",
        f"How many {what} are there in the image?",
        len(members),
        facts={
            "by": kind,
            "value": value,
            "objects": [objects[i].id for i in members],
            "marks": [view.point(i) for i in members],
            "mark_radius": radius,
        },
    )


def _marker(image: NDArray[np.uint8], at: tuple[float, float], text: str, scale: float) -> None:
    from suites.provise import pixels

    pixels.ring(image, at, 11 * scale, (0, 0, 0), max(1, round(4 * scale)))
    pixels.ring(image, at, 11 * scale, (255, 255, 255), max(1, round(2 * scale)))
    pixels.label(
        image, text, (at[0] + 12 * scale, at[1] - 12 * scale), (255, 255, 255), 0.6 * scale
    )


#: Pixels (at 512) a depth point off its object's centre keeps from the outline: the 5x5
#: window stays on the object even when the depth map comes back shifted by 8 px.
DEPTH_INTERIOR: Final = 10.0
#: Pixels (at 512) between the two marked points, so that their markers stay apart.
DEPTH_APART: Final = 30.0


def _depth_points(view: SceneView, index: int) -> list[tuple[float, float]]:
    """Where a depth point may go on an object: its centre (the visible pixel farthest from the
    outline, at least ``MIN_INTERIOR`` + 2 px in), and its highest and lowest pixels at least
    ``DEPTH_INTERIOR`` px in (each the one farthest in among the two top or bottom rows), so
    that which point is lower can be chosen apart from which is closer."""
    from suites.provise import pixels

    if view.interiors[index][1] < (MIN_INTERIOR + 2) * view.scale:
        return []
    found = [view.interiors[index][0]]
    distance = pixels.inside_distance(view.mask(index))
    rows, cols = np.nonzero(distance >= DEPTH_INTERIOR * view.scale)
    if rows.size:
        for band in (rows <= rows.min() + 1, rows >= rows.max() - 1):
            best = int(np.argmax(np.where(band, distance[rows, cols], -1.0)))
            point = (float(cols[best]) + 0.5, float(rows[best]) + 0.5)
            if point not in found:
                found.append(point)
    return found


def depth(ctx: Context) -> Item | None:
    """Two marked points on two objects, their depths apart by ``DEPTH_MARGIN``. Among the
    valid pairs and points, the build balances whether the lower point and the point on the
    object that covers more pixels are the closer one (``Context.pick``)."""
    from suites.provise.battery import largest_choice, lower_choice

    view = ctx.view
    camera = view.camera
    marks: dict[int, list[tuple[tuple[float, float], float]]] = {}
    for i, obj in enumerate(view.scene.objects):
        for point in _depth_points(view, i):
            value = geometry.depth_at(camera, obj, point)
            if value is not None:
                marks.setdefault(i, []).append((point, value))
    candidates = []
    for i in marks:
        for j in marks:
            if j <= i:
                continue
            for (pi, di), (pj, dj) in itertools.product(marks[i], marks[j]):
                if abs(di - dj) < max(DEPTH_MARGIN[0], DEPTH_MARGIN[1] * min(di, dj)):
                    continue
                if math.hypot(pi[0] - pj[0], pi[1] - pj[1]) < DEPTH_APART * view.scale:
                    continue
                near, far = ((i, pi, di), (j, pj, dj)) if di < dj else ((j, pj, dj), (i, pi, di))
                candidates.append((near, far))
    if not candidates:
        return None

    def cell(pair: tuple[Any, Any]) -> tuple[bool, bool]:
        near, far = pair
        lower = lower_choice({"A": near[1], "B": far[1]}) == "A"
        larger = largest_choice([view.area(near[0]), view.area(far[0])]) == "A"
        return (lower, larger)

    near, far = ctx.pick(candidates, cell)
    first, second = (near, far) if ctx.want.position == 0 else (far, near)
    image = ctx.source()
    points = {"A": first[1], "B": second[1]}
    for text, at in points.items():
        _marker(image, at, text, view.scale)
    objects = view.scene.objects
    return ctx.item(
        "depth",
        "Two points in the image are marked A and B. Which of the two points is closer to the camera?",
        "A" if first is near else "B",
        inputs=(ctx.write_input("depth", image),),
        options=("the point marked A", "the point marked B"),
        facts={
            "points": {k: _norm(p, view.width, view.height) for k, p in points.items()},
            "objects": [objects[first[0]].id, objects[second[0]].id],
            "depths": [round(first[2], 6), round(second[2], 6)],
            "areas": [view.area(first[0]), view.area(second[0])],
        },
    )


def _option_regions(ctx: Context, task: str, members: Sequence[int]) -> str:
    """Each member's pixels as region 1, 2, ...; a hole in an object (a torus's) that shows the
    background counts as the object's, as a reader sees a dot in the hole as on the torus."""
    from suites.provise import pixels

    view = ctx.view
    labels = np.zeros(view.ids.shape, np.uint8)
    for k, index in enumerate(members, 1):
        labels[pixels.fill_holes(view.mask(index)) & ((view.ids == 0) | view.mask(index))] = k
    return ctx.write_truth(task, labels)


def size(ctx: Context) -> Item | None:
    """Two objects whose volumes differ by the strict ratio. Among the valid pairs, the build
    balances whether the larger one also covers more pixels, and whether it is the nearer
    (``Context.pick``): apparent size is not volume."""
    from suites.provise.battery import closest_choice, largest_choice

    view = ctx.view
    n = len(view.scene.objects)
    pairs = []
    for i in range(n):
        for j in range(n):
            truth = comparison_truth("larger", view.measures[i], view.measures[j], DEFAULT_MARGINS)
            if truth is Truth.HOLDS and view.markable(i) and view.markable(j):
                pairs.append((i, j))
    if not pairs:
        return None

    def cell(pair: tuple[int, int]) -> tuple[bool, bool]:
        seen = view.option_facts(pair)
        return (
            largest_choice(seen["areas"]) == "A",
            closest_choice(seen["distances"]) == "A",
        )

    larger, smaller = ctx.pick(pairs, cell)
    order = [larger, smaller] if ctx.want.position == 0 else [smaller, larger]
    objects = view.scene.objects
    return ctx.item(
        "size",
        "Which of these two objects is larger, that is, has the greater volume in 3D?",
        letter(order.index(larger)),
        options=tuple(name(objects[k]) for k in order),
        facts={
            "truth": _option_regions(ctx, "size", order),
            "objects": [objects[k].id for k in order],
            "volumes": [round(view.measures[k].volume, 6) for k in order],
            "marks": [view.point(k) for k in order],
            **view.option_facts(order),
        },
    )


# -- understanding ---------------------------------------------------------------------------


#: Visible pixels (at 512) an object needs for its overlay to be read.
OVERLAY_PIXELS: Final = 300
#: Share of clearly coloured pixels a scene's image needs for an overlay task: its greyscale
#: version (the "false" answer) must differ from the untouched image.
MIN_COLOURED: Final = 0.02


#: Labels of an overlay item's truth map: the object under the green overlay, the objects under
#: the blue one (one or two), and every other object from ``OTHER_LABEL`` on, one label each.
GREEN_LABEL: Final = 1
BLUE_LABELS: Final = (2, 3)
OTHER_LABEL: Final = 10


def _overlay_truth(ctx: Context, task: str, green: int, blue: Sequence[int]) -> str:
    """Which object each pixel shows, as the overlay protocols read it (``GREEN_LABEL``...)."""
    view = ctx.view
    labels = np.zeros(view.ids.shape, np.uint8)
    others = [k for k in range(len(view.scene.objects)) if k != green and k not in blue]
    for label, index in [
        (GREEN_LABEL, green),
        *zip(BLUE_LABELS, blue, strict=False),
        *((OTHER_LABEL + n, k) for n, k in enumerate(others)),
    ]:
        labels[view.mask(index)] = label
    return ctx.write_truth(task, labels)


def _colourful(ctx: Context) -> bool:
    from suites.provise import pixels

    return pixels.saturated_fraction(ctx.source(), 100, 80) >= MIN_COLOURED


def relationship(ctx: Context) -> Item | None:
    """A statement about two objects' relation in the camera frame, true or false as the
    balanced answer positions say; the relation word is balanced within each answer."""
    view = ctx.view
    objects = view.scene.objects
    big = [i for i in range(len(objects)) if view.mask(i).sum() >= OVERLAY_PIXELS * view.scale**2]
    if not _colourful(ctx):
        return None
    found = []
    for i in big:
        for j in big:
            if i == j:
                continue
            for relation in RELATIONS:
                truth = relation_truth(
                    relation, view.measures[i], view.measures[j], DEFAULT_MARGINS
                )
                if truth is Truth.HOLDS:
                    found.append((i, j, relation))
    if not found:
        return None
    # A blue overlay barely changes a blue object, so the second object is never blue.
    found = [f for f in found if objects[f[1]].color != "blue"]
    if not found:
        return None
    holds = ctx.want.position == 0
    # The stated relation is the one that holds, or its opposite for a false statement; each
    # relation word is as often true as false over the build.
    stated = [(i, j, r if holds else OPPOSITE[r]) for i, j, r in found]
    i, j, relation = ctx.pick(stated, lambda s: (s[2], holds))
    statement = f"{name(objects[i])} is {RELATION_PHRASES[relation]} {name(objects[j])}"
    return ctx.item(
        "relationship",
        f"True or false: {statement}. (Left and right are as seen in the image; in front of "
        "means nearer to the camera.)",
        "true" if holds else "false",
        facts={
            "truth": _overlay_truth(ctx, "relationship", i, [j]),
            "subject": objects[i].id,
            "object": objects[j].id,
            "relation": relation,
            "statement": statement,
        },
    )


def grounding(ctx: Context) -> Item | None:
    view = ctx.view
    candidates = [i for i in range(len(view.scene.objects)) if view.markable(i)]
    if not candidates:
        return None
    target = candidates[int(ctx.rng.integers(len(candidates)))]
    obj = view.scene.objects[target]
    return ctx.item(
        "grounding",
        f"Point to {name(obj)}.",
        obj.id,
        facts={
            "truth": _option_regions(ctx, "grounding", [target]),
            "object": obj.id,
            "marks": [view.point(target)],
        },
    )


# -- reasoning ---------------------------------------------------------------------------------


#: Options of a multi-hop item: the answer and three wrong ones.
MULTIHOP_OPTIONS: Final = 4


def _multihop_options(
    view: SceneView,
    anchor: int,
    members: Sequence[int],
    unclear: Sequence[int],
    winner: int,
    rng: np.random.Generator,
) -> list[tuple[int, list[int]]]:
    """Wrong options for a chain, by the answer's rank by distance among the options: rank r
    takes r - 1 objects clearly closer to the camera than the answer that fail the relation
    (they win the last hop only) and fills up with objects clearly farther, among them, for
    ranks 1 to 3, another member of the relation (it wins the first hop only)."""
    n = len(view.scene.objects)
    closer, farther = [], []
    for k in range(n):
        if k in (anchor, winner) or k in unclear:
            continue
        verdict = comparison_truth(
            "closer", view.measures[k], view.measures[winner], DEFAULT_MARGINS
        )
        if verdict is Truth.HOLDS and k not in members:
            closer.append(k)
        elif verdict is Truth.FAILS:
            farther.append(k)
    others = [k for k in farther if k in members]
    found = []
    for rank in range(1, MULTIHOP_OPTIONS + 1):
        near, far = rank - 1, MULTIHOP_OPTIONS - rank
        if len(closer) < near or len(farther) < far or (far and not others):
            continue
        picked = [int(k) for k in rng.permutation(closer)[:near]]
        if far:
            first = int(others[int(rng.integers(len(others)))])
            rest = [int(k) for k in rng.permutation([k for k in farther if k != first])]
            picked += [first, *rest[: far - 1]]
        found.append((rank, [int(k) for k in rng.permutation(picked)]))
    return found


def multihop(ctx: Context) -> Item | None:
    """Of the objects in a relation to an anchor, the one closest to the camera. The wrong
    options mix objects that fail the relation but are closer (the last hop alone picks them)
    and members of the relation that are farther (the first hop alone does not decide); the
    answer's rank by distance among the options, and whether it covers the most pixels of
    them, are balanced over the build (``Context.pick``)."""
    from suites.provise.battery import largest_choice

    view = ctx.view
    objects = view.scene.objects
    n = len(objects)
    if n < MULTIHOP_OPTIONS + 1:
        return None  # the answer and three wrong options, none of them the anchor
    candidates = []
    for anchor in range(n):
        for relation in RELATIONS:
            truths = [
                relation_truth(relation, view.measures[k], view.measures[anchor], DEFAULT_MARGINS)
                if k != anchor
                else Truth.FAILS
                for k in range(n)
            ]
            members = [k for k in range(n) if truths[k] is Truth.HOLDS]
            unclear = [k for k in range(n) if truths[k] is Truth.UNCLEAR]
            for winner in members:
                # Unclear members of the relation are never options, and must be clearly
                # farther than the answer, so that however they are read it stays the answer.
                rivals = [*(k for k in members if k != winner), *unclear]
                if all(
                    comparison_truth(
                        "closer", view.measures[winner], view.measures[k], DEFAULT_MARGINS
                    )
                    is Truth.HOLDS
                    for k in rivals
                ):
                    found = _multihop_options(view, anchor, members, unclear, winner, ctx.rng)
                    for rank, wrong in found:
                        candidates.append((anchor, relation, members, winner, rank, wrong))
    if not candidates:
        return None

    def cell(c: tuple[int, Relation, list[int], int, int, list[int]]) -> tuple[int, bool]:
        order = [c[3], *c[5]]
        return (c[4], largest_choice([view.area(k) for k in order]) == "A")

    anchor, relation, members, winner, rank, wrong = ctx.pick(candidates, cell)
    order = [*wrong[: ctx.want.position], winner, *wrong[ctx.want.position :]]
    options, answer = place(
        name(objects[winner]), [name(objects[k]) for k in wrong], ctx.want.position
    )
    return ctx.item(
        "multihop",
        f"Consider the objects that are {RELATION_PHRASES[relation]} {name(objects[anchor])}. "
        "Of those, which one is closest to the camera? (Left and right are as seen in the "
        "image; in front of means nearer to the camera.)",
        answer,
        options=options,
        facts={
            "anchor": objects[anchor].id,
            "relation": relation,
            "members": [objects[k].id for k in members],
            "winner": objects[winner].id,
            "rank": rank,
            "options": [objects[k].id for k in order],
            **view.option_facts(order),
        },
    )


def _circumradius(obj: SceneObject) -> float:
    half = obj.size[0] / 2.0
    return half if obj.class_name in ROUND_CLASSES else half * math.sqrt(2.0)


def _hole_radius(torus: SceneObject) -> float:
    unit = (TORUS_MAJOR_RADIUS - TORUS_MINOR_RADIUS) / UNIT_EXTENTS["torus"][0]
    return unit * torus.size[0]


def _clear_between(objects: Sequence[SceneObject], a: int, b: int) -> bool:
    """No third object's footprint comes within 0.1 m of the segment between a's and b's centres."""
    start = np.array([objects[a].position[0], objects[a].position[2]])
    end = np.array([objects[b].position[0], objects[b].position[2]])
    samples = start + np.linspace(0.0, 1.0, 25)[:, None] * (end - start)
    return all(
        float(geometry.footprint_distance(samples, footprint(o)).min()) >= 0.1
        for k, o in enumerate(objects)
        if k not in (a, b)
    )


def feasibility(ctx: Context) -> Item | None:
    view = ctx.view
    objects = view.scene.objects
    n = len(objects)
    # Objects on the ground only: a stacked object (or one carrying another) is no mover or frame.
    big = [
        i
        for i in range(n)
        if view.mask(i).sum() >= OVERLAY_PIXELS * view.scale**2
        and objects[i].parent is None
        and not view.scene.children(objects[i].id)
    ]
    if not _colourful(ctx):
        return None
    found: list[tuple[bool, int, tuple[int, ...], str, dict[str, float]]] = []
    for t in big:
        if objects[t].class_name != "torus":
            continue
        hole = _hole_radius(objects[t])
        for x in big:
            if x == t or objects[x].class_name == "torus":
                continue
            need = _circumradius(objects[x])
            if need * FIT_RATIO <= hole or need >= hole * FIT_RATIO:
                question = (
                    f"Could {name(objects[x])}, kept upright, be lowered straight down through "
                    f"the hole in the middle of {name(objects[t])} without touching it?"
                )
                facts = {"hole_radius": round(hole, 6), "object_radius": round(need, 6)}
                found.append((need < hole, x, (t,), question, facts))
    for a in big:
        for b in big:
            if b <= a:
                continue
            gap = clearance(footprint(objects[a]), footprint(objects[b]))
            if gap > 1.5 or not _clear_between(objects, a, b):
                continue
            for x in big:
                if x in (a, b):
                    continue
                width = objects[x].size[0]
                if width * FIT_RATIO <= gap or width >= gap * FIT_RATIO:
                    question = (
                        f"Could {name(objects[x])} be slid along the ground through the gap "
                        f"between {name(objects[a])} and {name(objects[b])} without touching "
                        "either of them?"
                    )
                    facts = {"gap": round(gap, 6), "object_width": round(width, 6)}
                    found.append((width < gap, x, (a, b), question, facts))
    # A blue overlay barely changes a blue object, so no frame object is blue.
    found = [f for f in found if all(objects[k].color != "blue" for k in f[2])]
    if not found:
        return None
    # The label, within each kind (hole or gap), from the cell least chosen so far; the build
    # then drops the surplus of either label (``balance``).
    fits, mover, frame, question, facts = ctx.pick(found, lambda f: (len(f[2]), f[0]))
    return ctx.item(
        "feasibility",
        f"True or false: {question}",
        "true" if fits else "false",
        facts={
            "truth": _overlay_truth(ctx, "feasibility", mover, frame),
            "kind": "hole" if len(frame) == 1 else "gap",
            "mover": objects[mover].id,
            "frame": [objects[k].id for k in frame],
            **facts,
        },
    )


# -- interaction -------------------------------------------------------------------------------


#: Pixels (at 512) a generative editor's answer may drift. A mask is drawn from scratch and
#: not registered, so an affordance region must keep ``DRIFT_PRECISION`` of itself (the pass
#: mark of precision) when moved that far in any of eight directions: free tops on stacked
#: scenes can be rings too thin for that.
DRIFT: Final = 8.0
DRIFT_PRECISION: Final = 0.5


def _survives_drift(region: NDArray[np.bool_], drift: float) -> bool:
    """The region, moved by ``drift`` pixels in each of eight directions, still overlaps itself
    on at least ``DRIFT_PRECISION`` of its pixels (a correct mask that drifted keeps its
    precision)."""
    area = int(np.count_nonzero(region))
    height, width = region.shape
    for angle in np.arange(8) * np.pi / 4:
        dx, dy = round(drift * math.cos(angle)), round(drift * math.sin(angle))
        moved = np.zeros_like(region)
        moved[max(dy, 0) : height + min(dy, 0), max(dx, 0) : width + min(dx, 0)] = region[
            max(-dy, 0) : height + min(-dy, 0), max(-dx, 0) : width + min(-dx, 0)
        ]
        if np.count_nonzero(moved & region) < DRIFT_PRECISION * area:
            return False
    return True


def affordance(ctx: Context) -> Item | None:
    view = ctx.view
    region = np.zeros(view.ids.shape, bool)
    tops = []
    scene = view.scene
    for i, obj in enumerate(scene.objects):
        face = geometry.top_face(obj)
        if face is None:
            continue
        pixels_xy, _ = view.camera.project(face)
        top = geometry.convex_polygon_mask(pixels_xy, view.width, view.height) & view.mask(i)
        # On stacked splits a top is free only outside the footprints of what rests on it.
        resting = [footprint(scene.get_object(k)) for k in scene.children(obj.id)]
        if resting and top.any():
            rows, cols = np.nonzero(top)
            on_top = geometry.plane_points(
                view.camera, np.column_stack([cols + 0.5, rows + 0.5]), float(face[0, 1])
            )
            covered = np.zeros(len(rows), bool)
            for foot in resting:
                covered |= geometry.footprint_distance(on_top[:, [0, 2]], foot) <= 0.0
            top[rows[covered], cols[covered]] = False
        if top.any():
            region |= top
            tops.append(obj.id)
    if region.sum() < 60 * view.scale**2 or not _survives_drift(region, DRIFT * view.scale):
        return None
    from suites.provise import pixels

    marks = []
    for c in pixels.components(
        region, connectivity=8, min_area=1, min_fill=0.0, min_compactness=0.0
    ):
        # The pixel of each surface farthest from its outline (a free top may be a ring).
        distance = pixels.inside_distance(c.crop)
        y, x = divmod(int(np.argmax(distance)), distance.shape[1])
        marks.append(_norm((c.box[0] + x + 0.5, c.box[1] + y + 0.5), view.width, view.height))
    return ctx.item(
        "affordance",
        "Mark every free, flat, upward-facing top surface in the image on which a small "
        "object could be set down (not the floor, and not where something already rests).",
        "region",
        facts={
            "truth": ctx.write_truth("affordance", region.astype(np.uint8)),
            "objects": tops,
            "pixels": int(region.sum()),
            "marks": marks,
        },
    )


def _blocked(objects: Sequence[SceneObject], points: NDArray[np.float64]) -> NDArray[np.bool_]:
    blocked = np.zeros(len(points), bool)
    for obj in objects:
        blocked |= geometry.footprint_distance(points, footprint(obj)) < PLAN_CLEARANCE
    return blocked


def trajectory(ctx: Context) -> Item | None:
    """A start S and a goal G on visible ground, the straight line between them blocked by an
    object, and the planned path around the objects on visible ground."""
    from suites.provise import pixels
    from suites.provise.metrics import path_crossing

    view = ctx.view
    scene, camera = view.scene, view.camera
    ground = scene.ground
    xs = np.arange(ground.x_range[0] + PLAN_CELL / 2, ground.x_range[1], PLAN_CELL)
    zs = np.arange(ground.z_range[0] + PLAN_CELL / 2, ground.z_range[1], PLAN_CELL)
    cells = np.stack(np.meshgrid(zs, xs, indexing="ij"), axis=-1)[..., ::-1].reshape(-1, 2)
    blocked = _blocked(scene.objects, cells).reshape(len(zs), len(xs))
    cost = np.where(blocked, np.inf, 1.0)
    covered = pixels.morph(view.ids > 0, "dilate", 2 * round(3 * view.scale) + 1)
    inner = pixels.morph(view.ids > 0, "erode", 2 * round(STRAIGHT_INSET * view.scale) + 1)
    margin = 0.08

    def to_image(points: NDArray[np.float64]) -> NDArray[np.float64]:
        world = np.column_stack([points[:, 0], np.full(len(points), ground.height), points[:, 1]])
        return camera.project(world)[0]

    free = np.argwhere(~blocked)
    for _ in range(PATH_TRIES):
        s_cell, g_cell = free[ctx.rng.integers(len(free), size=2)]
        ends = np.array([[xs[c[1]], zs[c[0]]] for c in (s_cell, g_cell)])
        uv = to_image(ends)
        norm = uv / np.array([view.width, view.height])
        if np.any(norm < margin) or np.any(norm > 1 - margin):
            continue
        if float(np.hypot(*(norm[0] - norm[1]))) < MIN_PATH_SPAN:
            continue
        straight = ends[0] + np.linspace(0, 1, 60)[:, None] * (ends[1] - ends[0])
        through = any(
            float(geometry.footprint_distance(straight, footprint(o)).min()) <= 0.0
            for o in scene.objects
        )
        if not through or path_crossing(uv, inner) < STRAIGHT_CROSSING * view.scale:
            continue  # the straight line passes no object, or not clearly in the image
        route = pixels.grid_route(np.where(np.isinf(cost), 1e9, cost), tuple(s_cell), tuple(g_cell))
        if blocked[route[:, 0], route[:, 1]].any():
            continue
        world = np.column_stack([xs[route[:, 1]], zs[route[:, 0]]])
        image_path = to_image(world)
        dense = geometry.resample_path(image_path, 400)
        cols = np.clip(dense[:, 0].astype(int), 0, view.width - 1)
        rows = np.clip(dense[:, 1].astype(int), 0, view.height - 1)
        if covered[rows, cols].any():
            continue  # behind or over an object somewhere: not drawable on visible ground
        path = geometry.resample_path(image_path, PATH_POINTS) / np.array([view.width, view.height])
        image = ctx.source()
        for text, at in (("S", uv[0]), ("G", uv[1])):
            _marker(image, (float(at[0]), float(at[1])), text, view.scale)
        return ctx.item(
            "trajectory",
            "Plan a path along the ground from the start marker S to the goal marker G that goes "
            "around the objects without touching them. The start S is at "
            f"({norm[0][0]:.3f}, {norm[0][1]:.3f}) and the goal G at ({norm[1][0]:.3f}, "
            f"{norm[1][1]:.3f}) in normalised image coordinates.",
            [[round(float(v), 6) for v in p] for p in path],
            inputs=(ctx.write_input("trajectory", image),),
            facts={
                "truth": ctx.write_truth("trajectory", (view.ids > 0).astype(np.uint8)),
                "points": {
                    "S": [round(float(v), 6) for v in norm[0]],
                    "G": [round(float(v), 6) for v in norm[1]],
                },
                "world": [
                    [round(float(v), 4) for v in ends[0]],
                    [round(float(v), 4) for v in ends[1]],
                ],
                "clearance": PLAN_CLEARANCE,
            },
        )
    return None


BUILDERS: Final[dict[str, Builder]] = {
    "counting": counting,
    "depth": depth,
    "size": size,
    "relationship": relationship,
    "grounding": grounding,
    "multihop": multihop,
    "feasibility": feasibility,
    "affordance": affordance,
    "trajectory": trajectory,
}
#: Options each task's balanced answer position ranges over.
POSITIONS: Final = {"depth": 2, "size": 2, "relationship": 2, "multihop": 4}


def load_views(split: Path) -> Iterator[SceneView]:
    from suites.provise import pixels

    folder = Split(split)
    if not folder.scene_ids:
        raise FileFormatError(folder.scenes_dir, "no scene files: not a generated split")
    for index, scene_id in enumerate(folder.scene_ids):
        scene = folder.scene(scene_id)
        if scene.frontal_camera is None:
            raise FileFormatError(folder.scene_path(scene_id), "the scene has no camera")
        image = folder.image_path(scene_id)
        ids_path = split / "masks" / f"{scene.scene_id}.png"
        if not image.is_file():
            raise FileFormatError(image, "no such file (the scene's frontal image)")
        if not ids_path.is_file():
            raise FileFormatError(ids_path, "no such file (the scene's frontal ID pass)")
        ids = pixels.read_labels(ids_path)
        camera = scene.frontal_camera
        if ids.shape != (camera.height, camera.width):
            raise FileFormatError(
                ids_path,
                f"ID pass is {ids.shape[1]}x{ids.shape[0]}, camera {camera.width}x{camera.height}",
            )
        yield SceneView(scene, index, image, ids)


#: What the build evens out after choosing, per task: items are grouped by the first key, and
#: within a group no value of the second key may be commoner than the next commonest (for two
#: values: exactly as common). Feasibility: true and false within torus holes and within gaps
#: (a scene often allows only one of them); multi-hop: the answer's rank by distance among
#: the options (most scenes only have answers nearest of their options); counting: the counts.
BALANCED: Final[dict[str, tuple[Callable[[Item], str], Callable[[Item], str]]]] = {
    "counting": (lambda item: "", lambda item: str(item.answer)),
    "multihop": (lambda item: "", lambda item: str(item.facts["rank"])),
    "feasibility": (lambda item: str(item.facts["kind"]), lambda item: str(item.answer)),
}


def balance(items: Sequence[Item], out: Path) -> list[Item]:
    """``items`` without the last items of the commonest values of ``BALANCED``; the files only
    they used (truth maps, marked inputs) are removed."""
    groups: dict[tuple[str, str], list[Item]] = {}
    for item in items:
        if item.task in BALANCED:
            group, _ = BALANCED[item.task]
            groups.setdefault((item.task, group(item)), []).append(item)
    dropped: set[str] = set()
    for (task, _), group_items in groups.items():
        _, value = BALANCED[task]
        by_value: dict[str, list[Item]] = {}
        for item in group_items:
            by_value.setdefault(value(item), []).append(item)
        sizes = sorted((len(v) for v in by_value.values()), reverse=True)
        cap = sizes[1] if len(sizes) > 1 else 0
        for valued in by_value.values():
            dropped |= {item.item_id for item in valued[cap:]}
    kept = []
    for item in items:
        if item.item_id not in dropped:
            kept.append(item)
            continue
        own = [item.facts.get("truth"), *(i for i in item.inputs if i.startswith("inputs/"))]
        for name in own:
            if name:
                (out / name).unlink(missing_ok=True)
    return kept


def build_items(
    split: Path, out: Path, tasks: Sequence[str], seed: int, hashes: dict[str, str]
) -> Iterator[Item]:
    views = list(load_views(split))
    positions = {
        task: balanced_positions(len(views), POSITIONS.get(task, 1), seed=seed * 1000 + k)
        for k, task in enumerate(TASKS)
    }
    tallies: dict[str, Counter[Hashable]] = {task: Counter() for task in TASKS}
    built = []
    for view in views:
        for k, task in enumerate(TASKS):
            if task not in tasks:
                continue
            rng = np.random.default_rng([seed, view.index, k])
            want = Want(positions[task][view.index])
            ctx = Context(view, out, want, rng, hashes[task], tallies[task])
            item = BUILDERS[task](ctx)
            if item is not None:
                built.append(item)
    yield from balance(built, out)


__all__ = [
    "BUILDERS",
    "LEVELS",
    "TASKS",
    "SceneView",
    "balance",
    "build_items",
    "load_views",
    "name",
]
