"""ProVisE's shortcut battery: what a test-taker could answer, in words or by drawing, without
the skill a task claims to measure (docs/provise.md, "The shortcut battery").

Text shortcuts answer in the task's text contract from what the item prints or what the image
shows at a glance (which marked point is lower, which option looks larger or nearer, the
task's most common label). Drawn shortcuts are images: the unchanged input, a straight red line
from S to G, a vertical brightness ramp as a depth map, overlays on objects the question does
not name. They are written as PNGs to a scratch folder the suite keeps for as long as it lives
(``ProViseSuite.shortcuts``) and graded by the visual protocols like any drawn answer.

Everything a shortcut reads is in the items folder: the items' facts (the marked points, each
option's visible pixels and distance from the camera), their input images and their truth maps.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from suites.base import Item, Reply, Shortcut
from suites.choices import letter
from suites.provise import TASKS

#: Tasks with a closed answer space, where the most common label is a shortcut.
LABEL_TASKS: Final = ("counting", "depth", "size", "relationship", "multihop", "feasibility")
#: What splits a task's items into kinds a test-taker can tell from the question alone.
KINDS: Final[dict[str, Callable[[Item], str]]] = {
    "counting": lambda item: str(item.facts["by"]),
    "relationship": lambda item: str(item.facts["relation"]),
    "feasibility": lambda item: str(item.facts["kind"]),
}
#: Overlay opacity of the drawn shortcuts (the guidance's "about 60%").
OPACITY: Final = 0.6


def _text(item: Item, answer: object) -> Reply:
    return Reply(item.item_id, "", "", output=f"Answer: {answer}")


def _drawn(item: Item, path: Path) -> Reply:
    return Reply(item.item_id, "", "", image=path)


def _of(items: Sequence[Item], tasks: Sequence[str]) -> list[Item]:
    return [item for item in items if item.task in tasks]


def _most_common(labels: Sequence[object]) -> object:
    """The most common label, ties to the one that sorts first (deterministic)."""
    counts = Counter(str(label) for label in labels)
    best = max(counts.values())
    return min(label for label, n in counts.items() if n == best)


def majority_label(items: Sequence[Item]) -> Shortcut:
    by_task: dict[str, list[Item]] = defaultdict(list)
    for item in _of(items, LABEL_TASKS):
        by_task[item.task].append(item)
    answers = {}
    for group in by_task.values():
        label = _most_common([item.answer for item in group])
        answers.update({item.item_id: _text(item, label) for item in group})
    return Shortcut(
        "majority_label",
        "each task's most common answer in the build",
        LABEL_TASKS,
        answers,
    )


def majority_by_kind(items: Sequence[Item]) -> Shortcut:
    groups: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in _of(items, tuple(KINDS)):
        groups[(item.task, KINDS[item.task](item))].append(item)
    answers = {}
    for group in groups.values():
        label = _most_common([item.answer for item in group])
        answers.update({item.item_id: _text(item, label) for item in group})
    return Shortcut(
        "majority_by_kind",
        "the most common answer among items of the same kind, told from the question alone "
        "(counting by class or by colour, the relation word, a torus hole or a gap)",
        tuple(KINDS),
        answers,
    )


def lower_choice(points: Mapping[str, Sequence[float]]) -> str:
    """Of the marked points A and B, the one lower in the image (ties: A)."""
    return "B" if points["B"][1] > points["A"][1] else "A"


def largest_choice(areas: Sequence[float]) -> str:
    """The option whose object covers the most pixels (ties: the first)."""
    return letter(int(np.argmax(np.asarray(areas, float))))


def closest_choice(distances: Sequence[float]) -> str:
    """The option whose object is nearest the camera (ties: the first)."""
    return letter(int(np.argmin(np.asarray(distances, float))))


def lower_point(items: Sequence[Item]) -> Shortcut:
    answers = {}
    for item in _of(items, ("depth",)):
        answers[item.item_id] = _text(item, lower_choice(item.facts["points"]))
    return Shortcut(
        "lower_point", "the marked point lower in the image is closer", ("depth",), answers
    )


def larger_area(items: Sequence[Item]) -> Shortcut:
    tasks = ("depth", "size", "multihop")
    answers = {
        item.item_id: _text(item, largest_choice(item.facts["areas"])) for item in _of(items, tasks)
    }
    return Shortcut(
        "larger_area",
        "the option (or marked point) on the object that covers the most pixels",
        tasks,
        answers,
    )


def closest_option(items: Sequence[Item]) -> Shortcut:
    tasks = ("size", "multihop")
    answers = {
        item.item_id: _text(item, closest_choice(item.facts["distances"]))
        for item in _of(items, tasks)
    }
    return Shortcut(
        "closest_option", "the option whose object is nearest the camera", tasks, answers
    )


def straight_line_text(items: Sequence[Item]) -> Shortcut:
    answers = {}
    for item in _of(items, ("trajectory",)):
        (sx, sy), (gx, gy) = item.facts["points"]["S"], item.facts["points"]["G"]
        answers[item.item_id] = _text(item, f"[({sx:.4f}, {sy:.4f}), ({gx:.4f}, {gy:.4f})]")
    return Shortcut(
        "straight_line_text",
        "the straight line from S to G, written from the coordinates the question prints",
        ("trajectory",),
        answers,
    )


class Drawer:
    """Draws the image shortcuts of an items folder into a scratch folder."""

    def __init__(self, folder: Path, scratch: Path) -> None:
        self.folder = folder
        self.scratch = scratch

    def input(self, item: Item) -> Path:
        return self.folder / item.inputs[0]

    def source(self, item: Item) -> Any:
        from suites.provise import pixels

        return pixels.read_image(self.input(item))

    def truth(self, item: Item) -> Any:
        from suites.provise import pixels

        return pixels.read_labels(self.folder / item.facts["truth"])

    def write(self, item: Item, shortcut: str, image: Any) -> Path:
        from suites.provise import pixels

        path = self.scratch / shortcut / f"{item.item_id}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pixels.encode_png(image))
        return path

    def unchanged_input(self, items: Sequence[Item]) -> Shortcut:
        answers = {item.item_id: _drawn(item, self.input(item)) for item in _of(items, TASKS)}
        return Shortcut(
            "unchanged_input",
            "the input image handed back untouched, as the drawn answer",
            TASKS,
            answers,
        )

    def straight_line(self, items: Sequence[Item]) -> Shortcut:
        from suites.provise import pixels

        answers = {}
        for item in _of(items, ("trajectory",)):
            image = self.source(item)
            height, width = image.shape[:2]
            ends = np.array([item.facts["points"]["S"], item.facts["points"]["G"]], float)
            thickness = max(1, round(3 * width / 512))
            pixels.polyline(image, ends * np.array([width, height]), (0, 0, 255), thickness)
            answers[item.item_id] = _drawn(item, self.write(item, "straight_line", image))
        return Shortcut(
            "straight_line",
            "a red line drawn straight from S to G",
            ("trajectory",),
            answers,
        )

    def vertical_gradient(self, items: Sequence[Item]) -> Shortcut:
        answers = {}
        for item in _of(items, ("depth",)):
            height, width = self.source(item).shape[:2]
            ramp = np.rint(40.0 + 215.0 * (np.arange(height) + 0.5) / height).astype(np.uint8)
            image = np.repeat(np.repeat(ramp[:, None, None], width, axis=1), 3, axis=2)
            answers[item.item_id] = _drawn(item, self.write(item, "vertical_gradient", image))
        return Shortcut(
            "vertical_gradient",
            "a depth map that only brightens toward the bottom of the image (lower is closer)",
            ("depth",),
            answers,
        )

    def unnamed_overlays(self, items: Sequence[Item]) -> Shortcut:
        """Green and blue overlays on the two largest objects the question does not name (the
        named ones, roles swapped, where fewer than two others show)."""
        from suites.provise import pixels
        from suites.provise.build import BLUE_LABELS, GREEN_LABEL, OTHER_LABEL

        answers = {}
        for item in _of(items, ("relationship", "feasibility")):
            image = self.source(item)
            truth = self.truth(item)
            counts = np.bincount(truth.ravel(), minlength=256)
            others = sorted(
                (label for label in range(OTHER_LABEL, 256) if counts[label]),
                key=lambda label: (-counts[label], label),
            )
            chosen = [*others, *BLUE_LABELS[:1], GREEN_LABEL][:2]
            for label, colour in zip(chosen, ((0, 255, 0), (255, 0, 0)), strict=True):
                pixels.blend(image, truth == label, colour, OPACITY)
            answers[item.item_id] = _drawn(item, self.write(item, "unnamed_overlays", image))
        return Shortcut(
            "unnamed_overlays",
            "the green and blue overlays of 'true' painted on objects the question does not name",
            ("relationship", "feasibility"),
            answers,
        )


def battery(items: Sequence[Item], folder: Path, scratch: Path) -> list[Shortcut]:
    """Every shortcut of the battery over ``items`` (a prepared items folder); drawn answers go
    to ``scratch``."""
    drawer = Drawer(folder, scratch)
    makers: list[Callable[[Sequence[Item]], Shortcut]] = [
        majority_label,
        majority_by_kind,
        lower_point,
        larger_area,
        closest_option,
        straight_line_text,
        drawer.unchanged_input,
        drawer.straight_line,
        drawer.vertical_gradient,
        drawer.unnamed_overlays,
    ]
    found = [make(items) for make in makers]
    return [shortcut for shortcut in found if shortcut.answers]


__all__ = ["LABEL_TASKS", "Drawer", "battery", "closest_choice", "largest_choice", "lower_choice"]
