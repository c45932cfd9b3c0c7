"""Whatever a parser hands over, scoring gives bounded, finite, JSON-ready numbers."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoreOptions, metric_names, score_reply
from spatialbabel import CLASSES, UNKNOWN_CLASS, Scene, SceneObject
from tests.scoring.helpers import layout

coordinate = st.one_of(
    st.floats(-5, 5), st.floats(-1e12, 1e12), st.sampled_from([0.0, 1e300, -1e300, 5e-324])
)
extent = st.one_of(st.floats(0, 3), st.floats(0, 1e12), st.sampled_from([0.0, 1e300]))
angle = st.floats(-720, 720)

objects = st.lists(
    st.builds(
        lambda i, cls, p, r, s: SceneObject(f"o{i}", cls, p, r, s),
        st.integers(0, 10**6),
        st.sampled_from([*CLASSES, UNKNOWN_CLASS]),
        st.tuples(coordinate, coordinate, coordinate),
        st.tuples(angle, angle, angle),
        st.tuples(extent, extent, extent),
    ),
    max_size=8,
    unique_by=lambda o: o.id,
)

BOUNDED = {
    name
    for name in metric_names()
    if name not in ("count_error", "count_bias", "position_rmse", "world_extent_error")
}


@settings(max_examples=150, deadline=None)
@given(objects, st.booleans())
def test_any_prediction_scores_within_bounds(
    predicted: list[SceneObject], failed_as_zero: bool
) -> None:
    truth = layout(0, count=5)
    result = score_reply(
        Scene("p", tuple(predicted)), truth, options=ScoreOptions(failed_as_zero=failed_as_zero)
    )
    json.dumps(result.to_dict(), allow_nan=False)
    for name, value in result.values.items():
        if value is None:
            continue
        if name in BOUNDED:
            assert 0.0 <= value <= 1.0, (name, value)
        elif name != "count_bias":
            assert value >= 0.0, (name, value)
    assert len(result.matching.pairs) == min(len(predicted), 5)
