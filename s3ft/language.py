"""Phase 2, natural language: QA pairs, a scene description and code-prompt paraphrases.

Without these a model fine-tuned on the structured tasks alone answers every prompt in JSON
(the paper's ablation, ``--no-nl``). The QA pairs come from the project's question generator
(``synth.questions.generate_scene_questions``) run on the pseudo-ground truth, so every rule
it follows (balanced answers, margins, which questions a scene supports) carries over; their
answers are given in plain words ("No", "3", "The red cube is to the left of the blue
sphere."). The description says only what holds from every viewpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from s3ft.tasks import View, kind_name, metres
from spatialbabel import Scene, SceneObject
from spatialbabel.geometry.relations import (
    AXES,
    RELATION_PHRASES,
    Comparison,
    Truth,
    comparison_truth,
    relation_truth,
)
from spatialbabel.open_classes import open_plural
from spatialbabel.qa import Question
from synth.prompts import coordinate_hint, open_coordinate_hint
from synth.questions import PLURALS, SplitRules, generate_scene_questions

#: Relations and comparisons whose truth depends on where the camera stands: a question that
#: uses one is asked of the frontal image only (vertical relations, sizes and heights are
#: the same from every side).
VIEW_DEPENDENT_RELATIONS: Final = frozenset((*AXES["horizontal"], *AXES["depth"]))
VIEW_DEPENDENT_AXES: Final = frozenset(("horizontal", "depth"))
VIEW_DEPENDENT_COMPARISONS: Final = frozenset(("closer",))

#: How far (metres) an object's bottom may float over another's top and still "rest on" it.
RESTING_GAP: Final = 0.1

_NUMBER_WORDS: Final = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def question_is_view_invariant(question: Question) -> bool:
    """Whether the question's program reads no camera-dependent relation or comparison."""
    for step in question.program:
        op, value = step.get("op"), step.get("value")
        if op == "relate" and value in VIEW_DEPENDENT_RELATIONS:
            return False
        if op == "query_relation" and value in VIEW_DEPENDENT_AXES:
            return False
        if op == "compare" and value in VIEW_DEPENDENT_COMPARISONS:
            return False
    return True


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def plain_answer(question: Question) -> str:
    """The question's answer in plain words, as a person would say it."""
    answer = question.answer
    if question.category == "localization":
        x, y, z = (f"{metres(v):.2f}" for v in answer)
        return f"({x}, {y}, {z})"
    if question.category == "counting":
        return str(answer)
    if question.category == "existence":
        return "Yes" if answer == "yes" else "No"
    if question.category == "relationship":
        target, anchor = question.objects[0].ref, question.objects[1].ref
        return _sentence(f"{target} is {RELATION_PHRASES[answer]} {anchor}")
    return _sentence(str(answer))


def qa_instruction(question: Question, view: View) -> str:
    if question.category == "localization":
        return (
            f"{view.frame_hint}\n\n{question.question} Answer with the coordinates in metres "
            "as (x, y, z)."
        )
    return question.question


def qa_pairs(scene: Scene, seed: int, rules: SplitRules | None = None) -> list[Question]:
    """The question generator's questions about the pseudo-ground truth ``scene``, under the
    rules of the split whose image it is (above and below are asked only where the split's
    generator stacks objects)."""
    return generate_scene_questions(scene, seed, rules=rules or SplitRules())


def _count_words(count: int, obj: SceneObject) -> str:
    if count == 1:
        article = "an" if kind_name(obj)[:1] in "aeiou" else "a"
        return f"{article} {kind_name(obj)}"
    number = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
    if obj.color is None:
        return f"{number} {open_plural(obj.class_name)}"
    return f"{number} {obj.color} {PLURALS[obj.class_name]}"


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _point(obj: SceneObject) -> str:
    return "(" + ", ".join(f"{metres(v):.2f}" for v in obj.position) + ")"


