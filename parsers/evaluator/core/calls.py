"""Calls and member access for the interpreter: binding values to targets (names, members,
indexes, destructuring patterns), reading and writing members (engine getters and hooks, user
accessors), calling closures and built-ins with their parameters bound, making classes from
their definitions, and constructing instances (fields, constructors, ``super``, classes
extending engine classes).
"""

from __future__ import annotations

import itertools
from typing import Final

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import (
    HOME,
    NEW_TARGET,
    THIS,
    BreakSignal,
    ContinueSignal,
    ReturnSignal,
)
from parsers.evaluator.core.engine import HelperCall
from parsers.evaluator.core.generators import Generator
from parsers.evaluator.core.interpreter_state import InterpreterState
from parsers.evaluator.core.scope import Scope
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    Builtin,
    ClassValue,
    Closure,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    type_name,
)

#: Steps charged when an engine reads a helper from its call (the name's words, its
#: arguments' roles): about four plain steps' work, so that the step budget keeps bounding time.
HELPER_HOOK_STEPS: Final = 4


class Calls(InterpreterState):
    """Binding, members, calls and construction."""

    def call_value(
        self,
        function: Value,
        args: list[Value],
        kwargs: dict[str, Value],
        line: int,
        col: int,
        this: Value = UNDEFINED,
    ) -> Value:
        """Call any callable value (what a built-in uses to call back)."""
        return self._call_value(function, args, kwargs, line, col, this)

    # --- binding ------------------------------------------------------------------------------
    def bind(
        self, target: ir.Pattern, value: Value, env: Scope, declare: str | None, line: int, col: int
    ) -> None:
        """Bind ``value`` to a name, member, index or destructuring pattern; ``declare`` is
        the declaration kind (const/let/var) or None for an assignment."""
        if isinstance(value, Record) and value.value_type:
            value = value.copy()
        kind = type(target)
        if kind is ir.Name:
            name = target.id  # type: ignore[union-attr]
            if declare is None:
                self.assign_name(name, value, env, line, col)
            elif declare == "var":
                env.function_scope().declare(name, value)
            else:
                env.declare(name, value, constant=declare == "const")
        elif kind is ir.Member:
            member: ir.Member = target  # type: ignore[assignment]
            obj, temporary = self.locate(member.obj, env)
            if temporary and isinstance(obj, Record) and obj.value_type:
                self.warning(
                    "eval.struct_copy",
                    f"{member.name} is set on a copy of a struct that a property or a call"
                    " returned; the assignment changes nothing (C# refuses it: CS1612)",
                    member.line,
                    member.col,
                )
            self.set_member(obj, member.name, value, member.line, member.col)
        elif kind is ir.Index:
            index: ir.Index = target  # type: ignore[assignment]
            obj = self.eval(index.obj, env)
            key = self.eval(index.index, env)
            self.set_index(obj, key, value, index.line, index.col)
        elif kind is ir.DefaultPattern:
            default: ir.DefaultPattern = target  # type: ignore[assignment]
            if value is UNDEFINED:
                value = self.eval(default.default, env)
            self.bind(default.target, value, env, declare, line, col)
        elif kind is ir.ListPattern:
            pattern: ir.ListPattern = target  # type: ignore[assignment]
            # ``iterate`` inlined for the common case: unpacking is among the commonest steps.
            items = value if type(value) is Generator else self.dialect.iterate(value, "of")
            if items is None:
                items = self.iterate(value, "of")
            if items is None:
                reason = (
                    value.reason
                    if isinstance(value, Unknown)
                    else f"a {type_name(value)} cannot be unpacked"
                )
                unknown = Unknown(reason, line)
                for item in pattern.items:
                    if item is not None:
                        self.bind(item, unknown, env, declare, line, col)
                for item in (pattern.rest, *pattern.after):
                    if item is not None:
                        self.bind(item, unknown, env, declare, line, col)
                return
            values = list(itertools.islice(items, self.limits.max_collection))
            for i, item in enumerate(pattern.items):
                if item is not None:
                    self.bind(
                        item, values[i] if i < len(values) else UNDEFINED, env, declare, line, col
                    )
            end = len(values)
            if pattern.after:
                end = max(len(pattern.items), len(values) - len(pattern.after))
                for i, item in enumerate(pattern.after):
                    if item is not None:
                        at = end + i
                        value = values[at] if at < len(values) else UNDEFINED
                        self.bind(item, value, env, declare, line, col)
            if pattern.rest is not None:
                self.bind(pattern.rest, values[len(pattern.items) : end], env, declare, line, col)
        elif kind is ir.DictPattern:
            props: ir.DictPattern = target  # type: ignore[assignment]
            used = set()
            for key, sub in props.props:
                if not isinstance(key, str):  # a computed name
                    key = self.dialect.to_string(self.eval(key, env))
                used.add(key)
                self.bind(sub, self.get_member(value, key, line, col), env, declare, line, col)
            if props.rest is not None:
                rest = (
                    {k: v for k, v in value.items() if k not in used}
                    if isinstance(value, dict)
                    else {}
                )
                self.bind(props.rest, rest, env, declare, line, col)
        else:
            self.warning("eval.bad_target", "cannot assign to this", line, col)

    def locate(self, expr: ir.Expr, env: Scope) -> tuple[Value, bool]:
        """What a member assignment or a method call acts on, and whether it is a temporary
        value. A value-type record (a C# struct) held in a variable, a field or an array
        element is that record itself, not the copy a read makes: ``s.y = 2`` changes ``s``,
        ``cells[1].Bump()`` the array's element. A struct a property or a call returns is a
        temporary copy."""
        kind = type(expr)
        if kind is ir.Name:
            name: ir.Name = expr  # type: ignore[assignment]
            found, value = env.lookup(name.id)
            if found:
                return value, False
            if self.dialect.implicit_this:
                owner, instance = self._implicit_owner(name.id, env)
                if owner is not None:
                    if instance and isinstance(owner, Record) and name.id in owner.fields:
                        return owner.fields[name.id], False
                    if not instance and isinstance(owner, ClassValue) and name.id in owner.static:
                        return owner.static[name.id], False
            return self._eval[kind](expr, env), False
        if kind is ir.Member:
            member: ir.Member = expr  # type: ignore[assignment]
            obj, _ = self.locate(member.obj, env)
            if member.optional and (obj is None or obj is UNDEFINED):
                return UNDEFINED, False
            if isinstance(obj, Record):
                fields = obj.fields
                if member.name in fields:
                    return fields[member.name], False
            elif isinstance(obj, ClassValue) and member.name in obj.static:
                return obj.static[member.name], False
            value = self.get_member(obj, member.name, member.line, member.col)
            return value, isinstance(value, Record) and value.value_type
        if kind is ir.Index:
            index: ir.Index = expr  # type: ignore[assignment]
            if isinstance(index.index, ir.Slice) or index.optional:
                return self._eval[kind](expr, env), False
            obj, _ = self.locate(index.obj, env)
            key = self.eval(index.index, env)
            if (
                isinstance(obj, list)
                and type(key) is int
                and 0 <= key < len(obj)
                and isinstance(obj[key], Record)
            ):
                return obj[key], False
            if isinstance(obj, Unknown):
                return obj, False
            if isinstance(key, Unknown):
                return key, False
            if isinstance(obj, Record | Namespace | ClassValue | EngineClass) and isinstance(
                key, str
            ):
                return self.get_member(obj, key, index.line, index.col), False
            ctx = CallContext(self, index.line, index.col)
            return self.dialect.get_index(ctx, obj, key), False
        value = self._eval[kind](expr, env)
        return value, isinstance(value, Record) and value.value_type

    def assign_name(self, name: str, value: Value, env: Scope, line: int, col: int) -> None:
        if self.dialect.assignment_declares_local:
            # Python: no block scopes; a name assigned in a function is local to it.
            scope = env.function_scope()
            if scope.outer_names is not None and name in scope.outer_names:
                owner = scope.parent.owner(name) if scope.parent is not None else None
                (owner or self.globals).vars[name] = value
            else:
                scope.vars[name] = value
            return
        owner = env.owner(name)
        if owner is None:
            if self.dialect.implicit_this:
                target, _ = self._implicit_owner(name, env)
                if target is not None:
                    self.set_member(target, name, value, line, col)
                    return
            self.globals.declare(name, value)
            return
        if owner.is_constant(name):
            self.warning("eval.const_assignment", f"assignment to the constant {name}", line, col)
        owner.vars[name] = value

    # --- members ------------------------------------------------------------------------------
    def get_member(
        self, obj: Value, name: str, line: int, col: int, *, call: bool = False
    ) -> Value:
        """``obj.name``; ``call`` when the member is read to be called (C#'s ``list.Count()``
        is LINQ's method, ``list.Count`` the property)."""
        if isinstance(obj, Record):
            return self._record_member(obj, name, line, col)
        if isinstance(obj, Unknown):
            return obj
        if isinstance(obj, Namespace):
            return obj.get(name)
        if isinstance(obj, EngineClass):
            if name in obj.static:
                return obj.static[name]
            return Unknown(f"{obj.name}.{name} is not known")
        if isinstance(obj, ClassValue):
            cls: ClassValue | None = obj
            while cls is not None:
                if name in cls.static_getters:
                    # ``this`` is the class the member is read through (JavaScript).
                    fn = cls.static_getters[name]
                    return self._invoke(Closure(fn, cls.env, cls), [], {}, obj, line, col)
                if name in cls.static:
                    if name in cls.class_methods:
                        return BoundMethod(obj, cls.static[name])
                    return cls.static[name]
                if cls.explicit_self and name in cls.methods:
                    return Closure(cls.methods[name], cls.env, cls)
                base = cls.base
                if isinstance(base, EngineClass):
                    return self.get_member(base, name, line, col)
                cls = base if isinstance(base, ClassValue) else None
            return self.dialect.class_member(CallContext(self, line, col), obj, name)
        if call:
            return self.dialect.get_method(CallContext(self, line, col), obj, name)
        return self.dialect.get_member(CallContext(self, line, col), obj, name)

    def _record_member(self, record: Record, name: str, line: int, col: int) -> Value:
        fields = record.fields
        if name in fields:
            value = fields[name]
            if isinstance(value, Record) and value.value_type:
                return value.copy()
            return value
        cls = record.cls
        if cls is not None:
            accessor = cls.find_accessor(name, setter=False)
            if accessor is not None:
                fn, home = accessor
                # Python's @property takes the instance as its first parameter.
                args = [record] if home.explicit_self else []
                return self._invoke(Closure(fn, home.env, home), args, {}, record, line, col)
            method = cls.find_method(name)
            if method is not None:
                fn, home = method
                return BoundMethod(record, Closure(fn, home.env, home))
            if cls.explicit_self:
                # Python: a class attribute is read through its instances.
                found = cls.find_static(name)
                if found is not None:
                    value, owner = found
                    return BoundMethod(cls, value) if name in owner.class_methods else value
        if record.kind:
            ctx = CallContext(self, line, col)
            getter = self.engine.getter(record.kind, name)
            if getter is not None:
                return getter(ctx, record)
            builtin = self.engine.method(record.kind, name)
            if builtin is not None:
                return BoundMethod(record, builtin)
            if self.engine.kinds.get(record.kind) is not None:
                return self.engine.missing_member(ctx, record, name)
        if cls is not None and self.dialect.record_protocols:
            return self.dialect.record_member(CallContext(self, line, col), record, name)
        return UNDEFINED

    def set_member(self, obj: Value, name: str, value: Value, line: int, col: int) -> None:
        if isinstance(obj, Record):
            cls = obj.cls
            if cls is not None:
                accessor = cls.find_accessor(name, setter=True)
                if accessor is not None:
                    fn, home = accessor
                    args = [obj, value] if home.explicit_self else [value]
                    self._invoke(Closure(fn, home.env, home), args, {}, obj, line, col)
                    return
            if obj.kind:
                hook = self.engine.set_hook(obj.kind)
                if hook is not None and hook(CallContext(self, line, col), obj, name, value):
                    return
            obj.fields[name] = value
            return
        if isinstance(obj, Unknown):
            self.dialect.unknown_target(
                CallContext(self, line, col),
                obj,
                f"{name} set on a value that cannot be known statically",
            )
            return
        if isinstance(obj, ClassValue):
            owner = obj.static_owner(name)
            if owner is not None and name in owner.static_setters:
                # ``this`` is the class the member is set through (JavaScript).
                setter = Closure(owner.static_setters[name], owner.env, owner)
                self._invoke(setter, [value], {}, obj, line, col)
            elif owner is not None and self.dialect.statics_belong_to_declaring_class:
                owner.static[name] = value
            else:
                obj.static[name] = value
            return
        if isinstance(obj, Namespace):
            obj.members[name] = value
            return
        self.dialect.set_member(CallContext(self, line, col), obj, name, value)

    def set_index(self, obj: Value, key: Value, value: Value, line: int, col: int) -> None:
        if isinstance(obj, Record) and isinstance(key, str):
            self.set_member(obj, key, value, line, col)
            return
        if isinstance(obj, Unknown):
            self.dialect.unknown_target(
                CallContext(self, line, col),
                obj,
                "an element set on a value that cannot be known statically",
            )
            return
        if isinstance(key, Unknown):
            self.dialect.unknown_target(
                CallContext(self, line, col),
                key,
                "an element set at an index that cannot be known statically",
            )
            return
        self.dialect.set_index(CallContext(self, line, col), obj, key, value)

    def _implicit_owner(self, name: str, env: Scope) -> tuple[Value, bool]:
        """Where a bare ``name`` inside a method refers to a member (C#): the instance
        (``True``) or the class holding the static (``False``); ``(None, False)`` for neither."""
        found, this = env.lookup(THIS)
        if found and isinstance(this, Record):
            cls = this.cls
            if name in this.fields or (
                cls is not None
                and (
                    cls.find_accessor(name, setter=False)
                    or cls.find_accessor(name, setter=True)
                    or cls.find_method(name)
                )
            ):
                return this, True
            if this.kind and (
                self.engine.getter(this.kind, name) is not None
                or self.engine.method(this.kind, name) is not None
            ):
                return this, True
        # The statics of the class of the method, of its bases, then of the classes it is
        # nested in (C# reads an enclosing class's statics by their bare names).
        scope: Scope | None = env
        while scope is not None:
            home = scope.vars.get(HOME)
            if isinstance(home, ClassValue):
                owner = home.static_owner(name)
                if owner is not None:
                    return owner, False
            scope = scope.parent
        return None, False

    def _arguments(
        self, args: tuple[ir.Argument, ...], env: Scope
    ) -> tuple[list[Value], dict[str, Value]]:
        positional: list[Value] = []
        keywords: dict[str, Value] = {}
        evaluate = self._eval  # ``self.eval`` inlined: arguments are the commonest expressions
        for arg in args:
            kind = type(arg)
            if kind is ir.Spread:
                self._spread(arg, env, positional)  # type: ignore[arg-type]
            elif kind is ir.Keyword:
                keyword: ir.Keyword = arg  # type: ignore[assignment]
                value = self.eval(keyword.value, env)
                if keyword.name is None:
                    if isinstance(value, dict):
                        keywords.update({str(k): v for k, v in value.items()})
                else:
                    keywords[keyword.name] = value
            else:
                positional.append(evaluate[kind](arg, env))
        return positional, keywords

    def _call_value(
        self,
        function: Value,
        args: list[Value],
        kwargs: dict[str, Value],
        line: int,
        col: int,
        this: Value = UNDEFINED,
    ) -> Value:
        self.budget.step()
        kind = type(function)
        if kind is BoundMethod:
            receiver = function.receiver
            inner = function.function
            if type(inner) is Builtin:
                return inner.fn(CallContext(self, line, col), receiver, args, kwargs)
            if type(inner) is Closure and inner.home is not None and inner.home.explicit_self:
                return self._invoke(inner, [receiver, *args], kwargs, receiver, line, col)
            return self._call_value(inner, args, kwargs, line, col, receiver)
        if kind is Builtin:
            return function.fn(CallContext(self, line, col), args, kwargs)
        if kind is Closure:
            if function.bound_this is not UNDEFINED:
                this = function.bound_this
            return self._invoke(function, args, kwargs, this, line, col)
        if kind is EngineClass or kind is ClassValue:
            return self._construct(function, args, kwargs, line, col)
        if kind is Unknown:
            return function
        return Unknown(f"a {type_name(function)} is not callable", line)

    def _invoke(
        self,
        closure: Closure,
        args: list[Value],
        kwargs: dict[str, Value],
        this: Value,
        line: int,
        col: int,
        new_target: ClassValue | Closure | None = None,
    ) -> Value:
        fn = closure.fn
        self.budget.step()
        if not self.reads_helpers or new_target is not None or not fn.name:
            return self._run_closure(closure, args, kwargs, this, line, col, new_target)
        # A named helper that cannot run to a result is read from what its call carries.
        if is_stub(fn.body):
            replaced = self._helper_without_body(closure, args, kwargs, "has no body", line, col)
            if replaced is not None:
                return replaced
        before = self.engine.object_count()
        result = self._run_closure(closure, args, kwargs, this, line, col, new_target)
        if (
            result is UNDEFINED or result is None or isinstance(result, Unknown)
        ) and self.engine.object_count() == before:
            replaced = self._helper_without_body(closure, args, kwargs, "makes nothing", line, col)
            if replaced is not None:
                return replaced
        return result

    def _helper_without_body(
        self,
        closure: Closure,
        args: list[Value],
        kwargs: dict[str, Value],
        why: str,
        line: int,
        col: int,
    ) -> Value | None:
        self.budget.step(HELPER_HOOK_STEPS)
        names = tuple(
            p.target.id if isinstance(p.target, ir.Name) else "" for p in closure.fn.params
        )
        if closure.home is not None and closure.home.explicit_self and names:
            # A Python method: its first parameter is the instance.
            names, args = names[1:], args[1:]
        call = HelperCall(closure.name, names, list(args), dict(kwargs), why)
        return self.engine.helper_without_body(CallContext(self, line, col), call)

    def undefined_helper(
        self, name: str, args: list[Value], kwargs: dict[str, Value], line: int, col: int
    ) -> Value | None:
        """A call of a function or method the code never defines, for engines that read
        helpers without a body; None when the engine leaves it."""
        if not self.reads_helpers:
            return None
        self.budget.step(HELPER_HOOK_STEPS)
        call = HelperCall(name, None, list(args), dict(kwargs), "is never defined")
        return self.engine.helper_without_body(CallContext(self, line, col), call)

    def _run_closure(
        self,
        closure: Closure,
        args: list[Value],
        kwargs: dict[str, Value],
        this: Value,
        line: int,
        col: int,
        new_target: ClassValue | Closure | None,
    ) -> Value:
        fn = closure.fn
        if self.depth >= self.limits.max_call_depth:
            self.warning(
                "eval.recursion_limit",
                f"calls nest deeper than {self.limits.max_call_depth} (recursion?); {closure.name}() not followed further",
                line,
                col,
            )
            return Unknown(f"{closure.name}() recursed too deeply", line)
        scope = Scope(closure.env, function=True)
        if not fn.arrow:
            scope.declare(THIS, this)
            if closure.home is not None:
                scope.declare(HOME, closure.home)
            if new_target is not None:
                scope.declare(NEW_TARGET, new_target)
        defaults = closure.defaults
        if defaults is None and self.dialect.defaults_at_definition:
            defaults = self.defaults_of(closure)
        self._bind_params(fn, args, kwargs, scope, line, col, defaults)
        if fn.generator and isinstance(fn.body, ir.Block):
            # Its body runs as its items are asked for.
            return Generator(self, body=fn.body, scope=scope, frame=(closure.name, args))
        self.depth += 1
        self.frames.append((closure.name, args))
        try:
            if not isinstance(fn.body, ir.Block):
                return self.eval(fn.body, scope)
            try:
                self.exec_block(fn.body.body, scope)
            except ReturnSignal as returned:
                return returned.value
            except (BreakSignal, ContinueSignal):
                pass
            return UNDEFINED
        finally:
            self.depth -= 1
            self.frames.pop()

    def _bind_params(
        self,
        fn: ir.FunctionExpr,
        args: list[Value],
        kwargs: dict[str, Value],
        scope: Scope,
        line: int,
        col: int,
        defaults: tuple[Value, ...] | None = None,
    ) -> None:
        position = 0
        remaining = dict(kwargs)
        number = -1
        for param in fn.params:
            number += 1
            if param.kind == "rest":
                rest = self.dialect.rest_arguments(list(args[position:]))
                self.bind(param.target, rest, scope, "let", line, col)
                position = len(args)
                continue
            if param.kind == "kwrest":
                self.bind(param.target, remaining, scope, "let", line, col)
                remaining = {}
                continue
            name = param.target.id if isinstance(param.target, ir.Name) else None
            value: Value = UNDEFINED
            if param.kind == "positional" and position < len(args):
                value = args[position]
                position += 1
            elif name is not None and name in remaining:
                value = remaining.pop(name)
            if value is UNDEFINED and param.default is not None:
                value = (
                    defaults[number] if defaults is not None else self.eval(param.default, scope)
                )
            self.bind(param.target, value, scope, "let", line, col)

    def _construct(
        self,
        cls: Value,
        args: list[Value],
        kwargs: dict[str, Value],
        line: int,
        col: int,
        new_target: ClassValue | None = None,
    ) -> Value:
        self.budget.step()
        if isinstance(cls, EngineClass):
            record = cls.construct(CallContext(self, line, col), args, kwargs)
            if new_target is not None and isinstance(record, Record):
                record.cls = new_target
            return record
        if isinstance(cls, Unknown):
            return cls
        if not isinstance(cls, ClassValue):
            return Unknown(f"a {type_name(cls)} cannot be constructed", line)
        target = new_target or cls
        if self.depth >= self.limits.max_call_depth:
            self.warning(
                "eval.recursion_limit",
                f"constructors nest deeper than {self.limits.max_call_depth}; {cls.name} not built",
                line,
                col,
            )
            return Unknown(f"{cls.name} nests too deeply", line)
        if cls.explicit_self:
            if self.dialect.record_protocols:
                made = self.dialect.instantiate(CallContext(self, line, col), cls, args, kwargs)
                if made is not NotImplemented:
                    return made
            # Python: the instance exists first; __init__ (inherited or not) fills it.
            engine_base = cls.engine_base()
            instance: Value = Record("", cls=target, value_type=target.value_type)
            if engine_base is not None:
                instance = self._construct(engine_base, [], {}, line, col, target)
            self._init_fields(cls, instance, line, col)
            ctor = self._find_constructor(cls)
            if ctor is not None:
                fn, home = ctor
                # A constructor is never read as a helper without a body: it makes its instance.
                self._run_closure(
                    Closure(fn, home.env, home),
                    [instance, *args],
                    kwargs,
                    instance,
                    line,
                    col,
                    None,
                )
            return instance
        if cls.constructor is None:
            if cls.base is None or cls.base is UNDEFINED:
                record = Record("", cls=target, value_type=target.value_type)
            else:
                record = self._construct(cls.base, args, kwargs, line, col, target)
            if isinstance(record, Record):
                record.cls = target
                self._init_fields(cls, record, line, col)
            return record
        if cls.base is None or cls.base is UNDEFINED:
            record = Record("", cls=target, value_type=target.value_type)
            self._init_fields(cls, record, line, col)
            self._invoke(
                Closure(cls.constructor, cls.env, cls), args, kwargs, record, line, col, target
            )
            return record
        # A derived constructor: ``this`` appears when it calls super().
        pending = Unknown(f"{cls.name} uses this before calling super()", line)
        closure = Closure(cls.constructor, cls.env, cls)
        holder: dict[str, Value] = {}
        self._pending_this.append(holder)
        try:
            self._invoke(closure, args, kwargs, pending, line, col, target)
        finally:
            self._pending_this.pop()
        record = holder.get("this", pending)
        return record

    def _find_constructor(self, cls: ClassValue) -> tuple[ir.FunctionExpr, ClassValue] | None:
        current: ClassValue | None = cls
        while current is not None:
            if current.constructor is not None:
                return current.constructor, current
            current = current.base if isinstance(current.base, ClassValue) else None
        return None

    def _init_fields(self, cls: ClassValue, record: Value, line: int, col: int) -> None:
        if not isinstance(record, Record) or not cls.instance_fields:
            return
        scope = Scope(cls.env, function=True)
        scope.declare(THIS, record)
        for name, init in cls.instance_fields:
            record.fields[name] = UNDEFINED if init is None else self.eval(init, scope)

    def _construct_plain_base(
        self,
        base: ClassValue,
        args: list[Value],
        kwargs: dict[str, Value],
        line: int,
        col: int,
        target: ClassValue,
    ) -> Value:
        """Build a base class that has no base of its own, for a derived class's super()."""
        if base.base not in (None, UNDEFINED):
            return self._construct(base, args, kwargs, line, col, target)
        record = Record("", cls=target, value_type=target.value_type)
        self._init_fields(base, record, line, col)
        if base.constructor is not None:
            self._invoke(
                Closure(base.constructor, base.env, base), args, kwargs, record, line, col, target
            )
        return record

    def _class(self, expr: ir.ClassExpr, env: Scope) -> Value:
        base = self.eval(expr.base, env) if expr.base is not None else None
        class_env = Scope(env)
        cls = ClassValue(
            expr.name or "<class>",
            base,
            class_env,
            explicit_self=expr.explicit_self,
            value_type=expr.value_type,
        )
        if expr.name:
            class_env.declare(expr.name, cls)
        class_env.declare(HOME, cls)
        fields: list[tuple[str, ir.Expr | None]] = []
        for member in expr.members:
            if member.kind == "constructor" and isinstance(member.value, ir.FunctionExpr):
                cls.constructor = member.value
            elif member.kind == "classmethod" and isinstance(member.value, ir.FunctionExpr):
                cls.static[member.name] = Closure(member.value, class_env, cls)
                cls.class_methods.add(member.name)
            elif member.kind == "method" and isinstance(member.value, ir.FunctionExpr):
                if member.static:
                    cls.static[member.name] = Closure(member.value, class_env, cls)
                else:
                    cls.methods[member.name] = member.value
            elif member.kind == "getter" and isinstance(member.value, ir.FunctionExpr):
                (cls.static_getters if member.static else cls.getters)[member.name] = member.value
            elif member.kind == "setter" and isinstance(member.value, ir.FunctionExpr):
                (cls.static_setters if member.static else cls.setters)[member.name] = member.value
            elif member.kind == "field":
                init = member.value
                if member.static:
                    static_scope = Scope(class_env, function=True)
                    static_scope.declare(THIS, cls)
                    cls.static[member.name] = (
                        UNDEFINED if init is None else self.eval(init, static_scope)
                    )
                else:
                    fields.append((member.name, init))
        cls.instance_fields = tuple(fields)
        return self.dialect.class_defined(CallContext(self, expr.line, expr.col), cls)


def is_stub(body: ir.Block | ir.Expr) -> bool:
    """Whether a function body does nothing: empty, ``pass``, ``...``, a docstring, ``return``
    of nothing, a ``throw`` (``NotImplementedException``), or statements all left out as cut
    off (the front end leaves a ``Pass`` for each)."""
    if not isinstance(body, ir.Block):
        return False
    for stmt in body.body:
        if isinstance(stmt, ir.Pass | ir.Throw):
            continue
        if isinstance(stmt, ir.ExprStmt) and isinstance(stmt.expr, ir.Const | ir.Opaque):
            continue
        if isinstance(stmt, ir.Return) and (
            stmt.value is None
            or (isinstance(stmt.value, ir.Const) and stmt.value.value in (None, UNDEFINED))
        ):
            continue
        return False
    return True
