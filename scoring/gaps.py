"""A model's gap between its languages, and which of its language differences are real.

The paper's headline is a model's gap between its best and worst language. Per (model, mode),
over the scenes that every language of the model answered, each language's Reconstruct Score
(the cell's influence values, ``scoring.aggregate.composite_values``, whose mean is the score)
is resampled scene by scene with one paired bootstrap for all languages
(``spatialbabel.stats.paired_bootstrap_means``). From the same resamples:

- Δ, the top language's score minus the bottom one's, with the CI of that paired difference
  (the two languages fixed by the point estimates: the resampled max - min would be biased
  up, never reaching 0 even between identical languages);
- for every pair of languages, whether one is significantly better (its paired 95% CI
  excludes 0; the pairs are not corrected for their number).

A language is marked best (worst) only when it is significantly better (worse) than every
other; otherwise the languages not significantly below the top (above the bottom) are tied.
A language's rank is 1 + the number of languages significantly better than it, and it has no
rank (tied) when it differs significantly from none.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np

from scoring.aggregate import composite_values
from scoring.metrics import COMPOSITES
from scoring.reply import ReplyScore
from spatialbabel import LANGUAGES
from spatialbabel.stats import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    Estimate,
    paired_bootstrap_means,
    percentile_estimate,
)

Standing = Literal["best", "worst", "tied", ""]

#: The composite whose gap is measured: the Reconstruct Score.
GAP_COMPOSITE: Final = COMPOSITES[0]


@dataclass(frozen=True)
class LanguageGap:
    """One model in one mode across its languages, over the ``scenes`` every one answered."""

    model: str
    mode: str
    languages: tuple[str, ...]
    scenes: int
    scores: dict[str, float]
    delta: Estimate
    top: str
    bottom: str
    #: (a, b) pairs where language a scores significantly higher than language b.
    better: frozenset[tuple[str, str]]

    @property
    def significant(self) -> bool:
        """Whether the gap between the top and bottom language is real (its CI excludes 0)."""
        return self.delta.excludes_zero

    def _beaten_by(self, language: str) -> int:
        return sum((other, language) in self.better for other in self.languages)

    def _beats(self, language: str) -> int:
        return sum((language, other) in self.better for other in self.languages)

    @property
    def tied_best(self) -> tuple[str, ...]:
        """The top language and every one not significantly below it."""
        return tuple(
            lang
            for lang in self.languages
            if lang == self.top or (self.top, lang) not in self.better
        )

    @property
    def tied_worst(self) -> tuple[str, ...]:
        """The bottom language and every one not significantly above it."""
        return tuple(
            lang
            for lang in self.languages
            if lang == self.bottom or (lang, self.bottom) not in self.better
        )

    @property
    def best(self) -> str | None:
        """The language significantly better than every other, if there is one."""
        return self.top if len(self.tied_best) == 1 else None

    @property
    def worst(self) -> str | None:
        """The language significantly worse than every other, if there is one."""
        return self.bottom if len(self.tied_worst) == 1 else None

    def rank(self, language: str) -> int | None:
        """1 + the number of languages significantly better; None when the language differs
        significantly from none (it is tied with all)."""
        if language not in self.languages:
            raise KeyError(f"{self.model} ({self.mode}) has no language {language!r}")
        beaten_by = self._beaten_by(language)
        if beaten_by == 0 and self._beats(language) == 0:
            return None
        return 1 + beaten_by

    def standing(self, language: str) -> Standing:
        if language == self.best:
            return "best"
        if language == self.worst:
            return "worst"
        return "tied" if self.rank(language) is None else ""

    def best_text(self) -> str:
        """The best language, ``tied: a, b`` when several are not significantly apart, or
        ``tied`` when no language is significantly below the top."""
        return _tie_text(self.best, self.tied_best, len(self.languages))

    def worst_text(self) -> str:
        return _tie_text(self.worst, self.tied_worst, len(self.languages))

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "languages": list(self.languages),
            "scenes": self.scenes,
            "scores": {k: _number(v) for k, v in self.scores.items()},
            "delta": {k: _number(v) for k, v in self.delta.to_dict().items()},
            "significant": self.significant,
            "best": self.best,
            "worst": self.worst,
            "tied_best": list(self.tied_best),
            "tied_worst": list(self.tied_worst),
            "ranks": {lang: self.rank(lang) for lang in self.languages},
            "better": sorted([a, b] for a, b in self.better),
        }


def _number(value: float | int) -> float | int | None:
    return None if isinstance(value, float) and math.isnan(value) else value


def _tie_text(single: str | None, tied: Sequence[str], count: int) -> str:
    if single is not None:
        return single
    return "tied" if len(tied) == count else "tied: " + ", ".join(tied)


def _ordered(languages: set[str]) -> tuple[str, ...]:
    return tuple(lang for lang in LANGUAGES if lang in languages) + tuple(
        sorted(languages - set(LANGUAGES))
    )


def language_gaps(
    replies: Sequence[ReplyScore],
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> tuple[LanguageGap, ...]:
    """The gap of every (model, mode) with at least two languages, ordered by mode and model."""
    grouped: dict[tuple[str, str], dict[str, dict[str, ReplyScore]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for reply in replies:
        grouped[(reply.model, reply.mode)][reply.language][reply.scene_id] = reply
    gaps = []
    for (model, mode), by_language in sorted(grouped.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        languages = _ordered(set(by_language))
        if len(languages) < 2:
            continue
        shared = sorted(set.intersection(*(set(by_language[lang]) for lang in languages)))
        if not shared:
            nan = math.nan
            gaps.append(
                LanguageGap(
                    model,
                    mode,
                    languages,
                    0,
                    dict.fromkeys(languages, nan),
                    Estimate(nan, nan, nan, 0),
                    languages[0],
                    languages[-1],
                    frozenset(),
                )
            )
            continue
        columns = np.stack(
            [
                composite_values([by_language[lang][s] for s in shared], GAP_COMPOSITE)
                for lang in languages
            ]
        )
        means, resampled, units = paired_bootstrap_means(
            columns, groups=shared, seed=seed, resamples=resamples
        )
        # argmax/argmin keep the first language of the benchmark's order on a tie.
        top, bottom = int(np.argmax(means)), int(np.argmin(means))
        delta = percentile_estimate(
            float(means[top] - means[bottom]),
            resampled[top] - resampled[bottom],
            units,
            confidence=confidence,
        )
        better = set()
        for i in range(len(languages)):
            for j in range(i + 1, len(languages)):
                difference = percentile_estimate(
                    float(means[i] - means[j]),
                    resampled[i] - resampled[j],
                    units,
                    confidence=confidence,
                )
                if difference.above_zero:
                    better.add((languages[i], languages[j]))
                elif difference.below_zero:
                    better.add((languages[j], languages[i]))
        gaps.append(
            LanguageGap(
                model,
                mode,
                languages,
                units,
                {lang: float(m) for lang, m in zip(languages, means, strict=True)},
                delta,
                languages[top],
                languages[bottom],
                frozenset(better),
            )
        )
    return tuple(gaps)
