"""Phase 2, structured: the nine tasks whose answers are read off the pseudo-ground truth.

Each task is an instruction about one image and a JSON answer computed from the pseudo-ground
truth (never from the true scene) seen from that image's true camera: object count, classes,
3D positions, 3D bounding boxes, 2D bounding boxes (the hub's camera projection of each
object's mesh), pairwise spatial relations (the hub's relation rules with their margins: a
relation within its margins is left out rather than guessed), depth order, the scene graph,
and code generation (the reply's own code as the target; see ``records``).

A task is ``view_invariant`` when its answer does not depend on the camera: count, classes,
and everything given in the scene frame (positions, 3D boxes). Those answers list objects in
scene-frame order (by x, then z), and name them by colour and shape alone. The others name
objects as the image shows them: left to right, objects that share colour and shape numbered
in that order ("red cube 1", "red cube 2"). In the open domain (real indoor scenes) an object
is named by its class ("sofa", "chair 1", "chair 2") and the instructions speak of furniture.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Final

import numpy as np

from spatialbabel import CLASSES, Camera, Scene, SceneObject, world_aabb
from spatialbabel.geometry.relations import (
    AXES,
    DEFAULT_MARGINS,
    RELATION_PHRASES,
    Margins,
    Truth,
    ViewMeasures,
    measure,
    relation_truth,
)
from synth.prompts import coordinate_hint, open_coordinate_hint
from synth.visibility import projected_box

#: Relations are given between each object and this many nearest others (all pairs of a small
#: scene): every pair of a 20-object scene would not fit the 2,048-token budget.
NEIGHBOURS: Final = 3
#: Decimals of every length in metres.
DECIMALS: Final = 2

Answer = dict[str, Any]


def metres(value: float) -> float:
    return round(float(value), DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0


def point(values: Any) -> list[float]:
    return [metres(v) for v in values]


def kind_name(obj: SceneObject) -> str:
    """How a record names an object's kind: colour and shape, or (open domain, no colour) its
    class."""
    return f"{obj.color} {obj.class_name}" if obj.color else obj.class_name


def is_open(view: View) -> bool:
    return view.scene.domain == "open"


def answer_text(answer: Answer) -> str:
    """A JSON answer as a record carries it: one line, keys in the order written."""
    return json.dumps(answer, ensure_ascii=False, allow_nan=False)


@dataclass(frozen=True)
class View:
    """The pseudo-ground truth seen from one camera of its scene (0: the frontal one)."""

    scene: Scene
    index: int = 0
    margins: Margins = DEFAULT_MARGINS

    @property
    def camera(self) -> Camera:
        return self.scene.cameras[self.index]

    @property
    def name(self) -> str:
        return self.camera.name

    @cached_property
    def measures(self) -> dict[str, ViewMeasures]:
        return {o.id: measure(o, self.camera) for o in self.scene.objects}

    @cached_property
    def seen_scene(self) -> Scene:
        """The scene with this view's camera as its only (frontal) camera: what the prompts'
        coordinate hint and the question programs read the camera from."""
        return replace(self.scene, cameras=(self.camera,))

    @cached_property
    def frame_hint(self) -> str:
        """The benchmark prompts' scene-frame hint, with this view's camera (and, off the
        frontal view, the axes as this camera sees them; in the open domain always)."""
        if self.scene.domain == "open":
            return open_coordinate_hint(self.seen_scene, "json")
        return coordinate_hint(self.seen_scene, "json", axes_as_seen=self.index != 0)

    @cached_property
    def scene_order(self) -> list[SceneObject]:
        return sorted(
            self.scene.objects,
            key=lambda o: (metres(o.position[0]), metres(o.position[2]), kind_name(o)),
        )

    @cached_property
    def image_order(self) -> list[SceneObject]:
        m = self.measures
        return sorted(self.scene.objects, key=lambda o: (m[o.id].image_x, m[o.id].depth))

    @cached_property
    def names(self) -> dict[str, str]:
        """Each object's name in this image, repeats numbered from left to right."""
        totals: dict[str, int] = {}
        for obj in self.scene.objects:
            totals[kind_name(obj)] = totals.get(kind_name(obj), 0) + 1
        seen: dict[str, int] = {}
        names = {}
        for obj in self.image_order:
            kind = kind_name(obj)
            seen[kind] = seen.get(kind, 0) + 1
            names[obj.id] = kind if totals[kind] == 1 else f"{kind} {seen[kind]}"
        return names

    @cached_property
    def neighbour_pairs(self) -> list[tuple[SceneObject, SceneObject]]:
        """Each object with its ``NEIGHBOURS`` nearest others (by centre), each pair once,
        in image order (the left one first)."""
        objects = self.image_order
        centres = np.array([o.position for o in objects], dtype=float).reshape(-1, 3)
        distances = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=-1)
        pairs: set[tuple[int, int]] = set()
        for i in range(len(objects)):
            nearest = [j for j in np.argsort(distances[i], kind="stable") if j != i][:NEIGHBOURS]
            pairs.update((min(i, int(j)), max(i, int(j))) for j in nearest)
        return [(objects[i], objects[j]) for i, j in sorted(pairs)]

    @cached_property
    def relations(self) -> list[dict[str, str]]:
        """Every relation that holds beyond its margins between neighbouring objects."""
        found = []
        for a, b in self.neighbour_pairs:
            ma, mb = self.measures[a.id], self.measures[b.id]
            for axis in AXES.values():
                for relation in axis:
                    if relation_truth(relation, ma, mb, self.margins) is Truth.HOLDS:
                        found.append(
                            {
                                "subject": self.names[a.id],
                                "relation": RELATION_PHRASES[relation],
                                "object": self.names[b.id],
                            }
                        )
                        break
        return found


