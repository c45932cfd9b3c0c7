"""From a draft to an ``Item``: the options in place, the question in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spatialbabel import Scene
from spatialbabel.geometry.directions import CARDINALS, SECTORS
from spatialbabel.geometry.occlusion import OCCLUSION_STATES
from suites.base import Item
from suites.choices import letter, place
from suites.spacecast import text
from suites.spacecast.build import Draft
from suites.spacecast.labels import DISTANCE_BINS


def _change_text(draft: Draft, scene: Scene) -> str:
    info = draft.change
    kind = info.get("kind")
    if not kind:
        return ""
    if kind == "turn":
        return (
            f"Change: the whole layout of objects turns {abs(info['degrees_ccw']):g} degrees "
            f"{text.sense(info['degrees_ccw'])} (seen from above) about the centre of the floor, "
            "as one rigid piece; the cameras stay where they are."
        )
    mover = text.name(scene.get_object(info["object"]))
    riders = " with everything resting on it" if info.get("with") else ""
    if kind == "remove":
        return (
            f"Change: {mover} is taken away{',' + riders if riders else ''}; nothing else changes."
        )
    if kind == "move":
        return (
            f"Change: {mover}{',' + riders + ',' if riders else ''} is moved {info['distance']:g} m "
            f"to the {info['toward']} along the floor; nothing else moves."
        )
    pivot = text.name(scene.get_object(info["pivot"]))
    return (
        f"Change: {mover}{',' + riders + ',' if riders else ''} is carried "
        f"{abs(info['degrees_ccw']):g} degrees {text.sense(info['degrees_ccw'])} (seen from "
        f"above) around the centre of {pivot}, along a circle on the floor, keeping the way it "
        "faces; nothing else moves."
    )


def _question(draft: Draft, scene: Scene) -> tuple[str, list[str]]:
    """The question sentence and the definitions it needs."""
    task = draft.task
    after = "After the change, " if task.change != "none" else ""
    roles = {k: text.name(scene.get_object(v)) for k, v in draft.roles.items() if k != "options"}
    if task.relation == "direction":
        words = [text.DIRECTION_WORDS]
        last = len(draft.views)
        if draft.frame == "camera":
            frame = f"from the viewpoint of the camera of image {last}"
            words.append(text.CAMERA_FRONT)
        elif draft.frame == "world":
            frame = "in compass directions"
            words = [
                text.DIRECTION_WORDS.replace(
                    "front, front-right, right, back-right, back, back-left, left, front-left",
                    "north, north-east, east, south-east, south, south-west, west, north-west",
                ),
                text.COMPASS_WORDS,
            ]
        elif "object" in draft.facing:
            frame = (
                f"for someone standing at the centre of {roles['reference']} and facing the "
                f"centre of {roles['facing']} (front is that way)"
            )
        else:
            frame = (
                f"for someone standing at the centre of {roles['reference']} and facing "
                f"{CARDINALS[draft.facing['cardinal']]} (front is that way)"
            )
            words.append(text.COMPASS_WORDS)
        if draft.change.get("kind") == "move":
            words.append(text.COMPASS_WORDS)
        return (
            f"{after}where is {roles['target']} relative to {roles['reference']}, {frame}?",
            list(dict.fromkeys(words)),
        )
    if task.relation == "distance":
        words = [text.DISTANCE_WORDS]
        if draft.change.get("kind") == "move":
            words.append(text.COMPASS_WORDS)
        return f"{after}how far apart are {roles['first']} and {roles['second']}?", words
    if task.relation == "occlusion":
        if "occluder" in roles:
            words = [text.PAIR_OCCLUSION_WORDS]
            if draft.change.get("kind") == "move":
                words.append(text.COMPASS_WORDS)
            return (
                f"{after}from the camera of image 1, does {roles['occluder']} occlude "
                f"{roles['target']}? Considering these two objects alone, is {roles['target']} "
                f"not occluded, partly occluded, or not visible behind {roles['occluder']}?",
                words,
            )
        return (
            f"{after}from the camera of image 1, is {roles['target']} not occluded, partly "
            "occluded, or not visible?",
            [text.OCCLUSION_WORDS],
        )
    return (
        f"If {roles['root']} is picked up and moved, which of these objects move with it? "
        "Select every one that does.",
        [text.ATTACHMENT_WORDS],
    )


def natural_order(draft: Draft) -> tuple[str, ...] | None:
    """The order a single-choice draft's options are listed in: the ring clockwise from front
    (or north), the bins ascending, the states as the prompt defines them; None for attachment
    (its objects come in a drawn order, "none of these" last)."""
    relation = draft.task.relation
    if relation == "direction":
        return CARDINALS if draft.frame == "world" else SECTORS
    if relation == "distance":
        return DISTANCE_BINS
    if relation == "occlusion":
        return OCCLUSION_STATES
    return None


def word(draft: Draft, scene: Scene, inputs: Sequence[str]) -> Item:
    """The item of ``draft``. A single-choice item lists its options in their natural order
    (``natural_order``), so their order tells nothing the labels do not: had the wrong ones
    come in a fixed order with the right one put in at a drawn place, it would be the one out
    of order; had all come in a drawn order, reading it would be one more guess. The answers'
    positions are then as even as the labels, which the split's selection holds even."""
    task = draft.task
    if task.relation == "attachment":
        options = tuple(
            [text.name(scene.get_object(o)) for o in draft.options_fixed] + [text.NONE_OPTION]
        )
        chosen = [i for i, o in enumerate(draft.options_fixed) if o in draft.answer_set]
        answer = "".join(letter(i) for i in chosen) or letter(3)
    else:
        natural = natural_order(draft)
        assert natural is not None
        listed = sorted([draft.label, *draft.wrong], key=natural.index)
        position = listed.index(draft.label)
        options, answer = place(draft.label, [o for o in listed if o != draft.label], position)
    question, words = _question(draft, scene)
    change = _change_text(draft, scene)
    parts = [text.views_text(len(draft.views), not task.single_view)]
    if change:
        parts.append(change + " The images show the scene before this change.")
    parts += words
    parts.append(question[0].upper() + question[1:])
    facts: dict[str, Any] = {
        "roles": draft.roles,
        "views": [c.name for c in draft.views],
        "label": draft.label,
        **draft.facts,
    }
    if draft.change:
        facts["change"] = draft.change
        facts["before"] = draft.before
        facts["changed"] = draft.changed
    if draft.facing:
        facts["facing"] = draft.facing
    group: dict[str, str] = {"level": task.level, "relation": task.relation}
    if draft.frame is not None:
        group["frame"] = draft.frame
    if task.change != "none":
        group["change"] = task.change
    roles = "-".join(v.replace(",", "+") for v in draft.roles.values())
    return Item(
        suite="spacecast",
        item_id=f"{draft.scene_id}-{task.name}-{roles}",
        scene_id=draft.scene_id,
        task=task.name,
        question="\n".join(parts),
        answer=answer,
        inputs=tuple(inputs),
        options=options,
        group=group,
        facts=facts,
    )


__all__ = ["natural_order", "word"]
