"""``spatialbabel demo --via-server``: the bundled replies go from the prompts through the stub
server and ``spatialbabel run`` to the scores, which are those of the bundled file itself."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from demo.cmd_demo import DEMO_SCENES, bundled_replies
from demo.replies import MOCK_MODELS
from tests.runner.test_run_stub import same_tables

pytestmark = [pytest.mark.bpy, pytest.mark.slow]
pytest.importorskip("bpy")
pytest.importorskip("openai")


def test_the_bundled_replies_through_the_server_score_as_the_file(tmp_path: Path) -> None:
    env = {**os.environ, "PYOPENGL_PLATFORM": "egl"}
    demo = [sys.executable, "-m", "spatialbabel.cli", "demo", "--out", str(tmp_path)]
    done = subprocess.run(
        [*demo, "--workers", "1", "--via-server", "--no-report"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = len(bundled_replies().read_text().splitlines())
    assert lines == len(MOCK_MODELS) * 6 * DEMO_SCENES + 6 * DEMO_SCENES  # one model in nl_cot too
    runs = [(int(a), int(f)) for a, f in re.findall(r"(\d+) answered, (\d+) failed", done.stdout)]
    assert len(runs) == 2 and sum(a for a, _ in runs) == lines and all(f == 0 for _, f in runs)
    # Faults were served, and retried through.
    assert sum(int(n) for n in re.findall(r"(\d+) retries", done.stdout)) > 0
    records = [json.loads(line) for line in (tmp_path / "replies.jsonl").read_text().splitlines()]
    assert len({(r["request_id"], r["model"]) for r in records}) == len(records) == lines
    via_server = json.loads((tmp_path / "scores" / "scores.json").read_text())
    assert via_server["summary"]["problems"] == dict.fromkeys(via_server["summary"]["problems"], 0)
    direct = tmp_path / "direct"
    score = [sys.executable, "-m", "spatialbabel.cli", "score", "--split", str(tmp_path / "split")]
    score += ["--predictions", str(bundled_replies()), "--out", str(direct)]
    # As the demo scores: with the silhouette column where the renderer is installed.
    score += ["--silhouette"] if importlib.util.find_spec("pyrender") else []
    subprocess.run(score, capture_output=True, env=env, check=True, timeout=600)
    same_tables(via_server, json.loads((direct / "scores.json").read_text()))
