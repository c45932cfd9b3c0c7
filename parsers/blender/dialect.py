"""Python as Blender scripts see it: the Python dialect plus what bpy's types add to the
language (mathutils operators, indexing and iterating vectors and bpy collections, ``in`` and
``len`` on collections, collections that are false when empty)."""

from __future__ import annotations

from collections.abc import Iterable

from parsers.blender.engine import collection_length, is_collection
from parsers.blender.materials import collection_items
from parsers.blender.vectors import SEQUENCE_KINDS, fixed, vector_binary, vector_unary
from parsers.evaluator import (
    UNDEFINED,
    Args,
    Builtin,
    CallContext,
    Kwargs,
    Record,
    Unknown,
    Value,
    is_number,
)
from parsers.evaluator.python.lib import Python
from parsers.evaluator.python.numpy_lib import is_array


def _items(record: Record) -> list[Value] | None:
    if record.kind in SEQUENCE_KINDS:
        return list(record.native)
    if record.kind == "Matrix":
        return [[float(v) for v in row] for row in record.native]
    items = collection_items(record)
    if items is None:
        return None
    return [
        i for i in items if not (isinstance(i, Record) and i.kind == "Object" and i.native.removed)
    ]


class BlenderPython(Python):
    """The Python dialect with bpy's and mathutils' types."""

    python2_note = "Blender has run Python 3 since 2.50: no Blender runs this"

    def binary(self, op: str, left: Value, right: Value) -> Value:
        if isinstance(left, Record) or isinstance(right, Record):
            if op in ("in", "not in") and isinstance(right, Record) and is_collection(right):
                items = _items(right) or []
                found = any(
                    left is item or (isinstance(item, Record) and item.fields.get("name") == left)
                    for item in items
                )
                return found if op == "in" else not found
            if op in ("==", "!="):
                same = self.equals(left, right)
                if same is None:
                    return Unknown("comparison of unknown values")
                return same if op == "==" else not same
            result = vector_binary(op, left, right)
            if result is not NotImplemented:
                return result
        return super().binary(op, left, right)

    def unary(self, op: str, operand: Value) -> Value:
        result = vector_unary(op, operand)
        return super().unary(op, operand) if result is NotImplemented else result

    def equals(self, left: Value, right: Value) -> bool | None:
        for a, b in ((left, right), (right, left)):
            if isinstance(a, Record) and a.kind in SEQUENCE_KINDS:
                if isinstance(b, Record) and b.kind in SEQUENCE_KINDS:
                    return list(a.native) == list(b.native)
                if isinstance(b, list | tuple):
                    return list(a.native) == list(b)
        return super().equals(left, right)

    def truthy(self, value: Value) -> bool | None:
        if isinstance(value, Record) and is_collection(value):
            length = collection_length(value)
            return None if length is None else length > 0
        return super().truthy(value)

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        if isinstance(obj, Record) and not is_array(obj):
            items = _items(obj)
            if items is None:
                return Unknown(f"{obj.kind} cannot be indexed")
            if isinstance(index, int) and not isinstance(index, bool):
                if -len(items) <= index < len(items):
                    value = items[index]
                    if obj.kind == "Matrix":
                        return Record("Vector", native=list(value))
                    return value
                return Unknown(f"index {index} is out of range")
            if isinstance(index, slice):
                return items[index]
            return Unknown(f"index {index!r} of a {obj.kind} is not known")
        return super().get_index(ctx, obj, index)

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if isinstance(obj, Record) and not is_array(obj):
            if obj.kind in SEQUENCE_KINDS:
                if isinstance(index, int) and -len(obj.native) <= index < len(obj.native):
                    obj.native[index] = ctx.number(value, f"{obj.kind}[{index}]", obj.native[index])
                elif isinstance(index, slice):
                    current = obj.native[index]
                    values = fixed(ctx, value, f"{obj.kind} slice", len(current), list(current))
                    if values is not None:
                        obj.native[index] = values
                return
            if obj.kind == "MeshMaterials":
                items = collection_items(obj)
                if items is not None and isinstance(index, int):
                    while len(items) <= index:
                        items.append(None)
                    items[index] = value
                return
            ctx.info("eval.ignored_assignment", f"cannot set an item of a {obj.kind}; ignored")
            return
        super().set_index(ctx, obj, index, value)

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if isinstance(value, Record) and not is_array(value):
            items = _items(value)
            return None if items is None else iter(items)
        return super().iterate(value, mode)

    def globals(self) -> dict[str, Value]:
        table = super().globals()
        plain_len = table["len"]

        def length(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
            value = args[0] if args else UNDEFINED
            if isinstance(value, Record) and not is_array(value):
                items = _items(value)
                return Unknown(f"len of a {value.kind}") if items is None else len(items)
            return plain_len.fn(ctx, args, kwargs)

        table["len"] = Builtin("len", length)
        return table


__all__ = ["BlenderPython", "is_number"]
