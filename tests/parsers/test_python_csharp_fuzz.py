"""The Blender, Open3D and Unity parsers never raise and always finish: random and mutated
replies, 1 MB inputs, deep nesting, endless loops and recursion (each parse within 1 s); and
scenes written by each language's writer read back to the same objects (within 1e-9)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import parse, write
from parsers.result import ParseResult
from spatialbabel import CLASSES, PALETTE, Scene, SceneObject, object_affine

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
LANGUAGES = ("blender", "open3d", "unity")
TAGS = {"blender": "python", "open3d": "python", "unity": "csharp"}
REPLIES = {
    language: [
        p.read_text(encoding="utf-8")
        for p in sorted((ROOT / language).glob("*.txt"))
        if p.name.count(".") == 1
    ]
    for language in LANGUAGES
}
#: Diagnostics of the safety deadline: the only outcomes that depend on the machine's speed.
#: The counted limits must end every run here first, whatever the input.
MACHINE_DEPENDENT = {"eval.deadline", "eval.parse_timeout"}

_PY_ALPHABET = "()[]{}:,.=+-*/%<>!&|'\"#\\ \n\t    abcdefxyzbpyopsmeshprimitive_cube_addlocationo3dcreate_box0123456789"
_CS_ALPHABET = "(){}[];,.=+-*/%<>!&|?:'\"$@ \n\tabcdefxyzGameObjectCreatePrimitiveVector3newfloatvoid0123456789"
ALPHABETS = {"blender": _PY_ALPHABET, "open3d": _PY_ALPHABET, "unity": _CS_ALPHABET}


@pytest.fixture(scope="module", autouse=True)
def warm_parsers() -> None:
    """Load each language's modules and grammar once, outside the runs under test."""
    for language in LANGUAGES:
        parse(REPLIES[language][0], language)


def assert_sound(text: str, language: str) -> ParseResult:
    result = parse(text, language)
    internal = [str(d) for d in result.diagnostics if d.code == "parse.internal"]
    assert not internal, internal
    timed = [str(d) for d in result.diagnostics if d.code in MACHINE_DEPENDENT]
    assert not timed, timed
    return result


def fenced(code: str, language: str) -> str:
    return f"```{TAGS[language]}\n{code}\n```\n"


@pytest.mark.parametrize("language", LANGUAGES)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=st.text(max_size=2000))
def test_random_text(language: str, text: str) -> None:
    assert_sound(text, language)
    assert_sound(fenced(text, language), language)


@pytest.mark.parametrize("language", LANGUAGES)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_code_like_text(language: str, data: st.DataObject) -> None:
    assert_sound(
        fenced(data.draw(st.text(alphabet=ALPHABETS[language], max_size=3000)), language), language
    )


