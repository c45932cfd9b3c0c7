"""Python's classes beyond what the core's classes do: the built-in exceptions, dataclasses and
named tuples (their fields, text, equality and order), enums (members made when the class is
defined, looked up by value when it is called), and what a class or an instance answers without
writing it (``__class__``, ``__name__``, ``__dict__``, ``_replace``, ``_fields``).

A class carries what it is as static markers the front end or these helpers set:
``%fields`` (a dataclass's or named tuple's field names, in order), ``%dataclass`` (its options:
``eq``, ``order``, ``frozen``), ``%namedtuple``, ``%enum`` (on ``Enum`` and its kin: the kind of
enum), ``%members`` (an enum's members by name) and ``%exception`` (on ``BaseException``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import ThrowSignal
from parsers.evaluator.core.scope import Scope
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
)

#: The built-in exceptions scripts raise and catch, each with its base.
EXCEPTIONS: dict[str, str | None] = {
    "BaseException": None,
    "Exception": "BaseException",
    "ArithmeticError": "Exception",
    "ZeroDivisionError": "ArithmeticError",
    "OverflowError": "ArithmeticError",
    "LookupError": "Exception",
    "KeyError": "LookupError",
    "IndexError": "LookupError",
    "ValueError": "Exception",
    "TypeError": "Exception",
    "AttributeError": "Exception",
    "NameError": "Exception",
    "RuntimeError": "Exception",
    "NotImplementedError": "RuntimeError",
    "RecursionError": "RuntimeError",
    "StopIteration": "Exception",
    "AssertionError": "Exception",
    "ImportError": "Exception",
    "ModuleNotFoundError": "ImportError",
    "OSError": "Exception",
    "FileNotFoundError": "OSError",
    "KeyboardInterrupt": "BaseException",
    "SystemExit": "BaseException",
}


def _exception_init() -> ir.FunctionExpr:
    """``def __init__(self, *args): self.args = args``."""
    self_name, args = ir.Name(0, 0, "self"), ir.Name(0, 0, "args")
    store = ir.Assign(0, 0, ir.Member(0, 0, self_name, "args"), None, ir.Name(0, 0, "args"))
    return ir.FunctionExpr(
        0,
        0,
        "__init__",
        (ir.Param(0, 0, self_name), ir.Param(0, 0, args, None, "rest")),
        ir.Block(0, 0, (ir.ExprStmt(0, 0, store),), scoped=False),
    )


_INIT = _exception_init()


class ExceptionClasses(dict[str, ClassValue]):
    """The built-in exception classes of one run (a class is a mutable value), each made when
    it is first named or raised, with its bases."""

    def __missing__(self, name: str) -> ClassValue:
        if name not in EXCEPTIONS:
            raise KeyError(name)
        base = EXCEPTIONS[name]
        cls = ClassValue(name, self[base] if base else None, Scope(None), explicit_self=True)
        cls.static["__name__"] = name
        if base is None:
            cls.constructor = _INIT
            cls.static["%exception"] = True
        self[name] = cls
        return cls


def exception(ctx: CallContext, name: str, *args: Value) -> Record:
    """An instance of the built-in exception ``name`` with ``args``."""
    dialect = ctx.interp.dialect
    classes = getattr(dialect, "exceptions", None)
    cls = classes[name] if isinstance(classes, ExceptionClasses) else None
    return Record("", {"args": tuple(args)}, cls=cls)


def raise_error(ctx: CallContext, name: str, *args: Value) -> NoReturn:
    """Raise Python's ``name(*args)`` in the script, where the built-in was called."""
    raise ThrowSignal(exception(ctx, name, *args), ctx.line)


def unhashable(ctx: CallContext, values: Iterable[Value], error: TypeError) -> Unknown:
    """What a failed hash gives: objects (which CPython hashes by identity, and the reader
    does not) are reported and the result is unknown; for anything else (a list as a key) the
    script gets CPython's ``TypeError``."""
    if any(_holds_object(v) for v in values):
        ctx.warning(
            "eval.unhashable_object",
            "objects as dict keys or set items are not modelled; the result is unknown",
        )
        return Unknown("a set or dict of objects", ctx.line)
    raise_error(ctx, "TypeError", str(error))


def _holds_object(value: Value, depth: int = 0) -> bool:
    if isinstance(value, Record):
        return True
    if isinstance(value, tuple) and depth < 8:
        return any(_holds_object(v, depth + 1) for v in value)
    return False


def subclass_of(cls: Value, base: ClassValue) -> bool:
    current = cls
    while isinstance(current, ClassValue):
        if current is base:
            return True
        current = current.base
    return False


def marker(cls: ClassValue | None, key: str) -> Value:
    """The static marker ``key`` of ``cls`` or a base; None when none has it."""
    found = cls.find_static(key) if cls is not None else None
    return None if found is None else found[0]


