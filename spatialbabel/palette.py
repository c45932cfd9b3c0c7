"""The 10-colour palette the generator renders, and nearest-palette lookup in CIELAB.

Each name has one sRGB value. The values were chosen so that the CSS colour of every palette
name, and most everyday CSS shades of it, fall nearest to that name in CIELAB
(tests/spatialbabel/test_colors.py holds the table).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, Literal

import numpy as np

RGB = tuple[float, float, float]

PaletteName = Literal[
    "red", "blue", "green", "yellow", "purple", "orange", "cyan", "white", "pink", "brown"
]

PALETTE_HEX: Final[dict[str, str]] = {
    "red": "#e0141e",
    "blue": "#1030d0",
    "green": "#20a040",
    "yellow": "#ffdc3c",
    "purple": "#a020c0",
    "orange": "#f08010",
    "cyan": "#30d8d8",
    "white": "#f5f5f5",
    "pink": "#f08cb4",
    "brown": "#9a5530",
}


def hex_to_rgb(value: str) -> RGB:
    digits = value.lstrip("#")
    return (
        int(digits[0:2], 16) / 255.0,
        int(digits[2:4], 16) / 255.0,
        int(digits[4:6], 16) / 255.0,
    )


def rgb_to_hex(rgb: RGB) -> str:
    r, g, b = (round(min(max(c, 0.0), 1.0) * 255) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


#: sRGB components in [0, 1], in palette order.
PALETTE: Final[dict[str, RGB]] = {name: hex_to_rgb(code) for name, code in PALETTE_HEX.items()}
PALETTE_NAMES: Final[tuple[str, ...]] = tuple(PALETTE)


def srgb_to_linear(rgb: RGB) -> RGB:
    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (one(rgb[0]), one(rgb[1]), one(rgb[2]))


def linear_to_srgb(rgb: RGB) -> RGB:
    def one(c: float) -> float:
        c = min(max(c, 0.0), 1.0)
        return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

    return (one(rgb[0]), one(rgb[1]), one(rgb[2]))


_SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_D65_WHITE = np.array([0.95047, 1.0, 1.08883])


def srgb_to_lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour with components in [0, 1]."""
    clipped = tuple(min(max(c, 0.0), 1.0) for c in rgb)
    xyz = _SRGB_TO_XYZ @ np.array(srgb_to_linear((clipped[0], clipped[1], clipped[2])))
    ratio = xyz / _D65_WHITE
    epsilon, kappa = 216 / 24389, 24389 / 27
    f = np.where(ratio > epsilon, np.cbrt(ratio), (kappa * ratio + 16) / 116)
    return (
        float(116 * f[1] - 16),
        float(500 * (f[0] - f[1])),
        float(200 * (f[1] - f[2])),
    )


_PALETTE_LAB: Final = np.array([srgb_to_lab(PALETTE[name]) for name in PALETTE_NAMES])


def nearest_palette_name(rgb: RGB) -> str:
    """The palette name nearest to an sRGB colour in CIELAB (CIE76 distance)."""
    return _nearest(float(rgb[0]), float(rgb[1]), float(rgb[2]))


@lru_cache(maxsize=4096)
def _nearest(r: float, g: float, b: float) -> str:
    # Cached: replies repeat a handful of colours, and scoring asks for every object.
    lab = np.array(srgb_to_lab((r, g, b)))
    distances = np.linalg.norm(_PALETTE_LAB - lab, axis=1)
    return PALETTE_NAMES[int(np.argmin(distances))]


def palette_distance(rgb: RGB) -> float:
    """CIELAB distance from ``rgb`` to its nearest palette colour."""
    lab = np.array(srgb_to_lab(rgb))
    return float(np.min(np.linalg.norm(_PALETTE_LAB - lab, axis=1)))
