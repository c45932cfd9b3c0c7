"""SpatialMind on moving primitives: eight tasks about what a moving camera saw (distances now,
speeds and view turns, path lengths, relative motion) and what happens next (the observer's
future direction, a target's future distance and place in the view), over the clips of
``spatialbabel clips`` (docs/spatialmind.md).

Numeric answers are graded by MRA (``suites.numeric``), multiple choice by exact letter
(``suites.choices``). The baselines are ``persistence`` (the state at the start of what is
asked, copied forward) and ``chance``; the shortcut battery (``suites.spatialmind.shortcuts``)
is held to chance. Building also
writes every item's state chain as training records (``suites.spatialmind.chain``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

from spatialbabel.files import write_json
from suites.base import Aggregation, Grade, Item, PromptText, Reply, Shortcut, Suite
from suites.choices import grade_choice, options_block
from suites.numeric import grade_number
from suites.options import check_options
from suites.spatialmind.options import SpatialMindOptions
from suites.spatialmind.shortcuts import battery, chance, persistence
from suites.spatialmind.tasks import SECTIONS, TASKS, UNIT_WORDS

LABELS_FILE: Final = "labels.json"
SYSTEM: Final = (
    "You are an expert in spatial reasoning from video. You watch what a moving camera saw and "
    "answer questions about distances, motion and what happens next."
)
SCENE: Final = (
    "The camera is the observer. It moves through a scene of simple objects (cubes, spheres, "
    "cylinders, cones, pyramids, tori) standing on flat ground tiled in 2 m squares. Distances "
    "are between centres, in metres; the observer's position is the camera's centre; left and "
    "right are as seen in the camera's view."
)
SECTION_GUIDE: Final = {
    "GROUND": "the target, the reference, the observed time span, the frame and the quantity asked",
    "CURRENT": "the current state: distances, directions, speeds at the times that matter",
    "DYNAMICS": "how it changes: signed changes of distance and direction, path lengths, the relation",
    "FUTURE": "the predicted state at the time asked",
}


class SpatialMind(Suite):
    name = "spatialmind"
    version = "2"
    tasks = tuple(TASKS)
    variants = ("direct", "cot", "chain")
    breakdowns = ("level",)
    aggregation = Aggregation(overall="macro", resample="scenes")
    chance_baseline = "chance"
    options_type = SpatialMindOptions

    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        from suites.spatialmind.build import build_items
        from suites.spatialmind.chain import write_training

        settings = check_options(options, SpatialMindOptions, self.name)
        items, histograms = build_items(split, out, settings)
        write_json(out / LABELS_FILE, {"labels": histograms})
        write_training(out, self, items)
        for task, counts in histograms.items():
            text = ", ".join(f"{label} {n}" for label, n in counts.items())
            print(f"  {task} labels: {text}", file=sys.stderr)
        yield from items

    def prompt(self, item: Item, variant: str) -> PromptText:
        fps = float(item.facts["fps"])
        last = float(item.facts["observed_until"])
        video = any(name.endswith(".mp4") for name in item.inputs)
        if video:
            context = (
                f"The video shows what a camera saw, at {fps:g} frames per second, from 0.0 s "
                f"to {last:.1f} s."
            )
        else:
            context = (
                f"The {len(item.inputs)} images are the frames of one video, in order, "
                f"{1 / fps:g} s apart ({fps:g} frames per second): the first at 0.0 s, the "
                f"last at {last:.1f} s."
            )
        stamps = item.facts.get("timestamps", "none")
        if stamps == "overlay":
            context += " Each frame shows its time in its top-left corner."
        elif stamps == "text" and not video:
            times = ", ".join(f"image {k + 1} at {k / fps:.1f} s" for k in range(len(item.inputs)))
            context += f" Frame times: {times}."
        question = item.question
        if item.options:
            question += "\n" + options_block(item.options)
            shape = "<letter>"
        else:
            shape = f"<number> (in {UNIT_WORDS[item.facts['unit']]})"
        if variant == "direct":
            ask = f"Reply with one line, 'Answer: {shape}', and nothing else."
        elif variant == "cot":
            ask = f"Think it through step by step, then end with a line 'Answer: {shape}'."
        elif variant == "chain":
            sections = SECTIONS[TASKS[item.task]]
            guide = "\n".join(f"{name}: {SECTION_GUIDE[name]}" for name in sections)
            ask = (
                "Reason as a state chain, one section per line, each starting with its name:\n"
                f"{guide}\nThen end with a line 'ANSWER: {shape}'."
            )
        else:
            raise ValueError(
                f"unknown variant {variant!r}; {self.name} has {', '.join(self.variants)}"
            )
        return PromptText(SYSTEM, f"{context} {SCENE}\n\n{question}\n\n{ask}")

    def grade(self, item: Item, reply: Reply) -> Grade:
        if item.options:
            return grade_choice(item, reply)
        return grade_number(reply.output, float(item.answer), str(item.facts["unit"]))

    def max_tokens(self, variant: str) -> int:
        return 64 if variant == "direct" else 1024

    def baselines(self, items: Sequence[Item], seed: int) -> Mapping[str, Mapping[str, Reply]]:
        """``persistence``: the answer each item's ground truth gives when the state at the
        start of what is asked is copied forward (``facts["persistence"]``); ``chance``: a
        uniform option, or for numbers another item's reference of the same task and unit
        (seeded)."""
        return {"persistence": persistence(items), "chance": chance(items, seed)}

    def shortcuts(self, items: Sequence[Item], seed: int) -> Sequence[Shortcut]:
        """The battery of ``suites.spatialmind.shortcuts``: persistence, keep_going, majority,
        median and typical_rate, each on the tasks it answers."""
        return battery(items)


SUITE = SpatialMind()

__all__ = ["SUITE", "SpatialMind"]
