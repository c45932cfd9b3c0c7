"""From the three.js engine state after a run to ``NativeObject``s: which meshes a viewer sees.

The scenes are those passed to ``renderer.render`` (every scene created when none is rendered,
as when the render call sits in an animation loop that never runs statically). Their meshes
are visited as ``scene.traverse`` visits them; each becomes the affine from the canonical unit
primitive to the world (world matrix · geometry transforms · geometry reading) and its
material's colour in sRGB.
"""

from __future__ import annotations

import math

import numpy as np

from parsers.build import NativeObject
from parsers.custom_mesh import bounding_affine, shape_from_vertices
from parsers.evaluator import CallContext, Engine, Record, Unknown, Value, is_number, type_name
from parsers.threejs.engine import ThreeEngine
from parsers.threejs.geometries import GEOMETRY_PARAMETERS, read_geometry
from parsers.threejs.object3d import descendants
from parsers.threejs.records import GeometryState, ObjectState
from parsers.threejs.three_names import MESH_KINDS
from spatialbabel.frames import Matrix
from spatialbabel.palette import RGB, linear_to_srgb

#: More meshes than this is no scene of the benchmark; the rest are left out (reported).
MAX_OBJECTS = 128


def geometry_parameters(ctx: CallContext, geometry: Record) -> dict[str, float | bool]:
    """A geometry's parameters as numbers; what is unknown falls back to three's default."""
    stored = geometry.fields.get("parameters")
    values: dict[str, float | bool] = {}
    for name, default in GEOMETRY_PARAMETERS.get(geometry.kind, ()):
        value = stored.get(name, default) if isinstance(stored, dict) else default
        if isinstance(default, bool):
            truth = ctx.truthy(value)
            values[name] = bool(truth) if truth is not None else default
        elif is_number(value) and not isinstance(value, bool) and math.isfinite(value):
            values[name] = float(value)
        else:
            reason = value.reason if isinstance(value, Unknown) else f"a {type_name(value)}"
            ctx.warning(
                "threejs.unknown_value",
                f"{geometry.kind} {name} cannot be known statically ({reason}); three's default {default:g} used",
            )
            values[name] = default
    return values


def geometry_affine(ctx: CallContext, engine: Engine, geometry: Value) -> tuple[str, Matrix] | None:
    """(class, unit primitive -> geometry frame) of a geometry record, remarks reported."""
    if not isinstance(geometry, Record) or not engine.is_a(geometry, "BufferGeometry"):
        return None
    state = geometry.native
    if geometry.kind == "BufferGeometry" and isinstance(state, GeometryState):
        found = _vertex_geometry(ctx, engine, state)
        if found is not None:
            return found
    reading = read_geometry(geometry.kind, geometry_parameters(ctx, geometry))
    for severity, code, message in reading.remarks:
        ctx.report(severity, code, message)
    if reading.class_name is None:
        return None
    applied = geometry.native.applied if isinstance(geometry.native, GeometryState) else np.eye(4)
    return reading.class_name, applied @ reading.unit_to_local


def _vertex_geometry(
    ctx: CallContext, engine: Engine, state: GeometryState
) -> tuple[str, Matrix] | None:
    """The reading of a ``BufferGeometry`` given by vertices (``vertex_geometry``): a helper's
    placeholder, the primitive whose positions it took, or the shape of its own vertices."""
    if state.placeholder is not None:
        class_name, affine, _ = state.placeholder
        return class_name, state.applied @ affine
    source = state.source
    if isinstance(source, Record) and source.kind != "BufferGeometry":
        reading = read_geometry(source.kind, geometry_parameters(ctx, source))
        for severity, code, message in reading.remarks:
            ctx.report(severity, code, message)
        if reading.class_name is None:
            return None
        ctx.info(
            "threejs.custom_geometry",
            f"a BufferGeometry holding a {source.kind}'s positions: read as that {reading.class_name}",
        )
        return reading.class_name, state.applied @ reading.unit_to_local
    if state.positions is None or not len(state.positions):
        return None
    shape = shape_from_vertices(state.positions, up="y")
    if shape is not None:
        ctx.info(
            "threejs.custom_geometry",
            f"a BufferGeometry of {len(state.positions)} vertices reads as a {shape.class_name} ({shape.how})",
        )
        return shape.class_name, state.applied @ shape.unit_to_local
    box = bounding_affine(state.positions, up="y")
    ctx.warning(
        "threejs.unknown_geometry",
        "a BufferGeometry whose vertices are none of the six primitives; kept as class 'unknown'",
    )
    return "unknown", state.applied @ (box if box is not None else np.eye(4))


