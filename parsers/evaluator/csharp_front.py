"""C# front end: lowers a tree-sitter-c-sharp tree onto the evaluator's ``ir``.

Used by the Unity parser with the ``CSharp`` dialect. Tolerant like the other front ends: a
statement holding a syntax error or cut off is left out with a ``cs.syntax`` warning, every
complete statement around it is kept.

What C# adds to the shared tree, and how it is lowered:

- classes and structs (fields, auto-properties, properties with bodies, methods, constructors,
  nested types, enums as classes of integer constants); what a class declares is also kept
  in ``classes`` (base, methods, attributes) so a parser can decide the entry points, since a
  Unity script has no top-level code: the engine calls ``Awake``/``Start``;
- typed locals without an initialiser take their type's default (0, false, ``new Vector3()``);
- generic type arguments (``GetComponent<Renderer>()``) are passed as the keyword ``%types``;
- ``out`` arguments: the call runs, then each out target is bound from ``%out`` (a built-in with
  out parameters puts them there through ``CSharp.set_out``);
- object and collection initialisers (``new Spec { a = 1 }``, ``new List<T> { x, y }``) call the
  dialect's ``%init`` with the new object and the members or items;
- casts call ``%cast`` with the type name, so ``(int)x`` truncates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from parsers.evaluator import ir
from parsers.evaluator.context import Reporter
from parsers.evaluator.limits import Budget, BudgetExceeded, Limits
from parsers.evaluator.treesitter import Node, SourceTree, first_error
from parsers.evaluator.values import UNDEFINED


class _Incomplete(Exception):
    def __init__(self, node: Node) -> None:
        super().__init__(node.type)
        self.node = node


class _TooDeep(Exception):
    def __init__(self, node: Node) -> None:
        super().__init__(node.type)
        self.node = node


_ESCAPES = {
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
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{1,4}|[\s\S])")
_NUMERIC_TYPES = frozenset(
    {
        "int",
        "float",
        "double",
        "decimal",
        "long",
        "short",
        "byte",
        "uint",
        "ulong",
        "ushort",
        "sbyte",
        "char",
    }
)
#: Struct types whose default value is ``new T()``.
STRUCT_TYPES = frozenset(
    {
        "Vector2",
        "Vector3",
        "Vector4",
        "Vector2Int",
        "Vector3Int",
        "Quaternion",
        "Color",
        "Color32",
        "Matrix4x4",
        "Rect",
        "Bounds",
    }
)
_ASSIGNMENT_OPS = {
    "=": None,
    "+=": "+",
    "-=": "-",
    "*=": "*",
    "/=": "/",
    "%=": "%",
    "&=": "&",
    "|=": "|",
    "^=": "^",
    "<<=": "<<",
    ">>=": ">>",
    "??=": "??",
}
_BINARY_LOGICAL = {"&&": "and", "||": "or", "??": "??"}
_BINARY_OPS = {"==": "===", "!=": "!=="}
_PREFIX = {"-": "-", "+": "+", "!": "not", "~": "~"}


def _is_interface(name: str) -> bool:
    """C#'s naming convention: ``IComparable``, ``IEnumerable`` are interfaces, not base classes."""
    return len(name) > 1 and name[0] == "I" and name[1].isupper()


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body[0] in "uUx" and len(body) > 1:
            return chr(min(int(body[1:], 16), 0x10FFFF))
        return _ESCAPES.get(body, body)

    return _ESCAPE.sub(one, text) if "\\" in text else text


#: A plain decimal, perhaps with a real suffix (most literals of scene code).
_PLAIN_NUMBER = re.compile(r"([0-9]*\.[0-9]+|[0-9]+\.?[0-9]*)([fFdDmM]?)")


def csharp_number(text: str) -> int | float:
    """The value of a C# numeric literal (``2.5f``, ``0x1F``, ``1_000``, ``10L``, ``3.5e2``)."""
    plain = _PLAIN_NUMBER.fullmatch(text)
    if plain is not None:
        digits, suffix = plain.groups()
        return float(digits) if suffix or "." in digits else int(digits)
    clean = text.replace("_", "")
    lower = clean.lower()
    if lower.startswith("0x"):
        return int(lower[2:].rstrip("ul"), 16)
    if lower.startswith("0b"):
        return int(lower[2:].rstrip("ul"), 2)
    if lower[-1:] in ("f", "d", "m"):
        return float(lower[:-1])
    stripped = lower.rstrip("ul")
    if re.fullmatch(r"\d+", stripped):
        return int(stripped)
    return float(stripped)


@dataclass
class MethodInfo:
    name: str
    static: bool
    attributes: tuple[str, ...]
    parameters: int


@dataclass
class ClassInfo:
    """What a class declares, for deciding entry points."""

    name: str
    bases: tuple[str, ...]
    methods: list[MethodInfo] = field(default_factory=list)
    static: bool = False
    abstract: bool = False
    nested: bool = False


