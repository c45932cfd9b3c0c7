"""The open vocabulary: one taxonomy table, synonym-aware words, and a scene's domain."""

from __future__ import annotations

import csv
from importlib import resources

import pytest

from spatialbabel import Scene, SceneObject
from spatialbabel.errors import SceneValidationError
from spatialbabel.open_classes import (
    is_open_class,
    nyu40_class,
    open_class,
    open_class_in,
    open_class_names,
    open_classes_equivalent,
    read_table,
    taxonomy,
)

#: NYU40's names as Hypersim's annotation tool spells them (semantic_label_descs.csv).
HYPERSIM_NYU40 = [
    "wall",
    "floor",
    "cabinet",
    "bed",
    "chair",
    "sofa",
    "table",
    "door",
    "window",
    "bookshelf",
    "picture",
    "counter",
    "blinds",
    "desk",
    "shelves",
    "curtain",
    "dresser",
    "pillow",
    "mirror",
    "floormat",
    "clothes",
    "ceiling",
    "books",
    "refrigerator",
    "television",
    "paper",
    "towel",
    "showercurtain",
    "box",
    "whiteboard",
    "person",
    "nightstand",
    "toilet",
    "sink",
    "lamp",
    "bathtub",
    "bag",
    "otherstructure",
    "otherfurniture",
    "otherprop",
]


def test_the_table_holds_sixty_classes_over_nyu40() -> None:
    names = open_class_names()
    assert len(names) == len(set(names)) == 60
    # Every NYU40 id names a class, and Hypersim's spelling of it means that class.
    for label, spelled in enumerate(HYPERSIM_NYU40, start=1):
        assert open_class(spelled) == nyu40_class(label), spelled
    assert nyu40_class(-1) is None and nyu40_class(0) is None and nyu40_class(41) is None


def test_no_word_means_two_classes() -> None:
    text = resources.files("spatialbabel").joinpath("data", "open_classes.csv").read_text()
    rows = list(csv.DictReader(text.splitlines()))
    rows.append({"class": "couch potato", "nyu40_id": "6", "synonyms": "couch"})
    broken = "\n".join(
        [",".join(rows[0].keys())] + [f"{r['class']},{r['nyu40_id']},{r['synonyms']}" for r in rows]
    )
    with pytest.raises(ValueError, match="'couch' means both 'sofa' and 'couch potato'"):
        read_table(broken)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("sofa", "sofa"),
        ("Couch", "sofa"),
        ("night stand", "night stand"),
        ("nightstand", "night stand"),
        ("Night_Stand", "night stand"),
        ("bedside table", "night stand"),
        ("bedside-tables", "night stand"),
        ("cushions", "pillow"),
        ("bookshelves", "bookshelf"),
        ("benches", "bench"),
        ("refridgerator", "refrigerator"),
        ("tablet", None),
        ("cube", None),
        ("", None),
    ],
)
def test_open_class_of_a_word(word: str, expected: str | None) -> None:
    assert open_class(word) == expected


@pytest.mark.parametrize(
    ("text", "prefer", "expected"),
    [
        ("leftBedsideTable_2", "last", ("night stand", "bedside table")),
        ("Sofa.001", "last", ("sofa", "sofa")),
        ("chair_leg", "last", ("chair", "chair")),
        ("dining_chair", "last", ("chair", "dining chair")),
        ("table_lamp", "last", ("lamp", "table lamp")),
        ("TVStand", "last", ("cabinet", "tv stand")),
        ("the grey sofa next to the lamp", "first", ("sofa", "sofa")),
        ("the grey sofa next to the lamp", "last", ("lamp", "lamp")),
        ("Cube.003", "last", None),
        ("tablet_holder", "last", None),
    ],
)
def test_open_class_in_identifiers_and_sentences(
    text: str, prefer: str, expected: tuple[str, str] | None
) -> None:
    assert open_class_in(text, prefer) == expected


def test_equivalence_is_synonym_aware_and_catch_alls_hold_their_classes() -> None:
    assert open_classes_equivalent("couch", "sofa")
    assert open_classes_equivalent("bedside table", "nightstand")
    assert not open_classes_equivalent("sofa", "chair")
    assert not open_classes_equivalent("cube", "cube")  # no class of the vocabulary
    # A true "other prop" is matched by a plant; a true plant is not by "other prop".
    assert open_classes_equivalent("potted plant", "other prop")
    assert not open_classes_equivalent("other prop", "plant")
    assert not open_classes_equivalent("stool", "other prop")  # a stool is other furniture
    assert taxonomy().parent("stool") == "other furniture"


def _open_scene() -> Scene:
    return Scene(
        "room",
        (
            SceneObject("sofa_1", "sofa", (0.0, 0.45, -1.0), (0.0, 20.0, 0.0), (2.0, 0.9, 0.9)),
            SceneObject("cube_1", "cube", (1.0, 0.5, 0.0)),
        ),
        domain="open",
    )


def test_an_open_scene_round_trips_and_says_its_domain() -> None:
    scene = _open_scene()
    data = scene.to_dict()
    assert list(data)[:3] == ["schema_version", "scene_id", "domain"]
    assert data["domain"] == "open"
    assert Scene.from_json(scene.to_json()) == scene


def test_a_primitive_scene_keeps_its_bytes() -> None:
    scene = Scene("s", (SceneObject("a", "cube", (0.0, 0.5, 0.0)),))
    assert "domain" not in scene.to_json()
    assert Scene.from_json(scene.to_json()).domain == "primitive"


def test_a_primitive_scene_refuses_an_open_class() -> None:
    with pytest.raises(
        SceneValidationError,
        match=r"objects\[0\]\.class_name: .*'sofa', a class of the open domain",
    ):
        Scene("s", (SceneObject("a", "sofa", (0.0, 0.5, 0.0)),))
    with pytest.raises(SceneValidationError, match="domain: expected one of primitive, open"):
        Scene("s", (), domain="real")  # type: ignore[arg-type]
    with pytest.raises(
        SceneValidationError, match=r"class_name: expected one of .*open vocabulary"
    ):
        SceneObject("a", "teapot", (0.0, 0.0, 0.0))
    assert is_open_class("night stand") and not is_open_class("nightstand")
