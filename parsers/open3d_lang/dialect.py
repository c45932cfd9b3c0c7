"""Python as Open3D scripts see it: the Python dialect plus numpy's arrays (operators,
indexing, slice assignment, iteration) and open3d's mesh arithmetic (``a + b``, ``a += b``)."""

from __future__ import annotations

from collections.abc import Iterable

from parsers.evaluator import UNDEFINED, Builtin, CallContext, Record, Unknown, Value
from parsers.evaluator import numpy_lib as npl
from parsers.evaluator.python_lib import Python
from parsers.open3d_lang.engine import Open3DEngine

Args = list[Value]
Kwargs = dict[str, Value]


def _is_mesh(value: Value) -> bool:
    return isinstance(value, Record) and value.kind == "TriangleMesh"


class Open3DPython(Python):
    """The Python dialect with numpy arrays and open3d meshes."""

    def __init__(self, engine: Open3DEngine) -> None:
        super().__init__()
        self.engine = engine

    def binary(self, op: str, left: Value, right: Value) -> Value:
        if op == "+" and _is_mesh(left):
            return self.engine.merge(left, right, in_place=False)
        result = npl.array_binary(op, left, right)
        if result is not NotImplemented:
            return result
        return super().binary(op, left, right)

    def augmented(self, op: str, current: Value, value: Value) -> Value:
        if op == "+" and _is_mesh(current):
            return self.engine.merge(current, value, in_place=True)
        return super().augmented(op, current, value)

    def unary(self, op: str, operand: Value) -> Value:
        result = npl.array_unary(op, operand)
        return super().unary(op, operand) if result is NotImplemented else result

    def truthy(self, value: Value) -> bool | None:
        if npl.is_array(value):
            size = value.native.size
            return bool(value.native.ravel()[0]) if size == 1 else None
        return super().truthy(value)

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        if npl.is_array(obj):
            return npl.array_get(obj, index)
        return super().get_index(ctx, obj, index)

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        if npl.is_array(obj):
            npl.array_set(ctx, obj, index, value)
            return
        super().set_index(ctx, obj, index, value)

    def slice(self, ctx: CallContext, obj: Value, lower: Value, upper: Value, step: Value) -> Value:
        if npl.is_array(obj):
            parts = [None if v is UNDEFINED or v is None else v for v in (lower, upper, step)]
            if all(p is None or isinstance(p, int) for p in parts):
                return npl.array_get(obj, slice(*parts))
            return Unknown("a slice that cannot be known statically")
        return super().slice(ctx, obj, lower, upper, step)

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        if npl.is_array(value):
            return npl.array_items(value)
        return super().iterate(value, mode)

    def globals(self) -> dict[str, Value]:
        table = super().globals()
        plain = {name: table[name] for name in ("len", "float", "int", "list", "tuple", "abs", "round")}

        def wrapped(name: str) -> Builtin:
            def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
                value = args[0] if args else UNDEFINED
                if npl.is_array(value):
                    array = value.native
                    if name == "len":
                        return int(array.shape[0]) if array.ndim else Unknown("len of a 0-d array")
                    if name in ("float", "int"):
                        return (float if name == "float" else int)(array.ravel()[0]) if array.size == 1 else Unknown(f"{name} of an array of many values")
                    if name in ("list", "tuple"):
                        items = list(npl.array_items(value))
                        return items if name == "list" else tuple(items)
                    if name == "abs":
                        return npl.wrap(abs(array))
                    return npl.wrap(array.round(int(args[1]) if len(args) > 1 and isinstance(args[1], int) else 0))
                return plain[name].fn(ctx, args, kwargs)

            return Builtin(name, call)

        for name in plain:
            table[name] = wrapped(name)
        return table
