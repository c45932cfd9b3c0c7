"""Benchmark charts: the Reconstruct Score per model and language (best and worst language
marked), a heatmap of each model's language ranks, the breakdown by difficulty tier, and the
difference between two prompting modes per model and language.

Each function takes plain records (``CellScore``, ``TierScore``) for one mode and returns a
matplotlib ``Figure`` on the Agg canvas; nothing goes through pyplot. Given the scorer's
``Standings`` (what its paired bootstrap found significant), the marks and rank colours follow
them, and languages tied with the rest are shown as tied; without, they follow the means.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import matplotlib
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from numpy.typing import NDArray

from spatialbabel import LANGUAGES

#: One colour per language (matplotlib's colour-blind-safe "tab10" order), so a language looks
#: the same in every chart.
LANGUAGE_COLORS: Final[dict[str, str]] = dict(
    zip(LANGUAGES, ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"), strict=True)
)
OTHER_COLORS: Final = ("#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
#: The heatmap's colour for a language tied with all the others (and for a cell without score).
TIED_COLOR: Final = "#e6e6e6"


@dataclass(frozen=True)
class CellScore:
    """The score of one (model, language) cell: its mean and 95% CI over ``n`` replies."""

    model: str
    language: str
    mean: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class TierScore:
    """The score of one model in one language (or ``all`` pooled) on one difficulty tier."""

    model: str
    language: str
    tier: int
    mean: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class Standings:
    """One model's languages as the scorer's paired bootstrap sees them: the best and worst
    language where significantly apart from every other (None: tied), and each language's
    rank, 1 + the languages significantly better (None: it differs significantly from none)."""

    best: str | None
    worst: str | None
    ranks: Mapping[str, int | None]


def language_order(languages: set[str]) -> list[str]:
    return [lang for lang in LANGUAGES if lang in languages] + sorted(languages - set(LANGUAGES))


def language_color(language: str) -> str:
    if language in LANGUAGE_COLORS:
        return LANGUAGE_COLORS[language]
    return OTHER_COLORS[sum(map(ord, language)) % len(OTHER_COLORS)]


def _finite(value: float) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def best_and_worst(cells: Sequence[CellScore]) -> dict[str, tuple[str, str]]:
    """Per model, its best and worst language by mean score (cells with a score only);
    ties go to the benchmark's language order."""
    result: dict[str, tuple[str, str]] = {}
    for model in sorted({c.model for c in cells}):
        scored = [c for c in cells if c.model == model and _finite(c.mean)]
        if len(scored) < 2:
            continue
        order = language_order({c.language for c in scored})
        scored.sort(key=lambda c: order.index(c.language))
        best = max(scored, key=lambda c: c.mean)
        worst = min(scored, key=lambda c: c.mean)
        if best.mean > worst.mean:
            result[model] = (best.language, worst.language)
    return result


def significant_marks(standings: Mapping[str, Standings]) -> dict[str, tuple[str, str]]:
    """``best_and_worst`` from the scorer's standings: a model is marked only at the ends that
    are significant ("" where tied)."""
    return {
        model: (s.best or "", s.worst or "")
        for model, s in standings.items()
        if s.best is not None or s.worst is not None
    }


