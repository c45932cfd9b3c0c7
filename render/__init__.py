"""The render stage: offscreen pyrender re-rendering of any scene with its true camera,
per-reply comparison figures, benchmark charts and the static HTML report.

Names are loaded on first use, so ``import render`` (and the ``spatialbabel render`` and
``report`` command modules) cost nothing and need neither pyrender nor matplotlib until a
picture is actually drawn. Only ``render.offscreen`` imports pyrender.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from render.charts import CellScore, TierScore, rank_heatmap, score_bars, tier_breakdown
    from render.errors import RenderError, RendererUnavailable
    from render.figures import overlay, reply_figure, save_figure
    from render.offscreen import Renderer, Rendering, render_scene, shared_renderer
    from render.primitives import unit_trimesh
    from render.report import ReportSummary, build_report
    from render.silhouette import mask_iou, silhouette_iou

#: Public name -> module that defines it.
_EXPORTS: Final[dict[str, str]] = {
    "CellScore": "render.charts",
    "TierScore": "render.charts",
    "rank_heatmap": "render.charts",
    "score_bars": "render.charts",
    "tier_breakdown": "render.charts",
    "overlay": "render.figures",
    "reply_figure": "render.figures",
    "save_figure": "render.figures",
    "RenderError": "render.errors",
    "RendererUnavailable": "render.errors",
    "Renderer": "render.offscreen",
    "Rendering": "render.offscreen",
    "render_scene": "render.offscreen",
    "shared_renderer": "render.offscreen",
    "unit_trimesh": "render.primitives",
    "ReportSummary": "render.report",
    "build_report": "render.report",
    "mask_iou": "render.silhouette",
    "silhouette_iou": "render.silhouette",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "CellScore",
    "RenderError",
    "Renderer",
    "RendererUnavailable",
    "Rendering",
    "ReportSummary",
    "TierScore",
    "build_report",
    "mask_iou",
    "overlay",
    "rank_heatmap",
    "render_scene",
    "reply_figure",
    "save_figure",
    "score_bars",
    "shared_renderer",
    "silhouette_iou",
    "tier_breakdown",
    "unit_trimesh",
]
