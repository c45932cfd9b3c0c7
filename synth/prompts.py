"""Prompts for both tasks, and the OpenAI batch request that carries each.

Reconstruction: a fixed system instruction, then per language a body (what code to write), the
primitive hint (how that engine makes each of the six shapes, with its own defaults), the
colour list and a coordinate hint written in the engine's own frame (Blender Z-up, Unity
left-handed Y-up, three.js and Open3D Y-up, JSON and the DSL canonical), with the scene's
ground and camera converted into that frame. In mode ``direct`` the reply is the code in one
fenced block; in mode ``nl_cot`` the model first lists every object in words (shape, colour,
approximate position and size), then writes the code in exactly one fenced block.

QA: a fixed system instruction, the scene frame (canonical), the mode's instruction, the
question and its answer format. Every mode ends with the same "Final answer:" line; ``code_cot``
first asks for the reconstruction code of its language, then the answer from it. Answers are
always given in the scene frame, whatever the language, so every mode answers the same question.

The texts are fixed here (not generated from the parsers' writers) so that the prompts only
change with ``PROMPT_VERSION``.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from spatialbabel import LANGUAGES, Scene, language_frame
from spatialbabel.frames import Matrix
from spatialbabel.geometry.relations import CONTACT_GAP
from spatialbabel.palette import PALETTE_HEX
from spatialbabel.qa import Question, parse_mode
from spatialbabel.run.batch import (
    DEFAULT_TEMPERATURE,
    RECONSTRUCT_MODES,
    check_reconstruct_mode,
    decoding_problem,
    default_max_tokens,
    parse_request_id,
    qa_id,
    reconstruct_id,
)
from spatialbabel.scene import Camera, Ground

PROMPT_VERSION: Final = "2"
BATCH_URL: Final = "/v1/chat/completions"
DEFAULT_MODEL: Final = "gpt-4o"

SHAPES_SENTENCE: Final = "cubes, spheres, cylinders, cones, square pyramids and tori"

SYSTEM_RECONSTRUCT: Final = (
    "You are an expert in 3D scene understanding and graphics programming. You will see a rendered "
    f"image of a 3D scene made of simple primitives ({SHAPES_SENTENCE}) standing on a flat grey "
    "ground. Reconstruct the scene as code: one object for every primitive you see, with its shape, "
    "colour, position, rotation and size, as accurately as you can. Create only the objects: no "
    "ground, lights or camera. Reply with the complete code in one fenced code block."
)

SYSTEM_QA: Final = (
    "You are an expert in 3D scene understanding. You will see a rendered image of a 3D scene made "
    f"of simple primitives ({SHAPES_SENTENCE}) standing on a flat grey ground, and a question about "
    "the scene. Answer it as accurately as you can."
)

#: ``SYSTEM_QA`` for a scene of the open domain (a photo of a real room).
SYSTEM_QA_OPEN: Final = (
    "You are an expert in 3D scene understanding. You will see a photo-realistic image of a real "
    "indoor scene, furniture and household items in a room, and a question about the scene. "
    "Answer it as accurately as you can."
)

#: What every relation and comparison a question may use means, stated once in the shared
#: context of every QA prompt; ``spatialbabel.geometry.relations`` decides them so (docs/qa.md).
DEFINITIONS: Final = (
    'Definitions: an object\'s centre is the centre of its bounding box. "Left of" and '
    '"right of" compare where the centres appear across the image; "in front of" and "behind" '
    "compare the centres' depths along the camera's viewing direction (in front is nearer the "
    'camera). "A is above B" and "B is below A" mean that A rests on B: A\'s lowest point is '
    f"within {round(CONTACT_GAP * 100)} cm of B's highest point and, seen from straight above, "
    'their outlines overlap. "Larger" compares volumes, "taller" the objects\' own heights '
    '(from lowest to highest point), and "closer to the camera" the distances of the centres '
    "from the camera."
)

FINAL_LINE: Final = 'End your reply with one line "Final answer: <answer>".'


@dataclass(frozen=True)
class LanguageGuide:
    """How to ask for a scene in one language: its name, what to write, how its engine makes
    each shape, how it turns objects and takes colours, and its fence tag."""

    title: str
    body: str
    primitives: tuple[str, ...]
    rotation: str
    color: str
    fence: str


JSON_EXAMPLE: Final = """{"objects": [
  {"class_name": "cube", "color": "red", "position": [0.0, 0.5, 0.0], "rotation": [0, 45, 0], "scale": [1.0, 1.0, 1.0]},
  {"class_name": "sphere", "color": "blue", "position": [1.2, 0.3, -0.5], "rotation": [0, 0, 0], "scale": [0.6, 0.6, 0.6]}
]}"""

DSL_EXAMPLE: Final = """(scene
  (entity red_cube (shape cube) (color red) (position 0 0.5 0) (rotation 0 45 0) (scale 1 1 1))
  (entity ball (shape sphere) (color blue) (position 1.2 0.3 -0.5) (scale 0.6 0.6 0.6)))"""

_CANONICAL_SIZE = (
    "the object's full extents along its own x, y, z axes (width, height, depth): a sphere of "
    "diameter 1 has scale [1, 1, 1]; a torus's height is the diameter of its tube"
)
_CANONICAL_SHAPES = (
    "cube: a box",
    "sphere: a ball",
    "cylinder: axis along y",
    "cone: axis along y, base down, apex up",
    "pyramid: square base down with its edges along x and z, apex up",
    "torus: a ring lying flat (its hole along y)",
)

GUIDES: Final[dict[str, LanguageGuide]] = {
    "threejs": LanguageGuide(
        title="three.js (JavaScript)",
        body=(
            "Write JavaScript for three.js (import * as THREE from 'three') that adds every object to an "
            "existing THREE.Scene named `scene`: one THREE.Mesh per object with a MeshStandardMaterial of "
            "its colour, placed with mesh.position.set(x, y, z), turned with mesh.rotation and sized "
            "through the geometry's parameters or mesh.scale."
        ),
        primitives=(
            "cube: new THREE.BoxGeometry(width, height, depth)",
            "sphere: new THREE.SphereGeometry(radius)",
            "cylinder: new THREE.CylinderGeometry(radiusTop, radiusBottom, height), axis along Y",
            "cone: new THREE.ConeGeometry(radius, height), axis along Y, apex up",
            "pyramid: new THREE.ConeGeometry(radius, height, 4); its base corners lie on the X and Z "
            "axes (base side radius·√2), so turn it by Math.PI / 4 about Y to put its edges along X and Z",
            "torus: new THREE.TorusGeometry(radius, tube) lies in the XY plane; mesh.rotation.x = Math.PI / 2 lays it flat",
        ),
        rotation="mesh.rotation is in radians (Euler order XYZ)",
        color="material colours as CSS names or hex, e.g. { color: '#e0141e' }",
        fence="javascript",
    ),
    "unity": LanguageGuide(
        title="Unity (C#)",
        body=(
            "Write a C# MonoBehaviour for Unity whose Start() method creates every object with "
            'GameObject.CreatePrimitive, names it after its colour and shape (e.g. "RedCube"), sets '
            "transform.position, transform.rotation and transform.localScale, and sets the colour of "
            "its material (GetComponent<Renderer>().material.color)."
        ),
        primitives=(
            "cube: PrimitiveType.Cube, 1 x 1 x 1 at localScale (1, 1, 1)",
            "sphere: PrimitiveType.Sphere, diameter 1 at localScale (1, 1, 1)",
            "cylinder: PrimitiveType.Cylinder, diameter 1 and height 2 at localScale (1, 1, 1), axis along Y",
            "cone, pyramid, torus: Unity has no such primitive; use the closest one as a stand-in "
            "(a Cylinder for a cone or a torus, a Cube for a pyramid), name the GameObject after the "
            'real shape and colour ("RedCone", "BluePyramid", "GreenTorus") and scale the stand-in '
            "so that it covers the real shape's extents",
        ),
        rotation="transform.rotation = Quaternion.Euler(x, y, z) in degrees",
        color="new Color(r, g, b) with sRGB components in [0, 1], or Color constants",
        fence="csharp",
    ),
    "blender": LanguageGuide(
        title="Blender Python (bpy)",
        body=(
            "Write a Python script for Blender (import bpy) that adds every object with a "
            "bpy.ops.mesh.primitive_*_add operator (location, rotation, scale or the operator's size "
            "parameters) and gives each a material of its colour."
        ),
        primitives=(
            "cube: primitive_cube_add(size=2) by default, a cube of edge 2 (scale=(sx/2, sy/2, sz/2) gives edges sx, sy, sz)",
            "sphere: primitive_uv_sphere_add(radius=1) by default",
            "cylinder: primitive_cylinder_add(radius=1, depth=2) by default, axis along Z",
            "cone: primitive_cone_add(radius1=1, radius2=0, depth=2) by default, axis along Z, apex up",
            "pyramid: primitive_cone_add(vertices=4, radius1=r, depth=h); its base corners lie on the X "
            "and Y axes (base side r·√2), so turn it by 45° about Z to put its edges along X and Y",
            "torus: primitive_torus_add(major_radius=1, minor_radius=0.25) by default, lying flat on the ground",
        ),
        rotation="rotation=(rx, ry, rz) in radians (rotation_euler, order XYZ)",
        color="the material's Base Color as (r, g, b, 1) in linear RGB",
        fence="python",
    ),
    "open3d": LanguageGuide(
        title="Open3D (Python)",
        body=(
            "Write Python for Open3D (import open3d as o3d) that builds every object as an "
            "o3d.geometry.TriangleMesh with the create_* functions, moves it into place with "
            "translate, rotate and scale, colours it with paint_uniform_color, and collects all meshes "
            "in a list named `meshes`."
        ),
        primitives=(
            "cube: o3d.geometry.TriangleMesh.create_box(width, height, depth) spans [0, width] x "
            "[0, height] x [0, depth] from the origin: translate it by minus half its size to centre it",
            "sphere: create_sphere(radius), centred",
            "cylinder: create_cylinder(radius, height), centred with its axis along Z: rotate it by 90° about X to stand it up",
            "cone: create_cone(radius, height), axis along Z, base at z = 0 and apex at z = height",
            "pyramid: create_cone(radius, height, resolution=4)",
            "torus: create_torus(torus_radius, tube_radius), centred in the XY plane: rotate it by 90° about X to lay it flat",
        ),
        rotation=(
            "rotations as matrices, e.g. mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz((rx, ry, rz)), "
            "center=mesh.get_center()) with angles in radians"
        ),
        color="paint_uniform_color([r, g, b]) with sRGB components in [0, 1]",
        fence="python",
    ),
    "json": LanguageGuide(
        title="JSON",
        body=(
            "Write the scene as JSON in this schema:\n"
            f"{JSON_EXAMPLE}\n"
            "One entry per object: class_name (cube, sphere, cylinder, cone, pyramid or torus), color, "
            "position [x, y, z] of the object's centre (the centre of its bounding box), rotation "
            f"[rx, ry, rz] and scale [sx, sy, sz], {_CANONICAL_SIZE}."
        ),
        primitives=_CANONICAL_SHAPES,
        rotation="rotation in degrees, Euler order XYZ (R = Rx·Ry·Rz)",
        color="color as one of the colour names below",
        fence="json",
    ),
    "dsl": LanguageGuide(
        title="the scene DSL (s-expressions)",
        body=(
            "Write the scene in this s-expression language:\n"
            f"{DSL_EXAMPLE}\n"
            "One (entity NAME ...) per object with (shape cube|sphere|cylinder|cone|pyramid|torus), "
            "(color NAME), (position x y z) of the object's centre (the centre of its bounding box), "
            f"and optionally (rotation rx ry rz) and (scale sx sy sz), {_CANONICAL_SIZE}; "
            "attributes in any order; ';' starts a comment."
        ),
        primitives=_CANONICAL_SHAPES,
        rotation="rotation in degrees, Euler order XYZ (R = Rx·Ry·Rz); 0 0 0 when left out",
        color="(color NAME) with one of the colour names below",
        fence="scheme",
    ),
}
assert set(GUIDES) == set(LANGUAGES)

#: The open domain (real indoor scenes, ``Scene.domain == "open"``): the paper's Hypersim hint.
#: Real furniture and items drawn as their bounding boxes, named with descriptive classes, in
#: metres with the floor at y = 0 and the scene's bounds given. The languages are the same six,
#: each told how to name an object so that the parser reads its class
#: (``parsers.open_domain``: the name, the variable, the comment).
SYSTEM_RECONSTRUCT_OPEN: Final = (
    "You are an expert in 3D scene understanding and graphics programming. You will see a "
    "photo-realistic image of a real indoor scene: furniture and household items in a room. "
    "Reconstruct the scene as code: one object for every piece of furniture or item you see, "
    "each drawn as its bounding box (the upright box that encloses it) and named with a "
    "descriptive class name (sofa, table, chair, bed, night stand, lamp, cabinet, ...), with its "
    "position, rotation and size in metres, as accurately as you can. Create only the objects: "
    "no floor, walls, ceiling, lights or camera. Reply with the complete code in one fenced code "
    "block."
)

OPEN_JSON_EXAMPLE: Final = """{"objects": [
  {"class_name": "sofa", "position": [0.0, 0.45, -1.2], "rotation": [0, 0, 0], "scale": [2.0, 0.9, 0.9]},
  {"class_name": "night stand", "position": [1.4, 0.3, -1.3], "rotation": [0, 30, 0], "scale": [0.5, 0.6, 0.45]}
]}"""

OPEN_DSL_EXAMPLE: Final = """(scene
  (entity sofa (shape cube) (position 0 0.45 -1.2) (scale 2.0 0.9 0.9))
  (entity night_stand (shape cube) (position 1.4 0.3 -1.3) (rotation 0 30 0) (scale 0.5 0.6 0.45)))"""

#: Per language: how to write one object of the open domain as its bounding box, named.
OPEN_GUIDES: Final[dict[str, str]] = {
    "threejs": (
        "Write JavaScript for three.js (import * as THREE from 'three') that adds every object to an "
        "existing THREE.Scene named `scene`: one THREE.Mesh per object with a "
        "new THREE.BoxGeometry(width, height, depth) of its size and a MeshStandardMaterial, placed "
        "with mesh.position.set(x, y, z) at the centre of the box, turned with mesh.rotation.y "
        "(radians) and named after its class: mesh.name = 'sofa'."
    ),
    "unity": (
        "Write a C# MonoBehaviour for Unity whose Start() method creates every object with "
        "GameObject.CreatePrimitive(PrimitiveType.Cube), names it after its class (e.g. "
        '"Sofa", "NightStand"), sets transform.position to the centre of its box, '
        "transform.rotation = Quaternion.Euler(0, yaw, 0) in degrees and transform.localScale to "
        "its width, height and depth."
    ),
    "blender": (
        "Write a Python script for Blender (import bpy) that adds every object with "
        "bpy.ops.mesh.primitive_cube_add(size=1, location=(x, y, z), rotation=(0, 0, yaw), "
        "scale=(width, depth, height)) at the centre of its box (yaw in radians), then names it "
        'after its class: bpy.context.active_object.name = "sofa".'
    ),
    "open3d": (
        "Write Python for Open3D (import open3d as o3d) that builds every object as a box, "
        "o3d.geometry.TriangleMesh.create_box(width, height, depth) (it spans [0, width] x "
        "[0, height] x [0, depth] from the origin: translate it by minus half its size to centre "
        "it), assigned to a variable named after its class (sofa = ..., night_stand = ...), turned "
        "with mesh.rotate(o3d.geometry.get_rotation_matrix_from_xyz((0, yaw, 0)), "
        "center=mesh.get_center()) (radians), moved with translate, and collects all meshes in a "
        "list named `meshes`."
    ),
    "json": (
        "Write the scene as JSON in this schema:\n"
        f"{OPEN_JSON_EXAMPLE}\n"
        "One entry per object: class_name (a descriptive class name), position [x, y, z] of the "
        "centre of its box, rotation [rx, ry, rz] in degrees (Euler XYZ; real furniture turns "
        "about y only) and scale [width, height, depth], the box's full extents."
    ),
    "dsl": (
        "Write the scene in this s-expression language:\n"
        f"{OPEN_DSL_EXAMPLE}\n"
        "One (entity NAME ...) per object, NAME its class name (night_stand, sofa_2), with "
        "(shape cube) for its bounding box, (position x y z) of the box's centre and optionally "
        "(rotation rx ry rz) in degrees and (scale width height depth), the box's full extents; "
        "attributes in any order; ';' starts a comment."
    ),
}
assert set(OPEN_GUIDES) == set(LANGUAGES)

_AXIS_NAMES: Final = ("x", "y", "z")
#: What each canonical direction looks like in the frontal image.
_CANONICAL_DIRECTIONS: Final = {
    (0, 1): "points right in the image",
    (0, -1): "points left in the image",
    (1, 1): "points up",
    (1, -1): "points down",
    (2, 1): "points toward the camera",
    (2, -1): "points away from the camera",
}
_FRAME_NAMES: Final[dict[str, tuple[str, str]]] = {
    "threejs": ("three.js's frame", "Y up, right-handed"),
    "open3d": ("Open3D's frame", "Y up, right-handed"),
    "blender": ("Blender's frame", "Z up, right-handed"),
    "unity": ("Unity's frame", "Y up, left-handed"),
    "json": ("the scene frame", "Y up, right-handed"),
    "dsl": ("the scene frame", "Y up, right-handed"),
}
assert set(_FRAME_NAMES) == set(LANGUAGES)


def _fmt(value: float) -> str:
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def _point(p: Matrix) -> str:
    return "(" + ", ".join(_fmt(float(v)) for v in p) + ")"


def _look_target(camera: Camera, ground: Ground) -> Matrix:
    """Where the camera's optical axis meets the ground (or, looking level, the point opposite
    the origin's distance)."""
    pose = camera.pose
    eye, forward = pose[:3, 3], -pose[:3, 2]
    if forward[1] < -1e-9:
        return np.asarray(eye + forward * (ground.height - eye[1]) / forward[1])
    return np.asarray(eye + forward * float(np.linalg.norm(eye)))


