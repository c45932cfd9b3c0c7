"""The three.js parser: a model's reply -> the scene three would render, statically."""

from __future__ import annotations

import time

from parsers.build import build_objects
from parsers.collector import collector_paused
from parsers.evaluator import CallContext, Evaluation, Limits, Reporter, SourceTree, evaluate
from parsers.evaluator.javascript_front import lower_javascript
from parsers.evaluator.javascript_lib import JavaScript
from parsers.evaluator.limits import Budget
from parsers.extract import extract_code
from parsers.result import Diagnostics, ParseResult
from parsers.threejs.engine import ThreeEngine
from parsers.threejs.html import looks_like_html, page_scripts
from parsers.threejs.scene_reader import read_scene
from spatialbabel import Scene

LANGUAGE = "threejs"


def _front_end(source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget):  # type: ignore[no-untyped-def]
    return lower_javascript(source, reporter, limits, budget, prefix="js")


def evaluate_threejs(
    code: str, *, limits: Limits | None = None, started: float | None = None
) -> tuple[Evaluation, ThreeEngine]:
    """Run three.js ``code`` statically; the engine holds the scenes it built."""
    engine = ThreeEngine()
    evaluation = evaluate(
        code,
        grammar="javascript",
        front_end=_front_end,
        dialect=JavaScript(),
        engine=engine,
        limits=limits,
        started=started,
    )
    return evaluation, engine


def parse_threejs(text: str, *, limits: Limits | None = None) -> ParseResult:
    with collector_paused():
        return _parse(text, limits)


def _parse(text: str, limits: Limits | None) -> ParseResult:
    started = time.monotonic()
    extraction = extract_code(text, LANGUAGE)
    diagnostics = Diagnostics(list(extraction.diagnostics))
    diagnostics.line_map = extraction.reply_line
    code = extraction.code
    if looks_like_html(code):
        page = page_scripts(code)
        code = page.code
        diagnostics.info(
            "threejs.html_page",
            f"read the page's {page.inline} inline script(s)"
            + (
                f"; external scripts {', '.join(page.external)} provide THREE"
                if page.external
                else ""
            ),
        )
        if page.inline == 0:
            diagnostics.error("threejs.no_script", "the page has no inline script to read")
    evaluation, engine = evaluate_threejs(code, limits=limits, started=started)
    natives = (
        read_scene(CallContext(evaluation.interpreter, 0, 0), engine) if evaluation.parsed else []
    )
    evaluation.reporter.flush(diagnostics)
    if (
        evaluation.parsed
        and not natives
        and not any(d.severity == "error" for d in diagnostics.items)
    ):
        diagnostics.error(
            "threejs.no_objects", "the code adds no mesh of a known shape to the rendered scene"
        )
    objects = build_objects(LANGUAGE, natives, diagnostics)
    return ParseResult(LANGUAGE, Scene("parsed", tuple(objects)), tuple(diagnostics.items))
