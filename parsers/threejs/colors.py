"""three's ``Color`` for the static evaluator: ``new THREE.Color(...)`` from numbers, hex,
CSS strings and names, and its methods. As in three r152+, the components are held in linear
sRGB.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)
from parsers.threejs.records import finite_number, num_or
from spatialbabel.colors import color_from_text
from spatialbabel.css_colors import CSS_COLORS
from spatialbabel.palette import RGB, hex_to_rgb, linear_to_srgb, srgb_to_linear

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class ColorMethods(Part):
    """The constructor and methods of ``Color`` records."""

    engine: ThreeEngine

    def new_color(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        record = self.engine.color()
        if args:
            self.color_set(ctx, record, args, kwargs)
        return record

    def color_from(self, ctx: CallContext, value: Value) -> Record:
        record = self.engine.color()
        if value is not UNDEFINED:
            self.color_set(ctx, record, [value], {})
        return record

    # --- Color --------------------------------------------------------------------------------
    def _store_linear(self, record: Record, linear: RGB | Unknown) -> Record:
        if isinstance(linear, Unknown):
            record.fields.update({"r": linear, "g": linear, "b": linear})
        else:
            record.fields.update({"r": linear[0], "g": linear[1], "b": linear[2]})
        return record

    def set_style(self, ctx: CallContext, record: Record, text: str) -> Record:
        """``Color.setStyle``: names, ``#rgb``/``#rrggbb``, ``rgb()``, ``hsl()``, all sRGB."""
        stripped = text.strip()
        srgb: RGB | None = None
        if re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", stripped) or re.match(
            r"^(rgba?|hsla?)\(", stripped
        ):
            srgb = color_from_text(stripped)
        elif stripped.lower() in CSS_COLORS:
            srgb = hex_to_rgb(CSS_COLORS[stripped.lower()])
        if srgb is None:
            ctx.warning(
                "threejs.unknown_color",
                f"three does not know the colour {text!r}; the colour is left unchanged",
            )
            return record
        return self._store_linear(record, srgb_to_linear(srgb))

    def set_hex(self, ctx: CallContext, record: Record, value: Value) -> Record:
        if isinstance(value, Unknown):
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({value.reason})"
            )
            return self._store_linear(record, value)
        number = math.floor(float(value))
        srgb = ((number >> 16 & 255) / 255, (number >> 8 & 255) / 255, (number & 255) / 255)
        return self._store_linear(record, srgb_to_linear(srgb))

    def color_set(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        if len(args) >= 3:
            return self._set_rgb(ctx, record, args, kwargs)
        value = arg(args, 0)
        if isinstance(value, Record) and value.kind == "Color":
            record.fields.update({c: value.fields.get(c, 1.0) for c in "rgb"})
        elif is_number(value) and not isinstance(value, bool):
            self.set_hex(ctx, record, value)
        elif isinstance(value, str):
            self.set_style(ctx, record, value)
        elif isinstance(value, Unknown):
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({value.reason})"
            )
            self._store_linear(record, value)
        elif value is not UNDEFINED:
            ctx.warning(
                "threejs.bad_color",
                f"three ignores a colour given as a {type_name(value)}; the colour is left unchanged",
            )
        return record

    def _set_rgb(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        values = [arg(args, i) for i in range(3)]
        unknown = next((v for v in values if isinstance(v, Unknown)), None)
        if unknown is not None:
            ctx.warning(
                "threejs.unknown_value", f"colour cannot be known statically ({unknown.reason})"
            )
            return self._store_linear(record, unknown)
        numbers = [ctx.number(v, "a colour component", 0.0) for v in values]
        space = arg(args, 3)
        linear = (numbers[0], numbers[1], numbers[2])
        if isinstance(space, str) and space.lower() == "srgb":
            linear = srgb_to_linear(linear)
        return self._store_linear(record, linear)

    def color_methods(self) -> dict[str, Any]:
        engine = self.engine

        def set_hsl(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            values = [ctx.number(arg(a, i), "an HSL component", 0.0) for i in range(3)]
            h = values[0] % 1.0
            s = min(max(values[1], 0.0), 1.0)
            lum = min(max(values[2], 0.0), 1.0)

            def hue(p: float, q: float, t: float) -> float:
                if t < 0:
                    t += 1
                if t > 1:
                    t -= 1
                if t < 1 / 6:
                    return p + (q - p) * 6 * t
                if t < 1 / 2:
                    return q
                if t < 2 / 3:
                    return p + (q - p) * 6 * (2 / 3 - t)
                return p

            if s == 0:
                rgb = (lum, lum, lum)
            else:
                p = lum * (1 + s) if lum <= 0.5 else lum + s - lum * s
                q = 2 * lum - p
                rgb = (hue(q, p, h + 1 / 3), hue(q, p, h), hue(q, p, h - 1 / 3))
            space = arg(a, 3)
            if isinstance(space, str) and space.lower() == "srgb":
                rgb = srgb_to_linear(rgb)
            return self._store_linear(r, rgb)

        def scaled(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            s = arg(a, 0)
            if not is_number(s):
                return self._store_linear(r, Unknown("a colour scaled by an unknown factor"))
            for c in "rgb":
                value = r.fields.get(c)
                r.fields[c] = value * s if is_number(value) else value
            return r

        def lerp(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            other, t = arg(a, 0), arg(a, 1)
            if not (isinstance(other, Record) and is_number(t)):
                return self._store_linear(
                    r, Unknown("a colour blend that cannot be known statically")
                )
            for c in "rgb":
                p: Value = r.fields.get(c)
                q: Value = other.fields.get(c)
                r.fields[c] = (
                    float(p) + (float(q) - float(p)) * t
                    if finite_number(p) and finite_number(q)
                    else Unknown("an unknown colour")
                )
            return r

        def get_hex(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            linear = engine.numbers(r, "rgb")
            if isinstance(linear, Unknown):
                return linear
            srgb = linear_to_srgb((linear[0], linear[1], linear[2]))
            return float(
                sum(
                    round(min(max(c * 255, 0), 255)) << shift
                    for c, shift in zip(srgb, (16, 8, 0), strict=True)
                )
            )

        def convert(to_linear: bool) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                values = engine.numbers(r, "rgb")
                if isinstance(values, Unknown):
                    return r
                rgb = (values[0], values[1], values[2])
                return self._store_linear(
                    r, srgb_to_linear(rgb) if to_linear else linear_to_srgb(rgb)
                )

            return fn

        return {
            "set": self.color_set,
            "setHex": lambda ctx, r, a, k: self.set_hex(ctx, r, arg(a, 0)),
            "setRGB": self._set_rgb,
            "setHSL": set_hsl,
            "setStyle": lambda ctx, r, a, k: (
                self.set_style(ctx, r, arg(a, 0)) if isinstance(arg(a, 0), str) else r
            ),
            "setColorName": lambda ctx, r, a, k: (
                self.set_style(ctx, r, arg(a, 0)) if isinstance(arg(a, 0), str) else r
            ),
            "setScalar": lambda ctx, r, a, k: self._store_linear(r, (num_or(arg(a, 0), 0.0),) * 3),
            "copy": lambda ctx, r, a, k: self.color_set(ctx, r, [arg(a, 0)], {}),
            "clone": lambda ctx, r, a, k: Record("Color", dict(r.fields)),
            "getHex": get_hex,
            "getHexString": lambda ctx, r, a, k: (
                lambda h: h if isinstance(h, Unknown) else f"{int(h):06x}"
            )(get_hex(ctx, r, a, k)),
            "multiplyScalar": scaled,
            "lerp": lerp,
            "convertSRGBToLinear": convert(True),
            "convertLinearToSRGB": convert(False),
        }
