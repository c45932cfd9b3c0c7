"""Runtime values of the static evaluator.

Plain data stays plain Python: numbers (``int``/``float``), ``str``, ``bool``, ``None`` (null),
``list`` (JS arrays and Python lists, shared by reference), ``tuple`` (Python tuples) and
``dict`` (JS object literals and Python dicts). The classes below add what a scene script
needs beyond that: a value that could not be known statically, engine objects and user class
instances, functions, classes and namespaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeAlias

if TYPE_CHECKING:
    from parsers.evaluator.core import ir
    from parsers.evaluator.core.context import CallContext
    from parsers.evaluator.core.scope import Scope

Value: TypeAlias = Any
"""Any evaluator value: a plain Python value or one of the classes of this module."""


class _Undefined:
    """JavaScript's ``undefined`` (``None`` is ``null``): a missing argument or property."""

    __slots__ = ()
    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()


@dataclass(frozen=True, slots=True)
class Unknown:
    """A value the evaluator cannot know statically, with the reason (``Math.random()``,
    ``width is not defined``). Operations on it give it back; only a built-in that needs a
    concrete value reports it, so one unknown yields one diagnostic where it matters."""

    reason: str
    line: int | None = None
    #: A member of an object that never changes the scene (a renderer, a control): what is
    #: done to it needs no remark.
    inert: bool = False

    def __repr__(self) -> str:
        return f"<unknown: {self.reason}>"


class EnumMember(int):
    """An enum constant: an int that remembers its enum and its name, as C# does
    (``Shape.Cone.ToString()`` is ``"Cone"``, and a switch compares it as its number)."""

    enum: str
    member: str

    def __new__(cls, value: int, enum: str, member: str) -> EnumMember:
        made = super().__new__(cls, value)
        made.enum = enum
        made.member = member
        return made

    def __repr__(self) -> str:
        return f"{self.enum}.{self.member}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EnumMember, (int(self), self.enum, self.member))


#: Signature of an engine or library function: the call context, positional and keyword
#: arguments; the result is any value.
BuiltinFn: TypeAlias = "Callable[[CallContext, list[Value], dict[str, Value]], Value]"
#: Signature of an engine method: as ``BuiltinFn`` with the receiver second.
MethodFn: TypeAlias = "Callable[[CallContext, Record, list[Value], dict[str, Value]], Value]"


@dataclass(slots=True)
class Builtin:
    """A function provided by the language's library or the engine table."""

    name: str
    fn: Callable[..., Value]

    def __repr__(self) -> str:
        return f"<builtin {self.name}>"


@dataclass(slots=True)
class Record:
    """An object with fields: an engine object (``kind`` is its engine type, ``Mesh``,
    ``Vector3``) or an instance of a user class (``cls``), or both when a user class extends
    an engine class. ``native`` holds engine-private state the script cannot see."""

    kind: str
    fields: dict[str, Value] = field(default_factory=dict)
    cls: ClassValue | None = None
    native: Any = None
    #: Value types (C# structs such as Unity's ``Vector3``) are copied when read from a field,
    #: assigned or passed; the engine table marks them.
    value_type: bool = False

    def __repr__(self) -> str:
        name = self.cls.name if self.cls is not None else self.kind
        return f"<{name} record>"

    def copy(self) -> Record:
        fields = self.fields
        if self.cls is not None:
            # A user struct may hold structs: a copy holds copies of them.
            fields = {
                k: v.copy() if isinstance(v, Record) and v.value_type else v
                for k, v in fields.items()
            }
        return Record(self.kind, dict(fields), self.cls, self.native, self.value_type)


@dataclass(slots=True)
class Closure:
    """A user function with the scope it was defined in. ``home`` is the class of a method
    (for ``super``); ``bound_this`` is set for functions bound with ``.bind``."""

    fn: ir.FunctionExpr
    env: Scope
    home: ClassValue | None = None
    bound_this: Value = UNDEFINED
    #: Parameter defaults evaluated when the function was defined (Python), one per
    #: parameter (``UNDEFINED`` where it has none); None: evaluated at each call (JS).
    defaults: tuple[Value, ...] | None = None

    @property
    def name(self) -> str:
        return self.fn.name or "<anonymous>"

    def __repr__(self) -> str:
        return f"<function {self.name}>"


@dataclass(slots=True)
class BoundMethod:
    """A function together with the receiver it was read from (``mesh.position.set``)."""

    receiver: Value
    function: Value

    def __repr__(self) -> str:
        return f"<bound {self.function!r}>"


