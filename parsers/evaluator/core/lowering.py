"""What the tree-sitter front ends (JavaScript, Python, C#) share: ``TreeLowering``, the base
that walks a tree's statements tolerantly.

A statement holding an ERROR or MISSING node (a syntax error, or code cut off) is left out
with a ``<prefix>.syntax`` warning giving the line and column of the first error; statements
nested too deeply are skipped with ``<prefix>.too_deep``; every few hundred nodes the budget's
deadline is checked. ``return`` and ``throw``/``raise`` statements lower the same way in every
language. Each language's module subclasses it with its diagnostic prefix (``PREFIX``), its
tables of statement and expression handlers (``_handlers``), its ``expression`` (with its own
fast path for the commonest leaves), ``pattern`` and everything else specific to the language.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import ClassVar, Literal, TypeAlias

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.limits import Budget, BudgetExceeded, Limits
from parsers.evaluator.core.treesitter import Language, Node, SourceTree, first_error

#: Node type -> its lowering, for statements (None: nothing to run) and expressions.
StatementHandlers: TypeAlias = "dict[str, Callable[[Node], ir.Stmt | None]]"
ExpressionHandlers: TypeAlias = "dict[str, Callable[[Node], ir.Expr]]"


#: The one-character escapes C-family string literals share (C#, Python).
C_ESCAPES: dict[str, str] = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "a": "\a",
    "0": "\0",
    "\\": "\\",
    "'": "'",
    '"': '"',
}


class FieldIds(dict[str, int | None]):
    """A grammar's field ids by name (None for a name it lacks), looked up once:
    ``child_by_field_id`` skips the search through the names that ``child_by_field_name``
    makes on every call."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language

    def __missing__(self, name: str) -> int | None:
        field = self[name] = self.language.field_id_for_name(name)
        return field


@cache
def field_ids(language: Language) -> FieldIds:
    """The field ids of ``language``, shared by every lowering of its trees."""
    return FieldIds(language)


class Incomplete(Exception):
    """A statement holds a syntax error or is cut off at ``node``."""

    def __init__(self, node: Node) -> None:
        super().__init__(node.type)
        self.node = node


def updatable(target: ir.Pattern, node: Node) -> ir.Pattern:
    """The target of a compound assignment or ``++``/``--``, which is read before it is
    written: a name, member or index. A destructuring pattern there is a syntax error in every
    language we read (``a, b += 1``), so the statement is incomplete code."""
    if not isinstance(target, ir.Name | ir.Member | ir.Index):
        raise Incomplete(node)
    return target


class TooDeep(Exception):
    """Code nests past ``Limits.max_nesting`` at ``node``."""

    def __init__(self, node: Node) -> None:
        super().__init__(node.type)
        self.node = node


