"""The ``numpy`` namespace and the methods of arrays, run on real numpy.

Every function takes its arguments as numpy would (lists and arrays as arrays of their natural
dtype, numbers, shapes, ``axis``/``decimals``/``dtype`` keywords) and gives numpy's result
wrapped as evaluator values. Functions that build arrays from a shape or a count are checked
against ``MAX_ELEMENTS`` before they run; an argument that cannot be known makes the result
unknown, with the reason; what numpy refuses is an unknown saying numpy's reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from parsers.evaluator.core.arguments import Args, Kwargs, arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import Builtin, Record, Unknown, Value, is_number
from parsers.evaluator.python.numpy_lib import MAX_ELEMENTS, array_binary, to_numpy, wrap

#: Built-in and numpy type names a ``dtype=`` may give.
_DTYPES: dict[str, Any] = {
    "float": np.float64,
    "int": np.int64,
    "bool": np.bool_,
    "numpy.float64": np.float64,
    "numpy.float32": np.float32,
    "numpy.double": np.float64,
    "numpy.int64": np.int64,
    "numpy.int32": np.int32,
    "numpy.int_": np.int64,
    "numpy.uint8": np.uint8,
    "numpy.bool_": np.bool_,
}


class _NotKnown(Exception):
    def __init__(self, unknown: Unknown) -> None:
        super().__init__(unknown.reason)
        self.unknown = unknown


def _operand(value: Value) -> Any:
    """An argument as numpy takes it."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Builtin) and value.name in _DTYPES:
        return _DTYPES[value.name]
    if isinstance(value, Unknown):
        raise _NotKnown(value)
    converted = to_numpy(value, natural=True)
    if isinstance(converted, Unknown):
        raise _NotKnown(converted)
    return converted


def _size(value: Any) -> int:
    """How many elements an array of shape ``value`` holds (a count or a shape)."""
    shape = np.atleast_1d(np.asarray(value)).astype(np.int64)
    return int(np.prod(shape)) if shape.size else 1


#: For functions that make arrays from a shape or count: how many elements they would make.
_BUILT_SIZE: dict[str, Callable[[list[Any], dict[str, Any]], int]] = {
    "zeros": lambda a, k: _size(a[0] if a else k.get("shape", 0)),
    "ones": lambda a, k: _size(a[0] if a else k.get("shape", 0)),
    "empty": lambda a, k: _size(a[0] if a else k.get("shape", 0)),
    "full": lambda a, k: _size(a[0] if a else k.get("shape", 0)),
    "eye": lambda a, k: _size(a[0]) ** 2 if a else 0,
    "identity": lambda a, k: _size(a[0]) ** 2 if a else 0,
    "linspace": lambda a, k: int(a[2]) if len(a) > 2 else int(k.get("num", 50)),
    "arange": lambda a, k: _arange_count(a),
    "tile": lambda a, k: int(np.size(a[0])) * _size(a[1]) if len(a) > 1 else 0,
    "repeat": lambda a, k: int(np.size(a[0])) * int(np.max(a[1])) if len(a) > 1 else 0,
    "outer": lambda a, k: int(np.size(a[0])) * int(np.size(a[1])) if len(a) > 1 else 0,
    "meshgrid": lambda a, k: len(a) * math.prod(max(int(np.size(x)), 1) for x in a),
}


def _arange_count(args: list[Any]) -> int:
    values = [float(v) for v in args[:3]]
    if not values:
        return 0
    start, stop, step = (
        (0.0, values[0], 1.0)
        if len(values) == 1
        else (values[0], values[1], values[2] if len(values) > 2 else 1.0)
    )
    if step == 0:
        return MAX_ELEMENTS + 1
    return max(0, math.ceil((stop - start) / step))


def _call_numpy(name: str, fn: Callable[..., Any], args: Args, kwargs: Kwargs) -> Value:
    try:
        positional = [_operand(a) for a in args]
        named = {k: _operand(v) for k, v in kwargs.items()}
    except _NotKnown as missing:
        return missing.unknown
    count = _BUILT_SIZE.get(name)
    try:
        if count is not None and count(positional, named) > MAX_ELEMENTS:
            return Unknown(f"numpy.{name} of an array too large to build")
        if name in _ARRANGING:
            return wrap(fn(*positional, **named))
        # Arithmetic may divide by zero or overflow: numpy's warnings say nothing the script
        # sees (its result holds the inf or nan).
        with np.errstate(all="ignore"):
            return wrap(fn(*positional, **named))
    except Exception as error:  # numpy's refusal, whatever its type, is the reason given
        return Unknown(f"numpy.{name}: {error}")


#: Functions that only make or arrange arrays: no arithmetic that could warn.
_ARRANGING = frozenset(
    {
        "array", "asarray", "asanyarray", "zeros", "ones", "empty", "full", "eye", "identity",
        "stack", "vstack", "hstack", "dstack", "column_stack", "concatenate", "reshape",
        "transpose", "ravel", "copy", "tile", "repeat", "flip", "fliplr", "flipud",
        "expand_dims", "squeeze", "atleast_1d", "atleast_2d", "zeros_like", "ones_like",
    }
)  # fmt: skip


def _fn(name: str, fn: Callable[..., Any] | None = None) -> Builtin:
    function = fn if fn is not None else getattr(np, name)
    return Builtin(f"numpy.{name}", lambda ctx, a, k: _call_numpy(name, function, a, k))


