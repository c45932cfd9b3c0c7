"""The project's own fixtures as the engine tests run them: the fixture replies of a language,
the reply an engine runs for a case (its completed twin when it has one), the expected scene
with that twin named, and the exact scene comparison the parity tests use.

The engines themselves and the reading of what they built are the product's (``audit``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from audit.engine_scenes import EngineRun, expected_scene
from audit.unity_engine import UnityRun
from audit.unity_engine import expected_scene as unity_scene
from spatialbabel import Scene

FIXTURES: Final = Path(__file__).resolve().parents[2] / "fixtures"


def completed_twin(language: str, case: str) -> Path | None:
    """``<case>.completed.txt`` of a fixture whose helper has no body (a stub, cut off, never
    written): the same reply with the helper written out. The engine builds nothing from a
    helper without a body, so the expected scene is what it builds from the twin; the parser
    must read the reply itself as that scene."""
    twin = FIXTURES / language / f"{case}.completed.txt"
    return twin if twin.exists() else None


def engine_reply(language: str, case: str, reply: str) -> str:
    """The reply the engine runs for a fixture: its completed twin when it has one."""
    twin = completed_twin(language, case)
    return twin.read_text(encoding="utf-8") if twin is not None else reply


def fixture_cases(language: str, *, folder: Path | None = None) -> list[tuple[str, str]]:
    """``(case, reply text)`` of every ``fixtures/<language>/<case>.txt``, sorted."""
    base = folder or FIXTURES / language
    return [
        (p.stem, p.read_text(encoding="utf-8"))
        for p in sorted(base.glob("*.txt"))
        if p.stem.count(".") == 0
    ]


def fixture_expected_scene(run: EngineRun, language: str) -> Scene:
    """``expected_scene`` of a fixture's run, naming the completed twin the engine ran."""
    twin = completed_twin(language, run.name)
    return expected_scene(
        run, language, ran=None if twin is None else f"the completed twin {twin.name}"
    )


#: How far a stored expected file's rotation may sit from the engine's, as rotation matrices:
#: bpy, open3d's legacy meshes and Mono compute in floats, and the last bits of a float
#: rotation (an Euler angle of -6e-8 against 2e-7 degrees, a flip of -180 to 180 at a zero
#: component) move with the CPU the engine runs on.
ROTATION_TOLERANCE: Final = 1e-6


def expected_files_agree(built: Any, stored: Any) -> bool:
    """A scene file as the engine builds it against the stored one: every number to 1e-9,
    rotations as the matrices they make (``ROTATION_TOLERANCE``)."""
    if isinstance(built, dict) and isinstance(stored, dict):
        if built.keys() != stored.keys():
            return False
        return all(
            _same_rotation(built[k], stored[k])
            if k == "rotation"
            else expected_files_agree(built[k], stored[k])
            for k in built
        )
    if isinstance(built, list) and isinstance(stored, list):
        return len(built) == len(stored) and all(
            expected_files_agree(x, y) for x, y in zip(built, stored, strict=True)
        )
    if isinstance(built, float) or isinstance(stored, float):
        return (
            isinstance(built, int | float)
            and isinstance(stored, int | float)
            and abs(built - stored) <= 1e-9
        )
    return bool(built == stored)


def _same_rotation(built: Any, stored: Any) -> bool:
    from spatialbabel.frames import euler_to_matrix

    if not (isinstance(built, list) and isinstance(stored, list)):
        return expected_files_agree(built, stored)
    difference = euler_to_matrix(tuple(built)) - euler_to_matrix(tuple(stored))
    return float(np.max(np.abs(difference))) <= ROTATION_TOLERANCE


def unity_fixture_scene(run: UnityRun) -> Scene:
    """The Unity facade's ``expected_scene`` of a fixture's run, naming its completed twin."""
    twin = completed_twin("unity", run.name)
    return unity_scene(run, ran=None if twin is None else f"the completed twin {twin.name}")


def engine_reply_path(reply: Path) -> Path:
    """The reply three runs for a fixture: its completed twin ``<case>.completed.txt`` when it
    has one (a reply whose helper has no body: three builds nothing from it)."""
    twin = reply.with_name(f"{reply.stem}.completed.txt")
    return twin if twin.exists() else reply


def fixture_replies(folder: Path) -> list[Path]:
    """The fixture replies of a folder (twins, ``<case>.<kind>.txt``, are not cases)."""
    return [p for p in sorted(folder.glob("*.txt")) if "." not in p.stem]


def compare_scenes(
    got: Scene, expected: Scene, tolerance: float = 1e-6, rgb_tolerance: float = 1e-6
) -> list[str]:
    """Differences between two scenes: count, then per object (matched in order, or by the
    Hungarian method on centres when the order differs) class, palette colour, sRGB and the
    exact primitive's world AABB centre and extents."""
    from scipy.optimize import linear_sum_assignment

    from spatialbabel.geometry.bounds import world_aabb

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