def native_point(language: str, canonical: Matrix) -> Matrix:
    """A canonical point in the language's own frame (the inverse of ``language_frame``)."""
    change = language_frame(language).to_canonical
    return np.asarray(np.linalg.solve(change, np.asarray(canonical, dtype=float)))


def _seen_from(camera: Camera, direction: Matrix) -> tuple[int, int]:
    """How a horizontal direction looks from ``camera``: (0, ±1) right or left in the image,
    (2, ±1) toward or away from the camera (the keys of ``_CANONICAL_DIRECTIONS``)."""
    pose = camera.pose
    right, back = pose[:3, 0].copy(), pose[:3, 2].copy()
    right[1] = back[1] = 0.0
    across, along = float(direction @ right), float(direction @ back)
    if abs(across) * np.linalg.norm(back) >= abs(along) * np.linalg.norm(right):
        return 0, int(np.sign(across))
    return 2, int(np.sign(along))


def _axes_sentence(language: str, camera: Camera | None = None) -> str:
    change = language_frame(language).to_canonical
    parts = []
    for j, name in enumerate(_AXIS_NAMES):
        i = int(np.argmax(np.abs(change[:, j])))
        key = (i, int(np.sign(change[i, j])))
        if camera is not None and i != 1:
            key = _seen_from(camera, change[:, j])
        parts.append(f"+{name.upper()} {_CANONICAL_DIRECTIONS[key]}")
    return ", ".join(parts)