_NAMES = (
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh",
    "sqrt", "cbrt", "abs", "absolute", "fabs", "square", "radians", "degrees", "deg2rad",
    "rad2deg", "floor", "ceil", "trunc", "round", "around", "rint", "exp", "log", "log2",
    "log10", "sign", "negative", "reciprocal", "transpose", "ravel", "copy", "diag",
    "zeros_like", "ones_like", "full_like", "cumsum", "cumprod", "sort", "argsort", "unique",
    "flip", "fliplr", "flipud", "isnan", "isfinite", "isinf", "dot", "matmul", "cross",
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "mod",
    "remainder", "maximum", "minimum", "outer", "hypot", "where", "clip", "allclose",
    "isclose", "array_equal", "tile", "repeat", "mean", "sum", "min", "max", "amin", "amax",
    "argmin", "argmax", "std", "var", "prod", "any", "all", "median", "average", "ptp",
    "zeros", "ones", "empty", "full", "eye", "identity", "arange", "linspace", "meshgrid",
    "stack", "vstack", "hstack", "dstack", "column_stack", "concatenate", "reshape",
    "expand_dims", "squeeze", "interp", "count_nonzero", "nonzero", "atleast_1d",
    "atleast_2d", "append",
)  # fmt: skip


def _array(name: str, fn: Callable[..., Any]) -> Builtin:
    return Builtin(f"numpy.{name}", lambda ctx, a, k: _call_numpy(name, fn, a, k))


@cache
def numpy_functions() -> dict[str, Value]:
    """The members of ``numpy`` but its namespaces ``linalg`` and ``random``."""
    members: dict[str, Value] = {name: _fn(name) for name in _NAMES if hasattr(np, name)}
    members.update(
        {
            "pi": math.pi,
            "e": math.e,
            "inf": math.inf,
            "nan": math.nan,
            "newaxis": None,
            "array": _array("array", np.array),
            "asarray": _array("asarray", np.asarray),
            "asanyarray": _array("asanyarray", np.asanyarray),
            "float64": _fn("float64", np.float64),
            "float32": _fn("float32", np.float32),
            "double": _fn("double", np.float64),
            "int64": _fn("int64", np.int64),
            "int32": _fn("int32", np.int32),
            "int_": _fn("int_", np.int64),
            "uint8": _fn("uint8", np.uint8),
            "bool_": _fn("bool_", np.bool_),
        }
    )
    return members


@cache
def linalg_functions() -> dict[str, Value]:
    return {
        name: _fn(f"linalg.{name}", getattr(np.linalg, name))
        for name in ("inv", "norm", "det", "solve", "pinv")
    }


# --- methods and attributes of arrays --------------------------------------------------------------

ARRAY_GETTERS = ("T", "shape", "ndim", "size", "dtype", "x", "y", "z")
_METHOD_NAMES = (
    "tolist", "copy", "astype", "flatten", "ravel", "transpose", "mean", "sum", "min", "max",
    "argmin", "argmax", "std", "var", "prod", "any", "all", "cumsum", "clip", "round",
    "reshape", "item", "dot", "fill", "sort", "squeeze", "nonzero",
)  # fmt: skip
ARRAY_METHODS = _METHOD_NAMES


def array_member(ctx: CallContext, record: Record, name: str) -> Value:
    array: np.ndarray[Any, Any] = record.native
    if name == "T":
        return wrap(array.T)
    if name == "shape":
        return tuple(int(n) for n in array.shape)
    if name == "ndim":
        return int(array.ndim)
    if name == "size":
        return int(array.size)
    if name == "dtype":
        return str(array.dtype)
    if name in ("x", "y", "z") and array.ndim == 1 and array.size >= 3:
        return wrap(array["xyz".index(name)])
    if name == "tolist":
        return Builtin("ndarray.tolist", lambda c, a, k: array.tolist())
    if name == "item":
        return Builtin(
            "ndarray.item",
            lambda c, a, k: (
                array.item(*[int(i) for i in a])
                if a or array.size == 1
                else Unknown("item of an array of many values")
            ),
        )
    if name == "dot":
        return Builtin("ndarray.dot", lambda c, a, k: array_binary("@", record, arg(a, 0)))
    if name == "fill":

        def fill(c: CallContext, a: Args, k: Kwargs) -> Value:
            value = arg(a, 0)
            if not is_number(value) and not isinstance(value, bool):
                c.warning(
                    "eval.unknown_value",
                    "ndarray.fill with a value that cannot be known; left unchanged",
                )
                return None
            array.fill(value)
            return None

        return Builtin("ndarray.fill", fill)
    if name == "sort":

        def sort(c: CallContext, a: Args, k: Kwargs) -> Value:
            axis = arg(a, 0, k, "axis")
            array.sort(axis=int(axis) if is_number(axis) else -1)
            return None

        return Builtin("ndarray.sort", sort)
    if name in _METHOD_NAMES:
        method = getattr(array, name)
        return Builtin(
            f"ndarray.{name}", lambda c, a, k: _call_numpy(f"ndarray.{name}", method, a, k)
        )
    return Unknown(f"ndarray.{name} is not modelled")


__all__ = ["ARRAY_GETTERS", "ARRAY_METHODS", "array_member", "linalg_functions", "numpy_functions"]
