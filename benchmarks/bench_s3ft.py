"""Time ``s3ft build`` on the paper's load: 467 phase1 replies, single view, all three formats.

The split is made here without Blender: the generator's layouts (``synth.layout``) with the
frontal camera, and for each scene a 512 x 512 PNG of the objects' projected boxes in their
palette colours on grey (flat areas, so it compresses like a render: ~15-45 kB). The replies
are the demo's mock base model (``s3ft.demo_replies``), one in six bent into a failure. Printed,
next to the baseline measured in the same run: parsing every reply with ``parsers.parse`` in
one process (the floor of any build), then ``spatialbabel s3ft build`` (filter, parse, score,
records, OpenAI JSONL, messages JSONL and the datasets folder) with 1 and ``--workers``
workers, each in a fresh process as a user runs it. Wall and CPU time (the process and its
workers) are both printed: on a machine shared with other jobs the wall time grows, the CPU
time does not.
Target (issue 13): at most 15 s on 2 cores.

    .venv/bin/python benchmarks/bench_s3ft.py [--replies 467] [--workers 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from s3ft.demo_replies import FAILURE_KINDS, batch_line, mock_base_reply  # noqa: E402
from s3ft.tasks import image_box  # noqa: E402
from spatialbabel import PALETTE, Scene  # noqa: E402
from spatialbabel.files import write_json, write_jsonl  # noqa: E402
from spatialbabel.run.batch import reconstruct_id  # noqa: E402
from synth.cameras import scene_cameras  # noqa: E402
from synth.layout import sample_layout  # noqa: E402
from synth.tiers import TIERS  # noqa: E402

EVAL_SCENES = 101
TARGET_SECONDS = 15.0
#: One reply in this many is bent into one of the failures, about the paper's 82-84% pass rate.
FAILURE_EVERY = 6


#: Share of pixels given a little noise, which brings the PNGs to the size of the generator's
#: Workbench renders (15-30 kB at 512 x 512).
NOISY_PIXELS = 0.02


#: The baseline, run like the build in a process of its own: read the batch output file and
#: parse every reply, nothing else.
PARSE_ONLY = """
import sys
from pathlib import Path
from parsers import parse
from spatialbabel.run.batch import read_batch_output
for line in read_batch_output(Path(sys.argv[1])):
    parse(line.reply.text, "threejs")
"""


def timed(command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (the process and its own workers) of a command run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def picture(scene: Scene, rng: np.random.Generator) -> bytes:
    """The objects' projected boxes, shaded top to bottom, over a graded ground, with a little
    noise: about the size of a render of the scene."""
    camera = scene.cameras[0]
    rows = np.linspace(0.0, 1.0, camera.height)[:, None, None]
    pixels = np.broadcast_to(110 + 90 * rows, (camera.height, camera.width, 3)).copy()
    order = sorted(scene.objects, key=lambda o: -float(camera.project(np.array(o.position))[1][0]))
    for obj in order:
        box = image_box(obj, camera)
        if box is None or obj.color is None:
            continue
        x0, y0, x1, y1 = box
        shade = np.linspace(1.0, 0.6, y1 - y0)[:, None, None]
        pixels[y0:y1, x0:x1] = 255 * np.asarray(PALETTE[obj.color]) * shade
    noisy = rng.random(pixels.shape[:2]) < NOISY_PIXELS
    pixels[noisy] += rng.integers(-3, 4, size=(int(noisy.sum()), 1))
    pixels = np.clip(pixels, 0, 255)
    data = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8)).save(data, format="PNG")
    return data.getvalue()


def make_split(root: Path, phase1: int) -> list[Scene]:
    cameras = scene_cameras(1, 512)
    tiers = list(TIERS.values())
    scenes = [
        Scene(
            f"scene_{i:06d}",
            tuple(sample_layout(np.random.default_rng([7, i]), tiers[i % len(tiers)])),
            cameras,
            meta={"tier": i % len(tiers) + 1, "seed": 7, "index": i},
        )
        for i in range(phase1 + EVAL_SCENES)
    ]
    (root / "images").mkdir(parents=True)
    for scene in scenes:
        scene.save(root / "scenes" / f"{scene.scene_id}.json")
        rng = np.random.default_rng([11, int(scene.scene_id.split("_")[1])])
        (root / "images" / f"{scene.scene_id}.png").write_bytes(picture(scene, rng))
    ids = [s.scene_id for s in scenes]
    write_json(
        root / "subsets.json",
        {"seed": 7, "eval": ids[phase1:], "phase1": ids[:phase1], "unused": []},
    )
    return scenes[:phase1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=467)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="keep the split and outputs here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-s3ft-")) if args.keep is None else args.keep
    try:
        split = work / "split"
        scenes = make_split(split, args.replies)
        lines = []
        for i, scene in enumerate(scenes):
            failure = (
                FAILURE_KINDS[(i // FAILURE_EVERY) % len(FAILURE_KINDS)]
                if i % FAILURE_EVERY == FAILURE_EVERY - 1
                else None
            )
            text = mock_base_reply(scene, np.random.default_rng([3, i]), failure)
            lines.append(batch_line(reconstruct_id(scene.scene_id, "threejs"), text, "stop", i))
        replies = work / "replies.jsonl"
        write_jsonl(replies, lines)
        images = sum((split / "images" / f"{s.scene_id}.png").stat().st_size for s in scenes)
        print(
            f"{len(scenes)} phase1 replies ({sum(len(s.objects) for s in scenes)} true objects), "
            f"images {images / len(scenes) / 1024:.0f} kB on average"
        )

        parse_wall, parse_cpu = timed([sys.executable, "-c", PARSE_ONLY, str(replies)])
        print(f"parse only, 1 process:          wall {parse_wall:6.2f} s   cpu {parse_cpu:6.2f} s")
        walls = {}
        for workers in sorted({1, args.workers}):
            out = work / f"out-{workers}"
            if out.exists():
                shutil.rmtree(out)
            command = [sys.executable, "-m", "spatialbabel.cli", "s3ft", "build"]
            command += ["--split", str(split), "--replies", str(replies), "--out", str(out)]
            wall, cpu = timed([*command, "--workers", str(workers)])
            walls[workers] = wall
            stats = json.loads((out / "stats.json").read_text())
            f = stats["filter"]
            label = f"build, {workers} worker{'s' if workers > 1 else ''}:"
            print(
                f"{label:31s} wall {wall:6.2f} s   cpu {cpu:6.2f} s   "
                f"ratio to parse only: wall {wall / parse_wall:.1f}x, cpu {cpu / parse_cpu:.1f}x   "
                f"({f['passed']}/{f['replies']} passed, {f['kept']} kept, "
                f"{stats['records']['total']} records, all three formats)"
            )
        best = walls[args.workers]
        verdict = "within" if best <= TARGET_SECONDS else "over"
        print(
            f"target: at most {TARGET_SECONDS:.0f} s on 2 cores; {best:.2f} s with "
            f"{args.workers} workers ({verdict}; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} CPUs)"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
