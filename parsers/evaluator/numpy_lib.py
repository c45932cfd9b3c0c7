"""numpy for Python scene scripts (Open3D, and Blender scripts that import it).

Arrays are ``Record("ndarray", native=numpy.ndarray)`` of floats; what a script does with them
(literals, ``eye``/``zeros``/``diag``, trigonometry in degrees or radians, slicing and slice
assignment ``T[:3, :3] = R``, arithmetic with broadcasting, ``@``, ``linalg.inv``) runs on real
numpy, so the numbers are numpy's. A 0-d result is a plain float. Arrays are capped in size;
anything that cannot be known becomes an ``Unknown`` with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, TypeGuard

import numpy as np

from parsers.evaluator.arguments import Args, Kwargs, arg
from parsers.evaluator.context import CallContext
from parsers.evaluator.engine import Engine, Kind
from parsers.evaluator.values import (
    Builtin,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
    type_name,
)

KIND = "ndarray"
#: Largest array a script may build (elements).
MAX_ELEMENTS = 100_000


def is_array(value: Value) -> TypeGuard[Record]:
    return isinstance(value, Record) and value.kind == KIND


def wrap(result: Any) -> Value:
    """A numpy result as an evaluator value: arrays as records, scalars as Python numbers."""
    if isinstance(result, np.ndarray):
        if result.ndim == 0:
            return _scalar(result.item())
        if result.size > MAX_ELEMENTS:
            return Unknown("an array too large to build")
        if result.dtype == bool:
            return Record(KIND, native=result.copy())
        return Record(KIND, native=np.asarray(result, dtype=float))
    if isinstance(result, np.generic):
        return _scalar(result.item())
    if isinstance(result, tuple):
        return tuple(wrap(r) for r in result)
    return result


def _scalar(value: Any) -> Value:
    if isinstance(value, bool | int | float):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return Unknown("a value numpy gives that is not a number")


def to_numpy(value: Value, depth: int = 0) -> np.ndarray[Any, Any] | Unknown:
    """A value as a float numpy array (numbers, nested lists or tuples, arrays, vector records)."""
    if is_array(value):
        return np.asarray(value.native)
    if (
        isinstance(value, Record)
        and isinstance(value.native, list)
        and all(is_number(v) for v in value.native)
    ):
        return np.asarray(value.native, dtype=float)
    if isinstance(value, bool) or is_number(value):
        return np.asarray(float(value))
    if isinstance(value, Unknown):
        return value
    if isinstance(value, list | tuple) and depth < 8:
        if len(value) > MAX_ELEMENTS:
            return Unknown("an array too large to build")
        if all(isinstance(v, int | float) for v in value):
            # A flat list of numbers (bools count, as above): each element as its own
            # recursion would read it, in one step.
            return np.asarray([float(v) for v in value], dtype=float)
        parts = [to_numpy(v, depth + 1) for v in value]
        for part in parts:
            if isinstance(part, Unknown):
                return part
        try:
            return np.asarray(parts, dtype=float)
        except ValueError:
            return Unknown("a ragged list is not an array of numbers")
    return Unknown(f"a {type_name(value)} is not an array of numbers")


def _unary_fn(name: str, fn: Callable[[Any], Any]) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        array = to_numpy(arg(args, 0))
        if isinstance(array, Unknown):
            return array
        with np.errstate(all="ignore"):
            return wrap(fn(array))

    return Builtin(f"numpy.{name}", call)


def _binary_fn(name: str, fn: Callable[[Any, Any], Any]) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        a, b = to_numpy(arg(args, 0)), to_numpy(arg(args, 1))
        if isinstance(a, Unknown):
            return a
        if isinstance(b, Unknown):
            return b
        try:
            with np.errstate(all="ignore"):
                return wrap(fn(a, b))
        except ValueError as error:
            return Unknown(f"numpy.{name}: {error}")

    return Builtin(f"numpy.{name}", call)


def _shape(ctx: CallContext, value: Value) -> tuple[int, ...] | None:
    if is_number(value):
        return (int(value),)
    if isinstance(value, list | tuple) and all(is_number(v) for v in value):
        return tuple(int(v) for v in value)
    return None


def _filled(name: str, fill: float | None) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        shape = _shape(ctx, arg(args, 0, kwargs, "shape"))
        if shape is None or math.prod(shape) > MAX_ELEMENTS or any(n < 0 for n in shape):
            return Unknown(f"numpy.{name} of a shape that cannot be known statically")
        value = (
            fill
            if fill is not None
            else ctx.number(arg(args, 1, kwargs, "fill_value"), "fill value", 0.0)
        )
        return wrap(np.full(shape, value, dtype=float))

    return Builtin(f"numpy.{name}", call)


def _eye(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    n = arg(args, 0, kwargs, "N")
    if not is_number(n) or not 0 < n <= 64:
        return Unknown("numpy.eye of a size that cannot be known statically")
    return wrap(np.eye(int(n)))


def _array(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    array = to_numpy(arg(args, 0, kwargs, "object"))
    return array if isinstance(array, Unknown) else wrap(np.array(array, dtype=float))


def _sequence_fn(name: str, fn: Callable[[list[Any]], Any]) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        items = arg(args, 0)
        parts = (
            [to_numpy(v) for v in items] if isinstance(items, list | tuple) else [to_numpy(items)]
        )
        for part in parts:
            if isinstance(part, Unknown):
                return part
        axis = kwargs.get("axis", arg(args, 1))
        try:
            if isinstance(axis, int | float) and name in ("concatenate", "stack"):
                return wrap(fn(parts, axis=int(axis)))  # type: ignore[call-arg]
            return wrap(fn(parts))
        except (ValueError, np.exceptions.AxisError) as error:
            return Unknown(f"numpy.{name}: {error}")

    return Builtin(f"numpy.{name}", call)


def _meshgrid(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    parts: list[np.ndarray[Any, Any]] = []
    for value in args:
        part = to_numpy(value)
        if isinstance(part, Unknown):
            return part
        parts.append(part.ravel())
    indexing = kwargs.get("indexing", "xy")
    size = int(np.prod([max(p.size, 1) for p in parts])) if parts else 0
    if indexing not in ("xy", "ij") or size > MAX_ELEMENTS:
        return Unknown("a meshgrid that cannot be built statically")
    return [wrap(g) for g in np.meshgrid(*parts, indexing=indexing)]


def _linspace(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    start = ctx.number(arg(args, 0, kwargs, "start"), "linspace start", 0.0)
    stop = ctx.number(arg(args, 1, kwargs, "stop"), "linspace stop", 1.0)
    count = arg(args, 2, kwargs, "num")
    num = int(count) if is_number(count) else 50
    endpoint = kwargs.get("endpoint", True) is not False
    if not 0 <= num <= MAX_ELEMENTS:
        return Unknown("a linspace too long to build")
    return wrap(np.linspace(start, stop, num, endpoint=endpoint))


def _arange(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    values = [ctx.number(a, "arange bound", 0.0) for a in args[:3]]
    if not values or (len(values) == 3 and values[2] == 0):
        return Unknown("an arange that cannot be known statically")
    try:
        count = (
            len(range(*[int(v) for v in values]))
            if all(float(v).is_integer() for v in values)
            else abs((values[1] - values[0]) / (values[2] if len(values) > 2 else 1.0))
        )
    except (ValueError, ZeroDivisionError):
        return Unknown("an arange that cannot be known statically")
    if count > MAX_ELEMENTS:
        return Unknown("an arange too long to build")
    return wrap(np.arange(*values))


def _reduce(name: str, fn: Callable[..., Any]) -> Builtin:
    def call(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        array = to_numpy(arg(args, 0))
        if isinstance(array, Unknown):
            return array
        axis = arg(args, 1, kwargs, "axis")
        try:
            return wrap(fn(array, axis=int(axis)) if is_number(axis) else fn(array))
        except (ValueError, np.exceptions.AxisError) as error:
            return Unknown(f"numpy.{name}: {error}")

    return Builtin(f"numpy.{name}", call)


def _inv(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    array = to_numpy(arg(args, 0))
    if isinstance(array, Unknown):
        return array
    try:
        return wrap(np.linalg.inv(array))
    except (np.linalg.LinAlgError, ValueError) as error:
        return Unknown(f"numpy.linalg.inv: {error}")


def _norm(ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
    array = to_numpy(arg(args, 0))
    if isinstance(array, Unknown):
        return array
    axis = arg(args, 2, kwargs, "axis")
    return wrap(np.linalg.norm(array, axis=int(axis)) if is_number(axis) else np.linalg.norm(array))


def numpy_module() -> Namespace:
    """The ``numpy`` namespace scripts import as ``np``. A script may assign into it: each
    run gets its own namespaces, over built-ins made once."""
    members = dict(_numpy_functions())
    members["linalg"] = Namespace("numpy.linalg", dict(_linalg_functions()))
    members["random"] = Namespace(
        "numpy.random",
        missing=lambda name: Builtin(
            f"numpy.random.{name}",
            lambda ctx, a, k: Unknown("a random number has no static value", ctx.line),
        ),
    )
    return Namespace("numpy", members)


@cache
def _linalg_functions() -> dict[str, Value]:
    return {"inv": Builtin("numpy.linalg.inv", _inv), "norm": Builtin("numpy.linalg.norm", _norm)}


@cache
def _numpy_functions() -> dict[str, Value]:
    """The members of ``numpy`` but its namespaces ``linalg`` and ``random``."""
    unary = {
        name: _unary_fn(name, getattr(np, name))
        for name in (
            "sin",
            "cos",
            "tan",
            "arcsin",
            "arccos",
            "arctan",
            "sqrt",
            "abs",
            "absolute",
            "radians",
            "degrees",
            "deg2rad",
            "rad2deg",
            "floor",
            "ceil",
            "round",
            "exp",
            "log",
            "sign",
            "negative",
            "transpose",
            "ravel",
            "copy",
            "fabs",
            "square",
        )
    }
    binary = {
        name: _binary_fn(name, getattr(np, name))
        for name in (
            "dot",
            "matmul",
            "cross",
            "add",
            "subtract",
            "multiply",
            "divide",
            "power",
            "arctan2",
            "maximum",
            "minimum",
            "outer",
            "hypot",
        )
    }
    members: dict[str, Value] = {
        **unary,
        **binary,
        "pi": math.pi,
        "e": math.e,
        "inf": math.inf,
        "nan": math.nan,
        "newaxis": None,
        "array": Builtin("numpy.array", _array),
        "asarray": Builtin("numpy.asarray", _array),
        "asanyarray": Builtin("numpy.asanyarray", _array),
        "eye": Builtin("numpy.eye", _eye),
        "identity": Builtin("numpy.identity", _eye),
        "zeros": _filled("zeros", 0.0),
        "ones": _filled("ones", 1.0),
        "empty": _filled("empty", 0.0),
        "full": _filled("full", None),
        "zeros_like": _unary_fn("zeros_like", np.zeros_like),
        "ones_like": _unary_fn("ones_like", np.ones_like),
        "diag": _unary_fn("diag", np.diag),
        "concatenate": _sequence_fn("concatenate", np.concatenate),
        "stack": _sequence_fn("stack", np.stack),
        "vstack": _sequence_fn("vstack", np.vstack),
        "hstack": _sequence_fn("hstack", np.hstack),
        "column_stack": _sequence_fn("column_stack", np.column_stack),
        "linspace": Builtin("numpy.linspace", _linspace),
        "meshgrid": Builtin("numpy.meshgrid", _meshgrid),
        "arange": Builtin("numpy.arange", _arange),
        "mean": _reduce("mean", np.mean),
        "sum": _reduce("sum", np.sum),
        "min": _reduce("min", np.min),
        "max": _reduce("max", np.max),
        "float64": Builtin("numpy.float64", lambda ctx, a, k: wrap(to_numpy(arg(a, 0)))),
        "float32": Builtin("numpy.float32", lambda ctx, a, k: wrap(to_numpy(arg(a, 0)))),
    }
    return members


# --- array members and operators --------------------------------------------------------------------


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
    if name in ("x", "y", "z") and array.ndim == 1 and array.size >= 3:
        return float(array["xyz".index(name)])
    methods: dict[str, Callable[[Args, Kwargs], Value]] = {
        "tolist": lambda a, k: array.tolist(),
        "copy": lambda a, k: wrap(array.copy()),
        "astype": lambda a, k: wrap(array.copy()),
        "flatten": lambda a, k: wrap(array.flatten()),
        "ravel": lambda a, k: wrap(array.ravel()),
        "transpose": lambda a, k: wrap(array.T),
        "mean": lambda a, k: wrap(array.mean(axis=int(a[0]) if a and is_number(a[0]) else None)),
        "sum": lambda a, k: wrap(array.sum(axis=int(a[0]) if a and is_number(a[0]) else None)),
        "min": lambda a, k: wrap(array.min()),
        "max": lambda a, k: wrap(array.max()),
        "dot": lambda a, k: array_binary("@", record, arg(a, 0)),
        "reshape": lambda a, k: _reshape(array, a),
        "item": lambda a, k: (
            wrap(array.item()) if array.size == 1 else Unknown("item of an array of many values")
        ),
    }
    method = methods.get(name)
    if method is None:
        return Unknown(f"ndarray.{name} is not modelled")
    return Builtin(f"ndarray.{name}", lambda c, a, k: method(a, k))


def _reshape(array: np.ndarray[Any, Any], args: Args) -> Value:
    shape = args[0] if len(args) == 1 and isinstance(args[0], list | tuple) else args
    if not all(is_number(n) for n in shape):
        return Unknown("reshape to a shape that cannot be known statically")
    try:
        return wrap(array.reshape(tuple(int(n) for n in shape)))
    except ValueError as error:
        return Unknown(f"reshape: {error}")


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": np.true_divide,
    "//": np.floor_divide,
    "%": np.mod,
    "**": np.power,
    "@": np.matmul,
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
}


def array_binary(op: str, left: Value, right: Value) -> Value:
    """numpy's operators when either side is an array; ``NotImplemented`` otherwise."""
    if not (is_array(left) or is_array(right)):
        return NotImplemented
    a, b = to_numpy(left), to_numpy(right)
    if isinstance(a, Unknown):
        return a
    if isinstance(b, Unknown):
        return b
    if op in ("==", "!="):
        same = a.shape == b.shape and bool(np.array_equal(a, b))
        return same if op == "==" else not same
    function = _OPERATORS.get(op)
    if function is None:
        return Unknown(f"operator {op} on arrays is not modelled")
    try:
        with np.errstate(all="ignore"):
            result = function(a, b)
    except ValueError as error:
        return Unknown(f"{op} of arrays: {error}")
    return wrap(result)


