"""Re-examine a generated split inside Blender itself (run in a subprocess: bpy stays out of
the test runner's process):

    python -m tests.synth.blender_checks SPLIT OUT.npz

For every scene it rebuilds the scene in a fresh ``BlenderStage`` and stores, per object, the
ID pass of that object alone (``solo_<scene>_<index>``), and per scene the world-space bounds
of each Blender object and the pairs whose meshes intersect according to Blender's BVH trees.
"""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path

import bpy  # noqa: F401  (mathutils exists once bpy is loaded)
import numpy as np
from mathutils.bvhtree import BVHTree
from numpy.typing import NDArray

from spatialbabel import Scene
from synth.blender_stage import BlenderStage


def main(split: Path, out: Path) -> None:
    stage = BlenderStage("workbench")
    arrays: dict[str, NDArray[np.uint8]] = {}
    report: dict[str, dict[str, object]] = {}
    for path in sorted((split / "scenes").glob("*.json")):
        scene = Scene.load(path)
        stage.set_scene(scene.objects, scene.cameras, scene.ground)
        for index in range(len(scene.objects)):
            _, solo = stage.render_ids(0, [index])
            arrays[f"solo_{scene.scene_id}_{index}"] = solo
        trees, bounds = [], []
        for item in stage.blender_objects:
            world = [item.matrix_world @ v.co for v in item.data.vertices]
            trees.append(
                BVHTree.FromPolygons(world, [tuple(p.vertices) for p in item.data.polygons])
            )
            bounds.append(
                [
                    [min(v[k] for v in world) for k in range(3)],
                    [max(v[k] for v in world) for k in range(3)],
                ]
            )
        overlaps = [
            [a, b] for a, b in combinations(range(len(trees)), 2) if trees[a].overlap(trees[b])
        ]
        report[scene.scene_id] = {"bounds": bounds, "overlaps": overlaps}
    arrays["report"] = np.frombuffer(json.dumps(report).encode(), dtype=np.uint8)
    np.savez_compressed(out, **arrays)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
