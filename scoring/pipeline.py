"""A whole scoring run: read a split and predictions, score every reply (in worker processes
when asked), aggregate. The result keeps everything the output files are made from."""

from __future__ import annotations

import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.aggregate import Aggregate, aggregate
from scoring.inputs import (
    InputProblem,
    NumberedOutput,
    PredictionSet,
    Split,
    Subset,
    read_predictions,
)
from scoring.metrics import Metric, ScoreOptions
from scoring.reply import ReplyScore, score_output
from spatialbabel import Scene
from spatialbabel.stats import DEFAULT_RESAMPLES

# What worker processes score against; set once per worker by ``_init_worker``.
_WORKER_STATE: dict[str, Any] = {}


def _init_worker(
    scenes: Mapping[str, Scene], options: ScoreOptions, extra: Sequence[Metric]
) -> None:
    _WORKER_STATE.update(scenes=scenes, options=options, extra=extra)


def _score_in_worker(item: NumberedOutput) -> ReplyScore:
    scenes: Mapping[str, Scene] = _WORKER_STATE["scenes"]
    scored = score_output(
        item.output,
        scenes[item.output.scene_id],
        line=item.line,
        options=_WORKER_STATE["options"],
        extra_metrics=_WORKER_STATE["extra"],
    )
    # The parent holds the true scenes; sending each back with every reply would cost.
    return replace(scored, truth=None)


def score_outputs(
    outputs: Sequence[NumberedOutput],
    scenes: Mapping[str, Scene],
    *,
    options: ScoreOptions | None = None,
    extra_metrics: Sequence[Metric] = (),
    workers: int = 1,
) -> list[ReplyScore]:
    """Parse and score each output against its scene, in input order. ``workers > 1`` spreads
    the replies over that many processes (forked, so extra metrics may be closures)."""
    options = options or ScoreOptions()
    if (
        workers <= 1
        or len(outputs) < 2 * workers
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return [
            score_output(
                item.output,
                scenes[item.output.scene_id],
                line=item.line,
                options=options,
                extra_metrics=extra_metrics,
            )
            for item in outputs
        ]
    # Small enough chunks that the workers finish together (the last chunk of one is not left
    # to run alone), large enough that sending them costs nothing next to scoring them.
    chunk = max(1, len(outputs) // (workers * 32))
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_init_worker,
        initargs=(scenes, options, tuple(extra_metrics)),
    ) as pool:
        scored = pool.map(_score_in_worker, outputs, chunksize=chunk)
        return [replace(r, truth=scenes[r.scene_id]) for r in scored]


@dataclass(frozen=True)
class ScoreRun:
    split: Split
    predictions: PredictionSet
    options: ScoreOptions
    replies: tuple[ReplyScore, ...]
    aggregate: Aggregate

    @property
    def problems(self) -> tuple[InputProblem, ...]:
        return self.predictions.problems

    def summary(self) -> dict[str, Any]:
        return {
            "lines_scored": len(self.replies),
            "parse_failures": sum(not r.parsed for r in self.replies),
            "truncated": sum(r.truncated for r in self.replies),
            "skipped_outside_subset": len(self.predictions.skipped),
            "skipped_other_tasks": len(self.predictions.other_tasks),
            "problems": self.predictions.problem_counts(),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "split": str(self.split.root),
            "subset": self.split.subset,
            "scenes": len(self.split.scenes),
            "predictions": str(self.predictions.path),
            "options": self.options.to_dict(),
            "summary": self.summary(),
            "problems": [p.to_dict() for p in self.predictions.problems],
            "skipped_lines": list(self.predictions.skipped),
            **self.aggregate.to_dict(),
            "replies": [r.to_dict() for r in self.replies],
        }


def score_predictions(
    split: str | Path | Split,
    predictions: str | Path | PredictionSet,
    *,
    subset: Subset = "eval",
    options: ScoreOptions | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    extra_metrics: Sequence[Metric] = (),
    workers: int = 1,
) -> ScoreRun:
    """Score a predictions JSONL against a split: the Python form of ``spatialbabel score``.
    Input problems are kept in the result (``run.problems``), never raised."""
    options = options or ScoreOptions()
    loaded = split if isinstance(split, Split) else Split.load(split, subset)
    read = (
        predictions
        if isinstance(predictions, PredictionSet)
        else read_predictions(predictions, loaded)
    )
    replies = score_outputs(
        read.outputs, loaded.scenes, options=options, extra_metrics=extra_metrics, workers=workers
    )
    summary = aggregate(replies, seed=seed, resamples=resamples, extra_metrics=extra_metrics)
    return ScoreRun(loaded, read, options, tuple(replies), summary)
