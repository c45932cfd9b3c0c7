"""The metric properties of issue 6's "Done when", and a small example computed by hand."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from parsers import parse, write
from scoring import (
    AXIS_MAPS,
    COMPOSITES,
    METRICS,
    AxisMap,
    ScoreOptions,
    apply_axis_map,
    metric,
    metric_names,
    score_reply,
)
from spatialbabel import CLASSES, LANGUAGES, RegistryError, Scene, SceneObject, classes_equivalent
from tests.scoring.helpers import layout, moved, random_scene, value

COMPONENTS = ("parse", "f1", "class_accuracy", "position_fidelity", "scale_fidelity")


def test_the_five_components_make_the_score() -> None:
    assert tuple(metric_names("component")) == COMPONENTS
    assert COMPOSITES[0].name == "score" and COMPOSITES[0].parts == COMPONENTS
    for name in COMPONENTS:
        assert METRICS.get(name).higher_is_better is True


def test_registry_refuses_a_second_metric_of_the_same_name() -> None:
    with pytest.raises(RegistryError, match="already registered"):
        metric(
            "f1", label="x", higher_is_better=True, scope="all", role="variant", description="x"
        )(lambda ctx: 0.0)


@pytest.mark.parametrize("seed", range(5))
def test_truth_against_itself_scores_one_everywhere(seed: int) -> None:
    truth = layout(seed, count=3 + 3 * seed)
    result = score_reply(truth, truth)
    for name in (
        *COMPONENTS,
        "color_accuracy",
        "precision",
        "recall",
        "f1_gated",
        "f1_iou",
        "f1_class_iou",
        "aligned_class_accuracy",
        "aligned_position_fidelity",
        "aligned_scale_fidelity",
    ):
        assert result.values[name] == 1.0, name
    for name in ("count_error", "count_bias", "position_rmse", "world_extent_error"):
        assert result.values[name] == 0.0, name
    assert result.score == 1.0
    assert result.alignment == "identity"


@pytest.mark.parametrize("language", LANGUAGES)
def test_truth_written_and_parsed_back_scores_one(language: str) -> None:
    # The whole road a reply takes: the scene written as code in the language, then parsed.
    truth = layout(3, count=7)
    text = write(truth, language)
    result = score_reply(parse(text, language), truth)
    # Unity's numbers are C# floats, read at single precision as Unity holds them
    # (tests/parsers/test_cross_language.py holds Unity to the same bar).
    bar = 1e-6 if language == "unity" else 1e-9
    for name in COMPONENTS:
        assert result.values[name] == pytest.approx(1.0, abs=bar), name


def test_object_order_does_not_matter() -> None:
    truth = layout(1, count=9)
    prediction = moved(truth, np.random.default_rng(0).normal(0, 0.2, (9, 3)))
    prediction = prediction.with_objects(
        [replace(o, size=(o.size[0] * 1.1, *o.size[1:])) for o in prediction.objects]
    )
    reference = score_reply(prediction, truth).values
    rng = np.random.default_rng(5)
    for _ in range(5):
        shuffled_prediction = prediction.with_objects(
            [prediction.objects[i] for i in rng.permutation(9)]
        )
        shuffled_truth = truth.with_objects([truth.objects[i] for i in rng.permutation(9)])
        values = score_reply(shuffled_prediction, shuffled_truth).values
        for name, expected in reference.items():
            assert values[name] == pytest.approx(expected, abs=1e-12), name


def test_growing_jitter_lowers_position_fidelity_monotonically() -> None:
    truth = layout(2, count=9, spacing=2.5)
    direction = np.random.default_rng(1).normal(0, 1, (9, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    fidelities = [
        value(score_reply(moved(truth, s * direction), truth), "position_fidelity")
        for s in np.linspace(0.0, 1.2, 13)
    ]
    assert fidelities[0] == 1.0
    assert all(b < a for a, b in itertools.pairwise(fidelities)), fidelities


def test_random_jitter_of_growing_size_lowers_position_fidelity() -> None:
    truth = layout(4, count=12, spacing=2.5)
    noise = np.random.default_rng(2).normal(0, 1, (12, 3))
    fidelities = [
        value(score_reply(moved(truth, s * noise), truth), "position_fidelity")
        for s in (0.0, 0.05, 0.1, 0.2, 0.4)
    ]
    assert fidelities == sorted(fidelities, reverse=True) and len(set(fidelities)) == 5


@pytest.mark.parametrize("k", range(8))
def test_removing_k_objects_lowers_recall_by_k_over_n(k: int) -> None:
    truth = layout(5, count=8)
    prediction = truth.with_objects(truth.objects[k:])
    values = score_reply(prediction, truth).values
    assert values["recall"] == pytest.approx(1.0 - k / 8, abs=1e-12)
    # What is left is exact: nothing else moves.
    assert values["precision"] == 1.0
    assert values["class_accuracy"] == 1.0 and values["position_fidelity"] == 1.0


def test_random_scenes_score_far_lower() -> None:
    truth = layout(6, count=6)
    unrelated = [score_reply(random_scene(100 + i, count=6), truth) for i in range(20)]
    scores = [r.score for r in unrelated if r.score is not None]
    assert score_reply(truth, truth).score == 1.0
    # Same object count, so the unrestricted F1 is 1; everything else collapses.
    assert np.mean(scores) < 0.75 and max(scores) < 0.85
    assert np.mean([value(r, "f1_iou") for r in unrelated]) < 0.2
    assert np.mean([value(r, "class_accuracy") for r in unrelated]) < 0.5


def hand_example() -> tuple[Scene, Scene]:
    truth = Scene(
        "hand",
        (
            SceneObject("A", "cube", (0.0, 0.5, 0.0), color="red"),
            SceneObject("B", "sphere", (2.0, 0.5, 0.0), color="blue"),
        ),
        meta={"tier": 1},
    )
    prediction = Scene(
        "hand",
        (
            SceneObject("P1", "cube", (0.3, 0.5, 0.4), size=(1.2, 1.0, 1.0), color="red"),
            SceneObject("P2", "cylinder", (2.0, 0.5, 0.0), size=(1.0, 2.0, 1.0), color="blue"),
            SceneObject("P3", "cone", (-3.0, 0.5, 3.0), color="green"),
        ),
    )
    return truth, prediction


# Worked by hand (docs/scoring.md repeats it). Pairs: P1-A at distance 0.5, P2-B at 0; P3 extra.
# Extent: the exact boxes span x -0.5..2.5, y 0..1, z -0.5..0.5, diagonal sqrt(11).
HAND_POSITION = 1 - math.sqrt((0.5**2 + 0.0) / 2) / math.sqrt(11)
# Size errors (0.2, 0, 0) and (0, 1, 0): per-object RMSE 0.2/sqrt3 and 1/sqrt3.
HAND_SCALE = 1 - (0.2 / math.sqrt(3) + 1 / math.sqrt(3)) / 2
HAND = {
    "parse": 1.0,
    "f1": 2 * 2 / (3 + 2),
    "class_accuracy": 0.5,  # a cylinder is not a sphere
    "position_fidelity": HAND_POSITION,
    "scale_fidelity": HAND_SCALE,
    "color_accuracy": 1.0,
    "precision": 2 / 3,
    "recall": 1.0,
    "f1_gated": 0.8,
    # P1-A: overlap 0.8 x 1 x 0.6 = 0.48, union 1 + 1.2 - 0.48; IoU 0.279 < 0.5. P2-B: 1 / 2.
    "f1_iou": 2 * 1 / (3 + 2),
    # The one pair reaching IoU 0.5 is P2-B, a cylinder against a sphere: no class-matched pair.
    "f1_class_iou": 0.0,
    "count_error": 1.0,
    "count_bias": 1.0,
    "position_rmse": math.sqrt(0.125),
    # The cylinder's exact world box is 1 x 2 x 1 against the sphere's 1 x 1 x 1.
    "world_extent_error": (0.2 / math.sqrt(3) + 1 / math.sqrt(3)) / 2,
    # A scene scored as it is, with no parse: no diagnostics, read in full.
    "partial_reading": 0.0,
    "aligned_class_accuracy": 0.5,
    "aligned_position_fidelity": HAND_POSITION,
    "aligned_scale_fidelity": HAND_SCALE,
}


def test_hand_computed_example() -> None:
    truth, prediction = hand_example()
    result = score_reply(prediction, truth)
    assert set(result.values) == set(HAND)
    for name, expected in HAND.items():
        assert result.values[name] == pytest.approx(expected, abs=1e-9), name
    assert result.score == pytest.approx((1 + 0.8 + 0.5 + HAND_POSITION + HAND_SCALE) / 5, abs=1e-9)
    assert [(p.predicted, p.true) for p in result.matching.pairs] == [(0, 0), (1, 1)]
    assert result.matching.unmatched_predicted == (2,)
    assert result.tier == 1


def test_class_matched_f1_at_iou_reads_classes_through_the_synonym_table() -> None:
    truth = layout(7, count=6)
    # The same boxes under other names for the same classes ("box" is the hub's synonym of cube).
    text = write(truth, "json").replace('"cube"', '"box"').replace('"sphere"', '"ball"')
    assert '"box"' in text or '"ball"' in text
    result = parse(text, "json")
    assert result.ok
    assert score_reply(result, truth).values["f1_class_iou"] == 1.0
    # Every box exact, every class wrong: IoU alone counts them all, the paper's F1 none.
    wrong = truth.with_objects(
        [
            replace(
                o, class_name=next(c for c in CLASSES if not classes_equivalent(c, o.class_name))
            )
            for o in truth.objects
        ]
    )
    values = score_reply(wrong, truth).values
    assert values["f1_iou"] == 1.0 and values["f1_class_iou"] == 0.0


@pytest.mark.parametrize(("offset", "expected"), [(0.1, 2 / 3), (0.8, 0.0)])
def test_class_matched_f1_pairs_the_object_of_its_class(offset: float, expected: float) -> None:
    # A predicted sphere exactly on a true cube, with a true sphere `offset` beside it: IoU
    # matching takes the cube (IoU 1); the class-matched F1 needs the sphere, whose IoU is
    # 0.9 / 1.1 at 0.1 apart and 0.2 / 1.8 at 0.8 apart.
    truth = Scene(
        "two",
        (
            SceneObject("A", "cube", (0.0, 0.5, 0.0)),
            SceneObject("B", "sphere", (offset, 0.5, 0.0)),
        ),
    )
    prediction = Scene("two", (SceneObject("P", "sphere", (0.0, 0.5, 0.0)),))
    values = score_reply(prediction, truth).values
    assert values["f1_iou"] == pytest.approx(2 / 3)
    assert values["f1_class_iou"] == pytest.approx(expected)


def test_hand_example_with_a_tighter_gate() -> None:
    truth, prediction = hand_example()
    result = score_reply(prediction, truth, options=ScoreOptions(gate=0.4))
    assert result.values["f1_gated"] == pytest.approx(0.4, abs=1e-12)  # only P2-B within 0.4


def test_failed_parse_is_a_scored_failure_with_its_reason() -> None:
    truth, _ = hand_example()
    failed = score_reply(parse("Sorry, I can't do that.", "json"), truth)
    assert not failed.parsed and failed.failure_reason
    assert failed.values["parse"] == 0.0 and failed.values["f1"] == 0.0
    for name in ("class_accuracy", "position_fidelity", "scale_fidelity", "color_accuracy"):
        assert failed.values[name] is None
    assert failed.score is None
    assert failed.values["count_bias"] == -2.0


def test_failed_as_zero_counts_zero_everywhere_it_is_higher_better() -> None:
    truth, _ = hand_example()
    failed = score_reply(parse("", "json"), truth, options=ScoreOptions(failed_as_zero=True))
    for name in (
        "class_accuracy",
        "position_fidelity",
        "scale_fidelity",
        "color_accuracy",
        "aligned_position_fidelity",
    ):
        assert failed.values[name] == 0.0
    assert failed.values["world_extent_error"] is None  # no error to measure, never a perfect 0
    assert failed.score == 0.0


def test_class_accuracy_follows_the_hub_synonym_rule() -> None:
    for a in (*CLASSES, "unknown"):
        for b in CLASSES:
            truth = Scene("t", (SceneObject("t", b, (0.0, 0.5, 0.0)),))
            prediction = Scene("p", (SceneObject("p", a, (0.0, 0.5, 0.0)),))
            expected = 1.0 if classes_equivalent(a, b) else 0.0
            assert score_reply(prediction, truth).values["class_accuracy"] == expected


def test_world_extent_error_sees_what_the_size_vector_cannot() -> None:
    truth = Scene("t", (SceneObject("c", "cylinder", (0.0, 1.0, 0.0), size=(0.5, 2.0, 0.5)),))
    lying = Scene(
        "p", (SceneObject("c", "cylinder", (0.0, 1.0, 0.0), (90.0, 0.0, 0.0), (0.5, 2.0, 0.5)),)
    )
    values = score_reply(lying, truth).values
    assert values["scale_fidelity"] == 1.0
    # World boxes 0.5 x 2 x 0.5 against 0.5 x 0.5 x 2.
    assert values["world_extent_error"] == pytest.approx(
        math.sqrt((0 + 1.5**2 + 1.5**2) / 3), abs=1e-12
    )


def asymmetric_scene() -> Scene:
    return Scene(
        "asym",
        (
            SceneObject("a", "cube", (1.2, 0.4, -0.7), size=(0.8, 0.8, 0.8), color="red"),
            SceneObject("b", "sphere", (-1.5, 0.3, 0.9), size=(0.6, 0.6, 0.6), color="blue"),
            SceneObject("c", "cone", (0.4, 0.9, 2.1), size=(0.7, 1.8, 0.7), color="green"),
            SceneObject("d", "torus", (-2.2, 0.1, -1.8), size=(1.0, 0.25, 1.0), color="yellow"),
        ),
    )


@pytest.mark.parametrize("mapping", AXIS_MAPS[1:], ids=lambda m: m.name)
def test_alignment_undoes_each_convention_mistake(mapping: AxisMap) -> None:
    truth = asymmetric_scene()
    # The prediction carries the mistake the map undoes: the map's inverse applied to the truth.
    mistaken = apply_axis_map(truth, AxisMap("inverse", mapping.matrix.T, "test"))
    result = score_reply(mistaken, truth)
    assert result.alignment == mapping.name
    assert value(result, "position_fidelity") < 0.9
    assert result.values["aligned_position_fidelity"] == pytest.approx(1.0, abs=1e-12)
    assert result.composite(COMPOSITES[1]) == pytest.approx(1.0, abs=1e-12)


def test_alignment_cannot_rescue_a_wrong_layout() -> None:
    truth = asymmetric_scene()
    wrong = random_scene(7, count=4)
    result = score_reply(wrong, truth)
    assert value(result, "aligned_position_fidelity") < 0.9


def test_apply_axis_map_keeps_world_geometry() -> None:
    # A mirrored object is the same solid as its image: its world box is the image of the box.
    from spatialbabel import world_aabb

    obj = SceneObject("o", "cone", (1.0, 0.5, -0.3), (20.0, 35.0, -10.0), (0.6, 1.0, 0.8))
    for mapping in AXIS_MAPS:
        image = apply_axis_map(Scene("s", (obj,)), mapping).objects[0]
        lo, hi = world_aabb(obj)
        corners = np.array(
            [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
        )
        mapped = corners @ mapping.matrix.T
        lo_i, hi_i = world_aabb(image)
        assert np.allclose(hi_i - lo_i, mapped.max(axis=0) - mapped.min(axis=0), atol=1e-9), (
            mapping.name
        )
        assert image.size == obj.size


@pytest.mark.parametrize(
    ("position", "size"),
    [
        ((1e200, 0.0, 0.0), (1.0, 1.0, 1.0)),
        ((1e300, -1e300, 0.0), (1.0, 1.0, 1.0)),
        ((0.0, 0.5, 0.0), (1e300, 1e300, 1e300)),
    ],
)
def test_absurd_numbers_score_as_far_off_without_overflow(
    position: tuple[float, float, float], size: tuple[float, float, float]
) -> None:
    # A reply may hold any finite number; scoring it must neither crash nor write inf to JSON.
    truth, _ = hand_example()
    prediction = Scene(
        "p", (SceneObject("x", "cube", position, (10.0, 20.0, 30.0), size), truth.objects[1])
    )
    with np.errstate(all="raise"):
        result = score_reply(prediction, truth)
    json.dumps(result.to_dict(), allow_nan=False)
    assert value(result, "position_fidelity" if position[0] else "scale_fidelity") <= 0.5
    assert result.prediction is prediction  # the caller's scene, unclipped
