"""The S3-FT statistics as a page in the HTML report's style: the tables of ``s3ft.stats`` and
three charts (what the filter did with each model's replies, predicted against true objects
per scene, records per task and view). Needs matplotlib (the ``render`` extra).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from render.charts import OTHER_COLORS
from render.figures import save_figure
from render.report import STYLE, slug
from s3ft.quality import REJECTION_TEXT, REJECTIONS
from s3ft.stats import (
    problem_rows,
    record_rows,
    rejection_rows,
    summary_rows,
    view_order,
)
from spatialbabel.files import atomic_write_text

PAGE: Final = "s3ft.html"
#: Outcome colours: kept green, no objects amber, each rejection a shade of red or grey.
OUTCOME_COLORS: Final[dict[str, str]] = {
    "kept": "#2ca02c",
    "no_objects": "#f0b323",
    "no_scene": "#7f7f7f",
    "no_camera": "#d62728",
    "no_mesh": "#9467bd",
    "mesh_count": "#8c564b",
    "position_range": "#e377c2",
}
VIEW_COLORS: Final = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def outcome_chart(stats_list: Sequence[Mapping[str, Any]]) -> Figure:
    """One horizontal bar per model: its replies kept, passed without objects, and rejected
    by first failed check."""
    figure = _figure(8.0, 1.4 + 0.5 * len(stats_list))
    ax = figure.subplots()
    labels = [s["model"] or "-" for s in stats_list]
    left = [0.0] * len(stats_list)
    parts = [("kept", "kept"), ("no_objects", "passed, no object")] + [
        (r, REJECTION_TEXT[r]) for r in REJECTIONS
    ]
    for key, text in parts:
        values = [
            float(
                s["filter"]["kept"]
                if key == "kept"
                else s["filter"]["no_objects"]
                if key == "no_objects"
                else s["filter"]["rejections"].get(key, 0)
            )
            for s in stats_list
        ]
        if not any(values):
            continue
        ax.barh(labels, values, left=left, color=OUTCOME_COLORS[key], label=text)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlabel("replies")
    ax.set_title("What the quality filter and the parser did with each reply")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    return figure


def coverage_chart(stats_list: Sequence[Mapping[str, Any]]) -> Figure:
    """Predicted against true objects per scene (the pseudo-ground truth's coverage)."""
    figure = _figure(5.6, 4.6)
    ax = figure.subplots()
    top = 1
    for k, stats in enumerate(stats_list):
        scenes = stats["pseudo_truth"]["per_scene"]
        xs = [s["true"] for s in scenes]
        ys = [s["predicted"] for s in scenes]
        top = max([top, *xs, *ys])
        color = VIEW_COLORS[k % len(VIEW_COLORS)]
        ax.scatter(xs, ys, s=18, alpha=0.6, color=color, label=stats["model"] or "-")
    ax.plot([0, top + 1], [0, top + 1], color="#555555", linewidth=0.8, linestyle="--")
    ax.set_xlim(0, top + 1)
    ax.set_ylim(0, top + 1)
    ax.set_xlabel("true objects")
    ax.set_ylabel("pseudo-ground-truth objects")
    ax.set_title("Objects per scene")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    return figure


def records_chart(stats: Mapping[str, Any]) -> Figure:
    """Records per task, one bar per view."""
    by_task: Mapping[str, Mapping[str, int]] = stats["records"]["by_task"]
    tasks = list(by_task)
    views = view_order({v for counts in by_task.values() for v in counts})
    figure = _figure(max(7.0, 2.0 + len(tasks) * (0.3 + 0.12 * len(views))), 4.4)
    ax = figure.subplots()
    width = 0.8 / max(1, len(views))
    for j, view in enumerate(views):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(tasks))]
        colors = VIEW_COLORS + OTHER_COLORS
        ax.bar(
            xs,
            [by_task[t].get(view, 0) for t in tasks],
            width * 0.92,
            color=colors[j % len(colors)],
            label=view,
        )
    ax.set_xticks(range(len(tasks)), tasks, rotation=35, ha="right")
    ax.set_ylabel("records")
    ax.set_title(f"Records per task and view ({stats['model'] or '-'})")
    ax.legend(title="view", fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
    ax.grid(axis="y", alpha=0.3)
    return figure


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(
        f'<th class="name">{html.escape(h)}</th>' if i == 0 else f"<th>{html.escape(h)}</th>"
        for i, h in enumerate(header)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="name">{html.escape(c)}</td>' if i == 0 else f"<td>{html.escape(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f'<div class="wide"><table><tr>{head}</tr>{body}</table></div>'


def write_report(stats_list: Sequence[Mapping[str, Any]], out: Path) -> Path:
    """``out/s3ft.html`` and its charts in ``out/charts/``; returns the page."""
    charts: list[tuple[str, str]] = [
        ("Replies by outcome", "charts/s3ft-outcomes.png"),
        ("Pseudo-ground-truth objects against true objects, per scene", "charts/s3ft-coverage.png"),
    ]
    save_figure(outcome_chart(stats_list), out / charts[0][1])
    save_figure(coverage_chart(stats_list), out / charts[1][1])
    sections = [
        "<h2>Pseudo-ground truth</h2>",
        "<p>Pass rate of the quality filter; coverage is predicted over true objects per scene "
        "(mean with 95% CI); Reconstruct Score and F1 of the pseudo-ground truth against the "
        "true scenes (mean [95% CI]).</p>",
        _table(*summary_rows(stats_list)),
        "<h2>Rejections</h2>",
        "<p>Each rejected reply counts under its first failed check.</p>",
        _table(*rejection_rows(stats_list)),
        _table(*problem_rows(stats_list)),
    ]
    for stats in stats_list:
        name = stats["model"] or "-"
        relative = f"charts/s3ft-records-{slug(name)}.png"
        save_figure(records_chart(stats), out / relative)
        charts.append((f"Records of {name} per task and view", relative))
        split = ", ".join(f"{k}: {v}" for k, v in stats["records"]["by_split"].items())
        sections += [
            f"<h2>Records of {html.escape(name)}</h2>",
            f"<p>{stats['records']['total']} records ({html.escape(split)}), "
            f"{stats['records']['view_invariant']} view-invariant.</p>",
            _table(*record_rows(stats)),
        ]
    sections.append("<h2>Charts</h2>")
    sections += [
        f'<h3>{html.escape(title)}</h3><img class="chart" src="{html.escape(path)}" alt="{html.escape(title)}">'
        for title, path in charts
    ]
    title = "S3-FT training data"
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n" + "\n".join(sections) + "\n</body>\n</html>\n"
    )
    path = out / PAGE
    atomic_write_text(path, page)
    return path


__all__ = ["PAGE", "coverage_chart", "outcome_chart", "records_chart", "write_report"]