@dataclass(frozen=True)
class Task:
    """A structured task: its instruction about a view and the JSON answer from the view."""

    name: str
    view_invariant: bool
    instruction: Callable[[View], str]
    answer: Callable[[View], Answer]


_NAMING = (
    "Name each object by its colour and shape; number objects that share both from left to "
    "right in the image (red cube 1, red cube 2)."
)
_OPEN_NAMING = (
    "Name each object by its class; number objects of the same class from left to right in the "
    "image (chair 1, chair 2)."
)
_SCENE_FRAME = "in metres in the scene frame"


def _naming(view: View) -> str:
    return _OPEN_NAMING if is_open(view) else _NAMING


def _kind_slot(view: View) -> str:
    """How the JSON templates write an object's kind."""
    return "<class>" if is_open(view) else "<colour> <shape>"


def _count(view: View) -> Answer:
    return {"count": len(view.scene.objects)}


def _classes(view: View) -> Answer:
    names = sorted({o.class_name for o in view.scene.objects}) if is_open(view) else CLASSES
    counts = {c: sum(o.class_name == c for o in view.scene.objects) for c in names}
    return {"classes": {c: n for c, n in counts.items() if n}}


def _classes_instruction(view: View) -> str:
    if is_open(view):
        return (
            "Which kinds of furniture and household items are in this scene, and how many of "
            "each? Name each kind by a descriptive class name (sofa, chair, lamp, ...). "
            + _json_format('{"classes": {"<class>": <number>, ...}}, only the classes present.')
        )
    return (
        "Which shapes are in this scene, and how many of each? The shapes are cube, sphere, "
        "cylinder, cone, pyramid and torus. "
        + _json_format('{"classes": {"<shape>": <number>, ...}}, only the shapes present.')
    )


def _positions(view: View) -> Answer:
    return {
        "objects": [
            {"object": kind_name(o), "position": point(o.position)} for o in view.scene_order
        ]
    }


def _boxes_3d(view: View) -> Answer:
    objects = []
    for obj in view.scene_order:
        low, high = world_aabb(obj)
        objects.append({"object": kind_name(obj), "min": point(low), "max": point(high)})
    return {"objects": objects}


def image_box(obj: SceneObject, camera: Camera) -> list[int] | None:
    """The object's box in the image in whole pixels (x0, y0, x1, y1), clipped to the image;
    None when it lies outside the image or may reach behind the camera."""
    _, depth = camera.project(np.asarray(obj.position, dtype=float))
    if float(depth[0]) - 0.5 * float(np.linalg.norm(obj.size)) <= 1e-6:
        return None
    # An object of the open domain is its bounding box.
    shape = obj if obj.class_name in CLASSES else replace(obj, class_name="cube")
    u0, v0, u1, v1 = projected_box(shape, camera)
    x0, y0 = max(0, math.floor(u0)), max(0, math.floor(v0))
    x1, y1 = min(camera.width, math.ceil(u1)), min(camera.height, math.ceil(v1))
    if x1 <= x0 or y1 <= y0:
        return None
    return [x0, y0, x1, y1]


def _boxes_2d(view: View) -> Answer:
    objects = []
    for obj in view.image_order:
        box = image_box(obj, view.camera)
        if box is not None:
            objects.append({"object": view.names[obj.id], "bbox": box})
    return {"image_size": [view.camera.width, view.camera.height], "objects": objects}


def _relations(view: View) -> Answer:
    return {"relations": view.relations}


