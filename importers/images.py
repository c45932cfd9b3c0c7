"""Pictures of imported scenes, stored as the split's PNG whatever the source's format
(Hypersim's previews are JPEG). Pillow is imported here only."""

from __future__ import annotations

import io
from pathlib import Path

from spatialbabel.files import FileFormatError


def png_of(path: Path) -> tuple[bytes, int, int]:
    """The picture at ``path`` as 8-bit RGB PNG bytes, and its width and height."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            rgb = image.convert("RGB")
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except (OSError, UnidentifiedImageError) as error:
        raise FileFormatError(path, f"not a readable image: {error}") from None
    buffer = io.BytesIO()
    rgb.save(buffer, format="PNG")
    return buffer.getvalue(), rgb.width, rgb.height