def describe(view: View) -> str:
    """A paragraph about the pseudo-ground truth that holds from every viewpoint: what is
    there, where each object stands in the scene frame, what rests on what, and the largest and
    tallest objects where one clearly is."""
    objects = view.scene_order
    kinds: dict[str, list[SceneObject]] = {}
    for obj in objects:
        kinds.setdefault(kind_name(obj), []).append(obj)
    listed = _join([_count_words(len(group), group[0]) for group in kinds.values()])
    total = len(objects)
    noun = "object" if total == 1 else "objects"
    ground = "on the floor" if view.scene.domain == "open" else "on a flat grey ground"
    sentences = [f"The scene holds {total} {noun} {ground}: {listed}."]
    m = view.measures
    for obj in objects:
        width, height, depth = (f"{metres(v):.2f}" for v in obj.size)
        support = next(
            (
                other
                for other in objects
                if other.id != obj.id
                and relation_truth("above", m[obj.id], m[other.id], view.margins) is Truth.HOLDS
                and m[obj.id].bottom - m[other.id].top <= RESTING_GAP
            ),
            None,
        )
        where = "is"
        if support is not None:
            where = f"rests on the {kind_name(support)}"
            if len(kinds[kind_name(support)]) > 1:
                where += f" at {_point(support)}"
            where += ","
        sentences.append(
            _sentence(
                f"{_count_words(1, obj)} {where} centred at {_point(obj)}, {width} m wide, "
                f"{height} m tall and {depth} m deep"
            )
        )
    wording: tuple[tuple[Comparison, str], ...] = (("larger", "largest"), ("taller", "tallest"))
    for comparison, word in wording:
        if total < 2:
            break
        key = (lambda o: m[o.id].volume) if comparison == "larger" else (lambda o: m[o.id].height)
        first, second = sorted(objects, key=key, reverse=True)[:2]
        if comparison_truth(comparison, m[first.id], m[second.id], view.margins) is Truth.HOLDS:
            sentences.append(f"The {word} object is the {kind_name(first)} at {_point(first)}.")
    return " ".join(sentences)


def code_paraphrases(view: View) -> tuple[str, str]:
    """Two rewordings of the reconstruction prompt, for the same code target."""
    if view.scene.domain == "open":
        hint = open_coordinate_hint(view.seen_scene, "threejs")
        return (
            "Write a three.js program that rebuilds the room in this photo: one THREE.Mesh for "
            "every piece of furniture or item you see, drawn as its bounding box and named after "
            f"its class, with its position, rotation and size in metres.\n\n{hint}\n\nGive the "
            "complete code in one ```javascript block.",
            "Look at the photo and recreate the room in three.js: a BoxGeometry mesh per object, "
            "named with mesh.name = '<class>' (sofa, chair, lamp, ...), placed with "
            f"mesh.position.set at the centre of its box.\n\n{hint}\n\nReply with the whole "
            "program in a single ```javascript code block.",
        )
    hint = coordinate_hint(view.seen_scene, "threejs")
    return (
        "Write a three.js program that rebuilds the scene in this image: one THREE.Mesh for every "
        "primitive you see, with its shape, colour, position, rotation and size.\n\n"
        f"{hint}\n\nGive the complete code in one ```javascript block.",
        "Look at the picture and recreate it in three.js. Use BoxGeometry for cubes, "
        "SphereGeometry for spheres, CylinderGeometry for cylinders, ConeGeometry for cones (with "
        "4 sides for pyramids) and TorusGeometry for tori, and place each mesh with "
        f"mesh.position.set.\n\n{hint}\n\nReply with the whole program in a single ```javascript "
        "code block.",
    )


__all__ = [
    "RESTING_GAP",
    "VIEW_DEPENDENT_AXES",
    "VIEW_DEPENDENT_COMPARISONS",
    "VIEW_DEPENDENT_RELATIONS",
    "code_paraphrases",
    "describe",
    "plain_answer",
    "qa_instruction",
    "qa_pairs",
    "question_is_view_invariant",
]
