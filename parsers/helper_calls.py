"""Reading the call of a helper whose body is missing, in any language.

A reply cut off by the token limit often ends inside (or before) the helper that builds the
shape: ``CreateTorus(new Vector3(0, 0.2f, 0), 0.6f, 0.2f, Color.red)`` is called, but its body
never made anything. The interpreter hands such calls to the engine
(``Engine.helper_without_body``); the engine asks this module what the call carries, then builds
the object in its own frame. The call is read as an object when it carries a recognisable shape
(an enum member, a string or the helper's name) and a position:

- by the parameter names where the declaration survives (``pos``, ``rotation``, ``scale``,
  ``radius``, ``height``, ``majorRadius``, ``color``...);
- else by order: the first vector is the position (or the first three numbers ``x, y, z``),
  then a rotation value (a quaternion) is the rotation, four numbers in [0, 1] a colour, and a
  further vector is the rotation when it has a zero or negative component or one beyond 10
  (degrees), else the scale; two further vectors are the rotation, then the scale. Where
  colours are three numbers (Blender, Open3D), a last vector in [0, 1] after another one, or
  one with a zero, is the colour. The first number left is a uniform size.

What the engine cannot tell apart it describes with ``ValueReaders``. The diagnostic says which
way each value was read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from parsers.evaluator.core.engine import HelperCall
from parsers.evaluator.core.values import UNDEFINED, Value, is_number
from parsers.shape_words import class_of_word, value_words
from spatialbabel.classes import TORUS_MAJOR_RADIUS, TORUS_MINOR_RADIUS, UNIT_EXTENTS

Vec3 = tuple[float, float, float]

#: Parameter names (lower case, separators dropped) and the role of their value.
_ROLES: dict[str, str] = {
    **dict.fromkeys(
        [
            "position",
            "pos",
            "location",
            "loc",
            "center",
            "centre",
            "at",
            "point",
            "origin",
            "offset",
            "translation",
            "where",
            "worldposition",
            "localposition",
            "spawnposition",
            "spawnpoint",
            "coords",
            "coordinates",
            "p",
        ],
        "position",
    ),
    **dict.fromkeys(
        [
            "rotation",
            "rot",
            "euler",
            "eulers",
            "eulerangles",
            "angles",
            "orientation",
            "quaternion",
            "quat",
            "q",
            "rotationeuler",
        ],
        "rotation",
    ),
    **dict.fromkeys(["scale", "localscale", "scl", "dims", "dimensions", "extents"], "scale"),
    **dict.fromkeys(["size", "diameter", "side", "sidelength", "edge", "edgelength"], "size"),
    **dict.fromkeys(
        ["radius", "rad", "baseradius", "bottomradius", "radiusbottom", "radius1", "r"], "radius"
    ),
    **dict.fromkeys(["majorradius", "major", "ringradius", "torusradius", "mainradius"], "major"),
    **dict.fromkeys(["minorradius", "minor", "tube", "tuberadius", "radius2"], "minor"),
    **dict.fromkeys(["height", "h", "length"], "height"),
    **dict.fromkeys(["width", "w", "base", "basesize", "basewidth"], "width"),
    **dict.fromkeys(["depth", "d"], "depth"),
    **dict.fromkeys(["x", "px", "posx"], "x"),
    **dict.fromkeys(["y", "py", "posy"], "y"),
    **dict.fromkeys(["z", "pz", "posz"], "z"),
    **dict.fromkeys(
        ["color", "colour", "col", "c", "tint", "rgb", "albedo", "basecolor", "mat", "material"],
        "colour",
    ),
    **dict.fromkeys(["shape", "kind", "type", "primitive", "shapetype", "form"], "shape"),
    **dict.fromkeys(["name", "label", "title", "objname", "objectname"], "name"),
}
_SEPARATORS = re.compile(r"[_\-\s]")
#: A vector read by order is a rotation (degrees) when a component is beyond this.
_LARGEST_SCALE = 10.0
#: A number read by order as a uniform size is no larger than this (a scene is a few units).
_LARGEST_SIZE = 100.0


@dataclass(frozen=True)
class ValueReaders:
    """How an engine's values look: a position-like vector (its own ``Vector3``, a tuple of three
    numbers), a rotation that is no plain vector (a quaternion, an Euler), a colour, and the
    scene objects (a call handed one works on it, and builds nothing)."""

    vector: Callable[[Value], Vec3 | None]
    rotation: Callable[[Value], bool]
    colour: Callable[[Value], bool]
    scene_object: Callable[[Value], bool]
    #: The language gives colours as three numbers in [0, 1] (Blender, Open3D), so a vector
    #: read by order may be one.
    colour_triples: bool = False


@dataclass
class HelperReading:
    """What a call of a helper without a body carries (see the module doc)."""

    class_name: str
    shape_from: str
    position: Vec3 | None = None
    #: The engine's own rotation value: a vector (Euler angles, in the language's units) or
    #: a value ``ValueReaders.rotation`` accepts.
    rotation: Value = None
    #: A multiplier of the object's extents along its local axes.
    scale: Vec3 | None = None
    #: The object's extents (canonical: y is its up axis) before ``scale``; None: the unit
    #: primitive's.
    extents: Vec3 | None = None
    colour: Value = None
    name: str | None = None
    by_name: list[str] = field(default_factory=list)
    by_order: list[str] = field(default_factory=list)

    def message(self, call: HelperCall) -> str:
        how = []
        if self.by_name:
            how.append("by parameter name: " + ", ".join(self.by_name))
        if self.by_order:
            how.append("by order: " + ", ".join(self.by_order))
        where = f"at {_fmt(self.position)}" if self.position is not None else "without a position"
        return (
            f"{call.name}() {call.why}: the call is read as a {self.class_name} {where}, its "
            f"class from {self.shape_from}; arguments read " + ("; ".join(how) if how else "none")
        )

    def unit_scale(self) -> Vec3:
        """The factors taking the canonical unit primitive to this object (extents, then scale)."""
        unit = UNIT_EXTENTS.get(self.class_name, (1.0, 1.0, 1.0))
        extents = self.extents or unit
        scale = self.scale or (1.0, 1.0, 1.0)
        return (
            extents[0] / unit[0] * scale[0],
            extents[1] / unit[1] * scale[1],
            extents[2] / unit[2] * scale[2],
        )


def _fmt(vector: Vec3) -> str:
    return "(" + ", ".join(f"{v:g}" for v in vector) + ")"


def _role(name: str) -> str | None:
    if name == "R":
        return "major"
    return _ROLES.get(_SEPARATORS.sub("", name).lower())


def _number(value: Value) -> float | None:
    if is_number(value) and math.isfinite(value):
        return float(value)
    return None


def _rgba(value: Value) -> bool:
    return isinstance(value, list | tuple) and len(value) == 4 and all(is_number(v) for v in value)


def _unit_rgba(value: Value) -> bool:
    """Four numbers in [0, 1]: a colour with its alpha (no position, turn or scale has four)."""
    return _rgba(value) and all(0.0 <= float(v) <= 1.0 for v in value)


def _shape(call: HelperCall) -> tuple[str, str] | None:
    """The class the call names: an enum member, then a string, then the helper's name."""
    values = [*call.args, *call.kwargs.values()]
    for wanted in ("the enum member", "the string"):
        for value in values:
            described = value_words(value)
            if described is None or not described[1].startswith(wanted):
                continue
            found = class_of_word(described[0])
            if found is not None:
                return found, described[1]
    found = class_of_word(call.name)
    if found is not None:
        return found, f"the helper's name {call.name!r}"
    return None


