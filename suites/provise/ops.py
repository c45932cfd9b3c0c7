"""The typed parser operations that protocols are written in, shared by every protocol.

Each operation has a name, the types of the values it reads (``in``, by name), the type of the
value it writes (``out``) and typed parameters; ``check_program`` verifies a protocol's list of
steps against these signatures when the protocol is loaded (every name defined before it is
read, every type as the operation expects, every parameter known and of its type), so a
protocol that cannot run is refused before anything is graded. ``run_program`` executes the
steps; the pixel kernels are in ``suites.provise.pixels``, imported on first use.

An operation that finds the contract broken (no mark, two marks where one is asked, a tie)
raises ``Noncompliance``; one that cannot turn the evidence it found into an answer raises
``ParserFailure``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import numpy as np

if TYPE_CHECKING:
    from suites.provise.pixels import Component

#: The value types a program passes between operations.
TYPES: Final = frozenset(
    {
        "image",
        "mask",
        "labels",
        "components",
        "component",
        "point",
        "number",
        "label",
        "path",
        "regions",
    }
)
#: The values every program starts with: the drawn answer at the source's size, the item's
#: input image it was drawn on, and the item's truth label map (when the item has one).
INITIAL: Final[dict[str, str]] = {"drawn": "image", "source": "image", "truth": "labels"}


class Noncompliance(Exception):
    """The drawing breaks the answer contract."""


class ParserFailure(Exception):
    """The contract was kept, but no answer could be read from the evidence."""


class ProgramError(ValueError):
    """A protocol's steps do not fit the operations' signatures."""


@dataclass(frozen=True)
class Context:
    """What a program may read besides its images: the item's points, by name (pixel
    coordinates at the source's size), and its option labels."""

    points: Mapping[str, tuple[float, float]]
    options: Sequence[str]


Kernel = Callable[..., Any]


@dataclass(frozen=True)
class Operation:
    name: str
    inputs: tuple[str, ...]
    output: str
    params: Mapping[str, type | tuple[type, ...]]
    run: Kernel
    #: Parameters that may be left out, with their defaults.
    defaults: Mapping[str, Any]


OPERATIONS: dict[str, Operation] = {}


