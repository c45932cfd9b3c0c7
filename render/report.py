"""The static HTML report of a scoring run: tables, charts and per-reply comparisons.

``build_report(scores.json, out)`` writes::

    out/index.html            tables per mode, charts, mode differences, links to everything below
    out/tables/               the scorer's files (scores.json, CSV, Markdown, LaTeX), copied
    out/charts/*.png          score bars, language-rank heatmap, tier breakdown, per mode;
                              each mode's difference from direct
    out/replies/<page>.html   one page per (mode, model): every reply's comparison figure
    out/replies/r<k>.png      true image | re-rendered prediction | overlay | top-down plan

Every link is relative and nothing is fetched from the network, so the folder reads offline
and can be moved or zipped whole. Predicted scenes are not stored in scores.json; they are
read again from the predictions file through the scorer's public API, and the Hungarian
pairs are taken from scores.json itself.
"""

from __future__ import annotations

import html
import math
import multiprocessing
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from render.charts import (
    CellScore,
    Standings,
    TierScore,
    mode_difference_bars,
    rank_heatmap,
    score_bars,
    significant_difference,
    tier_breakdown,
)
from render.figures import load_rgb, reply_figure, save_figure
from render.scores_file import (
    SCORE,
    SILHOUETTE,
    Gap,
    Reply,
    ScoresFile,
    read_scores,
)
from scoring import ALL_LANGUAGES, CellSummary, ModeDifference
from spatialbabel import Scene
from spatialbabel.audit_file import AUDIT_FILE, AUDIT_TABLE, disagreement_lines, read_audit
from spatialbabel.audit_file import table_rows as audit_rows
from spatialbabel.files import FileFormatError, atomic_write_text
from spatialbabel.split import Split

if TYPE_CHECKING:
    from render.offscreen import Renderer

Progress = Callable[[str], None]

