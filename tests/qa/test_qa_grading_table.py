"""The QA evaluator against tables of replies, at least 40 per category, with their verdicts.

Each row is (reply, what is read, status). The same rules apply to every mode, so the rows mix
direct answers, scratchpads, markdown, hedges, several numbers and Code-CoT replies with code.
"""

from __future__ import annotations

from typing import Any

import pytest

from spatialbabel.qa import ObjectMention, Question
from suites.qa.grading import grade

SCENE = "scene_000001"


def _question(
    category: str, kind: str, answer: Any, program: list[dict[str, Any]], **extra: Any
) -> Question:
    return Question(f"{SCENE}-{kind}", SCENE, category, kind, "?", answer, tuple(program), **extra)  # type: ignore[arg-type]


def _obj(ident: str, color: str, shape: str) -> ObjectMention:
    return ObjectMention(ident, f"the {color} {shape}", color, shape)


def _steps_pair(
    op: str, value: str, first: ObjectMention, second: ObjectMention
) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for obj in (first, second):
        base = len(steps)
        steps += [
            {"op": "scene", "inputs": []},
            {"op": "filter_color", "inputs": [base], "value": obj.color},
            {"op": "filter_shape", "inputs": [base + 1], "value": obj.shape},
            {"op": "unique", "inputs": [base + 2]},
        ]
    steps.append({"op": op, "inputs": [3, 7], "value": value})
    return steps


COUNT = _question(
    "counting",
    "color",
    3,
    [
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [0], "value": "red"},
        {"op": "count", "inputs": [1]},
    ],
)
EXISTS_YES = _question(
    "existence",
    "color_shape",
    "yes",
    [{"op": "scene", "inputs": []}, {"op": "exists", "inputs": [0]}],
)
EXISTS_NO = _question(
    "existence",
    "color_shape",
    "no",
    [{"op": "scene", "inputs": []}, {"op": "exists", "inputs": [0]}],
)
CYLINDER = _obj("obj3", "green", "cylinder")
LOCATE = _question(
    "localization",
    "position",
    [1.2, 0.5, -0.8],
    [
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [0], "value": "green"},
        {"op": "filter_shape", "inputs": [1], "value": "cylinder"},
        {"op": "unique", "inputs": [2]},
        {"op": "position", "inputs": [3]},
    ],
    objects=(CYLINDER,),
    tolerance=0.1,
)
RED_CUBE, BLUE_SPHERE = _obj("obj0", "red", "cube"), _obj("obj1", "blue", "sphere")
GREEN_CONE, YELLOW_CYLINDER = _obj("obj2", "green", "cone"), _obj("obj4", "yellow", "cylinder")
RED_SPHERE, BLUE_CUBE = _obj("obj5", "red", "sphere"), _obj("obj6", "blue", "cube")
LEFT = _question(
    "relationship",
    "horizontal",
    "left",
    _steps_pair("query_relation", "horizontal", RED_CUBE, BLUE_SPHERE),
    choices=("left", "right"),
    objects=(RED_CUBE, BLUE_SPHERE),
)
BEHIND = _question(
    "relationship",
    "depth",
    "behind",
    _steps_pair("query_relation", "depth", GREEN_CONE, YELLOW_CYLINDER),
    choices=("in front", "behind"),
    objects=(GREEN_CONE, YELLOW_CYLINDER),
)
ABOVE = _question(
    "relationship",
    "vertical",
    "above",
    _steps_pair("query_relation", "vertical", RED_SPHERE, BLUE_CUBE),
    choices=("below", "above"),
    objects=(RED_SPHERE, BLUE_CUBE),
)


def _comparison(kind: str, first: ObjectMention, second: ObjectMention, winner: int) -> Question:
    choices = (first.ref, second.ref)
    steps = _steps_pair("compare", kind, first, second)
    steps.append({"op": "select", "inputs": [8], "value": list(choices)})
    return _question(
        "comparison", kind, choices[winner], steps, choices=choices, objects=(first, second)
    )