def operation(
    name: str,
    inputs: tuple[str, ...],
    output: str,
    params: Mapping[str, type | tuple[type, ...]] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Callable[[Kernel], Kernel]:
    def register(kernel: Kernel) -> Kernel:
        OPERATIONS[name] = Operation(name, inputs, output, params or {}, kernel, defaults or {})
        return kernel

    return register


def _px() -> Any:
    from suites.provise import pixels

    return pixels


# -- colour, difference, masks --------------------------------------------------------------


@operation("hsv_range", ("image",), "mask", {"ranges": list})
def _hsv_range(ctx: Context, p: dict[str, Any], image: Any) -> Any:
    """Pixels inside any of the HSV boxes ``[[h, s, v], [h, s, v]]`` (hue 0-180)."""
    return _px().hsv_mask(image, [(low, high) for low, high in p["ranges"]])


@operation("channel_excess", ("image",), "mask", {"channel": str, "minimum": int})
def _channel_excess(ctx: Context, p: dict[str, Any], image: Any) -> Any:
    channel = {"blue": 0, "green": 1, "red": 2}[p["channel"]]
    return _px().channel_excess(image, channel, p["minimum"])


@operation("changed", ("image", "image"), "mask", {"threshold": int, "by": str}, {"by": "channel"})
def _changed(ctx: Context, p: dict[str, Any], drawn: Any, source: Any) -> Any:
    """The difference against the source image."""
    return _px().changed(drawn, source, p["threshold"], by=p["by"])


@operation(
    "overlay",
    ("image", "image"),
    "mask",
    {
        "ink": str,
        "hues": list,
        "min_saturation": int,
        "min_change": float,
        "min_alpha": float,
        "max_residual": float,
    },
)
def _overlay(ctx: Context, p: dict[str, Any], drawn: Any, source: Any) -> Any:
    """Pixels under a translucent layer of ``ink`` (``#RRGGBB``): the change against the
    source points toward the ink (``pixels.overlay_mask``)."""
    from suites.provise.protocols import hex_bgr

    return _px().overlay_mask(
        drawn,
        source,
        hex_bgr(p["ink"]),
        hues=[(low, high) for low, high in p["hues"]],
        min_saturation=p["min_saturation"],
        min_change=p["min_change"],
        min_alpha=p["min_alpha"],
        max_residual=p["max_residual"],
    )


@operation("likeness", ("image", "image"), "number")
def _likeness(ctx: Context, p: dict[str, Any], first: Any, second: Any) -> Any:
    """Normalised cross-correlation of the two images' grey levels (1: the same picture)."""
    return _px().likeness(first, second)


@operation("both", ("mask", "mask"), "mask")
def _both(ctx: Context, p: dict[str, Any], a: Any, b: Any) -> Any:
    return a & b


@operation("either", ("mask", "mask"), "mask")
def _either(ctx: Context, p: dict[str, Any], a: Any, b: Any) -> Any:
    return a | b


@operation("morph", ("mask",), "mask", {"operation": str, "size": int})
def _morph(ctx: Context, p: dict[str, Any], mask: Any) -> Any:
    return _px().morph(mask, p["operation"], p["size"])


@operation("binarize", ("image",), "mask", {"threshold": int})
def _binarize(ctx: Context, p: dict[str, Any], image: Any) -> Any:
    """Grey level above ``threshold``."""
    return _px().gray(image) > p["threshold"]


# -- components ---------------------------------------------------------------------------------


@operation(
    "components",
    ("mask",),
    "components",
    {"connectivity": int, "min_area": int, "min_fill": float, "min_compactness": float},
    {"connectivity": 8, "min_fill": 0.0, "min_compactness": 0.0},
)
def _components(ctx: Context, p: dict[str, Any], mask: Any) -> Any:
    return _px().components(
        mask,
        connectivity=p["connectivity"],
        min_area=p["min_area"],
        min_fill=p["min_fill"],
        min_compactness=p["min_compactness"],
    )


@operation("median_area", ("components",), "components", {"low": float, "high": float})
def _median_area(ctx: Context, p: dict[str, Any], found: list[Component]) -> Any:
    """Keeps the components whose area is within [low, high] times the median area."""
    if not found:
        return found
    median = float(np.median([c.area for c in found]))
    return [c for c in found if p["low"] * median <= c.area <= p["high"] * median]


@operation("count", ("components",), "number")
def _count(ctx: Context, p: dict[str, Any], found: list[Component]) -> Any:
    return len(found)


@operation("best_component", ("components",), "component", {"ambiguity": float})
def _best_component(ctx: Context, p: dict[str, Any], found: list[Component]) -> Any:
    """The component with the largest area x fill x compactness; a runner-up scoring at least
    ``ambiguity`` times as much makes the mark ambiguous."""
    if not found:
        raise Noncompliance("no mark found")
    scores = sorted(
        ((c.area * c.fill * c.compactness, i) for i, c in enumerate(found)), reverse=True
    )
    if len(scores) > 1 and scores[1][0] >= p["ambiguity"] * scores[0][0]:
        raise Noncompliance(f"{len(found)} marks of similar size where one is asked")
    return found[scores[0][1]]


@operation("nearest_component", ("components", "point"), "component")
def _nearest_component(ctx: Context, p: dict[str, Any], found: list[Component], point: Any) -> Any:
    """The component with a pixel nearest to ``point``."""
    if not found:
        raise Noncompliance("no stroke found")
    best, best_distance = found[0], float("inf")
    for component in found:
        centres = component.points()
        distance = float(np.min(np.hypot(centres[:, 0] - point[0], centres[:, 1] - point[1])))
        if distance < best_distance:
            best, best_distance = component, distance
    return best


@operation("centroid", ("component",), "point")
def _centroid(ctx: Context, p: dict[str, Any], component: Component) -> Any:
    return component.centroid


# -- reading answers ----------------------------------------------------------------------------


@operation("point_label", ("point", "labels"), "label", {"outside": str})
def _point_label(ctx: Context, p: dict[str, Any], point: Any, truth: Any) -> Any:
    """The option whose region of the label map holds ``point`` (region k is option k),
    ``outside`` where none does."""
    h, w = truth.shape
    x, y = min(max(int(point[0]), 0), w - 1), min(max(int(point[1]), 0), h - 1)
    value = int(truth[y, x])
    if value == 0 or value > len(ctx.options):
        return p["outside"]
    return ctx.options[value - 1]


@operation("corner_code", ("mask",), "label", {"zone": float, "margin": float, "min_pixels": int})
def _corner_code(ctx: Context, p: dict[str, Any], mask: Any) -> Any:
    """The corner zone (top-left, top-right, bottom-left, bottom-right: options A-D) holding
    the most mark pixels."""
    counts = _px().corner_counts(mask, p["zone"], p["margin"])
    best = int(np.argmax(counts))
    if counts[best] < p["min_pixels"]:
        raise Noncompliance("no mark in any corner zone")
    if sorted(counts)[-2] == counts[best]:
        raise Noncompliance("marks in two corner zones equally")
    if best >= len(ctx.options):
        raise ParserFailure(f"corner {best + 1} names no option (the item has {len(ctx.options)})")
    return ctx.options[best]


@operation(
    "grid_cell", ("mask",), "label", {"rows": int, "cols": int, "min_pixels": int, "cells": list}
)
def _grid_cell(ctx: Context, p: dict[str, Any], mask: Any) -> Any:
    """The cell of a rows x cols grid holding the most mark pixels, named by ``cells`` (row by
    row; null for a cell that names nothing)."""
    counts = _px().grid_counts(mask, p["rows"], p["cols"]).ravel()
    best = int(np.argmax(counts))
    if counts[best] < p["min_pixels"]:
        raise Noncompliance("no filled cell")
    name = p["cells"][best]
    if name is None:
        raise ParserFailure(
            f"the filled cell (row {best // p['cols'] + 1}, column {best % p['cols'] + 1}) names nothing"
        )
    return name


@operation("fact_point", (), "point", {"name": str})
def _fact_point(ctx: Context, p: dict[str, Any]) -> Any:
    return ctx.points[p["name"]]


@operation("local_mean", ("image", "point"), "number", {"size": int})
def _local_mean(ctx: Context, p: dict[str, Any], image: Any, point: Any) -> Any:
    """The k x k mean grey level at ``point``."""
    return _px().local_mean(image, point, p["size"])


@operation("brighter", ("number", "number"), "label")
def _brighter(ctx: Context, p: dict[str, Any], first: float, second: float) -> Any:
    """The first option when the first value is higher, the second when the second is; an
    exact tie (both black included) breaks the contract."""
    if first == 0.0 and second == 0.0:
        raise Noncompliance("both points are black")
    if first == second:
        raise Noncompliance(f"a tie: both points read {first:.2f}")
    return ctx.options[0] if first > second else ctx.options[1]


@operation("covered", ("mask", "labels"), "regions", {"min_share": float, "min_pixels": int})
def _covered(ctx: Context, p: dict[str, Any], mask: Any, truth: Any) -> Any:
    """The regions of the item's label map (its objects) that ``mask`` covers: at least
    ``min_share`` of each region's pixels, and at least ``min_pixels``."""
    return frozenset(_px().region_cover(mask, truth, p["min_share"], p["min_pixels"]))


@operation(
    "overlay_verdict",
    ("regions", "regions", "number", "labels"),
    "label",
    {"green": list, "blue": list, "max_false": float},
)
def _overlay_verdict(
    ctx: Context, p: dict[str, Any], green: Any, blue: Any, colour: float, truth: Any
) -> Any:
    """ "true" when the green overlay covers exactly the objects the question names for it
    (regions ``green`` of the label map) and the blue one exactly those named for it
    (``blue``); "true, on other objects" when both overlays are drawn but on other objects
    (a wrong answer); "false" when neither is drawn and the image is grey (a colour fraction
    at most ``max_false``)."""
    present = set(np.unique(truth).tolist())
    want_green = {k for k in p["green"] if k in present}
    want_blue = {k for k in p["blue"] if k in present}
    if green or blue:
        if set(green) == want_green and set(blue) == want_blue:
            return "true"
        if green and blue:
            return "true, on other objects"
        raise Noncompliance("one of the two overlays of 'true' is missing")
    if colour <= p["max_false"]:
        return "false"
    raise Noncompliance("neither the overlays of 'true' nor the grey image of 'false'")


@operation("pixels", ("mask",), "number")
def _pixels(ctx: Context, p: dict[str, Any], mask: Any) -> Any:
    return int(np.count_nonzero(mask))


@operation("colour_fraction", ("image",), "number", {"min_saturation": int, "min_value": int})
def _colour_fraction(ctx: Context, p: dict[str, Any], image: Any) -> Any:
    """Fraction of the image's pixels that are clearly coloured (not grey)."""
    return _px().saturated_fraction(image, p["min_saturation"], p["min_value"])


@operation("skeleton_path", ("component", "point"), "path", {"points": int})
def _skeleton_path(ctx: Context, p: dict[str, Any], component: Component, start: Any) -> Any:
    """Skeleton, its longest walk from the end nearest ``start``, resampled to ``points``."""
    from suites.provise.geometry import resample_path

    walk = _px().skeleton_path(component, start)
    if len(walk) < 2:
        raise ParserFailure("the stroke has no length")
    return resample_path(walk, p["points"])


# -- checking and running -------------------------------------------------------------------


def _check_param(op: Operation, key: str, value: Any, where: str) -> None:
    expected = op.params[key]
    kinds = expected if isinstance(expected, tuple) else (expected,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        return
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise ProgramError(f"{where}: parameter {key!r} must be {names}, got {value!r}")


def check_program(steps: Sequence[Mapping[str, Any]], initial: Mapping[str, str]) -> dict[str, str]:
    """Check every step against its operation's signature; returns the type of every name."""
    types = dict(initial)
    for number, step in enumerate(steps, 1):
        where = f"step {number} ({step.get('op')!r})"
        op = OPERATIONS.get(step.get("op", ""))
        if op is None:
            raise ProgramError(
                f"{where}: unknown operation; known: {', '.join(sorted(OPERATIONS))}"
            )
        names = list(step.get("in", []))
        if len(names) != len(op.inputs):
            raise ProgramError(f"{where}: reads {len(op.inputs)} values, given {len(names)}")
        for name, wanted in zip(names, op.inputs, strict=True):
            if name not in types:
                raise ProgramError(f"{where}: {name!r} is not defined before it")
            if types[name] != wanted:
                raise ProgramError(f"{where}: {name!r} is a {types[name]}, not a {wanted}")
        params = {k: v for k, v in step.items() if k not in ("op", "in", "out")}
        for key in params:
            if key not in op.params:
                raise ProgramError(f"{where}: unknown parameter {key!r}")
            _check_param(op, key, params[key], where)
        for key in op.params:
            if key not in params and key not in op.defaults:
                raise ProgramError(f"{where}: parameter {key!r} is missing")
        out = step.get("out")
        if not isinstance(out, str) or out in INITIAL:
            raise ProgramError(f"{where}: 'out' must name a new value, got {out!r}")
        types[out] = op.output
    return types


def run_step(step: Mapping[str, Any], values: dict[str, Any], ctx: Context) -> Any:
    op = OPERATIONS[step["op"]]
    params = {**op.defaults, **{k: v for k, v in step.items() if k not in ("op", "in", "out")}}
    return op.run(ctx, params, *(values[name] for name in step.get("in", [])))


__all__ = [
    "INITIAL",
    "OPERATIONS",
    "TYPES",
    "Context",
    "Noncompliance",
    "Operation",
    "ParserFailure",
    "ProgramError",
    "check_program",
    "run_step",
]
