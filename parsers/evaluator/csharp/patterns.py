"""C# patterns for the C# front end: ``is`` expressions, ``switch`` statements with patterns and
``when`` guards, and switch expressions, lowered to plain tests.

A pattern tested against a subject becomes a boolean expression of the shared tree: a constant
pattern compares (``===``), a type pattern calls the dialect's ``%is(value, "T", the declared
types that are T's)``, a relational one compares (``< 10``), ``and``/``or``/``not`` combine,
property patterns (``{ Size: > 1 }``) test members, positional ones (``(0, _)``) a tuple's
items, and a designation (``int n``, ``Circle c``) assigns the subject as it matches. The
variables a pattern declares, and the temporaries holding a subject evaluated once, are
declared before the statement that holds them (C# scopes them to the enclosing block).
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import Incomplete
from parsers.evaluator.core.treesitter import Node
from parsers.evaluator.csharp.static_typing import CSharpTyping

_RELATIONAL = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}
#: Type names a pattern may test that the code never declares.
_KNOWN_TYPES = frozenset(
    {
        "int",
        "long",
        "float",
        "double",
        "decimal",
        "string",
        "char",
        "bool",
        "object",
        "byte",
        "short",
        "Int32",
        "Int64",
        "Single",
        "Double",
        "String",
        "Char",
        "Boolean",
        "Object",
    }
)


class CSharpPatterns(CSharpTyping):
    """The lowering of C# patterns."""

    def statement(self, node: Node) -> ir.Stmt | None:
        """A statement, preceded by the declarations of the pattern variables and subject
        temporaries its expressions use."""
        declared = self._pattern_variables
        start = len(declared)
        try:
            stmt = super().statement(node)
        finally:
            names = declared[start:]
            del declared[start:]
        if not names or stmt is None:
            return stmt
        line, col = stmt.line, stmt.col
        declarations = tuple(
            ir.Declare(line, col, ir.Name(line, col, name), None, "let")
            for name in dict.fromkeys(names)
        )
        return ir.Block(line, col, (*declarations, stmt), scoped=False)

    def _declare_pattern_variable(self, name: str) -> None:
        self._pattern_variables.append(name)

    def temporary(self, value: ir.Expr, what: str) -> tuple[ir.Name, ir.Expr | None]:
        """A subject evaluated once: a name (the subject itself when it is one) and the
        assignment to run first (None when it is a name)."""
        if isinstance(value, ir.Name):
            return value, None
        self._temporaries += 1
        name = ir.Name(value.line, value.col, f"%{what}{self._temporaries}")
        self._declare_pattern_variable(name.id)
        return name, ir.Assign(value.line, value.col, name, None, value)

    def type_test(self, value: ir.Expr, type_name: str, line: int, col: int) -> ir.Expr:
        """``value is T`` at run time: ``%is(value, "T", the declared types that are T's)``."""
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%is"),
            (
                value,
                ir.Const(line, col, type_name),
                ir.Const(line, col, self.types.subtypes(type_name)),
            ),
        )

    def _names_type(self, node: Node) -> str | None:
        """The type a bare name in a pattern names (``case Circle:``), if it names one."""
        if node.type in ("predefined_type", "generic_name", "array_type", "nullable_type"):
            return self._type_name(node)
        if node.type in ("identifier", "qualified_name"):
            name = self._type_name(node)
            if (
                name in self.types.classes
                or name in self.types.structs
                or name in _KNOWN_TYPES
                or name.endswith("Exception")
            ):
                return name
        return None

    def _bind(self, name_node: Node | None, subject: ir.Expr, type_name: str | None) -> ir.Expr:
        """The subject assigned to a designation as the pattern matches (always true)."""
        line, col = subject.line, subject.col
        if name_node is None or self.text(name_node) == "_":
            return ir.Const(line, col, True)
        if name_node.type == "parenthesized_variable_designation":
            target = self.pattern(name_node)
            return ir.Sequence(
                line,
                col,
                (ir.Assign(line, col, target, None, subject), ir.Const(line, col, True)),
            )
        name = self.text(name_node)
        self._declare_pattern_variable(name)
        self.declare_local(name, type_name)
        target = ir.Name(*self._pos(name_node), name)
        return ir.Sequence(
            line, col, (ir.Assign(line, col, target, None, subject), ir.Const(line, col, True))
        )

    @staticmethod
    def _all(tests: list[ir.Expr], line: int, col: int) -> ir.Expr:
        result: ir.Expr | None = None
        for test in tests:
            if isinstance(test, ir.Const) and test.value is True:
                continue
            result = test if result is None else ir.Logical(line, col, "and", result, test)
        return result if result is not None else ir.Const(line, col, True)

    def pattern_test(self, node: Node, subject: ir.Expr) -> ir.Expr:
        """Whether ``subject`` (a name or member read: it may be read more than once) matches
        the pattern ``node``; its designations are assigned as it does."""
        kind = node.type
        line, col = self._pos(node)
        if kind == "parenthesized_pattern":
            inner = self._named(node)
            if not inner:
                raise Incomplete(node)
            return self.pattern_test(inner[0], subject)
        if kind == "discard":
            return ir.Const(line, col, True)
        if kind == "constant_pattern":
            inner = self._named(node)
            if not inner:
                raise Incomplete(node)
            value = inner[0]
            if value.type == "tuple_expression":
                return self._positional(self._tuple_items(value), subject, line, col)
            type_name = self._names_type(value)
            if type_name is not None:
                return self.type_test(subject, type_name, line, col)
            if value.type == "identifier" and self.text(value) == "_":
                return ir.Const(line, col, True)
            return ir.Binary(line, col, "===", subject, self.expression(value))
        if kind in ("declaration_pattern", "type_pattern"):
            type_node = node.child_by_field_name("type") or next(iter(self._named(node)), None)
            type_name = self._type_name(type_node) if type_node is not None else ""
            test = self.type_test(subject, type_name, line, col)
            bound = self._bind(node.child_by_field_name("name"), subject, type_name)
            return self._all([test, bound], line, col)
        if kind == "var_pattern":
            designation = next(iter(self._named(node)), None)
            return self._bind(designation, subject, None)
        if kind == "relational_pattern":
            inner = self._named(node)
            op = next((c.type for c in node.children if not c.is_named), "")
            if not inner or op not in _RELATIONAL:
                raise Incomplete(node)
            return ir.Binary(line, col, _RELATIONAL[op], subject, self.expression(inner[0]))
        if kind in ("and_pattern", "or_pattern"):
            left = self.pattern_test(self._required(node, "left"), subject)
            right = self.pattern_test(self._required(node, "right"), subject)
            return ir.Logical(line, col, "and" if kind == "and_pattern" else "or", left, right)
        if kind == "negated_pattern":
            inner = self._named(node)
            if not inner:
                raise Incomplete(node)
            return ir.Unary(line, col, "not", self.pattern_test(inner[0], subject))
        if kind == "recursive_pattern":
            return self._recursive(node, subject, line, col)
        type_name = self._names_type(node)
        if type_name is not None:
            return self.type_test(subject, type_name, line, col)
        if kind in ("identifier", "qualified_name", "member_access_expression"):
            return ir.Binary(line, col, "===", subject, self.expression(node))
        self._report(
            "warning",
            "unsupported",
            f"{kind.replace('_', ' ')} is not followed; whether it matches is unknown",
            node,
        )
        return ir.Opaque(line, col, f"a {kind.replace('_', ' ')} has no static value")

    def _tuple_items(self, node: Node) -> list[Node]:
        items = []
        for child in self._named(node):
            inner = self._named(child) if child.type == "argument" else [child]
            if inner:
                items.append(inner[-1])
        return items

    def _positional(self, items: list[Node], subject: ir.Expr, line: int, col: int) -> ir.Expr:
        """``(p0, p1, ...)``: each pattern against the tuple's item (a value deconstructed)."""
        tests: list[ir.Expr] = []
        for index, item in enumerate(items):
            element = ir.Index(line, col, subject, ir.Const(line, col, index))
            if item.type in ("identifier", "discard") and self.text(item) == "_":
                continue
            if item.type.endswith("_pattern") or item.type in ("discard",):
                tests.append(self.pattern_test(item, element))
            else:
                tests.append(ir.Binary(line, col, "===", element, self.expression(item)))
        return self._all(tests, line, col)

    def _recursive(self, node: Node, subject: ir.Expr, line: int, col: int) -> ir.Expr:
        """``T (positional) { Member: pattern, ... } name``: not null, of T, each part matching,
        then the subject assigned to ``name``."""
        tests: list[ir.Expr] = [ir.Binary(line, col, "!==", subject, ir.Const(line, col, None))]
        type_node = node.child_by_field_name("type")
        type_name: str | None = None
        if type_node is not None:
            type_name = self._type_name(type_node)
            tests.append(self.type_test(subject, type_name, line, col))
        for child in self._named(node):
            if child.type == "positional_pattern_clause":
                items = [
                    (self._named(c)[-1] if c.type == "subpattern" and self._named(c) else c)
                    for c in self._named(child)
                ]
                tests.append(self._positional(items, subject, line, col))
            elif child.type == "property_pattern_clause":
                for sub in self._named(child):
                    if sub.type != "subpattern":
                        continue
                    parts = self._named(sub)
                    if len(parts) < 2:
                        raise Incomplete(sub)
                    member: ir.Expr = subject
                    for name in self.text(parts[0]).split("."):
                        member = ir.Member(line, col, member, name.strip())
                    tests.append(self.pattern_test(parts[-1], member))
        tests.append(self._bind(node.child_by_field_name("name"), subject, type_name))
        return self._all(tests, line, col)
