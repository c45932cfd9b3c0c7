"""Blender's ``bmesh`` for the static evaluator: meshes a script builds vertex by vertex or with
``bmesh.ops``, written into a mesh with ``bm.to_mesh(me)``.

A ``BMesh`` keeps its vertices' coordinates, as Blender does: ``bm.verts.new(co)``,
``bmesh.ops.create_cube``/``create_cone``/``create_uvsphere``/``create_icosphere``/
``create_circle``/``create_grid`` (each made as bpy 5.0.1 makes it: the same points, measured in
tests/engines/test_bmesh.py), ``bmesh.ops.translate``/``scale``/``rotate``/``transform`` and
``bm.transform`` on any set of its vertices, ``remove_doubles`` and ``delete`` of vertices, a
vertex's ``co`` read and written (``v.co.z += 1``). ``to_mesh`` hands the vertices to the mesh;
the object's class and size are then read from them (``parsers/custom_mesh.py``), as for
``from_pydata``. Faces and edges do not move vertices: they are counted, nothing more. An
operator that changes the vertices in a way not modelled (``extrude_face_region``, ``bevel``)
makes the mesh's vertices unknown, with a warning.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from parsers.blender import vectors
from parsers.blender.shapes import MeshShape
from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Engine,
    Kind,
    Kwargs,
    Namespace,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
)

#: Most vertices a bmesh may hold (a runaway loop of ``verts.new``).
MAX_VERTICES = 100_000


@dataclass
class BMeshState:
    """A bmesh's vertices (``BMVert`` records, each over its own coordinate list), how many
    faces and edges it has, and why its vertices stopped being known, if they did."""

    verts: list[Record] = field(default_factory=list)
    faces: list[Record] = field(default_factory=list)
    edges: list[Record] = field(default_factory=list)
    unknown: str | None = None

    def points(self) -> list[list[float]]:
        return [list(v.native.co) for v in self.verts]


@dataclass
class VertState:
    co: list[float]
    owner: BMeshState | None


def _vertex(state: BMeshState, co: list[float]) -> Record:
    record = Record("BMVert", native=VertState([float(c) for c in co], state))
    state.verts.append(record)
    return record


def _position(items: list[Record], element: Value) -> int | None:
    """Where ``element`` is in ``items``, by identity (two vertices may be at one place)."""
    return next((i for i, item in enumerate(items) if item is element), None)


def _seq(kind: str, state: BMeshState, items: list[Record]) -> Record:
    return Record(kind, native={"items": items, "owner": state})


def new_bmesh() -> Record:
    state = BMeshState()
    record = Record("BMesh", native=state)
    record.fields.update(
        {
            "verts": _seq("BMVertSeq", state, state.verts),
            "faces": _seq("BMFaceSeq", state, state.faces),
            "edges": _seq("BMEdgeSeq", state, state.edges),
        }
    )
    return record


def _state(ctx: CallContext, value: Value, what: str) -> BMeshState | None:
    if isinstance(value, Record) and isinstance(value.native, BMeshState):
        return value.native
    ctx.warning("blender.bad_value", f"{what}: not a bmesh; ignored")
    return None


def _number(ctx: CallContext, kwargs: Kwargs, name: str, default: float) -> float:
    return ctx.number(kwargs.get(name, default), f"bmesh {name}", default)


def _count(ctx: CallContext, kwargs: Kwargs, name: str, default: int) -> int:
    return max(int(_number(ctx, kwargs, name, float(default))), 0)


# --- the primitives bmesh.ops makes, point by point ---------------------------------------------


def cube_points(size: float) -> list[list[float]]:
    h = size / 2
    return [[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)]


def _ring(segments: int, radius: float, z: float, clockwise: bool) -> list[list[float]]:
    """A ring from +Y, clockwise (cones) or counter-clockwise (circles), seen from +Z."""
    step = -2 * math.pi / segments if clockwise else 2 * math.pi / segments
    return [
        [radius * math.cos(math.pi / 2 + k * step), radius * math.sin(math.pi / 2 + k * step), z]
        for k in range(segments)
    ]


def cone_points(
    segments: int, bottom: float, top: float, depth: float, caps: bool, tris: bool
) -> list[list[float]]:
    """``create_cone``: a ring at each end with a radius (an apex vertex at an end without),
    the centre of each capped ring first with ``cap_tris``."""
    points: list[list[float]] = []
    ends = ((-depth / 2, bottom), (depth / 2, top))
    if caps and tris:
        points += [[0.0, 0.0, z] for z, r in ends if r > 0]
    points += [[0.0, 0.0, z] for z, r in ends if r <= 0]
    rings = [_ring(segments, r, z, True) for z, r in ends if r > 0]
    for k in range(segments):
        points += [ring[k] for ring in rings]
    return points


def circle_points(segments: int, radius: float, tris: bool) -> list[list[float]]:
    return ([[0.0, 0.0, 0.0]] if tris else []) + _ring(segments, radius, 0.0, False)


def grid_points(x_segments: int, y_segments: int, size: float) -> list[list[float]]:
    xs = np.linspace(-size, size, x_segments + 1)
    ys = np.linspace(-size, size, y_segments + 1)
    return [[float(x), float(y), 0.0] for y in ys for x in xs]


def uv_sphere_points(u_segments: int, v_segments: int, radius: float) -> list[list[float]]:
    if radius <= 0 or u_segments < 3 or v_segments < 3:
        return [[0.0, 0.0, 0.0]]
    points = [[0.0, 0.0, radius], [0.0, 0.0, -radius]]
    for j in range(1, v_segments):
        polar = math.pi * j / v_segments
        for k in range(u_segments):
            around = math.pi / 2 - 2 * math.pi * k / u_segments
            points.append(
                [
                    radius * math.sin(polar) * math.cos(around),
                    radius * math.sin(polar) * math.sin(around),
                    radius * math.cos(polar),
                ]
            )
    return points


#: Blender's icosahedron (bmo_primitive.cc's ``icovert``, in units of 1/200 of the radius): a
#: vertex at each pole, two rings of five; not quite on the unit sphere (0.99999).
_ICOSAHEDRON = (
    (0.0, 0.0, -200.0),
    (144.72, -105.144, -89.443),
    (-55.277, -170.128, -89.443),
    (-178.885, 0.0, -89.443),
    (-55.277, 170.128, -89.443),
    (144.72, 105.144, -89.443),
    (55.277, -170.128, 89.443),
    (-144.72, -105.144, 89.443),
    (-144.72, 105.144, 89.443),
    (55.277, 170.128, 89.443),
    (178.885, 0.0, 89.443),
    (0.0, 0.0, 200.0),
)


@cache
def _unit_icosphere(subdivisions: int) -> tuple[tuple[float, float, float], ...]:
    """Blender's unit icosphere: its icosahedron (level 1); a level ``n`` cuts each of its
    triangles into a grid of ``2**(n-1)`` steps a side, every point pushed onto the sphere
    (measured against bpy 5.0.1 to 3e-6 of the radius)."""
    base = [np.array(p) / 200.0 for p in _ICOSAHEDRON]
    steps = 2 ** (subdivisions - 1)
    if steps <= 1:
        return tuple((float(p[0]), float(p[1]), float(p[2])) for p in base)
    edge = min(float(np.linalg.norm(a - b)) for i, a in enumerate(base) for b in base[i + 1 :])
    edges = {
        (i, j)
        for i in range(len(base))
        for j in range(i + 1, len(base))
        if float(np.linalg.norm(base[i] - base[j])) < edge * 1.01
    }
    faces = sorted(
        (i, j, k)
        for i, j in edges
        for k in range(j + 1, len(base))
        if (i, k) in edges and (j, k) in edges
    )
    points: dict[tuple[float, ...], tuple[float, float, float]] = {}
    for a, b, c in faces:
        for i in range(steps + 1):
            for j in range(steps + 1 - i):
                q = (i * base[a] + j * base[b] + (steps - i - j) * base[c]) / steps
                q = q / np.linalg.norm(q)
                points.setdefault(tuple(np.round(q, 9)), (float(q[0]), float(q[1]), float(q[2])))
    return tuple(points.values())


def ico_sphere_points(subdivisions: int, radius: float) -> list[list[float]]:
    if subdivisions > 6:
        return []
    return [[radius * c for c in p] for p in _unit_icosphere(max(subdivisions, 1))]


# --- bmesh.ops ---------------------------------------------------------------------------------


def _apply_matrix(ctx: CallContext, kwargs: Kwargs, points: list[list[float]]) -> list[list[float]]:
    matrix = kwargs.get("matrix", UNDEFINED)
    if matrix is UNDEFINED:
        return points
    m = _matrix4(ctx, matrix, "bmesh matrix")
    if m is None:
        return points
    return _transformed(points, m)


def _matrix4(ctx: CallContext, value: Value, what: str) -> np.ndarray[Any, Any] | None:
    found = vectors.matrix_of(value)
    if found is None and isinstance(value, list | tuple):
        try:
            found = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            found = None
    if found is None or found.shape not in ((3, 3), (4, 4)):
        ctx.warning("blender.bad_value", f"{what} is not a known matrix; ignored")
        return None
    full = np.eye(4)
    n = found.shape[0]
    full[:n, :n] = found
    return full


def _transformed(points: list[list[float]], matrix: np.ndarray[Any, Any]) -> list[list[float]]:
    if not points:
        return points
    v = np.hstack([np.asarray(points, dtype=float), np.ones((len(points), 1))]) @ matrix.T
    return v[:, :3].tolist()


def _created(ctx: CallContext, bm: Value, kwargs: Kwargs, points: list[list[float]]) -> Value:
    state = _state(ctx, bm, "bmesh.ops")
    if state is None:
        return {"verts": []}
    if len(state.verts) + len(points) > MAX_VERTICES:
        ctx.warning("blender.too_many_vertices", f"a bmesh of more than {MAX_VERTICES} vertices")
        return {"verts": []}
    made = [_vertex(state, p) for p in _apply_matrix(ctx, kwargs, points)]
    return {"verts": made}


def _create_cube(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _created(
        ctx, arg(args, 0, kwargs, "bm"), kwargs, cube_points(_number(ctx, kwargs, "size", 1.0))
    )


def _radius(ctx: CallContext, kwargs: Kwargs, name: str, legacy: str) -> float:
    """A radius; Blender 2.8x called it ``diameter`` (it was the radius all the same)."""
    if name not in kwargs and legacy in kwargs:
        ctx.info(
            "blender.legacy_argument",
            f"{legacy}= on bmesh.ops is Blender 2.8x's name of the radius (2.90 renamed it {name}); read as {name}",
        )
        return _number(ctx, kwargs, legacy, 0.0)
    return _number(ctx, kwargs, name, 0.0)


def _create_cone(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    points = cone_points(
        _count(ctx, kwargs, "segments", 0),
        _radius(ctx, kwargs, "radius1", "diameter1"),
        _radius(ctx, kwargs, "radius2", "diameter2"),
        _number(ctx, kwargs, "depth", 0.0),
        bool(ctx.truthy(kwargs.get("cap_ends", False))),
        bool(ctx.truthy(kwargs.get("cap_tris", False))),
    )
    return _created(ctx, arg(args, 0, kwargs, "bm"), kwargs, points)


def _create_circle(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    points = circle_points(
        _count(ctx, kwargs, "segments", 0),
        _radius(ctx, kwargs, "radius", "diameter"),
        bool(ctx.truthy(kwargs.get("cap_ends", False)))
        and bool(ctx.truthy(kwargs.get("cap_tris", False))),
    )
    return _created(ctx, arg(args, 0, kwargs, "bm"), kwargs, points)


def _create_grid(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    points = grid_points(
        _count(ctx, kwargs, "x_segments", 0),
        _count(ctx, kwargs, "y_segments", 0),
        _number(ctx, kwargs, "size", 0.0),
    )
    return _created(ctx, arg(args, 0, kwargs, "bm"), kwargs, points)


def _create_uvsphere(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    points = uv_sphere_points(
        _count(ctx, kwargs, "u_segments", 0),
        _count(ctx, kwargs, "v_segments", 0),
        _radius(ctx, kwargs, "radius", "diameter"),
    )
    return _created(ctx, arg(args, 0, kwargs, "bm"), kwargs, points)


def _create_icosphere(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    points = ico_sphere_points(
        _count(ctx, kwargs, "subdivisions", 1), _radius(ctx, kwargs, "radius", "diameter")
    )
    return _created(ctx, arg(args, 0, kwargs, "bm"), kwargs, points)


def _verts(ctx: CallContext, kwargs: Kwargs, what: str) -> list[Record] | None:
    """The vertices an operator works on (``verts=bm.verts``, a list of them, ``geom=``)."""
    given = kwargs.get("verts", kwargs.get("geom", UNDEFINED))
    if given is UNDEFINED:
        return []
    items = ctx.iterate(given) if not isinstance(given, Unknown) else None
    if items is None:
        ctx.warning(
            "blender.unknown_mesh",
            f"{what} on vertices that cannot be known statically; the mesh is no longer known",
        )
        return None
    return [v for v in items if isinstance(v, Record) and v.kind == "BMVert"]


def _space(ctx: CallContext, kwargs: Kwargs) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    space = kwargs.get("space", UNDEFINED)
    m = np.eye(4) if space is UNDEFINED else _matrix4(ctx, space, "bmesh space")
    m = np.eye(4) if m is None else m
    return m, np.linalg.inv(m)


def _move(ctx: CallContext, args: Args, kwargs: Kwargs, what: str, make: Any) -> Value:
    state = _state(ctx, arg(args, 0, kwargs, "bm"), f"bmesh.ops.{what}")
    verts = _verts(ctx, kwargs, f"bmesh.ops.{what}")
    if state is None:
        return {}
    if verts is None:
        state.unknown = f"bmesh.ops.{what} on vertices that cannot be known"
        return {}
    matrix = make()
    if matrix is None:
        state.unknown = f"bmesh.ops.{what} by a value that cannot be known"
        return {}
    space, back = _space(ctx, kwargs)
    full = back @ matrix @ space
    for vertex in verts:
        co = vertex.native.co
        moved = full @ np.array([*co, 1.0])
        co[:] = [float(c) for c in moved[:3]]
    return {}


def _vector(
    ctx: CallContext, kwargs: Kwargs, name: str, fallback: list[float]
) -> list[float] | None:
    value = kwargs.get(name, UNDEFINED)
    if value is UNDEFINED:
        return list(fallback)
    return vectors.fixed(ctx, value, f"bmesh {name}", 3, fallback)


def _translate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    def make() -> np.ndarray[Any, Any] | None:
        vec = _vector(ctx, kwargs, "vec", [0.0, 0.0, 0.0])
        if vec is None:
            return None
        m = np.eye(4)
        m[:3, 3] = vec
        return m

    return _move(ctx, args, kwargs, "translate", make)


def _scale(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    def make() -> np.ndarray[Any, Any] | None:
        vec = _vector(ctx, kwargs, "vec", [1.0, 1.0, 1.0])
        return None if vec is None else np.diag([*vec, 1.0])

    return _move(ctx, args, kwargs, "scale", make)


def _rotate(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    def make() -> np.ndarray[Any, Any] | None:
        centre = _vector(ctx, kwargs, "cent", [0.0, 0.0, 0.0])
        rotation = _matrix4(ctx, kwargs.get("matrix", UNDEFINED), "bmesh.ops.rotate matrix")
        if centre is None or rotation is None:
            return None
        to, back = np.eye(4), np.eye(4)
        to[:3, 3], back[:3, 3] = centre, [-c for c in centre]
        return to @ rotation @ back

    return _move(ctx, args, kwargs, "rotate", make)


def _transform(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    return _move(
        ctx,
        args,
        kwargs,
        "transform",
        lambda: _matrix4(ctx, kwargs.get("matrix", UNDEFINED), "bmesh.ops.transform matrix"),
    )


def _remove_doubles(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    state = _state(ctx, arg(args, 0, kwargs, "bm"), "bmesh.ops.remove_doubles")
    verts = _verts(ctx, kwargs, "bmesh.ops.remove_doubles")
    if state is None or verts is None:
        return {}
    distance = _number(ctx, kwargs, "dist", 0.0)
    kept: list[Record] = []
    for vertex in verts:
        co = np.asarray(vertex.native.co)
        if any(float(np.linalg.norm(co - np.asarray(k.native.co))) <= distance for k in kept):
            at = _position(state.verts, vertex)
            if at is not None:
                del state.verts[at]
        else:
            kept.append(vertex)
    return {}


def _delete(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    state = _state(ctx, arg(args, 0, kwargs, "bm"), "bmesh.ops.delete")
    context = kwargs.get("context", "VERTS")
    if state is None:
        return {}
    if context != "VERTS":
        # Deleting faces or edges may leave vertices loose or remove them: which, bmesh knows.
        state.unknown = f"bmesh.ops.delete with context={context!r}"
        ctx.warning(
            "blender.unknown_mesh",
            f"bmesh.ops.delete with context={context!r} is not modelled; the mesh is no longer known",
        )
        return {}
    verts = _verts(ctx, kwargs, "bmesh.ops.delete")
    if verts is None:
        state.unknown = "bmesh.ops.delete of vertices that cannot be known"
        return {}
    for vertex in verts:
        at = _position(state.verts, vertex)
        if at is not None:
            del state.verts[at]
    return {}


#: Operators that change faces or edges only: the vertices stay as they are.
_FACES_ONLY = (
    "recalc_face_normals", "reverse_faces", "triangulate", "contextual_create",
    "edgeloop_fill", "holes_fill", "edgenet_fill", "bridge_loops", "beautify_fill",
    "join_triangles", "dissolve_limit", "planar_faces", "smooth_vert",
)  # fmt: skip


def _not_modelled(name: str) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        bm = arg(args, 0, kwargs, "bm")
        if isinstance(bm, Record) and isinstance(bm.native, BMeshState):
            bm.native.unknown = f"bmesh.ops.{name}"
        ctx.warning(
            "blender.unknown_mesh",
            f"bmesh.ops.{name} is not modelled; the vertices of this bmesh are no longer known",
        )
        return {"geom": [], "verts": [], "faces": [], "edges": []}

    return Builtin(f"bmesh.ops.{name}", call)


@cache
def _ops_members() -> dict[str, Value]:
    members: dict[str, Value] = {
        "create_cube": Builtin("bmesh.ops.create_cube", _create_cube),
        "create_cone": Builtin("bmesh.ops.create_cone", _create_cone),
        "create_circle": Builtin("bmesh.ops.create_circle", _create_circle),
        "create_grid": Builtin("bmesh.ops.create_grid", _create_grid),
        "create_uvsphere": Builtin("bmesh.ops.create_uvsphere", _create_uvsphere),
        "create_icosphere": Builtin("bmesh.ops.create_icosphere", _create_icosphere),
        "translate": Builtin("bmesh.ops.translate", _translate),
        "scale": Builtin("bmesh.ops.scale", _scale),
        "rotate": Builtin("bmesh.ops.rotate", _rotate),
        "transform": Builtin("bmesh.ops.transform", _transform),
        "remove_doubles": Builtin("bmesh.ops.remove_doubles", _remove_doubles),
        "delete": Builtin("bmesh.ops.delete", _delete),
    }
    for name in _FACES_ONLY:
        members[name] = Builtin(f"bmesh.ops.{name}", lambda c, a, k: {})
    return members


# --- the BMesh, its sequences and its vertices --------------------------------------------------


def to_mesh_shape(ctx: CallContext, state: BMeshState) -> MeshShape:
    """The mesh ``bm.to_mesh(me)`` writes: the bmesh's vertices, when known."""
    if state.unknown is not None:
        ctx.warning(
            "blender.unknown_mesh",
            f"the mesh's vertices are not known ({state.unknown}); its shape cannot be read",
        )
        return MeshShape(None)
    points = state.points()
    if not points:
        return MeshShape(None, vertices=[])
    v = np.asarray(points)
    return MeshShape(None, np.eye(4), v.min(axis=0), v.max(axis=0), points, median=v.mean(axis=0))


