"""The score tables, as the benchmark prints them (model rows x language columns, Δ column),
and the files of a run: JSON, CSV, Markdown and LaTeX; and the tables that read cell means
(each model's mean over its languages, the primitive-to-real drop, the Reconstruct-QA
correlation), all from the metric registry."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from scoring.aggregate import Aggregate, CellSummary
from scoring.metrics import COMPOSITES, composite, metric_names
from scoring.modes import ModeDifference, significant
from scoring.pipeline import ScoreRun
from spatialbabel.files import FileFormatError, atomic_write_text, dump_json, read_json
from spatialbabel.stats import Estimate

if TYPE_CHECKING:
    from scoring.correlation import Correlation

#: Files a run writes into its output folder.
OUTPUT_FILES: Final = (
    "scores.json",
    "cells.csv",
    "tiers.csv",
    "modes.csv",
    "replies.csv",
    "gaps.csv",
    "model_means.csv",
    "scores.md",
    "scores.tex",
)


def _fmt(value: float, digits: int = 3) -> str:
    return "–" if math.isnan(value) else f"{value:.{digits}f}"


def _grid(aggregate: Aggregate, mode: str, name: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the model x language table of one metric, with Δ, best and worst."""
    languages = aggregate.languages
    header = ["model", *languages]
    with_delta = name == "score"
    if with_delta:
        header += ["Δ", "best", "worst"]
    rows = []
    for model in aggregate.model_names(mode):
        row = [model]
        for language in languages:
            cell = aggregate.cell(model, language, mode)
            row.append("–" if cell is None else _fmt(cell.mean(name)))
        if with_delta:
            row += gap_columns(aggregate, model, mode)
        rows.append(row)
    return header, rows


# --- the language gap: Δ with its paired CI, best and worst only where significant ----------


def gap_columns(aggregate: Aggregate, model: str, mode: str) -> list[str]:
    """Δ (with its paired 95% CI), best and worst of a model's row (``scoring.gaps``): a
    language is named best or worst only when significantly apart from every other."""
    gap = aggregate.gap(model, mode)
    if gap is None:  # one language: no gap
        return ["–", "–", "–"]
    if gap.scenes == 0:
        return ["– (no scene answered in every language)", "–", "–"]
    e = gap.delta
    return [f"{_fmt(e.mean)} [{_fmt(e.low)}, {_fmt(e.high)}]", gap.best_text(), gap.worst_text()]


def _gap_legend(aggregate: Aggregate, mode: str) -> str:
    gaps = [g for g in aggregate.gaps if g.mode == mode and g.scenes]
    if not gaps:
        return ""
    scenes = sorted({g.scenes for g in gaps})
    count = str(scenes[0]) if len(scenes) == 1 else f"{scenes[0]}–{scenes[-1]}"
    return (
        f"Δ: top minus bottom language over the {count} scenes every language answered, with its "
        "paired 95% bootstrap CI. A language is named best or worst (bold, italic) only when its "
        "paired difference with every other language excludes 0; otherwise the languages within "
        "reach are listed as tied."
    )


def _mark_standing(aggregate: Aggregate, mode: str, model: str, language: str, text: str) -> str:
    gap = aggregate.gap(model, mode)
    if gap is None or not text or text == "–":
        return text
    if language == gap.best:
        return f"**{text}**"
    if language == gap.worst:
        return f"*{text}*"
    return text


def _rank_table(aggregate: Aggregate, mode: str) -> str:
    """Markdown: each language's rank within its model, 1 + the languages significantly
    better; ``tied`` where it differs significantly from none."""
    languages = aggregate.languages
    rows = []
    for model in aggregate.model_names(mode):
        gap = aggregate.gap(model, mode)
        if gap is None or not gap.scenes:
            continue
        row = [model]
        for language in languages:
            if language not in gap.languages:
                row.append("–")
            else:
                rank = gap.rank(language)
                row.append("tied" if rank is None else str(rank))
        rows.append(row)
    return markdown_table(["model", *languages], rows) if rows else ""


def gaps_csv(agg: Aggregate) -> str:
    """One row per (model, mode, language) of every gap: the language's score over the shared
    scenes, its significance-aware rank and standing, and the model's Δ with its CI."""
    header = [
        "model",
        "mode",
        "language",
        "n_scenes",
        "score",
        "rank",
        "standing",
        "delta",
        "delta_low",
        "delta_high",
        "delta_significant",
    ]
    rows: list[list[object]] = []
    for gap in agg.gaps:
        for language in gap.languages:
            rank = gap.rank(language)
            rows.append(
                [
                    gap.model,
                    gap.mode,
                    language,
                    gap.scenes,
                    _csv_number(gap.scores[language]),
                    "" if rank is None else rank,
                    gap.standing(language),
                    _csv_number(gap.delta.mean),
                    _csv_number(gap.delta.low),
                    _csv_number(gap.delta.high),
                    int(gap.significant),
                ]
            )
    return _csv(header, rows)


