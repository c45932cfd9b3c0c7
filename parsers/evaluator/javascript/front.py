"""JavaScript front end: lowers a tree-sitter-javascript tree onto the evaluator's ``ir``.

Tolerant by design: a statement that contains a syntax error or is cut off (tree-sitter's
ERROR and MISSING nodes) is left out with a diagnostic giving its line and column, and every
complete statement around it is kept. Constructs with no static meaning (regexes, JSX)
become ``Opaque`` values.

Generators (``function*``, ``*method()``, ``yield``, ``yield*``) lower onto the core's
(``FunctionExpr.generator``, ``ir.Yield``). Some of JavaScript's semantics are lowered here
onto plain ``ir``: ``var`` names are declared
at the top of their function (hoisting);
a link after ``?.`` short-circuits with it (``a?.b.c`` is undefined when ``a`` is); a tagged
template calls its tag with the literal parts and the values; ``delete`` as a statement is
``ir.Delete``; a labelled loop carries its label.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.control_flow import NEW_TARGET
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.lowering import (
    ExpressionHandlers,
    Incomplete,
    StatementHandlers,
    TreeLowering,
    updatable,
)
from parsers.evaluator.core.treesitter import Node, SourceTree, first_error
from parsers.evaluator.core.values import UNDEFINED

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")

_LOGICAL = {"&&": "and", "||": "or", "??": "??"}
#: Generator functions (``function*``; methods mark theirs with a ``*`` child).
_GENERATORS = frozenset({"generator_function_declaration", "generator_function"})
#: Statements a label can name for ``continue``.
_LOOPS = frozenset(
    {"for_statement", "for_in_statement", "while_statement", "do_statement", "labeled_statement"}
)
_UNARY = {"!": "not", "-": "-", "+": "+", "~": "~", "typeof": "typeof", "void": "void"}


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body.startswith("u{"):
            return chr(min(int(body[2:-1], 16), 0x10FFFF))
        if body.startswith("u") and len(body) == 5:
            return chr(int(body[1:], 16))
        if body.startswith("x") and len(body) == 3:
            return chr(int(body[1:], 16))
        if body in ("\n", "\r\n", "\u2028", "\u2029"):
            return ""
        return _ESCAPES.get(body, body)

    return _ESCAPE.sub(one, text) if "\\" in text else text


#: A plain decimal (most literals of scene code), which ``float`` reads as is.
_PLAIN_NUMBER = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+")


def js_number(text: str) -> float:
    """The value of a JS numeric literal (``0xff``, ``1_000``, ``.5``, ``1e3``, ``10n``)."""
    if _PLAIN_NUMBER.fullmatch(text):
        return float(text)
    clean = text.replace("_", "").rstrip("n")
    lower = clean.lower()
    if lower.startswith("0x"):
        return float(int(lower[2:], 16))
    if lower.startswith("0o"):
        return float(int(lower[2:], 8))
    if lower.startswith("0b"):
        return float(int(lower[2:], 2))
    if len(lower) > 1 and lower.startswith("0") and lower.isdigit():
        return float(int(lower, 8)) if all(c in "01234567" for c in lower) else float(lower)
    return float(clean)


def _pattern_names(target: ir.Pattern, into: dict[str, ir.Name]) -> None:
    """The names a declaration's target binds."""
    if isinstance(target, ir.Name):
        into.setdefault(target.id, target)
    elif isinstance(target, ir.ListPattern):
        for item in target.items:
            if item is not None:
                _pattern_names(item, into)
        if target.rest is not None:
            _pattern_names(target.rest, into)
    elif isinstance(target, ir.DictPattern):
        for _, sub in target.props:
            _pattern_names(sub, into)
        if target.rest is not None:
            _pattern_names(target.rest, into)
    elif isinstance(target, ir.DefaultPattern):
        _pattern_names(target.target, into)


def _hoisted(names: dict[str, ir.Name]) -> tuple[ir.Stmt, ...]:
    """``var x;`` for each name a function declares with ``var``, at its top (hoisting): the
    names exist, undefined, from the start (a declaration without a value leaves a name
    already bound, a parameter or a function, as it is)."""
    return tuple(
        ir.Declare(at.line, at.col, ir.Name(at.line, at.col, name), None, "var")
        for name, at in names.items()
    )


