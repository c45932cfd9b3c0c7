"""Two scoring runs compared: what changed, whether it is real, and whether it fails a gate.

Both runs are read from their ``scores.json`` (every reply's metric values are there). Replies
are paired by (scene, model, language, mode). Per cell (model, language, mode), over the
scenes both runs answered, every metric and composite gets the difference new - base with a
paired bootstrap CI over scenes (``spatialbabel.stats.paired_bootstrap_differences``), through
per-scene influence values (``scoring.aggregate.composite_influence``) whose mean is the cell's
mean by the metric's own rule, as the cell CIs and the mode differences are computed. Whatever is present on one side only (cells, models, languages, modes,
scenes, metrics) is listed, never dropped; so are settings that differ between the runs.

Gates (``Gates``) turn the comparison into a verdict: a cell whose Reconstruct Score drops by
more than ``fail_below`` with a CI of the drop that excludes 0, a reply that parsed before and
no longer does, a cell or reply of the base that the new run lacks.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

import numpy as np

from scoring.aggregate import composite_influence, order_languages
from spatialbabel.files import FileFormatError, JsonFields, read_json
from spatialbabel.stats import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    PairedDifference,
    paired_bootstrap_differences,
)

#: The composite the gates and summaries are about: the Reconstruct Score.
SCORE: Final = "score"
#: The five parts of the Reconstruct Score, shown beside it in the summaries.
COMPONENTS: Final = ("parse", "f1", "class_accuracy", "position_fidelity", "scale_fidelity")
#: Settings of a run that change what its numbers mean; a difference is reported. (Not the
#: split's path: the same split is often found by other paths; the scenes are compared.)
SETTINGS: Final = ("subset", "options")


class CellKey(NamedTuple):
    model: str
    language: str
    mode: str

    def __str__(self) -> str:
        return f"{self.model} / {self.language} / {self.mode}"


@dataclass(frozen=True)
class Column:
    """A metric or composite of a run: its name, label and parts (composites only)."""

    name: str
    label: str
    higher_is_better: bool | None
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoredReply:
    line: int | None
    parsed: bool
    failure_reason: str | None
    values: Mapping[str, float | None]

    def value(self, name: str) -> float:
        found = self.values.get(name)
        return math.nan if found is None else float(found)


@dataclass(frozen=True)
class ScoredRun:
    """What a comparison needs of one ``scores.json``: its settings, columns and replies."""

    path: Path
    settings: Mapping[str, Any]
    metrics: tuple[Column, ...]
    composites: tuple[Column, ...]
    cells: Mapping[CellKey, Mapping[str, ScoredReply]]

    @property
    def columns(self) -> tuple[Column, ...]:
        return (*self.composites, *self.metrics)

    @property
    def replies(self) -> int:
        return sum(len(c) for c in self.cells.values())

    @property
    def scenes(self) -> set[str]:
        return {scene for cell in self.cells.values() for scene in cell}


def scores_path(path: Path) -> Path:
    """``scores.json`` itself, or the one in a scores folder."""
    path = Path(path)
    return path / "scores.json" if path.is_dir() else path


class _Reader(JsonFields):
    def listing(self, data: Mapping[str, Any], key: str) -> list[Any]:
        value = data.get(key)
        if not isinstance(value, list):
            raise self.fail(
                key,
                "is missing; is this a scores.json written by 'spatialbabel score'?"
                if value is None
                else f"expected a list, got {type(value).__name__}",
            )
        return value

    def nonempty_text(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}", f"expected a non-empty string, got {value!r}")
        return value

    def number_or_null(self, value: object, where: str) -> float | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number or null, got {value!r}")
        return float(value)

    def column(self, item: object, where: str, *, composite: bool) -> Column:
        data = self.mapping(item, where)
        better = data.get("higher_is_better", True)
        parts: tuple[str, ...] = ()
        if composite:
            raw = data.get("parts")
            if not isinstance(raw, list) or not raw or not all(isinstance(p, str) for p in raw):
                raise self.fail(f"{where}.parts", f"expected a list of metric names, got {raw!r}")
            parts = tuple(raw)
        name = self.nonempty_text(data, "name", where)
        label = data.get("label")
        return Column(
            name,
            label if isinstance(label, str) and label else name,
            better if isinstance(better, bool) else None,
            parts,
        )

    def reply(self, index: int, item: object) -> tuple[str, CellKey, ScoredReply]:
        where = f"replies[{index}]"
        data = self.mapping(item, where)
        key = CellKey(*(self.nonempty_text(data, k, where) for k in ("model", "language", "mode")))
        line = data.get("line")
        reason = data.get("failure_reason")
        values = {
            str(name): self.number_or_null(value, f"{where}.values.{name}")
            for name, value in self.mapping(data.get("values"), f"{where}.values").items()
        }
        parsed = data.get("parsed")
        if not isinstance(parsed, bool):
            raise self.fail(f"{where}.parsed", f"expected true or false, got {parsed!r}")
        reply = ScoredReply(
            line if isinstance(line, int) and not isinstance(line, bool) else None,
            parsed,
            reason if isinstance(reason, str) else None,
            values,
        )
        return self.nonempty_text(data, "scene_id", where), key, reply


def read_scored_run(path: Path) -> ScoredRun:
    """Read a ``scores.json`` (or the one in a scores folder) for comparing; raises
    ``FileFormatError`` naming the file and the field that breaks the format."""
    path = scores_path(path)
    data = read_json(path)
    reader = _Reader(path)
    metrics = tuple(
        reader.column(m, f"metrics[{i}]", composite=False)
        for i, m in enumerate(reader.listing(data, "metrics"))
    )
    composites = tuple(
        reader.column(c, f"composites[{i}]", composite=True)
        for i, c in enumerate(reader.listing(data, "composites"))
    )
    cells: dict[CellKey, dict[str, ScoredReply]] = defaultdict(dict)
    for index, item in enumerate(reader.listing(data, "replies")):
        scene, key, reply = reader.reply(index, item)
        if scene in cells[key]:
            raise reader.fail(f"replies[{index}]", f"a second reply of {key} for scene {scene!r}")
        cells[key][scene] = reply
    settings = {k: data.get(k) for k in SETTINGS}
    return ScoredRun(path, settings, metrics, composites, dict(cells))


@dataclass(frozen=True)
class ParseChange:
    """A reply that parsed in one run and not in the other (``lost``: it parsed before)."""

    cell: CellKey
    scene_id: str
    kind: Literal["lost", "gained"]
    base_line: int | None
    new_line: int | None
    failure_reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.cell._asdict(),
            "scene_id": self.scene_id,
            "kind": self.kind,
            "base_line": self.base_line,
            "new_line": self.new_line,
            "failure_reason": self.failure_reason,
        }


@dataclass(frozen=True)
class CellComparison:
    """One cell in both runs, over the ``scenes`` both answered."""

    cell: CellKey
    scenes: int
    only_base_scenes: tuple[str, ...]
    only_new_scenes: tuple[str, ...]
    differences: Mapping[str, PairedDifference]
    parse_changes: tuple[ParseChange, ...]

    @property
    def score(self) -> PairedDifference:
        return self.differences[SCORE]

    @property
    def moved(self) -> bool:
        """Whether the Reconstruct Score moved: the CI of its difference excludes 0."""
        return self.score.significant

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.cell._asdict(),
            "scenes": self.scenes,
            "only_base_scenes": list(self.only_base_scenes),
            "only_new_scenes": list(self.only_new_scenes),
            "moved": self.moved,
            "metrics": {
                name: {
                    "base": _number(d.base),
                    "new": _number(d.new),
                    "difference": _number(d.difference.mean),
                    "low": _number(d.difference.low),
                    "high": _number(d.difference.high),
                    "significant": d.significant,
                }
                for name, d in self.differences.items()
            },
            "parse_changes": [c.to_dict() for c in self.parse_changes],
        }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


@dataclass(frozen=True)
class OneSided:
    """What only one run has."""

    cells: tuple[CellKey, ...] = ()
    models: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    scenes: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any((self.cells, self.models, self.languages, self.modes, self.scenes, self.columns))

    def to_dict(self) -> dict[str, Any]:
        return {
            "cells": [c._asdict() for c in self.cells],
            "models": list(self.models),
            "languages": list(self.languages),
            "modes": list(self.modes),
            "scenes": list(self.scenes),
            "metrics": list(self.columns),
        }


@dataclass(frozen=True)
class Comparison:
    base: ScoredRun
    new: ScoredRun
    columns: tuple[Column, ...]
    cells: tuple[CellComparison, ...]
    only_base: OneSided
    only_new: OneSided
    #: (setting, base value, new value) for each setting that differs.
    settings: tuple[tuple[str, Any, Any], ...]
    seed: int
    resamples: int
    confidence: float

    @property
    def parse_changes(self) -> tuple[ParseChange, ...]:
        return tuple(change for cell in self.cells for change in cell.parse_changes)

    @property
    def moved(self) -> tuple[CellComparison, ...]:
        return tuple(c for c in self.cells if c.moved)

    def label(self, name: str) -> str:
        return next((c.label for c in self.columns if c.name == name), name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": str(self.base.path),
            "new": str(self.new.path),
            "seed": self.seed,
            "resamples": self.resamples,
            "confidence": self.confidence,
            "columns": [
                {"name": c.name, "label": c.label, "higher_is_better": c.higher_is_better}
                for c in self.columns
            ],
            "settings_differ": [
                {"setting": key, "base": old, "new": now} for key, old, now in self.settings
            ],
            "only_base": self.only_base.to_dict(),
            "only_new": self.only_new.to_dict(),
            "cells": [c.to_dict() for c in self.cells],
        }


def _cell_order(keys: Sequence[CellKey]) -> list[CellKey]:
    rank = {lang: i for i, lang in enumerate(order_languages({k.language for k in keys}))}
    return sorted(keys, key=lambda k: (k.mode, k.model, rank[k.language]))


def _differences(
    base: Mapping[str, ScoredReply],
    new: Mapping[str, ScoredReply],
    scenes: Sequence[str],
    columns: Sequence[Column],
    *,
    seed: int,
    resamples: int,
    confidence: float,
) -> dict[str, PairedDifference]:
    """Every column's paired difference over ``scenes``, through per-scene influence values
    (a metric is a composite of one part), so each side's mean is its cell mean."""

    def influence(side: Mapping[str, ScoredReply], column: Column) -> np.ndarray[Any, Any]:
        names = column.parts or (column.name,)
        table = np.array([[side[s].value(n) for s in scenes] for n in names], dtype=float)
        return composite_influence(table.reshape(len(names), len(scenes)))

    found = paired_bootstrap_differences(
        np.array([influence(base, c) for c in columns]).reshape(len(columns), len(scenes)),
        np.array([influence(new, c) for c in columns]).reshape(len(columns), len(scenes)),
        groups=scenes,
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )
    return {c.name: d for c, d in zip(columns, found, strict=True)}


