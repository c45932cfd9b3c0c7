"""The optional silhouette-IoU column, computed by a function the caller hands in.

The function comes from the render stage, but scoring never imports or names it: the CLI
looks it up (``spatialbabel.cli.stage_hook("silhouette_iou")``) and passes it here, so scoring
installs, imports and runs without pyrender.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scoring.metrics import Metric, ReplyContext
from spatialbabel import Scene

#: ``(predicted, truth, split_dir) -> IoU`` of the two scenes' silhouettes in the true view.
SilhouetteFn = Callable[[Scene, Scene, Path], float]


def silhouette_metric(split_dir: Path, compute: SilhouetteFn) -> Metric:
    """The silhouette-IoU metric of replies with at least one pair, ``compute`` drawing each
    prediction against the split's frontal ID pass."""

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
        description="IoU of the predicted and true scenes' silhouettes in the frontal view",
    )
