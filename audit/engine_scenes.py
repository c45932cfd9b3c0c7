"""The scenes the real Python engines (Blender, Open3D) build from a reply: the expected side
of every parity test, and the engine's side of the audit (``audit.engines``).

``run_engine(language, cases)`` runs the replies' code in a subprocess (``bpy_runner`` or
``open3d_runner``), unsandboxed, for the tests' own fixtures; the audit runs the same runners in
its sandbox. Either way ``engine_run`` turns what the engine built into ``EngineObject``s: the
class, the affine taking the canonical unit primitive into the engine's world frame, the colour
(sRGB) and the object's real world vertices. ``expected_scene`` builds the canonical ``Scene``
from them with the same frame change and ground rule the parsers use (``parsers.build``), so a
parity test or an audit compares only what the parser read against what the engine did.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from audit.primitive_fit import affine_between, classify_custom_mesh, fit_unit_to_local
from parsers.build import NativeObject, build_objects
from parsers.custom_mesh import shape_from_vertices
from parsers.extract import extract_code
from parsers.result import Diagnostics
from spatialbabel import Scene
from spatialbabel.geometry.bounds import primitive_aabb
from spatialbabel.palette import RGB, linear_to_srgb

Array = NDArray[np.float64]

#: The folder holding the ``audit`` package, put on the runner subprocess's path.
CODE_ROOT: Final = Path(__file__).resolve().parents[1]
RUNNERS: Final[dict[str, str]] = {
    "blender": "audit.bpy_runner",
    "open3d": "audit.open3d_runner",
}

#: Blender operators and the class of the mesh each makes; planes and grids are ground.
BLENDER_OPS: Final[dict[str, str]] = {
    "primitive_cube_add": "cube",
    "primitive_uv_sphere_add": "sphere",
    "primitive_ico_sphere_add": "sphere",
    "primitive_cylinder_add": "cylinder",
    "primitive_cone_add": "cone",
    "primitive_torus_add": "torus",
    "primitive_monkey_add": "unknown",
}
BLENDER_GROUND_OPS: Final = frozenset(
    {"primitive_plane_add", "primitive_grid_add", "primitive_circle_add"}
)

OPEN3D_CREATORS: Final[dict[str, str]] = {
    "create_box": "cube",
    "create_sphere": "sphere",
    "create_cylinder": "cylinder",
    "create_cone": "cone",
    "create_torus": "torus",
    "create_ellipsoid": "sphere",
}
#: Helpers that are not scene objects.
OPEN3D_HELPERS: Final = frozenset({"create_coordinate_frame", "create_arrow"})

#: Blender's default grey (linear) for a new material's Base Color and viewport colour.
_BLENDER_DEFAULT_GREY: Final = (0.8, 0.8, 0.8)
_WHITE: Final = (1.0, 1.0, 1.0)
#: Largest least-squares residual (relative to the mesh size) for two vertex sets to be the
#: same mesh moved by an affine.
_AFFINE_TOLERANCE: Final = 1e-6


@dataclass
class EngineObject:
    name: str
    class_name: str
    unit_to_native: Array
    rgb: RGB | None
    #: World vertices in the engine's own frame.
    world_vertices: Array
    #: Whether the mesh's tessellation reaches the exact shape's extremes along its own axes.
    touches_extremes: bool = True


@dataclass
class EngineRun:
    name: str
    engine: str
    objects: list[EngineObject]
    left_out: list[str] = field(default_factory=list)
    error: str | None = None
    dropped_lines: int = 0
    seconds: list[float] = field(default_factory=list)


def reply_code(reply: str, language: str) -> str:
    """The code a reply holds, as the shared front end extracts it."""
    return extract_code(reply, language).code


def _run_subprocess(language: str, cases: list[tuple[str, str]], repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"sb_{language}_") as tmp:
        request = Path(tmp) / "cases.json"
        answer = Path(tmp) / "results.json"
        request.write_text(
            json.dumps({"cases": [{"name": n, "code": c} for n, c in cases], "repeat": repeat}),
            encoding="utf-8",
        )
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(CODE_ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        done = subprocess.run(
            [sys.executable, "-m", RUNNERS[language], str(request), str(answer)],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0 or not answer.exists():
            raise RuntimeError(
                f"{RUNNERS[language]} failed ({done.returncode}):\n{done.stderr[-3000:]}"
            )
        result: dict[str, Any] = json.loads(answer.read_text(encoding="utf-8"))
        return result


def run_engine(language: str, cases: list[tuple[str, str]], *, repeat: int = 1) -> list[EngineRun]:
    """Run each ``(name, code)`` in the engine of ``language`` ('blender' or 'open3d')."""
    answer = _run_subprocess(language, cases, repeat)
    return [engine_run(language, result, answer["engine"]) for result in answer["results"]]


def engine_run(language: str, result: dict[str, Any], engine: str) -> EngineRun:
    """What a runner reported for one case (``bpy_runner.run_case``, ``open3d_runner.run_case``
    with the case's ``name``), read as the objects the engine built."""
    convert = _blender_run if language == "blender" else _open3d_run
    return convert(result, engine)


def _homogeneous(vertices: Array, affine: Array) -> Array:
    v = np.asarray(vertices, dtype=float).reshape(-1, 3)
    return v @ affine[:3, :3].T + affine[:3, 3]


def _close(a: tuple[float, ...] | list[float], b: tuple[float, ...]) -> bool:
    return all(abs(x - y) <= 1e-6 for x, y in zip(a, b, strict=False))


def _touches(class_name: str, unit_to_local: Array, vertices: Array) -> bool:
    lo, hi = primitive_aabb(class_name, unit_to_local)
    v = np.asarray(vertices, dtype=float)
    scale = max(float(np.max(hi - lo)), 1e-12)
    return bool(
        np.allclose(v.min(axis=0), lo, atol=1e-6 * scale)
        and np.allclose(v.max(axis=0), hi, atol=1e-6 * scale)
    )


def _base_corner_count(vertices: Array) -> int:
    v = np.asarray(vertices, dtype=float)
    z = v[:, 2]
    span = max(float(z.max() - z.min()), 1e-12)
    centre = (v.min(axis=0) + v.max(axis=0)) / 2
    radial = np.hypot(v[:, 0] - centre[0], v[:, 1] - centre[1])
    counts = []
    for end in (z.min(), z.max()):
        on_cap = np.abs(z - end) <= 1e-5 * span
        counts.append(int(np.sum(on_cap & (radial > 1e-5 * span))))
    return max(counts)


def _blender_colour(colours: dict[str, Any] | None, object_color: list[float]) -> RGB | None:
    """The colour the model gave: a Base Color (or shader Color) it changed, else a viewport
    ``diffuse_color`` it changed, else the object colour; Blender stores them linear."""
    candidates: list[list[float] | None] = []
    if colours is not None:
        candidates += [colours.get("surface"), colours.get("diffuse")]
    for value in candidates:
        if value is not None and not _close(value[:3], _BLENDER_DEFAULT_GREY):
            return linear_to_srgb((value[0], value[1], value[2]))
    if not _close(object_color[:3], _WHITE):
        return linear_to_srgb((object_color[0], object_color[1], object_color[2]))
    if colours is not None:
        value = colours.get("surface") or colours.get("diffuse")
        if value is not None:
            return linear_to_srgb((value[0], value[1], value[2]))
    return None


def _blender_run(result: dict[str, Any], engine: str) -> EngineRun:
    run = EngineRun(
        result["name"],
        engine,
        [],
        error=result["error"],
        dropped_lines=result["dropped_lines"],
        seconds=result["seconds"],
    )
    records = sorted(result["objects"], key=lambda r: r["order"] or 10**6 + r["scene_index"])
    for record in records:
        op = record["op"]
        vertices = np.asarray(record["vertices"], dtype=float).reshape(-1, 3)
        if op in BLENDER_GROUND_OPS:
            run.left_out.append(f"{record['name']}: {op} is a ground plane")
            continue
        shape = None
        if op is None:
            class_name = classify_custom_mesh(vertices)
            created = vertices
            if class_name == "unknown":
                # Other shapes built vertex by vertex (a cone, a torus...) are read from
                # Blender's vertices with the parsers' one reading of vertices.
                shape = shape_from_vertices(vertices, up="z")
                class_name = shape.class_name if shape is not None else "unknown"
        else:
            class_name = BLENDER_OPS.get(op, "unknown")
            created = np.asarray(record["creation_vertices"], dtype=float).reshape(-1, 3)
            if class_name == "cone" and _base_corner_count(created) == 4:
                class_name = "pyramid"
        if len(vertices) == 0:
            run.left_out.append(f"{record['name']}: mesh without vertices")
            continue
        unit_to_local = (
            shape.unit_to_local
            if shape is not None
            else fit_unit_to_local(class_name, created, up="z")
        )
        if created.shape == vertices.shape:
            edit, residual = affine_between(created, vertices)
            if residual > _AFFINE_TOLERANCE * max(1.0, float(np.abs(vertices).max())):
                run.left_out.append(
                    f"{record['name']}: mesh edited beyond an affine (residual {residual:.3g})"
                )
                continue
        else:
            run.left_out.append(f"{record['name']}: vertex count changed after creation")
            continue
        world = np.asarray(record["matrix_world"], dtype=float)
        unit_to_native = world @ edit @ unit_to_local
        run.objects.append(
            EngineObject(
                record["name"],
                class_name,
                unit_to_native,
                _blender_colour(record["colours"], record["object_color"]),
                _homogeneous(vertices, world),
                _touches(class_name, unit_to_local, created),
            )
        )
    return run


def _uniform_colour(colours: list[list[float]] | None, where: str, notes: list[str]) -> RGB | None:
    if colours is None or len(colours) == 0:
        return None
    c = np.asarray(colours, dtype=float)
    mean = c.mean(axis=0)
    if float(np.abs(c - mean).max()) > 1e-6:
        notes.append(f"{where}: vertex colours are not uniform; their mean kept")
    return (float(mean[0]), float(mean[1]), float(mean[2]))


def _open3d_object(
    name: str,
    op: str,
    created: Array,
    vertices: Array,
    colours: list[list[float]] | None,
    notes: list[str],
) -> EngineObject | None:
    class_name = OPEN3D_CREATORS.get(op, "unknown")
    if class_name == "cone" and _base_corner_count(created) == 4:
        class_name = "pyramid"
    edit, residual = affine_between(created, vertices)
    if residual > _AFFINE_TOLERANCE * max(1.0, float(np.abs(vertices).max())):
        notes.append(f"{name}: mesh edited beyond an affine (residual {residual:.3g})")
        return None
    # An ellipsoid's radii differ per axis: its box, not its largest radius, gives them.
    fit_as = "cube" if op == "create_ellipsoid" else class_name
    unit_to_local = fit_unit_to_local(fit_as, created, up="y")
    return EngineObject(
        name,
        class_name,
        edit @ unit_to_local,
        _uniform_colour(colours, name, notes),
        vertices,
        _touches(class_name, unit_to_local, created),
    )


def _match_pieces(
    vertices: Array, creations: list[dict[str, Any]], start: int = 0
) -> list[tuple[dict[str, Any], int, int]] | None:
    """Split a mesh no ``create_*`` returned (a copy, or meshes merged with ``+=``) into the
    creations its vertex ranges are affine images of. Longer creations are tried first: the
    first 22 vertices of a cylinder are an affine image of a cone's 22."""
    if start == len(vertices):
        return []
    by_size = sorted(creations, key=lambda c: -len(c["creation_vertices"]))
    for creation in by_size:
        created = np.asarray(creation["creation_vertices"], dtype=float)
        end = start + len(created)
        if end > len(vertices):
            continue
        _, residual = affine_between(created, vertices[start:end])
        if residual <= _AFFINE_TOLERANCE * max(1.0, float(np.abs(vertices[start:end]).max())):
            rest = _match_pieces(vertices, creations, end)
            if rest is not None:
                return [(creation, start, end), *rest]
    return None


def _open3d_run(result: dict[str, Any], engine: str) -> EngineRun:
    run = EngineRun(
        result["name"],
        engine,
        [],
        error=result["error"],
        dropped_lines=result["dropped_lines"],
        seconds=result["seconds"],
    )
    creations = [c for c in result["created"] if c["op"] not in OPEN3D_HELPERS]
    shown_any = result["anything_shown"]
    names: dict[str, int] = {}

    def unique(base: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_.\-]+", "_", base)
        names[base] = names.get(base, 0) + 1
        return base if names[base] == 1 else f"{base}_{names[base]}"

    for creation in creations:
        if shown_any and not creation["shown"]:
            run.left_out.append(f"{creation['name'] or creation['op']}: created but never shown")
            continue
        name = unique(creation["name"] or OPEN3D_CREATORS.get(creation["op"], "mesh"))
        obj = _open3d_object(
            name,
            creation["op"],
            np.asarray(creation["creation_vertices"], dtype=float),
            np.asarray(creation["vertices"], dtype=float),
            creation["vertex_colors"],
            run.left_out,
        )
        if obj is not None:
            run.objects.append(obj)
    for other in result["shown_other"]:
        vertices = np.asarray(other["vertices"], dtype=float).reshape(-1, 3)
        pieces = _match_pieces(vertices, creations) if len(vertices) else None
        shape = shape_from_vertices(vertices, up="y") if not pieces and len(vertices) else None
        if shape is not None:
            # A mesh the code gave its own vertices (a torus, a pyramid...), read from open3d's
            # vertices with the parsers' one reading of vertices.
            name = unique(other["name"] or shape.class_name)
            run.objects.append(
                EngineObject(
                    name,
                    shape.class_name,
                    shape.unit_to_local,
                    _uniform_colour(other["vertex_colors"], name, run.left_out),
                    vertices,
                    _touches(shape.class_name, shape.unit_to_local, vertices),
                )
            )
            continue
        if not pieces:
            run.left_out.append(
                f"{other['name'] or 'mesh'}: a shown mesh of {len(vertices)} vertices matches no created primitive"
            )
            continue
        for creation, start, end in pieces:
            colours = other["vertex_colors"][start:end] if other["vertex_colors"] else None
            name = unique(
                other["name"] or creation["name"] or OPEN3D_CREATORS.get(creation["op"], "mesh")
            )
            obj = _open3d_object(
                name,
                creation["op"],
                np.asarray(creation["creation_vertices"], dtype=float),
                vertices[start:end],
                colours,
                run.left_out,
            )
            if obj is not None:
                run.objects.append(obj)
    return run


def native_objects(run: EngineRun) -> list[NativeObject]:
    return [NativeObject(o.class_name, o.unit_to_native, o.rgb, o.name) for o in run.objects]


def expected_scene(run: EngineRun, language: str, *, ran: str | None = None) -> Scene:
    """The canonical scene the engine built, with the engine and what was left out in ``meta``
    (``ran``: what the engine ran when it was not the reply itself, e.g. a completed twin)."""
    notes = Diagnostics()
    objects = build_objects(language, native_objects(run), notes)
    meta: dict[str, Any] = {
        "expected_from": run.engine if ran is None else f"{run.engine}, running {ran}"
    }
    left_out = run.left_out + [d.message for d in notes.items if d.code == "build.ground_removed"]
    if left_out:
        meta["left_out"] = left_out
    if run.dropped_lines:
        meta["engine_ran_without_last_lines"] = run.dropped_lines
    if run.error:
        meta["engine_error"] = run.error
    return Scene(run.name, tuple(objects), meta=meta)


def angles_are_right(affine: Array) -> bool:
    """Whether an affine's linear part only permutes and scales the axes (quarter turns)."""
    linear = np.asarray(affine, dtype=float)[:3, :3]
    norms = np.linalg.norm(linear, axis=0)
    safe = np.where(norms > 1e-12, norms, 1.0)
    unit = np.abs(linear / safe)
    return bool(np.all((unit < 1e-9) | (np.abs(unit - 1.0) < 1e-9)))


__all__ = [
    "EngineObject",
    "EngineRun",
    "angles_are_right",
    "engine_run",
    "expected_scene",
    "reply_code",
    "run_engine",
]
