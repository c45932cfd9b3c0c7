"""The open3d engine table: what ``open3d`` (with numpy and ``copy``) looks like to the static
evaluator.

A ``TriangleMesh`` record holds parts: each part is one ``create_*`` primitive with the affine
its vertices have been moved by since (open3d transforms vertices in place: ``translate``,
``rotate``, ``scale`` and ``transform`` compose onto every part); ``mesh += other`` and
``a + b`` concatenate parts, as open3d concatenates vertices. Windows, renders and file writes
are not run: what a script hands to ``draw_geometries``, a ``Visualizer`` or a
``write_triangle_mesh`` is recorded as shown. The scene is the meshes shown, or, when the
script shows nothing (cut off before its draw call), every mesh a ``create_*`` call returned.
"""

from __future__ import annotations

import copy as copy_module
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from parsers.build import MAX_OBJECTS, NativeObject
from parsers.custom_mesh import affine_image, bounding_affine, shape_from_vertices
from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Engine,
    EngineClass,
    HelperCall,
    Kind,
    Kwargs,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
    type_name,
)
from parsers.evaluator.python import numpy_lib as npl
from parsers.evaluator.python.lib import resolve_python_import
from parsers.helper_calls import read_helper_call
from parsers.open3d import shapes, stubs
from spatialbabel.frames import Matrix, axis_angle_to_matrix, axis_rotation, quaternion_to_matrix
from spatialbabel.palette import RGB

ROTATION_ORDERS = ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx")
_SHOW_FUNCTIONS = (
    "draw_geometries",
    "draw",
    "draw_plotly",
    "draw_geometries_with_editing",
    "draw_geometries_with_animation_callback",
    "draw_geometries_with_key_callbacks",
    "draw_geometries_with_custom_animation",
    "draw_geometries_with_vertex_selection",
)
_VISUALIZERS = (
    "Visualizer",
    "VisualizerWithKeyCallback",
    "VisualizerWithEditing",
    "VisualizerWithVertexSelection",
    "O3DVisualizer",
)


@dataclass
class Part:
    """One primitive inside a mesh: its creation, and the affine applied to it since."""

    class_name: str | None
    vertices: Matrix
    unit_to_local: Matrix
    factory: str
    affine: Matrix = field(default_factory=lambda: np.eye(4))
    colour: RGB | None = None

    def moved(self) -> Matrix:
        return self.vertices @ self.affine[:3, :3].T + self.affine[:3, 3]

    def copy(self) -> Part:
        return Part(
            self.class_name,
            self.vertices,
            self.unit_to_local,
            self.factory,
            self.affine.copy(),
            self.colour,
        )


@dataclass
class MeshState:
    line: int
    parts: list[Part] = field(default_factory=list)
    factory: str | None = None
    variable: str | None = None

    def vertices(self) -> Matrix:
        if not self.parts:
            return np.zeros((0, 3))
        return np.vstack([p.moved() for p in self.parts])

    def apply(self, matrix: Matrix) -> None:
        for part in self.parts:
            part.affine = matrix @ part.affine


def rotation_matrix(order: str, angles: list[float]) -> Matrix:
    """open3d's ``get_rotation_matrix_from_<order>``: angle i turns about the i-th letter's axis,
    the matrices multiplied in the letters' order."""
    result = np.eye(3)
    for axis, angle in zip(order.upper(), angles, strict=True):
        result = result @ axis_rotation(axis, angle)
    return result


