"""The interpreter: runs a lowered program (``ir``) statically, with a budget.

Nothing of the model's code is executed by Python or by an engine: the interpreter evaluates
the program tree over evaluator values, asking the language's ``Dialect`` for what differs
between languages and the ``Engine`` table for the scene library. Whatever cannot be known
becomes an ``Unknown`` value; a built-in that needs it reports it. Loops stop after a capped
number of iterations, recursion at a capped depth, the whole run at a step budget and a
deadline, each with a diagnostic, and the objects built so far are kept.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from parsers.evaluator import ir
from parsers.evaluator.context import CallContext, Reporter
from parsers.evaluator.dialect import Dialect
from parsers.evaluator.engine import Engine
from parsers.evaluator.limits import Budget, BudgetExceeded, Limits
from parsers.evaluator.scope import Scope
from parsers.evaluator.values import (
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


class _Return(Exception):
    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class ThrowSignal(Exception):
    """A ``throw``/``raise`` in the script; caught by the script's ``try`` or at the top."""

    def __init__(self, value: Value, line: int) -> None:
        super().__init__(value)
        self.value = value
        self.line = line


_THIS = "this"
#: What ``_implicit_member`` gives when a bare name is no member of ``this`` or its class.
_NOT_A_MEMBER = object()
_HOME = "%home"
_NEW_TARGET = "%new_target"


@contextmanager
def _recursion_room(depth: int) -> Iterator[None]:
    """Enough Python stack for the capped nesting of the evaluated program."""
    old = sys.getrecursionlimit()
    if old < depth:
        sys.setrecursionlimit(depth)
    try:
        yield
    finally:
        if old < depth:
            sys.setrecursionlimit(old)


