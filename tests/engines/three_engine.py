"""The real three.js engine, seen from Python: run a reply's code in node with the ``three``
npm package (``three_harness.mjs``) and turn the meshes three built into a canonical scene.

The conversion uses only what three reports: each mesh's geometry type and parameters (read
by the parsers' one geometry table), the affine three's vertices show was applied to the
geometry, ``matrixWorld`` and the material colour. ``vertex_checks`` then holds that reading
against three's actual vertices: the exact primitive's world AABB equals the vertex AABB for
boxes and pyramids, and for curved shapes turned by multiples of 90°; otherwise contains it.

    python -m tests.engines.three_engine fixtures/threejs   # (re)write every expected scene
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
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
from spatialbabel.geometry import primitive_aabb
from spatialbabel.palette import linear_to_srgb

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).with_name("three_harness.mjs")
#: The npm packages the harness needs (pinned in package-lock.json): three, and the TypeScript
#: compiler that turns a TypeScript reply into the JavaScript node runs.
NODE_PACKAGES = tuple(
    REPO / "node_modules" / name / "package.json" for name in ("three", "typescript")
)


def node_available() -> bool:
    return shutil.which("node") is not None


def ensure_three() -> None:
    """Install the pinned npm packages into the repository's node_modules if one is missing."""
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


def engine_reply_path(reply: Path) -> Path:
    """The reply three runs for a fixture: its completed twin ``<case>.completed.txt`` when it
    has one (a reply whose helper has no body: three builds nothing from it)."""
    twin = reply.with_name(f"{reply.stem}.completed.txt")
    return twin if twin.exists() else reply


def fixture_replies(folder: Path) -> list[Path]:
    """The fixture replies of a folder (twins, ``<case>.<kind>.txt``, are not cases)."""
    return [p for p in sorted(folder.glob("*.txt")) if "." not in p.stem]


def write_expected(folder: Path) -> None:
    for reply in fixture_replies(folder):
        ran = engine_reply_path(reply)
        result = run_three(reply_code(ran.read_text(encoding="utf-8")))
        if result["errors"]:
            print(f"{reply.name}: three reports errors: {result['errors']}", file=sys.stderr)
        problems = vertex_checks(result)
        if problems:
            print(f"{reply.name}: {problems}", file=sys.stderr)
        scene = engine_scene(result, reply.stem)
        if ran != reply:
            scene = Scene(
                scene.scene_id,
                scene.objects,
                meta={"expected_from": f"three r187 running the completed twin {ran.name}"},
            )
        scene.save(reply.with_name(f"{reply.stem}.expected.json"))
        print(f"{reply.stem}: {len(scene.objects)} objects ({result['dropped']} lines dropped)")


if __name__ == "__main__":
    ensure_three()
    write_expected(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "fixtures" / "threejs")


def compare_scenes(
    got: Scene, expected: Scene, tolerance: float = 1e-6, rgb_tolerance: float = 1e-6
) -> list[str]:
    """Differences between two scenes: count, then per object (matched in order, or by the
    Hungarian method on centres when the order differs) class, palette colour, sRGB and the
    exact primitive's world AABB centre and extents."""
    from scipy.optimize import linear_sum_assignment

    from spatialbabel.geometry import world_aabb

    if len(got.objects) != len(expected.objects):
        return [f"{len(got.objects)} objects, expected {len(expected.objects)}"]

    def boxes(scene: Scene) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        result = []
        for obj in scene.objects:
            lo, hi = world_aabb(obj)
            result.append(((lo + hi) / 2, hi - lo))
        return result

    got_boxes, expected_boxes = boxes(got), boxes(expected)

    def differences(pairs: list[tuple[int, int]]) -> list[str]:
        found = []
        for i, j in pairs:
            a, b = got.objects[i], expected.objects[j]
            (ca, ea), (cb, eb) = got_boxes[i], expected_boxes[j]
            if a.class_name != b.class_name:
                found.append(f"{a.id}: class {a.class_name}, expected {b.class_name}")
            if a.color != b.color:
                found.append(f"{a.id}: colour {a.color}, expected {b.color}")
            if (a.rgb is None) != (b.rgb is None) or (
                a.rgb is not None
                and b.rgb is not None
                and not np.allclose(a.rgb, b.rgb, atol=rgb_tolerance, rtol=0)
            ):
                found.append(f"{a.id}: sRGB {a.rgb}, expected {b.rgb}")
            if not np.allclose(ca, cb, atol=tolerance, rtol=0):
                found.append(f"{a.id}: AABB centre {ca}, expected {cb}")
            if not np.allclose(ea, eb, atol=tolerance, rtol=0):
                found.append(f"{a.id}: AABB extents {ea}, expected {eb}")
        return found

    in_order = differences([(i, i) for i in range(len(got.objects))])
    if not in_order or not got.objects:
        return in_order
    cost = np.array([[np.linalg.norm(g[0] - e[0]) for e in expected_boxes] for g in got_boxes])
    rows, cols = linear_sum_assignment(cost)
    return differences(list(zip(rows.tolist(), cols.tolist(), strict=True)))
