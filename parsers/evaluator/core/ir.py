"""The evaluator's language-neutral program tree.

A front end lowers one language's tree-sitter tree onto these nodes; the interpreter runs
them. Every node carries the 1-based line and column of the code it came from (code lines:
the parser maps them to reply lines). Nodes are built once and never changed.

Expressions and statements are separate classes; targets of assignments and declarations
(``Pattern``) reuse ``Name``, ``Member`` and ``Index`` and add the destructuring forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from parsers.evaluator.core.values import Value


@dataclass(slots=True)
class Node:
    line: int
    col: int


# --- expressions ---------------------------------------------------------------------------


@dataclass(slots=True)
class Const(Node):
    """A literal: number, string, boolean, ``None`` (null) or ``UNDEFINED``."""

    value: Value


@dataclass(slots=True)
class Name(Node):
    id: str


@dataclass(slots=True)
class Member(Node):
    """``obj.name`` (``obj?.name`` when ``optional``)."""

    obj: Expr
    name: str
    optional: bool = False


@dataclass(slots=True)
class Index(Node):
    """``obj[index]``."""

    obj: Expr
    index: Expr
    optional: bool = False


@dataclass(slots=True)
class Slice(Node):
    """Python's ``a[lower:upper:step]`` index."""

    lower: Expr | None
    upper: Expr | None
    step: Expr | None


@dataclass(slots=True)
class Spread(Node):
    """``...value`` in a call, list or object literal (Python ``*value`` in calls and lists,
    ``**value`` in dicts)."""

    value: Expr


@dataclass(slots=True)
class Keyword(Node):
    """A named argument: Python ``f(x=1)``, C# ``f(x: 1)``; ``**kwargs`` is ``Keyword(None, ...)``."""

    name: str | None
    value: Expr


Argument: TypeAlias = "Expr | Spread | Keyword"


@dataclass(slots=True)
class Call(Node):
    func: Expr
    args: tuple[Argument, ...]
    optional: bool = False


@dataclass(slots=True)
class New(Node):
    """``new Func(args)``; Python has no ``new``: calling a class constructs it."""

    func: Expr
    args: tuple[Argument, ...]


@dataclass(slots=True)
class SuperCall(Node):
    """``super(args)`` in a constructor (Python: ``super().__init__(args)``)."""

    args: tuple[Argument, ...]


@dataclass(slots=True)
class SuperMember(Node):
    """``super.name`` (Python: ``super().name``)."""

    name: str


BinaryOp: TypeAlias = Literal[
    "+", "-", "*", "/", "//", "%", "**", "@",
    "==", "!=", "===", "!==", "<", "<=", ">", ">=",
    "&", "|", "^", "<<", ">>", ">>>",
    "in", "not in", "is", "is not", "instanceof",
]  # fmt: skip


