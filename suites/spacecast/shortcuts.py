"""SpaceCast's shortcut battery: what a test-taker could answer without the skill a task
claims to measure (docs/spacecast.md, "Shortcuts"). Each is graded like a model's reply and
held to the seeded random guess's CI by ``suites.shortcuts.check_shortcuts``; the build holds
each to chance before it words the items (``suites.spacecast.selection``).

A shortcut reads an item and the truth the build saved beside it (``views/<scene>.json``: the
scene before any change and the cameras of the views):

- ``majority_label``: per task, the offered option most often right over the task's items (for
  attachment, the answer set most often right);
- ``persistence``: the answer for the scene before the change, which the views show;
- ``last_view`` / ``first_view``: read from one view alone, its camera standing where the
  queried object that view does not show would be: the direction between the camera and the
  object shown, or the distance bin from the camera to it;
- ``not_occluded``: always "not occluded";
- ``larger_area``: a lone target that looks large (its visible area at least the task's median)
  is not occluded, a small one partly; of two objects, the larger-looking hides part of the
  other;
- ``nearer_hides``: of two objects, the one nearer the camera after the change hides part of the
  other, the farther one none of it;
- ``move_heading``: after a move, the target lies the way it was moved from the reference (the
  other way when the reference was moved);
- ``none_of_these``: always "none of these";
- ``closest_option``: the offered object nearest the camera;
- ``option_order``: the options whose removal leaves the others in their natural order (the
  ring clockwise, the bins ascending, the states as the prompt lists them): the right one, were
  the wrong ones listed in that order and the right one put in at a drawn place (version 1:
  about three answers in four). The build lists all options in the natural order, so this
  reads every option (chance).

A guess is a tuple of labels, tied: a direction that is not offered is read as the offered ones
nearest to it. A reply takes the first of them in the options' order (the order the build
lists them in, which it holds each shortcut's replies to chance with); an empty guess, the
first option.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Scene
from spatialbabel.geometry.bounds import cached_world_aabb
from spatialbabel.geometry.directions import (
    CARDINALS,
    SECTORS,
    bearing,
    camera_forward,
    forward_of_sector,
    ground,
    sector_of_bearing,
    unit,
)
from spatialbabel.geometry.occlusion import OCCLUSION_STATES, ViewCaster
from spatialbabel.geometry.transforms import component, move, orbit, remove, turn_layout
from suites.base import Item, Reply, Shortcut
from suites.choices import letter
from suites.spacecast import text
from suites.spacecast.labels import DISTANCE_BINS, DISTANCE_EDGES
from suites.spacecast.tasks import TASKS

#: Pixel stride of the casts that measure visible areas for ``larger_area``.
AREA_STRIDE: Final = 4

Guess = tuple[str, ...]

#: The battery, in table order: name and what the test-taker does.
SHORTCUTS: Final = {
    "majority_label": "per task, the option most often right over the task",
    "persistence": "the answer for the scene before the change (what the views show)",
    "last_view": "read from the last view alone, its camera standing in for the unseen object",
    "first_view": "read from the first view alone, its camera standing in for the unseen object",
    "not_occluded": "always 'not occluded'",
    "larger_area": "a large-looking target is not occluded; the larger-looking object hides part "
    "of the other",
    "nearer_hides": "of two objects, the nearer after the change hides part of the other",
    "move_heading": "the target lies the way it was moved (the reference: the other way)",
    "none_of_these": "always 'none of these'",
    "closest_option": "the offered object nearest the camera",
    "option_order": "the option out of the natural order of the others",
}


class Truth:
    """One scene before any change, with the cameras its items' views were taken from."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.cameras = {camera.name: camera for camera in scene.cameras}
        self._caster: ViewCaster | None = None
        self._areas: dict[tuple[str, str], int] = {}

    def views(self, item: Item) -> list[Camera]:
        return [self.cameras[name] for name in item.facts["views"]]

    def eye(self, item: Item, view: int) -> NDArray[np.float64]:
        return np.asarray(self.views(item)[view].pose[:3, 3], dtype=float)

    def north(self, item: Item) -> NDArray[np.float64]:
        return camera_forward(self.views(item)[0])

    def area(self, camera: str, object_id: str) -> int:
        """Visible pixels of an object in a view, by ray casts at ``AREA_STRIDE``."""
        key = (camera, object_id)
        if key not in self._areas:
            if self._caster is None:
                self._caster = ViewCaster(tuple(self.cameras.values()))
            index = [o.id for o in self.scene.objects].index(object_id)
            count = self._caster.count(
                self.scene.objects, index, self._caster.index[camera], AREA_STRIDE
            )
            self._areas[key] = count.visible * count.stride**2
        return self._areas[key]

    def after(self, item: Item) -> Scene:
        """The scene after the item's stated change."""
        change = item.facts.get("change") or {}
        kind = change.get("kind")
        if kind == "move":
            k = CARDINALS.index(change["toward"])
            dx, dz = forward_of_sector(k, self.north(item)) * change["distance"]
            return move(self.scene, change["object"], float(dx), float(dz))
        if kind == "orbit":
            x, _, z = self.scene.get_object(change["pivot"]).position
            return orbit(self.scene, change["object"], (x, z), change["degrees_ccw"])
        if kind == "remove":
            return remove(self.scene, change["object"])
        if kind == "turn":
            return turn_layout(self.scene, change["degrees_ccw"])
        return self.scene


