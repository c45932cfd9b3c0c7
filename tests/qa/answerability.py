"""An independent answerability reader, for the tests: it decides each question as a careful
reader would, from the context the model gets and the ground truth.

It reads the QA prompt's text, as the model does: the scene frame, the camera ("The camera is
at ... looking at ..., with a vertical field of view of ...° and an image of W x H pixels") and
the definitions of the words. It reads every relation and comparison by the definition the
prompt states, and it refuses a word the prompt does not define. Of the ground truth it takes
the objects: class, colour, centre, turn and size. Nothing of the generator is used: no
program, no ``spatialbabel.geometry.relations``, no footprints, no bounding boxes, no stored camera; the
camera is rebuilt from the prompt's words, outlines seen from above and volumes come from the
shapes' definitions, heights from ``size`` (the scenes turn objects about the vertical only).

A careful reader tells apart only what differs by more than its own margins (``READER``);
anything nearer a definition's boundary is ``Undecidable``. The tests require every stored
question to be decidable, with the stored answer: the generator's margins are wider, so a
question inside the reader's margins must already have been dropped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Scene, SceneObject
from spatialbabel.qa import Question
from synth.prompts import qa_prompt


class Undecidable(AssertionError):
    """A careful reader with the prompt's context cannot decide the question."""


@dataclass(frozen=True)
class ReaderMargins:
    """How much a careful reader needs to tell two things apart."""

    image: float = 0.02  # of the image width, across
    depth: float = 0.2  # metres along the viewing direction
    distance: float = 0.2  # metres from the camera
    volume_ratio: float = 1.25
    height_ratio: float = 1.1
    height: float = 0.075  # metres
    contact: float = 0.01  # metres around the definition's contact distance
    outline: float = 0.02  # metres: outlines that overlap (or miss) by less are unclear


READER: Final = ReaderMargins()

#: The definitions the reader understands, as the prompt must word them; a word whose
#: definition is missing from the prompt cannot be decided.
DEFINITIONS: Final[dict[str, str]] = {
    "centre": r"an object's centre is the centre of its bounding box",
    "left": r'"Left of" and "right of" compare where the centres appear across the image',
    "in front": (
        r'"in front of" and "behind" compare the centres\' depths along the camera\'s viewing '
        r"direction \(in front is nearer the camera\)"
    ),
    "above": (
        r'"A is above B" and "B is below A" mean that A rests on B: A\'s lowest point is within '
        r"(?P<contact>\d+) cm of B's highest point and, seen from straight above, their outlines "
        r"overlap"
    ),
    "larger": r'"Larger" compares volumes',
    "taller": r'"taller" the objects\' own heights \(from lowest to highest point\)',
    "closer": r'"closer to the camera" the distances of the centres from the camera',
}
WORDS: Final = {
    "right": "left",
    "behind": "in front",
    "below": "above",
}
FRAME: Final = (
    "+X points right in the image, +Y points up, +Z points toward the camera. "
    "The ground is the plane y = "
)
_NUMBER = r"(-?\d+(?:\.\d+)?)"
_POINT = rf"\({_NUMBER}, {_NUMBER}, {_NUMBER}\)"
CAMERA: Final = re.compile(
    rf"The camera is at {_POINT} looking at {_POINT}, with a vertical field of view of "
    rf"{_NUMBER}° and an image of (\d+) x (\d+) pixels\."
)

PHRASES: Final = {
    "to the left of": "left",
    "to the right of": "right",
    "in front of": "in front",
    "behind": "behind",
    "above": "above",
    "below": "below",
}
_PHRASE = "|".join(sorted(PHRASES, key=len, reverse=True))
SINGULAR: Final = {
    "cubes": "cube",
    "spheres": "sphere",
    "cylinders": "cylinder",
    "cones": "cone",
    "pyramids": "pyramid",
    "tori": "torus",
}