def _extents(class_name: str, dims: dict[str, float]) -> Vec3 | None:
    """The object's extents from the dimensions its parameters name, or None."""
    size = dims.get("size")
    radius = dims.get("radius")
    height = dims.get("height")
    if class_name == "torus":
        major, minor = dims.get("major"), dims.get("minor")
        if major is None:
            major = radius
        elif minor is None:
            minor = radius
        if major is not None and minor is not None:
            return (2 * (major + minor), 2 * minor, 2 * (major + minor))
        if size is not None:
            return (
                size,
                size * TORUS_MINOR_RADIUS / (TORUS_MAJOR_RADIUS + TORUS_MINOR_RADIUS),
                size,
            )
        return None
    if class_name == "cube":
        if not {"width", "height", "depth"} & dims.keys() and size is None:
            return None
        edge = size if size is not None else 1.0
        return (dims.get("width", edge), dims.get("height", edge), dims.get("depth", edge))
    across = 2 * radius if radius is not None else (size if size is not None else dims.get("width"))
    if class_name == "sphere":
        return None if across is None else (across, across, across)
    if across is None and height is None:
        return None
    across = 1.0 if across is None else across
    return (across, height if height is not None else across, across)


def read_helper_call(call: HelperCall, readers: ValueReaders) -> HelperReading | None:
    """What the call carries, or None when it names no class or works on a scene object."""
    values = [*call.args, *call.kwargs.values()]
    if any(readers.scene_object(v) for v in values):
        return None
    shape = _shape(call)
    if shape is None:
        return None
    reading = HelperReading(shape[0], shape[1])
    named: list[tuple[str, Value, str]] = []
    ordered: list[Value] = []
    names = call.parameters or ()
    for index, value in enumerate(call.args):
        name = names[index] if index < len(names) else ""
        role = _role(name) if name else None
        if role is not None:
            named.append((role, value, name))
        else:
            ordered.append(value)
    for name, value in call.kwargs.items():
        role = _role(name)
        if role is not None:
            named.append((role, value, name))
    dims: dict[str, float] = {}
    axes: dict[str, float] = {}
    for role, value, name in named:
        if value is UNDEFINED or value is None:
            continue
        _read_named(reading, readers, role, value, name, dims, axes)
    if reading.position is None and len(axes) == 3:
        reading.position = (axes["x"], axes["y"], axes["z"])
        reading.by_name.append(f"position {_fmt(reading.position)} from x, y, z")
    _read_ordered(reading, readers, ordered, dims)
    reading.extents = _extents(reading.class_name, dims)
    return reading