LARGER = _comparison("larger", RED_CUBE, BLUE_SPHERE, 0)
WHITE_CYLINDER = _obj("obj7", "white", "cylinder")
TALLER = _comparison("taller", GREEN_CONE, WHITE_CYLINDER, 1)
PINK_TORUS, ORANGE_PYRAMID = _obj("obj8", "pink", "torus"), _obj("obj9", "orange", "pyramid")
CLOSER = _comparison("closer", PINK_TORUS, ORANGE_PYRAMID, 0)

FENCE = "```"

COUNTING_TABLE: list[tuple[str, Any, str]] = [
    ("3", 3, "correct"),
    ("Final answer: 3", 3, "correct"),
    ("Final answer: 4", 4, "wrong"),
    ("**Final Answer:** 3", 3, "correct"),
    ("**Final answer**: 3", 3, "correct"),
    ("## Final answer\n3", 3, "correct"),
    ("Final answer: three", 3, "correct"),
    ("There are three red objects in the scene.", 3, "correct"),
    ("I see 2 red cubes and 1 red sphere, so the total is 3.", 3, "correct"),
    ("I see 2 red cubes and 1 red sphere.\nTotal: 3", 3, "correct"),
    ("Total: 3 red objects (2 cubes, 1 sphere)", 3, "correct"),
    ("The answer is 3.", 3, "correct"),
    # The last marker decides, even when prose after it changes its mind.
    ("The answer is 2. Wait, let me recount: 3.", 2, "wrong"),
    ("Let me count: 1. red cube, 2. red sphere, 3. red cone.\nFinal answer: 3", 3, "correct"),
    (
        "Counting the red objects: one on the left, one in the middle and one at the back. That makes 3.",
        3,
        "correct",
    ),
    ("Final answer: 3 or 4", 3, "hedged"),
    ("Final answer: 3-4", 3, "hedged"),
    ("Probably 3 or 4.", 4, "hedged"),
    ("Final answer: between 2 and 4", 2, "hedged"),
    ("I can't tell.", None, "no_answer"),
    ("", None, "no_answer"),
    (f"{FENCE}python\nobjects = [1, 2, 3, 4]\n{FENCE}\nFinal answer: 3", 3, "correct"),
    (
        f"{FENCE}python\nred = ['cube', 'sphere', 'cone']\nprint(len(red))  # 3\n{FENCE}\nThere are 3 red objects.",
        3,
        "correct",
    ),
    (
        f'{FENCE}json\n{{"objects": [{{"position": [1, 0, 2]}}]}}\n{FENCE}\nFinal answer: 3',
        3,
        "correct",
    ),
    # Code alone answers nothing: its numbers are not the model's answer.
    (f"{FENCE}python\nfor i in range(5):\n    add_cube(i)\n{FENCE}", None, "no_answer"),
    (f"{FENCE}python\nx = [1, 2, 3]\nprint(len(x))\n{FENCE}", None, "no_answer"),
    ("Final answer: `3`", 3, "correct"),
    ("Final answer: \\boxed{3}", 3, "correct"),
    ("$\\boxed{3}$", 3, "correct"),
    ("The final answer is 3", 3, "correct"),
    ("FINAL ANSWER: 3", 3, "correct"),
    ("Final answer - 3", 3, "correct"),
    ("Final answer:\n\n3", 3, "correct"),
    ("> Final answer: 3", 3, "correct"),
    ("- Final answer: 3", 3, "correct"),
    ("Answer: 3", 3, "correct"),
    ("There are 3 red objects in this 3D scene.", 3, "correct"),
    ("Red objects at x = 1.5, x = -0.5 and x = 2.0: 3 in total.", 3, "correct"),
    ("Final answer: 0", 0, "wrong"),
    ("Final answer: none", 0, "wrong"),
    ("Final answer: 3 red objects; earlier I said 2 but that was wrong", 3, "correct"),
    ("I first thought 4, but after checking again the count is 3.", 3, "correct"),
    ("Final answer: 3.5", None, "no_answer"),
    ("<answer>3</answer>", 3, "correct"),
    ("Final answer: 3 (two cubes and one sphere)", 3, "correct"),
    ("The scene has 7 objects; 3 of them are red.", 3, "correct"),
    # Without a marker the last integer counts, whatever it counts.
    ("The scene has 3 red objects and 7 objects in total.", 7, "wrong"),
    ("Step 1: find red objects.\nStep 2: count them.\nFinal answer: 3", 3, "correct"),
    ("*Final answer*: 3", 3, "correct"),
    ("__Final answer:__ 3", 3, "correct"),
    ("Final Answer: There are **3** red objects.", 3, "correct"),
    ("```\n3\n```", 3, "correct"),
    ("Before I give my final answer, let me look again. I see 3.", 3, "correct"),
]

