"""JavaScript's objects as collections: the order of an object's keys (array indices first,
ascending, then the other keys as added), ``Map`` and ``Set`` (keys compared as
SameValueZero, insertion order), and ``JSON.stringify``.

An object literal is a Python ``dict`` and keeps insertion order; ``own_keys`` gives the order
JavaScript enumerates (``Object.keys``, ``for-in``, ``JSON.stringify``). A user class instance
is a ``Record`` whose fields are its own properties (``#private`` ones never enumerate).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    EngineClass,
    Record,
    Unknown,
    Value,
    is_number,
)

if TYPE_CHECKING:
    from parsers.evaluator.javascript.lib import JavaScript

#: Nesting past which ``JSON.stringify`` gives up (a cycle throws in JavaScript).
_JSON_DEPTH = 64


def _is_index(key: str) -> bool:
    return key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1


def own_keys(keys: Iterable[str]) -> list[str]:
    """Keys in JavaScript's order: array indices ascending, then the rest as added."""
    keys = list(keys)
    indices = [k for k in keys if k[:1].isdigit() and _is_index(k)]
    if not indices:
        return keys
    return sorted(indices, key=int) + [k for k in keys if not (k[:1].isdigit() and _is_index(k))]


def object_keys(value: Value) -> list[str] | None:
    """The own enumerable keys of an object literal or a user class instance, in order;
    None for anything else."""
    if isinstance(value, dict):
        return own_keys(str(k) for k in value)
    if isinstance(value, Record) and not value.kind:
        return own_keys(k for k in value.fields if not k.startswith("#"))
    return None


def object_get(value: dict[str, Value] | Record, key: str) -> Value:
    return (
        value.get(key, UNDEFINED) if isinstance(value, dict) else value.fields.get(key, UNDEFINED)
    )


def key_token(value: Value) -> Hashable:
    """What decides whether two keys of a Map or Set are the same (SameValueZero): numbers by
    value (NaN equal to itself, -0 to 0), strings by text, objects by identity."""
    if value is True or value is False:
        return ("boolean", value)
    if is_number(value):
        number = float(value)
        return ("number", "NaN") if math.isnan(number) else ("number", number + 0.0)
    if isinstance(value, str):
        return ("string", value)
    if value is None or value is UNDEFINED:
        return (repr(value),)
    return ("object", id(value))


class JsMap:
    """A ``Map``: entries by key token, in insertion order (each entry holds its key, so an
    object key stays alive and its identity unique)."""

    __slots__ = ("entries", "unknown")

    def __init__(self) -> None:
        self.entries: dict[Hashable, tuple[Value, Value]] = {}
        #: Why the map's content cannot be known (a key that could not be), else None.
        self.unknown: str | None = None


class JsSet:
    """A ``Set``: values by key token, in insertion order."""

    __slots__ = ("entries", "unknown")

    def __init__(self) -> None:
        self.entries: dict[Hashable, Value] = {}
        self.unknown: str | None = None


def _taint(ctx: CallContext, collection: JsMap | JsSet, key: Unknown) -> None:
    if collection.unknown is None:
        kind = "Map" if isinstance(collection, JsMap) else "Set"
        ctx.warning(
            "eval.unknown_value",
            f"a {kind} key cannot be known statically ({key.reason}); the {kind} is no longer followed",
        )
        collection.unknown = key.reason


def pair(ctx: CallContext, item: Value) -> tuple[Value, Value]:
    """The first two elements of an entry ``[key, value]``."""
    if isinstance(item, list | tuple):
        return (
            item[0] if len(item) > 0 else UNDEFINED,
            item[1] if len(item) > 1 else UNDEFINED,
        )
    if isinstance(item, Unknown):
        return item, item
    return ctx.member(item, "0"), ctx.member(item, "1")


def fill_map(ctx: CallContext, js: JavaScript, source: Value) -> Value:
    """``new Map(source)``: a map of the [key, value] pairs ``source`` iterates."""
    made = JsMap()
    if source is UNDEFINED or source is None:
        return made
    items = js.iterate(source, "of")
    if items is None:
        return Unknown("a Map of values that cannot be known statically", ctx.line)
    for item in items:
        key, value = pair(ctx, item)
        if isinstance(key, Unknown):
            _taint(ctx, made, key)
        else:
            made.entries[key_token(key)] = (key, value)
    return made


