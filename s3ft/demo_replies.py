"""A mock base model's replies to the ``phase1`` scenes' prompts, for the demo's S3-FT step.

No model runs here: most replies are the true scene bent by ``MOCK_BASE`` (noise, a missed or
invented object now and then; ``demo.replies``) and written by the Three.js
writer, as a model that obeys the prompt it was sent writes them:

- route ``phase1`` (the paper's, the bundled file): S3-FT's phase-1 prompt
  (``synth.prompts.s3ft_phase1_prompt``) asks for a whole program, so each reply creates the
  scene, the camera with the pose and field of view the prompt gives (``camera.lookAt``), the
  meshes, lights and a renderer; ``custom_id`` ``s3ft-phase1/<scene_id>/threejs``;
- route ``reconstruct`` (the old one, for comparison): the benchmark's reconstruction prompt
  asks for the objects only, added to an existing ``scene`` (no ground, lights or camera), so
  each reply is the import and the meshes, which the quality filter rejects (no THREE.Scene,
  no THREE.PerspectiveCamera); ``custom_id`` ``reconstruct/<scene_id>/threejs/direct``.

A few replies are the failures S3-FT must catch whatever the prompt, each with a known cause
(``FAILURES``, by position in the sorted subset):

- ``refusal``: no code at all (the filter: no THREE.Scene);
- ``centimetres``: positions and scales written in centimetres (a position.set value past 30);
- ``never_added``: a full program whose meshes never reach the scene (passes the filter; the
  parser finds no object).

``snippet`` (the scene and its meshes but no camera or renderer: a reply that ignores the
prompt's camera) is a fourth kind the tests use. The replies are an OpenAI batch output file,
``custom_id`` as ``spatialbabel prompts`` writes it. ``python -m s3ft.demo_replies SPLIT
OUT.jsonl [--route reconstruct]`` rewrites the bundled file (or writes the old route's).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np

from demo.replies import MockModel, mock_reply
from spatialbabel import Scene
from spatialbabel.files import write_jsonl
from spatialbabel.run.batch import reconstruct_id, s3ft_phase1_id
from spatialbabel.split import Split
from synth.prompts import phase1_camera

Route = Literal["phase1", "reconstruct"]
ROUTES: Final[tuple[Route, ...]] = ("phase1", "reconstruct")

MOCK_BASE: Final = MockModel(
    "mock-base",
    position_noise=0.12,
    size_jitter=0.12,
    yaw_jitter_deg=6.0,
    miss_rate=0.08,
    invent_rate=0.1,
    class_swap_rate=0.04,
    color_swap_rate=0.04,
)

#: Which phase1 scenes (by position in the sorted subset) get which failure.
FAILURES: Final[dict[int, str]] = {1: "refusal", 8: "centimetres", 11: "never_added"}

REFUSAL: Final = "I'm sorry, but I can't reliably reconstruct this scene from the image."

#: The Three.js writer's camera: a ``PerspectiveCamera`` and the two lines that place it.
_WRITER_CAMERA: Final = re.compile(
    r"^const camera = new THREE\.PerspectiveCamera\(.*\n"
    r"camera\.position\.set\(.*\n"
    r"camera\.(?:quaternion\.set|lookAt)\(.*\n",
    re.MULTILINE,
)


def as_asked(reply: str, truth: Scene, route: Route) -> str:
    """The writer's program as an obedient reply to the route's prompt: on ``phase1`` with the
    camera written as the prompt gives it; on ``reconstruct`` the import and the meshes only."""
    if route == "phase1":
        camera = "\n".join(phase1_camera(truth).lines) + "\n"
        written, count = _WRITER_CAMERA.subn(camera, reply)
        if count != 1:
            raise ValueError(f"{truth.scene_id}: the writer's program has no camera to replace")
        return written
    head, fence, rest = reply.partition("```javascript\n")
    code, end, tail = rest.partition("\n```")
    blocks = re.findall(r"^// .*\n\{\n(?:  .*\n)*?\}\n", code + "\n", re.MULTILINE)
    kept = "import * as THREE from 'three';\n\n" + "\n".join(blocks)
    return f"{head}{fence}{kept.rstrip()}{end}{tail}"


def _snippet(reply: str) -> str:
    kept = [
        line
        for line in reply.splitlines()
        if not re.search(r"\bcamera\b|renderer|WebGLRenderer|document\.", line)
    ]
    return "\n".join(kept) + "\n"


def _centimetres(reply: str) -> str:
    def scale(match: re.Match[str]) -> str:
        values = [f"{float(v) * 100:g}" for v in match.group(2).split(",")]
        return f"{match.group(1)}({', '.join(values)})"

    return re.sub(r"(mesh\.position\.set|mesh\.scale\.set)\(([^()]*)\)", scale, reply)


def _never_added(reply: str) -> str:
    return reply.replace("  scene.add(mesh);", "  meshes.push(mesh);").replace(
        "const scene = new THREE.Scene();", "const scene = new THREE.Scene();\nconst meshes = [];"
    )


_BENDS: Final[dict[str, Callable[[str], str]]] = {
    "snippet": _snippet,
    "centimetres": _centimetres,
    "never_added": _never_added,
}


#: The kinds of failure, in the order the module's docstring gives them.
FAILURE_KINDS: Final = ("refusal", "snippet", "centimetres", "never_added")


def mock_base_reply(
    truth: Scene, rng: np.random.Generator, failure: str | None = None, route: Route = "phase1"
) -> str:
    """``MOCK_BASE``'s Three.js reply to ``truth`` as it answers ``route``'s prompt, bent by
    ``failure`` (one of ``FAILURE_KINDS``) when given."""
    if failure == "refusal":
        return REFUSAL
    text = as_asked(mock_reply(truth, MOCK_BASE, "threejs", rng), truth, route)
    return text if failure is None else _BENDS[failure](text)


def batch_line(custom_id: str, text: str, finish_reason: str, index: int) -> dict[str, Any]:
    words = len(text.split())
    return {
        "id": f"batch_req_{index:06d}",
        "custom_id": custom_id,
        "response": {
            "status_code": 200,
            "request_id": f"req_{index:06d}",
            "body": {
                "id": f"chatcmpl-{index:06d}",
                "object": "chat.completion",
                "model": MOCK_BASE.name,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": finish_reason,
                    }
                ],
                "usage": {
                    "prompt_tokens": 1200,
                    "completion_tokens": words,
                    "total_tokens": 1200 + words,
                },
            },
        },
        "error": None,
    }


def request_id(scene_id: str, route: Route) -> str:
    """The ``custom_id`` of the request a reply of ``route`` answers."""
    return s3ft_phase1_id(scene_id) if route == "phase1" else reconstruct_id(scene_id, "threejs")


def phase1_replies(split: Path, seed: int = 0, route: Route = "phase1") -> list[dict[str, Any]]:
    """One batch output line per ``phase1`` scene of ``split``, in scene order, answering the
    route's prompt (the same bent scenes on either route)."""
    folder = Split.open(split)
    ids = sorted(folder.subset_ids("phase1"))
    lines = []
    for index, scene_id in enumerate(ids):
        truth = folder.scene(scene_id)
        rng = np.random.default_rng([seed, index])
        text = mock_base_reply(truth, rng, FAILURES.get(index), route)
        lines.append(batch_line(request_id(scene_id, route), text, "stop", index))
    return lines


__all__ = [
    "FAILURES",
    "FAILURE_KINDS",
    "MOCK_BASE",
    "REFUSAL",
    "ROUTES",
    "Route",
    "as_asked",
    "batch_line",
    "mock_base_reply",
    "phase1_replies",
    "request_id",
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m s3ft.demo_replies")
    parser.add_argument("split", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--route",
        choices=ROUTES,
        default="phase1",
        help="the prompt the replies obey (default phase1, the bundled file's)",
    )
    args = parser.parse_args(argv)
    lines = phase1_replies(args.split, route=args.route)
    write_jsonl(args.out, lines)
    print(
        f"wrote {len(lines)} {MOCK_BASE.name} replies to the {args.route} prompts of the "
        f"phase1 scenes to {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
