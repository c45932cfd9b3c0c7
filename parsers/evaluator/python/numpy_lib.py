"""numpy for Python scene scripts (Open3D, and Blender scripts that import it).

Arrays are ``Record("ndarray", native=numpy.ndarray)`` keeping numpy's own dtype (an array of
ints stays ints, as ``np.array([1, 2, 3])`` does); what a script does with them (literals,
``zeros``/``eye``/``arange``, trigonometry, reductions by axis, slicing, masks, index lists,
assignment through each, in-place operators, broadcasting, ``@``, ``linalg``) runs on real
numpy, so the numbers and the text of arrays are numpy's. A scalar numpy gives is a Python
``int``/``bool``, or a ``numpy.float64`` (a ``float``, which ``round()`` treats as numpy does);
a slice is a view of its array, as in numpy.
Arrays are capped in size; anything that cannot be known becomes an ``Unknown`` with the reason.

Engines read arrays with ``to_numpy`` (floats); ``numpy_functions`` holds the ``numpy``
namespace and the arrays' methods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, TypeGuard

import numpy as np

from parsers.evaluator.core.arguments import Args, Kwargs
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.engine import Engine, Kind
from parsers.evaluator.core.values import (
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
    """A numpy result as an evaluator value: arrays as records, scalars as Python numbers
    (floats as ``numpy.float64``)."""
    if isinstance(result, np.ndarray):
        if result.ndim == 0:
            return _scalar(result[()])
        if result.size > MAX_ELEMENTS:
            return Unknown("an array too large to build")
        # No copy: a slice of an array is a view of it, as in numpy (``row = a[0]; row += 1``
        # changes ``a``).
        kind = result.dtype.kind
        if kind == "b":
            return Record(KIND, native=result)
        if kind in "iu":
            return Record(KIND, native=np.asarray(result, dtype=np.int64))
        if kind == "f":
            return Record(KIND, native=np.asarray(result, dtype=np.float64))
        return Unknown(f"an array of {result.dtype} is not modelled")
    if isinstance(result, np.generic):
        return _scalar(result)
    if isinstance(result, tuple):
        return tuple(wrap(r) for r in result)
    if isinstance(result, list):
        return [wrap(r) for r in result]
    return result


def _scalar(value: Any) -> Value:
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer | int):
        return int(value)
    if isinstance(value, np.floating | float):
        return np.float64(value)
    return Unknown("a value numpy gives that is not a number")


def to_numpy(
    value: Value, depth: int = 0, *, natural: bool = False
) -> np.ndarray[Any, Any] | Unknown:
    """A value as a numpy array (numbers, nested lists or tuples, arrays, vector records):
    of floats, or with ``natural`` of the dtype numpy would give it (ints stay ints)."""
    if is_array(value):
        array = np.asarray(value.native)
        return array if natural else array.astype(float, copy=False)
    if (
        isinstance(value, Record)
        and isinstance(value.native, list)
        and all(is_number(v) for v in value.native)
    ):
        return np.asarray(value.native, dtype=float)
    if isinstance(value, bool) or is_number(value):
        return np.asarray(value) if natural else np.asarray(float(value))
    if isinstance(value, Unknown):
        return value
    if isinstance(value, list | tuple) and depth < 8:
        if len(value) > MAX_ELEMENTS:
            return Unknown("an array too large to build")
        if all(isinstance(v, int | float) for v in value):
            # A flat list of numbers: read in one step, as numpy reads it.
            return np.asarray(value) if natural else np.asarray(value, dtype=float)
        parts = [to_numpy(v, depth + 1, natural=natural) for v in value]
        for part in parts:
            if isinstance(part, Unknown):
                return part
        try:
            return np.asarray(parts) if natural else np.asarray(parts, dtype=float)
        except ValueError:
            return Unknown("a ragged list is not an array of numbers")
    return Unknown(f"a {type_name(value)} is not an array of numbers")


_OPERATORS: dict[str, np.ufunc] = {
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
    "==": np.equal,
    "!=": np.not_equal,
    "&": np.bitwise_and,
    "|": np.bitwise_or,
    "^": np.bitwise_xor,
}


def array_binary(op: str, left: Value, right: Value) -> Value:
    """numpy's operators when either side is an array; ``NotImplemented`` otherwise."""
    if not (is_array(left) or is_array(right)):
        return NotImplemented
    if op in ("is", "is not"):
        return NotImplemented
    a, b = to_numpy(left, natural=True), to_numpy(right, natural=True)
    if isinstance(a, Unknown):
        return a
    if isinstance(b, Unknown):
        return b
    if op in ("in", "not in"):
        found = bool((b == a).any())
        return found if op == "in" else not found
    function = _OPERATORS.get(op)
    if function is None:
        return Unknown(f"operator {op} on arrays is not modelled")
    try:
        with np.errstate(all="ignore"):
            result = function(a, b)
    except (ValueError, TypeError) as error:
        return Unknown(f"{op} of arrays: {error}")
    return wrap(result)


