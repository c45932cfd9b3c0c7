"""Run Open3D replies' code with the real open3d and report every triangle mesh it built.

A subprocess, like ``bpy_runner``:

    python -m audit.open3d_runner cases.json results.json

Windows, renders and file writes are stubbed; what the code hands to them (``draw_geometries``,
``Visualizer.add_geometry``, ``draw``, ``io.write_triangle_mesh``) is recorded as shown. Every
``TriangleMesh.create_*`` call is recorded with its arguments and the vertices it produced; open3d
transforms vertices in place, so the final vertices of the same mesh say where it ended up.
Meshes shown that no ``create_*`` returned (copies, merged meshes) are reported by their
vertices for ``engine_scenes`` to match against the creations.
"""

from __future__ import annotations

import builtins
import sys
import time
from typing import Any

import numpy as np
import open3d as o3d

from audit.runner_io import as_python3, compilable_prefix, serve

_MESH = o3d.geometry.TriangleMesh
_CREATORS = [
    name for name in dir(_MESH) if name.startswith("create_") and not name.startswith("create_from")
]


class _State:
    def __init__(self) -> None:
        self.created: list[tuple[str, Any, list[Any], dict[str, Any], np.ndarray[Any, Any]]] = []
        self.shown: list[Any] = []

    def show(self, value: Any) -> None:
        if isinstance(value, dict):
            value = value.get("geometry")
        if isinstance(value, list | tuple):
            for item in value:
                self.show(item)
        elif isinstance(value, o3d.geometry.Geometry):
            self.shown.append(value)


STATE = _State()


def _creator(name: str, real: Any) -> Any:
    def create(*args: Any, **kwargs: Any) -> Any:
        mesh = real(*args, **kwargs)
        vertices = np.asarray(mesh.vertices).copy()
        STATE.created.append(
            (
                name,
                mesh,
                [_plain(a) for a in args],
                {k: _plain(v) for k, v in kwargs.items()},
                vertices,
            )
        )
        return mesh

    return staticmethod(create)


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return repr(value)


class _Inert:
    """Stands for any window, renderer or option object: accepts every call and attribute."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def __getattr__(self, _name: str) -> Any:
        return _Inert()

    def __call__(self, *_args: Any, **_kwargs: Any) -> Any:
        return _Inert()

    def __bool__(self) -> bool:
        return False


class _Visualizer(_Inert):
    def add_geometry(self, geometry: Any, *_args: Any, **_kwargs: Any) -> bool:
        STATE.show(geometry)
        return True

    def create_window(self, *_args: Any, **_kwargs: Any) -> bool:
        return True

    def poll_events(self, *_args: Any, **_kwargs: Any) -> bool:
        return False


def _show_first(*args: Any, **kwargs: Any) -> Any:
    if args:
        STATE.show(args[0])
    for key in ("geometry_list", "geometry"):
        if key in kwargs:
            STATE.show(kwargs[key])
    return True


def _write(_path: Any, geometry: Any = None, *_args: Any, **kwargs: Any) -> bool:
    STATE.show(geometry if geometry is not None else kwargs.get("mesh"))
    return True


def _install() -> None:
    for name in _CREATORS:
        setattr(_MESH, name, _creator(name, getattr(_MESH, name)))
    vis = o3d.visualization
    for name in (
        "draw_geometries",
        "draw",
        "draw_plotly",
        "draw_geometries_with_editing",
        "draw_geometries_with_animation_callback",
        "draw_geometries_with_key_callbacks",
        "draw_geometries_with_custom_animation",
    ):
        setattr(vis, name, _show_first)
    for name in (
        "Visualizer",
        "VisualizerWithKeyCallback",
        "VisualizerWithEditing",
        "VisualizerWithVertexSelection",
        "O3DVisualizer",
    ):
        setattr(vis, name, _Visualizer)
    setattr(vis, "rendering", _Inert())  # noqa: B010 - replacing a module attribute
    setattr(vis, "gui", _Inert())  # noqa: B010
    for name in dir(o3d.io):
        if name.startswith("write_"):
            setattr(o3d.io, name, _write)


#: open3d before 0.8: module functions that became ``TriangleMesh.create_*`` (same parameters).
#: Written out here rather than taken from parsers/open3d/shapes.py: this runner is the
#: engine-side check of that table, so it must not share it.
_LEGACY_FACTORIES = {
    "create_mesh_box": "create_box",
    "create_mesh_sphere": "create_sphere",
    "create_mesh_cylinder": "create_cylinder",
    "create_mesh_cone": "create_cone",
    "create_mesh_torus": "create_torus",
    "create_mesh_tetrahedron": "create_tetrahedron",
    "create_mesh_octahedron": "create_octahedron",
    "create_mesh_icosahedron": "create_icosahedron",
    "create_mesh_moebius": "create_mobius",
    "create_mesh_arrow": "create_arrow",
    "create_mesh_coordinate_frame": "create_coordinate_frame",
}
_ROTATION_TYPES = ("XYZ", "YZX", "ZXY", "XZY", "ZYX", "YXZ", "AxisAngle")


class _RotationType:
    """open3d 0.7-0.9's ``geometry.RotationType``."""

    XYZ, YZX, ZXY, XZY, ZYX, YXZ, AxisAngle = _ROTATION_TYPES