def _depth_order(view: View) -> Answer:
    m = view.measures
    ordered = sorted(view.scene.objects, key=lambda o: (m[o.id].depth, m[o.id].image_x))
    return {
        "order": [{"object": view.names[o.id], "depth": metres(m[o.id].depth)} for o in ordered]
    }


def _scene_graph(view: View) -> Answer:
    nodes = [
        {
            "name": view.names[o.id],
            "position": point(o.position),
            "size": point(o.size),
            "rotation": point(o.rotation),
        }
        for o in view.image_order
    ]
    return {"nodes": nodes, "edges": view.relations}


def _json_format(shape: str) -> str:
    return f"Answer in JSON only: {shape}"


STRUCTURED_TASKS: Final[tuple[Task, ...]] = (
    Task(
        "count",
        True,
        lambda view: "How many objects are in this scene? " + _json_format('{"count": <number>}'),
        _count,
    ),
    Task("classes", True, _classes_instruction, _classes),
    Task(
        "positions_3d",
        True,
        lambda view: (
            f"{view.frame_hint}\n\nGive the position of the centre of every object, {_SCENE_FRAME}, "
            "listing the objects by increasing x (then z). "
            + _json_format(
                f'{{"objects": [{{"object": "{_kind_slot(view)}", "position": [x, y, z]}}, ...]}}'
            )
        ),
        _positions,
    ),
    Task(
        "boxes_3d",
        True,
        lambda view: (
            f"{view.frame_hint}\n\nGive the axis-aligned 3D bounding box of every object, "
            f"{_SCENE_FRAME}, listing the objects by increasing x (then z). "
            + _json_format(
                f'{{"objects": [{{"object": "{_kind_slot(view)}", "min": [x, y, z], "max": [x, y, z]}}, ...]}}'
            )
        ),
        _boxes_3d,
    ),
    Task(
        "boxes_2d",
        False,
        lambda view: (
            f"Give the 2D bounding box of every object in this {view.camera.width} x "
            f"{view.camera.height} image, in pixels [x0, y0, x1, y1] with the origin at the "
            f"top-left corner, x to the right and y down, listing the objects from left to right. "
            f"{_naming(view)} "
            + _json_format(
                '{"image_size": [width, height], "objects": [{"object": "<name>", "bbox": [x0, y0, x1, y1]}, ...]}'
            )
        ),
        _boxes_2d,
    ),
    Task(
        "relations",
        False,
        lambda view: (
            "List the spatial relations between each object and its nearest neighbours, as seen "
            "from the camera: to the left of, to the right of, in front of, behind, above, below "
            f"(one per direction that clearly holds). {_naming(view)} "
            + _json_format(
                '{"relations": [{"subject": "<name>", "relation": "<relation>", "object": "<name>"}, ...]}'
            )
        ),
        _relations,
    ),
    Task(
        "depth_order",
        False,
        lambda view: (
            "Order the objects from the nearest to the farthest from the camera, with the depth "
            f"of each one's centre along the camera's viewing direction in metres. {_naming(view)} "
            + _json_format('{"order": [{"object": "<name>", "depth": <metres>}, ...]}')
        ),
        _depth_order,
    ),
    Task(
        "scene_graph",
        False,
        lambda view: (
            f"{view.frame_hint}\n\nWrite the scene graph of the image: a node per object, left "
            f"to right, with its name, centre position, size (extents along its own axes) and "
            f"rotation (Euler XYZ, degrees), {_SCENE_FRAME}; and an edge for each "
            "spatial relation between an object and its nearest neighbours, as seen from the "
            f"camera. {_naming(view)} "
            + _json_format(
                '{"nodes": [{"name", "position", "size", "rotation"}, ...], '
                '"edges": [{"subject", "relation", "object"}, ...]}'
            )
        ),
        _scene_graph,
    ),
)
#: The ninth task: the reply's own code, asked for with the prompt it answered (S3-FT's phase-1
#: prompt; on the old route, the benchmark's reconstruction prompt).
CODE_TASK: Final = "code"
TASK_NAMES: Final[tuple[str, ...]] = (*(t.name for t in STRUCTURED_TASKS), CODE_TASK)


def task(name: str) -> Task:
    for item in STRUCTURED_TASKS:
        if item.name == name:
            return item
    raise KeyError(f"unknown structured task {name!r}; known: {', '.join(TASK_NAMES)}")


__all__ = [
    "CODE_TASK",
    "DECIMALS",
    "NEIGHBOURS",
    "STRUCTURED_TASKS",
    "TASK_NAMES",
    "Answer",
    "Task",
    "View",
    "answer_text",
    "image_box",
    "kind_name",
    "metres",
    "point",
    "task",
]