def language_ranks(
    cells: Sequence[CellScore], standings: Mapping[str, Standings] | None = None
) -> tuple[list[str], list[str], NDArray[np.float64]]:
    """Models, languages and the rank (1 = best) of each language within each model (NaN
    where the cell has no score). Equal means share the better rank; with ``standings`` the
    ranks are the scorer's, and 0 marks a language tied with all the others."""
    models = sorted({c.model for c in cells})
    languages = language_order({c.language for c in cells})
    ranks = np.full((len(models), len(languages)), np.nan)
    for i, model in enumerate(models):
        means = {c.language: c.mean for c in cells if c.model == model and _finite(c.mean)}
        known = None if standings is None else standings.get(model)
        for j, language in enumerate(languages):
            if language not in means:
                continue
            if standings is not None:
                rank = None if known is None else known.ranks.get(language)
                ranks[i, j] = 0 if rank is None else rank
            else:
                ranks[i, j] = 1 + sum(1 for other in means.values() if other > means[language])
    return models, languages, ranks


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def score_bars(
    cells: Sequence[CellScore],
    *,
    title: str = "Reconstruct Score",
    ylabel: str = "Reconstruct Score",
    standings: Mapping[str, Standings] | None = None,
) -> Figure:
    """Grouped bars: one group per model, one bar per language, 95% CIs as error bars; the
    best language of each model carries a ▲ and the worst a ▼ (with ``standings``, only
    where significant)."""
    models = sorted({c.model for c in cells})
    languages = language_order({c.language for c in cells})
    by_key = {(c.model, c.language): c for c in cells}
    marks = best_and_worst(cells) if standings is None else significant_marks(standings)
    figure = _figure(max(6.0, 1.1 + len(models) * (0.5 + 0.42 * len(languages))), 4.6)
    ax = figure.subplots()
    width = 0.8 / max(1, len(languages))
    top = 0.0
    for j, language in enumerate(languages):
        xs: list[float] = []
        heights: list[float] = []
        errors: tuple[list[float], list[float]] = ([], [])
        for i, model in enumerate(models):
            cell = by_key.get((model, language))
            if cell is None or not _finite(cell.mean):
                continue
            x = i - 0.4 + width * (j + 0.5)
            xs.append(x)
            heights.append(cell.mean)
            low = cell.low if _finite(cell.low) else cell.mean
            high = cell.high if _finite(cell.high) else cell.mean
            errors[0].append(max(0.0, cell.mean - low))
            errors[1].append(max(0.0, high - cell.mean))
            top = max(top, high)
            mark = marks.get(model)
            if mark is not None and language in mark:
                best = language == mark[0]
                ax.annotate(
                    "▲ best" if best else "▼ worst",
                    (x, high),
                    xytext=(0, 3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=7,
                    rotation=90,
                    color="#136f2a" if best else "#b0171f",
                    fontweight="bold",
                )
        ax.bar(
            xs,
            heights,
            width * 0.92,
            color=language_color(language),
            label=language,
            yerr=errors,
            capsize=2,
            error_kw={"elinewidth": 0.8, "ecolor": "#333333"},
        )
    ax.set_xticks(
        range(len(models)),
        models,
        rotation=20 if len(models) > 4 else 0,
        ha="right" if len(models) > 4 else "center",
    )
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, max(1.0, top) * 1.22)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(
        title="language", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False
    )
    return figure


def rank_heatmap(
    cells: Sequence[CellScore],
    *,
    title: str = "Language rank within each model (1 = best)",
    standings: Mapping[str, Standings] | None = None,
) -> Figure:
    """Models x languages, coloured by the language's rank within the model; each cell shows
    the rank and the score. With ``standings`` the ranks count significant differences only,
    and a language tied with all the others is grey and says so."""
    models, languages, ranks = language_ranks(cells, standings)
    by_key = {(c.model, c.language): c for c in cells}
    figure = _figure(max(5.0, 2.4 + 0.95 * len(languages)), max(2.2, 1.3 + 0.48 * len(models)))
    ax = figure.subplots()
    worst = max(len(languages), 2)
    # Cells without a score (NaN) and tied ones (rank 0) are left to imshow's "bad" grey.
    colours = np.where(ranks >= 1, ranks, np.nan)
    cmap = matplotlib.colormaps["RdYlGn_r"].with_extremes(bad=TIED_COLOR)
    image = ax.imshow(colours, cmap=cmap, vmin=1, vmax=worst, aspect="auto")
    for i, model in enumerate(models):
        for j, language in enumerate(languages):
            cell = by_key.get((model, language))
            if np.isnan(ranks[i, j]) or cell is None:
                ax.text(j, i, "-", ha="center", va="center", fontsize=8, color="#555555")
                continue
            if ranks[i, j] == 0:
                ax.text(j, i, f"tied\n{cell.mean:.3f}", ha="center", va="center", fontsize=8)
                continue
            extreme = len(languages) > 2 and ranks[i, j] in (1, worst)  # darkest colours
            ax.text(
                j,
                i,
                f"{int(ranks[i, j])}\n{cell.mean:.3f}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if extreme else "black",
            )
    ax.set_xticks(range(len(languages)), languages)
    ax.set_yticks(range(len(models)), models)
    ax.set_title(title, fontsize=10)
    colorbar = figure.colorbar(image, ax=ax, shrink=0.9)
    colorbar.set_label("rank")
    colorbar.set_ticks(list(range(1, worst + 1)))
    colorbar.ax.invert_yaxis()
    return figure


