"""What the C# front end knows of the types the code declares, and the conversions it inserts.

Evaluator values carry their own numeric type (``csharp.numerics``), but C# converts a value
to the declared type of where it is stored: ``float h = 3;`` holds 3f, so ``h / 2`` is 1.5,
not 1; ``long big = a * b`` widens after the int product; ``byte b = 250; b += 10;`` is 4.
The front end inserts those conversions (a ``Unary`` whose operator is the cast, ``(float)``,
folded at once for a constant) where a declared numeric type meets a value: typed locals and
fields, parameters, property setters' ``value``, returns, assignments to typed names, members
of one declared type, array elements and ``out`` targets.

Before lowering, ``TypeFacts.scan`` reads the type declarations (not the method bodies): the
structs (value types), enums, each class's fields and properties with their types, and each
type's declared bases and interfaces (``is IShape`` tests them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from parsers.evaluator.core import ir
from parsers.evaluator.core.treesitter import Node, SourceTree
from parsers.evaluator.csharp.numerics import CONVERTED_TYPES, convert
from parsers.evaluator.csharp.type_names import CSharpTypes

_TYPE_DECLARATIONS = frozenset(
    {
        "class_declaration",
        "struct_declaration",
        "record_declaration",
        "record_struct_declaration",
        "interface_declaration",
    }
)
_CONTAINERS = frozenset(
    {"namespace_declaration", "file_scoped_namespace_declaration", "declaration_list"}
)


@dataclass
class TypeFacts:
    """The types a C# text declares, read before it is lowered."""

    structs: set[str] = field(default_factory=set)
    enums: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)
    #: class -> member (field or property) -> declared type (``float``, ``float?``, ``float[]``).
    members: dict[str, dict[str, str]] = field(default_factory=dict)
    #: member name -> the types it is declared with, in any class.
    member_types: dict[str, set[str]] = field(default_factory=dict)
    #: type -> its declared base class and interfaces.
    bases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: extension method -> the static class declaring it.
    extensions: dict[str, str] = field(default_factory=dict)

    def subtypes(self, name: str) -> frozenset[str]:
        """``name`` and every declared type deriving from it or implementing it."""
        found = {name}
        changed = True
        while changed:
            changed = False
            for type_name, bases in self.bases.items():
                if type_name not in found and found.intersection(bases):
                    found.add(type_name)
                    changed = True
        return frozenset(found)

    def member_type(self, name: str) -> str | None:
        """The type of a member named ``name`` when every class declaring it agrees."""
        types = self.member_types.get(name)
        return next(iter(types)) if types is not None and len(types) == 1 else None


def _tuple_converts(type_name: str) -> bool:
    """Whether values stored as a tuple type change: it names its elements, or an element is
    of a type a value converts to (``(int, float)``)."""
    parts = [p.split() for p in type_name.strip("()").split(",")]
    return any(len(p) > 1 or (p and p[0] in CONVERTED_TYPES) for p in parts)


