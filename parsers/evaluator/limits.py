"""How much work one evaluation may do: steps, loop iterations, call depth and a deadline.

Any input must finish well under a second, including ``for(;;)``, a loop of 1e9 iterations or
unbounded recursion; what is cut is reported and the objects built so far are kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: Statements, calls and loop iterations of one evaluation.
    max_steps: int = 300_000
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
    #: Wall-clock seconds for lowering and evaluating one program.
    time_limit: float = 0.4


class BudgetExceeded(Exception):
    """Raised inside the evaluator when the step budget or the deadline runs out; caught at
    the top of the program (never reaches a parser's caller)."""


class Budget:
    """Counts steps and watches the clock (checked every few hundred steps: cheap)."""

    __slots__ = ("deadline", "limits", "reason", "steps")

    def __init__(self, limits: Limits, *, deadline: float | None = None) -> None:
        self.limits = limits
        self.steps = 0
        self.deadline = deadline if deadline is not None else time.monotonic() + limits.time_limit
        self.reason: str | None = None

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps & 0xFF < count or count > 0xFF:
            self.check()

    def check(self) -> None:
        if self.steps > self.limits.max_steps:
            self.reason = f"more than {self.limits.max_steps} evaluation steps"
            raise BudgetExceeded(self.reason)
        if time.monotonic() > self.deadline:
            self.reason = f"the {self.limits.time_limit:g} s time limit"
            raise BudgetExceeded(self.reason)

    def expired(self) -> bool:
        return time.monotonic() > self.deadline
