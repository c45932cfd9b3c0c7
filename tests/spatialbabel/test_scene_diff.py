"""Two readings of one scene: objects added, lost, changed beyond the tolerance, renamed."""

from __future__ import annotations

from dataclasses import replace

from spatialbabel import Scene, SceneObject
from spatialbabel.scene_diff import diff_scenes

OLD = Scene(
    "s",
    (
        SceneObject("cube", "cube", (0.0, 0.5, 0.0), color="red"),
        SceneObject("ball", "sphere", (2.0, 0.5, 0.0), color="blue"),
        SceneObject("cone", "cone", (-2.0, 0.5, 1.0), (0.0, 30.0, 0.0)),
    ),
)


def with_objects(*objects: SceneObject) -> Scene:
    return OLD.with_objects(objects)


def test_the_same_scene_has_no_difference() -> None:
    diff = diff_scenes(OLD, OLD)
    assert not diff and diff.describe() == "the same"


def test_a_move_within_the_tolerance_is_no_change_and_beyond_it_is() -> None:
    cube, ball, cone = OLD.objects
    nudged = replace(cube, position=(0.0, 0.5, 5e-7))
    assert not diff_scenes(OLD, with_objects(nudged, ball, cone))
    moved = replace(cube, position=(0.0, 0.5, 2e-6))
    diff = diff_scenes(OLD, with_objects(moved, ball, cone))
    assert [(c.old_id, c.fields) for c in diff.changed] == [("cube", ("position",))]
    assert diff.changed[0].moved_by == 2e-6


def test_class_size_colour_and_rotation_changes_are_named() -> None:
    cube, ball, cone = OLD.objects
    changed = (
        replace(cube, class_name="pyramid", color="green"),
        replace(ball, size=(1.0, 1.5, 1.0)),
        replace(cone, rotation=(0.0, 31.0, 0.0)),
    )
    diff = diff_scenes(OLD, with_objects(*changed))
    assert {c.old_id: c.fields for c in diff.changed} == {
        "cube": ("class", "colour"),
        "ball": ("size",),
        "cone": ("rotation",),
    }


def test_one_orientation_written_as_another_euler_triple_is_the_same() -> None:
    cube, ball, cone = OLD.objects
    # (180, 150, 180) and (0, 30, 0) are one rotation in XYZ Euler angles.
    same = replace(cone, rotation=(180.0, 150.0, 180.0))
    assert not diff_scenes(OLD, with_objects(cube, ball, same))


def test_added_lost_and_renamed() -> None:
    cube, ball, cone = OLD.objects
    extra = SceneObject("torus", "torus", (3.0, 0.2, 3.0), size=(1.0, 0.25, 1.0))
    diff = diff_scenes(OLD, with_objects(replace(cube, id="box_1"), ball, extra))
    assert diff.added == ("torus",) and diff.lost == ("cone",)
    assert diff.renamed == (("cube", "box_1"),)
    assert diff.describe() == "1 added (torus); 1 lost (cone); 1 renamed (cube -> box_1)"
    # A rename alone leaves the scene as it was.
    assert not diff_scenes(OLD, with_objects(replace(cube, id="box_1"), ball, cone))