@dataclass(slots=True)
class ClassValue:
    """A user class: methods are evaluated lazily as closures over ``env``.

    ``explicit_self`` is True for Python-style classes whose methods take the instance as
    their first parameter; False for JS and C# classes (``this``)."""

    name: str
    base: Value
    env: Scope
    methods: dict[str, ir.FunctionExpr] = field(default_factory=dict)
    getters: dict[str, ir.FunctionExpr] = field(default_factory=dict)
    setters: dict[str, ir.FunctionExpr] = field(default_factory=dict)
    static: dict[str, Value] = field(default_factory=dict)
    #: Static accessors, looked up through the chain (JavaScript's ``static get x()``, C#'s
    #: ``static Vector3 one { get { ... } }``).
    static_getters: dict[str, ir.FunctionExpr] = field(default_factory=dict)
    static_setters: dict[str, ir.FunctionExpr] = field(default_factory=dict)
    instance_fields: tuple[tuple[str, ir.Expr | None], ...] = ()
    constructor: ir.FunctionExpr | None = None
    explicit_self: bool = False
    #: A C# struct: its instances are value types (copied on assignment and passing).
    value_type: bool = False
    #: Static members that receive the class they are read from (Python's ``@classmethod``).
    class_methods: set[str] = field(default_factory=set)

    def __repr__(self) -> str:
        return f"<class {self.name}>"

    def find_method(self, name: str) -> tuple[ir.FunctionExpr, ClassValue] | None:
        cls: ClassValue | None = self
        while cls is not None:
            if name in cls.methods:
                return cls.methods[name], cls
            cls = cls.base if isinstance(cls.base, ClassValue) else None
        return None

    def find_accessor(self, name: str, setter: bool) -> tuple[ir.FunctionExpr, ClassValue] | None:
        cls: ClassValue | None = self
        while cls is not None:
            table = cls.setters if setter else cls.getters
            if name in table:
                return table[name], cls
            cls = cls.base if isinstance(cls.base, ClassValue) else None
        return None

    def find_static(self, name: str) -> tuple[Value, ClassValue] | None:
        """A static member (a class attribute) and the class holding it, bases included."""
        cls: ClassValue | None = self
        while cls is not None:
            if name in cls.static:
                return cls.static[name], cls
            cls = cls.base if isinstance(cls.base, ClassValue) else None
        return None

    def static_owner(self, name: str) -> ClassValue | None:
        """The class in this one's chain declaring the static member ``name`` (a field, a
        method or a static property: C#'s ``static Vector3 one { get; }``), if any."""
        cls: ClassValue | None = self
        while cls is not None:
            if name in cls.static or name in cls.static_getters or name in cls.static_setters:
                return cls
            cls = cls.base if isinstance(cls.base, ClassValue) else None
        return None

    def engine_base(self) -> EngineClass | None:
        """The engine class at the root of the inheritance chain, if any."""
        base = self.base
        while isinstance(base, ClassValue):
            base = base.base
        return base if isinstance(base, EngineClass) else None


@dataclass(slots=True)
class EngineClass:
    """A constructor from the engine table (``THREE.Mesh``): ``construct`` builds its record.
    ``static`` holds its static members (``THREE.Vector3`` has none; Unity's ``Vector3.up``)."""

    name: str
    construct: Callable[..., Record]
    static: dict[str, Value] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"<engine class {self.name}>"


@dataclass(slots=True)
class Namespace:
    """A module or namespace object (``THREE``, ``Math``, ``bpy.ops.mesh``). A member it does
    not hold is ``missing(name)``: Unknown by default, or an inert value."""

    name: str
    members: dict[str, Value] = field(default_factory=dict)
    missing: Callable[[str], Value] | None = None

    def __repr__(self) -> str:
        return f"<namespace {self.name}>"

    def get(self, name: str) -> Value:
        if name in self.members:
            return self.members[name]
        if self.missing is not None:
            return self.missing(name)
        return Unknown(f"{self.name}.{name} is not known")


def is_number(value: Value) -> bool:
    if type(value) is float:  # the common case, decided without the isinstance chain
        return True
    return (isinstance(value, int | float)) and not isinstance(value, bool)


def type_name(value: Value) -> str:
    """A short name of a value's type for diagnostics."""
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, Record):
        return value.cls.name if value.cls is not None else value.kind
    if isinstance(value, Closure | Builtin | BoundMethod):
        return "function"
    if isinstance(value, ClassValue | EngineClass):
        return "class"
    if isinstance(value, Namespace):
        return "namespace"
    if isinstance(value, Unknown):
        return "unknown"
    return type(value).__name__
