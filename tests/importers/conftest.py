"""The furniture scene built once per test session in Blender (a subprocess) and exported.

pytest-xdist's workers share the base temporary folder's parent: the first to get there
builds, behind a file lock, and the others read what it wrote.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = ("furniture.glb", "furniture.obj", "furniture.png")


@pytest.fixture(scope="session")
def furniture_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if importlib.util.find_spec("bpy") is None:
        pytest.skip("bpy (Blender) is not installed")
    shared = tmp_path_factory.getbasetemp().parent
    folder = shared / "furniture_blend"
    with open(shared / "furniture_blend.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((folder / name).is_file() for name in FILES):
            folder.mkdir(exist_ok=True)
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            done = subprocess.run(
                [sys.executable, "-m", "tests.importers.blender_furniture", str(folder)],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=env,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, done.stderr[-2000:]
        fcntl.flock(lock, fcntl.LOCK_UN)
    yield folder
