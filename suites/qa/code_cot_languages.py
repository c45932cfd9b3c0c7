"""Each model's primitive-best and primitive-worst language, for Code-CoT modes (iii) and (iv).

The paper's QA modes (iii) and (iv) reconstruct the scene in the model's best and worst
language of the reconstruction table before answering. The picks come from a scores folder
(``scores.json`` of ``spatialbabel score``): its ``language_gaps`` of the reconstruction mode
``direct`` (``scoring.gaps``), judged as the gap tables judge them. A language is *the* best
(worst) only when it is significantly better (worse) than every other; otherwise the language
with the highest (lowest) Reconstruct Score is taken and the languages within reach of it are
recorded as tied with it, and said so wherever the pick is printed.

``code_cot:best`` and ``code_cot:worst`` in ``spatialbabel prompts --modes`` become
``code_cot:<language>`` of the picks, so the requests, the answers and the reconstruction check
all name the real language; the side file ``<out stem>.languages.json`` records the picks.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel import LANGUAGES
from spatialbabel.files import FileFormatError, JsonFields, atomic_write_bytes, read_json

BEST: Final = "code_cot:best"
WORST: Final = "code_cot:worst"
#: The reconstruction mode whose table the picks come from (the paper's primitive table).
PICK_MODE: Final = "direct"
SCORES_FILE: Final = "scores.json"


@dataclass(frozen=True)
class LanguagePick:
    """One model's best and worst language, and the languages tied with each."""

    model: str
    best: str
    worst: str
    #: The languages not significantly below ``best`` (``best`` included); one: a clear best.
    tied_best: tuple[str, ...]
    tied_worst: tuple[str, ...]
    #: Reconstruct Score per language in the reconstruction table.
    scores: Mapping[str, float | None]
    source: str = ""

    @property
    def best_mode(self) -> str:
        return f"code_cot:{self.best}"

    @property
    def worst_mode(self) -> str:
        return f"code_cot:{self.worst}"

    def text(self, end: str) -> str:
        """``json`` for a clear pick, ``json (tied with dsl, unity)`` otherwise."""
        chosen, tied = (
            (self.best, self.tied_best) if end == "best" else (self.worst, self.tied_worst)
        )
        others = [lang for lang in tied if lang != chosen]
        return f"{chosen} (tied with {', '.join(others)})" if others else chosen

    def describe(self) -> str:
        return f"{self.model}: best {self.text('best')}, worst {self.text('worst')}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "reconstruction_mode": PICK_MODE,
            "best": self.best,
            "worst": self.worst,
            "best_tied": len(self.tied_best) > 1,
            "worst_tied": len(self.tied_worst) > 1,
            "tied_best": list(self.tied_best),
            "tied_worst": list(self.tied_worst),
            "scores": dict(self.scores),
            "source": self.source,
        }


class _GapReader(JsonFields):
    def names(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{where}.{key}", f"expected a list of languages, got {value!r}")
        return tuple(value)

    def scores(self, data: Mapping[str, Any], where: str) -> dict[str, float | None]:
        found = self.mapping(data.get("scores"), f"{where}.scores")
        result: dict[str, float | None] = {}
        for language, value in found.items():
            if value is not None and not isinstance(value, int | float):
                raise self.fail(f"{where}.scores.{language}", f"expected a number, got {value!r}")
            result[str(language)] = None if value is None else float(value)
        return result


def _end(scores: Mapping[str, float | None], highest: bool) -> str | None:
    """The language with the highest (lowest) finite score; the benchmark's order breaks ties,
    as ``scoring.gaps`` does."""
    order = [lang for lang in LANGUAGES if lang in scores] + sorted(set(scores) - set(LANGUAGES))
    finite = [(lang, v) for lang in order if (v := scores[lang]) is not None and not math.isnan(v)]
    if not finite:
        return None
    pick = max if highest else min
    return pick(finite, key=lambda item: item[1])[0]


def scores_path(path: Path) -> Path:
    """``path`` itself when it is a file, else the scores.json in that folder."""
    return path if path.is_file() else path / SCORES_FILE


def read_picks(path: Path) -> dict[str, LanguagePick]:
    """Every model's pick from a scores folder (or a scores.json); an error names the file and
    the field. Models with fewer than two scored languages have no gap and no pick."""
    file = scores_path(path)
    data = read_json(file, expect_version=False)
    reader = _GapReader(file)
    gaps = data.get("language_gaps")
    if not isinstance(gaps, list):
        raise reader.fail(
            "language_gaps", "is missing; is this a scores.json written by 'spatialbabel score'?"
        )
    picks: dict[str, LanguagePick] = {}
    for index, item in enumerate(gaps):
        where = f"language_gaps[{index}]"
        gap = reader.mapping(item, where)
        if gap.get("mode") != PICK_MODE:
            continue
        model = gap.get("model")
        if not isinstance(model, str):
            raise reader.fail(f"{where}.model", f"expected a string, got {model!r}")
        scores = reader.scores(gap, where)
        top, bottom = _end(scores, True), _end(scores, False)
        if top is None or bottom is None:
            continue
        best, worst = gap.get("best"), gap.get("worst")
        tied_best = (best,) if isinstance(best, str) else reader.names(gap, "tied_best", where)
        tied_worst = (worst,) if isinstance(worst, str) else reader.names(gap, "tied_worst", where)
        picks[model] = LanguagePick(
            model,
            best if isinstance(best, str) else top,
            worst if isinstance(worst, str) else bottom,
            tied_best or (top,),
            tied_worst or (bottom,),
            scores,
            str(file),
        )
    return picks


def pick_for(picks: Mapping[str, LanguagePick], model: str, path: Path) -> LanguagePick:
    if model not in picks:
        known = ", ".join(sorted(picks)) or "none"
        raise FileFormatError(
            scores_path(path),
            f"no {PICK_MODE} language gap for model {model!r} (models with one: {known})",
        )
    return picks[model]


def resolve_modes(modes: Sequence[str], pick: LanguagePick) -> list[str]:
    """``modes`` with ``code_cot:best`` and ``code_cot:worst`` made the picks' languages."""
    named = {BEST: pick.best_mode, WORST: pick.worst_mode}
    return [named.get(mode, mode) for mode in modes]


def asks_picks(modes: Sequence[str]) -> bool:
    return any(mode in (BEST, WORST) for mode in modes)


def side_file(out: Path) -> Path:
    """Where the picks of a request file are recorded: ``requests.jsonl`` ->
    ``requests.languages.json``."""
    return out.with_suffix(".languages.json")


def write_side_file(out: Path, pick: LanguagePick) -> Path:
    path = side_file(out)
    text = json.dumps({"requests": out.name, **pick.to_dict()}, indent=2, sort_keys=True)
    atomic_write_bytes(path, (text + "\n").encode("utf-8"))
    return path


__all__ = [
    "BEST",
    "PICK_MODE",
    "WORST",
    "LanguagePick",
    "asks_picks",
    "pick_for",
    "read_picks",
    "resolve_modes",
    "scores_path",
    "side_file",
    "write_side_file",
]