def label_of(item: Item) -> str:
    """The right label: the right option's text, or an attachment item's answer letters."""
    if TASKS[item.task].relation == "attachment":
        return "".join(sorted(item.answer))
    return item.options["ABCDEFGH".index(item.answer)]


def choice(item: Item, guess: Guess) -> str:
    """The reply a guess gives: the first of its tied labels in the options' order (an
    attachment item: the first answer set); an empty guess, the first option."""
    if TASKS[item.task].relation == "attachment":
        return min(guess) if guess else "A"
    return next((letter(i) for i, o in enumerate(item.options) if o in guess), "A")


def hit(item: Item, guess: Guess) -> float:
    """Whether the reply of ``guess`` is right on ``item``."""
    return float("".join(sorted(choice(item, guess))) == "".join(sorted(item.answer)))


def offered(item: Item, label: str | None) -> Guess:
    """``label`` if offered; a direction that is not, the offered ones nearest to it."""
    if label is None:
        return ()
    if label in item.options:
        return (label,)
    ring = CARDINALS if label in CARDINALS else SECTORS if label in SECTORS else None
    if ring is None:
        return ()
    k = ring.index(label)
    gaps = {
        o: min((ring.index(o) - k) % 8, (k - ring.index(o)) % 8) for o in item.options if o in ring
    }
    if not gaps:
        return ()
    least = min(gaps.values())
    return tuple(o for o, gap in gaps.items() if gap == least)


def _forward(item: Item, truth: Truth) -> NDArray[np.float64]:
    """The direction item's frame, in the scene before the change."""
    views = truth.views(item)
    frame = item.group["frame"]
    if frame == "camera":
        return camera_forward(views[-1])
    north = camera_forward(views[0])
    if frame == "world":
        return north
    facing = item.facts["facing"]
    if "cardinal" in facing:
        return forward_of_sector(facing["cardinal"], north)
    reference = truth.scene.get_object(item.facts["roles"]["reference"])
    toward = truth.scene.get_object(facing["object"])
    return unit(ground(toward.position) - ground(reference.position))


def _direction_word(item: Item, offset: NDArray[np.float64], forward: NDArray[np.float64]) -> str:
    index, _ = sector_of_bearing(bearing(offset, forward))
    return (CARDINALS if item.group["frame"] == "world" else SECTORS)[index]


def _shown_by(item: Item, view: int) -> list[str]:
    """The queried objects the first (0) or last (-1) view shows (anchor A shows the first
    group, anchor B the second; items without the record show the reference group first)."""
    anchors = item.facts.get("anchors")
    if anchors is not None:
        return list(anchors["first" if view == 0 else "last"])
    roles = item.facts["roles"]
    first = [roles[k] for k in ("reference", "facing", "first") if k in roles]
    second = [roles[k] for k in ("target", "second") if k in roles]
    return first if view == 0 else second


