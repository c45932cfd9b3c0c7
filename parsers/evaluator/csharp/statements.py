"""C# statements for the C# front end: blocks, namespaces, typed locals (a type's default
when there is no initialiser), ``if``/``for``/``foreach``/``while``/``do``, ``switch``, ``try``,
``using``/``lock`` bodies, ``yield``, ``return``/``throw``.
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import Incomplete
from parsers.evaluator.core.treesitter import Node
from parsers.evaluator.csharp.patterns import CSharpPatterns


class CSharpStatements(CSharpPatterns):
    """The lowering of C# statements."""

    # --- program and statements ---------------------------------------------------------------------
    def _unknown_statement(self, node: Node) -> None:
        """A statement the front end does not read: a warning, since it may change an object
        (declarations of things no scene needs, delegates and events, are left quietly)."""
        if not node.type.endswith("_declaration"):
            self._report(
                "warning",
                "unsupported",
                f"{node.type.replace('_', ' ')} not understood; skipped",
                node,
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

    def _checked_statement(self, node: Node) -> ir.Stmt:
        """``checked { }`` (integer overflow throws) or ``unchecked { }`` (it wraps)."""
        outer = self.checked
        self.checked = self.text(node).lstrip().startswith("checked")
        try:
            return self._wrapped_body(node)
        finally:
            self.checked = outer

    def _checked_expression(self, node: Node) -> ir.Expr:
        outer = self.checked
        self.checked = self.text(node).lstrip().startswith("checked")
        try:
            return self._parenthesized(node)
        finally:
            self.checked = outer

    def _goto(self, node: Node) -> ir.Stmt:
        self._report(
            "warning",
            "unsupported",
            "goto is not followed; the statements it jumps to do not run from here",
            node,
        )
        return ir.Pass(*self._pos(node))

    def _labeled(self, node: Node) -> ir.Stmt | None:
        named = [c for c in self._named(node) if c.type != "identifier"]
        return self.statement(named[0]) if named else None

    def _yield(self, node: Node) -> ir.Stmt:
        """``yield return x;`` (the function is an iterator: a generator of the core) and
        ``yield break;`` (it ends)."""
        line, col = self._pos(node)
        if self._iterators:
            self._iterators[-1] = True
        if any(c.type == "break" for c in node.children):
            return ir.Return(line, col, None)
        named = self._with_this(node)
        value = self.expression(named[0]) if named else ir.Const(line, col, None)
        return ir.ExprStmt(line, col, ir.Yield(line, col, value))

    def _declarators(self, declaration: Node) -> list[tuple[ir.Pattern, ir.Expr | None, Node]]:
        """Each declared variable, its value converted to the declared type (the type's
        default without an initialiser); the declared types are noted for later assignments."""
        type_node = declaration.child_by_field_name("type")
        declared = self.declared_type(type_node)
        result: list[tuple[ir.Pattern, ir.Expr | None, Node]] = []
        for child in self._named(declaration):
            if child.type != "variable_declarator":
                continue
            name_node = child.child_by_field_name("name")
            target: ir.Pattern
            if name_node is None:
                patterns = [c for c in child.named_children if c.type == "tuple_pattern"]
                if not patterns:
                    raise Incomplete(child)
                target = self.pattern(patterns[0])
            else:
                target = ir.Name(*self._pos(name_node), self.text(name_node))
            values = [
                c
                for c in self._with_this(child)
                if c != name_node and c.type not in ("tuple_pattern", "bracketed_argument_list")
            ]
            value = self._typed_value(values[-1], type_node, declared) if values else None
            if value is None and type_node is not None and type_node.type != "implicit_type":
                value = self._type_default(type_node, *self._pos(child))
            elif value is not None:
                value = self.converted(declared, value)
            if isinstance(target, ir.Name):
                self.declare_local(target.id, declared)
            result.append((target, value, child))
        return result

    def _typed_value(self, node: Node, type_node: Node | None, declared: str | None) -> ir.Expr:
        """The value of a declaration, lowered knowing the declared type: an array's items
        converted to its element type, a target-typed ``new(...)`` of that type, a lambda's
        parameters typed by the ``Func<...>``/``Action<...>`` it is stored in."""
        if (
            node.type == "initializer_expression"
            and declared is not None
            and declared.endswith("]")
        ):
            items = self._typed_items(self._array_items(node), self.element_type(declared))
            return self._rectangular(items, declared.count(",") + 1)
        if node.type == "implicit_object_creation_expression" and type_node is not None:
            return self._implicit_new(node, type_node)
        if node.type == "lambda_expression" and type_node is not None:
            name = self._type_name(type_node)
            if name in ("Func", "Action", "Predicate", "Comparison"):
                arguments = [self.declared_type(t) for t in self._type_argument_nodes(type_node)]
                if name == "Func":
                    returns, parameters = (arguments[-1] if arguments else None), arguments[:-1]
                elif name == "Predicate":
                    returns, parameters = "bool", arguments
                elif name == "Comparison":
                    returns, parameters = "int", arguments * 2
                else:
                    returns, parameters = None, arguments
                return self._lambda(node, parameters, returns)
        return self.expression(node)

    def _local_declaration(self, node: Node) -> ir.Stmt:
        declarations = [c for c in self._named(node) if c.type == "variable_declaration"]
        if not declarations:
            raise Incomplete(node)
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
                raise Incomplete(part)
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

    def _return(self, node: Node) -> ir.Stmt:
        named = self._with_this(node)
        value = self.returned(self.expression(named[0])) if named else None
        return ir.Return(*self._pos(node), value)

    def _foreach(self, node: Node) -> ir.Stmt:
        left = self._required(node, "left")
        target = self.pattern(left)
        if isinstance(target, ir.Name):
            self.declare_local(target.id, self.declared_type(node.child_by_field_name("type")))
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

    def _try(self, node: Node) -> ir.Stmt:
        """``try`` with its ``catch`` clauses tried in order by the thrown exception's type (and
        ``when`` filter); an exception no clause takes is thrown on."""
        line, col = self._pos(node)
        body = self._block(self._required(node, "body"))
        clauses = [c for c in node.named_children if c.type == "catch_clause"]
        final: ir.Block | None = None
        for child in node.named_children:
            if child.type == "finally_clause":
                blocks = [c for c in child.named_children if c.type == "block"]
                final = self._block(blocks[0]) if blocks else None
        if not clauses:
            return ir.Try(line, col, body, None, None if final else ir.Block(line, col, ()), final)
        caught = ir.Name(line, col, f"%exception{len(self._catching)}")
        chain: ir.Stmt = ir.Throw(line, col, caught)
        self._catching.append(caught.id)
        try:
            for clause in reversed(clauses):
                chain = self._catch(clause, caught, chain)
        finally:
            self._catching.pop()
        return ir.Try(line, col, body, caught, ir.Block(line, col, (chain,)), final)

    def _catch(self, clause: Node, caught: ir.Name, otherwise: ir.Stmt) -> ir.Stmt:
        line, col = self._pos(clause)
        test: ir.Expr = ir.Const(line, col, True)
        declare: list[ir.Stmt] = []
        block: ir.Block = ir.Block(line, col, ())
        for part in clause.named_children:
            if part.type == "catch_declaration":
                type_node = part.child_by_field_name("type")
                name = part.child_by_field_name("name")
                type_name = self._type_name(type_node)
                if type_name not in ("Exception", ""):
                    test = self.type_test(caught, type_name, line, col)
                if name is not None:
                    variable = ir.Name(*self._pos(name), self.text(name))
                    declare.append(ir.Declare(line, col, variable, caught, "let"))
                    self.declare_local(variable.id, type_name or None)
            elif part.type == "catch_filter_clause":
                inner = self._named(part)
                if inner:
                    condition: ir.Expr = self.expression(inner[-1])
                    if declare:
                        first = declare[0]
                        assert isinstance(first, ir.Declare)
                        bind = ir.Assign(line, col, first.target, None, caught)
                        condition = ir.Sequence(line, col, (bind, condition))
                    test = ir.Logical(line, col, "and", test, condition)
            elif part.type == "block":
                block = self._block(part)
        chosen = ir.Block(line, col, (*declare, *block.body))
        if isinstance(test, ir.Const) and test.value is True:
            return chosen
        return ir.If(line, col, test, chosen, ir.Block(line, col, (otherwise,)))

    def _throw(self, node: Node) -> ir.Stmt:
        named = self._named(node)
        if not named and self._catching:
            # ``throw;`` in a catch clause throws the caught exception on.
            line, col = self._pos(node)
            return ir.Throw(line, col, ir.Name(line, col, self._catching[-1]))
        return super()._throw(node)

    def _switch(self, node: Node) -> ir.Stmt:
        """``switch``: cases of constants compare with the value; with any other pattern or a
        ``when`` guard, every case is a test of the value (held in a temporary), and the
        switch runs the first whose test is true."""
        value = self.expression(self._required(node, "value"))
        body = self._required(node, "body")
        sections = [s for s in self._named(body) if s.type == "switch_section"]
        with_patterns = any(
            child.type == "when_clause"
            or (child.type.endswith("_pattern") and child.type != "constant_pattern")
            or (child.type == "constant_pattern" and self._constant_names_type(child))
            for section in sections
            for child in section.named_children
        )
        line, col = self._pos(node)
        subject: ir.Expr = value
        first: ir.Expr | None = None
        if with_patterns:
            subject, first = self.temporary(value, "switch")
        cases: list[tuple[ir.Expr | None, tuple[ir.Stmt, ...]]] = []
        for section in sections:
            labels: list[ir.Expr | None] = []
            statements: list[ir.Stmt] = []
            children = [c for c in section.named_children if c.type != "comment"]
            for index, child in enumerate(children):
                if child.type == "when_clause":
                    continue
                guard = children[index + 1] if index + 1 < len(children) else None
                if child.type in ("default_switch_label",) or (
                    child.type == "discard" and not with_patterns
                ):
                    labels.append(None)
                elif child.type in ("constant_pattern", "case_switch_label") and not with_patterns:
                    inner = self._named(child)
                    labels.append(self.expression(inner[0]) if inner else None)
                elif child.type.endswith("_pattern") or child.type == "discard":
                    test = self.pattern_test(child, subject)
                    if guard is not None and guard.type == "when_clause":
                        condition = self._named(guard)
                        if condition:
                            test = ir.Logical(
                                line, col, "and", test, self.expression(condition[-1])
                            )
                    labels.append(test)
                else:
                    stmt = self.statement(child)
                    if stmt is not None:
                        statements.append(stmt)
            if any(c.type == "default" for c in section.children):
                labels.append(None)
            for label in labels[:-1]:
                cases.append((label, ()))
            cases.append((labels[-1] if labels else None, tuple(statements)))
        if not with_patterns:
            return ir.Switch(line, col, value, tuple(cases))
        switch = ir.Switch(line, col, ir.Const(line, col, True), tuple(cases))
        if first is None:
            return switch
        return ir.Block(line, col, (ir.ExprStmt(line, col, first), switch), scoped=False)

    def _constant_names_type(self, node: Node) -> bool:
        """Whether a constant pattern is a bare type name (``case Circle:``, C# 9)."""
        inner = self._named(node)
        return bool(inner) and self._names_type(inner[0]) is not None
