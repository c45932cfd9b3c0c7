"""three's materials for the static evaluator: ``new THREE.Mesh*Material({...})`` with its
parameters (a ``color`` as a ``Color`` record), ``setValues`` and ``clone``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    Kind,
    Kwargs,
    Part,
    Record,
    Unknown,
    Value,
    arg,
)
from parsers.threejs.records import returns_undefined
from parsers.threejs.three_names import COLORLESS_MATERIALS, DEFAULT_COLOR_LINEAR

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class MaterialMethods(Part):
    """The constructors and methods of material records."""

    engine: ThreeEngine

    def material_constructor(self, kind: str) -> Callable[[CallContext, Args, Kwargs], Record]:
        return lambda ctx, args, kwargs: self.material(ctx, kind, args)

    def material(self, ctx: CallContext, kind: str, args: Args) -> Record:
        fields: dict[str, Value] = {
            "type": kind,
            "transparent": False,
            "opacity": 1.0,
            "side": 0.0,
            "wireframe": False,
            "userData": {},
        }
        if kind not in COLORLESS_MATERIALS:
            fields["color"] = self.engine.color(
                (0.0, 0.0, 0.0) if kind == "ShadowMaterial" else DEFAULT_COLOR_LINEAR
            )
        if (
            kind.startswith("Mesh")
            and kind not in COLORLESS_MATERIALS
            and kind not in ("MeshBasicMaterial", "MeshMatcapMaterial")
        ):
            fields["emissive"] = self.engine.color((0.0, 0.0, 0.0))
        record = Record(kind, fields)
        if kind not in self.engine.kinds:
            self.engine.add_kind(Kind(kind, base="Material"))
        params = arg(args, 0)
        if isinstance(params, dict):
            self._set_values(ctx, record, params)
        elif isinstance(params, Unknown):
            ctx.warning(
                "threejs.unknown_value",
                f"{kind} parameters cannot be known statically ({params.reason})",
            )
        return record

    def _set_values(self, ctx: CallContext, record: Record, params: dict[str, Value]) -> None:
        for key, value in params.items():
            if value is UNDEFINED:
                ctx.info(
                    "threejs.material_parameter",
                    f"material parameter {key!r} is undefined; ignored",
                )
                continue
            current = record.fields.get(key)
            if isinstance(current, Record) and current.kind == "Color":
                self.engine.colors.color_set(ctx, current, [value], {})
            elif key == "colour":
                ctx.warning(
                    "threejs.material_parameter",
                    f"'colour' is not a property of THREE.{record.kind} (three wants 'color'); ignored",
                )
            else:
                record.fields[key] = value

    def material_methods(self) -> dict[str, Any]:
        def set_values(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            params = arg(a, 0)
            if isinstance(params, dict):
                self._set_values(ctx, r, params)
            return UNDEFINED

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            fields = dict(r.fields)
            for name, value in r.fields.items():
                if isinstance(value, Record) and value.kind == "Color":
                    fields[name] = Record("Color", dict(value.fields))
            return Record(r.kind, fields)

        return {"setValues": set_values, "clone": clone, "dispose": returns_undefined}
