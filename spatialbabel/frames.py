"""Rotations and frames: Euler (degrees) <-> matrix <-> quaternion, and each language's
native-to-canonical transform.

Canonical frame: Y-up, right-handed, metres; the frontal camera sits on +Z looking at the
origin. Euler angles follow three.js: ``order`` names the matrix product, so ``"XYZ"`` means
``R = Rx @ Ry @ Rz`` (docs/conventions.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Final, Literal

import numpy as np
from numpy.typing import NDArray

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # (w, x, y, z)
Matrix = NDArray[np.float64]
EulerOrder = Literal["XYZ", "YXZ", "ZXY", "ZYX", "YZX", "XZY"]
EULER_ORDERS: Final[tuple[EulerOrder, ...]] = ("XYZ", "YXZ", "ZXY", "ZYX", "YZX", "XZY")


def axis_rotation(axis: str, radians: float) -> Matrix:
    """Right-handed rotation by ``radians`` about ``axis`` ('X', 'Y' or 'Z')."""
    c, s = math.cos(radians), math.sin(radians)
    if axis == "X":
        return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    if axis == "Y":
        return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    if axis == "Z":
        return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    raise ValueError(f"axis must be X, Y or Z, got {axis!r}")


def _axis_rows(axis: str, radians: float) -> tuple[tuple[float, float, float], ...]:
    c, s = math.cos(radians), math.sin(radians)
    if axis == "X":
        return ((1.0, 0.0, 0.0), (0.0, c, -s), (0.0, s, c))
    if axis == "Y":
        return ((c, 0.0, s), (0.0, 1.0, 0.0), (-s, 0.0, c))
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def _product(
    a: tuple[tuple[float, float, float], ...], b: tuple[tuple[float, float, float], ...]
) -> tuple[tuple[float, float, float], ...]:
    (b00, b01, b02), (b10, b11, b12), (b20, b21, b22) = b
    return tuple(
        [
            (
                r0 * b00 + r1 * b10 + r2 * b20,
                r0 * b01 + r1 * b11 + r2 * b21,
                r0 * b02 + r1 * b12 + r2 * b22,
            )
            for r0, r1, r2 in a
        ]
    )


def euler_to_matrix(
    angles: Vec3 | tuple[float, ...], order: str = "XYZ", *, degrees: bool = True
) -> Matrix:
    """Rotation matrix of Euler angles given per axis (x, y, z) in three.js's convention."""
    return np.array(euler_rows(angles, order, degrees=degrees), dtype=float)


def euler_rows(
    angles: Vec3 | tuple[float, ...], order: str = "XYZ", *, degrees: bool = True
) -> tuple[tuple[float, float, float], ...]:
    """``euler_to_matrix`` as rows of plain floats, for a caller stacking many into one array."""
    if order not in EULER_ORDERS:
        raise ValueError(f"unknown Euler order {order!r}; known: {', '.join(EULER_ORDERS)}")
    by_axis = dict(zip("XYZ", angles, strict=True))
    # Plain floats, not numpy: every parsed object and every scored pair takes this path, and
    # building three small arrays costs more than the arithmetic.
    rows = None
    for axis in order:
        angle = float(by_axis[axis])
        factor = _axis_rows(axis, math.radians(angle) if degrees else angle)
        rows = factor if rows is None else _product(rows, factor)
    assert rows is not None
    return rows


