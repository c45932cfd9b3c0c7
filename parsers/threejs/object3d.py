"""three's ``Object3D`` for the static evaluator: the members every object kind shares
(``position``/``rotation``/``quaternion``/``scale``, ``add``/``remove``/``attach``, ``lookAt``,
``rotateX``/``translateOnAxis``..., ``matrix``/``matrixWorld``, ``traverse``, ``clone``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

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
    type_name,
)
from parsers.threejs import three_math as tm
from parsers.threejs.records import ObjectState, returns_undefined
from parsers.threejs.three_names import MESH_KINDS

if TYPE_CHECKING:
    from parsers.threejs.engine import ThreeEngine


class Object3DMethods(Part):
    """The getters, field hook and methods of ``Object3D`` records."""

    engine: ThreeEngine

    # --- Object3D -------------------------------------------------------------------------------
    def object_getters(self) -> dict[str, Any]:
        def flag(*kinds: str) -> Callable[[CallContext, Record], Value]:
            return lambda ctx, r: any(self.engine.is_a(r, kind) for kind in kinds)

        return {
            "isObject3D": lambda ctx, r: True,
            "isMesh": flag(*MESH_KINDS, "InstancedMesh"),
            "isGroup": flag("Group"),
            "isScene": flag("Scene"),
            "isCamera": flag("Camera"),
            "isLight": flag("Light"),
            "id": lambda ctx, r: float(r.native.serial if isinstance(r.native, ObjectState) else 0),
            "matrix": lambda ctx, r: self.engine.matrix4(self.engine.local_matrix(r)),
            "matrixWorld": lambda ctx, r: self.engine.matrix4(self.engine.world_matrix(r)),
        }

    def object_set_hook(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
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

    def add(self, ctx: CallContext, parent: Record, args: Args, kwargs: Kwargs) -> Value:
        for child in args:
            if child is parent:
                ctx.warning("threejs.bad_add", "an object cannot be added to itself; ignored")
                continue
            if not self.engine.is_object3d(child):
                reason = child.reason if isinstance(child, Unknown) else f"a {type_name(child)}"
                ctx.warning(
                    "threejs.bad_add",
                    f"add() of something that is not an Object3D ({reason}); ignored",
                )
                continue
            self._detach(child)
            child.fields["parent"] = parent
            children = parent.fields.setdefault("children", [])
            if isinstance(children, list):
                children.append(child)
        return parent

    @staticmethod
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

    def descendants(self, root: Record) -> list[Record]:
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

    def object_methods(self) -> dict[str, Any]:
        engine = self.engine

        def remove(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            for child in a:
                if isinstance(child, Record) and child.fields.get("parent") is r:
                    self._detach(child)
            return r

        def remove_from_parent(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            self._detach(r)
            return r

        def clear(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            children = r.fields.get("children")
            for child in list(children) if isinstance(children, list) else []:
                if isinstance(child, Record):
                    self._detach(child)
            return r

        def attach(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            child = arg(a, 0)
            if not engine.is_object3d(child):
                return r
            world = engine.world_matrix(child)
            inverse = np.linalg.inv(engine.world_matrix(r))
            self.add(ctx, r, [child], {})
            position, q, s = tm.decompose(inverse @ world)
            child.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
            child.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
            engine.set_quaternion(child, q)
            return r

        def traverse(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            callback = arg(a, 0)
            for node in self.descendants(r)[: ctx.interp.limits.max_loop_iterations]:
                ctx.interp.budget.step()
                ctx.call(callback, [node])
            return UNDEFINED

        def by_name(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            name = arg(a, 0)
            for node in self.descendants(r):
                if node.fields.get("name") == name:
                    return node
            return UNDEFINED

        def look_at(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            first = arg(a, 0)
            if isinstance(first, Record):
                target = engine.vec(ctx, first, "the lookAt target")
            else:
                values = [
                    ctx.optional_number(
                        arg(a, i), "the lookAt target", code="threejs.unknown_value"
                    )
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
                parent_q = tm.quat_from_rotation_matrix(
                    tm.extract_rotation(engine.world_matrix(parent))
                )
                q = tm.quat_multiply(tm.quat_invert(parent_q), q)
            engine.set_quaternion(r, q)
            return UNDEFINED

        def own_quaternion(ctx: CallContext, r: Record) -> tm.Quat | None:
            return engine.quat_of(ctx, r.fields.get("quaternion"), "the object's rotation")

        def axis_and_amount(
            ctx: CallContext,
            a: Args,
            fixed: tuple[float, float, float] | None,
            axis_what: str,
            amount_what: str,
        ) -> tuple[tuple[float, float, float] | None, float | None]:
            """``(axis, amount)`` of ``rotateOnAxis(axis, angle)``-like calls, or ``(amount)``
            of ``rotateX(angle)``-like ones whose axis is ``fixed``."""
            axis = engine.vec(ctx, arg(a, 0), axis_what) if fixed is None else fixed
            amount = ctx.optional_number(
                arg(a, 0 if fixed is not None else 1), amount_what, code="threejs.unknown_value"
            )
            return axis, amount

        def rotate_on_axis(
            world: bool, fixed: tuple[float, float, float] | None = None
        ) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                axis, angle = axis_and_amount(
                    ctx, a, fixed, "the rotation axis", "the rotation angle"
                )
                q = own_quaternion(ctx, r)
                if axis is None or angle is None or q is None:
                    return r
                turn = tm.quat_from_axis_angle(axis, angle)
                engine.set_quaternion(
                    r, tm.quat_multiply(turn, q) if world else tm.quat_multiply(q, turn)
                )
                return r

            return fn

        def translate_on_axis(
            fixed: tuple[float, float, float] | None = None,
        ) -> Callable[..., Value]:
            def fn(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
                axis, distance = axis_and_amount(ctx, a, fixed, "the axis", "the distance")
                q = own_quaternion(ctx, r)
                position = engine.vec(ctx, r.fields.get("position"), "the position")
                if axis is None or distance is None or q is None or position is None:
                    return r
                moved = tm.apply_quat(q, axis)
                r.fields["position"].fields.update(
                    {c: position[i] + moved[i] * distance for i, c in enumerate("xyz")}
                )
                return r

            return fn

        def set_rotation_from_euler(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            euler = arg(a, 0)
            angles = engine.numbers(euler, "xyz")
            if isinstance(angles, Unknown):
                ctx.warning(
                    "threejs.unknown_value",
                    f"the Euler angles cannot be known statically ({angles.reason}); ignored",
                )
                return UNDEFINED
            order = euler.fields.get("order") if isinstance(euler, Record) else "XYZ"
            engine.set_quaternion(
                r,
                tm.quat_from_euler(
                    angles[0], angles[1], angles[2], order if isinstance(order, str) else "XYZ"
                ),
            )
            return UNDEFINED

        def set_rotation_from_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
            if q is not None:
                engine.set_quaternion(r, q)
            return UNDEFINED

        def set_rotation_from_axis_angle(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            axis = engine.vec(ctx, arg(a, 0), "the rotation axis")
            angle = ctx.optional_number(
                arg(a, 1), "the rotation angle", code="threejs.unknown_value"
            )
            if axis is not None and angle is not None:
                engine.set_quaternion(r, tm.quat_from_axis_angle(axis, angle))
            return UNDEFINED

        def set_rotation_from_matrix(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, arg(a, 0), "the rotation matrix")
            if m is not None:
                engine.set_quaternion(r, tm.quat_from_rotation_matrix(m))
            return UNDEFINED

        def apply_quaternion(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            q = engine.quat_of(ctx, arg(a, 0), "the quaternion")
            mine = own_quaternion(ctx, r)
            if q is not None and mine is not None:
                engine.set_quaternion(r, tm.quat_multiply(q, mine))
            return r

        def apply_matrix4(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            m = engine.matrix_of(ctx, arg(a, 0), "the matrix")
            if m is None:
                return r
            position, q, s = tm.decompose(m @ engine.local_matrix(r))
            r.fields["position"].fields.update(dict(zip("xyz", position, strict=True)))
            r.fields["scale"].fields.update(dict(zip("xyz", s, strict=True)))
            engine.set_quaternion(r, q)
            return r

        def clone(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            recursive = arg(a, 0)
            return self._clone(ctx, r, recursive is not False)

        def copy(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            source = arg(a, 0)
            if isinstance(source, Record):
                self._copy_into(ctx, r, source, arg(a, 1) is not False)
            return r

        def world_position(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            target = arg(a, 0)
            world = engine.world_matrix(r)
            vector = target if isinstance(target, Record) else engine.vector3()
            vector.fields.update(
                {"x": float(world[0, 3]), "y": float(world[1, 3]), "z": float(world[2, 3])}
            )
            return vector

        def local_to_world(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            vector = arg(a, 0)
            v = engine.vec(ctx, vector, "the point")
            if v is not None and isinstance(vector, Record):
                vector.fields.update(
                    dict(zip("xyz", tm.apply_matrix(engine.world_matrix(r), v), strict=True))
                )
            return vector

        def world_to_local(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            vector = arg(a, 0)
            v = engine.vec(ctx, vector, "the point")
            if v is not None and isinstance(vector, Record):
                vector.fields.update(
                    dict(
                        zip(
                            "xyz",
                            tm.apply_matrix(np.linalg.inv(engine.world_matrix(r)), v),
                            strict=True,
                        )
                    )
                )
            return vector

        methods: dict[str, Any] = {
            "add": self.add,
            "remove": remove,
            "removeFromParent": remove_from_parent,
            "clear": clear,
            "attach": attach,
            "traverse": traverse,
            "traverseVisible": traverse,
            "getObjectByName": by_name,
            "lookAt": look_at,
            "rotateX": rotate_on_axis(False, (1.0, 0.0, 0.0)),
            "rotateY": rotate_on_axis(False, (0.0, 1.0, 0.0)),
            "rotateZ": rotate_on_axis(False, (0.0, 0.0, 1.0)),
            "rotateOnAxis": rotate_on_axis(False),
            "rotateOnWorldAxis": rotate_on_axis(True),
            "translateX": translate_on_axis((1.0, 0.0, 0.0)),
            "translateY": translate_on_axis((0.0, 1.0, 0.0)),
            "translateZ": translate_on_axis((0.0, 0.0, 1.0)),
            "translateOnAxis": translate_on_axis(),
            "setRotationFromEuler": set_rotation_from_euler,
            "setRotationFromQuaternion": set_rotation_from_quaternion,
            "setRotationFromAxisAngle": set_rotation_from_axis_angle,
            "setRotationFromMatrix": set_rotation_from_matrix,
            "applyQuaternion": apply_quaternion,
            "applyMatrix4": apply_matrix4,
            "clone": clone,
            "copy": copy,
            "getWorldPosition": world_position,
            "localToWorld": local_to_world,
            "worldToLocal": world_to_local,
            "updateMatrix": returns_undefined,
            "updateMatrixWorld": returns_undefined,
            "updateWorldMatrix": returns_undefined,
            "dispatchEvent": returns_undefined,
            "addEventListener": returns_undefined,
        }
        return {**methods, **engine.legacy_methods("Object3D", methods)}

    def _copy_into(self, ctx: CallContext, target: Record, source: Record, recursive: bool) -> None:
        for name in ("position", "scale", "up"):
            vector = source.fields.get(name)
            if isinstance(vector, Record):
                target.fields[name].fields.update({c: vector.fields.get(c) for c in "xyz"})
        target.fields["rotation"].fields["order"] = source.fields["rotation"].fields.get(
            "order", "XYZ"
        )
        q = self.engine.numbers(source.fields.get("quaternion"), "xyzw")
        self.engine.set_quaternion(
            target, q if isinstance(q, Unknown) else (q[0], q[1], q[2], q[3])
        )
        for name in ("name", "visible", "castShadow", "receiveShadow", "geometry", "material"):
            if name in source.fields:
                target.fields[name] = source.fields[name]
        user_data = source.fields.get("userData")
        target.fields["userData"] = dict(user_data) if isinstance(user_data, dict) else {}
        if source.kind == "InstancedMesh":
            self.engine.instancing.copy_instances(target, source)
        if recursive:
            children = source.fields.get("children")
            for child in list(children) if isinstance(children, list) else []:
                if isinstance(child, Record) and self.engine.is_object3d(child):
                    self.add(ctx, target, [self._clone(ctx, child, True)], {})

    def _clone(self, ctx: CallContext, source: Record, recursive: bool) -> Record:
        clone = self.engine.object3d(ctx, source.kind)
        clone.cls = source.cls
        if source.kind == "Scene":
            self.engine.scenes.append(clone)
        self._copy_into(ctx, clone, source, recursive)
        return clone