@dataclass(frozen=True)
class Context:
    """What the prompt tells: the camera and the defined words."""

    eye: NDArray[np.float64]
    right: NDArray[np.float64]
    up: NDArray[np.float64]
    forward: NDArray[np.float64]
    focal: float
    width: int
    height: int
    defined: frozenset[str]
    contact: float  # metres, from the definition of "above"

    def check_defined(self, word: str) -> None:
        word = WORDS.get(word, word)
        if word not in self.defined:
            raise Undecidable(f"the prompt does not define {word!r}")


def read_context(prompt: str) -> Context:
    """The camera and the definitions, from the prompt's words."""
    assert FRAME in prompt, "the reader knows the canonical scene frame only"
    match = CAMERA.search(prompt)
    assert match, "the prompt states no camera"
    values = [float(v) for v in match.groups()]
    eye, target = np.array(values[0:3]), np.array(values[3:6])
    fov, width, height = values[6], int(values[7]), int(values[8])
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    defined, contact = set(), math.nan
    for word, pattern in DEFINITIONS.items():
        found = re.search(pattern, prompt)
        if found:
            defined.add(word)
            if word == "above":
                contact = int(found.group("contact")) / 100.0
    assert "centre" in defined, "the prompt does not say what an object's centre is"
    return Context(
        eye=eye,
        right=right,
        up=np.cross(right, forward),
        forward=forward,
        focal=(height / 2.0) / math.tan(math.radians(fov) / 2.0),
        width=width,
        height=height,
        defined=frozenset(defined),
        contact=contact,
    )


# --------------------------------------------------------------------------- the objects


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


def _yaw_only(obj: SceneObject) -> None:
    assert obj.rotation[0] == 0.0 and obj.rotation[2] == 0.0, "the reader knows upright objects"


def lowest(obj: SceneObject) -> float:
    _yaw_only(obj)
    return obj.position[1] - obj.size[1] / 2


def highest(obj: SceneObject) -> float:
    _yaw_only(obj)
    return obj.position[1] + obj.size[1] / 2


def outline_depth(obj: SceneObject, points: NDArray[np.float64]) -> NDArray[np.float64]:
    """How far ground points (N x 2, x and z) lie inside the object's outline seen from
    straight above (negative outside): a turned square for cubes and pyramids, a disc for the
    round shapes."""
    _yaw_only(obj)
    rel = points - np.array([obj.position[0], obj.position[2]])
    half = obj.size[0] / 2.0
    if obj.class_name in ("cube", "pyramid"):
        yaw = math.radians(obj.rotation[1])
        u = rel @ np.array([math.cos(yaw), -math.sin(yaw)])
        v = rel @ np.array([math.sin(yaw), math.cos(yaw)])
        return np.asarray(np.minimum(half - np.abs(u), half - np.abs(v)))
    assert obj.size[0] == obj.size[2], "round outlines are discs"
    return np.asarray(half - np.hypot(rel[:, 0], rel[:, 1]))


def outlines_overlap(a: SceneObject, b: SceneObject, margin: float) -> bool | None:
    """True when the outlines share a point at least ``margin`` inside both, False when none
    comes within ``margin`` of both, None in between (read on a 5 mm grid)."""
    # Each outline lies within its circumscribed circle (half the diagonal of its square).
    reach = [o.size[0] / math.sqrt(2.0) for o in (a, b)]
    centres = [np.array([o.position[0], o.position[2]]) for o in (a, b)]
    if float(np.linalg.norm(centres[0] - centres[1])) >= sum(reach) + margin:
        return False
    step = 0.005
    lo = np.maximum(centres[0] - reach[0], centres[1] - reach[1]) - margin
    hi = np.minimum(centres[0] + reach[0], centres[1] + reach[1]) + margin
    xs, zs = np.arange(lo[0], hi[0] + step, step), np.arange(lo[1], hi[1] + step, step)
    grid = np.array(np.meshgrid(xs, zs)).reshape(2, -1).T
    both = np.minimum(outline_depth(a, grid), outline_depth(b, grid))
    if both.max() >= margin:
        return True
    if both.max() <= -margin:
        return False
    return None


