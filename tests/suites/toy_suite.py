"""A toy suite that exercises the shared suite machinery without any real suite's geometry:
per scene, "how many objects?" (4 options) and "which colours appear?" (multi-select)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spatialbabel import PALETTE_NAMES, Scene
from spatialbabel.files import split_paths
from suites import SUITES
from suites.base import Aggregation, Grade, Item, PromptText, Reply, Suite
from suites.choices import balanced_positions, grade_choice, letter, options_block, place
from suites.options import check_options, option


@dataclass(frozen=True)
class ToyOptions:
    views: int = option(1, help="views per item (a flag for the shared machinery to carry)")


class ToySuite(Suite):
    name = "toy"
    version = "1"
    tasks = ("count", "colours")
    variants = ("cot", "direct")
    breakdowns = ("level",)
    aggregation = Aggregation(resamples=200)

    options_type = ToyOptions

    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        check_options(options, ToyOptions, self.name)
        paths = split_paths(split)
        scenes = [Scene.load(p) for p in sorted(paths["scenes"].glob("*.json"))]
        positions = balanced_positions(len(scenes), 4, seed=7)
        for scene, position in zip(scenes, positions, strict=True):
            image = os.path.relpath(paths["images"] / f"{scene.scene_id}.png", out)
            count = len(scene.objects)
            wrong = [str(count + d) for d in (-2, -1, 1, 2) if count + d > 0][:3]
            choices, right = place(str(count), wrong, position)
            yield Item(
                "toy",
                f"{scene.scene_id}-count",
                scene.scene_id,
                "count",
                "How many objects are there?",
                right,
                inputs=(image,),
                options=choices,
                group={"level": "static"},
                facts={"count": count},
            )
            present = sorted({o.color for o in scene.objects if o.color is not None})
            absent = [c for c in PALETTE_NAMES if c not in present]
            shown = sorted(present[:2] + absent[:2])
            yield Item(
                "toy",
                f"{scene.scene_id}-colours",
                scene.scene_id,
                "colours",
                "Which of these colours appear?",
                "".join(letter(i) for i, c in enumerate(shown) if c in present),
                inputs=(image,),
                options=tuple(shown),
                group={"level": "static" if len(present) < 3 else "busy"},
            )

    def prompt(self, item: Item, variant: str) -> PromptText:
        ask = (
            "Reason briefly, then end with 'Answer: <letter(s)>'."
            if variant == "cot"
            else "Reply with the letter(s) only."
        )
        return PromptText(
            "You answer questions about images.",
            f"{item.question}\n{options_block(item.options)}\n{ask}",
        )

    def grade(self, item: Item, reply: Reply) -> Grade:
        return grade_choice(item, reply)

    def baselines(self, items: Sequence[Item], seed: int) -> Mapping[str, Mapping[str, Reply]]:
        rng = np.random.default_rng(seed)
        guesses: dict[str, Reply] = {}
        for item in items:
            pick = letter(int(rng.integers(len(item.options))))
            guesses[item.item_id] = Reply(item.item_id, "", "", output=f"Answer: {pick}")
        return {"random": guesses}


SUITE = ToySuite()
if "toy" not in SUITES:
    SUITES.add("toy", __name__)
