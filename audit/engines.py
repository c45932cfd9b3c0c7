"""The audit's engines: what an engine offers the audit, and which engine each language has.

An engine is one module holding an object with the ``Engine`` interface:

- ``language`` (a code language id) and ``label`` (the engine, for the table);
- ``missing()``: why it cannot run here, naming what to install, or None;
- ``open(sandbox)``: a session (``audit.sessions``) running replies in the sandbox, one
  ``RunOutcome`` each, told the batch first (``prepare``);
- ``read(result, scene_id)``: the canonical scene the engine built, read from its raw report
  with the parsers' own frame change and ground rule (the same reading the engine tests use).

``ENGINES`` names each language's module and attribute (docs/audit.md, "Plugging in an engine").
JSON and the DSL have no engine: they are data, read as they are.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from audit.sandbox import Sandbox
from audit.sessions import RunOutcome
from spatialbabel import Scene


@dataclass(frozen=True)
class EngineRead:
    """What the audit reads back from one run: the canonical scene the engine built, the
    reply's own error as the engine raised it, and what the reading left out."""

    scene: Scene
    error: str | None = None
    left_out: tuple[str, ...] = field(default=())


class Session(Protocol):
    name: str
    startup_seconds: float
    restarts: int

    def prepare(self, jobs: Sequence[tuple[str, str]]) -> None:
        """Learn the batch's ``(job_id, code)`` before they run one by one (Unity compiles
        them in one call; the others need nothing)."""

    def run(self, job_id: str, code: str) -> RunOutcome: ...

    def close(self) -> None: ...


class Engine(Protocol):
    @property
    def language(self) -> str: ...

    @property
    def label(self) -> str: ...

    def missing(self) -> str | None: ...

    def open(self, sandbox: Sandbox) -> Session: ...

    def read(self, result: dict[str, Any], scene_id: str, engine: str) -> EngineRead: ...


#: Language -> "module:attribute" of its engine.
ENGINES: Final[dict[str, str]] = {
    "threejs": "audit.three_audit:ENGINE",
    "blender": "audit.python_engines:BLENDER",
    "open3d": "audit.python_engines:OPEN3D",
    "unity": "audit.unity_audit:ENGINE",
}
#: Languages that are data, with no engine to run.
NO_ENGINE: Final[dict[str, str]] = {
    "json": "no engine: JSON is data, read as it is",
    "dsl": "no engine: the DSL is data, read by its own grammar",
}


def find_engine(language: str) -> Engine | str:
    """The engine of ``language``, or why there is none to run (no engine for the language, or
    its module is not there)."""
    if language in NO_ENGINE:
        return NO_ENGINE[language]
    where = ENGINES.get(language)
    if where is None:
        return f"no engine is known for {language}"
    module_name, attribute = where.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        return (
            f"the {language} engine is not plugged in: no module {module_name} "
            "(docs/audit.md, 'Plugging in an engine')"
        )
    engine: Engine = getattr(module, attribute)
    return engine
