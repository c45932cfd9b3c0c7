"""Colour parsing: every notation models write, mapped to sRGB and to a palette name.

``parse_color`` is the one entry point. Numbers alone are ambiguous between engines, so the
caller says how float triples are to be read (``float_space``): three.js ``Color(r, g, b)`` and
Blender's colour sockets hold linear values, Unity's ``Color`` and Open3D's colours sRGB.
"""

from __future__ import annotations

import colorsys
import math
import re
from collections.abc import Sequence
from typing import Final, Literal

from spatialbabel.css_colors import CSS_COLORS
from spatialbabel.palette import PALETTE_HEX, RGB, hex_to_rgb, linear_to_srgb, nearest_palette_name

FloatSpace = Literal["srgb", "linear"]

#: The one table of colour words beyond CSS, as sRGB hex. Keys are normalised like CSS names
#: (lower case, no spaces, hyphens or underscores).
COLOR_SYNONYMS: Final[dict[str, str]] = {
    "amber": "#ffbf00",
    "scarlet": "#ff2400",
    "ruby": "#e0115f",
    "burgundy": "#800020",
    "rose": "#ff007f",
    "lilac": "#c8a2c8",
    "mauve": "#e0b0ff",
    "bronze": "#cd7f32",
    "copper": "#b87333",
    "rust": "#b7410e",
    "ochre": "#cc7722",
    "mustard": "#ffdb58",
    "golden": "#ffd700",
    "lemon": "#fff44f",
    "cream": "#fffdd0",
    "emerald": "#50c878",
    "jade": "#00a86b",
    "mint": "#3eb489",
    "cerulean": "#007ba7",
    "sapphire": "#0f52ba",
    "cobalt": "#0047ab",
    "navyblue": "#000080",
    "charcoal": "#36454f",
    "lightred": "#ff7f7f",
    "darkyellow": "#8b8000",
    "lightbrown": "#b5651d",
    "darkbrown": "#654321",
    "lightpurple": "#b19cd9",
    "darkpurple": "#4b0082",
    "darkpink": "#e75480",
    "lightorange": "#ffd580",
    "bluegreen": "#0d98ba",
    # The palette's own names always mean the palette's values, even where CSS differs.
    **{name: code for name, code in PALETTE_HEX.items()},
}

#: Named constants of the engines' colour types, as the engines define them.
#: Unity's Color.yellow is not (1, 1, 0); its grey is 0.5.
ENGINE_COLOR_CONSTANTS: Final[dict[str, RGB]] = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "white": (1.0, 1.0, 1.0),
    "black": (0.0, 0.0, 0.0),
    "yellow": (1.0, 235 / 255, 4 / 255),
    "cyan": (0.0, 1.0, 1.0),
    "magenta": (1.0, 0.0, 1.0),
    "gray": (0.5, 0.5, 0.5),
    "grey": (0.5, 0.5, 0.5),
    "clear": (0.0, 0.0, 0.0),
}

_KEY = re.compile(r"[\s_\-]+")
_HEX = re.compile(r"^(?:#|0x)([0-9a-f]{3,8})$", re.IGNORECASE)
_FUNC = re.compile(r"^(rgba?|hsla?)\s*\((.*)\)$", re.IGNORECASE | re.DOTALL)
_ENGINE_CONST = re.compile(r"^(?:UnityEngine\.)?Colou?r\.(\w+)$")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?%?", re.IGNORECASE)


