"""three.js's own rotation and matrix arithmetic, replicated operation for operation.

Parity with the real engine is checked to 1e-6, and three does not always do what the
textbook does: it composes matrices from quaternions it never normalises, nudges ``lookAt``
when the view is parallel to ``up``, and converts between Euler angles and quaternions with its
own formulas. So the parser follows three here rather than the hub's normalised helpers.
Quaternions are (x, y, z, w), three's order; matrices are row-major numpy 4x4 arrays.
"""

from __future__ import annotations

import math

import numpy as np

from spatialbabel.frames import Matrix, matrix_to_euler

Quat = tuple[float, float, float, float]
Vec = tuple[float, float, float]

IDENTITY_QUAT: Quat = (0.0, 0.0, 0.0, 1.0)


def quat_from_euler(x: float, y: float, z: float, order: str) -> Quat:
    """``Quaternion.setFromEuler`` (angles in radians)."""
    c1, c2, c3 = math.cos(x / 2), math.cos(y / 2), math.cos(z / 2)
    s1, s2, s3 = math.sin(x / 2), math.sin(y / 2), math.sin(z / 2)
    if order == "YXZ":
        return (
            s1 * c2 * c3 + c1 * s2 * s3,
            c1 * s2 * c3 - s1 * c2 * s3,
            c1 * c2 * s3 - s1 * s2 * c3,
            c1 * c2 * c3 + s1 * s2 * s3,
        )
    if order == "ZXY":
        return (
            s1 * c2 * c3 - c1 * s2 * s3,
            c1 * s2 * c3 + s1 * c2 * s3,
            c1 * c2 * s3 + s1 * s2 * c3,
            c1 * c2 * c3 - s1 * s2 * s3,
        )
    if order == "ZYX":
        return (
            s1 * c2 * c3 - c1 * s2 * s3,
            c1 * s2 * c3 + s1 * c2 * s3,
            c1 * c2 * s3 - s1 * s2 * c3,
            c1 * c2 * c3 + s1 * s2 * s3,
        )
    if order == "YZX":
        return (
            s1 * c2 * c3 + c1 * s2 * s3,
            c1 * s2 * c3 + s1 * c2 * s3,
            c1 * c2 * s3 - s1 * s2 * c3,
            c1 * c2 * c3 - s1 * s2 * s3,
        )
    if order == "XZY":
        return (
            s1 * c2 * c3 - c1 * s2 * s3,
            c1 * s2 * c3 - s1 * c2 * s3,
            c1 * c2 * s3 + s1 * s2 * c3,
            c1 * c2 * c3 + s1 * s2 * s3,
        )
    return (
        s1 * c2 * c3 + c1 * s2 * s3,
        c1 * s2 * c3 - s1 * c2 * s3,
        c1 * c2 * s3 + s1 * s2 * c3,
        c1 * c2 * c3 - s1 * s2 * s3,
    )


def quat_from_axis_angle(axis: Vec, angle: float) -> Quat:
    """``Quaternion.setFromAxisAngle`` (the axis is used as given, as three does)."""
    s = math.sin(angle / 2)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2))


