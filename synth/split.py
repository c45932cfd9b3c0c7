"""Generating a whole split: the pending units on Blender workers (``synth.pool``), then the
split-level files (``subsets.json``, ``qa.jsonl``, ``manifest.json``).

A rerun into the same folder skips every finished unit (its scene JSON, written last, and its
images are there), removes the ``.tmp`` leftovers of interrupted writes and finishes the rest;
since each unit depends only on (seed, index), the result is the same bytes as an
uninterrupted run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from spatialbabel import Scene
from spatialbabel.executor import Executor
from spatialbabel.files import write_json, write_jsonl
from synth.config import GENERATOR_NAME, GENERATOR_VERSION, SceneParameters, ScenePaths, scene_id
from synth.manifest import MANIFEST, build_manifest, file_hashes
from synth.pool import run_pool
from synth.subsets import stratified_subsets
from synth.tiers import tier_of
from synth.unit import describe_scene, unit_done
from synth.workers import run_unit


@dataclass(frozen=True)
class SplitRequest:
    out: Path
    n: int
    params: SceneParameters = field(default_factory=SceneParameters)
    workers: int = 1
    eval_size: int = 101
    phase1_size: int = 467

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be at least 1, got {self.n}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if self.eval_size < 0 or self.phase1_size < 0:
            raise ValueError("subset sizes must not be negative")


def remove_leftovers(root: Path) -> list[Path]:
    """Delete the temporary files an interrupted atomic write leaves behind."""
    leftovers = sorted(p for p in root.rglob(".*.tmp") if p.is_file())
    for path in leftovers:
        path.unlink()
    return leftovers


def pending_units(request: SplitRequest) -> list[int]:
    return [i for i in range(request.n) if not unit_done(request.out, i, request.params)]


def run_units(
    request: SplitRequest,
    indices: list[int],
    *,
    progress: bool = True,
    executor: Executor | None = None,
) -> None:
    """Generate ``indices`` on ``executor`` (default: ``request.workers`` local processes),
    with a progress bar."""
    run_pool(
        run_unit,
        indices,
        root=request.out,
        params=request.params,
        workers=request.workers,
        total=request.n,
        label="scene",
        desc="generate",
        progress=progress,
        describe=partial(describe_scene, params=request.params),
        executor=executor,
    )


def finalise(request: SplitRequest) -> dict[str, Any]:
    """Write subsets, questions and the manifest from the finished scenes; returns the manifest."""
    from synth.questions import SplitRules, generate_split_questions

    root, params = request.out, request.params
    scenes = [
        Scene.load(root / ScenePaths.of(scene_id(i), params.views).scene) for i in range(request.n)
    ]
    tiers = [(s.scene_id, tier_of(i, params.tiers).name) for i, s in enumerate(scenes)]
    subsets = stratified_subsets(tiers, params.seed, request.eval_size, request.phase1_size)
    write_json(root / "subsets.json", subsets)
    # Above and below mean stacking: asked only where the split stacks objects.
    rules = SplitRules.of_generator(params.stack_prob)
    questions = generate_split_questions(scenes, params.seed, rules=rules)
    write_jsonl(root / "qa.jsonl", questions)
    names = [p for i in range(request.n) for p in ScenePaths.of(scene_id(i), params.views).all()]
    by_tier = {name: 0 for name in params.tiers}
    for _, tier in tiers:
        by_tier[tier] += 1
    manifest = build_manifest(
        generator={"name": GENERATOR_NAME, "version": GENERATOR_VERSION},
        blender_versions=[str(s.meta.get("blender_version", "unknown")) for s in scenes],
        parameters={
            "n": request.n,
            **params.to_dict(),
            "stack_prob": params.stack_prob,
            "eval_size": request.eval_size,
            "phase1_size": request.phase1_size,
        },
        counts={
            "scenes": request.n,
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


def generate_split(
    request: SplitRequest, *, progress: bool = True, executor: Executor | None = None
) -> dict[str, Any]:
    """Generate (or finish) the split ``request.out`` on ``executor`` (default: the local
    process pool with ``request.workers`` workers); returns its manifest."""
    request.out.mkdir(parents=True, exist_ok=True)
    remove_leftovers(request.out)
    indices = pending_units(request)
    run_units(request, indices, progress=progress, executor=executor)
    return finalise(request)
