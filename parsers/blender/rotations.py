"""Blender's rotation conventions, as plain matrix arithmetic (no mathutils needed).

An Euler rotation mode names the order the axes are applied in: ``'XYZ'`` turns about X first,
then Y, then Z, so its matrix is ``Rz @ Ry @ Rx`` (the reverse of three.js's reading of the same
letters). Quaternions are (w, x, y, z); axis-angle is (angle, x, y, z).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from spatialbabel.frames import (
    Matrix,
    axis_angle_to_matrix,
    axis_rotation,
    matrix_to_euler,
    matrix_to_quaternion,
    quaternion_to_matrix,
)

EULER_MODES = ("XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX")


def euler_matrix(angles: Sequence[float], order: str = "XYZ") -> Matrix:
    """3x3 matrix of Blender Euler angles (radians) in rotation mode ``order``."""
    mode = order if order in EULER_MODES else "XYZ"
    by_axis = dict(zip("XYZ", angles, strict=False))
    # The first axis's matrix as it is, not multiplied onto the identity: the products that
    # follow give the same values (a product's zeros come out +0.0 whatever the signs of the
    # zeros that went in).
    result = axis_rotation(mode[0], float(by_axis.get(mode[0], 0.0)))
    for axis in mode[1:]:
        result = axis_rotation(axis, float(by_axis.get(axis, 0.0))) @ result
    return result


def matrix_to_blender_euler(matrix: Matrix, order: str = "XYZ") -> tuple[float, float, float]:
    """Blender Euler angles (radians, per axis x, y, z) of a rotation in mode ``order``."""
    mode = order if order in EULER_MODES else "XYZ"
    # Blender's mode "ABC" is R = Rc Rb Ra, which is three.js's order "CBA".
    return matrix_to_euler(np.asarray(matrix, dtype=float), mode[::-1], degrees=False)


def quaternion_matrix(q: Sequence[float]) -> Matrix:
    """3x3 matrix of a quaternion (w, x, y, z); the identity for a zero quaternion."""
    if not any(q):
        return np.eye(3)
    return quaternion_to_matrix(tuple(float(c) for c in q[:4]))


def axis_angle_matrix(value: Sequence[float]) -> Matrix:
    """3x3 matrix of Blender's ``rotation_axis_angle`` (angle, x, y, z)."""
    angle, *axis = (float(c) for c in value[:4])
    if not any(axis):
        return np.eye(3)
    return axis_angle_to_matrix((axis[0], axis[1], axis[2]), angle)


def matrix_to_quaternion_wxyz(matrix: Matrix) -> tuple[float, float, float, float]:
    w, x, y, z = matrix_to_quaternion(np.asarray(matrix, dtype=float))
    return (w, x, y, z)


def trs(location: Sequence[float], rotation: Matrix, scale: Sequence[float]) -> Matrix:
    """4x4 ``T @ R @ S``."""
    m = np.eye(4)
    m[:3, :3] = np.asarray(rotation, dtype=float) @ np.diag([float(s) for s in scale[:3]])
    m[:3, 3] = [float(c) for c in location[:3]]
    return m


def decompose_trs(matrix: Matrix) -> tuple[list[float], Matrix, list[float]]:
    """Location, rotation and (positive) scale of a 4x4 affine, as Blender's ``decompose``."""
    m = np.asarray(matrix, dtype=float)
    linear = m[:3, :3]
    scale = np.linalg.norm(linear, axis=0)
    safe = np.where(scale > 1e-12, scale, 1.0)
    rotation = linear / safe
    if np.linalg.det(rotation) < 0:
        scale[0] = -scale[0]
        rotation[:, 0] = -rotation[:, 0]
    return [float(c) for c in m[:3, 3]], rotation, [float(s) for s in scale]


def is_finite(values: Sequence[float]) -> bool:
    return all(math.isfinite(v) for v in values)
