"""S3-FT's phase-1 prompt (the paper's route): a whole three.js program, held to what the
paper's quality filter requires (a ``THREE.Scene``, a ``THREE.PerspectiveCamera`` with the
image's pose and field of view, 1 to 50 ``THREE.Mesh`` within 30 m), checked against three
itself, and the route from ``spatialbabel prompts --task s3ft-phase1`` to ``s3ft build``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from audit.three_engine import REPO, ensure_three, node_available
from s3ft import quality
from s3ft.build import build
from s3ft.demo_replies import batch_line, mock_base_reply, request_id
from s3ft.stats import OLD_ROUTE_NOTE, format_summary
from spatialbabel import Camera, Scene
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl, write_jsonl
from spatialbabel.run.batch import S3FT_PHASE1, parse_request_id
from synth.prompts import (
    SYSTEM_RECONSTRUCT,
    SYSTEM_S3FT_PHASE1,
    phase1_camera,
    reconstruct_prompt,
    s3ft_phase1_prompt,
)
from tests.s3ft.helpers import make_split

#: A camera off the generator's axis, as a real photo's is: its optical axis meets the ground
#: away from the origin, so the look-at point is the prompt's own arithmetic.
OFF_AXIS = Camera.looking_at(
    "front", (2.3, 2.4, 4.1), (0.4, 0.6, -1.2), width=640, height=480, fov_y_deg=52.0
)


def _scenes(tmp_path: Path) -> list[Scene]:
    return make_split(tmp_path, phase1=6, eval_size=2)


def test_the_prompt_asks_for_what_the_papers_filter_requires(tmp_path: Path) -> None:
    scene = _scenes(tmp_path)[0]
    prompt = s3ft_phase1_prompt(scene)
    # The three things the filter looks for, named in the system turn and shown as code.
    for name in ("THREE.Scene", "THREE.PerspectiveCamera", "THREE.Mesh"):
        assert name in prompt.system
    assert "const scene = new THREE.Scene();" in prompt.text
    assert "new THREE.Mesh(" in prompt.text and "scene.add(mesh)" in prompt.text
    # The filter's bounds are the prompt's, from one place.
    assert (quality.MIN_MESHES, quality.MAX_MESHES, quality.POSITION_LIMIT) == (1, 50, 30.0)
    assert "between 1 and 50 of them" in prompt.text and "within 30 m of the origin" in prompt.text
    # The camera that took the image: its vertical field of view, aspect and pose.
    camera = scene.frontal_camera
    assert camera is not None
    eye = ", ".join(f"{v:.2f}" for v in camera.position)
    assert (
        f"new THREE.PerspectiveCamera({camera.fov_y_deg:g}, {camera.width} / {camera.height}, "
        in prompt.text
    )
    assert f"camera.position.set({eye});" in prompt.text and "camera.lookAt(" in prompt.text
    assert "WebGLRenderer" in prompt.text
    assert prompt.text.rstrip().endswith("```javascript fenced block.")
    # The benchmark's reconstruction prompt asks for the opposite, which is why it is not the
    # phase-1 route.
    assert "no ground, lights or camera" in SYSTEM_RECONSTRUCT
    assert reconstruct_prompt(scene, "threejs").system == SYSTEM_RECONSTRUCT != SYSTEM_S3FT_PHASE1


@pytest.mark.node
@pytest.mark.skipif(not node_available(), reason="node is not installed")
@pytest.mark.parametrize("off_axis", [False, True])
def test_the_prompts_camera_is_the_images_camera_in_three(tmp_path: Path, off_axis: bool) -> None:
    ensure_three()
    scene = _scenes(tmp_path)[1]
    if off_axis:
        scene = Scene(scene.scene_id, scene.objects, (OFF_AXIS,), scene.ground)
    truth = scene.frontal_camera
    assert truth is not None
    program = "\n".join(
        [
            "import * as THREE from 'three';",
            *phase1_camera(scene).lines,
            "camera.updateMatrixWorld();",
            "console.log(JSON.stringify({fov: camera.fov, aspect: camera.aspect, "
            "matrix: camera.matrixWorld.elements}));",
        ]
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", program],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    built = json.loads(done.stdout)
    assert built["fov"] == pytest.approx(truth.fov_y_deg)
    assert built["aspect"] == pytest.approx(truth.width / truth.height)
    # three's matrixWorld (column-major) against the image's cam-to-world (OpenGL, as three's):
    # the prompt writes points to 2 decimals, so the pose agrees to about a centimetre.
    matrix = np.asarray(built["matrix"], dtype=float).reshape(4, 4).T
    pose = np.asarray(truth.cam_to_world, dtype=float)
    assert np.abs(matrix[:3, 3] - pose[:3, 3]).max() <= 0.005 + 1e-9
    assert np.abs(matrix[:3, :3] - pose[:3, :3]).max() < 0.01


@pytest.mark.parametrize("index", range(6))
def test_replies_that_obey_each_prompt_meet_the_filter_only_on_the_phase1_route(
    tmp_path: Path, index: int
) -> None:
    scene = _scenes(tmp_path)[index]
    rng = [7, index]
    obeying = mock_base_reply(scene, np.random.default_rng(rng), route="phase1")
    assert quality.rejections(obeying) == ()
    # It says the camera as the prompt gave it.
    for line in phase1_camera(scene).lines:
        assert line in obeying
    # The same scene written as the reconstruction prompt asks (the objects only, added to an
    # existing scene, no camera) fails the filter: the documented reason for the route.
    objects_only = mock_base_reply(scene, np.random.default_rng(rng), route="reconstruct")
    assert quality.rejections(objects_only)[:2] == ("no_scene", "no_camera")
    assert quality.mesh_count(objects_only) == quality.mesh_count(obeying) >= 1


def test_prompts_writes_the_phase1_requests_of_the_phase1_scenes(tmp_path: Path) -> None:
    scenes = _scenes(tmp_path / "split")
    out = tmp_path / "requests.jsonl"
    assert (
        main(
            [
                "prompts",
                "--split",
                str(tmp_path / "split"),
                "--task",
                S3FT_PHASE1,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    requests = [line.record for line in read_jsonl(out)]
    ids = [r["custom_id"] for r in requests if r]
    assert ids == [request_id(s.scene_id, "phase1") for s in scenes[:6]]
    assert all(parse_request_id(i).parts[1] == "threejs" for i in ids)
    first = requests[0]
    assert first is not None
    body = first["body"]
    assert body["max_completion_tokens"] == 2048 and body["temperature"] == 0.0
    assert "top_p" not in body
    assert body["messages"][0]["content"] == SYSTEM_S3FT_PHASE1
    assert body["messages"][1]["content"][-1]["text"] == s3ft_phase1_prompt(scenes[0]).text
    # One prompt, no modes; another subset when asked.
    refused = main(
        ["prompts", "--split", str(tmp_path / "split"), "--task", S3FT_PHASE1, "--modes", "direct"]
        + ["--out", str(tmp_path / "x.jsonl")]
    )
    assert refused == ExitCode.USAGE and not (tmp_path / "x.jsonl").exists()
    assert (
        main(
            [
                "prompts",
                "--split",
                str(tmp_path / "split"),
                "--task",
                S3FT_PHASE1,
                "--subset",
                "eval",
            ]
            + ["--top-p", "0.9", "--out", str(out)]
        )
        == 0
    )
    records = [line.record for line in read_jsonl(out)]
    # A split without phase1 scenes has nothing to ask, and says so.
    subsets = json.loads((tmp_path / "split" / "subsets.json").read_text())
    (tmp_path / "split" / "subsets.json").write_text(json.dumps({**subsets, "phase1": []}))
    empty = ["prompts", "--split", str(tmp_path / "split"), "--task", S3FT_PHASE1]
    assert main([*empty, "--out", str(tmp_path / "none.jsonl")]) == ExitCode.BAD_INPUT
    assert not (tmp_path / "none.jsonl").exists()
    assert [r["custom_id"] for r in records if r] == [
        request_id(s.scene_id, "phase1") for s in scenes[6:]
    ]
    assert all(r["body"]["top_p"] == 0.9 for r in records if r)


def test_build_from_phase1_replies_and_from_the_old_route(tmp_path: Path) -> None:
    root = tmp_path / "split"
    scenes = _scenes(root)
    failures = {1: "refusal", 3: "centimetres"}
    for route in ("phase1", "reconstruct"):
        lines = [
            batch_line(
                request_id(s.scene_id, route),
                mock_base_reply(s, np.random.default_rng([3, i]), failures.get(i), route),
                "stop",
                i,
            )
            for i, s in enumerate(scenes[:6])
        ]
        write_jsonl(tmp_path / f"{route}.jsonl", lines)
    phase1 = build(root, tmp_path / "phase1.jsonl", None)
    assert phase1.replies.phase1_prompt and phase1.stats["phase1_prompt"]
    assert phase1.stats["filter"]["passed"] == 6 - len(failures)
    code = [r for r in phase1.records if r.task == "code"]
    assert code and all(r.system == SYSTEM_S3FT_PHASE1 for r in code)
    by_scene = {s.scene_id: s for s in scenes}
    assert all(r.instruction == s3ft_phase1_prompt(by_scene[r.scene_id]).text for r in code)
    assert OLD_ROUTE_NOTE not in format_summary(phase1.stats)
    # The old route: every obedient reply fails the filter, and the summary says why.
    old = build(root, tmp_path / "reconstruct.jsonl", None)
    assert not old.replies.phase1_prompt and old.replies.mode == "direct"
    assert old.stats["filter"]["passed"] == 0 and old.stats["filter"]["rejections"]["no_scene"] == 6
    assert OLD_ROUTE_NOTE in format_summary(old.stats)
    # Both in one file: the phase-1 replies are taken, the others counted aside.
    write_jsonl(
        tmp_path / "both.jsonl",
        [
            *read_jsonl_records(tmp_path / "phase1.jsonl"),
            *read_jsonl_records(tmp_path / "reconstruct.jsonl"),
        ],
    )
    both = build(root, tmp_path / "both.jsonl", None)
    assert both.replies.phase1_prompt and both.replies.other_modes == {"direct": 6}


def read_jsonl_records(path: Path) -> list[dict[str, object]]:
    return [line.record for line in read_jsonl(path) if line.record is not None]