def _clamp01(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def color_from_name(name: str) -> RGB | None:
    """sRGB of a colour word: palette names, CSS names, then the synonym table."""
    key = _KEY.sub("", name.strip().lower())
    if key in PALETTE_HEX:
        return hex_to_rgb(PALETTE_HEX[key])
    if key in CSS_COLORS:
        return hex_to_rgb(CSS_COLORS[key])
    if key in COLOR_SYNONYMS:
        return hex_to_rgb(COLOR_SYNONYMS[key])
    if key.endswith("ish") and key[:-3] in CSS_COLORS:
        return hex_to_rgb(CSS_COLORS[key[:-3]])
    return None


def color_from_int(value: int) -> RGB | None:
    """A 24-bit 0xRRGGBB integer, as three.js and the web use it."""
    if not 0 <= value <= 0xFFFFFF:
        return None
    return ((value >> 16 & 0xFF) / 255.0, (value >> 8 & 0xFF) / 255.0, (value & 0xFF) / 255.0)


def _from_hex_digits(digits: str) -> RGB | None:
    if len(digits) in (3, 4):
        return (
            int(digits[0] * 2, 16) / 255.0,
            int(digits[1] * 2, 16) / 255.0,
            int(digits[2] * 2, 16) / 255.0,
        )
    if len(digits) in (6, 8):
        return hex_to_rgb(digits[:6])
    return None


def _css_component(token: str, scale: float) -> float:
    if token.endswith("%"):
        return _clamp01(float(token[:-1]) / 100.0)
    return _clamp01(float(token) / scale)


def _from_function(kind: str, body: str) -> RGB | None:
    tokens = _NUMBER.findall(body)
    if len(tokens) < 3:
        return None
    if kind.startswith("rgb"):
        scale = 255.0
        return (
            _css_component(tokens[0], scale),
            _css_component(tokens[1], scale),
            _css_component(tokens[2], scale),
        )
    hue = float(tokens[0].rstrip("%")) % 360.0 / 360.0
    saturation = _css_component(tokens[1], 100.0)
    lightness = _css_component(tokens[2], 100.0)
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return (r, g, b)


def color_from_text(text: str) -> RGB | None:
    """sRGB of a colour written as text: a name, ``#rgb``, ``#rrggbb``, ``0xRRGGBB``,
    ``rgb(...)``, ``rgba(...)``, ``hsl(...)``, ``Color.red``, or a number list ``"1, 0, 0"``."""
    stripped = text.strip().strip("'\"`").strip()
    if not stripped:
        return None
    match = _HEX.match(stripped)
    if match:
        return _from_hex_digits(match.group(1))
    match = _FUNC.match(stripped)
    if match:
        return _from_function(match.group(1).lower(), match.group(2))
    match = _ENGINE_CONST.match(stripped)
    if match:
        key = match.group(1).lower()
        if key in ENGINE_COLOR_CONSTANTS:
            return ENGINE_COLOR_CONSTANTS[key]
        return color_from_name(key)
    if re.fullmatch(r"\d+", stripped):
        return color_from_int(int(stripped))
    numbers = _NUMBER.findall(stripped)
    if len(numbers) in (3, 4) and re.fullmatch(r"[\s\d.,;%()\[\]+\-eE]+", stripped):
        return color_from_triple([float(n.rstrip("%")) for n in numbers[:3]])
    return color_from_name(stripped)


def color_from_triple(values: Sequence[float], float_space: FloatSpace = "srgb") -> RGB | None:
    """A triple (or RGBA quadruple) of numbers: 0–1 floats, or 0–255 when any exceeds 1.

    0–255 triples are always sRGB; 0–1 floats are read in ``float_space``.
    """
    if len(values) not in (3, 4):
        return None
    r, g, b = (float(v) for v in values[:3])
    if not all(math.isfinite(c) for c in (r, g, b)) or min(r, g, b) < 0:
        return None
    if max(r, g, b) > 1.0:
        if max(r, g, b) > 255.0:
            return None
        return (r / 255.0, g / 255.0, b / 255.0)
    if float_space == "linear":
        return linear_to_srgb((r, g, b))
    return (r, g, b)


def parse_color(value: object, *, float_space: FloatSpace = "srgb") -> RGB | None:
    """sRGB (components in [0, 1]) of any colour value a model writes, or None.

    Accepts text (see ``color_from_text``), a 24-bit integer, or a sequence of three or four
    numbers (``float_space`` says how 0–1 floats are meant).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return color_from_int(value)
    if isinstance(value, float):
        return color_from_int(int(value)) if value.is_integer() else None
    if isinstance(value, str):
        return color_from_text(value)
    if isinstance(value, Sequence) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    ):
        return color_from_triple([float(v) for v in value], float_space)
    return None


def palette_name_of(value: object, *, float_space: FloatSpace = "srgb") -> str | None:
    """The palette name nearest to any colour value, or None when it is not a colour."""
    rgb = parse_color(value, float_space=float_space)
    return None if rgb is None else nearest_palette_name(rgb)
