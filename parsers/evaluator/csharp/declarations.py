"""C# declarations for the C# front end: methods, local functions and lambdas with their
parameters (``out``, ``ref``, ``params``, defaults, declared types), classes, structs and
records with their members (fields, auto-properties, properties, constructors with their
``: base(...)``/``: this(...)`` initialisers, static constructors, operators, nested types)
and enums. What each class declares is kept in ``classes`` (``ClassInfo``) for the Unity
parser's entry points.

How C# features map onto the shared tree:

- overloads (methods and constructors of one name): each is kept as ``Name%i``, and ``Name``
  is a dispatcher choosing by the arguments' number, names and types at the call (the
  dialect's ``%overload``); constructors are chosen the same way and inlined;
- ``out`` and ``ref`` parameters: the method hands their final values back in ``%out`` when it
  returns; the call site binds them (see ``csharp.expressions._arguments``);
- static fields whose initialiser is no constant, and static constructors, run in a static
  method ``%cinit`` of their class, called once every type is declared (C# runs them before
  the type's first use);
- structs and ``record struct`` are value types; records get their properties, value equality,
  ``ToString`` (``Name { X = 1 }``) and ``Deconstruct``;
- operators are static methods with the CLR's names (``op_Addition``); the dialect calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from parsers.evaluator.core import ir
from parsers.evaluator.core.calls import is_stub
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.lowering import Incomplete, TooDeep
from parsers.evaluator.core.treesitter import Node, SourceTree
from parsers.evaluator.core.values import UNDEFINED, EnumMember
from parsers.evaluator.csharp.literals import csharp_number
from parsers.evaluator.csharp.numerics import CONVERTED_TYPES
from parsers.evaluator.csharp.statements import CSharpStatements


def _is_interface(name: str) -> bool:
    """C#'s naming convention: ``IComparable``, ``IEnumerable`` are interfaces, not base classes."""
    return len(name) > 1 and name[0] == "I" and name[1].isupper()


#: The CLR name of each overloadable operator with two operands (one operand: ``_UNARY``).
_BINARY_OPERATORS = {
    "+": "op_Addition",
    "-": "op_Subtraction",
    "*": "op_Multiply",
    "/": "op_Division",
    "%": "op_Modulus",
    "==": "op_Equality",
    "!=": "op_Inequality",
    "<": "op_LessThan",
    ">": "op_GreaterThan",
    "<=": "op_LessThanOrEqual",
    ">=": "op_GreaterThanOrEqual",
    "&": "op_BitwiseAnd",
    "|": "op_BitwiseOr",
    "^": "op_ExclusiveOr",
}
_UNARY_OPERATORS = {"-": "op_UnaryNegation", "+": "op_UnaryPlus", "!": "op_LogicalNot"}
STATIC_INIT = "%cinit"


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


@dataclass(frozen=True)
class ParamInfo:
    """One declared parameter."""

    name: str
    type_name: str | None
    modifier: str | None
    default: ir.Expr | None
    rest: bool
    line: int
    col: int