def _ground_sentence(language: str, ground: Ground) -> str:
    corners = np.array(
        [[x, ground.height, z] for x in ground.x_range for z in ground.z_range], dtype=float
    )
    native = np.array([native_point(language, c) for c in corners])
    low, high = native.min(axis=0), native.max(axis=0)
    flat = int(np.argmin(high - low))
    spans = [
        f"{_AXIS_NAMES[k]} from {_fmt(low[k])} to {_fmt(high[k])}" for k in range(3) if k != flat
    ]
    return (
        f"The ground is the plane {_AXIS_NAMES[flat]} = {_fmt(low[flat])}, {' and '.join(spans)}."
    )


def _camera_sentence(language: str, scene: Scene) -> str:
    camera = scene.frontal_camera
    if camera is None:
        raise ValueError(f"scene {scene.scene_id!r} has no camera to describe")
    eye = native_point(language, np.asarray(camera.position))
    target = native_point(language, _look_target(camera, scene.ground))
    return (
        f"The camera is at {_point(eye)} looking at {_point(target)}, with a vertical field of view of "
        f"{camera.fov_y_deg:g}° and an image of {camera.width} x {camera.height} pixels."
    )


def _floor_sentence(language: str, ground: Ground) -> str:
    """The open domain's floor and the scene's bounds, in the language's frame."""
    sentence = _ground_sentence(language, ground)
    plane, spans = sentence.removeprefix("The ground is the plane ").rstrip(".").split(", ", 1)
    return f"The floor is the plane {plane}; every object stands within {spans}."


