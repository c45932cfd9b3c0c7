"""The audit's Python engines, Blender (bpy) and Open3D: a sandboxed worker per engine that
forks a process per reply (``audit.worker``), read back through ``audit.engine_scenes``."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any

from audit.engine_scenes import engine_run, expected_scene
from audit.engines import EngineRead
from audit.sandbox import Sandbox, sandbox_missing
from audit.sessions import ForkServerSession


@dataclass(frozen=True)
class PythonEngine:
    language: str
    label: str
    #: The module the engine is (``bpy``, ``open3d``), installed by the ``engines`` extra.
    module: str
    #: The runner the worker imports (its ``setup`` and ``run_case``).
    runner: str

    def missing(self) -> str | None:
        if importlib.util.find_spec(self.module) is None:
            return f"{self.module} is not installed: pip install 'spatialbabel[engines]'"
        return sandbox_missing()

    def open(self, sandbox: Sandbox) -> ForkServerSession:
        return ForkServerSession(sandbox, self.runner)

    def read(self, result: dict[str, Any], scene_id: str, engine: str) -> EngineRead:
        run = engine_run(self.language, {**result, "name": scene_id}, engine)
        scene = expected_scene(run, self.language)
        return EngineRead(scene, run.error, tuple(scene.meta.get("left_out", ())))


BLENDER = PythonEngine("blender", "bpy (Blender as a Python module)", "bpy", "audit.bpy_runner")
OPEN3D = PythonEngine("open3d", "open3d", "open3d", "audit.open3d_runner")
