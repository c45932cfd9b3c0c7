"""The audit's three.js engine: node with the ``three`` npm package, one sandboxed process per
reply running ``three_harness.mjs`` behind ``node_guard.mjs`` and node's permission model, read
back through ``audit.three_engine``.

node is found on ``PATH``; the npm packages by ``three_engine.node_modules()``
(``$SPATIALBABEL_NODE_MODULES``, else the source checkout's ``node_modules``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from audit.engines import EngineRead
from audit.sandbox import ENGINE_FILES, Bind, Sandbox, exported_filter, sandbox_missing
from audit.sessions import OneShotSession
from audit.three_engine import (
    HARNESS,
    NODE_MODULES_VARIABLE,
    engine_scene,
    node_modules,
    three_version,
)

GUARD: Final = Path(__file__).with_name("node_guard.mjs")


@cache
def node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return ""
    done = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _node_binds() -> list[Bind]:
    """node itself when it is not under /usr (nvm and the like install it elsewhere)."""
    node = os.path.realpath(shutil.which("node") or "/usr/bin/node")
    if node.startswith("/usr/"):
        return []
    prefix = Path(node).parents[1]
    return [Bind(prefix, str(prefix))]


@dataclass(frozen=True)
class ThreeEngine:
    language: str = "threejs"
    label: str = "node + three"

    def missing(self) -> str | None:
        if shutil.which("node") is None:
            return "node is not installed (Debian: apt-get install nodejs)"
        if node_modules() is None:
            return (
                "the npm packages three and typescript are not found: run `npm ci` in a source "
                f"checkout, or `npm install three@0.187.0 typescript@5.9.3` in a folder and set "
                f"{NODE_MODULES_VARIABLE} to its node_modules"
            )
        return sandbox_missing()

    def open(self, sandbox: Sandbox) -> OneShotSession:
        modules = node_modules()
        assert modules is not None
        memory = sandbox.limits.memory_mb
        argv = [
            os.path.realpath(shutil.which("node") or "node"),
            "--experimental-permission",
            f"--allow-fs-read={ENGINE_FILES}/*",
            "--allow-fs-read=/tmp/*",
            "--allow-fs-write=/tmp/*",
            "--disable-warning=ExperimentalWarning",
            f"--max-old-space-size={max(256, memory // 2)}",
            "--import",
            f"file://{ENGINE_FILES}/node_guard.mjs",
            f"{ENGINE_FILES}/three_harness.mjs",
        ]
        binds = [
            *_node_binds(),
            Bind(HARNESS, f"{ENGINE_FILES}/three_harness.mjs"),
            Bind(GUARD, f"{ENGINE_FILES}/node_guard.mjs"),
            Bind(modules, f"{ENGINE_FILES}/node_modules"),
        ]
        name = f"three {three_version(modules)} on node {node_version()}"
        return OneShotSession(sandbox, argv, name=name, binds=binds, seccomp=exported_filter)

    def read(self, result: dict[str, Any], scene_id: str, engine: str) -> EngineRead:
        del engine
        errors = [str(e) for e in result.get("errors", [])]
        return EngineRead(engine_scene(result, scene_id), "; ".join(errors) or None)


ENGINE = ThreeEngine()
