"""A comparison of two runs written for CI: a short console table, a Markdown summary for
``$GITHUB_STEP_SUMMARY`` or a merge-request comment, and a JUnit XML file with one test case
per cell so that CI systems show regressions natively."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Final

from scoring.compare import (
    COMPONENTS,
    SCORE,
    CellComparison,
    CellKey,
    Comparison,
    ComparisonVerdict,
    OneSided,
)
from spatialbabel.stats import PairedDifference

#: Moved cells the console lists before it only counts the rest.
CONSOLE_ROWS: Final = 20


def _fmt(value: float, sign: bool = False) -> str:
    if math.isnan(value):
        return "–"
    if sign and abs(value) < 0.0005:  # no "-0.000" for a change that rounds away
        return "0.000"
    return f"{value:+.3f}" if sign else f"{value:.3f}"


def _ci(d: PairedDifference) -> str:
    e = d.difference
    return "–" if math.isnan(e.mean) else f"[{e.low:+.3f}, {e.high:+.3f}]"


#: Headers of ``_cell_facts``.
FACTS: Final = ("model", "language", "mode", "scenes", "base", "new")


def _cell_facts(c: CellComparison) -> list[str]:
    """Model, language, mode, shared scenes, and the base and new Reconstruct Score."""
    return [*c.cell, str(c.scenes), _fmt(c.score.base), _fmt(c.score.new)]


def _counts(comparison: Comparison) -> str:
    moved = comparison.moved
    up = sum(c.score.difference.mean > 0 for c in moved)
    scenes = len(comparison.base.scenes & comparison.new.scenes)
    return (
        f"{len(comparison.cells)} cells compared over {scenes} shared scenes; {len(moved)} moved "
        f"(paired {comparison.confidence:.0%} bootstrap CI over scenes excludes 0): "
        f"{up} up, {len(moved) - up} down"
    )


def _verdict_line(verdict: ComparisonVerdict) -> str:
    if verdict.passed:
        return "passed"
    kinds = {"score_drop": 0, "parse_change": 0, "missing": 0}
    for failure in verdict.failures:
        kinds[failure.kind] += 1
    said = []
    if kinds["score_drop"]:
        said.append(
            f"{kinds['score_drop']} cells dropped by more than {verdict.gates.fail_below:g}"
        )
    if kinds["parse_change"]:
        said.append(f"{kinds['parse_change']} replies no longer parse")
    if kinds["missing"]:
        said.append(f"{kinds['missing']} cells lack base replies")
    return "FAILED: " + "; ".join(said)


def _regressions(comparison: Comparison) -> list[CellComparison]:
    """Moved cells that got worse, worst first."""
    return sorted(
        (c for c in comparison.moved if c.score.difference.mean < 0),
        key=lambda c: c.score.difference.mean,
    )


def _improvements(comparison: Comparison) -> list[CellComparison]:
    """Moved cells that got better, best first."""
    return sorted(
        (c for c in comparison.moved if c.score.difference.mean > 0),
        key=lambda c: -c.score.difference.mean,
    )


# --- console ------------------------------------------------------------------------------


def console_table(
    comparison: Comparison, verdict: ComparisonVerdict, *, rows: int = CONSOLE_ROWS
) -> str:
    """What ``spatialbabel compare`` prints: the counts, the moved cells (worst first, then
    best first), what one side lacks, and the verdict."""
    lines = [
        f"compare {comparison.base.path} -> {comparison.new.path}",
        _counts(comparison),
    ]
    moved = [*_regressions(comparison), *_improvements(comparison)]
    if moved:
        header = [*FACTS, "Δ score", "95% CI"]
        table = [header]
        for c in moved[:rows]:
            table.append([*_cell_facts(c), _fmt(c.score.difference.mean, sign=True), _ci(c.score)])
        widths = [max(len(r[i]) for r in table) for i in range(len(header))]
        lines.append("")
        for row in table:
            lines.append(
                "  ".join(
                    cell.ljust(w) if i < 3 else cell.rjust(w)
                    for i, (cell, w) in enumerate(zip(row, widths, strict=True))
                ).rstrip()
            )
        if len(moved) > rows:
            lines.append(f"... and {len(moved) - rows} more moved cells (see the Markdown summary)")
    for side, one in (("base", comparison.only_base), ("new", comparison.only_new)):
        if one:
            lines.append(f"only in the {side} run: {_one_sided_text(one)}")
    changes = comparison.parse_changes
    if changes:
        lost = sum(c.kind == "lost" for c in changes)
        lines.append(
            f"parse changes: {lost} replies no longer parse, {len(changes) - lost} now parse"
        )
    for key, old, now in comparison.settings:
        lines.append(f"setting {key} differs: base {old!r}, new {now!r}")
    lines += ["", f"verdict: {_verdict_line(verdict)}"]
    lines += [f"  {f.cell}: {f.message}" for f in verdict.failures[:rows]]
    if len(verdict.failures) > rows:
        lines.append(f"  ... and {len(verdict.failures) - rows} more (all in the verdict file)")
    return "\n".join(lines)


def _one_sided_text(one: OneSided, limit: int = 8) -> str:
    def listed(items: Sequence[object]) -> str:
        shown = ", ".join(str(i) for i in items[:limit])
        return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")

    parts = []
    for name, items in (
        ("models", one.models),
        ("languages", one.languages),
        ("modes", one.modes),
        ("cells", one.cells),
        ("scenes", one.scenes),
        ("metrics", one.columns),
    ):
        if items:
            parts.append(f"{len(items)} {name} ({listed(items)})")
    return "; ".join(parts)


# --- Markdown -----------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    return [
        "| " + " | ".join(escape(h) for h in header) + " |",
        "|" + "|".join("---" if i < 3 else "---:" for i in range(len(header))) + "|",
        *("| " + " | ".join(escape(c) for c in row) + " |" for row in rows),
    ]


def _component(d: PairedDifference | None, *, with_ci: bool) -> str:
    if d is None:
        return "–"
    text = _fmt(d.difference.mean, sign=True)
    if with_ci:
        return f"{text} {_ci(d)}"
    return f"{text}\\*" if d.significant else text


def _moved_rows(
    comparison: Comparison, cells: Sequence[CellComparison], verdict: ComparisonVerdict
) -> list[str]:
    components = [n for n in COMPONENTS if any(c.name == n for c in comparison.columns)]
    header = [
        *FACTS,
        "Δ score",
        "95% CI",
        *(f"Δ {comparison.label(n)}" for n in components),
        "gate",
    ]
    rows = []
    for c in cells:
        rows.append(
            [
                *_cell_facts(c),
                f"**{_fmt(c.score.difference.mean, sign=True)}**",
                _ci(c.score),
                *(_component(c.differences.get(n), with_ci=False) for n in components),
                "❌" if verdict.of_cell(c.cell) else "✅",
            ]
        )
    return _table(header, rows)


def markdown_summary(comparison: Comparison, verdict: ComparisonVerdict) -> str:
    """The comparison for a CI summary or a merge-request comment (GitHub-flavoured Markdown)."""
    base, new = comparison.base.path, comparison.new.path
    icon = "✅" if verdict.passed else "❌"
    gates = verdict.gates
    active = [
        *([f"`--fail-below {gates.fail_below:g}`"] if gates.fail_below is not None else []),
        *(["`--fail-on-parse-change`"] if gates.fail_on_parse_change else []),
        *(["`--fail-on-missing`"] if gates.fail_on_missing else []),
    ]
    out = [
        "## SpatialBabel: scores compared",
        "",
        f"**{icon} {_verdict_line(verdict)}**"
        + (f" (gates: {', '.join(active)})" if active else " (no gate set)"),
        "",
        f"Base `{base}`, new `{new}`. {_counts(comparison)}; "
        f"{comparison.resamples} resamples, seed {comparison.seed}.",
    ]
    regressions, improvements = _regressions(comparison), _improvements(comparison)
    if regressions:
        out += [
            "",
            "### Regressions (worst first)",
            "",
            *_moved_rows(comparison, regressions, verdict),
        ]
    if improvements:
        out += [
            "",
            "### Improvements (best first)",
            "",
            *_moved_rows(comparison, improvements, verdict),
        ]
    if regressions or improvements:
        out += ["", "\\* the component's CI excludes 0."]
    else:
        out += ["", "No cell's Reconstruct Score moved beyond its CI."]
    if verdict.failures:
        out += ["", "### Failures", ""]
        out += [f"- ❌ {f.cell}: {f.message}" for f in verdict.failures]
    changes = comparison.parse_changes
    if changes:
        out += ["", "### Parse changes", ""]
        out += _table(
            ["model", "language", "mode", "scene", "change", "lines (base → new)", "reason"],
            [
                [
                    c.cell.model,
                    c.cell.language,
                    c.cell.mode,
                    c.scene_id,
                    "no longer parses" if c.kind == "lost" else "now parses",
                    f"{c.base_line} → {c.new_line}",
                    c.failure_reason or "",
                ]
                for c in changes
            ],
        )
    partial = [c for c in comparison.cells if c.only_base_scenes or c.only_new_scenes]
    if comparison.only_base or comparison.only_new or partial:
        out += ["", "### Present on one side only", ""]
        for side, one in (("base", comparison.only_base), ("new", comparison.only_new)):
            if one:
                out.append(f"- only in the {side} run: {_one_sided_text(one, limit=50)}")
        for c in partial:
            if c.only_base_scenes:
                out.append(
                    f"- {c.cell}: scenes only in the base run: {', '.join(c.only_base_scenes)}"
                )
            if c.only_new_scenes:
                out.append(
                    f"- {c.cell}: scenes only in the new run: {', '.join(c.only_new_scenes)}"
                )
    if comparison.settings:
        out += ["", "### Settings that differ", ""]
        out += [f"- `{key}`: base `{old}`, new `{now}`" for key, old, now in comparison.settings]
    components = [n for n in COMPONENTS if any(c.name == n for c in comparison.columns)]
    out += [
        "",
        f"<details><summary>All {len(comparison.cells)} cells: every component's difference "
        "with its CI</summary>",
        "",
        *_table(
            [
                *FACTS,
                "Δ score [95% CI]",
                *(f"Δ {comparison.label(n)} [95% CI]" for n in components),
            ],
            [
                [
                    *_cell_facts(c),
                    _component(c.score, with_ci=True),
                    *(_component(c.differences.get(n), with_ci=True) for n in components),
                ]
                for c in comparison.cells
            ],
        ),
        "",
        "</details>",
    ]
    return "\n".join(out) + "\n"


# --- JUnit XML ----------------------------------------------------------------------------


def _system_out(cell: CellComparison, comparison: Comparison) -> str:
    lines = [f"{cell.scenes} scenes in both runs"]
    for name in (SCORE, *COMPONENTS):
        d = cell.differences.get(name)
        if d is not None:
            lines.append(
                f"{comparison.label(name)}: base {_fmt(d.base)}, new {_fmt(d.new)}, "
                f"difference {_fmt(d.difference.mean, sign=True)} {_ci(d)}"
                + (" (significant)" if d.significant else "")
            )
    return "\n".join(lines)


def junit_xml(comparison: Comparison, verdict: ComparisonVerdict) -> str:
    """One test suite per model, one test case per cell (class ``spatialbabel.<model>.<mode>``,
    name the language): a failure per failed gate, ``skipped`` for a cell on one side only."""
    cells: dict[str, list[tuple[CellKey, CellComparison | None, str | None]]] = {}
    for c in comparison.cells:
        cells.setdefault(c.cell.model, []).append((c.cell, c, None))
    for side, one in (("base", comparison.only_base), ("new", comparison.only_new)):
        for key in one.cells:
            cells.setdefault(key.model, []).append((key, None, f"only in the {side} run"))
    total = sum(len(v) for v in cells.values())
    failed_cells = {f.cell for f in verdict.failures}
    root = ET.Element(
        "testsuites",
        name="spatialbabel compare",
        tests=str(total),
        failures=str(sum(key in failed_cells for v in cells.values() for key, _, _ in v)),
        errors="0",
        time="0",
    )
    for model in sorted(cells):
        entries = cells[model]
        failures = sum(key in failed_cells for key, _, _ in entries)
        skipped = sum(1 for key, cell, note in entries if cell is None and key not in failed_cells)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=model,
            tests=str(len(entries)),
            failures=str(failures),
            errors="0",
            skipped=str(skipped),
            time="0",
        )
        for key, cell, note in entries:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"spatialbabel.{key.model}.{key.mode}",
                name=key.language,
                time="0",
            )
            own = verdict.of_cell(key)
            for failure in own:
                element = ET.SubElement(case, "failure", type=failure.kind, message=failure.message)
                element.text = failure.message
            if cell is None and not own:
                ET.SubElement(case, "skipped", message=note or "")
            if cell is not None:
                ET.SubElement(case, "system-out").text = _system_out(cell, comparison)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
