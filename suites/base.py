"""What every question suite is: items built from a split, prompts, and a grader.

A suite (SpaceCast, SpatialMind, ProVisE, ...) is a subclass of ``Suite`` in its own package
``suites/<name>/``. The shared machinery around it (``suites.items``, ``suites.prompts``,
``suites.answers``, ``suites.grading`` and the ``spatialbabel suite`` command) knows nothing of
any one suite: it stores ``Item`` records, asks the suite for each item's prompt, hands each
reply to the suite's ``grade`` and aggregates the ``Grade`` records it gets back.

Items are programs' outputs over exact ground truth: their labels are computed by the suite's
own code and recomputed by separate code in its tests (the house rule of ``spatialbabel.qa``).
"""

from __future__ import annotations

import argparse
import math
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from spatialbabel.errors import SpatialBabelError
from suites.options import NoOptions, options_from_args

#: A JSON value as items and grades hold it.
Json = Any

#: How one graded reply ended, exclusive, in this order of precedence: the request failed or
#: gave nothing (``generation_failure``); the reply broke the answer contract
#: (``noncompliance``); the contract was kept but the parser could not read an answer
#: (``parser_failure``); else the answer was read and is ``correct`` or ``incorrect``
#: (``partial`` for a score strictly between 0 and 1). Every status but the last three scores 0
#: and stays in the denominator.
Status = Literal[
    "generation_failure", "noncompliance", "parser_failure", "correct", "partial", "incorrect"
]
STATUSES: Final[tuple[Status, ...]] = (
    "generation_failure",
    "noncompliance",
    "parser_failure",
    "correct",
    "partial",
    "incorrect",
)
READ_STATUSES: Final[frozenset[Status]] = frozenset({"correct", "partial", "incorrect"})


class SuiteError(SpatialBabelError, ValueError):
    """A suite's items, answers or options are unusable; the message names what and where."""


def _check_part(kind: str, value: str) -> str:
    if not isinstance(value, str) or not value or "/" in value or value != value.strip():
        raise SuiteError(
            f"{kind} must be a non-empty string with no '/' or outer spaces: {value!r}"
        )
    return value


@dataclass(frozen=True)
class Item:
    """One question of a suite, with its exact answer.

    ``scene_id`` is the scene (or clip) the item is about: the bootstrap resamples whole
    scenes, since the items of one scene share its images. ``inputs`` are the files shown to
    the model, in order, relative to the items folder (images, or a video). ``options`` are the
    multiple-choice texts in the order the letters A, B, ... name them (empty for an open
    answer). ``answer`` is the truth in the suite's answer space, and ``facts`` what the label
    was computed from (distances, margins, the transformation), kept for audits and for the
    tests that recompute it. ``group`` holds the item's breakdown keys (``level``, ``relation``,
    ``frame``, ...), every value a string, so tables can group by them without knowing the suite.
    """

    suite: str
    item_id: str
    scene_id: str
    task: str
    question: str
    answer: Json
    inputs: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    group: Mapping[str, str] = field(default_factory=dict)
    facts: Mapping[str, Json] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_part("suite", self.suite)
        _check_part("item_id", self.item_id)
        _check_part("task", self.task)
        if not isinstance(self.scene_id, str) or not self.scene_id:
            raise SuiteError(f"item {self.item_id}: scene_id must be a non-empty string")
        if not isinstance(self.question, str) or not self.question.strip():
            raise SuiteError(f"item {self.item_id}: the question is empty")
        for name in self.inputs:
            if not isinstance(name, str) or not name or Path(name).is_absolute():
                raise SuiteError(
                    f"item {self.item_id}: input {name!r} must be a path relative to the items folder"
                )
        if len(set(self.options)) != len(self.options):
            raise SuiteError(f"item {self.item_id}: options repeat: {list(self.options)}")
        for key, value in self.group.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise SuiteError(f"item {self.item_id}: group {key!r} must map to a string")

    def to_dict(self) -> dict[str, Json]:
        return {
            "suite": self.suite,
            "item_id": self.item_id,
            "scene_id": self.scene_id,
            "task": self.task,
            "question": self.question,
            "options": list(self.options),
            "answer": self.answer,
            "inputs": list(self.inputs),
            "group": dict(self.group),
            "facts": dict(self.facts),
        }

    @classmethod
    def from_dict(cls, record: Mapping[str, Json]) -> Item:
        try:
            return cls(
                suite=record["suite"],
                item_id=record["item_id"],
                scene_id=record["scene_id"],
                task=record["task"],
                question=record["question"],
                answer=record["answer"],
                inputs=tuple(record.get("inputs", ())),
                options=tuple(record.get("options", ())),
                group=dict(record.get("group", {})),
                facts=dict(record.get("facts", {})),
            )
        except KeyError as error:
            raise SuiteError(f"missing field {error.args[0]!r}") from None
        except TypeError as error:
            raise SuiteError(str(error)) from None


