"""three.js geometries given by their vertices: ``BufferGeometry`` with a ``position`` attribute.

Models build the shapes three lacks (or a shape of their own making) as a ``BufferGeometry``:
``setAttribute('position', new THREE.Float32BufferAttribute(vertices, 3))`` with the vertices
computed in loops, ``setFromPoints([...])``, or a primitive's positions taken over
(``geometry.setAttribute('position', cone.getAttribute('position').clone())``,
``new THREE.BufferGeometry().copy(cone)``). The geometry remembers the vertices the code computed
or the primitive whose positions it took; ``scene_reader.geometry_affine`` reads the class from
the primitive (an affine image keeps its class) or from the vertices (``parsers.custom_mesh``).

Attributes (``BufferAttribute``, ``Float32BufferAttribute``...) hold their values when the code
gives them; a primitive's own position attribute stands for that primitive (its vertices are
three's to generate: ``getX`` of it cannot be known here). ``setXYZ``/``setX``... write into
known values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

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
from parsers.evaluator.core.values import is_number
from parsers.threejs.records import GeometryState, returns_undefined

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine

#: three's attribute classes (``Float32BufferAttribute`` and the other typed ones).
ATTRIBUTE_KINDS = (
    "BufferAttribute",
    "Float32BufferAttribute",
    "Float16BufferAttribute",
    "Uint16BufferAttribute",
    "Uint32BufferAttribute",
    "Int16BufferAttribute",
    "Int32BufferAttribute",
    "Uint8BufferAttribute",
    "Int8BufferAttribute",
)


@dataclass
class AttributeState:
    """An attribute's values (flat), or the primitive geometry whose positions it is."""

    values: list[Value] | None = None
    item_size: int = 3
    source: Record | None = None


def _flat(value: Value) -> list[Value] | None:
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, list | tuple) for v in value):
            return [x for row in value for x in row]
        return list(value)
    return None


