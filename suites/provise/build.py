"""ProVisE items from a generated split: per scene, one item of each task its layout allows.

Every label comes from exact ground truth: the scene file (objects, camera), the split's
frontal ID pass (``masks/<scene>.png``, Blender's, pixel-exact for the image the model sees)
and the meshes Blender rendered (depth by ray casting, ``suites.provise.geometry``). What the
model is shown is the split's image, or a copy with markers (depth's A and B, trajectory's S
and G) written to ``inputs/``; what only the grader reads (target masks, option regions) is
written to ``truth/`` as 8-bit label maps.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Scene, SceneObject
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS
from spatialbabel.files import FileFormatError, atomic_write_bytes, split_paths
from spatialbabel.footprints import ROUND_CLASSES, clearance, footprint
from spatialbabel.relations import (
    DEFAULT_MARGINS,
    OPPOSITE,
    RELATION_PHRASES,
    Relation,
    Truth,
    comparison_truth,
    measure,
    relation_truth,
)
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
RELATIONS: Final[tuple[Relation, ...]] = ("left", "right", "in front", "behind")


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
            if apart and all(view.interiors[i][1] >= 4 * view.scale for i in members):
                groups.append((kind, value, members))
    if not groups:
        return None
    several = [g for g in groups if len(g[2]) >= 2]
    kind, value, members = (several or groups)[int(ctx.rng.integers(len(several or groups)))]
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


def depth(ctx: Context) -> Item | None:
    view = ctx.view
    camera = view.camera
    depths: dict[int, float] = {}
    for i, obj in enumerate(view.scene.objects):
        if view.interiors[i][1] >= (MIN_INTERIOR + 2) * view.scale:
            value = geometry.depth_at(camera, obj, view.interiors[i][0])
            if value is not None:
                depths[i] = value
    pairs = [
        (i, j)
        for i in depths
        for j in depths
        if i < j
        and abs(depths[i] - depths[j])
        >= max(DEPTH_MARGIN[0], DEPTH_MARGIN[1] * min(depths[i], depths[j]))
    ]
    if not pairs:
        return None
    i, j = pairs[int(ctx.rng.integers(len(pairs)))]
    near, far = (i, j) if depths[i] < depths[j] else (j, i)
    first, second = (near, far) if ctx.want.position == 0 else (far, near)
    image = ctx.source()
    points = {"A": view.interiors[first][0], "B": view.interiors[second][0]}
    for text, at in points.items():
        _marker(image, at, text, view.scale)
    return ctx.item(
        "depth",
        "Two points in the image are marked A and B. Which of the two points is closer to the camera?",
        "A" if first == near else "B",
        inputs=(ctx.write_input("depth", image),),
        options=("the point marked A", "the point marked B"),
        facts={
            "points": {k: _norm(p, view.width, view.height) for k, p in points.items()},
            "objects": [view.scene.objects[first].id, view.scene.objects[second].id],
            "depths": [round(depths[first], 6), round(depths[second], 6)],
            "areas": [view.area(first), view.area(second)],
        },
    )


def _option_regions(ctx: Context, task: str, members: Sequence[int]) -> str:
    view = ctx.view
    labels = np.zeros(view.ids.shape, np.uint8)
    for k, index in enumerate(members, 1):
        labels[view.mask(index)] = k
    return ctx.write_truth(task, labels)


def size(ctx: Context) -> Item | None:
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
    larger, smaller = pairs[int(ctx.rng.integers(len(pairs)))]
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
    i, j, relation = found[int(ctx.rng.integers(len(found)))]
    holds = ctx.want.position == 0
    if not holds:
        relation = OPPOSITE[relation]
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


def multihop(ctx: Context) -> Item | None:
    view = ctx.view
    objects = view.scene.objects
    n = len(objects)
    if n < 5:
        return None  # the answer and three wrong options, none of them the anchor
    chains = []
    for anchor in range(n):
        for relation in RELATIONS:
            truths = [
                relation_truth(relation, view.measures[k], view.measures[anchor], DEFAULT_MARGINS)
                if k != anchor
                else Truth.FAILS
                for k in range(n)
            ]
            if any(t is Truth.UNCLEAR for t in truths):
                continue
            members = [k for k in range(n) if truths[k] is Truth.HOLDS]
            if len(members) < 2:
                continue
            for winner in members:
                if all(
                    comparison_truth(
                        "closer", view.measures[winner], view.measures[k], DEFAULT_MARGINS
                    )
                    is Truth.HOLDS
                    for k in members
                    if k != winner
                ):
                    chains.append((anchor, relation, members, winner))
    if not chains:
        return None
    anchor, relation, members, winner = chains[int(ctx.rng.integers(len(chains)))]
    others = [k for k in members if k != winner] + [
        k for k in range(n) if k not in members and k != anchor
    ]
    wrong = [name(objects[k]) for k in others[:3]]
    options, answer = place(name(objects[winner]), wrong, ctx.want.position)
    by_name = {name(objects[k]): k for k in range(n)}
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
            "options": [objects[by_name[o]].id for o in options],
            **view.option_facts([by_name[o] for o in options]),
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
    wanted = ctx.want.position == 0
    pool = [f for f in found if f[0] == wanted] or found
    fits, mover, frame, question, facts = pool[int(ctx.rng.integers(len(pool)))]
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
    if region.sum() < 60 * view.scale**2:
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
    from suites.provise import pixels

    view = ctx.view
    scene, camera = view.scene, view.camera
    ground = scene.ground
    xs = np.arange(ground.x_range[0] + PLAN_CELL / 2, ground.x_range[1], PLAN_CELL)
    zs = np.arange(ground.z_range[0] + PLAN_CELL / 2, ground.z_range[1], PLAN_CELL)
    cells = np.stack(np.meshgrid(zs, xs, indexing="ij"), axis=-1)[..., ::-1].reshape(-1, 2)
    blocked = _blocked(scene.objects, cells).reshape(len(zs), len(xs))
    cost = np.where(blocked, np.inf, 1.0)
    covered = pixels.morph(view.ids > 0, "dilate", 2 * round(3 * view.scale) + 1)
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
        if not _blocked(scene.objects, straight).any():
            continue  # the straight line is free: nothing to go around
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
POSITIONS: Final = {"depth": 2, "size": 2, "relationship": 2, "feasibility": 2, "multihop": 4}


def load_views(split: Path) -> Iterator[SceneView]:
    from suites.provise import pixels

    paths = split_paths(split)
    files = sorted(paths["scenes"].glob("*.json"))
    if not files:
        raise FileFormatError(paths["scenes"], "no scene files: not a generated split")
    for index, path in enumerate(files):
        scene = Scene.load(path)
        if scene.frontal_camera is None:
            raise FileFormatError(path, "the scene has no camera")
        image = paths["images"] / f"{scene.scene_id}.png"
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


def build_items(
    split: Path, out: Path, tasks: Sequence[str], seed: int, hashes: dict[str, str]
) -> Iterator[Item]:
    views = list(load_views(split))
    positions = {
        task: balanced_positions(len(views), POSITIONS.get(task, 1), seed=seed * 1000 + k)
        for k, task in enumerate(TASKS)
    }
    for view in views:
        for k, task in enumerate(TASKS):
            if task not in tasks:
                continue
            rng = np.random.default_rng([seed, view.index, k])
            ctx = Context(view, out, Want(positions[task][view.index]), rng, hashes[task])
            item = BUILDERS[task](ctx)
            if item is not None:
                yield item


__all__ = ["BUILDERS", "LEVELS", "TASKS", "SceneView", "build_items", "load_views", "name"]