def text_table(aggregate: Aggregate, mode: str, name: str = "score") -> str:
    """A metric's table for one mode, aligned for the terminal."""
    header, rows = _grid(aggregate, mode, name)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render_text(run: ScoreRun) -> str:
    """What ``spatialbabel score`` prints: the Reconstruct Score per mode and a line on inputs."""
    agg = run.aggregate
    blocks = []
    for mode in agg.modes:
        title = (
            f"Reconstruct Score, mode {mode!r}, subset {run.split.subset} ({len(run.split.scenes)} scenes)"
            + (", failed parses count 0 everywhere" if run.options.failed_as_zero else "")
        )
        blocks.append(f"{title}\n{text_table(agg, mode)}")
        blocks += text_truncated(agg, mode)
        blocks += text_partial(agg, mode)
    blocks += text_mode_differences(agg)
    summary = run.summary()
    problems = ", ".join(f"{k} {v}" for k, v in summary["problems"].items() if v) or "none"
    blocks.append(
        f"{summary['lines_scored']} replies scored, {summary['parse_failures']} failed to parse, "
        f"{summary['truncated']} cut at the token limit; "
        f"lines outside the subset (skipped): {summary['skipped_outside_subset']}; input problems: {problems}"
    )
    return "\n\n".join(blocks)


def _with_ci(cell: CellSummary | None, name: str) -> str:
    if cell is None:
        return ""
    e = cell.estimates[name]
    if math.isnan(e.mean):
        return "–"
    return f"{e.mean:.3f} [{e.low:.3f}, {e.high:.3f}]"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _label(aggregate: Aggregate, name: str) -> str:
    for m in aggregate.metrics:
        if m.name == name:
            return m.label
    return composite(name).label


def render_markdown(run: ScoreRun) -> str:
    agg = run.aggregate
    means = language_means(cell_means(agg))
    out = [
        f"# Scores: {run.predictions.path.name} on {run.split.root.name} ({run.split.subset})",
        "",
    ]
    out.append(
        "Mean with its 95% bootstrap CI over scenes "
        f"({agg.resamples} resamples, seed {agg.seed}). Definitions: docs/scoring.md."
    )
    extra = [m.name for m in agg.metrics if m.name not in metric_names()]
    shown = [
        "score",
        *metric_names("component"),
        PARTIAL,
        "color_accuracy",
        "f1_gated",
        "f1_iou",
        "f1_class_iou",
        "aligned_score",
        *extra,
    ]
    for mode in agg.modes:
        out += ["", f"## Mode {mode}"]
        header, rows = _grid(agg, mode, "score")
        for row, model in zip(rows, agg.model_names(mode), strict=True):
            for k, language in enumerate(agg.languages, start=1):
                text = _with_ci(agg.cell(model, language, mode), "score")
                row[k] = _mark_standing(agg, mode, model, language, text)
        out += ["", "### Reconstruct Score", "", markdown_table(header, rows)]
        if legend := _gap_legend(agg, mode):
            out += ["", legend]
        if ranks := _rank_table(agg, mode):
            out += ["", "### Language ranks (significant differences only)", "", ranks]
        for name in shown[1:]:
            header, rows = _grid(agg, mode, name)
            if name == PARSE:
                rows = _with_truncated(agg, mode, rows)
            if name == PARTIAL:
                rows = _with_partial(agg, mode, rows)
            out += ["", f"### {_label(agg, name)}", "", markdown_table(header, rows)]
            if name == PARTIAL:
                out += ["", PARTIAL_LEGEND]
        tiers = sorted(
            {c.tier for c in agg.model_tiers if c.mode == mode},
            key=lambda t: -1 if t is None else t,
        )
        if tiers:
            header = ["model", *(f"tier {t}" if t is not None else "no tier" for t in tiers)]
            rows = []
            for model in agg.model_names(mode):
                by_tier = {
                    c.tier: c for c in agg.model_tiers if c.mode == mode and c.model == model
                }
                rows.append([model, *(_with_ci(by_tier.get(t), "score") for t in tiers)])
            out += [
                "",
                "### Reconstruct Score by tier (all languages pooled)",
                "",
                markdown_table(header, rows),
            ]
        out += markdown_language_means(means, mode)
    out += markdown_mode_differences(agg)
    summary = run.summary()
    out += [
        "",
        "## Inputs",
        "",
        markdown_table(
            ["what", "count"],
            [
                ["replies scored", str(summary["lines_scored"])],
                ["parse failures", str(summary["parse_failures"])],
                ["cut at the token limit", str(summary["truncated"])],
                ["lines outside the subset (skipped)", str(summary["skipped_outside_subset"])],
                *([f"problem: {k}", str(v)] for k, v in summary["problems"].items()),
            ],
        ),
    ]
    return "\n".join(out) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def render_latex(run: ScoreRun) -> str:
    """One booktabs table per mode of the Reconstruct Score, best language of each row in bold;
    the parse rate with the cut replies, and each model's mean over its languages."""
    agg = run.aggregate
    means = language_means(cell_means(agg))
    parts = []
    for mode in agg.modes:
        languages = agg.languages
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            r"\begin{tabular}{l" + "r" * len(languages) + "rc}",
            r"\toprule",
            "Model & "
            + " & ".join(latex_escape(lang) for lang in languages)
            + r" & $\Delta$ & 95\% CI \\",
            r"\midrule",
        ]
        for model in agg.model_names(mode):
            cells = []
            for language in languages:
                cell = agg.cell(model, language, mode)
                cells.append("" if cell is None else _latex_marked(agg, mode, model, language))
            lines.append(
                latex_escape(model) + " & " + " & ".join(cells) + _latex_gap(agg, model, mode)
            )
        lines += [
            r"\bottomrule",
            r"\end{tabular}",
            rf"\caption{{Reconstruct Score by language, mode {latex_escape(mode)}. "
            r"$\Delta$ is the gap between the top and bottom language over the scenes every "
            r"language answered, with its paired 95\% bootstrap CI ($^\dagger$: the CI excludes 0). "
            r"Bold: best and italic: worst language, marked only where its paired difference "
            r"with every other language excludes 0.}",
            r"\end{table}",
        ]
        parts.append("\n".join(lines))
        parts.append(latex_parse_and_truncated(agg, mode))
        parts.append(latex_language_means(means, mode))
    parts += latex_mode_differences(agg)
    return "\n\n".join(parts) + "\n"