class VertexGeometryMethods(Part):
    """Attributes and the ``BufferGeometry`` members that set and read them."""

    engine: ThreeEngine

    # --- attributes -----------------------------------------------------------------------------
    def _attribute(self, state: AttributeState) -> Record:
        count: Value = (
            len(state.values) // max(state.item_size, 1)
            if state.values is not None
            else Unknown("the vertex count of a primitive three generates")
        )
        return Record(
            "BufferAttribute",
            {"itemSize": state.item_size, "count": count, "needsUpdate": False},
            native=state,
        )

    def attribute_constructor(self) -> Callable[[CallContext, Args, Kwargs], Record]:
        def construct(ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
            size = arg(args, 1)
            values = _flat(arg(args, 0))
            return self._attribute(AttributeState(values, int(size) if is_number(size) else 3))

        return construct

    def _attribute_methods(self) -> dict[str, Any]:
        def component(index: int) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
            def get(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                state: AttributeState = r.native
                i = arg(a, 0)
                if state.values is None or not isinstance(i, int):
                    return Unknown("a vertex of a primitive three generates")
                at = i * state.item_size + index
                return state.values[at] if 0 <= at < len(state.values) else UNDEFINED

            return get

        def setter(
            indices: tuple[int, ...],
        ) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
            def put(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                state: AttributeState = r.native
                i = arg(a, 0)
                if state.values is None or not isinstance(i, int):
                    ctx.warning(
                        "threejs.unknown_value",
                        "a vertex written into positions that cannot be known statically; ignored",
                    )
                    return r
                for offset, index in enumerate(indices):
                    at = i * state.item_size + index
                    if 0 <= at < len(state.values):
                        state.values[at] = arg(a, offset + 1)
                return r

            return put

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            state: AttributeState = r.native
            values = None if state.values is None else list(state.values)
            return self._attribute(AttributeState(values, state.item_size, state.source))

        return {
            "getX": component(0),
            "getY": component(1),
            "getZ": component(2),
            "setX": setter((0,)),
            "setY": setter((1,)),
            "setZ": setter((2,)),
            "setXY": setter((0, 1)),
            "setXYZ": setter((0, 1, 2)),
            "clone": clone,
            "setUsage": lambda ctx, r, a, k: r,
        }

    def register_attribute_kinds(self) -> None:
        self.engine.add_kind(
            Kind(
                "BufferAttribute",
                factory=self._attribute_methods,
                getters={
                    "array": lambda ctx, r: (
                        r.native.values
                        if r.native.values is not None
                        else Unknown("the vertices of a primitive three generates")
                    )
                },
            )
        )

    # --- geometry members -----------------------------------------------------------------------
    def position_attribute(self, geometry: Record) -> Record:
        """``geometry.attributes.position``: its values, or the primitive it stands for."""
        state = geometry.native
        if isinstance(state, GeometryState) and geometry.kind == "BufferGeometry":
            if state.positions is not None:
                values: list[Value] = [float(v) for v in state.positions.ravel()]
                return self._attribute(AttributeState(values))
            if state.source is not None:
                return self._attribute(AttributeState(source=state.source))
            return self._attribute(AttributeState([]))
        return self._attribute(AttributeState(source=geometry))

    def set_positions(self, ctx: CallContext, geometry: Record, attribute: Value) -> None:
        """``geometry.setAttribute('position', attribute)``."""
        state = geometry.native
        if not isinstance(state, GeometryState):
            return
        state.positions, state.source, state.unknown_positions = None, None, False
        if isinstance(attribute, Record) and isinstance(attribute.native, AttributeState):
            given: AttributeState = attribute.native
            if given.source is not None:
                source_state = given.source.native
                state.source = given.source
                if isinstance(source_state, GeometryState):
                    # The positions as they are now: the primitive with its transforms.
                    state.applied = np.array(source_state.applied)
                return
            values = given.values or []
            if given.item_size == 3 and values and all(is_number(v) for v in values):
                state.positions = np.asarray(values, dtype=float).reshape(-1, 3)
                return
        state.unknown_positions = True
        ctx.warning(
            "threejs.unknown_value",
            "a position attribute whose vertices cannot be known statically",
        )

    def vertex_geometry_methods(self) -> dict[str, Any]:
        def set_attribute(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            if arg(a, 0) == "position":
                self.set_positions(ctx, r, arg(a, 1))
            return r

        def get_attribute(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            if arg(a, 0) == "position":
                return self.position_attribute(r)
            return Record("Inert")

        def set_from_points(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            points = arg(a, 0)
            rows: list[tuple[float, ...]] = []
            for point in points if isinstance(points, list) else []:
                found = self.engine.numbers(point, "xyz")
                if isinstance(found, Unknown):
                    rows = []
                    break
                rows.append(found)
            if rows and isinstance(r.native, GeometryState):
                r.native.positions, r.native.source = np.asarray(rows, dtype=float), None
            else:
                self.set_positions(ctx, r, Unknown("points that cannot be known"))
            return r

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            other = arg(a, 0)
            if not (isinstance(other, Record) and isinstance(other.native, GeometryState)):
                return r
            if other.kind == "BufferGeometry":
                r.native = other.native.copy()
            elif isinstance(r.native, GeometryState):
                # A primitive copied into a plain BufferGeometry keeps its shape.
                r.native.source, r.native.positions = other, None
                r.native.applied = np.array(other.native.applied)
            return r

        return {
            "setAttribute": set_attribute,
            "getAttribute": get_attribute,
            "setFromPoints": set_from_points,
            "copy": copy,
            "setIndex": lambda ctx, r, a, k: r,
            "deleteAttribute": lambda ctx, r, a, k: r,
            "computeTangents": returns_undefined,
            "toNonIndexed": lambda ctx, r, a, k: r,
        }


__all__ = ["ATTRIBUTE_KINDS", "AttributeState", "VertexGeometryMethods"]