# --------------------------------------------------------------------------- the words


@dataclass(frozen=True)
class Seen:
    """One object as the camera of the context sees it."""

    image_x: float  # fraction of the width
    depth: float
    distance: float


def seen(obj: SceneObject, context: Context) -> Seen:
    offset = np.array(obj.position) - context.eye
    depth = float(offset @ context.forward)
    u = context.focal * float(offset @ context.right) / depth + context.width / 2
    return Seen(u / context.width, depth, float(np.linalg.norm(offset)))


def clearly(difference: float, margin: float) -> bool | None:
    """True when ``difference`` >= margin, False when <= -margin, None in between."""
    if difference >= margin:
        return True
    if difference <= -margin:
        return False
    return None


def relation(word: str, a: SceneObject, b: SceneObject, context: Context) -> bool | None:
    """Whether ``a`` is ``word`` ``b`` by the prompt's definition (None: too close to tell)."""
    context.check_defined(word)
    if word in WORDS:
        return relation(WORDS[word], b, a, context)
    if word == "left":
        return clearly(seen(b, context).image_x - seen(a, context).image_x, READER.image)
    if word == "in front":
        return clearly(seen(b, context).depth - seen(a, context).depth, READER.depth)
    # "above": a rests on b.
    gap = abs(lowest(a) - highest(b))
    touching = clearly(context.contact - gap, READER.contact)
    overlap = outlines_overlap(a, b, READER.outline)
    if touching is False or overlap is False:
        return False
    if touching and overlap:
        return True
    return None


def find(objects: Sequence[SceneObject], color: str | None, shape: str | None) -> list[SceneObject]:
    return [
        o
        for o in objects
        if (color is None or o.color == color) and (shape is None or o.class_name == shape)
    ]


def decided(verdicts: list[bool | None], what: str) -> list[bool]:
    if None in verdicts:
        raise Undecidable(f"{what}: some object is too near the definition's boundary")
    return [bool(v) for v in verdicts]


def resolve(words: str, objects: Sequence[SceneObject], context: Context) -> SceneObject:
    """The one object ``words`` ("the red cube", "the red cube to the left of the blue
    sphere") names."""
    match = re.fullmatch(rf"the (\w+) (\w+)(?: ({_PHRASE}) (the \w+ \w+))?", words)
    assert match, words
    color, shape, phrase, anchor_words = match.groups()
    candidates = find(objects, color, shape)
    if phrase is None:
        if len(candidates) != 1:
            raise Undecidable(f"{words!r} names {len(candidates)} objects")
        return candidates[0]
    anchor = resolve(anchor_words, objects, context)
    holds = decided(
        [relation(PHRASES[phrase], o, anchor, context) for o in candidates], f"{words!r}"
    )
    if holds.count(True) != 1:
        raise Undecidable(f"{words!r} names {holds.count(True)} objects")
    return candidates[holds.index(True)]


def comparison(kind: str, a: SceneObject, b: SceneObject, context: Context) -> bool | None:
    """Whether ``a`` wins (larger, taller, closer to the camera) over ``b``."""
    context.check_defined(kind)
    if kind == "larger":
        va, vb = volume(a), volume(b)
        if va >= READER.volume_ratio * vb:
            return True
        return False if vb >= READER.volume_ratio * va else None
    if kind == "taller":
        ha, hb = a.size[1], b.size[1]
        if ha - hb >= READER.height and ha >= READER.height_ratio * hb:
            return True
        if hb - ha >= READER.height and hb >= READER.height_ratio * ha:
            return False
        return None
    return clearly(seen(b, context).distance - seen(a, context).distance, READER.distance)


