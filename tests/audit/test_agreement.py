"""The audit's agreement criterion: the scorer's Hungarian matching, then count, class, centre
and world box within tolerance; colours named but not judged."""

from __future__ import annotations

from audit.agreement import Criterion, compare
from spatialbabel import Scene, SceneObject


def scene(*objects: SceneObject) -> Scene:
    return Scene("s", objects)


def cube(
    i: str, x: float, *, size: float = 1.0, yaw: float = 0.0, color: str = "red"
) -> SceneObject:
    return SceneObject(i, "cube", (x, 0.5, 0.0), (0.0, yaw, 0.0), (size, 1.0, 2.0), color=color)


def test_the_same_objects_in_another_order_agree() -> None:
    a = scene(cube("a", 0.0), cube("b", 3.0))
    b = scene(cube("b", 3.0), cube("a", 0.0))
    verdict = compare(a, b)
    assert verdict.agrees and verdict.diff == ""


def test_a_quarter_turned_box_of_swapped_sides_is_the_same_box() -> None:
    turned = SceneObject("a", "cube", (0.0, 0.5, 0.0), (0.0, 90.0, 0.0), (2.0, 1.0, 1.0))
    straight = SceneObject("a", "cube", (0.0, 0.5, 0.0), (0.0, 0.0, 0.0), (1.0, 1.0, 2.0))
    assert compare(scene(turned), scene(straight)).agrees


def test_count_class_centre_and_box_each_disagree_with_a_line() -> None:
    engine = scene(cube("a", 0.0), cube("b", 3.0))
    missing = compare(scene(cube("a", 0.0)), engine)
    assert not missing.agrees
    assert "1 objects parsed, the engine built 2" in missing.diff
    assert "b: a cube the parse lacks" in missing.diff
    other_class = scene(
        SceneObject("a", "sphere", (0.0, 0.5, 0.0), size=(1.0, 1.0, 2.0), color="red"),
        cube("b", 3.0),
    )
    assert "parsed a sphere, the engine built a cube" in compare(other_class, engine).diff
    moved = compare(scene(cube("a", 0.0), cube("b", 3.5)), engine)
    assert not moved.agrees and "0.5 apart" in moved.diff
    wider = compare(scene(cube("a", 0.0, size=1.5), cube("b", 3.0)), engine)
    assert not wider.agrees and "box (1.5, 1, 2)" in wider.diff
    assert "\n" not in wider.diff


def test_within_tolerance_agrees_and_a_colour_is_only_named() -> None:
    engine = scene(cube("a", 0.0), cube("b", 3.0))
    # 1% of the scene's diagonal (about 4.4) is 0.044: a shift of 0.02 is within it.
    near = scene(cube("a", 0.02), cube("b", 3.0, color="blue"))
    verdict = compare(near, engine)
    assert verdict.agrees
    assert "colour blue, the engine's red" in verdict.diff
    strict = compare(near, engine, Criterion(position=0.001))
    assert not strict.agrees


def test_two_empty_scenes_agree() -> None:
    assert compare(scene(), scene()).agrees