class Open3DEngine(Engine):
    name = "open3d"

    def __init__(self) -> None:
        super().__init__()
        self.meshes: list[Record] = []
        self.shown: list[Record] = []
        #: ``id`` of every mesh in ``shown``: membership by identity in one lookup, not a pass.
        self._shown_ids: set[int] = set()
        #: Meshes read from calls of helpers without a body (``stubs``): shown in any case.
        self.stub_meshes: list[Record] = []
        npl.register(self)
        self._register_kinds()
        self.numpy = npl.numpy_module()
        self.open3d = self._open3d_module()
        self.copy_module = Namespace(
            "copy",
            {
                "deepcopy": Builtin("copy.deepcopy", self._copy_value),
                "copy": Builtin("copy.copy", self._copy_value),
            },
        )

    # --- kinds --------------------------------------------------------------------------------
    def _register_kinds(self) -> None:
        rotation_methods = {
            f"get_rotation_matrix_from_{order}": self._as_method(self._rotation_builder(order))
            for order in ROTATION_ORDERS
        }
        rotation_methods["get_rotation_matrix_from_axis_angle"] = self._as_method(self._axis_angle)
        rotation_methods["get_rotation_matrix_from_quaternion"] = self._as_method(self._quaternion)
        same = self._returns_self
        self.add_kind(
            Kind(
                "TriangleMesh",
                methods={
                    "translate": self._translate,
                    "rotate": self._rotate,
                    "scale": self._scale,
                    "transform": self._transform,
                    "paint_uniform_color": self._paint,
                    "get_center": lambda ctx, r, a, k: npl.wrap(self._center(r)),
                    "get_min_bound": lambda ctx, r, a, k: npl.wrap(self._bounds(r)[0]),
                    "get_max_bound": lambda ctx, r, a, k: npl.wrap(self._bounds(r)[1]),
                    "get_axis_aligned_bounding_box": self._aabb,
                    "has_vertices": lambda ctx, r, a, k: bool(r.native.parts),
                    "has_triangles": lambda ctx, r, a, k: bool(r.native.parts),
                    "has_vertex_colors": lambda ctx, r, a, k: any(
                        p.colour is not None for p in r.native.parts
                    ),
                    "is_empty": lambda ctx, r, a, k: not r.native.parts,
                    "clear": self._clear,
                    **{
                        name: same
                        for name in (
                            "compute_vertex_normals",
                            "compute_triangle_normals",
                            "normalize_normals",
                            "remove_duplicated_vertices",
                            "remove_duplicated_triangles",
                            "remove_degenerate_triangles",
                            "remove_unreferenced_vertices",
                            "orient_triangles",
                            "compute_adjacency_list",
                        )
                    },
                    **{
                        name: self._approximate(name)
                        for name in (
                            "subdivide_midpoint",
                            "subdivide_loop",
                            "simplify_quadric_decimation",
                            "simplify_vertex_clustering",
                            "filter_smooth_simple",
                            "filter_smooth_laplacian",
                            "filter_smooth_taubin",
                        )
                    },
                    **rotation_methods,
                },
                getters={
                    "vertices": lambda ctx, r: npl.wrap(r.native.vertices()),
                    "vertex_colors": self._vertex_colours,
                },
                on_set=self._mesh_set,
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "AxisAlignedBoundingBox",
                methods={
                    "get_center": lambda ctx, r, a, k: npl.wrap((r.native[0] + r.native[1]) / 2),
                    "get_extent": lambda ctx, r, a, k: npl.wrap(r.native[1] - r.native[0]),
                    "get_half_extent": lambda ctx, r, a, k: npl.wrap(
                        (r.native[1] - r.native[0]) / 2
                    ),
                    "get_min_bound": lambda ctx, r, a, k: npl.wrap(r.native[0]),
                    "get_max_bound": lambda ctx, r, a, k: npl.wrap(r.native[1]),
                },
                getters={
                    "min_bound": lambda ctx, r: npl.wrap(r.native[0]),
                    "max_bound": lambda ctx, r: npl.wrap(r.native[1]),
                },
                inert=True,
            )
        )
        self.add_kind(
            Kind(
                "Visualizer",
                methods={
                    "add_geometry": self._vis_add,
                    "remove_geometry": self._vis_remove,
                    "create_window": lambda ctx, r, a, k: True,
                    "poll_events": lambda ctx, r, a, k: False,
                },
                inert=True,
            )
        )
        self.add_kind(Kind("Inert", inert=True))

    def _as_method(
        self, fn: Callable[[CallContext, Args, Kwargs], Value]
    ) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        return lambda ctx, record, args, kwargs: fn(ctx, args, kwargs)

    @staticmethod
    def _returns_self(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        return record

    def _approximate(self, name: str) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        def call(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            ctx.info(
                "open3d.approximate",
                f"{name} changes the mesh's tessellation; read as the same shape",
            )
            return self._copy_mesh(ctx, record)

        return call

    # --- modules ------------------------------------------------------------------------------------
    def _open3d_module(self) -> Namespace:
        statics: dict[str, Value] = {
            name: Builtin(f"TriangleMesh.{name}", self._factory(name))
            for name in (*shapes.CREATORS, *shapes.HELPERS)
        }
        for order in ROTATION_ORDERS:
            statics[f"get_rotation_matrix_from_{order}"] = Builtin(
                f"get_rotation_matrix_from_{order}", self._rotation_builder(order)
            )
        statics["get_rotation_matrix_from_axis_angle"] = Builtin(
            "get_rotation_matrix_from_axis_angle", self._axis_angle
        )
        statics["get_rotation_matrix_from_quaternion"] = Builtin(
            "get_rotation_matrix_from_quaternion", self._quaternion
        )
        triangle_mesh = EngineClass("TriangleMesh", self._new_mesh, statics)
        legacy: dict[str, Value] = {
            old: self._legacy(
                f"{old}()",
                f"TriangleMesh.{new}()",
                "open3d 0.7 and earlier; 0.8 renamed it",
                Builtin(old, self._factory(new)),
            )
            for old, new in shapes.LEGACY_FACTORIES.items()
        }
        # open3d 0.7-0.9 rotate by three angles of a RotationType.
        rotation_types = Namespace(
            "open3d.geometry.RotationType",
            {name: name for name in (*[o.upper() for o in ROTATION_ORDERS], "AxisAngle")},
        )
        inert_class = EngineClass("Inert", lambda ctx, a, k: Record("Inert"))
        geometry_members: dict[str, Value] = {
            "TriangleMesh": triangle_mesh,
            "PointCloud": inert_class,
            "LineSet": inert_class,
            "AxisAlignedBoundingBox": inert_class,
            "OrientedBoundingBox": inert_class,
            "RotationType": rotation_types,
            **legacy,
            **{
                name: value
                for name, value in statics.items()
                if name.startswith("get_rotation_matrix")
            },
        }
        show = {
            name: Builtin(f"open3d.visualization.{name}", self._show_first)
            for name in _SHOW_FUNCTIONS
        }
        visualizers = {
            name: EngineClass(name, lambda ctx, a, k: Record("Visualizer")) for name in _VISUALIZERS
        }
        inert = Namespace(
            "inert", missing=lambda name: EngineClass(name, lambda ctx, a, k: Record("Inert"))
        )
        visualization = Namespace(
            "open3d.visualization",
            {**show, **visualizers, "gui": inert, "rendering": inert},
            missing=lambda name: Builtin(name, lambda c, a, k: None),
        )
        io = Namespace(
            "open3d.io",
            {
                "write_triangle_mesh": Builtin("open3d.io.write_triangle_mesh", self._write),
                "read_triangle_mesh": Builtin("open3d.io.read_triangle_mesh", self._read_file),
            },
            missing=lambda name: Builtin(f"open3d.io.{name}", lambda ctx, a, k: True),
        )
        vector = Builtin(
            "open3d.utility.Vector3dVector",
            lambda ctx, a, k: (
                npl.wrap(npl.to_numpy(arg(a, 0)))
                if not isinstance(npl.to_numpy(arg(a, 0)), Unknown)
                else npl.to_numpy(arg(a, 0))
            ),
        )
        utility = Namespace(
            "open3d.utility",
            {"Vector3dVector": vector, "Vector3iVector": vector, "Vector2dVector": vector},
            missing=lambda name: Builtin(name, lambda c, a, k: None),
        )
        # open3d 0.6 and earlier had one flat namespace (models write ``from open3d import *``
        # and then ``create_mesh_box()``, ``draw_geometries([...])``).
        flat: dict[str, Value] = {
            **legacy,
            "TriangleMesh": triangle_mesh,
            "Vector3dVector": vector,
            "Vector3iVector": vector,
            "draw_geometries": self._legacy(
                "open3d.draw_geometries()",
                "open3d.visualization.draw_geometries()",
                "open3d 0.6 and earlier",
                show["draw_geometries"],
            ),
            "write_triangle_mesh": io.members["write_triangle_mesh"],
            "read_triangle_mesh": io.members["read_triangle_mesh"],
        }
        return Namespace(
            "open3d",
            {
                "geometry": Namespace(
                    "open3d.geometry", geometry_members, missing=lambda name: inert_class
                ),
                "visualization": visualization,
                "io": io,
                "utility": utility,
                **flat,
                "__version__": "0.20.0",
            },
            missing=lambda name: Namespace(
                f"open3d.{name}",
                missing=lambda inner: Builtin(inner, lambda c, a, k: Record("Inert")),
            ),
        )

    def _legacy(self, old: str, new: str, when: str, function: Builtin) -> Builtin:
        """``function`` under a name of an older open3d, saying so when it is called."""
        call = function.fn

        def legacy(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            ctx.info("open3d.legacy_api", f"{old} is {when}; read as {new}")
            result: Value = call(ctx, args, kwargs)
            return result

        return Builtin(function.name, legacy)

    def globals(self) -> dict[str, Value]:
        return {}

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        return resolve_python_import(
            ctx,
            module,
            name,
            packages={"open3d": lambda: self.open3d, "numpy": lambda: self.numpy},
            modules={"copy": lambda: self.copy_module},
            unknown_code="open3d.unknown_module",
        )

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        if name in ("o3d", "open3d"):
            ctx.warning(
                "open3d.missing_import", f"{name} is used without being imported; read as open3d"
            )
            return self.open3d
        if name == "np":
            ctx.warning("open3d.missing_import", "np is used without being imported; read as numpy")
            return self.numpy
        return None

    # --- meshes ---------------------------------------------------------------------------------------
    def _mesh(self, ctx: CallContext, parts: list[Part], factory: str | None = None) -> Record:
        record = Record("TriangleMesh", native=MeshState(ctx.line, parts, factory))
        self.meshes.append(record)
        return record

    def _factory(self, factory: str) -> Callable[[CallContext, Args, Kwargs], Value]:
        def create(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            parameters = shapes.read_parameters(ctx, factory, args, kwargs)
            if factory in shapes.HELPERS:
                return self._mesh(ctx, [], factory)
            primitive = shapes.create(factory, parameters)
            if primitive.class_name == "unknown":
                ctx.warning(
                    "open3d.unknown_shape",
                    f"{factory} makes none of the six primitives; kept as class 'unknown'",
                )
            part = Part(primitive.class_name, primitive.vertices, primitive.unit_to_local, factory)
            return self._mesh(ctx, [part], factory)

        return create

    def _new_mesh(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Record:
        source = arg(args, 0)
        if isinstance(source, Record) and source.kind == "TriangleMesh":
            return self._copy_mesh(ctx, source)
        if source is not UNDEFINED:
            ctx.info(
                "open3d.custom_mesh",
                "TriangleMesh(vertices, triangles): the shape is read from the vertices",
            )
            record = self._mesh(ctx, [])
            self._mesh_set(ctx, record, "vertices", source)
            return record
        return self._mesh(ctx, [])

    def _copy_mesh(self, ctx: CallContext, record: Record) -> Record:
        state: MeshState = record.native
        return self._mesh(ctx, [p.copy() for p in state.parts])

    def _copy_value(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        value = arg(args, 0)
        if isinstance(value, Record) and value.kind == "TriangleMesh":
            return self._copy_mesh(ctx, value)
        if isinstance(value, Record) and value.kind == npl.KIND:
            return npl.wrap(np.array(value.native))
        if isinstance(value, list):
            return [self._copy_value(ctx, [v], {}) for v in value]
        if isinstance(value, dict):
            return {k: self._copy_value(ctx, [v], {}) for k, v in value.items()}
        if isinstance(value, tuple):
            return tuple(self._copy_value(ctx, [v], {}) for v in value)
        try:
            return copy_module.copy(value)
        except TypeError:
            return value

    def merge(self, left: Record, right: Value, *, in_place: bool) -> Value:
        """``left += right`` (in place) or ``left + right`` (a new mesh)."""
        if not (isinstance(right, Record) and right.kind == "TriangleMesh"):
            return Unknown(f"+ of a mesh and a {type_name(right)}")
        parts = [p.copy() for p in right.native.parts]
        if in_place:
            left.native.parts.extend(parts)
            return left
        record = Record(
            "TriangleMesh",
            native=MeshState(left.native.line, [p.copy() for p in left.native.parts] + parts),
        )
        self.meshes.append(record)
        return record

    def _vector(
        self, ctx: CallContext, value: Value, what: str, default: list[float] | None = None
    ) -> list[float] | None:
        array = npl.to_numpy(value)
        if isinstance(array, Unknown):
            if value is not UNDEFINED:
                ctx.warning(
                    "eval.unknown_value",
                    f"{what} cannot be known statically ({array.reason}); ignored",
                )
            return default
        flat = array.ravel()
        if flat.size != 3:
            ctx.warning("open3d.bad_value", f"{what} has {flat.size} numbers, not 3; ignored")
            return default
        return [float(v) for v in flat]

    def _matrix(self, ctx: CallContext, value: Value, size: int, what: str) -> Matrix | None:
        array = npl.to_numpy(value)
        if isinstance(array, Unknown):
            ctx.warning(
                "eval.unknown_value", f"{what} cannot be known statically ({array.reason}); ignored"
            )
            return None
        if array.shape != (size, size) or not np.all(np.isfinite(array)):
            ctx.warning("open3d.bad_value", f"{what} is not a finite {size}x{size} matrix; ignored")
            return None
        return np.asarray(array, dtype=float)

    def _center(self, record: Record) -> Matrix:
        vertices = record.native.vertices()
        return vertices.mean(axis=0) if len(vertices) else np.zeros(3)

    def _bounds(self, record: Record) -> tuple[Matrix, Matrix]:
        vertices = record.native.vertices()
        if not len(vertices):
            return np.zeros(3), np.zeros(3)
        return vertices.min(axis=0), vertices.max(axis=0)

    def _translate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        offset = self._vector(ctx, arg(args, 0, kwargs, "translation"), "translate vector")
        relative_value = arg(args, 1, kwargs, "relative")
        relative = True if relative_value is UNDEFINED else ctx.truthy(relative_value)
        if offset is not None:
            move = np.asarray(offset)
            if relative is False:
                # open3d moves the vertex mean, not the box centre, to the point.
                move = move - self._center(record)
            matrix = np.eye(4)
            matrix[:3, 3] = move
            record.native.apply(matrix)
        return record

    def _about(self, linear: Matrix, centre: Matrix) -> Matrix:
        matrix = np.eye(4)
        matrix[:3, :3] = linear
        matrix[:3, 3] = centre - linear @ centre
        return matrix

    def _centre_of(self, ctx: CallContext, record: Record, value: Value, what: str) -> Matrix:
        """The point a rotation or scale is about: a point, or open3d 0.7-0.9's ``center``
        flag (True: the vertex mean, as ``get_center``; False: the origin)."""
        if value is UNDEFINED:
            return self._center(record)
        if isinstance(value, bool):
            ctx.info(
                "open3d.legacy_api",
                f"{what} center={value} is open3d 0.7-0.9's flag (0.10 takes a point); read as about "
                + ("the mesh centre" if value else "the origin"),
            )
            return self._center(record) if value else np.zeros(3)
        found = self._vector(ctx, value, what)
        return np.asarray(found) if found is not None else self._center(record)

    def _rotate(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        given = arg(args, 0, kwargs, "R")
        if given is UNDEFINED:
            given = arg(args, 0, kwargs, "rotation")
        array = npl.to_numpy(given)
        if not isinstance(array, Unknown) and array.size == 3:
            rotation = self._legacy_rotation(ctx, array.ravel(), arg(args, 2, kwargs, "type"))
        else:
            rotation = self._matrix(ctx, given, 3, "rotation matrix")
        if rotation is None:
            return record
        centre = self._centre_of(ctx, record, arg(args, 1, kwargs, "center"), "rotation")
        record.native.apply(self._about(rotation, centre))
        return record

    def _legacy_rotation(self, ctx: CallContext, angles: Matrix, kind: Value) -> Matrix | None:
        """open3d 0.7-0.9's ``rotate(rotation, center=True, type=RotationType.XYZ)``: three
        Euler angles, the matrices multiplied in the type's letter order (``XYZ``: Rx Ry Rz,
        as ``get_rotation_matrix_from_xyz`` now), or an axis-angle vector."""
        name = kind if isinstance(kind, str) else "XYZ"
        ctx.info(
            "open3d.legacy_api",
            f"rotate() with three angles is open3d 0.7-0.9's (RotationType.{name}); 0.10 takes a "
            "rotation matrix; read as that rotation",
        )
        values = [float(v) for v in angles]
        if not all(math.isfinite(v) for v in values):
            ctx.warning("open3d.bad_value", "rotation angles are not finite; ignored")
            return None
        if name == "AxisAngle":
            angle = math.sqrt(sum(v * v for v in values))
            if angle < 1e-15:
                return np.eye(3)
            axis = (values[0] / angle, values[1] / angle, values[2] / angle)
            return axis_angle_to_matrix(axis, angle)
        if name.lower() not in ROTATION_ORDERS:
            ctx.warning(
                "open3d.bad_value", f"rotation type {name!r} is not one open3d had; XYZ used"
            )
            name = "XYZ"
        return rotation_matrix(name.lower(), values)

    def _scale(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        factor = ctx.number(arg(args, 0, kwargs, "scale"), "scale factor", 1.0)
        centre_value = arg(args, 1, kwargs, "center")
        if centre_value is UNDEFINED:
            ctx.warning(
                "open3d.scale_without_center",
                "open3d 0.20's scale() requires a centre (it raises TypeError without one); scaled about the mesh centre, as older open3d did",
            )
        centre = self._centre_of(ctx, record, centre_value, "scale")
        record.native.apply(self._about(np.eye(3) * factor, centre))
        return record

    def _transform(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        matrix = self._matrix(ctx, arg(args, 0, kwargs, "transformation"), 4, "transformation")
        if matrix is not None:
            record.native.apply(matrix)
        return record

    def _paint(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        colour = self._vector(ctx, arg(args, 0, kwargs, "color"), "paint_uniform_color colour")
        if colour is not None:
            if max(colour) > 1.0 or min(colour) < 0.0:
                ctx.warning(
                    "open3d.colour_range", f"colour {colour} lies outside [0, 1]; open3d clamps it"
                )
            clamped = (
                min(max(colour[0], 0.0), 1.0),
                min(max(colour[1], 0.0), 1.0),
                min(max(colour[2], 0.0), 1.0),
            )
            for part in record.native.parts:
                part.colour = clamped
        return record

    def _clear(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        record.native.parts.clear()
        return record

    def _aabb(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        return Record("AxisAlignedBoundingBox", native=self._bounds(record))

    def _vertex_colours(self, ctx: CallContext, record: Record) -> Value:
        rows = []
        for part in record.native.parts:
            rows.extend([list(part.colour or (0.0, 0.0, 0.0))] * len(part.vertices))
        return npl.wrap(np.asarray(rows, dtype=float).reshape(-1, 3))

    def _mesh_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "vertices":
            array = npl.to_numpy(value)
            if (
                isinstance(array, Unknown)
                or array.ndim != 2
                or array.shape[1] != 3
                or not len(array)
            ):
                ctx.warning(
                    "open3d.unknown_mesh",
                    "mesh vertices that cannot be known statically; the mesh is left empty",
                )
                record.native.parts = []
                return True
            new = np.asarray(array, dtype=float)
            rewritten = self._affine_rewrite(record.native.parts, new)
            if rewritten is not None:
                ctx.info(
                    "open3d.vertices_rewritten",
                    "the new vertices are an affine image of the mesh's own (moved, turned or "
                    "scaled): each primitive keeps its class",
                )
                record.native.parts = rewritten
                return True
            record.native.parts = [Part(None, new, np.eye(4), "vertices")]
            return True
        if name == "vertex_colors":
            array = npl.to_numpy(value)
            if (
                not isinstance(array, Unknown)
                and array.ndim == 2
                and array.shape[1] == 3
                and len(array)
            ):
                mean = array.mean(axis=0)
                if float(np.abs(array - mean).max()) > 1e-6:
                    ctx.info(
                        "open3d.vertex_colours",
                        "vertex colours are not uniform; their mean is read",
                    )
                for part in record.native.parts:
                    part.colour = (float(mean[0]), float(mean[1]), float(mean[2]))
            return True
        return name in ("triangles", "vertex_normals", "triangle_normals", "triangle_uvs")

    @staticmethod
    def _affine_rewrite(parts: list[Part], new: Matrix) -> list[Part] | None:
        """The parts moved onto ``new`` when, part by part, its vertices are an affine image of
        theirs (``np.asarray(mesh.vertices) * size``), else None."""
        if not parts or sum(len(p.vertices) for p in parts) != len(new):
            return None
        moved: list[Part] = []
        start = 0
        for part in parts:
            end = start + len(part.vertices)
            image = affine_image(part.moved(), new[start:end])
            if image is None:
                return None
            copy = part.copy()
            copy.affine = image @ part.affine
            moved.append(copy)
            start = end
        return moved

    # --- rotations ------------------------------------------------------------------------------------
    def _rotation_builder(self, order: str) -> Callable[[CallContext, Args, Kwargs], Value]:
        def build(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            angles = self._vector(
                ctx, arg(args, 0, kwargs, "rotation"), f"get_rotation_matrix_from_{order} angles"
            )
            if angles is None:
                return Unknown(f"get_rotation_matrix_from_{order} of unknown angles")
            return npl.wrap(rotation_matrix(order, angles))

        return build

    def _axis_angle(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        vector = self._vector(ctx, arg(args, 0, kwargs, "rotation"), "axis-angle vector")
        if vector is None:
            return Unknown("a rotation from an unknown axis-angle vector")
        angle = math.sqrt(sum(v * v for v in vector))
        if angle == 0:
            return npl.wrap(np.eye(3))
        return npl.wrap(axis_angle_to_matrix((vector[0], vector[1], vector[2]), angle))

    def _quaternion(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        array = npl.to_numpy(arg(args, 0, kwargs, "rotation"))
        if isinstance(array, Unknown) or array.size != 4:
            return Unknown("a rotation from an unknown quaternion")
        try:
            return npl.wrap(quaternion_to_matrix(tuple(float(v) for v in array.ravel())))
        except ValueError:
            return Unknown("a zero quaternion")

    # --- showing ----------------------------------------------------------------------------------------
    def show(self, ctx: CallContext, value: Value, depth: int = 0) -> None:
        if isinstance(value, dict):
            value = value.get("geometry", UNDEFINED)
        if isinstance(value, list | tuple) and depth < 4:
            for item in value:
                self.show(ctx, item, depth + 1)
        elif isinstance(value, Record) and value.kind == "TriangleMesh":
            if id(value) not in self._shown_ids:
                self._shown_ids.add(id(value))
                self.shown.append(value)
        elif isinstance(value, Unknown):
            ctx.warning(
                "open3d.unknown_shown",
                f"a geometry shown cannot be known statically ({value.reason})",
            )

    def _show_first(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        if args:
            self.show(ctx, args[0])
        for key in ("geometry_list", "geometry"):
            if key in kwargs:
                self.show(ctx, kwargs[key])
        return None

    def _vis_add(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        for value in [*args, *kwargs.values()]:
            if isinstance(value, Record) and value.kind == "TriangleMesh":
                self.show(ctx, value)
        return True

    def _vis_remove(self, ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        target = arg(args, 0, kwargs, "geometry")
        self.shown = [m for m in self.shown if m is not target]
        self._shown_ids = {id(m) for m in self.shown}
        return True

    def _write(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        self.show(ctx, arg(args, 1, kwargs, "mesh"))
        return True

    def _read_file(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        ctx.warning(
            "open3d.read_file", "a mesh read from a file has no static shape; it is left empty"
        )
        return self._mesh(ctx, [])

    # --- reading the scene ----------------------------------------------------------------------------
    def native_objects(self, ctx: CallContext) -> list[NativeObject]:
        """The meshes shown (or, when nothing is shown, every ``create_*`` result), one object
        per primitive part."""
        reporter = ctx.interp.reporter
        if self.shown:
            meshes = self.shown
            for mesh in self.meshes:
                if (
                    mesh.native.factory in shapes.CREATORS
                    and id(mesh) not in self._shown_ids
                    and mesh.native.parts
                    and not self._is_inside_shown(mesh)
                ):
                    reporter.add(
                        "info",
                        "open3d.not_shown",
                        f"a {mesh.native.factory} mesh is created but never shown; left out",
                        mesh.native.line,
                        None,
                    )
        else:
            meshes = [m for m in self.meshes if m.native.factory in shapes.CREATORS]
            if meshes:
                reporter.add(
                    "info",
                    "open3d.nothing_shown",
                    "the code shows nothing (no draw call or file write); every created mesh is read",
                    None,
                    None,
                )
        meshes = [*meshes] + [
            m
            for m in self.stub_meshes
            if all(m is not shown for shown in meshes) and not self._is_inside_shown(m)
        ]
        found: list[NativeObject] = []
        for mesh in meshes:
            state: MeshState = mesh.native
            if state.factory in shapes.HELPERS:
                continue
            for part in state.parts:
                native = self._part_object(ctx, part, state.line)
                if native is not None:
                    found.append(native)
                if len(found) >= MAX_OBJECTS:
                    reporter.add(
                        "warning",
                        "open3d.too_many_objects",
                        f"more than {MAX_OBJECTS} objects; the rest are left out",
                        state.line,
                        None,
                    )
                    return found
        return found

    # --- helpers without a body ----------------------------------------------------------------------
    def object_count(self) -> int:
        return sum(1 for mesh in self.meshes if mesh.native.parts)

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        reading = read_helper_call(call, stubs.READERS)
        if reading is None:
            return None
        vertices, unit, affine = stubs.stub_placement(
            reading, lambda angles: rotation_matrix("xyz", angles)
        )
        part = Part(
            reading.class_name, vertices, unit, "helper", affine, stubs.stub_colour(reading.colour)
        )
        record = self._mesh(ctx, [part], "helper")
        ctx.warning("eval.helper_without_body", reading.message(call))
        if reading.position is not None:
            self.stub_meshes.append(record)
        return record

    def _is_inside_shown(self, mesh: Record) -> bool:
        """Whether a created mesh's parts reached a shown mesh through ``+=`` or a copy."""
        own = {id(p.vertices) for p in mesh.native.parts}
        return any(id(p.vertices) in own for shown in self.shown for p in shown.native.parts)

    def _part_object(self, ctx: CallContext, part: Part, line: int) -> NativeObject | None:
        class_name = part.class_name
        unit_to_local = part.unit_to_local
        if class_name is None:
            recognised = shape_from_vertices(part.vertices, up="y")
            if recognised is None:
                ctx.interp.reporter.add(
                    "warning",
                    "open3d.unknown_shape",
                    "a mesh given by its vertices is none of the six primitives; kept as class 'unknown'",
                    line,
                    None,
                )
                box = bounding_affine(part.vertices) if len(part.vertices) else None
                class_name, unit_to_local = "unknown", box if box is not None else np.eye(4)
            else:
                class_name, unit_to_local = recognised.class_name, recognised.unit_to_local
                ctx.interp.reporter.add(
                    "info",
                    "open3d.custom_mesh",
                    f"a mesh given by its vertices reads as a {class_name} ({recognised.how})",
                    line,
                    None,
                )
        name = shapes.CREATORS.get(part.factory) or (
            class_name if part.factory == "helper" else "mesh"
        )
        return NativeObject(class_name, part.affine @ unit_to_local, part.colour, name, line)


__all__ = ["Open3DEngine", "is_number", "rotation_matrix"]
