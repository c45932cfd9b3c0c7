"""Across models: does reconstructing well go with answering questions well? (the paper's
Table 10).

Each model is one point: its Reconstruct F1 averaged over its languages (``scoring.tables
.language_means``, the paper's Table 9 column) in one reconstruction mode, against its QA
accuracy in one QA mode (``spatialbabel score-qa``'s ``qa_scores.json``). Pearson's r and
Spearman's rho come from ``scipy.stats`` with their two-sided p-values; the number of models is
the number of points, and with few of them a correlation is weak evidence whatever its size
(with 5 models, r must exceed 0.88 for p < 0.05).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from scoring.tables import LanguageMean

#: Below this many models neither coefficient is computed: two points always lie on a line.
MIN_MODELS: Final = 3


@dataclass(frozen=True)
class Correlation:
    """Per-model pairs (reconstruction column, QA accuracy) and their correlation."""

    metric: str
    mode: str
    qa_mode: str
    models: tuple[str, ...]
    reconstruct: tuple[float, ...]
    qa: tuple[float, ...]
    pearson: float = math.nan
    pearson_p: float = math.nan
    spearman: float = math.nan
    spearman_p: float = math.nan
    #: Models in only one of the two runs, left out.
    unpaired: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.models)

    @property
    def critical_r(self) -> float:
        """The smallest |r| whose two-sided p-value is below 0.05 with this many models (NaN
        below ``MIN_MODELS``): how large a correlation must be before it means much."""
        from scipy import stats

        if self.n < MIN_MODELS:
            return math.nan
        df = self.n - 2
        t = float(stats.t.ppf(0.975, df))
        return t / math.sqrt(t * t + df)

    def to_dict(self) -> dict[str, Any]:
        def number(value: float) -> float | None:
            return None if math.isnan(value) else value

        return {
            "metric": self.metric,
            "mode": self.mode,
            "qa_mode": self.qa_mode,
            "n_models": self.n,
            "models": [
                {"model": m, "reconstruct": number(r), "qa_accuracy": number(q)}
                for m, r, q in zip(self.models, self.reconstruct, self.qa, strict=True)
            ],
            "pearson": {"r": number(self.pearson), "p": number(self.pearson_p)},
            "spearman": {"rho": number(self.spearman), "p": number(self.spearman_p)},
            "unpaired": list(self.unpaired),
        }


def qa_accuracy_by_model(
    data: Mapping[str, Any], mode: str, source: str = "qa_scores.json"
) -> dict[str, float]:
    """Each model's accuracy in QA mode ``mode`` from ``score-qa``'s result file (its
    ``summary.<model>.by_mode.<mode>.mean``); a ValueError names what is malformed."""
    summary = data.get("summary")
    if not isinstance(summary, Mapping):
        raise ValueError(f"{source}: no summary object (is this score-qa's {source}?)")
    found: dict[str, float] = {}
    for model, entry in summary.items():
        by_mode = entry.get("by_mode") if isinstance(entry, Mapping) else None
        if not isinstance(by_mode, Mapping):
            raise ValueError(f"{source}: summary.{model}.by_mode is not an object")
        estimate = by_mode.get(mode)
        if estimate is None:
            continue
        mean = estimate.get("mean") if isinstance(estimate, Mapping) else None
        if isinstance(mean, bool) or not isinstance(mean, int | float):
            raise ValueError(f"{source}: summary.{model}.by_mode.{mode}.mean is not a number")
        found[str(model)] = float(mean)
    return found


def correlate(
    means: Sequence[LanguageMean],
    qa: Mapping[str, float],
    *,
    metric: str = "f1",
    mode: str = "direct",
    qa_mode: str = "direct",
) -> Correlation:
    """The per-model correlation of ``metric``'s language mean in reconstruction mode ``mode``
    with the QA accuracy; models with either value missing are left out (and named)."""
    from scipy import stats

    reconstruct = {
        m.model: m.means.get(metric, math.nan)
        for m in means
        if m.mode == mode and not math.isnan(m.means.get(metric, math.nan))
    }
    models = tuple(sorted(set(reconstruct) & set(qa)))
    unpaired = tuple(sorted(set(reconstruct) ^ set(qa)))
    xs = tuple(reconstruct[m] for m in models)
    ys = tuple(qa[m] for m in models)
    result = Correlation(metric, mode, qa_mode, models, xs, ys, unpaired=unpaired)
    if len(models) < MIN_MODELS or len(set(xs)) < 2 or len(set(ys)) < 2:
        return result
    with warnings.catch_warnings():
        # A p-value from 3 points is what it is; the note says so.
        warnings.simplefilter("ignore")
        pearson = stats.pearsonr(xs, ys)
        spearman = stats.spearmanr(xs, ys)
    return Correlation(
        metric,
        mode,
        qa_mode,
        models,
        xs,
        ys,
        float(pearson.statistic),
        float(pearson.pvalue),
        float(spearman.statistic),
        float(spearman.pvalue),
        unpaired,
    )


__all__ = ["MIN_MODELS", "Correlation", "correlate", "qa_accuracy_by_model"]