def _parse_changes(
    cell: CellKey,
    base: Mapping[str, ScoredReply],
    new: Mapping[str, ScoredReply],
    scenes: Sequence[str],
) -> tuple[ParseChange, ...]:
    changes = []
    for scene in scenes:
        before, after = base[scene], new[scene]
        if before.parsed != after.parsed:
            changes.append(
                ParseChange(
                    cell,
                    scene,
                    "lost" if before.parsed else "gained",
                    before.line,
                    after.line,
                    after.failure_reason if before.parsed else before.failure_reason,
                )
            )
    return tuple(changes)


def _one_sided(mine: ScoredRun, theirs: ScoredRun, cells: Sequence[CellKey]) -> OneSided:
    def parts(index: int) -> set[str]:
        return {key[index] for key in mine.cells} - {key[index] for key in theirs.cells}

    their_columns = {c.name for c in theirs.columns}
    return OneSided(
        cells=tuple(_cell_order(cells)),
        models=tuple(sorted(parts(0))),
        languages=tuple(order_languages(parts(1))),
        modes=tuple(sorted(parts(2))),
        scenes=tuple(sorted(mine.scenes - theirs.scenes)),
        columns=tuple(c.name for c in mine.columns if c.name not in their_columns),
    )


def compare_runs(
    base: ScoredRun,
    new: ScoredRun,
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Comparison:
    """Pair the replies of two runs and measure every difference (see the module docstring)."""
    new_names = {c.name for c in new.columns}
    columns = tuple(c for c in base.columns if c.name in new_names)
    if SCORE not in {c.name for c in columns}:
        raise FileFormatError(new.path, f"no {SCORE!r} composite in both runs to compare")
    shared = _cell_order([key for key in base.cells if key in new.cells])
    cells = []
    for key in shared:
        before, after = base.cells[key], new.cells[key]
        scenes = sorted(set(before) & set(after))
        cells.append(
            CellComparison(
                key,
                len(scenes),
                tuple(sorted(set(before) - set(after))),
                tuple(sorted(set(after) - set(before))),
                _differences(
                    before,
                    after,
                    scenes,
                    columns,
                    seed=seed,
                    resamples=resamples,
                    confidence=confidence,
                ),
                _parse_changes(key, before, after, scenes),
            )
        )
    settings = tuple(
        (key, base.settings.get(key), new.settings.get(key))
        for key in SETTINGS
        if base.settings.get(key) != new.settings.get(key)
    )
    return Comparison(
        base,
        new,
        columns,
        tuple(cells),
        _one_sided(base, new, [k for k in base.cells if k not in new.cells]),
        _one_sided(new, base, [k for k in new.cells if k not in base.cells]),
        settings,
        seed,
        resamples,
        confidence,
    )


# --- gates ---------------------------------------------------------------------------------

FailureKind = Literal["score_drop", "parse_change", "missing"]


@dataclass(frozen=True)
class Gates:
    """``fail_below``: fail a cell whose Reconstruct Score drops by more than this with a CI
    of the drop that excludes 0 (None: no such gate); ``fail_on_parse_change``: fail on any
    reply that parsed in the base and not in the new run; ``fail_on_missing``: fail on any
    cell or reply of the base that the new run lacks."""

    fail_below: float | None = None
    fail_on_parse_change: bool = False
    fail_on_missing: bool = False

    def __post_init__(self) -> None:
        if self.fail_below is not None and not self.fail_below >= 0:
            raise ValueError(f"fail_below must be 0 or more, got {self.fail_below}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "fail_below": self.fail_below,
            "fail_on_parse_change": self.fail_on_parse_change,
            "fail_on_missing": self.fail_on_missing,
        }


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    cell: CellKey
    message: str
    numbers: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.cell._asdict(), "message": self.message, **self.numbers}


