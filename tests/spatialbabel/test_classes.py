"""The one table of class synonyms."""

from __future__ import annotations

import pytest

from spatialbabel import canonical_class, class_from_words, classes_equivalent


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("cube", "cube"),
        ("Box", "cube"),
        ("cuboid", "cube"),
        ("blocks", "cube"),
        ("ball", "sphere"),
        ("orb", "sphere"),
        ("IcoSphere", "sphere"),
        ("UV_Sphere", "sphere"),
        ("donut", "torus"),
        ("ring", "torus"),
        ("square pyramid", "pyramid"),
        ("4-sided cone", "pyramid"),
        ("cones", "cone"),
        ("cylinders", "cylinder"),
        ("teapot", None),
        ("", None),
    ],
)
def test_canonical_class(word: str, expected: str | None) -> None:
    assert canonical_class(word) == expected


def test_equivalence_is_synonym_aware() -> None:
    assert classes_equivalent("box", "cube")
    assert not classes_equivalent("cube", "sphere")
    assert not classes_equivalent("teapot", "teapot")


def test_class_from_names_models_give() -> None:
    assert class_from_words(["ConeTip"]) == ("cone", "ConeTip")
    assert class_from_words(["obj", "RedBox_2"]) == ("cube", "RedBox_2")
    assert class_from_words(["icosphere"]) == ("sphere", "icosphere")
    assert class_from_words(["pyramidBox"]) == ("pyramid", "pyramidBox")
    assert class_from_words(["thing"]) is None
