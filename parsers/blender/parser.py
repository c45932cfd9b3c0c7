"""The Blender parser: a model's reply -> the scene bpy would build, statically."""

from __future__ import annotations

import time

from parsers.blender.dialect import BlenderPython
from parsers.blender.engine import BlenderEngine
from parsers.build import build_objects
from parsers.evaluator import CallContext, Evaluation, Limits, evaluate
from parsers.evaluator.python_front import lower_python
from parsers.evaluator.repair import keep_beginning
from parsers.extract import extract_code
from parsers.result import Diagnostics, ParseResult
from spatialbabel import Scene

LANGUAGE = "blender"


def evaluate_blender(
    code: str, *, limits: Limits | None = None, started: float | None = None
) -> tuple[Evaluation, BlenderEngine]:
    """Run Blender Python ``code`` statically; the engine holds the objects it built."""
    engine = BlenderEngine()
    evaluation = evaluate(
        code,
        grammar="python",
        front_end=lower_python,
        dialect=BlenderPython(),
        engine=engine,
        limits=limits,
        started=started,
    )
    return evaluation, engine


def parse_blender(text: str, *, limits: Limits | None = None) -> ParseResult:
    started = time.monotonic()
    extraction = extract_code(text, LANGUAGE)
    diagnostics = Diagnostics(list(extraction.diagnostics))
    diagnostics.line_map = extraction.reply_line
    code, left_out = keep_beginning(extraction.code)
    if left_out:
        diagnostics.warning(
            "blender.too_long",
            f"the code is too long to read whole; its last {left_out} lines are left out",
            code.count("\n") + 1,
        )
    evaluation, engine = evaluate_blender(code, limits=limits, started=started)
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
        diagnostics.error(
            "blender.no_objects", "the code adds no mesh object of a known shape to the scene"
        )
    objects = build_objects(LANGUAGE, natives, diagnostics)
    return ParseResult(LANGUAGE, Scene("parsed", tuple(objects)), tuple(diagnostics.items))
