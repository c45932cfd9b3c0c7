"""Calls of Blender helpers whose body is missing (cut off, a stub, never written).

``add_torus(location=(0, 0, 0.2), major_radius=0.6, minor_radius=0.2, color=(1, 0, 0))``
with no body to run is read as the object it asks for (``parsers.helper_calls`` reads what the
call carries): a mesh object, linked into the scene, whose mesh is the unit shape of the class
the call names standing on Blender's ground (its axis along +Z), at the location, turned by
Euler angles (radians) or a mathutils rotation, coloured (the colour given as numbers is
Blender's linear colour, as a material's would be; a colour name is sRGB).
"""

from __future__ import annotations

import numpy as np

from parsers.blender.shapes import MeshShape
from parsers.blender.vectors import SEQUENCE_KINDS, matrix_of
from parsers.evaluator import Record, Unknown, Value, is_number
from parsers.helper_calls import HelperReading, ValueReaders, Vec3
from spatialbabel.colors import color_from_text
from spatialbabel.palette import RGB, srgb_to_linear

#: Canonical +Y onto Blender's +Z: the unit primitive standing on Blender's ground.
_Y_TO_Z = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)


def _vector(value: Value) -> Vec3 | None:
    if isinstance(value, Record) and value.kind in SEQUENCE_KINDS and value.kind != "Quaternion":
        values = list(value.native)
    elif isinstance(value, Record) and value.kind == "ndarray":
        values = [float(v) for v in np.asarray(value.native, dtype=float).ravel()]
    elif isinstance(value, list | tuple):
        values = list(value)
    else:
        return None
    if len(values) != 3 or not all(is_number(v) for v in values):
        return None
    return (float(values[0]), float(values[1]), float(values[2]))


READERS = ValueReaders(
    vector=_vector,
    rotation=lambda v: isinstance(v, Record) and v.kind in ("Quaternion", "Matrix", "Euler"),
    colour=lambda v: isinstance(v, str) and color_from_text(v) is not None,
    scene_object=lambda v: isinstance(v, Record) and v.kind in ("Object", "Mesh"),
    colour_triples=True,
)


def stub_shape(reading: HelperReading) -> MeshShape:
    """The mesh of a stub: the unit shape of its class, scaled, standing along local +Z."""
    factors = reading.unit_scale()
    unit_to_local = _Y_TO_Z @ np.diag([*factors, 1.0])
    half = np.abs(unit_to_local[:3, :3]) @ np.full(3, 0.5)
    return MeshShape(reading.class_name, unit_to_local, -half, half, None, "helper")


def stub_rotation(reading: HelperReading) -> Value:
    """A rotation matrix for the stub, or the Euler angles (radians) to set, or None."""
    if isinstance(reading.rotation, Record):
        return matrix_of(reading.rotation)
    return _vector(reading.rotation)


def stub_linear_colour(value: Value) -> RGB | None:
    """The linear RGB a stub's colour stands for."""
    if isinstance(value, str):
        srgb = color_from_text(value)
        return None if srgb is None else srgb_to_linear(srgb)
    vector = _vector(value)
    if vector is None and isinstance(value, list | tuple) and len(value) == 4:
        vector = _vector(list(value[:3]))
    if vector is None or isinstance(value, Unknown):
        return None
    r, g, b = (min(max(c, 0.0), 1.0) for c in vector)
    return (r, g, b)


__all__ = ["READERS", "stub_linear_colour", "stub_rotation", "stub_shape"]
