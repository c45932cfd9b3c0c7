"""The Open3D parser: a model's reply -> the scene open3d would show, statically."""

from __future__ import annotations

import time

from parsers.build import build_objects
from parsers.evaluator import CallContext, Evaluation, Limits, evaluate
from parsers.evaluator.python_front import lower_python
from parsers.evaluator.repair import keep_beginning
from parsers.extract import extract_code
from parsers.open3d_lang.dialect import Open3DPython
from parsers.open3d_lang.engine import Open3DEngine
from parsers.result import Diagnostics, ParseResult
from spatialbabel import Scene

LANGUAGE = "open3d"


def evaluate_open3d(
    code: str, *, limits: Limits | None = None, started: float | None = None
) -> tuple[Evaluation, Open3DEngine]:
    """Run Open3D ``code`` statically; the engine holds the meshes it built and showed."""
    engine = Open3DEngine()
    evaluation = evaluate(
        code,
        grammar="python",
        front_end=lower_python,
        dialect=Open3DPython(engine),
        engine=engine,
        limits=limits,
        started=started,
    )
    return evaluation, engine


def parse_open3d(text: str, *, limits: Limits | None = None) -> ParseResult:
    started = time.monotonic()
    extraction = extract_code(text, LANGUAGE)
    diagnostics = Diagnostics(list(extraction.diagnostics))
    diagnostics.line_map = extraction.reply_line
    code, left_out = keep_beginning(extraction.code)
    if left_out:
        diagnostics.warning(
            "open3d.too_long",
            f"the code is too long to read whole; its last {left_out} lines are left out",
            code.count("\n") + 1,
        )
    evaluation, engine = evaluate_open3d(code, limits=limits, started=started)
    natives = (
        engine.native_objects(CallContext(evaluation.interpreter, 0, 0))
        if evaluation.parsed
        else []
    )
    evaluation.reporter.flush(diagnostics)
    if (
        evaluation.parsed
        and not natives
        and not any(d.severity == "error" for d in diagnostics.items)
    ):
        diagnostics.error("open3d.no_objects", "the code creates no triangle mesh of a known shape")
    objects = build_objects(LANGUAGE, natives, diagnostics)
    return ParseResult(LANGUAGE, Scene("parsed", tuple(objects)), tuple(diagnostics.items))