def open_coordinate_hint(scene: Scene, language: str) -> str:
    """``coordinate_hint`` for a scene of the open domain: the axes as its camera sees them (a
    real camera looks any way), the floor and the scene's bounds."""
    return (
        f"Coordinates are in metres, in {_FRAME_NAMES[language][0]} ({_FRAME_NAMES[language][1]}): "
        f"{_axes_sentence(language, scene.frontal_camera)}. "
        f"{_floor_sentence(language, scene.ground)} {_camera_sentence(language, scene)}"
    )


def coordinate_hint(scene: Scene, language: str, *, axes_as_seen: bool = False) -> str:
    """The scene's frame, ground and camera, written in ``language``'s own frame.

    The axes are described as the generator's frontal camera sees them (+X right, +Z toward
    the camera); with ``axes_as_seen`` the horizontal ones as the scene's first camera sees
    them, for an image taken from another side (S3-FT's cross-view records).
    """
    camera = scene.frontal_camera if axes_as_seen else None
    return (
        f"Coordinates are in metres, in {_FRAME_NAMES[language][0]} ({_FRAME_NAMES[language][1]}): "
        f"{_axes_sentence(language, camera)}. "
        f"{_ground_sentence(language, scene.ground)} {_camera_sentence(language, scene)}"
    )