@dataclass(frozen=True)
class ComparisonVerdict:
    gates: Gates
    failures: tuple[Failure, ...]

    @property
    def passed(self) -> bool:
        return not self.failures

    def of_cell(self, cell: CellKey) -> list[Failure]:
        return [f for f in self.failures if f.cell == cell]

    def to_dict(self, comparison: Comparison) -> dict[str, Any]:
        kinds: dict[str, int] = {"score_drop": 0, "parse_change": 0, "missing": 0}
        for failure in self.failures:
            kinds[failure.kind] += 1
        return {
            "schema_version": 1,
            "passed": self.passed,
            "base": str(comparison.base.path),
            "new": str(comparison.new.path),
            "gates": self.gates.to_dict(),
            "counts": {
                "cells_compared": len(comparison.cells),
                "cells_moved": len(comparison.moved),
                "failures": kinds,
            },
            "failures": [f.to_dict() for f in self.failures],
        }


def judge(comparison: Comparison, gates: Gates) -> ComparisonVerdict:
    """Every failure of ``comparison`` under ``gates``, cell by cell in table order."""
    failures: list[Failure] = []
    for cell in comparison.cells:
        e = cell.score.difference
        # A drop whose CI lies wholly below 0, by more than the threshold.
        if gates.fail_below is not None and e.below_zero and -e.mean > gates.fail_below:
            failures.append(
                Failure(
                    "score_drop",
                    cell.cell,
                    f"Reconstruct Score dropped by {-e.mean:.3f} (95% CI of the difference "
                    f"[{e.low:.3f}, {e.high:.3f}] over {cell.scenes} scenes), more than "
                    f"{gates.fail_below:g}",
                    {
                        "base": cell.score.base,
                        "new": cell.score.new,
                        "difference": e.mean,
                        "low": e.low,
                        "high": e.high,
                        "scenes": cell.scenes,
                    },
                )
            )
        if gates.fail_on_parse_change:
            for change in cell.parse_changes:
                if change.kind == "lost":
                    failures.append(
                        Failure(
                            "parse_change",
                            cell.cell,
                            f"scene {change.scene_id}: parsed in the base run, not in the new "
                            f"one ({change.failure_reason or 'no reason given'})",
                            {
                                "scene_id": change.scene_id,
                                "base_line": change.base_line,
                                "new_line": change.new_line,
                                "failure_reason": change.failure_reason,
                            },
                        )
                    )
        if gates.fail_on_missing and cell.only_base_scenes:
            failures.append(
                Failure(
                    "missing",
                    cell.cell,
                    f"{len(cell.only_base_scenes)} scenes of the base run have no reply in the "
                    "new one",
                    {"scenes": list(cell.only_base_scenes)},
                )
            )
    if gates.fail_on_missing:
        failures += [
            Failure("missing", key, "the cell is not in the new run", {})
            for key in comparison.only_base.cells
        ]
    return ComparisonVerdict(gates, tuple(failures))
