"""three.js geometries as canonical primitives: the one table of what each geometry is.

``read_geometry(type, parameters)`` gives the class and the affine taking the canonical unit
primitive onto the geometry three builds (in the geometry's own frame), with a remark for
everything that is approximated or left out; each type has its reader, registered in
``_READERS`` by ``@_reads``. The parser uses it on the arguments it read,
and the parity test on the ``geometry.parameters`` three itself reports, so both read a
geometry the same way; the test then checks the reading against three's real vertices.

Facts (checked against three 0.187's vertices by tests/parsers/test_threejs_parity.py):
``ConeGeometry(r, h, 4)`` has its base corners on the X and Z axes: the canonical pyramid
turned 45° about Y with base side r·√2. ``TorusGeometry`` lies in the XY plane: the canonical
torus turned 90° about X. ``CylinderGeometry`` with radiusTop 0 is a cone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from parsers.result import Severity
from spatialbabel import UNKNOWN_CLASS
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from spatialbabel.frames import Matrix, axis_rotation

#: Each geometry's constructor parameters in order, with three's defaults.
GEOMETRY_PARAMETERS: Final[dict[str, tuple[tuple[str, float | bool], ...]]] = {
    "BoxGeometry": (
        ("width", 1.0),
        ("height", 1.0),
        ("depth", 1.0),
        ("widthSegments", 1.0),
        ("heightSegments", 1.0),
        ("depthSegments", 1.0),
    ),
    "SphereGeometry": (
        ("radius", 1.0),
        ("widthSegments", 32.0),
        ("heightSegments", 16.0),
        ("phiStart", 0.0),
        ("phiLength", 2 * math.pi),
        ("thetaStart", 0.0),
        ("thetaLength", math.pi),
    ),
    "CylinderGeometry": (
        ("radiusTop", 1.0),
        ("radiusBottom", 1.0),
        ("height", 1.0),
        ("radialSegments", 32.0),
        ("heightSegments", 1.0),
        ("openEnded", False),
        ("thetaStart", 0.0),
        ("thetaLength", 2 * math.pi),
    ),
    "ConeGeometry": (
        ("radius", 1.0),
        ("height", 1.0),
        ("radialSegments", 32.0),
        ("heightSegments", 1.0),
        ("openEnded", False),
        ("thetaStart", 0.0),
        ("thetaLength", 2 * math.pi),
    ),
    "TorusGeometry": (
        ("radius", 1.0),
        ("tube", 0.4),
        ("radialSegments", 12.0),
        ("tubularSegments", 48.0),
        ("arc", 2 * math.pi),
        ("thetaStart", 0.0),
        ("thetaLength", 2 * math.pi),
    ),
    "CapsuleGeometry": (
        ("radius", 1.0),
        ("height", 1.0),
        ("capSegments", 4.0),
        ("radialSegments", 8.0),
        ("heightSegments", 1.0),
    ),
    "IcosahedronGeometry": (("radius", 1.0), ("detail", 0.0)),
    "OctahedronGeometry": (("radius", 1.0), ("detail", 0.0)),
    "DodecahedronGeometry": (("radius", 1.0), ("detail", 0.0)),
    "TetrahedronGeometry": (("radius", 1.0), ("detail", 0.0)),
    "PlaneGeometry": (
        ("width", 1.0),
        ("height", 1.0),
        ("widthSegments", 1.0),
        ("heightSegments", 1.0),
    ),
    "CircleGeometry": (
        ("radius", 1.0),
        ("segments", 32.0),
        ("thetaStart", 0.0),
        ("thetaLength", 2 * math.pi),
    ),
    "RingGeometry": (
        ("innerRadius", 0.5),
        ("outerRadius", 1.0),
        ("thetaSegments", 32.0),
        ("phiSegments", 1.0),
        ("thetaStart", 0.0),
        ("thetaLength", 2 * math.pi),
    ),
    "TorusKnotGeometry": (
        ("radius", 1.0),
        ("tube", 0.4),
        ("tubularSegments", 64.0),
        ("radialSegments", 8.0),
        ("p", 2.0),
        ("q", 3.0),
    ),
}

#: Geometries three has that are none of the six primitives and have no size we can read.
OTHER_GEOMETRIES: Final = frozenset(
    {
        "BufferGeometry",
        "LatheGeometry",
        "ExtrudeGeometry",
        "ShapeGeometry",
        "TubeGeometry",
        "EdgesGeometry",
        "WireframeGeometry",
        "PolyhedronGeometry",
        "InstancedBufferGeometry",
    }
)

_FLAT: Final = frozenset({"CircleGeometry", "RingGeometry", "ShapeGeometry"})
_FULL_TURN = 2 * math.pi
_EPS = 1e-9


@dataclass(frozen=True)
class GeometryReading:
    """``class_name`` None: the geometry is left out of the scene (a ground plane, a flat
    shape). ``unit_to_local`` takes the canonical unit primitive onto three's geometry."""

    class_name: str | None
    unit_to_local: Matrix
    remarks: tuple[tuple[Severity, str, str], ...] = field(default=())