class CSharpTyping(CSharpTypes):
    """Declared types for the C# front end: the facts about type declarations, the types of
    the locals in scope, and the conversions to a declared type."""

    def _start_typing(self, source: SourceTree) -> None:
        self.types = TypeFacts()
        #: The types of the locals and parameters in scope (a method's, with its lambdas').
        self._locals: list[dict[str, str]] = [{}]
        #: The classes being lowered, innermost last.
        self._class_names: list[str] = []
        #: The declared return types of the functions being lowered, innermost last.
        self._returns: list[str | None] = []
        #: Inside ``checked(...)`` or a ``checked { }`` block: integer overflow throws.
        self.checked = False
        #: For each function being lowered, whether it is an iterator (it holds a yield).
        self._iterators: list[bool] = []
        #: The variables holding the exceptions of the catch clauses being lowered.
        self._catching: list[str] = []
        #: The pattern variables and temporaries of the statements being lowered (each
        #: statement takes those past where the list stood when it began).
        self._pattern_variables: list[str] = []
        self._temporaries = 0
        self._scan(source.root)

    def _struct_names(self) -> set[str]:
        return self.types.structs

    def _enum_names(self) -> set[str]:
        return self.types.enums

    # --- the facts ---------------------------------------------------------------------------------
    def _scan(self, node: Node) -> None:
        for child in node.named_children:
            kind = child.type
            if kind in _CONTAINERS:
                self._scan(child)
            elif kind == "enum_declaration":
                name = child.child_by_field_name("name")
                if name is not None:
                    self.types.enums.add(self.text(name))
            elif kind in _TYPE_DECLARATIONS:
                self._scan_type(child)

    def _scan_type(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        is_struct = node.type in ("struct_declaration", "record_struct_declaration") or (
            node.type == "record_declaration" and any(c.type == "struct" for c in node.children)
        )
        (self.types.structs if is_struct else self.types.classes).add(name)
        members = self.types.members.setdefault(name, {})
        bases: list[str] = []
        for child in node.named_children:
            if child.type == "base_list":
                bases += [
                    self._type_name(b)
                    for b in child.named_children
                    if b.type in ("identifier", "generic_name", "qualified_name")
                ]
            elif child.type == "parameter_list":
                # A record's primary constructor: its parameters are its properties.
                for parameter in child.named_children:
                    self._scan_member(name, members, parameter)
        self.types.bases[name] = tuple(bases)
        body = node.child_by_field_name("body")
        if body is None:
            return
        for member in body.named_children:
            if member.type == "field_declaration":
                for declaration in member.named_children:
                    if declaration.type == "variable_declaration":
                        type_node = declaration.child_by_field_name("type")
                        for declarator in declaration.named_children:
                            if declarator.type == "variable_declarator":
                                self._record_member(
                                    members, declarator.child_by_field_name("name"), type_node
                                )
            elif member.type == "property_declaration":
                self._scan_member(name, members, member)
            elif member.type == "method_declaration" and self._extends(member):
                method = member.child_by_field_name("name")
                if method is not None:
                    self.types.extensions[self.text(method)] = name
            elif member.type in _TYPE_DECLARATIONS:
                self._scan_type(member)
            elif member.type == "enum_declaration":
                enum_name = member.child_by_field_name("name")
                if enum_name is not None:
                    self.types.enums.add(self.text(enum_name))

    def _extends(self, method: Node) -> bool:
        """Whether a method is an extension method (its first parameter says ``this``)."""
        parameters = method.child_by_field_name("parameters")
        first = (
            next((c for c in parameters.named_children if c.type == "parameter"), None)
            if parameters is not None
            else None
        )
        return first is not None and any(
            c.type == "modifier" and self.text(c) == "this" for c in first.children
        )

    def _scan_member(self, owner: str, members: dict[str, str], node: Node) -> None:
        self._record_member(
            members, node.child_by_field_name("name"), node.child_by_field_name("type")
        )

    def _record_member(
        self, members: dict[str, str], name: Node | None, type_node: Node | None
    ) -> None:
        declared = self.declared_type(type_node)
        if name is None or declared is None:
            return
        member = self.text(name)
        members[member] = declared
        self.types.member_types.setdefault(member, set()).add(declared)

    # --- types of names ------------------------------------------------------------------------------
    def declared_type(self, node: Node | None) -> str | None:
        """The simple name of a declared type (``float``; ``float?`` nullable; ``float[]`` an
        array; None for ``var`` or no type)."""
        if node is None or node.type == "implicit_type":
            return None
        if node.type == "nullable_type":
            inner = node.named_children
            return f"{self._type_name(inner[0])}?" if inner else None
        if node.type == "array_type":
            element = node.child_by_field_name("type")
            rank = node.child_by_field_name("rank")
            brackets = "[" + "," * self.text(rank).count(",") + "]" if rank is not None else "[]"
            element_type = self.declared_type(element) if element is not None else None
            return f"{element_type}{brackets}" if element_type is not None else None
        return self._type_name(node)

    def local_type(self, name: str) -> str | None:
        """The declared type of ``name`` where it is used: a local or parameter, else a member
        of the class being lowered (or of a class it derives from)."""
        found = self._locals[-1].get(name)
        if found is not None:
            return found
        if self._class_names:
            seen: set[str] = set()
            current: str | None = self._class_names[-1]
            while current is not None and current not in seen:
                seen.add(current)
                member = self.types.members.get(current, {}).get(name)
                if member is not None:
                    return member
                bases = self.types.bases.get(current, ())
                current = bases[0] if bases else None
        return None

    def declare_local(self, name: str, type_name: str | None) -> None:
        if type_name is not None:
            self._locals[-1][name] = type_name
        else:
            self._locals[-1].pop(name, None)

    @contextmanager
    def function_scope(
        self, parameters: dict[str, str], returns: str | None, *, inherit: bool
    ) -> Iterator[None]:
        """The types of a function's parameters while its body is lowered (a lambda or a
        local function also sees the locals around it)."""
        outer = self._locals[-1] if inherit else {}
        self._locals.append({**outer, **parameters})
        self._returns.append(returns)
        try:
            yield
        finally:
            self._locals.pop()
            self._returns.pop()

    @contextmanager
    def in_class(self, name: str) -> Iterator[None]:
        self._class_names.append(name)
        self._locals.append({})
        try:
            yield
        finally:
            self._class_names.pop()
            self._locals.pop()

    # --- conversions ---------------------------------------------------------------------------------
    @staticmethod
    def converted(type_name: str | None, expr: ir.Expr) -> ir.Expr:
        """``expr`` converted to the declared numeric type ``type_name`` (unchanged for other
        types and for ``int``); a constant is converted at once."""
        if type_name is not None and type_name.startswith("(") and _tuple_converts(type_name):
            return ir.Unary(expr.line, expr.col, f"({type_name})", expr)
        if type_name is None or type_name not in CONVERTED_TYPES:
            return expr
        if isinstance(expr, ir.Const):
            value = expr.value
            if isinstance(value, int | float) and not isinstance(value, bool):
                made = convert(type_name, value)
                if made is not None:
                    return ir.Const(expr.line, expr.col, made)
        return ir.Unary(expr.line, expr.col, f"({type_name})", expr)

    def element_type(self, type_name: str | None) -> str | None:
        """The element type of an array type (``float[]`` -> ``float``)."""
        if type_name is None or not type_name.endswith("]"):
            return None
        return type_name[: type_name.rindex("[")]

    def returned(self, expr: ir.Expr) -> ir.Expr:
        """A returned value converted to the declared return type of its function."""
        return self.converted(self._returns[-1] if self._returns else None, expr)

    def assigned_type(self, target: ir.Pattern) -> str | None:
        """The declared type of what ``target`` names: a typed local, parameter or field, or a
        member whose name has one type in every class."""
        if isinstance(target, ir.Name):
            return self.local_type(target.id)
        if isinstance(target, ir.Member):
            if isinstance(target.obj, ir.Name) and target.obj.id == "this":
                return self.local_type(target.name)
            return self.types.member_type(target.name)
        return None

    def assigned(self, target: ir.Pattern, expr: ir.Expr) -> ir.Expr:
        """A value assigned to ``target`` converted to the target's declared type."""
        return self.converted(self.assigned_type(target), expr)

    def _typed_items(self, value: ir.Expr, element: str | None) -> ir.Expr:
        """Array items converted to the element type (rectangular arrays: every level)."""
        if element is None or not isinstance(value, ir.ListLit):
            return value
        items = tuple(
            self._typed_items(item, element)
            if isinstance(item, ir.ListLit)
            else item
            if isinstance(item, ir.Spread)
            else self.converted(element, item)
            for item in value.items
        )
        return ir.ListLit(value.line, value.col, items)

    def _array_items(self, node: Node) -> ir.Expr:
        """An array initialiser's items (nested braces: a rectangular array's rows)."""
        line, col = self._pos(node)
        return ir.ListLit(
            line,
            col,
            tuple(
                self._array_items(child)
                if child.type == "initializer_expression"
                else self.expression(child)
                for child in self._named(node)
            ),
        )

    def _type_argument_nodes(self, node: Node) -> list[Node]:
        for child in node.children:
            if child.type == "type_argument_list":
                return [c for c in child.named_children if c.type != "comment"]
        return []
