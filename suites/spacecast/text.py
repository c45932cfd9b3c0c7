"""SpaceCast's words: object names, the change, the frame, the question and the prompt.

Everything a question relies on is defined in its own text: which image is which, the eight
direction words (or compass words, with north fixed by image 1), what front means for a camera
(the way it looks: farther from it), how distances are measured, the three occlusion states
(of one object among all, or of one object behind another), and that the images show the scene
before the change.
"""

from __future__ import annotations

from typing import Final

from spatialbabel import SceneObject

SYSTEM: Final = (
    "You are a careful vision-language assistant solving multiple-choice spatial reasoning "
    "questions about images."
)
COT_SINGLE: Final = (
    "Work through your reasoning briefly, then give your final choice as the LAST line. Keep "
    "your reasoning as short as possible (a few sentences at most) so the final Answer line is "
    "not truncated. Return this format: Reasoning: <brief reasoning> Answer: <single letter>"
)
COT_MULTI: Final = (
    "Work through your reasoning briefly, then give your final choice as the LAST line. If more "
    "than one option is correct, list all letters comma-separated. Keep your reasoning as short "
    "as possible (a few sentences at most) so the final Answer line is not truncated. Return "
    "this format: Reasoning: <brief reasoning> Answer: <letter(s)>"
)
DIRECT_SINGLE: Final = "Reply with the letter of your choice only."
DIRECT_MULTI: Final = (
    "Reply with the letter(s) of your choice only; if more than one option is correct, list "
    "all letters comma-separated."
)
NONE_OPTION: Final = "none of these"

DIRECTION_WORDS: Final = (
    "Directions along the floor are named in eight 45-degree sectors: front, front-right, right, "
    "back-right, back, back-left, left, front-left. The direction of one object from another "
    "runs from the centre of the second to the centre of the first, seen from above."
)
CAMERA_FRONT: Final = (
    "From the viewpoint of a camera, 'front' is the direction in which the camera looks (into "
    "the picture, away from the camera), 'back' the direction towards the camera, and 'left' "
    "and 'right' are the picture's left and right: an object in front of another stands "
    "farther from the camera."
)
COMPASS_WORDS: Final = (
    "Compass directions: north is the direction in which the camera of image 1 looks, along the "
    "floor; east is to its right, south behind it, west to its left, with north-east, "
    "south-east, south-west and north-west between them (eight 45-degree sectors)."
)
DISTANCE_WORDS: Final = (
    "The distance between two objects is measured between their surfaces, at their closest points."
)
OCCLUSION_WORDS: Final = (
    "From a camera, an object is 'not occluded' when no other object hides any of it, 'partly "
    "occluded' when other objects hide part of it, and 'not visible' when other objects hide "
    "all of it."
)
PAIR_OCCLUSION_WORDS: Final = (
    "From a camera, one object occludes another when it stands between the camera and part of "
    "the other, hiding it. Considering two objects alone (as if every other object were taken "
    "away), the second is 'not occluded' when the first hides none of it, 'partly occluded' "
    "when the first hides part of it, and 'not visible' when the first hides all of it."
)
ATTACHMENT_WORDS: Final = (
    "An object resting on another moves with it, and so does anything resting on that object."
)


def name(obj: SceneObject) -> str:
    return f"the {obj.color} {obj.class_name}"


def views_text(count: int, cross: bool) -> str:
    if count == 1:
        return "The image (image 1) shows a scene of simple objects standing on a square floor, 6 m by 6 m."
    text = (
        f"The {count} images (image 1 to image {count}, in the order given) show one scene of "
        "simple objects standing on a square floor, 6 m by 6 m, from different viewpoints."
    )
    if cross and count == 3:
        text += " Image 2 was taken between the viewpoints of image 1 and image 3."
    elif cross and count > 3:
        text += (
            f" Images 2 to {count - 1} were taken between the viewpoints of image 1 and image "
            f"{count}, in order."
        )
    return text


def sense(degrees_ccw: float) -> str:
    return "counter-clockwise" if degrees_ccw > 0 else "clockwise"


__all__ = [
    "ATTACHMENT_WORDS",
    "CAMERA_FRONT",
    "COMPASS_WORDS",
    "COT_MULTI",
    "COT_SINGLE",
    "DIRECTION_WORDS",
    "DIRECT_MULTI",
    "DIRECT_SINGLE",
    "DISTANCE_WORDS",
    "NONE_OPTION",
    "OCCLUSION_WORDS",
    "PAIR_OCCLUSION_WORDS",
    "SYSTEM",
    "name",
    "sense",
    "views_text",
]
