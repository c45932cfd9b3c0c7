"""three's ``Object3D`` for the static evaluator: the members every object kind shares
(``position``/``rotation``/``quaternion``/``scale``, ``add``/``remove``/``attach``, ``lookAt``,
``rotateX``/``translateOnAxis``..., ``matrix``/``matrixWorld``, ``traverse``, ``clone``).

Each method is a module-level function registered by name (``@object3d_method("attach")``) in
``OBJECT3D_METHODS``, and each getter in ``OBJECT3D_GETTERS``; the families that differ only
in their axis (``rotateX``..., ``translateX``...) are made by one maker each. A member reaches
the engine running it through ``three_engine`` (the tables are made once, not per parse).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

import numpy as np

from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    Kwargs,
    Record,
    Unknown,
    Value,
    arg,
    type_name,
)
from parsers.evaluator.core.engine import GetterImpl
from parsers.evaluator.core.registry import registering
from parsers.threejs import three_math as tm
from parsers.threejs.records import Method, ObjectState, ThreeRecords, returns_undefined
from parsers.threejs.three_names import MESH_KINDS

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine

Axis = tuple[float, float, float]

#: The methods of ``Object3D`` records by name, registered by ``@object3d_method``.
OBJECT3D_METHODS: Final[dict[str, Method]] = {}

#: ``@object3d_method("attach")``: the decorated function is that method of ``Object3D``.
object3d_method = registering(OBJECT3D_METHODS)


def three_engine(ctx: CallContext) -> ThreeEngine:
    """The three.js engine running the call."""
    return cast("ThreeEngine", ctx.interp.engine)


# --- getters and the field hook -----------------------------------------------------------------
def _flag(*kinds: str) -> GetterImpl:
    return lambda ctx, r: any(ctx.interp.engine.is_a(r, kind) for kind in kinds)


#: The computed members of ``Object3D`` records (``isMesh``, ``matrixWorld``...).
OBJECT3D_GETTERS: Final[dict[str, GetterImpl]] = {
    "isObject3D": lambda ctx, r: True,
    "isMesh": _flag(*MESH_KINDS, "InstancedMesh"),
    "isGroup": _flag("Group"),
    "isScene": _flag("Scene"),
    "isCamera": _flag("Camera"),
    "isLight": _flag("Light"),
    "id": lambda ctx, r: float(r.native.serial if isinstance(r.native, ObjectState) else 0),
    "matrix": lambda ctx, r: ThreeRecords.matrix4(three_engine(ctx).local_matrix(r)),
    "matrixWorld": lambda ctx, r: ThreeRecords.matrix4(three_engine(ctx).world_matrix(r)),
}


def object_set_hook(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    """Refuses assigning ``position``, ``rotation``, ``quaternion`` or ``scale``, as three does."""
    if name in ("position", "rotation", "quaternion", "scale"):
        what = {
            "position": "set or copy",
            "rotation": "set or copy",
            "quaternion": "copy",
            "scale": "set or copy",
        }[name]
        ctx.warning(
            "threejs.readonly_property",
            f"three.js refuses assigning {name} (a read-only property: ignored, or an error in a module); use {name}.{what.split()[0]}(...). The object keeps its {name}",
        )
        return True
    return False


# --- the hierarchy ------------------------------------------------------------------------------
@object3d_method("add")
def object3d_add(ctx: CallContext, parent: Record, args: Args, kwargs: Kwargs) -> Value:
    engine = three_engine(ctx)
    for child in args:
        if child is parent:
            ctx.warning("threejs.bad_add", "an object cannot be added to itself; ignored")
            continue
        if not engine.is_object3d(child):
            reason = child.reason if isinstance(child, Unknown) else f"a {type_name(child)}"
            ctx.warning(
                "threejs.bad_add",
                f"add() of something that is not an Object3D ({reason}); ignored",
            )
            continue
        _detach(child)
        child.fields["parent"] = parent
        children = parent.fields.setdefault("children", [])
        if isinstance(children, list):
            children.append(child)
    return parent


def _detach(child: Record) -> None:
    old = child.fields.get("parent")
    if isinstance(old, Record):
        siblings = old.fields.get("children")
        if isinstance(siblings, list):
            for i, sibling in enumerate(siblings):
                if sibling is child:
                    del siblings[i]
                    break
    child.fields["parent"] = None


def descendants(root: Record) -> list[Record]:
    """``root`` and every object below it, depth first, as ``traverse`` visits them."""
    result: list[Record] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        result.append(node)
        children = node.fields.get("children")
        if isinstance(children, list):
            stack.extend(reversed([c for c in children if isinstance(c, Record)]))
    return result


@object3d_method("remove")
def object3d_remove(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    for child in a:
        if isinstance(child, Record) and child.fields.get("parent") is r:
            _detach(child)
    return r


@object3d_method("removeFromParent")
def object3d_remove_from_parent(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    _detach(r)
    return r


@object3d_method("clear")
def object3d_clear(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    children = r.fields.get("children")
    for child in list(children) if isinstance(children, list) else []:
        if isinstance(child, Record):
            _detach(child)
    return r


@object3d_method("attach")
def object3d_attach(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    child = arg(a, 0)
    if not engine.is_object3d(child):
        return r
    world = engine.world_matrix(child)
    inverse = np.linalg.inv(engine.world_matrix(r))
    object3d_add(ctx, r, [child], {})
    position, q, s = tm.decompose(inverse @ world)
    child.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
    child.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
    engine.set_quaternion(child, q)
    return r


@object3d_method("traverse", "traverseVisible")
def object3d_traverse(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    callback = arg(a, 0)
    for node in descendants(r)[: ctx.interp.limits.max_loop_iterations]:
        ctx.interp.budget.step()
        ctx.call(callback, [node])
    return UNDEFINED


@object3d_method("getObjectByName")
def object3d_by_name(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    name = arg(a, 0)
    for node in descendants(r):
        if node.fields.get("name") == name:
            return node
    return UNDEFINED


# --- rotation and translation ------------------------------------------------------------------
@object3d_method("lookAt")
def object3d_look_at(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    first = arg(a, 0)
    if isinstance(first, Record):
        target = engine.vec(ctx, first, "the lookAt target")
    else:
        values = [
            ctx.optional_number(arg(a, i), "the lookAt target", code="threejs.unknown_value")
            for i in range(3)
        ]
        x, y, z = values
        target = None if x is None or y is None or z is None else (x, y, z)
    up = engine.vec(ctx, r.fields.get("up"), "the up vector")
    if target is None or up is None:
        return UNDEFINED
    world = engine.world_matrix(r)
    position = (float(world[0, 3]), float(world[1, 3]), float(world[2, 3]))
    if engine.is_a(r, "Camera") or engine.is_a(r, "Light"):
        m = tm.look_at_matrix(position, target, up)
    else:
        m = tm.look_at_matrix(target, position, up)
    q = tm.quat_from_rotation_matrix(m)
    parent = r.fields.get("parent")
    if isinstance(parent, Record):
        parent_q = tm.quat_from_rotation_matrix(tm.extract_rotation(engine.world_matrix(parent)))
        q = tm.quat_multiply(tm.quat_invert(parent_q), q)
    engine.set_quaternion(r, q)
    return UNDEFINED


def _own_quaternion(ctx: CallContext, r: Record) -> tm.Quat | None:
    return three_engine(ctx).quat_of(ctx, r.fields.get("quaternion"), "the object's rotation")


def _axis_and_amount(
    ctx: CallContext, a: Args, fixed: Axis | None, axis_what: str, amount_what: str
) -> tuple[Axis | None, float | None]:
    """``(axis, amount)`` of ``rotateOnAxis(axis, angle)``-like calls, or ``(amount)`` of
    ``rotateX(angle)``-like ones whose axis is ``fixed``."""
    axis = three_engine(ctx).vec(ctx, arg(a, 0), axis_what) if fixed is None else fixed
    amount = ctx.optional_number(
        arg(a, 0 if fixed is not None else 1), amount_what, code="threejs.unknown_value"
    )
    return axis, amount


def _rotate_on_axis(world: bool, fixed: Axis | None = None) -> Method:
    def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        axis, angle = _axis_and_amount(ctx, a, fixed, "the rotation axis", "the rotation angle")
        q = _own_quaternion(ctx, r)
        if axis is None or angle is None or q is None:
            return r
        turn = tm.quat_from_axis_angle(axis, angle)
        three_engine(ctx).set_quaternion(
            r, tm.quat_multiply(turn, q) if world else tm.quat_multiply(q, turn)
        )
        return r

    return fn


def _translate_on_axis(fixed: Axis | None = None) -> Method:
    def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        axis, distance = _axis_and_amount(ctx, a, fixed, "the axis", "the distance")
        q = _own_quaternion(ctx, r)
        position = three_engine(ctx).vec(ctx, r.fields.get("position"), "the position")
        if axis is None or distance is None or q is None or position is None:
            return r
        moved = tm.apply_quat(q, axis)
        r.fields["position"].fields.update(
            {c: position[i] + moved[i] * distance for i, c in enumerate("xyz")}
        )
        return r

    return fn


object3d_method("rotateX")(_rotate_on_axis(False, (1.0, 0.0, 0.0)))
object3d_method("rotateY")(_rotate_on_axis(False, (0.0, 1.0, 0.0)))
object3d_method("rotateZ")(_rotate_on_axis(False, (0.0, 0.0, 1.0)))
object3d_method("rotateOnAxis")(_rotate_on_axis(False))
object3d_method("rotateOnWorldAxis")(_rotate_on_axis(True))
object3d_method("translateX")(_translate_on_axis((1.0, 0.0, 0.0)))
object3d_method("translateY")(_translate_on_axis((0.0, 1.0, 0.0)))
object3d_method("translateZ")(_translate_on_axis((0.0, 0.0, 1.0)))
object3d_method("translateOnAxis")(_translate_on_axis())


@object3d_method("setRotationFromEuler")
def object3d_set_rotation_from_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    euler = arg(a, 0)
    angles = ThreeRecords.numbers(euler, "xyz")
    if isinstance(angles, Unknown):
        ctx.warning(
            "threejs.unknown_value",
            f"the Euler angles cannot be known statically ({angles.reason}); ignored",
        )
        return UNDEFINED
    order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
    three_engine(ctx).set_quaternion(
        r,
        tm.quat_from_euler(
            angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
        ),
    )
    return UNDEFINED


@object3d_method("setRotationFromQuaternion")
def object3d_set_rotation_from_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
    if q is not None:
        engine.set_quaternion(r, q)
    return UNDEFINED


@object3d_method("setRotationFromAxisAngle")
def object3d_set_rotation_from_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    axis = engine.vec(ctx, arg(a, 0), "the rotation axis")
    angle = ctx.optional_number(arg(a, 1), "the rotation angle", code="threejs.unknown_value")
    if axis is not None and angle is not None:
        engine.set_quaternion(r, tm.quat_from_axis_angle(axis, angle))
    return UNDEFINED


@object3d_method("setRotationFromMatrix")
def object3d_set_rotation_from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    m = engine.matrix_of(ctx, arg(a, 0), "the rotation matrix")
    if m is not None:
        engine.set_quaternion(r, tm.quat_from_rotation_matrix(m))
    return UNDEFINED


@object3d_method("applyQuaternion")
def object3d_apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
    mine = _own_quaternion(ctx, r)
    if q is not None and mine is not None:
        engine.set_quaternion(r, tm.quat_multiply(q, mine))
    return r


@object3d_method("applyMatrix4")
def object3d_apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    engine = three_engine(ctx)
    m = engine.matrix_of(ctx, arg(a, 0), "the matrix")
    if m is None:
        return r
    position, q, s = tm.decompose(m @ engine.local_matrix(r))
    r.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
    r.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
    engine.set_quaternion(r, q)
    return r


# --- copies ---------------------------------------------------------------------------------------
@object3d_method("clone")
def object3d_clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    recursive = arg(a, 0)
    return _clone(ctx, r, recursive is not False)


@object3d_method("copy")
def object3d_copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    source = arg(a, 0)
    if isinstance(source, Record):
        _copy_into(ctx, r, source, arg(a, 1) is not False)
    return r


def _copy_into(ctx: CallContext, target: Record, source: Record, recursive: bool) -> None:
    engine = three_engine(ctx)
    for name in ("position", "scale", "up"):
        vector = source.fields.get(name)
        if isinstance(vector, Record):
            target.fields[name].fields.update({c: vector.fields.get(c) for c in "xyz"})
    target.fields["rotation"].fields["order"] = source.fields["rotation"].fields.get("order", "XYZ")
    q = engine.numbers(source.fields.get("quaternion"), "xyzw")
    engine.set_quaternion(target, q if isinstance(q, Unknown) else (q[0], q[1], q[2], q[3]))
    for name in ("name", "visible", "castShadow", "receiveShadow", "geometry", "material"):
        if name in source.fields:
            target.fields[name] = source.fields[name]
    user_data = source.fields.get("userData")
    target.fields["userData"] = dict(user_data) if isinstance(user_data, dict) else {}
    if source.kind == "InstancedMesh":
        engine.instancing.copy_instances(target, source)
    if recursive:
        children = source.fields.get("children")
        for child in list(children) if isinstance(children, list) else []:
            if isinstance(child, Record) and engine.is_object3d(child):
                object3d_add(ctx, target, [_clone(ctx, child, True)], {})


def _clone(ctx: CallContext, source: Record, recursive: bool) -> Record:
    engine = three_engine(ctx)
    clone = engine.object3d(ctx, source.kind)
    clone.cls = source.cls
    if source.kind == "Scene":
        engine.scenes.append(clone)
    _copy_into(ctx, clone, source, recursive)
    return clone


# --- points between frames ------------------------------------------------------------------------
@object3d_method("getWorldPosition")
def object3d_world_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
    target = arg(a, 0)
    world = three_engine(ctx).world_matrix(r)
    vector = target if isinstance(target, Record) else ThreeRecords.vector3()
    vector.fields.update(
        {"x": float(world[0, 3]), "y": float(world[1, 3]), "z": float(world[2, 3])}
    )
    return vector


def _point_between_frames(to_world: bool) -> Method:
    """``localToWorld`` (``to_world``) or ``worldToLocal``: the point argument, moved in place."""

    def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
        engine = three_engine(ctx)
        vector = arg(a, 0)
        v = engine.vec(ctx, vector, "the point")
        if v is not None and isinstance(vector, Record):
            world = engine.world_matrix(r)
            m = world if to_world else np.linalg.inv(world)
            vector.fields.update(dict(zip("xyz", tm.apply_matrix(m, v), strict=True)))
        return vector

    return fn


object3d_method("localToWorld")(_point_between_frames(True))
object3d_method("worldToLocal")(_point_between_frames(False))


# Matrices are composed when read and events never fire: these change nothing.
object3d_method(
    "updateMatrix",
    "updateMatrixWorld",
    "updateWorldMatrix",
    "dispatchEvent",
    "addEventListener",
)(returns_undefined)


__all__ = [
    "OBJECT3D_GETTERS",
    "OBJECT3D_METHODS",
    "descendants",
    "object3d_add",
    "object3d_method",
    "object_set_hook",
    "three_engine",
]
