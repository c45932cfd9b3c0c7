"""Run Blender replies' code in the real bpy and report every mesh object it built.

A subprocess (bpy must not share a process with open3d or the test runner's own state):

    python -m audit.bpy_runner cases.json results.json

``cases.json`` holds ``{"cases": [{"name": ..., "code": ...}], "repeat": 1}``. Each case starts
from Blender's factory-empty scene. The runner only reads the engine; turning what it reads into
a scene is ``audit.engine_scenes``'s job. Per mesh object it reports the operator that
created the mesh (``primitive_cone_add``; recorded by a thin wrapper around ``bpy.ops.mesh``) with
the vertices the operator produced, the vertices the mesh has at the end, ``matrix_world`` and
the material's colours as Blender stores them (linear).

Code cut off mid-statement does not compile as a whole; the runner runs the longest prefix of
whole lines that compiles, which is what the model managed to write, and reports how many
lines it dropped.
"""

from __future__ import annotations

import builtins
import re
import sys
import time
import types
from typing import Any

import bpy
import numpy as np

from audit.runner_io import as_python3, compilable_prefix, serve

#: Operators whose side effects are files or renders: replaced by no-ops.
_STUBBED_OPS = {
    ("render", "render"),
    ("render", "opengl"),
    ("wm", "save_as_mainfile"),
    ("wm", "save_mainfile"),
    ("wm", "quit_blender"),
    ("image", "save_as"),
}
_STUBBED_GROUPS = {"export_scene", "export_mesh"}


def _noop(*_args: Any, **_kwargs: Any) -> set[str]:
    return {"FINISHED"}


class _Creations:
    """Tags each mesh a ``primitive_*_add`` operator creates with the operator and its vertices."""

    def __init__(self) -> None:
        self.count = 0

    def call(self, op_name: str, op: Any, *args: Any, **kwargs: Any) -> Any:
        result = op(*args, **_arguments_of_280(op_name, kwargs))
        obj = bpy.context.view_layer.objects.active
        if obj is not None and obj.type == "MESH":
            self.count += 1
            mesh = obj.data
            mesh["sb_op"] = op_name
            mesh["sb_order"] = self.count
            mesh["sb_v0"] = _vertices(mesh).ravel().tolist()
        return result


#: Blender 2.7x operator arguments and the 2.80 names bpy 5 takes: (new name, factor). In
#: 2.79 the cube, plane, grid and monkey take ``radius`` (``create_cube size=radius*2``) and the
#: spheres ``size``, their radius.
_RENAMED_280 = {
    "primitive_cube_add": {"radius": ("size", 2.0)},
    "primitive_plane_add": {"radius": ("size", 2.0)},
    "primitive_grid_add": {"radius": ("size", 2.0)},
    "primitive_monkey_add": {"radius": ("size", 2.0)},
    "primitive_uv_sphere_add": {"size": ("radius", 1.0)},
    "primitive_ico_sphere_add": {"size": ("radius", 1.0)},
}