@dataclass
class _Constructor:
    params: list[ParamInfo]
    #: ``base`` or ``this`` and its argument nodes, or None.
    initializer: tuple[str, Node] | None
    body: ir.Block
    line: int
    col: int


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
        self._start_typing(source)
        self.classes: list[ClassInfo] = []
        #: Top-level local functions (a snippet of methods with no class around them).
        self.functions: list[str] = []
        self._class_depth = 0
        #: Each class with static initialisers, as the expression naming it from the top level.
        self.static_inits: list[ir.Expr] = []
        self._class_path: list[ir.Expr] = []

    # --- the program -----------------------------------------------------------------------------
    def program(self) -> ir.Block:
        """The program, with every class's static initialisers run once the types are all
        declared, before the first statement that is not a declaration."""
        program = super().program()
        if not self.static_inits:
            return program
        line = program.line
        calls = tuple(
            ir.ExprStmt(line, 0, ir.Call(line, 0, ir.Member(line, 0, path, STATIC_INIT), ()))
            for path in self.static_inits
        )
        body = list(program.body)
        at = next((i for i, stmt in enumerate(body) if not _declares_only(stmt)), len(body))
        return ir.Block(program.line, program.col, (*body[:at], *calls, *body[at:]), scoped=False)

    # --- parameters and functions -------------------------------------------------------------------
    def _param_infos(
        self, node: Node | None, types: list[str | None] | None = None
    ) -> list[ParamInfo]:
        if node is None:
            return []
        if node.type in ("implicit_parameter", "identifier"):
            line, col = self._pos(node)
            given = types[0] if types else None
            return [ParamInfo(self.text(node), given, None, None, False, line, col)]
        params: list[ParamInfo] = []
        rest_next = False
        pending_type: str | None = None
        for child in node.children:
            if child.type == "params":
                rest_next = True
                continue
            if not child.is_named or child.type == "comment":
                continue
            if child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
            line, col = self._pos(child)
            position = len(params)
            given = types[position] if types and position < len(types) else None
            if child.type in ("array_type", "predefined_type", "generic_name") and rest_next:
                pending_type = self.declared_type(child)
                continue
            name = child.child_by_field_name("name")
            if child.type == "implicit_parameter" or (child.type == "identifier" and name is None):
                params.append(
                    ParamInfo(
                        self.text(child), pending_type or given, None, None, rest_next, line, col
                    )
                )
                rest_next = False
                continue
            if name is None:
                continue
            type_node = child.child_by_field_name("type")
            modifier = next(
                (
                    self.text(c)
                    for c in child.children
                    if c.type == "modifier" and self.text(c) in ("out", "ref", "in", "this")
                ),
                None,
            )
            values = [
                c
                for c in child.named_children
                if c != name and c.type not in ("modifier", "attribute_list") and c != type_node
            ]
            declared = self.declared_type(type_node) or given
            default = self.converted(declared, self.expression(values[-1])) if values else None
            params.append(
                ParamInfo(self.text(name), declared, modifier, default, rest_next, line, col)
            )
            rest_next = False
        return params

    @staticmethod
    def _ir_params(infos: list[ParamInfo]) -> tuple[ir.Param, ...]:
        kinds: dict[bool, Literal["rest", "positional"]] = {True: "rest", False: "positional"}
        return tuple(
            ir.Param(p.line, p.col, ir.Name(p.line, p.col, p.name), p.default, kinds[p.rest])
            for p in infos
        )

    def _prologue(self, infos: list[ParamInfo]) -> list[ir.Stmt]:
        """Each typed parameter converted to its declared type (``void F(float d)`` called
        with ``F(3)`` holds 3f)."""
        result: list[ir.Stmt] = []
        for p in infos:
            if p.rest:
                # ``params T[] xs`` given one array: that array.
                name = ir.Name(p.line, p.col, p.name)
                given = ir.Call(p.line, p.col, ir.Name(p.line, p.col, "%params"), (name,))
                result.append(
                    ir.ExprStmt(p.line, p.col, ir.Assign(p.line, p.col, name, None, given))
                )
                continue
            if p.type_name in CONVERTED_TYPES and p.modifier not in ("out",):
                name = ir.Name(p.line, p.col, p.name)
                result.append(
                    ir.ExprStmt(
                        p.line,
                        p.col,
                        ir.Assign(p.line, p.col, name, None, self.converted(p.type_name, name)),
                    )
                )
        return result

    @staticmethod
    def _hand_back(infos: list[ParamInfo], body: ir.Block) -> ir.Block:
        """A body that hands its ``out`` and ``ref`` parameters back in ``%out`` when it ends."""
        handed = [p for p in infos if p.modifier in ("out", "ref")]
        if not handed:
            return body
        line, col = body.line, body.col
        publish = ir.ExprStmt(
            line,
            col,
            ir.Assign(
                line,
                col,
                ir.Name(line, col, "%out"),
                None,
                ir.ListLit(line, col, tuple(ir.Name(line, col, p.name) for p in handed)),
            ),
        )
        final = ir.Block(line, col, (publish,))
        return ir.Block(line, col, (ir.Try(line, col, body, None, None, final),))

    def _function(
        self,
        node: Node,
        name: str | None,
        *,
        returns: str | None,
        inherit: bool,
        arrow: bool = False,
        parameter_types: list[str | None] | None = None,
    ) -> tuple[ir.FunctionExpr, list[ParamInfo]]:
        """A method, local function or lambda: its parameters typed, its body lowered with
        their types known, typed parameters converted on entry, returns converted to the
        return type, ``out``/``ref`` parameters handed back."""
        infos = self._param_infos(self._field(node, "parameters"), parameter_types)
        line, col = self._pos(node)
        self._iterators.append(False)
        with self.function_scope(
            {p.name: p.type_name for p in infos if p.type_name is not None},
            returns,
            inherit=inherit,
        ):
            body_node = self._field(node, "body")
            if body_node is None:
                body_node = next(
                    (
                        c
                        for c in node.named_children
                        if c.type in ("arrow_expression_clause", "block")
                    ),
                    None,
                )
            body: ir.Block | ir.Expr
            if body_node is None:
                body = ir.Block(line, col, ())
            elif body_node.type == "arrow_expression_clause":
                body = self.returned(self.expression(self._with_this(body_node)[0]))
            elif body_node.type == "block":
                body = self._block(body_node)
            else:
                body = self.returned(self.expression(body_node))
            # A stub (``{ }``, a ``throw``) stays one: an engine reads a call of it as the
            # object it asks for.
            prologue = [] if is_stub(body) else self._prologue(infos)
        iterator = self._iterators.pop()
        if prologue or (any(p.modifier in ("out", "ref") for p in infos) and not is_stub(body)):
            if not isinstance(body, ir.Block):
                body = ir.Block(line, col, (ir.Return(line, col, body),))
            body = self._hand_back(infos, ir.Block(line, col, (*prologue, *body.body)))
        return (
            ir.FunctionExpr(line, col, name, self._ir_params(infos), body, arrow, iterator),
            infos,
        )

    def _return_type(self, node: Node) -> str | None:
        type_node = node.child_by_field_name("returns") or node.child_by_field_name("type")
        return self.declared_type(type_node)

    def _method_function(self, node: Node, *, inherit: bool = False) -> ir.FunctionExpr:
        name_node = self._field(node, "name")
        name = self.text(name_node) if name_node is not None else None
        fn, _ = self._function(node, name, returns=self._return_type(node), inherit=inherit)
        return fn

    def _local_function(self, node: Node) -> ir.Stmt:
        fn = self._method_function(node, inherit=True)
        if self._class_depth == 0 and fn.name:
            self.functions.append(fn.name)
        if fn.name:
            self.declare_local(fn.name, None)
        return ir.FunctionDecl(*self._pos(node), fn)

    def _lambda(
        self,
        node: Node,
        parameter_types: list[str | None] | None = None,
        returns: str | None = None,
    ) -> ir.Expr:
        fn, _ = self._function(
            node,
            None,
            returns=returns,
            inherit=True,
            arrow=True,
            parameter_types=parameter_types,
        )
        return fn

    # --- classes -------------------------------------------------------------------------------------
    def _class_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._class(node))

    def _class(self, node: Node) -> ir.ClassExpr:
        name = self.text(self._required(node, "name"))
        modifiers = self._modifiers(node)
        line, col = self._pos(node)
        bases: list[str] = []
        base_expr: ir.Expr | None = None
        primary: Node | None = None
        for child in node.named_children:
            if child.type == "base_list":
                for base in child.named_children:
                    if base.type in ("identifier", "generic_name", "qualified_name"):
                        bases.append(self._type_name(base))
                    elif base.type == "primary_constructor_base_type":
                        inner = base.named_children
                        if inner:
                            bases.append(self._type_name(inner[0]))
            elif child.type == "parameter_list":
                primary = child
        info = ClassInfo(
            name,
            tuple(bases),
            static="static" in modifiers,
            abstract="abstract" in modifiers,
            nested=self._class_depth > 0,
        )
        self.classes.append(info)
        value_type = name in self.types.structs
        if bases and not _is_interface(bases[0]) and not value_type:
            base_expr = ir.Name(line, col, bases[0])
        path: ir.Expr = (
            ir.Member(line, col, self._class_path[-1], name)
            if self._class_path
            else ir.Name(line, col, name)
        )
        self._class_path.append(path)
        members: list[ir.ClassMember] = []
        constructors: list[_Constructor] = []
        methods: dict[str, list[ir.ClassMember]] = {}
        method_params: dict[int, list[ParamInfo]] = {}
        static_inits: list[ir.Stmt] = []
        record_properties: list[str] = []
        body = node.child_by_field_name("body")
        self._class_depth += 1
        try:
            with self.in_class(name):
                if primary is not None:
                    record_properties = self._record_primary(
                        primary, constructors, members, line, col
                    )
                for member in body.named_children if body is not None else ():
                    if member.type == "comment":
                        continue
                    try:
                        self._class_member(
                            member,
                            info,
                            members,
                            constructors,
                            methods,
                            method_params,
                            static_inits,
                        )
                    except Incomplete as incomplete:
                        self._skip(member, incomplete.node)
                    except TooDeep as deep:
                        self._report_too_deep(deep, "member")
                if node.type == "record_declaration":
                    members += self._record_members(name, record_properties, members, line, col)
                members += self._overloaded_methods(methods, method_params, line, col)
                constructor = self._constructor(
                    constructors, base_expr is not None, line, col, struct=value_type
                )
                if constructor is not None:
                    members.append(
                        ir.ClassMember(line, col, "constructor", "constructor", constructor)
                    )
        finally:
            self._class_depth -= 1
            self._class_path.pop()
        if static_inits:
            init = ir.FunctionExpr(
                line, col, STATIC_INIT, (), ir.Block(line, col, tuple(static_inits))
            )
            members.append(ir.ClassMember(line, col, STATIC_INIT, "method", init, True))
            self.static_inits.append(path)
        return ir.ClassExpr(line, col, name, base_expr, tuple(members), value_type=value_type)

    def _class_member(
        self,
        member: Node,
        info: ClassInfo,
        members: list[ir.ClassMember],
        constructors: list[_Constructor],
        methods: dict[str, list[ir.ClassMember]],
        method_params: dict[int, list[ParamInfo]],
        static_inits: list[ir.Stmt],
    ) -> None:
        if member.type == "ERROR" or member.is_missing:
            raise Incomplete(member)
        line, col = self._pos(member)
        modifiers = self._modifiers(member)
        static = "static" in modifiers or "const" in modifiers
        kind = member.type
        if kind == "field_declaration":
            for declaration in (
                c for c in member.named_children if c.type == "variable_declaration"
            ):
                for target, value, _ in self._declarators(declaration):
                    if not isinstance(target, ir.Name):
                        continue
                    if static and "const" not in modifiers and _runs_code(value):
                        # Run once the types are all declared, as C# runs it before first use.
                        type_node = declaration.child_by_field_name("type")
                        members.append(
                            ir.ClassMember(
                                line,
                                col,
                                target.id,
                                "field",
                                self._type_default(type_node, line, col),
                                True,
                            )
                        )
                        static_inits.append(_store_static(target.id, value, line, col))
                    else:
                        members.append(ir.ClassMember(line, col, target.id, "field", value, static))
        elif kind == "property_declaration":
            members.extend(self._property(member, static, line, col, static_inits))
        elif kind == "method_declaration":
            fn, infos = self._function(
                member,
                self.text(self._required(member, "name")),
                returns=self._return_type(member),
                inherit=False,
            )
            info.methods.append(
                MethodInfo(fn.name or "", static, self._attributes(member), len(infos))
            )
            made = ir.ClassMember(line, col, fn.name or "<method>", "method", fn, static)
            methods.setdefault(made.name, []).append(made)
            method_params[id(made)] = infos
        elif kind == "operator_declaration":
            operator = member.child_by_field_name("operator")
            fn, infos = self._function(
                member, None, returns=self._return_type(member), inherit=False
            )
            symbol = self.text(operator) if operator is not None else ""
            table = _UNARY_OPERATORS if len(infos) == 1 else _BINARY_OPERATORS
            clr = table.get(symbol)
            if clr is not None:
                made = ir.ClassMember(line, col, clr, "method", fn, True)
                methods.setdefault(clr, []).append(made)
                method_params[id(made)] = infos
        elif kind == "constructor_declaration":
            if static:
                static_body = self._field(member, "body")
                if static_body is not None:
                    static_inits.extend(self._block(static_body).body)
                return
            infos = self._param_infos(self._field(member, "parameters"))
            initializer: tuple[str, Node] | None = None
            for child in member.named_children:
                if child.type == "constructor_initializer":
                    which = "base" if any(c.type == "base" for c in child.children) else "this"
                    arguments = next(
                        (c for c in child.named_children if c.type == "argument_list"), None
                    )
                    if arguments is not None:
                        initializer = (which, arguments)
            with self.function_scope(
                {p.name: p.type_name for p in infos if p.type_name is not None}, None, inherit=False
            ):
                body_node = self._field(member, "body")
                block = (
                    self._block(body_node)
                    if body_node is not None and body_node.type == "block"
                    else ir.Block(line, col, ())
                )
                if body_node is not None and body_node.type == "arrow_expression_clause":
                    block = ir.Block(
                        line,
                        col,
                        (ir.ExprStmt(line, col, self.expression(self._named(body_node)[0])),),
                    )
                prologue = self._prologue(infos)
            constructors.append(
                _Constructor(
                    infos, initializer, ir.Block(line, col, (*prologue, *block.body)), line, col
                )
            )
        elif kind in (
            "class_declaration",
            "struct_declaration",
            "record_declaration",
            "record_struct_declaration",
        ):
            inner = self._class(member)
            members.append(ir.ClassMember(line, col, inner.name or "<class>", "field", inner, True))
        elif kind == "enum_declaration":
            inner = self._enum(member)
            members.append(ir.ClassMember(line, col, inner.name or "<enum>", "field", inner, True))
        elif kind in (
            "indexer_declaration",
            "conversion_operator_declaration",
            "event_declaration",
        ):
            self._report(
                "warning",
                "unsupported",
                f"{kind.replace('_', ' ')} not understood; its uses are unknown",
                member,
            )

    def _property(
        self, member: Node, static: bool, line: int, col: int, static_inits: list[ir.Stmt]
    ) -> list[ir.ClassMember]:
        name = self.text(self._required(member, "name"))
        type_node = member.child_by_field_name("type")
        declared = self.declared_type(type_node)
        accessors = member.child_by_field_name("accessors")
        value_node = member.child_by_field_name("value")
        arrow = next(
            (c for c in member.named_children if c.type == "arrow_expression_clause"), None
        )
        if arrow is not None:
            with self.function_scope({}, declared, inherit=False):
                getter = self.returned(self.expression(self._named(arrow)[0]))
            fn = ir.FunctionExpr(line, col, name, (), getter, False)
            return [ir.ClassMember(line, col, name, "getter", fn, static)]
        bodies = []
        for accessor in accessors.named_children if accessors is not None else ():
            if accessor.type != "accessor_declaration":
                continue
            body = accessor.child_by_field_name("body")
            accessor_arrow = next(
                (c for c in accessor.named_children if c.type == "arrow_expression_clause"), None
            )
            which = self.text(accessor.child_by_field_name("name") or accessor).split()[0]
            if body is None and accessor_arrow is None:
                continue
            setter = which in ("set", "init")
            with self.function_scope(
                {"value": declared} if setter and declared else {},
                None if setter else declared,
                inherit=False,
            ):
                lowered: ir.Block | ir.Expr
                if body is not None:
                    lowered = self._block(body)
                else:
                    assert accessor_arrow is not None
                    lowered = self.expression(self._named(accessor_arrow)[0])
                    if not setter:
                        lowered = self.returned(lowered)
            if setter:
                param = ir.Param(line, col, ir.Name(line, col, "value"))
                if declared in CONVERTED_TYPES:
                    given = ir.Name(line, col, "value")
                    convert = ir.ExprStmt(
                        line,
                        col,
                        ir.Assign(line, col, given, None, self.converted(declared, given)),
                    )
                    statements = (
                        lowered.body
                        if isinstance(lowered, ir.Block)
                        else (ir.ExprStmt(line, col, lowered),)
                    )
                    lowered = ir.Block(line, col, (convert, *statements))
                fn = ir.FunctionExpr(line, col, name, (param,), lowered, False)
                bodies.append(ir.ClassMember(line, col, name, "setter", fn, static))
            elif which == "get":
                fn = ir.FunctionExpr(line, col, name, (), lowered, False)
                bodies.append(ir.ClassMember(line, col, name, "getter", fn, static))
        if bodies:
            return bodies
        value = (
            self.converted(declared, self._typed_value(value_node, type_node, declared))
            if value_node is not None
            else self._type_default(type_node, line, col)
        )
        if static and _runs_code(value):
            static_inits.append(_store_static(name, value, line, col))
            value = self._type_default(type_node, line, col)
        return [ir.ClassMember(line, col, name, "field", value, static)]

    # --- overloads and constructors ---------------------------------------------------------------------
    def _overloaded_methods(
        self,
        methods: dict[str, list[ir.ClassMember]],
        method_params: dict[int, list[ParamInfo]],
        line: int,
        col: int,
    ) -> list[ir.ClassMember]:
        """Each method, and a dispatcher for a name declared more than once."""
        result: list[ir.ClassMember] = []
        for name, overloads in methods.items():
            if len(overloads) == 1:
                result.append(overloads[0])
                continue
            for i, overload in enumerate(overloads):
                result.append(
                    ir.ClassMember(
                        overload.line,
                        overload.col,
                        f"{name}%{i}",
                        "method",
                        overload.value,
                        overload.static,
                    )
                )
            static = overloads[0].static
            owner: ir.Expr = self._class_path[-1] if static else ir.Name(line, col, "this")
            specs = [method_params[id(o)] for o in overloads]
            choices = [ir.Member(line, col, owner, f"{name}%{i}") for i in range(len(overloads))]
            args = (
                ir.Spread(line, col, ir.Name(line, col, "%args")),
                ir.Keyword(line, col, None, ir.Name(line, col, "%kwargs")),
            )
            result_expr: ir.Expr = ir.Opaque(
                line, col, f"no overload of {name} takes these arguments"
            )
            for i in reversed(range(len(overloads))):
                test = ir.Binary(line, col, "===", ir.Name(line, col, "%k"), ir.Const(line, col, i))
                result_expr = ir.Conditional(
                    line, col, test, ir.Call(line, col, choices[i], args), result_expr
                )
            body = ir.Block(
                line,
                col,
                (
                    ir.Declare(
                        line, col, ir.Name(line, col, "%k"), self._choice(specs, line, col), "let"
                    ),
                    ir.Return(line, col, result_expr),
                ),
            )
            dispatcher = ir.FunctionExpr(line, col, name, _catch_all(line, col), body, False)
            result.append(ir.ClassMember(line, col, name, "method", dispatcher, static))
        return result

    @staticmethod
    def _choice(specs: list[list[ParamInfo]], line: int, col: int) -> ir.Expr:
        """``%overload(%args, %kwargs, specs)``: which overload the call's arguments fit."""
        table = tuple(
            (
                tuple(p.name for p in params),
                tuple((p.type_name or "").rstrip("?") for p in params),
                sum(1 for p in params if p.default is None and not p.rest),
                any(p.rest for p in params),
            )
            for params in specs
        )
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%overload"),
            (
                ir.Name(line, col, "%args"),
                ir.Name(line, col, "%kwargs"),
                ir.Const(line, col, table),
            ),
        )

    def _constructor(
        self,
        constructors: list[_Constructor],
        derived: bool,
        line: int,
        col: int,
        *,
        struct: bool = False,
    ) -> ir.FunctionExpr | None:
        """The class's constructor: the one declared (with its initialiser first), or a
        dispatcher choosing among several. A struct's ``new S()`` runs none of its declared
        constructors (it zeroes the fields): a struct always gets the dispatcher."""
        if not constructors:
            return None
        if len(constructors) == 1 and not struct:
            only = constructors[0]
            body = ir.Block(
                only.line,
                only.col,
                (*self._initializer(only, constructors, derived, 0), *only.body.body),
            )
            return ir.FunctionExpr(
                only.line, only.col, "constructor", self._ir_params(only.params), body
            )
        branches: ir.Stmt | None = None
        for i in reversed(range(len(constructors))):
            chosen = constructors[i]
            block = ir.Block(
                chosen.line,
                chosen.col,
                (
                    *self._bind_from_args(chosen.params, line, col),
                    *self._initializer(chosen, constructors, derived, 0),
                    *chosen.body.body,
                ),
            )
            test = ir.Binary(line, col, "===", ir.Name(line, col, "%k"), ir.Const(line, col, i))
            other = ir.Block(line, col, (branches,)) if branches is not None else None
            branches = ir.If(line, col, test, block, other)
        assert branches is not None
        choose = ir.Declare(
            line,
            col,
            ir.Name(line, col, "%k"),
            self._choice([c.params for c in constructors], line, col),
            "let",
        )
        statements: tuple[ir.Stmt, ...] = (choose, branches)
        if derived:
            # With no constructor that fits, the base is still built.
            statements = (
                choose,
                ir.If(
                    line,
                    col,
                    ir.Binary(line, col, "===", ir.Name(line, col, "%k"), ir.Const(line, col, -1)),
                    ir.Block(line, col, (ir.ExprStmt(line, col, ir.SuperCall(line, col, ())),)),
                    None,
                ),
                branches,
            )
        return ir.FunctionExpr(
            line, col, "constructor", _catch_all(line, col), ir.Block(line, col, statements)
        )

    def _bind_from_args(self, params: list[ParamInfo], line: int, col: int) -> list[ir.Stmt]:
        """A chosen overload's parameters, bound from the dispatcher's arguments."""
        result: list[ir.Stmt] = []
        for index, p in enumerate(params):
            target: ir.Pattern = ir.Name(p.line, p.col, p.name)
            if p.default is not None:
                target = ir.DefaultPattern(p.line, p.col, target, p.default)
            value = ir.Call(
                line,
                col,
                ir.Name(line, col, "%param"),
                (
                    ir.Name(line, col, "%args"),
                    ir.Name(line, col, "%kwargs"),
                    ir.Const(line, col, index),
                    ir.Const(line, col, p.name),
                    ir.Const(line, col, p.rest),
                ),
            )
            result.append(ir.Declare(p.line, p.col, target, value, "let"))
        return result

    def _initializer(
        self, ctor: _Constructor, constructors: list[_Constructor], derived: bool, depth: int
    ) -> list[ir.Stmt]:
        """What runs before a constructor's body: ``base(args)`` (implicitly ``base()`` in a
        derived class), or the body of the constructor ``this(args)`` names, inlined with its
        parameters bound to the arguments."""
        line, col = ctor.line, ctor.col
        if ctor.initializer is None or depth > 8:
            return [ir.ExprStmt(line, col, ir.SuperCall(line, col, ()))] if derived else []
        which, arguments = ctor.initializer
        args, _ = self._arguments(arguments)
        if which == "base":
            return [ir.ExprStmt(line, col, ir.SuperCall(line, col, tuple(args)))] if derived else []
        positional = [a for a in args if not isinstance(a, ir.Keyword | ir.Spread)]
        target = next(
            (
                c
                for c in constructors
                if c is not ctor
                and sum(1 for p in c.params if p.default is None and not p.rest)
                <= len(positional)
                <= (len(c.params) if not any(p.rest for p in c.params) else 10**6)
            ),
            None,
        )
        if target is None:
            return [ir.ExprStmt(line, col, ir.SuperCall(line, col, ()))] if derived else []
        # Arguments first into temporaries: they are evaluated in the caller's parameters.
        temporaries: list[ir.Stmt] = []
        bound: list[ir.Stmt] = []
        for index, p in enumerate(target.params):
            temporary = ir.Name(line, col, f"%this{depth}_{index}")
            value: ir.Expr | None = positional[index] if index < len(positional) else p.default
            if p.rest:
                value = ir.ListLit(line, col, tuple(positional[index:]))
            temporaries.append(
                ir.Declare(line, col, temporary, value or ir.Const(line, col, UNDEFINED), "let")
            )
            bound.append(
                ir.Declare(p.line, p.col, ir.Name(p.line, p.col, p.name), temporary, "let")
            )
        inner = ir.Block(
            line,
            col,
            (
                *bound,
                *self._initializer(target, constructors, derived, depth + 1),
                *target.body.body,
            ),
        )
        return [*temporaries, inner]

    # --- records ------------------------------------------------------------------------------------------
    def _record_primary(
        self,
        parameters: Node,
        constructors: list[_Constructor],
        members: list[ir.ClassMember],
        line: int,
        col: int,
    ) -> list[str]:
        """A record's primary constructor: a property per parameter, set by the constructor."""
        infos = self._param_infos(parameters)
        assignments: list[ir.Stmt] = []
        for p in infos:
            members.append(
                ir.ClassMember(
                    p.line,
                    p.col,
                    p.name,
                    "field",
                    self._default_of(p.type_name, p.line, p.col),
                )
            )
            assignments.append(
                ir.ExprStmt(
                    p.line,
                    p.col,
                    ir.Assign(
                        p.line,
                        p.col,
                        ir.Member(p.line, p.col, ir.Name(p.line, p.col, "this"), p.name),
                        None,
                        self.converted(p.type_name, ir.Name(p.line, p.col, p.name)),
                    ),
                )
            )
        constructors.append(
            _Constructor(infos, None, ir.Block(line, col, tuple(assignments)), line, col)
        )
        return [p.name for p in infos]

    def _default_of(self, type_name: str | None, line: int, col: int) -> ir.Expr:
        """The default value of a type known by its name (a record's positional property)."""
        if type_name == "bool":
            return ir.Const(line, col, False)
        if type_name in CONVERTED_TYPES or type_name == "int":
            return self.converted(type_name, ir.Const(line, col, 0))
        if type_name in self.types.structs:
            return ir.New(line, col, ir.Name(line, col, type_name), ())
        return ir.Const(line, col, None)

    def _record_members(
        self,
        name: str,
        positional: list[str],
        members: list[ir.ClassMember],
        line: int,
        col: int,
    ) -> list[ir.ClassMember]:
        """What C# synthesizes for a record: ``ToString`` (``Name { X = 1, Y = 2 }``), value
        equality (``Equals``, ``==``, ``!=``) over its properties, and ``Deconstruct``."""
        declared = {m.name for m in members}
        properties = [
            m.name
            for m in members
            if m.kind == "field" and not m.static and not m.name.startswith("%")
        ]
        properties = list(dict.fromkeys(positional + properties))
        result: list[ir.ClassMember] = []

        def name_of(text: str) -> ir.Name:
            return ir.Name(line, col, text)

        def this_member(prop: str) -> ir.Member:
            return ir.Member(line, col, name_of("this"), prop)

        if "ToString" not in declared:
            parts: list[str | ir.Expr] = [f"{name} {{ "]
            for i, prop in enumerate(properties):
                parts.append(("" if i == 0 else ", ") + f"{prop} = ")
                parts.append(this_member(prop))
            parts.append(" }" if properties else "}")
            body = ir.Template(line, col, tuple(parts))
            result.append(
                ir.ClassMember(
                    line,
                    col,
                    "ToString",
                    "method",
                    ir.FunctionExpr(line, col, "ToString", (), body),
                )
            )
        same: ir.Expr = ir.Const(line, col, True)
        for prop in reversed(properties):
            test = ir.Binary(
                line,
                col,
                "===",
                ir.Member(line, col, name_of("a"), prop),
                ir.Member(line, col, name_of("b"), prop),
            )
            same = ir.Logical(line, col, "and", test, same)
        both = ir.Logical(
            line,
            col,
            "and",
            ir.Binary(line, col, "!==", name_of("b"), ir.Const(line, col, None)),
            ir.Logical(
                line,
                col,
                "and",
                ir.Call(
                    line,
                    col,
                    name_of("%is"),
                    (
                        name_of("b"),
                        ir.Const(line, col, name),
                        ir.Const(line, col, frozenset({name})),
                    ),
                ),
                same,
            ),
        )
        params = (ir.Param(line, col, name_of("a")), ir.Param(line, col, name_of("b")))
        equality = ir.FunctionExpr(line, col, "op_Equality", params, both)
        result.append(ir.ClassMember(line, col, "op_Equality", "method", equality, True))
        inequality = ir.FunctionExpr(
            line, col, "op_Inequality", params, ir.Unary(line, col, "not", both)
        )
        result.append(ir.ClassMember(line, col, "op_Inequality", "method", inequality, True))
        if "Equals" not in declared:
            equals = ir.FunctionExpr(
                line,
                col,
                "Equals",
                (ir.Param(line, col, name_of("b")),),
                ir.Call(
                    line,
                    col,
                    ir.Member(line, col, name_of(name), "op_Equality"),
                    (name_of("this"), name_of("b")),
                ),
            )
            result.append(ir.ClassMember(line, col, "Equals", "method", equals))
        if positional and "Deconstruct" not in declared:
            handed = ir.Assign(
                line,
                col,
                name_of("%out"),
                None,
                ir.ListLit(line, col, tuple(this_member(p) for p in positional)),
            )
            body_block = ir.Block(line, col, (ir.ExprStmt(line, col, handed),))
            deconstruct = ir.FunctionExpr(
                line, col, "Deconstruct", _catch_all(line, col), body_block
            )
            result.append(ir.ClassMember(line, col, "Deconstruct", "method", deconstruct))
        return result

    # --- enums ----------------------------------------------------------------------------------------------
    def _enum(self, node: Node) -> ir.ClassExpr:
        name = self.text(self._required(node, "name"))
        line, col = self._pos(node)
        members = []
        value = 0
        known: dict[str, int] = {}
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else []:
            if child.type != "enum_member_declaration":
                continue
            member_name = self.text(self._required(child, "name"))
            given = child.child_by_field_name("value")
            if given is not None:
                computed = _enum_value(self.text(given), known)
                if computed is not None:
                    value = computed
            known[member_name] = value
            expr = ir.Const(line, col, EnumMember(value, name, member_name))
            members.append(ir.ClassMember(line, col, member_name, "field", expr, True))
            value += 1
        return ir.ClassExpr(line, col, name, None, tuple(members))

    def _enum_declaration(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._enum(node))


