"""SpaceCast's analysis conditions (the paper's ablations, section 9 of the spec), each made
from the exact ground truth the build saved beside the items:

- ``bev``: the item's views and, last, a bird's-eye view of the scene before the change,
  rendered by the build's own view renderer from a camera straight above the floor's centre
  (``--spacecast-bev``);
- ``text``: no image; the scene before the change as 3D data (every object's name, centre
  and bounding box, and the camera of every view the question names) in the text;
- ``nobridge``: a cross-view chain without its bridge views (the two anchors only), on the
  items that have a chain.

A variant is a prompt mode and an optional condition, ``<mode>[+<condition>]``. The item's
question is reworded only where the condition changes what it refers to: its first line (what
the images are) is rewritten, and the images it names are renumbered.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from spatialbabel import Camera, Scene
from spatialbabel.geometry.bounds import world_aabb
from suites.base import Item, SuiteError
from suites.spacecast import text
from suites.spacecast.tasks import TASKS

MODES: Final = ("cot", "direct")
CONDITIONS: Final = ("bev", "text", "nobridge")
VARIANTS: Final = (*MODES, *(f"{mode}+{c}" for c in CONDITIONS for mode in MODES))

BEV_CAMERA: Final = "bev"
#: The bird's-eye camera: straight above the floor's centre, high enough that the whole 6 m
#: floor and objects up to 2 m tall at its edge stay in frame (half the view spans 4.4 m at
#: the floor), the picture's top towards -z (heading 0 of the candidate cameras).
BEV_HEIGHT_M: Final = 12.0
BEV_FOV_DEG: Final = 40.0

#: The paper's share of L2 and L3 questions whose relation the change alters (2,217 of 2,494).
PAPER_CHANGED: Final = (2217, 2494)

_BEFORE: Final = " The images show the scene before this change."


def split_variant(variant: str) -> tuple[str, str | None]:
    """``(mode, condition)`` of a variant; a ValueError names an unknown one."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; spacecast has {', '.join(VARIANTS)}")
    mode, _, condition = variant.partition("+")
    return mode, condition or None


def bev_camera(resolution: int) -> Camera:
    return Camera.looking_at(
        BEV_CAMERA,
        (0.0, BEV_HEIGHT_M, 0.0),
        (0.0, 0.0, 0.0),
        width=resolution,
        height=resolution,
        fov_y_deg=BEV_FOV_DEG,
        up=(0.0, 0.0, -1.0),
    )


def bev_input(scene_id: str) -> str:
    """The bird's-eye view of a scene, relative to the items folder."""
    return f"views/{scene_id}/{BEV_CAMERA}.png"


def has_chain(item: Item) -> bool:
    """Whether the item shows a cross-view chain with bridge views between its anchors."""
    return not TASKS[item.task].single_view and len(item.inputs) > 2


def applies(item: Item, condition: str | None) -> bool:
    """Whether ``condition`` changes what ``item`` shows (removing bridges needs a chain)."""
    return condition != "nobridge" or has_chain(item)


def _lines(item: Item) -> tuple[str, str]:
    """The question's first line (what the images are) and the rest, checked against the
    wording the build gave it."""
    first, _, rest = item.question.partition("\n")
    expected = text.views_text(len(item.inputs), not TASKS[item.task].single_view)
    if first != expected:
        raise SuiteError(
            f"item {item.item_id}: its question does not open with the wording of its "
            f"{len(item.inputs)} views ({expected!r}); rebuild the items"
        )
    return first, rest


def _point(values: Iterable[float]) -> str:
    return "(" + ", ".join(f"{v:.2f}" for v in values) + ")"


def metadata_text(scene: Scene, cameras: Sequence[Camera]) -> str:
    """The scene before the change as 3D data: every object's centre and exact bounding box,
    and the cameras of the images the question names, in order."""
    lines = [
        "No images are shown: the scene is given as 3D data instead. It is a scene of simple "
        "objects standing on a square floor, 6 m by 6 m. Coordinates are in metres: the floor "
        "spans x and z from -3 to 3, and y is the height above it.",
        "Objects (centre; bounding box from its lowest to its highest x, y, z):",
    ]
    for obj in scene.objects:
        low, high = world_aabb(obj)
        lines.append(
            f"- {text.name(obj)}: centre {_point(obj.position)}; box {_point(low)} to "
            f"{_point(high)}"
        )
    lines.append(
        "Cameras of the images the question names (the images are not shown; each camera "
        "takes a square picture with the given vertical field of view):"
    )
    for k, camera in enumerate(cameras, start=1):
        pose = camera.pose
        lines.append(
            f"- image {k}: camera at {_point(pose[:3, 3])}, looking along "
            f"{_point(-pose[:3, 2])}, field of view {camera.fov_y_deg:g} degrees"
        )
    return "\n".join(lines)


