"""The plain install: parsing and scoring work without bpy or pyrender, S3-FT's JSONL
outputs and the harness exports' help without datasets or pyarrow (or lmms-eval, torch,
VLMEvalKit), every work-unit loop without ray (which it never imports unless ``--executor ray``
asks for it), and ``--audit`` without any engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.qa.tiny_split import make_split

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_plain_install_parses_without_bpy_or_pyrender(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def in_venv(argv: list[str]) -> subprocess.CompletedProcess[str]:
        """``argv`` run in the plain install's environment, its output captured as text."""
        return subprocess.run(
            argv, capture_output=True, text=True, env=env, cwd=tmp_path, check=False
        )

    # Install from a copy of the sources so the editable checkout is not what gets imported.
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(ROOT)],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=900,
    )
    for module in (
        "bpy",
        "pyrender",
        "open3d",
        "datasets",
        "pyarrow",
        "openai",
        "cv2",
        "skimage",
        "imageio_ffmpeg",
        "h5py",
        "pandas",
        "trimesh",
        "fcl",
        "ray",
        "pyseccomp",
        "torch",
        "lmms_eval",
        "vlmeval",
    ):
        probe = subprocess.run(
            [str(python), "-c", f"import {module}"],
            capture_output=True,
            env=env,
            cwd=tmp_path,
            check=False,
        )
        assert probe.returncode != 0, f"{module} must not be installed by the plain install"
    spatialbabel = env_dir / "bin" / "spatialbabel"
    languages = [
        p.name
        for p in (ROOT / "fixtures").iterdir()
        if p.is_dir() and p.name in ("json", "dsl", "threejs", "blender", "open3d", "unity")
    ]
    assert "json" in languages
    for language in languages:
        case = sorted((ROOT / "fixtures" / language).glob("*.txt"))[0]
        done = in_venv([str(spatialbabel), "parse", "-q", "--language", language, str(case)])
        assert done.returncode in (0, 1), done.stderr
        assert "internal parser error" not in done.stdout + done.stderr
    # The importers' command is wired lazily: its help works, and using it names the extra.
    done = in_venv([str(spatialbabel), "import", "mesh", "--help"])
    assert done.returncode == 0 and "--labels" in done.stdout, done.stderr
    scene = tmp_path / "room.glb"
    scene.write_bytes(b"glTF")
    done = in_venv(
        [str(spatialbabel), "import", "mesh", str(scene), "--out", str(tmp_path / "split")]
    )
    assert done.returncode == 4 and "spatialbabel[real]" in done.stderr, done.stderr
    # The suites load without their heavy parts: ProVisE without its pixel libraries (the
    # provise extra), SpaceCast without python-fcl (the spacecast extra). Clips says what to
    # install.
    listed = in_venv([str(spatialbabel), "suite", "list"])
    assert listed.returncode == 0 and "spatialmind" in listed.stdout, listed.stderr
    assert "provise (version" in listed.stdout
    assert "spacecast (version" in listed.stdout
    clips = in_venv(
        [str(spatialbabel), "clips", "--n", "1", "--out", str(tmp_path / "clips"), "--no-progress"]
    )
    assert clips.returncode == 4 and "spatialbabel[synth]" in clips.stderr, clips.stderr
    done = in_venv(
        [
            str(python),
            "-c",
            "import spatialbabel, parsers, scoring, s3ft, s3ft.cmd_s3ft, spatialbabel.run.executor, "
            "spatialbabel.run.local_pool, parsers.cmd_parse, scoring.cmd_score, synth.cmd_generate, "
            "synth.cmd_clips; "
            "print(sys.modules.get('bpy'), sys.modules.get('datasets'), sys.modules.get('ray'))".replace(
                "sys.", "__import__('sys')."
            ),
        ]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "None", "None"]
    # The engines' own files ship with the package: the three.js harness, the Unity facade and
    # its driver; and the demo's bundled replies with the demo's.
    shipped = in_venv(
        [
            str(python),
            "-c",
            "from audit.unity_engine import FACADE, DRIVER; from audit.three_engine import HARNESS; "
            "from demo.cmd_demo import bundled_replies as r, bundled_s3ft_replies as s; "
            "print(len(FACADE), all(p.is_file() for p in (*FACADE, *DRIVER, HARNESS, r(), s())))",
        ]
    )
    assert shipped.stdout.split() == ["4", "True"], shipped.stderr
    # Replies parse on the local pool without ray; asking for Ray names the extra that brings it.
    replies = tmp_path / "replies.jsonl"
    record = {"scene_id": "s", "model": "m", "language": "json", "mode": "direct"}
    replies.write_text(
        "".join(
            json.dumps({**record, "output": '{"objects": [{"class_name": "cube"}]}'}) + "\n"
            for _ in range(40)
        )
    )
    for flags, code in ((["--workers", "2"], 0), (["--executor", "ray"], 4)):
        done = in_venv([str(spatialbabel), "parse", "-q", "--predictions", str(replies), *flags])
        assert done.returncode == code, done.stderr
    assert len(done.stdout.splitlines()) == 0 and "spatialbabel[ray]" in done.stderr
    # The Hugging Face output names the extra that brings it.
    done = in_venv(
        [str(spatialbabel), "s3ft", "build", "--split", "x", "--replies", "y", "--out", "z"]
    )
    assert done.returncode == 4, done.stderr
    assert "spatialbabel[s3ft]" in done.stderr
    # The harness exports document themselves, and writing a dataset names the extra it needs.
    helped = in_venv([str(spatialbabel), "export", "--help"])
    assert helped.returncode == 0 and "lmms-eval" in helped.stdout, helped.stderr
    split = tmp_path / "tiny"
    make_split(split, 1)
    exported = in_venv(
        [str(spatialbabel), "export", "hf", str(split), "--out", str(tmp_path / "ds")]
        + ["--tasks", "reconstruct", "--languages", "json"]
    )
    assert exported.returncode == 4, exported.stderr
    assert "pip install 'spatialbabel[hf]'" in exported.stderr
    assert not (tmp_path / "ds").exists() and not (tmp_path / ".ds.partial").exists()
    # `run` documents itself without the openai client, and names the extra that brings it.
    helped = in_venv([str(spatialbabel), "run", "--help"])
    assert helped.returncode == 0 and "--base-url" in helped.stdout, helped.stderr
    requests = tmp_path / "requests.jsonl"
    requests.write_text("")
    ran = in_venv([str(spatialbabel), "run", str(requests), "--out", str(tmp_path / "out.jsonl")])
    assert ran.returncode == 4, ran.stderr
    assert "pip install 'spatialbabel[run]'" in ran.stderr
    assert not (tmp_path / "out.cache.jsonl").exists()
    # The engine audit needs no engine to start: without the engines extra it audits nothing,
    # and its table names what each language lacks and the extra that brings it.
    audited = tmp_path / "audit"
    blender = {
        **record,
        "language": "blender",
        "output": "import bpy\nbpy.ops.mesh.primitive_cube_add()",
    }
    replies.write_text(json.dumps(blender) + "\n" + json.dumps({**record, "output": "{}"}) + "\n")
    done = in_venv(
        [str(spatialbabel), "parse", "-q", "--predictions", str(replies), "--out"]
        + [str(tmp_path / "parsed.jsonl"), "--audit", "1", "--audit-out", str(audited)]
    )
    assert done.returncode in (0, 1), done.stderr
    table = (audited / "audit.md").read_text()
    assert "skipped: engine missing" in table and "no engine" in table
    assert "spatialbabel[engines]" in table
    assert sys.version_info[:2] == (3, 11)