def _catch_all(line: int, col: int) -> tuple[ir.Param, ...]:
    """The parameters of a dispatcher: every argument, and every named one."""
    return (
        ir.Param(line, col, ir.Name(line, col, "%args"), None, "rest"),
        ir.Param(line, col, ir.Name(line, col, "%kwargs"), None, "kwrest"),
    )


def _runs_code(value: ir.Expr | None) -> bool:
    """Whether an initialiser does more than give a constant (a static one then waits until
    the types are all declared)."""
    return value is not None and not isinstance(value, ir.Const)


def _store_static(name: str, value: ir.Expr | None, line: int, col: int) -> ir.Stmt:
    target = ir.Member(line, col, ir.Name(line, col, "this"), name)
    return ir.ExprStmt(
        line, col, ir.Assign(line, col, target, None, value or ir.Const(line, col, None))
    )


def _declares_only(stmt: ir.Stmt) -> bool:
    """Whether a top-level statement only declares types or functions (a namespace's block)."""
    if isinstance(stmt, ir.ClassDecl | ir.FunctionDecl | ir.Pass):
        return True
    return isinstance(stmt, ir.Block) and all(_declares_only(s) for s in stmt.body)


def _enum_value(text: str, known: dict[str, int]) -> int | None:
    """An enum member's given value: a number, an earlier member, or their ``|``, ``<<``
    (``Top = 1 << 0``, ``Both = Top | Bottom``)."""

    def term(piece: str) -> int:
        if piece in known:
            return known[piece]
        if piece.startswith("-"):
            return -term(piece[1:].strip())
        return int(csharp_number(piece.lstrip("+")))

    total: int | None = None
    for part in text.split("|"):
        shift = part.strip().split("<<")
        try:
            number = term(shift[0].strip())
            if len(shift) == 2:
                number <<= term(shift[1].strip())
        except (ValueError, IndexError, TypeError):
            return None
        total = number if total is None else total | number
    return total
