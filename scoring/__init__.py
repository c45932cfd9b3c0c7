"""Scoring reconstructions: Hungarian matching, the five components and the Reconstruct Score,
aggregation with bootstrap CIs, and the benchmark's tables (docs/scoring.md).

Typical use::

    from scoring import score_predictions, write_outputs
    run = score_predictions("splits/main", "replies.jsonl", subset="eval")
    write_outputs(run, Path("scores"))

or, for one reply: ``score_reply(parse(text, "json"), truth).values["position_fidelity"]``.
"""

from scoring.aggregate import (
    ALL_LANGUAGES,
    Aggregate,
    CellSummary,
    ModelSummary,
    aggregate,
    composite_values,
)
from scoring.alignment import AXIS_MAPS, AxisMap, apply_axis_map, axis_map
from scoring.boxes import EXTENT_FLOOR, OrientedBox, box_iou, oriented_iou, scene_extent
from scoring.inputs import (
    PROBLEM_KINDS,
    SUBSETS,
    InputProblem,
    NumberedOutput,
    PredictionSet,
    load_truth,
    read_predictions,
)
from scoring.matching import Matching, Pair, match_centres, match_within_gate
from scoring.metrics import (
    COMPOSITES,
    DEFAULT_GATE,
    DEFAULT_IOU_THRESHOLD,
    METRICS,
    Composite,
    Metric,
    ReplyContext,
    ScoreOptions,
    metric,
    metric_names,
)
from scoring.modes import ModeDifference, mode_differences
from scoring.pipeline import ScoreRun, score_outputs, score_predictions
from scoring.reply import ReplyScore, scene_tier, score_output, score_reply
from scoring.silhouette import SilhouetteFn, silhouette_metric
from scoring.tables import (
    OUTPUT_FILES,
    render_latex,
    render_markdown,
    render_text,
    text_table,
    write_outputs,
)
from spatialbabel.split import SplitScenes

__all__ = [
    "ALL_LANGUAGES",
    "AXIS_MAPS",
    "COMPOSITES",
    "DEFAULT_GATE",
    "DEFAULT_IOU_THRESHOLD",
    "EXTENT_FLOOR",
    "METRICS",
    "OUTPUT_FILES",
    "PROBLEM_KINDS",
    "SUBSETS",
    "Aggregate",
    "AxisMap",
    "CellSummary",
    "Composite",
    "InputProblem",
    "Matching",
    "Metric",
    "ModeDifference",
    "ModelSummary",
    "NumberedOutput",
    "OrientedBox",
    "Pair",
    "PredictionSet",
    "ReplyContext",
    "ReplyScore",
    "ScoreOptions",
    "ScoreRun",
    "SilhouetteFn",
    "SplitScenes",
    "aggregate",
    "apply_axis_map",
    "axis_map",
    "box_iou",
    "composite_values",
    "load_truth",
    "match_centres",
    "match_within_gate",
    "metric",
    "metric_names",
    "mode_differences",
    "oriented_iou",
    "read_predictions",
    "render_latex",
    "render_markdown",
    "render_text",
    "scene_extent",
    "scene_tier",
    "score_output",
    "score_outputs",
    "score_predictions",
    "score_reply",
    "silhouette_metric",
    "text_table",
    "write_outputs",
]