def to_scene_frame(language: str) -> str:
    """How a point of ``language``'s frame reads in the scene frame: ``(x, z, -y)``."""
    change = language_frame(language).to_canonical
    parts = []
    for i in range(3):
        j = int(np.argmax(np.abs(change[i])))
        parts.append(("-" if change[i, j] < 0 else "") + _AXIS_NAMES[j])
    return "(" + ", ".join(parts) + ")"


def palette_sentence() -> str:
    names = ", ".join(f"{name} ({code})" for name, code in PALETTE_HEX.items())
    return f"Every object has one of these colours (sRGB): {names}."


def language_instructions(scene: Scene, language: str) -> str:
    """Body, primitive hint, rotation and colour conventions and coordinate hint of a language."""
    guide = GUIDES[language]
    shapes = "\n".join(f"- {line}" for line in guide.primitives)
    return (
        f"{guide.body}\n\n"
        f"Shapes in {guide.title}:\n{shapes}\n"
        f"Rotation: {guide.rotation}. Colour: {guide.color}.\n"
        f"{palette_sentence()}\n\n"
        f"{coordinate_hint(scene, language)}"
    )


@dataclass(frozen=True)
class Prompt:
    system: str
    text: str


#: What the reply must be, per reconstruction mode; ``{fence}`` is the language's fence tag.
RECONSTRUCT_ENDINGS: Final[dict[str, str]] = {
    "direct": "Reply with the complete code in one ```{fence} fenced block.",
    "nl_cot": (
        "Think before you write any code. First list every object you see, one numbered line "
        "each, in words: its shape, its colour, roughly where it stands in 3D (left or right, "
        "near the camera or far from it, on the ground or on top of another object) and "
        "roughly how large it is. Do not write code in the list. Then write the complete code "
        "in exactly one ```{fence} fenced block, after the list; it is the only code block of "
        "your reply."
    ),
}
assert tuple(RECONSTRUCT_ENDINGS) == RECONSTRUCT_MODES


