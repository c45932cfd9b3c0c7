"""The optional silhouette-IoU column, computed by the render stage when it is installed.

``render`` is imported only here and only when the column is asked for, so scoring never
needs pyrender; without it the caller gets a ``MissingRenderer`` that says what to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from scoring.metrics import Metric, ReplyContext
from spatialbabel import Scene, SpatialBabelError


class MissingRenderer(SpatialBabelError):
    """The render stage, or its ``silhouette_iou``, is not available."""


SilhouetteFn = Callable[[Scene, Scene, Path], float]


def load_silhouette_iou() -> SilhouetteFn:
    """``render.silhouette_iou``; raises ``MissingRenderer`` saying why it cannot be had."""
    try:
        render = importlib.import_module("render")
    except ImportError as error:
        raise MissingRenderer(
            f"--silhouette needs the render stage, which cannot be imported ({error}); "
            "install it with: pip install 'spatialbabel[render]'"
        ) from None
    function = getattr(render, "silhouette_iou", None)
    if not callable(function):
        raise MissingRenderer(
            "--silhouette needs render.silhouette_iou(predicted, truth, split_dir), "
            "which this installation's render stage does not provide"
        )
    return function


def silhouette_metric(split_dir: Path, function: SilhouetteFn | None = None) -> Metric:
    """The silhouette-IoU metric of replies with at least one pair, rendered against the split."""
    compute = function or load_silhouette_iou()

    def silhouette_iou(ctx: ReplyContext) -> float | None:
        if not ctx.matching.pairs:
            return None
        return float(compute(ctx.prediction, ctx.truth, split_dir))

    return Metric(
        "silhouette_iou",
        silhouette_iou,
        "Silhouette",
        higher_is_better=True,
        scope="paired",
        role="variant",
        description="IoU of the predicted and true scenes' silhouettes in the frontal view (render stage)",
    )