def is_exception(value: Value) -> bool:
    return isinstance(value, Record) and marker(value.cls, "%exception") is True


def fields_of(record: Record) -> tuple[str, ...] | None:
    """The fields of a dataclass or named tuple instance, in order."""
    names = marker(record.cls, "%fields")
    return names if isinstance(names, tuple) else None


def namedtuple_values(record: Record) -> tuple[Value, ...] | None:
    """A named tuple instance as the tuple it is."""
    if marker(record.cls, "%namedtuple") is not True:
        return None
    names = fields_of(record) or ()
    return tuple(record.fields.get(name, UNDEFINED) for name in names)


def dataclass_option(record: Record, option: str) -> bool:
    options = marker(record.cls, "%dataclass")
    if not isinstance(options, dict):
        return False
    return bool(options.get(option, option in ("eq", "repr", "init")))


# --- enums ------------------------------------------------------------------------------------------


class Auto:
    """What ``enum.auto()`` gives: a member's value chosen when the class is made."""

    __slots__ = ()


def enum_kind(cls: ClassValue | None) -> str | None:
    """``"Enum"``, ``"IntEnum"``, ``"StrEnum"`` or ``"Flag"`` for an enum class (or a member's
    class); None for any other class."""
    kind = marker(cls, "%enum")
    return kind if isinstance(kind, str) else None


def enum_base(kind: str) -> ClassValue:
    """``enum.Enum`` (or ``IntEnum``...): a class whose subclasses are enums."""
    cls = ClassValue(kind, None, Scope(None), explicit_self=True)
    cls.static["%enum"] = kind
    cls.static["__name__"] = kind
    return cls


def make_members(cls: ClassValue) -> None:
    """Turn the plain class attributes of an enum class into its members."""
    kind = enum_kind(cls)
    members: dict[str, Record] = {}
    last = 0
    for name, value in list(cls.static.items()):
        if name.startswith("_") or name.startswith("%") or isinstance(value, Closure | Builtin):
            continue
        if isinstance(value, Auto):
            value = last + 1 if kind != "StrEnum" else name.lower()
        if isinstance(value, int) and not isinstance(value, bool):
            last = value
        alias = next((m for m in members.values() if m.fields["value"] == value), None)
        member = alias or Record("", {"name": name, "value": value, "_value_": value}, cls=cls)
        members[name] = member
        cls.static[name] = member
    cls.static["%members"] = members


def enum_members(cls: ClassValue) -> list[Record] | None:
    members = cls.static.get("%members")
    if not isinstance(members, dict):
        return None
    # Aliases are no members of their own when the class is iterated.
    unique: dict[int, Record] = {}
    for member in members.values():
        unique.setdefault(id(member), member)
    return list(unique.values())


def enum_lookup(ctx: CallContext, cls: ClassValue, value: Value) -> Value:
    """``Color(2)``: the member whose value is ``value``."""
    for member in enum_members(cls) or []:
        if member is value:
            return member
        same = ctx.interp.dialect.equals(member.fields.get("value"), value)
        if same is None:
            return Unknown(f"{cls.name}() of a value that cannot be known statically", ctx.line)
        if same:
            return member
    raise_error(ctx, "ValueError", f"{value!r} is not a valid {cls.name}")


def enum_value(value: Value) -> Value:
    """An ``IntEnum``/``StrEnum`` member as its value (the kinds that are ints or strings)."""
    if type(value) is not Record:
        return value
    if enum_kind(value.cls) in ("IntEnum", "StrEnum", "IntFlag"):
        return value.fields.get("value")
    return value


# --- named tuples -------------------------------------------------------------------------------


def tuple_class(
    name: str, fields: tuple[str, ...], defaults: tuple[Value, ...], env: Scope
) -> ClassValue:
    """A named tuple class (``collections.namedtuple``): a constructor taking the fields."""
    first_default = len(fields) - len(defaults)
    params = [ir.Param(0, 0, ir.Name(0, 0, "self"))]
    body: list[ir.Stmt] = []
    for i, field in enumerate(fields):
        default = ir.Const(0, 0, defaults[i - first_default]) if i >= first_default else None
        params.append(ir.Param(0, 0, ir.Name(0, 0, field), default))
        target = ir.Member(0, 0, ir.Name(0, 0, "self"), field)
        body.append(ir.ExprStmt(0, 0, ir.Assign(0, 0, target, None, ir.Name(0, 0, field))))
    cls = ClassValue(name, None, env, explicit_self=True)
    cls.constructor = ir.FunctionExpr(
        0, 0, "__init__", tuple(params), ir.Block(0, 0, tuple(body), scoped=False)
    )
    cls.static.update({"%fields": fields, "%namedtuple": True, "_fields": fields, "__name__": name})
    return cls


