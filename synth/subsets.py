"""The eval / phase1 / unused subsets of a split, stratified by tier and deterministic in the seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

#: Spawn key of the subsets' random stream, apart from every scene's ``[seed, index]``.
SUBSETS_STREAM: Final = 1
SUBSET_NAMES: Final = ("eval", "phase1", "unused")


def _quotas(available: dict[str, int], total: int) -> dict[str, int]:
    """``total`` spread over the tiers in proportion to ``available`` (largest remainders,
    ties to the tier listed first), never more than a tier has."""
    pool = sum(available.values())
    total = min(total, pool)
    if pool == 0:
        return {tier: 0 for tier in available}
    exact = {tier: total * count / pool for tier, count in available.items()}
    quota = {tier: int(value) for tier, value in exact.items()}
    order = sorted(available, key=lambda t: (-(exact[t] - quota[t]), list(available).index(t)))
    for tier in order[: total - sum(quota.values())]:
        quota[tier] += 1
    return quota


def stratified_subsets(
    scene_tiers: Sequence[tuple[str, str]],
    seed: int,
    eval_size: int,
    phase1_size: int,
    *,
    stratified_by: str = "tier",
) -> dict[str, Any]:
    """Subsets of ``scene_tiers`` ((scene_id, tier) pairs): ``eval`` first, then ``phase1``,
    the rest ``unused``; each subset holds the tiers in the split's proportions. Sizes larger
    than what is left are cut down. Lists are sorted by scene id. ``stratified_by`` names what
    the tiers are (an importer's subsets stratify by object count)."""
    if eval_size < 0 or phase1_size < 0:
        raise ValueError(f"subset sizes must not be negative, got {eval_size} and {phase1_size}")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(SUBSETS_STREAM,)))
    by_tier: dict[str, list[str]] = {}
    for identifier, tier in sorted(scene_tiers):
        by_tier.setdefault(tier, []).append(identifier)
    tiers = sorted(by_tier)
    shuffled = {
        tier: [by_tier[tier][int(i)] for i in rng.permutation(len(by_tier[tier]))] for tier in tiers
    }
    taken = dict.fromkeys(tiers, 0)
    result: dict[str, list[str]] = {}
    for name, size in (("eval", eval_size), ("phase1", phase1_size)):
        left = {tier: len(shuffled[tier]) - taken[tier] for tier in tiers}
        quota = _quotas(left, size)
        chosen: list[str] = []
        for tier in tiers:
            chosen += shuffled[tier][taken[tier] : taken[tier] + quota[tier]]
            taken[tier] += quota[tier]
        result[name] = sorted(chosen)
    result["unused"] = sorted(i for tier in tiers for i in shuffled[tier][taken[tier] :])
    tier_of = dict(scene_tiers)
    counts = {
        name: {
            "total": len(result[name]),
            **{t: sum(tier_of[i] == t for i in result[name]) for t in tiers},
        }
        for name in SUBSET_NAMES
    }
    return {"seed": seed, "stratified_by": stratified_by, **result, "counts": counts}