def fill_set(ctx: CallContext, js: JavaScript, source: Value) -> Value:
    """``new Set(source)``: the distinct values ``source`` iterates."""
    made = JsSet()
    if source is UNDEFINED or source is None:
        return made
    items = js.iterate(source, "of")
    if items is None:
        return Unknown("a Set of values that cannot be known statically", ctx.line)
    for value in items:
        if isinstance(value, Unknown):
            _taint(ctx, made, value)
        else:
            made.entries.setdefault(key_token(value), value)
    return made


def map_member(js: JavaScript, target: JsMap, name: str) -> Value:
    """A member of a Map: ``size`` or a method bound to it."""
    if target.unknown is not None:
        return Unknown(f"a Map that is no longer followed ({target.unknown})")
    if name == "size":
        return float(len(target.entries))
    method = js.map_methods.get(name)
    return BoundMethod(target, method) if method is not None else UNDEFINED


def set_member(js: JavaScript, target: JsSet, name: str) -> Value:
    """A member of a Set: ``size`` or a method bound to it."""
    if target.unknown is not None:
        return Unknown(f"a Set that is no longer followed ({target.unknown})")
    if name == "size":
        return float(len(target.entries))
    method = js.set_methods.get(name)
    return BoundMethod(target, method) if method is not None else UNDEFINED


