"""C# expressions for the C# front end: literals and interpolated strings, member access
and qualified names, invocations with generic type arguments (passed as ``%types``) and
``out`` arguments, ``new`` with object and collection initialisers, arrays, element access,
operators, casts, ``is`` patterns, ``default``, tuples, ``?.`` and ``switch`` expressions;
and assignment targets (patterns).
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import Incomplete, updatable
from parsers.evaluator.core.treesitter import Node
from parsers.evaluator.core.values import UNDEFINED
from parsers.evaluator.csharp.literals import csharp_number, unescape
from parsers.evaluator.csharp.numerics import Char
from parsers.evaluator.csharp.patterns import CSharpPatterns

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
_NARROW_TYPES = frozenset({"char", "byte", "sbyte", "short", "ushort"})


class CSharpExpressions(CSharpPatterns):
    """The lowering of C# expressions and patterns."""

    # --- expressions -------------------------------------------------------------------------------
    NUMBER_KINDS = frozenset({"real_literal", "integer_literal"})

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
                parts.append(unescape(self.text(child)))
        return ir.Const(*self._pos(node), "".join(parts))

    def _verbatim(self, node: Node) -> ir.Expr:
        raw = self.text(node)
        body = raw[2:-1] if raw.startswith('@"') else raw[1:-1]
        return ir.Const(*self._pos(node), body.replace('""', '"'))

    def _raw_string(self, node: Node) -> ir.Expr:
        return ir.Const(*self._pos(node), self.text(node).strip('"'))

    def _character(self, node: Node) -> ir.Expr:
        raw = self.text(node)[1:-1]
        return ir.Const(*self._pos(node), Char(unescape(raw)))

    def _interpolated(self, node: Node) -> ir.Expr:
        parts: list[str | ir.Expr] = []
        verbatim = self.text(node).startswith(("$@", "@$"))
        for child in node.named_children:
            if child.type in ("string_content", "escape_sequence"):
                text = self.text(child).replace("{{", "{").replace("}}", "}")
                parts.append(text if verbatim else unescape(text))
            elif child.type == "interpolation":
                clauses = {
                    c.type: self.text(c).lstrip(":,").strip()
                    for c in self._named(child)
                    if c.type in ("interpolation_format_clause", "interpolation_alignment_clause")
                }
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
                if inner and clauses:
                    # ``{x,5:F2}``: C#'s composite formatting of one item.
                    line, col = self._pos(child)
                    parts.append(
                        ir.Call(
                            line,
                            col,
                            ir.Name(line, col, "%format"),
                            (
                                self.expression(inner[0]),
                                ir.Const(line, col, clauses.get("interpolation_alignment_clause")),
                                ir.Const(line, col, clauses.get("interpolation_format_clause")),
                            ),
                        )
                    )
                elif inner:
                    parts.append(self.expression(inner[0]))
            elif child.type == "ERROR" or child.is_missing:
                raise Incomplete(child)
        return ir.Template(*self._pos(node), tuple(parts))

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
            inner = [c for c in self._with_this(child) if c != name_node]
            if not inner:
                raise Incomplete(child)
            modifier = next(
                (self.text(c) for c in child.children if c.type in ("out", "ref", "in")), None
            )
            value_node = inner[-1]
            if modifier == "out":
                if value_node.type == "declaration_expression":
                    name = self.text(self._required(value_node, "name"))
                    self.declare_local(
                        name, self.declared_type(value_node.child_by_field_name("type"))
                    )
                    target: ir.Pattern = ir.Name(*self._pos(value_node), name)
                elif value_node.type == "discard" or self.text(value_node) == "_":
                    target = ir.Name(line, col, "%discard")
                else:
                    target = self.pattern(value_node)
                outs.append((len(result), target))
                result.append(ir.Const(line, col, UNDEFINED))
                continue
            if modifier == "ref":
                # The callee hands its ref parameters back as it hands back its outs.
                target = self.pattern(value_node)
                outs.append((len(result), target))
            value = self.expression(value_node)
            if name_node is not None:
                result.append(ir.Keyword(line, col, self.text(name_node), value))
            else:
                result.append(value)
        return result, outs

    def _anonymous_object(self, node: Node) -> ir.Expr:
        """``new { Kind = k, r.Height }``: ``%anonymous({...})``, an object whose members are
        the names given (or the last name of a projected member)."""
        line, col = self._pos(node)
        groups: list[list[Node]] = [[]]
        for child in node.children:
            if child.type in ("new", "{", "}"):
                continue
            if child.type == ",":
                groups.append([])
            elif child.type != "comment":
                groups[-1].append(child)
        entries: list[tuple[ir.Expr, ir.Expr]] = []
        for group in groups:
            if len(group) == 3 and group[1].type == "=":
                name, value = self.text(group[0]), group[2]
            elif len(group) == 1:
                value = group[0]
                name_node = (
                    value.child_by_field_name("name")
                    if value.type == "member_access_expression"
                    else value
                )
                name = self.text(name_node) if name_node is not None else ""
            else:
                continue
            entries.append((ir.Const(line, col, name), self.expression(value)))
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%anonymous"),
            (ir.DictLit(line, col, tuple(entries)),),
        )

    def _typeof(self, node: Node) -> ir.Expr:
        """``typeof(T)``: ``%typeof("T", T)``, a ``Type`` value naming T (and holding T's class
        when the code declares it: ``Enum.GetValues(typeof(Shape))``)."""
        line, col = self._pos(node)
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        name = self._type_name(inner)
        value: ir.Expr = (
            self.expression(inner)
            if inner is not None and inner.type in ("identifier", "qualified_name", "generic_name")
            else ir.Const(line, col, None)
        )
        return ir.Call(line, col, ir.Name(line, col, "%typeof"), (ir.Const(line, col, name), value))

    def _invocation(self, node: Node) -> ir.Expr:
        function = self._required(node, "function")
        args, outs = self._arguments(self._field(node, "arguments"))
        line, col = self._pos(node)
        type_args: list[str] = []
        if function.type == "member_access_expression":
            name_node = self._required(function, "name")
            method_name, type_args = self._member_name(name_node)
            callee = self._member(function)
            owner = self.types.extensions.get(method_name)
            if owner is not None and isinstance(callee, ir.Member):
                # ``x.Squared()`` of an extension method: x's own member if it has one, else
                # ``Extensions.Squared(x)``.
                static = ir.Member(line, col, ir.Name(line, col, owner), method_name)
                args = [callee.obj, ir.Const(line, col, method_name), static, *args]
                callee = ir.Name(line, col, "%extension")
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
            handed = ir.Index(line, col, ir.Name(line, col, "%out"), ir.Const(line, col, position))
            items.append(ir.Assign(line, col, target, None, self.assigned(target, handed)))
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
        callee = (
            self.expression(type_node)
            if type_node.type not in ("generic_name", "predefined_type")
            else None
        )
        return self._creation(node, self._type_name(type_node), callee)

    def _creation(self, node: Node, type_name: str, callee: ir.Expr | None) -> ir.Expr:
        """``new T(args) { initialiser }`` (``node`` holds the arguments and initialiser;
        ``callee`` is how the code names T, None for its simple name)."""
        line, col = self._pos(node)
        args, _ = self._arguments(self._field(node, "arguments"))
        if not node.child_by_field_name("arguments"):
            listed = [c for c in node.named_children if c.type == "argument_list"]
            args, _ = self._arguments(listed[0] if listed else None)
        initializer = self._field(node, "initializer") or next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
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
        elif type_name in ("string", "String"):
            created = ir.Call(line, col, ir.Name(line, col, "%new_string"), tuple(args))
        else:
            created = ir.New(line, col, callee or ir.Name(line, col, type_name), tuple(args))
        return self._with_initializer(created, initializer, line, col)

    def _implicit_new(self, node: Node, type_node: Node | None = None) -> ir.Expr:
        """A target-typed ``new(...)`` (C# 9): of the declared type where the front end knows
        it (a typed local or field), else unknown."""
        if type_node is not None and type_node.type not in ("implicit_type", "nullable_type"):
            return self._creation(node, self._type_name(type_node), None)
        line, col = self._pos(node)
        return ir.Opaque(line, col, "a target-typed new() has no type the code states")

    def _array_creation(self, node: Node) -> ir.Expr:
        """``new T[n]`` (n elements of T's default), ``new T[n, m]`` (rectangular),
        ``new T[n][]`` (jagged: n nulls), ``new T[] { ... }`` (items converted to T)."""
        line, col = self._pos(node)
        type_node = self._field(node, "type")
        specifiers: list[Node] = []
        base = type_node
        while base is not None and base.type == "array_type":
            rank = base.child_by_field_name("rank")
            if rank is not None:
                specifiers.insert(0, rank)
            base = base.child_by_field_name("type")
        initializer = next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        dimensions = self.text(specifiers[0]).count(",") + 1 if specifiers else 1
        if initializer is not None:
            element = self._type_name(base) if len(specifiers) == 1 else None
            items = self._typed_items(self._array_items(initializer), element or None)
            return self._rectangular(items, dimensions)
        sizes = [self.expression(c) for c in self._named(specifiers[0])] if specifiers else []
        default = (
            self._type_default(base, line, col)
            if len(specifiers) <= 1
            else ir.Const(line, col, None)
        )
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%array"),
            (
                ir.TupleLit(line, col, tuple(sizes)),
                ir.FunctionExpr(line, col, None, (), default, True),
            ),
        )

    @staticmethod
    def _rectangular(items: ir.Expr, dimensions: int) -> ir.Expr:
        """Nested items of a rectangular array (``{ {1, 2}, {3, 4} }`` for ``int[,]``)."""
        if dimensions < 2:
            return items
        line, col = items.line, items.col
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%rectangular"),
            (items, ir.Const(line, col, dimensions)),
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
            raise Incomplete(node)
        line, col = self._pos(node)
        if len(indices) == 1 and isinstance(indices[0], ir.Unary) and indices[0].op == "^":
            # ``a[^1]``: the index from the end (C# 8).
            return ir.Call(line, col, ir.Name(line, col, "%from_end"), (obj, indices[0].operand))
        index = indices[0] if len(indices) == 1 else ir.TupleLit(line, col, tuple(indices))
        return ir.Index(line, col, obj, index)

    def _binary(self, node: Node) -> ir.Expr:
        left = self.expression(self._required(node, "left"))
        right = self.expression(self._required(node, "right"))
        op = self._operator(node)
        line, col = self._pos(node)
        if op in _BINARY_LOGICAL:
            return ir.Logical(line, col, _BINARY_LOGICAL[op], left, right)  # type: ignore[arg-type]
        if self.checked and op in ("+", "-", "*", "/"):
            op = "checked" + op
        return ir.Binary(line, col, _BINARY_OPS.get(op, op), left, right)

    def _prefix(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        op = next((c.type for c in node.children if not c.is_named), "+")
        line, col = self._pos(node)
        if op in ("++", "--"):
            target = self.pattern(named[0])
            narrow = self._narrow_update(target, op, line, col)
            if narrow is not None:
                return narrow
            return ir.Update(line, col, target, 1 if op == "++" else -1, True)
        if op == "^":
            # Only meaningful as an index (``a[^1]``, see ``_element_access``).
            return ir.Unary(line, col, "^", self.expression(named[0]))
        return ir.Unary(line, col, _PREFIX.get(op, op), self.expression(named[0]))

    def _postfix(self, node: Node) -> ir.Expr:
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        op = next((c.type for c in node.children if not c.is_named), "++")
        line, col = self._pos(node)
        if op == "!":
            return self.expression(named[0])
        target = updatable(self.pattern(named[0]), node)
        narrow = self._narrow_update(target, op, line, col)
        if narrow is not None:
            return narrow
        return ir.Update(line, col, target, 1 if op == "++" else -1, False)

    def _narrow_update(self, target: ir.Pattern, op: str, line: int, col: int) -> ir.Expr | None:
        """``c++`` on a ``char``, ``byte`` or ``short`` stays of its type (wrapping); the
        value of the expression is the new one."""
        if not isinstance(target, ir.Name | ir.Member):
            return None
        type_name = self.assigned_type(target)
        if type_name not in _NARROW_TYPES:
            return None
        step = ir.Binary(line, col, "+" if op == "++" else "-", target, ir.Const(line, col, 1))
        return ir.Assign(line, col, target, None, self.converted(type_name, step))

    def _assignment(self, node: Node) -> ir.Expr:
        left = self._required(node, "left")
        target = self.pattern(left)
        op = self._operator(node)
        if op not in _ASSIGNMENT_OPS:
            raise Incomplete(node)
        compound = _ASSIGNMENT_OPS[op]
        if compound is not None:
            target = updatable(target, node)
        right = self._required(node, "right")
        line, col = self._pos(node)
        type_name = self.assigned_type(target)
        if right.type == "implicit_object_creation_expression" and type_name is not None:
            value = self._creation(right, type_name.rstrip("?"), None)
        else:
            value = self.expression(right)
        if compound == "??":
            return ir.Assign(line, col, target, "??", value)
        if compound is None:
            return ir.Assign(line, col, target, None, self.assigned(target, value))
        if isinstance(target, ir.Name | ir.Member) and type_name is not None:
            # ``x op= v`` stores ``(T)(x op v)``: a byte wraps, a float stays a float.
            combined = self.converted(
                type_name, ir.Binary(line, col, self._compound_op(compound), target, value)
            )
            if not isinstance(combined, ir.Binary):
                return ir.Assign(line, col, target, None, combined)
        return ir.Assign(line, col, target, compound, value)

    def _compound_op(self, op: str) -> str:
        return "checked" + op if self.checked and op in ("+", "-", "*", "/") else op

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
        """``x is pattern`` (``is int n``, ``is not null``, ``is { Size: > 1 } big``)."""
        line, col = self._pos(node)
        subject, first = self.temporary(self.expression(self._required(node, "expression")), "is")
        test = self.pattern_test(self._required(node, "pattern"), subject)
        return test if first is None else ir.Sequence(line, col, (first, test))

    def _is_type(self, node: Node) -> ir.Expr:
        """``x is T`` (the older form, a type after ``is``)."""
        line, col = self._pos(node)
        named = self._named(node)
        if len(named) < 2:
            raise Incomplete(node)
        return self.type_test(self.expression(named[0]), self._type_name(named[-1]), line, col)

    def _as(self, node: Node) -> ir.Expr:
        """``x as T``: x when it is a T, else null."""
        line, col = self._pos(node)
        subject, first = self.temporary(self.expression(self._required(node, "left")), "as")
        test = self.type_test(subject, self._type_name(self._required(node, "right")), line, col)
        chosen = ir.Conditional(line, col, test, subject, ir.Const(line, col, None))
        return chosen if first is None else ir.Sequence(line, col, (first, chosen))

    def _default(self, node: Node) -> ir.Expr:
        type_node = node.child_by_field_name("type")
        line, col = self._pos(node)
        if type_node is None:
            return ir.Const(line, col, 0)
        return self._type_default(type_node, line, col)

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
            raise Incomplete(node)
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

    def _with_expression(self, node: Node) -> ir.Expr:
        """``record with { X = 5 }``: a copy with those members set (``%with``)."""
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        line, col = self._pos(node)
        entries: list[tuple[ir.Expr, ir.Expr] | ir.Spread] = []
        for child in named[1:]:
            parts = [c for c in self._named(child)]
            for index in range(0, len(parts) - 1, 2):
                entries.append(
                    (
                        ir.Const(line, col, self.text(parts[index])),
                        self.expression(parts[index + 1]),
                    )
                )
        return ir.Call(
            line,
            col,
            ir.Name(line, col, "%with"),
            (self.expression(named[0]), ir.DictLit(line, col, tuple(entries))),
        )

    def _declaration_expression(self, node: Node) -> ir.Expr:
        """A declaration where an expression is expected (``out var x``: the name). tree-sitter
        reads ``F(a * b)`` as declaring ``b`` of the pointer type ``a*``; pointers are unsafe
        code no scene script has, so it is the product."""
        name = self._required(node, "name")
        type_node = node.child_by_field_name("type")
        line, col = self._pos(node)
        if type_node is not None and type_node.type == "pointer_type":
            inner = type_node.named_children
            if inner:
                return ir.Binary(
                    line,
                    col,
                    "checked*" if self.checked else "*",
                    self.expression(inner[0]),
                    ir.Name(*self._pos(name), self.text(name)),
                )
        return ir.Name(*self._pos(name), self.text(name))

    def _switch_expression(self, node: Node) -> ir.Expr:
        """``subject switch { pattern when guard => value, ... }``: the value of the first arm
        that matches (none matching throws in C#: an unknown value here)."""
        named = self._named(node)
        if not named:
            raise Incomplete(node)
        line, col = self._pos(node)
        subject, first = self.temporary(self.expression(named[0]), "switch")
        arms = [c for c in named[1:] if c.type == "switch_expression_arm"]
        result: ir.Expr = ir.Opaque(line, col, "no arm of the switch expression matches")
        for arm in reversed(arms):
            parts = self._named(arm)
            if len(parts) < 2:
                raise Incomplete(arm)
            test = self.pattern_test(parts[0], subject)
            guard = next((p for p in parts[1:-1] if p.type == "when_clause"), None)
            if guard is not None:
                condition = self._named(guard)
                if condition:
                    test = ir.Logical(line, col, "and", test, self.expression(condition[-1]))
            value = self.expression(parts[-1])
            if isinstance(test, ir.Const) and test.value is True:
                result = value
            else:
                result = ir.Conditional(line, col, test, value, result)
        return result if first is None else ir.Sequence(line, col, (first, result))

    # --- patterns -------------------------------------------------------------------------------------
    def pattern(self, node: Node) -> ir.Pattern:
        if not self.clean and (node.type == "ERROR" or node.is_missing):
            raise Incomplete(node)
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
        raise Incomplete(node)