class TreeLowering:
    """Lowers one parsed text onto ``ir``. Diagnostics go to ``reporter`` with codes prefixed
    ``prefix`` (``js.syntax``; the language's ``PREFIX`` unless given)."""

    PREFIX: ClassVar[str] = ""
    #: Node types that are comments: left out of named children.
    COMMENTS: ClassVar[frozenset[str]] = frozenset({"comment"})
    #: Node types skipped where statements are expected (comments, a ``#!`` line).
    NON_STATEMENTS: ClassVar[frozenset[str]] = frozenset({"comment"})
    #: Tokens whose absence makes no node incomplete (JavaScript's automatic semicolons).
    OPTIONAL_TOKENS: ClassVar[frozenset[str]] = frozenset()
    #: Whether a missing ``}`` among statements is reported (brace languages).
    REPORTS_UNCLOSED_BLOCKS: ClassVar[bool] = False

    def __init__(
        self,
        source: SourceTree,
        reporter: Reporter,
        limits: Limits,
        budget: Budget,
        *,
        prefix: str | None = None,
    ) -> None:
        self.source = source
        self.reporter = reporter
        self.limits = limits
        self.budget = budget
        self.prefix = self.PREFIX if prefix is None else prefix
        self.depth = 0
        self.lowered = 0
        # A tree with no ERROR or MISSING node anywhere (most replies: tree-sitter counts every
        # one in the root's ``has_error``) skips the per-node checks for them; reading a node's
        # properties is most of the cost of lowering.
        self.clean = not source.root.has_error
        self._field_ids = field_ids(source.tree.language)
        self._statements, self._expressions = self._handlers()

    # Each language has its own handlers, and lowers its own expressions and assignment targets.
    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        """The handler of each statement and each expression node type."""
        raise NotImplementedError

    #: Number literal node types: leaves lowered by ``_number`` without the handler table.
    NUMBER_KINDS: ClassVar[frozenset[str]] = frozenset()

    def expression(self, node: Node) -> ir.Expr:
        kind = node.type
        if not self.clean and (kind == "ERROR" or node.is_missing):
            raise Incomplete(node)
        if self.depth >= self.limits.max_nesting:
            raise TooDeep(node)
        self._tick()
        # The commonest leaves are lowered here, without the table and the nesting count
        # (nothing nests inside them).
        if kind == "identifier":
            row, column = node.start_point
            return ir.Name(row + 1, column + 1, self.source.text(node))
        if kind in self.NUMBER_KINDS:
            return self._number(node)
        self.depth += 1
        try:
            handler = self._expressions.get(kind)
            if handler is None:
                return ir.Opaque(*self._pos(node), f"{kind.replace('_', ' ')} has no static value")
            return handler(node)
        finally:
            self.depth -= 1

    def _number(self, node: Node) -> ir.Expr:
        raise NotImplementedError

    def pattern(self, node: Node) -> ir.Pattern:
        raise NotImplementedError

    # --- helpers ----------------------------------------------------------------------------------
    def text(self, node: Node) -> str:
        return self.source.text(node)

    @staticmethod
    def _pos(node: Node) -> tuple[int, int]:
        row, column = node.start_point
        return row + 1, column + 1

    def _report(self, severity: str, code: str, message: str, node: Node) -> None:
        line, col = self._pos(node)
        self.reporter.add(severity, f"{self.prefix}.{code}", message, line, col)  # type: ignore[arg-type]

    def _named(self, node: Node) -> list[Node]:
        """Named children, comments left out; an error among them makes the node incomplete."""
        comments = self.COMMENTS
        if self.clean:
            return [child for child in node.named_children if child.type not in comments]
        result = []
        for child in node.named_children:
            kind = child.type
            if kind in comments:
                continue
            if kind == "ERROR" or child.is_missing:
                raise Incomplete(child)
            result.append(child)
        if node.has_error:
            for child in node.children:
                if child.is_missing and child.type not in self.OPTIONAL_TOKENS:
                    raise Incomplete(child)
        return result

    def _field(self, node: Node, name: str) -> Node | None:
        field = self._field_ids[name]
        child = None if field is None else node.child_by_field_id(field)
        if child is not None and not self.clean and (child.type == "ERROR" or child.is_missing):
            raise Incomplete(child)
        return child

    def _required(self, node: Node, name: str) -> Node:
        child = self._field(node, name)
        if child is None:
            raise Incomplete(node)
        return child

    def _tick(self) -> None:
        self.lowered += 1
        if self.lowered & 0xFF == 0 and self.budget.expired():
            raise BudgetExceeded("the safety deadline while reading the code", deadline=True)

    def _operator(self, node: Node) -> str:
        """The operator of a unary or binary node: its ``operator`` field, else its first
        anonymous child."""
        op = node.child_by_field_name("operator")
        if op is not None:
            return self.text(op)
        for child in node.children:
            if not child.is_named:
                return child.type
        raise Incomplete(node)

    @staticmethod
    def _import_declaration(
        line: int,
        col: int,
        local: str,
        module: str,
        name: str | None,
        kind: Literal["const", "let", "var"],
    ) -> ir.Stmt:
        """``local`` bound to module ``module`` (``name`` None) or to its member ``name``."""
        return ir.Declare(
            line,
            col,
            ir.Name(line, col, local),
            ir.ImportValue(line, col, module, name),
            kind,
        )

    # --- program and statements -------------------------------------------------------------------
    def program(self) -> ir.Block:
        """The whole program; what cannot be lowered is reported and left out."""
        body: list[ir.Stmt] = []
        try:
            for child in self.source.root.children:
                body.extend(self._statement_list([child]))
        except BudgetExceeded:
            self.reporter.add(
                "warning",
                "eval.deadline",
                "the code took longer than the safety deadline to read; only its beginning is"
                " read, and this result depends on the machine's speed",
                None,
                None,
            )
        return ir.Block(1, 1, tuple(body), scoped=False)

    def _statement_list(self, nodes: list[Node]) -> list[ir.Stmt]:
        body: list[ir.Stmt] = []
        for child in nodes:
            if not child.is_named or child.type in self.NON_STATEMENTS:
                if self.REPORTS_UNCLOSED_BLOCKS and child.is_missing and child.type == "}":
                    self._report(
                        "warning",
                        "unclosed_block",
                        "a block is not closed (the code may be cut off)",
                        child,
                    )
                continue
            stmt = self.statement(child)
            if stmt is not None:
                body.append(stmt)
        return body

    def statement(self, node: Node) -> ir.Stmt | None:
        self._tick()
        if not self.clean and (node.type == "ERROR" or node.is_missing):
            self._skip(node, node)
            return None
        handler = self._statements.get(node.type)
        try:
            if handler is None:
                # An expression where a statement is expected (error recovery does this).
                if node.type in self._expressions:
                    return ir.ExprStmt(*self._pos(node), self.expression(node))
                self._unknown_statement(node)
                return None
            return handler(node)
        except Incomplete as incomplete:
            self._skip(node, incomplete.node)
        except TooDeep as deep:
            self._report_too_deep(deep, "statement")
        except RecursionError:
            self._report(
                "warning", "too_deep", "code nests too deeply to read; statement skipped", node
            )
        return None

    def _unknown_statement(self, node: Node) -> None:
        """A statement of a type no handler lowers: reported and left out."""
        self._report(
            "info", "unsupported", f"{node.type.replace('_', ' ')} not understood; skipped", node
        )

    def _report_too_deep(self, deep: TooDeep, what: str) -> None:
        self._report(
            "warning",
            "too_deep",
            f"code nests deeper than {self.limits.max_nesting} levels; {what} skipped",
            deep.node,
        )

    def _skip(self, statement: Node, error: Node) -> None:
        """Report ``statement`` left out for the syntax error (or cut) at ``error``."""
        bad = first_error(error) or error
        line, col = self._pos(bad)
        first_line = statement.start_point[0] + 1
        text = self.text(statement).strip().splitlines()
        snippet = (
            (text[0][:60] + ("..." if len(text[0]) > 60 or len(text) > 1 else "")) if text else ""
        )
        where = f"statement at line {first_line}" if first_line != line else "statement"
        what = (
            "is cut off" if bad.end_byte >= len(self.source.data.rstrip()) else "has a syntax error"
        )
        self.reporter.add(
            "warning",
            f"{self.prefix}.syntax",
            f"{where} {what} at {line}:{col}; left out" + (f": {snippet!r}" if snippet else ""),
            line,
            col,
        )

    def _return(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        return ir.Return(*self._pos(node), self.expression(named[0]) if named else None)

    def _throw(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        return ir.Throw(*self._pos(node), self.expression(named[0]) if named else None)

    def _parenthesized(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        return self.expression(named[-1])
