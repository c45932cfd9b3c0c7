"""Per-reply comparison figures: true image | re-rendered prediction | overlay | top-down plan.

The plan view looks down the Y axis at the ground (x right, +z down, so the frontal camera is
at the bottom as in the image): true objects are rings the size of their footprint, predicted
ones are markers (shape by class), and each Hungarian pair is joined by a line.
Figures are drawn on matplotlib's ``Figure`` with the Agg canvas, never through pyplot, so no
global state or display is involved.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from numpy.typing import NDArray
from PIL import Image

from spatialbabel import CLASSES, UNKNOWN_CLASS, Scene, SceneObject, world_aabb
from spatialbabel.files import atomic_write_bytes

#: Marker of each class in the plan view.
CLASS_MARKERS: Final[dict[str, str]] = {
    "cube": "s",
    "sphere": "o",
    "cylinder": "H",
    "cone": "^",
    "pyramid": "D",
    "torus": "p",
    UNKNOWN_CLASS: "X",
}
assert set(CLASSES) <= set(CLASS_MARKERS)

#: Colour of objects without one, in figures (sRGB).
NO_COLOR: Final = (0.55, 0.55, 0.55)
#: The plan view never spans more than this many ground widths, so one wild guess cannot
#: shrink the rest of the scene to a dot.
MAX_VIEW_SPAN: Final = 3.0
DPI: Final = 100


def as_rgb(image: NDArray[np.generic]) -> NDArray[np.uint8]:
    """An 8-bit RGB copy of a grey, RGB or RGBA image."""
    array = np.asarray(image)
    if array.dtype != np.uint8:
        array = np.clip(
            np.rint(array.astype(float) * (255.0 if array.max(initial=0) <= 1.0 else 1.0)), 0, 255
        ).astype(np.uint8)
    if array.ndim == 2:
        return np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim == 3 and array.shape[2] >= 3:
        return np.ascontiguousarray(array[:, :, :3])
    raise ValueError(f"expected a grey, RGB or RGBA image, got shape {array.shape}")


def load_rgb(path: Path) -> NDArray[np.uint8]:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def instance_edges(instances: NDArray[np.integer[Any]]) -> NDArray[np.bool_]:
    """Pixels of an object whose right, left, upper or lower neighbour shows something else."""
    edges = np.zeros(instances.shape, dtype=bool)
    horizontal = instances[:, 1:] != instances[:, :-1]
    vertical = instances[1:, :] != instances[:-1, :]
    edges[:, 1:] |= horizontal
    edges[:, :-1] |= horizontal
    edges[1:, :] |= vertical
    edges[:-1, :] |= vertical
    return edges & (instances > 0)


def overlay(
    true_image: NDArray[np.uint8],
    predicted_color: NDArray[np.uint8],
    predicted_instances: NDArray[np.integer[Any]],
    *,
    alpha: float = 0.55,
) -> NDArray[np.uint8]:
    """The true image with the predicted objects blended over it and outlined in white."""
    base = as_rgb(true_image)
    if base.shape[:2] != predicted_instances.shape:
        height, width = predicted_instances.shape
        base = np.asarray(Image.fromarray(base).resize((width, height), Image.Resampling.BILINEAR))
    result = base.astype(np.float32)
    covered = predicted_instances > 0
    result[covered] = (1.0 - alpha) * result[covered] + alpha * as_rgb(predicted_color)[
        covered
    ].astype(np.float32)
    result[instance_edges(predicted_instances)] = 255.0
    return np.clip(np.rint(result), 0, 255).astype(np.uint8)


def _rgb(obj: SceneObject) -> tuple[float, float, float]:
    return obj.rgb if obj.rgb is not None else NO_COLOR


def footprint_radius(obj: SceneObject) -> float:
    """Half the mean width of the object's exact bounding box on the ground."""
    low, high = world_aabb(obj)
    return float(0.25 * ((high[0] - low[0]) + (high[2] - low[2])))


def _view_limits(
    truth: Scene, prediction: Scene | None
) -> tuple[tuple[float, float], tuple[float, float]]:
    ground = truth.ground
    xs = [*ground.x_range] + [o.position[0] for o in truth.objects]
    zs = [*ground.z_range] + [o.position[2] for o in truth.objects]
    if prediction is not None:
        xs += [o.position[0] for o in prediction.objects]
        zs += [o.position[2] for o in prediction.objects]
    span = max(ground.x_range[1] - ground.x_range[0], ground.z_range[1] - ground.z_range[0])
    centre_x, centre_z = sum(ground.x_range) / 2, sum(ground.z_range) / 2
    reach = MAX_VIEW_SPAN * span / 2
    margin = 0.08 * span

    def limits(values: list[float], centre: float) -> tuple[float, float]:
        low = max(min(values), centre - reach) - margin
        high = min(max(values), centre + reach) + margin
        return (low, high)

    return limits(xs, centre_x), limits(zs, centre_z)


