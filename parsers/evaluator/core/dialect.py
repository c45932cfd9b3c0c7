"""What differs between languages at run time: truthiness, operators, members of plain values,
iteration, conversions and the standard library. The interpreter asks its dialect; each
language module (``javascript.lib``, ``python.lib``) subclasses ``Dialect``."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import UNDEFINED, ClassValue, Record, Unknown, Value, is_number

if TYPE_CHECKING:
    from parsers.evaluator.core.interpreter import Interpreter


class Dialect:
    name = "neutral"
    #: Python: assigning a name inside a function makes it local to that function.
    assignment_declares_local = False
    #: C#: a bare name inside a method that is no local is a member of ``this`` (or a static of
    #: the class).
    implicit_this = False
    #: C#: a static field belongs to the class declaring it, so ``Sub.count = 3`` sets the base
    #: class's field; in JavaScript and Python the assignment makes the subclass its own.
    statics_belong_to_declaring_class = False
    #: The interpreter running the code, set when it starts: what an operator or a conversion
    #: needs to call back into the script (C#'s ``ToString`` overrides, user operators).
    interpreter: Interpreter | None = None
    #: Python: parameter defaults are evaluated once, when the function is defined.
    defaults_at_definition = False
    #: Python: a function definition (re)binds its name when the statement is reached (it is
    #: still hoisted, so a call before it finds the first definition).
    rebinds_definitions = False
    #: Python: instances of user classes take part in operators, truth, iteration and
    #: construction through their class's methods: ``record_binary``, ``record_unary``,
    #: ``record_truthy``, ``record_items`` and ``instantiate`` are asked first.
    record_protocols = False

    #: Names the language defines on demand: made for the run when first named
    #: (``builtin_value``), so a run that never names them never makes them (Python's
    #: exception classes).
    builtin_names: frozenset[str] = frozenset()

    def builtin_value(self, name: str) -> Value:
        """The value of one of ``builtin_names``, made for this run."""
        raise KeyError(name)

    # --- user-class protocols (only asked when ``record_protocols``) ---------------------------
    def record_binary(self, ctx: CallContext, op: str, left: Value, right: Value) -> Value:
        """``left op right`` when either is a record; ``NotImplemented`` for ``binary``."""
        return NotImplemented

    def record_unary(self, ctx: CallContext, op: str, operand: Record) -> Value:
        """``op operand`` of a record; ``NotImplemented`` for ``unary``."""
        return NotImplemented

    def format_with_context(self, ctx: CallContext, value: Value) -> str | None:
        """Text of a template part ``format_value`` could not write without calling back
        into the script (Python's ``__str__``); None when unknown."""
        return None

    def record_truthy(self, ctx: CallContext, value: Record) -> bool | None:
        """Truth of a record (Python's ``__bool__``/``__len__``)."""
        return self.truthy(value)

    def record_items(self, ctx: CallContext, value: Record) -> Iterable[Value] | None:
        """Items of a record the dialect's ``iterate`` does not know (Python's ``__iter__``)."""
        return None

    def record_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        """A member of a user class instance that neither it nor its class defines (Python's
        ``__class__``, ``__dict__``); ``UNDEFINED`` when it has none."""
        return UNDEFINED

    def instantiate(
        self, ctx: CallContext, cls: ClassValue, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """What calling an ``explicit_self`` class gives, when it is not a plain construction
        (Python's enums look their members up); ``NotImplemented`` to construct it."""
        return NotImplemented

    def class_defined(self, ctx: CallContext, cls: ClassValue) -> Value:
        """What a class definition binds, once its members are in (Python turns an ``Enum``
        subclass's attributes into its members)."""
        return cls

    def delete_index(self, ctx: CallContext, obj: Value, index: Value) -> None:
        """``del obj[index]`` (JS ``delete obj[key]``): a key of a dict or a record's field."""
        if isinstance(obj, dict):
            obj.pop(index, None)
        elif isinstance(obj, Record) and isinstance(index, str):
            obj.fields.pop(index, None)
        else:
            ctx.warning("eval.ignored_delete", "this deletion is not modelled; ignored")

    def globals(self) -> dict[str, Value]:
        return {}

    def attach(self, interpreter: Interpreter) -> None:
        """Called once by the interpreter that runs with this dialect, before ``globals``: the
        dialect keeps it (``self.interpreter``), since conversions and operators may call user
        code (JavaScript's ``toString``, C#'s ``ToString`` overrides and user operators)."""
        self.interpreter = interpreter

    # --- conversions ----------------------------------------------------------------------------
    def truthy(self, value: Value) -> bool | None:
        """Truth of a value; None when it cannot be known."""
        if isinstance(value, Unknown):
            return None
        if value is None or value is UNDEFINED:
            return False
        if isinstance(value, bool):
            return value
        if is_number(value):
            return value != 0 and not (isinstance(value, float) and math.isnan(value))
        if isinstance(value, str | list | tuple | dict):
            return len(value) > 0
        return True

    def to_number(self, value: Value) -> float | None:
        if isinstance(value, bool):
            return float(value)
        if is_number(value):
            return float(value)
        return None

    def to_string(self, value: Value) -> str:
        return str(value)

    # --- operators --------------------------------------------------------------------------------
    def binary(self, op: str, left: Value, right: Value) -> Value:
        raise NotImplementedError

    def unary(self, op: str, operand: Value) -> Value:
        raise NotImplementedError

    def rest_arguments(self, values: list[Value]) -> Value:
        """What a rest parameter (``...args``, Python's ``*args``) binds: a list; Python's is a
        tuple."""
        return values

    def comprehension(
        self, kind: str, items: list[Value], pairs: list[tuple[Value, Value]]
    ) -> Value:
        """What a list, set or dict comprehension gives from its items (``pairs`` for a dict)."""
        if kind == "dict":
            return {k: v for k, v in pairs if not isinstance(k, Unknown)}
        if kind == "set":
            return list(dict.fromkeys(v for v in items if not isinstance(v, list | dict | Record)))
        return items

    def augmented(self, op: str, current: Value, value: Value) -> Value:
        """``current op= value``: the value to bind. Languages whose ``+=`` works in place on
        some types (Python lists, open3d meshes) mutate ``current`` and return it."""
        return self.binary(op, current, value)

    def equals(self, left: Value, right: Value) -> bool | None:
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return None
        if isinstance(left, Record) or isinstance(right, Record):
            return left is right
        if type(left) is not type(right) and not (is_number(left) and is_number(right)):
            return False
        result = left == right
        return bool(result) if isinstance(result, bool) else None

    # --- members of plain values ------------------------------------------------------------------
    def get_member(self, ctx: CallContext, obj: Value, name: str) -> Value:
        return Unknown(f"{name} of a {type(obj).__name__} is not known")

    def instance_of(self, value: Value, cls: Value) -> bool | None:
        """``value instanceof cls`` where the language's own types decide it (JavaScript's
        ``[] instanceof Array``); None leaves it to user classes and the engine's kinds."""
        return None

    def class_member(self, ctx: CallContext, cls: ClassValue, name: str) -> Value:
        """``cls.name`` for a member no class of the chain declares (JavaScript's ``C.name``)."""
        return UNDEFINED

    def get_method(self, ctx: CallContext, obj: Value, name: str) -> Value:
        """``obj.name`` of a plain value read to be called; ``get_member`` unless the language
        gives a property and a method one name (C#'s ``Count``)."""
        return self.get_member(ctx, obj, name)

    def set_member(self, ctx: CallContext, obj: Value, name: str, value: Value) -> None:
        ctx.info("eval.ignored_assignment", f"cannot set {name} on this value; ignored")

    def unknown_target(self, ctx: CallContext, target: Unknown, what: str) -> None:
        """An assignment that cannot be followed (``what`` says which: a member of a value
        that cannot be known, an element at an index that cannot be); ``target`` is the
        unknown. A dialect that reports it says so here."""

    def unfollowed_call(self, ctx: CallContext, name: str, why: Unknown) -> None:
        """A statement calls method ``name`` for its effect and the call cannot be followed:
        its receiver cannot be known, or the engine does not model the method (``why`` says
        which). A dialect that reports it says so here."""

    def get_index(self, ctx: CallContext, obj: Value, index: Value) -> Value:
        return Unknown("index is not known")

    def set_index(self, ctx: CallContext, obj: Value, index: Value, value: Value) -> None:
        ctx.info("eval.ignored_assignment", "cannot set this index; ignored")

    def slice(self, ctx: CallContext, obj: Value, lower: Value, upper: Value, step: Value) -> Value:
        return Unknown("slicing is not supported in this language")

    def iterate(self, value: Value, mode: str) -> Iterable[Value] | None:
        """The items a ``for`` loop visits (lazily), or None when the value is not iterable
        or unknown. ``mode`` is "of" (values) or "in" (JS: keys)."""
        if isinstance(value, list | tuple | str):
            return iter(value)
        if isinstance(value, dict):
            return iter(list(value.keys()))
        return None

    def typeof(self, value: Value) -> Value:
        return Unknown("typeof is not supported in this language")

    def format_value(self, value: Value) -> str | None:
        """Text of a value inside a template or f-string, None when unknown."""
        if isinstance(value, Unknown):
            return None
        return self.to_string(value)