EXISTENCE_TABLE: list[tuple[Question, str, Any, str]] = [
    (EXISTS_YES, "Yes", "yes", "correct"),
    (EXISTS_YES, "No", "no", "wrong"),
    (EXISTS_YES, "Final answer: yes", "yes", "correct"),
    (EXISTS_YES, "Final answer: No", "no", "wrong"),
    (EXISTS_YES, "**Final Answer:** Yes", "yes", "correct"),
    (EXISTS_YES, "Yes, there is a green cone on the left.", "yes", "correct"),
    (EXISTS_YES, "No, there isn't.", "no", "wrong"),
    (EXISTS_YES, "There is no green cone in the scene.", "no", "wrong"),
    (EXISTS_NO, "There is no green cone in the scene.", "no", "correct"),
    (
        EXISTS_YES,
        "Looking at the image, I see a green cone near the back. So yes.",
        "yes",
        "correct",
    ),
    (EXISTS_YES, "Final answer: yes or no", "yes", "hedged"),
    (EXISTS_YES, "yes/no", "yes", "hedged"),
    (EXISTS_YES, "yes and no", "yes", "hedged"),
    (EXISTS_YES, "I'm not sure.", None, "no_answer"),
    (EXISTS_YES, "Is there a green cone? Yes. Final answer: no", "no", "wrong"),
    (EXISTS_YES, "Final answer: yes\n\nNo other green objects appear.", "yes", "correct"),
    (EXISTS_YES, "Yes! There is one.", "yes", "correct"),
    (
        EXISTS_YES,
        f"{FENCE}python\nhas_cone = True  # no doubt\n{FENCE}\nFinal answer: yes",
        "yes",
        "correct",
    ),
    (EXISTS_NO, "Nope.", "no", "correct"),
    (EXISTS_YES, "Yep, a green cone sits behind the red cube.", "yes", "correct"),
    (EXISTS_YES, "The answer is yes.", "yes", "correct"),
    (EXISTS_YES, "## Final answer\nYes", "yes", "correct"),
    (EXISTS_YES, "Final answer: `yes`", "yes", "correct"),
    (EXISTS_YES, "\\boxed{yes}", "yes", "correct"),
    (EXISTS_YES, "$\\boxed{\\text{Yes}}$", "yes", "correct"),
    (EXISTS_YES, "There is no doubt: yes, the green cone is present.", "yes", "correct"),
    # Without a marker the last yes/no word counts, even a "no" about something else.
    (EXISTS_YES, "There is a green cone. No other cones are visible.", "no", "wrong"),
    (
        EXISTS_YES,
        "Final answer: Yes, there is a green cone, but no green sphere.",
        "yes",
        "correct",
    ),
    (EXISTS_YES, "YES", "yes", "correct"),
    (EXISTS_NO, "Final answer: no.", "no", "correct"),
    (EXISTS_NO, "There is no such object. Final answer: No", "no", "correct"),
    (EXISTS_YES, "I think so, yes.", "yes", "correct"),
    (EXISTS_YES, "Final answer: N/A", None, "no_answer"),
    (EXISTS_YES, "Final answer: true", None, "no_answer"),
    (EXISTS_YES, "Noted. The green cone is there: yes.", "yes", "correct"),
    (EXISTS_YES, "No doubt about it.", "no", "wrong"),
    (EXISTS_YES, "I do not see a green cone, so no.", "no", "wrong"),
    (EXISTS_NO, "I do not see a green cone, so no.", "no", "correct"),
    (EXISTS_YES, "> **Yes**", "yes", "correct"),
    (EXISTS_YES, "- yes", "yes", "correct"),
    (EXISTS_YES, "Answer: Yes", "yes", "correct"),
    (EXISTS_YES, "The final answer is: yes", "yes", "correct"),
    (EXISTS_YES, "It's hard to say; perhaps yes.", "yes", "correct"),
    (EXISTS_NO, "Final answer:\n\nNo", "no", "correct"),
    (EXISTS_YES, "<b>Yes</b>", "yes", "correct"),
    (EXISTS_NO, "Final answer: yes or no, I cannot tell", "yes", "hedged"),
]

