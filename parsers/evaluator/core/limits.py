"""How much work one evaluation may do: steps, loop iterations, call depth and a deadline.

Any input must finish well under a second, including ``for(;;)``, a loop of 1e9 iterations or
unbounded recursion; what is cut is reported and the objects built so far are kept.

Every limit that can cut a realistic reply counts work, never time, so a reply parses to the
same scene on a fast machine, a slow one and a loaded one: a benchmark's score must not
depend on where it was computed. The step budget is set so that a run that exhausts it takes
a fraction of a second here (``benchmarks/bench_parse.py`` prints it). The deadline is only a
safety net, far beyond any budgeted run, against inputs whose cost no count foresees; a reply
it cuts says so with ``eval.deadline``, the one diagnostic whose outcome depends on the machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: Statements, calls and loop iterations of one evaluation (the largest fixture, a
    #: procedural torus, takes about 4 000).
    max_steps: int = 150_000
    #: Iterations of one loop before it is stopped (the program goes on after it).
    max_loop_iterations: int = 10_000
    #: Nested calls of user functions (recursion is followed this deep).
    max_call_depth: int = 64
    #: Elements of a list or characters of a string one operation may build.
    max_collection: int = 200_000
    #: Expression nesting a front end lowers; deeper code is reported and left out.
    max_nesting: int = 160
    #: Characters of code read; a longer text is cut at a line end before this (no scene
    #: reply is near it; tree-sitter alone needs a third of a second per megabyte).
    max_code_chars: int = 200_000
    #: Wall-clock seconds for parsing, lowering and evaluating one program: a safety net only
    #: (see the module's docstring); the counted limits above end every realistic run first.
    time_limit: float = 5.0


class BudgetExceeded(Exception):
    """Raised inside the evaluator when the step budget or the deadline runs out; caught at
    the top of the program (never reaches a parser's caller). ``deadline`` says the clock,
    not a count, ended it."""

    def __init__(self, reason: str, *, deadline: bool = False) -> None:
        super().__init__(reason)
        self.deadline = deadline


class Budget:
    """Counts steps and watches the clock (checked every few hundred steps: cheap)."""

    __slots__ = ("deadline", "limits", "reason", "steps", "timed_out")

    def __init__(self, limits: Limits, *, deadline: float | None = None) -> None:
        self.limits = limits
        self.steps = 0
        self.deadline = deadline if deadline is not None else time.monotonic() + limits.time_limit
        self.reason: str | None = None
        self.timed_out = False

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps & 0xFF < count or count > 0xFF:
            self.check()

    def check(self) -> None:
        if self.steps > self.limits.max_steps:
            self.reason = f"more than {self.limits.max_steps} evaluation steps"
            raise BudgetExceeded(self.reason)
        if time.monotonic() > self.deadline:
            self.reason = f"the {self.limits.time_limit:g} s safety deadline"
            self.timed_out = True
            raise BudgetExceeded(self.reason, deadline=True)

    def expired(self) -> bool:
        return time.monotonic() > self.deadline
