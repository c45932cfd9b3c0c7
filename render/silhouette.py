"""Silhouette IoU: the prediction re-rendered with the true frontal camera against the
generator's ID pass (``masks/<id>.png``), both taken as the union of all objects.

The scorer calls ``silhouette_iou`` once per reply (possibly in forked worker processes), so
the renderer is made lazily, once per process, and kept.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from spatialbabel import Scene
from spatialbabel.files import FileFormatError


def mask_path(split_dir: Path, scene_id: str) -> Path:
    return Path(split_dir) / "masks" / f"{scene_id}.png"


def read_id_pass(path: Path) -> NDArray[np.uint8]:
    """The generator's frontal ID pass: 8-bit, 1 + object index, 0 for ground and sky."""
    try:
        with Image.open(path) as image:
            if image.mode not in ("L", "P", "I;16", "I"):
                raise FileFormatError(
                    path, f"expected a single-channel ID pass, got PNG mode {image.mode}"
                )
            return np.asarray(image)
    except FileNotFoundError:
        raise FileFormatError(
            path, "no such file (the split has no ID pass for this scene)"
        ) from None
    except OSError as error:
        raise FileFormatError(path, f"not a readable PNG: {error}") from None


def mask_iou(a: NDArray[np.bool_], b: NDArray[np.bool_]) -> float:
    """Intersection over union of two boolean masks; two empty masks agree perfectly (1.0)."""
    union = int(np.count_nonzero(a | b))
    if union == 0:
        return 1.0
    return int(np.count_nonzero(a & b)) / union


def silhouette_iou(predicted: Scene, truth: Scene, split_dir: Path) -> float:
    """IoU of ``predicted``'s silhouette, drawn with ``truth``'s frontal camera over its ground,
    with the union of the objects in the split's ID pass of ``truth``."""
    from render.errors import RenderError
    from render.offscreen import render_scene

    if not truth.cameras:
        raise RenderError(
            f"true scene {truth.scene_id!r} has no camera to draw the prediction with"
        )
    camera = truth.cameras[0]
    path = mask_path(split_dir, truth.scene_id)
    id_pass = read_id_pass(path)
    if id_pass.shape != (camera.height, camera.width):
        raise FileFormatError(
            path,
            f"ID pass is {id_pass.shape[1]}x{id_pass.shape[0]}, camera {camera.name!r} is {camera.width}x{camera.height}",
        )
    # The prediction is drawn over the true ground, which hides what it sinks below, as Blender does.
    scene = replace(predicted, cameras=(camera,), ground=truth.ground)
    rendering = render_scene(scene, camera, color=False)
    return mask_iou(rendering.silhouette, id_pass > 0)
