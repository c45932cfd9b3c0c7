"""Numeric answers: MRA over the ten thresholds, and reading one number in the unit asked."""

from __future__ import annotations

import pytest

from suites.numeric import THRESHOLDS, final_answer, grade_number, mra, read_quantity


def test_thresholds_are_the_ten_confidences() -> None:
    assert THRESHOLDS == (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


@pytest.mark.parametrize(
    ("predicted", "score"),
    [
        (10.0, 1.0),
        (10.5, 1.0),  # exactly 5 % off hits every threshold
        (9.5, 1.0),
        (10.51, 0.9),
        (13.0, 0.5),  # 30 %: c = 0.50 ... 0.70
        (12.0, 0.7),  # 20 %: c = 0.50 ... 0.80
        (15.0, 0.1),  # 50 % hits c = 0.50 only
        (15.01, 0.0),
        (-10.0, 0.0),
        (float("nan"), 0.0),
    ],
)
def test_mra(predicted: float, score: float) -> None:
    assert mra(predicted, 10.0) == pytest.approx(score)


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [
        ("8.6", "m", 8.6),
        ("8.6 m", "m", 8.6),
        ("about 8.6 metres.", "m", 8.6),
        ("860 cm", "m", 8.6),
        ("0.0086 km", "m", 8.6),
        ("1.32 m/s", "m/s", 1.32),
        ("3.6 km/h", "m/s", 1.0),
        ("23°", "deg", 23.0),
        ("0.5 rad", "deg", 28.64788975654116),
        ("−2", "m", -2.0),
        ("5 minutes", "m", 5.0),  # not a unit it knows: the number, in the unit asked
    ],
)
def test_read_quantity(text: str, unit: str, value: float) -> None:
    read, why = read_quantity(text, unit)
    assert why == ""
    assert read == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "unit", "why"),
    [
        ("3-4 m", "m", "range"),
        ("between 3 to 4", "m", "range"),
        ("no idea", "m", "no number"),
        ("3 m/s", "m", "speed"),
        ("12 m", "deg", "length"),
    ],
)
def test_unreadable_quantities(text: str, unit: str, why: str) -> None:
    read, reason = read_quantity(text, unit)
    assert read is None and why in reason


def test_final_answer_takes_the_last_answer_line() -> None:
    chain = "GROUND: the cube\nCURRENT: 3 m away\nANSWER: 4.1"
    assert final_answer(chain) == "4.1"
    assert final_answer("Answer: 2\nthinking more...\n**Answer:** 3 m") == "3 m"
    assert final_answer("  7.5 m ") == "7.5 m"
    assert final_answer("it is\nabout 7") is None


def test_grades_keep_unreadable_answers_at_zero() -> None:
    good = grade_number("ANSWER: 8.6", 8.589, "m")
    assert (good.status, good.score, good.parsed) == ("correct", 1.0, 8.6)
    half = grade_number("Answer: 11.2 m", 8.589 * 1.3, "m")
    assert half.status == "correct"
    partial = grade_number("Answer: 13", 10.0, "m")
    assert (partial.status, partial.score) == ("partial", 0.5)
    wrong = grade_number("Answer: 30", 10.0, "m")
    assert (wrong.status, wrong.score) == ("incorrect", 0.0)
    for text in ("I cannot tell.\nSorry.", "Answer: 3-4 m", "Answer: 2 m/s"):
        grade = grade_number(text, 3.0, "m")
        assert (grade.status, grade.score, grade.parsed) == ("parser_failure", 0.0, None)
