"""The static evaluator's side of the C# conformance suite: a program is lowered by the C#
front end, run on the ``CSharp`` dialect with an engine that only has a console, and its
``Main`` is called. ``Console.WriteLine``/``Console.Write`` (and Unity's ``Debug.Log``, for
programs written as scripts) are captured line by line, each line with the number of warnings
reported before it (``harness.Printed``).

Printing a value the evaluator cannot know is itself a warning at the print's line: the line
is then ``reported``, never a silent ``<unknown>``.
"""

from __future__ import annotations

from parsers.evaluator import (
    Args,
    Builtin,
    CallContext,
    Engine,
    Kwargs,
    Limits,
    Namespace,
    Reporter,
    SourceTree,
    Unknown,
    Value,
    evaluate,
    ir,
)
from parsers.evaluator.core.limits import Budget
from parsers.evaluator.csharp.front import CSharpFrontEnd
from parsers.evaluator.csharp.lib import CSharp
from parsers.evaluator.csharp.text import composite_format
from parsers.result import Diagnostics
from tests.conformance.harness import Printed, Transcript


class ConsoleEngine(Engine):
    """No scene library: a console whose lines are kept."""

    name = "console"

    def __init__(self) -> None:
        super().__init__()
        self.transcript = Transcript()
        self._pending: list[str] = []

    def _text(self, ctx: CallContext, args: Args) -> str:
        dialect = ctx.interp.dialect
        values = list(args)
        if any(isinstance(v, Unknown) for v in values):
            reason = next(v.reason for v in values if isinstance(v, Unknown))
            ctx.warning("cs.unknown_output", f"printed a value that cannot be known ({reason})")
            return "<unknown>"
        if not values:
            return ""
        if len(values) > 1 and isinstance(values[0], str):
            rest = values[1:]
            if len(rest) == 1 and isinstance(rest[0], list):
                rest = list(rest[0])
            return composite_format(values[0], rest, lambda v: dialect.to_string(v))
        return dialect.to_string(values[0])

    def _write(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        self._pending.append(self._text(ctx, args))
        return None

    def _write_line(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        self._pending.append(self._text(ctx, args))
        text = "".join(self._pending)
        self._pending.clear()
        count = ctx.interp.reporter.warning_count()
        for line in text.split("\n"):
            self.transcript.lines.append(Printed(line, count))
        return None

    def finish(self, reporter: Reporter) -> None:
        """The text written after the last ``WriteLine`` is a last line of its own."""
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            for line in text.split("\n"):
                self.transcript.lines.append(Printed(line, reporter.warning_count()))

    def globals(self) -> dict[str, Value]:
        console = Namespace(
            "Console",
            {
                "WriteLine": Builtin("Console.WriteLine", self._write_line),
                "Write": Builtin("Console.Write", self._write),
            },
        )
        debug = Namespace("Debug", {"Log": Builtin("Debug.Log", self._write_line)})
        return {"Console": console, "Debug": debug}


def _front_end(source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget) -> ir.Block:
    """The program, then a call of the ``Main`` of the class that declares a static one."""
    front = CSharpFrontEnd(source, reporter, limits, budget, prefix="cs")
    program = front.program()
    line = source.root.end_point[0] + 1
    calls: list[ir.Stmt] = []
    for info in front.classes:
        if any(m.name == "Main" and m.static for m in info.methods) and not info.nested:
            callee = ir.Member(line, 0, ir.Name(line, 0, info.name), "Main")
            calls.append(ir.ExprStmt(line, 0, ir.Call(line, 0, callee, ())))
            break
    return ir.Block(program.line, program.col, program.body + tuple(calls), scoped=False)


def run_static(code: str) -> Transcript:
    """What the evaluator prints running ``code``'s ``Main``, and every remark it made."""
    engine = ConsoleEngine()
    evaluation = evaluate(
        code, grammar="c_sharp", front_end=_front_end, dialect=CSharp(), engine=engine
    )
    engine.finish(evaluation.reporter)
    transcript = engine.transcript
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    transcript.diagnostics = list(diagnostics.items)
    return transcript
