"""One work unit: the scene of (seed, index), its ID pass and its images, written to a split.

The unit's randomness comes only from ``SeedSequence([seed, index])`` and the renders are
deterministic, so any scene can be regenerated alone, on any worker, with the same bytes.
Files are written atomically, the scene JSON last: a scene whose JSON exists is complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Ground, Scene, SceneObject
from spatialbabel.errors import SceneValidationError, SpatialBabelError
from spatialbabel.files import atomic_write_bytes
from synth.cameras import scene_cameras
from synth.config import GENERATOR_NAME, GENERATOR_VERSION, SceneParameters, ScenePaths, scene_id
from synth.layout import LayoutError, LayoutRules, move_objects, sample_layout
from synth.tiers import tier_of
from synth.visibility import Visibility, cover_groups, failing, pixel_boxes, pixel_counts

#: Decimal places of ``visible_fraction`` in the scene file.
FRACTION_DECIMALS = 6


class GenerationError(SpatialBabelError):
    """A scene could not be generated; the message names it."""


class Renderer(Protocol):
    """What a unit needs from Blender (``synth.blender_stage.BlenderStage``)."""

    def set_scene(
        self, objects: Sequence[SceneObject], cameras: Sequence[Camera], ground: Ground
    ) -> None: ...

    def render_ids(
        self, camera_index: int = 0, only: Iterable[int] | None = None
    ) -> tuple[bytes, NDArray[np.uint8]]: ...

    def render_image(self, camera_index: int = 0) -> bytes: ...


def scene_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, index]))


def measure(
    renderer: Renderer, objects: Sequence[SceneObject], camera: Camera, mask: NDArray[np.uint8]
) -> list[Visibility]:
    """Visible and full pixels of every object, from the scene's ID pass ``mask`` and the
    extra passes of the objects that others may cover."""
    count = len(objects)
    visible = pixel_counts(mask, count)
    full = list(visible)
    for group in cover_groups(objects, camera):
        _, solo = renderer.render_ids(0, group)
        alone = pixel_counts(solo, count)
        for i in group:
            full[i] = alone[i]
    boxes = pixel_boxes(mask, count)
    return [Visibility(visible[i], full[i], boxes[i]) for i in range(count)]


def describe_scene(index: int, params: SceneParameters) -> str:
    tier = tier_of(index, params.tiers)
    return f"scene {scene_id(index)} (seed {params.seed}, index {index}, tier {tier.name})"


def _accepted_layout(
    rng: np.random.Generator,
    index: int,
    params: SceneParameters,
    renderer: Renderer,
    cameras: Sequence[Camera],
    rules: LayoutRules,
) -> tuple[list[SceneObject], bytes, list[Visibility], int]:
    """The first layout meeting the visibility rule, its ID pass, its measures and the number
    of tries; objects that break the rule are moved, the others kept."""
    tier = tier_of(index, params.tiers)
    objects = sample_layout(rng, tier, rules)
    for tries in range(1, params.max_tries + 1):
        renderer.set_scene(objects, cameras, rules.ground)
        mask_png, mask = renderer.render_ids(0)
        counts = pixel_counts(mask, len(objects))
        # Too few pixels fails whatever the full area; skip the extra passes then.
        bad = [i for i, c in enumerate(counts) if c < params.min_visible_pixels]
        if not bad:
            measures = measure(renderer, objects, cameras[0], mask)
            bad = failing(measures, params.min_visible_fraction, params.min_visible_pixels)
            if not bad:
                return objects, mask_png, measures, tries
        moved = move_objects(rng, objects, bad, rules)
        objects = moved if moved is not None else sample_layout(rng, tier, rules)
    raise GenerationError(
        f"{describe_scene(index, params)}: no layout met the visibility rule (fraction >= "
        f"{params.min_visible_fraction}, pixels >= {params.min_visible_pixels}) in {params.max_tries} tries"
    )


def build_scene(
    index: int, params: SceneParameters, renderer: Renderer, blender_version: str
) -> tuple[Scene, bytes, list[bytes]]:
    """The scene of ``index`` with its ground truth, its ID-pass PNG and its images' PNGs."""
    rng = scene_rng(params.seed, index)
    tier = tier_of(index, params.tiers)
    ground = Ground()
    rules = LayoutRules(ground=ground, stack_prob=params.stack_prob)
    cameras = scene_cameras(params.views, params.resolution)
    try:
        objects, mask_png, measures, tries = _accepted_layout(
            rng, index, params, renderer, cameras, rules
        )
    except LayoutError as error:
        raise GenerationError(f"{describe_scene(index, params)}: {error}") from None
    images = [renderer.render_image(k) for k in range(len(cameras))]
    identifier = scene_id(index)
    paths = ScenePaths.of(identifier, params.views)
    truth = [
        replace(
            obj,
            visible_pixels=m.visible_pixels,
            visible_fraction=round(m.fraction, FRACTION_DECIMALS),
            bbox_2d=m.bbox,
        )
        for obj, m in zip(objects, measures, strict=True)
    ]
    meta = {
        "tier": tier.name,
        "seed": params.seed,
        "index": index,
        "generator": {"name": GENERATOR_NAME, "version": GENERATOR_VERSION},
        "blender_version": blender_version,
        "parameters": params.to_dict(),
        "tries": tries,
        "full_pixels": [m.full_pixels for m in measures],
        "mask": paths.mask,
        "images": list(paths.images),
    }
    return Scene(identifier, tuple(truth), cameras, ground, meta), mask_png, images


def write_unit(root: Path, scene: Scene, mask_png: bytes, images: Sequence[bytes]) -> None:
    """Write a unit's files atomically, the scene JSON last."""
    paths = ScenePaths.of(scene.scene_id, len(images))
    atomic_write_bytes(root / paths.mask, mask_png)
    for path, data in zip(paths.images, images, strict=True):
        atomic_write_bytes(root / path, data)
    scene.save(root / paths.scene)


def generate_unit(
    root: Path, index: int, params: SceneParameters, renderer: Renderer, blender_version: str
) -> str:
    scene, mask_png, images = build_scene(index, params, renderer, blender_version)
    write_unit(root, scene, mask_png, images)
    return scene.scene_id


def unit_done(root: Path, index: int, params: SceneParameters) -> bool:
    """Whether the unit's files are all there; a scene made with other parameters is an error
    (mixing them would make a split no single command could reproduce)."""
    paths = ScenePaths.of(scene_id(index), params.views)
    scene_file = root / paths.scene
    if not scene_file.exists():
        return False
    try:
        scene = Scene.load(scene_file)
    except SceneValidationError:
        return False
    generator = scene.meta.get("generator", {})
    made_with = scene.meta.get("parameters")
    if made_with != params.to_dict() or generator.get("version") != GENERATOR_VERSION:
        raise GenerationError(
            f"{scene_file} was generated with other parameters or generator version "
            f"({made_with}, version {generator.get('version')}); generate into another --out"
        )
    return all(path.exists() for path in paths.under(root))
