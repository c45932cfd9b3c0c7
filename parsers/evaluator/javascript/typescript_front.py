"""TypeScript front end: the JavaScript one, with TypeScript's syntax read for what it runs.

Types have no run-time effect, so annotations, interfaces, type aliases, ``declare`` forms and
signatures are dropped, and ``x as T``, ``x satisfies T``, ``x!`` and ``<T>x`` read as ``x``.
Four constructs do run, lowered as ``tsc`` emits them (ES2022, class fields defined):

- enums: an object built member by member; a member without a value is the previous one
  plus 1 (undefined after a computed one); earlier members are in scope in later values;
  numeric (and computed) members are also mapped back to their names;
- namespaces: an object holding what the body exports;
- parameter properties (``constructor(private scene: Scene)``): a field declared before the
  class's other fields, assigned from the parameter right after ``super(...)``;
- abstract classes: plain classes at run time.
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.lowering import ExpressionHandlers, StatementHandlers
from parsers.evaluator.core.treesitter import Node, SourceTree
from parsers.evaluator.core.values import UNDEFINED
from parsers.evaluator.javascript.front import JavaScriptFrontEnd, _pattern_names

#: Declarations that only describe types: nothing to run.
_TYPE_ONLY = (
    "interface_declaration",
    "type_alias_declaration",
    "ambient_declaration",
    "abstract_method_signature",
    "method_signature",
    "index_signature",
    "function_signature",
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
#: Expressions ``tsc`` evaluates in an enum member's value (with literals and earlier members).
_CONSTANT_OPERATORS = frozenset(
    {"binary_expression", "unary_expression", "parenthesized_expression", "template_string"}
)


def _typeof_is(line: int, col: int, value: ir.Expr, kind: str) -> ir.Expr:
    return ir.Binary(
        line, col, "===", ir.Unary(line, col, "typeof", value), ir.Const(line, col, kind)
    )


def _existing_or_new(line: int, col: int, name: str) -> ir.Stmt:
    """``var name; name = name ?? {}``: an enum or namespace of a name already declared adds
    to it (declaration merging), else it is a new object."""
    target = ir.Name(line, col, name)
    merged = ir.Logical(line, col, "??", ir.Name(line, col, name), ir.DictLit(line, col, ()))
    return ir.Block(
        line,
        col,
        (
            ir.Declare(line, col, target, None, "var"),
            ir.ExprStmt(line, col, ir.Assign(line, col, target, None, merged)),
        ),
        scoped=False,
    )


def _declared_names(stmt: ir.Stmt, into: dict[str, ir.Name]) -> None:
    """The names a lowered declaration binds (what ``export`` in a namespace exports)."""
    if isinstance(stmt, ir.Declare):
        _pattern_names(stmt.target, into)
    elif isinstance(stmt, ir.FunctionDecl) and stmt.fn.name:
        into.setdefault(stmt.fn.name, ir.Name(stmt.line, stmt.col, stmt.fn.name))
    elif isinstance(stmt, ir.ClassDecl) and stmt.cls.name:
        into.setdefault(stmt.cls.name, ir.Name(stmt.line, stmt.col, stmt.cls.name))
    elif isinstance(stmt, ir.Block) and not stmt.scoped:
        for inner in stmt.body:
            _declared_names(inner, into)


class TypeScriptFrontEnd(JavaScriptFrontEnd):
    """Lowers one parsed TypeScript text (diagnostics prefixed ``js.`` like JavaScript's)."""

    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        statements, expressions = super()._handlers()
        for kind in _TYPE_ONLY:
            statements[kind] = lambda node: None
        statements["abstract_class_declaration"] = self._class_declaration
        statements["enum_declaration"] = self._enum
        statements["internal_module"] = self._namespace
        statements["module"] = self._namespace
        statements["import_alias"] = self._import_alias
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
    def _expression_statement(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        if named and named[0].type == "internal_module":  # ``namespace N {}`` at the top
            return self._namespace(named[0])
        return super()._expression_statement(node)

    def _import_alias(self, node: Node) -> ir.Stmt:
        """``import V = THREE.Vector3``: a constant naming what the path names."""
        named = self._named(node)
        if len(named) < 2:
            return self._unsupported_statement(node)
        target = ir.Name(*self._pos(named[0]), self.text(named[0]))
        path = named[-1]
        value: ir.Expr
        if path.type == "nested_identifier":
            parts = self.text(path).replace(" ", "").split(".")
            value = ir.Name(*self._pos(path), parts[0])
            for part in parts[1:]:
                value = ir.Member(*self._pos(path), value, part)
        else:
            value = self.expression(path)
        return ir.Declare(*self._pos(node), target, value, "const")

    def pattern(self, node: Node) -> ir.Pattern:
        if node.type in _TYPED_VALUE or node.type == "type_assertion":
            # ``(x as T) = v``, ``x! = v``: the value is the target.
            named = self._named(node)
            if named:
                return self.pattern(named[-1] if node.type == "type_assertion" else named[0])
        return super().pattern(node)

    def _enum(self, node: Node) -> ir.Stmt:
        """``enum E { A, B = A * 2, C }`` as ``tsc`` emits it: ``E.A = 0; E[0] = "A"; ...``,
        each member a constant in scope for the values after it."""
        line, col = self._pos(node)
        name = self.text(self._required(node, "name"))
        enum = ir.Name(line, col, name)
        members: list[str] = []
        body: list[ir.Stmt] = []
        previous: ir.Name | None = None
        previous_constant = True
        for i, member in enumerate(self._named(self._required(node, "body"))):
            at = self._pos(member)
            key_node = self._field(member, "name") if member.type == "enum_assignment" else member
            if key_node is None:
                continue
            key = self._property_key(key_node)
            key_text = key.value if isinstance(key, ir.Const) and isinstance(key.value, str) else ""
            value_node = self._field(member, "value") if member.type == "enum_assignment" else None
            if value_node is not None:
                value = self.expression(value_node)
                constant = self._enum_constant(value_node, name, members)
            elif previous is None:
                value, constant = ir.Const(*at, 0.0), True
            elif previous_constant:
                value = ir.Binary(*at, "+", previous, ir.Const(*at, 1.0))
                constant = True
            else:  # after a computed member ``tsc`` gives no value
                value, constant = ir.Const(*at, UNDEFINED), False
            local = ir.Name(*at, key_text if key_text.isidentifier() else f"%member{i}")
            body.append(ir.Declare(*at, local, value, "const"))
            body.append(ir.ExprStmt(*at, ir.Assign(*at, ir.Index(*at, enum, key), None, local)))
            reverse: ir.Stmt = ir.ExprStmt(
                *at, ir.Assign(*at, ir.Index(*at, enum, local), None, key)
            )
            if constant:  # a constant string member has no reverse mapping
                reverse = ir.If(
                    *at, _typeof_is(*at, local, "number"), ir.Block(*at, (reverse,), scoped=False)
                )
            body.append(reverse)
            members.append(key_text)
            previous, previous_constant = local, constant
        return ir.Block(
            line,
            col,
            (_existing_or_new(line, col, name), ir.Block(line, col, tuple(body))),
            scoped=False,
        )

    def _enum_constant(self, node: Node, enum: str, members: list[str]) -> bool:
        """Whether ``tsc`` evaluates an enum member's value at compile time: literals, earlier
        members (``A``, ``E.A``) and operators on them."""
        kind = node.type
        if kind in ("number", "string"):
            return True
        if kind == "identifier":
            return self.text(node) in members
        if kind == "member_expression":
            obj = self._field(node, "object")
            prop = self._field(node, "property")
            return (
                obj is not None
                and prop is not None
                and self.text(obj) == enum
                and self.text(prop) in members
            )
        if kind in _CONSTANT_OPERATORS:
            return all(
                self._enum_constant(child, enum, members)
                for child in self._named(node)
                if child.type not in ("string_fragment", "escape_sequence")
            )
        return kind == "template_substitution" and all(
            self._enum_constant(child, enum, members) for child in self._named(node)
        )

    def _namespace(self, node: Node) -> ir.Stmt:
        """``namespace N { export ... }`` as an object ``N`` holding what the body exports
        (each name set on ``N`` right after its declaration); the rest stays local."""
        line, col = self._pos(node)
        name_node = self._field(node, "name")
        body_node = self._field(node, "body")
        if name_node is None or name_node.type != "identifier" or body_node is None:
            self._report(
                "warning",
                "unsupported",
                "a namespace or module with a dotted or quoted name is not followed; skipped",
                node,
            )
            return ir.Pass(line, col)
        name = self.text(name_node)
        body: list[ir.Stmt] = []
        for child in self._named(body_node):
            declaration = (
                self._field(child, "declaration") if child.type == "export_statement" else None
            )
            stmt = self.statement(declaration if declaration is not None else child)
            if stmt is None:
                continue
            body.append(stmt)
            if declaration is None:
                continue
            exported: dict[str, ir.Name] = {}
            _declared_names(stmt, exported)
            for local, at in exported.items():
                member = ir.Member(at.line, at.col, ir.Name(at.line, at.col, name), local)
                body.append(
                    ir.ExprStmt(
                        at.line,
                        at.col,
                        ir.Assign(at.line, at.col, member, None, ir.Name(at.line, at.col, local)),
                    )
                )
        return ir.Block(
            line,
            col,
            (_existing_or_new(line, col, name), ir.Block(line, col, tuple(body))),
            scoped=False,
        )

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

    def _class(self, node: Node) -> ir.ClassExpr:
        """The class, with a field declared for each parameter property of its constructor,
        before its other fields (``tsc``'s order)."""
        cls = super()._class(node)
        body = self._field(node, "body")
        constructor = next(
            (
                m
                for m in (body.named_children if body is not None else [])
                if m.type == "method_definition"
                and (name := self._field(m, "name")) is not None
                and self.text(name) == "constructor"
            ),
            None,
        )
        if constructor is None:
            return cls
        fields = [
            ir.ClassMember(*self._pos(param), prop, "field", None)
            for param, prop in self._parameter_properties(constructor)
        ]
        if not fields:
            return cls
        return ir.ClassExpr(
            cls.line, cls.col, cls.name, cls.base, (*fields, *cls.members), cls.explicit_self
        )

    def _parameter_properties(self, constructor: Node) -> list[tuple[Node, str]]:
        """The parameters of a constructor that are parameter properties, with their names."""
        params = self._field(constructor, "parameters")
        found = []
        for param in self._named(params) if params is not None else []:
            if not any(c.type in _PROPERTY_MODIFIERS for c in param.children):
                continue
            pattern = self._field(param, "pattern")
            if pattern is not None and pattern.type == "identifier":
                found.append((param, self.text(pattern)))
        return found

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
        assignments: list[ir.Stmt] = []
        for param, name in self._parameter_properties(member):
            line, col = self._pos(param)
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
        fn = ir.FunctionExpr(fn.line, fn.col, fn.name, fn.params, block, fn.arrow, fn.generator)
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
