"""A mock base model's replies to the ``phase1`` Three.js prompts, for the demo's S3-FT step.

No model runs here: most replies are the true scene bent by ``MOCK_BASE`` (noise, a missed or
invented object now and then; ``spatialbabel.demo_replies``) and written by the Three.js
writer. A few are the failures S3-FT must catch, each with a known cause:

- ``refusal``: no code at all (the filter: no THREE.Scene);
- ``snippet``: the scene and its meshes but no camera or renderer, as a model that follows
  the prompt's "create only the objects" to the letter writes (no PerspectiveCamera);
- ``centimetres``: positions and scales written in centimetres (a position.set value past 30);
- ``never_added``: a full program whose meshes never reach the scene (passes the filter; the
  parser finds no object).

The replies are an OpenAI batch output file, ``custom_id`` as ``spatialbabel prompts`` writes
it. ``python -m s3ft.demo_replies SPLIT OUT.jsonl`` rewrites the bundled file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np

from spatialbabel import Scene
from spatialbabel.batch import reconstruct_id
from spatialbabel.demo_replies import MockModel, mock_reply
from spatialbabel.files import read_json, write_jsonl

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
FAILURES: Final[dict[int, str]] = {1: "refusal", 4: "snippet", 8: "centimetres", 11: "never_added"}


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


def mock_base_reply(truth: Scene, rng: np.random.Generator, failure: str | None = None) -> str:
    """``MOCK_BASE``'s Three.js reply to ``truth``, bent by ``failure`` (one of
    ``FAILURE_KINDS``) when given."""
    if failure == "refusal":
        return "I'm sorry, but I can't reliably reconstruct this scene from the image."
    text = mock_reply(truth, MOCK_BASE, "threejs", rng)
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


def phase1_replies(split: Path, seed: int = 0) -> list[dict[str, Any]]:
    """One batch output line per ``phase1`` scene of ``split``, in scene order."""
    ids = sorted(read_json(split / "subsets.json")["phase1"])
    lines = []
    for index, scene_id in enumerate(ids):
        truth = Scene.load(split / "scenes" / f"{scene_id}.json")
        rng = np.random.default_rng([seed, index])
        text = mock_base_reply(truth, rng, FAILURES.get(index))
        lines.append(batch_line(reconstruct_id(scene_id, "threejs"), text, "stop", index))
    return lines


__all__ = [
    "FAILURES",
    "FAILURE_KINDS",
    "MOCK_BASE",
    "batch_line",
    "mock_base_reply",
    "phase1_replies",
]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m s3ft.demo_replies SPLIT OUT.jsonl", file=sys.stderr)
        return 2
    lines = phase1_replies(Path(argv[0]))
    write_jsonl(Path(argv[1]), lines)
    print(f"wrote {len(lines)} phase1 Three.js replies of {MOCK_BASE.name} to {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