def _latex_marked(agg: Aggregate, mode: str, model: str, language: str) -> str:
    cell = agg.cell(model, language, mode)
    text = "" if cell is None else _fmt(cell.mean("score")).replace("–", "--")
    gap = agg.gap(model, mode)
    if gap is not None and language == gap.best:
        return rf"\textbf{{{text}}}"
    if gap is not None and language == gap.worst:
        return rf"\textit{{{text}}}"
    return text


def _latex_gap(agg: Aggregate, model: str, mode: str) -> str:
    """`` & Δ & [low, high] \\``: the model's gap and its paired CI, -- without one."""
    gap = agg.gap(model, mode)
    if gap is None or math.isnan(gap.delta.mean):
        return r" & -- & -- \\"
    mark = r"$^\dagger$" if gap.significant else ""
    e = gap.delta
    return rf" & {_fmt(e.mean)}{mark} & [{_fmt(e.low)}, {_fmt(e.high)}] \\"


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _csv_number(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else repr(float(value))


def _estimate_names(agg: Aggregate) -> list[str]:
    return [*(c.name for c in COMPOSITES), *(m.name for m in agg.metrics)]


def cells_csv(agg: Aggregate, cells: Sequence[CellSummary]) -> str:
    names = _estimate_names(agg)
    header = ["model", "language", "mode", "tier", "n", "n_parsed", "n_truncated"]
    for name in names:
        header += [name, f"{name}_low", f"{name}_high", f"{name}_n"]
    rows = []
    for c in cells:
        row: list[object] = [
            c.model,
            c.language,
            c.mode,
            "" if c.tier is None else c.tier,
            c.n,
            c.n_parsed,
            c.n_truncated,
        ]
        for name in names:
            e = c.estimates.get(name)
            if e is None:  # not estimated in this kind of cell
                row += ["", "", "", ""]
            else:
                row += [_csv_number(e.mean), _csv_number(e.low), _csv_number(e.high), e.n]
        rows.append(row)
    return _csv(header, rows)


def replies_csv(run: ScoreRun) -> str:
    names = [m.name for m in run.aggregate.metrics]
    header = [
        "line",
        "scene_id",
        "model",
        "language",
        "mode",
        "tier",
        "parsed",
        "failure_reason",
        "truncated",
        "n_predicted",
        "n_true",
        "alignment",
        *(c.name for c in COMPOSITES),
        *names,
    ]
    rows = []
    for r in run.replies:
        rows.append(
            [
                "" if r.line is None else r.line,
                r.scene_id,
                r.model,
                r.language,
                r.mode,
                "" if r.tier is None else r.tier,
                int(r.parsed),
                r.failure_reason or "",
                int(r.truncated),
                r.n_predicted,
                r.n_true,
                r.alignment or "",
                *(_csv_number(r.composite(c)) for c in COMPOSITES),
                *(_csv_number(r.values.get(n)) for n in names),
            ]
        )
    return _csv(header, rows)


def write_outputs(run: ScoreRun, out: Path) -> list[Path]:
    """Write every output file of the run into ``out``; returns the paths written."""
    agg = run.aggregate
    means = language_means(cell_means(agg))
    writers: dict[str, Callable[[], str]] = {
        "scores.json": lambda: dump_json(
            {
                "schema_version": 1,
                **run.to_dict(),
                "language_means": [m.to_dict() for m in means],
            }
        ),
        "cells.csv": lambda: cells_csv(agg, agg.cells),
        "tiers.csv": lambda: cells_csv(agg, (*agg.tiers, *agg.model_tiers)),
        "modes.csv": lambda: modes_csv(agg),
        "replies.csv": lambda: replies_csv(run),
        "gaps.csv": lambda: gaps_csv(agg),
        "model_means.csv": lambda: model_means_csv(means),
        "scores.md": lambda: render_markdown(run),
        "scores.tex": lambda: render_latex(run),
    }
    written = []
    for name in OUTPUT_FILES:
        path = out / name
        atomic_write_text(path, writers[name]())
        written.append(path)
    return written


# --- truncated replies, beside the parse rate ------------------------------------------------

#: The registered metric the truncated counts stand beside.
PARSE: Final = "parse"


def _parse_and_cut(cell: CellSummary | None, digits: int = 3) -> str:
    if cell is None:
        return "–"
    text = _fmt(cell.mean(PARSE), digits)
    return f"{text} ({cell.n_truncated} cut)" if cell.n_truncated else text


def _with_truncated(agg: Aggregate, mode: str, rows: list[list[str]]) -> list[list[str]]:
    """The parse-rate grid with each cell's replies cut at the token limit beside its rate."""
    for row, model in zip(rows, agg.model_names(mode), strict=True):
        for k, language in enumerate(agg.languages, start=1):
            row[k] = _parse_and_cut(agg.cell(model, language, mode))
    return rows


def text_truncated(agg: Aggregate, mode: str) -> list[str]:
    """A line on the replies of ``mode`` cut at the token limit, per cell; none when no
    reply was."""
    cut = [
        f"{c.model} {c.language} {c.n_truncated}/{c.n}"
        for c in agg.cells
        if c.mode == mode and c.n_truncated
    ]
    if not cut:
        return []
    return [f"Cut at the token limit (finish_reason length), mode {mode!r}: " + ", ".join(cut)]


# --- replies read in part (parsers.partial_reading) ----------------------------------------------

#: The registered metric counting the replies whose parse is a partial reading.
PARTIAL: Final = "partial_reading"
PARTIAL_LEGEND: Final = (
    "Read in part: the replies whose parse warns that it skipped a construct or could not follow "
    "a value that may change an object (the codes are listed in docs/scoring.md), of the cell's "
    "replies. Where this is high, the language's score rests on a partial reading: the engine "
    "audit (`--audit N`) says how far it differs from what the engine builds."
)


def partial_text(mean: float | None, n: int) -> str:
    """A cell's replies read in part, of its ``n`` replies (``k/n``), from the metric's mean."""
    if mean is None or math.isnan(mean):
        return "–"
    return f"{round(mean * n)}/{n}"


def _partial_cell(cell: CellSummary | None) -> str:
    estimate = None if cell is None else cell.estimates.get(PARTIAL)
    return "–" if estimate is None else partial_text(estimate.mean, estimate.n)


def _with_partial(agg: Aggregate, mode: str, rows: list[list[str]]) -> list[list[str]]:
    for row, model in zip(rows, agg.model_names(mode), strict=True):
        for k, language in enumerate(agg.languages, start=1):
            row[k] = _partial_cell(agg.cell(model, language, mode))
    return rows


def text_partial(agg: Aggregate, mode: str) -> list[str]:
    """A line on the cells of ``mode`` with replies read in part; none when no reply was."""
    cells = [
        f"{c.model} {c.language} {_partial_cell(c)}"
        for c in agg.cells
        if c.mode == mode and PARTIAL in c.estimates and c.estimates[PARTIAL].mean > 0
    ]
    if not cells:
        return []
    return [f"Read in part (docs/scoring.md), mode {mode!r}: " + ", ".join(cells)]


def _latex_grid(header: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> str:
    """A booktabs table: the first column (models) escaped and left-aligned, the cells as
    given, right-aligned."""
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        r"\toprule",
        " & ".join(latex_escape(h) for h in header) + r" \\",
        r"\midrule",
        *(latex_escape(r[0]) + " & " + " & ".join(r[1:]) + r" \\" for r in rows),
        r"\bottomrule",
        r"\end{tabular}",
        rf"\caption{{{caption}}}",
        r"\end{table}",
    ]
    return "\n".join(lines)


def latex_parse_and_truncated(agg: Aggregate, mode: str) -> str:
    """A booktabs table of the parse rate per language, with the replies cut at the token
    limit in parentheses."""
    rows = [
        [
            model,
            *(
                _parse_and_cut(agg.cell(model, language, mode), 2).replace(" cut)", ")")
                for language in agg.languages
            ),
        ]
        for model in agg.model_names(mode)
    ]
    label = latex_escape(_label(agg, PARSE).lower()).capitalize()
    caption = (
        f"{label} rate by language, mode {latex_escape(mode)}; in parentheses the number of "
        "replies cut at the token limit, where any were."
    )
    return _latex_grid(["Model", *agg.languages], rows, caption)


# --- mode differences (scoring.modes) ---------------------------------------------------------


def _signed(value: float, digits: int = 3) -> str:
    return "–" if math.isnan(value) else f"{value:+.{digits}f}"


def _difference_with_ci(e: Estimate | None) -> str:
    if e is None or math.isnan(e.mean):
        return "–"
    text = f"{_signed(e.mean)} [{_signed(e.low)}, {_signed(e.high)}]"
    return f"**{text}**" if significant(e) else text


def mode_pairs(agg: Aggregate) -> list[tuple[str, str]]:
    """The (mode, baseline) pairs the run compares, in mode order."""
    return sorted({(d.mode, d.baseline) for d in agg.mode_differences})


def _differences(agg: Aggregate, mode: str, baseline: str) -> dict[tuple[str, str], ModeDifference]:
    return {
        (d.model, d.language): d
        for d in agg.mode_differences
        if (d.mode, d.baseline) == (mode, baseline)
    }


def _difference_grid(
    agg: Aggregate, mode: str, baseline: str, render: Callable[[Estimate | None], str], name: str
) -> tuple[list[str], list[list[str]]]:
    """Model rows x language columns of one metric's difference, each cell rendered."""
    found = _differences(agg, mode, baseline)
    models = sorted({model for model, _ in found})
    header = ["model", *agg.languages]
    rows = []
    for model in models:
        row = [model]
        for language in agg.languages:
            d = found.get((model, language))
            row.append("–" if d is None else render(d.estimates.get(name)))
        rows.append(row)
    return header, rows


def text_mode_differences(agg: Aggregate) -> list[str]:
    """The printed table of each mode's Reconstruct Score minus the baseline's."""
    blocks = []
    for mode, baseline in mode_pairs(agg):

        def cell(e: Estimate | None) -> str:
            if e is None or math.isnan(e.mean):
                return "–"
            return _signed(e.mean) + ("*" if significant(e) else "")

        header, rows = _difference_grid(agg, mode, baseline, cell, "score")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [
            f"Mode difference {mode} − {baseline}, {_label(agg, 'score')} "
            "(paired by scene; * where the 95% CI leaves out 0)"
        ]
        for row in [header, *rows]:
            cells = [row[0].ljust(widths[0])] + [
                c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        blocks.append("\n".join(lines))
    return blocks


def markdown_mode_differences(agg: Aggregate) -> list[str]:
    """Markdown sections: per mode compared with the baseline, the difference of the
    Reconstruct Score and of each component with its paired 95% CI."""
    out: list[str] = []
    for mode, baseline in mode_pairs(agg):
        out += [
            "",
            f"## Mode difference: {mode} − {baseline}",
            "",
            f"Per model and language, the cell mean in {mode} minus the cell mean in {baseline} "
            "over the scenes answered in both, with its 95% bootstrap CI resampling scenes "
            "(both modes of a scene together); **bold** where the CI leaves out 0.",
        ]
        for name in ("score", *metric_names("component")):
            header, rows = _difference_grid(agg, mode, baseline, _difference_with_ci, name)
            out += ["", f"### {_label(agg, name)}", "", markdown_table(header, rows)]
    return out


def latex_mode_differences(agg: Aggregate) -> list[str]:
    """A booktabs table per compared mode: the Reconstruct Score difference per language with
    its CI, in bold where the CI leaves out 0."""

    def cell(e: Estimate | None) -> str:
        if e is None or math.isnan(e.mean):
            return "--"
        text = f"${_signed(e.mean)}$"
        text = rf"\textbf{{{text}}}" if significant(e) else text
        return text + rf" {{\scriptsize [${_signed(e.low, 2)}$, ${_signed(e.high, 2)}$]}}"

    tables = []
    for mode, baseline in mode_pairs(agg):
        header, rows = _difference_grid(agg, mode, baseline, cell, "score")
        caption = (
            f"{latex_escape(_label(agg, 'score'))}, {latex_escape(mode)} minus "
            f"{latex_escape(baseline)}, paired by "
            r"scene, with 95\% bootstrap CIs; bold where the CI excludes 0."
        )
        tables.append(_latex_grid(["Model", *header[1:]], rows, caption))
    return tables


def modes_csv(agg: Aggregate) -> str:
    """One row per (model, language, mode) compared with the baseline: every metric's and
    composite's difference with its CI and the number of scenes it is defined on."""
    names = _estimate_names(agg)
    header = ["model", "language", "mode", "baseline", "n_scenes"]
    for name in names:
        header += [name, f"{name}_low", f"{name}_high", f"{name}_n"]
    rows = []
    for d in agg.mode_differences:
        row: list[object] = [d.model, d.language, d.mode, d.baseline, d.n_scenes]
        for name in names:
            e = d.estimates.get(name)
            if e is None:
                row += ["", "", "", ""]
            else:
                row += [_csv_number(e.mean), _csv_number(e.low), _csv_number(e.high), e.n]
        rows.append(row)
    return _csv(header, rows)


# The primitive domain against the open domain (real indoor scenes), side by side.

#: What the domain table compares: the Reconstruct Score and the two components the paper
#: sees fall most from primitives to real scenes.
DOMAIN_COLUMNS: Final = ("score", "class_accuracy", "scale_fidelity")

_DOMAIN_SHORT: Final = {"class_accuracy": "class", "scale_fidelity": "scale"}

#: (model, language, mode) -> metric or composite name -> the cell's mean (NaN: undefined).
CellMeans = Mapping[tuple[str, str, str], Mapping[str, float]]


def cell_means(aggregate: Aggregate) -> dict[tuple[str, str, str], dict[str, float]]:
    """The overall cells' means of a scoring run."""
    return {
        (c.model, c.language, c.mode): {k: e.mean for k, e in c.estimates.items()}
        for c in aggregate.cells
        if c.tier is None
    }


def cell_means_from_scores(
    data: Mapping[str, Any], source: str = "scores.json"
) -> dict[tuple[str, str, str], dict[str, float]]:
    """``cell_means`` of a ``scores.json`` already read; a ValueError names what is wrong."""
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise ValueError(f"{source}: no list of cells")
    found: dict[tuple[str, str, str], dict[str, float]] = {}
    for index, cell in enumerate(cells):
        try:
            if cell.get("tier") is not None:
                continue
            key = (str(cell["model"]), str(cell["language"]), str(cell["mode"]))
            found[key] = {
                name: math.nan if e.get("mean") is None else float(e["mean"])
                for name, e in cell["estimates"].items()
            }
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{source}: cells[{index}] is malformed ({error})") from None
    return found


def read_cell_means(path: Path) -> dict[tuple[str, str, str], dict[str, float]]:
    """``cell_means`` of a scoring run's folder (or its ``scores.json``); a FileFormatError
    names the file and what is wrong."""
    file = path / "scores.json" if path.is_dir() else path
    data = read_json(file)
    try:
        return cell_means_from_scores(data, str(file))
    except ValueError as error:
        raise FileFormatError(file, str(error).removeprefix(f"{file}: ")) from None


def domain_drop_grid(
    primitive: CellMeans, open_domain: CellMeans, mode: str, columns: Sequence[str] = DOMAIN_COLUMNS
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: per model and language present in both domains, each column's
    primitive value, open value and drop (primitive minus open), then each model's mean over
    its languages."""
    from scoring.aggregate import order_languages

    header = ["model", "language"]
    for name in columns:
        short = _DOMAIN_SHORT.get(name, name)
        header += [f"{short} prim", f"{short} open", f"{short} drop"]
    shared = [k for k in primitive if k in open_domain and k[2] == mode]
    rows: list[list[str]] = []
    for model in sorted({k[0] for k in shared}):
        languages = order_languages({k[1] for k in shared if k[0] == model})
        sums: dict[str, list[list[float]]] = {name: [[], []] for name in columns}
        for language in languages:
            row = [model, language]
            for name in columns:
                a = primitive[(model, language, mode)].get(name, math.nan)
                b = open_domain[(model, language, mode)].get(name, math.nan)
                row += [_fmt(a), _fmt(b), _fmt(a - b)]
                sums[name][0].append(a)
                sums[name][1].append(b)
            rows.append(row)
        if len(languages) > 1:
            row = [model, "mean"]
            for name in columns:
                a = math.fsum(sums[name][0]) / len(languages)
                b = math.fsum(sums[name][1]) / len(languages)
                row += [_fmt(a), _fmt(b), _fmt(a - b)]
            rows.append(row)
    return header, rows


def domain_drop_table(
    primitive: CellMeans, open_domain: CellMeans, mode: str, *, markdown: bool = False
) -> str:
    """``domain_drop_grid`` for the terminal (aligned) or as a Markdown table."""
    header, rows = domain_drop_grid(primitive, open_domain, mode)
    return markdown_table(header, rows) if markdown else aligned_table(header, rows, left=2)


# --- each model's mean over its languages (the paper's Table 9) -------------------------------


def language_mean_columns() -> tuple[str, ...]:
    """What a language mean averages: the Reconstruct Score and its five components, as the
    metric registry names them."""
    return (COMPOSITES[0].name, *metric_names("component"))


@dataclass(frozen=True)
class LanguageMean:
    """One model in one mode, each column averaged over its languages: the mean of the
    language cells' means, over the languages where the column is defined."""

    model: str
    mode: str
    languages: tuple[str, ...]
    means: Mapping[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "languages": list(self.languages),
            "means": {k: None if math.isnan(v) else v for k, v in self.means.items()},
        }


def language_means(cells: CellMeans, columns: Sequence[str] | None = None) -> list[LanguageMean]:
    """Per (model, mode), in mode then model order, each column's mean over the languages'
    cell means (NaN where no language defines it)."""
    from scoring.aggregate import order_languages

    names = tuple(columns) if columns is not None else language_mean_columns()
    result = []
    for mode in sorted({k[2] for k in cells}):
        for model in sorted({k[0] for k in cells if k[2] == mode}):
            languages = order_languages({k[1] for k in cells if k[0] == model and k[2] == mode})
            means = {}
            for name in names:
                values = [cells[(model, lang, mode)].get(name, math.nan) for lang in languages]
                defined = [v for v in values if not math.isnan(v)]
                means[name] = math.fsum(defined) / len(defined) if defined else math.nan
            result.append(LanguageMean(model, mode, tuple(languages), means))
    return result


def _label_of(name: str) -> str:
    from scoring.metrics import METRICS

    return METRICS.get(name).label if name in METRICS else composite(name).label


def language_mean_grid(
    means: Sequence[LanguageMean], mode: str
) -> tuple[list[str], list[list[str]]]:
    """Header and rows of one mode's language means: model, languages averaged, each column."""
    columns = language_mean_columns()
    header = ["model", "languages", *(_label_of(name) for name in columns)]
    rows = [
        [m.model, str(len(m.languages)), *(_fmt(m.means.get(name, math.nan)) for name in columns)]
        for m in means
        if m.mode == mode
    ]
    return header, rows


LANGUAGE_MEANS_TITLE: Final = "Each model's mean over its languages (the paper's Table 9)"
LANGUAGE_MEANS_LEGEND: Final = (
    "The Reconstruct Score and its five components, each the mean of the language cells' means "
    "(over the languages where it is defined); the CIs are the cells' own, in the tables above."
)


def markdown_language_means(means: Sequence[LanguageMean], mode: str) -> list[str]:
    header, rows = language_mean_grid(means, mode)
    if not rows:
        return []
    return [
        "",
        f"### {LANGUAGE_MEANS_TITLE}",
        "",
        LANGUAGE_MEANS_LEGEND,
        "",
        markdown_table(header, rows),
    ]


def latex_language_means(means: Sequence[LanguageMean], mode: str) -> str:
    header, rows = language_mean_grid(means, mode)
    caption = (
        "Reconstruct Score and its components, each averaged over the model's languages, "
        f"mode {latex_escape(mode)}."
    )
    return _latex_grid(["Model", *header[1:]], rows, caption)


def model_means_csv(means: Sequence[LanguageMean]) -> str:
    """One row per (model, mode): the languages averaged and each column's mean."""
    columns = language_mean_columns()
    header = ["model", "mode", "n_languages", "languages", *columns]
    rows = [
        [
            m.model,
            m.mode,
            len(m.languages),
            " ".join(m.languages),
            *(_csv_number(m.means.get(name)) for name in columns),
        ]
        for m in means
    ]
    return _csv(header, rows)


# --- the drop from primitives to real scenes, per model (the paper's Appendix F) --------------


def domain_model_drop_grid(
    primitive: CellMeans, open_domain: CellMeans, mode: str
) -> tuple[list[str], list[list[str]]]:
    """Per model scored in both domains: each column's language mean (over the languages
    scored in both) in each domain and the drop, primitive minus open."""
    shared = {k for k in primitive if k in open_domain and k[2] == mode}
    prim = {m.model: m for m in language_means({k: primitive[k] for k in shared})}
    real = {m.model: m for m in language_means({k: open_domain[k] for k in shared})}
    columns = language_mean_columns()
    header = ["model", "languages"]
    for name in columns:
        header.append(f"{_label_of(name)} drop")
    rows = []
    for model in sorted(prim):
        a, b = prim[model], real[model]
        row = [model, str(len(a.languages))]
        row += [_fmt(a.means[name] - b.means[name]) for name in columns]
        rows.append(row)
    return header, rows


def domain_profile_grid(
    primitive: CellMeans, open_domain: CellMeans, mode: str
) -> tuple[list[str], list[list[str]]]:
    """The per-language profile of each model's Reconstruct Score drop: the drop (primitive
    minus open) in every language scored in both, its mean, and Spearman's rank correlation of
    the per-language scores between the domains (near 1: the model keeps its language profile
    on real scenes; undefined below 3 languages or when a domain's scores are all equal)."""
    from scipy.stats import spearmanr

    from scoring.aggregate import order_languages

    name = COMPOSITES[0].name
    shared = {k for k in primitive if k in open_domain and k[2] == mode}
    languages = order_languages({k[1] for k in shared})
    header = ["model", *languages, "mean", "ρ (profile kept)"]
    rows = []
    for model in sorted({k[0] for k in shared}):
        mine = [lang for lang in languages if (model, lang, mode) in shared]
        a = [primitive[(model, lang, mode)].get(name, math.nan) for lang in mine]
        b = [open_domain[(model, lang, mode)].get(name, math.nan) for lang in mine]
        drops = {lang: x - y for lang, x, y in zip(mine, a, b, strict=True)}
        rho = math.nan
        defined = not any(math.isnan(v) for v in (*a, *b))
        if defined and len(mine) >= 3 and len(set(a)) > 1 and len(set(b)) > 1:
            rho = float(spearmanr(a, b).statistic)
        mean = math.fsum(drops.values()) / len(drops)
        rows.append(
            [
                model,
                *(_fmt(drops[lang]) if lang in drops else "–" for lang in languages),
                _fmt(mean),
                _fmt(rho, 2),
            ]
        )
    return header, rows


def aligned_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """A table for the terminal: the first ``left`` columns left-aligned, the rest right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            [c.ljust(w) for c, w in zip(row[:left], widths[:left], strict=True)]
            + [c.rjust(w) for c, w in zip(row[left:], widths[left:], strict=True)]
        ).rstrip()
        for row in [header, *rows]
    )


# --- Reconstruct against QA, across models (the paper's Table 10) ----------------------------


def correlation_grid(correlation: Correlation) -> tuple[list[str], list[list[str]]]:
    """One row per model: the reconstruction column's language mean and the QA accuracy."""
    header = ["model", f"{_label_of(correlation.metric)} (mean over languages)", "QA accuracy"]
    rows = [
        [model, _fmt(x), _fmt(y)]
        for model, x, y in zip(
            correlation.models, correlation.reconstruct, correlation.qa, strict=True
        )
    ]
    return header, rows


def correlation_lines(correlation: Correlation) -> list[str]:
    """The coefficients with their p-values and the number of models, and what that number
    allows one to conclude."""
    c = correlation
    if math.isnan(c.pearson):
        found = (
            f"No correlation: {c.n} model(s) scored in both runs with values that vary "
            "(at least 3 are needed)."
        )
    else:
        found = (
            f"Pearson r = {c.pearson:.2f} (p = {c.pearson_p:.3f}), Spearman ρ = {c.spearman:.2f} "
            f"(p = {c.spearman_p:.3f}), over n = {c.n} models."
        )
    note = "Each model is one point, so with few models the correlation is weak evidence: " + (
        f"with {c.n} models |r| must exceed {c.critical_r:.2f} for p < 0.05, and one model "
        "can move r a long way."
        if not math.isnan(c.critical_r)
        else "below 3 models there is none to speak of."
    )
    lines = [found, note]
    if c.unpaired:
        lines.append(f"Left out (scored in one run only): {', '.join(c.unpaired)}.")
    return lines


def correlation_table(correlation: Correlation, *, markdown: bool = False) -> str:
    """The per-model pairs and the correlation, for the terminal or as Markdown."""
    header, rows = correlation_grid(correlation)
    table = markdown_table(header, rows) if markdown else aligned_table(header, rows)
    return table + "\n\n" + "\n".join(correlation_lines(correlation))
