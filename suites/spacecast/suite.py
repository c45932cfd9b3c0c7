"""SpaceCast on primitives: observe views of a scene, apply a stated change, answer about the
state no view shows (docs/spacecast.md)."""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from spatialbabel.run.executor import ExecutorOptions, executor_options
from suites.base import Grade, Item, PromptText, Reply, Shortcut, Suite, SuiteError
from suites.choices import grade_choice, letter, options_block
from suites.options import check_options, option, options_from_args
from suites.spacecast import conditions, text
from suites.spacecast.tasks import TASK_NAMES, TASKS

if TYPE_CHECKING:
    from spatialbabel import Scene

#: The eight answer sets of an attachment item: any non-empty set of the three objects, or
#: "none of these" alone.
ATTACHMENT_SETS = tuple(["".join(c) for n in (1, 2, 3) for c in combinations("ABC", n)] + ["D"])


@dataclass(frozen=True)
class SpaceCastOptions:
    seed: int = option(0, help="seed of the items")
    workers: int = option(1, help="Blender workers rendering the chosen views")
    resolution: int = option(512, help="square views of this many pixels")
    scenes: int | None = option(None, help="only the first N scenes of the split")
    bev: bool = option(
        False, help="also render each scene's bird's-eye view (the +bev variants show it)"
    )
    #: Where the views render; None: locally, with ``workers`` processes.
    executor: ExecutorOptions | None = None

    def __post_init__(self) -> None:
        if self.workers < 1 or self.resolution < 16:
            raise SuiteError("--spacecast-workers must be >= 1 and --spacecast-resolution >= 16")


