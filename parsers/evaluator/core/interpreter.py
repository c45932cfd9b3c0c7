"""The interpreter: runs a lowered program (``ir``) statically, with a budget.

Nothing of the model's code is executed by Python or by an engine: the interpreter evaluates
the program tree over evaluator values, asking the language's ``Dialect`` for what differs
between languages and the ``Engine`` table for the scene library. Whatever cannot be known
becomes an ``Unknown`` value; a built-in that needs it reports it. Loops stop after a capped
number of iterations, recursion at a capped depth, the whole run at a step budget and a
deadline, each with a diagnostic, and the objects built so far are kept.

The interpreter is assembled from its parts: ``interpreter_state`` (state, dispatch, blocks,
reporting), ``calls`` (binding, members, calls, construction), ``statements`` and
``expressions`` (a handler for each node of ``ir``); ``control_flow`` holds the exceptions
that carry ``return``, ``break``, ``continue`` and ``throw``.
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.dialect import Dialect
from parsers.evaluator.core.engine import Engine
from parsers.evaluator.core.expressions import ExpressionEvaluator
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.statements import StatementRunner


class Interpreter(StatementRunner, ExpressionEvaluator):
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
        super().__init__(dialect, engine, limits=limits, budget=budget)
        self._eval = {
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
            ir.Yield: self._yield,
            ir.Opaque: self._opaque,
            ir.Slice: self._slice_alone,
        }
        self._exec = {
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
            ir.Labeled: self._labeled,
            ir.Throw: self._throw,
            ir.Try: self._try,
            ir.Switch: self._switch,
            ir.With: self._with,
            ir.NonLocal: self._nonlocal,
            ir.Delete: self._delete,
            ir.Pass: self._pass,
        }
