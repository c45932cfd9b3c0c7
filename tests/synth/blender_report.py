"""Runs ``tests.synth.blender_checks`` on a split in a subprocess (bpy stays out of the test
runner's process) and loads what it stored: per object the ID pass of that object alone
(``solo_<scene>_<index>``), and ``report`` (per scene: each Blender object's world bounds and
the pairs whose meshes intersect by Blender's BVH trees)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def blender_report(split: Path, out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.synth.blender_checks", str(split), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = np.load(out)
    result: dict[str, Any] = {name: data[name] for name in data.files if name != "report"}
    result["report"] = json.loads(data["report"].tobytes())
    return result