def array_unary(op: str, operand: Value) -> Value:
    if not is_array(operand):
        return NotImplemented
    if op == "-":
        return wrap(-np.asarray(operand.native))
    if op == "+":
        return wrap(np.asarray(operand.native))
    return Unknown(f"unary {op} of an array")


def _numpy_index(index: Value) -> Any:
    if isinstance(index, tuple):
        return tuple(_numpy_index(i) for i in index)
    if isinstance(index, slice) or (isinstance(index, int) and not isinstance(index, bool)):
        return index
    if index is None:
        return None
    if isinstance(index, float) and index.is_integer():
        return int(index)
    if is_array(index) and index.native.dtype == bool:
        return index.native
    raise TypeError(f"index {index!r}")


def array_get(record: Record, index: Value) -> Value:
    try:
        return wrap(np.asarray(record.native)[_numpy_index(index)])
    except (IndexError, TypeError, ValueError) as error:
        return Unknown(f"array index: {error}")


def array_set(ctx: CallContext, record: Record, index: Value, value: Value) -> None:
    source = to_numpy(value)
    if isinstance(source, Unknown):
        ctx.warning(
            "eval.unknown_value",
            f"array item set to a value that cannot be known statically ({source.reason}); left unchanged",
        )
        return
    try:
        record.native[_numpy_index(index)] = source
    except (IndexError, TypeError, ValueError) as error:
        ctx.warning("eval.bad_index", f"array item assignment fails ({error}); ignored")


