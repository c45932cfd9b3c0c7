"""Blender's ``bpy.ops.mesh.primitive_*_add`` operators: each one's defaults, the canonical
class of the mesh it makes, and where that mesh lies in the object's own frame.

Measured with bpy 5.0.1 (tests/engines/test_engine_defaults.py): every shape is centred on the
object's origin with its axis along local +Z; the cube's ``size`` is its edge (default 2), the
spheres' ``radius`` 1, the cylinder radius 1 and depth 2, the cone ``radius1`` 1, ``radius2`` 0,
depth 2, the torus major radius 1 and minor 0.25 in the XY plane. A cone of 4 vertices is a
pyramid with its base corners on the local axes. The operator's ``scale`` argument is baked
into the mesh (the object's own scale stays 1). Rings start at +Y and go clockwise (cylinder,
cone, UV sphere) or at +X counter-clockwise (torus): that decides a mesh's bounding box, which
``dimensions`` uses, when its vertex count is not a multiple of 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from parsers.evaluator import CallContext, Value
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS
from spatialbabel.frames import Matrix

#: Canonical +Y (the unit primitives' axis) onto Blender's local +Z.
Y_TO_Z = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)

#: operator -> (class, object/mesh base name). "ground" marks flat shapes a model uses as floor.
OPERATORS: dict[str, tuple[str, str]] = {
    "primitive_cube_add": ("cube", "Cube"),
    "primitive_uv_sphere_add": ("sphere", "Sphere"),
    "primitive_ico_sphere_add": ("sphere", "Icosphere"),
    "primitive_cylinder_add": ("cylinder", "Cylinder"),
    "primitive_cone_add": ("cone", "Cone"),
    "primitive_torus_add": ("torus", "Torus"),
    "primitive_plane_add": ("ground", "Plane"),
    "primitive_grid_add": ("ground", "Grid"),
    "primitive_circle_add": ("ground", "Circle"),
    "primitive_monkey_add": ("unknown", "Suzanne"),
}

#: Half extents of the default ico sphere's mesh per subdivision level (radius 1): its
#: vertices lie on the sphere but miss the axes at low levels.
_ICO_HALF_EXTENTS = {
    1: (2 / math.sqrt(5), 2 / math.sqrt(5) * math.sin(math.radians(72)), 1.0),
    2: (math.sin(math.radians(72)), 1.0, 1.0),
}
#: Suzanne's half extents at size 2 (a shape of its own: class unknown).
_MONKEY_HALF_EXTENTS = (1.3671875, 0.8515625, 0.984375)


@dataclass
class MeshShape:
    """A mesh as the evaluator knows it: its class, the affine taking the canonical unit
    primitive onto it (local frame), and the box of its actual vertices (for ``dimensions``)."""

    class_name: str | None
    unit_to_local: Matrix = field(default_factory=lambda: np.eye(4))
    box_min: Matrix = field(default_factory=lambda: -np.ones(3))
    box_max: Matrix = field(default_factory=lambda: np.ones(3))
    vertices: list[list[float]] | None = None
    operator: str | None = None
    #: The mean of the mesh's vertices (``origin_set``'s default centre); the origin for every
    #: primitive but a cone with a tip, whose one apex vertex weighs against a ring of them.
    median: Matrix = field(default_factory=lambda: np.zeros(3))

    def copy(self) -> MeshShape:
        return MeshShape(
            self.class_name,
            self.unit_to_local.copy(),
            self.box_min.copy(),
            self.box_max.copy(),
            None if self.vertices is None else [list(v) for v in self.vertices],
            self.operator,
            self.median.copy(),
        )

    def transform(self, matrix: Matrix) -> None:
        """Apply a local affine to the mesh's vertices (``mesh.transform``, ``transform_apply``)."""
        m = np.asarray(matrix, dtype=float)
        self.unit_to_local = m @ self.unit_to_local
        corners = np.array(
            [
                [x, y, z, 1.0]
                for x in (self.box_min[0], self.box_max[0])
                for y in (self.box_min[1], self.box_max[1])
                for z in (self.box_min[2], self.box_max[2])
            ]
        )
        moved = corners @ m.T
        self.box_min, self.box_max = moved[:, :3].min(axis=0), moved[:, :3].max(axis=0)
        self.median = m[:3, :3] @ self.median + m[:3, 3]
        if self.vertices is not None:
            v = (
                np.hstack(
                    [np.asarray(self.vertices, dtype=float), np.ones((len(self.vertices), 1))]
                )
                @ m.T
            )
            self.vertices = v[:, :3].tolist()

    @property
    def extent(self) -> Matrix:
        return np.asarray(self.box_max - self.box_min, dtype=float)


