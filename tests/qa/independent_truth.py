"""An independent reading of the questions against the ground truth, for the tests.

Nothing here uses the program language, ``spatialbabel.relations`` or ``world_aabb``: objects
are found from the question's words, the camera frame comes from inverting the pose matrix,
pixels from the field of view, volumes from textbook formulas (the torus by Pappus), heights
and bottoms from ``size`` (the scenes here turn objects about the vertical axis only).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialbabel import Scene, SceneObject
from spatialbabel.relations import Margins

PHRASES = {
    "to the left of": "left",
    "to the right of": "right",
    "in front of": "in front",
    "behind": "behind",
    "above": "above",
    "below": "below",
}
_PHRASE = "|".join(sorted(PHRASES, key=len, reverse=True))
SINGULAR = {
    "cubes": "cube",
    "spheres": "sphere",
    "cylinders": "cylinder",
    "cones": "cone",
    "pyramids": "pyramid",
    "tori": "torus",
}


@dataclass(frozen=True)
class View:
    camera_x: float
    image_x: float
    depth: float
    ground_depth: float
    distance: float
    centre_y: float
    bottom: float
    top: float
    height: float
    volume: float


def volume(obj: SceneObject) -> float:
    w, h, d = obj.size
    a, c = w / 2, d / 2
    if obj.class_name == "cube":
        return w * h * d
    if obj.class_name == "sphere":
        return 4.0 / 3.0 * math.pi * a * (h / 2) * c
    if obj.class_name == "cylinder":
        return math.pi * a * c * h
    if obj.class_name == "cone":
        return math.pi * a * c * h / 3.0
    if obj.class_name == "pyramid":
        return w * d * h / 3.0
    # Pappus: tube cross-section area times the path of its centre, for the unit torus
    # (major radius 0.375, tube radius 0.125, height 0.25), then stretched to the size.
    unit = (math.pi * 0.125**2) * (2 * math.pi * 0.375)
    return unit * w * (h / 0.25) * d


def view(obj: SceneObject, scene: Scene) -> View:
    camera = scene.cameras[0]
    pose = np.array(camera.cam_to_world, dtype=float)
    assert obj.rotation[0] == 0.0 and obj.rotation[2] == 0.0, (
        "independent heights assume yaw-only turns"
    )
    local = np.linalg.inv(pose) @ np.array([*obj.position, 1.0])
    depth = -local[2]
    focal = (camera.height / 2) / math.tan(math.radians(camera.fov_y_deg) / 2)
    u = focal * local[0] / depth + camera.width / 2
    forward = -pose[:3, 2]
    heading = np.array([forward[0], 0.0, forward[2]])
    heading /= np.linalg.norm(heading)
    offset = np.array(obj.position) - pose[:3, 3]
    half = obj.size[1] / 2
    return View(
        camera_x=float(local[0]),
        image_x=float(u / camera.width),
        depth=float(depth),
        ground_depth=float(offset @ heading),
        distance=float(np.linalg.norm(offset)),
        centre_y=obj.position[1],
        bottom=obj.position[1] - half,
        top=obj.position[1] + half,
        height=obj.size[1],
        volume=volume(obj),
    )


def relation(name: str, a: View, b: View, m: Margins) -> bool | None:
    """True: clearly holds; False: clearly fails; None: within the margins."""
    if name in ("right", "behind", "below"):
        flipped = {"right": "left", "behind": "in front", "below": "above"}[name]
        return relation(flipped, b, a, m)
    if name == "left":
        diffs = [(b.camera_x - a.camera_x) / m.lateral, (b.image_x - a.image_x) / m.image]
    elif name == "in front":
        diffs = [(b.depth - a.depth) / m.depth, (b.ground_depth - a.ground_depth) / m.depth]
    else:
        # Stacked with real separation, clear of the plain reading's limits (bottom over the
        # lower one's middle, middle over its top); reaching down to its middle is clearly not.
        lowest_bottom = max(b.top - m.vertical_gap, b.centre_y + m.vertical_gap)
        if a.bottom >= lowest_bottom and a.centre_y >= max(
            b.centre_y + m.vertical, b.top + m.vertical_gap
        ):
            return True
        if a.bottom <= b.centre_y:
            return False
        return None
    if min(diffs) >= 1:
        return True
    if max(diffs) <= -1:
        return False
    return None


def find(scene: Scene, color: str | None, shape: str | None) -> list[SceneObject]:
    return [
        o
        for o in scene.objects
        if (color is None or o.color == color) and (shape is None or o.class_name == shape)
    ]


def resolve(scene: Scene, words: str, m: Margins) -> SceneObject:
    """The one object ``words`` ("the red cube", "the red cube to the left of the blue
    sphere") names; fails the test when the words are ambiguous under the margins."""
    match = re.fullmatch(rf"the (\w+) (\w+)(?: ({_PHRASE}) (the \w+ \w+))?", words)
    assert match, words
    color, shape, phrase, anchor_words = match.groups()
    candidates = find(scene, color, shape)
    if phrase is None:
        assert len(candidates) == 1, words
        return candidates[0]
    anchor = resolve(scene, anchor_words, m)
    verdicts = [
        relation(PHRASES[phrase], view(o, scene), view(anchor, scene), m) for o in candidates
    ]
    assert None not in verdicts, f"{words}: a candidate lies within the margins"
    assert verdicts.count(True) == 1, words
    return candidates[verdicts.index(True)]


def recompute(question: dict[str, Any], scene: Scene, m: Margins) -> tuple[Any, list[str]]:
    """The answer to the question's text on ``scene`` and the ids of the objects it names."""
    text = question["question"]
    if match := re.fullmatch(r"What are the coordinates \(x, y, z\) of the centre of (.+)\?", text):
        obj = resolve(scene, match.group(1), m)
        return list(obj.position), [obj.id]
    if match := re.fullmatch(r"How many (.+) are there in the scene\?", text):
        words = match.group(1).split()
        if words[-1] == "objects":
            return len(find(scene, words[0], None)), []
        shape = SINGULAR[words[-1]]
        return len(find(scene, words[0] if len(words) == 2 else None, shape)), []
    if match := re.fullmatch(r"Is there a (\w+) (\w+) in the scene\?", text):
        return ("yes" if find(scene, match.group(1), match.group(2)) else "no"), []
    if match := re.fullmatch(rf"Is there a (\w+) ({_PHRASE}) (.+)\?", text):
        shape, phrase, anchor_words = match.groups()
        anchor = resolve(scene, anchor_words, m)
        verdicts = [
            relation(PHRASES[phrase], view(o, scene), view(anchor, scene), m)
            for o in find(scene, None, shape)
            if o.id != anchor.id
        ]
        assert None not in verdicts, f"{text}: a candidate lies within the margins"
        return ("yes" if True in verdicts else "no"), [anchor.id]
    if match := re.fullmatch(
        r"From the camera's point of view, is (.+) to the (left|right) or to the (left|right) of (.+)\?",
        text,
    ):
        return _relationship(scene, match.group(1), match.group(4), ("left", "right"), m)
    if match := re.fullmatch(
        r"From the camera's point of view, is (.+?) (in front of|behind) or (in front of|behind) (.+)\?",
        text,
    ):
        return _relationship(scene, match.group(1), match.group(4), ("in front", "behind"), m)
    if match := re.fullmatch(r"Is (.+?) (above|below) or (above|below) (.+)\?", text):
        return _relationship(scene, match.group(1), match.group(4), ("above", "below"), m)
    if match := re.fullmatch(
        r"Which is (larger|taller|closer to the camera): (.+) or (.+)\?", text
    ):
        first, second = resolve(scene, match.group(2), m), resolve(scene, match.group(3), m)
        a, b = view(first, scene), view(second, scene)
        kind = match.group(1)
        if kind == "larger":
            wins = a.volume >= m.volume_ratio * b.volume, b.volume >= m.volume_ratio * a.volume
        elif kind == "taller":
            wins = (
                a.height - b.height >= m.height and a.height >= m.height_ratio * b.height,
                b.height - a.height >= m.height and b.height >= m.height_ratio * a.height,
            )
        else:
            wins = (
                b.distance - a.distance >= m.distance and b.depth - a.depth >= m.depth,
                a.distance - b.distance >= m.distance and a.depth - b.depth >= m.depth,
            )
        assert wins.count(True) == 1, f"{text}: within the margins"
        return (match.group(2) if wins[0] else match.group(3)), [first.id, second.id]
    raise AssertionError(f"no independent reading of {text!r}")


def _relationship(
    scene: Scene, target_words: str, anchor_words: str, options: tuple[str, str], m: Margins
) -> tuple[Any, list[str]]:
    target, anchor = resolve(scene, target_words, m), resolve(scene, anchor_words, m)
    a, b = view(target, scene), view(anchor, scene)
    holding = [o for o in options if relation(o, a, b, m) is True]
    assert len(holding) == 1, f"{target_words} / {anchor_words}: within the margins"
    return holding[0], [target.id, anchor.id]