def array_in_place(op: str, record: Record, value: Value) -> Value:
    """``array op= value``: the array itself changed (every alias sees it), as numpy does."""
    function = _OPERATORS.get(op)
    other = to_numpy(value, natural=True)
    if isinstance(other, Unknown):
        return other
    if function is None or op in ("@", "<", "<=", ">", ">=", "==", "!="):
        return array_binary(op, record, value)
    try:
        with np.errstate(all="ignore"):
            function(record.native, other, out=record.native, casting="same_kind")
    except (ValueError, TypeError) as error:
        return Unknown(f"{op}= of arrays: {error}")
    return record


def array_unary(op: str, operand: Value) -> Value:
    if not is_array(operand):
        return NotImplemented
    array = np.asarray(operand.native)
    if op == "-":
        return wrap(-array)
    if op == "+":
        return wrap(+array)
    if op == "~" and array.dtype.kind in "biu":
        return wrap(~array)
    if op == "not":
        return (
            not bool(array.ravel()[0])
            if array.size == 1
            else Unknown("the truth of an array of many values is ambiguous")
        )
    return Unknown(f"unary {op} of an array")


def _numpy_index(index: Value) -> Any:
    if isinstance(index, tuple):
        return tuple(_numpy_index(i) for i in index)
    if isinstance(index, slice) or (isinstance(index, int) and not isinstance(index, bool)):
        return index
    if index is None:
        return None
    if isinstance(index, float) and index.is_integer() and not isinstance(index, np.floating):
        raise TypeError("only integers, slices, arrays of booleans or integers are indices")
    if is_array(index) and index.native.dtype.kind in "biu":
        return index.native
    if isinstance(index, list) and all(isinstance(i, int) for i in index):
        return np.asarray(
            index, dtype=np.int64 if not all(isinstance(i, bool) for i in index) else bool
        )
    raise TypeError(f"index {index!r}")


def array_get(record: Record, index: Value) -> Value:
    try:
        return wrap(np.asarray(record.native)[_numpy_index(index)])
    except (IndexError, TypeError, ValueError) as error:
        return Unknown(f"array index: {error}")


def array_set(ctx: CallContext, record: Record, index: Value, value: Value) -> None:
    source = to_numpy(value, natural=True)
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


def numpy_module() -> Namespace:
    """The ``numpy`` namespace scripts import as ``np``. A script may assign into it: each
    run gets its own namespaces, over built-ins made once."""
    from parsers.evaluator.python.numpy_functions import linalg_functions, numpy_functions

    members = dict(numpy_functions())
    members["linalg"] = Namespace("numpy.linalg", dict(linalg_functions()))
    members["random"] = Namespace(
        "numpy.random",
        missing=lambda name: Builtin(
            f"numpy.random.{name}",
            lambda ctx, a, k: Unknown("a random number has no static value", ctx.line),
        ),
    )
    return Namespace("numpy", members)


def register(engine: Engine) -> None:
    """Add the ``ndarray`` kind to an engine table whose scripts use numpy."""
    engine.add_kind(_array_kind())


@cache
def _array_kind() -> Kind:
    """The ``ndarray`` kind, built once: it holds nothing of a run, and an engine table is
    made per parse."""
    from parsers.evaluator.python.numpy_functions import ARRAY_GETTERS, ARRAY_METHODS, array_member

    def getter(name: str) -> Callable[[CallContext, Record], Value]:
        return lambda ctx, record: array_member(ctx, record, name)

    def method(name: str) -> Callable[[CallContext, Record, Args, Kwargs], Value]:
        def call(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
            bound = array_member(ctx, record, name)
            return bound.fn(ctx, args, kwargs) if isinstance(bound, Builtin) else bound

        return call

    return Kind(
        KIND,
        methods={n: method(n) for n in ARRAY_METHODS},
        getters={n: getter(n) for n in ARRAY_GETTERS},
    )
