"""A split: the set of scenes (``synth.unit_set`` with the scene kind), then the split-level
files (``subsets.json``, ``qa.jsonl``, ``manifest.json``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from spatialbabel import Scene
from spatialbabel.files import write_json, write_jsonl
from synth.config import GENERATOR_NAME, GENERATOR_VERSION, SceneParameters, ScenePaths, scene_id
from synth.manifest import MANIFEST, build_manifest, file_hashes
from synth.subsets import stratified_subsets
from synth.tiers import tier_of
from synth.unit import describe_scene, unit_done
from synth.unit_set import UnitKind, UnitSet
from synth.workers import run_unit


def finalise_split(
    split: UnitSet[SceneParameters], eval_size: int, phase1_size: int
) -> dict[str, Any]:
    """Write subsets, questions and the manifest from the finished scenes; returns the manifest."""
    from synth.questions import SplitRules, generate_split_questions

    root, params = split.out, split.params
    scenes = [
        Scene.load(root / ScenePaths.of(scene_id(i), params.views).scene) for i in range(split.n)
    ]
    tiers = [(s.scene_id, tier_of(i, params.tiers).name) for i, s in enumerate(scenes)]
    subsets = stratified_subsets(tiers, params.seed, eval_size, phase1_size)
    write_json(root / "subsets.json", subsets)
    # Above and below mean stacking: asked only where the split stacks objects.
    rules = SplitRules.of_generator(params.stack_prob)
    questions = generate_split_questions(scenes, params.seed, rules=rules)
    write_jsonl(root / "qa.jsonl", questions)
    names = [p for i in range(split.n) for p in ScenePaths.of(scene_id(i), params.views).all()]
    by_tier = {name: 0 for name in params.tiers}
    for _, tier in tiers:
        by_tier[tier] += 1
    manifest = build_manifest(
        generator={"name": GENERATOR_NAME, "version": GENERATOR_VERSION},
        blender_versions=[str(s.meta.get("blender_version", "unknown")) for s in scenes],
        parameters={
            "n": split.n,
            **params.to_dict(),
            "stack_prob": params.stack_prob,
            "eval_size": eval_size,
            "phase1_size": phase1_size,
        },
        counts={
            "scenes": split.n,
            "objects": sum(len(s.objects) for s in scenes),
            "stacked_objects": sum(o.parent is not None for s in scenes for o in s.objects),
            "by_tier": by_tier,
            "subsets": {
                name: subsets["counts"][name]["total"] for name in ("eval", "phase1", "unused")
            },
            "questions": len(questions),
        },
        files=file_hashes(root, [*names, "subsets.json", "qa.jsonl"]),
    )
    write_json(root / MANIFEST, manifest)
    return manifest


def split_set(
    out: Path,
    n: int,
    params: SceneParameters | None = None,
    workers: int = 1,
    eval_size: int = 101,
    phase1_size: int = 467,
) -> UnitSet[SceneParameters]:
    """The split of ``n`` scenes in ``out``; ``.generate()`` makes (or finishes) it and returns
    its manifest. ``eval_size`` and ``phase1_size`` are the sizes of its subsets."""
    kind = UnitKind(
        label="scene",
        desc="generate",
        unit=run_unit,
        done=unit_done,
        describe=describe_scene,
        finalise=partial(finalise_split, eval_size=eval_size, phase1_size=phase1_size),
    )
    split = UnitSet(kind, out, n, SceneParameters() if params is None else params, workers)
    if eval_size < 0 or phase1_size < 0:
        raise ValueError("subset sizes must not be negative")
    return split


__all__ = ["finalise_split", "split_set"]