def array_items(record: Record) -> Iterable[Value]:
    array = np.asarray(record.native)
    if array.ndim == 0:
        return iter(())
    return (wrap(row) for row in array)


_ARRAY_GETTERS = ("T", "shape", "ndim", "size", "x", "y", "z")
_ARRAY_METHODS = (
    "tolist",
    "copy",
    "astype",
    "flatten",
    "ravel",
    "transpose",
    "mean",
    "sum",
    "min",
    "max",
    "dot",
    "reshape",
    "item",
)


def register(engine: Engine) -> None:
    """Add the ``ndarray`` kind to an engine table whose scripts use numpy."""
    engine.add_kind(_array_kind())


@cache
def _array_kind() -> Kind:
    """The ``ndarray`` kind, built once: it holds nothing of a run, and an engine table is
    made per parse."""

    def getter(name: str) -> Callable[[CallContext, Record], Value]:
        return lambda ctx, record: array_member(ctx, record, name)

    def method(name: str) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        def call(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            bound = array_member(ctx, record, name)
            return bound.fn(ctx, args, kwargs) if isinstance(bound, Builtin) else bound

        return call

    return Kind(
        KIND,
        methods={n: method(n) for n in _ARRAY_METHODS},
        getters={n: getter(n) for n in _ARRAY_GETTERS},
    )
