"""The three.js parser: a model's reply -> the scene three would render, statically."""

from __future__ import annotations

from parsers.collector import collector_paused
from parsers.evaluated import EvaluatedLanguage
from parsers.evaluator import Limits, Reporter, SourceTree, ir
from parsers.evaluator.core.limits import Budget
from parsers.evaluator.javascript.front import lower_javascript
from parsers.evaluator.javascript.lib import JavaScript
from parsers.evaluator.javascript.typescript_front import lower_typescript
from parsers.result import Diagnostics, ParseResult
from parsers.threejs.engine import ThreeEngine
from parsers.threejs.html import looks_like_html, page_scripts
from parsers.threejs.scene_reader import read_scene

LANGUAGE = "threejs"


def _front_end(source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget) -> ir.Block:
    if source.grammar == "typescript":
        return lower_typescript(source, reporter, limits, budget, prefix="js")
    return lower_javascript(source, reporter, limits, budget, prefix="js")


def _page_code(code: str, diagnostics: Diagnostics) -> str:
    """An HTML page's inline scripts, or the code itself when it is no page."""
    if not looks_like_html(code):
        return code
    page = page_scripts(code)
    diagnostics.info(
        "threejs.html_page",
        f"read the page's {page.inline} inline script(s)"
        + (f"; external scripts {', '.join(page.external)} provide THREE" if page.external else ""),
    )
    if page.inline == 0:
        diagnostics.error("threejs.no_script", "the page has no inline script to read")
    return page.code


THREEJS: EvaluatedLanguage[ThreeEngine] = EvaluatedLanguage(
    LANGUAGE,
    grammar=("javascript", "typescript"),
    front_end=_front_end,
    new_engine=lambda code: ThreeEngine(),
    new_dialect=lambda engine: JavaScript(),
    read_objects=lambda ctx, engine, code: read_scene(ctx, engine),
    no_objects=(
        "threejs.no_objects",
        "the code adds no mesh of a known shape to the rendered scene",
    ),
    prepare=_page_code,
)


#: Runs three.js code statically: the evaluation, and the engine holding the scenes it built.
evaluate_threejs = THREEJS.evaluate


def parse_threejs(text: str, *, limits: Limits | None = None) -> ParseResult:
    with collector_paused():
        return THREEJS.parse(text, limits=limits)
