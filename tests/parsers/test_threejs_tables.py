"""The three.js members registered by name (``VECTOR3_METHODS``, ``MATRIX4_METHODS``,
``OBJECT3D_METHODS``): each works alone, and each name is a member three itself has.

The names are checked against the ``three`` npm package: node lists every member on the
prototype chain of ``Vector3``, ``Matrix4`` and ``Object3D``, so a misspelt or invented
registration (a method three does not have, which a model's code could never call on a real
object) fails here.
"""

from __future__ import annotations

import json
import math
import subprocess

import numpy as np
import pytest

from audit.three_engine import ensure_three, node_available, node_modules
from parsers.evaluator import Record, Unknown
from parsers.threejs.matrices import MATRIX4_METHODS, new_matrix
from parsers.threejs.object3d import OBJECT3D_METHODS, descendants
from parsers.threejs.records import ThreeRecords
from parsers.threejs.vectors import VECTOR3_METHODS


def vector(x: float, y: float, z: float) -> Record:
    return ThreeRecords.vector3(x, y, z)


def xyz(record: Record) -> tuple[object, ...]:
    return tuple(record.fields[c] for c in "xyz")


# Vector and matrix methods need nothing of an engine: a None context is never reached.
def test_vector_arithmetic_alone() -> None:
    v = vector(1.0, 2.0, 3.0)
    VECTOR3_METHODS["add"](None, v, [vector(1.0, 1.0, 1.0)], {})  # type: ignore[arg-type]
    assert xyz(v) == (2.0, 3.0, 4.0)
    VECTOR3_METHODS["multiplyScalar"](None, v, [0.5], {})  # type: ignore[arg-type]
    assert xyz(v) == (1.0, 1.5, 2.0)
    VECTOR3_METHODS["crossVectors"](None, v, [vector(1, 0, 0), vector(0, 1, 0)], {})  # type: ignore[arg-type]
    assert xyz(v) == (0.0, 0.0, 1.0)
    length = VECTOR3_METHODS["length"](None, vector(3.0, 4.0, 0.0), [], {})  # type: ignore[arg-type]
    assert length == 5.0


def test_vector_method_of_an_unknown_makes_the_vector_unknown() -> None:
    v = vector(1.0, 2.0, 3.0)
    VECTOR3_METHODS["sub"](None, v, [Unknown("a random offset")], {})  # type: ignore[arg-type]
    assert all(isinstance(c, Unknown) and c.reason == "a random offset" for c in xyz(v))
    VECTOR3_METHODS["divideScalar"](None, w := vector(1.0, 1.0, 1.0), [0.0], {})  # type: ignore[arg-type]
    assert all(isinstance(c, Unknown) for c in xyz(w))


def test_matrix_methods_alone() -> None:
    m = ThreeRecords.matrix4(np.diag([2.0, 4.0, 8.0, 1.0]))
    MATRIX4_METHODS["invert"](None, m, [], {})  # type: ignore[arg-type]
    assert np.allclose(m.native, np.diag([0.5, 0.25, 0.125, 1.0]))
    assert MATRIX4_METHODS["determinant"](None, m, [], {}) == pytest.approx(1 / 64)  # type: ignore[arg-type]
    turn = ThreeRecords.matrix4()
    MATRIX4_METHODS["makeRotationZ"](_Numbers(), turn, [math.pi / 2], {})  # type: ignore[arg-type]
    assert np.allclose(turn.native[:3, :3] @ [1.0, 0.0, 0.0], [0.0, 1.0, 0.0])


def test_a_matrix_from_sixteen_elements_is_row_major() -> None:
    elements = [float(i) for i in range(16)]
    m = new_matrix(_Numbers(), elements, {})  # type: ignore[arg-type]
    assert m.native[0, 1] == 1.0 and m.native[1, 0] == 4.0


def test_descendants_visit_depth_first_once() -> None:
    root, a, b, c = (Record("Group", {"children": []}) for _ in range(4))
    root.fields["children"] = [a, b]
    a.fields["children"] = [c, root]  # a cycle is visited once
    assert descendants(root) == [root, a, c, b]


class _Numbers:
    """The part of a call context the number-reading methods use."""

    def number(self, value: object, what: str, default: float, code: str = "") -> float:
        return float(value)  # type: ignore[arg-type]

    def optional_number(self, value: object, what: str, code: str = "") -> float:
        return float(value)  # type: ignore[arg-type]


_PROTOTYPE_MEMBERS = """
import * as THREE from 'three';
const names = (cls) => {
  const found = new Set();
  for (let p = cls.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) found.add(name);
  }
  return [...found];
};
console.log(JSON.stringify({
  Vector3: names(THREE.Vector3), Matrix4: names(THREE.Matrix4), Object3D: names(THREE.Object3D),
}));
"""


@pytest.mark.node
@pytest.mark.skipif(not node_available(), reason="node is not installed")
def test_every_registered_name_is_a_member_three_has() -> None:
    ensure_three()
    modules = node_modules()
    assert modules is not None
    done = subprocess.run(
        ["node", "--input-type=module", "-e", _PROTOTYPE_MEMBERS],
        capture_output=True,
        text=True,
        check=True,
        cwd=modules.parent,
        timeout=60,
    )
    members = json.loads(done.stdout)
    for kind, table in (
        ("Vector3", VECTOR3_METHODS),
        ("Matrix4", MATRIX4_METHODS),
        ("Object3D", OBJECT3D_METHODS),
    ):
        invented = sorted(set(table) - set(members[kind]))
        assert invented == [], f"{kind}: not members of three's {kind}: {invented}"
