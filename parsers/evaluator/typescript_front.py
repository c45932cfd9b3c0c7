"""TypeScript front end: the JavaScript one, with TypeScript's syntax read for what it runs.

Types have no run-time effect, so annotations, interfaces, type aliases, ``declare`` forms and
signatures are dropped, and ``x as T``, ``x satisfies T``, ``x!`` and ``<T>x`` read as ``x``.
Three constructs do run: enums (an object, numeric members mapped back to their names, as
``tsc`` emits them), parameter properties (``constructor(private scene: Scene)`` assigns
``this.scene``) and abstract classes (plain classes at run time).
"""

from __future__ import annotations

from parsers.evaluator import ir
from parsers.evaluator.context import Reporter
from parsers.evaluator.javascript_front import JavaScriptFrontEnd, js_number
from parsers.evaluator.limits import Budget, Limits
from parsers.evaluator.lowering import ExpressionHandlers, StatementHandlers
from parsers.evaluator.treesitter import Node, SourceTree

#: Declarations that only describe types: nothing to run.
_TYPE_ONLY = (
    "interface_declaration",
    "type_alias_declaration",
    "ambient_declaration",
    "abstract_method_signature",
    "method_signature",
    "index_signature",
)
#: Expressions wrapping a value in a type, the value first (``x as T``, ``x!``, ``f<T>``).
_TYPED_VALUE = (
    "as_expression",
    "satisfies_expression",
    "non_null_expression",
    "instantiation_expression",
)
#: What makes a constructor parameter a parameter property.
_PROPERTY_MODIFIERS = frozenset({"accessibility_modifier", "override_modifier", "readonly"})


class TypeScriptFrontEnd(JavaScriptFrontEnd):
    """Lowers one parsed TypeScript text (diagnostics prefixed ``js.`` like JavaScript's)."""

    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        statements, expressions = super()._handlers()
        for kind in _TYPE_ONLY:
            statements[kind] = lambda node: None
        statements["abstract_class_declaration"] = self._class_declaration
        statements["enum_declaration"] = self._enum
        statements["internal_module"] = self._unsupported_statement
        statements["module"] = self._unsupported_statement
        for kind in _TYPED_VALUE:
            expressions[kind] = lambda node: self.expression(self._named(node)[0])
        # ``<T>x``: the value comes last.
        expressions["type_assertion"] = lambda node: self.expression(self._named(node)[-1])
        return statements, expressions

    def program(self) -> ir.Block:
        self.reporter.add(
            "info",
            f"{self.prefix}.typescript",
            "the code is TypeScript: read with the TypeScript grammar, types left out",
            None,
            None,
        )
        return super().program()

    # --- what runs ----------------------------------------------------------------------------
    def _enum(self, node: Node) -> ir.Stmt:
        """``enum E { A, B = 5, C }`` as ``const E = {A: 0, 0: "A", B: 5, 5: "B", C: 6, 6: "C"}``."""
        line, col = self._pos(node)
        entries: list[tuple[ir.Expr, ir.Expr] | ir.Spread] = []
        following: float | None = 0.0
        for member in self._named(self._required(node, "body")):
            at = self._pos(member)
            if member.type == "enum_assignment":
                name = self._property_key(self._required(member, "name"))
                value_node = self._required(member, "value")
                value = self.expression(value_node)
                number = js_number(self.text(value_node)) if value_node.type == "number" else None
            else:
                name = self._property_key(member)
                number = following
                value = (
                    ir.Const(*at, number)
                    if number is not None
                    else ir.Opaque(*at, "an enum member after a computed one")
                )
            entries.append((name, value))
            if number is not None:
                key = str(int(number)) if number.is_integer() else repr(number)
                entries.append((ir.Const(*at, key), name))
            following = number + 1 if number is not None else None
        target = ir.Name(
            *self._pos(self._required(node, "name")), self.text(self._required(node, "name"))
        )
        return ir.Declare(line, col, target, ir.DictLit(line, col, tuple(entries)), "const")

    def _params(self, node: Node | None) -> tuple[ir.Param, ...]:
        if node is None or node.type == "identifier":
            return super()._params(node)
        # ``this: T`` only types ``this``: callers pass no argument for it.
        return tuple(
            self._param(child)
            for child in self._named(node)
            if (pattern := self._field(child, "pattern")) is None or pattern.type != "this"
        )

    def _param(self, child: Node) -> ir.Param:
        if child.type not in ("required_parameter", "optional_parameter"):
            return super()._param(child)
        line, col = self._pos(child)
        pattern = self._required(child, "pattern")
        value = self._field(child, "value")
        default = self.expression(value) if value is not None else None
        if pattern.type == "rest_pattern":
            return ir.Param(line, col, self.pattern(self._named(pattern)[0]), None, "rest")
        return ir.Param(line, col, self.pattern(pattern), default)

    def _heritage(self, node: Node) -> ir.Expr | None:
        for clause in self._named(node):
            if clause.type == "extends_clause":
                return self.expression(self._required(clause, "value"))
        return None

    def _class_member(self, member: Node) -> ir.ClassMember | None:
        if member.type in _TYPE_ONLY:
            return None
        if member.type == "public_field_definition" and any(
            c.type == "declare" for c in member.children if not c.is_named
        ):
            return None  # ``declare x: T`` only types a field
        lowered = super()._class_member(member)
        if lowered is not None and lowered.kind == "constructor":
            return self._with_parameter_properties(member, lowered)
        return lowered

    def _with_parameter_properties(
        self, member: Node, constructor: ir.ClassMember
    ) -> ir.ClassMember:
        """A constructor whose ``private x: T`` parameters also set ``this.x``, right after the
        ``super(...)`` call when there is one, as ``tsc`` emits them."""
        params = self._field(member, "parameters")
        assignments: list[ir.Stmt] = []
        for param in self._named(params) if params is not None else []:
            if not any(c.type in _PROPERTY_MODIFIERS for c in param.children):
                continue
            pattern = self._field(param, "pattern")
            if pattern is None or pattern.type != "identifier":
                continue
            line, col = self._pos(param)
            name = self.text(pattern)
            this = ir.Name(line, col, "this")
            assignments.append(
                ir.ExprStmt(
                    line,
                    col,
                    ir.Assign(
                        line, col, ir.Member(line, col, this, name), None, ir.Name(line, col, name)
                    ),
                )
            )
        fn = constructor.value
        if (
            not assignments
            or not isinstance(fn, ir.FunctionExpr)
            or not isinstance(fn.body, ir.Block)
        ):
            return constructor
        body = list(fn.body.body)
        at = next(
            (
                i + 1
                for i, stmt in enumerate(body)
                if isinstance(stmt, ir.ExprStmt) and isinstance(stmt.expr, ir.SuperCall)
            ),
            0,
        )
        body[at:at] = assignments
        block = ir.Block(fn.body.line, fn.body.col, tuple(body), fn.body.scoped)
        fn = ir.FunctionExpr(fn.line, fn.col, fn.name, fn.params, block, fn.arrow)
        return ir.ClassMember(
            constructor.line,
            constructor.col,
            constructor.name,
            constructor.kind,
            fn,
            constructor.static,
        )


def lower_typescript(
    source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget, *, prefix: str = "js"
) -> ir.Block:
    """The program of a parsed TypeScript text as ``ir``."""
    return TypeScriptFrontEnd(source, reporter, limits, budget, prefix=prefix).program()
