"""Spatial questions shared by the generator and the grader: the QA modes, the ``qa.jsonl``
record, and the small program language every question is written in.

A program is a list of steps ``{"op", "inputs", "value"}``; ``inputs`` are indices of earlier
steps, and the last step's result is the answer. ``run_program`` evaluates it on a scene. On
ground truth it runs with ``margins``: every relation and comparison must hold or fail clearly,
otherwise ``AmbiguousProgram`` is raised, which is how the generator drops a question that sits
near a boundary. On a scene a model wrote (Code-CoT), it runs without margins and signs decide.
The ops, their types and the record's fields are in docs/qa.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from spatialbabel.classes import CLASSES
from spatialbabel.errors import SpatialBabelError
from spatialbabel.geometry.relations import (
    AXES,
    COMPARISONS,
    RELATIONS,
    Axis,
    Comparison,
    Margins,
    Relation,
    Truth,
    ViewMeasures,
    comparison_plain,
    comparison_truth,
    measure,
    relation_plain,
    relation_truth,
)
from spatialbabel.open_classes import is_open_class
from spatialbabel.palette import PALETTE
from spatialbabel.registry import Registry
from spatialbabel.scene import Camera, Scene, SceneObject

SCHEMA_VERSION: Final = 1

Category = Literal["localization", "relationship", "counting", "existence", "comparison"]
CATEGORIES: Final[tuple[Category, ...]] = (
    "localization",
    "relationship",
    "counting",
    "existence",
    "comparison",
)

#: The QA modes; ``code_cot`` always names the language the model writes the scene in:
#: ``code_cot:threejs``.
MODE_KINDS: Final = ("direct", "nl_cot", "code_cot")
DEFAULT_LOCALIZATION_TOLERANCE: Final = 0.1


class QAFormatError(SpatialBabelError, ValueError):
    """A question record or a mode name broke its format; the message names the field."""


def parse_mode(mode: str) -> tuple[str, str | None]:
    """``("direct", None)``, ``("nl_cot", None)`` or ``("code_cot", language)``."""
    from spatialbabel import LANGUAGES

    kind, _, language = mode.partition(":")
    if kind in ("direct", "nl_cot") and not language:
        return kind, None
    if kind == "code_cot":
        if language in LANGUAGES:
            return kind, language
        raise QAFormatError(
            f"mode {mode!r}: code_cot needs a language, one of {', '.join(LANGUAGES)} (code_cot:threejs)"
        )
    raise QAFormatError(f"unknown mode {mode!r}; known: direct, nl_cot, code_cot:<language>")


# --------------------------------------------------------------------------- programs

Step = dict[str, Any]
Value = Any


class ProgramError(SpatialBabelError):
    """A program could not be answered on a scene (no unique object, a malformed step)."""


class AmbiguousProgram(ProgramError):
    """On ground truth, a relation or comparison the program needs lies within its margins."""


@dataclass(frozen=True)
class _Context:
    scene: Scene
    camera: Camera
    margins: Margins | None
    cache: dict[str, ViewMeasures] = field(default_factory=dict)

    def measures(self, obj: SceneObject) -> ViewMeasures:
        if obj.id not in self.cache:
            self.cache[obj.id] = measure(obj, self.camera)
        return self.cache[obj.id]


Op = Callable[[_Context, list[Value], Any], Value]

#: Program ops by name. Each takes the context, its inputs' values and the step's ``value``.
OPS: Final[Registry[Op]] = Registry("question program op")


def _objects(value: Value, op: str) -> tuple[SceneObject, ...]:
    if not isinstance(value, tuple) or not all(isinstance(o, SceneObject) for o in value):
        raise ProgramError(f"{op}: expected a set of objects")
    return value


def _one(value: Value, op: str) -> SceneObject:
    if not isinstance(value, SceneObject):
        raise ProgramError(f"{op}: expected one object")
    return value


def _inputs(inputs: list[Value], count: int, op: str) -> list[Value]:
    if len(inputs) != count:
        raise ProgramError(f"{op}: expected {count} inputs, got {len(inputs)}")
    return inputs


@OPS.register("scene")
def _op_scene(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    _inputs(inputs, 0, "scene")
    return ctx.scene.objects


@OPS.register("filter_color")
def _op_filter_color(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    if value not in PALETTE:
        raise ProgramError(f"filter_color: unknown colour {value!r}")
    return tuple(
        o
        for o in _objects(_inputs(inputs, 1, "filter_color")[0], "filter_color")
        if o.color == value
    )


@OPS.register("filter_shape")
def _op_filter_shape(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    """The objects of the set of class ``value``: one of the six shapes, or in the open domain
    a class of the open vocabulary (``sofa``), as the scene spells it."""
    if value not in CLASSES and not is_open_class(value):
        raise ProgramError(f"filter_shape: unknown shape or class {value!r}")
    return tuple(
        o
        for o in _objects(_inputs(inputs, 1, "filter_shape")[0], "filter_shape")
        if o.class_name == value
    )


@OPS.register("relate")
def _op_relate(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    """The objects of the set (other than the anchor) that stand in ``value`` to the anchor."""
    if value not in RELATIONS:
        raise ProgramError(f"relate: unknown relation {value!r}")
    relation: Relation = value
    candidates, anchor_value = _inputs(inputs, 2, "relate")
    anchor = _one(anchor_value, "relate")
    kept = []
    for obj in _objects(candidates, "relate"):
        if obj.id == anchor.id:
            continue
        a, b = ctx.measures(obj), ctx.measures(anchor)
        if ctx.margins is None:
            if relation_plain(relation, a, b):
                kept.append(obj)
            continue
        truth = relation_truth(relation, a, b, ctx.margins)
        if truth is Truth.UNCLEAR:
            raise AmbiguousProgram(
                f"relate: whether {obj.id} is {relation} {anchor.id} is within the margins"
            )
        if truth is Truth.HOLDS:
            kept.append(obj)
    return tuple(kept)


@OPS.register("unique")
def _op_unique(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    objects = _objects(_inputs(inputs, 1, "unique")[0], "unique")
    if len(objects) != 1:
        raise ProgramError(f"unique: expected exactly one object, found {len(objects)}")
    return objects[0]


@OPS.register("count")
def _op_count(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    return len(_objects(_inputs(inputs, 1, "count")[0], "count"))


@OPS.register("exists")
def _op_exists(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    return "yes" if _objects(_inputs(inputs, 1, "exists")[0], "exists") else "no"


@OPS.register("position")
def _op_position(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    return list(_one(_inputs(inputs, 1, "position")[0], "position").position)


@OPS.register("query_relation")
def _op_query_relation(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    """Which of the axis's two relations the first object stands in to the second."""
    if value not in AXES:
        raise ProgramError(f"query_relation: unknown axis {value!r}")
    axis: Axis = value
    first, second = (_one(v, "query_relation") for v in _inputs(inputs, 2, "query_relation"))
    a, b = ctx.measures(first), ctx.measures(second)
    for relation in AXES[axis]:
        if ctx.margins is None:
            if relation_plain(relation, a, b):
                return relation
        elif relation_truth(relation, a, b, ctx.margins) is Truth.HOLDS:
            return relation
    if ctx.margins is not None:
        raise AmbiguousProgram(
            f"query_relation: {first.id} and {second.id} are within the {axis} margins"
        )
    raise ProgramError(
        f"query_relation: {first.id} is neither {' nor '.join(AXES[axis])} {second.id}"
    )


