"""The three.js parser never raises and always finishes: random and mutated replies, 1 MB
inputs, deep nesting, endless loops and recursion (each parse within 1 s); and scenes written
by the three.js writer read back to the same objects (within 1e-9)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parsers import parse, write
from parsers.result import ParseResult
from spatialbabel import CLASSES, PALETTE, Camera, Scene, SceneObject

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "threejs"
REPLIES = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.txt"))]
#: Diagnostics of the safety deadline: the only outcomes that depend on the machine's speed.
#: The counted limits must end every run here first, whatever the input.
MACHINE_DEPENDENT = {"eval.deadline", "eval.parse_timeout"}


def assert_sound(text: str) -> ParseResult:
    result = parse(text, "threejs")
    codes = {d.code for d in result.diagnostics}
    assert "parse.internal" not in codes, [
        str(d) for d in result.diagnostics if d.code == "parse.internal"
    ]
    assert not codes & MACHINE_DEPENDENT, codes
    return result


def fenced(code: str) -> str:
    return f"```javascript\n{code}\n```\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=2000))
def test_random_text(text: str) -> None:
    assert_sound(text)
    assert_sound(fenced(text))


_JS_ALPHABET = "(){}[];,.=+-*/%<>!&|?:'\"`$ \n\tabcdefxyzTHREMshBoxGometrynw0123456789"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=_JS_ALPHABET, max_size=3000))
def test_random_code_like_text(text: str) -> None:
    assert_sound(fenced(text))


@st.composite
def mutated_replies(draw: st.DrawFn) -> str:
    reply = draw(st.sampled_from(REPLIES))
    for _ in range(draw(st.integers(1, 6))):
        if not reply:
            break
        i = draw(st.integers(0, len(reply) - 1))
        j = draw(st.integers(i, min(len(reply), i + 200)))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "cut"]))
        if action == "delete":
            reply = reply[:i] + reply[j:]
        elif action == "duplicate":
            reply = reply[:j] + reply[i:j] + reply[j:]
        elif action == "insert":
            reply = reply[:i] + draw(st.text(alphabet=_JS_ALPHABET, max_size=40)) + reply[i:]
        else:
            reply = reply[:i]
    return reply


#: A reply that deletes an object's own transform before cloning it: three.js's clone then
#: reads a rotation that is gone; the reader once raised KeyError: 'rotation' here.
DELETED_TRANSFORM = fenced(
    "const scene = new THREE.Scene();\n"
    "const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));\n"
    "delete mesh.rotation;\n"
    "delete mesh['quaternion'];\n"
    "const copy = mesh.clone();\n"
    "copy.lookAt(1, 2, 3);\n"
    "scene.add(mesh, copy);"
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_replies())
@example(DELETED_TRANSFORM)
def test_mutated_replies(reply: str) -> None:
    assert_sound(reply)


def test_a_deleted_transform_is_kept_with_a_warning() -> None:
    result = assert_sound(DELETED_TRANSFORM)
    deleted = [d for d in result.diagnostics if d.code == "eval.ignored_delete"]
    assert [d.line for d in deleted] == [4, 5]
    assert len(result.scene.objects) == 2


def test_one_megabyte_of_garbage() -> None:
    rng = np.random.default_rng(7)
    garbage = "".join(chr(c) for c in rng.integers(32, 127, size=1_000_000))
    result = assert_sound(fenced(garbage))
    assert not result.ok


def test_one_megabyte_of_real_code() -> None:
    line = "scene.add(new THREE.Mesh(new THREE.BoxGeometry(1, 2, 3), new THREE.MeshBasicMaterial({ color: 0xff0000 })));\n"
    code = "const scene = new THREE.Scene();\n" + line * (1_000_000 // len(line))
    result = assert_sound(fenced(code))
    assert result.ok
    codes = {d.code for d in result.diagnostics}
    assert codes & {"eval.budget", "threejs.too_many_objects"}


def test_one_megabyte_single_string() -> None:
    assert_sound(fenced("const s = '" + "x" * 1_000_000 + "';\nconst t = s + s + s;"))


@pytest.mark.parametrize(
    "code",
    [
        "const a = " + "(" * 50_000 + "1" + ")" * 50_000 + ";",
        "const a = " + "[" * 50_000 + "]" * 50_000 + ";",
        "const a = " + "-" * 50_000 + "1;",
        "const a = " + "f(" * 20_000 + ")" * 20_000 + ";",
        "{" * 30_000 + "}" * 30_000,
        "const a = " + "1 + " * 50_000 + "1;",
        "const a = " + "x ? " * 20_000 + "1" + " : 2" * 20_000 + ";",
        "(" * 200_000,
    ],
    ids=["parens", "arrays", "unary", "calls", "blocks", "sum", "ternary", "open-parens"],
)
def test_deep_nesting(code: str) -> None:
    assert_sound(
        fenced(
            "const scene = new THREE.Scene();\n"
            + code
            + "\nscene.add(new THREE.Mesh(new THREE.BoxGeometry()));"
        )
    )


@pytest.mark.parametrize(
    "code",
    [
        "for (;;) {}",
        "while (true) { scene.add(new THREE.Mesh(new THREE.BoxGeometry())); }",
        "for (let i = 0; i < 1e9; i++) { scene.add(new THREE.Mesh(new THREE.SphereGeometry())); }",
        "do { } while (1);",
        "function r(n) { return r(n + 1) + r(n + 2); } r(0);",
        "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } const v = fib(40);",
        "const f = () => f(); f();",
        "class A { constructor() { new A(); } } new A();",
        "Array.from({ length: 1e9 }, (_, i) => i).forEach((i) => scene.add(new THREE.Mesh(new THREE.BoxGeometry())));",
        "let s = 'a'; for (let i = 0; i < 100; i++) { s = s + s; }",
        "const xs = []; for (let i = 0; i < 1e9; i++) xs.push([i, i, i]);",
        "for (let i = 0; i < 1000; i++) for (let j = 0; j < 1000; j++) for (let k = 0; k < 1000; k++) {}",
    ],
    ids=[
        "for-ever",
        "while-true",
        "1e9-loop",
        "do-while",
        "binary-recursion",
        "fib40",
        "arrow-recursion",
        "constructor-recursion",
        "array-from-1e9",
        "string-doubling",
        "push-1e9",
        "nested-loops",
    ],
)
def test_endless_work_is_cut(code: str) -> None:
    assert_sound(
        fenced(
            "const scene = new THREE.Scene();\n"
            + code
            + "\nscene.add(new THREE.Mesh(new THREE.TorusGeometry()));"
        )
    )


finite = st.floats(-20, 20, allow_nan=False, allow_infinity=False)
angles = st.floats(-180, 180, allow_nan=False, allow_infinity=False)
sizes = st.floats(0.05, 2.0, allow_nan=False)
names = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    count = draw(st.integers(1, 6))
    ids = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    objects = []
    for i in range(count):
        class_name = draw(st.sampled_from(CLASSES))
        size = draw(st.tuples(sizes, sizes, sizes))
        if draw(st.booleans()):
            # The proportions writers can express in the geometry itself.
            s = size[0]
            size = {"torus": (s, 0.25 * s, s), "cube": size}.get(
                class_name, (s, size[1] if class_name != "sphere" else s, s)
            )
        objects.append(
            SceneObject(
                ids[i],
                class_name,
                draw(st.tuples(finite, finite, finite)),
                draw(st.tuples(angles, angles, angles)),
                size,
                color=draw(st.sampled_from(list(PALETTE))),
            )
        )
    cameras = (Camera.looking_at("front", (0.0, 4.0, 9.0)),) if draw(st.booleans()) else ()
    return Scene("written", tuple(objects), cameras)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_written_scenes_read_back(scene: Scene) -> None:
    result = parse(write(scene, "threejs"), "threejs")
    assert len(result.scene.objects) == len(scene.objects)
    for got, want in zip(result.scene.objects, scene.objects, strict=True):
        assert (got.id, got.class_name, got.color) == (want.id, want.class_name, want.color)
        assert got.rgb == pytest.approx(want.rgb, abs=1e-12)
        assert np.allclose(got.position, want.position, atol=1e-9, rtol=0)
        assert np.allclose(got.size, want.size, atol=1e-9, rtol=0)
        assert np.allclose(got.rotation_matrix, want.rotation_matrix, atol=1e-9, rtol=0)