def _scale(sx: float, sy: float, sz: float) -> Matrix:
    return np.diag([sx, sy, sz, 1.0])


def _rotation(axis: str, degrees: float) -> Matrix:
    m = np.eye(4)
    m[:3, :3] = axis_rotation(axis, math.radians(degrees))
    return m


def _segments(value: float) -> int:
    return math.floor(value)


def _is(value: float | bool, default: float) -> bool:
    return abs(float(value) - default) < _EPS


@dataclass
class _Geometry:
    """One geometry as a reader sees it: its parameters (three's defaults filled in) and the
    remarks its reading makes, in the order made."""

    type_name: str
    parameters: dict[str, float | bool]
    defaults: dict[str, float | bool]
    remarks: list[tuple[Severity, str, str]] = field(default_factory=list)

    def num(self, name: str) -> float:
        return float(self.parameters[name])

    def note(self, severity: Severity, code: str, message: str) -> None:
        self.remarks.append((severity, code, message))

    def segments_note(self, name: str, label: str) -> None:
        if not _is(self.parameters[name], float(self.defaults[name])):
            self.note(
                "info",
                "threejs.segments",
                f"{self.type_name} with {_segments(self.num(name))} {label} (three's default {int(self.defaults[name])}): its faceted surface is read as the ideal shape",
            )

    def arc_note(self, name: str, full: float) -> None:
        if abs(self.num(name)) < full - 1e-6:
            self.note(
                "warning",
                "threejs.partial_shape",
                f"{self.type_name} with {name} {self.num(name):.4g} is an open sector; read as the whole shape",
            )

    def reading(self, class_name: str | None, unit_to_local: Matrix) -> GeometryReading:
        return GeometryReading(class_name, unit_to_local, tuple(self.remarks))


#: geometry type -> its reader; a type without one is kept as class 'unknown'.
_READERS: Final[dict[str, Callable[[_Geometry], GeometryReading]]] = {}


def _reads(
    *type_names: str,
) -> Callable[[Callable[[_Geometry], GeometryReading]], Callable[[_Geometry], GeometryReading]]:
    def register(
        reader: Callable[[_Geometry], GeometryReading],
    ) -> Callable[[_Geometry], GeometryReading]:
        for type_name in type_names:
            _READERS[type_name] = reader
        return reader

    return register


def read_geometry(type_name: str, parameters: Mapping[str, float | bool]) -> GeometryReading:
    """The canonical reading of a three.js geometry (``parameters`` as three stores them)."""
    defaults = dict(GEOMETRY_PARAMETERS.get(type_name, ()))
    given = {k: v for k, v in parameters.items() if k in defaults}
    geometry = _Geometry(type_name, {**defaults, **given}, defaults)
    return _READERS.get(type_name, _unknown)(geometry)