@pytest.mark.parametrize("language", LANGUAGES)
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_mutated_replies(language: str, data: st.DataObject) -> None:
    reply = data.draw(st.sampled_from(REPLIES[language]))
    for _ in range(data.draw(st.integers(1, 6))):
        if not reply:
            break
        i = data.draw(st.integers(0, len(reply) - 1))
        j = data.draw(st.integers(i, min(len(reply), i + 200)))
        action = data.draw(st.sampled_from(["delete", "duplicate", "insert", "cut"]))
        if action == "delete":
            reply = reply[:i] + reply[j:]
        elif action == "duplicate":
            reply = reply[:j] + reply[i:j] + reply[j:]
        elif action == "insert":
            reply = (
                reply[:i]
                + data.draw(st.text(alphabet=ALPHABETS[language], max_size=40))
                + reply[i:]
            )
        else:
            reply = reply[:i]
    assert_sound(reply, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_megabyte_of_garbage(language: str) -> None:
    rng = np.random.default_rng(11)
    garbage = "".join(chr(c) for c in rng.integers(32, 127, size=1_000_000))
    assert not assert_sound(fenced(garbage, language), language).ok


REAL_LINES = {
    "blender": ("import bpy\n", "bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 0.5))\n"),
    "open3d": (
        "import open3d as o3d\n",
        "o3d.geometry.TriangleMesh.create_box(1, 2, 3).translate((1, 0, 0))\n",
    ),
    "unity": (
        "using UnityEngine;\n",
        "GameObject.CreatePrimitive(PrimitiveType.Cube).transform.position = new Vector3(1f, 2f, 3f);\n",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_megabyte_of_real_code(language: str) -> None:
    header, line = REAL_LINES[language]
    result = assert_sound(fenced(header + line * (1_000_000 // len(line)), language), language)
    assert result.ok
    # What was not read is said: the code's end, the objects past the cap, or the budget.
    assert {d.code for d in result.diagnostics} & {
        "eval.budget",
        f"{language}.too_long",
        f"{language}.too_many_objects",
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_megabyte_string(language: str) -> None:
    code = {"unity": 'var s = "' + "x" * 1_000_000 + '"; var t = s + s + s;'}.get(
        language, 's = "' + "x" * 1_000_000 + '"\nt = s + s + s'
    )
    assert_sound(fenced(code, language), language)


PY_NESTING = [
    "a = " + "(" * 50_000 + "1" + ")" * 50_000,
    "a = " + "[" * 50_000 + "]" * 50_000,
    "a = " + "-" * 50_000 + "1",
    "a = " + "f(" * 20_000 + ")" * 20_000,
    "a = " + "1 + " * 50_000 + "1",
    "a = " + "x if y else " * 20_000 + "1",
    "(" * 200_000,
    "\n".join(" " * i + "if True:" for i in range(0, 400, 1)) + "\n" + " " * 400 + "pass",
]
CS_NESTING = [
    "var a = " + "(" * 50_000 + "1" + ")" * 50_000 + ";",
    "var a = " + "-" * 50_000 + "1;",
    "var a = " + "f(" * 20_000 + ")" * 20_000 + ";",
    "{" * 30_000 + "}" * 30_000,
    "var a = " + "1 + " * 50_000 + "1;",
    "var a = " + "x ? " * 20_000 + "1" + " : 2" * 20_000 + ";",
    "(" * 200_000,
]


@pytest.mark.parametrize("language", ["blender", "open3d"])
@pytest.mark.parametrize(
    "code",
    PY_NESTING,
    ids=["parens", "lists", "unary", "calls", "sum", "ternary", "open-parens", "ifs"],
)
def test_deep_nesting_python(language: str, code: str) -> None:
    tail = REAL_LINES[language]
    assert_sound(fenced(tail[0] + code + "\n" + tail[1], language), language)


@pytest.mark.parametrize(
    "code", CS_NESTING, ids=["parens", "unary", "calls", "blocks", "sum", "ternary", "open-parens"]
)
def test_deep_nesting_csharp(code: str) -> None:
    assert_sound(
        fenced("void Start() {\n" + code + "\n" + REAL_LINES["unity"][1] + "}", "unity"), "unity"
    )


PY_ENDLESS = [
    "while True:\n    pass",
    "while True:\n    ADD",
    "for i in range(10**9):\n    ADD",
    "def r(n):\n    return r(n + 1) + r(n + 2)\nr(0)",
    "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nv = fib(40)",
    "f = lambda: f()\nf()",
    "class A:\n    def __init__(self):\n        A()\nA()",
    "s = 'a'\nfor i in range(100):\n    s = s + s",
    "xs = []\nfor i in range(10**9):\n    xs.append([i, i, i])",
    "for i in range(1000):\n    for j in range(1000):\n        for k in range(1000):\n            pass",
    "x = [i for i in range(10**9)]",
    "x = 10 ** 10 ** 10",
]
CS_ENDLESS = [
    "for (;;) {}",
    "while (true) { ADD }",
    "for (int i = 0; i < 1000000000; i++) { ADD }",
    "do { } while (true);",
    "int R(int n) { return R(n + 1) + R(n + 2); } R(0);",
    "int Fib(int n) { return n < 2 ? n : Fib(n - 1) + Fib(n - 2); } var v = Fib(40);",
    'var s = "a"; for (int i = 0; i < 100; i++) { s = s + s; }',
    "var xs = new List<int>(); for (int i = 0; i < 1000000000; i++) { xs.Add(i); }",
    "for (int i = 0; i < 1000; i++) for (int j = 0; j < 1000; j++) for (int k = 0; k < 1000; k++) {}",
]


@pytest.mark.parametrize("language", ["blender", "open3d"])
@pytest.mark.parametrize("code", PY_ENDLESS)
def test_endless_work_is_cut_python(language: str, code: str) -> None:
    header, add = REAL_LINES[language]
    result = assert_sound(
        fenced(header + code.replace("ADD", add.strip()) + "\n" + add, language), language
    )
    # The loops are cut and the program goes on; only the step budget stops it for good.
    assert result.ok or "eval.budget" in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("code", CS_ENDLESS)
def test_endless_work_is_cut_csharp(code: str) -> None:
    add = REAL_LINES["unity"][1].strip()
    result = assert_sound(
        fenced(
            "using UnityEngine;\nusing System.Collections.Generic;\npublic class S : MonoBehaviour {\nvoid Start() {\n"
            + code.replace("ADD", add)
            + "\n"
            + add
            + "\n}\n}",
            "unity",
        ),
        "unity",
    )
    assert result.ok or "eval.budget" in {d.code for d in result.diagnostics}


# --- writers ----------------------------------------------------------------------------------------

finite = st.floats(-20, 20, allow_nan=False, allow_infinity=False)
angles = st.floats(-180, 180, allow_nan=False, allow_infinity=False)
sizes = st.floats(0.05, 2.0, allow_nan=False)


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    count = draw(st.integers(1, 6))
    objects = []
    for i in range(count):
        class_name = draw(st.sampled_from(CLASSES))
        size = draw(st.tuples(sizes, sizes, sizes))
        objects.append(
            SceneObject(
                f"object{i}",
                class_name,
                draw(st.tuples(finite, finite, finite)),
                draw(st.tuples(angles, angles, angles)),
                size,
                color=draw(st.sampled_from(list(PALETTE))),
            )
        )
    return Scene("written", tuple(objects))


@pytest.mark.parametrize("language", LANGUAGES)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(scene=scenes())
def test_written_scenes_read_back(language: str, scene: Scene) -> None:
    result = parse(write(scene, language), language)
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    assert len(result.scene.objects) == len(scene.objects)
    for got, want in zip(result.scene.objects, scene.objects, strict=True):
        assert (got.class_name, got.color) == (want.class_name, want.color)
        # Unity's code states its numbers as C# floats: they read back at single precision
        # (coordinates up to 20 within about 20 * 2**-23, colours within 2**-24).
        rgb_tolerance, affine_tolerance = (1e-7, 1e-5) if language == "unity" else (1e-12, 1e-9)
        assert got.rgb == pytest.approx(want.rgb, abs=rgb_tolerance)
        assert np.allclose(object_affine(got), object_affine(want), atol=affine_tolerance, rtol=0)
        if language == "blender":
            assert got.id == want.id
