"""The five difficulty tiers: how many objects a scene holds and how large they are.

A scene's tier depends only on its index (``tier_of``), so tiers stay balanced across any
prefix of a split and a scene can be regenerated alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Tier:
    """``objects``: inclusive range of the object count; ``scale``: inclusive range of an
    object's footprint width in metres (denser tiers use smaller objects so they still fit)."""

    name: str
    objects: tuple[int, int]
    scale: tuple[float, float]


TIERS: Final[dict[str, Tier]] = {
    "T1": Tier("T1", (3, 3), (0.6, 1.2)),
    "T2": Tier("T2", (4, 6), (0.6, 1.2)),
    "T3": Tier("T3", (7, 10), (0.55, 1.1)),
    "T4": Tier("T4", (11, 15), (0.5, 1.0)),
    "T5": Tier("T5", (16, 20), (0.45, 0.9)),
}
TIER_NAMES: Final[tuple[str, ...]] = tuple(TIERS)


def parse_tiers(names: Sequence[str]) -> tuple[str, ...]:
    """Validate a list of tier names, keeping the order given; duplicates are refused."""
    result: list[str] = []
    for name in names:
        key = name.strip().upper()
        if key not in TIERS:
            raise ValueError(f"unknown tier {name!r}; known: {', '.join(TIER_NAMES)}")
        if key in result:
            raise ValueError(f"tier {key} is listed twice")
        result.append(key)
    if not result:
        raise ValueError("no tier given")
    return tuple(result)


def tier_of(index: int, tiers: Sequence[str] = TIER_NAMES) -> Tier:
    """The tier of scene ``index``: the tiers in turn, so every tier gets n/len(tiers) scenes."""
    if index < 0:
        raise ValueError(f"scene index must not be negative, got {index}")
    return TIERS[tiers[index % len(tiers)]]
