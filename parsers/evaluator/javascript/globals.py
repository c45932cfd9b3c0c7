"""The global names of the JavaScript dialect: ``Math``, ``Object``, ``Array``, ``Number``,
``String``, ``Boolean``, ``parseFloat``/``parseInt``, ``isNaN``/``isFinite``, ``JSON``,
``Map``, ``Set``, the ``Error`` classes, ``console``, ``Infinity``, ``NaN`` and ``undefined``.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from parsers.evaluator.core.arguments import arg
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.engine import Kind
from parsers.evaluator.core.registry import BuiltinsByOwner
from parsers.evaluator.core.values import (
    UNDEFINED,
    Builtin,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    is_number,
)
from parsers.evaluator.javascript.keyed_collections import (
    fill_map,
    fill_set,
    json_stringify,
    object_get,
    object_keys,
    pair,
)
from parsers.evaluator.javascript.methods import TypedArray, dialect_of
from parsers.evaluator.javascript.numerics import (
    js_cbrt,
    js_hypot,
    js_pow,
    parse_float_text,
    parse_int_text,
)

if TYPE_CHECKING:
    from parsers.evaluator.javascript.lib import JavaScript

#: Standard global names the dialect does not model: each is an unknown (never undefined,
#: which ``typeof`` would silently tell a script).
UNMODELLED_GLOBALS = (
    "globalThis",
    "Symbol",
    "Promise",
    "Reflect",
    "Proxy",
    "WeakMap",
    "WeakSet",
    "WeakRef",
    "FinalizationRegistry",
    "Intl",
    "Date",
    "RegExp",
    "BigInt",
    "ArrayBuffer",
    "SharedArrayBuffer",
    "DataView",
    "Atomics",
    "Iterator",
    "AggregateError",
    "eval",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "structuredClone",
    "queueMicrotask",
)

#: The error classes a script can throw and extend, each with its base.
ERROR_CLASSES = {
    "Error": None,
    "TypeError": "Error",
    "RangeError": "Error",
    "SyntaxError": "Error",
    "ReferenceError": "Error",
    "EvalError": "Error",
    "URIError": "Error",
}


def _uint32(x: float) -> int:
    return int(x) & 0xFFFFFFFF if math.isfinite(x) else 0


def _log(fn: Callable[[float], float]) -> Callable[[float], float]:
    """A logarithm as JavaScript's: -Infinity at 0, NaN below."""

    def log(x: float) -> float:
        if x == 0:
            return -math.inf
        return fn(x) if x > 0 else math.nan

    return log


def _log1p(x: float) -> float:
    return -math.inf if x == -1 else math.log1p(x) if x > -1 else math.nan


def _atanh(x: float) -> float:
    return math.copysign(math.inf, x) if abs(x) == 1 else math.atanh(x)


def _extreme(numbers: list[float], largest: bool) -> float:
    """``Math.max``/``Math.min``: NaN if any is, and +0 above -0."""
    if any(math.isnan(n) for n in numbers):
        return math.nan
    if not numbers:
        return -math.inf if largest else math.inf
    best = numbers[0]
    for n in numbers[1:]:
        if ((n > best) if largest else (n < best)) or (
            n == best == 0 and (math.copysign(1.0, n) > 0) == largest
        ):
            best = n
    return best