# Per three.js order "ABC" (R = Ra Rb Rc): the matrix entry holding sin(b) and its sign; the
# entries (numerator, denominator, each signed) giving a and c away from the lock, and a at the
# lock (c set to 0 there, as three.js does). One row per order replaces six hand-written cases.
_Entry = tuple[float, int, int]
_EULER_ENTRIES: Final[
    dict[str, tuple[_Entry, tuple[_Entry, _Entry], tuple[_Entry, _Entry], tuple[_Entry, _Entry]]]
] = {
    # order: (sin b, first angle, last angle, first angle at the lock)
    "XYZ": ((1, 0, 2), ((-1, 1, 2), (1, 2, 2)), ((-1, 0, 1), (1, 0, 0)), ((1, 2, 1), (1, 1, 1))),
    "YXZ": ((-1, 1, 2), ((1, 0, 2), (1, 2, 2)), ((1, 1, 0), (1, 1, 1)), ((-1, 2, 0), (1, 0, 0))),
    "ZXY": ((1, 2, 1), ((-1, 0, 1), (1, 1, 1)), ((-1, 2, 0), (1, 2, 2)), ((1, 1, 0), (1, 0, 0))),
    "ZYX": ((-1, 2, 0), ((1, 1, 0), (1, 0, 0)), ((1, 2, 1), (1, 2, 2)), ((-1, 0, 1), (1, 1, 1))),
    "YZX": ((1, 1, 0), ((-1, 2, 0), (1, 0, 0)), ((-1, 1, 2), (1, 1, 1)), ((1, 0, 2), (1, 2, 2))),
    "XZY": ((-1, 0, 1), ((1, 2, 1), (1, 1, 1)), ((1, 0, 2), (1, 0, 0)), ((-1, 1, 2), (1, 2, 2))),
}
# three.js calls |sin b| >= 0.9999999 the lock: within 0.026 degrees of it the last angle is
# dropped and the rotation is off by up to 4.6e-4. Code that reads ``rotation`` back in three
# sees exactly that, so the three.js engine asks for it; everything else gets the exact answer.
_THREE_LOCK = 0.9999999
# Exact mode: the lock only where cos b is below rounding noise. Near it the first angle, read
# from entries of size cos b, carries a relative error of eps / cos b; the last angle is then fitted
# to what remains of the rotation, which cancels that error (the two axes are nearly parallel).
_EXACT_LOCK = 1e-12
# Where a rotation about one axis keeps its sine and cosine (as in ``_axis_rows``).
_SINGLE_AXIS: Final = {"X": ((2, 1), (1, 1)), "Y": ((0, 2), (0, 0)), "Z": ((1, 0), (0, 0))}
_NEAR_LOCK = 1e-4


def _wrap(radians: float) -> float:
    """An angle in (-pi, pi]."""
    wrapped = math.remainder(radians, 2.0 * math.pi)
    return math.pi if wrapped == -math.pi else wrapped


def matrix_to_euler(
    matrix: Matrix, order: str = "XYZ", *, degrees: bool = True, three_compatible: bool = False
) -> Vec3:
    """Euler angles (x, y, z) of a rotation matrix in three.js's convention.

    The angles reproduce the matrix to rounding everywhere, gimbal lock included (there the last
    angle is 0). ``three_compatible`` instead gives exactly what three.js's
    ``Euler.setFromRotationMatrix`` gives, lossy band near the lock and all.
    """
    entries = _EULER_ENTRIES.get(order)
    if entries is None:
        raise ValueError(f"unknown Euler order {order!r}; known: {', '.join(EULER_ORDERS)}")
    m = np.asarray(matrix, dtype=float).tolist()
    (ss, si, sj), first, last, locked = entries

    def angle(pair: tuple[_Entry, _Entry]) -> float:
        (a, ai, aj), (b, bi, bj) = pair
        return math.atan2(a * m[ai][aj], b * m[bi][bj])

    sine = ss * m[si][sj]
    (_, ci, cj), (_, di, dj) = last
    cosine = math.hypot(m[ci][cj], m[di][dj])
    if three_compatible:
        middle = math.asin(min(max(sine, -1.0), 1.0))
        at_lock = abs(sine) >= _THREE_LOCK
    else:
        middle = math.atan2(sine, cosine)
        at_lock = cosine < _EXACT_LOCK
    if at_lock:
        # The middle angle is the lock itself: cos b's sign is lost in noise, and atan2 against
        # |cos b| would put a b just past the lock on the wrong side, doubling the error.
        a, c = angle(locked), 0.0
        if not three_compatible:
            middle = math.copysign(math.pi / 2, sine)
    else:
        a = angle(first)
        if three_compatible or cosine > _NEAR_LOCK:
            c = angle(last)
        else:
            undo = _product(_axis_rows(order[1], -middle), _axis_rows(order[0], -a))
            rest = _product(
                undo,
                (
                    (m[0][0], m[0][1], m[0][2]),
                    (m[1][0], m[1][1], m[1][2]),
                    (m[2][0], m[2][1], m[2][2]),
                ),
            )
            (si_, sj_), (ci_, cj_) = _SINGLE_AXIS[order[2]]
            c = math.atan2(rest[si_][sj_], rest[ci_][cj_])
            # (a + pi, pi - b, c + pi) is the same rotation. Here, where input noise can decide
            # a and c, keep the smaller pair, as Blender's own matrix-to-Euler does.
            flip_a, flip_c = _wrap(a + math.pi), _wrap(c + math.pi)
            if abs(flip_a) + abs(flip_c) < abs(a) + abs(c):
                a, middle, c = flip_a, _wrap(math.copysign(math.pi, middle) - middle), flip_c
    by_axis = {order[0]: a, order[1]: middle, order[2]: c}
    x, y, z = by_axis["X"], by_axis["Y"], by_axis["Z"]
    if degrees:
        x, y, z = math.degrees(x), math.degrees(y), math.degrees(z)
    # + 0.0 turns a -0.0 into 0.0, which would otherwise show in printed scenes.
    return (x + 0.0, y + 0.0, z + 0.0)


