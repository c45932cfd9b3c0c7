"""A whole scoring run: read a split and predictions, score every reply (on an executor's
workers when asked: ``spatialbabel.run.executor``), aggregate. The result keeps everything the
output files are made from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.aggregate import Aggregate, aggregate
from scoring.inputs import (
    InputProblem,
    NumberedOutput,
    PredictionSet,
    Subset,
    load_truth,
    read_predictions,
)
from scoring.metrics import Metric, ScoreOptions
from scoring.reply import ReplyScore, score_output
from spatialbabel import Scene
from spatialbabel.run.executor import Executor, UnitLoop, WorkerContext
from spatialbabel.run.local_pool import LocalExecutor
from spatialbabel.split import SplitScenes
from spatialbabel.stats import DEFAULT_RESAMPLES

ScoringState = tuple[Mapping[str, Scene], ScoreOptions, Sequence[Metric]]


def _scoring_state(
    context: WorkerContext,
    scenes: Mapping[str, Scene],
    options: ScoreOptions,
    extra: Sequence[Metric],
) -> ScoringState:
    return scenes, options, extra


def _score_unit(state: ScoringState, item: NumberedOutput) -> ReplyScore:
    scenes, options, extra = state
    scored = score_output(
        item.output,
        scenes[item.output.scene_id],
        line=item.line,
        options=options,
        extra_metrics=extra,
    )
    # The caller holds the true scenes; sending each back with every reply would cost.
    return replace(scored, truth=None)


def _describe_reply(item: NumberedOutput) -> str:
    out = item.output
    return f"line {item.line} ({out.model}, {out.language}, {out.mode}, {out.scene_id})"


def score_outputs(
    outputs: Sequence[NumberedOutput],
    scenes: Mapping[str, Scene],
    *,
    options: ScoreOptions | None = None,
    extra_metrics: Sequence[Metric] = (),
    workers: int = 1,
    executor: Executor | None = None,
) -> list[ReplyScore]:
    """Parse and score each output against its scene, in input order, on ``executor``
    (default: ``workers`` local processes, forked, so extra metrics may be closures; a small
    run stays in this process)."""
    options = options or ScoreOptions()
    # Small enough batches that the workers finish together (the last batch of one is not
    # left to run alone), large enough that sending them costs nothing next to scoring them.
    loop = UnitLoop(
        setup=_scoring_state,
        run=_score_unit,
        args=(scenes, options, tuple(extra_metrics)),
        describe=_describe_reply,
        batches_per_worker=32,
    )
    if executor is None:
        executor = LocalExecutor(workers)
    scored = executor.map(loop, outputs)
    return [replace(r, truth=scenes[r.scene_id]) for r in scored]


@dataclass(frozen=True)
class ScoreRun:
    split: SplitScenes
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
    split: str | Path | SplitScenes,
    predictions: str | Path | PredictionSet,
    *,
    subset: Subset = "eval",
    options: ScoreOptions | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    extra_metrics: Sequence[Metric] = (),
    workers: int = 1,
    executor: Executor | None = None,
) -> ScoreRun:
    """Score a predictions JSONL against a split: the Python form of ``spatialbabel score``.
    Input problems are kept in the result (``run.problems``), never raised."""
    options = options or ScoreOptions()
    loaded = split if isinstance(split, SplitScenes) else load_truth(split, subset)
    read = (
        predictions
        if isinstance(predictions, PredictionSet)
        else read_predictions(predictions, loaded)
    )
    replies = score_outputs(
        read.outputs,
        loaded.scenes,
        options=options,
        extra_metrics=extra_metrics,
        workers=workers,
        executor=executor,
    )
    summary = aggregate(replies, seed=seed, resamples=resamples, extra_metrics=extra_metrics)
    return ScoreRun(loaded, read, options, tuple(replies), summary)
