"""Timestamps drawn into a clip's frames (``--spatialmind-timestamps overlay``), as a video
player shows them: each observed frame with its time in the top-left corner, white on a dark
box, written into the items folder (for video inputs, those frames encoded again as the MP4).

The paper's models watch videos, whose frames carry their times; the frames of a clip set do
not. ``text`` lists the times in the prompt instead (``suites.spatialmind.SpatialMind.prompt``).
Pillow's own font (embedded, drawn by FreeType) keeps the pictures the same on every machine
with the same Pillow.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Final

from spatialbabel.clip import Clip
from spatialbabel.files import atomic_write_bytes

#: The modes of ``--spatialmind-timestamps``: none, listed in the prompt, drawn in the frames.
MODES: Final = ("none", "text", "overlay")
STAMPED: Final = "stamped"


def stamp(png: bytes, seconds: float) -> bytes:
    """The frame with ``"<seconds> s"`` in its top-left corner (text a twentieth of the height)."""
    from PIL import Image, ImageDraw, ImageFont

    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGB")
    size = max(10, image.height // 20)
    font = ImageFont.load_default(size=size)
    draw = ImageDraw.Draw(image)
    text = f"{seconds:.1f} s"
    margin = max(2, size // 4)
    _, _, right, bottom = draw.textbbox((2 * margin, 2 * margin), text, font=font)
    draw.rectangle((margin, margin, right + margin, bottom + margin), fill=(0, 0, 0))
    draw.text((2 * margin, 2 * margin), text, fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def stamped_inputs(root: Path, out: Path, clip: Clip, video: bool) -> tuple[str, ...]:
    """Write the clip's stamped frames (or their MP4) under ``out``; their paths relative to it."""
    files = clip.meta["files"]["frames"]
    frames = [
        stamp((root / name).read_bytes(), clip.frames[t].time) for t, name in enumerate(files)
    ]
    if video:
        from synth.video import encode_mp4

        name = f"{STAMPED}/{clip.clip_id}.mp4"
        atomic_write_bytes(out / name, encode_mp4(frames, clip.fps))
        return (name,)
    names = tuple(f"{STAMPED}/{clip.clip_id}/{t:03d}.png" for t in range(len(frames)))
    for name, data in zip(names, frames, strict=True):
        atomic_write_bytes(out / name, data)
    return names


__all__ = ["MODES", "STAMPED", "stamp", "stamped_inputs"]
