"""The one reading of vertices every parser shares (``parsers.custom_mesh``): each primitive an
engine generates reads back as that primitive, in any orientation and with its vertices
repeated; affine images keep a primitive; what is no primitive reads as nothing. Held against
open3d's factory vertices (``parsers.open3d.shapes`` generates them as open3d does; a test there
compares them with open3d's own) and, with node, three's real vertices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from audit.three_engine import engine_scene, ensure_three, node_available, run_three, vertex_checks
from parsers import parse
from parsers.custom_mesh import affine_image, shape_from_vertices
from parsers.open3d import shapes
from parsers.shape_words import class_of_word, tokens
from spatialbabel.frames import axis_angle_to_matrix
from spatialbabel.geometry.bounds import primitive_aabb
from tests.engines.fixture_runs import compare_scenes

OPEN3D_CASES = [
    ("create_box", {"width": 1.0, "height": 2.0, "depth": 0.5}),
    ("create_sphere", {"radius": 0.7, "resolution": 20}),
    ("create_cylinder", {"radius": 0.5, "height": 2.0, "resolution": 20, "split": 4}),
    ("create_cone", {"radius": 1.0, "height": 2.0, "resolution": 20, "split": 1}),
    ("create_cone", {"radius": 1.0, "height": 2.0, "resolution": 24, "split": 3}),
    ("create_cone", {"radius": 0.5, "height": 1.0, "resolution": 4, "split": 1}),
    ("create_torus", {"torus_radius": 1.0, "tube_radius": 0.5}),
    (
        "create_torus",
        {
            "torus_radius": 0.9,
            "tube_radius": 0.3,
            "radial_resolution": 31,
            "tubular_resolution": 16,
        },
    ),
]


def _parameters(factory: str, given: dict[str, float]) -> dict[str, float]:
    return {**dict(shapes.PARAMETERS[factory]), **given}


@pytest.mark.parametrize(("factory", "given"), OPEN3D_CASES)
def test_open3d_primitives_read_back_from_their_vertices(
    factory: str, given: dict[str, float]
) -> None:
    primitive = shapes.create(factory, _parameters(factory, given))
    found = shape_from_vertices(primitive.vertices)
    assert found is not None and found.class_name == primitive.class_name
    expected = primitive_aabb(primitive.class_name, primitive.unit_to_local)
    got = primitive_aabb(found.class_name, found.unit_to_local)
    assert np.allclose(got, expected, atol=1e-9)


@pytest.mark.parametrize(("factory", "given"), OPEN3D_CASES)
def test_turned_moved_and_repeated_vertices_read_the_same(
    factory: str, given: dict[str, float]
) -> None:
    primitive = shapes.create(factory, _parameters(factory, given))
    turn = np.eye(4)
    turn[:3, :3] = axis_angle_to_matrix((0.3, 1.0, -0.5), 0.9)
    turn[:3, 3] = (1.5, -2.0, 0.25)
    moved = primitive.vertices @ turn[:3, :3].T + turn[:3, 3]
    # Flat shading repeats every vertex once per face that uses it.
    repeated = np.vstack([moved, moved[::-1], moved[::3]])
    found = shape_from_vertices(repeated)
    assert found is not None and found.class_name == primitive.class_name
    expected = primitive_aabb(primitive.class_name, turn @ primitive.unit_to_local)
    got = primitive_aabb(found.class_name, found.unit_to_local)
    assert np.allclose(got, expected, atol=1e-9)


def test_pyramid_turn_comes_from_its_corners() -> None:
    for turn in (0.0, 15.0, 45.0, 70.0):
        corners = [
            (math.cos(math.radians(turn + 90 * k)), 0.0, math.sin(math.radians(turn + 90 * k)))
            for k in range(4)
        ]
        found = shape_from_vertices([*corners, (0.0, 1.5, 0.0)])
        assert found is not None and found.class_name == "pyramid"
        lo, hi = primitive_aabb("pyramid", found.unit_to_local)
        half = max(abs(math.cos(math.radians(turn + 90 * k))) for k in range(4))
        assert hi[0] == pytest.approx(half) and hi[1] - lo[1] == pytest.approx(1.5)


def test_what_is_no_primitive_reads_as_nothing() -> None:
    rng = np.random.default_rng(4)
    assert shape_from_vertices(rng.uniform(-1, 1, (40, 3))) is None
    tetrahedron = shapes.create("create_tetrahedron", _parameters("create_tetrahedron", {}))
    assert shape_from_vertices(tetrahedron.vertices) is None
    assert shape_from_vertices([(0, 0, 0), (1, 0, 0), (0, 1, 0)]) is None
    # A ring with no apex is flat: no cone, cylinder or sphere.
    ring = [
        (math.cos(a), 0.0, math.sin(a)) for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)
    ]
    assert shape_from_vertices(ring) is None
    # Rings of different radii with no apex: a frustum, none of the six.
    frustum = ring + [(0.5 * x, 1.0, 0.5 * z) for x, _, z in ring]
    assert shape_from_vertices(frustum) is None


def test_affine_image_keeps_a_primitive_and_refuses_the_rest() -> None:
    cone = shapes.create("create_cone", _parameters("create_cone", {"resolution": 4}))
    scaled = cone.vertices * 1.5 + np.array([1.0, 0.0, 0.0])
    image = affine_image(cone.vertices, scaled)
    assert image is not None and np.allclose(image[:3, :3], np.eye(3) * 1.5)
    bent = scaled.copy()
    bent[0] += (0.0, 0.3, 0.0)
    assert affine_image(cone.vertices, bent) is None
    assert affine_image(cone.vertices, scaled[:-1]) is None


def test_words_are_read_as_whole_tokens() -> None:
    assert tokens("BuildTorusMesh") == ["Build", "Torus", "Mesh"]
    assert class_of_word("UVSphere") == "sphere"
    assert class_of_word("four_sided_cone") == "pyramid"
    # 'ring' inside 'String' and 'orb' inside 'Orbit' name nothing.
    assert class_of_word("ParseString") is None and class_of_word("OrbitCamera") is None


@pytest.mark.node
@pytest.mark.skipif(not node_available(), reason="node is not installed")
def test_threes_own_vertices_read_as_threes_primitives() -> None:
    """Each geometry's vertices, made non-indexed (a BufferGeometry three reports vertex by
    vertex), read back as the primitive three's reading of the geometry says."""
    ensure_three()
    geometries = [
        "new THREE.BoxGeometry(1.2, 0.5, 0.8)",
        "new THREE.SphereGeometry(0.6)",
        "new THREE.CylinderGeometry(0.4, 0.4, 1.5)",
        "new THREE.ConeGeometry(0.5, 1.2)",
        "new THREE.ConeGeometry(0.5, 1.2, 4)",
        "new THREE.TorusGeometry(0.6, 0.2)",
        "new THREE.TorusGeometry(0.9, 0.3, 16, 48)",
    ]
    body = "\n".join(
        f"{{ const m = new THREE.Mesh(({g}).toNonIndexed()); m.position.set({i * 2}, 1, 0); m.rotation.set(0.3, {i * 0.4}, 0.1); scene.add(m); }}"
        for i, g in enumerate(geometries)
    )
    code = (
        "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
        + body
        + "\nnew THREE.WebGLRenderer().render(scene);"
    )
    result = run_three(code)
    assert result["errors"] == [] and vertex_checks(result) == []
    assert all(mesh["positions"] for mesh in result["meshes"])
    engine = engine_scene(result, "primitives")
    parsed = parse(f"```js\n{code}\n```", "threejs").scene
    assert [o.class_name for o in engine.objects] == [
        "cube",
        "sphere",
        "cylinder",
        "cone",
        "pyramid",
        "torus",
        "torus",
    ]
    assert compare_scenes(parsed, engine, tolerance=1e-6) == []
