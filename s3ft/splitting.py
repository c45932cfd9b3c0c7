"""Train and validation scenes: 90/10 by scene, so no scene (and none of its views) is on both
sides.

The draw is over the whole ``phase1`` subset, not over the scenes whose replies survived the
filter, so every model's data of one split holds out the same scenes and a rebuild with a
better model does not move a scene from validation into training.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np

DEFAULT_SEED: Final = 42
DEFAULT_VAL_FRACTION: Final = 0.1
SPLITS: Final = ("train", "val")


def validation_scenes(
    scene_ids: Iterable[str],
    *,
    seed: int = DEFAULT_SEED,
    fraction: float = DEFAULT_VAL_FRACTION,
) -> frozenset[str]:
    """The held-out scenes: ``round(fraction * n)`` of them (at least one of two or more),
    drawn with ``seed`` from the sorted ids."""
    if not 0.0 <= fraction < 1.0:
        raise ValueError(f"the validation fraction must lie in [0, 1), got {fraction}")
    ids = sorted(set(scene_ids))
    count = round(fraction * len(ids))
    if fraction > 0 and count == 0 and len(ids) >= 2:
        count = 1
    order = np.random.default_rng(seed).permutation(len(ids))
    return frozenset(ids[int(i)] for i in order[:count])


__all__ = ["DEFAULT_SEED", "DEFAULT_VAL_FRACTION", "SPLITS", "validation_scenes"]