class CSharpFrontEnd:
    def __init__(
        self,
        source: SourceTree,
        reporter: Reporter,
        limits: Limits,
        budget: Budget,
        *,
        prefix: str = "cs",
    ) -> None:
        self.source = source
        self.reporter = reporter
        self.limits = limits
        self.budget = budget
        self.prefix = prefix
        self.depth = 0
        self.lowered = 0
        self.classes: list[ClassInfo] = []
        #: Top-level local functions (a snippet of methods with no class around them).
        self.functions: list[str] = []
        self._class_depth = 0
        self._statements: dict[str, Callable[[Node], ir.Stmt | None]] = {
            "block": self._block,
            "local_declaration_statement": self._local_declaration,
            "expression_statement": self._expression_statement,
            "if_statement": self._if,
            "for_statement": self._for,
            "foreach_statement": self._foreach,
            "while_statement": self._while,
            "do_statement": self._do,
            "return_statement": self._return,
            "break_statement": lambda n: ir.Break(*self._pos(n)),
            "continue_statement": lambda n: ir.Continue(*self._pos(n)),
            "throw_statement": self._throw,
            "try_statement": self._try,
            "switch_statement": self._switch,
            "using_statement": self._wrapped_body,
            "lock_statement": self._wrapped_body,
            "checked_statement": self._wrapped_body,
            "unsafe_statement": self._wrapped_body,
            "fixed_statement": self._wrapped_body,
            "labeled_statement": self._labeled,
            "empty_statement": lambda n: ir.Pass(*self._pos(n)),
            "yield_statement": self._yield,
            "local_function_statement": self._local_function,
            "global_statement": self._global,
            "class_declaration": self._class_declaration,
            "struct_declaration": self._class_declaration,
            "record_declaration": self._class_declaration,
            "interface_declaration": lambda n: None,
            "enum_declaration": self._enum_declaration,
            "namespace_declaration": self._namespace,
            "file_scoped_namespace_declaration": self._namespace,
            "using_directive": lambda n: None,
            "extern_alias_directive": lambda n: None,
            "delegate_declaration": lambda n: None,
            "goto_statement": lambda n: ir.Pass(*self._pos(n)),
        }
        self._expressions: dict[str, Callable[[Node], ir.Expr]] = {
            "identifier": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "this": lambda n: ir.Name(*self._pos(n), "this"),
            "this_expression": lambda n: ir.Name(*self._pos(n), "this"),
            "base": lambda n: ir.Name(*self._pos(n), "this"),
            "predefined_type": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "integer_literal": self._number,
            "real_literal": self._number,
            "boolean_literal": lambda n: ir.Const(*self._pos(n), self.text(n) == "true"),
            "null_literal": lambda n: ir.Const(*self._pos(n), None),
            "string_literal": self._string,
            "verbatim_string_literal": self._verbatim,
            "raw_string_literal": self._raw_string,
            "character_literal": self._character,
            "interpolated_string_expression": self._interpolated,
            "parenthesized_expression": self._parenthesized,
            "member_access_expression": self._member,
            "qualified_name": self._qualified,
            "generic_name": lambda n: ir.Name(*self._pos(n), self._generic_base(n)),
            "invocation_expression": self._invocation,
            "object_creation_expression": self._new,
            "implicit_object_creation_expression": self._implicit_new,
            "array_creation_expression": self._array_creation,
            "implicit_array_creation_expression": self._implicit_array,
            "initializer_expression": self._initializer_list,
            "element_access_expression": self._element_access,
            "binary_expression": self._binary,
            "prefix_unary_expression": self._prefix,
            "postfix_unary_expression": self._postfix,
            "assignment_expression": self._assignment,
            "conditional_expression": self._conditional,
            "cast_expression": self._cast,
            "as_expression": lambda n: self.expression(self._required(n, "left")),
            "is_pattern_expression": self._is_pattern,
            "is_expression": lambda n: ir.Opaque(*self._pos(n), "a type test has no static value"),
            "default_expression": self._default,
            "lambda_expression": self._lambda,
            "anonymous_method_expression": self._lambda,
            "tuple_expression": self._tuple,
            "conditional_access_expression": self._conditional_access,
            "checked_expression": self._parenthesized,
            "await_expression": lambda n: ir.Await(
                *self._pos(n), self.expression(self._named(n)[-1])
            ),
            "switch_expression": self._switch_expression,
            "declaration_expression": lambda n: ir.Name(
                *self._pos(n), self.text(self._required(n, "name"))
            ),
            "typeof_expression": lambda n: ir.Opaque(*self._pos(n), "typeof has no static value"),
            "sizeof_expression": lambda n: ir.Opaque(*self._pos(n), "sizeof has no static value"),
        }

    # --- helpers ------------------------------------------------------------------------------------
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
        result = []
        for child in node.named_children:
            kind = child.type
            if kind == "comment":
                continue
            if kind == "ERROR" or child.is_missing:
                raise _Incomplete(child)
            result.append(child)
        if node.has_error:
            for child in node.children:
                if child.is_missing:
                    raise _Incomplete(child)
        return result

    def _field(self, node: Node, name: str) -> Node | None:
        child = node.child_by_field_name(name)
        if child is not None and (child.type == "ERROR" or child.is_missing):
            raise _Incomplete(child)
        return child

    def _required(self, node: Node, name: str) -> Node:
        child = self._field(node, name)
        if child is None:
            raise _Incomplete(node)
        return child

    def _tick(self) -> None:
        self.lowered += 1
        if self.lowered & 0xFF == 0 and self.budget.expired():
            raise BudgetExceeded("the time limit while reading the code")

    def _modifiers(self, node: Node) -> set[str]:
        return {self.text(c) for c in node.children if c.type == "modifier"}

    def _attributes(self, node: Node) -> tuple[str, ...]:
        names = []
        for child in node.children:
            if child.type == "attribute_list":
                for attribute in child.named_children:
                    if attribute.type == "attribute":
                        name = attribute.child_by_field_name("name")
                        if name is not None:
                            names.append(self.text(name).split(".")[-1].removesuffix("Attribute"))
        return tuple(names)

    def _generic_base(self, node: Node) -> str:
        for child in node.children:
            if child.type == "identifier":
                return self.text(child)
        return self.text(node).split("<")[0]

    def _type_arguments(self, node: Node) -> list[str]:
        for child in node.children:
            if child.type == "type_argument_list":
                return [self._type_name(c) for c in child.named_children if c.type != "comment"]
        return []

    def _type_name(self, node: Node | None) -> str:
        """The simple name of a type (``UnityEngine.Color`` -> ``Color``, ``List<T>`` -> ``List``)."""
        if node is None:
            return ""
        if node.type == "generic_name":
            return self._generic_base(node)
        if node.type == "qualified_name":
            name = node.child_by_field_name("name")
            return self._type_name(name) if name is not None else self.text(node)
        if node.type == "nullable_type":
            inner = node.named_children
            return self._type_name(inner[0]) if inner else self.text(node)
        if node.type == "array_type":
            return "array"
        return self.text(node)

    def _type_default(self, type_node: Node | None, line: int, col: int) -> ir.Expr:
        name = self._type_name(type_node)
        if name in _NUMERIC_TYPES:
            return ir.Const(line, col, 0 if name not in ("float", "double", "decimal") else 0.0)
        if name == "bool":
            return ir.Const(line, col, False)
        if name in STRUCT_TYPES:
            return ir.New(line, col, ir.Name(line, col, name), ())
        return ir.Const(line, col, None)

    # --- program and statements ---------------------------------------------------------------------
    def program(self) -> ir.Block:
        body: list[ir.Stmt] = []
        try:
            for child in self.source.root.children:
                body.extend(self._statement_list([child]))
        except BudgetExceeded:
            self.reporter.add(
                "warning",
                "eval.budget",
                "the code is too long to read in time; only its beginning is read",
                None,
                None,
            )
        return ir.Block(1, 1, tuple(body), scoped=False)

    def _statement_list(self, nodes: list[Node]) -> list[ir.Stmt]:
        body: list[ir.Stmt] = []
        for child in nodes:
            if not child.is_named or child.type == "comment":
                if child.is_missing and child.type == "}":
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
        if node.type == "ERROR" or node.is_missing:
            return self._recover(node)
        handler = self._statements.get(node.type)
        try:
            if handler is None:
                if node.type in self._expressions:
                    return ir.ExprStmt(*self._pos(node), self.expression(node))
                if node.type.endswith("_declaration"):
                    return None
                self._report(
                    "info",
                    "unsupported",
                    f"{node.type.replace('_', ' ')} not understood; skipped",
                    node,
                )
                return None
            return handler(node)
        except _Incomplete as incomplete:
            self._skip(node, incomplete.node)
        except _TooDeep as deep:
            self._report(
                "warning",
                "too_deep",
                f"code nests deeper than {self.limits.max_nesting} levels; statement skipped",
                deep.node,
            )
        except RecursionError:
            self._report(
                "warning", "too_deep", "code nests too deeply to read; statement skipped", node
            )
        return None

    def _recover(self, node: Node) -> ir.Stmt | None:
        self._skip(node, node)
        return None

    def _skip(self, statement: Node, error: Node) -> None:
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

    def _global(self, node: Node) -> ir.Stmt | None:
        named = self._named(node)
        return self.statement(named[0]) if named else None

    def _namespace(self, node: Node) -> ir.Stmt:
        body = node.child_by_field_name("body")
        line, col = self._pos(node)
        if body is None:
            # file-scoped namespace: declarations follow as siblings of the name
            children = [
                c for c in node.named_children if c.type not in ("identifier", "qualified_name")
            ]
            return ir.Block(line, col, tuple(self._statement_list(children)), scoped=False)
        return ir.Block(line, col, tuple(self._statement_list(body.children)), scoped=False)

    def _block(self, node: Node | None) -> ir.Block:
        if node is None:
            return ir.Block(0, 0, ())
        line, col = self._pos(node)
        if node.type != "block":
            stmt = self.statement(node)
            return ir.Block(line, col, () if stmt is None else (stmt,))
        return ir.Block(line, col, tuple(self._statement_list(node.children)))

    def _wrapped_body(self, node: Node) -> ir.Stmt:
        body = self._field(node, "body") or next(
            (c for c in reversed(node.named_children) if c.type == "block"), None
        )
        return self._block(body)

    def _labeled(self, node: Node) -> ir.Stmt | None:
        named = [c for c in self._named(node) if c.type != "identifier"]
        return self.statement(named[0]) if named else None

    def _yield(self, node: Node) -> ir.Stmt:
        # A coroutine's yields only wait: the statements around them still run.
        return ir.Pass(*self._pos(node))

    def _declarators(self, declaration: Node) -> list[tuple[ir.Pattern, ir.Expr | None, Node]]:
        type_node = declaration.child_by_field_name("type")
        result: list[tuple[ir.Pattern, ir.Expr | None, Node]] = []
        for child in self._named(declaration):
            if child.type != "variable_declarator":
                continue
            name_node = child.child_by_field_name("name")
            target: ir.Pattern
            if name_node is None:
                patterns = [c for c in child.named_children if c.type == "tuple_pattern"]
                if not patterns:
                    raise _Incomplete(child)
                target = self.pattern(patterns[0])
            else:
                target = ir.Name(*self._pos(name_node), self.text(name_node))
            values = [
                c
                for c in self._named(child)
                if c != name_node and c.type not in ("tuple_pattern", "bracketed_argument_list")
            ]
            value = self.expression(values[-1]) if values else None
            if value is None and type_node is not None and type_node.type != "implicit_type":
                value = self._type_default(type_node, *self._pos(child))
            result.append((target, value, child))
        return result

    def _local_declaration(self, node: Node) -> ir.Stmt:
        declarations = [c for c in self._named(node) if c.type == "variable_declaration"]
        if not declarations:
            raise _Incomplete(node)
        line, col = self._pos(node)
        statements = [
            ir.Declare(*self._pos(d), target, value, "let")
            for target, value, d in self._declarators(declarations[0])
        ]
        return (
            statements[0]
            if len(statements) == 1
            else ir.Block(line, col, tuple(statements), scoped=False)
        )

    def _expression_statement(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        if not named:
            return ir.Pass(*self._pos(node))
        return ir.ExprStmt(*self._pos(node), self.expression(named[0]))

    def _if(self, node: Node) -> ir.Stmt:
        test = self.expression(self._required(node, "condition"))
        then = self._block(self._required(node, "consequence"))
        alternative = self._field(node, "alternative")
        other = self._block(alternative) if alternative is not None else None
        return ir.If(*self._pos(node), test, then, other)

    def _for(self, node: Node) -> ir.Stmt:
        line, col = self._pos(node)
        init: ir.Stmt | None = None
        initializers = node.children_by_field_name("initializer")
        init_parts: list[ir.Stmt] = []
        for part in initializers:
            if part.type == "ERROR" or part.is_missing:
                raise _Incomplete(part)
            if part.type == "variable_declaration":
                init_parts.extend(
                    ir.Declare(*self._pos(d), t, v, "let") for t, v, d in self._declarators(part)
                )
            elif part.is_named:
                init_parts.append(ir.ExprStmt(*self._pos(part), self.expression(part)))
        if init_parts:
            init = (
                init_parts[0]
                if len(init_parts) == 1
                else ir.Block(line, col, tuple(init_parts), scoped=False)
            )
        condition = self._field(node, "condition")
        test = self.expression(condition) if condition is not None else None
        updates = [u for u in node.children_by_field_name("update") if u.is_named]
        update: ir.Expr | None = None
        if updates:
            lowered = tuple(self.expression(u) for u in updates)
            update = lowered[0] if len(lowered) == 1 else ir.Sequence(line, col, lowered)
        return ir.ForC(line, col, init, test, update, self._block(self._required(node, "body")))

    def _foreach(self, node: Node) -> ir.Stmt:
        left = self._required(node, "left")
        target = self.pattern(left)
        iterable = self.expression(self._required(node, "right"))
        return ir.ForEach(
            *self._pos(node), target, iterable, self._block(self._required(node, "body")), "let"
        )

    def _while(self, node: Node) -> ir.Stmt:
        return ir.While(
            *self._pos(node),
            self.expression(self._required(node, "condition")),
            self._block(self._required(node, "body")),
        )

    def _do(self, node: Node) -> ir.Stmt:
        return ir.While(
            *self._pos(node),
            self.expression(self._required(node, "condition")),
            self._block(self._required(node, "body")),
            do_while=True,
        )

    def _return(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        return ir.Return(*self._pos(node), self.expression(named[0]) if named else None)

    def _throw(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        return ir.Throw(*self._pos(node), self.expression(named[0]) if named else None)

    def _try(self, node: Node) -> ir.Stmt:
        body = self._block(self._required(node, "body"))
        handler: ir.Block | None = None
        target: ir.Pattern | None = None
        final: ir.Block | None = None
        for child in node.named_children:
            if child.type == "catch_clause" and handler is None:
                for part in child.named_children:
                    if part.type == "catch_declaration":
                        name = part.child_by_field_name("name")
                        if name is not None:
                            target = ir.Name(*self._pos(name), self.text(name))
                    elif part.type == "block":
                        handler = self._block(part)
            elif child.type == "finally_clause":
                blocks = [c for c in child.named_children if c.type == "block"]
                final = self._block(blocks[0]) if blocks else None
        if handler is None and final is None:
            handler = ir.Block(*self._pos(node), ())
        return ir.Try(*self._pos(node), body, target, handler, final)

    def _switch(self, node: Node) -> ir.Stmt:
        value = self.expression(self._required(node, "value"))
        body = self._required(node, "body")
        cases: list[tuple[ir.Expr | None, tuple[ir.Stmt, ...]]] = []
        for section in self._named(body):
            if section.type != "switch_section":
                continue
            labels: list[ir.Expr | None] = []
            statements: list[ir.Stmt] = []
            for child in section.named_children:
                if child.type in ("constant_pattern", "case_switch_label"):
                    inner = self._named(child)
                    labels.append(self.expression(inner[0]) if inner else None)
                elif child.type in ("default_switch_label",) or (child.type == "discard"):
                    labels.append(None)
                elif child.type == "comment":
                    continue
                elif child.type.endswith("_pattern"):
                    labels.append(ir.Opaque(*self._pos(child), "a pattern has no static value"))
                else:
                    stmt = self.statement(child)
                    if stmt is not None:
                        statements.append(stmt)
            if any(c.type == "default" for c in section.children):
                labels.append(None)
            for label in labels[:-1]:
                cases.append((label, ()))
            cases.append((labels[-1] if labels else None, tuple(statements)))
        return ir.Switch(*self._pos(node), value, tuple(cases))

    def _local_function(self, node: Node) -> ir.Stmt:
        fn = self._method_function(node)
        if self._class_depth == 0 and fn.name:
            self.functions.append(fn.name)
        return ir.FunctionDecl(*self._pos(node), fn)

    # --- types -------------------------------------------------------------------------------------
    def _params(self, node: Node | None) -> tuple[ir.Param, ...]:
        if node is None:
            return ()
        if node.type in ("implicit_parameter", "identifier"):
            return (ir.Param(*self._pos(node), ir.Name(*self._pos(node), self.text(node))),)
        params: list[ir.Param] = []
        rest_next = False
        for child in node.children:
            if child.type == "params":
                rest_next = True
                continue
            if not child.is_named or child.type == "comment":
                continue
            if child.type == "ERROR" or child.is_missing:
                raise _Incomplete(child)
            name = child.child_by_field_name("name")
            if child.type == "implicit_parameter" or (child.type == "identifier" and name is None):
                params.append(
                    ir.Param(*self._pos(child), ir.Name(*self._pos(child), self.text(child)))
                )
                continue
            if name is None:
                continue
            default = None
            values = [
                c
                for c in child.named_children
                if c != name
                and c.type not in ("modifier", "attribute_list")
                and c != child.child_by_field_name("type")
            ]
            if values:
                default = self.expression(values[-1])
            kind: Literal["rest", "positional"] = "rest" if rest_next else "positional"
            params.append(
                ir.Param(
                    *self._pos(child), ir.Name(*self._pos(name), self.text(name)), default, kind
                )
            )
        return tuple(params)

    def _method_function(self, node: Node) -> ir.FunctionExpr:
        name_node = self._field(node, "name")
        name = self.text(name_node) if name_node is not None else None
        params = self._params(self._field(node, "parameters"))
        body_node = self._field(node, "body")
        line, col = self._pos(node)
        body: ir.Block | ir.Expr
        if body_node is not None and body_node.type == "arrow_expression_clause":
            body = self.expression(self._named(body_node)[0])
        elif body_node is None:
            arrow = next(
                (c for c in node.named_children if c.type == "arrow_expression_clause"), None
            )
            if arrow is None:
                body = ir.Block(line, col, ())
            else:
                body = self.expression(self._named(arrow)[0])
        else:
            body = self._block(body_node)
        return ir.FunctionExpr(line, col, name, params, body, False)

    def _class_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._class(node))

    def _class(self, node: Node) -> ir.ClassExpr:
        name = self.text(self._required(node, "name"))
        modifiers = self._modifiers(node)
        bases: list[str] = []
        base_expr: ir.Expr | None = None
        for child in node.named_children:
            if child.type == "base_list":
                for base in child.named_children:
                    if base.type in ("identifier", "generic_name", "qualified_name"):
                        bases.append(self._type_name(base))
        info = ClassInfo(
            name,
            tuple(bases),
            static="static" in modifiers,
            abstract="abstract" in modifiers,
            nested=self._class_depth > 0,
        )
        self.classes.append(info)
        if bases and not _is_interface(bases[0]):
            line, col = self._pos(node)
            base_expr = ir.Name(line, col, bases[0])
        members: list[ir.ClassMember] = []
        body = self._required(node, "body")
        self._class_depth += 1
        try:
            for member in body.named_children:
                if member.type == "comment":
                    continue
                try:
                    members.extend(self._class_member(member, info))
                except _Incomplete as incomplete:
                    self._skip(member, incomplete.node)
                except _TooDeep as deep:
                    self._report(
                        "warning",
                        "too_deep",
                        f"code nests deeper than {self.limits.max_nesting} levels; member skipped",
                        deep.node,
                    )
        finally:
            self._class_depth -= 1
        return ir.ClassExpr(*self._pos(node), name, base_expr, tuple(members))

    def _class_member(self, member: Node, info: ClassInfo) -> list[ir.ClassMember]:
        if member.type == "ERROR" or member.is_missing:
            raise _Incomplete(member)
        line, col = self._pos(member)
        modifiers = self._modifiers(member)
        static = "static" in modifiers or "const" in modifiers
        kind = member.type
        if kind == "field_declaration":
            declarations = [c for c in member.named_children if c.type == "variable_declaration"]
            result = []
            for declaration in declarations:
                for target, value, _ in self._declarators(declaration):
                    if isinstance(target, ir.Name):
                        result.append(ir.ClassMember(line, col, target.id, "field", value, static))
            return result
        if kind == "property_declaration":
            name = self.text(self._required(member, "name"))
            accessors = member.child_by_field_name("accessors")
            value_node = member.child_by_field_name("value")
            arrow = next(
                (c for c in member.named_children if c.type == "arrow_expression_clause"), None
            )
            if arrow is not None:
                fn = ir.FunctionExpr(
                    line, col, name, (), self.expression(self._named(arrow)[0]), False
                )
                return [ir.ClassMember(line, col, name, "getter", fn, static)]
            bodies = []
            if accessors is not None:
                for accessor in accessors.named_children:
                    if accessor.type != "accessor_declaration":
                        continue
                    body = accessor.child_by_field_name("body")
                    accessor_arrow = next(
                        (c for c in accessor.named_children if c.type == "arrow_expression_clause"),
                        None,
                    )
                    which = self.text(accessor.child_by_field_name("name") or accessor).split()[0]
                    if body is None and accessor_arrow is None:
                        continue
                    lowered: ir.Block | ir.Expr
                    if body is not None:
                        lowered = self._block(body)
                    else:
                        assert accessor_arrow is not None
                        lowered = self.expression(self._named(accessor_arrow)[0])
                    if which == "set":
                        param = (ir.Param(line, col, ir.Name(line, col, "value")),)
                        bodies.append(
                            ir.ClassMember(
                                line,
                                col,
                                name,
                                "setter",
                                ir.FunctionExpr(line, col, name, param, lowered, False),
                                static,
                            )
                        )
                    elif which == "get":
                        bodies.append(
                            ir.ClassMember(
                                line,
                                col,
                                name,
                                "getter",
                                ir.FunctionExpr(line, col, name, (), lowered, False),
                                static,
                            )
                        )
            if bodies:
                return bodies
            value = (
                self.expression(value_node)
                if value_node is not None
                else self._type_default(member.child_by_field_name("type"), line, col)
            )
            return [ir.ClassMember(line, col, name, "field", value, static)]
        if kind == "method_declaration":
            fn = self._method_function(member)
            params = self._field(member, "parameters")
            count = (
                len([c for c in params.named_children if c.type == "parameter"])
                if params is not None
                else 0
            )
            info.methods.append(MethodInfo(fn.name or "", static, self._attributes(member), count))
            return [ir.ClassMember(line, col, fn.name or "<method>", "method", fn, static)]
        if kind == "constructor_declaration":
            if static:
                return []
            fn = self._method_function(member)
            return [ir.ClassMember(line, col, "constructor", "constructor", fn)]
        if kind in ("class_declaration", "struct_declaration", "record_declaration"):
            inner = self._class(member)
            return [ir.ClassMember(line, col, inner.name or "<class>", "field", inner, True)]
        if kind == "enum_declaration":
            inner = self._enum(member)
            return [ir.ClassMember(line, col, inner.name or "<enum>", "field", inner, True)]
        return []

    def _enum(self, node: Node) -> ir.ClassExpr:
        name = self.text(self._required(node, "name"))
        line, col = self._pos(node)
        members = []
        value = 0
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else []:
            if child.type != "enum_member_declaration":
                continue
            member_name = self.text(self._required(child, "name"))
            given = child.child_by_field_name("value")
            expr: ir.Expr
            if given is not None and given.type == "integer_literal":
                value = int(csharp_number(self.text(given)))
            expr = ir.Const(line, col, value)
            members.append(ir.ClassMember(line, col, member_name, "field", expr, True))
            value += 1
        return ir.ClassExpr(line, col, name, None, tuple(members))

    def _enum_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._enum(node))

    # --- expressions -------------------------------------------------------------------------------
    def expression(self, node: Node) -> ir.Expr:
        kind = node.type
        if kind == "ERROR" or node.is_missing:
            raise _Incomplete(node)
        if self.depth >= self.limits.max_nesting:
            raise _TooDeep(node)
        self._tick()
        # The commonest leaves are lowered here, without the table and the nesting count
        # (nothing nests inside them).
        if kind == "identifier":
            row, column = node.start_point
            return ir.Name(row + 1, column + 1, self.source.text(node))
        if kind == "real_literal" or kind == "integer_literal":
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
        try:
            return ir.Const(*self._pos(node), csharp_number(self.text(node)))
        except (ValueError, IndexError):
            return ir.Opaque(*self._pos(node), f"number {self.text(node)!r} cannot be read")

    def _string(self, node: Node) -> ir.Expr:
        if node.has_error:
            self._named(node)
        parts = []
        for child in node.named_children:
            if child.type in ("string_literal_content", "escape_sequence"):
                parts.append(_unescape(self.text(child)))
        return ir.Const(*self._pos(node), "".join(parts))

    def _verbatim(self, node: Node) -> ir.Expr:
        raw = self.text(node)
        body = raw[2:-1] if raw.startswith('@"') else raw[1:-1]
        return ir.Const(*self._pos(node), body.replace('""', '"'))

    def _raw_string(self, node: Node) -> ir.Expr:
        return ir.Const(*self._pos(node), self.text(node).strip('"'))

    def _character(self, node: Node) -> ir.Expr:
        raw = self.text(node)[1:-1]
        return ir.Const(*self._pos(node), _unescape(raw))

    def _interpolated(self, node: Node) -> ir.Expr:
        parts: list[str | ir.Expr] = []
        verbatim = self.text(node).startswith(("$@", "@$"))
        for child in node.named_children:
            if child.type in ("string_content", "escape_sequence"):
                text = self.text(child)
                parts.append(text if verbatim else _unescape(text))
            elif child.type == "interpolation":
                inner = [
                    c
                    for c in self._named(child)
                    if c.type
                    not in (
                        "interpolation_brace",
                        "interpolation_format_clause",
                        "interpolation_alignment_clause",
                    )
                ]
                if inner:
                    parts.append(self.expression(inner[0]))
            elif child.type == "ERROR" or child.is_missing:
                raise _Incomplete(child)
        return ir.Template(*self._pos(node), tuple(parts))

    def _parenthesized(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise _Incomplete(node)
        return self.expression(named[-1])

    def _member_name(self, node: Node) -> tuple[str, list[str]]:
        if node.type == "generic_name":
            return self._generic_base(node), self._type_arguments(node)
        return self.text(node), []

    def _member(self, node: Node) -> ir.Expr:
        obj = self._required(node, "expression")
        name, _ = self._member_name(self._required(node, "name"))
        if obj.type == "base":
            return ir.SuperMember(*self._pos(node), name)
        return ir.Member(*self._pos(node), self.expression(obj), name)

    def _qualified(self, node: Node) -> ir.Expr:
        qualifier = self._required(node, "qualifier")
        name, _ = self._member_name(self._required(node, "name"))
        return ir.Member(*self._pos(node), self.expression(qualifier), name)

    def _arguments(
        self, node: Node | None
    ) -> tuple[list[ir.Argument], list[tuple[int, ir.Pattern]]]:
        """Arguments, and the out targets by argument position."""
        result: list[ir.Argument] = []
        outs: list[tuple[int, ir.Pattern]] = []
        if node is None:
            return result, outs
        for child in self._named(node):
            if child.type != "argument":
                result.append(self.expression(child))
                continue
            line, col = self._pos(child)
            name_node = child.child_by_field_name("name")
            inner = [c for c in self._named(child) if c != name_node]
            if not inner:
                raise _Incomplete(child)
            modifier = next(
                (self.text(c) for c in child.children if c.type in ("out", "ref", "in")), None
            )
            value_node = inner[-1]
            if modifier == "out":
                if value_node.type == "declaration_expression":
                    target: ir.Pattern = ir.Name(
                        *self._pos(value_node), self.text(self._required(value_node, "name"))
                    )
                elif value_node.type == "discard" or self.text(value_node) == "_":
                    target = ir.Name(line, col, "%discard")
                else:
                    target = self.pattern(value_node)
                outs.append((len(result), target))
                result.append(ir.Const(line, col, UNDEFINED))
                continue
            value = self.expression(value_node)
            if name_node is not None:
                result.append(ir.Keyword(line, col, self.text(name_node), value))
            else:
                result.append(value)
        return result, outs

    def _invocation(self, node: Node) -> ir.Expr:
        function = self._required(node, "function")
        args, outs = self._arguments(self._field(node, "arguments"))
        line, col = self._pos(node)
        type_args: list[str] = []
        if function.type == "member_access_expression":
            name_node = self._required(function, "name")
            _, type_args = self._member_name(name_node)
            callee = self._member(function)
        elif function.type == "generic_name":
            type_args = self._type_arguments(function)
            callee = ir.Name(*self._pos(function), self._generic_base(function))
        elif function.type == "identifier" and self.text(function) == "nameof":
            inner = args[0] if args else None
            name = (
                inner.id
                if isinstance(inner, ir.Name)
                else inner.name
                if isinstance(inner, ir.Member)
                else "?"
            )
            return ir.Const(line, col, name)
        else:
            callee = self.expression(function)
        if type_args:
            args.append(
                ir.Keyword(
                    line,
                    col,
                    "%types",
                    ir.TupleLit(line, col, tuple(ir.Const(line, col, t) for t in type_args)),
                )
            )
        if outs:
            args.append(
                ir.Keyword(line, col, "%outs", ir.Const(line, col, tuple(i for i, _ in outs)))
            )
        call = ir.Call(line, col, callee, tuple(args))
        if not outs:
            return call
        # result = f(...); each out target = %out[i]; the call's value last
        items: list[ir.Expr] = [
            ir.Assign(line, col, ir.Name(line, col, "%out"), None, ir.Const(line, col, None)),
            ir.Assign(line, col, ir.Name(line, col, "%result"), None, call),
        ]
        for position, (_, target) in enumerate(outs):
            items.append(
                ir.Assign(
                    line,
                    col,
                    target,
                    None,
                    ir.Index(line, col, ir.Name(line, col, "%out"), ir.Const(line, col, position)),
                )
            )
        items.append(ir.Name(line, col, "%result"))
        return ir.Sequence(line, col, tuple(items))

    def _initializer_items(
        self, node: Node
    ) -> tuple[list[ir.Expr], list[tuple[str, ir.Expr]], list[tuple[ir.Expr, ir.Expr]]]:
        """Items (collection), member assignments (object) and keyed entries (dictionary)."""
        items: list[ir.Expr] = []
        members: list[tuple[str, ir.Expr]] = []
        keyed: list[tuple[ir.Expr, ir.Expr]] = []
        for child in self._named(node):
            if child.type == "assignment_expression":
                left = self._required(child, "left")
                right = self.expression(self._required(child, "right"))
                if left.type == "identifier":
                    members.append((self.text(left), right))
                elif left.type in ("element_binding_expression", "implicit_element_access"):
                    inner = [c for c in self._named(left) if c.type == "argument"]
                    if inner:
                        keyed.append((self.expression(self._named(inner[0])[-1]), right))
            elif child.type == "initializer_expression":
                pair = [self.expression(c) for c in self._named(child)]
                if len(pair) == 2:
                    keyed.append((pair[0], pair[1]))
                else:
                    items.append(ir.ListLit(*self._pos(child), tuple(pair)))
            else:
                items.append(self.expression(child))
        return items, members, keyed

    def _with_initializer(
        self, created: ir.Expr, initializer: Node | None, line: int, col: int
    ) -> ir.Expr:
        if initializer is None:
            return created
        items, members, keyed = self._initializer_items(initializer)
        entries: list[tuple[ir.Expr, ir.Expr] | ir.Spread] = [
            (ir.Const(line, col, name), value) for name, value in members
        ]
        payload = ir.TupleLit(
            line,
            col,
            (
                ir.DictLit(line, col, tuple(entries)),
                ir.ListLit(line, col, tuple(items)),
                ir.ListLit(line, col, tuple(ir.TupleLit(line, col, pair) for pair in keyed)),
            ),
        )
        return ir.Call(line, col, ir.Name(line, col, "%init"), (created, payload))

    def _new(self, node: Node) -> ir.Expr:
        type_node = self._required(node, "type")
        line, col = self._pos(node)
        args, _ = self._arguments(self._field(node, "arguments"))
        type_name = self._type_name(type_node)
        initializer = self._field(node, "initializer")
        if type_name in (
            "List",
            "HashSet",
            "Queue",
            "Stack",
            "LinkedList",
            "ArrayList",
            "Collection",
            "IList",
            "IEnumerable",
        ):
            created: ir.Expr = ir.ListLit(line, col, ())
            if args:
                created = ir.Call(line, col, ir.Name(line, col, "%list_of"), tuple(args))
        elif type_name in ("Dictionary", "SortedDictionary", "Hashtable"):
            created = ir.DictLit(line, col, ())
        else:
            callee = (
                self.expression(type_node)
                if type_node.type != "generic_name"
                else ir.Name(line, col, type_name)
            )
            created = ir.New(line, col, callee, tuple(args))
        return self._with_initializer(created, initializer, line, col)

    def _implicit_new(self, node: Node) -> ir.Expr:
        line, col = self._pos(node)
        return ir.Opaque(line, col, "a target-typed new() has no type the code states")

    def _array_creation(self, node: Node) -> ir.Expr:
        line, col = self._pos(node)
        type_node = self._field(node, "type")
        initializer = next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        if initializer is not None:
            return self._initializer_list(initializer)
        sizes: list[ir.Expr] = []
        element: Node | None = None
        if type_node is not None and type_node.type == "array_type":
            element = type_node.child_by_field_name("type")
            rank = type_node.child_by_field_name("rank")
            if rank is not None:
                sizes = [self.expression(c) for c in self._named(rank)]
        default = self._type_default(element, line, col)
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%array"),
            (
                ir.TupleLit(line, col, tuple(sizes)),
                ir.FunctionExpr(line, col, None, (), default, True),
            ),
        )

    def _implicit_array(self, node: Node) -> ir.Expr:
        initializer = next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        return (
            self._initializer_list(initializer)
            if initializer is not None
            else ir.ListLit(*self._pos(node), ())
        )

    def _initializer_list(self, node: Node) -> ir.Expr:
        items, _members, keyed = self._initializer_items(node)
        line, col = self._pos(node)
        if keyed and not items:
            return ir.DictLit(line, col, tuple(keyed))
        return ir.ListLit(line, col, tuple(items))

    def _element_access(self, node: Node) -> ir.Expr:
        obj = self.expression(self._required(node, "expression"))
        subscript = self._required(node, "subscript")
        indices = [
            self.expression(self._named(a)[-1])
            for a in self._named(subscript)
            if a.type == "argument"
        ]
        if not indices:
            raise _Incomplete(node)
        line, col = self._pos(node)
        index = indices[0] if len(indices) == 1 else ir.TupleLit(line, col, tuple(indices))
        return ir.Index(line, col, obj, index)

    def _operator(self, node: Node) -> str:
        op = node.child_by_field_name("operator")
        if op is not None:
            return self.text(op)
        for child in node.children:
            if not child.is_named:
                return child.type
        raise _Incomplete(node)

    def _binary(self, node: Node) -> ir.Expr:
        left = self.expression(self._required(node, "left"))
        right = self.expression(self._required(node, "right"))
        op = self._operator(node)
        line, col = self._pos(node)
        if op in _BINARY_LOGICAL:
            return ir.Logical(line, col, _BINARY_LOGICAL[op], left, right)  # type: ignore[arg-type]
        return ir.Binary(line, col, _BINARY_OPS.get(op, op), left, right)

    def _prefix(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise _Incomplete(node)
        op = next((c.type for c in node.children if not c.is_named), "+")
        line, col = self._pos(node)
        if op in ("++", "--"):
            return ir.Update(line, col, self.pattern(named[0]), 1 if op == "++" else -1, True)
        if op == "^":
            return ir.Opaque(line, col, "an index from the end has no static value")
        return ir.Unary(line, col, _PREFIX.get(op, op), self.expression(named[0]))

    def _postfix(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise _Incomplete(node)
        op = next((c.type for c in node.children if not c.is_named), "++")
        line, col = self._pos(node)
        if op == "!":
            return self.expression(named[0])
        return ir.Update(line, col, self.pattern(named[0]), 1 if op == "++" else -1, False)

    def _assignment(self, node: Node) -> ir.Expr:
        target = self.pattern(self._required(node, "left"))
        op = self._operator(node)
        if op not in _ASSIGNMENT_OPS:
            raise _Incomplete(node)
        compound = _ASSIGNMENT_OPS[op]
        value = self.expression(self._required(node, "right"))
        line, col = self._pos(node)
        if compound == "??":
            return ir.Assign(line, col, target, "??", value)
        return ir.Assign(line, col, target, compound, value)

    def _conditional(self, node: Node) -> ir.Expr:
        return ir.Conditional(
            *self._pos(node),
            self.expression(self._required(node, "condition")),
            self.expression(self._required(node, "consequence")),
            self.expression(self._required(node, "alternative")),
        )

    def _cast(self, node: Node) -> ir.Expr:
        type_name = self._type_name(self._required(node, "type"))
        value = self.expression(self._required(node, "value"))
        line, col = self._pos(node)
        return ir.Call(
            line, col, ir.Name(line, col, "%cast"), (ir.Const(line, col, type_name), value)
        )

    def _is_pattern(self, node: Node) -> ir.Expr:
        expression = self.expression(self._required(node, "expression"))
        pattern = self._required(node, "pattern")
        line, col = self._pos(node)
        if pattern.type == "constant_pattern":
            inner = self._named(pattern)
            if inner:
                return ir.Binary(line, col, "===", expression, self.expression(inner[0]))
        if pattern.type == "unary_pattern" and "not" in self.text(pattern):
            inner = [c for c in self._named(pattern) if c.type == "constant_pattern"]
            if inner:
                return ir.Binary(
                    line, col, "!==", expression, self.expression(self._named(inner[0])[0])
                )
        return ir.Opaque(line, col, "a type pattern has no static value")

    def _default(self, node: Node) -> ir.Expr:
        type_node = node.child_by_field_name("type")
        line, col = self._pos(node)
        if type_node is None:
            return ir.Const(line, col, 0)
        return self._type_default(type_node, line, col)

    def _lambda(self, node: Node) -> ir.Expr:
        params = self._params(self._field(node, "parameters"))
        body_node = self._field(node, "body")
        line, col = self._pos(node)
        if body_node is None:
            blocks = [c for c in node.named_children if c.type == "block"]
            body: ir.Block | ir.Expr = self._block(blocks[0]) if blocks else ir.Block(line, col, ())
        elif body_node.type == "block":
            body = self._block(body_node)
        else:
            body = self.expression(body_node)
        return ir.FunctionExpr(line, col, None, params, body, True)

    def _tuple(self, node: Node) -> ir.Expr:
        items = []
        for child in self._named(node):
            inner = self._named(child) if child.type == "argument" else [child]
            items.append(self.expression(inner[-1]))
        return ir.TupleLit(*self._pos(node), tuple(items))

    def _conditional_access(self, node: Node) -> ir.Expr:
        condition = self._required(node, "condition")
        base = self.expression(condition)
        binding = [c for c in self._named(node) if c != condition]
        if not binding:
            raise _Incomplete(node)
        target = binding[-1]
        line, col = self._pos(node)
        if target.type == "member_binding_expression":
            name, _ = self._member_name(self._required(target, "name"))
            return ir.Member(line, col, base, name, optional=True)
        if target.type == "element_binding_expression":
            indices = [
                self.expression(self._named(a)[-1])
                for a in self._named(target)
                if a.type == "argument"
            ]
            if indices:
                return ir.Index(line, col, base, indices[0], optional=True)
        if target.type == "invocation_expression":
            function = self._required(target, "function")
            args, _ = self._arguments(self._field(target, "arguments"))
            if function.type == "member_binding_expression":
                name, _ = self._member_name(self._required(function, "name"))
                return ir.Call(
                    line,
                    col,
                    ir.Member(line, col, base, name, optional=True),
                    tuple(args),
                    optional=True,
                )
        return ir.Opaque(line, col, "a conditional access that is not modelled")

    def _switch_expression(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise _Incomplete(node)
        subject = self.expression(named[0])
        line, col = self._pos(node)
        arms = [c for c in named[1:] if c.type == "switch_expression_arm"]
        result: ir.Expr = ir.Opaque(line, col, "no arm of the switch expression matches")
        for arm in reversed(arms):
            parts = self._named(arm)
            if len(parts) < 2:
                continue
            pattern, value = parts[0], self.expression(parts[-1])
            if pattern.type == "discard":
                result = value
            elif pattern.type == "constant_pattern":
                test = ir.Binary(
                    line, col, "===", subject, self.expression(self._named(pattern)[0])
                )
                result = ir.Conditional(line, col, test, value, result)
            else:
                result = ir.Conditional(
                    line, col, ir.Opaque(line, col, "a pattern has no static value"), value, result
                )
        return result

    # --- patterns -------------------------------------------------------------------------------------
    def pattern(self, node: Node) -> ir.Pattern:
        if node.type == "ERROR" or node.is_missing:
            raise _Incomplete(node)
        kind = node.type
        line, col = self._pos(node)
        if kind == "identifier":
            return ir.Name(line, col, self.text(node))
        if kind == "member_access_expression":
            lowered = self._member(node)
            if isinstance(lowered, ir.Member):
                return lowered
        if kind == "element_access_expression":
            lowered = self._element_access(node)
            if isinstance(lowered, ir.Index):
                return lowered
        if kind == "parenthesized_expression":
            return self.pattern(self._named(node)[-1])
        if kind in ("tuple_pattern", "tuple_expression", "parenthesized_variable_designation"):
            items: list[ir.Pattern | None] = []
            for child in self._named(node):
                inner = self._named(child) if child.type == "argument" else [child]
                target = inner[-1]
                if target.type == "declaration_expression":
                    target = self._required(target, "name")
                items.append(None if target.type == "discard" else self.pattern(target))
            return ir.ListPattern(line, col, tuple(items))
        if kind == "declaration_expression":
            return ir.Name(line, col, self.text(self._required(node, "name")))
        if kind == "this_expression" or kind == "this":
            return ir.Name(line, col, "this")
        raise _Incomplete(node)


def lower_csharp(
    source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget, *, prefix: str = "cs"
) -> ir.Block:
    """The program of a parsed C# text as ``ir`` (classes are declared, nothing calls them)."""
    return CSharpFrontEnd(source, reporter, limits, budget, prefix=prefix).program()