@_reads("BoxGeometry")
def _box(g: _Geometry) -> GeometryReading:
    return g.reading("cube", _scale(g.num("width"), g.num("height"), g.num("depth")))


@_reads("SphereGeometry")
def _sphere(g: _Geometry) -> GeometryReading:
    g.segments_note("widthSegments", "width segments")
    g.segments_note("heightSegments", "height segments")
    g.arc_note("phiLength", _FULL_TURN)
    if not _is(g.parameters["thetaStart"], 0.0) or abs(g.num("thetaLength")) < math.pi - 1e-6:
        g.note(
            "warning",
            "threejs.partial_shape",
            f"{g.type_name} with thetaStart {g.num('thetaStart'):.4g}, thetaLength {g.num('thetaLength'):.4g} is part of a sphere; read as the whole sphere",
        )
    d = 2 * g.num("radius")
    return g.reading("sphere", _scale(d, d, d))


@_reads("CylinderGeometry", "ConeGeometry")
def _cylinder_or_cone(g: _Geometry) -> GeometryReading:
    if g.type_name == "ConeGeometry":
        top, bottom = 0.0, g.num("radius")
    else:
        top, bottom = g.num("radiusTop"), g.num("radiusBottom")
    height = g.num("height")
    radial = _segments(g.num("radialSegments"))
    g.arc_note("thetaLength", _FULL_TURN)
    if g.parameters["openEnded"]:
        g.note("info", "threejs.open_ended", f"{g.type_name} is open-ended; read as a solid")
    inverted = _rotation("X", 180.0)
    # Only a whole turn makes its radial segments a regular polygon: an open sector's
    # corners lie on the circle, outside the square they would make.
    whole = abs(abs(g.num("thetaLength")) - _FULL_TURN) < 1e-6
    if radial == 4 and whole and (top == 0 or bottom == 0 or abs(top - bottom) < _EPS):
        # Four segments: three puts the first corner at thetaStart from +Z towards +X
        # (x = r sin θ, z = r cos θ), so a square turned 45° + thetaStart about Y, read
        # modulo the square's quarter-turn symmetry: thetaStart = π/4 gives the canonical
        # pyramid with its base edges along the axes.
        radius = max(top, bottom)
        side = radius * math.sqrt(2)
        turn = math.remainder(45.0 + math.degrees(g.num("thetaStart")), 90.0)
        turned = _rotation("Y", turn) @ _scale(side, height, side)
        how = f"turned {turn:.4g}°" if abs(turn) > 1e-9 else "with its edges along the axes"
        if abs(top - bottom) < _EPS:
            g.note(
                "info",
                "threejs.square_prism",
                f"{g.type_name} with 4 radial segments is a square prism: read as a cube {how}",
            )
            return g.reading("cube", turned)
        g.note(
            "info",
            "threejs.pyramid",
            f"{g.type_name} with 4 radial segments is a square pyramid {how}",
        )
        return g.reading("pyramid", turned if top == 0 else inverted @ turned)
    if radial == 3 and whole and (top == 0 or bottom == 0):
        radius = max(top, bottom)
        g.note(
            "warning",
            "threejs.segments",
            f"{g.type_name} with 3 radial segments (a triangular pyramid) read as a square pyramid around it",
        )
        box = _scale(2 * radius, height, 2 * radius)
        return g.reading("pyramid", box if top == 0 else inverted @ box)
    g.segments_note("radialSegments", "radial segments")
    if abs(top - bottom) < _EPS:
        return g.reading("cylinder", _scale(2 * top, height, 2 * top))
    if top == 0:
        return g.reading("cone", _scale(2 * bottom, height, 2 * bottom))
    if bottom == 0:
        return g.reading("cone", inverted @ _scale(2 * top, height, 2 * top))
    radius = max(top, bottom)
    g.note(
        "warning",
        "threejs.frustum",
        f"{g.type_name} with radii {top:g} and {bottom:g} is a truncated cone; read as a cylinder of radius {radius:g}",
    )
    return g.reading("cylinder", _scale(2 * radius, height, 2 * radius))


