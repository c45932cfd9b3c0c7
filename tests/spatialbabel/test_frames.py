"""Rotations and frames against independent definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
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


@pytest.mark.parametrize("three_compatible", [False, True])
@pytest.mark.parametrize("order", EULER_ORDERS)
def test_gimbal_lock_sets_the_last_angle_to_zero(order: str, three_compatible: bool) -> None:
    # At the lock the last angle is set to 0 (three.js's choice); the rotation is kept.
    euler = [0.0, 0.0, 0.0]
    euler["XYZ".index(order[1])] = 90.0
    euler["XYZ".index(order[0])] = 30.0
    matrix = euler_to_matrix(tuple(euler), order)
    back = matrix_to_euler(matrix, order, three_compatible=three_compatible)
    assert back["XYZ".index(order[2])] == 0.0
    assert np.allclose(euler_to_matrix(back, order), matrix, atol=1e-9)


def test_right_handed_rotation_about_y() -> None:
    # +90 degrees about +Y takes +X to -Z (right-handed).
    assert np.allclose(euler_to_matrix((0, 90, 0)) @ [1, 0, 0], [0, 0, -1])


# Middle angles crowding the lock at +-90 degrees, where a naive asin loses the last angle.
near_lock = st.one_of(
    st.floats(-179.0, 179.0),
    st.sampled_from([-90.0, 90.0]).flatmap(
        lambda lock: st.floats(-0.05, 0.05).map(lambda offset: lock + offset)
    ),
)


@settings(max_examples=500)
@given(
    st.tuples(st.floats(-179.0, 179.0), near_lock, st.floats(-179.0, 179.0)),
    st.sampled_from(EULER_ORDERS),
)
# Just past the lock: cos b = -8.4e-13, below the exact mode's lock threshold.
@example((0.0, 90.00000000004829, 0.0), "XYZ")
def test_euler_matrix_round_trip(first_middle_last: tuple[float, float, float], order: str) -> None:
    euler = [0.0, 0.0, 0.0]
    for axis, value in zip(order, first_middle_last, strict=True):
        euler["XYZ".index(axis)] = value
    matrix = euler_to_matrix(tuple(euler), order)
    back = matrix_to_euler(matrix, order)
    assert np.allclose(euler_to_matrix(back, order), matrix, atol=1e-12, rtol=0)


@pytest.mark.parametrize("order", EULER_ORDERS)
def test_three_compatible_mode_keeps_three_lossy_band(order: str) -> None:
    # three.js treats |sin| >= 0.9999999 as the lock, within 0.026 degrees of +-90: the last
    # angle is dropped there. Code reading ``rotation`` back in three sees that loss.
    euler = [0.0, 0.0, 0.0]
    euler["XYZ".index(order[0])] = 30.0
    euler["XYZ".index(order[1])] = 89.99
    euler["XYZ".index(order[2])] = 0.5
    matrix = euler_to_matrix(tuple(euler), order)
    three = matrix_to_euler(matrix, order, three_compatible=True)
    assert three["XYZ".index(order[2])] == 0.0
    assert not np.allclose(euler_to_matrix(three, order), matrix, atol=1e-6)
    exact = matrix_to_euler(matrix, order)
    assert np.allclose(exact, euler, atol=1e-6)
    # Away from the band the two modes agree.
    euler["XYZ".index(order[1])] = 60.0
    matrix = euler_to_matrix(tuple(euler), order)
    assert np.allclose(
        matrix_to_euler(matrix, order, three_compatible=True),
        matrix_to_euler(matrix, order),
        atol=1e-12,
    )


def test_no_negative_zero_angles() -> None:
    angles = matrix_to_euler(euler_to_matrix((0.0, -0.0, 0.0)))
    assert all(math.copysign(1.0, a) == 1.0 for a in angles)


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


@pytest.mark.parametrize("first", [0.0, 30.0, -120.0, 180.0])
@pytest.mark.parametrize("order", EULER_ORDERS)
def test_single_precision_lock_reads_as_the_lock(order: str, first: float) -> None:
    # Blender keeps matrices in float32: a quarter turn comes back a hair off the lock.
    euler = [0.0, 0.0, 0.0]
    euler["XYZ".index(order[0])] = first
    euler["XYZ".index(order[1])] = 90.0
    matrix = euler_to_matrix(tuple(euler), order).astype(np.float32).astype(np.float64)
    back = matrix_to_euler(decompose(np.pad(matrix, ((0, 1), (0, 1)))).rotation, order)
    assert np.allclose(back, euler, atol=1e-4)


@pytest.mark.parametrize("order", EULER_ORDERS)
def test_near_the_lock_the_smaller_of_two_equal_answers_wins(order: str) -> None:
    # (a, b, c) and (a + 180, 180 - b, c + 180) are one rotation; near the lock input noise can
    # land on the one with first and last angles at +-180, which reads as a wild turn.
    euler = [0.0, 0.0, 0.0]
    euler["XYZ".index(order[0])] = -180.0
    euler["XYZ".index(order[1])] = 89.9999975
    euler["XYZ".index(order[2])] = 180.0
    matrix = euler_to_matrix(tuple(euler), order)
    back = matrix_to_euler(matrix, order)
    want = [0.0, 0.0, 0.0]
    want["XYZ".index(order[1])] = 90.0000025
    assert np.allclose(back, want, atol=1e-6)
    assert np.allclose(euler_to_matrix(back, order), matrix, atol=1e-12)
