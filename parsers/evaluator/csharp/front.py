"""C# front end: lowers a tree-sitter-c-sharp tree onto the evaluator's ``ir``.

Used by the Unity parser with the ``CSharp`` dialect. Tolerant like the other front ends: a
statement holding a syntax error or cut off is left out with a ``cs.syntax`` warning, every
complete statement around it is kept.

What C# adds to the shared tree, and how it is lowered:

- classes and structs (fields, auto-properties, properties with bodies, methods, constructors,
  nested types, enums as classes of integer constants); what a class declares is also kept
  in ``classes`` (base, methods, attributes) so a parser can decide the entry points, since a
  Unity script has no top-level code: the engine calls ``Awake``/``Start``;
- typed locals without an initialiser take their type's default (0, false, ``new Vector3()``);
- generic type arguments (``GetComponent<Renderer>()``) are passed as the keyword ``%types``;
- ``out`` arguments: the call runs, then each out target is bound from ``%out`` (a built-in with
  out parameters puts them there through ``CSharp.set_out``);
- object and collection initialisers (``new Spec { a = 1 }``, ``new List<T> { x, y }``) call the
  dialect's ``%init`` with the new object and the members or items;
- casts call ``%cast`` with the type name, so ``(int)x`` truncates.

``CSharpFrontEnd`` holds the tables of handlers; the lowering lives in ``csharp.type_names`` (the
base: types, modifiers, attributes), ``csharp.statements``, ``csharp.declarations`` (functions,
classes, enums, ``ClassInfo``) and ``csharp.expressions``; literals in ``csharp.literals``.
"""

from __future__ import annotations

from parsers.evaluator.core import ir
from parsers.evaluator.core.context import Reporter
from parsers.evaluator.core.limits import Budget, Limits
from parsers.evaluator.core.lowering import ExpressionHandlers, StatementHandlers
from parsers.evaluator.core.treesitter import SourceTree
from parsers.evaluator.csharp.declarations import ClassInfo, CSharpDeclarations, MethodInfo
from parsers.evaluator.csharp.expressions import CSharpExpressions
from parsers.evaluator.csharp.literals import csharp_number


class CSharpFrontEnd(CSharpDeclarations, CSharpExpressions):
    """Lowers one parsed C# text. Diagnostics go to ``reporter`` with codes prefixed ``prefix``
    (``cs.syntax``); ``classes`` and ``functions`` say what the text declares."""

    PREFIX = "cs"

    def _handlers(self) -> tuple[StatementHandlers, ExpressionHandlers]:
        statements: StatementHandlers = {
            "block": self._block,
            "local_declaration_statement": self._local_declaration,
            "expression_statement": self._expression_statement,
            "if_statement": self._if,
            "for_statement": self._for,
            "foreach_statement": self._foreach,
            "while_statement": self._while,
            "do_statement": self._do,
            "return_statement": self._return,
            "break_statement": lambda n: ir.Break(*self._pos(n)),
            "continue_statement": lambda n: ir.Continue(*self._pos(n)),
            "throw_statement": self._throw,
            "try_statement": self._try,
            "switch_statement": self._switch,
            "using_statement": self._wrapped_body,
            "lock_statement": self._wrapped_body,
            "checked_statement": self._checked_statement,
            "unsafe_statement": self._wrapped_body,
            "fixed_statement": self._wrapped_body,
            "labeled_statement": self._labeled,
            "empty_statement": lambda n: ir.Pass(*self._pos(n)),
            "yield_statement": self._yield,
            "local_function_statement": self._local_function,
            "global_statement": self._global,
            "class_declaration": self._class_declaration,
            "struct_declaration": self._class_declaration,
            "record_declaration": self._class_declaration,
            "record_struct_declaration": self._class_declaration,
            "interface_declaration": lambda n: None,
            "enum_declaration": self._enum_declaration,
            "namespace_declaration": self._namespace,
            "file_scoped_namespace_declaration": self._namespace,
            "using_directive": lambda n: None,
            "extern_alias_directive": lambda n: None,
            "delegate_declaration": lambda n: None,
            "goto_statement": self._goto,
        }
        expressions: ExpressionHandlers = {
            "identifier": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "this": lambda n: ir.Name(*self._pos(n), "this"),
            "this_expression": lambda n: ir.Name(*self._pos(n), "this"),
            "base": lambda n: ir.Name(*self._pos(n), "this"),
            "predefined_type": lambda n: ir.Name(*self._pos(n), self.text(n)),
            "integer_literal": self._number,
            "real_literal": self._number,
            "boolean_literal": lambda n: ir.Const(*self._pos(n), self.text(n) == "true"),
            "null_literal": lambda n: ir.Const(*self._pos(n), None),
            "string_literal": self._string,
            "verbatim_string_literal": self._verbatim,
            "raw_string_literal": self._raw_string,
            "character_literal": self._character,
            "interpolated_string_expression": self._interpolated,
            "parenthesized_expression": self._parenthesized,
            "member_access_expression": self._member,
            "qualified_name": self._qualified,
            "generic_name": lambda n: ir.Name(*self._pos(n), self._generic_base(n)),
            "invocation_expression": self._invocation,
            "object_creation_expression": self._new,
            "implicit_object_creation_expression": self._implicit_new,
            "array_creation_expression": self._array_creation,
            "implicit_array_creation_expression": self._implicit_array,
            "initializer_expression": self._initializer_list,
            "element_access_expression": self._element_access,
            "binary_expression": self._binary,
            "prefix_unary_expression": self._prefix,
            "postfix_unary_expression": self._postfix,
            "assignment_expression": self._assignment,
            "conditional_expression": self._conditional,
            "cast_expression": self._cast,
            "as_expression": self._as,
            "is_pattern_expression": self._is_pattern,
            "is_expression": self._is_type,
            "default_expression": self._default,
            "lambda_expression": self._lambda,
            "anonymous_method_expression": self._lambda,
            "tuple_expression": self._tuple,
            "conditional_access_expression": self._conditional_access,
            "checked_expression": self._checked_expression,
            "await_expression": lambda n: ir.Await(
                *self._pos(n), self.expression(self._named(n)[-1])
            ),
            "switch_expression": self._switch_expression,
            "with_expression": self._with_expression,
            "declaration_expression": self._declaration_expression,
            "typeof_expression": self._typeof,
            "anonymous_object_creation_expression": self._anonymous_object,
            "sizeof_expression": lambda n: ir.Opaque(*self._pos(n), "sizeof has no static value"),
        }
        return statements, expressions


def lower_csharp(
    source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget, *, prefix: str = "cs"
) -> ir.Block:
    """The program of a parsed C# text as ``ir`` (classes are declared, nothing calls them)."""
    return CSharpFrontEnd(source, reporter, limits, budget, prefix=prefix).program()


__all__ = ["CSharpFrontEnd", "ClassInfo", "MethodInfo", "csharp_number", "lower_csharp"]
