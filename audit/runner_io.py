"""What the engine runners (``bpy_runner``, ``open3d_runner``) share: reading the cases a
request file holds, running each with the runner's own ``run_case`` and writing the results,
and compiling the longest prefix of whole lines of a reply that compiles (code cut off
mid-statement does not compile as a whole; that prefix is what the model managed to write).

Importing this module imports no engine.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any


def as_python3(code: str) -> str:
    """``code`` as Python 3: a reply written in Python 2 (print statements, ``xrange``,
    ``iteritems``) goes through the standard library's own converter, lib2to3, so the engine
    runs what the model meant; code that already compiles, or that lib2to3 cannot read, is
    returned as it is."""
    try:
        compile(code, "<reply>", "exec")
        return code
    except SyntaxError:
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from lib2to3.refactor import RefactoringTool, get_fixers_from_package

        tool = RefactoringTool(get_fixers_from_package("lib2to3.fixes"))
        try:
            return str(tool.refactor_string(code + "\n", "reply"))[:-1]
        except Exception:  # lib2to3 raises its own parse errors on what it cannot read
            return code


def compilable_prefix(code: str) -> tuple[Any, int]:
    """The longest prefix of whole lines of ``code`` that compiles, and how many lines it drops."""
    lines = code.split("\n")
    for dropped in range(len(lines) + 1):
        try:
            return compile("\n".join(lines[: len(lines) - dropped]), "<reply>", "exec"), dropped
        except SyntaxError:
            continue
    return compile("", "<reply>", "exec"), len(lines)


def serve(argv: list[str], run_case: Callable[[str, int], dict[str, Any]], engine: str) -> int:
    """``runner cases.json results.json``: run every case of ``cases.json`` (``{"cases":
    [{"name": ..., "code": ...}], "repeat": 1}``) and write ``{"engine": engine, "results":
    [...]}``, each result named after its case."""
    request = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    repeat = int(request.get("repeat", 1))
    results = []
    for case in request["cases"]:
        result = run_case(case["code"], repeat)
        result["name"] = case["name"]
        results.append(result)
    answer = {"engine": engine, "results": results}
    Path(argv[2]).write_text(json.dumps(answer), encoding="utf-8")
    return 0
