"""Run in a subprocess (bpy stays out of the test runner): for every occlusion item of a built
SpaceCast items folder, render the state the item asks about from its view, the whole scene (or,
for a pairwise item, the occluder and the target alone) and the target alone, and report the
target's pixels in each:

    python -m tests.suites.spacecast_id_passes ITEMS OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from spatialbabel import Scene
from spatialbabel.geometry.transforms import move, orbit, remove
from synth.blender_stage import BlenderStage
from tests.suites.shapes import CARDINALS


def main(folder: Path, out: Path) -> None:
    stage = BlenderStage("workbench")
    report = {}
    for line in (folder / "items.jsonl").read_text().splitlines():
        item = json.loads(line)
        if item["group"]["relation"] != "occlusion":
            continue
        scene = Scene.load(folder / "views" / f"{item['scene_id']}.json")
        change = item["facts"].get("change", {})
        state = scene
        if change.get("kind") == "remove":
            state = remove(scene, change["object"])
        elif change.get("kind") == "orbit":
            x, _, z = scene.get_object(change["pivot"]).position
            state = orbit(scene, change["object"], (x, z), change["degrees_ccw"])
        elif change.get("kind") == "move":
            camera = next(c for c in scene.cameras if c.name == item["facts"]["views"][0])
            forward = -np.asarray(camera.cam_to_world)[:3, 2][[0, 2]]
            north = forward / np.linalg.norm(forward)
            k = CARDINALS.index(change["toward"])
            a = -np.radians(45 * k)
            step = (
                np.array(
                    [
                        north[0] * np.cos(a) + north[1] * np.sin(a),
                        -north[0] * np.sin(a) + north[1] * np.cos(a),
                    ]
                )
                * change["distance"]
            )
            state = move(scene, change["object"], float(step[0]), float(step[1]))
        view = next(c for c in scene.cameras if c.name == item["facts"]["views"][0])
        roles = item["facts"]["roles"]
        ids = [o.id for o in state.objects]
        index = ids.index(roles["target"])
        stage.set_scene(state.objects, (view,), state.ground)
        if "occluder" in roles:
            _, whole = stage.render_ids(0, [ids.index(roles["occluder"]), index])
        else:
            _, whole = stage.render_ids(0)
        _, alone = stage.render_ids(0, [index])
        report[item["item_id"]] = {
            "visible": int((whole == index + 1).sum()),
            "full": int((alone == index + 1).sum()),
            "label": item["facts"]["label"],
        }
    out.write_text(json.dumps(report))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