def _one_view(view: int) -> Callable[[Item, Truth], Guess]:
    """The answer read from one view alone: its camera stands in for the queried object it
    does not show."""

    def guess(item: Item, truth: Truth) -> Guess:
        roles = item.facts["roles"]
        eye = ground(truth.eye(item, view))
        shown = _shown_by(item, view)
        if item.group["relation"] == "direction":
            target, reference = roles["target"], roles["reference"]
            at = {k: ground(truth.scene.get_object(k).position) for k in (target, reference)}
            offset = at[target] - eye if target in shown else eye - at[reference]
            if float(np.linalg.norm(offset)) < 1e-9:
                return ()
            return offered(item, _direction_word(item, offset, _forward(item, truth)))
        seen = next(o for o in (roles["first"], roles["second"]) if o in shown)
        low, high = cached_world_aabb(truth.scene.get_object(seen))
        point = truth.eye(item, view)
        gap = float(np.linalg.norm(np.maximum(np.maximum(low - point, point - high), 0.0)))
        return offered(item, DISTANCE_BINS[sum(gap > edge for edge in DISTANCE_EDGES)])

    return guess


def _nearer_hides(item: Item, truth: Truth) -> Guess:
    roles = item.facts["roles"]
    after = truth.after(item)
    eye = truth.eye(item, 0)
    near = [
        float(np.linalg.norm(np.asarray(after.get_object(roles[k]).position) - eye))
        for k in ("occluder", "target")
    ]
    return offered(item, "partly occluded" if near[0] < near[1] else "not occluded")


def _move_heading(item: Item, truth: Truth) -> Guess:
    change = item.facts["change"]
    roles = item.facts["roles"]
    moving = component(truth.scene, change["object"])
    way = forward_of_sector(CARDINALS.index(change["toward"]), truth.north(item))
    if roles["reference"] in moving and roles["target"] not in moving:
        way = -way
    return offered(item, _direction_word(item, way, _forward(item, truth)))


def _closest_option(item: Item, truth: Truth) -> Guess:
    eye = truth.eye(item, 0)
    names = {text.name(o): o for o in truth.scene.objects}
    offered = [
        (float(np.linalg.norm(np.asarray(names[o].position) - eye)), i)
        for i, o in enumerate(item.options)
        if o in names
    ]
    return (letter(min(offered)[1]),) if offered else ()


def _natural(item: Item) -> list[str] | None:
    relation = item.group["relation"]
    if relation == "direction":
        return list(CARDINALS if item.group.get("frame") == "world" else SECTORS)
    if relation == "distance":
        return list(DISTANCE_BINS)
    if relation == "occlusion":
        return list(OCCLUSION_STATES)
    return None


def option_order(item: Item) -> Guess:
    """The options whose removal leaves the others in their natural order (for directions,
    clockwise from any of them)."""
    natural = _natural(item)
    if natural is None or any(o not in natural for o in item.options):
        return ()
    cyclic = item.group["relation"] == "direction"
    found = []
    for k, option in enumerate(item.options):
        rest = [natural.index(o) for i, o in enumerate(item.options) if i != k]
        if cyclic:
            rest = [(r - rest[0]) % len(natural) for r in rest]
        if rest == sorted(rest):
            found.append(option)
    return tuple(found)


def item_guesses(item: Item, truth: Truth) -> dict[str, Guess]:
    """The guess of every shortcut that answers ``item`` alone (all but ``majority_label`` and
    ``larger_area``, which read the whole task)."""
    relation = item.group["relation"]
    roles = item.facts["roles"]
    found: dict[str, Guess] = {}
    if item.group["level"] != "static" and relation != "attachment":
        found["persistence"] = offered(item, item.facts.get("before"))
    if relation in ("direction", "distance"):
        found["last_view"] = _one_view(-1)(item, truth)
        found["first_view"] = _one_view(0)(item, truth)
    if relation == "occlusion":
        found["not_occluded"] = offered(item, "not occluded")
        if "occluder" in roles:
            found["nearer_hides"] = _nearer_hides(item, truth)
    if relation == "direction" and (item.facts.get("change") or {}).get("kind") == "move":
        found["move_heading"] = _move_heading(item, truth)
    if relation == "attachment":
        found["none_of_these"] = ("D",)
        found["closest_option"] = _closest_option(item, truth)
    return found


