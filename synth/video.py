"""MP4 files of clips, for models that take video: H.264 through the ffmpeg binary that the
``imageio-ffmpeg`` package ships (the ``clips`` extra). This is the only module that imports it.

The stream is made to be reproducible: one encoder thread, bit-exact flags and no metadata, so
the same frames give the same bytes on the same ffmpeg build (the version is in the clip set's
manifest). Frames are read from their PNG bytes with Pillow.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

#: Constant quality (x264's CRF; 18 is visually lossless for these flat-shaded frames), and
#: the preset: veryfast encodes twice as fast as medium for 10 % more bytes
#: (benchmarks/bench_clips.py times the encoding per frame).
CRF: Final = 18
PRESET: Final = "veryfast"


def ffmpeg_version() -> str:
    import imageio_ffmpeg

    return str(imageio_ffmpeg.get_ffmpeg_version())


def encode_mp4(frames: Sequence[bytes], fps: float) -> bytes:
    """The PNG ``frames`` (equal sizes, even width and height) as one H.264 MP4 (yuv420p)."""
    import imageio_ffmpeg
    from PIL import Image

    if not frames:
        raise ValueError("a video needs at least one frame")
    pictures = []
    for data in frames:
        with Image.open(io.BytesIO(data)) as image:
            pictures.append(np.asarray(image.convert("RGB")))
    height, width = pictures[0].shape[:2]
    if width % 2 or height % 2:
        raise ValueError(f"H.264 in yuv420p needs even sizes, got {width} x {height}")
    with tempfile.TemporaryDirectory(prefix="spatialbabel-video-") as folder:
        path = Path(folder) / "clip.mp4"
        writer = imageio_ffmpeg.write_frames(
            str(path),
            (width, height),
            fps=fps,
            codec="libx264",
            pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p",
            quality=None,
            macro_block_size=2,
            ffmpeg_log_level="error",
            output_params=[
                *("-crf", str(CRF), "-preset", PRESET, "-threads", "1"),
                *("-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1"),
            ],
        )
        writer.send(None)
        for picture in pictures:
            if picture.shape[:2] != (height, width):
                raise ValueError(
                    f"frame of {picture.shape[1]} x {picture.shape[0]}, not {width} x {height}"
                )
            writer.send(np.ascontiguousarray(picture))
        writer.close()
        return path.read_bytes()


def read_mp4(path: Path) -> tuple[list[NDArray[np.uint8]], float]:
    """The frames (RGB, height x width x 3) and the frame rate of an MP4."""
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(path))
    meta = reader.__next__()
    width, height = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return frames, float(meta["fps"])


__all__ = ["CRF", "PRESET", "encode_mp4", "ffmpeg_version", "read_mp4"]
