"""The pipeline shared by the languages read with the static evaluator (three.js, Unity,
Blender, Open3D): a reply -> its code -> the engine's state after a static run -> a scene.

Each language configures one ``EvaluatedLanguage``: its tree-sitter grammar, front end,
dialect and engine table, how the objects are read from the engine after the run, and its own
diagnostic codes. The steps, in order:

1. extract the code from the reply (``parsers.extract``), diagnostics keyed to reply lines;
2. cut code too long to read whole at a line end (``<language>.too_long``), for languages that
   ask for it (three.js leaves it to the evaluator's own ``eval.too_long``);
3. the language's own preparation (three.js reads a page's scripts, Unity closes blocks cut
   off mid-method);
4. evaluate (``parsers.evaluator.evaluate``) and read the objects the engine holds;
5. the evaluator's remarks, then ``<language>.no_objects`` when the code parsed, nothing was
   found and no error says why;
6. ``parsers.build.build_objects`` makes the canonical objects.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from parsers.build import NativeObject, build_objects
from parsers.evaluator import CallContext, Dialect, Engine, Evaluation, FrontEnd, Limits, evaluate
from parsers.evaluator.core.repair import keep_beginning
from parsers.extract import extract_code
from parsers.result import Diagnostics, ObjectSource, ParseResult
from spatialbabel import Scene

EngineT = TypeVar("EngineT", bound=Engine)


@dataclass(frozen=True)
class EvaluatedLanguage(Generic[EngineT]):
    """How one language is read by the static evaluator."""

    language: str
    #: The tree-sitter grammar (``parsers.evaluator.core.treesitter``), or alternatives in order of
    #: preference: the one parsing with the fewest errors is used.
    grammar: str | tuple[str, ...]
    front_end: FrontEnd
    #: A fresh engine table for ``code`` (one per parse: it keeps the run's state).
    new_engine: Callable[[str], EngineT]
    #: The dialect the engine's scripts run with (some read the engine's tables).
    new_dialect: Callable[[EngineT], Dialect]
    #: The objects the engine holds after the run, given the code that ran.
    read_objects: Callable[[CallContext, EngineT, str], list[NativeObject]]
    #: The error when the code parsed but makes no object: (code, message).
    no_objects: tuple[str, str]
    #: The warning for code cut at a line end before reading it (None: not cut here).
    too_long: str | None = None
    #: The language's own step between extraction and evaluation: the code to evaluate.
    prepare: Callable[[str, Diagnostics], str] | None = None

    def evaluate(
        self, code: str, *, limits: Limits | None = None, started: float | None = None
    ) -> tuple[Evaluation, EngineT]:
        """Run ``code`` statically; the engine holds what it built."""
        engine = self.new_engine(code)
        evaluation = evaluate(
            code,
            grammar=self.grammar,
            front_end=self.front_end,
            dialect=self.new_dialect(engine),
            engine=engine,
            limits=limits,
            started=started,
        )
        return evaluation, engine

    def parse(self, text: str, *, limits: Limits | None = None) -> ParseResult:
        """A model's reply -> the scene the engine would build, read statically."""
        started = time.monotonic()
        extraction = extract_code(text, self.language)
        diagnostics = Diagnostics(list(extraction.diagnostics))
        diagnostics.line_map = extraction.reply_line
        code = extraction.code
        if self.too_long is not None:
            code, left_out = keep_beginning(code)
            if left_out:
                diagnostics.warning(
                    self.too_long,
                    f"the code is too long to read whole; its last {left_out} lines are left out",
                    code.count("\n") + 1,
                )
        if self.prepare is not None:
            code = self.prepare(code, diagnostics)
        evaluation, engine = self.evaluate(code, limits=limits, started=started)
        natives = (
            self.read_objects(CallContext(evaluation.interpreter, 0, 0), engine, code)
            if evaluation.parsed
            else []
        )
        evaluation.reporter.flush(diagnostics)
        if (
            evaluation.parsed
            and not natives
            and not any(d.severity == "error" for d in diagnostics.items)
        ):
            diagnostics.error(*self.no_objects)
        sources: list[ObjectSource] = []
        objects = build_objects(self.language, natives, diagnostics, sources)
        return ParseResult(
            self.language,
            Scene("parsed", tuple(objects)),
            tuple(diagnostics.items),
            tuple(sources),
        )
