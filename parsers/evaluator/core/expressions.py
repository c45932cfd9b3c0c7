"""Expressions for the interpreter: names (with C#'s implicit ``this``), members, indexes,
calls and ``new``, ``super``, operators through the dialect, literals with spreads,
templates, assignments, functions, comprehensions under the iteration cap, imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from parsers.evaluator.core import ir
from parsers.evaluator.core.calls import Calls
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import HOME, NEW_TARGET, THIS, BreakSignal, ContinueSignal
from parsers.evaluator.core.generators import Generator, run_yield
from parsers.evaluator.core.scope import Scope
from parsers.evaluator.core.values import (
    UNDEFINED,
    BoundMethod,
    ClassValue,
    Closure,
    EngineClass,
    Namespace,
    Record,
    Unknown,
    Value,
    type_name,
)

#: What ``_implicit_member`` gives when a bare name is no member of ``this`` or its class.
_NOT_A_MEMBER = object()


class ExpressionEvaluator(Calls):
    """The handler of each expression of ``ir``."""

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
        if expr.id == NEW_TARGET:  # JavaScript's new.target in a call without new
            return UNDEFINED
        if expr.id in self.dialect.builtin_names:
            made = self.dialect.builtin_value(expr.id)
            self.globals.declare(expr.id, made)
            return made
        fallback = self.engine.unbound_name(CallContext(self, expr.line, expr.col), expr.id)
        if fallback is not None:
            return fallback
        return Unknown(f"{expr.id} is not defined", expr.line)

    def _defined(self, name: str, env: Scope) -> bool:
        """Whether a bare ``name`` means something the code or its libraries define."""
        if env.lookup(name)[0] or name in self.dialect.builtin_names:
            return True
        return self.dialect.implicit_this and self._implicit_owner(name, env)[0] is not None

    def _implicit_member(self, name: str, env: Scope, line: int, col: int) -> Value:
        owner, instance = self._implicit_owner(name, env)
        if owner is None:
            return _NOT_A_MEMBER
        value = self.get_member(owner, name, line, col)
        if not instance and isinstance(value, Record) and value.value_type:
            return value.copy()
        return value

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

    def _call(self, expr: ir.Call, env: Scope) -> Value:
        func_expr = expr.func
        this: Value = UNDEFINED
        if type(func_expr) is ir.Member:
            # A call whose value is dropped is made for what it does to an object.
            for_effect = expr is self.statement_expr
            # A struct's method acts on the variable's own struct (``v.Normalize()``).
            obj_expr = func_expr.obj
            found = False
            if type(obj_expr) is ir.Name:
                found, receiver = env.lookup(obj_expr.id)
            if not found:
                receiver, _ = self.locate(obj_expr, env)
            if func_expr.optional and (receiver is None or receiver is UNDEFINED):
                return UNDEFINED
            if isinstance(receiver, Unknown):
                args, kwargs = self._arguments(expr.args, env)
                handled = self.engine.call_on_unknown(
                    CallContext(self, expr.line, expr.col), receiver, func_expr.name, args, kwargs
                )
                if handled is None:
                    handled = self.undefined_helper(
                        func_expr.name, args, kwargs, expr.line, expr.col
                    )
                if handled is None and for_effect:
                    self.dialect.unfollowed_call(
                        CallContext(self, expr.line, expr.col), func_expr.name, receiver
                    )
                return receiver if handled is None else handled
            function = self.get_member(
                receiver, func_expr.name, func_expr.line, func_expr.col, call=True
            )
            this = receiver
            if function is UNDEFINED and isinstance(receiver, Record | ClassValue):
                # A method of the model's own class that it never wrote.
                args, kwargs = self._arguments(expr.args, env)
                replaced = self.undefined_helper(func_expr.name, args, kwargs, expr.line, expr.col)
                if replaced is not None:
                    return replaced
                result = self._call_value(function, args, kwargs, expr.line, expr.col, this)
                if for_effect and isinstance(result, Unknown):
                    self.dialect.unfollowed_call(
                        CallContext(self, expr.line, expr.col), func_expr.name, result
                    )
                return result
            if for_effect and (
                function is UNDEFINED or (isinstance(function, Unknown) and not function.inert)
            ):
                # An engine method the table does not model, or no method at all.
                why = (
                    function
                    if isinstance(function, Unknown)
                    else Unknown(f"a {type_name(receiver)} has no method {func_expr.name}")
                )
                self.dialect.unfollowed_call(
                    CallContext(self, expr.line, expr.col), func_expr.name, why
                )
        elif type(func_expr) is ir.SuperMember:
            function = self._super_member(func_expr, env)
            _found, this = env.lookup(THIS)
        elif (
            type(func_expr) is ir.Name
            and self.reads_helpers
            and not self._defined(func_expr.id, env)
        ):
            args, kwargs = self._arguments(expr.args, env)
            replaced = self.undefined_helper(func_expr.id, args, kwargs, expr.line, expr.col)
            if replaced is not None:
                return replaced
            function = self.eval(func_expr, env)
            return self._call_value(function, args, kwargs, expr.line, expr.col, this)
        else:
            function = self.eval(func_expr, env)
        if expr.optional and (function is None or function is UNDEFINED):
            return UNDEFINED
        args, kwargs = self._arguments(expr.args, env)
        return self._call_value(function, args, kwargs, expr.line, expr.col, this)

    def _new(self, expr: ir.New, env: Scope) -> Value:
        function = self.eval(expr.func, env)
        args, kwargs = self._arguments(expr.args, env)
        if isinstance(function, Closure):
            # A constructor function: ``this`` is a fresh plain object.
            this = Record("")
            result = self._invoke(function, args, kwargs, this, expr.line, expr.col, function)
            return result if isinstance(result, Record | dict) else this
        return self._construct(function, args, kwargs, expr.line, expr.col)

    def _super_call(self, expr: ir.SuperCall, env: Scope) -> Value:
        found, home = env.lookup(HOME)
        if not found or not isinstance(home, ClassValue):
            return Unknown("super() outside a class", expr.line)
        args, kwargs = self._arguments(expr.args, env)
        if home.explicit_self:
            _, instance = env.lookup(THIS)
            base = home.base
            if isinstance(base, ClassValue):
                ctor = self._find_constructor(base)
                if ctor is not None:
                    fn, owner = ctor
                    self._run_closure(
                        Closure(fn, owner.env, owner),
                        [instance, *args],
                        kwargs,
                        instance,
                        expr.line,
                        expr.col,
                        None,
                    )
            return UNDEFINED
        _, new_target = env.lookup(NEW_TARGET)
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
        scope.declare(THIS, record)
        if self._pending_this:
            self._pending_this[-1]["this"] = record
        return UNDEFINED

    def _super_member(self, expr: ir.SuperMember, env: Scope) -> Value:
        found, home = env.lookup(HOME)
        if not found or not isinstance(home, ClassValue):
            return Unknown("super outside a class", expr.line)
        base = home.base
        _, this = env.lookup(THIS)
        if isinstance(base, ClassValue):
            method = base.find_method(expr.name)
            if method is not None:
                fn, owner = method
                closure = Closure(fn, owner.env, owner)
                # Python's super().m(...) passes the instance as the method's first argument.
                return BoundMethod(this, closure) if owner.explicit_self else closure
            getter = base.find_accessor(expr.name, setter=False)
            if getter is not None:
                fn, owner = getter
                args = [this] if owner.explicit_self else []
                return self._invoke(
                    Closure(fn, owner.env, owner), args, {}, this, expr.line, expr.col
                )
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
        if self.protocols and (type(left) is Record or type(right) is Record):
            return self.binary(op, left, right, expr.line, expr.col)
        return self.dialect.binary(op, left, right)

    def _instanceof(self, value: Value, cls: Value) -> Value:
        if isinstance(value, Unknown) or isinstance(cls, Unknown):
            return Unknown("instanceof of an unknown value")
        builtin = self.dialect.instance_of(value, cls)
        if builtin is not None:
            return builtin
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
            result = self.binary(op, left, right, expr.line, expr.col)
            truth = self.truth(result, expr.line, expr.col)
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
        if self.protocols and type(value) is Record:
            result = self.dialect.record_unary(
                CallContext(self, expr.line, expr.col), expr.op, value
            )
            if result is not NotImplemented:
                return result
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
                self._spread(item, env, result)
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
                    # Private fields (JavaScript's ``#x``) are no properties to copy.
                    result.update((k, v) for k, v in value.fields.items() if k[:1] != "#")
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
            value = self.eval(part, env)
            text = self.dialect.format_value(value)
            if text is None and self.dialect.record_protocols and not isinstance(value, Unknown):
                text = self.dialect.format_with_context(
                    CallContext(self, part.line, part.col), value
                )
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
            operand = self.eval(expr.value, env)
            if self.protocols and type(current) is Record and current.cls is not None:
                value = self.binary(expr.op, current, operand, expr.line, expr.col)
            else:
                value = self.dialect.augmented(expr.op, current, operand)
        self.bind(expr.target, value, env, None, expr.line, expr.col)
        return value

    def _update(self, expr: ir.Update, env: Scope) -> Value:
        current = self.eval(expr.target, env)  # type: ignore[arg-type]
        number = self.dialect.to_number(current)
        old: Value = number if number is not None else Unknown("increment of a non-number")
        new = self.dialect.binary("+", old, expr.delta)
        self.bind(expr.target, new, env, None, expr.line, expr.col)
        return new if expr.prefix else old

    def _function(self, expr: ir.FunctionExpr, env: Scope) -> Value:
        if expr.name and not expr.arrow:
            # A named function expression sees its own name.
            inner = Scope(env)
            closure = self._closure(expr, inner)
            inner.declare(expr.name, closure)
            return closure
        return self._closure(expr, env)

    def _comprehension(self, expr: ir.Comprehension, env: Scope) -> Value:
        # The loop targets are the comprehension's own (declared in its scope); an assignment
        # expression inside it binds in the enclosing function, as Python's ``:=`` does.
        scope = Scope(env)
        if expr.kind == "generator":
            return self._generator_expression(expr, scope)
        results: list[Value] = []
        pairs: list[tuple[Value, Value]] = []
        counter = [0]

        def run(level: int) -> None:
            if level == len(expr.clauses):
                counter[0] += 1
                if counter[0] > self.limits.max_loop_iterations:
                    raise BreakSignal
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
                if self._comprehension_test(clause, scope):
                    run(level + 1)
                return
            items = self.iterate(self.eval(clause.iterable, scope), "of")
            if items is None:
                raise ContinueSignal
            for item in items:
                self.bind(clause.target, item, scope, "let", clause.line, clause.col)
                run(level + 1)

        try:
            run(0)
        except BreakSignal:
            self._loop_limit(expr)
        except ContinueSignal:
            self.warning(
                "eval.unknown_iterable",
                "comprehension over a value that cannot be known statically",
                expr.line,
                expr.col,
            )
            return Unknown("comprehension over an unknown value", expr.line)
        return self.dialect.comprehension(expr.kind, results, pairs)

    def _comprehension_test(self, clause: ir.CompIf, scope: Scope) -> bool:
        truth = self.dialect.truthy(self.eval(clause.test, scope))
        if truth is None:
            self.warning(
                "eval.unknown_condition",
                "this comprehension condition cannot be decided statically; the item is left out",
                clause.line,
                clause.col,
            )
        return bool(truth)

    def _generator_expression(self, expr: ir.Comprehension, scope: Scope) -> Value:
        """A generator expression: its first iterable is read at once, everything else as
        its items are asked for."""
        first = expr.clauses[0] if expr.clauses else None
        if not isinstance(first, ir.CompFor) or not isinstance(expr.element, ir.Node):
            return Unknown("a generator expression that cannot be read", expr.line)
        head = self.iterate(self.eval(first.iterable, scope), "of")
        if head is None:
            self.warning(
                "eval.unknown_iterable",
                "generator expression over a value that cannot be known statically",
                expr.line,
                expr.col,
            )
            return Unknown("generator expression over an unknown value", expr.line)
        element: ir.Expr = expr.element
        clauses = expr.clauses
        limit = self.limits.max_loop_iterations

        def items(level: int, source: Iterable[Value] | None) -> Iterator[Value]:
            if level == len(clauses):
                yield self.eval(element, scope)
                return
            clause = clauses[level]
            if isinstance(clause, ir.CompIf):
                if self._comprehension_test(clause, scope):
                    yield from items(level + 1, None)
                return
            if source is None:
                source = self.iterate(self.eval(clause.iterable, scope), "of")
                if source is None:
                    self.warning(
                        "eval.unknown_iterable",
                        "generator expression over a value that cannot be known statically",
                        clause.line,
                        clause.col,
                    )
                    return
            for item in source:
                self.bind(clause.target, item, scope, "let", clause.line, clause.col)
                yield from items(level + 1, None)

        def capped() -> Iterator[Value]:
            for count, item in enumerate(items(0, head), start=1):
                if count > limit:
                    self._loop_limit(expr)
                    return
                self.budget.step()
                yield item

        return Generator(self, items=capped())

    def _import(self, expr: ir.ImportValue, env: Scope) -> Value:
        return self.engine.resolve_import(
            CallContext(self, expr.line, expr.col), expr.module, expr.name
        )

    def _await(self, expr: ir.Await, env: Scope) -> Value:
        return self.eval(expr.value, env)

    def _yield(self, expr: ir.Yield, env: Scope) -> Value:
        value = UNDEFINED if expr.value is None else self.eval(expr.value, env)
        return run_yield(self, expr, value)

    def _opaque(self, expr: ir.Opaque, env: Scope) -> Value:
        return Unknown(expr.what, expr.line)