class Interpreter:
    """Evaluates one program. ``dialect`` gives the language's semantics and standard
    library, ``engine`` the scene library; remarks go to ``reporter``."""

    def __init__(
        self,
        dialect: Dialect,
        engine: Engine,
        *,
        limits: Limits | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.dialect = dialect
        self.engine = engine
        self.limits = limits or Limits()
        self.budget = budget or Budget(self.limits)
        self.reporter = Reporter()
        self.globals = Scope(None, function=True)
        for name, value in dialect.globals().items():
            self.globals.declare(name, value)
        for name, value in engine.globals().items():
            self.globals.declare(name, value)
        self.depth = 0
        self.stopped: str | None = None
        #: For each derived constructor being run, where its super() call leaves ``this``.
        self._pending_this: list[dict[str, Value]] = []
        self._eval: dict[type, Callable[[Any, Scope], Value]] = {
            ir.Const: self._const,
            ir.Name: self._name,
            ir.Member: self._member,
            ir.Index: self._index,
            ir.Call: self._call,
            ir.New: self._new,
            ir.SuperCall: self._super_call,
            ir.SuperMember: self._super_member,
            ir.Binary: self._binary,
            ir.Compare: self._compare,
            ir.Logical: self._logical,
            ir.Unary: self._unary,
            ir.Conditional: self._conditional,
            ir.ListLit: self._list,
            ir.TupleLit: self._tuple,
            ir.DictLit: self._dict,
            ir.Template: self._template,
            ir.Sequence: self._sequence,
            ir.Assign: self._assign,
            ir.Update: self._update,
            ir.FunctionExpr: self._function,
            ir.ClassExpr: self._class,
            ir.Comprehension: self._comprehension,
            ir.ImportValue: self._import,
            ir.Await: self._await,
            ir.Opaque: self._opaque,
            ir.Slice: self._slice_alone,
        }
        self._exec: dict[type, Callable[[Any, Scope], None]] = {
            ir.ExprStmt: self._expr_stmt,
            ir.Declare: self._declare,
            ir.Block: self._block_stmt,
            ir.If: self._if,
            ir.While: self._while,
            ir.ForC: self._for_c,
            ir.ForEach: self._for_each,
            ir.FunctionDecl: self._function_decl,
            ir.ClassDecl: self._class_decl,
            ir.Return: self._return,
            ir.Break: self._break,
            ir.Continue: self._continue,
            ir.Throw: self._throw,
            ir.Try: self._try,
            ir.Switch: self._switch,
            ir.With: self._with,
            ir.NonLocal: self._nonlocal,
            ir.Delete: self._delete,
            ir.Pass: self._pass,
        }

    # --- entry points -----------------------------------------------------------------------
    def context(self, line: int = 0, col: int = 0) -> CallContext:
        return CallContext(self, line, col)

    def run(self, program: ir.Block) -> None:
        """Run a whole program; never raises for anything the program does."""
        with _recursion_room(20_000):
            self._run_top(program.body, self.globals)
            if self.stopped is None:
                try:
                    self.engine.after_program(CallContext(self, program.line, program.col))
                except BudgetExceeded as stop:
                    self._stop(program.line, str(stop))
                except ThrowSignal as thrown:
                    self.warning(
                        "eval.uncaught_throw",
                        f"an event handler throws {self._describe(thrown.value)}; it stopped there",
                        thrown.line,
                        0,
                    )
                except RecursionError:
                    self.warning(
                        "eval.too_deep",
                        "an event handler nests too deeply to follow",
                        program.line,
                        0,
                    )

    def _run_top(self, body: tuple[ir.Stmt, ...], env: Scope) -> None:
        self._hoist(body, env)
        for stmt in body:
            try:
                self.exec(stmt, env)
            except BudgetExceeded as stop:
                self._stop(stmt.line, str(stop))
                return
            except ThrowSignal as thrown:
                self.warning(
                    "eval.uncaught_throw",
                    f"the script throws {self._describe(thrown.value)} here; the statements after it do not run",
                    thrown.line,
                    0,
                )
                return
            except RecursionError:
                self.warning(
                    "eval.too_deep",
                    "this statement nests too deeply to follow; skipped",
                    stmt.line,
                    stmt.col,
                )
            except (_Return, _Break, _Continue):
                continue

    def _stop(self, line: int, reason: str) -> None:
        self.stopped = reason
        self.warning(
            "eval.budget",
            f"evaluation stopped here after {reason}; the objects built until then are kept",
            line,
            0,
        )

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

    # --- reporting ----------------------------------------------------------------------------
    def warning(self, code: str, message: str, line: int | None, col: int | None) -> None:
        self.reporter.add("warning", code, message, line, col)

    def info(self, code: str, message: str, line: int | None, col: int | None) -> None:
        self.reporter.add("info", code, message, line, col)

    @staticmethod
    def _describe(value: Value) -> str:
        if isinstance(value, str):
            return repr(value[:60])
        if isinstance(value, Record):
            message = value.fields.get("message")
            return (
                f"{type_name(value)}({message!r})" if isinstance(message, str) else type_name(value)
            )
        return type_name(value)

    # --- statements ---------------------------------------------------------------------------
    def exec(self, stmt: ir.Stmt, env: Scope) -> None:
        self.budget.step()
        self._exec[type(stmt)](stmt, env)

    def exec_block(self, body: tuple[ir.Stmt, ...], env: Scope) -> None:
        self._hoist(body, env)
        execute = self._exec
        step = self.budget.step
        for stmt in body:
            step()
            execute[type(stmt)](stmt, env)

    def _hoist(self, body: tuple[ir.Stmt, ...], env: Scope) -> None:
        """Function declarations are visible in their whole block (JS hoisting)."""
        for stmt in body:
            if type(stmt) is ir.FunctionDecl and stmt.fn.name:
                env.declare(stmt.fn.name, self._closure(stmt.fn, env))

    def _expr_stmt(self, stmt: ir.ExprStmt, env: Scope) -> None:
        self._eval[type(stmt.expr)](stmt.expr, env)

    def _declare(self, stmt: ir.Declare, env: Scope) -> None:
        value = UNDEFINED if stmt.value is None else self.eval(stmt.value, env)
        self.bind(stmt.target, value, env, stmt.kind, stmt.line, stmt.col)

    def _block_stmt(self, stmt: ir.Block, env: Scope) -> None:
        self.exec_block(stmt.body, Scope(env) if stmt.scoped else env)

    def _decide(self, test: ir.Expr, env: Scope, what: str) -> bool | None:
        value = self.eval(test, env)
        truth = self.dialect.truthy(value)
        if truth is None:
            reason = value.reason if isinstance(value, Unknown) else type_name(value)
            self.warning(
                "eval.unknown_condition",
                f"{what} cannot be decided statically ({reason})",
                test.line,
                test.col,
            )
        return truth

    def _if(self, stmt: ir.If, env: Scope) -> None:
        truth = self._decide(stmt.test, env, "this condition; its first branch was run")
        if truth is None:
            truth = True
        if truth:
            self.exec_block(stmt.then.body, Scope(env) if stmt.then.scoped else env)
        elif stmt.other is not None:
            self.exec_block(stmt.other.body, Scope(env) if stmt.other.scoped else env)

    def _loop_limit(self, node: ir.Node) -> None:
        self.warning(
            "eval.loop_limit",
            f"loop stopped after {self.limits.max_loop_iterations} iterations; the program goes on after it",
            node.line,
            node.col,
        )

    def _run_body(self, body: ir.Block, env: Scope) -> bool:
        """Run a loop body; False when it breaks."""
        try:
            self.exec_block(body.body, Scope(env) if body.scoped else env)
        except _Break:
            return False
        except _Continue:
            pass
        return True

    def _while(self, stmt: ir.While, env: Scope) -> None:
        count = 0
        limit = self.limits.max_loop_iterations
        broke = False
        while True:
            if not stmt.do_while or count > 0:
                truth = self._decide(stmt.test, env, "this loop condition; the loop stops here")
                if truth is None:
                    return
                if not truth:
                    break
            count += 1
            if count > limit:
                self._loop_limit(stmt)
                return
            self.budget.step()
            if not self._run_body(stmt.body, env):
                broke = True
                break
        if not broke and stmt.other is not None:
            self.exec_block(stmt.other.body, env)

    def _for_c(self, stmt: ir.ForC, env: Scope) -> None:
        loop_env = Scope(env)
        if stmt.init is not None:
            self.exec(stmt.init, loop_env)
        count = 0
        limit = self.limits.max_loop_iterations
        while True:
            if stmt.test is not None:
                truth = self._decide(
                    stmt.test, loop_env, "this loop condition; the loop stops here"
                )
                if truth is None:
                    return
                if not truth:
                    return
            count += 1
            if count > limit:
                self._loop_limit(stmt)
                return
            self.budget.step()
            if not self._run_body(stmt.body, loop_env):
                return
            if stmt.update is not None:
                self.eval(stmt.update, loop_env)

    def _for_each(self, stmt: ir.ForEach, env: Scope) -> None:
        iterable = self.eval(stmt.iterable, env)
        items = self.dialect.iterate(iterable, stmt.mode)
        if items is None:
            reason = (
                iterable.reason
                if isinstance(iterable, Unknown)
                else f"a {type_name(iterable)} is not iterable"
            )
            self.warning(
                "eval.unknown_iterable",
                f"loop not run: what it loops over cannot be known statically ({reason})",
                stmt.line,
                stmt.col,
            )
            return
        limit = self.limits.max_loop_iterations
        for count, item in enumerate(items, start=1):
            if count > limit:
                self._loop_limit(stmt)
                return
            self.budget.step()
            iteration = Scope(env) if stmt.declare in ("let", "const") else env
            self.bind(stmt.target, item, iteration, stmt.declare, stmt.line, stmt.col)
            try:
                self.exec_block(stmt.body.body, Scope(iteration) if stmt.body.scoped else iteration)
            except _Break:
                return
            except _Continue:
                pass
        if stmt.other is not None:
            self.exec_block(stmt.other.body, env)

    def _function_decl(self, stmt: ir.FunctionDecl, env: Scope) -> None:
        if stmt.fn.name and stmt.fn.name not in env.vars:
            env.declare(stmt.fn.name, self._closure(stmt.fn, env))

    def _class_decl(self, stmt: ir.ClassDecl, env: Scope) -> None:
        cls = self._class(stmt.cls, env)
        if stmt.cls.name:
            env.declare(stmt.cls.name, cls)

    def _return(self, stmt: ir.Return, env: Scope) -> None:
        raise _Return(UNDEFINED if stmt.value is None else self.eval(stmt.value, env))

    def _break(self, stmt: ir.Break, env: Scope) -> None:
        raise _Break

    def _continue(self, stmt: ir.Continue, env: Scope) -> None:
        raise _Continue

    def _throw(self, stmt: ir.Throw, env: Scope) -> None:
        value = UNDEFINED if stmt.value is None else self.eval(stmt.value, env)
        raise ThrowSignal(value, stmt.line)

    def _try(self, stmt: ir.Try, env: Scope) -> None:
        try:
            self.exec_block(stmt.body.body, Scope(env))
        except ThrowSignal as thrown:
            if stmt.handler is None:
                raise
            handler_env = Scope(env)
            if stmt.handler_target is not None:
                self.bind(
                    stmt.handler_target, thrown.value, handler_env, "let", stmt.line, stmt.col
                )
            self.exec_block(stmt.handler.body, handler_env)
        finally:
            if stmt.final is not None:
                self.exec_block(stmt.final.body, Scope(env))

    def _switch(self, stmt: ir.Switch, env: Scope) -> None:
        value = self.eval(stmt.discriminant, env)
        switch_env = Scope(env)
        matched = False
        try:
            for test, body in stmt.cases:
                if not matched and test is not None:
                    same = self.dialect.equals(value, self.eval(test, switch_env))
                    if same is None:
                        self.warning(
                            "eval.unknown_condition",
                            "switch case cannot be decided statically; skipped",
                            stmt.line,
                            stmt.col,
                        )
                    matched = bool(same)
                if matched:
                    self.exec_block(body, switch_env)
            if not matched:
                for test, body in stmt.cases:
                    if test is None:
                        matched = True
                    if matched:
                        self.exec_block(body, switch_env)
        except _Break:
            return

    def _with(self, stmt: ir.With, env: Scope) -> None:
        for expr, target in stmt.items:
            value = self.eval(expr, env)
            if target is not None:
                self.bind(target, value, env, None, stmt.line, stmt.col)
        self.exec_block(stmt.body.body, env)

    def _nonlocal(self, stmt: ir.NonLocal, env: Scope) -> None:
        scope = env.function_scope()
        if scope.outer_names is None:
            scope.outer_names = set()
        scope.outer_names.update(stmt.names)

    def _delete(self, stmt: ir.Delete, env: Scope) -> None:
        for target in stmt.targets:
            if isinstance(target, ir.Member):
                obj = self.eval(target.obj, env)
                if isinstance(obj, dict):
                    obj.pop(target.name, None)
                elif isinstance(obj, Record):
                    obj.fields.pop(target.name, None)

    def _pass(self, stmt: ir.Pass, env: Scope) -> None:
        return None

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
            self.set_member(self.eval(member.obj, env), member.name, value, member.line, member.col)
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
            items = self.dialect.iterate(value, "of")
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
                if pattern.rest is not None:
                    self.bind(pattern.rest, unknown, env, declare, line, col)
                return
            values = list(itertools.islice(items, self.limits.max_collection))
            for i, item in enumerate(pattern.items):
                if item is not None:
                    self.bind(
                        item, values[i] if i < len(values) else UNDEFINED, env, declare, line, col
                    )
            if pattern.rest is not None:
                self.bind(pattern.rest, values[len(pattern.items) :], env, declare, line, col)
        elif kind is ir.DictPattern:
            props: ir.DictPattern = target  # type: ignore[assignment]
            used = set()
            for key, sub in props.props:
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
                target, instance = self._implicit_owner(name, env)
                if target is not None:
                    if instance:
                        self.set_member(target, name, value, line, col)
                    else:
                        target.static[name] = value
                    return
            self.globals.declare(name, value)
            return
        if owner.is_constant(name):
            self.warning("eval.const_assignment", f"assignment to the constant {name}", line, col)
        owner.vars[name] = value

    # --- members ------------------------------------------------------------------------------
    def get_member(self, obj: Value, name: str, line: int, col: int) -> Value:
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
                if name in cls.static:
                    return cls.static[name]
                if cls.explicit_self and name in cls.methods:
                    return Closure(cls.methods[name], cls.env, cls)
                base = cls.base
                if isinstance(base, EngineClass):
                    return self.get_member(base, name, line, col)
                cls = base if isinstance(base, ClassValue) else None
            return UNDEFINED
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
            return
        if isinstance(obj, ClassValue):
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
        if isinstance(obj, Unknown) or isinstance(key, Unknown):
            return
        self.dialect.set_index(CallContext(self, line, col), obj, key, value)

    # --- expressions ----------------------------------------------------------------------------
    def eval(self, expr: ir.Expr, env: Scope) -> Value:
        return self._eval[type(expr)](expr, env)

    def _const(self, expr: ir.Const, env: Scope) -> Value:
        return expr.value

    def _name(self, expr: ir.Name, env: Scope) -> Value:
        found, value = env.lookup(expr.id)
        if found:
            if isinstance(value, Record) and value.value_type:
                return value.copy()
            return value
        if self.dialect.implicit_this:
            member = self._implicit_member(expr.id, env, expr.line, expr.col)
            if member is not _NOT_A_MEMBER:
                return member
        fallback = self.engine.unbound_name(CallContext(self, expr.line, expr.col), expr.id)
        if fallback is not None:
            return fallback
        return Unknown(f"{expr.id} is not defined", expr.line)

    def _implicit_owner(self, name: str, env: Scope) -> tuple[Value, bool]:
        """Where a bare ``name`` inside a method refers to a member (C#): the instance
        (``True``) or the class holding the static (``False``); ``(None, False)`` for neither."""
        found, this = env.lookup(_THIS)
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
        found, home = env.lookup(_HOME)
        cls_value = home if found and isinstance(home, ClassValue) else None
        while cls_value is not None:
            if name in cls_value.static:
                return cls_value, False
            cls_value = cls_value.base if isinstance(cls_value.base, ClassValue) else None
        return None, False

    def _implicit_member(self, name: str, env: Scope, line: int, col: int) -> Value:
        owner, instance = self._implicit_owner(name, env)
        if owner is None:
            return _NOT_A_MEMBER
        if instance:
            return self.get_member(owner, name, line, col)
        value = owner.static[name]
        return value.copy() if isinstance(value, Record) and value.value_type else value

    def _member(self, expr: ir.Member, env: Scope) -> Value:
        obj = self._eval[type(expr.obj)](expr.obj, env)
        if expr.optional and (obj is None or obj is UNDEFINED):
            return UNDEFINED
        return self.get_member(obj, expr.name, expr.line, expr.col)

    def _index(self, expr: ir.Index, env: Scope) -> Value:
        obj = self.eval(expr.obj, env)
        if expr.optional and (obj is None or obj is UNDEFINED):
            return UNDEFINED
        if isinstance(expr.index, ir.Slice):
            sl = expr.index
            parts = [
                UNDEFINED if p is None else self.eval(p, env) for p in (sl.lower, sl.upper, sl.step)
            ]
            return self.dialect.slice(CallContext(self, expr.line, expr.col), obj, *parts)
        key = self.eval(expr.index, env)
        if isinstance(obj, Unknown):
            return obj
        if isinstance(key, Unknown):
            return key
        if isinstance(obj, Record | Namespace | ClassValue | EngineClass) and isinstance(key, str):
            return self.get_member(obj, key, expr.line, expr.col)
        return self.dialect.get_index(CallContext(self, expr.line, expr.col), obj, key)

    def _slice_alone(self, expr: ir.Slice, env: Scope) -> Value:
        # A slice inside a tuple index (numpy's ``m[:3, 3]``): a Python ``slice`` value the
        # dialect's ``get_index``/``set_index`` receives in the tuple.
        parts = [
            None if p is None else self.eval(p, env) for p in (expr.lower, expr.upper, expr.step)
        ]
        if all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in parts):
            return slice(*parts)
        return Unknown("a slice that cannot be known statically", expr.line)

    def _arguments(
        self, args: tuple[ir.Argument, ...], env: Scope
    ) -> tuple[list[Value], dict[str, Value]]:
        positional: list[Value] = []
        keywords: dict[str, Value] = {}
        evaluate = self._eval  # ``self.eval`` inlined: arguments are the commonest expressions
        for arg in args:
            kind = type(arg)
            if kind is ir.Spread:
                value = self.eval(arg.value, env)  # type: ignore[union-attr]
                items = self.dialect.iterate(value, "of")
                if items is None:
                    positional.append(
                        Unknown(
                            value.reason
                            if isinstance(value, Unknown)
                            else "spread of a non-iterable"
                        )
                    )
                else:
                    positional.extend(itertools.islice(items, self.limits.max_collection))
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

    def _call(self, expr: ir.Call, env: Scope) -> Value:
        func_expr = expr.func
        this: Value = UNDEFINED
        if type(func_expr) is ir.Member:
            receiver = self._eval[type(func_expr.obj)](func_expr.obj, env)
            if func_expr.optional and (receiver is None or receiver is UNDEFINED):
                return UNDEFINED
            if isinstance(receiver, Unknown):
                args, kwargs = self._arguments(expr.args, env)
                handled = self.engine.call_on_unknown(
                    CallContext(self, expr.line, expr.col), receiver, func_expr.name, args, kwargs
                )
                return receiver if handled is None else handled
            function = self.get_member(receiver, func_expr.name, func_expr.line, func_expr.col)
            this = receiver
        elif type(func_expr) is ir.SuperMember:
            function = self._super_member(func_expr, env)
            _found, this = env.lookup(_THIS)
        else:
            function = self.eval(func_expr, env)
        if expr.optional and (function is None or function is UNDEFINED):
            return UNDEFINED
        args, kwargs = self._arguments(expr.args, env)
        return self._call_value(function, args, kwargs, expr.line, expr.col, this)

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
        new_target: ClassValue | None = None,
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
            scope.declare(_THIS, this)
            if closure.home is not None:
                scope.declare(_HOME, closure.home)
            if new_target is not None:
                scope.declare(_NEW_TARGET, new_target)
        self._bind_params(fn, args, kwargs, scope, line, col)
        self.depth += 1
        try:
            if not isinstance(fn.body, ir.Block):
                return self.eval(fn.body, scope)
            try:
                self.exec_block(fn.body.body, scope)
            except _Return as returned:
                return returned.value
            except (_Break, _Continue):
                pass
            return UNDEFINED
        finally:
            self.depth -= 1

    def _bind_params(
        self,
        fn: ir.FunctionExpr,
        args: list[Value],
        kwargs: dict[str, Value],
        scope: Scope,
        line: int,
        col: int,
    ) -> None:
        position = 0
        remaining = dict(kwargs)
        for param in fn.params:
            if param.kind == "rest":
                self.bind(param.target, list(args[position:]), scope, "let", line, col)
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
                value = self.eval(param.default, scope)
            self.bind(param.target, value, scope, "let", line, col)

    def _new(self, expr: ir.New, env: Scope) -> Value:
        function = self.eval(expr.func, env)
        args, kwargs = self._arguments(expr.args, env)
        if isinstance(function, Closure):
            # A constructor function: ``this`` is a fresh plain object.
            this = Record("")
            result = self._invoke(function, args, kwargs, this, expr.line, expr.col)
            return result if isinstance(result, Record | dict) else this
        return self._construct(function, args, kwargs, expr.line, expr.col)

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
            # Python: the instance exists first; __init__ (inherited or not) fills it.
            engine_base = cls.engine_base()
            instance: Value = Record("", cls=target)
            if engine_base is not None:
                instance = self._construct(engine_base, [], {}, line, col, target)
            self._init_fields(cls, instance, line, col)
            ctor = self._find_constructor(cls)
            if ctor is not None:
                fn, home = ctor
                self._invoke(
                    Closure(fn, home.env, home), [instance, *args], kwargs, instance, line, col
                )
            return instance
        if cls.constructor is None:
            if cls.base is None or cls.base is UNDEFINED:
                record = Record("", cls=target)
            else:
                record = self._construct(cls.base, args, kwargs, line, col, target)
            if isinstance(record, Record):
                record.cls = target
                self._init_fields(cls, record, line, col)
            return record
        if cls.base is None or cls.base is UNDEFINED:
            record = Record("", cls=target)
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
        scope.declare(_THIS, record)
        for name, init in cls.instance_fields:
            record.fields[name] = UNDEFINED if init is None else self.eval(init, scope)

    def _super_call(self, expr: ir.SuperCall, env: Scope) -> Value:
        found, home = env.lookup(_HOME)
        if not found or not isinstance(home, ClassValue):
            return Unknown("super() outside a class", expr.line)
        args, kwargs = self._arguments(expr.args, env)
        if home.explicit_self:
            _, instance = env.lookup(_THIS)
            base = home.base
            if isinstance(base, ClassValue):
                ctor = self._find_constructor(base)
                if ctor is not None:
                    fn, owner = ctor
                    self._invoke(
                        Closure(fn, owner.env, owner),
                        [instance, *args],
                        kwargs,
                        instance,
                        expr.line,
                        expr.col,
                    )
            return UNDEFINED
        _, new_target = env.lookup(_NEW_TARGET)
        target = new_target if isinstance(new_target, ClassValue) else home
        base = home.base
        if (
            isinstance(base, ClassValue)
            and base.constructor is not None
            and base.base not in (None, UNDEFINED)
        ):
            record = self._construct(base, args, kwargs, expr.line, expr.col, target)
        elif isinstance(base, ClassValue):
            record = self._construct_plain_base(base, args, kwargs, expr.line, expr.col, target)
        else:
            record = self._construct(base, args, kwargs, expr.line, expr.col, target)
        if isinstance(record, Record):
            record.cls = target
            self._init_fields(home, record, expr.line, expr.col)
        scope = env.function_scope()
        scope.declare(_THIS, record)
        if self._pending_this:
            self._pending_this[-1]["this"] = record
        return UNDEFINED

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
        record = Record("", cls=target)
        self._init_fields(base, record, line, col)
        if base.constructor is not None:
            self._invoke(
                Closure(base.constructor, base.env, base), args, kwargs, record, line, col, target
            )
        return record

    def _super_member(self, expr: ir.SuperMember, env: Scope) -> Value:
        found, home = env.lookup(_HOME)
        if not found or not isinstance(home, ClassValue):
            return Unknown("super outside a class", expr.line)
        base = home.base
        _, this = env.lookup(_THIS)
        if isinstance(base, ClassValue):
            method = base.find_method(expr.name)
            if method is not None:
                fn, owner = method
                return Closure(fn, owner.env, owner)
            base = base.engine_base()
        if isinstance(base, EngineClass) and isinstance(this, Record) and this.kind:
            builtin = self.engine.method(this.kind, expr.name)
            if builtin is not None:
                return BoundMethod(this, builtin)
        return Unknown(f"super.{expr.name} is not known", expr.line)

    def _binary(self, expr: ir.Binary, env: Scope) -> Value:
        left = self.eval(expr.left, env)
        right = self.eval(expr.right, env)
        op = expr.op
        if op == "instanceof":
            return self._instanceof(left, right)
        return self.dialect.binary(op, left, right)

    def _instanceof(self, value: Value, cls: Value) -> Value:
        if isinstance(value, Unknown) or isinstance(cls, Unknown):
            return Unknown("instanceof of an unknown value")
        if not isinstance(value, Record):
            return False
        if isinstance(cls, EngineClass):
            return self.engine.is_a(value, cls.name)
        current = value.cls
        while isinstance(current, ClassValue):
            if current is cls:
                return True
            current = current.base
        return False

    def _compare(self, expr: ir.Compare, env: Scope) -> Value:
        left = self.eval(expr.operands[0], env)
        result: Value = True
        for op, operand in zip(expr.ops, expr.operands[1:], strict=True):
            right = self.eval(operand, env)
            result = self.dialect.binary(op, left, right)
            truth = self.dialect.truthy(result)
            if truth is None:
                return Unknown("comparison of unknown values")
            if not truth:
                return False
            left = right
        return result

    def _logical(self, expr: ir.Logical, env: Scope) -> Value:
        left = self.eval(expr.left, env)
        if expr.op == "??":
            if isinstance(left, Unknown):
                return left
            return self.eval(expr.right, env) if left is None or left is UNDEFINED else left
        truth = self.dialect.truthy(left)
        if truth is None:
            return left
        if expr.op == "and":
            return self.eval(expr.right, env) if truth else left
        return left if truth else self.eval(expr.right, env)

    def _unary(self, expr: ir.Unary, env: Scope) -> Value:
        if expr.op == "typeof" and isinstance(expr.operand, ir.Name):
            found, value = env.lookup(expr.operand.id)
            if (
                not found
                and self.engine.unbound_name(
                    CallContext(self, expr.line, expr.col), expr.operand.id
                )
                is None
            ):
                return "undefined"
        value = self.eval(expr.operand, env)
        if expr.op == "typeof":
            return self.dialect.typeof(value)
        if expr.op == "void":
            return UNDEFINED
        return self.dialect.unary(expr.op, value)

    def _conditional(self, expr: ir.Conditional, env: Scope) -> Value:
        test = self.eval(expr.test, env)
        truth = self.dialect.truthy(test)
        if truth is None:
            return (
                test
                if isinstance(test, Unknown)
                else Unknown("an undecidable condition", expr.line)
            )
        return self.eval(expr.then if truth else expr.other, env)

    def _collect(self, items: tuple[ir.Expr | ir.Spread, ...], env: Scope) -> list[Value]:
        result: list[Value] = []
        evaluate = self._eval  # ``self.eval`` inlined, as in ``_arguments``
        for item in items:
            if type(item) is ir.Spread:
                value = self.eval(item.value, env)
                values = self.dialect.iterate(value, "of")
                if values is None:
                    result.append(
                        Unknown(
                            value.reason
                            if isinstance(value, Unknown)
                            else "spread of a non-iterable"
                        )
                    )
                else:
                    result.extend(itertools.islice(values, self.limits.max_collection))
            else:
                result.append(evaluate[type(item)](item, env))
            if len(result) > self.limits.max_collection:
                self.warning(
                    "eval.too_large",
                    f"a list longer than {self.limits.max_collection} items is cut",
                    item.line,
                    item.col,
                )
                return result[: self.limits.max_collection]
        return result

    def _list(self, expr: ir.ListLit, env: Scope) -> Value:
        return self._collect(expr.items, env)

    def _tuple(self, expr: ir.TupleLit, env: Scope) -> Value:
        return tuple(self._collect(expr.items, env))

    def _dict(self, expr: ir.DictLit, env: Scope) -> Value:
        result: dict[Any, Value] = {}
        for entry in expr.entries:
            if type(entry) is ir.Spread:
                value = self.eval(entry.value, env)
                if isinstance(value, dict):
                    result.update(value)
                elif isinstance(value, Record):
                    result.update(value.fields)
                elif isinstance(value, list):
                    result.update({str(i): v for i, v in enumerate(value)})
                continue
            key_expr, value_expr = entry  # type: ignore[misc]
            key = self.eval(key_expr, env)
            if isinstance(key, Unknown):
                continue
            if self.dialect.name == "javascript" and not isinstance(key, str):
                key = self.dialect.to_string(key)
            try:
                result[key] = self.eval(value_expr, env)
            except TypeError:
                self.warning(
                    "eval.bad_key",
                    f"a {type_name(key)} cannot be a key",
                    key_expr.line,
                    key_expr.col,
                )
        return result

    def _template(self, expr: ir.Template, env: Scope) -> Value:
        parts: list[str] = []
        for part in expr.parts:
            if isinstance(part, str):
                parts.append(part)
                continue
            text = self.dialect.format_value(self.eval(part, env))
            if text is None:
                return Unknown("a template with an unknown part", expr.line)
            parts.append(text)
        return "".join(parts)

    def _sequence(self, expr: ir.Sequence, env: Scope) -> Value:
        value: Value = UNDEFINED
        for item in expr.items:
            value = self.eval(item, env)
        return value

    def _assign(self, expr: ir.Assign, env: Scope) -> Value:
        if expr.op is None:
            value = self.eval(expr.value, env)
        elif expr.op in ("&&", "||", "??"):
            current = self.eval(expr.target, env)  # type: ignore[arg-type]
            truth = self.dialect.truthy(current)
            keep = {
                "&&": truth is False,
                "||": truth is True,
                "??": current is not None and current is not UNDEFINED,
            }[expr.op]
            if keep:
                return current
            value = self.eval(expr.value, env)
        else:
            current = self.eval(expr.target, env)  # type: ignore[arg-type]
            value = self.dialect.augmented(expr.op, current, self.eval(expr.value, env))
        self.bind(expr.target, value, env, None, expr.line, expr.col)
        return value

    def _update(self, expr: ir.Update, env: Scope) -> Value:
        current = self.eval(expr.target, env)  # type: ignore[arg-type]
        number = self.dialect.to_number(current)
        old: Value = number if number is not None else Unknown("increment of a non-number")
        new = self.dialect.binary("+", old, expr.delta)
        self.bind(expr.target, new, env, None, expr.line, expr.col)
        return new if expr.prefix else old

    def _closure(self, fn: ir.FunctionExpr, env: Scope) -> Closure:
        found, home = env.lookup(_HOME)
        return Closure(fn, env, home if found and isinstance(home, ClassValue) else None)

    def _function(self, expr: ir.FunctionExpr, env: Scope) -> Value:
        if expr.name and not expr.arrow:
            # A named function expression sees its own name.
            inner = Scope(env)
            closure = self._closure(expr, inner)
            inner.declare(expr.name, closure)
            return closure
        return self._closure(expr, env)

    def _class(self, expr: ir.ClassExpr, env: Scope) -> Value:
        base = self.eval(expr.base, env) if expr.base is not None else None
        class_env = Scope(env)
        cls = ClassValue(expr.name or "<class>", base, class_env, explicit_self=expr.explicit_self)
        if expr.name:
            class_env.declare(expr.name, cls)
        class_env.declare(_HOME, cls)
        fields: list[tuple[str, ir.Expr | None]] = []
        for member in expr.members:
            if member.kind == "constructor" and isinstance(member.value, ir.FunctionExpr):
                cls.constructor = member.value
            elif member.kind == "method" and isinstance(member.value, ir.FunctionExpr):
                if member.static:
                    cls.static[member.name] = Closure(member.value, class_env, cls)
                else:
                    cls.methods[member.name] = member.value
            elif member.kind == "getter" and isinstance(member.value, ir.FunctionExpr):
                cls.getters[member.name] = member.value
            elif member.kind == "setter" and isinstance(member.value, ir.FunctionExpr):
                cls.setters[member.name] = member.value
            elif member.kind == "field":
                init = member.value
                if member.static:
                    static_scope = Scope(class_env, function=True)
                    static_scope.declare(_THIS, cls)
                    cls.static[member.name] = (
                        UNDEFINED if init is None else self.eval(init, static_scope)
                    )
                else:
                    fields.append((member.name, init))
        cls.instance_fields = tuple(fields)
        return cls

    def _comprehension(self, expr: ir.Comprehension, env: Scope) -> Value:
        scope = Scope(env, function=True)
        results: list[Value] = []
        pairs: list[tuple[Value, Value]] = []
        counter = [0]

        def run(level: int) -> None:
            if level == len(expr.clauses):
                counter[0] += 1
                if counter[0] > self.limits.max_loop_iterations:
                    raise _Break
                self.budget.step()
                if isinstance(expr.element, tuple):
                    pairs.append(
                        (self.eval(expr.element[0], scope), self.eval(expr.element[1], scope))
                    )
                else:
                    results.append(self.eval(expr.element, scope))
                return
            clause = expr.clauses[level]
            if isinstance(clause, ir.CompIf):
                if self.dialect.truthy(self.eval(clause.test, scope)):
                    run(level + 1)
                return
            items = self.dialect.iterate(self.eval(clause.iterable, scope), "of")
            if items is None:
                raise _Continue
            for item in items:
                self.bind(clause.target, item, scope, None, clause.line, clause.col)
                run(level + 1)

        try:
            run(0)
        except _Break:
            self._loop_limit(expr)
        except _Continue:
            self.warning(
                "eval.unknown_iterable",
                "comprehension over a value that cannot be known statically",
                expr.line,
                expr.col,
            )
            return Unknown("comprehension over an unknown value", expr.line)
        if expr.kind == "dict":
            return {k: v for k, v in pairs if not isinstance(k, Unknown)}
        if expr.kind == "set":
            return list(
                dict.fromkeys(v for v in results if not isinstance(v, list | dict | Record))
            )
        return results

    def _import(self, expr: ir.ImportValue, env: Scope) -> Value:
        return self.engine.resolve_import(
            CallContext(self, expr.line, expr.col), expr.module, expr.name
        )

    def _await(self, expr: ir.Await, env: Scope) -> Value:
        return self.eval(expr.value, env)

    def _opaque(self, expr: ir.Opaque, env: Scope) -> Value:
        return Unknown(expr.what, expr.line)
