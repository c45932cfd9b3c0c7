"""Reading the scorer's ``scores.json`` (written by ``spatialbabel score``) into typed records.

The report needs only part of the file: the metric and composite columns, the cells (overall
and per tier), each model's language gap (Δ with its paired CI, best, worst and ranks where
significant), each mode's difference from ``direct``, and each reply's values and Hungarian
pairs. A file that breaks that shape is a ``FileFormatError`` naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from scoring import CellSummary, ModeDifference
from spatialbabel.files import JsonFields, read_json
from spatialbabel.stats import Estimate

#: The composite every chart shows: the Reconstruct Score.
SCORE: Final = "score"
#: The optional column the scorer adds with ``--silhouette``.
SILHOUETTE: Final = "silhouette_iou"


@dataclass(frozen=True)
class Column:
    """A metric or composite: its key in the file, its label and which way is better."""

    name: str
    label: str
    higher_is_better: bool | None


@dataclass(frozen=True)
class Reply:
    """One scored reply; ``index`` is its position in the file's reply list, ``line`` its line
    in the predictions JSONL; ``pairs`` are (predicted index, true index)."""

    index: int
    line: int | None
    scene_id: str
    model: str
    language: str
    mode: str
    tier: int | None
    parsed: bool
    failure_reason: str | None
    score: float | None
    truncated: bool
    values: Mapping[str, float | None]
    pairs: tuple[tuple[int, int], ...]
    n_predicted: int
    n_true: int


@dataclass(frozen=True)
class Gap:
    """One model's gap between languages in one mode (``scoring.gaps``): the best and worst
    language where significant (None: tied), each language's rank (None: tied with all)."""

    model: str
    mode: str
    scenes: int
    delta: Estimate
    significant: bool
    best: str | None
    worst: str | None
    ranks: Mapping[str, int | None]
    tied_best: tuple[str, ...] = ()
    tied_worst: tuple[str, ...] = ()

    def standing_text(self, end: str) -> str:
        """``best`` or ``worst`` as the scorer's tables say it: the language, ``tied: a, b``
        when several are within reach, ``tied`` when all are."""
        single = self.best if end == "best" else self.worst
        tied = self.tied_best if end == "best" else self.tied_worst
        if single is not None:
            return single
        return "tied" if not tied or len(tied) == len(self.ranks) else "tied: " + ", ".join(tied)


@dataclass(frozen=True)
class ScoresFile:
    path: Path
    split: str | None
    subset: str | None
    predictions: str | None
    metrics: tuple[Column, ...]
    composites: tuple[Column, ...]
    cells: tuple[CellSummary, ...]
    tiers: tuple[CellSummary, ...]
    replies: tuple[Reply, ...]
    mode_differences: tuple[ModeDifference, ...] = ()
    #: Empty for a file written before the scorer measured gaps (then nothing is marked).
    gaps: tuple[Gap, ...] = ()

    @property
    def modes(self) -> list[str]:
        return sorted({c.mode for c in self.cells})

    @property
    def has_silhouette(self) -> bool:
        return any(m.name == SILHOUETTE for m in self.metrics)

    def columns(self) -> tuple[Column, ...]:
        """Composites first (the Reconstruct Score leading), then every metric."""
        return (*self.composites, *self.metrics)

    def gap(self, model: str, mode: str) -> Gap | None:
        for gap in self.gaps:
            if (gap.model, gap.mode) == (model, mode):
                return gap
        return None

    def label(self, name: str) -> str:
        for column in self.columns():
            if column.name == name:
                return column.label
        return name