def decide(text: str, context: Context, objects: Sequence[SceneObject]) -> tuple[Any, list[str]]:
    """The answer to a question's words and the ids of the objects it names."""
    if match := re.fullmatch(r"What are the coordinates \(x, y, z\) of the centre of (.+)\?", text):
        obj = resolve(match.group(1), objects, context)
        return list(obj.position), [obj.id]
    if match := re.fullmatch(r"How many (.+) are there in the scene\?", text):
        words = match.group(1).split()
        if words[-1] == "objects":
            return len(find(objects, words[0], None)), []
        shape = SINGULAR[words[-1]]
        return len(find(objects, words[0] if len(words) == 2 else None, shape)), []
    if match := re.fullmatch(r"Is there a (\w+) (\w+) in the scene\?", text):
        return ("yes" if find(objects, match.group(1), match.group(2)) else "no"), []
    if match := re.fullmatch(rf"Is there a (\w+) ({_PHRASE}) (.+)\?", text):
        shape, phrase, anchor_words = match.groups()
        anchor = resolve(anchor_words, objects, context)
        holds = decided(
            [
                relation(PHRASES[phrase], o, anchor, context)
                for o in find(objects, None, shape)
                if o.id != anchor.id
            ],
            text,
        )
        return ("yes" if any(holds) else "no"), [anchor.id]
    if match := re.fullmatch(
        r"From the camera's point of view, is (.+) to the (left|right) or to the (left|right) of (.+)\?",
        text,
    ):
        return _either(match.group(1), match.group(4), ("left", "right"), context, objects)
    if match := re.fullmatch(
        r"From the camera's point of view, is (.+?) (in front of|behind) or (in front of|behind) (.+)\?",
        text,
    ):
        return _either(match.group(1), match.group(4), ("in front", "behind"), context, objects)
    if match := re.fullmatch(r"Is (.+?) (above|below) or (above|below) (.+)\?", text):
        return _either(match.group(1), match.group(4), ("above", "below"), context, objects)
    if match := re.fullmatch(
        r"Which is (larger|taller|closer to the camera): (.+) or (.+)\?", text
    ):
        first = resolve(match.group(2), objects, context)
        second = resolve(match.group(3), objects, context)
        wins = comparison(match.group(1).split()[0], first, second, context)
        if wins is None:
            raise Undecidable(f"{text}: too close to tell")
        return (match.group(2) if wins else match.group(3)), [first.id, second.id]
    raise AssertionError(f"the reader cannot read {text!r}")


def _either(
    target_words: str,
    anchor_words: str,
    options: tuple[str, str],
    context: Context,
    objects: Sequence[SceneObject],
) -> tuple[Any, list[str]]:
    target = resolve(target_words, objects, context)
    anchor = resolve(anchor_words, objects, context)
    holding = [o for o in options if relation(o, target, anchor, context) is True]
    if len(holding) != 1:
        raise Undecidable(f"{target_words} / {anchor_words}: neither or both of {options}")
    return holding[0], [target.id, anchor.id]


def answer_from_context(record: dict[str, Any], scene: Scene) -> tuple[Any, list[str]]:
    """Decide a ``qa.jsonl`` record from its direct-mode prompt and the scene's objects."""
    prompt = qa_prompt(Question.from_dict(record), scene, "direct").text
    return decide(str(record["question"]), read_context(prompt), scene.objects)


def assert_decided_as_stored(records: Sequence[dict[str, Any]], scenes: Sequence[Scene]) -> None:
    """Every record is decidable from its prompt and the objects, with its stored answer, and
    names the objects the reader found (in order)."""
    by_id = {s.scene_id: s for s in scenes}
    for record in records:
        answer, ids = answer_from_context(record, by_id[str(record["scene_id"])])
        if record["category"] == "localization":
            assert np.allclose(answer, record["answer"], rtol=0.0, atol=1e-12), record
        else:
            assert answer == record["answer"], record
        named = [o["id"] for o in record["objects"]]
        assert named == ids[: len(named)], record
