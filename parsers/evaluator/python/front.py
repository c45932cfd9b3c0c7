"""Python front end: lowers a tree-sitter-python tree onto the evaluator's ``ir``.

Used by the Blender and Open3D parsers with the ``Python`` dialect. Tolerant like the
JavaScript front end: a statement holding a syntax error or cut off (tree-sitter's ERROR and
MISSING nodes) is left out with a ``py.syntax`` warning giving its line and column, and every
complete statement around it is kept. Constructs with no static meaning (complex numbers) become
``Opaque`` values; statements it cannot lower are skipped with a ``warning``. ``match`` is
lowered by ``python.match``.

Python's own rules the lowering encodes: blocks open no scope (``Block(scoped=False)``),
``for`` assigns its target (``ForEach(declare=None)``), classes take ``self`` explicitly,
``@property`` makes getters, ``@dataclass`` classes get the ``__init__`` Python would generate.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.lowering import (
    C_ESCAPES,
    ExpressionHandlers,
    Incomplete,
    StatementHandlers,
    updatable,
)
from parsers.evaluator.core.treesitter import Node, SourceTree
from parsers.evaluator.python.class_front import ClassLowering
from parsers.evaluator.python.match import MatchLowering

# A backslash at a line end continues the line inside a string.
_ESCAPES = {**C_ESCAPES, "\n": ""}
_ESCAPE = re.compile(
    r"\\(N\{[^}]*\}|U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{1,3}|\r\n|[\s\S])"
)
_AUGMENTED = ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>=")
_COMPARE = ("<", "<=", ">", ">=", "==", "!=", "<>", "in", "not in", "is", "is not")


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body[0] in "uU" and len(body) > 1:
            return chr(min(int(body[1:], 16), 0x10FFFF))
        if body[0] == "x" and len(body) == 3:
            return chr(int(body[1:], 16))
        if body[0] in "01234567":
            return chr(int(body, 8))
        if body.startswith("N{"):
            return "?"
        if body == "\r\n":
            return ""
        return _ESCAPES.get(body, "\\" + body)

    return _ESCAPE.sub(one, text) if "\\" in text else text


#: A plain decimal with a point (most literals of scene code), which ``float`` reads as is.
_PLAIN_FLOAT = re.compile(r"[0-9]*\.[0-9]+|[0-9]+\.[0-9]*")


def python_number(text: str) -> int | float:
    """The value of a Python numeric literal (``0x1F``, ``1_000``, ``2.5e-1``, ``1.``)."""
    if text.isdigit():
        return int(text)
    if _PLAIN_FLOAT.fullmatch(text):
        return float(text)
    clean = text.replace("_", "").rstrip("lL")
    lower = clean.lower()
    if lower.startswith("0x"):
        return int(lower[2:], 16)
    if lower.startswith("0o"):
        return int(lower[2:], 8)
    if lower.startswith("0b"):
        return int(lower[2:], 2)
    if re.fullmatch(r"\d+", lower):
        return int(lower)
    return float(lower)


class PythonFrontEnd(ClassLowering, MatchLowering):
    """Lowers one parsed Python text. Diagnostics go to ``reporter`` with codes prefixed
    ``prefix`` (``py.syntax``)."""

    PREFIX = "py"
    #: A backslash continuing a line inside brackets is a node of its own: no element.
    COMMENTS = frozenset({"comment", "line_continuation"})
    NON_STATEMENTS = frozenset({"comment", "line_continuation"})
    #: Whether the function being lowered holds a ``yield`` (it is then a generator).
    _yields = False
    #: How many ``try`` statements were lowered (each names what it caught).
    _tries = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The names holding the exceptions caught by the except clauses being lowered.
        self._caught: list[ir.Name] = []

    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        statements: StatementHandlers = {
            "expression_statement": self._expression_statement,
            "import_statement": self._import,
            "import_from_statement": self._import_from,
            "future_import_statement": lambda n: ir.Pass(*self._pos(n)),
            "function_definition": self._function_definition,
            "class_definition": self._class_definition,
            "decorated_definition": self._decorated,
            "if_statement": self._if,
            "for_statement": self._for,
            "while_statement": self._while,
            "match_statement": self._match,
            "try_statement": self._try,
            "with_statement": self._with,
            "return_statement": self._return,
            "pass_statement": lambda n: ir.Pass(*self._pos(n)),
            "break_statement": lambda n: ir.Break(*self._pos(n)),
            "continue_statement": lambda n: ir.Continue(*self._pos(n)),
            "raise_statement": self._raise,
            "assert_statement": self._assert,
            "delete_statement": self._delete,
            "global_statement": self._nonlocal,
            "nonlocal_statement": self._nonlocal,
            "block": self._block,
            "print_statement": self._print_statement,
            "exec_statement": self._exec_statement,
        }
        expressions: ExpressionHandlers = {
            "identifier": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "true": lambda n: ir.Const(*self._pos(n), True),
            "false": lambda n: ir.Const(*self._pos(n), False),
            "none": lambda n: ir.Const(*self._pos(n), None),
            "ellipsis": lambda n: ir.Opaque(*self._pos(n), "... has no static value"),
            "integer": self._number,
            "float": self._number,
            "string": self._string,
            "concatenated_string": self._concatenated,
            "parenthesized_expression": self._parenthesized,
            "attribute": self._attribute,
            "subscript": self._subscript,
            "call": self._call,
            "binary_operator": self._binary,
            "unary_operator": self._unary,
            "not_operator": self._not,
            "boolean_operator": self._boolean,
            "comparison_operator": self._comparison,
            "conditional_expression": self._conditional,
            "list": self._list,
            "tuple": self._tuple,
            "expression_list": self._tuple,
            "set": self._set,
            "dictionary": self._dictionary,
            "list_comprehension": lambda n: self._comprehension(n, "list"),
            "set_comprehension": lambda n: self._comprehension(n, "set"),
            "generator_expression": lambda n: self._comprehension(n, "generator"),
            "dictionary_comprehension": lambda n: self._comprehension(n, "dict"),
            "lambda": self._lambda,
            "named_expression": self._walrus,
            "assignment": self._assignment,
            "augmented_assignment": self._augmented,
            "await": lambda n: ir.Await(*self._pos(n), self.expression(self._named(n)[0])),
            "yield": self._yield,
            "keyword_argument": self._stray_keyword,
        }
        return statements, expressions

    # --- program and statements -------------------------------------------------------------------
    def _block(self, node: Node | None) -> ir.Block:
        if node is None:
            return ir.Block(0, 0, (), scoped=False)
        line, col = self._pos(node)
        if node.type != "block":
            stmt = self.statement(node)
            return ir.Block(line, col, () if stmt is None else (stmt,), scoped=False)
        return ir.Block(line, col, tuple(self._statement_list(node.children)), scoped=False)

    def _expression_statement(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        line, col = self._pos(node)
        if not named:
            return ir.Pass(line, col)
        if len(named) == 1:
            return ir.ExprStmt(line, col, self.expression(named[0]))
        return ir.ExprStmt(
            line, col, ir.TupleLit(line, col, tuple(self.expression(n) for n in named))
        )

    def _print_statement(self, node: Node) -> ir.Stmt:
        """Python 2's ``print a, b`` (``print >>f, a`` too): read as ``print(a, b)``, so that
        what it prints is still evaluated."""
        line, col = self._pos(node)
        args = tuple(
            self.expression(child) for child in self._named(node) if child.type != "chevron"
        )
        # The dialect's built-in prints nothing and says what the engine made of Python 2.
        name = ir.Name(line, col, "%print_statement")
        return ir.ExprStmt(line, col, ir.Call(line, col, name, args))

    def _exec_statement(self, node: Node) -> ir.Stmt:
        self._report(
            "warning",
            "python2",
            "a Python 2 exec statement runs code the reader cannot see; skipped",
            node,
        )
        return ir.Pass(*self._pos(node))

    def _unknown_statement(self, node: Node) -> None:
        # Whatever it does to the scene is not followed: a warning, never a silent skip.
        self._report(
            "warning",
            "unsupported",
            f"{node.type.replace('_', ' ')} is not understood; skipped",
            node,
        )

    def _import(self, node: Node) -> ir.Stmt:
        line, col = self._pos(node)
        declarations: list[ir.Stmt] = []
        for part in self._named(node):
            if part.type == "aliased_import":
                module = self.text(self._required(part, "name"))
                alias = self.text(self._required(part, "alias"))
                declarations.append(self._import_declaration(line, col, alias, module, None, "var"))
            elif part.type == "dotted_name":
                module = self.text(part)
                top = module.split(".")[0]
                declarations.append(self._import_declaration(line, col, top, top, None, "var"))
        return ir.Block(line, col, tuple(declarations), scoped=False)

    def _import_from(self, node: Node) -> ir.Stmt:
        line, col = self._pos(node)
        module_node = self._required(node, "module_name")
        module = self.text(module_node)
        declarations: list[ir.Stmt] = []
        for part in node.children_by_field_name("name"):
            if part.type == "aliased_import":
                name = self.text(self._required(part, "name"))
                alias = self.text(self._required(part, "alias"))
            else:
                name = alias = self.text(part)
            declarations.append(self._import_declaration(line, col, alias, module, name, "var"))
        if any(child.type == "wildcard_import" for child in node.named_children):
            call = ir.Call(
                line, col, ir.Name(line, col, "%import_all"), (ir.Const(line, col, module),)
            )
            declarations.append(ir.ExprStmt(line, col, call))
        return ir.Block(line, col, tuple(declarations), scoped=False)

    def _if(self, node: Node) -> ir.Stmt:
        test = self.expression(self._required(node, "condition"))
        then = self._block(self._required(node, "consequence"))
        alternatives = [c for c in node.children_by_field_name("alternative")]
        other: ir.Block | None = None
        for alternative in reversed(alternatives):
            if alternative.type == "else_clause":
                other = self._block(self._required(alternative, "body"))
            elif alternative.type == "elif_clause":
                inner = ir.If(
                    *self._pos(alternative),
                    self.expression(self._required(alternative, "condition")),
                    self._block(self._required(alternative, "consequence")),
                    other,
                )
                other = ir.Block(*self._pos(alternative), (inner,), scoped=False)
        return ir.If(*self._pos(node), test, then, other)

    def _else(self, node: Node) -> ir.Block | None:
        alternative = self._field(node, "alternative")
        if alternative is None:
            return None
        return self._block(self._required(alternative, "body"))

    def _for(self, node: Node) -> ir.Stmt:
        target = self.pattern(self._required(node, "left"))
        iterable = self.expression(self._required(node, "right"))
        body = self._block(self._required(node, "body"))
        return ir.ForEach(*self._pos(node), target, iterable, body, None, "of", self._else(node))

    def _while(self, node: Node) -> ir.Stmt:
        test = self.expression(self._required(node, "condition"))
        return ir.While(
            *self._pos(node),
            test,
            self._block(self._required(node, "body")),
            other=self._else(node),
        )

    def _try(self, node: Node) -> ir.Stmt:
        """``try``: the except clauses are tried in order on the caught exception (by class,
        through the dialect's ``%exception_matches``); none matching raises it again. ``else``
        runs when the body raised nothing, before ``finally``."""
        line, col = self._pos(node)
        self._tries += 1
        caught = ir.Name(line, col, f"%exception{self._tries}")
        body = self._block(self._required(node, "body"))
        clauses: list[tuple[ir.Expr | None, ir.Pattern | None, ir.Block]] = []
        other: ir.Block | None = None
        final: ir.Block | None = None
        self._caught.append(caught)
        try:
            for child in node.named_children:
                if child.type in ("except_clause", "except_group_clause"):
                    clauses.append(self._except_clause(child))
                elif child.type == "else_clause":
                    other = self._block(self._required(child, "body"))
        finally:
            self._caught.pop()
        for child in node.named_children:
            if child.type == "finally_clause":
                blocks = [c for c in child.named_children if c.type == "block"]
                final = self._block(blocks[0]) if blocks else None
        handler: ir.Block | None = None
        if clauses:
            chain: ir.Block = ir.Block(line, col, (ir.Throw(line, col, caught),), scoped=False)
            for kind, alias, block in reversed(clauses):
                statements = block.body
                if alias is not None:
                    bind = ir.Assign(line, col, alias, None, caught)
                    statements = (ir.ExprStmt(line, col, bind), *statements)
                taken = ir.Block(block.line, block.col, statements, scoped=False)
                if kind is None:
                    chain = taken
                    continue
                helper = ir.Name(line, col, "%exception_matches")
                test = ir.Call(line, col, helper, (caught, kind))
                chain = ir.Block(line, col, (ir.If(line, col, test, taken, chain),), scoped=False)
            handler = chain
        if other is None:
            if handler is None and final is None:
                handler = ir.Block(line, col, (), scoped=False)
            return ir.Try(line, col, body, caught if handler is not None else None, handler, final)
        # ``else``: a flag set at the end of the body says nothing was raised.
        flag = ir.Name(line, col, f"%no_exception{self._tries}")

        def set_flag(value: bool) -> ir.Stmt:
            return ir.ExprStmt(
                line, col, ir.Assign(line, col, flag, None, ir.Const(line, col, value))
            )

        guarded = ir.Block(line, col, (*body.body, set_flag(True)), scoped=False)
        inner = ir.Try(
            line,
            col,
            guarded,
            caught,
            handler or ir.Block(line, col, (ir.Throw(line, col, caught),), scoped=False),
        )
        sequence = ir.Block(
            line, col, (set_flag(False), inner, ir.If(line, col, flag, other)), scoped=False
        )
        if final is None:
            return sequence
        return ir.Try(line, col, sequence, None, None, final)

    def _except_clause(self, node: Node) -> tuple[ir.Expr | None, ir.Pattern | None, ir.Block]:
        kind: ir.Expr | None = None
        alias: ir.Pattern | None = None
        block: ir.Block | None = None
        for part in node.named_children:
            if part.type == "comment":
                continue
            if part.type == "block":
                block = self._block(part)
            elif part.type == "as_pattern":
                inner = [
                    c for c in part.named_children if c.type not in ("as_pattern_target", "comment")
                ]
                if inner:
                    kind = self.expression(inner[0])
                target = part.child_by_field_name("alias")
                if target is not None:
                    names = [n for n in target.named_children if n.type == "identifier"] or [target]
                    alias = ir.Name(*self._pos(names[0]), self.text(names[0]))
            elif kind is None:
                kind = self.expression(part)
        if block is None:
            raise Incomplete(node)
        return kind, alias, block

    def _raise(self, node: Node) -> ir.Stmt:
        """``raise X`` (a class is made an instance), ``raise X from Y``, and a bare ``raise``
        in an except clause (the exception caught, raised again)."""
        line, col = self._pos(node)
        cause = node.child_by_field_name("cause")
        named = [c for c in self._named(node) if cause is None or c.start_byte != cause.start_byte]
        if not named:
            if self._caught:
                return ir.Throw(line, col, self._caught[-1])
            return ir.Throw(
                line, col, ir.Opaque(line, col, "raise with no exception being handled")
            )
        value = self.expression(named[0])
        helper = ir.Name(line, col, "%raise_value")
        return ir.Throw(line, col, ir.Call(line, col, helper, (value,)))

    def _assert(self, node: Node) -> ir.Stmt:
        """``assert test, message``: raises ``AssertionError`` when the test is false (an
        assertion that cannot be decided is reported and assumed to hold)."""
        line, col = self._pos(node)
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        args = tuple(self.expression(n) for n in named[:2])
        return ir.ExprStmt(line, col, ir.Call(line, col, ir.Name(line, col, "%assert"), args))

    def _with(self, node: Node) -> ir.Stmt:
        items: list[tuple[ir.Expr, ir.Pattern | None]] = []
        for clause in node.named_children:
            if clause.type != "with_clause":
                continue
            for item in self._named(clause):
                value = self._required(item, "value")
                if value.type == "as_pattern":
                    inner = self._named(value)
                    alias = value.child_by_field_name("alias")
                    target_node = (
                        alias.named_children[0]
                        if alias is not None and alias.named_children
                        else None
                    )
                    items.append(
                        (
                            self.expression(inner[0]),
                            self.pattern(target_node) if target_node is not None else None,
                        )
                    )
                else:
                    items.append((self.expression(value), None))
        return ir.With(*self._pos(node), tuple(items), self._block(self._required(node, "body")))

    def _return(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        value = None
        if named:
            value = (
                self.expression(named[0])
                if len(named) == 1
                else ir.TupleLit(*self._pos(node), tuple(self.expression(n) for n in named))
            )
        return ir.Return(*self._pos(node), value)

    def _delete(self, node: Node) -> ir.Stmt:
        targets: list[ir.Expr] = []
        for child in self._named(node):
            items = self._named(child) if child.type == "expression_list" else [child]
            targets.extend(self.expression(item) for item in items)
        return ir.Delete(*self._pos(node), tuple(targets))

    def _nonlocal(self, node: Node) -> ir.Stmt:
        names = tuple(self.text(c) for c in self._named(node) if c.type == "identifier")
        return ir.NonLocal(*self._pos(node), names)

    # --- functions and classes ----------------------------------------------------------------------
    def _params(self, node: Node | None) -> tuple[ir.Param, ...]:
        if node is None:
            return ()
        params: list[ir.Param] = []
        keyword_only = False
        for child in self._named(node):
            line, col = self._pos(child)
            kind = child.type
            if kind == "keyword_separator":
                keyword_only = True
                continue
            if kind == "positional_separator":
                continue
            positional: Literal["keyword", "positional"] = (
                "keyword" if keyword_only else "positional"
            )
            if kind == "identifier":
                params.append(
                    ir.Param(line, col, ir.Name(line, col, self.text(child)), None, positional)
                )
            elif kind == "typed_parameter":
                inner = self._named(child)[0]
                if inner.type == "list_splat_pattern":
                    params.append(
                        ir.Param(line, col, self.pattern(self._named(inner)[0]), None, "rest")
                    )
                    keyword_only = True
                elif inner.type == "dictionary_splat_pattern":
                    params.append(
                        ir.Param(line, col, self.pattern(self._named(inner)[0]), None, "kwrest")
                    )
                else:
                    params.append(ir.Param(line, col, self.pattern(inner), None, positional))
            elif kind in ("default_parameter", "typed_default_parameter"):
                target = self.pattern(self._required(child, "name"))
                default = self.expression(self._required(child, "value"))
                params.append(ir.Param(line, col, target, default, positional))
            elif kind == "list_splat_pattern":
                params.append(
                    ir.Param(line, col, self.pattern(self._named(child)[0]), None, "rest")
                )
                keyword_only = True
            elif kind == "dictionary_splat_pattern":
                params.append(
                    ir.Param(line, col, self.pattern(self._named(child)[0]), None, "kwrest")
                )
        return tuple(params)

    def _function(self, node: Node) -> ir.FunctionExpr:
        name = self.text(self._required(node, "name"))
        params = self._params(self._field(node, "parameters"))
        outer, self._yields = self._yields, False
        try:
            body = self._block(self._required(node, "body"))
            generator = self._yields
        finally:
            self._yields = outer
        return ir.FunctionExpr(*self._pos(node), name, params, body, False, generator)

    def _yield(self, node: Node) -> ir.Expr:
        """``yield``, ``yield value``, ``yield from items``: the function holding it is a
        generator."""
        self._yields = True
        line, col = self._pos(node)
        named = self._named(node)
        delegate = any(child.type == "from" for child in node.children)
        if not named:
            return ir.Yield(line, col, ir.Const(line, col, None), delegate)
        value = (
            self.expression(named[0])
            if len(named) == 1
            else ir.TupleLit(line, col, tuple(self.expression(n) for n in named))
        )
        return ir.Yield(line, col, value, delegate)

    def _function_definition(self, node: Node) -> ir.Stmt:
        return ir.FunctionDecl(*self._pos(node), self._function(node))

    def _decorators(self, node: Node) -> list[str]:
        return [name for name, _ in self._decorator_nodes(node)]

    def _decorator_nodes(self, node: Node) -> list[tuple[str, Node]]:
        """Each decorator's name (``dataclass``, ``functools.lru_cache``) and expression."""
        found = []
        for child in node.named_children:
            if child.type == "decorator":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    target = (
                        inner[0].child_by_field_name("function")
                        if inner[0].type == "call"
                        else inner[0]
                    )
                    found.append((self.text(target or inner[0]), inner[0]))
        return found

    def _decorated(self, node: Node) -> ir.Stmt | None:
        definition = self._required(node, "definition")
        if definition.type == "class_definition":
            decorators = self._decorator_nodes(node)
            return ir.ClassDecl(*self._pos(definition), self._class(definition, decorators))
        if definition.type == "function_definition":
            declared = self._function_definition(definition)
            assert isinstance(declared, ir.FunctionDecl)
            # ``@d def f`` is ``f = d(f)``, the decorator nearest the function first.
            line, col = self._pos(definition)
            name = declared.fn.name or "<function>"
            statements: list[ir.Stmt] = [declared]
            for _, expression in reversed(self._decorator_nodes(node)):
                at, at_col = self._pos(expression)
                call = ir.Call(
                    at,
                    at_col,
                    ir.Name(at, at_col, "%decorate"),
                    (self.expression(expression), ir.Name(line, col, name)),
                )
                statements.append(
                    ir.ExprStmt(
                        line, col, ir.Assign(line, col, ir.Name(line, col, name), None, call)
                    )
                )
            return ir.Block(line, col, tuple(statements), scoped=False)
        return self.statement(definition)

    # --- expressions ------------------------------------------------------------------------------
    NUMBER_KINDS = frozenset({"float", "integer"})

    def _number(self, node: Node) -> ir.Expr:
        text = self.text(node)
        if text.lower().endswith("j"):
            return ir.Opaque(*self._pos(node), f"complex number {text!r} has no static value")
        try:
            return ir.Const(*self._pos(node), python_number(text))
        except (ValueError, OverflowError):
            return ir.Opaque(*self._pos(node), f"number {text!r} cannot be read")

    def _string_parts(self, node: Node) -> list[str | ir.Expr]:
        if node.has_error:
            self._named(node)
        start = node.child_by_field_name("start") or (node.children[0] if node.children else None)
        prefix = (
            self.text(start).lower() if start is not None and start.type == "string_start" else ""
        )
        raw = "r" in prefix.rstrip("'\"")
        parts: list[str | ir.Expr] = []
        for child in node.named_children:
            kind = child.type
            if kind == "string_content":
                text = self.text(child)
                parts.append(text if raw else _unescape(text))
            elif kind == "interpolation":
                parts.extend(self._interpolation(child))
            elif kind == "ERROR" or child.is_missing:
                raise Incomplete(child)
        return parts

    def _interpolation(self, node: Node) -> list[str | ir.Expr]:
        """``{value!conversion:spec}`` (``{value=}`` writes its own text first): a call of
        the dialect's ``%format``."""
        expression = node.child_by_field_name("expression")
        if expression is None:
            raise Incomplete(node)
        line, col = self._pos(node)
        value = self.expression(expression)
        conversion = node.child_by_field_name("type_conversion")
        spec_node = node.child_by_field_name("format_specifier")
        converted: str | None = self.text(conversion)[1:] if conversion is not None else None
        parts: list[str | ir.Expr] = []
        equals = next((c for c in node.children if c.type == "="), None)
        if equals is not None:
            end = conversion or spec_node or node.children[-1]
            data = self.source.data
            parts.append(data[node.start_byte + 1 : end.start_byte].decode("utf-8", "replace"))
            if converted is None and spec_node is None:
                converted = "r"
        if converted is None and spec_node is None:
            # ``{value}``: the template writes it (the dialect's ``format_value``).
            parts.append(value)
            return parts
        spec: ir.Expr = ir.Const(line, col, "")
        if spec_node is not None:
            spec = self._format_spec(spec_node)
        call = ir.Call(
            line,
            col,
            ir.Name(line, col, "%format"),
            (value, spec, ir.Const(line, col, converted)),
        )
        parts.append(call)
        return parts

    def _format_spec(self, node: Node) -> ir.Expr:
        """A format specification after ``:``, with ``{nested}`` fields as a template."""
        line, col = self._pos(node)
        data = self.source.data
        position = node.start_byte + 1
        pieces: list[str | ir.Expr] = []
        for child in node.named_children:
            if child.type != "format_expression":
                continue
            if child.start_byte > position:
                pieces.append(data[position : child.start_byte].decode("utf-8", "replace"))
            inner = child.child_by_field_name("expression")
            if inner is None:
                raise Incomplete(child)
            pieces.append(self.expression(inner))
            position = child.end_byte
        if node.end_byte > position:
            pieces.append(data[position : node.end_byte].decode("utf-8", "replace"))
        if all(isinstance(p, str) for p in pieces):
            return ir.Const(line, col, "".join(p for p in pieces if isinstance(p, str)))
        return ir.Template(line, col, tuple(pieces))

    def _string(self, node: Node) -> ir.Expr:
        parts = self._string_parts(node)
        if all(isinstance(p, str) for p in parts):
            return ir.Const(*self._pos(node), "".join(p for p in parts if isinstance(p, str)))
        return ir.Template(*self._pos(node), tuple(parts))

    def _concatenated(self, node: Node) -> ir.Expr:
        parts: list[str | ir.Expr] = []
        for child in self._named(node):
            parts.extend(self._string_parts(child))
        if all(isinstance(p, str) for p in parts):
            return ir.Const(*self._pos(node), "".join(p for p in parts if isinstance(p, str)))
        return ir.Template(*self._pos(node), tuple(parts))

    def _attribute(self, node: Node) -> ir.Expr:
        obj = self._required(node, "object")
        name = self.text(self._required(node, "attribute"))
        if obj.type == "call" and self.text(self._required(obj, "function")) == "super":
            return ir.SuperMember(*self._pos(node), name)
        return ir.Member(*self._pos(node), self.expression(obj), name)

    def _index_expression(self, node: Node) -> ir.Expr:
        if node.type == "slice":
            parts: list[ir.Expr | None] = [None, None, None]
            slot = 0
            for child in node.children:
                if child.type == ":":
                    slot += 1
                elif child.is_named and child.type != "comment":
                    if child.type == "ERROR" or child.is_missing:
                        raise Incomplete(child)
                    if slot < 3:
                        parts[slot] = self.expression(child)
            return ir.Slice(*self._pos(node), parts[0], parts[1], parts[2])
        return self.expression(node)

    def _subscript(self, node: Node) -> ir.Expr:
        obj = self.expression(self._required(node, "value"))
        indices = [c for c in node.children_by_field_name("subscript") if c.type != "comment"]
        for index in indices:
            if index.type == "ERROR" or index.is_missing:
                raise Incomplete(index)
        if not indices:
            raise Incomplete(node)
        line, col = self._pos(node)
        if len(indices) == 1:
            return ir.Index(line, col, obj, self._index_expression(indices[0]))
        return ir.Index(
            line,
            col,
            obj,
            ir.TupleLit(line, col, tuple(self._index_expression(i) for i in indices)),
        )

    def _arguments(self, node: Node | None) -> tuple[ir.Argument, ...]:
        if node is None:
            return ()
        if node.type == "generator_expression":
            return (self.expression(node),)
        result: list[ir.Argument] = []
        for child in self._named(node):
            line, col = self._pos(child)
            kind = child.type
            if kind == "list_splat":
                result.append(ir.Spread(line, col, self.expression(self._named(child)[0])))
            elif kind == "dictionary_splat":
                result.append(ir.Keyword(line, col, None, self.expression(self._named(child)[0])))
            elif kind == "keyword_argument":
                name = self.text(self._required(child, "name"))
                result.append(
                    ir.Keyword(line, col, name, self.expression(self._required(child, "value")))
                )
            else:
                result.append(self.expression(child))
        return tuple(result)

    def _call(self, node: Node) -> ir.Expr:
        function = self._required(node, "function")
        args = self._arguments(self._field(node, "arguments"))
        line, col = self._pos(node)
        if function.type == "attribute":
            obj = function.child_by_field_name("object")
            if obj is not None and obj.type == "call":
                attribute = function.child_by_field_name("attribute")
                if (
                    attribute is not None
                    and self.text(obj.child_by_field_name("function") or obj) == "super"
                    and self.text(attribute) == "__init__"
                ):
                    return ir.SuperCall(line, col, args)
        return ir.Call(line, col, self.expression(function), args)

    def _binary(self, node: Node) -> ir.Expr:
        left = self.expression(self._required(node, "left"))
        right = self.expression(self._required(node, "right"))
        return ir.Binary(*self._pos(node), self._operator(node), left, right)

    def _unary(self, node: Node) -> ir.Expr:
        return ir.Unary(
            *self._pos(node),
            self._operator(node),
            self.expression(self._required(node, "argument")),
        )

    def _not(self, node: Node) -> ir.Expr:
        return ir.Unary(*self._pos(node), "not", self.expression(self._required(node, "argument")))

    def _boolean(self, node: Node) -> ir.Expr:
        left = self.expression(self._required(node, "left"))
        right = self.expression(self._required(node, "right"))
        op = self._operator(node)
        return ir.Logical(*self._pos(node), "and" if op == "and" else "or", left, right)

    def _comparison(self, node: Node) -> ir.Expr:
        operands: list[ir.Expr] = []
        ops: list[str] = []
        pending: list[str] = []
        for child in node.children:
            if child.type == "comment":
                continue
            if child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
            if child.is_named:
                if operands:
                    op = " ".join(pending)
                    if op not in _COMPARE:
                        raise Incomplete(child)
                    ops.append("!=" if op == "<>" else op)
                pending = []
                operands.append(self.expression(child))
            else:
                pending.append(child.type)
        if len(operands) < 2 or len(ops) != len(operands) - 1:
            raise Incomplete(node)
        line, col = self._pos(node)
        if len(ops) == 1:
            return ir.Binary(line, col, ops[0], operands[0], operands[1])
        return ir.Compare(line, col, tuple(ops), tuple(operands))

    def _conditional(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if len(named) != 3:
            raise Incomplete(node)
        then, test, other = named
        return ir.Conditional(
            *self._pos(node), self.expression(test), self.expression(then), self.expression(other)
        )

    def _items(self, node: Node) -> tuple[ir.Expr | ir.Spread, ...]:
        items: list[ir.Expr | ir.Spread] = []
        for child in self._named(node):
            if child.type in ("list_splat", "parenthesized_list_splat"):
                items.append(ir.Spread(*self._pos(child), self.expression(self._named(child)[0])))
            else:
                items.append(self.expression(child))
        return tuple(items)

    def _list(self, node: Node) -> ir.Expr:
        return ir.ListLit(*self._pos(node), self._items(node))

    def _tuple(self, node: Node) -> ir.Expr:
        return ir.TupleLit(*self._pos(node), self._items(node))

    def _set(self, node: Node) -> ir.Expr:
        line, col = self._pos(node)
        return ir.Call(
            line, col, ir.Name(line, col, "set"), (ir.ListLit(line, col, self._items(node)),)
        )

    def _dictionary(self, node: Node) -> ir.Expr:
        entries: list[tuple[ir.Expr, ir.Expr] | ir.Spread] = []
        for child in self._named(node):
            if child.type == "pair":
                entries.append(
                    (
                        self.expression(self._required(child, "key")),
                        self.expression(self._required(child, "value")),
                    )
                )
            elif child.type == "dictionary_splat":
                entries.append(ir.Spread(*self._pos(child), self.expression(self._named(child)[0])))
        return ir.DictLit(*self._pos(node), tuple(entries))

    def _comprehension(self, node: Node, kind: str) -> ir.Expr:
        body = self._required(node, "body")
        element: ir.Expr | tuple[ir.Expr, ir.Expr]
        if kind == "dict":
            element = (
                self.expression(self._required(body, "key")),
                self.expression(self._required(body, "value")),
            )
        else:
            element = self.expression(body)
        clauses: list[ir.CompFor | ir.CompIf] = []
        for child in self._named(node):
            if child.type == "for_in_clause":
                rights = [c for c in child.children_by_field_name("right") if c.type != "comment"]
                if not rights:
                    raise Incomplete(child)
                iterable = (
                    self.expression(rights[0])
                    if len(rights) == 1
                    else ir.TupleLit(*self._pos(child), tuple(self.expression(r) for r in rights))
                )
                clauses.append(
                    ir.CompFor(
                        *self._pos(child), self.pattern(self._required(child, "left")), iterable
                    )
                )
            elif child.type == "if_clause":
                clauses.append(ir.CompIf(*self._pos(child), self.expression(self._named(child)[0])))
        return ir.Comprehension(*self._pos(node), kind, element, tuple(clauses))  # type: ignore[arg-type]

    def _lambda(self, node: Node) -> ir.Expr:
        params = self._params(self._field(node, "parameters"))
        outer, self._yields = self._yields, False
        try:
            body = self.expression(self._required(node, "body"))
            if self._yields:
                # ``lambda: (yield x)``: a generator whose body is that one expression.
                line, col = self._pos(node)
                block = ir.Block(line, col, (ir.ExprStmt(line, col, body),), scoped=False)
                return ir.FunctionExpr(line, col, None, params, block, True, True)
        finally:
            self._yields = outer
        return ir.FunctionExpr(*self._pos(node), None, params, body, True)

    def _walrus(self, node: Node) -> ir.Expr:
        target = self.pattern(self._required(node, "name"))
        return ir.Assign(
            *self._pos(node), target, None, self.expression(self._required(node, "value"))
        )

    def _assignment(self, node: Node) -> ir.Expr:
        left = self._required(node, "left")
        right = self._field(node, "right")
        line, col = self._pos(node)
        if right is None:
            # ``x: int`` declares nothing Python can see at run time.
            return ir.Const(line, col, None)
        return ir.Assign(line, col, self.pattern(left), None, self.expression(right))

    def _augmented(self, node: Node) -> ir.Expr:
        op = self._operator(node)
        if op not in _AUGMENTED:
            raise Incomplete(node)
        target = updatable(self.pattern(self._required(node, "left")), node)
        return ir.Assign(
            *self._pos(node), target, op[:-1], self.expression(self._required(node, "right"))
        )

    def _stray_keyword(self, node: Node) -> ir.Expr:
        return ir.Opaque(*self._pos(node), "a keyword argument outside a call")

    # --- patterns ---------------------------------------------------------------------------------
    def pattern(self, node: Node) -> ir.Pattern:
        if not self.clean and (node.type == "ERROR" or node.is_missing):
            raise Incomplete(node)
        kind = node.type
        line, col = self._pos(node)
        if kind == "identifier":
            return ir.Name(line, col, self.text(node))
        if kind == "attribute":
            lowered = self._attribute(node)
            if isinstance(lowered, ir.Member):
                return lowered
            raise Incomplete(node)
        if kind == "subscript":
            lowered = self._subscript(node)
            if isinstance(lowered, ir.Index):
                return lowered
            raise Incomplete(node)
        if kind in (
            "pattern_list",
            "tuple_pattern",
            "list_pattern",
            "tuple",
            "list",
            "expression_list",
        ):
            items: list[ir.Pattern | None] = []
            after: list[ir.Pattern | None] = []
            rest: ir.Pattern | None = None
            for child in self._named(node):
                if child.type in ("list_splat_pattern", "list_splat"):
                    rest = self.pattern(self._named(child)[0])
                else:
                    (items if rest is None else after).append(self.pattern(child))
            return ir.ListPattern(line, col, tuple(items), rest, tuple(after))
        if kind == "parenthesized_expression":
            return self.pattern(self._named(node)[-1])
        raise Incomplete(node)


def lower_python(
    source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget, *, prefix: str = "py"
) -> ir.Block:
    """The program of a parsed Python text as ``ir``."""
    return PythonFrontEnd(source, reporter, limits, budget, prefix=prefix).program()