def load_mesh(ctx: CallContext, state: BMeshState, mesh: Value, what: str) -> None:
    """``bm.from_mesh(me)``: the mesh's vertices added to the bmesh."""
    shape = mesh.native if isinstance(mesh, Record) else None
    if isinstance(shape, MeshShape) and shape.vertices is not None and shape.class_name is None:
        for point in shape.vertices:
            _vertex(state, point)
        return
    state.unknown = f"{what} of a mesh whose vertices are not modelled"
    ctx.warning(
        "blender.unknown_mesh",
        f"{what}: the vertices of a mesh made by an operator are not modelled; its bmesh is not known",
    )


def _to_mesh(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    mesh = arg(args, 0, kwargs, "mesh")
    if not isinstance(mesh, Record) or mesh.kind != "Mesh":
        ctx.warning("blender.bad_value", "bm.to_mesh needs a mesh; ignored")
        return None
    mesh.native = to_mesh_shape(ctx, record.native)
    return None


def _from_mesh(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    load_mesh(ctx, record.native, arg(args, 0, kwargs, "mesh"), "bm.from_mesh")
    return None


def _bm_transform(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    matrix = _matrix4(ctx, arg(args, 0, kwargs, "matrix"), "bm.transform matrix")
    state: BMeshState = record.native
    if matrix is None:
        state.unknown = "bm.transform by a matrix that cannot be known"
        return None
    for vertex in state.verts:
        co = vertex.native.co
        co[:] = _transformed([co], matrix)[0]
    return None


def _clear(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    state: BMeshState = record.native
    state.verts.clear()
    state.faces.clear()
    state.edges.clear()
    state.unknown = None
    return None


def _verts_new(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    state: BMeshState = record.native["owner"]
    value = arg(args, 0, kwargs, "co")
    co = (
        [0.0, 0.0, 0.0]
        if value is UNDEFINED
        else vectors.fixed(ctx, value, "vertex", 3, [0.0, 0.0, 0.0])
    )
    if len(state.verts) >= MAX_VERTICES:
        ctx.warning("blender.too_many_vertices", f"a bmesh of more than {MAX_VERTICES} vertices")
        return Unknown("a vertex past the cap")
    if co is None:
        state.unknown = "a vertex at a position that cannot be known"
        co = [0.0, 0.0, 0.0]
    return _vertex(state, co)


def _verts_remove(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    state: BMeshState = record.native["owner"]
    at = _position(state.verts, arg(args, 0))
    if at is not None:
        del state.verts[at]
    else:
        state.unknown = "verts.remove of a vertex that cannot be known"
    return None


def _element_new(kind: str) -> Any:
    def new(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
        items: list[Record] = record.native["items"]
        element = Record(kind, native=None)
        items.append(element)
        return element

    return new


def _vert_co(ctx: CallContext, record: Record) -> Value:
    # The vertex's own coordinates: ``v.co.z += 1`` moves the vertex.
    return Record("Vector", native=record.native.co)


def _vert_index(ctx: CallContext, record: Record) -> Value:
    owner = record.native.owner
    at = _position(owner.verts, record) if owner is not None else None
    return -1 if at is None else at


def _vert_set(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    if name != "co":
        return name in ("select", "hide", "index", "tag")
    values = vectors.fixed(ctx, value, "vertex co", 3, list(record.native.co))
    if values is None:
        if record.native.owner is not None:
            record.native.owner.unknown = "a vertex moved to a position that cannot be known"
        return True
    record.native.co[:] = values
    return True


def register(engine: Engine) -> None:
    """Add bmesh's kinds to the Blender engine table."""
    for kind in _kinds():
        engine.add_kind(kind)


@cache
def _kinds() -> tuple[Kind, ...]:
    """bmesh's kinds, made once: they hold nothing of a run, and an engine table is made per
    parse."""
    sequence = {"ensure_lookup_table": _none, "index_update": _none, "sort": _none}
    made: list[Kind] = []
    made.append(
        Kind(
            "BMesh",
            methods={
                "to_mesh": _to_mesh,
                "from_mesh": _from_mesh,
                "free": _none,
                "clear": _clear,
                "normal_update": _none,
                "transform": _bm_transform,
                "select_flush": _none,
                "select_flush_mode": _none,
            },
            inert=True,
        )
    )
    made.append(
        Kind(
            "BMVertSeq",
            methods={**sequence, "new": _verts_new, "remove": _verts_remove},
            inert=True,
        )
    )
    made.append(
        Kind(
            "BMFaceSeq",
            methods={**sequence, "new": _element_new("BMFace"), "remove": _none},
            inert=True,
        )
    )
    made.append(
        Kind(
            "BMEdgeSeq",
            methods={**sequence, "new": _element_new("BMEdge"), "remove": _none},
            inert=True,
        )
    )
    made.append(
        Kind(
            "BMVert",
            getters={"co": _vert_co, "index": _vert_index, "is_valid": lambda c, r: True},
            on_set=_vert_set,
            inert=True,
        )
    )
    made.append(Kind("BMFace", methods={"normal_update": _none}, inert=True))
    made.append(Kind("BMEdge", inert=True))
    return tuple(made)


def _none(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return None


def bmesh_module() -> Namespace:
    """The ``bmesh`` module scripts import."""

    def from_edit_mesh(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        record = new_bmesh()
        mesh = arg(args, 0, kwargs, "mesh")
        load_mesh(ctx, record.native, mesh, "bmesh.from_edit_mesh")
        if isinstance(mesh, Record):
            mesh.fields["%edit_bmesh"] = record
        return record

    def update_edit_mesh(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        mesh = arg(args, 0, kwargs, "mesh")
        edited = mesh.fields.get("%edit_bmesh") if isinstance(mesh, Record) else None
        if isinstance(edited, Record) and isinstance(edited.native, BMeshState):
            mesh.native = to_mesh_shape(ctx, edited.native)
        else:
            ctx.warning(
                "blender.unknown_mesh",
                "bmesh.update_edit_mesh of a mesh no bmesh was read from; ignored",
            )
        return None

    return Namespace(
        "bmesh",
        {
            "new": Builtin("bmesh.new", lambda ctx, a, k: new_bmesh()),
            "ops": Namespace("bmesh.ops", dict(_ops_members()), missing=_not_modelled),
            "from_edit_mesh": Builtin("bmesh.from_edit_mesh", from_edit_mesh),
            "update_edit_mesh": Builtin("bmesh.update_edit_mesh", update_edit_mesh),
            "types": Namespace("bmesh.types", missing=lambda n: Record("Inert")),
        },
    )


__all__ = ["BMeshState", "bmesh_module", "is_number", "new_bmesh", "register"]