LOCALIZATION_TABLE: list[tuple[str, Any, str]] = [
    ("(1.2, 0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.25, 0.48, -0.79)", [1.25, 0.48, -0.79], "correct"),
    ("Final answer: (1.4, 0.5, -0.8)", [1.4, 0.5, -0.8], "wrong"),
    ("Final answer: x = 1.2, y = 0.5, z = -0.8", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: x=1.2 m, y=0.5 m, z=-0.8 m", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: 1.2m, 0.5m, -0.8m", [1.2, 0.5, -0.8], "correct"),
    ("**Final Answer:** `(1.2, 0.5, -0.8)`", [1.2, 0.5, -0.8], "correct"),
    ("Final answer:\n- x: 1.2\n- y: 0.5\n- z: -0.8", [1.2, 0.5, -0.8], "correct"),
    ("The green cylinder is at roughly (1.2, 0.5, -0.8).", [1.2, 0.5, -0.8], "correct"),
    (
        "Reasoning: the ground spans -3 to 3.\nThe cylinder is about 4 units from the left edge.\nFinal answer: (1.2, 0.5, -0.8)",
        [1.2, 0.5, -0.8],
        "correct",
    ),
    (
        "The ground spans -3 to 3 in x and z.\nSo the centre is at (1.2, 0.5, -0.8).",
        [1.2, 0.5, -0.8],
        "correct",
    ),
    (
        "The ground spans -3 to 3.\nThe centre is at x = 1.2\ny = 0.5\nz = -0.8",
        [1.2, 0.5, -0.8],
        "correct",
    ),
    ("Its 3D position is (1.2, 0.5, -0.8).", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5)", None, "no_answer"),
    ("I cannot determine the coordinates.", None, "no_answer"),
    (
        f"{FENCE}python\nbpy.ops.mesh.primitive_cylinder_add(location=(1.2, 0.8, 0.5))\n{FENCE}\nFinal answer: (1.2, 0.5, -0.8)",
        [1.2, 0.5, -0.8],
        "correct",
    ),
    (
        f"{FENCE}python\ncyl.location = (1.2, 0.8, 0.5)\n{FENCE}\nIn the scene frame that is (1.2, 0.5, -0.8).",
        [1.2, 0.5, -0.8],
        "correct",
    ),
    ("Final answer: [1.2, 0.5, -0.8]", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5, −0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: 1.2, 0.5, -0.8", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5, 0.8)", [1.2, 0.5, 0.8], "wrong"),
    ("Final answer: (12, 5, -8)", [12.0, 5.0, -8.0], "wrong"),
    ("Final answer: (1.2, 0.5, -0.8)\n\nThis is object 2 of 5.", [1.2, 0.5, -0.8], "correct"),
    # The first three numbers are read, even when the first is not a coordinate.
    ("Final answer: object 2 is at (1.2, 0.5, -0.8)", [2.0, 1.2, 0.5], "wrong"),
    ("x ≈ 1.2, y ≈ 0.5, z ≈ -0.8", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (+1.2, +0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.20, 0.50, -0.80)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5, -0.8) or maybe (1.3, 0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (.9, .5, -.8)", [0.9, 0.5, -0.8], "wrong"),
    ("\\boxed{(1.2, 0.5, -0.8)}", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.55, -0.75)", [1.2, 0.55, -0.75], "correct"),
    ("Final answer: (1.27, 0.57, -0.87)", [1.27, 0.57, -0.87], "wrong"),
    ("Final answer: (1.2e0, 5e-1, -8e-1)", [1.2, 0.5, -0.8], "correct"),
    ("The answer is (1.2, 0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Answer: x: 1.2; y: 0.5; z: -0.8", [1.2, 0.5, -0.8], "correct"),
    ("## Final answer\n(1.2, 0.5, -0.8)", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: the centre is at (1.2, 0.5, -0.8) metres", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: unknown", None, "no_answer"),
    ("Final answer: (1.2, 0.5, -0.8", [1.2, 0.5, -0.8], "correct"),
    (
        "The cylinder sits on the ground, so y is half its height, 0.5.\nIts x is about 1.2 and z about -0.8.",
        [0.5, 1.2, -0.8],
        "wrong",
    ),
    ("Final answer: x 1.2 y 0.5 z -0.8", [1.2, 0.5, -0.8], "correct"),
    ("Final answer: (1.2, 0.5, -0.8)\nSecond guess: (0, 0, 0)", [1.2, 0.5, -0.8], "correct"),
]

RELATIONSHIP_TABLE: list[tuple[Question, str, Any, str]] = [
    (LEFT, "left", "left", "correct"),
    (LEFT, "Right", "right", "wrong"),
    (LEFT, "Final answer: left", "left", "correct"),
    (LEFT, "Final answer: to the left", "left", "correct"),
    (LEFT, "**Final Answer:** Left", "left", "correct"),
    (LEFT, "The red cube is to the left of the blue sphere.", "left", "correct"),
    # The reference object as the subject turns the relation round.
    (LEFT, "The blue sphere is to the right of the red cube.", "left", "correct"),
    (LEFT, "The red cube is to the right of the blue sphere.", "right", "wrong"),
    (LEFT, "Final answer: left or right", None, "hedged"),
    (LEFT, "Final answer: It is not to the right; it is to the left.", "left", "correct"),
    (
        LEFT,
        "From the camera, the red cube appears on the left side of the image while the blue sphere is on the right.\nFinal answer: left",
        "left",
        "correct",
    ),
    (
        LEFT,
        "The red cube is at x = -1.5 and the blue sphere at x = 0.8, so the cube is further left.\nFinal answer: left",
        "left",
        "correct",
    ),
    (LEFT, "Left, because the sphere is further right.", "left", "correct"),
    (
        LEFT,
        f"{FENCE}python\n# cube on the right? no\ncube.location.x = -1.5\n{FENCE}\nFinal answer: left",
        "left",
        "correct",
    ),
    (
        LEFT,
        "Looking at the image, the cube is on the left.\nThe sphere is on the right.",
        "left",
        "correct",
    ),
    (LEFT, "The red cube is to the left.", "left", "correct"),
    (
        LEFT,
        "Final answer: The red cube is on the left-hand side of the blue sphere.",
        "left",
        "correct",
    ),
    (LEFT, "It is to the right of the blue sphere.", "right", "wrong"),
    (LEFT, "Final answer: neither", None, "no_answer"),
    (LEFT, "I can't tell from the image.", None, "no_answer"),
    (LEFT, "Final answer: left (it is not to the right)", "left", "correct"),
    (LEFT, "Final answer: leftmost", "left", "correct"),
    (LEFT, "Final answer: LEFT", "left", "correct"),
    (LEFT, "\\boxed{\\text{left}}", "left", "correct"),
    (LEFT, "Final answer: the right side", "right", "wrong"),
    (BEHIND, "Final answer: behind", "behind", "correct"),
    (BEHIND, "Final answer: in front of", "in front", "wrong"),
    (BEHIND, "The green cone is behind the yellow cylinder.", "behind", "correct"),
    (BEHIND, "The yellow cylinder is in front of the green cone.", "behind", "correct"),
    (
        BEHIND,
        "The green cone is farther from the camera than the yellow cylinder.",
        "behind",
        "correct",
    ),
    (BEHIND, "The green cone is closer to the camera.", "in front", "wrong"),
    (BEHIND, "Final answer: in front or behind, hard to say", None, "hedged"),
    (BEHIND, "Final answer: It is not in front; it is behind.", "behind", "correct"),
    (BEHIND, "Final answer: further back", "behind", "correct"),
    (BEHIND, "Final answer: **Behind**", "behind", "correct"),
    (ABOVE, "Final answer: above", "above", "correct"),
    (ABOVE, "Final answer: below", "below", "wrong"),
    (ABOVE, "The red sphere sits on top of the blue cube.", "above", "correct"),
    (ABOVE, "The blue cube is below the red sphere.", "above", "correct"),
    (ABOVE, "The red sphere is higher than the blue cube.", "above", "correct"),
    (ABOVE, "Final answer: under", "below", "wrong"),
    (ABOVE, "The red sphere rests on the blue cube, so it is above it.\n", "above", "correct"),
    (
        ABOVE,
        "Final answer: The red sphere is above the blue cube, not below it.",
        "above",
        "correct",
    ),
    (ABOVE, "Final answer: beneath", "below", "wrong"),
]

COMPARISON_TABLE: list[tuple[Question, str, Any, str]] = [
    (LARGER, "the red cube", "the red cube", "correct"),
    (LARGER, "Final answer: the red cube", "the red cube", "correct"),
    (LARGER, "Final answer: red cube", "the red cube", "correct"),
    (LARGER, "Final answer: The blue sphere", "the blue sphere", "wrong"),
    (LARGER, "The red cube is larger than the blue sphere.", "the red cube", "correct"),
    (LARGER, "The blue sphere is smaller than the red cube.", "the red cube", "correct"),
    (LARGER, "The blue sphere is larger than the red cube.", "the blue sphere", "wrong"),
    (LARGER, "Final answer: the cube", "the red cube", "correct"),
    (LARGER, "Final answer: the red one", "the red cube", "correct"),
    (LARGER, "Final answer: the red box", "the red cube", "correct"),
    (LARGER, "Final answer: the ball", "the blue sphere", "wrong"),
    (LARGER, "Final answer: the red cube or the blue sphere", None, "hedged"),
    (LARGER, "Final answer: the red cube, not the blue sphere", "the red cube", "correct"),
    (LARGER, "Final answer: **The red cube**", "the red cube", "correct"),
    (LARGER, "The red cube is bigger.", "the red cube", "correct"),
    (LARGER, "The blue sphere is smaller.", "the red cube", "correct"),
    (LARGER, "The bigger one is the red cube.", "the red cube", "correct"),
    (LARGER, "The smaller one is the blue sphere.", "the red cube", "correct"),
    (LARGER, "Both look similar in size.", None, "no_answer"),
    (
        LARGER,
        f"{FENCE}python\nred_cube.scale = (1, 1, 1)\nblue_sphere.scale = (0.5, 0.5, 0.5)\n{FENCE}\nFinal answer: the red cube",
        "the red cube",
        "correct",
    ),
    (
        LARGER,
        "Volume of the cube is 1.0; volume of the sphere is 0.07.\nFinal answer: the red cube",
        "the red cube",
        "correct",
    ),
    (
        LARGER,
        "The red cube has a volume of about 1 m³ while the blue sphere has about 0.07 m³, so the red cube is larger.",
        "the red cube",
        "correct",
    ),
    (LARGER, "Final answer: crimson cube", "the red cube", "correct"),
    (LARGER, "Final answer: the navy sphere", "the blue sphere", "wrong"),
    (LARGER, "Final answer: the first one", "the red cube", "correct"),
    (LARGER, "Final answer: the latter", "the blue sphere", "wrong"),
    (LARGER, "Final answer: neither", None, "no_answer"),
    (LARGER, "I think the red cube, since the blue sphere is small.", "the red cube", "correct"),
    (LARGER, "The red cube (the blue sphere is smaller)", "the red cube", "correct"),
    (LARGER, "Final answer: Red cube.", "the red cube", "correct"),
    (TALLER, "Final answer: the white cylinder", "the white cylinder", "correct"),
    (TALLER, "The white cylinder is taller than the green cone.", "the white cylinder", "correct"),
    (TALLER, "The green cone is shorter than the white cylinder.", "the white cylinder", "correct"),
    (TALLER, "The green cone is taller.", "the green cone", "wrong"),
    (TALLER, "Final answer: the column", "the white cylinder", "correct"),
    (TALLER, "The green cone is shorter.", "the white cylinder", "correct"),
    (CLOSER, "Final answer: the pink torus", "the pink torus", "correct"),
    (
        CLOSER,
        "The orange pyramid is farther from the camera than the pink torus.",
        "the pink torus",
        "correct",
    ),
    (CLOSER, "The pink donut is closer to the camera.", "the pink torus", "correct"),
    (CLOSER, "The orange pyramid is closer.", "the orange pyramid", "wrong"),
    (CLOSER, "Final answer: the ring", "the pink torus", "correct"),
    (CLOSER, "Final answer: the pink torus is in front", "the pink torus", "correct"),
    (
        CLOSER,
        "Final answer: the pink torus or the orange pyramid, they look equally far",
        None,
        "hedged",
    ),
]


def _check(question: Question, reply: str, read: Any, status: str) -> None:
    verdict = grade(question, reply)
    assert verdict.status == status, (reply, verdict)
    assert verdict.correct == (status == "correct")
    if status == "hedged":
        return
    if isinstance(read, list):
        assert verdict.answer == pytest.approx(read), (reply, verdict)
    else:
        assert verdict.answer == read, (reply, verdict)


@pytest.mark.parametrize(("reply", "read", "status"), COUNTING_TABLE)
def test_counting_replies(reply: str, read: Any, status: str) -> None:
    _check(COUNT, reply, read, status)


@pytest.mark.parametrize(("question", "reply", "read", "status"), EXISTENCE_TABLE)
def test_existence_replies(question: Question, reply: str, read: Any, status: str) -> None:
    _check(question, reply, read, status)


@pytest.mark.parametrize(("reply", "read", "status"), LOCALIZATION_TABLE)
def test_localization_replies(reply: str, read: Any, status: str) -> None:
    _check(LOCATE, reply, read, status)


@pytest.mark.parametrize(("question", "reply", "read", "status"), RELATIONSHIP_TABLE)
def test_relationship_replies(question: Question, reply: str, read: Any, status: str) -> None:
    _check(question, reply, read, status)


@pytest.mark.parametrize(("question", "reply", "read", "status"), COMPARISON_TABLE)
def test_comparison_replies(question: Question, reply: str, read: Any, status: str) -> None:
    _check(question, reply, read, status)


def test_every_table_has_at_least_forty_rows_and_every_verdict() -> None:
    for table in (
        COUNTING_TABLE,
        EXISTENCE_TABLE,
        LOCALIZATION_TABLE,
        RELATIONSHIP_TABLE,
        COMPARISON_TABLE,
    ):
        assert len(table) >= 40
        assert {"correct", "wrong", "no_answer"} <= {row[-1] for row in table}


def test_a_tolerance_override_changes_only_localization_verdicts() -> None:
    reply = "Final answer: (1.4, 0.5, -0.8)"
    assert grade(LOCATE, reply).status == "wrong"
    loose = grade(LOCATE, reply, tolerance=0.25)
    assert loose.correct and loose.error == pytest.approx(0.2)
    assert grade(COUNT, "Final answer: 3", tolerance=0.25).correct


def test_the_same_reply_gets_the_same_verdict_in_every_mode_wrapper() -> None:
    # Grading never looks at the mode: a reply is graded by its text alone, so wrapping the
    # same final line in a scratchpad or after code changes nothing.
    core = "Final answer: left"
    for reply in (
        core,
        f"Let me think.\nThe cube is on one side.\n{core}",
        f"{FENCE}js\nconst x = 1;\n{FENCE}\n{core}",
    ):
        assert grade(LEFT, reply).status == "correct"