@dataclass(slots=True)
class Binary(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(slots=True)
class Compare(Node):
    """Python's chained comparison ``a < b < c``: ``ops[i]`` between ``operands[i]`` and
    ``operands[i + 1]``."""

    ops: tuple[str, ...]
    operands: tuple[Expr, ...]


@dataclass(slots=True)
class Logical(Node):
    """Short-circuit ``and``, ``or`` and ``??`` (nullish coalescing)."""

    op: Literal["and", "or", "??"]
    left: Expr
    right: Expr


@dataclass(slots=True)
class Unary(Node):
    """``-``, ``+``, ``not`` (JS ``!``), ``~``, ``typeof``, ``void``."""

    op: str
    operand: Expr


@dataclass(slots=True)
class Conditional(Node):
    test: Expr
    then: Expr
    other: Expr


@dataclass(slots=True)
class ListLit(Node):
    items: tuple[Expr | Spread, ...]


@dataclass(slots=True)
class TupleLit(Node):
    items: tuple[Expr | Spread, ...]


@dataclass(slots=True)
class DictLit(Node):
    """An object or dict literal; a ``Spread`` entry merges another object."""

    entries: tuple[tuple[Expr, Expr] | Spread, ...]


@dataclass(slots=True)
class Template(Node):
    """A template or f-string: literal parts are ``str``, the rest expressions."""

    parts: tuple[str | Expr, ...]


@dataclass(slots=True)
class Sequence(Node):
    """JS's comma expression: every item evaluated, the last one's value."""

    items: tuple[Expr, ...]


@dataclass(slots=True)
class Assign(Node):
    """``target = value`` or a compound ``target op= value`` (``op`` is ``+``, ``-``...).
    An expression: JS allows ``a = b = 1``."""

    target: Pattern
    op: str | None
    value: Expr


@dataclass(slots=True)
class Update(Node):
    """``x++``, ``--x``: ``delta`` is +1 or -1."""

    target: Pattern
    delta: int
    prefix: bool


@dataclass(slots=True)
class Param(Node):
    """One parameter. ``kind``: ``positional``, ``rest`` (``...args``, ``*args``),
    ``kwrest`` (``**kwargs``) or ``keyword`` (Python's keyword-only)."""

    target: Pattern
    default: Expr | None = None
    kind: Literal["positional", "rest", "kwrest", "keyword"] = "positional"


@dataclass(slots=True)
class FunctionExpr(Node):
    """A function, method or lambda. ``arrow`` functions see the ``this`` of their scope.
    ``body`` is a block, or an expression for arrows and lambdas. A ``generator`` function
    (its body holds a ``Yield``: Python, JS ``function*``, a C# iterator) returns a generator
    whose body runs as its items are asked for (``parsers/evaluator/core/generators.py``)."""

    name: str | None
    params: tuple[Param, ...]
    body: Block | Expr
    arrow: bool = False
    generator: bool = False


#: A ``classmethod`` is a static method that receives the class it is read from.
ClassMemberKind: TypeAlias = Literal[
    "method", "getter", "setter", "field", "constructor", "classmethod"
]


@dataclass(slots=True)
class ClassMember(Node):
    name: str
    kind: ClassMemberKind
    value: FunctionExpr | Expr | None
    static: bool = False


@dataclass(slots=True)
class ClassExpr(Node):
    name: str | None
    base: Expr | None
    members: tuple[ClassMember, ...]
    explicit_self: bool = False
    #: A C# struct: instances are value types.
    value_type: bool = False


@dataclass(slots=True)
class Comprehension(Node):
    """Python comprehension. ``element`` is an expression, or (key, value) for a dict;
    ``clauses`` are ``CompFor`` and ``CompIf`` in source order."""

    kind: Literal["list", "set", "dict", "generator"]
    element: Expr | tuple[Expr, Expr]
    clauses: tuple[CompFor | CompIf, ...]


@dataclass(slots=True)
class CompFor(Node):
    target: Pattern
    iterable: Expr


@dataclass(slots=True)
class CompIf(Node):
    test: Expr


@dataclass(slots=True)
class ImportValue(Node):
    """What ``import`` binds: the module itself (``name`` None) or one of its members."""

    module: str
    name: str | None


@dataclass(slots=True)
class Await(Node):
    value: Expr


@dataclass(slots=True)
class Yield(Node):
    """``yield value`` in a generator function (``value`` None: the language's nothing;
    C#'s ``yield return``). With ``delegate`` (Python ``yield from``, JS ``yield*``) every
    item of ``value`` is yielded in turn. Its value is what the consumer sends in (Python
    ``send``, JS ``next(v)``; plain iteration sends ``UNDEFINED``), and for a delegation to a
    generator that generator's return value. C#'s ``yield break`` is a ``Return``."""

    value: Expr | None
    delegate: bool = False


@dataclass(slots=True)
class Opaque(Node):
    """A construct the front end cannot lower; evaluates to an ``Unknown`` saying ``what``."""

    what: str


Expr: TypeAlias = (
    "Const | Name | Member | Index | Slice | Call | New | SuperCall | SuperMember | Binary"
    " | Compare | Logical | Unary | Conditional | ListLit | TupleLit | DictLit | Template"
    " | Sequence | Assign | Update | FunctionExpr | ClassExpr | Comprehension | ImportValue"
    " | Await | Yield | Opaque"
)

# --- patterns (assignment and declaration targets) ------------------------------------------


@dataclass(slots=True)
class ListPattern(Node):
    """``[a, , b, ...rest]`` or Python's ``a, (b, c) = ...``; ``None`` skips an element.
    ``after`` are the targets that follow the rest (Python's ``first, *middle, last``)."""

    items: tuple[Pattern | None, ...]
    rest: Pattern | None = None
    after: tuple[Pattern | None, ...] = ()


@dataclass(slots=True)
class DictPattern(Node):
    """``{x, y: b, [key]: c, ...rest}``: (property name, target) pairs; a computed name is an
    expression."""

    props: tuple[tuple[str | Expr, Pattern], ...]
    rest: Pattern | None = None


@dataclass(slots=True)
class DefaultPattern(Node):
    """``target = default`` inside a destructuring pattern or parameter."""

    target: Pattern
    default: Expr


Pattern: TypeAlias = "Name | Member | Index | ListPattern | DictPattern | DefaultPattern"

# --- statements ------------------------------------------------------------------------------


@dataclass(slots=True)
class ExprStmt(Node):
    expr: Expr


@dataclass(slots=True)
class Declare(Node):
    """``const``/``let``/``var`` (JS), a typed local (C#). ``value`` None declares undefined;
    ``var`` without a value leaves a name its function already binds as it is."""

    target: Pattern
    value: Expr | None
    kind: Literal["const", "let", "var"] = "let"


@dataclass(slots=True)
class Block(Node):
    """Statements in order; ``scoped`` blocks open a scope for ``let``/``const`` (JS, C#)."""

    body: tuple[Stmt, ...]
    scoped: bool = True


@dataclass(slots=True)
class If(Node):
    test: Expr
    then: Block
    other: Block | None = None


@dataclass(slots=True)
class While(Node):
    """``while``/``do-while``; ``labels`` name it for ``break``/``continue`` (JavaScript)."""

    test: Expr
    body: Block
    do_while: bool = False
    other: Block | None = None
    labels: tuple[str, ...] = ()


@dataclass(slots=True)
class ForC(Node):
    """C-style ``for (init; test; update)``; each part may be absent. ``per_iteration``: the
    variables ``init`` declares are bound afresh for each iteration (JavaScript's ``let``,
    which a closure made in the body keeps)."""

    init: Stmt | None
    test: Expr | None
    update: Expr | None
    body: Block
    per_iteration: bool = False
    labels: tuple[str, ...] = ()


@dataclass(slots=True)
class ForEach(Node):
    """``for (const x of xs)``, ``for k in obj`` (``mode`` "in": JS keys), Python's ``for``,
    C#'s ``foreach``. ``declare`` is the declaration kind when the loop declares its
    variable (a fresh binding per iteration), None for a plain assignment target."""

    target: Pattern
    iterable: Expr
    body: Block
    declare: Literal["const", "let", "var"] | None = "let"
    mode: Literal["of", "in"] = "of"
    other: Block | None = None
    labels: tuple[str, ...] = ()


@dataclass(slots=True)
class FunctionDecl(Node):
    """A named function declaration (hoisted to the top of its block)."""

    fn: FunctionExpr


@dataclass(slots=True)
class ClassDecl(Node):
    cls: ClassExpr


@dataclass(slots=True)
class Return(Node):
    value: Expr | None = None


@dataclass(slots=True)
class Break(Node):
    """``break``, or ``break label`` (the loop or ``Labeled`` statement named ``label``)."""

    label: str | None = None


@dataclass(slots=True)
class Continue(Node):
    label: str | None = None


@dataclass(slots=True)
class Labeled(Node):
    """A labelled statement other than a loop: ``break label`` inside leaves it."""

    label: str
    body: Block


@dataclass(slots=True)
class Throw(Node):
    value: Expr | None = None


@dataclass(slots=True)
class Try(Node):
    body: Block
    handler_target: Pattern | None = None
    handler: Block | None = None
    final: Block | None = None


@dataclass(slots=True)
class Switch(Node):
    """``switch``; each case is (test or None for ``default``, statements)."""

    discriminant: Expr
    cases: tuple[tuple[Expr | None, tuple[Stmt, ...]], ...]


@dataclass(slots=True)
class With(Node):
    """Python's ``with a as b:``: each item's value bound to its target, then the body."""

    items: tuple[tuple[Expr, Pattern | None], ...]
    body: Block


@dataclass(slots=True)
class NonLocal(Node):
    """Python's ``global``/``nonlocal``: assignments to these names reach the outer scope."""

    names: tuple[str, ...]


@dataclass(slots=True)
class Delete(Node):
    targets: tuple[Expr, ...]


@dataclass(slots=True)
class Pass(Node):
    """An empty statement, or one the front end dropped (its diagnostic is already given)."""


Stmt: TypeAlias = (
    "ExprStmt | Declare | Block | If | While | ForC | ForEach | FunctionDecl | ClassDecl"
    " | Return | Break | Continue | Labeled | Throw | Try | Switch | With | NonLocal | Delete"
    " | Pass"
)
