"""C# declarations for the C# front end: methods, local functions and lambdas with their
parameters (``out``, ``params``, defaults), classes and structs with their members (fields,
auto-properties, properties, constructors, nested types) and enums. What each class
declares is kept in ``classes`` (``ClassInfo``) for the Unity parser's entry points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from parsers.evaluator import ir
from parsers.evaluator.context import Reporter
from parsers.evaluator.csharp_literals import csharp_number
from parsers.evaluator.csharp_statements import CSharpStatements
from parsers.evaluator.limits import Budget, Limits
from parsers.evaluator.lowering import Incomplete, TooDeep
from parsers.evaluator.treesitter import Node, SourceTree
from parsers.evaluator.values import EnumMember


def _is_interface(name: str) -> bool:
    """C#'s naming convention: ``IComparable``, ``IEnumerable`` are interfaces, not base classes."""
    return len(name) > 1 and name[0] == "I" and name[1].isupper()


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


class CSharpDeclarations(CSharpStatements):
    """The lowering of C# functions, classes and enums."""

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
        self.classes: list[ClassInfo] = []
        #: Top-level local functions (a snippet of methods with no class around them).
        self.functions: list[str] = []
        self._class_depth = 0

    # --- functions and classes ---------------------------------------------------------------------
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
                raise Incomplete(child)
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

    def _local_function(self, node: Node) -> ir.Stmt:
        fn = self._method_function(node)
        if self._class_depth == 0 and fn.name:
            self.functions.append(fn.name)
        return ir.FunctionDecl(*self._pos(node), fn)

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
                except Incomplete as incomplete:
                    self._skip(member, incomplete.node)
                except TooDeep as deep:
                    self._report_too_deep(deep, "member")
        finally:
            self._class_depth -= 1
        return ir.ClassExpr(*self._pos(node), name, base_expr, tuple(members))

    def _class_member(self, member: Node, info: ClassInfo) -> list[ir.ClassMember]:
        if member.type == "ERROR" or member.is_missing:
            raise Incomplete(member)
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
            expr = ir.Const(line, col, EnumMember(value, name, member_name))
            members.append(ir.ClassMember(line, col, member_name, "field", expr, True))
            value += 1
        return ir.ClassExpr(line, col, name, None, tuple(members))

    def _enum_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._enum(node))