class _Reader(JsonFields):
    def column(self, item: object, where: str) -> Column:
        data = self.mapping(item, where)
        name = self.text(data, "name", where)
        label = self.text(data, "label", where, optional=True) or name
        better = data.get("higher_is_better", True)
        return Column(name, label, better if isinstance(better, bool) else None)

    def gap(self, index: int, item: object) -> Gap:
        where = f"language_gaps[{index}]"
        data = self.mapping(item, where)
        ranks = {
            str(language): self.integer(data["ranks"], language, f"{where}.ranks")
            for language in self.mapping(data.get("ranks", {}), f"{where}.ranks")
        }
        return Gap(
            model=self.text(data, "model", where),
            mode=self.text(data, "mode", where),
            scenes=self.integer(data, "scenes", where) or 0,
            delta=Estimate.from_dict(data.get("delta", {}), self, f"{where}.delta"),
            significant=data.get("significant") is True,
            best=self.optional_text(data, "best", where),
            worst=self.optional_text(data, "worst", where),
            ranks=ranks,
            tied_best=self.names(data, "tied_best", where),
            tied_worst=self.names(data, "tied_worst", where),
        )

    def names(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{where}.{key}", f"expected a list of languages, got {value!r}")
        return tuple(value)

    def reply(self, index: int, item: object) -> Reply:
        where = f"replies[{index}]"
        data = self.mapping(item, where)
        pairs = []
        matching = self.mapping(data.get("matching", {}), f"{where}.matching")
        for k, pair in enumerate(self.items(matching, "pairs", f"{where}.matching.")):
            p = self.mapping(pair, f"{where}.matching.pairs[{k}]")
            predicted = self.integer(p, "predicted", f"{where}.matching.pairs[{k}]")
            true = self.integer(p, "true", f"{where}.matching.pairs[{k}]")
            if predicted is None or true is None:
                raise self.fail(
                    f"{where}.matching.pairs[{k}]", "expected integer 'predicted' and 'true'"
                )
            pairs.append((predicted, true))
        values = {
            str(name): (None if value is None else self.number(value, f"{where}.values.{name}"))
            for name, value in self.mapping(data.get("values", {}), f"{where}.values").items()
        }
        score = data.get(SCORE)
        reason = data.get("failure_reason")
        return Reply(
            index=index,
            line=self.integer(data, "line", where),
            scene_id=self.text(data, "scene_id", where),
            model=self.text(data, "model", where, optional=True),
            language=self.text(data, "language", where, optional=True),
            mode=self.text(data, "mode", where, optional=True),
            tier=self.integer(data, "tier", where),
            parsed=bool(data.get("parsed", False)),
            failure_reason=reason if isinstance(reason, str) else None,
            score=None if score is None else self.number(score, f"{where}.{SCORE}"),
            truncated=bool(data.get("truncated", False)),
            values=values,
            pairs=tuple(pairs),
            n_predicted=self.integer(data, "n_predicted", where) or 0,
            n_true=self.integer(data, "n_true", where) or 0,
        )


def read_scores(path: Path) -> ScoresFile:
    """Read a ``scores.json``; raises ``FileFormatError`` naming the file and the bad field."""
    path = Path(path)
    data = read_json(path)
    reader = _Reader(path)
    for key in ("cells", "replies"):
        if key not in data:
            raise reader.fail(
                key, "is missing; is this a scores.json written by 'spatialbabel score'?"
            )

    def optional_text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) else None

    tiers = [
        CellSummary.from_dict(c, reader, f"{key}[{i}]")
        for key in ("tiers", "model_tiers")
        for i, c in enumerate(reader.items(data, key))
    ]
    return ScoresFile(
        path=path,
        split=optional_text("split"),
        subset=optional_text("subset"),
        predictions=optional_text("predictions"),
        metrics=tuple(
            reader.column(m, f"metrics[{i}]") for i, m in enumerate(reader.items(data, "metrics"))
        ),
        composites=tuple(
            reader.column(c, f"composites[{i}]")
            for i, c in enumerate(reader.items(data, "composites"))
        ),
        cells=tuple(
            CellSummary.from_dict(c, reader, f"cells[{i}]")
            for i, c in enumerate(reader.items(data, "cells"))
        ),
        tiers=tuple(tiers),
        replies=tuple(reader.reply(i, r) for i, r in enumerate(reader.items(data, "replies"))),
        mode_differences=tuple(
            ModeDifference.from_dict(d, reader, f"mode_differences[{i}]")
            for i, d in enumerate(reader.items(data, "mode_differences"))
        ),
        gaps=tuple(reader.gap(i, g) for i, g in enumerate(reader.items(data, "language_gaps"))),
    )
