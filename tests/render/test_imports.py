"""Importing the render stage costs nothing until a picture is drawn: the CLI modules and the
scorer's hook (``render.silhouette_iou``) load neither pyrender nor matplotlib."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.render.conftest import ROOT

PROBE = """
import json, sys
import render, render.cmd_render, render.cmd_report
hook = render.silhouette_iou
heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pyrender', 'OpenGL', 'matplotlib', 'trimesh', 'bpy'})
print(json.dumps({"heavy": heavy, "hook": hook.__module__, "all": sorted(render.__all__)}))
"""


def test_cli_modules_and_hook_import_nothing_heavy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, check=True
    )
    found = json.loads(done.stdout)
    assert found["heavy"] == []
    assert found["hook"] == "render.silhouette"


@pytest.mark.render
def test_every_public_name_resolves() -> None:
    pytest.importorskip("pyrender")
    import render

    for name in render.__all__:
        assert getattr(render, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = render.nothing