#: ``RECONSTRUCT_ENDINGS`` for the open domain: the list names classes, not shapes and colours.
OPEN_RECONSTRUCT_ENDINGS: Final[dict[str, str]] = {
    "direct": RECONSTRUCT_ENDINGS["direct"],
    "nl_cot": (
        "Think before you write any code. First list every object you see, one numbered line "
        "each, in words: its class, roughly where it stands in 3D (left or right, near the "
        "camera or far from it, on the floor or on top of another object) and roughly how large "
        "it is in metres. Do not write code in the list. Then write the complete code in exactly "
        "one ```{fence} fenced block, after the list; it is the only code block of your reply."
    ),
}
assert tuple(OPEN_RECONSTRUCT_ENDINGS) == RECONSTRUCT_MODES


def open_reconstruct_prompt(scene: Scene, language: str, mode: str = "direct") -> Prompt:
    """The reconstruction prompt of a scene of the open domain (real indoor scenes)."""
    ending = OPEN_RECONSTRUCT_ENDINGS[check_reconstruct_mode(mode)]
    guide = GUIDES[language]
    text = (
        f"Reconstruct the scene in the image as {guide.title} code.\n\n"
        f"{OPEN_GUIDES[language]}\n\n"
        f"{open_coordinate_hint(scene, language)}\n\n" + ending.format(fence=guide.fence)
    )
    return Prompt(SYSTEM_RECONSTRUCT_OPEN, text)


def reconstruct_prompt(scene: Scene, language: str, mode: str = "direct") -> Prompt:
    """The reconstruction prompt of ``scene`` in ``language``, in ``mode`` (``direct`` or
    ``nl_cot``: reasoning in words first, then exactly one fenced block of the language); a
    scene of the open domain gets ``open_reconstruct_prompt``."""
    if scene.domain == "open":
        return open_reconstruct_prompt(scene, language, mode)
    ending = RECONSTRUCT_ENDINGS[check_reconstruct_mode(mode)]
    guide = GUIDES[language]
    text = (
        f"Reconstruct the scene in the image as {guide.title} code.\n\n"
        f"{language_instructions(scene, language)}\n\n" + ending.format(fence=guide.fence)
    )
    return Prompt(SYSTEM_RECONSTRUCT, text)


# --- S3-FT's phase-1 prompt: a whole three.js program ----------------------------------------

#: The paper's phase-1 request (S3-FT): the base model writes a whole three.js program of the
#: image, which its quality filter (``s3ft.quality``) checks for a ``THREE.Scene``, a
#: ``THREE.PerspectiveCamera`` and 1 to 50 ``THREE.Mesh`` with positions within 30 m. Unlike the
#: benchmark's reconstruction prompt (objects only), it asks for the scene, the camera that took
#: the image (its pose and field of view, given) and the lights and renderer of a program that
#: runs.
SYSTEM_S3FT_PHASE1: Final = (
    "You are an expert in 3D scene understanding and graphics programming. You will see a rendered "
    f"image of a 3D scene made of simple primitives ({SHAPES_SENTENCE}) standing on a flat grey "
    "ground. Write a complete three.js program that recreates the scene as the image shows it: a "
    "THREE.Scene, a THREE.PerspectiveCamera with the pose and field of view of the camera that "
    "took the image, and one THREE.Mesh for every primitive you see, with its shape, colour, "
    "position, rotation and size, as accurately as you can. Reply with the complete program in "
    "one fenced code block."
)

SYSTEM_S3FT_PHASE1_OPEN: Final = (
    "You are an expert in 3D scene understanding and graphics programming. You will see a "
    "photo-realistic image of a real indoor scene: furniture and household items in a room. Write "
    "a complete three.js program that recreates the scene as the image shows it: a THREE.Scene, a "
    "THREE.PerspectiveCamera with the pose and field of view of the camera that took the image, "
    "and one THREE.Mesh for every piece of furniture or item you see, drawn as its bounding box "
    "and named with a descriptive class name, with its position, rotation and size in metres, as "
    "accurately as you can. Reply with the complete program in one fenced code block."
)

#: The paper's quality-filter bounds, which the prompt states and ``s3ft.quality`` checks: 1 to
#: 50 meshes, every numeric ``position.set`` argument within 30 (metres) of the origin.
PHASE1_MIN_MESHES: Final = 1
PHASE1_MAX_MESHES: Final = 50
PHASE1_POSITION_LIMIT: Final = 30