def draw_plan(
    ax: Axes,
    truth: Scene,
    prediction: Scene | None,
    pairs: Sequence[tuple[int, int]],
    *,
    legend: bool = True,
) -> int:
    """Draw the top-down plan on ``ax``; ``pairs`` are (predicted index, true index).

    Returns how many predicted objects fall outside the drawn area.
    """
    ground = truth.ground
    (x0, x1), (z0, z1) = ground.x_range, ground.z_range
    ax.add_patch(
        Rectangle(
            (x0, z0), x1 - x0, z1 - z0, facecolor="#d9d9d6", edgecolor="#9a9a96", lw=1.0, zorder=0
        )
    )
    for obj in truth.objects:
        x, _, z = obj.position
        ring = Circle(
            (x, z), footprint_radius(obj), fill=False, lw=2.6, edgecolor=_rgb(obj), zorder=2
        )
        halo = Circle(
            (x, z), footprint_radius(obj), fill=False, lw=3.6, edgecolor="#303030", zorder=1.9
        )
        ax.add_patch(halo)
        ax.add_patch(ring)
    predicted = prediction.objects if prediction is not None else ()
    for p, t in pairs:
        if 0 <= p < len(predicted) and 0 <= t < len(truth.objects):
            a, b = predicted[p].position, truth.objects[t].position
            ax.plot([a[0], b[0]], [a[2], b[2]], color="#202020", lw=1.0, ls="--", zorder=3)
    for obj in predicted:
        ax.scatter(
            [obj.position[0]],
            [obj.position[2]],
            marker=CLASS_MARKERS.get(obj.class_name, "X"),
            s=70,
            c=[_rgb(obj)],
            edgecolors="#101010",
            linewidths=0.9,
            zorder=4,
        )
    (lx0, lx1), (lz0, lz1) = _view_limits(truth, prediction)
    ax.set_xlim(lx0, lx1)
    ax.set_ylim(lz1, lz0)  # +z (towards the frontal camera) points down, as in the image
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m), camera side down")
    ax.grid(True, color="#ffffff", lw=0.5, alpha=0.6)
    outside = sum(
        1 for o in predicted if not (lx0 <= o.position[0] <= lx1 and lz0 <= o.position[2] <= lz1)
    )
    if legend:
        handles = [
            Line2D(
                [],
                [],
                marker="o",
                ls="",
                markerfacecolor="none",
                markeredgecolor="#303030",
                markersize=9,
                label="true",
            ),
            *(
                Line2D(
                    [],
                    [],
                    marker=CLASS_MARKERS.get(c, "X"),
                    ls="",
                    color="#808080",
                    markeredgecolor="#101010",
                    label=c,
                )
                for c in sorted(
                    {o.class_name for o in predicted}, key=lambda c: (c not in CLASSES, c)
                )
            ),
            Line2D([], [], color="#202020", ls="--", lw=1.0, label="pair"),
        ]
        ax.legend(
            handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False
        )
    return outside


def reply_figure(
    true_image: NDArray[np.uint8],
    truth: Scene,
    prediction: Scene | None,
    predicted_color: NDArray[np.uint8] | None,
    predicted_instances: NDArray[np.integer[Any]] | None,
    pairs: Sequence[tuple[int, int]],
    *,
    title: str = "",
) -> Figure:
    """Four panels: true image, re-rendered prediction, overlay, and the plan view.

    A prediction that could not be drawn (a failed parse) leaves the middle panels empty with
    a note.
    """
    figure = Figure(figsize=(17.5, 4.4), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, 4, gridspec_kw={"width_ratios": [1, 1, 1, 1.35]})
    base = as_rgb(true_image)
    panels: list[tuple[str, NDArray[np.uint8] | None]] = [("true image", base)]
    if predicted_color is not None and predicted_instances is not None:
        panels.append(("re-rendered prediction", as_rgb(predicted_color)))
        panels.append(
            ("overlay (prediction over truth)", overlay(base, predicted_color, predicted_instances))
        )
    else:
        panels += [("re-rendered prediction", None), ("overlay", None)]
    for ax, (label, image) in zip(axes[:3], panels, strict=True):
        ax.set_title(label, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
        if image is None:
            ax.set_facecolor("#eeeeee")
            ax.text(
                0.5,
                0.5,
                "nothing to draw\n(no objects parsed)",
                ha="center",
                va="center",
                transform=ax.transAxes,
            )
        else:
            ax.imshow(image, interpolation="nearest")
    outside = draw_plan(axes[3], truth, prediction, pairs)
    plan_title = "top-down: rings true, markers predicted"
    if outside:
        plan_title += f" ({outside} off the plot)"
    axes[3].set_title(plan_title, fontsize=10)
    if title:
        figure.suptitle(title, fontsize=11)
    return figure


def figure_png(figure: Figure, *, dpi: int = DPI) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def save_figure(figure: Figure, path: Path, *, dpi: int = DPI) -> None:
    """Write ``figure`` as a PNG, atomically."""
    atomic_write_bytes(path, figure_png(figure, dpi=dpi))
