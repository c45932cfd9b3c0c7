"""The default colour image, made from the instance pass alone.

pyrender's own shading (a physically based fragment shader, then a second pass with 4x
multisampling) costs more than the instance pass itself on Mesa's software rasteriser. Instead
the instance pass's fragment shader (``render/shaders/shaded_ids.frag``) also writes one byte of
diffuse light: ambient, plus a key and a fill light fixed to the camera, as the Workbench studio
light of the generator's images is. This module holds that light rig (handed to the shader as
defines, so the rig has one source) and turns (object, light code) pairs into 8-bit sRGB colours
through one lookup table per scene, built from per-colour ramps that are computed once.

Light is applied in linear light to the linearised palette colour, and the result encoded to
sRGB with the hub's transfer functions. This module does not import pyrender.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Final, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from spatialbabel.palette import RGB, linear_to_srgb, srgb_to_linear

#: How a ``Renderer`` shades its colour image: ``lambert`` (this module, one pass) or ``pbr``
#: (pyrender's own shading in a second, multisampled pass).
Shading = Literal["lambert", "pbr"]
SHADINGS: Final[tuple[str, ...]] = get_args(Shading)

#: sRGB of objects that carry no colour, of the ground and of the empty background.
UNCOLORED_RGB: Final[RGB] = (0.6, 0.6, 0.6)
GROUND_RGB: Final[RGB] = (0.62, 0.62, 0.62)
BACKGROUND_RGB: Final[RGB] = (0.30, 0.32, 0.36)

#: An 8-bit sRGB colour: the key of a colour ramp.
RGB8 = tuple[int, int, int]

#: Light codes 1 .. SHADE_STEPS + 1 span light 0 .. SHADE_MAX; 0 marks pixels nothing covers.
SHADE_STEPS: Final = 254
SHADE_MAX: Final = 1.25

#: Light from everywhere, so faces turned from both lights keep their colour.
AMBIENT_LIGHT: Final = 0.3
#: The key light, in camera space (x right, y up, z towards the viewer): from the upper left.
KEY_LIGHT_DIRECTION: Final = (-0.45, 0.6, 0.66)
KEY_LIGHT_WEIGHT: Final = 0.62
#: A weaker fill from the right, so faces the key misses are told apart.
FILL_LIGHT_DIRECTION: Final = (0.75, 0.05, 0.66)
FILL_LIGHT_WEIGHT: Final = 0.3

#: Colour ramps kept between scenes, one per 8-bit colour, oldest dropped first.
RAMP_CACHE_SIZE: Final = 1024


def _unit(vector: tuple[float, float, float]) -> NDArray[np.float64]:
    v = np.asarray(vector, dtype=np.float64)
    return np.asarray(v / np.linalg.norm(v))


def _glsl_vec3(vector: tuple[float, float, float]) -> str:
    x, y, z = (float(c) for c in _unit(vector))
    return f"vec3({x!r}, {y!r}, {z!r})"


def shader_defines() -> dict[str, str]:
    """The rig as pyrender shader defines (pyrender substitutes each name by its value)."""
    return {
        "AMBIENT_LIGHT": repr(float(AMBIENT_LIGHT)),
        "KEY_LIGHT_DIRECTION": _glsl_vec3(KEY_LIGHT_DIRECTION),
        "KEY_LIGHT_WEIGHT": repr(float(KEY_LIGHT_WEIGHT)),
        "FILL_LIGHT_DIRECTION": _glsl_vec3(FILL_LIGHT_DIRECTION),
        "FILL_LIGHT_WEIGHT": repr(float(FILL_LIGHT_WEIGHT)),
        "SHADE_STEPS": repr(float(SHADE_STEPS)),
        "SHADE_MAX": repr(float(SHADE_MAX)),
    }


def light_of_normal(normal: NDArray[np.float64]) -> float:
    """The light the shader computes for a camera-space unit normal (before quantising)."""
    n = np.asarray(normal, dtype=np.float64)
    key = max(float(n @ _unit(KEY_LIGHT_DIRECTION)), 0.0)
    fill = max(float(n @ _unit(FILL_LIGHT_DIRECTION)), 0.0)
    return AMBIENT_LIGHT + KEY_LIGHT_WEIGHT * key + FILL_LIGHT_WEIGHT * fill


def light_of_code(code: int) -> float:
    """The light a code 1 .. 255 stands for."""
    return SHADE_MAX * (code - 1) / SHADE_STEPS


def to_rgb8(rgb: RGB) -> RGB8:
    r, g, b = (round(min(max(c, 0.0), 1.0) * 255) for c in rgb)
    return (r, g, b)


class ColorTable:
    """Colours of (object, light code) pairs: ``image(packed, colors)`` paints a frame.

    ``packed`` holds the instance pass's pixels as little-endian RGBA words (light code in red,
    the 16-bit instance code in green and blue); ``colors[i]`` is the 8-bit sRGB colour of
    instance code ``i`` (0: the ground). Code 0 (nothing drawn) gets ``background``.
    """

    def __init__(self, background: RGB) -> None:
        self.background = np.array(to_rgb8(background), dtype=np.uint8)
        self._ramps: OrderedDict[RGB8, NDArray[np.uint8]] = OrderedDict()

    def ramp(self, rgb8: RGB8) -> NDArray[np.uint8]:
        """The colour under each light code (256 x 3; row 0 is the background)."""
        ramp = self._ramps.get(rgb8)
        if ramp is None:
            r, g, b = srgb_to_linear((rgb8[0] / 255, rgb8[1] / 255, rgb8[2] / 255))
            rows = [self.background]
            for code in range(1, 256):
                light = light_of_code(code)
                encoded = linear_to_srgb((r * light, g * light, b * light))
                rows.append(np.array(to_rgb8(encoded), dtype=np.uint8))
            ramp = np.stack(rows)
            ramp.flags.writeable = False
            self._ramps[rgb8] = ramp
            if len(self._ramps) > RAMP_CACHE_SIZE:
                self._ramps.popitem(last=False)
        else:
            self._ramps.move_to_end(rgb8)
        return ramp

    def image(self, packed: NDArray[np.uint32], colors: Sequence[RGB8]) -> NDArray[np.uint8]:
        """H x W x 3 sRGB of a frame whose instance codes are all below ``len(colors)``."""
        table = np.concatenate([self.ramp(rgb8) for rgb8 in colors])
        # Light code + 256 x instance code is the word's low 24 bits: one gather paints all.
        return np.take(table, packed & np.uint32(0xFFFFFF), axis=0)
