"""Python as Open3D scripts see it: the Python dialect (with numpy) plus open3d's mesh
arithmetic: ``a + b`` is a new mesh holding both, ``a += b`` adds ``b``'s vertices to ``a``."""

from __future__ import annotations

from parsers.evaluator import Record, Value
from parsers.evaluator.python.lib import Python
from parsers.open3d.engine import Open3DEngine


def _is_mesh(value: Value) -> bool:
    return isinstance(value, Record) and value.kind == "TriangleMesh"


class Open3DPython(Python):
    """The Python dialect with open3d's mesh arithmetic."""

    python2_note = "open3d ran on Python 2.7 until 0.9; 0.10 and later need Python 3"

    def __init__(self, engine: Open3DEngine) -> None:
        super().__init__()
        self.engine = engine

    def binary(self, op: str, left: Value, right: Value) -> Value:
        if op == "+" and _is_mesh(left):
            return self.engine.merge(left, right, in_place=False)
        return super().binary(op, left, right)

    def augmented(self, op: str, current: Value, value: Value) -> Value:
        if op == "+" and _is_mesh(current):
            return self.engine.merge(current, value, in_place=True)
        return super().augmented(op, current, value)
