"""Answers made from ground truth, for checking the protocols: the oracle drawing of every item
(what a perfect visual model would draw), wrong drawings (the wrong cell, a dot off the
object, ...), empty and all-ink images, the perturbations a real image model's output goes
through, and the true text answer in each contract.

Perturbations are of two kinds. Some change the finished image: JPEG, a resize to 1,024 px and
back, a colour shift, a stray stroke, a shift of up to 8 px, a zoom of up to 5%, a rotation of
up to 2 degrees, letterboxing into a 3:2 canvas, soft (anti-aliased) edges. Others draw the
answer in another hand (``Style``): inks that are not the pure hex colour, overlays at 50%,
marks half the size the guidance asks.

The drawings read the items folder and, for depth maps and overlays, the split the items were
built from (its scenes and ID passes, named by ``suite.json``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from suites.base import Item
from suites.items import ItemSet
from suites.provise import geometry, pixels
from suites.provise.build import SceneView, load_views
from suites.provise.protocols import protocol

Image = NDArray[np.uint8]
#: Overlay opacity the oracle paints (the guidance asks for about 60%).
OPACITY: Final = 0.6
GREEN: Final = (0, 255, 0)
BLUE: Final = (255, 0, 0)
CYAN: Final = (255, 255, 0)
MAGENTA: Final = (255, 0, 255)
RED: Final = (0, 0, 255)
WHITE: Final = (255, 255, 255)
BLACK: Final = (0, 0, 0)
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    """The hand an answer is drawn in: ``inks`` replaces pure ink colours (an editor's
    off-pure green), ``opacity`` is the overlays', ``mark_scale`` the marks' size relative to
    the oracle's (stars, dots, squares, lines)."""

    inks: dict[BGR, BGR] = field(default_factory=dict)
    opacity: float = OPACITY
    mark_scale: float = 1.0

    def ink(self, colour: BGR) -> BGR:
        return self.inks.get(colour, colour)


PLAIN: Final = Style()


class Oracle:
    """Drawings and text answers for the items of one items folder."""

    def __init__(self, items: ItemSet) -> None:
        self.items = items
        self.split = Path(items.manifest["split"])
        self._sources: dict[str, Image] = {}
        self._truths: dict[str, NDArray[np.uint8]] = {}

    @cached_property
    def views(self) -> dict[str, SceneView]:
        return {view.scene.scene_id: view for view in load_views(self.split)}

    def source(self, item: Item) -> Image:
        if item.item_id not in self._sources:
            self._sources[item.item_id] = pixels.read_image(self.items.input_path(item.inputs[0]))
        return self._sources[item.item_id]

    def truth(self, item: Item) -> NDArray[np.uint8] | None:
        name = item.facts.get("truth")
        if name is None:
            return None
        if item.item_id not in self._truths:
            self._truths[item.item_id] = pixels.read_labels(self.items.input_path(name))
        return self._truths[item.item_id]

    def _view(self, item: Item) -> SceneView:
        return self.views[item.scene_id]

    def _mask(self, item: Item, object_id: str) -> NDArray[np.bool_]:
        view = self._view(item)
        index = [o.id for o in view.scene.objects].index(object_id)
        return view.mask(index)

    def _px(self, item: Item, point: Any) -> tuple[float, float]:
        height, width = self.source(item).shape[:2]
        return (float(point[0]) * width, float(point[1]) * height)

    def _scale(self, item: Item) -> float:
        return self.source(item).shape[1] / 512.0

    def _off_object(self, item: Item) -> tuple[float, float]:
        """The background pixel farthest from every object and the image border."""
        view = self._view(item)
        distance = pixels.inside_distance(view.ids == 0)
        y, x = divmod(int(np.argmax(distance)), distance.shape[1])
        return (x + 0.5, y + 0.5)

    # -- drawings -----------------------------------------------------------------------------

    def draw(self, item: Item, *, wrong: bool = False, style: Style = PLAIN) -> Image:
        """The oracle drawing of ``item``, or (``wrong``) a drawing of a wrong answer, in
        ``style``."""
        return DRAWERS[item.task](self, item, wrong, style)

    def empty(self, item: Item) -> Image:
        """An answer with no evidence: the untouched input, or a black depth map or mask."""
        if protocol(item.task).answer["visual"] in ("depth_map", "mask"):
            return np.zeros_like(self.source(item))
        return self.source(item).copy()

    def full(self, item: Item) -> Image:
        """The whole image painted in the protocol's ink."""
        image = np.empty_like(self.source(item))
        image[:] = protocol(item.task).ink
        return image

    def text(self, item: Item) -> str:
        """The true answer in the protocol's text contract."""
        form = protocol(item.task).text_form
        if form in ("count", "option", "boolean"):
            return f"Answer: {item.answer}"
        if form == "path":
            return "Answer: [" + ", ".join(f"({x:.4f}, {y:.4f})" for x, y in item.answer) + "]"
        marks = item.facts["marks"]
        return "Answer: " + "; ".join(f"({x:.4f}, {y:.4f})" for x, y in marks)


