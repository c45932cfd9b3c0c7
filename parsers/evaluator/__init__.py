"""The static evaluator shared by the imperative scene-code languages.

A language plugs in with a front end (its tree-sitter tree -> ``ir``), a ``Dialect`` (its
run-time semantics and standard library) and an ``Engine`` table (its scene library); see
docs/evaluator.md. ``evaluate`` runs the three together under one budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from parsers.collector import collector_paused
from parsers.evaluator.core import ir
from parsers.evaluator.core.arguments import Args, Kwargs, arg
from parsers.evaluator.core.context import CallContext, Reporter
from parsers.evaluator.core.control_flow import ThrowSignal
from parsers.evaluator.core.dialect import Dialect
from parsers.evaluator.core.engine import Engine, HelperCall, Kind, Part
from parsers.evaluator.core.interpreter import Interpreter
from parsers.evaluator.core.limits import Budget, BudgetExceeded, Limits
from parsers.evaluator.core.treesitter import ParseTimeout, SourceTree, error_count
from parsers.evaluator.core.treesitter import parse as parse_tree
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    EngineClass,
    EnumMember,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)

#: A front end: (parsed text, reporter, limits, budget) -> program.
FrontEnd = Callable[[SourceTree, Reporter, Limits, Budget], ir.Block]


@dataclass
class Evaluation:
    """What ``evaluate`` leaves: the interpreter (its globals, the engine's state) and the
    remarks, still keyed by code line."""

    interpreter: Interpreter
    reporter: Reporter
    parsed: bool


def evaluate(
    code: str,
    *,
    grammar: str | tuple[str, ...],
    front_end: FrontEnd,
    dialect: Dialect,
    engine: Engine,
    limits: Limits | None = None,
    started: float | None = None,
) -> Evaluation:
    """Parse ``code`` with tree-sitter ``grammar``, lower it with ``front_end`` and run it.

    ``grammar`` may list alternatives: when the code does not parse cleanly with the first, the
    one leaving the fewest syntax errors is used (three.js code written in TypeScript).

    Counted limits (``Limits``) bound the work, so the result never depends on the machine;
    one safety deadline (``limits.time_limit`` seconds from ``started``) covers parsing,
    lowering and evaluation against anything the counts miss. Whatever runs out is reported
    and what was built is kept. Never raises for anything in ``code``.
    """
    limits = limits or Limits()
    start = time.monotonic() if started is None else started
    budget = Budget(limits, deadline=start + limits.time_limit)
    interpreter = Interpreter(dialect, engine, limits=limits, budget=budget)
    reporter = interpreter.reporter
    if len(code) > limits.max_code_chars:
        cut = code.rfind("\n", 0, limits.max_code_chars)
        cut = cut if cut > 0 else limits.max_code_chars
        line = code.count("\n", 0, cut) + 1
        reporter.add(
            "warning",
            "eval.too_long",
            f"the code is {len(code)} characters long; only the first {cut} (to line {line}) are read",
            line,
            None,
        )
        code = code[:cut]
    try:
        source = _parse_best(code, grammar, deadline=start + limits.time_limit * 0.6)
    except ParseTimeout:
        reporter.add(
            "error",
            "eval.parse_timeout",
            "the code is too large or garbled to read before the safety deadline; this result"
            " depends on the machine's speed",
            None,
            None,
        )
        return Evaluation(interpreter, reporter, parsed=False)
    # The run allocates many small records and collects none of them: pausing the cyclic
    # collector keeps its passes out of the time budget.
    with collector_paused():
        program = front_end(source, reporter, limits, budget)
        interpreter.run(program)
    return Evaluation(interpreter, reporter, parsed=True)


def _parse_best(code: str, grammar: str | tuple[str, ...], *, deadline: float) -> SourceTree:
    grammars = (grammar,) if isinstance(grammar, str) else grammar
    best = parse_tree(code, grammars[0], deadline=deadline)
    if not best.root.has_error:
        return best
    fewest = error_count(best.root)
    for alternative in grammars[1:]:
        other = parse_tree(code, alternative, deadline=deadline)
        errors = error_count(other.root) if other.root.has_error else 0
        if errors < fewest:
            best, fewest = other, errors
    return best


__all__ = [
    "UNDEFINED",
    "Args",
    "BoundMethod",
    "Budget",
    "BudgetExceeded",
    "Builtin",
    "CallContext",
    "ClassValue",
    "Closure",
    "Dialect",
    "Engine",
    "EngineClass",
    "EnumMember",
    "Evaluation",
    "FrontEnd",
    "HelperCall",
    "Interpreter",
    "Kind",
    "Kwargs",
    "Limits",
    "Namespace",
    "ParseTimeout",
    "Part",
    "Record",
    "Reporter",
    "SourceTree",
    "ThrowSignal",
    "Unknown",
    "Value",
    "arg",
    "evaluate",
    "ir",
    "is_number",
    "parse_tree",
    "type_name",
]
