"""A scene as the Unity C# script a careful model would write (for prompts, demo replies and
round trips): a MonoBehaviour whose ``Start`` makes each object with ``CreatePrimitive`` in
Unity's left-handed frame (canonical (x, y, z) is Unity's (x, y, -z)). Unity has no cone,
pyramid or torus: a cylinder named "Cone" or "Torus" and a cube named "Pyramid" stand in, as the
parser reads them (parsers/unity/naming.py); the stand-in spans the object's size."""

from __future__ import annotations

import numpy as np

from parsers.unity.structs import euler_angles
from spatialbabel import Scene, SceneObject, language_frame
from spatialbabel.palette import PALETTE

#: class -> (PrimitiveType, name prefix marking a stand-in, primitive height per unit of size).
_PRIMITIVES = {
    "cube": ("Cube", "", 1.0),
    "sphere": ("Sphere", "", 1.0),
    "cylinder": ("Cylinder", "", 2.0),
    "cone": ("Cylinder", "Cone", 2.0),
    "pyramid": ("Cube", "Pyramid", 1.0),
    "torus": ("Cylinder", "Torus", 2.0),
    "unknown": ("Cube", "", 1.0),
}


def _f(value: float) -> str:
    text = repr(float(value))
    return (text if ("." in text or "e" in text) else text + ".0") + "f"


def _vector(values: object) -> str:
    return "new Vector3(" + ", ".join(_f(float(v)) for v in values) + ")"  # type: ignore[attr-defined]


def object_lines(obj: SceneObject, index: int) -> list[str]:
    flip = language_frame("unity").to_canonical
    primitive, stand_in, height = _PRIMITIVES.get(obj.class_name, _PRIMITIVES["unknown"])
    position = flip @ np.asarray(obj.position)
    rotation = flip @ obj.rotation_matrix @ flip
    angles = euler_angles(rotation)
    sx, sy, sz = obj.size
    scale = (sx, sy / height, sz)
    rgb = obj.rgb if obj.rgb is not None else PALETTE.get(obj.color or "white", (1.0, 1.0, 1.0))
    # The name leads with the shape it stands for: the parser reads a stand-in's class from it.
    name = f"{stand_in or primitive} {obj.id}"
    variable = f"o{index}"
    return [
        f"// {obj.class_name}" + (f", {obj.color}" if obj.color else ""),
        f"GameObject {variable} = GameObject.CreatePrimitive(PrimitiveType.{primitive});",
        f"{variable}.name = {name!r};".replace("'", '"'),
        f"{variable}.transform.position = {_vector(position)};",
        f"{variable}.transform.rotation = Quaternion.Euler({_f(angles[0])}, {_f(angles[1])}, {_f(angles[2])});",
        f"{variable}.transform.localScale = {_vector(scale)};",
        f"{variable}.GetComponent<Renderer>().material.color = new Color({_f(rgb[0])}, {_f(rgb[1])}, {_f(rgb[2])});",
    ]


def write_unity(scene: Scene) -> str:
    """``scene`` as a Unity MonoBehaviour (Unity's left-handed frame)."""
    body: list[str] = []
    for index, obj in enumerate(scene.objects):
        if body:
            body.append("")
        body.extend(object_lines(obj, index))
    lines = [
        "using UnityEngine;",
        "",
        "public class SceneBuilder : MonoBehaviour",
        "{",
        "    void Start()",
        "    {",
    ]
    lines.extend(("        " + line) if line else "" for line in body)
    lines.extend(["    }", "}"])
    return "\n".join(lines) + "\n"