def _counting(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    image = oracle.source(item).copy()
    radius = float(item.facts["mark_radius"]) * style.mark_scale
    centres = [oracle._px(item, p) for p in item.facts["marks"]]
    if wrong:
        centres.append(oracle._off_object(item))
    for centre in centres:
        pixels.star(image, centre, radius, style.ink(GREEN))
    return image


def _depth(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    """A depth map from ground truth: the ground plane's exact depth, each object at the depth
    of its centre, the two marked objects at their marked points' exact depths."""
    view = oracle._view(item)
    camera, scene = view.camera, view.scene
    depth = geometry.ground_depth(camera, scene.ground.height, view.width, view.height)
    depth[view.ids == 0] = np.where(_on_ground(view), depth[view.ids == 0], 0.0)
    marked = dict(zip(item.facts["objects"], item.facts["depths"], strict=True))
    for i, obj in enumerate(scene.objects):
        value = marked.get(obj.id)
        if value is None:
            value = float(camera.project(np.array(obj.position))[1][0])
        depth[view.mask(i)] = value
    seen = depth > 0
    near, far = float(depth[seen].min()), float(depth[seen].max())
    level = 40.0 + 215.0 * (far - depth) / max(far - near, 1e-9)
    if wrong:
        level = 295.0 - level
    image = np.where(seen, np.rint(level), 0).astype(np.uint8)
    return np.repeat(image[:, :, None], 3, axis=2)


def _on_ground(view: SceneView) -> NDArray[np.bool_]:
    """Which background pixels show the ground (not the sky): the ray meets the ground's rectangle."""
    camera, ground = view.camera, view.scene.ground
    ys, xs = np.nonzero(view.ids == 0)
    origin, directions = geometry.pixel_rays(camera, np.column_stack([xs + 0.5, ys + 0.5]))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (ground.height - origin[1]) / directions[:, 1]
    hit = origin + t[:, None] * directions
    return (
        (t > 0)
        & (hit[:, 0] >= ground.x_range[0])
        & (hit[:, 0] <= ground.x_range[1])
        & (hit[:, 2] >= ground.z_range[0])
        & (hit[:, 2] <= ground.z_range[1])
    )


def _overlays(
    oracle: Oracle, item: Item, first: list[str], second: list[str], holds: bool, style: Style
) -> Image:
    image = oracle.source(item).copy()
    if not holds:
        return pixels.to_grayscale(image)
    for ids, colour in ((first, GREEN), (second, BLUE)):
        for object_id in ids:
            pixels.blend(image, oracle._mask(item, object_id), style.ink(colour), style.opacity)
    return image


def _relationship(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    holds = (item.answer == "true") != wrong
    return _overlays(oracle, item, [item.facts["subject"]], [item.facts["object"]], holds, style)


def _feasibility(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    holds = (item.answer == "true") != wrong
    frame = list(item.facts["frame"])
    return _overlays(oracle, item, [item.facts["mover"]], frame, holds, style)


def _dot(oracle: Oracle, item: Item, centre: tuple[float, float], style: Style) -> Image:
    image = oracle.source(item).copy()
    radius = 6.0 * oracle._scale(item) * style.mark_scale
    pixels.dot(image, centre, radius, style.ink(CYAN))
    return image


def _grounding(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    centre = oracle._off_object(item) if wrong else oracle._px(item, item.facts["marks"][0])
    return _dot(oracle, item, centre, style)


def _size(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    index = "AB".index(item.answer)
    if wrong:
        index = 1 - index
    return _dot(oracle, item, oracle._px(item, item.facts["marks"][index]), style)


def corner_box(
    index: int, width: int, height: int, scale: float = 1.0
) -> tuple[int, int, int, int]:
    """The oracle's square for corner ``index`` (A-D): 12% of the width (times ``scale``),
    centred in the zone."""
    side = round(0.12 * width * scale)
    cx = 0.16 * width if index % 2 == 0 else 0.84 * width
    cy = 0.16 * height if index < 2 else 0.84 * height
    x0, y0 = round(cx - side / 2), round(cy - side / 2)
    return (x0, y0, x0 + side, y0 + side)


def _multihop(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    image = oracle.source(item).copy()
    index = "ABCD".index(item.answer)
    if wrong:
        index = (index + 1) % len(item.options)
    height, width = image.shape[:2]
    box = corner_box(index, width, height, style.mark_scale)
    pixels.rectangle(image, box, style.ink(MAGENTA))
    return image


def _affordance(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    truth = oracle.truth(item)
    assert truth is not None
    region = truth == 1
    if wrong:
        view = oracle._view(item)
        region = (view.ids > 0) & ~region
        if region.sum() < 100:
            region = view.ids == 0
    image = np.empty_like(oracle.source(item))
    image[:] = style.ink(BLACK)
    image[region] = style.ink(WHITE)
    return image


def _trajectory(oracle: Oracle, item: Item, wrong: bool, style: Style) -> Image:
    image = oracle.source(item).copy()
    height, width = image.shape[:2]
    path = np.asarray(item.answer, float) * np.array([width, height])
    if wrong:
        start = path[0]
        away = np.clip(
            start + (start - path[-1]), [0.05 * width, 0.05 * height], [0.95 * width, 0.95 * height]
        )
        path = np.array([start, away])
    thickness = max(2, round(3 * oracle._scale(item) * style.mark_scale))
    pixels.polyline(image, path, style.ink(RED), thickness)
    return image


DRAWERS: Final[dict[str, Callable[[Oracle, Item, bool, Style], Image]]] = {
    "counting": _counting,
    "depth": _depth,
    "size": _size,
    "relationship": _relationship,
    "grounding": _grounding,
    "multihop": _multihop,
    "feasibility": _feasibility,
    "affordance": _affordance,
    "trajectory": _trajectory,
}


# -- perturbations ------------------------------------------------------------------------------

#: A perturbation of an answer: the plain drawing (``wrong`` says whether it draws a wrong
#: answer) to what the grader receives.
Perturbation = Callable[[Image, np.random.Generator, Item, Oracle, bool], Image]


def jpeg(image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool) -> Image:
    return pixels.decode(pixels.encode_jpeg(image, 70))


def resize_1024(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    height, width = image.shape[:2]
    return pixels.resize(pixels.resize(image, 1024, 1024), width, height)


def colour_shift(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """Every channel moved by up to 10 levels, all pixels alike."""
    offsets = rng.integers(-10, 11, size=3)
    return np.clip(image.astype(np.int16) + offsets, 0, 255).astype(np.uint8)


def stray_stroke(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """A 3-pixel stroke of the protocol's ink, 15% of the width long, away from the evidence
    (the drawing's own marks and the item's marked points)."""
    height, width = image.shape[:2]
    evidence = (
        np.max(np.abs(image.astype(np.int16) - oracle.empty(item).astype(np.int16)), axis=2) > 0
    )
    for x, y in item.facts.get("points", {}).values():
        evidence[int(y * height), int(x * width)] = True
    keep_out = pixels.morph(evidence, "dilate", 2 * round(15 * width / 512) + 1)
    length = 0.15 * width
    ink = protocol(item.task).ink
    for _ in range(200):
        start = rng.uniform([0.05 * width, 0.05 * height], [0.95 * width, 0.95 * height])
        angle = rng.uniform(0, np.pi)
        end = start + length * np.array([np.cos(angle), np.sin(angle)])
        if not (0 <= end[0] < width and 0 <= end[1] < height):
            continue
        canvas = np.zeros_like(image)
        pixels.polyline(canvas, np.array([start, end]), (255, 255, 255), 3)
        line = canvas[:, :, 0] > 0
        if (line & keep_out).any():
            continue
        out = image.copy()
        pixels.polyline(out, np.array([start, end]), ink, 3)
        return out
    return image


def all_four(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """The stroke, the colour shift, the resize and JPEG, in that order."""
    for step in (stray_stroke, colour_shift, resize_1024, jpeg):
        image = step(image, rng, item, oracle, wrong)
    return image


def _signed(rng: np.random.Generator, low: float, high: float) -> float:
    return float(rng.uniform(low, high) * rng.choice([-1.0, 1.0]))


def shift(image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool) -> Image:
    """The picture moved 6-8 px (at 512 px) in a random direction; the border an editor
    leaves is filled with the edge's pixels."""
    scale = image.shape[1] / 512.0
    angle = rng.uniform(0.0, 2.0 * np.pi)
    length = rng.uniform(6.0, 8.0) * scale
    return pixels.warp_similarity(
        image, dx=length * float(np.cos(angle)), dy=length * float(np.sin(angle))
    )


def zoom(image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool) -> Image:
    """The picture scaled by 3-5%, in or out, about its centre."""
    return pixels.warp_similarity(image, scale=1.0 + _signed(rng, 0.03, 0.05))


def rotation(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """The picture turned by 1-2 degrees either way about its centre."""
    return pixels.warp_similarity(image, angle=_signed(rng, 1.0, 2.0))


def letterbox(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """The answer returned at 1,536 x 1,024 (3:2, for a 512 x 512 input): the picture scaled to
    the height and centred between two bars of black, white or mid grey."""
    height, width = image.shape[:2]
    out_height = 2 * height
    out_width = 3 * out_height // 2
    content_width = round(width * out_height / height)
    colour = [(0, 0, 0), (255, 255, 255), (128, 128, 128)][int(rng.integers(3))]
    canvas = np.empty((out_height, out_width, 3), np.uint8)
    canvas[:] = colour
    left = (out_width - content_width) // 2
    canvas[:, left : left + content_width] = pixels.resize(image, content_width, out_height)
    return canvas


def soft_edges(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """Anti-aliased, soft-brushed edits: the change against the untouched input blurred
    (Gaussian, sigma 1 px at 512), so every mark and overlay fades out over a few pixels; a
    depth map or mask, drawn from scratch, is blurred whole."""
    sigma = image.shape[1] / 512.0
    base = oracle.empty(item)
    if protocol(item.task).answer["visual"] in ("depth_map", "mask"):
        return pixels.gaussian_blur(image, sigma)
    change = image.astype(np.float32) - base.astype(np.float32)
    return np.clip(np.rint(base + pixels.gaussian_blur_float(change, sigma)), 0, 255).astype(
        np.uint8
    )


def _off_pure(colour: BGR, rng: np.random.Generator) -> BGR:
    """A pure ink as an editor paints it: every channel 15-35 levels off 0 or 255."""
    blue, green, red = (
        int(c - rng.integers(15, 36)) if c == 255 else int(c + rng.integers(15, 36)) for c in colour
    )
    return (blue, green, red)


def off_pure_inks(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """The answer drawn with inks that are not the pure hex colours (a mask's black and white
    included)."""
    inks = {ink: _off_pure(ink, rng) for ink in (GREEN, BLUE, CYAN, MAGENTA, RED, WHITE, BLACK)}
    return oracle.draw(item, wrong=wrong, style=Style(inks=inks))


def overlays_50(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """Overlays painted at 50% instead of 60% (other answers unchanged)."""
    return oracle.draw(item, wrong=wrong, style=Style(opacity=0.5))


def small_marks(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """Marks at half the oracle's size: stars about 2% of the image wide, dots about 1%,
    corner squares 6%, 2 px lines."""
    return oracle.draw(item, wrong=wrong, style=Style(mark_scale=0.5))


def editor(
    image: Image, rng: np.random.Generator, item: Item, oracle: Oracle, wrong: bool
) -> Image:
    """What one editor might do at once: off-pure inks, soft edges, a shift, a zoom, a
    rotation, then JPEG."""
    image = off_pure_inks(image, rng, item, oracle, wrong)
    for step in (soft_edges, shift, zoom, rotation, jpeg):
        image = step(image, rng, item, oracle, wrong)
    return image


PERTURBATIONS: Final[dict[str, Perturbation]] = {
    "jpeg_q70": jpeg,
    "resize_1024": resize_1024,
    "colour_shift": colour_shift,
    "stray_stroke": stray_stroke,
    "all_four": all_four,
    "shift_8px": shift,
    "zoom_5pct": zoom,
    "rotate_2deg": rotation,
    "letterbox": letterbox,
    "soft_edges": soft_edges,
    "off_pure_inks": off_pure_inks,
    "overlays_50": overlays_50,
    "small_marks": small_marks,
    "editor": editor,
}
#: Combinations, reported but not held to the single perturbations' bar.
COMBINED: Final = frozenset({"all_four", "editor"})


__all__ = ["COMBINED", "DRAWERS", "PERTURBATIONS", "Oracle", "Style", "corner_box"]