@dataclass(frozen=True)
class Reply:
    """A model's answer to one item: its text and, for suites answered by drawing, the path of
    the image it drew. ``error`` is set when the request failed and nothing came back."""

    item_id: str
    model: str
    variant: str
    output: str = ""
    image: Path | None = None
    error: str | None = None
    truncated: bool = False
    line: int = 0


@dataclass(frozen=True)
class Grade:
    """One reply's verdict: a score in [0, 1], how the reply ended (``Status``), what was read
    from it (``parsed``, None when nothing could be) and, for every status but ``correct``, why."""

    score: float
    status: Status
    parsed: Json = None
    reason: str = ""
    #: The identity (a hash) of the frozen rules that graded the reply, for suites whose
    #: grading rules are files (ProVisE's protocols); recorded with the grade.
    protocol: str | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.score) and 0.0 <= self.score <= 1.0):
            raise ValueError(f"a score must lie in [0, 1], got {self.score}")
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; known: {', '.join(STATUSES)}")
        if self.status not in READ_STATUSES and self.score != 0.0:
            raise ValueError(f"a {self.status} scores 0, not {self.score}")

    @classmethod
    def unread(cls, status: Status, reason: str) -> Grade:
        return cls(0.0, status, None, reason)

    @classmethod
    def read(cls, score: float, parsed: Json, reason: str = "") -> Grade:
        status: Status = "correct" if score == 1.0 else "incorrect" if score == 0.0 else "partial"
        return cls(score, status, parsed, reason)

    def with_protocol(self, protocol: str) -> Grade:
        return Grade(self.score, self.status, self.parsed, self.reason, protocol)

    def to_dict(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "score": self.score,
            "status": self.status,
            "parsed": self.parsed,
            "reason": self.reason,
        }
        if self.protocol is not None:
            data["protocol"] = self.protocol
        return data


@dataclass(frozen=True)
class PromptText:
    """What an item's request says: the system instruction and the user text (after the inputs).
    ``inputs``: the files a variant shows instead of the item's own (None: the item's)."""

    system: str
    text: str
    inputs: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Aggregation:
    """How a suite's overall score is made from its items' scores.

    ``overall="macro"``: the unweighted mean of the per-task means (each task counts once,
    however many items it has); ``"micro"``: the mean over items. ``resample="scenes"``: the
    bootstrap draws whole scenes (items of one scene move together); ``"within_task"``: items
    are redrawn inside each task (a stratified bootstrap, ProVisE's rule).
    """

    overall: Literal["macro", "micro"] = "macro"
    resample: Literal["scenes", "within_task"] = "scenes"
    resamples: int = 1000
    seed: int = 0


@dataclass(frozen=True)
class Shortcut:
    """One shortcut of a suite's battery: its ``name`` (a row ``shortcut:<name>``), what a
    test-taker does (``description``, shown in the suite's doc), the ``tasks`` it is an answer
    to, and its answer per item id of those tasks."""

    name: str
    description: str
    tasks: tuple[str, ...]
    answers: Mapping[str, Reply]

    def __post_init__(self) -> None:
        _check_part("shortcut name", self.name)
        if not self.tasks:
            raise SuiteError(f"shortcut {self.name!r} names no task")


