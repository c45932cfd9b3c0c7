"""Per-reply figures: the overlay's pixels, the plan view's marks, and the saved PNG."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from PIL import Image

from render.figures import (
    CLASS_MARKERS,
    as_rgb,
    draw_plan,
    footprint_radius,
    instance_edges,
    overlay,
    reply_figure,
    save_figure,
)
from spatialbabel import CLASSES, Scene, SceneObject
from tests.render.conftest import front_camera


def test_instance_edges_mark_the_rim_of_each_object_only() -> None:
    labels = np.zeros((10, 10), np.uint16)
    labels[1:9, 1:5] = 1
    labels[1:9, 5:9] = 2
    edges = instance_edges(labels)
    assert not edges[labels == 0].any()
    # The outer rim and both sides of the border between the two objects.
    assert (
        edges[1, 1:9].all() and edges[1:9, 1].all() and edges[2:8, 4].all() and edges[2:8, 5].all()
    )
    assert not edges[2:8, 2:4].any() and not edges[2:8, 6:8].any()


def test_overlay_blends_only_where_the_prediction_is() -> None:
    truth = np.full((8, 8, 3), 100, np.uint8)
    predicted = np.full((8, 8, 3), 200, np.uint8)
    labels = np.zeros((8, 8), np.uint16)
    labels[2:6, 2:6] = 1
    result = overlay(truth, predicted, labels, alpha=0.5)
    assert (result[labels == 0] == 100).all()
    assert (result[3:5, 3:5] == 150).all()
    assert (result[2, 2:6] == 255).all()  # the outline


def test_overlay_resizes_a_true_image_of_another_size() -> None:
    truth = np.full((4, 4), 50, np.uint8)
    labels = np.zeros((8, 12), np.uint16)
    assert overlay(truth, np.zeros((8, 12, 3), np.uint8), labels).shape == (8, 12, 3)


def test_as_rgb_accepts_grey_rgba_and_float() -> None:
    assert as_rgb(np.zeros((2, 3), np.uint8)).shape == (2, 3, 3)
    assert as_rgb(np.zeros((2, 3, 4), np.uint8)).shape == (2, 3, 3)
    assert as_rgb(np.ones((2, 3, 3))).max() == 255
    with pytest.raises(ValueError, match="shape"):
        as_rgb(np.zeros((2, 3, 2), np.uint8))


def test_footprint_radius_is_half_the_mean_ground_width() -> None:
    assert footprint_radius(
        SceneObject("a", "cube", (0, 0.5, 0), size=(1.0, 1.0, 1.0))
    ) == pytest.approx(0.5)
    assert footprint_radius(
        SceneObject("a", "cube", (0, 0.5, 0), size=(2.0, 1.0, 1.0))
    ) == pytest.approx(0.75)
    turned = SceneObject("a", "cube", (0, 0.5, 0), (0.0, 45.0, 0.0), (1.0, 1.0, 1.0))
    assert footprint_radius(turned) == pytest.approx(0.5 * 2**0.5)


def plan_axes() -> tuple[Figure, object]:
    figure = Figure()
    FigureCanvasAgg(figure)
    return figure, figure.subplots()


def test_plan_draws_rings_markers_and_pair_lines() -> None:
    truth = Scene(
        "t",
        (
            SceneObject("a", "cube", (-1.0, 0.5, 1.0), color="red"),
            SceneObject("b", "sphere", (1.0, 0.5, -1.0), color="blue"),
            SceneObject("c", "torus", (2.0, 0.1, 2.0), size=(1.0, 0.25, 1.0), color="white"),
        ),
    )
    prediction = Scene(
        "p",
        (
            SceneObject("x", "sphere", (1.2, 0.5, -0.8), color="blue"),
            SceneObject("y", "cube", (-0.7, 0.5, 1.1), color="red"),
            SceneObject("z", "unknown", (40.0, 0.5, 0.0)),
        ),
    )
    _, ax = plan_axes()
    outside = draw_plan(ax, truth, prediction, [(0, 1), (1, 0)])  # type: ignore[arg-type]
    assert outside == 1
    rings = [p for p in ax.patches if isinstance(p, Circle)]  # type: ignore[attr-defined]
    # Each true object is a coloured ring over a dark halo.
    assert len(rings) == 2 * len(truth.objects)
    pair_lines = [line for line in ax.lines if line.get_linestyle() == "--"]  # type: ignore[attr-defined]
    assert len(pair_lines) == 2
    xs, zs = pair_lines[0].get_data()
    assert (list(xs), list(zs)) == ([1.2, 1.0], [-0.8, -1.0])
    markers = [c.get_paths()[0] for c in ax.collections]  # type: ignore[attr-defined]
    assert len(markers) == 3
    low, high = ax.get_ylim()  # type: ignore[attr-defined]
    assert low > high  # +z points down the page: the camera side is at the bottom


def test_plan_ignores_pairs_that_point_past_the_objects() -> None:
    truth = Scene("t", (SceneObject("a", "cube", (0.0, 0.5, 0.0), color="red"),))
    _, ax = plan_axes()
    draw_plan(ax, truth, Scene("p"), [(3, 0)])  # type: ignore[arg-type]
    assert not [line for line in ax.lines if line.get_linestyle() == "--"]  # type: ignore[attr-defined]


def test_every_class_has_its_own_marker() -> None:
    assert len({CLASS_MARKERS[c] for c in CLASSES}) == len(CLASSES)


def test_reply_figure_has_four_panels_and_saves_as_png(tmp_path: Path) -> None:
    truth = Scene(
        "t", (SceneObject("a", "cube", (0.0, 0.5, 0.0), color="red"),), (front_camera(64, 48),)
    )
    image = np.zeros((48, 64, 3), np.uint8)
    labels = np.zeros((48, 64), np.uint16)
    labels[10:20, 10:20] = 1
    figure = reply_figure(image, truth, truth, image, labels, [(0, 0)], title="m · json · t")
    assert len(figure.axes) == 4
    assert [ax.get_title() for ax in figure.axes[:3]] == [
        "true image",
        "re-rendered prediction",
        "overlay (prediction over truth)",
    ]
    path = tmp_path / "deep" / "r.png"
    save_figure(figure, path)
    with Image.open(path) as saved:
        assert saved.format == "PNG" and saved.size == (1750, 440)


def test_failed_parse_leaves_the_prediction_panels_empty() -> None:
    truth = Scene(
        "t", (SceneObject("a", "cube", (0.0, 0.5, 0.0), color="red"),), (front_camera(64, 48),)
    )
    figure = reply_figure(np.zeros((48, 64, 3), np.uint8), truth, None, None, None, [])
    texts = [t.get_text() for ax in figure.axes[1:3] for t in ax.texts]
    assert texts == ["nothing to draw\n(no objects parsed)"] * 2
    assert not figure.axes[1].images