def _fround(x: float) -> float:
    """A double stored as a single (Float32Array, Math.fround): beyond its range, infinite."""
    if not math.isfinite(x):
        return x
    try:
        return float(struct.unpack("f", struct.pack("f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def _wrapping(bits: int, signed: bool) -> Callable[[float], float]:
    """ToInt8, ToUint16...: the integer part, modulo 2**bits."""

    def convert(x: float) -> float:
        if not math.isfinite(x):
            return 0.0
        value = math.trunc(x) % (1 << bits)
        return float(value - (1 << bits) if signed and value >= 1 << (bits - 1) else value)

    return convert


def _clamped(x: float) -> float:
    """ToUint8Clamp: NaN is 0, the range 0..255, halves to even."""
    if math.isnan(x):
        return 0.0
    return float(round(min(255.0, max(0.0, x))))


#: How each typed array stores a number.
TYPED_ELEMENTS: dict[str, Callable[[float], float]] = {
    "Float32Array": _fround,
    "Float64Array": float,
    "Int8Array": _wrapping(8, True),
    "Uint8Array": _wrapping(8, False),
    "Uint8ClampedArray": _clamped,
    "Int16Array": _wrapping(16, True),
    "Uint16Array": _wrapping(16, False),
    "Int32Array": _wrapping(32, True),
    "Uint32Array": _wrapping(32, False),
}


_BUILTINS: Final = BuiltinsByOwner()

#: ``@js_builtin("Math", "min")``: the decorated function is that member of the namespace.
js_builtin = _BUILTINS.register
_registered = _BUILTINS.builtins


def _number_builtin(fn: Callable[..., float], arity: int = 1) -> Builtin:
    """A ``Math`` function of ``arity`` numbers, its arguments converted as JavaScript does."""

    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        js = dialect_of(ctx)
        values = []
        for i in range(arity):
            value = arg(args, i)
            if isinstance(value, Unknown):
                return value
            number = js.to_number(value)
            values.append(math.nan if number is None else number)
        try:
            return float(fn(*values))
        except OverflowError:
            # exp, cosh, sinh and expm1 overflow to an infinity of their argument's sign
            # (sinh's only is odd).
            return math.copysign(math.inf, values[0]) if fn is math.sinh else math.inf
        except (ValueError, ZeroDivisionError):
            return math.nan

    return Builtin(fn.__name__, call)


def _numbers_of(ctx: CallContext, args: list[Value]) -> list[float] | Unknown:
    js = dialect_of(ctx)
    numbers = []
    for value in args:
        if isinstance(value, Unknown):
            return value
        number = js.to_number(value)
        numbers.append(math.nan if number is None else number)
    return numbers


def _not_followed(name: str) -> Builtin:
    def call(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return Unknown(f"{name} is not followed", ctx.line)

    return Builtin(name, call)


# --- Math ---------------------------------------------------------------------------------------
def sign(x: float) -> float:
    return x if x == 0 or math.isnan(x) else math.copysign(1.0, x)


def trunc(x: float) -> float:
    return float(math.trunc(x)) if math.isfinite(x) else x


def floor(x: float) -> float:
    return float(math.floor(x)) if math.isfinite(x) else x


def ceil(x: float) -> float:
    return float(math.ceil(x)) if math.isfinite(x) else x


def js_round(x: float) -> float:
    if not math.isfinite(x):
        return x
    rounded = math.floor(x)
    if x - rounded >= 0.5:
        rounded += 1
    # A value in [-0.5, 0) rounds to -0.
    return math.copysign(float(rounded), x) if rounded == 0 else float(rounded)


def clz32(x: float) -> float:
    return float(32 - (int(x) & 0xFFFFFFFF).bit_length()) if math.isfinite(x) else 32.0


def imul(x: float, y: float) -> float:
    product = (_uint32(x) * _uint32(y)) & 0xFFFFFFFF
    return float(product - 0x100000000 if product >= 0x80000000 else product)


#: Math's functions of numbers: (name, function, arity).
_MATH_FUNCTIONS: Final[tuple[tuple[str, Callable[..., float], int], ...]] = (
    ("abs", abs, 1),
    ("sin", math.sin, 1),
    ("cos", math.cos, 1),
    ("tan", math.tan, 1),
    ("asin", math.asin, 1),
    ("acos", math.acos, 1),
    ("atan", math.atan, 1),
    ("atan2", math.atan2, 2),
    ("sinh", math.sinh, 1),
    ("cosh", math.cosh, 1),
    ("tanh", math.tanh, 1),
    ("sqrt", math.sqrt, 1),
    ("asinh", math.asinh, 1),
    ("acosh", math.acosh, 1),
    ("atanh", _atanh, 1),
    ("cbrt", js_cbrt, 1),
    ("exp", math.exp, 1),
    ("expm1", math.expm1, 1),
    ("log", _log(math.log), 1),
    ("log2", _log(math.log2), 1),
    ("log10", _log(math.log10), 1),
    ("log1p", _log1p, 1),
    ("fround", _fround, 1),
    ("clz32", clz32, 1),
    ("imul", imul, 2),
    ("floor", floor, 1),
    ("ceil", ceil, 1),
    ("round", js_round, 1),
    ("trunc", trunc, 1),
    ("sign", sign, 1),
    ("pow", js_pow, 2),
)

_MATH_CONSTANTS: Final[dict[str, Value]] = {
    "PI": math.pi,
    "E": math.e,
    "SQRT2": math.sqrt(2),
    "SQRT1_2": math.sqrt(0.5),
    "LN2": math.log(2),
    "LN10": math.log(10),
    "LOG2E": 1 / math.log(2),
    "LOG10E": 1 / math.log(10),
}


@js_builtin("Math", "hypot", name="hypot")
def hypot(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    numbers = _numbers_of(ctx, args)
    return numbers if isinstance(numbers, Unknown) else js_hypot(numbers)


@js_builtin("Math", "min", name="min")
def math_min(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    numbers = _numbers_of(ctx, args)
    return numbers if isinstance(numbers, Unknown) else float(_extreme(numbers, largest=False))


@js_builtin("Math", "max", name="max")
def math_max(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    numbers = _numbers_of(ctx, args)
    return numbers if isinstance(numbers, Unknown) else float(_extreme(numbers, largest=True))


@js_builtin("Math", "random", name="random")
def random(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return Unknown("Math.random() has no static value", ctx.line)


# --- Object -------------------------------------------------------------------------------------
@js_builtin("Object", "assign")
def object_assign(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    target = arg(args, 0)
    for source in args[1:]:
        keys = object_keys(source)
        pairs: list[tuple[str, Value]]
        if keys is not None:
            pairs = [(key, object_get(source, key)) for key in keys]
        elif isinstance(source, list | str):
            pairs = [(str(i), v) for i, v in enumerate(source)]
        elif isinstance(source, Unknown):
            return source
        else:
            continue  # null, undefined and numbers have no own properties
        for key, value in pairs:
            if isinstance(target, dict | list):
                js.set_index(ctx, target, key, value)
            else:
                ctx.set_member(target, key, value)
    return target


@js_builtin("Object", "keys", "getOwnPropertyNames")
def object_own_keys(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj = arg(args, 0)
    found = object_keys(obj)
    if found is not None:
        return found
    if isinstance(obj, list | str):
        return [str(i) for i in range(len(obj))]
    return Unknown("Object.keys of a value that is not an object")


@js_builtin("Object", "values")
def object_values(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj = arg(args, 0)
    found = object_keys(obj)
    if found is not None:
        return [object_get(obj, k) for k in found]
    if isinstance(obj, list | str):
        return list(obj)
    return Unknown("Object.values of a value that is not an object")


@js_builtin("Object", "entries")
def object_entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    obj = arg(args, 0)
    found = object_keys(obj)
    if found is not None:
        return [[k, object_get(obj, k)] for k in found]
    if isinstance(obj, list | str):
        return [[str(i), v] for i, v in enumerate(obj)]
    return Unknown("Object.entries of a value that is not an object")


@js_builtin("Object", "fromEntries")
def object_from_entries(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    items = js.iterate(arg(args, 0), "of")
    if items is None:
        return Unknown("Object.fromEntries of a value that cannot be known statically")
    result: dict[str, Value] = {}
    for item in items:
        key, value = pair(ctx, item)
        if isinstance(key, Unknown):
            return Unknown("Object.fromEntries with a key that cannot be known", ctx.line)
        result[js.to_string(key)] = value
    return result


@js_builtin("Object", "freeze")
def object_freeze(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    obj = arg(args, 0)
    if isinstance(obj, dict):
        js.frozen[id(obj)] = obj
    elif isinstance(obj, list | Record):
        ctx.warning("eval.unknown_value", "Object.freeze of an array or instance is not followed")
    return obj


@js_builtin("Object", "isFrozen")
def object_is_frozen(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    obj = arg(args, 0)
    if isinstance(obj, dict):
        return id(obj) in js.frozen or not obj
    return not isinstance(obj, list | Record)


@js_builtin("Object", "seal")
def object_seal(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return arg(args, 0)


@js_builtin("Object", "is")
def object_same_value(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    a, b = arg(args, 0), arg(args, 1)
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return Unknown("Object.is of a value that cannot be known")
    if is_number(a) and is_number(b):
        a, b = float(a), float(b)
        if math.isnan(a) and math.isnan(b):
            return True
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return js.equals(a, b)


@js_builtin("Object", "hasOwn")
def object_has_own(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    found = object_keys(arg(args, 0))
    if found is None:
        return Unknown("Object.hasOwn of a value that is not an object")
    return js.to_string(arg(args, 1)) in found


@js_builtin("Object", "defineProperty")
def object_define_property(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    obj, key, descriptor = arg(args, 0), arg(args, 1), arg(args, 2)
    if (
        isinstance(descriptor, dict)
        and "value" in descriptor
        and not ({"get", "set"} & descriptor.keys())
    ):
        ctx.set_member(obj, js.to_string(key), descriptor["value"])
    else:
        ctx.warning(
            "eval.unsupported",
            "Object.defineProperty with an accessor is not followed; the property is not set",
        )
    return obj


# --- Array and the typed arrays -----------------------------------------------------------------
@js_builtin("Array", "from")
def array_from(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
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


@js_builtin("Array", "isArray")
def array_is_array(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return isinstance(arg(args, 0), list)


@js_builtin("Array", "of")
def array_of(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return list(args)


def array_new(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if len(args) == 1 and is_number(args[0]):
        count = int(args[0])
        if count > ctx.interp.limits.max_collection or count < 0:
            return Unknown("an array too large to build")
        return [UNDEFINED] * count
    return list(args)


def _typed_array(name: str) -> EngineClass:
    """``new Float32Array(n | values)``: a plain array of numbers, each stored as the type
    stores it (a Float32Array rounds to single precision, an Int8Array wraps, a
    Uint8ClampedArray clamps)."""
    convert = TYPED_ELEMENTS[name]

    def build(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        js = dialect_of(ctx)
        source = arg(args, 0)
        if is_number(source):
            count = int(source)
            if count > ctx.interp.limits.max_collection or count < 0:
                return Unknown("an array too large to build")
            return TypedArray(name, convert, [0.0] * count)
        items = js.iterate(source, "of") if source is not UNDEFINED else iter(())
        if items is None:
            return Unknown(f"{name} of values that cannot be known statically")
        values: list[Value] = []
        for item in itertools.islice(items, ctx.interp.limits.max_collection):
            number = js.to_number(item)
            values.append(
                convert(number)
                if number is not None
                else Unknown(f"a {name} element that cannot be known")
            )
        return TypedArray(name, convert, values)

    cls = EngineClass(name, build)
    cls.static.update(
        {
            "from": Builtin(f"{name}.from", build),
            "of": Builtin(f"{name}.of", lambda c, a, k: build(c, [list(a)], k)),
        }
    )
    return cls


# --- Number and String --------------------------------------------------------------------------
def parse_float(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    value = arg(args, 0)
    if isinstance(value, Unknown):
        return value
    return parse_float_text(js.to_string(value))


def parse_int(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    value, radix = arg(args, 0), arg(args, 1)
    if isinstance(value, Unknown) or isinstance(radix, Unknown):
        return Unknown("parseInt of a value that cannot be known", ctx.line)
    base = 0 if radix is UNDEFINED else _int32_of(js.to_number(radix))
    return parse_int_text(js.to_string(value), base)


def to_number(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    value = arg(args, 0) if args else 0.0
    if isinstance(value, Unknown):
        return value
    number = js.to_number(value)
    return math.nan if number is None else number


def _number_test(name: str, test: Callable[[float], bool]) -> Builtin:
    return Builtin(name, lambda c, a, k: is_number(arg(a, 0)) and test(float(arg(a, 0))))


def to_string(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    value = arg(args, 0) if args else ""
    if isinstance(value, Unknown):
        return value
    text = js.format_value(value)
    return Unknown("a toString that cannot be known", ctx.line) if text is None else text


@js_builtin("String", "fromCharCode")
def from_char_code(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    codes = []
    for value in args:
        number = js.to_number(value)
        if number is None or isinstance(value, Unknown):
            return Unknown("String.fromCharCode of a value that cannot be known", ctx.line)
        codes.append(_uint32(number) & 0xFFFF)
    text = "".join(map(chr, codes))
    # Two UTF-16 halves of one character make that character.
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


# --- errors, Boolean, console, JSON and the global functions ------------------------------------
def _error_class(name: str) -> EngineClass:
    def build(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
        js = dialect_of(ctx)
        engine = ctx.interp.engine
        if name not in engine.kinds:
            # Error objects are records of these kinds (registered when the first is
            # made), so that ``instanceof Error`` holds for a TypeError and for a user
            # class extending Error.
            for kind, base in ERROR_CLASSES.items():
                if kind not in engine.kinds:
                    engine.add_kind(Kind(kind, base=base))
        message = arg(args, 0)
        text = "" if message is UNDEFINED else js.to_string(message)
        return Record(name, {"name": name, "message": text})

    return EngineClass(name, build)


@js_builtin("", "Boolean")
def to_boolean(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    truth = js.truthy(arg(args, 0))
    return Unknown("Boolean of an unknown value") if truth is None else truth


@js_builtin("", "isNaN")
def global_is_nan(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _number_check(dialect_of(ctx), arg(args, 0), math.isnan)


@js_builtin("", "isFinite")
def global_is_finite(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _number_check(dialect_of(ctx), arg(args, 0), math.isfinite)


def _nothing(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return UNDEFINED


@js_builtin("JSON", "stringify")
def stringify(ctx: CallContext, args: list[Value], kwargs: dict[str, Value]) -> Value:
    js = dialect_of(ctx)
    replacer, space = arg(args, 1), arg(args, 2)
    if replacer not in (UNDEFINED, None):
        return Unknown("JSON.stringify with a replacer is not followed", ctx.line)
    if is_number(space):
        gap = " " * max(0, min(10, int(space)))
    elif isinstance(space, str):
        gap = space[:10]
    else:
        gap = ""
    return json_stringify(ctx, js, arg(args, 0), gap)


@js_builtin("JSON", "parse")
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


def js_globals() -> dict[str, Value]:
    """The global names, assembled from the registered built-ins (``@js_builtin``)."""
    math_ns = Namespace(
        "Math",
        {
            **_MATH_CONSTANTS,
            **{name: _number_builtin(fn, arity) for name, fn, arity in _MATH_FUNCTIONS},
            **_registered("Math"),
        },
    )
    object_ns = Namespace(
        "Object",
        {
            **_registered("Object"),
            **{
                name: _not_followed(f"Object.{name}")
                for name in ("create", "getPrototypeOf", "setPrototypeOf")
            },
        },
    )
    array_cls = EngineClass("Array", lambda ctx, args, kwargs: array_new(ctx, args, kwargs))
    array_cls.static.update(_registered("Array"))
    typed_arrays = {name: _typed_array(name) for name in TYPED_ELEMENTS}
    number_cls = EngineClass("Number", lambda ctx, args, kwargs: to_number(ctx, args, kwargs))
    parse_float_fn = Builtin("parseFloat", parse_float)
    parse_int_fn = Builtin("parseInt", parse_int)
    number_cls.static.update(
        {
            "parseFloat": parse_float_fn,
            "parseInt": parse_int_fn,
            "isInteger": _number_test("isInteger", lambda x: math.isfinite(x) and x.is_integer()),
            "isSafeInteger": _number_test(
                "isSafeInteger",
                lambda x: math.isfinite(x) and x.is_integer() and abs(x) <= 2**53 - 1,
            ),
            "isFinite": _number_test("isFinite", math.isfinite),
            "isNaN": _number_test("isNaN", math.isnan),
            "EPSILON": 2.0**-52,
            "MAX_SAFE_INTEGER": 2.0**53 - 1,
            "MIN_SAFE_INTEGER": -(2.0**53 - 1),
            "MAX_VALUE": 1.7976931348623157e308,
            "MIN_VALUE": 5e-324,
            "POSITIVE_INFINITY": math.inf,
            "NEGATIVE_INFINITY": -math.inf,
            "NaN": math.nan,
        }
    )
    string_cls = EngineClass("String", lambda ctx, args, kwargs: to_string(ctx, args, kwargs))
    string_cls.static.update(
        {
            **_registered("String"),
            "raw": _not_followed("String.raw called as a function"),
        }
    )
    functions = _registered("")
    return {
        "Math": math_ns,
        "Object": object_ns,
        "Array": array_cls,
        **typed_arrays,
        "Number": number_cls,
        "String": string_cls,
        **{name: Unknown(f"{name} is not modelled") for name in UNMODELLED_GLOBALS},
        "Function": EngineClass("Function", _not_followed("new Function").fn),
        "Map": EngineClass(
            "Map", lambda ctx, args, kwargs: fill_map(ctx, dialect_of(ctx), arg(args, 0))
        ),
        "Set": EngineClass(
            "Set", lambda ctx, args, kwargs: fill_set(ctx, dialect_of(ctx), arg(args, 0))
        ),
        **{name: _error_class(name) for name in ERROR_CLASSES},
        "Boolean": functions["Boolean"],
        "parseFloat": parse_float_fn,
        "parseInt": parse_int_fn,
        "isNaN": functions["isNaN"],
        "isFinite": functions["isFinite"],
        "Infinity": math.inf,
        "NaN": math.nan,
        "undefined": UNDEFINED,
        "console": Namespace("console", missing=lambda name: Builtin(f"console.{name}", _nothing)),
        "JSON": Namespace("JSON", _registered("JSON")),
    }


def _int32_of(number: float | None) -> int:
    if number is None or not math.isfinite(number):
        return 0
    value = int(number) & 0xFFFFFFFF
    return value - 0x100000000 if value >= 0x80000000 else value


def _number_check(js: JavaScript, value: Value, test: Callable[[float], bool]) -> Value:
    """The global ``isNaN``/``isFinite``: the value converted to a number first."""
    if isinstance(value, Unknown):
        return value
    number = js.to_number(value)
    return test(math.nan if number is None else number)


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
