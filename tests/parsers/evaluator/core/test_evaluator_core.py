"""The shared static evaluator: JavaScript semantics through the JS front end, Python
semantics through hand-built ``ir`` (the Python front end comes with the Blender and Open3D
parsers), and the limits that keep every evaluation finite."""

from __future__ import annotations

import math
from typing import Any

import pytest

from parsers import parse
from parsers.evaluator import Engine, Limits, Unknown, evaluate, ir
from parsers.evaluator.core.interpreter import Interpreter
from parsers.evaluator.javascript.front import lower_javascript
from parsers.evaluator.javascript.lib import JavaScript, js_number_text
from parsers.evaluator.python.lib import Python
from parsers.result import Diagnostics


def run_js(code: str, limits: Limits | None = None) -> tuple[dict[str, object], list[str]]:
    evaluation = evaluate(
        code,
        grammar="javascript",
        front_end=lower_javascript,
        dialect=JavaScript(),
        engine=Engine(),
        limits=limits,
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    return evaluation.interpreter.globals.vars, [d.code for d in diagnostics.items]


def test_arithmetic_math_and_strings_follow_javascript() -> None:
    names, _ = run_js(
        "const a = 7 / 2, b = -7 % 3, c = 2 ** 10, d = '1' + 2, e = '3' * '4', f = Math.round(-2.5), g = 1 / 0, h = `x${1 + 1}y`, i = 0.1 + 0.2;"
    )
    assert (names["a"], names["b"], names["c"], names["d"], names["e"], names["f"]) == (
        3.5,
        -1.0,
        1024.0,
        "12",
        12.0,
        -2.0,
    )
    assert names["g"] == math.inf and names["h"] == "x2y" and names["i"] == 0.1 + 0.2
    assert js_number_text(1.0) == "1" and js_number_text(1e21) == "1e+21"


def test_truthiness_and_equality_follow_javascript() -> None:
    names, _ = run_js(
        "const a = [] ? 1 : 2, b = '' || 'd', c = null ?? 5, d = 0 === -0, e = null == undefined, f = '1' == 1, g = '1' === 1;"
    )
    assert (names["a"], names["b"], names["c"], names["d"], names["e"], names["f"], names["g"]) == (
        1.0,
        "d",
        5.0,
        True,
        True,
        True,
        False,
    )


def test_loops_functions_closures_and_destructuring() -> None:
    names, _ = run_js(
        """
const out = [];
for (let i = 0; i < 3; i++) out.push(i);
for (const [k, v] of [['a', 1], ['b', 2]]) out.push(k + v);
for (const key in { p: 1, q: 2 }) out.push(key);
[10, 20].forEach((x, i) => out.push(x + i));
const doubled = [1, 2, 3].map((x) => x * 2).filter((x) => x > 2);
function make(n = 2, ...rest) { return () => n + rest.length; }
const { a, b: [c, , d] = [], ...others } = { a: 1, b: [2, 3, 4], z: 9 };
let w = 0; while (w < 5) { w += 2; if (w === 4) break; }
const total = doubled.reduce((s, x) => s + x, 0);
"""
    )
    assert names["out"] == [0.0, 1.0, 2.0, "a1", "b2", "p", "q", 10.0, 21.0]
    assert names["doubled"] == [4.0, 6.0] and names["total"] == 10.0
    assert (names["a"], names["c"], names["d"], names["others"], names["w"]) == (
        1.0,
        2.0,
        4.0,
        {"z": 9.0},
        4.0,
    )


def test_classes_inheritance_getters_and_super() -> None:
    names, _ = run_js(
        """
class Shape { constructor(n) { this.n = n; } get twice() { return this.n * 2; } describe() { return 'shape' + this.n; } }
class Box extends Shape { size = 3; constructor() { super(4); } describe() { return 'box/' + super.describe(); } static make() { return new Box(); } }
const b = Box.make();
const r = [b.twice, b.describe(), b.size, b instanceof Shape];
"""
    )
    assert names["r"] == [8.0, "box/shape4", 3.0, True]


def test_unknowns_propagate_silently_and_conditions_are_reported() -> None:
    names, codes = run_js(
        "const r = Math.random(); const s = r * 2 + 1; let t = 0; if (r > 0.5) { t = 1; } for (const x of mystery) { t = 9; }"
    )
    assert isinstance(names["s"], Unknown) and "Math.random" in names["s"].reason
    assert names["t"] == 1.0
    assert "eval.unknown_condition" in codes and "eval.unknown_iterable" in codes


def test_limits_cut_loops_recursion_and_the_whole_run() -> None:
    names, codes = run_js(
        "let n = 0; for (;;) { n++; } function f(k) { return f(k + 1); } const v = f(0); let m = 0; while (true) m++;"
    )
    assert names["n"] == 10_000.0 and isinstance(names["v"], Unknown) and names["m"] == 10_000.0
    assert codes.count("eval.loop_limit") == 2 and "eval.recursion_limit" in codes
    _, codes = run_js(
        "let x = 0; while (true) { x++; }", Limits(max_steps=1000, max_loop_iterations=10**9)
    )
    assert "eval.budget" in codes


def test_syntax_errors_leave_the_statement_out_and_keep_the_rest() -> None:
    names, codes = run_js(
        "const a = 1;\nconst b = (2 + ;\nconst c = 3;\nfunction f() {\n  const d = ;\n  return 4;\n}\nconst e = f();"
    )
    assert (names["a"], names["c"], names["e"]) == (1.0, 3.0, 4.0)
    assert "b" not in names and codes.count("js.syntax") == 2


def python_program(*body: ir.Stmt) -> ir.Block:
    return ir.Block(1, 1, tuple(body), scoped=False)


def p(node: type, *args: object) -> Any:
    return node(1, 1, *args)


def test_python_dialect_range_enumerate_zip_and_integers() -> None:
    name = lambda n: p(ir.Name, n)  # noqa: E731
    call = lambda f, *a: p(ir.Call, name(f), tuple(a))  # noqa: E731
    const = lambda v: p(ir.Const, v)  # noqa: E731
    program = python_program(
        p(ir.ExprStmt, p(ir.Assign, name("out"), None, p(ir.ListLit, ()))),
        p(
            ir.ForEach,
            p(
                ir.ListPattern,
                (name("i"), p(ir.TupleLit, ()) and p(ir.ListPattern, (name("a"), name("b")))),
            ),
            call(
                "enumerate",
                call("zip", call("range", const(3)), p(ir.ListLit, (const("x"), const("y")))),
            ),
            p(
                ir.Block,
                (
                    p(
                        ir.ExprStmt,
                        p(
                            ir.Call,
                            p(ir.Member, name("out"), "append"),
                            (p(ir.TupleLit, (name("i"), name("a"), name("b"))),),
                        ),
                    ),
                ),
                False,
            ),
            None,
        ),
        p(ir.ExprStmt, p(ir.Assign, name("q"), None, p(ir.Binary, "//", const(7), const(2)))),
        p(
            ir.ExprStmt,
            p(
                ir.Assign,
                name("big"),
                None,
                call("len", call("range", p(ir.Binary, "**", const(10), const(9)))),
            ),
        ),
        p(
            ir.ForEach,
            name("k"),
            call("range", p(ir.Binary, "**", const(10), const(9))),
            p(ir.Block, (), False),
            None,
        ),
    )
    interpreter = Interpreter(Python(), Engine())
    interpreter.run(program)
    names = interpreter.globals.vars
    assert names["out"] == [(0, 0, "x"), (1, 1, "y")]
    assert names["q"] == 3 and isinstance(names["q"], int)
    assert names["big"] == 10**9
    assert names["k"] == 9_999 and "eval.loop_limit" in interpreter.reporter.codes()


def test_python_dialect_assignment_is_local_to_the_function() -> None:
    name = lambda n: p(ir.Name, n)  # noqa: E731
    body = p(
        ir.Block,
        (p(ir.ExprStmt, p(ir.Assign, name("x"), None, p(ir.Const, 2))), p(ir.Return, name("x"))),
        False,
    )
    fn = p(ir.FunctionExpr, "f", (), body, False)
    program = python_program(
        p(ir.ExprStmt, p(ir.Assign, name("x"), None, p(ir.Const, 1))),
        p(ir.FunctionDecl, fn),
        p(ir.ExprStmt, p(ir.Assign, name("y"), None, p(ir.Call, name("f"), ()))),
    )
    interpreter = Interpreter(Python(), Engine())
    interpreter.run(program)
    assert (interpreter.globals.vars["x"], interpreter.globals.vars["y"]) == (1, 2)


@pytest.mark.parametrize(
    "code", ["(" * 5000 + "1" + ")" * 5000, "- " * 5000 + "1", "[" * 5000 + "]" * 5000]
)
def test_deep_nesting_is_reported_not_raised(code: str) -> None:
    _, codes = run_js(f"const a = {code};\nconst b = 2;")
    assert "js.too_deep" in codes


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("open3d", "_,/=0"),
        ("blender", "import bpy\na, b = 1, 2\na, b += 1\nbpy.ops.mesh.primitive_cube_add()"),
        (
            "threejs",
            "let a = [1];\n[a] += 1;\n[a]++;\nscene.add(new THREE.Mesh(new THREE.BoxGeometry()));",
        ),
        (
            "unity",
            "var (a, b) = (1, 2);\n(a, b) += 1;\nGameObject.CreatePrimitive(PrimitiveType.Cube);",
        ),
    ],
)
def test_a_compound_assignment_to_a_pattern_is_a_syntax_error_not_a_crash(
    language: str, code: str
) -> None:
    # Hypothesis found `_,/=0` crashing the Python front ends with an internal KeyError.
    result = parse(code, language)
    assert "parse.internal" not in {d.code for d in result.diagnostics}
    if language != "open3d":
        assert len(result.scene.objects) == 1
