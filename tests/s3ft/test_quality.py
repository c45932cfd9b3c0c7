"""The quality filter: each of the paper's rules, at its boundaries."""

from __future__ import annotations

import pytest

from s3ft.quality import REJECTIONS, mesh_count, position_values, rejections

HEAD = """import * as THREE from 'three';
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(44, 1, 0.1, 100);
camera.position.set(0, 7.78, 7.78);
"""


def mesh(x: float = 0.0, y: float = 0.5, z: float = 0.0) -> str:
    return (
        "{ const m = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), "
        "new THREE.MeshStandardMaterial({ color: 'red' }));\n"
        f"  m.position.set({x}, {y}, {z}); scene.add(m); }}\n"
    )


def test_a_full_program_passes() -> None:
    assert rejections(HEAD + mesh() + mesh(1, 0.5, -2)) == ()


@pytest.mark.parametrize(
    ("missing", "reason"),
    [
        ("const scene = new THREE.Scene();", "no_scene"),
        ("const camera = new THREE.PerspectiveCamera(44, 1, 0.1, 100);", "no_camera"),
    ],
)
def test_each_required_token(missing: str, reason: str) -> None:
    text = (HEAD + mesh()).replace(missing, "")
    assert rejections(text) == (reason,)


def test_material_names_do_not_count_as_a_mesh() -> None:
    # THREE.MeshStandardMaterial contains "THREE.Mesh" as a prefix, not as a word.
    text = HEAD + "const mat = new THREE.MeshStandardMaterial({ color: 'red' });\n"
    assert rejections(text) == ("no_mesh", "mesh_count")


def test_mesh_count_bounds() -> None:
    assert mesh_count(HEAD + mesh() * 50) == 50
    assert rejections(HEAD + mesh() * 50) == ()
    assert rejections(HEAD + mesh() * 51) == ("mesh_count",)
    # A Mesh named but never created with `new THREE.Mesh(` is zero meshes.
    assert rejections(HEAD + "const Mesh = THREE.Mesh;\n") == ("mesh_count",)
    assert mesh_count("new  THREE.Mesh (g, m)") == 1


def test_position_limits_are_inclusive() -> None:
    assert rejections(HEAD + mesh(30, 0.5, -30)) == ()
    assert rejections(HEAD + mesh(30.01, 0.5, 0)) == ("position_range",)
    assert rejections(HEAD + mesh(0, -3e1, 0)) == ()
    assert rejections(HEAD + mesh(0, 0.5, -1e3)) == ("position_range",)


def test_camera_and_light_positions_count_too() -> None:
    text = (HEAD + mesh()).replace(
        "camera.position.set(0, 7.78, 7.78)", "camera.position.set(0, 40, 0)"
    )
    assert rejections(text) == ("position_range",)


def test_expressions_are_left_to_the_parser() -> None:
    assert position_values("m.position.set(x + 40, -.5, 2e1)") == [-0.5, 20.0]
    assert position_values("m.position.set(Math.cos(a) * 50, 0, 0)") == [0.0, 0.0]


def test_every_failed_check_is_listed_in_order() -> None:
    assert rejections("I'm sorry, I cannot do that.") == (
        "no_scene",
        "no_camera",
        "no_mesh",
        "mesh_count",
    )
    assert set(REJECTIONS) >= set(rejections("m.position.set(99, 0, 0)"))
