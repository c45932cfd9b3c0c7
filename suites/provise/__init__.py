"""ProVisE on primitive scenes: answers drawn in pixels, read by frozen protocols.

Each task has a protocol file (``protocols/<task>.json``): the guidance prompt, the answer
contract, the parser as typed operations, the invalid-output rules and the metric. Visual
models answer by editing the image (variant ``visual``, graded from the drawn image); text
models answer the same items in words (variant ``text``), graded by the same metric.
docs/provise.md lists every choice the paper leaves open.

This module imports nothing heavy: OpenCV, scikit-image and jsonschema (the ``provise`` extra)
are imported when items are built or graded.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from suites.base import Aggregation, Grade, Item, PromptText, Reply, Shortcut, Suite, SuiteError
from suites.choices import letter, options_block
from suites.options import check_options, option

TASKS = (
    "counting",
    "depth",
    "size",
    "relationship",
    "grounding",
    "multihop",
    "feasibility",
    "affordance",
    "trajectory",
)

VISUAL_SYSTEM = (
    "You answer questions about an image by editing the image: return the edited image, drawn "
    "exactly as the instructions say, and nothing else."
)
TEXT_SYSTEM = "You answer questions about an image. Give the answer only, in the form asked."


@dataclass(frozen=True)
class ProViseOptions:
    tasks: tuple[str, ...] = option(
        TASKS,
        nargs="+",
        choices=TASKS,
        metavar="TASK",
        help=f"the tasks to build (default: all of {', '.join(TASKS)})",
    )
    seed: int = option(0, help="seed of the choices among valid items (default 0)")

    def __post_init__(self) -> None:
        if self.seed < 0:
            raise SuiteError(f"--provise-seed must not be negative, got {self.seed}")


class ProViseSuite(Suite):
    name = "provise"
    version = "2"
    tasks = TASKS
    variants = ("visual", "text")
    breakdowns = ("level",)
    # Paper §E.4: 10,000 replicates, resampled within each task; Overall is the macro mean.
    aggregation = Aggregation(overall="macro", resample="within_task", resamples=10_000)
    options_type = ProViseOptions

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None

    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        from suites.provise.build import build_items
        from suites.provise.protocols import protocol

        settings = check_options(options, ProViseOptions, self.name)
        tasks, seed = list(settings.tasks), settings.seed
        hashes = {task: protocol(task).sha256 for task in TASKS}
        return build_items(split, out, tasks, seed, hashes)

    def prepare(self, folder: Path, items: Sequence[Item]) -> None:
        from suites.provise.protocols import protocol

        changed = sorted(
            {
                item.task
                for item in items
                if item.facts.get("protocol") != protocol(item.task).sha256
            }
        )
        if changed:
            raise SuiteError(
                f"{folder}: the protocol of {', '.join(changed)} changed since these items were "
                "built; results graded under the old protocol cannot be compared: rebuild the items"
            )
        self._folder = folder

    def prompt(self, item: Item, variant: str) -> PromptText:
        from suites.provise.protocols import protocol

        rules = protocol(item.task)
        parts = [item.question]
        if item.options:
            parts.append(options_block(item.options))
        if variant == "visual":
            return PromptText(VISUAL_SYSTEM, "\n".join([*parts, rules.guidance]))
        return PromptText(TEXT_SYSTEM, "\n".join([*parts, rules.text_contract]))

    def protocol_of(self, item: Item) -> str | None:
        from suites.provise.protocols import protocol

        return protocol(item.task).sha256

    def grade(self, item: Item, reply: Reply) -> Grade:
        from suites.provise.grade import grade_reply

        if self._folder is None:
            raise SuiteError("ProVisE grades only after prepare(folder, items)")
        return grade_reply(self._folder, item, reply)

    def baselines(self, items: Sequence[Item], seed: int) -> Mapping[str, Mapping[str, Reply]]:
        """A seeded random guess in each task's text answer space."""
        rng = np.random.default_rng(seed)
        guesses: dict[str, Reply] = {}
        for item in items:
            guesses[item.item_id] = Reply(item.item_id, "", "text", output=_guess(item, rng))
        return {"random": guesses}

    def shortcuts(self, items: Sequence[Item], seed: int) -> Sequence[Shortcut]:
        """The battery of ``suites.provise.battery``. Its drawn answers are PNGs in a scratch
        folder that lives as long as this suite object (removed when it goes, or at exit)."""
        from suites.provise.battery import battery

        if self._folder is None:
            raise SuiteError("ProVisE's shortcuts are drawn only after prepare(folder, items)")
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="provise-shortcuts-")
        return battery(items, self._folder, Path(self._scratch.name))

    def max_tokens(self, variant: str) -> int:
        return 512


def _guess(item: Item, rng: np.random.Generator) -> str:
    if item.options:
        return f"Answer: {letter(int(rng.integers(len(item.options))))}"
    if item.task == "counting":
        from suites.provise.build import MAX_COUNT

        return f"Answer: {int(rng.integers(1, MAX_COUNT + 1))}"
    if item.task in ("relationship", "feasibility"):
        return f"Answer: {'true' if rng.random() < 0.5 else 'false'}"
    x, y = rng.random(2)
    if item.task == "trajectory":
        start = item.facts["points"]["S"]
        return f"Answer: [({start[0]:.3f}, {start[1]:.3f}), ({x:.3f}, {y:.3f})]"
    return f"Answer: ({x:.3f}, {y:.3f})"


SUITE = ProViseSuite()