def _renumbered(item: Item, rest: str, last: int) -> str:
    """The question after its first line with the last view renamed image 2."""
    renamed = re.sub(rf"\bimage {last}\b", "image 2", rest)
    left = {int(n) for n in re.findall(r"\bimages? (\d+)\b", renamed)} - {1, 2}
    if left:
        raise SuiteError(f"item {item.item_id}: its question names bridge images {sorted(left)}")
    return renamed


def condition_prompt(
    item: Item, condition: str | None, truth: Scene | None
) -> tuple[str, tuple[str, ...] | None]:
    """The question and the inputs of ``item`` under ``condition`` (None inputs: the item's
    own). ``truth`` is the saved scene of the item's views (``views/<scene>.json``), which the
    text condition describes."""
    if condition is None or not applies(item, condition):
        return item.question, None
    first, rest = _lines(item)
    if condition == "bev":
        count = len(item.inputs) + 1
        note = (
            f"Image {count} is a bird's-eye view: the same scene before any change, seen from "
            "straight above (the cameras are not in it)."
        )
        return f"{first} {note}\n{rest}", (*item.inputs, bev_input(item.scene_id))
    if condition == "nobridge":
        inputs = (item.inputs[0], item.inputs[-1])
        return (
            f"{text.views_text(2, True)}\n{_renumbered(item, rest, len(item.inputs))}",
            inputs,
        )
    if truth is None:
        raise SuiteError(f"item {item.item_id}: the text condition needs the scene's truth")
    by_name = {camera.name: camera for camera in truth.cameras}
    try:
        cameras = [by_name[name] for name in item.facts["views"]]
    except KeyError as error:
        raise SuiteError(
            f"item {item.item_id}: camera {error.args[0]!r} is not in the saved truth of "
            f"{item.scene_id}"
        ) from None
    described = rest.replace(_BEFORE, " The data above describe the scene before this change.")
    return f"{metadata_text(truth, cameras)}\n{described}", ()


def changed_shares(items: Sequence[Item]) -> dict[str, tuple[int, int]]:
    """Per task with a change, (items whose relation the change alters, items)."""
    changed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for item in items:
        if TASKS[item.task].change == "none":
            continue
        total[item.task] += 1
        changed[item.task] += bool(item.facts.get("changed"))
    return {task: (changed[task], total[task]) for task in TASKS if total[task]}


def changed_share_table(items: Sequence[Item]) -> str:
    """The changed share per task and over the local and global items, beside the paper's."""
    shares = changed_shares(items)
    if not shares:
        return ""
    done, asked = PAPER_CHANGED
    lines = [
        "Changed share per task (items whose relation the change alters; the paper: "
        f"{done:,} of {asked:,} local and global questions, {100 * done / asked:.1f} %):",
        "",
        "| task | changed | items | share % |",
        "|---|---|---|---|",
    ]
    for task, (k, n) in shares.items():
        lines.append(f"| {task} | {k} | {n} | {100 * k / n:.1f} |")
    k = sum(v[0] for v in shares.values())
    n = sum(v[1] for v in shares.values())
    lines.append(f"| local and global | {k} | {n} | {100 * k / n:.1f} |")
    lines.append(f"| paper | {done} | {asked} | {100 * done / asked:.1f} |")
    return "\n".join(lines) + "\n"


__all__ = [
    "BEV_CAMERA",
    "CONDITIONS",
    "MODES",
    "PAPER_CHANGED",
    "VARIANTS",
    "applies",
    "bev_camera",
    "bev_input",
    "changed_share_table",
    "changed_shares",
    "condition_prompt",
    "has_chain",
    "metadata_text",
    "split_variant",
]
