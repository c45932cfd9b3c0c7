"""The Unity parser: a model's reply (C# scripts) -> the scene Unity would build, statically.

A Unity script has no top-level code: the engine constructs each MonoBehaviour and calls its
``Awake`` and then its ``OnEnable``, script after script, then every script's ``Start`` (all
Awakes before any Start); editor scripts run through their ``[MenuItem]`` methods. The parser appends those calls to the program the C#
front end lowers. A reply of bare statements or a lone ``void Start()`` runs as written.
"""

from __future__ import annotations

import re
import time

from parsers.evaluated import EvaluatedLanguage
from parsers.evaluator import Limits, ParseTimeout, Reporter, SourceTree, ir, parse_tree
from parsers.evaluator.core.limits import Budget
from parsers.evaluator.core.repair import close_cut_off
from parsers.evaluator.csharp.front import ClassInfo, CSharpFrontEnd
from parsers.evaluator.csharp.lib import CSharp
from parsers.result import Diagnostics
from parsers.unity.engine import UnityEngine
from parsers.unity.structs import struct_operators

LANGUAGE = "unity"

LIFECYCLE = ("Awake", "OnEnable", "Start")
#: Attributes that make Unity (or its editor) call a static method.
ENTRY_ATTRIBUTES = frozenset(
    {"MenuItem", "InitializeOnLoadMethod", "RuntimeInitializeOnLoadMethod", "DidReloadScripts"}
)
#: When a reply has no entry point Unity would call, methods named like this are called.
_BUILDER_NAME = re.compile(
    r"^(Build|Create|Generate|Setup|SetUp|Spawn|Make|Construct|Init)", re.IGNORECASE
)
_CREATION = re.compile(
    r"\b([A-Za-z_]\w*)\s*=\s*(?:new\s+GameObject\b|(?:GameObject\s*\.\s*)?CreatePrimitive\b|(?:Object\s*\.\s*)?Instantiate\b)"
)


def _declared_methods(info: ClassInfo, classes: dict[str, ClassInfo]) -> set[str]:
    names: set[str] = set()
    current: ClassInfo | None = info
    seen: set[str] = set()
    while current is not None and current.name not in seen:
        seen.add(current.name)
        names.update(m.name for m in current.methods if not m.static)
        current = classes.get(current.bases[0]) if current.bases else None
    return names


def entry_points(
    classes: list[ClassInfo], functions: list[str], line: int, reporter: Reporter
) -> list[ir.Stmt]:
    """The calls Unity would make into the declared classes, in Unity's order."""
    by_name = {c.name: c for c in classes if not c.nested}
    instances: list[tuple[str, ClassInfo]] = []
    calls: list[ir.Stmt] = []

    def name(text: str) -> ir.Name:
        return ir.Name(line, 0, text)

    def call(target: ir.Expr, method: str) -> ir.Stmt:
        # Through ``%coroutine``: Unity runs an ``IEnumerator Start()`` as a coroutine.
        made = ir.Call(line, 0, ir.Member(line, 0, target, method), ())
        return ir.ExprStmt(line, 0, ir.Call(line, 0, ir.Name(line, 0, "%coroutine"), (made,)))

    for info in classes:
        if info.nested or info.static or info.abstract:
            continue
        methods = _declared_methods(info, by_name)
        if any(m in methods for m in LIFECYCLE):
            variable = f"%script{len(instances)}"
            instances.append((variable, info))
            calls.append(
                ir.Declare(line, 0, name(variable), ir.New(line, 0, name(info.name), ()), "let")
            )
    # Unity: each script's Awake and OnEnable as it is loaded, then every Start.
    for phase in (("Awake", "OnEnable"), ("Start",)):
        for variable, info in instances:
            declared = _declared_methods(info, by_name)
            for method in phase:
                if method in declared:
                    calls.append(call(name(variable), method))
    for info in classes:
        for method_info in info.methods:
            if (
                method_info.static
                and ENTRY_ATTRIBUTES.intersection(method_info.attributes)
                and not info.nested
            ):
                calls.append(call(name(info.name), method_info.name))
    for function in functions:
        if function in (*LIFECYCLE, "Main"):
            calls.append(ir.ExprStmt(line, 0, ir.Call(line, 0, name(function), ())))
    if calls:
        return calls
    for info in classes:
        if info.nested:
            continue
        for method_info in info.methods:
            if method_info.parameters == 0 and (
                _BUILDER_NAME.match(method_info.name) or method_info.name == "Main"
            ):
                reporter.add(
                    "info",
                    "unity.entry_guess",
                    f"no method Unity would call; {info.name}.{method_info.name}() is called as the scene builder",
                    line,
                    None,
                )
                target: ir.Expr = (
                    name(info.name) if method_info.static else ir.New(line, 0, name(info.name), ())
                )
                calls.append(call(target, method_info.name))
    for function in functions:
        if _BUILDER_NAME.match(function):
            reporter.add(
                "info",
                "unity.entry_guess",
                f"no method Unity would call; {function}() is called as the scene builder",
                line,
                None,
            )
            calls.append(ir.ExprStmt(line, 0, ir.Call(line, 0, name(function), ())))
    return calls


def _front_end(source: SourceTree, reporter: Reporter, limits: Limits, budget: Budget) -> ir.Block:
    front = CSharpFrontEnd(source, reporter, limits, budget, prefix="cs")
    program = front.program()
    last = source.root.end_point[0] + 1
    return ir.Block(
        program.line,
        program.col,
        program.body + tuple(entry_points(front.classes, front.functions, last, reporter)),
        scoped=False,
    )


def creation_hints(code: str) -> dict[int, str]:
    """Code line -> the variable a GameObject made on that line is assigned to."""
    hints: dict[int, str] = {}
    for number, text in enumerate(code.split("\n"), start=1):
        match = _CREATION.search(text)
        if match:
            hints[number] = match.group(1)
    return hints


def has_syntax_error(code: str) -> bool:
    """Whether tree-sitter finds an error in ``code`` (cheap next to evaluating it)."""
    try:
        deadline = time.monotonic() + Limits().time_limit
        return bool(parse_tree(code, "c_sharp", deadline=deadline).root.has_error)
    except ParseTimeout:
        return False


def _close_cut_off(code: str, diagnostics: Diagnostics) -> str:
    """Code that stops inside open blocks, its unfinished end dropped and the blocks closed,
    when that is what makes it parse."""
    # Only code with an unclosed block is parsed twice (the brace scan is cheap).
    repair = close_cut_off(code)
    if repair is not None and has_syntax_error(code) and not has_syntax_error(repair.code):
        code = repair.code
        diagnostics.warning(
            "unity.cut_off",
            f"the code stops inside {repair.closed_blocks} open block(s); read without its last {repair.dropped_lines} unfinished line(s), the blocks closed",
            code.count("\n") - repair.closed_blocks,
        )
    return code


UNITY: EvaluatedLanguage[UnityEngine] = EvaluatedLanguage(
    LANGUAGE,
    grammar="c_sharp",
    front_end=_front_end,
    new_engine=lambda code: UnityEngine(code.split("\n")),
    new_dialect=lambda engine: CSharp(struct_operators),
    read_objects=lambda ctx, engine, code: engine.native_objects(ctx, creation_hints(code)),
    no_objects=("unity.no_objects", "the code makes no rendered GameObject of a known shape"),
    too_long="unity.too_long",
    prepare=_close_cut_off,
)


#: Runs Unity C# code statically: the evaluation, and the engine holding the GameObjects it
#: built.
evaluate_unity = UNITY.evaluate
parse_unity = UNITY.parse
