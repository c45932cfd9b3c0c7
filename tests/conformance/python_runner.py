"""The two sides of the Python conformance suite: CPython running a program, and the static
evaluator reading it with the Python dialect and an engine whose ``print`` is captured.

CPython runs every program of the suite in one subprocess (the venv's interpreter, with a fixed
``PYTHONHASHSEED``), each from fresh globals with its standard output captured; the evaluator
reads each program as the Blender and Open3D parsers read a reply: tree-sitter-python, the
Python front end, the ``Python`` dialect, numpy from ``numpy_lib``. Its ``print`` writes what
the dialect's own ``str`` makes of each value (so a wrong conversion is a wrong line), and a
value it cannot know is printed as ``<unknown>`` after a warning naming the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parsers.evaluator import (
    Builtin,
    CallContext,
    Engine,
    Limits,
    Unknown,
    Value,
    evaluate,
)
from parsers.evaluator.core.arguments import Args, Kwargs
from parsers.evaluator.python.front import lower_python
from parsers.evaluator.python.lib import Python, resolve_python_import
from parsers.evaluator.python.numpy_lib import numpy_module, register
from parsers.result import Diagnostics
from tests.conformance.harness import Printed, Transcript, output_lines

#: Runs each program named on the command line from fresh globals; prints a JSON list of
#: {"stdout", "error"} to the real standard output.
_CPYTHON_DRIVER = """
import contextlib, io, json, runpy, sys, traceback
results = []
for path in sys.argv[1:]:
    out = io.StringIO()
    error = None
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__main__")
    except BaseException:
        error = traceback.format_exc(limit=3)
    results.append({"stdout": out.getvalue(), "error": error})
sys.__stdout__.write(json.dumps(results))
"""


def run_cpython(programs: Sequence[Path]) -> dict[Path, tuple[list[str], str | None]]:
    """Each program's printed lines under CPython, and the error it raised (None when none)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory(prefix="sb_conformance_") as tmp:
        done = subprocess.run(
            [sys.executable, "-c", _CPYTHON_DRIVER, *(str(p) for p in programs)],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return {
        path: (output_lines(result["stdout"]), result["error"])
        for path, result in zip(programs, results, strict=True)
    }


class PrintingEngine(Engine):
    """No scene library: numpy, the dialect's standard modules, and a ``print`` whose lines
    are kept with the count of warnings made before each."""

    name = "conformance"

    def __init__(self) -> None:
        super().__init__()
        register(self)
        self.transcript = Transcript()
        self._pending = ""

    def globals(self) -> dict[str, Value]:
        return {"print": Builtin("print", self._print)}

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        return resolve_python_import(
            ctx,
            module,
            name,
            packages={"numpy": numpy_module},
            modules={},
            unknown_code="conformance.unknown_module",
        )

    def _text(self, ctx: CallContext, value: Value) -> str:
        converted = ctx.call(ctx.interp.globals.vars["str"], [value])
        if isinstance(converted, str):
            return converted
        reason = converted.reason if isinstance(converted, Unknown) else type(converted).__name__
        ctx.warning("conformance.unknown_printed", f"print of a value not known: {reason}")
        return "<unknown>"

    def _print(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        sep, end = kwargs.get("sep", " "), kwargs.get("end", "\n")
        sep = sep if isinstance(sep, str) else " "
        end = end if isinstance(end, str) else "\n"
        text = self._pending + sep.join(self._text(ctx, value) for value in args) + end
        *lines, self._pending = text.split("\n")
        made = ctx.interp.reporter.warning_count()
        self.transcript.lines.extend(Printed(line, made) for line in lines)
        return None

    def finish(self, ctx_reporter_count: int) -> None:
        if self._pending:
            self.transcript.lines.append(Printed(self._pending, ctx_reporter_count))
            self._pending = ""


def run_evaluator(code: str) -> Transcript:
    """What the evaluator prints reading ``code``, with every remark it made."""
    engine = PrintingEngine()
    evaluation = evaluate(
        code,
        grammar="python",
        front_end=lower_python,
        dialect=Python(),
        engine=engine,
        limits=Limits(),
    )
    engine.finish(evaluation.reporter.warning_count())
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    engine.transcript.diagnostics = list(diagnostics.items)
    return engine.transcript
