"""A stand-in for ``BlenderStage`` in clip tests that need no Blender: each object is drawn as
the box its mesh projects to, far objects first, so ID passes have the right objects in roughly
the right places; the images are flat PNGs of one colour per frame. Clips made with it go
through the same work unit (``synth.clip_unit``) as real ones."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from spatialbabel import Camera, Ground, SceneObject
from synth.visibility import projected_box


def _png(array: NDArray[np.uint8]) -> bytes:
    stream = io.BytesIO()
    Image.fromarray(array).save(stream, format="PNG")
    return stream.getvalue()


class BoxesRenderer:
    def __init__(self) -> None:
        self.objects: list[SceneObject] = []
        self.cameras: list[Camera] = []
        self.frames = 0

    def set_scene(
        self,
        objects: Sequence[SceneObject],
        cameras: Sequence[Camera],
        ground: Ground,
        *,
        tile: float | None = None,
    ) -> None:
        self.objects, self.cameras = list(objects), list(cameras)

    def move(self, objects: Sequence[SceneObject], cameras: Sequence[Camera]) -> None:
        assert [o.id for o in objects] == [o.id for o in self.objects]
        self.objects, self.cameras = list(objects), list(cameras)

    def mask(self, camera_index: int = 0) -> NDArray[np.uint8]:
        camera = self.cameras[camera_index]
        mask = np.zeros((camera.height, camera.width), np.uint8)
        depths = [float(camera.project(np.array([o.position]))[1][0]) for o in self.objects]
        for index in sorted(range(len(self.objects)), key=lambda i: -depths[i]):
            if depths[index] <= 0.1:
                continue
            u0, v0, u1, v1 = projected_box(self.objects[index], camera)
            x0, x1 = (
                int(np.clip(np.floor(u0), 0, camera.width)),
                int(np.clip(np.ceil(u1), 0, camera.width)),
            )
            y0, y1 = (
                int(np.clip(np.floor(v0), 0, camera.height)),
                int(np.clip(np.ceil(v1), 0, camera.height)),
            )
            mask[y0:y1, x0:x1] = index + 1
        return mask

    def render_ids(
        self, camera_index: int = 0, only: Iterable[int] | None = None
    ) -> tuple[bytes, NDArray[np.uint8]]:
        mask = self.mask(camera_index)
        return _png(mask), mask

    def render_image(self, camera_index: int = 0, *, antialias: bool = True) -> bytes:
        self.frames += 1
        shade = self.mask(camera_index) * 20
        return _png(np.stack([shade, shade, np.full_like(shade, self.frames % 256)], axis=-1))