@lru_cache(maxsize=256)
def _ring_extent(count: int, start: float, step: float) -> tuple[float, float, float, float]:
    """min/max of cos and sin over a ring of ``count`` angles (radians); cached, as scripts
    make many meshes of the same few resolutions."""
    angles = [start + k * step for k in range(max(count, 1))]
    cos = [math.cos(a) for a in angles]
    sin = [math.sin(a) for a in angles]
    return min(cos), max(cos), min(sin), max(sin)


@lru_cache(maxsize=256)
def _widest_ring(rings: int) -> float:
    """The largest sin over a UV sphere's ring latitudes (its widest ring, on a unit sphere)."""
    return max(math.sin(math.pi * j / rings) for j in range(1, rings)) if rings > 1 else 0.0


def _affine(linear: Matrix) -> Matrix:
    m = np.eye(4)
    m[:3, :3] = linear
    return m


def _rz(radians: float) -> Matrix:
    c, s = math.cos(radians), math.sin(radians)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _number(ctx: CallContext, kwargs: dict[str, Value], name: str, default: float) -> float:
    return ctx.number(kwargs.get(name, default), name, default)


def _count(ctx: CallContext, kwargs: dict[str, Value], name: str, default: int) -> int:
    value = ctx.number(kwargs.get(name, default), name, float(default))
    return max(int(value), 1)


def _cone_median_z(
    vertices: int, depth: float, bottom: float, top: float, kwargs: dict[str, Value]
) -> float:
    """Local z of the mean vertex of ``primitive_cone_add``'s mesh: a ring of ``vertices`` at
    each end with a radius, one apex vertex at an end without, and a centre vertex on each
    capped ring when ``end_fill_type='TRIFAN'`` (bpy 5.0.1)."""
    fan = 1 if kwargs.get("end_fill_type") == "TRIFAN" else 0
    ends = [(-depth / 2, bottom), (depth / 2, top)]
    count = total = 0.0
    for z, radius in ends:
        weight = vertices + fan if radius > 0 else 1
        count += weight
        total += weight * z
    return total / count


#: Operator arguments of Blender 2.7x that 2.80 renamed: operator -> old name -> (new name,
#: factor). 2.79's cube, plane, grid and monkey take ``radius`` (half the edge: its cube is
#: ``create_cube size=radius*2``); its UV and ico spheres take ``size``, their radius.
#: Blender 2.80 and later refuse the old names (TypeError), so each is read as 2.79 read it.
LEGACY_ARGUMENTS: dict[str, dict[str, tuple[str, float]]] = {
    "primitive_cube_add": {"radius": ("size", 2.0)},
    "primitive_plane_add": {"radius": ("size", 2.0)},
    "primitive_grid_add": {"radius": ("size", 2.0)},
    "primitive_monkey_add": {"radius": ("size", 2.0)},
    "primitive_uv_sphere_add": {"size": ("radius", 1.0)},
    "primitive_ico_sphere_add": {"size": ("radius", 1.0)},
}


def legacy_arguments(ctx: CallContext, operator: str, kwargs: dict[str, Value]) -> dict[str, Value]:
    """``kwargs`` with Blender 2.7x's argument names read as 2.80's, each with a remark;
    ``view_align=True`` (2.7x's ``align='VIEW'``) becomes that."""
    renamed = dict(kwargs)
    for old, (new, factor) in LEGACY_ARGUMENTS.get(operator, {}).items():
        if old not in kwargs or new in kwargs:
            continue
        value = renamed.pop(old)
        number = ctx.number(value, f"{operator} {old}", 1.0)
        renamed[new] = number * factor
        scale = f"{factor:g}·{old}" if factor != 1 else old
        ctx.info(
            "blender.legacy_argument",
            f"{old}= on {operator} is Blender 2.7x's (2.80 renamed it {new}); read as {new}={scale}",
        )
    if "view_align" in kwargs:
        view = renamed.pop("view_align")
        ctx.info(
            "blender.legacy_argument",
            "view_align= is Blender 2.7x's (2.80 made it align='WORLD' or 'VIEW')",
        )
        if ctx.truthy(view) and "align" not in renamed:
            renamed["align"] = "VIEW"
    renamed.pop("layers", None)
    return renamed


