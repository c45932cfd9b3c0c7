"""Python classes for the Python front end: ``class`` statements lowered to ``ClassExpr``.

Methods take ``self`` explicitly (``explicit_self``); ``__init__`` is the constructor;
``@property`` (and ``@x.getter``) makes getters, ``@x.setter`` setters, ``@staticmethod``
static methods, ``@classmethod`` class methods; other statements of the body are class
attributes (static fields). A ``@dataclass`` (its ``frozen``/``order``/``eq``/``init``
options read) and a ``NamedTuple`` subclass get the ``__init__`` Python generates, one parameter
per annotated field (``field(default=..., default_factory=..., init=False)`` read), calling
``__post_init__``; their fields, options and ``__match_args__`` are static markers the dialect's
``python.classes`` reads for their text, equality and order. Whatever of a class body is not
followed (a decorator of a method the evaluator does not know, a loop in the body) is a
warning with its line.
"""

from __future__ import annotations

from dataclasses import dataclass

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import Incomplete, TreeLowering
from parsers.evaluator.core.treesitter import Node

#: Method decorators that change nothing the evaluator reads.
_NEUTRAL_METHOD_DECORATORS = frozenset(
    {"abstractmethod", "abc.abstractmethod", "override", "typing.override", "functools.wraps"}
)
#: Class decorators that change nothing the evaluator reads.
_NEUTRAL_CLASS_DECORATORS = frozenset(
    {"total_ordering", "functools.total_ordering", "unique", "enum.unique"}
)


@dataclass
class _Field:
    """An annotated attribute of a dataclass or named tuple body."""

    name: str
    default: ir.Expr | None
    factory: ir.Expr | None
    init: bool
    shown: bool
    line: int
    col: int


