"""The real three.js engine, seen from Python: run a reply's code in node with the ``three``
npm package (``three_harness.mjs``) and turn the meshes three built into a canonical scene.

The conversion uses only what three reports: each mesh's geometry type and parameters (read
by the parsers' one geometry table), the affine three's vertices show was applied to the
geometry, ``matrixWorld`` and the material colour. ``vertex_checks`` then holds that reading
against three's actual vertices: the exact primitive's world AABB equals the vertex AABB for
boxes and pyramids, and for curved shapes turned by multiples of 90°; otherwise contains it.

``run_three`` runs node unsandboxed, for the tests' own fixtures; the audit runs the same harness
in its sandbox (``audit.engines``). Both read the result with ``engine_scene``.
The npm packages are found by ``node_modules()``: ``$SPATIALBABEL_NODE_MODULES``, else the
``node_modules`` of the source checkout the package runs from (``npm ci`` there installs the
versions package-lock.json pins).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from parsers.build import NativeObject, build_objects
from parsers.custom_mesh import bounding_affine, shape_from_vertices
from parsers.extract import extract_code
from parsers.result import Diagnostics
from parsers.threejs.geometries import read_geometry
from spatialbabel import Scene
from spatialbabel.geometry.bounds import primitive_aabb
from spatialbabel.palette import linear_to_srgb

#: The source checkout the package runs from (package.json and node_modules beside it), if any.
REPO = Path(__file__).resolve().parents[1]
HARNESS = Path(__file__).with_name("three_harness.mjs")
#: The npm packages the harness needs (pinned in package-lock.json): three, and the TypeScript
#: compiler that turns a TypeScript reply into the JavaScript node runs.
NPM_PACKAGES = ("three", "typescript")
#: Where the user says the npm packages are, when the package does not run from a checkout.
NODE_MODULES_VARIABLE = "SPATIALBABEL_NODE_MODULES"
NODE_PACKAGES = tuple(REPO / "node_modules" / name / "package.json" for name in NPM_PACKAGES)


def node_available() -> bool:
    return shutil.which("node") is not None


def node_modules() -> Path | None:
    """The ``node_modules`` folder holding three and typescript: ``$SPATIALBABEL_NODE_MODULES``
    when set, else the source checkout's; ``None`` when neither holds both."""
    named = os.environ.get(NODE_MODULES_VARIABLE)
    for folder in ([Path(named)] if named else []) + [REPO / "node_modules"]:
        if all((folder / name / "package.json").is_file() for name in NPM_PACKAGES):
            return folder.resolve()
    return None


def three_version(folder: Path) -> str:
    """The version of three installed in ``folder`` (a ``node_modules``)."""
    package = json.loads((folder / "three" / "package.json").read_text(encoding="utf-8"))
    return str(package.get("version", "?"))


def ensure_three() -> None:
    """Install the pinned npm packages into the checkout's node_modules if one is missing."""
    if all(package.exists() for package in NODE_PACKAGES):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed; cannot install three")
    command = (
        [npm, "ci", "--no-audit", "--no-fund"]
        if (REPO / "package-lock.json").exists()
        else [npm, "install", "--no-audit", "--no-fund"]
    )
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=300)


def reply_code(reply: str) -> str:
    """The code node runs: what the shared front end extracts from the reply."""
    return extract_code(reply, "threejs").code