def _read_named(
    reading: HelperReading,
    readers: ValueReaders,
    role: str,
    value: Value,
    name: str,
    dims: dict[str, float],
    axes: dict[str, float],
) -> None:
    vector = readers.vector(value)
    number = _number(value)
    if role == "position" and vector is not None and reading.position is None:
        reading.position = vector
        reading.by_name.append(f"position {_fmt(vector)} from {name!r}")
    elif role == "rotation" and (vector is not None or readers.rotation(value)):
        reading.rotation = value
        reading.by_name.append(f"rotation from {name!r}")
    elif role in ("scale", "size") and vector is not None:
        reading.scale = vector
        reading.by_name.append(f"scale {_fmt(vector)} from {name!r}")
    elif role == "scale" and number is not None:
        reading.scale = (number, number, number)
        reading.by_name.append(f"scale {number:g} from {name!r}")
    elif role in ("x", "y", "z") and number is not None:
        axes[role] = number
    elif number is not None and role in (
        "size",
        "radius",
        "major",
        "minor",
        "height",
        "width",
        "depth",
    ):
        dims[role] = number
        reading.by_name.append(f"{role} {number:g} from {name!r}")
    elif role == "colour" and (
        readers.colour(value) or readers.vector(value) is not None or _rgba(value)
    ):
        reading.colour = value
        reading.by_name.append(f"colour from {name!r}")
    elif role == "name" and isinstance(value, str):
        reading.name = value


def _read_ordered(
    reading: HelperReading, readers: ValueReaders, values: list[Value], dims: dict[str, float]
) -> None:
    vectors: list[Vec3] = []
    numbers: list[float] = []
    for value in values:
        if value is UNDEFINED or value is None:
            continue
        if reading.rotation is None and readers.rotation(value):
            reading.rotation = value
            reading.by_order.append("rotation from a rotation value")
            continue
        if reading.colour is None and (readers.colour(value) or _unit_rgba(value)):
            reading.colour = value
            reading.by_order.append("colour")
            continue
        vector = readers.vector(value)
        if vector is not None:
            vectors.append(vector)
            continue
        number = _number(value)
        if number is not None:
            numbers.append(number)
    if reading.position is None:
        if vectors:
            reading.position = vectors.pop(0)
            reading.by_order.append(f"position {_fmt(reading.position)} from the first vector")
        elif len(numbers) >= 3:
            reading.position = (numbers[0], numbers[1], numbers[2])
            numbers = numbers[3:]
            reading.by_order.append(
                f"position {_fmt(reading.position)} from the first three numbers"
            )
    if readers.colour_triples and reading.colour is None and vectors:
        last = vectors[-1]
        unit = all(0.0 <= v <= 1.0 for v in last)
        if unit and (len(vectors) >= 2 or min(last) == 0.0):
            # Three numbers in [0, 1] after the others (or with a zero, no scale has) are the
            # colour in languages that write colours so.
            reading.colour = vectors.pop()
            reading.by_order.append("colour from the last vector (three numbers in [0, 1])")
    if len(vectors) >= 2 and reading.rotation is None and reading.scale is None:
        reading.rotation, reading.scale = vectors[0], vectors[1]
        reading.by_order.append("rotation, then scale, from the next two vectors")
    elif vectors:
        vector = vectors[0]
        turns = any(v <= 0 or v > _LARGEST_SCALE for v in vector)
        if turns and reading.rotation is None:
            reading.rotation = vector
            reading.by_order.append(
                f"rotation {_fmt(vector)} from the next vector (a zero, negative or large component)"
            )
        elif not turns and reading.scale is None:
            reading.scale = vector
            reading.by_order.append(
                f"scale {_fmt(vector)} from the next vector (all its components small and positive)"
            )
    if numbers and not dims and reading.scale is None and 0 < numbers[0] <= _LARGEST_SIZE:
        reading.scale = (numbers[0], numbers[0], numbers[0])
        reading.by_order.append(f"uniform scale {numbers[0]:g} from the first number left")


__all__ = ["HelperReading", "ValueReaders", "read_helper_call"]