def replace(ctx: CallContext, record: Record, kwargs: dict[str, Value]) -> Value:
    """``point._replace(x=1)``: a copy with some fields changed."""
    copy = Record(record.kind, dict(record.fields), record.cls)
    for key, value in kwargs.items():
        if key not in copy.fields:
            raise_error(ctx, "ValueError", f"Got unexpected field names: [{key!r}]")
        copy.fields[key] = value
    return copy


# --- what a class or an instance answers without writing it ----------------------------------------


def record_member(ctx: CallContext, record: Record, name: str) -> Value:
    """A member of a user class instance that neither it nor its class holds."""
    cls = record.cls
    if name == "__class__":
        return cls if cls is not None else UNDEFINED
    if name == "__dict__":
        return record.fields
    if marker(cls, "%namedtuple") is True:
        if name == "_replace":
            return Builtin("_replace", lambda c, a, k: replace(c, record, k))
        if name == "_asdict":
            return Builtin(
                "_asdict",
                lambda c, a, k: dict(
                    zip(fields_of(record) or (), namedtuple_values(record) or (), strict=True)
                ),
            )
    return UNDEFINED


def class_named(value: Value) -> str | None:
    """The name of a class value (a user class, an engine class or a built-in type)."""
    if isinstance(value, ClassValue | EngineClass):
        return value.name
    if isinstance(value, Builtin):
        return value.name
    return None


#: What ``%match_class`` uses for the built-in classes of a ``case int():`` pattern.
BUILTIN_TYPES: dict[str, type | tuple[type, ...]] = {
    "int": int,
    "float": float,
    "str": str,
    "list": list,
    "tuple": tuple,
    "dict": dict,
    "bool": bool,
    "set": (set, frozenset),
    "frozenset": frozenset,
    "bytes": bytes,
}


def plain_instance(value: Value, kind: str) -> bool | None:
    """``isinstance(value, kind)`` for a built-in type named ``kind``; None for other names."""
    python_type = BUILTIN_TYPES.get(kind)
    if python_type is None:
        return None
    if isinstance(value, Record):
        if enum_kind(value.cls) == "IntEnum" and kind == "int":
            return True
        values = namedtuple_values(value)
        return values is not None and kind == "tuple"
    if value is UNDEFINED:
        return False
    return isinstance(value, python_type)


def instance_of(ctx: CallContext, value: Value, kind: Value) -> bool | None:
    """``isinstance(value, kind)``; ``kind`` may be a tuple of classes. None when the answer
    cannot be known (an unknown value or class)."""
    if isinstance(kind, tuple):
        answers = [instance_of(ctx, value, k) for k in kind]
        if any(a is True for a in answers):
            return True
        return None if any(a is None for a in answers) else False
    if isinstance(value, Unknown) or isinstance(kind, Unknown):
        return None
    if isinstance(kind, Builtin):
        return plain_instance(value, kind.name)
    if isinstance(kind, ClassValue):
        return isinstance(value, Record) and subclass_of(value.cls, kind)
    if isinstance(kind, EngineClass):
        return isinstance(value, Record) and ctx.interp.engine.is_a(value, kind.name)
    return None


#: Python's data model methods of each operator, and the reflected one.
OPERATOR_METHODS: dict[str, tuple[str, str | None]] = {
    "+": ("__add__", "__radd__"),
    "-": ("__sub__", "__rsub__"),
    "*": ("__mul__", "__rmul__"),
    "/": ("__truediv__", "__rtruediv__"),
    "//": ("__floordiv__", "__rfloordiv__"),
    "%": ("__mod__", "__rmod__"),
    "**": ("__pow__", "__rpow__"),
    "@": ("__matmul__", "__rmatmul__"),
    "&": ("__and__", "__rand__"),
    "|": ("__or__", "__ror__"),
    "^": ("__xor__", "__rxor__"),
    "<<": ("__lshift__", "__rlshift__"),
    ">>": ("__rshift__", "__rrshift__"),
    "==": ("__eq__", "__eq__"),
    "!=": ("__ne__", "__ne__"),
    "<": ("__lt__", "__gt__"),
    "<=": ("__le__", "__ge__"),
    ">": ("__gt__", "__lt__"),
    ">=": ("__ge__", "__le__"),
}

UNARY_METHODS: dict[str, str] = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}


def call_method(ctx: CallContext, record: Record, name: str, args: list[Value]) -> Value:
    """Call ``record.name(*args)`` when its class defines it; ``NotImplemented`` otherwise."""
    cls = record.cls
    found = cls.find_method(name) if cls is not None else None
    if found is None:
        return NotImplemented
    fn, home = found
    return ctx.call(BoundMethod(record, Closure(fn, home.env, home)), args)


def has_method(record: Record, name: str) -> bool:
    return record.cls is not None and record.cls.find_method(name) is not None
