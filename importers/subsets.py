"""The stratified evaluation subset of an imported split (the paper's 200 of Hypersim's 405).

The scenes are put in five strata by how many objects each holds, the real-scene counterpart of
the primitive splits' tiers: the split's object counts are cut at their 20th, 40th, 60th and
80th percentiles (numpy's linear quantiles), a scene going to the lowest stratum whose upper
cut its count does not exceed (``T1`` the sparsest views, ``T5`` the most cluttered). The
subset then takes from every stratum in proportion to its size (largest remainders), each
stratum's scenes drawn by a seeded permutation: the generator's own rule
(``synth.subsets.stratified_subsets``), so the same split and seed give the same subset.
``phase1`` (S3-FT's training scenes) is drawn the same way from what the subset left; the
rest is ``unused``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from synth.subsets import stratified_subsets

#: Strata of an imported split and the percentiles that separate them.
STRATA: Final = ("T1", "T2", "T3", "T4", "T5")
CUTS: Final = (0.2, 0.4, 0.6, 0.8)
STRATIFIED_BY: Final = "object_count_quintile"


def object_count_strata(counts: Mapping[str, int]) -> dict[str, str]:
    """Each scene's stratum (``T1``..``T5``) from its object count."""
    if not counts:
        return {}
    edges = np.quantile(np.array(list(counts.values()), dtype=float), CUTS)
    return {
        scene_id: STRATA[int(np.searchsorted(edges, float(n), side="left"))]
        for scene_id, n in counts.items()
    }


def evaluation_subsets(
    counts: Mapping[str, int], *, size: int, phase1_size: int = 0, seed: int = 0
) -> dict[str, Any]:
    """``subsets.json`` of an imported split: ``eval`` the stratified ``size`` scenes, then
    ``phase1``, the rest ``unused``; with each stratum's object-count range and size."""
    if size < 1:
        raise ValueError(f"the subset must hold at least 1 scene, got {size}")
    if phase1_size < 0:
        raise ValueError(f"--phase1-size must not be negative, got {phase1_size}")
    strata = object_count_strata(counts)
    subsets = stratified_subsets(
        sorted(strata.items()), seed, size, phase1_size, stratified_by=STRATIFIED_BY
    )
    ranges = {}
    for name in STRATA:
        members = [counts[s] for s, t in strata.items() if t == name]
        if members:
            ranges[name] = {"objects": [min(members), max(members)], "scenes": len(members)}
    return {**subsets, "strata": ranges}


__all__ = ["CUTS", "STRATA", "STRATIFIED_BY", "evaluation_subsets", "object_count_strata"]