@OPS.register("compare")
def _op_compare(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    """0 when the first object is the ``value`` (larger, taller, closer) one, 1 for the second."""
    if value not in COMPARISONS:
        raise ProgramError(f"compare: unknown comparison {value!r}")
    comparison: Comparison = value
    first, second = (_one(v, "compare") for v in _inputs(inputs, 2, "compare"))
    a, b = ctx.measures(first), ctx.measures(second)
    if ctx.margins is None:
        verdict = comparison_plain(comparison, a, b)
        if verdict is None:
            raise ProgramError(f"compare: {first.id} and {second.id} tie on {comparison}")
        return 0 if verdict else 1
    truth = comparison_truth(comparison, a, b, ctx.margins)
    if truth is Truth.UNCLEAR:
        raise AmbiguousProgram(
            f"compare: {first.id} and {second.id} are within the {comparison} margins"
        )
    return 0 if truth is Truth.HOLDS else 1


@OPS.register("select")
def _op_select(ctx: _Context, inputs: list[Value], value: Any) -> Value:
    """The ``value`` list's entry at the index the input gives (a comparison's answer)."""
    index = _inputs(inputs, 1, "select")[0]
    if not isinstance(value, list) or not isinstance(index, int) or not 0 <= index < len(value):
        raise ProgramError("select: expected a list of choices and an index into it")
    return value[index]


def validate_program(program: object) -> tuple[Step, ...]:
    """The program as a tuple of steps; a QAFormatError names the first bad step."""
    if not isinstance(program, Sequence) or isinstance(program, str) or not program:
        raise QAFormatError("program: expected a non-empty list of steps")
    steps: list[Step] = []
    for k, step in enumerate(program):
        where = f"program[{k}]"
        if not isinstance(step, Mapping):
            raise QAFormatError(f"{where}: expected an object")
        unknown = set(step) - {"op", "inputs", "value"}
        if unknown:
            raise QAFormatError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        op = step.get("op")
        if not isinstance(op, str) or op not in OPS:
            raise QAFormatError(f"{where}.op: unknown op {op!r}; known: {', '.join(OPS.names())}")
        inputs = step.get("inputs", [])
        if not isinstance(inputs, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < k for i in inputs
        ):
            raise QAFormatError(
                f"{where}.inputs: expected indices of earlier steps, got {inputs!r}"
            )
        steps.append(dict(step))
    return tuple(steps)


def run_program(
    program: Sequence[Step],
    scene: Scene,
    *,
    margins: Margins | None = None,
    camera: Camera | None = None,
) -> Value:
    """The program's answer on ``scene``, seen from ``camera`` (default: the frontal camera).

    With ``margins`` (ground truth) an unclear relation raises ``AmbiguousProgram``; without,
    signs decide. Raises ``ProgramError`` when the scene cannot answer (no unique object).
    """
    steps = validate_program(program)
    view = camera if camera is not None else scene.frontal_camera
    if view is None:
        raise ProgramError(f"scene {scene.scene_id!r} has no camera to see relations from")
    ctx = _Context(scene, view, margins)
    results: list[Value] = []
    for step in steps:
        inputs = [results[i] for i in step.get("inputs", [])]
        results.append(OPS.get(step["op"])(ctx, inputs, step.get("value")))
    answer = results[-1]
    if isinstance(answer, tuple | SceneObject):
        raise ProgramError("the program ends in objects, not an answer")
    return answer


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class ObjectMention:
    """An object a question names: its ground-truth id, the words naming it, and its colour
    and shape (which the grader uses to tell which object a reply means)."""

    id: str
    ref: str
    color: str
    shape: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "ref": self.ref, "color": self.color, "shape": self.shape}


