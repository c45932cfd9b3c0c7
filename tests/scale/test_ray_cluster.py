"""The Ray executor on one local Ray of 2 CPUs, shared by the module (Ray takes seconds to start):
1,000 replies score and parse bit-identically to the process pool; a 20-scene split made on Ray
is byte-identical to the pool's; an actor's process killed mid-run costs one retry and the
split still comes out complete, verified and identical."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parsers import write
from parsers.cmd_parse import parse_loop
from s3ft.build import BuildOptions, BuildResult, build
from scoring import NumberedOutput, ReplyScore, aggregate, score_outputs
from spatialbabel import LANGUAGES, ModelOutput, Scene
from spatialbabel.run.executor import Executor
from spatialbabel.run.local_pool import LocalExecutor
from tests.s3ft.helpers import batch_replies, make_split
from tests.scoring.helpers import layout, moved

ray = pytest.importorskip("ray")

from spatialbabel.run.ray_cluster import RayExecutor  # noqa: E402

pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.xdist_group("ray")]

ROOT = Path(__file__).resolve().parents[2]
SCENES = 20
FLAGS = [
    "--n", str(SCENES), "--seed", "3", "--resolution", "96", "--min-visible-pixels", "10",
    "--eval-size", "5", "--phase1-size", "5", "--no-progress",
]  # fmt: skip


def replies(count: int) -> tuple[dict[str, Scene], list[NumberedOutput]]:
    """``count`` replies to 100 scenes in all six languages, some off by noise, some garbled."""
    scenes = {s.scene_id: s for s in (layout(seed, count=3 + seed % 8) for seed in range(100))}
    ids = sorted(scenes)
    rng = np.random.default_rng(7)
    outputs = []
    for k in range(count):
        scene = scenes[ids[k % len(ids)]]
        language = LANGUAGES[k % len(LANGUAGES)]
        noisy = moved(scene, rng.normal(0, 0.2, (len(scene.objects), 3)))
        text = write(noisy, language) if k % 17 else "no code here"
        output = ModelOutput(scene.scene_id, f"model_{k % 3}", language, "direct", text)
        outputs.append(NumberedOutput(k + 1, output))
    return scenes, outputs


def as_text(scored: list[ReplyScore]) -> str:
    return json.dumps([r.to_dict() for r in scored], allow_nan=True)


def s3ft_build(root: Path, executor: Executor) -> BuildResult:
    """S3-FT's build of 24 mock replies (three of them failures) on ``executor``, written
    nowhere (the result holds every record)."""
    split = root / "split"
    if not split.is_dir():
        scenes = make_split(split, phase1=24, eval_size=2, views=2)
        batch_replies(root / "replies.jsonl", scenes[:24], {3: "snippet", 7: "never_added"})
    options = BuildOptions(cross_view=True, workers=2)
    return build(split, root / "replies.jsonl", None, options=options, executor=executor)


@pytest.fixture(scope="module")
def pool_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The process pool's scores, parses and S3-FT records, made before this process joins
    Ray: the pool forks, and a process holding a Ray connection (gRPC threads) must not fork."""
    scenes, outputs = replies(1000)
    jobs = [(item.line, item.output.to_dict()) for item in outputs]
    s3ft_root = tmp_path_factory.mktemp("s3ft")
    return {
        "scenes": scenes,
        "outputs": outputs,
        "scores": score_outputs(outputs, scenes, workers=2),
        "jobs": jobs,
        "parses": LocalExecutor(2).map(parse_loop(), jobs),
        "s3ft_root": s3ft_root,
        "s3ft": s3ft_build(s3ft_root, LocalExecutor(2)),
    }


@pytest.fixture(scope="module")
def cluster(pool_results: dict[str, Any]) -> Iterator[dict[str, Any]]:
    context = ray.init(
        num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
    )
    try:
        yield dict(context.address_info)
    finally:
        ray.shutdown()


def test_scoring_and_parsing_1000_replies_are_bit_identical(
    pool_results: dict[str, Any], cluster: dict[str, Any]
) -> None:
    executor = RayExecutor()
    scenes, outputs = pool_results["scenes"], pool_results["outputs"]
    assert executor.workers(parse_loop()) == 2
    on_ray = score_outputs(outputs, scenes, executor=executor)
    local: list[ReplyScore] = pool_results["scores"]
    assert len(on_ray) == 1000 and sum(not r.parsed for r in on_ray) >= 50
    assert as_text(on_ray) == as_text(local)
    assert all(a.truth is b.truth for a, b in zip(on_ray, local, strict=True))
    assert (
        aggregate(on_ray, seed=0, resamples=50).to_dict()
        == aggregate(local, seed=0, resamples=50).to_dict()
    )
    assert executor.map(parse_loop(), pool_results["jobs"]) == pool_results["parses"]
    executor.close()
    assert ray.is_initialized(), "a Ray this executor joined is left running"


