"""Write the bundled replies of the report test: ``fixtures/render/replies.jsonl``.

The replies answer the split ``spatialbabel generate --n 4 --seed 7 --resolution 256
--eval-size 4 --phase1-size 0`` (``REPORT_SPLIT_ARGS`` in conftest.py). Each is the true scene
with seeded noise, written as a model would in canonical JSON, the scene DSL or three.js (by
``parsers.write``), so the report shows real pairs, misses and extra objects. A few lines are deliberately bad (a refusal, an
object far away, an unknown shape). Regenerate with::

    .venv/bin/python -m tests.render.make_replies SPLIT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from spatialbabel import Scene, SceneObject
from spatialbabel.files import write_jsonl

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "render" / "replies.jsonl"

#: (model, language) -> (position noise in metres, objects dropped, classes swapped).
STYLES = {
    ("model-a", "json"): (0.08, 0, 0),
    ("model-a", "dsl"): (0.15, 0, 1),
    ("model-a", "threejs"): (0.25, 0, 0),
    ("model-b", "json"): (0.30, 1, 1),
    ("model-b", "dsl"): (0.20, 1, 0),
    ("model-b", "threejs"): (0.10, 2, 0),
}
SWAP = {
    "cube": "pyramid",
    "pyramid": "cube",
    "sphere": "cylinder",
    "cylinder": "sphere",
    "cone": "pyramid",
    "torus": "cylinder",
}


def perturb(
    truth: Scene, noise: float, drop: int, swap: int, rng: np.random.Generator
) -> list[SceneObject]:
    objects = list(truth.objects)
    for _ in range(min(drop, len(objects) - 1)):
        objects.pop(int(rng.integers(len(objects))))
    result = []
    for index, obj in enumerate(objects):
        dx, dz = rng.normal(0.0, noise, 2)
        class_name = SWAP[obj.class_name] if index < swap else obj.class_name
        sx, sy, sz = (round(s * float(rng.uniform(0.85, 1.15)), 3) for s in obj.size)
        x, y, z = obj.position
        result.append(
            SceneObject(
                obj.id,
                class_name,
                (round(x + dx, 3), y, round(z + dz, 3)),
                obj.rotation,
                (sx, sy, sz),
                color=obj.color,
            )
        )
    return result


def as_json(objects: list[SceneObject]) -> str:
    data = {
        "objects": [
            {
                "class_name": o.class_name,
                "color": o.color,
                "position": list(o.position),
                "rotation": list(o.rotation),
                "scale": list(o.size),
            }
            for o in objects
        ]
    }
    return "Here is the scene:\n```json\n" + json.dumps(data, indent=2) + "\n```\n"


def as_dsl(objects: list[SceneObject]) -> str:
    def numbers(values: tuple[float, ...]) -> str:
        return " ".join(f"{v:g}" for v in values)

    lines = ["(scene"]
    for i, o in enumerate(objects):
        lines.append(
            f"  (entity {o.color}_{o.class_name}_{i} (shape {o.class_name}) (color {o.color}) "
            f"(position {numbers(o.position)}) (rotation {numbers(o.rotation)}) (scale {numbers(o.size)}))"
        )
    lines[-1] += ")"
    return "```\n" + "\n".join(lines) + "\n```\n"


def as_code(scene: Scene, language: str) -> str:
    if language == "json":
        return as_json(list(scene.objects))
    if language == "dsl":
        return as_dsl(list(scene.objects))
    # Other languages as the parsers' own writers put them, fenced as a model would.
    from parsers import write

    return f"```javascript\n{write(scene, language)}```\n"


def replies(split: Path) -> list[dict[str, str]]:
    records = []
    scenes = [Scene.load(p) for p in sorted((split / "scenes").glob("*.json"))]
    for seed, ((model, language), (noise, drop, swap)) in enumerate(STYLES.items()):
        for scene in scenes:
            rng = np.random.default_rng([seed, int(scene.scene_id.rsplit("_", 1)[-1])])
            objects = perturb(scene, noise, drop, swap, rng)
            text = as_code(scene.with_objects(objects), language)
            records.append(
                {
                    "scene_id": scene.scene_id,
                    "model": model,
                    "language": language,
                    "mode": "direct",
                    "output": text,
                }
            )
    # Deliberately awkward replies, replacing regular ones: a refusal (a failed parse), an object
    # thrown far off the ground, and a shape no table knows.
    records[7]["output"] = "I'm sorry, I can't describe this scene as code."
    far = json.loads(records[1]["output"].split("```json\n", 1)[1].split("```", 1)[0])
    far["objects"][0]["position"] = [40.0, 0.5, -25.0]
    far["objects"][1]["class_name"] = "gizmo"
    records[1]["output"] = "```json\n" + json.dumps(far, indent=2) + "\n```\n"
    return records


if __name__ == "__main__":
    split_dir = Path(sys.argv[1])
    write_jsonl(OUT, replies(split_dir))
    print(f"wrote {OUT}")