def primitive_shape(ctx: CallContext, operator: str, kwargs: dict[str, Value]) -> MeshShape:
    """The mesh ``operator`` builds from its keyword arguments (scale not yet applied)."""
    class_name, _ = OPERATORS[operator]
    if operator == "primitive_cube_add":
        size = _number(ctx, kwargs, "size", 2.0)
        half = np.full(3, size / 2)
        return MeshShape(
            "cube", _affine(np.diag([size, size, size])) @ Y_TO_Z, -half, half, operator=operator
        )
    if operator in ("primitive_uv_sphere_add", "primitive_ico_sphere_add"):
        radius = _number(ctx, kwargs, "radius", 1.0)
        if operator == "primitive_ico_sphere_add":
            level = _count(ctx, kwargs, "subdivisions", 2)
            half = np.asarray(_ICO_HALF_EXTENTS.get(level, (1.0, 1.0, 1.0))) * radius
        else:
            segments = _count(ctx, kwargs, "segments", 32)
            rings = _count(ctx, kwargs, "ring_count", 16)
            lo_c, hi_c, lo_s, hi_s = _ring_extent(segments, math.pi / 2, -2 * math.pi / segments)
            widest = _widest_ring(rings)
            half_x = widest * max(-lo_c, hi_c)
            half_y = widest * max(-lo_s, hi_s)
            half = np.array([half_x, half_y, 1.0]) * radius
        return MeshShape("sphere", _affine(np.eye(3) * 2 * radius), -half, half, operator=operator)
    if operator in ("primitive_cylinder_add", "primitive_cone_add"):
        vertices = _count(ctx, kwargs, "vertices", 32)
        depth = _number(ctx, kwargs, "depth", 2.0)
        lo_c, hi_c, lo_s, hi_s = _ring_extent(vertices, math.pi / 2, -2 * math.pi / vertices)
        if operator == "primitive_cylinder_add":
            radius = _number(ctx, kwargs, "radius", 1.0)
            box_min = np.array([lo_c * radius, lo_s * radius, -depth / 2])
            box_max = np.array([hi_c * radius, hi_s * radius, depth / 2])
            return MeshShape(
                "cylinder",
                _affine(np.diag([2 * radius, 2 * radius, depth])) @ Y_TO_Z,
                box_min,
                box_max,
                operator=operator,
            )
        bottom = _number(ctx, kwargs, "radius1", 1.0)
        top = _number(ctx, kwargs, "radius2", 0.0)
        radius = max(bottom, top)
        # An upside-down cone (radius1 0) is the unit cone turned over.
        flip = np.eye(3) if bottom >= top else np.diag([1.0, -1.0, -1.0])
        box_min = np.array([lo_c * radius, lo_s * radius, -depth / 2])
        box_max = np.array([hi_c * radius, hi_s * radius, depth / 2])
        median = np.array([0.0, 0.0, _cone_median_z(vertices, depth, bottom, top, kwargs)])
        if vertices == 4:
            side = radius * math.sqrt(2.0)
            linear = _rz(math.pi / 4) @ flip @ np.diag([side, side, depth])
            return MeshShape(
                "pyramid",
                _affine(linear) @ Y_TO_Z,
                box_min,
                box_max,
                operator=operator,
                median=median,
            )
        return MeshShape(
            "cone",
            _affine(flip @ np.diag([2 * radius, 2 * radius, depth])) @ Y_TO_Z,
            box_min,
            box_max,
            operator=operator,
            median=median,
        )
    if operator == "primitive_torus_add":
        major = _number(ctx, kwargs, "major_radius", 1.0)
        minor = _number(ctx, kwargs, "minor_radius", 0.25)
        if kwargs.get("mode") == "EXT_INT":
            outer = _number(ctx, kwargs, "abso_major_rad", 1.25)
            inner = _number(ctx, kwargs, "abso_minor_rad", 0.75)
            major, minor = (outer + inner) / 2, (outer - inner) / 2
        segments = _count(ctx, kwargs, "major_segments", 48)
        lo_c, hi_c, lo_s, hi_s = _ring_extent(segments, 0.0, 2 * math.pi / segments)
        outer_radius = major + minor
        scale = outer_radius / (TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS)
        thickness = 2 * minor / (2 * TORUS_MINOR_RADIUS)
        box_min = np.array([lo_c * outer_radius, lo_s * outer_radius, -minor])
        box_max = np.array([hi_c * outer_radius, hi_s * outer_radius, minor])
        return MeshShape(
            "torus",
            _affine(np.diag([scale, scale, thickness])) @ Y_TO_Z,
            box_min,
            box_max,
            operator=operator,
        )
    if operator == "primitive_monkey_add":
        size = _number(ctx, kwargs, "size", 2.0)
        half = np.asarray(_MONKEY_HALF_EXTENTS) * size / 2
        return MeshShape(
            "unknown", _affine(np.diag(2 * half)) @ Y_TO_Z, -half, half, operator=operator
        )
    size = (
        _number(ctx, kwargs, "radius", 1.0) * 2
        if operator == "primitive_circle_add"
        else _number(ctx, kwargs, "size", 2.0)
    )
    half = np.array([size / 2, size / 2, 0.0])
    return MeshShape(
        class_name, _affine(np.diag([size, size, 0.0])) @ Y_TO_Z, -half, half, operator=operator
    )


def scaled(shape: MeshShape, scale: list[float]) -> MeshShape:
    """The operator's ``scale`` argument, baked into the mesh."""
    if scale != [1.0, 1.0, 1.0]:
        shape.transform(np.diag([*scale, 1.0]))
    return shape