def test_s3ft_records_made_on_ray_are_the_pools(
    pool_results: dict[str, Any], cluster: dict[str, Any]
) -> None:
    local: BuildResult = pool_results["s3ft"]
    executor = RayExecutor()
    on_ray = s3ft_build(pool_results["s3ft_root"], executor)
    executor.close()
    assert len(local.records) > 100 and sum(o.pseudo is None for o in local.outcomes) == 2
    assert [r.to_dict() for r in on_ray.records] == [r.to_dict() for r in local.records]
    assert [o.verdict for o in on_ray.outcomes] == [o.verdict for o in local.outcomes]
    assert on_ray.stats == local.stats


# --- generation on Blender actors -----------------------------------------------------------------
def generate(out: Path, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "spatialbabel.cli", "generate", *FLAGS, "--out", str(out)]
    return subprocess.Popen(
        [*command, *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> str:
    _, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    return err


def contents(root: Path) -> dict[str, bytes]:
    from synth.manifest import split_files

    return {name: (root / name).read_bytes() for name in [*split_files(root), "manifest.json"]}


@pytest.fixture(scope="module")
def pool_split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Looked up, not imported: importing bpy puts its own script folders on sys.path, which
    # the spawned Blender workers of the local executor would inherit.
    if importlib.util.find_spec("bpy") is None:
        pytest.skip("bpy is not installed")
    out = tmp_path_factory.mktemp("pool") / "split"
    finish(generate(out, "--workers", "2"))
    return out


@pytest.mark.bpy
def test_a_split_made_on_ray_is_byte_identical_to_the_pools(
    pool_split: Path, cluster: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "split"
    finish(generate(out, "--executor", "ray", "--ray-address", cluster["address"]))
    assert contents(out) == contents(pool_split)


@pytest.mark.bpy
def test_views_rendered_on_ray_are_the_pools(
    pool_split: Path, cluster: dict[str, Any], tmp_path: Path
) -> None:
    # SpaceCast's chosen views: one job per scene state, run on Blender actors. This process
    # imports bpy first, as a notebook might: the spawned local workers must still load it.
    pytest.importorskip("bpy")
    from synth.view_render import ViewJob, render_views

    def jobs(folder: Path) -> list[ViewJob]:
        scenes = [Scene.load(p) for p in sorted((pool_split / "scenes").glob("*.json"))[:3]]
        return [ViewJob(s, s.cameras, folder / s.scene_id) for s in scenes]

    local, remote = jobs(tmp_path / "local"), jobs(tmp_path / "ray")
    assert render_views(local, workers=2) == 3
    executor = RayExecutor()
    assert render_views(remote, executor=executor) == 3
    assert render_views(remote, executor=executor) == 0  # all there: nothing again
    executor.close()
    files = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("*.png"))
    assert len(files) == 6
    for name in files:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def _processes() -> Iterator[tuple[int, int, str]]:
    """(pid, parent pid, command line) of every process."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        yield int(entry.name), parent, command.strip()


def busy_actor(session_dir: str) -> int | None:
    """The pid of a Blender actor of this module's Ray that is running a unit, if any."""
    processes = list(_processes())
    raylets = {p for p, _, c in processes if "raylet" in c and session_dir in c}
    for pid, parent, command in processes:
        if parent in raylets and command.startswith("ray::_UnitWorker.run"):
            return pid
    return None


@pytest.mark.bpy
def test_killing_an_actor_mid_run_still_gives_a_complete_verified_split(
    pool_split: Path, cluster: dict[str, Any], tmp_path: Path
) -> None:
    from synth.manifest import verify_split

    out = tmp_path / "split"
    process = generate(out, "--executor", "ray", "--ray-address", cluster["address"])
    killed = None
    deadline = time.monotonic() + 300
    while killed is None:
        assert process.poll() is None and time.monotonic() < deadline, "no actor to kill"
        if len(list((out / "scenes").glob("*.json"))) >= 2:
            killed = busy_actor(cluster["session_dir"])
            if killed is not None:
                os.kill(killed, signal.SIGKILL)
        time.sleep(0.01)
    err = finish(process)
    assert "its worker died (ActorDiedError" in err, err
    assert "running it again (attempt 2 of 4)" in err and "scene scene_0000" in err
    assert verify_split(out) == []
    assert contents(out) == contents(pool_split)
