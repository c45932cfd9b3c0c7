"""The importers keep their heavy dependencies behind the modules that use them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_importers_loads_no_heavy_dependency() -> None:
    code = (
        "import sys, importers, importers.cmd_import, importers.hypersim, importers.mesh_scene; "
        "from spatialbabel.cli import build_parser; build_parser('import'); "
        "print(sorted({'h5py', 'pandas', 'trimesh', 'PIL', 'bpy', 'pyrender'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"