def run_three(code: str, *, timeout: float = 60.0) -> dict[str, Any]:
    """Run ``code`` in node + three; the harness's report (meshes, errors, dropped lines)."""
    done = subprocess.run(
        ["node", str(HARNESS)],
        input=code,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"three harness failed ({done.returncode}): {done.stderr.strip()[-2000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _matrix(elements: list[float]) -> NDArray[np.float64]:
    """A three.js Matrix4 (column-major elements) as a row-major numpy array."""
    return np.asarray(elements, dtype=float).reshape(4, 4).T


#: Remarks after which the reading is not the exact shape three built: only containment holds.
_INEXACT = frozenset(
    {"threejs.segments", "threejs.partial_shape", "threejs.approximated", "threejs.frustum"}
)


@dataclass
class EngineMesh:
    """One mesh three built, read as a canonical primitive (``class_name`` None: left out)."""

    report: dict[str, Any]
    class_name: str | None
    unit_to_world: NDArray[np.float64]
    geometry_to_world: NDArray[np.float64]
    exact: bool


def engine_meshes(result: dict[str, Any]) -> list[EngineMesh]:
    meshes = []
    # The harness reports each drawn instance of an InstancedMesh as a mesh of its own.
    for mesh in result["meshes"]:
        if mesh.get("positions"):
            meshes.append(_vertex_mesh(mesh))
            continue
        reading = read_geometry(mesh["geometryType"], mesh["parameters"] or {})
        fitted = mesh["geometryMatrix"]
        applied = _matrix(fitted["elements"]) if fitted and "elements" in fitted else np.eye(4)
        geometry_to_world = _matrix(mesh["matrixWorld"]) @ applied
        exact = not any(code in _INEXACT for _, code, _ in reading.remarks)
        meshes.append(
            EngineMesh(
                mesh,
                reading.class_name,
                geometry_to_world @ reading.unit_to_local,
                geometry_to_world,
                exact,
            )
        )
    return meshes


def _vertex_mesh(mesh: dict[str, Any]) -> EngineMesh:
    """A mesh whose geometry has no parameters, read from the vertices three holds (the
    parsers' one reading of vertices, ``parsers.custom_mesh``)."""
    positions = np.asarray(mesh["positions"], dtype=float).reshape(-1, 3)
    shape = shape_from_vertices(positions, up="y")
    world = _matrix(mesh["matrixWorld"])
    if shape is None:
        box = bounding_affine(positions, up="y")
        return EngineMesh(
            mesh, "unknown", world @ (box if box is not None else np.eye(4)), world, True
        )
    return EngineMesh(mesh, shape.class_name, world @ shape.unit_to_local, world, True)


def engine_scene(result: dict[str, Any], scene_id: str) -> Scene:
    """The canonical scene three built (ground planes and slabs left out as the parser does)."""
    natives = []
    for mesh in engine_meshes(result):
        if mesh.class_name is None:
            continue
        color = mesh.report["color"]
        rgb = linear_to_srgb((color[0], color[1], color[2])) if color is not None else None
        name = mesh.report["name"] or None
        natives.append(NativeObject(mesh.class_name, mesh.unit_to_world, rgb, name))
    objects = build_objects("threejs", natives, Diagnostics())
    return Scene(scene_id, tuple(objects))


def _is_quarter_turns(linear: NDArray[np.float64]) -> bool:
    columns = linear / np.linalg.norm(linear, axis=0)
    return bool(np.all(np.minimum(np.abs(columns), np.abs(np.abs(columns) - 1)) < 1e-9))


def _torus_proportions(mesh: EngineMesh) -> bool:
    parameters = mesh.report["parameters"] or {}
    radius, tube = parameters.get("radius", 1.0), parameters.get("tube", 0.4)
    return bool(abs(tube / radius - 1 / 3) > 0.01)


def _true_torus_aabb(mesh: EngineMesh) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Exact AABB of three's torus (ring in its local XY plane) under a similarity."""
    parameters = mesh.report["parameters"] or {}
    radius, tube = parameters.get("radius", 1.0), parameters.get("tube", 0.4)
    linear = mesh.geometry_to_world[:3, :3]
    scale = float(np.cbrt(abs(np.linalg.det(linear))))
    axis = linear[:, 2] / np.linalg.norm(linear[:, 2])
    half = scale * (radius * np.sqrt(np.clip(1 - axis**2, 0, 1)) + tube)
    centre = mesh.geometry_to_world[:3, 3]
    return centre - half, centre + half


def vertex_checks(result: dict[str, Any], tolerance: float = 1e-6) -> list[str]:
    """Problems found holding each mesh's reading against three's real vertices."""
    problems = []
    for i, mesh in enumerate(engine_meshes(result)):
        box = mesh.report["aabb"]
        if mesh.class_name is None or mesh.class_name == "unknown" or box is None:
            continue
        lo, hi = primitive_aabb(mesh.class_name, mesh.unit_to_world)
        v_lo, v_hi = np.asarray(box[0]), np.asarray(box[1])
        fitted = mesh.report["geometryMatrix"]
        if fitted is not None and fitted.get("error", 0.0) > tolerance:
            problems.append(
                f"mesh {i}: the geometry's vertices are no affine image of a fresh one ({fitted})"
            )
        must_equal = mesh.exact and (
            mesh.class_name in ("cube", "pyramid")
            or _is_quarter_turns(mesh.geometry_to_world[:3, :3])
        )
        if must_equal:
            if not (
                np.allclose(lo, v_lo, atol=tolerance) and np.allclose(hi, v_hi, atol=tolerance)
            ):
                problems.append(
                    f"mesh {i} ({mesh.class_name}): exact AABB {lo}..{hi} != vertex AABB {v_lo}..{v_hi}"
                )
        elif mesh.class_name == "torus" and _torus_proportions(mesh):
            # A torus of other proportions than the canonical one: its true bound, not the
            # canonical one, must contain the vertices (tests the reading's centre and axis).
            true_lo, true_hi = _true_torus_aabb(mesh)
            if np.any(true_lo > v_lo + tolerance) or np.any(true_hi < v_hi - tolerance):
                problems.append(
                    f"mesh {i} (torus): true AABB {true_lo}..{true_hi} does not contain the vertex AABB {v_lo}..{v_hi}"
                )
        elif np.any(lo > v_lo + tolerance) or np.any(hi < v_hi - tolerance):
            problems.append(
                f"mesh {i} ({mesh.class_name}): exact AABB {lo}..{hi} does not contain the vertex AABB {v_lo}..{v_hi}"
            )
    return problems