class ClassLowering(TreeLowering):
    """The ``class`` statement of the Python front end."""

    def _function(self, node: Node) -> ir.FunctionExpr:
        raise NotImplementedError

    def _decorator_nodes(self, node: Node) -> list[tuple[str, Node]]:
        raise NotImplementedError

    def _class_definition(self, node: Node) -> ir.Stmt:
        return ir.ClassDecl(*self._pos(node), self._class(node, []))

    def _class(self, node: Node, decorators: list[tuple[str, Node]]) -> ir.ClassExpr:
        name = self.text(self._required(node, "name"))
        base: ir.Expr | None = None
        superclasses = self._field(node, "superclasses")
        if superclasses is not None:
            bases = [c for c in self._named(superclasses) if c.type != "keyword_argument"]
            if bases:
                base = self.expression(bases[0])
        members: list[ir.ClassMember] = []
        fields: list[_Field] = []
        body = self._required(node, "body")
        for member in body.named_children:
            if member.type == "comment":
                continue
            try:
                members.extend(self._class_member(member, fields))
            except Incomplete as incomplete:
                self._skip(member, incomplete.node)
        options: dict[str, bool] | None = None
        for decorator, expression in decorators:
            if decorator.split(".")[-1] == "dataclass":
                options = self._dataclass_options(expression)
            elif decorator not in _NEUTRAL_CLASS_DECORATORS:
                self._report(
                    "warning",
                    "unknown_decorator",
                    f"class decorator @{decorator} is not followed; the class is used as written",
                    expression,
                )
        named_tuple = (
            superclasses is not None
            and isinstance(base, ir.Name | ir.Member)
            and self.text(superclasses).strip("()").split(".")[-1] == "NamedTuple"
        )
        if options is not None or named_tuple:
            members.extend(self._record_members(node, fields, members, options, named_tuple))
            base = None if named_tuple else base
        return ir.ClassExpr(*self._pos(node), name, base, tuple(members), explicit_self=True)

    def _dataclass_options(self, decorator: Node) -> dict[str, bool]:
        options = {"init": True, "repr": True, "eq": True, "order": False, "frozen": False}
        arguments = decorator.child_by_field_name("arguments") if decorator.type == "call" else None
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type != "keyword_argument":
                continue
            key = self.text(self._required(argument, "name"))
            value = self._required(argument, "value")
            if key in options and value.type in ("true", "false"):
                options[key] = value.type == "true"
        return options

    def _record_members(
        self,
        node: Node,
        fields: list[_Field],
        members: list[ir.ClassMember],
        options: dict[str, bool] | None,
        named_tuple: bool,
    ) -> list[ir.ClassMember]:
        """What ``@dataclass`` or ``NamedTuple`` adds to a class: its ``__init__`` and its
        markers."""
        line, col = self._pos(node)
        added: list[ir.ClassMember] = []
        wants_init = options is None or options.get("init", True)
        if wants_init and not any(m.kind == "constructor" for m in members):
            post_init = any(m.name == "__post_init__" for m in members)
            added.append(self._generated_init(node, fields, post_init))

        def const(value: object) -> ir.Expr:
            return ir.Const(line, col, value)

        def names(selected: list[_Field]) -> ir.Expr:
            return ir.TupleLit(line, col, tuple(const(f.name) for f in selected))

        markers: list[tuple[str, ir.Expr]] = [
            ("%fields", names(fields)),
            ("__match_args__", names([f for f in fields if f.init])),
        ]
        hidden = [f for f in fields if not f.shown]
        if hidden:
            markers.append(("%hidden_fields", names(hidden)))
        if named_tuple:
            markers += [("%namedtuple", const(True)), ("_fields", names(fields))]
        else:
            entries = tuple((const(k), const(v)) for k, v in (options or {}).items())
            markers.append(("%dataclass", ir.DictLit(line, col, entries)))
        added.extend(ir.ClassMember(line, col, k, "field", v, static=True) for k, v in markers)
        return added

    def _generated_init(self, node: Node, fields: list[_Field], post_init: bool) -> ir.ClassMember:
        """The ``__init__`` a ``@dataclass`` (or ``NamedTuple``) gets: one parameter per field;
        a ``default_factory`` is called for each instance made without the field."""
        line, col = self._pos(node)
        params = [ir.Param(line, col, ir.Name(line, col, "self"))]
        body: list[ir.Stmt] = []
        for field in fields:
            fline, fcol = field.line, field.col
            own = ir.Name(fline, fcol, field.name)
            target = ir.Member(fline, fcol, ir.Name(fline, fcol, "self"), field.name)
            made = ir.Call(fline, fcol, field.factory, ()) if field.factory is not None else None
            value: ir.Expr | None
            if field.init:
                default = field.default
                value = own
                if made is not None:
                    default = ir.Name(fline, fcol, "%missing")
                    missing = ir.Binary(fline, fcol, "is", own, default)
                    value = ir.Conditional(fline, fcol, missing, made, own)
                params.append(ir.Param(fline, fcol, own, default))
            else:
                value = made if made is not None else field.default
            if value is not None:
                body.append(ir.ExprStmt(fline, fcol, ir.Assign(fline, fcol, target, None, value)))
        if post_init:
            method = ir.Member(line, col, ir.Name(line, col, "self"), "__post_init__")
            body.append(ir.ExprStmt(line, col, ir.Call(line, col, method, ())))
        fn = ir.FunctionExpr(
            line, col, "__init__", tuple(params), ir.Block(line, col, tuple(body), scoped=False)
        )
        return ir.ClassMember(line, col, "__init__", "constructor", fn)

    def _class_member(self, member: Node, fields: list[_Field]) -> list[ir.ClassMember]:
        if member.type == "ERROR" or member.is_missing:
            raise Incomplete(member)
        line, col = self._pos(member)
        decorators: list[tuple[str, Node]] = []
        definition = member
        if member.type == "decorated_definition":
            decorators = self._decorator_nodes(member)
            definition = self._required(member, "definition")
        names = [name for name, _ in decorators]
        if definition.type == "function_definition":
            fn = self._function(definition)
            name = fn.name or "<method>"
            for decorator, expression in decorators:
                known = (
                    decorator in ("property", "staticmethod", "classmethod")
                    or decorator.endswith((".getter", ".setter"))
                    or decorator in _NEUTRAL_METHOD_DECORATORS
                    or decorator.split(".")[-1] in ("lru_cache", "cache", "cached_property")
                )
                if not known:
                    self._report(
                        "warning",
                        "unknown_decorator",
                        f"method decorator @{decorator} is not followed; {name} is used as written",
                        expression,
                    )
            if (
                "property" in names
                or any(d.split(".")[-1] == "cached_property" for d in names)
                or any(d.endswith(".getter") for d in names)
            ):
                return [ir.ClassMember(line, col, name, "getter", fn)]
            if any(d.endswith(".setter") for d in names):
                return [ir.ClassMember(line, col, name, "setter", fn)]
            if "staticmethod" in names:
                return [ir.ClassMember(line, col, name, "method", fn, static=True)]
            if "classmethod" in names:
                return [ir.ClassMember(line, col, name, "classmethod", fn, static=True)]
            if name == "__init__":
                return [ir.ClassMember(line, col, name, "constructor", fn)]
            return [ir.ClassMember(line, col, name, "method", fn)]
        if definition.type == "class_definition":
            return [
                ir.ClassMember(
                    line,
                    col,
                    self.text(self._required(definition, "name")),
                    "field",
                    self._class(definition, decorators),
                    static=True,
                )
            ]
        if definition.type == "expression_statement":
            return self._class_attributes(definition, fields)
        if definition.type == "pass_statement":
            return []
        self._report(
            "warning",
            "unsupported",
            f"{definition.type.replace('_', ' ')} in a class body is not followed; skipped",
            definition,
        )
        return []

    def _class_attributes(self, statement: Node, fields: list[_Field]) -> list[ir.ClassMember]:
        line, col = self._pos(statement)
        result: list[ir.ClassMember] = []
        for expression in self._named(statement):
            if expression.type in ("string", "concatenated_string", "ellipsis"):
                continue  # a docstring, or ``...``
            if expression.type != "assignment":
                self._report(
                    "warning",
                    "unsupported",
                    "an expression in a class body is not followed; skipped",
                    expression,
                )
                continue
            left = self._required(expression, "left")
            right = self._field(expression, "right")
            if left.type != "identifier":
                self._report(
                    "warning",
                    "unsupported",
                    "an assignment to something other than a name in a class body is not"
                    " followed; skipped",
                    expression,
                )
                continue
            name = self.text(left)
            annotation = expression.child_by_field_name("type")
            if annotation is not None and "ClassVar" not in self.text(annotation):
                fields.append(self._field_of(name, right, left))
                if right is not None and _is_field_call(self.text(right)):
                    continue
            if right is not None:
                result.append(
                    ir.ClassMember(line, col, name, "field", self.expression(right), static=True)
                )
        return result

    def _field_of(self, name: str, right: Node | None, left: Node) -> _Field:
        line, col = self._pos(left)
        if right is None:
            return _Field(name, None, None, True, True, line, col)
        if right.type == "call" and _is_field_call(self.text(right)):
            default: ir.Expr | None = None
            factory: ir.Expr | None = None
            init = shown = True
            arguments = right.child_by_field_name("arguments")
            for argument in arguments.named_children if arguments is not None else ():
                if argument.type != "keyword_argument":
                    continue
                key = self.text(self._required(argument, "name"))
                value = self._required(argument, "value")
                if key == "default":
                    default = self.expression(value)
                elif key == "default_factory":
                    factory = self.expression(value)
                elif key == "init":
                    init = value.type != "false"
                elif key == "repr":
                    shown = value.type != "false"
            return _Field(name, default, factory, init, shown, line, col)
        return _Field(name, self.expression(right), None, True, True, line, col)


def _is_field_call(text: str) -> bool:
    head = text.split("(", 1)[0].strip()
    return head in ("field", "dataclasses.field")