def quaternion_to_matrix(q: Quat | tuple[float, ...]) -> Matrix:
    """Rotation matrix of a quaternion (w, x, y, z); it need not be normalised."""
    w, x, y, z = (float(c) for c in q)
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    if norm == 0.0:
        raise ValueError("quaternion has zero length")
    w, x, y, z = w / norm, x / norm, y / norm, z / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quaternion(matrix: Matrix) -> Quat:
    """Unit quaternion (w, x, y, z) of a rotation matrix, with w >= 0."""
    m = np.asarray(matrix, dtype=float)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = 0.5 / math.sqrt(trace + 1.0)
        w, x = 0.25 / s, (m[2, 1] - m[1, 2]) * s
        y, z = (m[0, 2] - m[2, 0]) * s, (m[1, 0] - m[0, 1]) * s
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        w, x = (m[2, 1] - m[1, 2]) / s, 0.25 * s
        y, z = (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        w, x = (m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s
        y, z = 0.25 * s, (m[1, 2] + m[2, 1]) / s
    else:
        s = 2.0 * math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        w, x = (m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s
        y, z = (m[1, 2] + m[2, 1]) / s, 0.25 * s
    if w < 0:
        w, x, y, z = -w, -x, -y, -z
    return (w, x, y, z)


def euler_to_quaternion(angles: Vec3, order: str = "XYZ", *, degrees: bool = True) -> Quat:
    return matrix_to_quaternion(euler_to_matrix(angles, order, degrees=degrees))


def quaternion_to_euler(q: Quat, order: str = "XYZ", *, degrees: bool = True) -> Vec3:
    return matrix_to_euler(quaternion_to_matrix(q), order, degrees=degrees)


def axis_angle_to_matrix(axis: Vec3, radians: float) -> Matrix:
    """Rotation by ``radians`` about an arbitrary axis (Rodrigues)."""
    a = np.asarray(axis, dtype=float)
    norm = float(np.linalg.norm(a))
    if norm == 0.0:
        raise ValueError("rotation axis has zero length")
    x, y, z = a / norm
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.eye(3) + math.sin(radians) * k + (1 - math.cos(radians)) * (k @ k)


def look_at_rotation(eye: Vec3, target: Vec3, up: Vec3 = (0.0, 1.0, 0.0)) -> Matrix:
    """Rotation whose -Z looks from ``eye`` to ``target`` with +Y towards ``up`` (OpenGL camera)."""
    forward = np.asarray(target, float) - np.asarray(eye, float)
    if np.linalg.norm(forward) == 0.0:
        raise ValueError("eye and target coincide")
    z_axis = -forward / np.linalg.norm(forward)
    x_axis = np.cross(np.asarray(up, float), z_axis)
    if np.linalg.norm(x_axis) < 1e-12:
        x_axis = np.cross(np.array([0.0, 0.0, 1.0]), z_axis)
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(z_axis, x_axis)
    return np.column_stack([x_axis, y_axis, z_axis])


def compose(translation: Vec3 | Matrix, rotation: Matrix, scale: Vec3 | Matrix) -> Matrix:
    """4x4 affine ``T @ R @ S``."""
    affine = np.eye(4)
    affine[:3, :3] = np.asarray(rotation, float) @ np.diag(np.asarray(scale, float))
    affine[:3, 3] = np.asarray(translation, float)
    return affine


_IDENTITY3: Final = np.eye(3)
_IDENTITY3.flags.writeable = False


@dataclass(frozen=True)
class Decomposition:
    """``T @ R @ S`` parts of an affine; ``shear`` is how far it is from any such product
    (0 for a pure TRS, largest off-diagonal of the normalised Gram matrix otherwise)."""

    translation: Vec3
    rotation: Matrix
    scale: Vec3
    shear: float
    mirrored: bool


def decompose(affine: Matrix) -> Decomposition:
    """Split a 4x4 (or 3x4) affine into translation, proper rotation and positive scale.

    A mirror (negative determinant) is absorbed by flipping the local x axis, which leaves
    every unit primitive unchanged: all six are symmetric in their local x.
    """
    m = np.asarray(affine, dtype=float)
    orthogonal = _decompose_orthogonal(m.tolist())
    if orthogonal is not None:
        return orthogonal
    linear = m[:3, :3]
    translation = (float(m[0, 3]), float(m[1, 3]), float(m[2, 3]))
    # Column norms as np.linalg.norm(linear, axis=0) computes them, without its dispatch
    # (every parsed object is decomposed).
    scale = np.sqrt(np.add.reduce(linear * linear, axis=0))
    safe = np.where(scale > 1e-12, scale, 1.0)
    columns = linear / safe
    mirrored = bool(np.linalg.det(linear) < 0)
    if mirrored:
        columns[:, 0] = -columns[:, 0]
    gram = columns.T @ columns
    shear = float(np.abs(gram - _IDENTITY3).max())
    degenerate = bool((scale <= 1e-12).any())
    if shear > 1e-9 or degenerate:
        # Nearest rotation (polar decomposition) when the axes are not orthogonal.
        u, _, vt = np.linalg.svd(columns)
        rotation = u @ vt
        if np.linalg.det(rotation) < 0:
            u[:, -1] = -u[:, -1]
            rotation = u @ vt
    else:
        rotation = columns
    return Decomposition(
        translation, rotation, (float(scale[0]), float(scale[1]), float(scale[2])), shear, mirrored
    )


#: ``_decompose_orthogonal`` answers only when its shear is below this (far below the 1e-9 at
#: which ``decompose`` looks for the nearest rotation), and its determinant above it.
_CLEARLY_ORTHOGONAL = 1e-10


def _decompose_orthogonal(m: list[list[float]]) -> Decomposition | None:
    """``decompose`` of an affine whose axes are orthogonal and non-zero (every object a
    parser reads), in plain floats: numpy's per-call overhead dominates 3x3 work, and every
    parsed object takes this path. None for anything else, left to the general path.

    Each value is the one the general path computes, to the last bit: the column norms and the
    divisions are the same IEEE operations in the same order; the determinant's sign and the
    shear are only compared against thresholds far outside their rounding (the shear returned
    differs from numpy's by rounding, below ``_CLEARLY_ORTHOGONAL``)."""
    (a, b, c, tx), (d, e, f, ty), (g, h, i, tz) = m[0], m[1], m[2]
    # Column norms summed down the rows, as np.add.reduce(linear * linear, axis=0) does.
    sx = math.sqrt(a * a + d * d + g * g)
    sy = math.sqrt(b * b + e * e + h * h)
    sz = math.sqrt(c * c + f * f + i * i)
    if not (1e-12 < sx < math.inf and 1e-12 < sy < math.inf and 1e-12 < sz < math.inf):
        return None  # a degenerate or non-finite axis
    a, d, g = a / sx, d / sx, g / sx
    b, e, h = b / sy, e / sy, h / sy
    c, f, i = c / sz, f / sz, i / sz
    # The columns are unit length, so this determinant lies in [-1, 1] with an error of a few
    # ulps: past the margin its sign is the one np.linalg.det gives for the unnormalised matrix.
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if abs(det) < _CLEARLY_ORTHOGONAL:
        return None
    mirrored = det < 0
    if mirrored:
        a, d, g = -a, -d, -g
    shear = max(
        abs(a * a + d * d + g * g - 1.0),
        abs(b * b + e * e + h * h - 1.0),
        abs(c * c + f * f + i * i - 1.0),
        abs(a * b + d * e + g * h),
        abs(a * c + d * f + g * i),
        abs(b * c + e * f + h * i),
    )
    if shear >= _CLEARLY_ORTHOGONAL:
        return None
    rotation = np.array([[a, b, c], [d, e, f], [g, h, i]])
    return Decomposition((tx, ty, tz), rotation, (sx, sy, sz), shear, mirrored)


@dataclass(frozen=True)
class NativeFrame:
    """How a language's engine frame maps onto the canonical one: ``canonical = to_canonical @ native``."""

    language: str
    description: str
    to_canonical: Matrix

    @property
    def right_handed(self) -> bool:
        return bool(np.linalg.det(self.to_canonical) > 0)

    def point(self, native: Vec3 | Matrix) -> Vec3:
        p = self.to_canonical @ np.asarray(native, dtype=float)
        return (float(p[0]), float(p[1]), float(p[2]))

    @cached_property
    def _change(self) -> Matrix:
        """``to_canonical`` as a 4x4 affine (built once: every parsed object goes through it)."""
        change = np.eye(4)
        change[:3, :3] = self.to_canonical
        change.flags.writeable = False
        return change

    def affine(self, native: Matrix) -> Matrix:
        """A native world affine expressed in the canonical frame."""
        return self._change @ np.asarray(native, dtype=float)

    def rotation(self, native: Matrix) -> Matrix:
        """A rotation given in the native frame, as the same physical rotation in canonical."""
        c = self.to_canonical
        return c @ np.asarray(native, dtype=float) @ c.T


_IDENTITY = np.eye(3)
_BLENDER = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
_UNITY = np.diag([1.0, 1.0, -1.0])

LANGUAGE_FRAMES: Final[dict[str, NativeFrame]] = {
    "threejs": NativeFrame("threejs", "Y-up right-handed: canonical = native", _IDENTITY),
    "open3d": NativeFrame("open3d", "Y-up right-handed: canonical = native", _IDENTITY),
    "json": NativeFrame("json", "canonical", _IDENTITY),
    "dsl": NativeFrame("dsl", "canonical", _IDENTITY),
    "blender": NativeFrame("blender", "Z-up right-handed: canonical = (x, z, -y)", _BLENDER),
    "unity": NativeFrame("unity", "Y-up left-handed: canonical = (x, y, -z)", _UNITY),
}

#: Any Z-up right-handed world (Blender's, Hypersim's, most modelling tools' exports).
Z_UP_FRAME: Final = NativeFrame("z-up", "Z-up right-handed: canonical = (x, z, -y)", _BLENDER)


def language_frame(language: str) -> NativeFrame:
    try:
        return LANGUAGE_FRAMES[language]
    except KeyError:
        known = ", ".join(sorted(LANGUAGE_FRAMES))
        raise KeyError(f"no frame for language {language!r}; known: {known}") from None