def tier_breakdown(
    tiers: Sequence[TierScore], *, title: str = "Reconstruct Score by tier"
) -> Figure:
    """One panel per model: the score against the tier, a line per language and a thick black
    line for all languages pooled (``language == "all"``), with 95% CIs on the pooled line."""
    models = sorted({t.model for t in tiers})
    columns = min(3, max(1, len(models)))
    rows = math.ceil(len(models) / columns) if models else 1
    figure = _figure(4.3 * columns + 1.6, 3.2 * rows)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    languages = language_order({t.language for t in tiers} - {"all"})
    all_tiers = sorted({t.tier for t in tiers})
    for ax, model in zip(axes, models, strict=False):
        for language in languages:
            points = sorted(
                (t.tier, t.mean)
                for t in tiers
                if t.model == model and t.language == language and _finite(t.mean)
            )
            if points:
                ax.plot(
                    *zip(*points, strict=True),
                    marker="o",
                    ms=3.5,
                    lw=1.2,
                    color=language_color(language),
                )
        pooled = sorted(
            (t for t in tiers if t.model == model and t.language == "all" and _finite(t.mean)),
            key=lambda t: t.tier,
        )
        if pooled:
            xs = [t.tier for t in pooled]
            ax.plot(xs, [t.mean for t in pooled], color="black", lw=2.4, marker="s", ms=4)
            ax.fill_between(
                xs,
                [t.low if _finite(t.low) else t.mean for t in pooled],
                [t.high if _finite(t.high) else t.mean for t in pooled],
                color="black",
                alpha=0.12,
            )
        ax.set_title(model, fontsize=10)
        ax.set_xticks(all_tiers, [f"T{t}" for t in all_tiers])
        ax.set_ylim(0, 1.0)
        ax.grid(alpha=0.3)
    for ax in axes[len(models) :]:
        ax.set_visible(False)
    handles: list[Artist] = [
        Line2D([], [], color=language_color(lang), marker="o", ms=3.5, label=lang)
        for lang in languages
    ]
    handles.append(Line2D([], [], color="black", lw=2.4, marker="s", label="all languages"))
    handles.append(Patch(facecolor="black", alpha=0.12, label="95% CI (all)"))
    figure.legend(handles=handles, loc="outside right upper", fontsize=8, frameon=False)
    figure.suptitle(title, fontsize=11)
    return figure


def significant_difference(cell: CellScore) -> bool:
    """Whether a difference's CI leaves out 0."""
    return _finite(cell.low) and _finite(cell.high) and (cell.low > 0.0 or cell.high < 0.0)


def mode_difference_bars(
    cells: Sequence[CellScore],
    *,
    title: str = "nl_cot − direct",
    ylabel: str = "Reconstruct Score difference",
) -> Figure:
    """Grouped bars of a difference between two modes (each ``CellScore`` holds one model and
    language's difference and its 95% CI): one group per model, one bar per language, a line
    at 0; a bar whose CI leaves out 0 is drawn solid and marked ``*``, the others hatched."""
    models = sorted({c.model for c in cells})
    languages = language_order({c.language for c in cells})
    by_key = {(c.model, c.language): c for c in cells}
    figure = _figure(max(6.0, 1.1 + len(models) * (0.5 + 0.42 * len(languages))), 4.2)
    ax = figure.subplots()
    width = 0.8 / max(1, len(languages))
    reach = 0.05
    for j, language in enumerate(languages):
        for i, model in enumerate(models):
            cell = by_key.get((model, language))
            if cell is None or not _finite(cell.mean):
                continue
            x = i - 0.4 + width * (j + 0.5)
            low = cell.low if _finite(cell.low) else cell.mean
            high = cell.high if _finite(cell.high) else cell.mean
            solid = significant_difference(cell)
            ax.bar(
                x,
                cell.mean,
                width * 0.92,
                color=language_color(language) if solid else "white",
                edgecolor=language_color(language),
                hatch=None if solid else "///",
                label=language if i == 0 else None,
                yerr=([max(0.0, cell.mean - low)], [max(0.0, high - cell.mean)]),
                capsize=2,
                error_kw={"elinewidth": 0.8, "ecolor": "#333333"},
            )
            reach = max(reach, abs(low), abs(high))
            if solid:
                ax.annotate(
                    "*",
                    (x, high if cell.mean >= 0 else low),
                    xytext=(0, 2 if cell.mean >= 0 else -2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom" if cell.mean >= 0 else "top",
                    fontsize=10,
                    fontweight="bold",
                )
    ax.axhline(0.0, color="black", lw=0.9)
    ax.set_xticks(
        range(len(models)),
        models,
        rotation=20 if len(models) > 4 else 0,
        ha="right" if len(models) > 4 else "center",
    )
    ax.set_ylim(-reach * 1.2, reach * 1.2)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title}\n(solid, *: the 95% CI leaves out 0; hatched: it does not)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(
        title="language", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False
    )
    return figure
