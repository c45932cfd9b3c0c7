"""Rotations and frames against independent definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spatialbabel import decompose, euler_to_matrix, language_frame, matrix_to_euler
from spatialbabel.frames import (
    EULER_ORDERS,
    axis_angle_to_matrix,
    compose,
    euler_to_quaternion,
    matrix_to_quaternion,
    quaternion_to_matrix,
)

angles = st.tuples(*(st.floats(-179.0, 179.0) for _ in range(3)))


def test_xyz_order_is_rx_ry_rz() -> None:
    rx, ry, rz = (
        axis_angle_to_matrix(a, math.radians(d))
        for a, d in (((1, 0, 0), 10), ((0, 1, 0), 20), ((0, 0, 1), 30))
    )
    assert np.allclose(euler_to_matrix((10, 20, 30)), rx @ ry @ rz)
    assert np.allclose(euler_to_matrix((10, 20, 30), "ZYX"), rz @ ry @ rx)


@pytest.mark.parametrize("order", EULER_ORDERS)
def test_gimbal_lock_is_read_as_three_reads_it(order: str) -> None:
    # At the lock the last angle is set to 0 (three.js's choice); the rotation is kept.
    euler = [0.0, 0.0, 0.0]
    euler["XYZ".index(order[1])] = 90.0
    euler["XYZ".index(order[0])] = 30.0
    matrix = euler_to_matrix(tuple(euler), order)
    back = matrix_to_euler(matrix, order)
    assert back["XYZ".index(order[2])] == 0.0
    assert np.allclose(euler_to_matrix(back, order), matrix, atol=1e-9)


def test_right_handed_rotation_about_y() -> None:
    # +90 degrees about +Y takes +X to -Z (right-handed).
    assert np.allclose(euler_to_matrix((0, 90, 0)) @ [1, 0, 0], [0, 0, -1])


@settings(max_examples=300)
@given(angles, st.sampled_from(EULER_ORDERS))
def test_euler_matrix_round_trip(euler: tuple[float, float, float], order: str) -> None:
    # Within 0.026 degrees of gimbal lock (the middle angle at +-90) three.js, and so this
    # module, folds the first and last angles together: that band is tested below.
    middle = euler["XYZ".index(order[1])]
    assume(abs(abs(middle) - 90.0) > 0.05)
    matrix = euler_to_matrix(euler, order)
    assert np.allclose(euler_to_matrix(matrix_to_euler(matrix, order), order), matrix, atol=1e-9)


@settings(max_examples=300)
@given(angles)
def test_quaternion_round_trip(euler: tuple[float, float, float]) -> None:
    matrix = euler_to_matrix(euler)
    q = matrix_to_quaternion(matrix)
    assert math.isclose(sum(c * c for c in q), 1.0, rel_tol=1e-12)
    assert np.allclose(quaternion_to_matrix(q), matrix, atol=1e-12)
    assert np.allclose(quaternion_to_matrix(euler_to_quaternion(euler)), matrix, atol=1e-12)


def test_blender_frame_maps_z_up_to_y_up() -> None:
    frame = language_frame("blender")
    assert frame.point((1.0, 2.0, 3.0)) == (1.0, 3.0, -2.0)
    assert frame.right_handed


def test_unity_frame_is_a_mirror() -> None:
    frame = language_frame("unity")
    assert frame.point((1.0, 2.0, 3.0)) == (1.0, 2.0, -3.0)
    assert not frame.right_handed


def test_unknown_language_lists_the_known() -> None:
    with pytest.raises(KeyError, match="known: blender, dsl, json"):
        language_frame("vrml")


@settings(max_examples=200)
@given(
    angles,
    st.tuples(*(st.floats(0.05, 5.0) for _ in range(3))),
    st.tuples(*(st.floats(-5, 5) for _ in range(3))),
)
def test_decompose_recovers_trs(
    euler: tuple[float, float, float],
    scale: tuple[float, float, float],
    move: tuple[float, float, float],
) -> None:
    affine = compose(move, euler_to_matrix(euler), scale)
    parts = decompose(affine)
    assert parts.shear < 1e-9 and not parts.mirrored
    assert np.allclose(parts.scale, scale) and np.allclose(parts.translation, move)
    assert np.allclose(compose(parts.translation, parts.rotation, parts.scale), affine, atol=1e-9)


def test_decompose_absorbs_a_mirror_into_local_x() -> None:
    affine = compose((0, 0, 0), np.eye(3), (-2.0, 1.0, 1.0))
    parts = decompose(affine)
    assert parts.mirrored and parts.scale == (2.0, 1.0, 1.0)
    assert np.isclose(np.linalg.det(parts.rotation), 1.0)