_STYLE: Final = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em auto; max-width: 1800px; padding: 0 1em; color: #1d1d1f; }
h1, h2, h3 { font-weight: 600; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.92em; }
th, td { border: 1px solid #d0d0d0; padding: 0.25em 0.6em; text-align: right; }
th { background: #f2f2f2; }
td.name, th.name { text-align: left; }
td.best { background: #dcf3e1; font-weight: 600; }
td.worst { background: #fbe0e0; }
td.gain { background: #dcf3e1; font-weight: 600; }
td.loss { background: #fbe0e0; font-weight: 600; }
.ci { color: #666; font-size: 0.85em; }
.note { color: #8a5a00; }
img.chart { max-width: 100%; border: 1px solid #e4e4e4; margin: 0.3em 0 1em; }
img.reply { width: 100%; max-width: 1750px; border: 1px solid #e4e4e4; }
.reply { margin: 1.2em 0 2em; }
.meta td { text-align: left; }
.wide { overflow-x: auto; }
nav a { margin-right: 1em; }
"""

#: The report's stylesheet, for other pages drawn in its style (``s3ft.report``).
STYLE: Final = _STYLE


@dataclass(frozen=True)
class ReportSummary:
    """What ``build_report`` wrote: the pages and pictures, and a note on each thing it had to
    leave out (no split, a reply whose line is gone from the predictions file, ...)."""

    out_dir: Path
    index: Path
    pages: tuple[Path, ...]
    images: tuple[Path, ...]
    replies_drawn: int
    notes: tuple[str, ...] = field(default=())


def slug(text: str) -> str:
    """A file-name-safe form of a model or mode name."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    return cleaned or "unnamed"


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _fmt(value: float | None, digits: int = 3) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.{digits}f}"


def select_replies(replies: Sequence[Reply], limit: int | None) -> list[Reply]:
    """All replies, or at most ``limit`` spread evenly over the (mode, model, language) cells;
    inside a cell they are taken at even steps along the score order, best and worst first."""
    if limit is None or limit >= len(replies):
        return list(replies)
    cells: dict[tuple[str, str, str], list[Reply]] = defaultdict(list)
    for reply in replies:
        cells[(reply.mode, reply.model, reply.language)].append(reply)
    share = max(1, limit // max(1, len(cells)))
    chosen: list[Reply] = []
    for items in cells.values():
        ranked = sorted(items, key=lambda r: (r.score is None, -(r.score or 0.0), r.index))
        if len(ranked) <= share:
            chosen += ranked
            continue
        steps = np.unique(np.rint(np.linspace(0, len(ranked) - 1, share)).astype(int))
        chosen += [ranked[i] for i in steps]
    chosen.sort(key=lambda r: r.index)
    return chosen[:limit]


def resolve_input(recorded: str | None, override: Path | None, scores_path: Path) -> Path | None:
    """An input the scorer recorded (as given on its command line), found from here or from
    the scores file's folder; ``override`` wins."""
    if override is not None:
        return override
    if not recorded:
        return None
    path = Path(recorded)
    if path.is_absolute() or path.exists():
        return path
    beside = scores_path.parent / path
    return beside if beside.exists() else path


class _ReplySource:
    """True scenes, true images and predicted scenes of the scored replies, through the
    scorer's public API (``scoring.load_truth``, ``read_predictions``, ``score_output``)."""

    def __init__(self, split_dir: Path, subset: str, predictions: Path) -> None:
        import scoring

        self.split_dir = split_dir
        self._scoring = scoring
        self.split = scoring.load_truth(split_dir, subset)  # type: ignore[arg-type]
        read = scoring.read_predictions(predictions, self.split)
        self._outputs = {item.line: item.output for item in read.outputs}

    def truth(self, scene_id: str) -> Scene | None:
        return self.split.scenes.get(scene_id)

    def prediction(self, reply: Reply, truth: Scene) -> Scene | None:
        output = self._outputs.get(reply.line) if reply.line is not None else None
        if output is None or output.scene_id != reply.scene_id:
            return None
        scored = self._scoring.score_output(output, truth, line=reply.line)
        return scored.prediction

    def true_image(self, truth: Scene) -> NDArray[np.uint8] | None:
        images = truth.meta.get("images")
        candidates = (
            [self.split_dir / images[0]]
            if isinstance(images, list) and images and isinstance(images[0], str)
            else []
        )
        candidates.append(Split(self.split_dir).image_path(truth.scene_id))
        for path in candidates:
            if path.is_file():
                return load_rgb(path)
        return None


@dataclass(frozen=True)
class _Inputs:
    """Where the replies' scenes come from; picklable, so worker processes can open them."""

    split_dir: Path
    subset: str
    predictions: Path

    def source(self) -> _ReplySource:
        return _ReplySource(self.split_dir, self.subset, self.predictions)


def _draw_reply(
    source: _ReplySource, renderer: Renderer, reply: Reply, out: Path, label: str
) -> tuple[str | None, list[str]]:
    """Draw one reply's figure into ``out``; returns its path relative to ``out`` (None when
    its scene is not in the split) and notes on anything left out."""
    truth = source.truth(reply.scene_id)
    where = f"reply {reply.index} (line {reply.line})"
    if truth is None or not truth.cameras:
        return None, [f"{where}: scene {reply.scene_id} is not in the split"]
    notes = []
    camera = truth.cameras[0]
    prediction = source.prediction(reply, truth)
    pairs = list(reply.pairs)
    if prediction is None:
        notes.append(
            f"{where}: line {reply.line} is not in the predictions file; drawn without a prediction"
        )
    elif len(prediction.objects) != reply.n_predicted:
        notes.append(
            f"{where}: the predictions file now gives {len(prediction.objects)} objects, "
            f"scores.json says {reply.n_predicted}; pairs left out"
        )
        pairs = []
    true_image = source.true_image(truth)
    if true_image is None:
        true_image = renderer.render(truth, camera).color
        assert true_image is not None
        notes.append(
            f"scene {truth.scene_id}: no true image in the split; the truth is shown re-rendered"
        )
    color = instances = None
    if prediction is not None and prediction.objects:
        rendering = renderer.render(
            replace(prediction, cameras=(camera,), ground=truth.ground), camera
        )
        color, instances = rendering.color, rendering.instances
    title = f"{reply.model} · {reply.language} · {reply.mode} · {reply.scene_id} · {label} {_fmt(reply.score)}"
    figure = reply_figure(true_image, truth, prediction, color, instances, pairs, title=title)
    relative = f"replies/r{reply.index:05d}.png"
    save_figure(figure, out / relative)
    return relative, notes


#: A worker process's inputs, set once by ``_init_worker``.
_WORKER: dict[str, Any] = {}


def _init_worker(inputs: _Inputs, out: Path, label: str) -> None:
    # One software-rendering thread per worker: the workers already fill the cores.
    os.environ.setdefault("LP_NUM_THREADS", "1")
    _WORKER.update(source=inputs.source(), out=out, label=label)


def _draw_in_worker(reply: Reply) -> tuple[int, str | None, list[str]]:
    from render.offscreen import shared_renderer

    relative, notes = _draw_reply(
        _WORKER["source"], shared_renderer(), reply, _WORKER["out"], _WORKER["label"]
    )
    return reply.index, relative, notes


class _Writer:
    def __init__(self, scores: ScoresFile, out: Path, progress: Progress | None) -> None:
        self.scores = scores
        self.out = out
        self.progress = progress or (lambda _message: None)
        self.images: list[Path] = []
        self.pages: list[Path] = []
        self.notes: list[str] = []
        #: (mode, baseline) -> the caption and path of its difference chart.
        self.difference_charts: dict[tuple[str, str], tuple[str, str]] = {}

    # -- tables and charts ------------------------------------------------------------------

    def copy_tables(self) -> list[Path]:
        from scoring import OUTPUT_FILES

        copied = []
        for name in (*OUTPUT_FILES, AUDIT_FILE, AUDIT_TABLE):
            source = self.scores.path.parent / name
            if source.is_file():
                target = self.out / "tables" / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
                copied.append(target)
        if not any(p.name == self.scores.path.name for p in copied):
            target = self.out / "tables" / self.scores.path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.scores.path, target)
            copied.append(target)
        return copied

    def _save(self, figure: Figure, relative: str) -> str:
        path = self.out / relative
        save_figure(figure, path)
        self.images.append(path)
        return relative

    def charts(self, mode: str) -> list[tuple[str, str]]:
        cells = [c for c in self.scores.cells if c.mode == mode and c.tier is None]
        label = self.scores.label(SCORE)
        scored = [_cell_score(c, SCORE) for c in cells]
        present = [c for c in scored if c is not None]
        charts: list[tuple[str, str]] = []
        if not present:
            self.notes.append(f"mode {mode!r}: no cell has a {label}; no charts")
            return charts
        name = slug(mode)
        standings = self.standings(mode)
        charts.append(
            (
                f"{label} per model and language ({mode})",
                self._save(
                    score_bars(
                        present, title=f"{label} ({mode})", ylabel=label, standings=standings
                    ),
                    f"charts/{name}-scores.png",
                ),
            )
        )
        charts.append(
            (
                f"Language ranks within each model ({mode})",
                self._save(
                    rank_heatmap(
                        present,
                        title=f"Language rank within each model, by {label} (1 = best; "
                        "significant differences only)",
                        standings=standings,
                    ),
                    f"charts/{name}-ranks.png",
                ),
            )
        )
        tiers = [
            t
            for t in (_tier_score(c, SCORE) for c in self.scores.tiers if c.mode == mode)
            if t is not None
        ]
        if tiers:
            charts.append(
                (
                    f"{label} by tier ({mode})",
                    self._save(
                        tier_breakdown(tiers, title=f"{label} by tier ({mode})"),
                        f"charts/{name}-tiers.png",
                    ),
                )
            )
        return charts

    # -- the engine audit -------------------------------------------------------------------

    def audit_section(self) -> list[str]:
        """The engine audit of the run (``audit.json`` beside scores.json, written by ``score
        --audit N``): per model and language, the share of sampled replies whose parse agrees
        with what the engine built, and the disagreements; nothing if the run was not audited."""
        path = self.scores.path.parent / AUDIT_FILE
        if not path.is_file():
            return []
        try:
            audit = read_audit(path)
        except FileFormatError as error:
            self.notes.append(f"{AUDIT_FILE} left out: {error}")
            return []
        header, rows = audit_rows(audit)
        table = (
            "<table><tr>"
            + "".join(
                f'<th class="name">{_esc(h)}</th>' if i == 0 else f"<th>{_esc(h)}</th>"
                for i, h in enumerate(header)
            )
            + "</tr>"
            + "".join(
                "<tr>"
                + "".join(
                    f'<td class="name">{_esc(c)}</td>' if i == 0 else f"<td>{_esc(c)}</td>"
                    for i, c in enumerate(row)
                )
                + "</tr>"
                for row in rows
            )
            + "</table>"
        )
        body = [
            "<h3>Engine audit: how far the parse can be trusted</h3>",
            f"<p>{audit.per_cell} replies per model and language (seed {audit.seed}) run in their "
            "real engines in a sandbox; the share whose static parse agrees with what the engine "
            "built, with its 95% bootstrap CI. It checks the parser against the engine, not the "
            "model against the truth (docs/audit.md).</p>",
            table,
        ]
        lines = disagreement_lines(audit, 30)
        if lines:
            body.append(
                "<details><summary>Disagreements and failed runs</summary><ul>"
                + "".join(f"<li>{_esc(line)}</li>" for line in lines)
                + "</ul></details>"
            )
        return body

    # -- mode differences -------------------------------------------------------------------

    def _difference_pairs(self) -> list[tuple[str, str]]:
        return sorted({(d.mode, d.baseline) for d in self.scores.mode_differences})

    def _differences(self, mode: str, baseline: str) -> list[ModeDifference]:
        return [d for d in self.scores.mode_differences if (d.mode, d.baseline) == (mode, baseline)]

    def mode_difference_charts(self) -> None:
        """A chart of each mode's score difference from its baseline (kept for the index)."""
        label = self.scores.label(SCORE)
        for mode, baseline in self._difference_pairs():
            cells = [
                CellScore(d.model, d.language, e.mean, e.low, e.high, e.n)
                for d in self._differences(mode, baseline)
                if (e := d.estimate(SCORE)) is not None and math.isfinite(e.mean)
            ]
            if not cells:
                continue
            caption = f"{label}: {mode} − {baseline} per model and language"
            figure = mode_difference_bars(
                cells, title=f"{mode} − {baseline}", ylabel=f"{label} difference"
            )
            relative = self._save(figure, f"charts/{slug(mode)}-minus-{slug(baseline)}.png")
            self.difference_charts[(mode, baseline)] = (caption, relative)

    def mode_difference_sections(self) -> list[str]:
        """Per compared mode: the score difference per model and language with its CI (paired
        by scene), coloured where the CI leaves out 0, and its chart."""
        label = self.scores.label(SCORE)
        body = []
        for mode, baseline in self._difference_pairs():
            found = {(d.model, d.language): d for d in self._differences(mode, baseline)}
            languages = _languages({lang for _, lang in found})
            rows = [
                '<tr><th class="name">model</th>'
                + "".join(f"<th>{_esc(lang)}</th>" for lang in languages)
                + "</tr>"
            ]
            for model in sorted({m for m, _ in found}):
                tds = []
                for language in languages:
                    d = found.get((model, language))
                    e = d.estimate(SCORE) if d else None
                    if d is None or e is None or not math.isfinite(e.mean):
                        tds.append("<td>–</td>")
                        continue
                    cell = CellScore(model, language, e.mean, e.low, e.high, e.n)
                    css = ("gain" if e.mean > 0 else "loss") if significant_difference(cell) else ""
                    tds.append(
                        f'<td class="{css}">{e.mean:+.3f}<br><span class="ci">'
                        f"[{e.low:+.3f}, {e.high:+.3f}] · {d.n_scenes} scenes</span></td>"
                    )
                rows.append(f'<tr><td class="name">{_esc(model)}</td>{"".join(tds)}</tr>')
            body.append(f"<h2>Mode difference: {_esc(mode)} − {_esc(baseline)}</h2>")
            body.append(
                f"<p>{_esc(label)} in {_esc(mode)} minus {_esc(label)} in {_esc(baseline)}, over "
                "the scenes answered in both, with its 95% bootstrap CI resampling scenes (both "
                "modes of a scene together); coloured where the CI leaves out 0. Every component's "
                "difference is in tables/scores.md and tables/modes.csv.</p>"
            )
            body.append("<table>\n" + "\n".join(rows) + "\n</table>")
            if (mode, baseline) in self.difference_charts:
                caption, relative = self.difference_charts[(mode, baseline)]
                body.append(
                    f"<h3>{_esc(caption)}</h3>\n"
                    f'<img class="chart" src="{_esc(relative)}" alt="{_esc(caption)}">'
                )
        return body

    def standings(self, mode: str) -> dict[str, Standings]:
        """Per model, the scorer's significant best, worst and ranks (``scoring.gaps``)."""
        return {
            g.model: Standings(g.best, g.worst, g.ranks) for g in self.scores.gaps if g.mode == mode
        }

    # -- per-reply figures ------------------------------------------------------------------

    def reply_figures(
        self, replies: Sequence[Reply], inputs: _Inputs | None, workers: int
    ) -> dict[int, str]:
        if inputs is None or not replies:
            return {}
        label = self.scores.label(SCORE)
        results: list[tuple[int, str | None, list[str]]] = []
        if workers <= 1 or len(replies) < 2 * workers:
            from render.offscreen import Renderer

            source = inputs.source()
            with Renderer() as renderer:
                for count, reply in enumerate(replies, start=1):
                    results.append(
                        (reply.index, *_draw_reply(source, renderer, reply, self.out, label))
                    )
                    if count % 25 == 0:
                        self.progress(f"{count}/{len(replies)} reply figures")
        else:
            # Spawned, not forked: a child must not inherit this process's EGL context.
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(
                max_workers=workers,
                mp_context=context,
                initializer=_init_worker,
                initargs=(inputs, self.out, label),
            ) as pool:
                chunk = max(1, min(16, len(replies) // (4 * workers)))
                for count, result in enumerate(
                    pool.map(_draw_in_worker, replies, chunksize=chunk), 1
                ):
                    results.append(result)
                    if count % 25 == 0:
                        self.progress(f"{count}/{len(replies)} reply figures")
        drawn: dict[int, str] = {}
        for index, relative, notes in results:
            self.notes += notes
            if relative is not None:
                drawn[index] = relative
                self.images.append(self.out / relative)
        return drawn

    # -- HTML --------------------------------------------------------------------------------

    def page(self, relative: str, title: str, body: str, *, depth: int = 0) -> Path:
        home = "../" * depth + "index.html"
        nav = (
            f'<nav><a href="{_esc(home)}">report index</a></nav>'
            if relative != "index.html"
            else ""
        )
        text = (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_esc(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{nav}\n"
            f"<h1>{_esc(title)}</h1>\n{body}\n</body>\n</html>\n"
        )
        path = self.out / relative
        atomic_write_text(path, text)
        self.pages.append(path)
        return path

    def score_matrix(self, mode: str) -> str:
        cells = {
            (c.model, c.language): c for c in self.scores.cells if c.mode == mode and c.tier is None
        }
        models = sorted({m for m, _ in cells})
        languages = _languages({lang for _, lang in cells})
        label = self.scores.label(SCORE)
        rows = [
            f'<tr><th class="name">model</th>{"".join(f"<th>{_esc(lang)}</th>" for lang in languages)}'
            "<th>Δ (top − bottom)</th><th>best</th><th>worst</th></tr>"
        ]
        for model in models:
            gap = self.scores.gap(model, mode)
            best = gap.best if gap else None
            worst = gap.worst if gap else None
            tds = []
            for lang in languages:
                cell = cells.get((model, lang))
                e = cell.estimate(SCORE) if cell else None
                css = " best" if lang == best else " worst" if lang == worst else ""
                if e is None:
                    tds.append("<td>–</td>")
                else:
                    tds.append(
                        f'<td class="{css.strip()}">{_fmt(e.mean)}<br><span class="ci">[{_fmt(e.low)}, {_fmt(e.high)}]</span></td>'
                    )
            rows.append(
                f'<tr><td class="name">{_esc(model)}</td>{"".join(tds)}{_gap_cells(gap)}</tr>'
            )
        legend = (
            "<p>Δ: the top minus the bottom language over the scenes every language answered, "
            "with its paired 95% bootstrap CI. A language is marked best (green) or worst (red) "
            "only when its paired difference with every other language excludes 0; otherwise "
            "the languages are shown as tied.</p>"
        )
        table = "<table>\n" + "\n".join(rows) + "\n</table>"
        return f"<h3>{_esc(label)} (95% CI)</h3>\n{table}\n{legend}"

    def partial_table(self, mode: str) -> str:
        """Per model and language, the replies whose parse is a partial reading (the scorer's
        ``partial_reading`` metric and its own cell text, ``scoring.tables.partial_text``)."""
        from scoring.tables import PARTIAL, PARTIAL_LEGEND, partial_text

        cells = {
            (c.model, c.language): c for c in self.scores.cells if c.mode == mode and c.tier is None
        }
        if not any(PARTIAL in c.estimates for c in cells.values()):
            return ""
        models = sorted({m for m, _ in cells})
        languages = _languages({lang for _, lang in cells})
        lines = [
            '<tr><th class="name">model</th>'
            + "".join(f"<th>{_esc(lang)}</th>" for lang in languages)
            + "</tr>"
        ]
        for model in models:
            tds = []
            for lang in languages:
                cell = cells.get((model, lang))
                e = cell.estimate(PARTIAL) if cell else None
                tds.append(f"<td>{_esc(partial_text(e.mean, e.n) if e else '–')}</td>")
            lines.append(f'<tr><td class="name">{_esc(model)}</td>{"".join(tds)}</tr>')
        table = "<table>\n" + "\n".join(lines) + "\n</table>"
        label = self.scores.label(PARTIAL)
        return f"<h3>{_esc(label)}</h3>\n{table}\n<p>{_esc(PARTIAL_LEGEND)}</p>"

    def language_means_table(self, mode: str) -> str:
        """Each model's Reconstruct Score and components averaged over its languages (the
        paper's Table 9), by the scorer's own table (``scoring.tables.language_mean_grid``)."""
        from scoring.tables import (
            LANGUAGE_MEANS_LEGEND,
            LANGUAGE_MEANS_TITLE,
            language_mean_grid,
            language_means,
        )

        cells = {
            (c.model, c.language, c.mode): {k: e.mean for k, e in c.estimates.items()}
            for c in self.scores.cells
            if c.tier is None and c.mode == mode
        }
        header, rows = language_mean_grid(language_means(cells), mode)
        head = "".join(f"<th>{_esc(h)}</th>" for h in header[1:])
        lines = [f'<tr><th class="name">{_esc(header[0])}</th>{head}</tr>']
        lines += [
            f'<tr><td class="name">{_esc(row[0])}</td>'
            + "".join(f"<td>{_esc(v)}</td>" for v in row[1:])
            + "</tr>"
            for row in rows
        ]
        table = "<table>\n" + "\n".join(lines) + "\n</table>"
        return (
            f"<h3>{_esc(LANGUAGE_MEANS_TITLE)}</h3>\n{table}\n<p>{_esc(LANGUAGE_MEANS_LEGEND)}</p>"
        )

    def cell_table(self, mode: str) -> str:
        cells = sorted(
            (c for c in self.scores.cells if c.mode == mode and c.tier is None),
            key=lambda c: (c.model, _language_key(c.language), c.language),
        )
        columns = [
            c for c in self.scores.columns() if any(c.name in cell.estimates for cell in cells)
        ]
        head = "".join(f"<th>{_esc(c.label)}</th>" for c in columns)
        rows = [
            f'<tr><th class="name">model</th><th class="name">language</th><th>replies</th><th>parsed</th>'
            f'<th title="replies cut at the token limit (finish_reason length)">cut</th>{head}</tr>'
        ]
        for cell in cells:
            values = "".join(
                f"<td>{_fmt(e.mean) if (e := cell.estimate(c.name)) else '–'}</td>" for c in columns
            )
            rows.append(
                f'<tr><td class="name">{_esc(cell.model)}</td><td class="name">{_esc(cell.language)}</td>'
                f"<td>{cell.n}</td><td>{cell.n_parsed}</td><td>{cell.n_truncated}</td>{values}</tr>"
            )
        table = "<table>\n" + "\n".join(rows) + "\n</table>"
        return f'<h3>Every metric per cell</h3>\n<div class="wide">{table}</div>'

    def reply_pages(
        self, replies: Sequence[Reply], drawn: dict[int, str]
    ) -> list[tuple[str, str, str, int]]:
        """One page per (mode, model); returns (mode, model, page, replies on it)."""
        groups: dict[tuple[str, str], list[Reply]] = defaultdict(list)
        for reply in replies:
            groups[(reply.mode, reply.model)].append(reply)
        used: set[str] = set()
        listed = []
        silhouette = self.scores.has_silhouette
        for (mode, model), items in sorted(groups.items()):
            name = f"{slug(mode)}--{slug(model)}"
            while name in used:
                name += "_"
            used.add(name)
            parts = []
            for language in _languages({r.language for r in items}):
                parts.append(f"<h2>{_esc(language)}</h2>")
                for reply in sorted(
                    (r for r in items if r.language == language),
                    key=lambda r: (r.scene_id, r.index),
                ):
                    facts = [
                        f"scene <b>{_esc(reply.scene_id)}</b>",
                        f"tier {_esc(reply.tier) if reply.tier is not None else '–'}",
                        f"{_esc(self.scores.label(SCORE))} <b>{_fmt(reply.score)}</b>",
                        f"{reply.n_predicted} predicted / {reply.n_true} true, {len(reply.pairs)} pairs",
                        f"line {reply.line}",
                    ]
                    if silhouette:
                        facts.append(
                            f"{_esc(self.scores.label(SILHOUETTE))} <b>{_fmt(reply.values.get(SILHOUETTE))}</b>"
                        )
                    if reply.truncated:
                        facts.append('<span class="note">cut at the token limit</span>')
                    if not reply.parsed:
                        facts.append(
                            f'<span class="note">parse failed: {_esc(reply.failure_reason or "no reason given")}</span>'
                        )
                    figure = drawn.get(reply.index)
                    picture = (
                        f'<img class="reply" src="{_esc(Path(figure).name)}" alt="{_esc(reply.scene_id)} comparison">'
                        if figure
                        else '<p class="note">no figure (see the notes on the index page)</p>'
                    )
                    parts.append(
                        f'<div class="reply" id="r{reply.index}"><h3>{_esc(reply.scene_id)}</h3>'
                        f"<p>{' · '.join(facts)}</p>{picture}</div>"
                    )
            self.page(
                f"replies/{name}.html",
                f"{model} · {mode}: per-reply comparisons",
                "\n".join(parts),
                depth=1,
            )
            listed.append((mode, model, f"replies/{name}.html", len(items)))
        return listed

    def index(
        self,
        tables: list[Path],
        charts: dict[str, list[tuple[str, str]]],
        drawn: dict[int, str],
        reply_pages: list[tuple[str, str, str, int]],
        split: Path | None,
        predictions: Path | None,
    ) -> Path:
        s = self.scores
        meta = [
            ("scores", s.path.name),
            ("split", f"{split} (subset {s.subset or '?'})" if split else "not found"),
            ("predictions", str(predictions) if predictions else "not found"),
            ("replies scored", str(len(s.replies))),
            ("parse failures", str(sum(not r.parsed for r in s.replies))),
            ("cut at the token limit", str(sum(r.truncated for r in s.replies))),
            ("reply figures", f"{len(drawn)} of {len(s.replies)} replies"),
        ]
        if s.has_silhouette:
            meta.append(("silhouette IoU", "present (scored with --silhouette)"))
        body = [
            '<table class="meta">'
            + "".join(
                f'<tr><th class="name">{_esc(k)}</th><td>{_esc(v)}</td></tr>' for k, v in meta
            )
            + "</table>"
        ]
        body.append(
            "<h2>Tables</h2><ul>"
            + "".join(
                f'<li><a href="{_esc(p.relative_to(self.out).as_posix())}">{_esc(p.name)}</a></li>'
                for p in tables
            )
            + "</ul>"
        )
        audit = self.audit_section()
        for index, mode in enumerate(s.modes):
            body.append(f"<h2>Mode: {_esc(mode)}</h2>")
            body.append(self.score_matrix(mode))
            if partial := self.partial_table(mode):
                body.append(partial)
            if index == 0:
                body += audit
            for caption, relative in charts.get(mode, []):
                body.append(
                    f"<h3>{_esc(caption)}</h3>\n"
                    f'<img class="chart" src="{_esc(relative)}" alt="{_esc(caption)}">'
                )
            body.append(self.cell_table(mode))
            body.append(self.language_means_table(mode))
        body += self.mode_difference_sections()
        body.append("<h2>Per-reply comparisons</h2>")
        if reply_pages:
            body.append(
                "<p>True image | re-rendered prediction (pyrender, true camera) | overlay | "
                "top-down plan with true objects as rings and predicted ones as markers joined by their Hungarian pairs.</p><ul>"
            )
            body.append(
                "".join(
                    f'<li><a href="{_esc(page)}">{_esc(model)} · {_esc(mode)}</a> ({n} replies)</li>'
                    for mode, model, page, n in reply_pages
                )
                + "</ul>"
            )
        else:
            body.append('<p class="note">No per-reply figures.</p>')
        if self.notes:
            body.append(
                "<h2>Notes</h2><ul>"
                + "".join(f'<li class="note">{_esc(n)}</li>' for n in self.notes)
                + "</ul>"
            )
        return self.page("index.html", "SpatialBabel report", "\n".join(body))


def _gap_cells(gap: Gap | None) -> str:
    """The Δ, best and worst cells of a model's row."""
    if gap is None or not gap.scenes:
        return "<td>–</td><td>–</td><td>–</td>"
    e = gap.delta
    ci = f'<br><span class="ci">[{_fmt(e.low)}, {_fmt(e.high)}]</span>'
    delta = f"<td>{_fmt(e.mean)}{ci}</td>"
    best, worst = gap.standing_text("best"), gap.standing_text("worst")
    return f"{delta}<td>{_esc(best)}</td><td>{_esc(worst)}</td>"


def _language_key(language: str) -> int:
    from spatialbabel import LANGUAGES

    return LANGUAGES.index(language) if language in LANGUAGES else len(LANGUAGES)


def _languages(languages: set[str]) -> list[str]:
    return sorted(languages, key=lambda lang: (_language_key(lang), lang))


def _cell_score(cell: CellSummary, name: str) -> CellScore | None:
    e = cell.estimate(name)
    if e is None or not math.isfinite(e.mean):
        return None
    return CellScore(cell.model, cell.language, e.mean, e.low, e.high, e.n)


def _tier_score(cell: CellSummary, name: str) -> TierScore | None:
    e = cell.estimate(name)
    if e is None or cell.tier is None or not math.isfinite(e.mean):
        return None
    return TierScore(
        cell.model,
        cell.language if cell.language else ALL_LANGUAGES,
        cell.tier,
        e.mean,
        e.low,
        e.high,
        e.n,
    )


def build_report(
    scores_path: Path,
    out_dir: Path,
    *,
    split_dir: Path | None = None,
    predictions: Path | None = None,
    max_replies: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> ReportSummary:
    """Write the HTML report of ``scores_path`` into ``out_dir`` (see the module docstring).

    The split and predictions default to those recorded in scores.json; without them the
    report still has its tables and charts, and says why the per-reply figures are missing.
    ``workers > 1`` draws the per-reply figures in that many spawned processes.
    """
    scores = read_scores(Path(scores_path))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(scores, out, progress)
    if not scores.gaps and len({c.language for c in scores.cells}) > 1:
        writer.notes.append(
            f"{scores.path.name} has no language gaps (written by an older scorer): best, worst "
            "and rank colours are left out; score again to have them"
        )
    tables = writer.copy_tables()
    charts = {mode: writer.charts(mode) for mode in scores.modes}
    writer.mode_difference_charts()
    split = resolve_input(scores.split, split_dir, scores.path)
    replies_file = resolve_input(scores.predictions, predictions, scores.path)
    inputs = None
    if split is None or not Split(split).scenes_dir.is_dir():
        writer.notes.append(
            f"split {split or '(not recorded)'} not found: no per-reply figures (pass --split)"
        )
    elif replies_file is None or not replies_file.is_file():
        writer.notes.append(
            f"predictions {replies_file or '(not recorded)'} not found: no per-reply figures (pass --predictions)"
        )
    else:
        inputs = _Inputs(split, scores.subset or "eval", replies_file)
        inputs.source()  # a broken split or predictions file fails here, before any drawing
    chosen = select_replies(scores.replies, max_replies)
    drawn = writer.reply_figures(chosen, inputs, workers)
    pages = writer.reply_pages(chosen, drawn) if inputs is not None else []
    index = writer.index(tables, charts, drawn, pages, split, replies_file)
    return ReportSummary(
        out, index, tuple(writer.pages), tuple(writer.images), len(drawn), tuple(writer.notes)
    )