def material_rgb(ctx: CallContext, engine: ThreeEngine, material: Value, where: str) -> RGB | None:
    """The sRGB a viewer sees of a material's ``color`` (three holds it in linear sRGB)."""
    linear = material_linear(ctx, engine, material, where)
    return None if linear is None else linear_to_srgb(linear)


def material_linear(
    ctx: CallContext, engine: ThreeEngine, material: Value, where: str
) -> RGB | None:
    """A material's ``color`` as three holds it (linear sRGB); None, reported, when unknown."""
    if isinstance(material, list):
        if not material:
            return None
        ctx.info(
            "threejs.material_array", f"{where}: several materials; the first one's colour read"
        )
        material = material[0]
    if not isinstance(material, Record):
        reason = material.reason if isinstance(material, Unknown) else f"a {type_name(material)}"
        ctx.warning(
            "threejs.unknown_material",
            f"{where}: material cannot be known statically ({reason}); no colour",
        )
        return None
    color = material.fields.get("color")
    if color is None:
        ctx.info("threejs.no_color", f"{where}: {material.kind} has no colour")
        return None
    if not isinstance(color, Record):
        probe = engine.color()
        ctx.warning(
            "threejs.color_assigned",
            f"{where}: material.color was replaced by a {type_name(color)}; three cannot render that; read as a colour",
        )
        engine.colors.color_set(ctx, probe, [color], {})
        color = probe
    linear = engine.numbers(color, "rgb")
    if isinstance(linear, Unknown):
        ctx.warning(
            "threejs.unknown_color", f"{where}: colour cannot be known statically ({linear.reason})"
        )
        return None
    return (linear[0], linear[1], linear[2])


def chosen_scenes(ctx: CallContext, engine: ThreeEngine) -> list[Record]:
    if engine.rendered:
        return list(engine.rendered)
    scenes = list(engine.scenes)
    if engine.implicit_scene is not None:
        scenes.append(engine.implicit_scene)
    if len(scenes) > 1:
        ctx.info(
            "threejs.scenes", f"{len(scenes)} scenes and none rendered statically; all of them read"
        )
    return scenes


