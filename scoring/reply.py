"""Scoring one reply: its parse, its matching to the true scene and every metric's value."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from parsers import ParseResult, parse
from scoring.matching import Matching
from scoring.metrics import (
    COMPOSITES,
    METRICS,
    Composite,
    Metric,
    ReplyContext,
    ScoreOptions,
    metric_names,
)
from spatialbabel import ModelOutput, Scene


def registered_metrics() -> tuple[Metric, ...]:
    return tuple(METRICS.get(name) for name in metric_names())


@dataclass(frozen=True)
class ReplyScore:
    """Everything measured about one reply. ``values`` holds each metric's value (``None``
    where undefined, e.g. class accuracy of a failed parse); ``truncated`` says the runner
    recorded the reply as cut at the token limit; ``prediction`` is the parsed scene (kept in
    memory for callers such as the renderer, not written to JSON)."""

    scene_id: str
    parsed: bool
    failure_reason: str | None
    n_predicted: int
    n_true: int
    matching: Matching
    alignment: str | None
    values: Mapping[str, float | None]
    diagnostics: tuple[Mapping[str, Any], ...] = ()
    model: str = ""
    language: str = ""
    mode: str = ""
    line: int | None = None
    tier: int | None = None
    truncated: bool = False
    prediction: Scene | None = field(default=None, compare=False, repr=False)
    truth: Scene | None = field(default=None, compare=False, repr=False)

    def composite(self, item: Composite) -> float | None:
        """This reply's value of a composite: the mean of its parts, if all are defined."""
        parts = [self.values.get(name) for name in item.parts]
        if any(v is None for v in parts):
            return None
        return math.fsum(v for v in parts if v is not None) / len(parts)

    @property
    def score(self) -> float | None:
        """The reply's Reconstruct Score; ``None`` for a failed parse under the paper's rule
        (its class accuracy and fidelities are left out of the cell means, not zero)."""
        return self.composite(COMPOSITES[0])

    def to_dict(self) -> dict[str, Any]:
        pairs = []
        for pair in self.matching.pairs:
            item = pair.to_dict()
            if self.prediction is not None and self.truth is not None:
                item["predicted_id"] = self.prediction.objects[pair.predicted].id
                item["true_id"] = self.truth.objects[pair.true].id
            pairs.append(item)
        return {
            "line": self.line,
            "scene_id": self.scene_id,
            "model": self.model,
            "language": self.language,
            "mode": self.mode,
            "tier": self.tier,
            "parsed": self.parsed,
            "failure_reason": self.failure_reason,
            "truncated": self.truncated,
            "n_predicted": self.n_predicted,
            "n_true": self.n_true,
            **{c.name: self.composite(c) for c in COMPOSITES},
            "values": dict(self.values),
            "alignment": self.alignment,
            "matching": {
                "pairs": pairs,
                "unmatched_predicted": list(self.matching.unmatched_predicted),
                "unmatched_true": list(self.matching.unmatched_true),
            },
            "diagnostics": [dict(d) for d in self.diagnostics],
        }


_TIER_NAME = re.compile(r"^[Tt]?([1-9]\d*)$")


def scene_tier(scene: Scene) -> int | None:
    """The scene's difficulty tier from ``meta["tier"]`` (an int, or a name like ``"T3"``)."""
    value = scene.meta.get("tier")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and (found := _TIER_NAME.match(value.strip())):
        return int(found.group(1))
    return None


def score_reply(
    reply: ParseResult | Scene,
    truth: Scene,
    *,
    options: ScoreOptions | None = None,
    extra_metrics: Sequence[Metric] = (),
) -> ReplyScore:
    """Score one parsed reply (or a scene built any other way) against the true scene."""
    options = options or ScoreOptions()
    language = ""
    if isinstance(reply, ParseResult):
        prediction, parsed, reason, language = (
            reply.scene,
            reply.ok,
            reply.failure_reason,
            reply.language,
        )
        diagnostics: tuple[Mapping[str, Any], ...] = tuple(d.to_dict() for d in reply.diagnostics)
    else:
        prediction, parsed = reply, bool(reply.objects)
        reason = None if parsed else "the scene has no objects"
        diagnostics = ()
    context = ReplyContext(
        prediction, truth, parsed=parsed, options=options, diagnostics=diagnostics
    )
    values: dict[str, float | None] = {}
    for item in (*registered_metrics(), *extra_metrics):
        value = item.fn(context)
        if value is not None and not math.isfinite(value):
            value = None  # an extra metric's NaN: undefined, as the JSON must say
        if value is None and not parsed and options.failed_as_zero and item.zero_when_failed:
            value = 0.0
        values[item.name] = value
    alignment = context.alignment
    return ReplyScore(
        scene_id=truth.scene_id,
        parsed=parsed,
        failure_reason=reason,
        n_predicted=len(prediction.objects),
        n_true=len(truth.objects),
        matching=context.matching,
        alignment=None if alignment is None else alignment.axis_map,
        values=values,
        diagnostics=diagnostics,
        language=language,
        tier=scene_tier(truth),
        prediction=prediction,
        truth=truth,
    )


def score_output(
    output: ModelOutput,
    truth: Scene,
    *,
    line: int | None = None,
    options: ScoreOptions | None = None,
    extra_metrics: Sequence[Metric] = (),
) -> ReplyScore:
    """Parse one model output in its language and score it against the true scene."""
    if output.scene_id != truth.scene_id:
        raise ValueError(f"output is for scene {output.scene_id!r}, truth is {truth.scene_id!r}")
    result = parse(output.output, output.language, scene_id=output.scene_id, domain=truth.domain)
    scored = score_reply(result, truth, options=options, extra_metrics=extra_metrics)
    return replace(
        scored,
        model=output.model,
        language=output.language,
        mode=output.mode,
        line=line,
        truncated=output.truncated,
    )
