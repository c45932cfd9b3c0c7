"""The scene graph: validation when built, errors that name the field, a lossless round trip."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from spatialbabel import Camera, Ground, Scene, SceneObject, SceneValidationError
from spatialbabel.palette import PALETTE


def full_scene() -> Scene:
    """A scene using every field, with values that do not survive a careless float format."""
    objects = (
        SceneObject(
            "obj_00",
            "cone",
            (0.1 + 0.2, 0.5, -1 / 3),
            (10.5, -20.25, 1e-7),
            (0.7, 1.3, 0.7),
            color="red",
            rgb=(0.9, 0.1, 0.12345678901234),
            visible_pixels=1234,
            visible_fraction=0.875,
            bbox_2d=(10, 20, 110, 220),
        ),
        SceneObject("obj_01", "torus", (1.0, 0.125, 2.0), size=(1.0, 0.25, 1.0), color="pink"),
        SceneObject("mystery", "unknown", (0.0, 1.0, 0.0), parent="obj_01"),
    )
    cameras = (
        Camera.looking_at("front", (0.0, 6.0, 9.0), width=512, height=384, fov_y_deg=38.5),
        Camera.looking_at("view1", (9.0, 6.0, 0.0)),
    )
    return Scene(
        "scene_00001",
        objects,
        cameras,
        Ground(0.0, (-3.0, 3.0), (-2.5, 2.5)),
        {"tier": 3, "seed": 7, "note": "é"},
    )


def test_round_trip_keeps_every_field_exactly() -> None:
    scene = full_scene()
    again = Scene.from_json(scene.to_json())
    assert again == scene
    # Field by field, so a regression names the field.
    for before, after in zip(scene.objects, again.objects, strict=True):
        for name in (
            "id",
            "class_name",
            "position",
            "rotation",
            "size",
            "color",
            "rgb",
            "visible_pixels",
            "visible_fraction",
            "bbox_2d",
            "parent",
        ):
            assert getattr(after, name) == getattr(before, name), name
    assert again.cameras == scene.cameras
    assert again.ground == scene.ground
    assert again.meta == scene.meta
    assert again.to_json() == scene.to_json()


def test_file_carries_schema_version_and_saves_atomically(tmp_path: Path) -> None:
    path = tmp_path / "scenes" / "s.json"
    full_scene().save(path)
    data = json.loads(path.read_text())
    assert data["schema_version"] == 1
    assert Scene.load(path) == full_scene()
    assert [p.name for p in path.parent.iterdir()] == ["s.json"]


def test_colour_fields_derive_each_other() -> None:
    named = SceneObject("a", "cube", (0, 0, 0), color="blue")
    assert named.rgb == PALETTE["blue"]
    written = SceneObject("b", "cube", (0, 0, 0), rgb=(1.0, 0.0, 0.0))
    assert written.color == "red"
    assert written.rgb == (1.0, 0.0, 0.0)


def test_values_are_normalised_to_tuples_of_floats() -> None:
    obj = SceneObject("a", "sphere", np.array([1, 2, 3]), [0, 0, 0], [1, 1, 1])  # type: ignore[arg-type]
    assert obj.position == (1.0, 2.0, 3.0) and all(isinstance(v, float) for v in obj.position)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["objects"][1].update(size=[1, 2]),
            "objects[1].size: expected 3 numbers, got 2",
        ),
        (
            lambda d: d["objects"][0].update(position=[0, "up", 0]),
            "objects[0].position[1]: expected a number, got 'up'",
        ),
        (
            lambda d: d["objects"][0].update(class_name="teapot"),
            "objects[0].class_name: expected one of",
        ),
        (
            lambda d: d["objects"][0].update(color="mauve"),
            "objects[0].color: expected a palette name",
        ),
        (
            lambda d: d["objects"][0].update(rgb=[0.5, 1.5, 0]),
            "objects[0].rgb[1]: must lie in [0, 1], got 1.5",
        ),
        (
            lambda d: d["objects"][2].update(size=[1, -1, 1]),
            "objects[2].size[1]: must not be negative",
        ),
        (
            lambda d: d["objects"][0].update(visible_fraction=2),
            "objects[0].visible_fraction: must lie in [0, 1]",
        ),
        (
            lambda d: d["objects"][0].update(bbox_2d=[5, 5, 1, 1]),
            "objects[0].bbox_2d: expected x0 <= x1",
        ),
        (lambda d: d["objects"][0].pop("id"), "objects[0].id: is missing"),
        (lambda d: d["objects"][0].update(weight=3), "objects[0].weight: unknown field"),
        (lambda d: d["objects"][1].update(id="obj_00"), "objects[1].id: duplicates objects[0].id"),
        (
            lambda d: d["cameras"][0].update(fov_y_deg=190),
            "cameras[0].fov_y_deg: must lie in (0, 180)",
        ),
        (
            lambda d: d["cameras"][1].update(K=[[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
            "cameras[1].K: disagrees with",
        ),
        (
            lambda d: d["cameras"][0]["cam_to_world"].pop(),
            "cameras[0].cam_to_world: expected 4 rows of 4 numbers, got 3",
        ),
        (
            lambda d: d["cameras"][0].update(width=0),
            "cameras[0].width: expected a positive integer",
        ),
        (lambda d: d["ground"].update(x_range=[3, -3]), "ground.x_range: expected min < max"),
        (lambda d: d.update(schema_version=2), "schema_version: expected 1, got 2"),
        (lambda d: d.update(objects={}), "objects: expected a list"),
        (lambda d: d.update(meta=[1]), "meta: expected an object"),
        (
            lambda d: d["objects"][0].update(position=[0, math.inf, 0]),
            "objects[0].position[1]: expected a finite number",
        ),
        (
            lambda d: d["objects"][2].update(parent="obj_09"),
            "objects[2].parent: names no object of the scene: 'obj_09'",
        ),
        (
            lambda d: d["objects"][1].update(parent="obj_01"),
            "objects[1].parent: object 'obj_01' cannot rest on itself",
        ),
        (
            lambda d: d["objects"][1].update(parent="mystery"),
            "objects[1].parent: makes a cycle: obj_01 -> mystery -> obj_01",
        ),
        (lambda d: d["objects"][2].update(parent=""), "objects[2].parent: expected a non-empty"),
    ],
)
def test_invalid_file_names_the_field(mutate: object, message: str) -> None:
    data = full_scene().to_dict()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(SceneValidationError) as caught:
        Scene.from_dict(data, source="scenes/s.json")
    assert str(caught.value).startswith(f"scenes/s.json: {message}"), str(caught.value)


def test_invalid_json_text_names_the_file_and_line() -> None:
    with pytest.raises(SceneValidationError, match=r"^bad.json: not valid JSON: .* line 2"):
        Scene.from_json('{"schema_version": 1,\n "scene_id": }', source="bad.json")


def test_camera_projects_like_its_intrinsics() -> None:
    camera = Camera.looking_at("front", (0.0, 0.0, 10.0), width=640, height=480, fov_y_deg=60.0)
    pixels, depth = camera.project(np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]))
    assert pixels[0] == pytest.approx([320.0, 240.0])
    focal = 240.0 / math.tan(math.radians(30.0))
    # +X is right and +Y is up in the image, so y pixel decreases.
    assert pixels[1] == pytest.approx([320.0 + focal / 10.0, 240.0 - focal / 10.0])
    assert depth == pytest.approx([10.0, 10.0])


def stack_scene() -> Scene:
    """Two stacks and a loose object: a <- b <- c, a <- d; e alone (listed out of order)."""

    def obj(name: str, parent: str | None = None) -> SceneObject:
        return SceneObject(name, "cube", (0.0, 0.5, 0.0), parent=parent)

    return Scene("s", (obj("c", "b"), obj("a"), obj("e"), obj("b", "a"), obj("d", "a")))


def test_the_attachment_graph_gives_children_descendants_and_roots() -> None:
    scene = stack_scene()
    assert scene.children("a") == ("b", "d")
    assert scene.descendants("a") == ("c", "b", "d")  # scene order
    assert scene.descendants("b") == ("c",)
    assert scene.descendants("c") == scene.descendants("e") == ()
    assert [scene.root_of(o.id) for o in scene.objects] == ["a", "a", "e", "a", "a"]
    with pytest.raises(KeyError, match="no object 'z'"):
        scene.descendants("z")
    # A parent is written only where there is one, so unstacked scenes keep their bytes.
    data = scene.to_dict()
    assert [("parent" in o) for o in data["objects"]] == [True, False, False, True, True]
    assert Scene.from_dict(data) == scene


def test_a_longer_cycle_is_named() -> None:
    # a rests on b, b on c, c on a; d stands alone.
    pairs = [("a", "b"), ("b", "c"), ("c", "a"), ("d", None)]
    objects = [SceneObject(name, "cube", (0, 0, 0), parent=parent) for name, parent in pairs]
    with pytest.raises(
        SceneValidationError, match=r"objects\[0\]\.parent: makes a cycle: a -> b -> c -> a"
    ):
        Scene("s", tuple(objects))