def map_methods() -> dict[str, Builtin]:
    from parsers.evaluator.javascript.methods import JsIterator

    def key(ctx: CallContext, target: JsMap, args: list[Value]) -> Hashable | None:
        value = args[0] if args else UNDEFINED
        if isinstance(value, Unknown):
            return None
        return key_token(value)

    def get(ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]) -> Value:
        token = key(ctx, target, args)
        if token is None:
            return Unknown("a Map read with a key that cannot be known")
        entry = target.entries.get(token)
        return UNDEFINED if entry is None else entry[1]

    def set_(ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = args[1] if len(args) > 1 else UNDEFINED
        token = key(ctx, target, args)
        if token is None:
            _taint(ctx, target, args[0])
            return target
        target.entries[token] = (args[0] if args else UNDEFINED, value)
        return target

    def has(ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]) -> Value:
        token = key(ctx, target, args)
        return (
            Unknown("a Map key that cannot be known") if token is None else token in target.entries
        )

    def delete(
        ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        token = key(ctx, target, args)
        if token is None:
            _taint(ctx, target, args[0])
            return Unknown("a Map key that cannot be known")
        return target.entries.pop(token, None) is not None

    def clear(
        ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        target.entries.clear()
        return UNDEFINED

    def for_each(
        ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        fn = args[0] if args else UNDEFINED
        for count, (k, v) in enumerate(list(target.entries.values())):
            if count >= ctx.interp.limits.max_loop_iterations:
                ctx.warning("eval.loop_limit", "Map.forEach stopped at the loop cap")
                break
            ctx.interp.budget.step()
            ctx.call(fn, [v, k, target])
        return UNDEFINED

    def keys(ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return JsIterator([k for k, _ in target.entries.values()])

    def values(
        ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        return JsIterator([v for _, v in target.entries.values()])

    def entries(
        ctx: CallContext, target: JsMap, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        return JsIterator([[k, v] for k, v in target.entries.values()])

    table = {
        "get": get,
        "set": set_,
        "has": has,
        "delete": delete,
        "clear": clear,
        "forEach": for_each,
        "keys": keys,
        "values": values,
        "entries": entries,
    }
    return {name: Builtin(f"Map.{name}", fn) for name, fn in table.items()}


def set_methods() -> dict[str, Builtin]:
    from parsers.evaluator.javascript.methods import JsIterator

    def add(ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = args[0] if args else UNDEFINED
        if isinstance(value, Unknown):
            _taint(ctx, target, value)
        else:
            target.entries.setdefault(key_token(value), value)
        return target

    def has(ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]) -> Value:
        value = args[0] if args else UNDEFINED
        if isinstance(value, Unknown):
            return value
        return key_token(value) in target.entries

    def delete(
        ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        value = args[0] if args else UNDEFINED
        if isinstance(value, Unknown):
            _taint(ctx, target, value)
            return value
        return target.entries.pop(key_token(value), None) is not None

    def clear(
        ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        target.entries.clear()
        return UNDEFINED

    def for_each(
        ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        fn = args[0] if args else UNDEFINED
        for count, value in enumerate(list(target.entries.values())):
            if count >= ctx.interp.limits.max_loop_iterations:
                ctx.warning("eval.loop_limit", "Set.forEach stopped at the loop cap")
                break
            ctx.interp.budget.step()
            ctx.call(fn, [value, value, target])
        return UNDEFINED

    def values(
        ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        return JsIterator(list(target.entries.values()))

    def entries(
        ctx: CallContext, target: JsSet, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        return JsIterator([[v, v] for v in target.entries.values()])

    table = {
        "add": add,
        "has": has,
        "delete": delete,
        "clear": clear,
        "forEach": for_each,
        "values": values,
        "keys": values,
        "entries": entries,
    }
    return {name: Builtin(f"Set.{name}", fn) for name, fn in table.items()}


def _quote(text: str) -> str:
    out = ['"']
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char < " ":
            out.append(
                {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(
                    char, f"\\u{ord(char):04x}"
                )
            )
        elif "\ud800" <= char <= "\udfff":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


class _NotFollowed(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def json_stringify(ctx: CallContext, js: JavaScript, value: Value, gap: str) -> Value:
    """``JSON.stringify(value, null, space)`` with ``gap`` the indentation the space gives:
    the text, ``undefined`` for a value JSON leaves out, or an unknown saying why not."""
    try:
        text = _json(ctx, js, value, "", gap, "", 0)
    except _NotFollowed as stop:
        return Unknown(stop.reason, ctx.line)
    return UNDEFINED if text is None else text


def _json(
    ctx: CallContext, js: JavaScript, value: Value, key: str, gap: str, indent: str, depth: int
) -> str | None:
    if depth > _JSON_DEPTH:
        raise _NotFollowed("JSON.stringify of a structure too deep (or circular) to follow")
    if isinstance(value, Unknown):
        raise _NotFollowed(value.reason)
    to_json = None
    if isinstance(value, dict):
        to_json = value.get("toJSON")
    elif isinstance(value, Record) and value.cls is not None:
        found = value.cls.find_method("toJSON")
        if found is not None:
            fn, home = found
            to_json = BoundMethod(value, Closure(fn, home.env, home))
    if isinstance(to_json, Closure | BoundMethod | Builtin):
        value = ctx.interp.call_value(to_json, [key], {}, ctx.line, ctx.col, value)
        if isinstance(value, Unknown):
            raise _NotFollowed(value.reason)
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if is_number(value):
        return js.to_string(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return _quote(value)
    if value is UNDEFINED or isinstance(
        value, Closure | Builtin | BoundMethod | ClassValue | EngineClass
    ):
        return None
    inner = indent + gap
    if isinstance(value, list | tuple):
        parts = [
            _json(ctx, js, item, str(i), gap, inner, depth + 1) or "null"
            for i, item in enumerate(value)
        ]
        return _wrap("[", "]", parts, gap, indent, inner)
    keys = object_keys(value)
    if keys is None:
        if isinstance(value, JsMap | JsSet):
            return "{}"
        raise _NotFollowed(f"JSON.stringify of a {type(value).__name__} is not followed")
    colon = ": " if gap else ":"
    parts = []
    for name in keys:
        text = _json(ctx, js, object_get(value, name), name, gap, inner, depth + 1)
        if text is not None:
            parts.append(_quote(name) + colon + text)
    return _wrap("{", "}", parts, gap, indent, inner)


def _wrap(open_: str, close: str, parts: list[str], gap: str, indent: str, inner: str) -> str:
    if not parts:
        return open_ + close
    if not gap:
        return open_ + ",".join(parts) + close
    return f"{open_}\n{inner}" + f",\n{inner}".join(parts) + f"\n{indent}{close}"