def _arguments_of_280(op_name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """An operator call written for Blender 2.7x, as bpy 5 takes it."""
    renamed = dict(kwargs)
    for old, (new, factor) in _RENAMED_280.get(op_name, {}).items():
        if old in renamed and new not in renamed:
            renamed[new] = renamed.pop(old) * factor
    if "view_align" in renamed:
        renamed.setdefault("align", "VIEW" if renamed.pop("view_align") else "WORLD")
    renamed.pop("layers", None)
    return renamed


#: Blender 2.7x's scene API as 2.80 renamed it (textual: bpy 5 has no attribute to patch).
_SCENE_API_280 = (
    (re.compile(r"\b(bpy\.context|C)\.scene\.objects\.active\b"), r"\1.view_layer.objects.active"),
    (
        re.compile(r"\b(bpy\.context|C)\.scene\.objects\.link\("),
        r"\1.scene.collection.objects.link(",
    ),
    (re.compile(r"\b(bpy\.context|C)\.scene\.update\(\)"), r"\1.view_layer.update()"),
    (re.compile(r"^(\s*)([\w.\[\]'\"]+)\.select\s*=\s*(.+?)\s*$", re.M), r"\1\2.select_set(\3)"),
    # 2.7x colours are RGB; 2.80 made diffuse_color RGBA.
    (
        re.compile(r"^(\s*[\w.\[\]'\"]+\.diffuse_color\s*=\s*)(.+?)\s*$", re.M),
        r"\1_sb_rgba(\2)",
    ),
)


def _sb_rgba(value: Any) -> tuple[float, ...]:
    """A colour as 2.80's RGBA ``diffuse_color`` takes it (an RGB one gets alpha 1)."""
    values = tuple(value)
    return values + (1.0,) if len(values) == 3 else values


def as_blender_280(code: str) -> str:
    """A reply written for Blender 2.7x (and Python 2) as bpy 5 runs it."""
    code = as_python3(code)
    for pattern, replacement in _SCENE_API_280:
        code = pattern.sub(replacement, code)
    return code


class _OpsGroup:
    def __init__(self, group: str, real: Any, creations: _Creations) -> None:
        self._group, self._real, self._creations = group, real, creations

    def __getattr__(self, name: str) -> Any:
        op = getattr(self._real, name)
        stubbed = (self._group, name) in _STUBBED_OPS or self._group in _STUBBED_GROUPS
        if stubbed or (self._group == "wm" and name.endswith("_export")):
            return _noop
        if self._group == "mesh" and name.startswith("primitive_") and name.endswith("_add"):
            return lambda *a, **k: self._creations.call(name, op, *a, **k)
        return op


class _Ops:
    def __init__(self, creations: _Creations) -> None:
        self._creations = creations

    def __getattr__(self, group: str) -> _OpsGroup:
        return _OpsGroup(group, getattr(bpy.ops, group), self._creations)


class _BpyProxy(types.ModuleType):
    """``bpy`` as the model's code sees it: the real module, with ``ops`` wrapped."""

    def __init__(self, creations: _Creations) -> None:
        super().__init__("bpy")
        self._sb_ops = _Ops(creations)

    def __getattr__(self, name: str) -> Any:
        if name == "ops":
            return self._sb_ops
        return getattr(bpy, name)


def _vertices(mesh: Any) -> np.ndarray[Any, Any]:
    flat = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", flat)
    return flat.reshape(-1, 3)


def _socket_colour(node: Any) -> list[float] | None:
    for name in ("Base Color", "Color"):
        socket = node.inputs.get(name)
        if socket is None:
            continue
        if socket.is_linked:
            source = socket.links[0].from_node
            if source.bl_idname == "ShaderNodeRGB":
                return list(source.outputs[0].default_value)
            return None
        return list(socket.default_value)
    return None


def _material_colours(obj: Any) -> dict[str, Any] | None:
    material = obj.active_material
    if material is None:
        return None
    surface: list[float] | None = None
    surface_node: str | None = None
    tree = material.node_tree
    if tree is not None:
        outputs = [n for n in tree.nodes if n.bl_idname == "ShaderNodeOutputMaterial"]
        active = [n for n in outputs if n.is_active_output] or outputs
        if active and active[0].inputs["Surface"].is_linked:
            node = active[0].inputs["Surface"].links[0].from_node
            surface_node = node.bl_idname
            surface = _socket_colour(node)
    return {
        "material": material.name,
        "surface": surface,
        "surface_node": surface_node,
        "diffuse": list(material.diffuse_color),
    }


def _read_scene() -> list[dict[str, Any]]:
    bpy.context.view_layer.update()
    records = []
    for index, obj in enumerate(bpy.context.scene.objects):
        if obj.type != "MESH":
            continue
        mesh = obj.data
        v0 = mesh.get("sb_v0")
        records.append(
            {
                "name": obj.name,
                "scene_index": index,
                "order": int(mesh.get("sb_order", 0)),
                "op": mesh.get("sb_op"),
                "creation_vertices": np.asarray(v0, dtype=float).reshape(-1, 3).tolist()
                if v0 is not None
                else None,
                "vertices": _vertices(mesh).tolist(),
                "matrix_world": [list(row) for row in obj.matrix_world],
                "colours": _material_colours(obj),
                "object_color": list(obj.color),
            }
        )
    return records


def run_case(code: str, repeat: int = 1) -> dict[str, Any]:
    compiled, dropped = compilable_prefix(as_blender_280(code))
    seconds: list[float] = []
    reset_seconds: list[float] = []
    error: str | None = None
    records: list[dict[str, Any]] = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        bpy.ops.wm.read_factory_settings(use_empty=True)
        reset_seconds.append(time.perf_counter() - start)
        creations = _Creations()
        proxy = _BpyProxy(creations)
        namespace: dict[str, Any] = {
            "__name__": "__main__",
            "__builtins__": builtins,
            "_sb_rgba": _sb_rgba,
        }
        sys.modules["bpy"] = proxy
        error = None
        try:
            exec(compiled, namespace)
        except (
            Exception,
            SystemExit,
        ) as raised:  # the reply's own bug or exit: keep what was built
            error = f"{type(raised).__name__}: {raised}"
        finally:
            sys.modules["bpy"] = bpy
        seconds.append(time.perf_counter() - start)
        records = _read_scene()
    return {
        "objects": records,
        "error": error,
        "dropped_lines": dropped,
        "seconds": seconds,
        "reset_seconds": reset_seconds,
    }


def setup() -> str:
    """Ready the engine for ``run_case`` (each case resets the scene itself); its name."""
    return f"bpy {bpy.app.version_string}"


def main(argv: list[str]) -> int:
    return serve(argv, run_case, setup())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
