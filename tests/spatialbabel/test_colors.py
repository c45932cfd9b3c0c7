"""Colour notations models write, with the palette name each must map to."""

from __future__ import annotations

import pytest

from spatialbabel import PALETTE, nearest_palette_name, palette_name_of, parse_color
from spatialbabel.colors import color_from_triple
from spatialbabel.css_colors import CSS_COLORS
from spatialbabel.palette import hex_to_rgb

NOTATIONS: list[tuple[object, str]] = [
    ("red", "red"),
    ("Blue", "blue"),
    ("  GREEN ", "green"),
    ("light green", "green"),
    ("dark_orange", "orange"),
    ("sky-blue", "cyan"),
    ("grey", "white"),
    ("gold", "yellow"),
    ("magenta", "purple"),
    ("hotpink", "pink"),
    ("brown", "brown"),
    ("saddlebrown", "brown"),
    ("turquoise", "cyan"),
    ("crimson", "red"),
    ("navy", "blue"),
    ("#f00", "red"),
    ("#FF0000", "red"),
    ("#ffa500", "orange"),
    ("#ffc0cb80", "pink"),
    ("0x00ff00", "green"),
    ("0X0000FF", "blue"),
    (0xFFFF00, "yellow"),
    (0x800080, "purple"),
    (16777215, "white"),
    ("rgb(255, 0, 0)", "red"),
    ("rgba(0, 255, 255, 0.5)", "cyan"),
    ("rgb(100%, 50%, 0%)", "orange"),
    ("hsl(120, 100%, 25%)", "green"),
    ("hsl(300deg, 100%, 25%)", "purple"),
    ("hsla(30, 60%, 35%, 1)", "brown"),
    ([1.0, 0.0, 0.0], "red"),
    ((0.0, 0.0, 1.0, 1.0), "blue"),
    ([0.6, 0.3, 0.15], "brown"),
    ([255, 165, 0], "orange"),
    ((255, 192, 203), "pink"),
    ("1.0, 1.0, 0.0", "yellow"),
    ("Color.red", "red"),
    ("Color.yellow", "yellow"),
    ("UnityEngine.Color.cyan", "cyan"),
    ("Color.magenta", "purple"),
    ("'orange'", "orange"),
    ("scarlet", "red"),
    ("cobalt", "blue"),
    ("emerald", "green"),
    ("copper", "brown"),
    ("lilac", "pink"),
]


@pytest.mark.parametrize(("value", "expected"), NOTATIONS, ids=[repr(v) for v, _ in NOTATIONS])
def test_notation_maps_to_palette_name(value: object, expected: str) -> None:
    assert palette_name_of(value) == expected


def test_table_is_large_enough() -> None:
    assert len(NOTATIONS) >= 30


@pytest.mark.parametrize("name", list(PALETTE))
def test_palette_maps_to_itself_and_its_css_namesake(name: str) -> None:
    assert nearest_palette_name(PALETTE[name]) == name
    assert nearest_palette_name(hex_to_rgb(CSS_COLORS[name])) == name


def test_linear_floats_are_converted_to_srgb() -> None:
    # three.js Color(0.2, 0.2, 0.2) is linear: about 0.48 in sRGB.
    rgb = color_from_triple([0.2, 0.2, 0.2], "linear")
    assert rgb is not None and rgb[0] == pytest.approx(0.4845, abs=1e-3)
    assert parse_color([0.2, 0.2, 0.2]) == (0.2, 0.2, 0.2)


@pytest.mark.parametrize(
    "value",
    [
        "",
        "not a colour",
        "#12",
        "rgb(1,2)",
        -1,
        0x1000000,
        [1, 2],
        [300, 0, 0],
        [-1, 0, 0],
        None,
        True,
        {"r": 1},
    ],
)
def test_non_colours_give_none(value: object) -> None:
    assert parse_color(value) is None
