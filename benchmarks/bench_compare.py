"""Time what issue 21 added to scoring: the per-model language gaps inside a run, the
comparison of two runs, and the class-matched F1 at IoU 0.5, each against a baseline measured
in the same run.

The replies are bench_score's (random tiered layouts, models of growing noise, every language
written by ``parsers.write`` and parsed back). Printed:

- the per-model gaps (``scoring.gaps.language_gaps``) against the rest of ``aggregate``;
- ``spatialbabel compare``'s work (reading two scores.json, pairing, a paired bootstrap per
  cell and metric, the four outputs) against ``aggregate`` of the same replies;
- the marginal cost of ``f1_class_iou`` per reply (its IoU matrix is the one ``f1_iou``
  already computed) against every other metric of the reply.

    .venv/bin/python benchmarks/bench_compare.py [--scenes 100] [--models 6] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from bench_score import Clock, build_replies, random_scene, report

from parsers import parse
from scoring import ReplyContext, ScoreOptions, aggregate, score_outputs
from scoring.compare import Gates, compare_runs, judge, read_scored_run
from scoring.compare_report import console_table, junit_xml, markdown_summary
from scoring.gaps import language_gaps
from scoring.metrics import METRICS, metric_names
from scoring.pipeline import ScoreRun
from scoring.tables import write_outputs
from spatialbabel.stats import DEFAULT_RESAMPLES


def _metric_cost(run: ScoreRun, sample: int) -> tuple[float, float]:
    """Seconds for every metric but the class-matched F1, and for it alone, over ``sample``
    replies (fresh contexts; the class-matched F1 runs last, as registered after f1_iou)."""
    others = [METRICS.get(n) for n in metric_names() if n != "f1_class_iou"]
    new = METRICS.get("f1_class_iou")
    rest = added = 0.0
    for reply in run.replies[:sample]:
        assert reply.prediction is not None and reply.truth is not None
        ctx = ReplyContext(
            reply.prediction, reply.truth, parsed=reply.parsed, options=ScoreOptions()
        )
        start = time.perf_counter()
        for item in others:
            item.fn(ctx)
        middle = time.perf_counter()
        new.fn(ctx)
        rest += middle - start
        added += time.perf_counter() - middle
    return rest, added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--models", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample", type=int, default=1000, help="replies timed per metric")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    scenes = [random_scene(i, rng) for i in range(args.scenes)]
    outputs, _fallback, targets = build_replies(scenes, args.models, 0)
    truth = {s.scene_id: s for s in scenes}
    scored = score_outputs(outputs, truth, workers=args.workers)
    replies = [replace(r, language=t, mode="bench") for r, t in zip(scored, targets, strict=True)]
    print(f"{len(replies)} replies: {args.models} models x 6 languages x {args.scenes} scenes")

    with Clock() as whole:
        summary = aggregate(replies, seed=0, resamples=DEFAULT_RESAMPLES)
    with Clock() as gaps:
        language_gaps(replies, seed=0, resamples=DEFAULT_RESAMPLES)
    rest = Clock.zero()
    rest.wall, rest.cpu = whole.wall - gaps.wall, whole.cpu - gaps.cpu
    report("aggregate without the gaps (baseline)", rest, f"{len(summary.cells)} cells")
    report(
        "language gaps",
        gaps,
        f"{len(summary.gaps)} (model, mode) gaps, {gaps.cpu / rest.cpu:.2f} x the baseline",
    )

    from scoring.inputs import PredictionSet
    from spatialbabel.split import SplitScenes

    run = ScoreRun(
        SplitScenes(Path("bench"), "eval", truth, frozenset(truth)),
        PredictionSet(Path("bench.jsonl"), (), (), ()),
        ScoreOptions(),
        tuple(replies),
        summary,
    )
    with tempfile.TemporaryDirectory() as folder:
        base, new = Path(folder) / "base", Path(folder) / "new"
        write_outputs(run, base)
        data = json.loads((base / "scores.json").read_text())
        for reply in data["replies"]:  # a planted change in one model, for the outputs to show
            if reply["model"] == "model_00" and reply["values"]["f1"] is not None:
                reply["values"]["f1"] *= 0.9
        new.mkdir()
        (new / "scores.json").write_text(json.dumps(data))
        with Clock() as compare:
            comparison = compare_runs(read_scored_run(base), read_scored_run(new))
            verdict = judge(comparison, Gates(fail_below=0.0))
            console_table(comparison, verdict)
            markdown_summary(comparison, verdict)
            junit_xml(comparison, verdict)
    report("aggregate of one run (baseline)", whole, f"{len(summary.cells)} cells, with the gaps")
    report(
        "compare two runs",
        compare,
        f"{len(comparison.cells)} cells, {len(comparison.columns)} columns each, "
        f"{compare.cpu / whole.cpu:.2f} x the baseline; {len(comparison.moved)} moved",
    )

    sample = min(args.sample, len(replies))
    with_parse = [
        replace(r, prediction=parse(o.output.output, o.output.language).scene)
        for r, o in zip(run.replies[:sample], outputs[:sample], strict=True)
    ]
    others, added = _metric_cost(replace(run, replies=tuple(with_parse)), sample)
    print(
        f"{'f1_class_iou per reply':<38} {1e3 * added / sample:7.3f} ms, every other metric "
        f"{1e3 * others / sample:.3f} ms: {added / others:.3f} x ({sample} replies)"
    )


if __name__ == "__main__":
    main()