class JavaScriptFrontEnd(TreeLowering):
    """Lowers one parsed JavaScript text. Diagnostics go to ``reporter`` with codes prefixed
    ``prefix`` (``js.syntax``)."""

    def __init__(
        self,
        source: SourceTree,
        reporter: Reporter,
        limits: Limits,
        budget: Budget,
        *,
        prefix: str | None = None,
    ) -> None:
        super().__init__(source, reporter, limits, budget, prefix=prefix)
        #: For each function being lowered: the ``var`` names it declares. (The program's are
        #: not hoisted: a page's script may redeclare a global a library provides.)
        self._var_names: list[dict[str, ir.Name]] = []
        #: Labels of the statement being lowered (a labelled loop carries them).
        self._labels: tuple[str, ...] = ()
        #: How many functions and classes were lowered so far (a loop whose body makes one
        #: needs a binding per iteration).
        self._closures = 0

    PREFIX = "js"

    COMMENTS = frozenset({"comment", "html_comment"})
    NON_STATEMENTS = frozenset({"comment", "html_comment", "hash_bang_line"})
    OPTIONAL_TOKENS = frozenset({";"})
    REPORTS_UNCLOSED_BLOCKS = True
    NUMBER_KINDS = frozenset({"number"})

    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        statements: StatementHandlers = {
            "expression_statement": self._expression_statement,
            "lexical_declaration": self._declaration,
            "variable_declaration": self._declaration,
            "function_declaration": self._function_declaration,
            "generator_function_declaration": self._function_declaration,
            "class_declaration": self._class_declaration,
            "if_statement": self._if,
            "for_statement": self._for,
            "for_in_statement": self._for_in,
            "while_statement": self._while,
            "do_statement": self._do,
            "statement_block": self._block,
            "return_statement": self._return,
            "break_statement": self._jump,
            "continue_statement": self._jump,
            "throw_statement": self._throw,
            "try_statement": self._try,
            "switch_statement": self._switch,
            "labeled_statement": self._labeled,
            "empty_statement": lambda n: ir.Pass(*self._pos(n)),
            "debugger_statement": lambda n: ir.Pass(*self._pos(n)),
            "import_statement": self._import,
            "export_statement": self._export,
            "with_statement": self._unsupported_statement,
            "using_declaration": self._using,
        }
        expressions: ExpressionHandlers = {
            "identifier": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "shorthand_property_identifier": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "undefined": lambda n: ir.Const(*self._pos(n), UNDEFINED),
            "this": lambda n: ir.Name(*self._pos(n), "this"),
            "true": lambda n: ir.Const(*self._pos(n), True),
            "false": lambda n: ir.Const(*self._pos(n), False),
            "null": lambda n: ir.Const(*self._pos(n), None),
            "number": self._number,
            "string": self._string,
            "template_string": self._template,
            "parenthesized_expression": self._parenthesized,
            "member_expression": self._member,
            "subscript_expression": self._subscript,
            "call_expression": self._call,
            "new_expression": self._new,
            "binary_expression": self._binary,
            "unary_expression": self._unary,
            "update_expression": self._update,
            "assignment_expression": self._assignment,
            "augmented_assignment_expression": self._augmented,
            "ternary_expression": self._ternary,
            "array": self._array,
            "object": self._object,
            "arrow_function": self._arrow,
            "function_expression": self._function_expression,
            "function": self._function_expression,
            "generator_function": self._function_expression,
            "class": self._class_expression,
            "sequence_expression": self._sequence,
            "await_expression": lambda n: ir.Await(
                *self._pos(n), self.expression(self._named(n)[0])
            ),
            "meta_property": self._meta_property,
            "yield_expression": self._yield,
        }
        return statements, expressions

    # --- program and statements -------------------------------------------------------------------
    def _skip(self, statement: Node, error: Node) -> None:
        bad = first_error(error) or error
        line, col = self._pos(bad)
        text = self.text(statement).strip().splitlines()
        snippet = (
            (text[0][:60] + ("..." if len(text[0]) > 60 or len(text) > 1 else "")) if text else ""
        )
        cut = bad.end_byte >= len(self.source.data.rstrip())
        what = "is cut off" if cut else "has a syntax error here"
        self.reporter.add(
            "warning",
            f"{self.prefix}.syntax",
            f"statement {what}; left out" + (f": {snippet!r}" if snippet else ""),
            line,
            col,
        )

    def _unknown_statement(self, node: Node) -> None:
        """A statement of a type no handler lowers: it may change an object, so a warning."""
        self._report(
            "warning",
            "unsupported",
            f"{node.type.replace('_', ' ')} not understood; skipped",
            node,
        )

    def _unsupported_statement(self, node: Node) -> ir.Stmt:
        self._unknown_statement(node)
        return ir.Pass(*self._pos(node))

    def _using(self, node: Node) -> ir.Stmt:
        """``using x = f()``: a constant (its disposal at the end of the block changes no
        object of a scene)."""
        declarations: list[ir.Stmt] = []
        for child in self._named(node):
            if child.type == "variable_declarator":
                target = self.pattern(self._required(child, "name"))
                value_node = self._field(child, "value")
                value = self.expression(value_node) if value_node is not None else None
                declarations.append(ir.Declare(*self._pos(child), target, value, "const"))
        return ir.Block(*self._pos(node), tuple(declarations), scoped=False)

    def _body(self, node: Node | None) -> ir.Block:
        """A loop or branch body as a block (a single statement is wrapped)."""
        if node is None:
            return ir.Block(0, 0, ())
        if node.type == "statement_block":
            return self._block(node)
        stmt = self.statement(node)
        line, col = self._pos(node)
        return ir.Block(line, col, () if stmt is None else (stmt,))

    def _block(self, node: Node) -> ir.Block:
        line, col = self._pos(node)
        return ir.Block(line, col, tuple(self._statement_list(node.children)))

    def _expression_statement(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        if not named:
            return ir.Pass(*self._pos(node))
        inner = named[0]
        if inner.type == "unary_expression" and self._operator(inner) == "delete":
            target = self.expression(self._required(inner, "argument"))
            return ir.Delete(*self._pos(node), (target,))
        expr = self.expression(inner)
        if isinstance(expr, ir.Opaque):
            # The whole statement has no meaning the evaluator knows: what it does is lost.
            self._report("warning", "unsupported", f"{expr.what}; statement not followed", node)
        return ir.ExprStmt(*self._pos(node), expr)

    def _declaration(self, node: Node) -> ir.Stmt:
        keyword = node.children[0].type if node.children else "let"
        kind = keyword if keyword in ("const", "let", "var") else "let"
        declarations: list[ir.Stmt] = []
        for child in self._named(node):
            if child.type != "variable_declarator":
                continue
            target = self.pattern(self._required(child, "name"))
            value_node = self._field(child, "value")
            value = self.expression(value_node) if value_node is not None else None
            if kind == "var" and self._var_names:
                _pattern_names(target, self._var_names[-1])
            declarations.append(ir.Declare(*self._pos(child), target, value, kind))  # type: ignore[arg-type]
        if len(declarations) == 1:
            return declarations[0]
        return ir.Block(*self._pos(node), tuple(declarations), scoped=False)

    def _function_declaration(self, node: Node) -> ir.Stmt:
        return ir.FunctionDecl(*self._pos(node), self._function(node))

    def _class_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._class(node))

    def _if(self, node: Node) -> ir.Stmt:
        test = self.expression(self._required(node, "condition"))
        then = self._body(self._field(node, "consequence"))
        alternative = self._field(node, "alternative")
        other = None
        if alternative is not None:
            inner = [c for c in self._named(alternative)]
            other = self._body(inner[0]) if inner else None
        return ir.If(*self._pos(node), test, then, other)

    def _for(self, node: Node) -> ir.Stmt:
        labels, self._labels = self._labels, ()
        closures = self._closures
        init_node = self._field(node, "initializer")
        init: ir.Stmt | None = None
        if init_node is not None and init_node.type != "empty_statement":
            init = (
                self.statement(init_node)
                if init_node.type in self._statements
                else ir.ExprStmt(*self._pos(init_node), self.expression(init_node))
            )
        test_node = self._field(node, "condition")
        test: ir.Expr | None = None
        if test_node is not None and test_node.type != "empty_statement":
            inner = test_node
            if test_node.type == "expression_statement":
                named = self._named(test_node)
                inner = named[0] if named else None  # type: ignore[assignment]
            test = self.expression(inner) if inner is not None else None
        update_node = self._field(node, "increment")
        update = self.expression(update_node) if update_node is not None else None
        body = self._body(self._field(node, "body"))
        # A fresh binding of the loop's ``let`` variables each iteration, as JavaScript makes
        # one; it only shows when a function made in the loop keeps it.
        per_iteration = (
            self._closures != closures
            and isinstance(init, ir.Declare | ir.Block)
            and all(
                isinstance(d, ir.Declare) and d.kind in ("let", "const")
                for d in (init.body if isinstance(init, ir.Block) else (init,))
            )
        )
        return ir.ForC(
            *self._pos(node), init, test, update, body, per_iteration=per_iteration, labels=labels
        )

    def _for_in(self, node: Node) -> ir.Stmt:
        labels, self._labels = self._labels, ()
        declare: Any = None
        mode: Literal["of", "in"] = "of"
        for child in node.children:
            if child.type in ("const", "let", "var"):
                declare = child.type
            elif child.type == "in":
                mode = "in"
        target = self.pattern(self._required(node, "left"))
        if declare == "var" and self._var_names:
            _pattern_names(target, self._var_names[-1])
        iterable = self.expression(self._required(node, "right"))
        return ir.ForEach(
            *self._pos(node),
            target,
            iterable,
            self._body(self._field(node, "body")),
            declare,
            mode,
            labels=labels,
        )

    def _while(self, node: Node) -> ir.Stmt:
        labels, self._labels = self._labels, ()
        test = self.expression(self._required(node, "condition"))
        body = self._body(self._field(node, "body"))
        return ir.While(*self._pos(node), test, body, labels=labels)

    def _do(self, node: Node) -> ir.Stmt:
        labels, self._labels = self._labels, ()
        test = self.expression(self._required(node, "condition"))
        body = self._body(self._field(node, "body"))
        return ir.While(*self._pos(node), test, body, do_while=True, labels=labels)

    def _try(self, node: Node) -> ir.Stmt:
        body = self._block(self._required(node, "body"))
        handler_node = self._field(node, "handler")
        target = None
        handler = None
        if handler_node is not None:
            parameter = self._field(handler_node, "parameter")
            target = self.pattern(parameter) if parameter is not None else None
            handler = self._block(self._required(handler_node, "body"))
        final_node = self._field(node, "finalizer")
        final = self._block(self._required(final_node, "body")) if final_node is not None else None
        return ir.Try(*self._pos(node), body, target, handler, final)

    def _switch(self, node: Node) -> ir.Stmt:
        value = self.expression(self._required(node, "value"))
        cases: list[tuple[ir.Expr | None, tuple[ir.Stmt, ...]]] = []
        body = self._required(node, "body")
        for case in self._named(body):
            test_node = self._field(case, "value") if case.type == "switch_case" else None
            statements = [c for c in case.children_by_field_name("body")]
            lowered = [s for s in (self.statement(c) for c in statements) if s is not None]
            cases.append(
                (self.expression(test_node) if test_node is not None else None, tuple(lowered))
            )
        return ir.Switch(*self._pos(node), value, tuple(cases))

    def _labeled(self, node: Node) -> ir.Stmt:
        """A labelled loop carries its label (``continue outer`` goes on with it); any other
        labelled statement is an ``ir.Labeled`` that ``break label`` leaves."""
        label = self.text(self._required(node, "label"))
        body = self._field(node, "body")
        if body is None:
            return ir.Pass(*self._pos(node))
        if body.type in _LOOPS:
            self._labels = (*self._labels, label)
            try:
                return self.statement(body) or ir.Pass(*self._pos(node))
            finally:
                self._labels = ()
        self._labels = ()
        stmt = self.statement(body)
        line, col = self._pos(node)
        inner = ir.Block(line, col, () if stmt is None else (stmt,), scoped=False)
        return ir.Labeled(line, col, label, inner)

    def _jump(self, node: Node) -> ir.Stmt:
        label_node = self._field(node, "label")
        label = self.text(label_node) if label_node is not None else None
        if node.type == "break_statement":
            return ir.Break(*self._pos(node), label)
        return ir.Continue(*self._pos(node), label)

    def _import(self, node: Node) -> ir.Stmt:
        source_node = self._required(node, "source")
        module = self._string_value(source_node)
        line, col = self._pos(node)
        declarations: list[ir.Stmt] = []
        for clause in self._named(node):
            if clause.type != "import_clause":
                continue
            for part in self._named(clause):
                if part.type == "identifier":
                    declarations.append(
                        self._import_declaration(
                            line, col, self.text(part), module, "default", "const"
                        )
                    )
                elif part.type == "namespace_import":
                    name = self._named(part)[0]
                    declarations.append(
                        self._import_declaration(line, col, self.text(name), module, None, "const")
                    )
                elif part.type == "named_imports":
                    for spec in self._named(part):
                        if spec.type != "import_specifier":
                            continue
                        imported = self.text(self._required(spec, "name"))
                        alias = self._field(spec, "alias")
                        local = self.text(alias) if alias is not None else imported
                        declarations.append(
                            self._import_declaration(
                                line, col, local, module, imported.strip("'\""), "const"
                            )
                        )
        if not declarations:
            declarations.append(ir.ExprStmt(line, col, ir.ImportValue(line, col, module, None)))
        return ir.Block(line, col, tuple(declarations), scoped=False)

    def _export(self, node: Node) -> ir.Stmt:
        declaration = self._field(node, "declaration")
        if declaration is not None:
            return self.statement(declaration) or ir.Pass(*self._pos(node))
        value = self._field(node, "value")
        if value is not None:
            return ir.ExprStmt(*self._pos(node), self.expression(value))
        return ir.Pass(*self._pos(node))

    # --- expressions ------------------------------------------------------------------------------
    def _yield(self, node: Node) -> ir.Expr:
        named = self._named(node)
        value = self.expression(named[0]) if named else None
        delegate = any(c.type == "*" for c in node.children if not c.is_named)
        return ir.Yield(*self._pos(node), value, delegate)

    def _meta_property(self, node: Node) -> ir.Expr:
        if self.text(node).replace(" ", "") == "new.target":
            return ir.Name(*self._pos(node), NEW_TARGET)
        return ir.Opaque(*self._pos(node), f"{self.text(node)} has no static value")

    def _number(self, node: Node) -> ir.Expr:
        try:
            return ir.Const(*self._pos(node), js_number(self.text(node)))
        except ValueError:
            return ir.Opaque(*self._pos(node), f"number {self.text(node)!r} cannot be read")

    def _string_value(self, node: Node) -> str:
        raw = self.text(node)
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
            raw = raw[1:-1]
        return _unescape(raw)

    def _string(self, node: Node) -> ir.Expr:
        if node.has_error:
            self._named(node)
        return ir.Const(*self._pos(node), self._string_value(node))

    def _template(self, node: Node) -> ir.Expr:
        parts: list[str | ir.Expr] = []
        start = node.start_byte + 1
        for child in node.named_children:
            if child.type == "template_substitution":
                if child.start_byte > start:
                    parts.append(
                        _unescape(
                            self.source.data[start : child.start_byte].decode("utf-8", "replace")
                        )
                    )
                inner = self._named(child)
                if inner:
                    parts.append(self.expression(inner[0]))
                start = child.end_byte
            elif child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
        end = node.end_byte - 1
        if end > start:
            parts.append(_unescape(self.source.data[start:end].decode("utf-8", "replace")))
        return ir.Template(*self._pos(node), tuple(parts))

    def _template_parts(self, node: Node, *, raw: bool) -> tuple[list[str], list[ir.Expr]]:
        """A template's literal texts (one more than its values: empty ones kept), escapes
        read unless ``raw``, and its values."""
        strings: list[str] = []
        values: list[ir.Expr] = []
        data = self.source.data
        start = node.start_byte + 1
        for child in node.named_children:
            if child.type == "template_substitution":
                strings.append(data[start : child.start_byte].decode("utf-8", "replace"))
                inner = self._named(child)
                values.append(
                    self.expression(inner[0]) if inner else ir.Const(*self._pos(child), UNDEFINED)
                )
                start = child.end_byte
            elif child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
        strings.append(data[start : node.end_byte - 1].decode("utf-8", "replace"))
        return (strings if raw else [_unescape(text) for text in strings]), values

    @staticmethod
    def _optional(node: Node) -> bool:
        # The grammar names the ``?.`` of member, subscript and call expressions by a field:
        # one lookup instead of building every child node.
        return node.child_by_field_name("optional_chain") is not None

    @staticmethod
    def _chained(node: Node, inner_node: Node, inner: ir.Expr) -> bool:
        """Whether a member, index or call short-circuits to undefined: its own ``?.``, or one
        earlier in the same chain (parentheses end a chain)."""
        if node.child_by_field_name("optional_chain") is not None:
            return True
        kind = type(inner)
        return (
            (kind is ir.Member or kind is ir.Index or kind is ir.Call)
            and inner.optional  # type: ignore[union-attr]
            and inner_node.type != "parenthesized_expression"
        )

    def _member(self, node: Node) -> ir.Expr:
        obj_node = self._required(node, "object")
        prop = self._required(node, "property")
        name = self.text(prop)
        if obj_node.type == "super":
            return ir.SuperMember(*self._pos(node), name)
        obj = self.expression(obj_node)
        return ir.Member(*self._pos(node), obj, name, self._chained(node, obj_node, obj))

    def _subscript(self, node: Node) -> ir.Expr:
        obj_node = self._required(node, "object")
        obj = self.expression(obj_node)
        index = self.expression(self._required(node, "index"))
        return ir.Index(*self._pos(node), obj, index, self._chained(node, obj_node, obj))

    def _arguments(self, node: Node | None) -> tuple[ir.Argument, ...]:
        if node is None:
            return ()
        if node.type == "template_string":
            # A tagged template: the tag gets the literal parts, then the values.
            strings, values = self._template_parts(node, raw=False)
            line, col = self._pos(node)
            literal = ir.ListLit(line, col, tuple(ir.Const(line, col, part) for part in strings))
            return (literal, *values)
        result: list[ir.Argument] = []
        for child in self._named(node):
            if child.type == "spread_element":
                result.append(ir.Spread(*self._pos(child), self.expression(self._named(child)[0])))
            else:
                result.append(self.expression(child))
        return tuple(result)

    def _call(self, node: Node) -> ir.Expr:
        function = self._required(node, "function")
        arguments = self._field(node, "arguments")
        args = self._arguments(arguments)
        line, col = self._pos(node)
        if function.type == "super":
            return ir.SuperCall(line, col, args)
        if function.type == "import":
            module = args[0] if args else None
            if isinstance(module, ir.Const) and isinstance(module.value, str):
                return ir.ImportValue(line, col, module.value, None)
            return ir.Opaque(line, col, "a dynamic import of an unknown module")
        if (
            arguments is not None
            and arguments.type == "template_string"
            and self.text(function).replace(" ", "") == "String.raw"
        ):
            strings, values = self._template_parts(arguments, raw=True)
            parts: list[str | ir.Expr] = []
            for i, text in enumerate(strings):
                parts.append(text)
                if i < len(values):
                    parts.append(values[i])
            return ir.Template(line, col, tuple(parts))
        callee = self.expression(function)
        return ir.Call(line, col, callee, args, self._chained(node, function, callee))

    def _new(self, node: Node) -> ir.Expr:
        constructor = self.expression(self._required(node, "constructor"))
        return ir.New(
            *self._pos(node), constructor, self._arguments(self._field(node, "arguments"))
        )

    def _operator(self, node: Node) -> str:
        op = self._field(node, "operator")
        if op is not None:
            return op.type
        for child in node.children:
            if not child.is_named:
                return child.type
        raise Incomplete(node)

    def _binary(self, node: Node) -> ir.Expr:
        left = self.expression(self._required(node, "left"))
        right = self.expression(self._required(node, "right"))
        op = self._operator(node)
        line, col = self._pos(node)
        if op in _LOGICAL:
            return ir.Logical(line, col, _LOGICAL[op], left, right)  # type: ignore[arg-type]
        return ir.Binary(line, col, op, left, right)

    def _unary(self, node: Node) -> ir.Expr:
        op = self._operator(node)
        argument = self._required(node, "argument")
        line, col = self._pos(node)
        if op == "delete":
            self._report(
                "warning",
                "unsupported",
                "delete inside an expression is not followed; the property stays",
                node,
            )
            return ir.Opaque(line, col, "delete has no static value")
        return ir.Unary(line, col, _UNARY.get(op, op), self.expression(argument))

    def _update(self, node: Node) -> ir.Expr:
        argument = self._required(node, "argument")
        op = self._operator(node)
        prefix = node.children[0].type in ("++", "--")
        target = updatable(self.pattern(argument), node)
        return ir.Update(*self._pos(node), target, 1 if op == "++" else -1, prefix)

    def _assignment(self, node: Node) -> ir.Expr:
        target = self.pattern(self._required(node, "left"))
        return ir.Assign(
            *self._pos(node), target, None, self.expression(self._required(node, "right"))
        )

    def _augmented(self, node: Node) -> ir.Expr:
        target = updatable(self.pattern(self._required(node, "left")), node)
        op = self._operator(node)[:-1]
        return ir.Assign(
            *self._pos(node), target, op, self.expression(self._required(node, "right"))
        )

    def _ternary(self, node: Node) -> ir.Expr:
        return ir.Conditional(
            *self._pos(node),
            self.expression(self._required(node, "condition")),
            self.expression(self._required(node, "consequence")),
            self.expression(self._required(node, "alternative")),
        )

    def _array(self, node: Node) -> ir.Expr:
        items: list[ir.Expr | ir.Spread] = []
        expect_item = True
        for child in node.children:
            if child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
            if child.type == ",":
                if expect_item:
                    items.append(ir.Const(*self._pos(child), UNDEFINED))
                expect_item = True
            elif child.is_named and child.type not in ("comment",):
                if child.type == "spread_element":
                    items.append(
                        ir.Spread(*self._pos(child), self.expression(self._named(child)[0]))
                    )
                else:
                    items.append(self.expression(child))
                expect_item = False
        return ir.ListLit(*self._pos(node), tuple(items))

    def _property_key(self, node: Node) -> ir.Expr:
        if node.type == "computed_property_name":
            return self.expression(self._named(node)[0])
        if node.type == "string":
            return ir.Const(*self._pos(node), self._string_value(node))
        if node.type == "number":
            value = js_number(self.text(node))
            return ir.Const(
                *self._pos(node), str(int(value)) if value.is_integer() else repr(value)
            )
        return ir.Const(*self._pos(node), self.text(node))

    def _object(self, node: Node) -> ir.Expr:
        entries: list[tuple[ir.Expr, ir.Expr] | ir.Spread] = []
        for child in self._named(node):
            kind = child.type
            if kind == "pair":
                key = self._property_key(self._required(child, "key"))
                entries.append((key, self.expression(self._required(child, "value"))))
            elif kind == "shorthand_property_identifier":
                name = self.text(child)
                entries.append(
                    (ir.Const(*self._pos(child), name), ir.Name(*self._pos(child), name))
                )
            elif kind == "spread_element":
                entries.append(ir.Spread(*self._pos(child), self.expression(self._named(child)[0])))
            elif kind == "method_definition":
                name_node = self._required(child, "name")
                key = self._property_key(name_node)
                if any(c.type in ("get", "set") for c in child.children if not c.is_named):
                    self._report(
                        "warning",
                        "unsupported",
                        "a getter or setter in an object literal is not followed; the property"
                        " is unknown",
                        child,
                    )
                    entries.append((key, ir.Opaque(*self._pos(child), "an accessor property")))
                    continue
                entries.append((key, self._function(child)))
        return ir.DictLit(*self._pos(node), tuple(entries))

    def _params(self, node: Node | None) -> tuple[ir.Param, ...]:
        if node is None:
            return ()
        if node.type == "identifier":
            return (ir.Param(*self._pos(node), ir.Name(*self._pos(node), self.text(node))),)
        return tuple(self._param(child) for child in self._named(node))

    def _param(self, child: Node) -> ir.Param:
        line, col = self._pos(child)
        if child.type == "rest_pattern":
            return ir.Param(line, col, self.pattern(self._named(child)[0]), None, "rest")
        if child.type == "assignment_pattern":
            target = self.pattern(self._required(child, "left"))
            return ir.Param(line, col, target, self.expression(self._required(child, "right")))
        return ir.Param(line, col, self.pattern(child))

    def _function(self, node: Node, *, arrow: bool = False) -> ir.FunctionExpr:
        name_node = self._field(node, "name")
        name = self.text(name_node) if name_node is not None else None
        params_node = self._field(node, "parameters") or self._field(node, "parameter")
        params = self._params(params_node)
        body_node = self._required(node, "body")
        self._closures += 1
        body: ir.Block | ir.Expr
        if body_node.type == "statement_block":
            self._var_names.append({})
            labels, self._labels = self._labels, ()
            try:
                body = self._block(body_node)
            finally:
                names = self._var_names.pop()
                self._labels = labels
            if names:
                body = ir.Block(body.line, body.col, _hoisted(names) + body.body, body.scoped)
        else:
            body = self.expression(body_node)
        generator = node.type in _GENERATORS or (
            node.type == "method_definition"
            and any(c.type == "*" for c in node.children if not c.is_named)
        )
        return ir.FunctionExpr(*self._pos(node), name, params, body, arrow, generator)

    def _arrow(self, node: Node) -> ir.Expr:
        return self._function(node, arrow=True)

    def _function_expression(self, node: Node) -> ir.Expr:
        return self._function(node)

    def _class_expression(self, node: Node) -> ir.Expr:
        return self._class(node)

    def _class(self, node: Node) -> ir.ClassExpr:
        self._closures += 1
        name_node = self._field(node, "name")
        base: ir.Expr | None = None
        members: list[ir.ClassMember] = []
        for child in node.named_children:
            if child.type == "class_heritage":
                base = self._heritage(child)
        body = self._required(node, "body")
        for member in body.named_children:
            try:
                lowered = self._class_member(member)
            except Incomplete as incomplete:
                self._skip(member, incomplete.node)
                continue
            if lowered is not None:
                members.append(lowered)
        name = self.text(name_node) if name_node is not None else None
        return ir.ClassExpr(*self._pos(node), name, base, tuple(members))

    def _heritage(self, node: Node) -> ir.Expr | None:
        """The base class named by a ``class_heritage`` node (``extends Base``)."""
        inner = self._named(node)
        return self.expression(inner[-1]) if inner else None

    def _class_member(self, member: Node) -> ir.ClassMember | None:
        if member.type == "ERROR" or member.is_missing:
            raise Incomplete(member)
        line, col = self._pos(member)
        keywords = {c.type for c in member.children if not c.is_named}
        static = "static" in keywords
        if member.type == "method_definition":
            # A private name keeps its ``#``: it is no public property and never enumerated.
            name = self.text(self._required(member, "name"))
            fn = self._function(member)
            fn = ir.FunctionExpr(fn.line, fn.col, name, fn.params, fn.body, False, fn.generator)
            if name == "constructor" and not static:
                return ir.ClassMember(line, col, name, "constructor", fn)
            kind = "getter" if "get" in keywords else "setter" if "set" in keywords else "method"
            return ir.ClassMember(line, col, name, kind, fn, static)  # type: ignore[arg-type]
        if member.type in ("field_definition", "public_field_definition"):
            # TypeScript's field node names its key ``name``; JavaScript's, ``property``.
            prop = self._field(member, "property") or self._required(member, "name")
            value_node = self._field(member, "value")
            value = self.expression(value_node) if value_node is not None else None
            return ir.ClassMember(line, col, self.text(prop), "field", value, static)
        if member.type == "class_static_block":
            # Run once when the class is made, ``this`` being the class: a static field whose
            # value calls the block as an arrow function.
            block = self._block(self._required(member, "body"))
            self._closures += 1
            fn = ir.FunctionExpr(line, col, None, (), block, True)
            call = ir.Call(line, col, fn, ())
            return ir.ClassMember(line, col, f"%static{line}:{col}", "field", call, True)
        return None

    def _sequence(self, node: Node) -> ir.Expr:
        items = tuple(self.expression(c) for c in self._named(node))
        return ir.Sequence(*self._pos(node), items)

    # --- patterns ---------------------------------------------------------------------------------
    def pattern(self, node: Node) -> ir.Pattern:
        if not self.clean and (node.type == "ERROR" or node.is_missing):
            raise Incomplete(node)
        kind = node.type
        line, col = self._pos(node)
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            return ir.Name(line, col, self.text(node))
        if kind == "member_expression":
            lowered = self._member(node)
            if isinstance(lowered, ir.Member):
                return lowered
            raise Incomplete(node)
        if kind == "subscript_expression":
            return self._subscript(node)  # type: ignore[return-value]
        if kind == "parenthesized_expression":
            return self.pattern(self._named(node)[-1])
        if kind == "assignment_pattern":
            return ir.DefaultPattern(
                line,
                col,
                self.pattern(self._required(node, "left")),
                self.expression(self._required(node, "right")),
            )
        if kind == "array_pattern":
            items: list[ir.Pattern | None] = []
            rest: ir.Pattern | None = None
            expect_item = True
            for child in node.children:
                if child.type == ",":
                    if expect_item:
                        items.append(None)
                    expect_item = True
                elif child.type == "rest_pattern":
                    rest = self.pattern(self._named(child)[0])
                elif child.is_named and child.type != "comment":
                    items.append(self.pattern(child))
                    expect_item = False
            return ir.ListPattern(line, col, tuple(items), rest)
        if kind == "object_pattern":
            props: list[tuple[str | ir.Expr, ir.Pattern]] = []
            rest = None
            for child in self._named(node):
                if child.type == "shorthand_property_identifier_pattern":
                    name = self.text(child)
                    props.append((name, ir.Name(*self._pos(child), name)))
                elif child.type == "pair_pattern":
                    key = self._property_key(self._required(child, "key"))
                    key_value: str | ir.Expr = (
                        key.value
                        if isinstance(key, ir.Const) and isinstance(key.value, str)
                        else key
                    )
                    props.append((key_value, self.pattern(self._required(child, "value"))))
                elif child.type == "object_assignment_pattern":
                    left = self._required(child, "left")
                    name = self.text(left)
                    target = self.pattern(left)
                    props.append(
                        (
                            name,
                            ir.DefaultPattern(
                                *self._pos(child),
                                target,
                                self.expression(self._required(child, "right")),
                            ),
                        )
                    )
                elif child.type == "rest_pattern":
                    rest = self.pattern(self._named(child)[0])
            return ir.DictPattern(line, col, tuple(props), rest)
        raise Incomplete(node)


def lower_javascript(
    source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget, *, prefix: str = "js"
) -> ir.Block:
    """The program of a parsed JavaScript text as ``ir``."""
    return JavaScriptFrontEnd(source, reporter, limits, budget, prefix=prefix).program()
