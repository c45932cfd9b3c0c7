"""Types as the C# front end reads them: modifiers and attributes of a declaration, the
simple name of a type (``UnityEngine.Color`` -> ``Color``, ``List<T>`` -> ``List``), its
generic arguments, and the default value of a typed local or field without an initialiser.
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import TreeLowering
from parsers.evaluator.core.treesitter import Node
from parsers.evaluator.csharp.numerics import CHAR_TYPES, SINGLE_TYPES, Char, Long, Single

NUMERIC_TYPES = frozenset(
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


class CSharpTypes(TreeLowering):
    """The base of the C# front end: reading types, modifiers and attributes."""

    REPORTS_UNCLOSED_BLOCKS = True

    def _with_this(self, node: Node) -> list[Node]:
        """Named children and the keyword ``this``, which tree-sitter-c-sharp leaves unnamed
        where it is a whole expression (``Counter c = this;``, ``F(this)``, ``return this;``)."""
        named = self._named(node)
        # Reading the node's text is cheaper than walking its children.
        if "this" in self.text(node) and any(
            c.type == "this" and not c.is_named for c in node.children
        ):
            unnamed = [c for c in node.children if c.type == "this" and not c.is_named]
            return sorted([*named, *unnamed], key=lambda c: c.start_byte)
        return named

    # --- helpers ------------------------------------------------------------------------------------
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
        """The value a local, field or array element of this type starts with: 0 of its
        numeric type, false, a zeroed struct (``new Vector3()``), an enum's 0, else null."""
        if type_node is not None and type_node.type == "nullable_type":
            return ir.Const(line, col, None)
        name = self._type_name(type_node)
        if name in NUMERIC_TYPES:
            value: object = 0
            if name in SINGLE_TYPES:
                value = Single(0.0)
            elif name in ("double", "decimal"):
                value = 0.0
            elif name in ("long", "ulong", "uint"):
                value = Long(0)
            elif name in CHAR_TYPES:
                value = Char("\0")
            return ir.Const(line, col, value)
        if name == "bool":
            return ir.Const(line, col, False)
        if name in STRUCT_TYPES or name in self._struct_names():
            return ir.New(line, col, ir.Name(line, col, name), ())
        if name in self._enum_names():
            return ir.Call(
                line,
                col,
                ir.Name(line, col, "%cast"),
                (ir.Const(line, col, name), ir.Const(line, col, 0)),
            )
        return ir.Const(line, col, None)

    # Lowered by the other parts of the front end (expressions, declarations).
    def _arguments(
        self, node: Node | None
    ) -> tuple[list[ir.Argument], list[tuple[int, ir.Pattern]]]:
        raise NotImplementedError

    def _initializer_list(self, node: Node) -> ir.Expr:
        raise NotImplementedError

    def _implicit_new(self, node: Node, type_node: Node | None = None) -> ir.Expr:
        raise NotImplementedError

    def _lambda(
        self,
        node: Node,
        parameter_types: list[str | None] | None = None,
        returns: str | None = None,
    ) -> ir.Expr:
        raise NotImplementedError

    @staticmethod
    def _rectangular(items: ir.Expr, dimensions: int) -> ir.Expr:
        raise NotImplementedError

    def _struct_names(self) -> set[str]:
        """The structs the code declares (``CSharpTyping`` knows them)."""
        return set()

    def _enum_names(self) -> set[str]:
        return set()
