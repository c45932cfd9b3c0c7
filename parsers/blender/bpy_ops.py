"""``bpy.ops`` for the static evaluator: the ``primitive_*_add`` operators with every
argument (see ``shapes``), the object operators that select, delete, duplicate, parent, join
and apply transforms, the transform operators on the selection, ``read_factory_settings``;
operators with no effect on the objects (render, save, shading, lights, cameras) are
accepted and ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, cast

import numpy as np

from parsers.blender import materials, vectors
from parsers.blender.shapes import OPERATORS, legacy_arguments, primitive_shape, scaled
from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Kwargs,
    Namespace,
    Part,
    Record,
    Value,
)
from spatialbabel.frames import axis_angle_to_matrix

if TYPE_CHECKING:
    from parsers.blender.engine import BlenderEngine

#: Modifiers that change an object's shape; others (bevel, subdivision...) keep its bounds.
SHAPE_MODIFIERS = frozenset(
    {
        "ARRAY",
        "MIRROR",
        "SOLIDIFY",
        "SCREW",
        "DISPLACE",
        "SIMPLE_DEFORM",
        "CURVE",
        "LATTICE",
        "BOOLEAN",
        "SKIN",
        "WELD",
        "BUILD",
        "DECIMATE",
    }
)


#: An operator as a built-in runs it: (context, positional arguments, keyword arguments).
OperatorFn = Callable[[CallContext, Args, Kwargs], Value]


def _ignored(name: str, *, silent: bool = False) -> OperatorFn:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        if not silent:
            ctx.info(
                "blender.ignored_operator", f"{name} does not change the objects read; ignored"
            )
        return ["FINISHED"]

    return call


def _method(method: Callable[[Operators, CallContext, Args, Kwargs], Value]) -> OperatorFn:
    """``method`` of the engine running the call: the built-ins are made once, not per parse
    (a parse's engine table is made afresh)."""

    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        return method(cast("BlenderEngine", ctx.interp.engine).operators, ctx, args, kwargs)

    return call


def _made(make: Callable[[Operators], OperatorFn]) -> OperatorFn:
    """The operator ``make`` builds for the engine running the call (as ``_method``)."""

    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        return make(cast("BlenderEngine", ctx.interp.engine).operators)(ctx, args, kwargs)

    return call


@cache
def _operator_tables() -> dict[str, dict[str, Builtin]]:
    """The built-ins of each ``bpy.ops`` group by operator name."""
    mesh_ops: dict[str, OperatorFn] = {
        op: _made(partial(Operators._primitive, operator=op)) for op in OPERATORS
    }
    object_ops: dict[str, OperatorFn] = {
        "select_all": _method(Operators._op_select_all),
        "select_by_type": _method(Operators._op_select_by_type),
        "delete": _method(Operators._op_delete),
        "duplicate": _method(Operators._op_duplicate),
        "duplicate_move": _method(Operators._op_duplicate),
        "transform_apply": _method(Operators._op_transform_apply),
        "parent_set": _method(Operators._op_parent_set),
        "parent_clear": _method(Operators._op_parent_clear),
        "empty_add": _made(partial(Operators._op_non_mesh, object_type="EMPTY", name="Empty")),
        "light_add": _made(partial(Operators._op_non_mesh, object_type="LIGHT", name="Light")),
        "camera_add": _made(partial(Operators._op_non_mesh, object_type="CAMERA", name="Camera")),
        "text_add": _made(partial(Operators._op_non_mesh, object_type="FONT", name="Text")),
        "modifier_add": _method(Operators._op_modifier_add),
        "origin_set": _method(Operators._op_origin_set),
        "join": _method(Operators._op_join),
    }
    for inert in (
        "shade_smooth",
        "shade_flat",
        "shade_auto_smooth",
        "mode_set",
        "material_slot_add",
        "editmode_toggle",
        "convert",
    ):
        object_ops[inert] = _ignored(f"bpy.ops.object.{inert}", silent=True)
    transform_ops: dict[str, OperatorFn] = {
        "translate": _method(Operators._op_translate),
        "resize": _method(Operators._op_resize),
        "rotate": _method(Operators._op_rotate),
    }
    wm_ops: dict[str, OperatorFn] = {
        "read_factory_settings": _method(Operators._op_read_factory),
        "read_homefile": _method(Operators._op_read_factory),
    }
    for inert in ("save_as_mainfile", "save_mainfile", "quit_blender", "open_mainfile"):
        wm_ops[inert] = _ignored(f"bpy.ops.wm.{inert}", silent=True)
    render_ops = {"render": _ignored("bpy.ops.render.render", silent=True)}
    groups = {
        "mesh": mesh_ops,
        "object": object_ops,
        "transform": transform_ops,
        "wm": wm_ops,
        "render": render_ops,
    }
    return {
        name: {op: Builtin(f"bpy.ops.{name}.{op}", fn) for op, fn in members.items()}
        for name, members in groups.items()
    }


def _group(name: str, table: dict[str, Value]) -> Namespace:
    """The namespace ``bpy.ops.<name>``; an operator it lacks is accepted and ignored."""
    return Namespace(
        f"bpy.ops.{name}",
        table,
        missing=lambda op: Builtin(f"bpy.ops.{name}.{op}", _ignored(f"bpy.ops.{name}.{op}")),
    )


class Operators(Part):
    """The ``bpy.ops`` namespace and its operators."""

    engine: BlenderEngine

    # --- bpy.ops -------------------------------------------------------------------------------------
    def ops(self) -> Namespace:
        # A script may assign into the namespaces: each run gets its own, over shared built-ins.
        return Namespace(
            "bpy.ops",
            {name: _group(name, dict(table)) for name, table in _operator_tables().items()},
            missing=lambda name: _group(name, {}),
        )

    def _primitive(self, operator: str) -> Callable[[CallContext, Args, Kwargs], Value]:
        def add(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            if args:
                ctx.warning(
                    "blender.positional_arguments",
                    f"{operator} takes keyword arguments only; positional ones ignored",
                )
            kwargs = legacy_arguments(ctx, operator, kwargs)
            shape = primitive_shape(ctx, operator, kwargs)
            scale = (
                vectors.fixed(ctx, kwargs.get("scale", UNDEFINED), "scale", 3, [1.0, 1.0, 1.0])
                if "scale" in kwargs
                else [1.0, 1.0, 1.0]
            )
            scaled(shape, scale or [1.0, 1.0, 1.0])
            align = kwargs.get("align", "WORLD")
            if align not in ("WORLD", UNDEFINED):
                ctx.info("blender.align", f"align={align!r} depends on the view; read as 'WORLD'")
            base = OPERATORS[operator][1]
            mesh = self.engine.new_mesh(base, shape)
            record = self.engine.new_object(ctx, base, mesh)
            if "location" in kwargs:
                location = vectors.fixed(ctx, kwargs["location"], "location", 3, [0.0, 0.0, 0.0])
                record.fields["location"].native[:] = location or [0.0, 0.0, 0.0]
            if "rotation" in kwargs:
                rotation = vectors.fixed(ctx, kwargs["rotation"], "rotation", 3, [0.0, 0.0, 0.0])
                record.fields["rotation_euler"].native[:] = rotation or [0.0, 0.0, 0.0]
            self.engine.add_to_scene(record)
            return ["FINISHED"]

        return add

    def _op_non_mesh(
        self, object_type: str, name: str
    ) -> Callable[[CallContext, Args, Kwargs], Value]:
        def add(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            record = self.engine.new_object(ctx, name, Record("Inert", {"name": name}), object_type)
            location = (
                vectors.fixed(
                    ctx, kwargs.get("location", UNDEFINED), "location", 3, [0.0, 0.0, 0.0]
                )
                if "location" in kwargs
                else None
            )
            if location is not None:
                record.fields["location"].native[:] = location
            self.engine.add_to_scene(record)
            return ["FINISHED"]

        return add

    def _op_select_all(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        action = kwargs.get("action", "TOGGLE")
        objects = self.engine.linked_objects()
        if action == "TOGGLE":
            action = "DESELECT" if any(o.native.selected for o in objects) else "SELECT"
        for obj in objects:
            obj.native.selected = action == "SELECT" or (
                action == "INVERT" and not obj.native.selected
            )
        return ["FINISHED"]

    def _op_select_by_type(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        wanted = kwargs.get("type", "MESH")
        extend = ctx.truthy(kwargs.get("extend", False))
        for obj in self.engine.linked_objects():
            if obj.native.type == wanted:
                obj.native.selected = True
            elif not extend:
                obj.native.selected = False
        return ["FINISHED"]

    def _op_delete(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        for obj in self.engine.selected():
            self.engine.remove_object(obj)
        return ["FINISHED"]

    def _op_duplicate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        linked = ctx.truthy(kwargs.get("linked", False)) is True
        move = kwargs.get("TRANSFORM_OT_translate")
        offset = None
        if isinstance(move, dict) and "value" in move:
            offset = vectors.fixed(ctx, move["value"], "duplicate_move value", 3, [0.0, 0.0, 0.0])
        copies = []
        for obj in self.engine.selected():
            copy = self.engine.object_members.object_copy(ctx, obj, [], {})
            assert isinstance(copy, Record)
            data = obj.fields.get("data")
            if not linked and isinstance(data, Record) and data.kind == "Mesh":
                copy.fields["data"] = self.engine.object_members.mesh_copy(ctx, data, [], {})
            copy.native.linked = True
            if offset is not None:
                location = copy.fields["location"].native
                location[:] = [a + b for a, b in zip(location, offset, strict=True)]
            copies.append(copy)
        for obj in self.engine.linked_objects():
            obj.native.selected = obj in copies
        if copies:
            self.engine.active = copies[-1]
        return ["FINISHED"]

    def _op_transform_apply(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        flags = {
            name: ctx.truthy(kwargs.get(name, True)) is not False
            for name in ("location", "rotation", "scale")
        }
        for obj in self.engine.selected():
            shape = self.engine.mesh_shape(obj)
            basis = self.engine.basis_matrix(obj)
            if flags["location"]:
                obj.fields["location"].native[:] = [0.0, 0.0, 0.0]
            if flags["rotation"]:
                self.engine.set_rotation(obj, np.eye(3))
            if flags["scale"]:
                obj.fields["scale"].native[:] = [1.0, 1.0, 1.0]
            if shape is not None:
                # The world shape stays put: the mesh takes what the object's transform lost.
                shape.transform(np.linalg.inv(self.engine.basis_matrix(obj)) @ basis)
        return ["FINISHED"]

    def _op_parent_set(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        parent = self.engine.active
        if parent is None:
            ctx.warning("blender.no_active", "parent_set with no active object; ignored")
            return ["CANCELLED"]
        inverse = np.linalg.inv(self.engine.world_matrix(parent))
        for obj in self.engine.selected():
            if obj is parent:
                continue
            world = self.engine.world_matrix(obj)
            obj.fields["parent"] = parent
            obj.native.parent_inverse = inverse.copy()
            if ctx.truthy(kwargs.get("keep_transform", False)):
                self.engine.set_world(obj, world)
        return ["FINISHED"]

    def _op_parent_clear(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        keep = kwargs.get("type", "CLEAR") == "CLEAR_KEEP_TRANSFORM"
        for obj in self.engine.selected():
            world = self.engine.world_matrix(obj)
            obj.fields["parent"] = None
            obj.native.parent_inverse = np.eye(4)
            if keep:
                self.engine.set_basis(obj, world)
        return ["FINISHED"]

    def _op_modifier_add(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        kind = kwargs.get("type")
        if kind in SHAPE_MODIFIERS:
            ctx.warning(
                "blender.shape_modifier",
                f"a {kind} modifier changes the object's shape; its bounds are read without it",
            )
        return ["FINISHED"]

    def _op_origin_set(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        # As bpy 5.0.1 runs it (measured in tests/parsers/test_blender_parser.py): ORIGIN_*
        # moves each selected object's origin, its world shape staying put; GEOMETRY_ORIGIN
        # (the default) moves the mesh onto the origin instead. The centre is the mean vertex
        # (center='MEDIAN', the default) or the middle of the vertex box ('BOUNDS').
        kind = str(kwargs.get("type", "GEOMETRY_ORIGIN"))
        if kind not in ("GEOMETRY_ORIGIN", "ORIGIN_GEOMETRY", "ORIGIN_CURSOR"):
            ctx.warning(
                "blender.origin_set",
                f"origin_set(type={kind!r}) is not modelled; the object is read as if its origin were unchanged",
            )
            return ["FINISHED"]
        bounds = kwargs.get("center", "MEDIAN") == "BOUNDS"
        cursor = vectors.fixed(
            ctx,
            self.engine.cursor.fields.get("location"),
            "scene.cursor.location",
            3,
            [0.0, 0.0, 0.0],
        ) or [0.0, 0.0, 0.0]
        for obj in self.engine.selected():
            shape = self.engine.mesh_shape(obj)
            if shape is None:
                continue
            world = self.engine.world_matrix(obj)
            if kind == "ORIGIN_CURSOR":
                point = (np.linalg.inv(world) @ np.array([*cursor, 1.0]))[:3]
            else:
                point = (shape.box_min + shape.box_max) / 2 if bounds else shape.median
            shift = np.eye(4)
            shift[:3, 3] = -np.asarray(point, dtype=float)
            shape.transform(shift)
            if kind != "GEOMETRY_ORIGIN":
                self.engine.set_world(obj, world @ np.linalg.inv(shift))
        return ["FINISHED"]

    def _op_join(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        ctx.warning(
            "blender.join", "join merges meshes into one object; the objects are read separately"
        )
        return ["FINISHED"]

    def _transform_targets(self) -> list[Record]:
        return self.engine.selected()

    def _op_translate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        offset = vectors.fixed(
            ctx, kwargs.get("value", UNDEFINED), "translate value", 3, [0.0, 0.0, 0.0]
        )
        if offset is not None:
            for obj in self._transform_targets():
                location = obj.fields["location"].native
                location[:] = [a + b for a, b in zip(location, offset, strict=True)]
        return ["FINISHED"]

    def _op_resize(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        factors = vectors.fixed(
            ctx, kwargs.get("value", UNDEFINED), "resize value", 3, [1.0, 1.0, 1.0]
        )
        targets = self._transform_targets()
        if factors is None or not targets:
            return ["FINISHED"]
        pivot = np.mean([obj.fields["location"].native for obj in targets], axis=0)
        for obj in targets:
            scale = obj.fields["scale"].native
            scale[:] = [a * b for a, b in zip(scale, factors, strict=True)]
            location = obj.fields["location"].native
            location[:] = [
                float(p + (c - p) * f) for c, p, f in zip(location, pivot, factors, strict=True)
            ]
        return ["FINISHED"]

    def _op_rotate(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        # As bpy 5.0.1 runs it from a script (measured in tests/parsers/test_blender_parser.py):
        # the selection turns by ``value`` radians (right-handed) about ``orient_axis`` of the
        # orientation, around ``center_override`` or else the median of the selected origins.
        # Without a 3D view, 'VIEW' and 'CURSOR' are the global axes, 'LOCAL' the active
        # object's axes, and the scene's pivot setting is not consulted.
        targets = self._transform_targets()
        angle = ctx.number(kwargs.get("value", 0.0), "rotate value", 0.0)
        if not targets or angle == 0.0:
            return ["FINISHED"]
        index = "XYZ".find(str(kwargs.get("orient_axis", "Z")))
        if index < 0:
            ctx.warning(
                "blender.bad_value", "orient_axis must be 'X', 'Y' or 'Z'; the rotation is ignored"
            )
            return ["FINISHED"]
        axis = self._rotate_axis(ctx, kwargs, index)
        if axis is None:
            return ["FINISHED"]
        pivot = (
            vectors.fixed(ctx, kwargs["center_override"], "center_override", 3, [0.0, 0.0, 0.0])
            if "center_override" in kwargs
            else None
        )
        worlds = [self.engine.world_matrix(obj) for obj in targets]
        centre = (
            np.asarray(pivot, dtype=float)
            if pivot is not None
            else np.mean([world[:3, 3] for world in worlds], axis=0)
        )
        turn = np.eye(4)
        turn[:3, :3] = axis_angle_to_matrix((axis[0], axis[1], axis[2]), angle)
        turn[:3, 3] = centre - turn[:3, :3] @ centre
        for obj, world in zip(targets, worlds, strict=True):
            self.engine.set_world(obj, turn @ world)
        return ["FINISHED"]

    def _rotate_axis(self, ctx: CallContext, kwargs: Kwargs, index: int) -> list[float] | None:
        """The world axis ``transform.rotate`` turns about, or None (reported)."""
        if "orient_matrix" in kwargs:
            # The matrix is given as its three axes (bpy reads the tuple's items as columns).
            rows = kwargs["orient_matrix"]
            items = rows if isinstance(rows, list | tuple) else []
            axis = (
                vectors.fixed(ctx, items[index], "orient_matrix axis", 3, [0.0, 0.0, 0.0])
                if len(items) == 3
                else None
            )
            if axis is None or not any(axis):
                ctx.warning(
                    "blender.bad_value", "orient_matrix is not three axes; the rotation is ignored"
                )
                return None
            return axis
        orientation = str(kwargs.get("orient_type", "GLOBAL"))
        if orientation == "LOCAL" and self.engine.active is not None:
            column = self.engine.world_matrix(self.engine.active)[:3, index]
            return [float(c) for c in column / np.linalg.norm(column)]
        if orientation not in ("GLOBAL", "VIEW", "CURSOR", "LOCAL"):
            ctx.warning(
                "blender.transform_rotate",
                f"orient_type {orientation!r} is not modelled; read as 'GLOBAL'",
            )
        axis = [0.0, 0.0, 0.0]
        axis[index] = 1.0
        return axis

    def _op_read_factory(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        for obj in self.engine.objects:
            self.engine.remove_object(obj)
        self.engine.meshes.clear()
        self.engine.materials_list.clear()
        if ctx.truthy(kwargs.get("use_empty", False)) is not True:
            # Blender's startup file: a 2 m cube with a default material, a light and a camera.
            cube_op = self._primitive("primitive_cube_add")
            cube_op(ctx, [], {})
            cube = self.engine.active
            material = materials.new_material("Material")
            self.engine.materials_list.append(material)
            if cube is not None:
                self.engine.set_slot(ctx, cube, 0, material)
            self._op_non_mesh("LIGHT", "Light")(ctx, [], {"location": [4.08, 1.0, 5.9]})
            self._op_non_mesh("CAMERA", "Camera")(ctx, [], {"location": [7.36, -6.93, 4.96]})
            for obj in self.engine.linked_objects():
                obj.native.selected = False
            self.engine.active = cube
        return ["FINISHED"]