def quat_multiply(a: Quat, b: Quat) -> Quat:
    """``multiplyQuaternions(a, b)``."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def quat_invert(q: Quat) -> Quat:
    """``Quaternion.invert``: the conjugate (three assumes unit length)."""
    return (-q[0], -q[1], -q[2], q[3])


def quat_normalize(q: Quat) -> Quat:
    length = math.sqrt(sum(c * c for c in q))
    if length == 0:
        return IDENTITY_QUAT
    return (q[0] / length, q[1] / length, q[2] / length, q[3] / length)


def quat_from_rotation_matrix(m: Matrix) -> Quat:
    """``Quaternion.setFromRotationMatrix`` (upper 3x3 assumed a pure rotation)."""
    m11, m12, m13 = m[0, 0], m[0, 1], m[0, 2]
    m21, m22, m23 = m[1, 0], m[1, 1], m[1, 2]
    m31, m32, m33 = m[2, 0], m[2, 1], m[2, 2]
    trace = m11 + m22 + m33
    if trace > 0:
        s = 0.5 / math.sqrt(trace + 1.0)
        return ((m32 - m23) * s, (m13 - m31) * s, (m21 - m12) * s, 0.25 / s)
    if m11 > m22 and m11 > m33:
        s = 2.0 * math.sqrt(1.0 + m11 - m22 - m33)
        return (0.25 * s, (m12 + m21) / s, (m13 + m31) / s, (m32 - m23) / s)
    if m22 > m33:
        s = 2.0 * math.sqrt(1.0 + m22 - m11 - m33)
        return ((m12 + m21) / s, 0.25 * s, (m23 + m32) / s, (m13 - m31) / s)
    s = 2.0 * math.sqrt(1.0 + m33 - m11 - m22)
    return ((m13 + m31) / s, (m23 + m32) / s, 0.25 * s, (m21 - m12) / s)


def quat_from_unit_vectors(v_from: Vec, v_to: Vec) -> Quat:
    """``Quaternion.setFromUnitVectors``."""
    r = v_from[0] * v_to[0] + v_from[1] * v_to[1] + v_from[2] * v_to[2] + 1
    if r < 1e-8:
        if abs(v_from[0]) > abs(v_from[2]):
            q: Quat = (-v_from[1], v_from[0], 0.0, 0.0)
        else:
            q = (0.0, -v_from[2], v_from[1], 0.0)
    else:
        q = (
            v_from[1] * v_to[2] - v_from[2] * v_to[1],
            v_from[2] * v_to[0] - v_from[0] * v_to[2],
            v_from[0] * v_to[1] - v_from[1] * v_to[0],
            r,
        )
    return quat_normalize(q)


def rotation_matrix_from_quat(q: Quat) -> Matrix:
    """``Matrix4.makeRotationFromQuaternion`` (compose with zero translation, unit scale)."""
    return compose((0.0, 0.0, 0.0), q, (1.0, 1.0, 1.0))


def compose(position: Vec, q: Quat, scale: Vec) -> Matrix:
    """``Matrix4.compose``: the local matrix of an object."""
    x, y, z, w = q
    x2, y2, z2 = x + x, y + y, z + z
    xx, xy, xz = x * x2, x * y2, x * z2
    yy, yz, zz = y * y2, y * z2, z * z2
    wx, wy, wz = w * x2, w * y2, w * z2
    sx, sy, sz = scale
    return np.array(
        [
            [(1 - (yy + zz)) * sx, (xy - wz) * sy, (xz + wy) * sz, position[0]],
            [(xy + wz) * sx, (1 - (xx + zz)) * sy, (yz - wx) * sz, position[1]],
            [(xz - wy) * sx, (yz + wx) * sy, (1 - (xx + yy)) * sz, position[2]],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def decompose(m: Matrix) -> tuple[Vec, Quat, Vec]:
    """``Matrix4.decompose``: position, quaternion and scale of an affine."""
    position = (float(m[0, 3]), float(m[1, 3]), float(m[2, 3]))
    det = float(np.linalg.det(m[:3, :3]))
    if det == 0:
        return position, IDENTITY_QUAT, (1.0, 1.0, 1.0)
    sx, sy, sz = (float(np.linalg.norm(m[:3, i])) for i in range(3))
    if det < 0:
        sx = -sx
    rotation = np.array(m, dtype=float)
    rotation[:3, 0] /= sx
    rotation[:3, 1] /= sy
    rotation[:3, 2] /= sz
    return position, quat_from_rotation_matrix(rotation), (sx, sy, sz)


def euler_from_quat(q: Quat, order: str) -> Vec:
    """``Euler.setFromQuaternion`` (radians): through three's rotation matrix, as three does."""
    return matrix_to_euler(
        rotation_matrix_from_quat(q)[:3, :3], order, degrees=False, three_compatible=True
    )


def euler_from_matrix(m: Matrix, order: str) -> Vec:
    """``Euler.setFromRotationMatrix`` (radians)."""
    return matrix_to_euler(
        np.asarray(m, dtype=float)[:3, :3], order, degrees=False, three_compatible=True
    )


def euler_matrix(x: float, y: float, z: float, order: str) -> Matrix:
    """``Matrix4.makeRotationFromEuler`` (radians)."""
    return rotation_matrix_from_quat(quat_from_euler(x, y, z, order))


def look_at_matrix(eye: Vec, target: Vec, up: Vec) -> Matrix:
    """``Matrix4.lookAt``: the rotation whose +Z points from ``target`` to ``eye``."""
    z = np.subtract(eye, target).astype(float)
    if float(z @ z) == 0:
        z[2] = 1.0
    z /= np.linalg.norm(z)
    up_v = np.asarray(up, dtype=float)
    x = np.cross(up_v, z)
    if float(x @ x) == 0:
        if abs(up_v[2]) == 1:
            z[0] += 0.0001
        else:
            z[2] += 0.0001
        z /= np.linalg.norm(z)
        x = np.cross(up_v, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2] = x, y, z
    return m


def extract_rotation(m: Matrix) -> Matrix:
    """``Matrix4.extractRotation``: the columns divided by their lengths."""
    result = np.eye(4)
    for i in range(3):
        length = float(np.linalg.norm(m[:3, i]))
        result[:3, i] = m[:3, i] / length if length else 0.0
    return result


def apply_matrix(m: Matrix, v: Vec) -> Vec:
    """``Vector3.applyMatrix4`` (with the projective divide three does)."""
    x, y, z = v
    w = 1 / (m[3, 0] * x + m[3, 1] * y + m[3, 2] * z + m[3, 3])
    return (
        float((m[0, 0] * x + m[0, 1] * y + m[0, 2] * z + m[0, 3]) * w),
        float((m[1, 0] * x + m[1, 1] * y + m[1, 2] * z + m[1, 3]) * w),
        float((m[2, 0] * x + m[2, 1] * y + m[2, 2] * z + m[2, 3]) * w),
    )


def apply_quat(q: Quat, v: Vec) -> Vec:
    """``Vector3.applyQuaternion``."""
    vx, vy, vz = v
    qx, qy, qz, qw = q
    tx = 2 * (qy * vz - qz * vy)
    ty = 2 * (qz * vx - qx * vz)
    tz = 2 * (qx * vy - qy * vx)
    return (
        vx + qw * tx + qy * tz - qz * ty,
        vy + qw * ty + qz * tx - qx * tz,
        vz + qw * tz + qx * ty - qy * tx,
    )
