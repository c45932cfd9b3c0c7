"""The JavaScript/TypeScript conformance suite: node runs each program of
``tests/conformance/javascript/`` (TypeScript transpiled by the pinned ``typescript`` package),
the static evaluator runs it with ``console.log`` captured, and ``harness.judge`` compares them.

The evaluator reads a program as the three.js parser reads a reply: the JavaScript grammar,
or the TypeScript one when it leaves fewer syntax errors, with the ``JavaScript`` dialect; the
engine table is empty but for the captured ``console``. Its ``console.log`` formats what it
prints as node's does (``javascript_console``); a value the evaluator could not know, or one
whose formatting is not modelled, is printed with a warning at the call, so it is never a
silent difference.

    python -m tests.conformance.javascript_suite            # every program's verdict
    python -m tests.conformance.javascript_suite 070_enums   # those whose name holds a word
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from parsers.evaluator import (
    Engine,
    Limits,
    Namespace,
    Reporter,
    SourceTree,
    Value,
    evaluate,
    ir,
)
from parsers.evaluator.core.limits import Budget
from parsers.evaluator.javascript.front import lower_javascript
from parsers.evaluator.javascript.lib import JavaScript
from parsers.evaluator.javascript.typescript_front import lower_typescript
from parsers.result import Diagnostics
from tests.conformance.harness import Printed, Transcript, Verdict, judge, programs
from tests.conformance.javascript_console import console_log

HERE = Path(__file__).parent
RUNNER = HERE / "javascript_runner.mjs"
REPO = HERE.parents[1]

#: The programs the evaluator only reports (its output differs from node's after a warning
#: naming the construct), each with the reason. A program that starts to pass, or one that
#: stops being reported, fails its test until this list says so.
EXPECTED_REPORTED: dict[str, str] = {
    "037_functions.js": "the arguments object is not bound (its uses are unknown)",
    "049_getters_object_literal.js": "getters and setters in object literals are not followed",
    "051_constructor_functions.js": "functions' prototype objects are not followed",
    "053_delete_expression.js": "the value of delete used as an expression is not followed",
    "054_hoisting_top_level.js": (
        "top-level var names are not hoisted (a page's script may redeclare a library's global)"
    ),
    "055_delete_array_element.js": "an array hole left by delete reads as undefined",
    "059_with_statement.js": "with statements are not followed",
    "077_unmodelled_globals.js": "globalThis, Symbol and Promise are not modelled",
}


@dataclass(frozen=True)
class RealRun:
    """What node printed for one program, and the exception that ended it (None if none)."""

    lines: list[str]
    error: str | None


def node_available() -> bool:
    return shutil.which("node") is not None and (REPO / "node_modules" / "typescript").exists()


def run_real(paths: list[Path], *, timeout: float = 300.0) -> dict[str, RealRun]:
    """Every program run by node in one process; keyed by the program's file name."""
    done = subprocess.run(
        ["node", str(RUNNER)],
        input=json.dumps([str(p) for p in paths]),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the node runner failed: {done.stderr.strip()[-2000:]}")
    raw = json.loads(done.stdout)
    return {Path(path).name: RealRun(run["lines"], run["error"]) for path, run in raw.items()}


def _front_end(source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget) -> ir.Block:
    # The three.js parser's choice (parsers/threejs/parser.py): the grammar that parsed.
    if source.grammar == "typescript":
        return lower_typescript(source, reporter, limits, budget)
    return lower_javascript(source, reporter, limits, budget)


class ConsoleEngine(Engine):
    """No scene library: only a ``console`` whose ``log`` is captured in ``transcript``."""

    name = "conformance"

    def __init__(self, transcript: Transcript) -> None:
        super().__init__()
        self.transcript = transcript

    def globals(self) -> dict[str, Value]:
        log = console_log(self.transcript)
        return {
            "console": Namespace("console", {"log": log, "info": log, "warn": log, "error": log})
        }


def run_evaluator(path: Path) -> Transcript:
    """What the static evaluator prints for the program at ``path``, and its remarks."""
    transcript = Transcript()
    evaluation = evaluate(
        path.read_text(encoding="utf-8"),
        grammar=("javascript", "typescript"),
        front_end=_front_end,
        dialect=JavaScript(),
        engine=ConsoleEngine(transcript),
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    transcript.diagnostics = list(diagnostics.items)
    return transcript


def verdict(path: Path, real: RealRun) -> Verdict:
    """The program's verdict; a program node cannot run to its end is a broken program."""
    if real.error is not None:
        raise AssertionError(f"{path.name} does not run in node: {real.error}")
    return judge(real.lines, run_evaluator(path))


def main(words: list[str]) -> int:
    paths = [p for p in programs("javascript") if not words or any(w in p.name for w in words)]
    real = run_real(paths)
    counts: dict[str, int] = {}
    for path in paths:
        try:
            found = verdict(path, real[path.name])
        except Exception as crash:  # the listing goes on; the test of the program fails
            counts["crashed"] = counts.get("crashed", 0) + 1
            print(f"{path.name:40} crashed: {crash!r}")
            continue
        counts[found.kind] = counts.get(found.kind, 0) + 1
        print(f"{path.name:40} {found}")
    print(
        ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items())), f"of {len(paths)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = ["EXPECTED_REPORTED", "Printed", "RealRun", "run_evaluator", "run_real", "verdict"]