class SpaceCastSuite(Suite):
    name = "spacecast"
    version = "2"
    tasks = TASK_NAMES
    #: The paper's two prompts, then each with one analysis condition (``conditions``).
    variants = conditions.VARIANTS
    breakdowns = ("level", "relation", "frame", "change")
    options_type = SpaceCastOptions

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._scenes: tuple[str, ...] = ()
        self._truths: dict[str, Scene] = {}

    def options_from(self, args: argparse.Namespace) -> SpaceCastOptions:
        """The ``--spacecast-*`` flags, run where the command's ``--executor`` flags say."""
        options = options_from_args(SpaceCastOptions, args, self.name)
        try:
            executor = executor_options(args, workers=options.workers)
        except ValueError as error:
            raise SuiteError(str(error)) from error
        return replace(options, executor=executor)

    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        from suites.spacecast.split_items import build_split

        settings = check_options(options, SpaceCastOptions, self.name)
        # Without the command's --executor flags, the views render locally.
        executor = settings.executor or ExecutorOptions(workers=settings.workers)
        yield from build_split(
            split,
            out,
            seed=settings.seed,
            executor=executor,
            resolution=settings.resolution,
            limit=settings.scenes,
            bev=settings.bev,
        )

    def prompt(self, item: Item, variant: str) -> PromptText:
        mode, condition = conditions.split_variant(variant)
        multi = TASKS[item.task].relation == "attachment"
        if mode == "cot":
            ask = text.COT_MULTI if multi else text.COT_SINGLE
        else:
            ask = text.DIRECT_MULTI if multi else text.DIRECT_SINGLE
        truth = self._truth(item.scene_id) if condition == "text" else None
        question, inputs = conditions.condition_prompt(item, condition, truth)
        return PromptText(text.SYSTEM, f"{question}\n{options_block(item.options)}\n{ask}", inputs)

    def asks(self, item: Item, variant: str) -> bool:
        """A condition that would leave an item as it is does not ask it (``+nobridge`` asks
        the items with a bridged chain)."""
        return conditions.applies(item, conditions.split_variant(variant)[1])

    def unavailable(self, variant: str) -> str | None:
        """``+bev`` needs every scene's bird's-eye view (built with ``--spacecast-bev``)."""
        if conditions.split_variant(variant)[1] != "bev":
            return None
        if self._folder is None:
            return "the items folder is not prepared"
        for scene_id in self._scenes:
            path = self._folder / conditions.bev_input(scene_id)
            if not path.is_file():
                return f"{path} is missing: build the items with --spacecast-bev"
        return None

    def comparisons(self, variants: Sequence[str]) -> Sequence[tuple[str, str]]:
        """CoT against direct, and each condition against the same prompt without it."""
        pairs = [("cot", "direct")] + [
            (f"{mode}+{condition}", mode)
            for condition in conditions.CONDITIONS
            for mode in conditions.MODES
        ]
        return [(a, b) for a, b in pairs if a in variants and b in variants]

    def summary(self, items: Sequence[Item]) -> str:
        """The changed share per task beside the paper's 88.9 %."""
        return conditions.changed_share_table(items)

    def _truth(self, scene_id: str) -> Scene:
        from spatialbabel import Scene
        from suites.spacecast.split_items import VIEWS

        if scene_id not in self._truths:
            if self._folder is None:
                raise SuiteError("SpaceCast's text condition reads the items folder: prepare() it")
            path = self._folder / VIEWS / f"{scene_id}.json"
            if not path.is_file():
                raise SuiteError(f"{path}: missing (the truth of {scene_id}'s views)")
            self._truths[scene_id] = Scene.load(path)
        return self._truths[scene_id]

    def grade(self, item: Item, reply: Reply) -> Grade:
        return grade_choice(item, reply)

    def baselines(self, items: Sequence[Item], seed: int) -> Mapping[str, Mapping[str, Reply]]:
        """``random``: a seeded uniform guess over the displayed options, or over the eight
        answer sets of an attachment item."""
        rng = np.random.default_rng(seed)
        guesses: dict[str, Reply] = {}
        for item in items:
            if TASKS[item.task].relation == "attachment":
                pick = ATTACHMENT_SETS[int(rng.integers(len(ATTACHMENT_SETS)))]
            else:
                pick = letter(int(rng.integers(len(item.options))))
            guesses[item.item_id] = Reply(item.item_id, "", "", output=f"Answer: {', '.join(pick)}")
        return {"random": guesses}

    def prepare(self, folder: Path, items: Sequence[Item]) -> None:
        """Keeps the items folder: the shortcuts and the text condition read the truth saved
        there, the bird's-eye views are looked for there."""
        self._folder = folder
        self._scenes = tuple(sorted({item.scene_id for item in items}))
        self._truths = {}

    def shortcuts(self, items: Sequence[Item], seed: int) -> Sequence[Shortcut]:
        """The battery of ``suites.spacecast.shortcuts``, on the truth the build saved beside
        the items (``views/<scene>.json``)."""
        from spatialbabel import Scene
        from suites.spacecast.shortcuts import battery
        from suites.spacecast.split_items import VIEWS

        if self._folder is None:
            raise SuiteError("SpaceCast's shortcuts read the items folder: prepare() it first")
        scenes = {}
        for scene_id in sorted({item.scene_id for item in items}):
            path = self._folder / VIEWS / f"{scene_id}.json"
            if not path.is_file():
                raise SuiteError(f"{path}: missing (the truth of {scene_id}'s views)")
            scenes[scene_id] = Scene.load(path)
        return battery(items, scenes)

    def max_tokens(self, variant: str) -> int:
        return 1024 if conditions.split_variant(variant)[0] == "cot" else 16


def chance(items: Sequence[Item]) -> float:
    """The macro score a uniform guess expects on ``items``."""
    from suites.spacecast.tasks import CHANCE

    per_task: dict[str, float] = defaultdict(float)
    for item in items:
        per_task[item.task] = CHANCE[TASKS[item.task].relation]
    return float(np.mean(list(per_task.values())))


SUITE = SpaceCastSuite()

__all__ = ["ATTACHMENT_SETS", "SUITE", "SpaceCastSuite", "chance"]