@dataclass(frozen=True)
class Phase1Camera:
    """The camera of the image as the phase-1 prompt gives it, in three.js's frame (the
    canonical one): vertical field of view in degrees, the image's aspect ratio, where it is
    and the point it looks at (2 decimals, as every prompt writes points)."""

    fov_y_deg: float
    width: int
    height: int
    eye: tuple[str, str, str]
    target: tuple[str, str, str]

    @property
    def aspect(self) -> str:
        return f"{self.width} / {self.height}"

    @property
    def lines(self) -> tuple[str, ...]:
        """The three statements that make this camera."""
        return (
            f"const camera = new THREE.PerspectiveCamera({self.fov_y_deg:g}, {self.aspect}, 0.1, 100);",
            f"camera.position.set({', '.join(self.eye)});",
            f"camera.lookAt({', '.join(self.target)});",
        )


def phase1_camera(scene: Scene) -> Phase1Camera:
    """The frontal camera of ``scene`` as the phase-1 prompt states it."""
    camera = scene.frontal_camera
    if camera is None:
        raise ValueError(f"scene {scene.scene_id!r} has no camera to describe")
    eye = native_point("threejs", np.asarray(camera.position))
    target = native_point("threejs", _look_target(camera, scene.ground))
    return Phase1Camera(
        camera.fov_y_deg,
        camera.width,
        camera.height,
        (_fmt(eye[0]), _fmt(eye[1]), _fmt(eye[2])),
        (_fmt(target[0]), _fmt(target[1]), _fmt(target[2])),
    )


def s3ft_phase1_prompt(scene: Scene) -> Prompt:
    """S3-FT's phase-1 prompt of ``scene``: a whole three.js program (scene, the image's camera
    with its true pose and field of view, one mesh per object, lights and a renderer), in one
    fenced block. A scene of the open domain asks for one named bounding box per object."""
    camera = phase1_camera(scene)
    open_domain = scene.domain == "open"
    guide = GUIDES["threejs"]
    if open_domain:
        mesh = (
            "one mesh per piece of furniture or item you see, drawn as its bounding box: "
            "const mesh = new THREE.Mesh(new THREE.BoxGeometry(width, height, depth), new "
            "THREE.MeshStandardMaterial()); named after its class (mesh.name = 'sofa'), placed "
            "with mesh.position.set(x, y, z) at the centre of the box and turned with "
            "mesh.rotation.y (radians); then scene.add(mesh)"
        )
        details = open_coordinate_hint(scene, "threejs")
    else:
        shapes = "\n".join(f"- {line}" for line in guide.primitives)
        mesh = (
            "one mesh per object you see: const mesh = new THREE.Mesh(geometry, new "
            "THREE.MeshStandardMaterial({ color: ... })); of its shape and colour, placed with "
            "mesh.position.set(x, y, z), turned with mesh.rotation and sized through the "
            "geometry's parameters or mesh.scale; then scene.add(mesh)"
        )
        details = (
            f"Shapes in {guide.title}:\n{shapes}\n"
            f"Rotation: {guide.rotation}. Colour: {guide.color}.\n"
            f"{palette_sentence()}\n\n{coordinate_hint(scene, 'threejs')}"
        )
    steps = (
        "creates the scene: const scene = new THREE.Scene();",
        "creates the camera that took the image, with its field of view, aspect ratio and pose: "
        + " ".join(camera.lines),
        f"adds {mesh}; one new THREE.Mesh(...) per object, between {PHASE1_MIN_MESHES} and "
        f"{PHASE1_MAX_MESHES} of them, every position written as plain numbers in metres, within "
        f"{PHASE1_POSITION_LIMIT} m of the origin;",
        "lights the scene and renders it: a light or two, and a THREE.WebGLRenderer that renders "
        "scene with camera.",
    )
    listed = "\n".join(f"{k}. {step}" for k, step in enumerate(steps, start=1))
    text = (
        f"Recreate the scene in the image as a complete {guide.title} program.\n\n"
        f"Write one self-contained ES module (import * as THREE from 'three') that:\n{listed}\n\n"
        f"{details}\n\n"
        f"Reply with the complete program in one ```{guide.fence} fenced block."
    )
    return Prompt(SYSTEM_S3FT_PHASE1_OPEN if open_domain else SYSTEM_S3FT_PHASE1, text)


def answer_format(question: Question) -> str:
    if question.category == "localization":
        return "three numbers, the x, y and z coordinates of the centre in the scene frame, as (x, y, z)"
    if question.category == "counting":
        return "a single whole number"
    if question.category == "existence":
        return "yes or no"
    return f"{question.choices[0]} or {question.choices[1]}"


