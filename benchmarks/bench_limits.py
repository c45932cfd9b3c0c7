"""How far the counted limits keep every run from the safety deadline.

The parsers' results must not depend on the machine: the step budget and the other counts
(``parsers.evaluator.Limits``) end every run, and the wall-clock deadline is only a safety net.
This prints, per language, the CPU time of programs that exhaust the counts (an endless loop,
binary recursion, a loop making objects without end) beside the median parse of the language's
fixtures, measured in the same run, and the headroom left under the deadline.

    .venv/bin/python benchmarks/bench_limits.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parsers import parse  # noqa: E402
from parsers.evaluator import Limits  # noqa: E402

FENCES = {"threejs": "javascript", "blender": "python", "open3d": "python", "unity": "csharp"}
WORST: dict[str, dict[str, str]] = {
    "threejs": {
        "endless loop": "let n = 0;\nfor (;;) { for (;;) { n++; } }",
        "binary recursion": "function R(n) { return R(n + 1) + R(n + 2); }\nR(0);",
        "objects without end": "while (true) { scene.add(new THREE.Mesh(new THREE.BoxGeometry())); }",
    },
    "blender": {
        "endless loop": "import bpy\nn = 0\nwhile True:\n    while True:\n        n += 1",
        "binary recursion": "import bpy\ndef R(n):\n    return R(n + 1) + R(n + 2)\nR(0)",
        "objects without end": "import bpy\nwhile True:\n    bpy.ops.mesh.primitive_cube_add()",
    },
    "open3d": {
        "endless loop": "import open3d as o3d\nn = 0\nwhile True:\n    while True:\n        n += 1",
        "binary recursion": "import open3d as o3d\ndef R(n):\n    return R(n + 1) + R(n + 2)\nR(0)",
        "objects without end": "import open3d as o3d\nms = []\nwhile True:\n    ms.append(o3d.geometry.TriangleMesh.create_box())\no3d.visualization.draw_geometries(ms)",
    },
    "unity": {
        "endless loop": "using UnityEngine;\npublic class S : MonoBehaviour { void Start() { int n = 0; for (;;) { for (;;) { n++; } } } }",
        "binary recursion": "using UnityEngine;\npublic class S : MonoBehaviour { int R(int n) { return R(n + 1) + R(n + 2); } void Start() { R(0); } }",
        "objects without end": "using UnityEngine;\npublic class S : MonoBehaviour { void Start() { while (true) { GameObject.CreatePrimitive(PrimitiveType.Cube); } } }",
    },
}


def cpu(text: str, language: str, repeat: int) -> tuple[float, set[str]]:
    times = []
    codes: set[str] = set()
    for _ in range(repeat):
        start = time.process_time()
        result = parse(text, language)
        times.append(time.process_time() - start)
        codes = {d.code for d in result.diagnostics}
    return min(times), codes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    deadline = Limits().time_limit
    print(f"safety deadline {deadline:g} s; step budget {Limits().max_steps}")
    print(
        f"{'language':8}  {'program':20}  {'CPU s':>7}  {'x median fixture':>16}  {'deadline headroom':>17}  stopped by"
    )
    for language, programs in WORST.items():
        fixtures = sorted((REPO / "fixtures" / language).glob("*.txt"))
        for text in (f.read_text(encoding="utf-8") for f in fixtures[:1]):
            parse(text, language)
        typical = statistics.median(
            cpu(f.read_text(encoding="utf-8"), language, 1)[0] for f in fixtures
        )
        for name, code in programs.items():
            seconds, codes = cpu(f"```{FENCES[language]}\n{code}\n```\n", language, args.repeat)
            stopped = ", ".join(
                sorted(c for c in codes if c.startswith("eval.") or c.endswith("too_many_objects"))
            )
            print(
                f"{language:8}  {name:20}  {seconds:7.3f}  {seconds / typical:16.0f}  {deadline / seconds:16.1f}x  {stopped}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