def _legacy_rotation(angles: Any, kind: Any) -> Any:
    """0.7-0.9's ``GetRotationMatrix``: Rx(a) Ry(b) Rz(c) for XYZ and so on, or axis-angle;
    built from 0.20's own ``get_rotation_matrix_from_*``."""
    values = np.asarray(angles, dtype=float).ravel()
    name = kind if isinstance(kind, str) else "XYZ"
    if name == "AxisAngle":
        return o3d.geometry.get_rotation_matrix_from_axis_angle(values)
    return getattr(o3d.geometry, f"get_rotation_matrix_from_{name.lower()}")(values)


def _centre(mesh: Any, center: Any) -> Any:
    """0.7-0.9's ``center`` flag (True: the vertex mean; False: the origin), or a point."""
    if center is None or center is True:
        return mesh.get_center()
    if center is False:
        return np.zeros(3)
    return np.asarray(center, dtype=float)


def _install_legacy() -> None:
    """open3d 0.6-0.9's names and signatures, over 0.20's implementation."""
    rotate, scale = _MESH.rotate, _MESH.scale

    def legacy_rotate(
        self: Any, R: Any = None, center: Any = None, type: Any = None, **kwargs: Any
    ) -> Any:
        R = kwargs.get("rotation", R)
        matrix = np.asarray(R, dtype=float)
        if matrix.size == 3:
            matrix = _legacy_rotation(matrix, type)
        return rotate(self, matrix, _centre(self, center))

    def legacy_scale(self: Any, factor: float, *rest: Any, **kwargs: Any) -> Any:
        center = kwargs.get("center", rest[0] if rest else None)
        if not isinstance(center, bool):
            # 0.20's own overloads (without a centre it raises TypeError, as 0.20 does).
            return scale(self, factor, *rest, **kwargs)
        return scale(self, factor, _centre(self, center))

    # setattr: the stubs of open3d's compiled module declare none of these names.
    setattr(_MESH, "rotate", legacy_rotate)  # noqa: B010
    setattr(_MESH, "scale", legacy_scale)  # noqa: B010
    for old, new in _LEGACY_FACTORIES.items():
        function = getattr(_MESH, new)
        setattr(o3d.geometry, old, function)
        setattr(o3d, old, function)
    flat = {
        "draw_geometries": _show_first,
        "TriangleMesh": _MESH,
        "Vector3dVector": o3d.utility.Vector3dVector,
        "Vector3iVector": o3d.utility.Vector3iVector,
    }
    for name, value in flat.items():
        setattr(o3d, name, value)
    setattr(o3d.geometry, "RotationType", _RotationType)  # noqa: B010


def _colours(mesh: Any) -> list[list[float]] | None:
    if not mesh.has_vertex_colors():
        return None
    return np.asarray(mesh.vertex_colors).tolist()


def _variable_names(namespace: dict[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for key, value in namespace.items():
        if isinstance(value, _MESH) and not key.startswith("_"):
            names.setdefault(id(value), key)
    return names


def _read(namespace: dict[str, Any]) -> dict[str, Any]:
    names = _variable_names(namespace)
    shown_ids = {id(m) for m in STATE.shown}
    created = []
    for order, (op, mesh, args, kwargs, vertices) in enumerate(STATE.created, start=1):
        created.append(
            {
                "order": order,
                "op": op,
                "args": args,
                "kwargs": kwargs,
                "name": names.get(id(mesh)),
                "shown": id(mesh) in shown_ids,
                "creation_vertices": vertices.tolist(),
                "vertices": np.asarray(mesh.vertices).tolist(),
                "vertex_colors": _colours(mesh),
            }
        )
    created_ids = {id(c[1]) for c in STATE.created}
    others = []
    seen: set[int] = set()
    for mesh in STATE.shown:
        if id(mesh) in created_ids or id(mesh) in seen or not isinstance(mesh, _MESH):
            continue
        seen.add(id(mesh))
        others.append(
            {
                "name": names.get(id(mesh)),
                "vertices": np.asarray(mesh.vertices).tolist(),
                "vertex_colors": _colours(mesh),
            }
        )
    return {"created": created, "shown_other": others, "anything_shown": bool(STATE.shown)}


def run_case(code: str, repeat: int = 1) -> dict[str, Any]:
    compiled, dropped = compilable_prefix(as_python3(code))
    seconds: list[float] = []
    error: str | None = None
    read: dict[str, Any] = {}
    for _ in range(max(1, repeat)):
        STATE.created.clear()
        STATE.shown.clear()
        namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
        start = time.perf_counter()
        error = None
        try:
            exec(compiled, namespace)
        except (
            Exception,
            SystemExit,
        ) as raised:  # the reply's own bug or exit: keep what was built
            error = f"{type(raised).__name__}: {raised}"
        seconds.append(time.perf_counter() - start)
        read = _read(namespace)
    return {**read, "error": error, "dropped_lines": dropped, "seconds": seconds}


def setup() -> str:
    """Install the recording wrappers and open3d's older names once; the engine's name."""
    _install()
    _install_legacy()
    return f"open3d {o3d.__version__}"


def main(argv: list[str]) -> int:
    return serve(argv, run_case, setup())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
