"""The global names of the JavaScript dialect: ``Math``, ``Object``, ``Array``, ``Number``,
``String``, ``Boolean``, ``parseFloat``/``parseInt``, ``isNaN``/``isFinite``, ``JSON``,
``console``, ``Infinity``, ``NaN`` and ``undefined``.
"""

from __future__ import annotations

import itertools
import math
import re
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parsers.evaluator.arguments import arg
from parsers.evaluator.context import CallContext
from parsers.evaluator.values import (
    UNDEFINED,
    Builtin,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
)

if TYPE_CHECKING:
    from parsers.evaluator.javascript_lib import JavaScript

_PARSE_FLOAT = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def js_globals(js: JavaScript) -> dict[str, Value]:
    def number_fn(fn: Callable[..., float], arity: int = 1) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            values = []
            for i in range(arity):
                value = arg(args, i)
                if isinstance(value, Unknown):
                    return value
                number = js.to_number(value)
                values.append(math.nan if number is None else number)
            try:
                return float(fn(*values))
            except (ValueError, OverflowError, ZeroDivisionError):
                return math.nan

        return Builtin(fn.__name__, call)

    def variadic(name: str, fn: Callable[[list[float]], float]) -> Builtin:
        def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            numbers = []
            for value in args:
                if isinstance(value, Unknown):
                    return value
                number = js.to_number(value)
                numbers.append(math.nan if number is None else number)
            if any(math.isnan(n) for n in numbers):
                return math.nan
            return float(fn(numbers))

        return Builtin(name, call)

    def random(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("Math.random() has no static value", ctx.line)

    def js_round(x: float) -> float:
        return math.floor(x + 0.5) if math.isfinite(x) else x

    def sign(x: float) -> float:
        return x if x == 0 or math.isnan(x) else math.copysign(1.0, x)

    def trunc(x: float) -> float:
        return float(math.trunc(x)) if math.isfinite(x) else x

    def floor(x: float) -> float:
        return float(math.floor(x)) if math.isfinite(x) else x

    def ceil(x: float) -> float:
        return float(math.ceil(x)) if math.isfinite(x) else x

    def cbrt(x: float) -> float:
        return math.copysign(abs(x) ** (1 / 3), x)

    def js_pow(x: float, y: float) -> float:
        try:
            return float(x**y)
        except OverflowError:
            return math.inf

    math_ns = Namespace(
        "Math",
        {
            "PI": math.pi,
            "E": math.e,
            "SQRT2": math.sqrt(2),
            "SQRT1_2": math.sqrt(0.5),
            "LN2": math.log(2),
            "LN10": math.log(10),
            "LOG2E": 1 / math.log(2),
            "LOG10E": 1 / math.log(10),
            "abs": number_fn(abs),
            "sin": number_fn(math.sin),
            "cos": number_fn(math.cos),
            "tan": number_fn(math.tan),
            "asin": number_fn(math.asin),
            "acos": number_fn(math.acos),
            "atan": number_fn(math.atan),
            "atan2": number_fn(math.atan2, 2),
            "sinh": number_fn(math.sinh),
            "cosh": number_fn(math.cosh),
            "tanh": number_fn(math.tanh),
            "sqrt": number_fn(math.sqrt),
            "cbrt": number_fn(cbrt),
            "exp": number_fn(math.exp),
            "log": number_fn(math.log),
            "log2": number_fn(math.log2),
            "log10": number_fn(math.log10),
            "floor": number_fn(floor),
            "ceil": number_fn(ceil),
            "round": number_fn(js_round),
            "trunc": number_fn(trunc),
            "sign": number_fn(sign),
            "pow": number_fn(js_pow, 2),
            "hypot": variadic("hypot", lambda xs: math.hypot(*xs)),
            "min": variadic("min", lambda xs: min(xs) if xs else math.inf),
            "max": variadic("max", lambda xs: max(xs) if xs else -math.inf),
            "random": Builtin("random", random),
        },
    )

    def assign(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        target = arg(args, 0)
        for source in args[1:]:
            items = (
                source.items()
                if isinstance(source, dict)
                else source.fields.items()
                if isinstance(source, Record)
                else ()
            )
            for key, value in list(items):
                if isinstance(target, dict):
                    target[key] = value
                else:
                    ctx.set_member(target, str(key), value)
        return target

    def keys(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = arg(args, 0)
        if isinstance(obj, dict):
            return [js.to_string(k) for k in obj]
        if isinstance(obj, list):
            return [str(i) for i in range(len(obj))]
        return Unknown("Object.keys of a value that is not an object")

    def values(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = arg(args, 0)
        if isinstance(obj, dict):
            return list(obj.values())
        if isinstance(obj, list):
            return list(obj)
        return Unknown("Object.values of a value that is not an object")

    def entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        obj = arg(args, 0)
        if isinstance(obj, dict):
            return [[js.to_string(k), v] for k, v in obj.items()]
        if isinstance(obj, list):
            return [[str(i), v] for i, v in enumerate(obj)]
        return Unknown("Object.entries of a value that is not an object")

    def from_entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        items = js.iterate(arg(args, 0), "of")
        result: dict[str, Value] = {}
        for item in items or ():
            if isinstance(item, list | tuple) and len(item) >= 2:
                result[js.to_string(item[0])] = item[1]
        return result

    def identity(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return arg(args, 0)

    object_ns = Namespace(
        "Object",
        {
            "assign": Builtin("Object.assign", assign),
            "keys": Builtin("Object.keys", keys),
            "values": Builtin("Object.values", values),
            "entries": Builtin("Object.entries", entries),
            "fromEntries": Builtin("Object.fromEntries", from_entries),
            "freeze": Builtin("Object.freeze", identity),
            "seal": Builtin("Object.seal", identity),
        },
    )

    def array_from(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        source = arg(args, 0)
        fn = arg(args, 1)
        items: list[Value]
        if isinstance(source, dict) and "length" in source:
            length = ctx.number(source["length"], "Array.from length", 0)
            count = int(length)
            if count > ctx.interp.limits.max_loop_iterations:
                ctx.warning(
                    "eval.loop_limit",
                    f"Array.from of {count} items cut to {ctx.interp.limits.max_loop_iterations}",
                )
                count = ctx.interp.limits.max_loop_iterations
            items = [UNDEFINED] * max(0, count)
        else:
            found = js.iterate(source, "of")
            if found is None:
                return Unknown("Array.from of a value that cannot be known statically")
            items = list(found)
        if fn is UNDEFINED:
            return items
        result = []
        for i, item in enumerate(items):
            ctx.interp.budget.step()
            result.append(ctx.call(fn, [item, float(i)]))
        return result

    def array_new(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if len(args) == 1 and is_number(args[0]):
            count = int(args[0])
            if count > ctx.interp.limits.max_collection or count < 0:
                return Unknown("an array too large to build")
            return [UNDEFINED] * count
        return list(args)

    array_cls = EngineClass("Array", lambda ctx, args, kwargs: array_new(ctx, args, kwargs))
    array_cls.static.update(
        {
            "from": Builtin("Array.from", array_from),
            "isArray": Builtin("Array.isArray", lambda c, a, k: isinstance(arg(a, 0), list)),
            "of": Builtin("Array.of", lambda c, a, k: list(a)),
        }
    )

    def typed_array(name: str) -> EngineClass:
        """``new Float32Array(n | values)``: a plain array of numbers, each stored as the type
        stores it (a Float32Array rounds to single precision, an Int32Array truncates)."""
        convert: Callable[[float], float] = {
            "Float32Array": lambda v: float(struct.unpack("f", struct.pack("f", v))[0]),
            "Float64Array": float,
        }.get(name, lambda v: float(math.trunc(v)) if math.isfinite(v) else 0.0)

        def build(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
            source = arg(args, 0)
            if is_number(source):
                count = int(source)
                if count > ctx.interp.limits.max_collection or count < 0:
                    return Unknown("an array too large to build")
                return [0.0] * count
            items = js.iterate(source, "of") if source is not UNDEFINED else iter(())
            if items is None:
                return Unknown(f"{name} of values that cannot be known statically")
            values: list[Value] = []
            for item in itertools.islice(items, ctx.interp.limits.max_collection):
                number = js.to_number(item)
                values.append(
                    convert(number)
                    if number is not None and math.isfinite(number)
                    else Unknown(f"a {name} element that is no number")
                )
            return values

        cls = EngineClass(name, build)
        cls.static.update(
            {
                "from": Builtin(f"{name}.from", build),
                "of": Builtin(f"{name}.of", lambda c, a, k: build(c, [list(a)], k)),
            }
        )
        return cls

    typed_arrays = {
        name: typed_array(name)
        for name in (
            "Float32Array",
            "Float64Array",
            "Int8Array",
            "Uint8Array",
            "Int16Array",
            "Uint16Array",
            "Int32Array",
            "Uint32Array",
        )
    }

    def parse_float(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        if isinstance(value, Unknown) or is_number(value):
            return value
        match = _PARSE_FLOAT.match(js.to_string(value))
        return float(match.group(0)) if match else math.nan

    def parse_int(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = parse_float(ctx, args, kwargs)
        return float(math.trunc(value)) if is_number(value) and math.isfinite(value) else value

    def to_number(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        if isinstance(value, Unknown):
            return value
        number = js.to_number(value)
        return math.nan if number is None else number

    number_cls = EngineClass("Number", lambda ctx, args, kwargs: to_number(ctx, args, kwargs))
    number_cls.static.update(
        {
            "parseFloat": Builtin("parseFloat", parse_float),
            "parseInt": Builtin("parseInt", parse_int),
            "isInteger": Builtin(
                "isInteger",
                lambda c, a, k: is_number(arg(a, 0)) and float(arg(a, 0)).is_integer(),
            ),
            "isFinite": Builtin(
                "isFinite", lambda c, a, k: is_number(arg(a, 0)) and math.isfinite(arg(a, 0))
            ),
            "EPSILON": 2.0**-52,
            "MAX_SAFE_INTEGER": 2.0**53 - 1,
        }
    )

    def to_string(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = arg(args, 0)
        return value if isinstance(value, Unknown) else js.to_string(value)

    def to_boolean(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        truth = js.truthy(arg(args, 0))
        return Unknown("Boolean of an unknown value") if truth is None else truth

    def nothing(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return UNDEFINED

    console = Namespace("console", missing=lambda name: Builtin(f"console.{name}", nothing))

    def stringify(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown("JSON.stringify is not followed")

    def json_parse(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        import json

        text = arg(args, 0)
        if not isinstance(text, str):
            return Unknown("JSON.parse of an unknown text")
        try:
            data = json.loads(text)
        except ValueError:
            return Unknown("JSON.parse of invalid JSON")
        return _from_json(data)

    return {
        "Math": math_ns,
        "Object": object_ns,
        "Array": array_cls,
        **typed_arrays,
        "Number": number_cls,
        "String": Builtin("String", to_string),
        "Boolean": Builtin("Boolean", to_boolean),
        "parseFloat": Builtin("parseFloat", parse_float),
        "parseInt": Builtin("parseInt", parse_int),
        "isNaN": Builtin(
            "isNaN",
            lambda c, a, k: (
                math.isnan(js.to_number(arg(a, 0)) or 0.0)
                if not isinstance(arg(a, 0), Unknown)
                else arg(a, 0)
            ),
        ),
        "isFinite": Builtin(
            "isFinite", lambda c, a, k: math.isfinite(js.to_number(arg(a, 0)) or math.nan)
        ),
        "Infinity": math.inf,
        "NaN": math.nan,
        "undefined": UNDEFINED,
        "console": console,
        "JSON": Namespace(
            "JSON",
            {
                "stringify": Builtin("JSON.stringify", stringify),
                "parse": Builtin("JSON.parse", json_parse),
            },
        ),
    }


def _from_json(data: Any) -> Value:
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    if isinstance(data, int | float):
        return float(data)
    if isinstance(data, list):
        return [_from_json(v) for v in data]
    if isinstance(data, dict):
        return {str(k): _from_json(v) for k, v in data.items()}
    return Unknown("unsupported JSON value")