def _expect(condition: bool, field_name: str, problem: str) -> None:
    if not condition:
        raise QAFormatError(f"{field_name}: {problem}")


def _answer_ok(category: str, answer: object, choices: tuple[str, ...]) -> bool:
    if category == "localization":
        return (
            isinstance(answer, list)
            and len(answer) == 3
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in answer)
        )
    if category == "counting":
        return isinstance(answer, int) and not isinstance(answer, bool) and answer >= 0
    if category == "existence":
        return answer in ("yes", "no")
    return isinstance(answer, str) and answer in choices


@dataclass(frozen=True)
class Question:
    """One line of ``qa.jsonl``. ``answer``: [x, y, z] (localization), an integer (counting),
    ``"yes"``/``"no"`` (existence), one of ``choices`` (relationship, comparison)."""

    question_id: str
    scene_id: str
    category: Category
    kind: str
    question: str
    answer: Any
    program: tuple[Step, ...]
    choices: tuple[str, ...] = ()
    objects: tuple[ObjectMention, ...] = ()
    tolerance: float | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("question_id", "scene_id", "kind", "question"):
            value = getattr(self, name)
            _expect(
                isinstance(value, str) and bool(value.strip()), name, "expected a non-empty string"
            )
        _expect(
            self.category in CATEGORIES,
            "category",
            f"expected one of {', '.join(CATEGORIES)}, got {self.category!r}",
        )
        object.__setattr__(self, "program", validate_program(self.program))
        object.__setattr__(self, "choices", tuple(self.choices))
        if self.category in ("relationship", "comparison"):
            _expect(
                len(self.choices) == 2 and all(isinstance(c, str) for c in self.choices),
                "choices",
                "expected two strings",
            )
        _expect(
            _answer_ok(self.category, self.answer, self.choices),
            "answer",
            f"not a valid {self.category} answer: {self.answer!r}",
        )
        if self.category == "localization":
            _expect(
                isinstance(self.tolerance, int | float)
                and not isinstance(self.tolerance, bool)
                and self.tolerance > 0,
                "tolerance",
                "a localization question needs a positive tolerance",
            )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "question_id": self.question_id,
            "scene_id": self.scene_id,
            "category": self.category,
            "kind": self.kind,
            "question": self.question,
            "answer": self.answer,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.tolerance is not None:
            data["tolerance"] = self.tolerance
        data["objects"] = [o.to_dict() for o in self.objects]
        data["program"] = [dict(s) for s in self.program]
        data["evidence"] = dict(self.evidence)
        return data

    @classmethod
    def from_dict(cls, data: object) -> Question:
        """A record read back; a QAFormatError names the first bad field."""
        _expect(isinstance(data, Mapping), "record", "expected a JSON object")
        assert isinstance(data, Mapping)
        record = dict(data)
        version = record.pop("schema_version", None)
        _expect(
            version == SCHEMA_VERSION,
            "schema_version",
            f"expected {SCHEMA_VERSION}, got {version!r}",
        )
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(record) - known)
        _expect(not unknown, unknown[0] if unknown else "", "unknown field")
        for name in (
            "question_id",
            "scene_id",
            "category",
            "kind",
            "question",
            "answer",
            "program",
        ):
            _expect(name in record, name, "is missing")
        objects = record.get("objects", [])
        _expect(isinstance(objects, list), "objects", "expected a list")
        mentions = []
        for i, item in enumerate(objects):
            ok = (
                isinstance(item, Mapping)
                and set(item) == {"id", "ref", "color", "shape"}
                and all(isinstance(v, str) for v in item.values())
            )
            _expect(ok, f"objects[{i}]", "expected {id, ref, color, shape} strings")
            mentions.append(ObjectMention(item["id"], item["ref"], item["color"], item["shape"]))
        record["objects"] = tuple(mentions)
        choices = record.get("choices", [])
        _expect(isinstance(choices, list), "choices", "expected a list")
        record["choices"] = tuple(choices)
        evidence = record.get("evidence", {})
        _expect(isinstance(evidence, Mapping), "evidence", "expected an object")
        return cls(**record)


__all__ = [
    "CATEGORIES",
    "DEFAULT_LOCALIZATION_TOLERANCE",
    "MODE_KINDS",
    "OPS",
    "AmbiguousProgram",
    "Category",
    "ObjectMention",
    "ProgramError",
    "QAFormatError",
    "Question",
    "Step",
    "parse_mode",
    "run_program",
    "validate_program",
]
