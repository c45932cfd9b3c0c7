"""The C# front end and dialect (used by the Unity parser): C#'s semantics evaluated statically,
its class model (implicit ``this``, fields, properties, structs), and cut-off repair."""

from __future__ import annotations

from typing import Any

from parsers.custom_mesh import primitive_from_vertices
from parsers.evaluator import Engine, Limits, evaluate
from parsers.evaluator.core.repair import close_cut_off, keep_beginning
from parsers.evaluator.csharp.front import lower_csharp
from parsers.evaluator.csharp.lib import CSharp


def run(code: str) -> dict[str, Any]:
    evaluation = evaluate(
        code,
        grammar="c_sharp",
        front_end=lower_csharp,
        dialect=CSharp(),
        engine=Engine(),
        limits=Limits(),
    )
    return evaluation.interpreter.globals.vars


def test_integer_division_casts_and_strings() -> None:
    values = run(
        'var a = 7 / 2; var b = -7 / 2; var c = 7 / 2f; var d = (int)3.9; var e = (float)1 / 2; var s = "Cube" + a + 1.5f;'
    )
    assert (values["a"], values["b"], values["c"], values["d"], values["e"]) == (3, -3, 3.5, 3, 0.5)
    assert values["s"] == "Cube31.5"


def test_loops_lists_dictionaries_and_interpolation() -> None:
    values = run(
        "var xs = new List<int> { 1, 2 }; xs.Add(3); int total = 0;\n"
        "foreach (var x in xs) { total += x; }\n"
        "for (int i = 0, j = 10; i < 3; i++, j--) { total += j; }\n"
        'var d = new Dictionary<string, int> { { "a", 1 }, ["b"] = 2 }; var n = d["b"] + xs.Count;\n'
        'var t = $"n={n} total={total}";'
    )
    assert values["t"] == "n=5 total=33"


def test_classes_implicit_this_properties_and_statics() -> None:
    values = run(
        "class Counter {\n"
        "  static int made = 0;\n"
        "  int count = 1;\n"
        "  public int Twice => count * 2;\n"
        "  public int Size { get; set; } = 5;\n"
        "  public Counter(int start) { count = start; made++; }\n"
        "  public void Bump() { count += Size; }\n"
        "}\n"
        "var c = new Counter(3); c.Bump(); var t = c.Twice; var m = Counter.made;"
    )
    assert (values["t"], values["m"]) == (16, 1)


def test_object_initialisers_enums_and_switch() -> None:
    values = run(
        "enum Shape { Cube, Sphere = 5, Cone }\n"
        "class Spec { public Shape shape; public float size = 1f; }\n"
        "var s = new Spec { shape = Shape.Cone, size = 2f };\n"
        "string name;\n"
        'switch (s.shape) { case Shape.Cube: name = "cube"; break; case Shape.Cone: name = "cone"; break; default: name = "?"; break; }\n'
        "var k = (int)s.shape;"
    )
    assert (values["name"], values["k"]) == ("cone", 6)


def test_lambdas_and_local_functions() -> None:
    values = run(
        "int Square(int v) => v * v;\nFunc<int, int> twice = v => v * 2;\nvar r = twice(Square(3));"
    )
    assert values["r"] == 18


def test_repair_closes_blocks_cut_off_mid_statement() -> None:
    code = "class A {\n  void Start() {\n    int a = 1;\n    Foo(new Vector3(1f, 0."
    repair = close_cut_off(code)
    assert repair is not None
    assert (repair.dropped_lines, repair.closed_blocks) == (1, 2)
    assert repair.code.rstrip().endswith("int a = 1;\n}}")
    assert close_cut_off("class A { void B() { } }") is None


def test_keep_beginning_cuts_at_a_line_end() -> None:
    code = "a;\n" * 10
    kept, left = keep_beginning(code, limit=7)
    assert kept == "a;\na;" and left == 8


def test_custom_meshes_recognised_in_any_orientation() -> None:
    box = [(x, y, z) for x in (0, 2) for y in (0, 1) for z in (0, 3)]
    found = primitive_from_vertices(box)
    assert found is not None and found[0] == "cube"
    # A pyramid lying on its side, apex along -X.
    pyramid = [(0, -1, -1), (0, 1, -1), (0, 1, 1), (0, -1, 1), (-2, 0, 0)]
    found = primitive_from_vertices(pyramid)
    assert found is not None and found[0] == "pyramid"
    assert primitive_from_vertices([(0, 0, 0), (1, 0, 0), (0, 1, 0)]) is None