class Suite(ABC):
    """A question suite. Subclasses set the class attributes and implement the four methods;
    they must be importable without heavy dependencies (bpy, OpenCV), which they import inside
    the methods that need them, so ``spatialbabel suite --help`` stays light."""

    #: The name in the registry, the ``custom_id`` prefix and the ``--suite`` value.
    name: ClassVar[str]
    #: Bumped when items or labels change meaning; recorded in the items folder and in scores.
    version: ClassVar[str]
    #: The task types, in table order.
    tasks: ClassVar[tuple[str, ...]]
    #: Prompt variants, the first being the default (e.g. ``("cot", "direct")``).
    variants: ClassVar[tuple[str, ...]] = ("default",)
    #: Item group keys the tables break scores down by (besides task), e.g. ``("level",)``.
    breakdowns: ClassVar[tuple[str, ...]] = ()
    aggregation: ClassVar[Aggregation] = Aggregation()
    #: The baseline that stands for chance: shortcuts must not beat its CI on any task.
    chance_baseline: ClassVar[str] = "random"

    #: The frozen dataclass of the suite's build options (``suites.options``): each ``option``
    #: field is a flag ``--<name>-<field>`` of ``spatialbabel suite build``, recorded in
    #: ``suite.json``. None by default.
    options_type: ClassVar[type] = NoOptions

    def options_from(self, args: argparse.Namespace) -> object:
        """The build options the parsed flags of ``spatialbabel suite build`` say."""
        return options_from_args(self.options_type, args, self.name)

    @abstractmethod
    def build(self, split: Path, out: Path, options: object) -> Iterator[Item]:
        """The items of a split, in a deterministic order, built with ``options`` (an
        ``options_type``). ``out`` is the items folder, where the suite may write the inputs it
        renders (their paths in ``Item.inputs`` are relative to it). Raise ``SuiteError``
        naming the file for a split the suite cannot use."""

    @abstractmethod
    def prompt(self, item: Item, variant: str) -> PromptText:
        """The request text of an item in one variant."""

    def prepare(self, folder: Path, items: Sequence[Item]) -> None:  # noqa: B027
        """Called once with a built items folder before its items are prompted or graded.
        Suites whose grading reads the items' files (ProVisE compares a drawn answer with its
        input image) keep the folder here; suites whose grading rules are files refuse here,
        with a ``SuiteError``, items built under other rules. Nothing by default."""

    def protocol_of(self, item: Item) -> str | None:
        """The identity (a hash) of the frozen rules that grade ``item``, recorded with every
        grade of it (None, the default, for suites whose rules are their code)."""
        return None

    @abstractmethod
    def grade(self, item: Item, reply: Reply) -> Grade:
        """One reply's verdict. Never raises on a bad reply: it is a ``Grade`` with a status."""

    def baselines(self, items: Sequence[Item], seed: int) -> Mapping[str, Mapping[str, Reply]]:
        """Reference answers scored in the same table, by baseline name then item id (a seeded
        random guess, a persistence answer, ...). None by default."""
        return {}

    def shortcuts(self, items: Sequence[Item], seed: int) -> Sequence[Shortcut]:
        """What a test-taker could answer without the skill a task claims to measure (a
        straight line from start to goal, the unchanged input, the option nearest the camera,
        each task's majority label...). Graded in the same table (``shortcut:<name>`` rows) and
        held to chance by ``suites.shortcuts.check_shortcuts``. None by default."""
        return ()

    def max_tokens(self, variant: str) -> int:
        """The completion budget of a request in ``variant``."""
        return 1024

    def asks(self, item: Item, variant: str) -> bool:
        """Whether ``variant`` makes a request of ``item`` (every item by default): a variant
        that changes what some items show leaves out the items it would ask unchanged."""
        return True

    def unavailable(self, variant: str) -> str | None:
        """Why the prepared items folder cannot serve ``variant`` (an input its build did not
        make), or None when it can (always, by default)."""
        return None

    def comparisons(self, variants: Sequence[str]) -> Sequence[tuple[str, str]]:
        """The (variant, baseline variant) pairs among the answered ``variants`` that ``suite
        score`` compares item by item, per model (``suites.paired``). By default every
        answered variant against the suite's first."""
        first = self.variants[0]
        return [(v, first) for v in self.variants[1:] if v in variants and first in variants]

    def summary(self, items: Sequence[Item]) -> str:
        """Markdown the suite adds under its score table and its build's counts (none by
        default)."""
        return ""


__all__ = [
    "READ_STATUSES",
    "STATUSES",
    "Aggregation",
    "Grade",
    "Item",
    "Json",
    "PromptText",
    "Reply",
    "Shortcut",
    "Status",
    "Suite",
    "SuiteError",
]