def _mode_instruction(scene: Scene, mode: str) -> str:
    kind, language = parse_mode(mode)
    if kind == "direct":
        return "Answer directly, without any explanation: reply with the final-answer line only."
    if kind == "nl_cot":
        return (
            "Think step by step: first describe the objects the question is about and where they "
            "are, then reason your way to the answer."
        )
    assert language is not None
    guide = GUIDES[language]
    instructions = (
        f"{OPEN_GUIDES[language]}\n\n{open_coordinate_hint(scene, language)}"
        if scene.domain == "open"
        else language_instructions(scene, language)
    )
    mapping = (
        "the same in both frames"
        if np.allclose(language_frame(language).to_canonical, np.eye(3))
        else f"a point (x, y, z) in {_FRAME_NAMES[language][0]} is {to_scene_frame(language)} in the scene frame"
    )
    return (
        f"First reconstruct the scene as {guide.title} code, then answer the question from your "
        f"reconstruction.\n\n{instructions}\n\n"
        f"Write the code in one ```{guide.fence} fenced block. After the code, work out the answer "
        f"from it. Give any coordinates in your answer in the scene frame described first "
        f"({mapping})."
    )


def scene_frame_hint(scene: Scene) -> str:
    """The canonical frame, ground and camera: what the questions' coordinates refer to (for
    a scene of the open domain, the axes as its camera sees them and the floor)."""
    # Canonical JSON is written in the scene frame itself.
    if scene.domain == "open":
        return open_coordinate_hint(scene, "json")
    return coordinate_hint(scene, "json")


def qa_prompt(question: Question, scene: Scene, mode: str) -> Prompt:
    if question.scene_id != scene.scene_id:
        raise ValueError(
            f"question {question.question_id} is about {question.scene_id}, not {scene.scene_id}"
        )
    text = (
        f"{scene_frame_hint(scene)}\n{DEFINITIONS}\n\n"
        f"{_mode_instruction(scene, mode)}\n\n"
        f"Question: {question.question}\n"
        f"Answer format: {answer_format(question)}. {FINAL_LINE}"
    )
    return Prompt(SYSTEM_QA_OPEN if scene.domain == "open" else SYSTEM_QA, text)


def image_data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def request_max_tokens(custom_id: str) -> int:
    """The paper's output budget of a request, from the task and mode its id names."""
    request = parse_request_id(custom_id)
    mode = request.parts[-1]
    return default_max_tokens(request.task, mode)


def _media_part(url: str) -> dict[str, Any]:
    kind = "video_url" if url.startswith("data:video/") else "image_url"
    return {"type": kind, kind: {"url": url}}


def batch_request(
    custom_id: str,
    prompt: Prompt,
    image_url: str | Sequence[str],
    *,
    model: str = DEFAULT_MODEL,
    max_tokens: int | None = None,
    temperature: float | None = DEFAULT_TEMPERATURE,
    top_p: float | None = None,
) -> dict[str, Any]:
    """One line of an OpenAI batch file for the chat completions endpoint; several images
    (the views of a question suite's item) go in the order given, before the text. A
    ``data:video/...`` URL goes as a ``video_url`` part (vLLM's extension for video models).

    ``max_tokens`` defaults to the paper's budget for the id's task and mode
    (``spatialbabel.run.batch.default_max_tokens``; a question suite gives its own); ``temperature``
    to 0, and ``None`` leaves it out of the request (for models that refuse one); ``top_p`` is
    written only when given (the papers set none), so a request without it keeps its bytes."""
    urls = (image_url,) if isinstance(image_url, str) else tuple(image_url)
    if max_tokens is None:
        max_tokens = request_max_tokens(custom_id)
    problem = decoding_problem(max_tokens, temperature, top_p)
    if problem is not None:
        raise ValueError(problem)
    body: dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": prompt.system},
            {
                "role": "user",
                "content": [
                    *(_media_part(url) for url in urls),
                    {"type": "text", "text": prompt.text},
                ],
            },
        ],
        "max_completion_tokens": max_tokens,
    }
    if temperature is not None:
        body["temperature"] = temperature
    if top_p is not None:
        body["top_p"] = top_p
    return {"custom_id": custom_id, "method": "POST", "url": BATCH_URL, "body": body}


__all__ = [
    "BATCH_URL",
    "DEFINITIONS",
    "GUIDES",
    "OPEN_GUIDES",
    "PHASE1_MAX_MESHES",
    "PHASE1_MIN_MESHES",
    "PHASE1_POSITION_LIMIT",
    "PROMPT_VERSION",
    "RECONSTRUCT_ENDINGS",
    "SYSTEM_QA",
    "SYSTEM_QA_OPEN",
    "SYSTEM_RECONSTRUCT",
    "SYSTEM_RECONSTRUCT_OPEN",
    "SYSTEM_S3FT_PHASE1",
    "SYSTEM_S3FT_PHASE1_OPEN",
    "LanguageGuide",
    "Phase1Camera",
    "Prompt",
    "answer_format",
    "batch_request",
    "coordinate_hint",
    "image_data_url",
    "native_point",
    "open_coordinate_hint",
    "open_reconstruct_prompt",
    "phase1_camera",
    "qa_id",
    "qa_prompt",
    "reconstruct_id",
    "reconstruct_prompt",
    "request_max_tokens",
    "s3ft_phase1_prompt",
    "to_scene_frame",
]