def read_scene(ctx: CallContext, engine: ThreeEngine) -> list[NativeObject]:
    """Every mesh of the rendered scene(s) as a native object, in traversal order."""
    natives: list[NativeObject] = []
    visited: set[int] = set()
    scenes = chosen_scenes(ctx, engine)
    # Meshes read from helpers without a body and handed to no scene are read as drawn.
    for scene in [*scenes, *engine.stubs.stub_meshes]:
        for node in descendants(scene):
            if id(node) in visited:
                continue
            visited.add(id(node))
            if node.kind == "InstancedMesh":
                natives.extend(_instances(ctx, engine, node, MAX_OBJECTS - len(natives)))
                continue
            if node.kind not in MESH_KINDS:
                continue
            state = node.native if isinstance(node.native, ObjectState) else ObjectState(0, 0)
            at = CallContext(ctx.interp, state.line, 1)
            where = f"mesh made at line {state.line}" if state.line else "a mesh"
            reading = geometry_affine(at, engine, node.fields.get("geometry"))
            if reading is None:
                geometry = node.fields.get("geometry")
                if not (isinstance(geometry, Record) and engine.is_a(geometry, "BufferGeometry")):
                    reason = (
                        geometry.reason if isinstance(geometry, Unknown) else type_name(geometry)
                    )
                    at.warning(
                        "threejs.unknown_geometry",
                        f"{where}: geometry cannot be known statically ({reason}); left out",
                    )
                continue
            if len(natives) >= MAX_OBJECTS:
                at.warning(
                    "threejs.too_many_objects",
                    f"more than {MAX_OBJECTS} meshes; the rest are left out",
                )
                return natives
            class_name, geometry_to_local = reading
            world = _world_matrix(engine, node, at, where)
            name = node.fields.get("name")
            natives.append(
                NativeObject(
                    class_name,
                    world @ geometry_to_local,
                    material_rgb(at, engine, node.fields.get("material"), where),
                    name if isinstance(name, str) and name.strip() else None,
                    state.line or None,
                )
            )
    if not scenes and any(o.kind in MESH_KINDS for o in engine.objects):
        ctx.warning(
            "threejs.no_scene", "meshes are made but no THREE.Scene is; nothing would be rendered"
        )
    for obj in engine.objects:
        if (
            (obj.kind in MESH_KINDS or obj.kind == "InstancedMesh")
            and id(obj) not in visited
            and scenes
        ):
            state = obj.native if isinstance(obj.native, ObjectState) else ObjectState(0, 0)
            CallContext(ctx.interp, state.line, 1).info(
                "threejs.not_in_scene", "this mesh is never added to the rendered scene; left out"
            )
    return natives


def _instances(
    ctx: CallContext, engine: ThreeEngine, node: Record, room: int
) -> list[NativeObject]:
    """Each drawn instance of an InstancedMesh (the first ``count``) as an object."""
    state = node.native if isinstance(node.native, ObjectState) else ObjectState(0, 0)
    at = CallContext(ctx.interp, state.line, 1)
    where = f"instanced mesh made at line {state.line}" if state.line else "an instanced mesh"
    found = engine.instancing.instances(node)
    reading = geometry_affine(at, engine, node.fields.get("geometry"))
    if found is None or reading is None:
        at.warning(
            "threejs.unknown_geometry",
            f"{where}: geometry or instances cannot be known statically; left out",
        )
        return []
    drawn = node.fields.get("count")
    count = len(found.matrices)
    if isinstance(drawn, int | float) and 0 <= drawn < count:
        count = int(drawn)
    if count > room:
        at.warning(
            "threejs.too_many_objects",
            f"{where}: {count} instances; only {max(room, 0)} more objects are kept",
        )
        count = max(room, 0)
    class_name, geometry_to_local = reading
    world = _world_matrix(engine, node, at, where)
    tint = material_linear(at, engine, node.fields.get("material"), where)
    name = node.fields.get("name")
    base = name.strip() if isinstance(name, str) and name.strip() else None
    natives = []
    for i in range(count):
        rgb = None
        if tint is not None:
            own = found.colors[i] if found.colors is not None else (1.0, 1.0, 1.0)
            rgb = linear_to_srgb((tint[0] * own[0], tint[1] * own[1], tint[2] * own[2]))
        natives.append(
            NativeObject(
                class_name,
                world @ found.matrices[i] @ geometry_to_local,
                rgb,
                f"{base} {i}" if base else None,
                state.line or None,
            )
        )
    at.info("threejs.instanced_mesh", f"{where}: {count} instances read, each an object")
    return natives


def _world_matrix(engine: ThreeEngine, node: Record, at: CallContext, where: str) -> Matrix:
    chain: list[Record] = []
    current: Value = node
    seen: set[int] = set()
    while isinstance(current, Record) and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.fields.get("parent")
    matrix = np.eye(4)
    for item in reversed(chain):
        label = where if item is node else f"{where} (its parent {item.kind})"

        def report(message: str, label: str = label) -> None:
            at.warning("threejs.unknown_transform", f"{label}: {message}")

        matrix = matrix @ engine.local_matrix(item, report)
    return matrix
