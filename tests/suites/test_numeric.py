"""Numeric answers: MRA over the ten thresholds, and reading one number in the unit asked."""

from __future__ import annotations

import numpy as np
import pytest

from suites.numeric import THRESHOLDS, final_answer, grade_number, mra, mra_many, read_quantity


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
    assert mra_many(np.array([[predicted]]), np.array([10.0]))[0, 0] == mra(predicted, 10.0)


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
        ("5 apples", "m", 5.0),  # not a unit it knows: the number, in the unit asked
        ("5 in the last frame", "m", 5.0),  # "in" is read as a word, never as inches
        # Decimal commas, and thousands groups that cannot be a decimal comma.
        ("1,38 m/s", "m/s", 1.38),
        ("12,5", "m", 12.5),
        ("1,3800 m", "m", 1.38),
        (",5 m", "m", 0.5),
        ("1,234.5 mm", "m", 1.2345),
        ("1,234,567 mm", "m", 1234.567),
        # Imperial and other units, converted.
        ("16.8 ft", "m", 16.8 * 0.3048),
        ("6 feet", "m", 6 * 0.3048),
        ("40 inches", "m", 40 * 0.0254),
        ("3 yd", "m", 3 * 0.9144),
        ("3 mph", "m/s", 3 * 0.44704),
        ("3 miles per hour", "m/s", 3 * 0.44704),
        ("5 ft/s", "m/s", 5 * 0.3048),
        ("2 knots", "m/s", 2 * 1852 / 3600),
        ("10 km/hr", "m/s", 10 / 3.6),
        ("1.5-metre", "m", 1.5),
        ("7 m (about 3-4 tiles)", "m", 7.0),  # a range after the answer is not the answer
        ("8.6 m to the left", "m", 8.6),
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
        ("between 4 and 6 metres", "m", "range"),
        ("4 m or 5 m", "m", "range"),
        ("4.5 m/s to 5 m/s", "m/s", "range"),
        ("20~30°", "deg", "range"),
        ("no idea", "m", "no number"),
        ("3 m/s", "m", "speed"),
        ("12 m", "deg", "length"),
        ("16.8 ft", "m/s", "length"),
        ("5 minutes", "m", "time"),
        ("2.5 s", "m/s", "time"),
        ("1,380 m", "m", "thousands separator"),
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
    feet = grade_number("Answer: 16.8 ft", 16.8 * 0.3048, "m")
    assert (feet.status, feet.parsed) == ("correct", pytest.approx(5.12064))
    comma = grade_number("Answer: 1,38 m/s", 1.38, "m/s")
    assert (comma.status, comma.parsed) == ("correct", 1.38)
    for text in (
        "I cannot tell.\nSorry.",
        "Answer: 3-4 m",
        "Answer: 2 m/s",
        "Answer: between 4 and 6 metres",
        "Answer: 1,380 m",
    ):
        grade = grade_number(text, 3.0, "m")
        assert (grade.status, grade.score, grade.parsed) == ("parser_failure", 0.0, None)
