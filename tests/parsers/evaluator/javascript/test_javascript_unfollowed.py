"""Nothing silent in JavaScript and TypeScript: every statement the evaluator skips or cannot
follow, and that may change an object, is a warning with its line (issue 26). Statements that
change nothing (types, signatures, renderer settings) stay quiet."""

from __future__ import annotations

import pytest

from parsers import parse
from parsers.evaluator import Engine, evaluate
from parsers.evaluator.javascript.front import lower_javascript
from parsers.evaluator.javascript.lib import JavaScript
from parsers.evaluator.javascript.typescript_front import lower_typescript
from parsers.result import Diagnostic, Diagnostics


def remarks(code: str, *, typescript: bool = False) -> list[Diagnostic]:
    evaluation = evaluate(
        code,
        grammar="typescript" if typescript else "javascript",
        front_end=lower_typescript if typescript else lower_javascript,
        dialect=JavaScript(),
        engine=Engine(),
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    return diagnostics.items


def warnings_at(code: str, *, typescript: bool = False) -> list[tuple[str, int | None]]:
    return [
        (d.code, d.line) for d in remarks(code, typescript=typescript) if d.severity == "warning"
    ]


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ("const o = {a: 1};\nwith (o) { a = 2; }", 2),
        ("let x = 1;\n<div>{x}</div>;", 2),
        ("const o = {a: 1};\nif (delete o.a) { }", 2),
        ("const o = {\n  get a() { return 1; },\n};", 2),
    ],
)
def test_statements_not_followed_are_warnings_with_their_line(code: str, line: int) -> None:
    assert ("js.unsupported", line) in warnings_at(code)


def test_an_assignment_to_a_member_of_an_unknown_value_is_a_warning() -> None:
    code = "const target = lookup('box');\ntarget.position.x = 3;\ntarget['y'] = 1;"
    found = warnings_at(code)
    assert ("eval.unknown_target", 2) in found and ("eval.unknown_target", 3) in found


def test_a_call_for_its_effect_on_an_unknown_value_is_a_warning() -> None:
    found = warnings_at("const target = lookup('box');\ntarget.scale.set(2, 2, 2);")
    assert ("eval.unknown_target", 2) in found


def test_a_method_the_engine_does_not_model_is_a_warning() -> None:
    reply = """```js
import * as THREE from 'three';
const scene = new THREE.Scene();
const mesh = new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshStandardMaterial());
mesh.frobnicate(3);
scene.add(mesh);
[1, 2].frobnicate();
new THREE.WebGLRenderer().render(scene, new THREE.PerspectiveCamera());
```"""
    found = [(d.code, d.line) for d in parse(reply, "threejs").diagnostics]
    assert ("eval.unknown_target", 5) in found and ("eval.unknown_target", 7) in found


def test_a_call_for_its_value_on_an_unknown_value_is_quiet() -> None:
    # The value is unknown; whoever needs it reports it (a mesh's size, a position).
    assert warnings_at("const r = Math.random().toFixed(2);") == []


def test_an_element_set_at_an_unknown_index_is_a_warning() -> None:
    found = warnings_at("const xs = [0, 0];\nxs[Math.floor(Math.random() * 2)] = 5;")
    assert ("eval.unknown_target", 2) in found


def test_setting_a_member_of_undefined_is_a_warning() -> None:
    assert ("eval.ignored_assignment", 2) in warnings_at("let o;\no.x = 1;")


def test_properties_of_functions_are_warnings() -> None:
    found = warnings_at("function F() {}\nF.prototype.x = 1;\nF.extra = 2;")
    assert ("eval.unknown_target", 2) in found and ("eval.ignored_assignment", 3) in found


def test_types_and_signatures_are_quiet() -> None:
    code = """
interface Spec { size: number }
type Pair = [number, number];
declare const external: number;
function f(a: number): number;
function f(a: any) { return a; }
abstract class Base { abstract area(): number; }
const s: Spec = { size: 2 } satisfies Spec;
"""
    assert [d for d in remarks(code, typescript=True) if d.severity != "info"] == []


def test_renderer_settings_are_quiet_in_a_three_reply() -> None:
    reply = """```js
import * as THREE from 'three';
const scene = new THREE.Scene();
const renderer = new THREE.WebGLRenderer();
renderer.shadowMap.enabled = true;
renderer.shadowMap.type = THREE.PCFSoftShadowMap;
scene.add(new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshStandardMaterial()));
renderer.render(scene, new THREE.PerspectiveCamera());
```"""
    result = parse(reply, "threejs")
    assert len(result.scene.objects) == 1
    assert [d for d in result.diagnostics if d.code == "eval.unknown_target"] == []


def test_an_unknown_object_moved_in_a_three_reply_is_a_warning() -> None:
    reply = """```js
import * as THREE from 'three';
const scene = new THREE.Scene();
scene.add(new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshStandardMaterial()));
const found = scene.getObjectByProperty('uuid', someId);
found.position.y = 2;
new THREE.WebGLRenderer().render(scene, new THREE.PerspectiveCamera());
```"""
    result = parse(reply, "threejs")
    # Reply line 6 (code line 5): the box three moves is not the one read.
    assert [(d.code, d.line) for d in result.diagnostics if d.severity == "warning"] == [
        ("eval.unknown_target", 6)
    ]