def majority_guesses(items: Sequence[Item]) -> dict[str, Guess]:
    """Per item, the offered labels most often right over its task (an attachment item: the
    answer sets most often right)."""
    right: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        right[item.task][label_of(item)] += 1
    found: dict[str, Guess] = {}
    for item in items:
        counts = right[item.task]
        if TASKS[item.task].relation == "attachment":
            offered: Sequence[str] = list(counts)
        else:
            offered = item.options
        most = max(counts[o] for o in offered)
        found[item.item_id] = tuple(o for o in offered if counts[o] == most)
    return found


def area_guesses(items: Sequence[Item], truths: Mapping[str, Truth]) -> dict[str, Guess]:
    """``larger_area`` on the occlusion items: two objects compared, or a lone target against
    the median visible area of its task's targets."""
    found: dict[str, Guess] = {}
    lone: dict[str, list[tuple[Item, int]]] = defaultdict(list)
    for item in items:
        if item.group["relation"] != "occlusion":
            continue
        truth, roles = truths[item.scene_id], item.facts["roles"]
        camera = item.facts["views"][0]
        target = truth.area(camera, roles["target"])
        if "occluder" in roles:
            bigger = truth.area(camera, roles["occluder"]) > target
            found[item.item_id] = offered(item, "partly occluded" if bigger else "not occluded")
        else:
            lone[item.task].append((item, target))
    for entries in lone.values():
        middle = float(np.median([area for _, area in entries]))
        for item, area in entries:
            word = "not occluded" if area >= middle else "partly occluded"
            found[item.item_id] = offered(item, word)
    return found


def all_guesses(items: Sequence[Item], truths: Mapping[str, Truth]) -> dict[str, dict[str, Guess]]:
    """Every shortcut's guess on every item it answers, by shortcut name then item id."""
    found: dict[str, dict[str, Guess]] = {name: {} for name in SHORTCUTS}
    found["majority_label"] = majority_guesses(items)
    found["larger_area"] = area_guesses(items, truths)
    # Read from the options' order alone (the build draws that order after it chooses).
    found["option_order"] = {
        item.item_id: option_order(item) for item in items if _natural(item) is not None
    }
    for item in items:
        for name, guess in item_guesses(item, truths[item.scene_id]).items():
            found[name][item.item_id] = guess
    return found


def _reply(item: Item, guess: Guess) -> Reply:
    return Reply(item.item_id, "", "", output=f"Answer: {', '.join(choice(item, guess))}")


def battery(items: Sequence[Item], scenes: Mapping[str, Scene]) -> list[Shortcut]:
    """Every shortcut, on the tasks (present in ``items``) it answers. ``scenes``: the truth
    each item's scene was built from, with its views' cameras, by scene id."""
    truths = {scene_id: Truth(scene) for scene_id, scene in scenes.items()}
    by_id = {item.item_id: item for item in items}
    shortcuts = []
    for name, guesses in all_guesses(items, truths).items():
        if not guesses:
            continue
        tasks = tuple(dict.fromkeys(by_id[i].task for i in guesses))
        replies = {i: _reply(by_id[i], guess) for i, guess in guesses.items()}
        shortcuts.append(Shortcut(name, SHORTCUTS[name], tasks, replies))
    return shortcuts


__all__ = [
    "AREA_STRIDE",
    "SHORTCUTS",
    "Guess",
    "Truth",
    "all_guesses",
    "area_guesses",
    "battery",
    "choice",
    "hit",
    "item_guesses",
    "label_of",
    "majority_guesses",
    "offered",
    "option_order",
]
