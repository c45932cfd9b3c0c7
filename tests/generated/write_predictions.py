"""Generated programs as a predictions file, for the engine audit (docs/audit.md):

    python -m tests.generated.write_predictions --per-language 200 --out generated.jsonl [--seed 0]
    spatialbabel parse --predictions generated.jsonl --out parsed.jsonl --audit 200

Each line is a reply of model ``generated``: ``--per-language`` programs in each audited language
(three.js: half JavaScript, half TypeScript; Unity, Blender, Open3D), each a random scene in a
random mix of idioms (``tests.generated.programs``), the same for the same seed. The scenes go to
``--scenes DIR`` when asked (``<scene_id>.json``), for scoring the file too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.generated.programs import Program, seeded_programs

#: Audited language -> the generated languages that make up its replies.
SOURCES = {
    "threejs": ("threejs", "typescript"),
    "unity": ("unity",),
    "blender": ("blender",),
    "open3d": ("open3d",),
}


def generated_programs(per_language: int, seed: int) -> list[Program]:
    made: list[Program] = []
    for sources in SOURCES.values():
        for index, language in enumerate(sources):
            count = per_language // len(sources) + (index < per_language % len(sources))
            made += seeded_programs(language, count, seed)
    return made


def record(program: Program) -> dict[str, str]:
    return {
        "scene_id": program.scene.scene_id,
        "model": "generated",
        "language": program.reply_language,
        "mode": "direct",
        "output": program.text,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-language", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=Path, help="write each program's true scene here")
    args = parser.parse_args(argv)
    if args.per_language < 1:
        parser.error("--per-language must be at least 1")
    programs = generated_programs(args.per_language, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as stream:
        for program in programs:
            stream.write(json.dumps(record(program)) + "\n")
    if args.scenes is not None:
        for program in programs:
            program.scene.save(args.scenes / f"{program.scene.scene_id}.json")
    print(f"{len(programs)} generated replies written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
