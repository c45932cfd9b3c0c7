"""Statements for the interpreter: running a whole program (uncaught throws, the budget and
recursion stop it with a diagnostic, the engine's ``after_program`` runs last), declarations,
branches on conditions that may be unknown, loops under the iteration cap, ``try``,
``switch``, ``with``, ``return``/``break``/``continue``/``throw``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from parsers.evaluator.core import ir
from parsers.evaluator.core.calls import Calls
from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.control_flow import (
    BreakSignal,
    ContinueSignal,
    ReturnSignal,
    ThrowSignal,
)
from parsers.evaluator.core.generators import Generator, abandon_all
from parsers.evaluator.core.limits import BudgetExceeded
from parsers.evaluator.core.scope import Scope
from parsers.evaluator.core.values import UNDEFINED, Record, Unknown, type_name


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


class StatementRunner(Calls):
    """The handler of each statement of ``ir``."""

    def run(self, program: ir.Block) -> None:
        """Run a whole program; never raises for anything the program does."""
        with _recursion_room(20_000):
            try:
                self._run_program(program)
            finally:
                abandon_all(self)

    def _run_program(self, program: ir.Block) -> None:
        self._run_top(program.body, self.globals)
        if self.stopped is None:
            try:
                self.engine.after_program(CallContext(self, program.line, program.col))
            except BudgetExceeded as stop:
                self._stop(program.line, stop)
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
                self._stop(stmt.line, stop)
                return
            except ThrowSignal as thrown:
                self.warning(
                    "eval.uncaught_throw",
                    f"the script throws {self._describe(thrown.value)} here; the statements after it do not run",
                    thrown.line or stmt.line,
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
            except (ReturnSignal, BreakSignal, ContinueSignal):
                continue

    def _expr_stmt(self, stmt: ir.ExprStmt, env: Scope) -> None:
        self.statement_expr = stmt.expr
        self._eval[type(stmt.expr)](stmt.expr, env)

    def _declare(self, stmt: ir.Declare, env: Scope) -> None:
        if (
            stmt.value is None
            and stmt.kind == "var"
            and type(stmt.target) is ir.Name
            and stmt.target.id in env.function_scope().vars
        ):
            return  # ``var x;`` leaves a name its function already binds as it is
        value = UNDEFINED if stmt.value is None else self.eval(stmt.value, env)
        self.bind(stmt.target, value, env, stmt.kind, stmt.line, stmt.col)

    def _block_stmt(self, stmt: ir.Block, env: Scope) -> None:
        self.exec_block(stmt.body, Scope(env) if stmt.scoped else env)

    def _decide(self, test: ir.Expr, env: Scope, what: str) -> bool | None:
        value = self.eval(test, env)
        truth = (
            self.truth(value, test.line, test.col)
            if self.protocols and type(value) is Record
            else self.dialect.truthy(value)
        )
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

    def _run_body(self, body: ir.Block, env: Scope, labels: tuple[str, ...] = ()) -> bool:
        """Run a loop body; False when it breaks. A ``break``/``continue`` naming a label the
        loop does not carry goes on to the statement that does."""
        try:
            self.exec_block(body.body, Scope(env) if body.scoped else env)
        except BreakSignal as signal:
            if signal.label is not None and signal.label not in labels:
                raise
            return False
        except ContinueSignal as signal:
            if signal.label is not None and signal.label not in labels:
                raise
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
            if not self._run_body(stmt.body, env, stmt.labels):
                broke = True
                break
        if not broke and stmt.other is not None:
            self.exec_block(stmt.other.body, env)

    def _for_c(self, stmt: ir.ForC, env: Scope) -> None:
        loop_env = Scope(env)
        if stmt.init is not None:
            self.exec(stmt.init, loop_env)
        per_iteration = stmt.per_iteration
        if per_iteration:
            loop_env = loop_env.copy()
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
            if not self._run_body(stmt.body, loop_env, stmt.labels):
                return
            if per_iteration:
                loop_env = loop_env.copy()
            if stmt.update is not None:
                self.eval(stmt.update, loop_env)

    def _for_each(self, stmt: ir.ForEach, env: Scope) -> None:
        iterable = self.eval(stmt.iterable, env)
        items = (
            iterable if type(iterable) is Generator else self.dialect.iterate(iterable, stmt.mode)
        )
        if items is None:
            items = self.iterate(iterable, stmt.mode)
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
            except BreakSignal as signal:
                if signal.label is not None and signal.label not in stmt.labels:
                    raise
                return
            except ContinueSignal as signal:
                if signal.label is not None and signal.label not in stmt.labels:
                    raise
        if stmt.other is not None:
            self.exec_block(stmt.other.body, env)

    def _function_decl(self, stmt: ir.FunctionDecl, env: Scope) -> None:
        if stmt.fn.name and (self.dialect.rebinds_definitions or stmt.fn.name not in env.vars):
            env.declare(stmt.fn.name, self._closure(stmt.fn, env))

    def _class_decl(self, stmt: ir.ClassDecl, env: Scope) -> None:
        cls = self._class(stmt.cls, env)
        if stmt.cls.name:
            env.declare(stmt.cls.name, cls)

    def _return(self, stmt: ir.Return, env: Scope) -> None:
        raise ReturnSignal(UNDEFINED if stmt.value is None else self.eval(stmt.value, env))

    def _break(self, stmt: ir.Break, env: Scope) -> None:
        raise BreakSignal(stmt.label)

    def _continue(self, stmt: ir.Continue, env: Scope) -> None:
        raise ContinueSignal(stmt.label)

    def _labeled(self, stmt: ir.Labeled, env: Scope) -> None:
        try:
            self.exec_block(stmt.body.body, env)
        except BreakSignal as signal:
            if signal.label != stmt.label:
                raise

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
            if stmt.final is not None and not self.abandoning:
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
        except BreakSignal as signal:
            if signal.label is not None:
                raise

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
                elif isinstance(obj, Record) and self.engine.owns(obj):
                    self.warning(
                        "eval.ignored_delete",
                        f"deleting {target.name} of an engine object ({obj.kind}) is not followed:"
                        " the object keeps it",
                        target.line,
                        target.col,
                    )
                elif isinstance(obj, Record):
                    obj.fields.pop(target.name, None)
                elif isinstance(obj, Unknown):
                    self.dialect.unknown_target(
                        CallContext(self, target.line, target.col),
                        obj,
                        f"{target.name} deleted from a value that cannot be known statically",
                    )
                else:
                    self.warning(
                        "eval.ignored_delete",
                        "this deletion is not modelled; ignored",
                        target.line,
                        target.col,
                    )
            elif isinstance(target, ir.Index):
                obj = self.eval(target.obj, env)
                key = self.eval(target.index, env)
                if not isinstance(obj, Unknown) and not isinstance(key, Unknown):
                    self.dialect.delete_index(CallContext(self, target.line, target.col), obj, key)
                else:
                    self.dialect.unknown_target(
                        CallContext(self, target.line, target.col),
                        obj if isinstance(obj, Unknown) else key,
                        "an element deleted from a value, or at an index, that cannot be known"
                        " statically",
                    )
            elif isinstance(target, ir.Name):
                owner = env.owner(target.id)
                if owner is not None:
                    del owner.vars[target.id]

    def _pass(self, stmt: ir.Pass, env: Scope) -> None:
        return None