@_reads("TorusGeometry")
def _torus(g: _Geometry) -> GeometryReading:
    g.segments_note("radialSegments", "radial segments")
    g.segments_note("tubularSegments", "tubular segments")
    g.arc_note("arc", _FULL_TURN)
    g.arc_note("thetaLength", _FULL_TURN)
    major, tube = g.num("radius"), g.num("tube")
    if major > 0 and abs(tube / major - TORUS_MINOR_RADIUS / TORUS_MAJOR_RADIUS) > 0.01:
        # The canonical torus has one shape (tube = radius / 3): other tori keep their
        # outer extent and thickness, but tilted their bounding box differs slightly.
        g.note(
            "info",
            "threejs.torus_proportions",
            f"TorusGeometry with tube/radius {tube / major:.3g} (the canonical torus has 1/3): read at its outer extent and thickness",
        )
    outer = 2 * (major + tube)
    # Three's torus stands in the XY plane; the canonical one lies in XZ.
    return g.reading("torus", _rotation("X", 90.0) @ _scale(outer, 8 * tube, outer))


@_reads("CapsuleGeometry")
def _capsule(g: _Geometry) -> GeometryReading:
    radius = g.num("radius")
    g.note(
        "warning",
        "threejs.approximated",
        "CapsuleGeometry read as a cylinder with the capsule's extent",
    )
    return g.reading("cylinder", _scale(2 * radius, g.num("height") + 2 * radius, 2 * radius))


@_reads("IcosahedronGeometry", "OctahedronGeometry", "DodecahedronGeometry")
def _round_polyhedron(g: _Geometry) -> GeometryReading:
    d = 2 * g.num("radius")
    g.note(
        "warning",
        "threejs.approximated",
        f"{g.type_name} (detail {_segments(g.num('detail'))}) read as a sphere of the same radius",
    )
    return g.reading("sphere", _scale(d, d, d))


@_reads("TetrahedronGeometry")
def _tetrahedron(g: _Geometry) -> GeometryReading:
    side = 2 * g.num("radius") / math.sqrt(3)
    g.note(
        "warning",
        "threejs.approximated",
        "TetrahedronGeometry read as a pyramid of the same extent",
    )
    return g.reading("pyramid", _scale(side, side, side))


@_reads("PlaneGeometry")
def _plane(g: _Geometry) -> GeometryReading:
    g.note(
        "info",
        "threejs.ground_plane",
        "PlaneGeometry is a ground or backdrop, not an object; left out",
    )
    return g.reading(None, _scale(g.num("width"), g.num("height"), 0.0))


@_reads(*sorted(_FLAT))
def _flat(g: _Geometry) -> GeometryReading:
    g.note(
        "warning",
        "threejs.flat_shape",
        f"{g.type_name} is flat, none of the six primitives; left out",
    )
    return g.reading(None, np.eye(4))


@_reads("TorusKnotGeometry")
def _torus_knot(g: _Geometry) -> GeometryReading:
    extent = 2 * (g.num("radius") + g.num("tube"))
    g.note(
        "warning",
        "threejs.unknown_geometry",
        "TorusKnotGeometry is none of the six primitives; kept as class 'unknown'",
    )
    return g.reading(UNKNOWN_CLASS, _scale(extent, extent, extent))


def _unknown(g: _Geometry) -> GeometryReading:
    g.note(
        "warning",
        "threejs.unknown_geometry",
        f"{g.type_name} is none of the six primitives; kept as class 'unknown' with a unit size",
    )
    return g.reading(UNKNOWN_CLASS, np.eye(4))
