"""TypeScript replies to the three.js prompt: read with the TypeScript grammar, for what runs.

Engine parity for whole replies is in test_threejs_parity (the TypeScript fixtures run in node
as the TypeScript compiler transpiles them); these pin the constructs one by one."""

from __future__ import annotations

import pytest

from parsers import parse
from spatialbabel import Scene

HEAD = "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"


def scene_of(code: str) -> Scene:
    result = parse(f"```ts\n{HEAD}{code}\n```", "threejs")
    assert [d for d in result.diagnostics if d.severity != "info"] == [], result.diagnostics
    assert any(d.code == "js.typescript" for d in result.diagnostics)
    return result.scene


def box_at(x: str) -> str:
    return f"{{ const m = new THREE.Mesh(new THREE.BoxGeometry()); m.position.x = {x}; scene.add(m); }}"


def test_annotations_casts_and_non_null_are_read_as_their_values() -> None:
    scene = scene_of(
        "const xs: number[] = [1, 2];\n"
        "let w!: number; w = 3;\n"
        "const v = (xs[1] as number) + (<number>xs[0])! + (w satisfies number);\n" + box_at("v")
    )
    assert scene.objects[0].position[0] == 6.0


def test_enum_counts_on_and_maps_numbers_back_to_names() -> None:
    scene = scene_of(
        "enum E { A, B = 5, C, D = 'x' }\n"
        "const ok = E.A === 0 && E.C === 6 && E[5] === 'B' && E.D === 'x';\n"
        + box_at("ok ? E.C : -1")
    )
    assert scene.objects[0].position[0] == 6.0


def test_parameter_properties_are_set_after_super() -> None:
    scene = scene_of(
        "class Base { x: number; constructor() { this.x = 1; } }\n"
        "class Placer extends Base {\n"
        "  constructor(private readonly dx: number, public dy = 2) { super(); this.x += this.dx; }\n"
        "}\n"
        "const p = new Placer(4);\n" + box_at("p.x * 10 + p.dy")
    )
    assert scene.objects[0].position[0] == 52.0


def test_type_only_declarations_run_nothing() -> None:
    scene = scene_of(
        "interface Spec { x: number }\n"
        "type Pair = [number, number];\n"
        "declare const window: any;\n"
        "declare function helper(a: number): void;\n"
        "abstract class Shape { abstract make(): THREE.Mesh; build() { return this.make(); } }\n"
        "class Cube extends Shape { make(): THREE.Mesh { return new THREE.Mesh(new THREE.BoxGeometry()); } }\n"
        "const spec: Spec = { x: 1.5 };\n"
        "const m = new Cube().build(); m.position.x = spec.x; scene.add(m);"
    )
    assert [o.position[0] for o in scene.objects] == [1.5]


def test_generic_functions_this_parameters_and_optional_parameters() -> None:
    scene = scene_of(
        "function at<T extends THREE.Object3D>(this: void, o: T, x?: number, ...rest: number[]): T {\n"
        "  o.position.x = (x ?? 0) + rest.length; return o;\n"
        "}\n"
        "scene.add(at<THREE.Mesh>(new THREE.Mesh(new THREE.BoxGeometry()), 2, 7, 7));"
    )
    assert scene.objects[0].position[0] == 4.0


@pytest.mark.parametrize(
    "code",
    [
        "const scene = new THREE.Scene();\nscene.add(new THREE.Mesh(new THREE.BoxGeometry()));",
        "const scene = new THREE.Scene();\nconst a = 1 < 2;\nscene.add(new THREE.Mesh(new THREE.BoxGeometry()));\nconst cut = [1, 2",
    ],
)
def test_javascript_stays_javascript(code: str) -> None:
    result = parse(f"```js\nimport * as THREE from 'three';\n{code}\n```", "threejs")
    assert not any(d.code == "js.typescript" for d in result.diagnostics)
    assert len(result.scene.objects) == 1
