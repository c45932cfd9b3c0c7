"""Calls of Open3D helpers whose body is missing (cut off, a stub, never written).

``make_torus(center=[0, 0.2, 0], major=0.6, minor=0.2, color=[1, 0, 0])`` with no body to run
is read as the mesh it asks for (``parsers.helper_calls`` reads what the call carries): the unit
shape of the class the call names, upright in open3d's Y-up frame, moved to the position,
turned by a rotation matrix or Euler angles (radians, ``get_rotation_matrix_from_xyz``'s), and
painted. Such a mesh counts as shown: the helper would have handed it on to be drawn. A helper
that names a shape but no position gives the mesh alone, shown only if the code shows it.
"""

from __future__ import annotations

import numpy as np

from parsers.evaluator import HelperCall, Record, Unknown, Value, is_number
from parsers.evaluator.python import numpy_lib as npl
from parsers.helper_calls import HelperReading, ValueReaders, Vec3
from spatialbabel.colors import color_from_text
from spatialbabel.frames import Matrix
from spatialbabel.palette import RGB

#: The corners of the canonical unit box: a stub's vertices (their mean is its centre).
_CORNERS = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])


def _array(value: Value) -> np.ndarray | None:  # type: ignore[type-arg]
    if isinstance(value, Record) and value.kind != npl.KIND:
        return None
    if not (isinstance(value, list | tuple | Record) or is_number(value)):
        return None
    array = npl.to_numpy(value)
    return None if isinstance(array, Unknown) else array


def _vector(value: Value) -> Vec3 | None:
    array = _array(value)
    if array is None or array.shape != (3,) or not np.all(np.isfinite(array)):
        return None
    return (float(array[0]), float(array[1]), float(array[2]))


def _rotation(value: Value) -> bool:
    array = _array(value)
    return array is not None and array.shape == (3, 3)


READERS = ValueReaders(
    vector=_vector,
    rotation=_rotation,
    colour=lambda v: isinstance(v, str) and color_from_text(v) is not None,
    scene_object=lambda v: isinstance(v, Record) and v.kind == "TriangleMesh",
    colour_triples=True,
)


def stub_colour(value: Value) -> RGB | None:
    """The sRGB a stub is painted: a colour name, or three numbers in [0, 1]."""
    if isinstance(value, str):
        return color_from_text(value)
    vector = _vector(value)
    if vector is None:
        return None
    r, g, b = (min(max(c, 0.0), 1.0) for c in vector)
    return (r, g, b)


def stub_placement(reading: HelperReading, rotation_of: object) -> tuple[Matrix, Matrix, Matrix]:
    """``(vertices, unit_to_local, affine)`` of the stub's part: the unit box's corners, the
    unit primitive scaled to the call's extents, and the move and turn the call asks for."""
    scale = np.diag([*reading.unit_scale(), 1.0])
    affine = np.eye(4)
    turn = _array(reading.rotation)
    if turn is not None and turn.shape == (3, 3):
        affine[:3, :3] = turn
    elif turn is not None and turn.shape == (3,) and callable(rotation_of):
        affine[:3, :3] = rotation_of([float(a) for a in turn])
    if reading.position is not None:
        affine[:3, 3] = reading.position
    vertices = _CORNERS @ scale[:3, :3].T
    return vertices, scale, affine


__all__ = ["READERS", "HelperCall", "stub_colour", "stub_placement"]
