"""Python's ``match`` statement, lowered onto the evaluator's existing nodes.

``match subject:`` becomes an assignment of the subject to a hidden name and a chain of ``If``s,
one per ``case``, whose test is the pattern's: literals compare with ``==`` (``None``, ``True``
and ``False`` with ``is``), dotted names are value patterns, bare names capture (an assignment
expression that is always true), ``_`` is always true; sequence, mapping and class patterns ask
the dialect's helpers (``%match_sequence``, ``%match_mapping``, ``%match_class``,
``%match_attribute``, ``%match_star``, ``%match_rest`` in ``python.lib``) and test their
sub-patterns on the items, keys and attributes; ``|`` is ``or``, ``as`` captures the whole,
a guard is ``and``-ed after the pattern (whose captures it sees). A pattern the evaluator cannot
test (complex numbers) is reported, and its case's test is unknown (reported again where the
``if`` cannot be decided).
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.lowering import Incomplete, TreeLowering
from parsers.evaluator.core.treesitter import Node

_LITERALS = frozenset({"integer", "float", "string", "concatenated_string"})
_SINGLETONS = {"none": None, "true": True, "false": False}


class MatchLowering(TreeLowering):
    """The ``match`` statement of the Python front end."""

    #: How many ``match`` statements were lowered (each gets its own hidden subject name).
    _matches = 0

    def _block(self, node: Node | None) -> ir.Block:
        raise NotImplementedError

    def _match(self, node: Node) -> ir.Stmt:
        line, col = self._pos(node)
        subjects = [c for c in node.children_by_field_name("subject") if c.type != "comment"]
        if not subjects:
            raise Incomplete(node)
        value = (
            self.expression(subjects[0])
            if len(subjects) == 1
            else ir.TupleLit(line, col, tuple(self.expression(s) for s in subjects))
        )
        self._matches += 1
        hidden = ir.Name(line, col, f"%match{self._matches}")
        chain: ir.Block | None = None
        body = self._required(node, "body")
        cases = [c for c in body.named_children if c.type == "case_clause"]
        for case in reversed(cases):
            test = self._case_test(case, hidden)
            consequence = self._block(self._required(case, "consequence"))
            branch = ir.If(*self._pos(case), test, consequence, chain)
            chain = ir.Block(*self._pos(case), (branch,), scoped=False)
        store = ir.ExprStmt(line, col, ir.Assign(line, col, hidden, None, value))
        return ir.Block(line, col, (store, *(chain.body if chain else ())), scoped=False)

    def _case_test(self, case: Node, subject: ir.Expr) -> ir.Expr:
        patterns = [c for c in case.named_children if c.type == "case_pattern"]
        line, col = self._pos(case)
        if not patterns:
            raise Incomplete(case)
        if len(patterns) == 1:
            test = self._pattern(patterns[0], subject)
        else:
            # ``case a, b:``: an open sequence pattern.
            test = self._sequence(case, patterns, subject)
        guard = self._field(case, "guard")
        if guard is not None:
            named = self._named(guard)
            if not named:
                raise Incomplete(guard)
            test = _both(line, col, test, self.expression(named[0]))
        return test

    # --- one pattern ------------------------------------------------------------------------------
    def _pattern(self, node: Node, subject: ir.Expr) -> ir.Expr:
        """The test of ``node`` (a pattern, or a ``case_pattern`` wrapping one) on ``subject``."""
        line, col = self._pos(node)
        kind = node.type
        if kind == "case_pattern":
            return self._parts(node, node.children, subject)
        if kind == "union_pattern":
            alternatives: list[list[Node]] = [[]]
            for child in node.children:
                if child.type == "|":
                    alternatives.append([])
                elif child.type != "comment":
                    alternatives[-1].append(child)
            tests = [self._parts(node, parts, subject) for parts in alternatives if parts]
            result = tests[0]
            for test in tests[1:]:
                result = ir.Logical(line, col, "or", result, test)
            return result
        if kind == "as_pattern":
            inner = [c for c in node.named_children if c.type == "case_pattern"]
            alias = [c for c in node.named_children if c.type == "identifier"]
            if not inner or not alias:
                raise Incomplete(node)
            return _both(
                line, col, self._pattern(inner[0], subject), _capture(alias[-1], self, subject)
            )
        if kind == "dotted_name":
            names = [self.text(c) for c in node.named_children if c.type == "identifier"]
            if len(names) == 1:
                return _capture(node, self, subject)
            value: ir.Expr = ir.Name(line, col, names[0])
            for name in names[1:]:
                value = ir.Member(line, col, value, name)
            return ir.Binary(line, col, "==", subject, value)
        if kind in _LITERALS:
            return ir.Binary(line, col, "==", subject, self.expression(node))
        if kind in _SINGLETONS:
            return ir.Binary(line, col, "is", subject, ir.Const(line, col, _SINGLETONS[kind]))
        if kind in ("list_pattern", "tuple_pattern"):
            items = [c for c in node.named_children if c.type == "case_pattern"]
            grouped = kind == "tuple_pattern" and not any(c.type == "," for c in node.children)
            if grouped and len(items) == 1:
                return self._pattern(items[0], subject)
            return self._sequence(node, items, subject)
        if kind == "dict_pattern":
            return self._mapping(node, subject)
        if kind == "class_pattern":
            return self._class_pattern(node, subject)
        self._report(
            "warning",
            "unsupported",
            f"a {kind.replace('_', ' ')} in a case cannot be tested statically",
            node,
        )
        return ir.Opaque(line, col, f"a {kind.replace('_', ' ')} has no static test")

    def _parts(self, owner: Node, parts: list[Node], subject: ir.Expr) -> ir.Expr:
        """The test of a pattern written as several tokens: ``-1``, or one node."""
        line, col = self._pos(owner)
        named = [p for p in parts if p.is_named and p.type != "comment"]
        negative = any(p.type == "-" for p in parts)
        if not named:
            # ``_`` (the wildcard) is an anonymous token: it matches anything, binds nothing.
            if any(p.type == "_" for p in parts) or owner.type == "case_pattern":
                return ir.Const(line, col, True)
            raise Incomplete(owner)
        if negative:
            literal = self.expression(named[0])
            value = ir.Unary(line, col, "-", literal)
            return ir.Binary(line, col, "==", subject, value)
        return self._pattern(named[0], subject)

    # --- structured patterns --------------------------------------------------------------------
    def _sequence(self, node: Node, items: list[Node], subject: ir.Expr) -> ir.Expr:
        line, col = self._pos(node)
        star = next((i for i, item in enumerate(items) if _splat(item) is not None), None)
        fixed = len(items) - (star is not None)
        helper = ir.Name(line, col, "%match_sequence")
        test: ir.Expr = ir.Call(
            line,
            col,
            helper,
            (subject, ir.Const(line, col, fixed), ir.Const(line, col, star is not None)),
        )
        after = 0 if star is None else len(items) - star - 1
        for i, item in enumerate(items):
            if star is not None and i == star:
                splat = _splat(item)
                assert splat is not None
                names = [c for c in splat.named_children if c.type == "identifier"]
                if names:
                    rest = ir.Call(
                        line,
                        col,
                        ir.Name(line, col, "%match_star"),
                        (subject, ir.Const(line, col, star), ir.Const(line, col, after)),
                    )
                    test = _both(line, col, test, _capture(names[0], self, rest))
                continue
            index = i if star is None or i < star else i - len(items)
            element = ir.Index(line, col, subject, ir.Const(line, col, index))
            test = _both(line, col, test, self._pattern(item, element))
        return test

    def _mapping(self, node: Node, subject: ir.Expr) -> ir.Expr:
        line, col = self._pos(node)
        keys: list[ir.Expr] = []
        values: list[Node] = []
        rest: Node | None = None
        pending: ir.Expr | None = None
        for child in node.children:
            if not child.is_named or child.type == "comment":
                continue
            if child.type == "splat_pattern":
                names = [c for c in child.named_children if c.type == "identifier"]
                rest = names[0] if names else None
            elif pending is None:
                pending = self._key(child)
            else:
                keys.append(pending)
                values.append(child)
                pending = None
        key_tuple = ir.TupleLit(line, col, tuple(keys))
        helper = ir.Name(line, col, "%match_mapping")
        test: ir.Expr = ir.Call(line, col, helper, (subject, key_tuple))
        for key, value in zip(keys, values, strict=True):
            test = _both(line, col, test, self._pattern(value, ir.Index(line, col, subject, key)))
        if rest is not None:
            remainder = ir.Call(line, col, ir.Name(line, col, "%match_rest"), (subject, key_tuple))
            test = _both(line, col, test, _capture(rest, self, remainder))
        return test

    def _key(self, node: Node) -> ir.Expr:
        """A mapping pattern's key: a literal or a dotted name's value."""
        line, col = self._pos(node)
        if node.type == "dotted_name":
            names = [self.text(c) for c in node.named_children if c.type == "identifier"]
            value: ir.Expr = ir.Name(line, col, names[0])
            for name in names[1:]:
                value = ir.Member(line, col, value, name)
            return value
        if node.type in _SINGLETONS:
            return ir.Const(line, col, _SINGLETONS[node.type])
        return self.expression(node)

    def _class_pattern(self, node: Node, subject: ir.Expr) -> ir.Expr:
        line, col = self._pos(node)
        named = [c for c in node.named_children if c.type != "comment"]
        if not named or named[0].type != "dotted_name":
            raise Incomplete(node)
        names = [self.text(c) for c in named[0].named_children if c.type == "identifier"]
        cls: ir.Expr = ir.Name(line, col, names[0])
        for name in names[1:]:
            cls = ir.Member(line, col, cls, name)
        positional: list[Node] = []
        keywords: list[tuple[str, Node, list[Node]]] = []
        for child in named[1:]:
            inner = [c for c in child.named_children if c.type != "comment"]
            if child.type == "case_pattern" and inner and inner[0].type == "keyword_pattern":
                keyword = inner[0]
                name_node = next(c for c in keyword.named_children if c.type == "identifier")
                parts = [c for c in keyword.children if c.start_byte > name_node.end_byte]
                parts = [c for c in parts if c.type != "="]
                keywords.append((self.text(name_node), keyword, parts))
            else:
                positional.append(child)
        names_tuple = ir.TupleLit(line, col, tuple(ir.Const(line, col, k) for k, _, _ in keywords))
        test: ir.Expr = ir.Call(
            line,
            col,
            ir.Name(line, col, "%match_class"),
            (subject, cls, ir.Const(line, col, len(positional)), names_tuple),
        )
        for i, child in enumerate(positional):
            attribute = ir.Call(
                line,
                col,
                ir.Name(line, col, "%match_attribute"),
                (subject, cls, ir.Const(line, col, i)),
            )
            test = _both(line, col, test, self._pattern(child, attribute))
        for name, keyword, parts in keywords:
            member = ir.Member(line, col, subject, name)
            test = _both(line, col, test, self._parts(keyword, parts, member))
        return test


def _splat(item: Node) -> Node | None:
    """The ``*name`` of a sequence pattern's item, if it is one."""
    if item.type == "splat_pattern":
        return item
    inner = [c for c in item.named_children if c.type != "comment"]
    if item.type == "case_pattern" and len(inner) == 1 and inner[0].type == "splat_pattern":
        return inner[0]
    if item.type == "case_pattern" and not inner and any(c.type == "*" for c in item.children):
        return item
    return None


def _both(line: int, col: int, left: ir.Expr, right: ir.Expr) -> ir.Expr:
    """``left and right``, leaving out a side that is always true."""
    if isinstance(left, ir.Const) and left.value is True:
        return right
    if isinstance(right, ir.Const) and right.value is True:
        return left
    return ir.Logical(line, col, "and", left, right)


def _capture(node: Node, lowering: TreeLowering, value: ir.Expr) -> ir.Expr:
    """``name := value``, always true (a capture matches whatever it is given, unknown too)."""
    line, col = lowering._pos(node)
    name = lowering.text(node)
    assign = ir.Assign(line, col, ir.Name(line, col, name), None, value)
    return ir.Sequence(line, col, (assign, ir.Const(line, col, True)))
