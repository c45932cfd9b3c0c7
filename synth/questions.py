"""Spatial questions about generated scenes, each a small program over the ground truth.

About eight questions per scene (``QUOTAS``) in five categories. Every question is a program
(``spatialbabel.qa``) that names objects by colour and shape, adding a relation to another
object where colour and shape alone are not unique, and skipping the object where no relation
singles it out. A candidate is kept only if its program, run on the ground truth with margins,
gives the intended answer, so no question sits near a boundary. Answers are balanced within
each scene: existence asks one yes and one no, relationship and comparison questions alternate
which of their two options is right (from a random start) and shuffle the options' order, and
counting draws an answer value before a question that has it.

No question's answer follows from the split's own rules (``SplitRules``): above and below mean
stacking, so they are asked only about splits whose generator stacks objects, and an existence
question never asks about a relation that cannot hold there ("a sphere below ...", when only
cubes and cylinders carry others).

Scenes of the open domain (real indoor scenes, ``Scene.domain == "open"``) get the same
programs over their classes instead of colours and shapes (``filter_shape`` with ``sofa``):
"the sofa", "How many chairs are there in the scene?", "Is there a lamp in the scene?". A class
is asked about only when the ground truth can answer for the picture (``OpenAnswerable``): not
an NYU40 catch-all (``other prop``) or a mass (``books``), not a class the split leaves out of
every scene (an importer's room classes, ``SplitRules.unlisted``), not a class with an object
the FOV filter dropped (its centre outside the image, part of it maybe in view), and not a class
an NYU40 catch-all present in the scene may hide (a ``vase`` where an ``other prop`` stands).
Comparisons are not asked of open scenes (``OPEN_QUOTAS``): the answer reader tells the two
objects apart by colour and shape words, which real furniture does not have.

Pure numpy: questions are made from ``Scene`` objects, never from Blender. The same seed and
scene give the same questions, whatever the other scenes of the split.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

import numpy as np

from spatialbabel import CLASSES, PALETTE_NAMES, Scene, SceneObject
from spatialbabel.geometry.footprints import depth_inside
from spatialbabel.geometry.relations import (
    AXES,
    COMPARISONS,
    DEFAULT_MARGINS,
    RELATION_PHRASES,
    RELATIONS,
    VERTICAL,
    Axis,
    Comparison,
    Margins,
    Relation,
    Truth,
    ViewMeasures,
    comparison_truth,
    measure,
    relation_truth,
)
from spatialbabel.open_classes import (
    askable_open_class,
    class_group,
    is_catch_all,
    open_class_names,
    open_plural,
    with_article,
)
from spatialbabel.qa import (
    DEFAULT_LOCALIZATION_TOLERANCE,
    AmbiguousProgram,
    Category,
    ObjectMention,
    ProgramError,
    Question,
    Step,
    run_program,
)
from synth.stacking import SUPPORT_CLASSES

#: Questions asked per scene, in this order; a scene that cannot support some asks fewer.
QUOTAS: Final[dict[Category, int]] = {
    "localization": 1,
    "relationship": 2,
    "counting": 2,
    "existence": 2,
    "comparison": 1,
}

#: The open domain's quotas: no comparison (its answers name the objects, which the reader
#: tells apart by colour and shape words only).
OPEN_QUOTAS: Final[dict[Category, int]] = {**QUOTAS, "comparison": 0}

#: Spawn key of the questions' random stream, apart from the scenes' and the subsets' streams.
QUESTIONS_STREAM: Final = 2

#: How often a counting question counts a colour, a shape, or both.
COUNT_KINDS: Final[dict[str, float]] = {"color": 0.4, "shape": 0.4, "color_shape": 0.2}

#: Chance that an existence question asks about an object near another (when one can).
RELATIONAL_EXISTENCE: Final = 0.5

PLURALS: Final[dict[str, str]] = {
    "cube": "cubes",
    "sphere": "spheres",
    "cylinder": "cylinders",
    "cone": "cones",
    "pyramid": "pyramids",
    "torus": "tori",
}
assert set(PLURALS) == set(CLASSES)

COMPARISON_WORDING: Final[dict[Comparison, str]] = {
    "larger": "Which is larger",
    "taller": "Which is taller",
    "closer": "Which is closer to the camera",
}


@dataclass(frozen=True)
class SplitRules:
    """What the generator of a split guarantees about all its scenes, so that no question is
    asked whose answer those rules alone decide.

    ``supports``: the classes other objects may rest on. Empty (the default, right for any scene
    not made by a stacking generator, a parsed reconstruction included) means nothing is
    stacked: "above" and "below", which mean resting on, can never hold, so they are not asked
    at all, neither in questions nor in the words naming an object.
    """

    supports: frozenset[str] = field(default_factory=frozenset)
    #: Classes the split leaves out of every scene (an importer's room classes: wall, floor,
    #: ceiling): the ground truth says nothing of them, so no question names them.
    unlisted: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "supports", frozenset(self.supports))
        object.__setattr__(self, "unlisted", frozenset(self.unlisted))
        unknown = sorted(self.supports - set(CLASSES))
        if unknown:
            raise ValueError(f"unknown support class {unknown[0]!r}; known: {', '.join(CLASSES)}")

    @classmethod
    def of_generator(cls, stack_prob: float) -> SplitRules:
        """The rules of a split made by ``spatialbabel generate --stack-prob stack_prob``."""
        return cls(SUPPORT_CLASSES if stack_prob > 0.0 else frozenset())

    @classmethod
    def of_import(cls, excluded: Sequence[str]) -> SplitRules:
        """The rules of a split made by ``spatialbabel import`` with ``--exclude`` classes:
        nothing is stacked, and the excluded classes are never asked about."""
        return cls(unlisted=frozenset(excluded))

    @property
    def stacked(self) -> bool:
        return bool(self.supports)

    @property
    def relations(self) -> tuple[Relation, ...]:
        """The relations a question may use."""
        return RELATIONS if self.stacked else tuple(r for r in RELATIONS if r not in VERTICAL)

    @property
    def axes(self) -> tuple[Axis, ...]:
        """The axes a relationship question may ask about."""
        return tuple(a for a in AXES if self.stacked or a != "vertical")

    def can_hold(self, relation: Relation, shape: str, anchor_shape: str) -> bool:
        """Whether "a ``shape`` ``relation`` the ``anchor_shape``" can hold in some scene of
        the split (above: the anchor must carry it; below: the shape must carry the anchor)."""
        if relation not in self.relations:
            return False
        if relation == "above":
            return anchor_shape in self.supports
        if relation == "below":
            return shape in self.supports
        return True


def question_rng(seed: int, scene_id: str) -> np.random.Generator:
    """The random stream of one scene's questions: a function of the seed and the scene id."""
    digest = hashlib.sha256(scene_id.encode("utf-8")).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(QUESTIONS_STREAM, *words)))


class _Program:
    """Builds a program step by step; ``add`` returns the new step's index."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, op: str, *inputs: int, value: Any = None) -> int:
        step: Step = {"op": op, "inputs": list(inputs)}
        if value is not None:
            step["value"] = value
        self.steps.append(step)
        return len(self.steps) - 1


@dataclass(frozen=True)
class OpenAnswerable:
    """What the ground truth of one open-domain scene can answer for its picture (the rules in
    this module's docstring): the classes a question may name, and of those, the ones whose
    absence or count it knows."""

    named: frozenset[str]
    #: Every class that may be asked about as absent (the vocabulary minus what is unsure).
    absent: tuple[str, ...]

    @classmethod
    def of(cls, scene: Scene, rules: SplitRules) -> OpenAnswerable:
        present = {o.class_name for o in scene.objects}
        dropped = scene.meta.get("fov_dropped_classes") or {}
        hidden = {c for c in present if is_catch_all(c)}
        unsure = set(dropped) | set(rules.unlisted)

        def sure(name: str) -> bool:
            return (
                askable_open_class(name) and name not in unsure and class_group(name) not in hidden
            )

        named = frozenset(c for c in present if sure(c))
        absent = tuple(c for c in open_class_names() if c not in present and sure(c))
        return cls(named, absent)


@dataclass(frozen=True)
class Referent:
    """Words that single out one object: its colour and shape (in the open domain its class),
    and where those are shared, a relation to an object that is itself named by them."""

    obj: SceneObject
    relation: Relation | None = None
    anchor: Referent | None = None

    @property
    def color(self) -> str:
        """The object's colour; "" for an object of the open domain, which has none."""
        return self.obj.color or ""

    @property
    def text(self) -> str:
        words = (
            f"the {self.color} {self.obj.class_name}"
            if self.color
            else f"the {self.obj.class_name}"
        )
        if self.relation is not None and self.anchor is not None:
            words += f" {RELATION_PHRASES[self.relation]} {self.anchor.text}"
        return words

    @property
    def simple(self) -> bool:
        return self.relation is None

    def emit(self, program: _Program) -> int:
        """Append the steps finding this object; returns the index of its ``unique`` step."""
        found = program.add("scene")
        if self.color:
            found = program.add("filter_color", found, value=self.color)
        found = program.add("filter_shape", found, value=self.obj.class_name)
        if self.relation is not None and self.anchor is not None:
            found = program.add("relate", found, self.anchor.emit(program), value=self.relation)
        return program.add("unique", found)

    def mention(self) -> ObjectMention:
        return ObjectMention(self.obj.id, self.text, self.color, self.obj.class_name)


class _SceneQuestions:
    """Question candidates for one scene; every candidate is checked on the ground truth."""

    def __init__(
        self,
        scene: Scene,
        rng: np.random.Generator,
        margins: Margins,
        tolerance: float,
        rules: SplitRules,
    ) -> None:
        camera = scene.frontal_camera
        if camera is None:
            raise ValueError(
                f"scene {scene.scene_id!r} has no camera; questions are asked from the frontal view"
            )
        self.scene = scene
        self.rng = rng
        self.margins = margins
        self.tolerance = tolerance
        self.rules = rules
        self.open: OpenAnswerable | None = None
        if scene.domain == "open":
            self.open = OpenAnswerable.of(scene, rules)
            named = self.open.named
            self.objects = [o for o in scene.objects if o.class_name in named]
        else:
            self.objects = [
                o for o in scene.objects if o.color is not None and o.class_name in CLASSES
            ]
        self.views = {o.id: measure(o, camera) for o in self.objects}
        self.referents = self._referents()
        self.simple = [r for r in self.referents if r.simple]

    # -- helpers

    def _pick(self, items: Sequence[Any]) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def _shuffled(self, items: Sequence[Any]) -> list[Any]:
        return [items[int(i)] for i in self.rng.permutation(len(items))]

    def _truth(self, relation: Relation, a: SceneObject, b: SceneObject) -> Truth:
        return relation_truth(relation, self.views[a.id], self.views[b.id], self.margins)

    def _checked(self, program: _Program, expected: Any) -> bool:
        """The program gives ``expected`` on the ground truth, clear of every margin."""
        try:
            return bool(run_program(program.steps, self.scene, margins=self.margins) == expected)
        except AmbiguousProgram:
            return False
        except ProgramError as error:
            # Candidates are built from the same ground truth, so this is a generator bug.
            raise RuntimeError(
                f"{self.scene.scene_id}: a generated program failed: {error}"
            ) from None

    def _referents(self) -> list[Referent]:
        groups: dict[tuple[str, str], list[SceneObject]] = {}
        for obj in self.objects:
            groups.setdefault((obj.color or "", obj.class_name), []).append(obj)
        simple = {g[0].id: Referent(g[0]) for g in groups.values() if len(g) == 1}
        result = list(simple.values())
        for group in groups.values():
            if len(group) < 2:
                continue
            anchors = self._shuffled(list(simple.values()))
            relations = self._shuffled(list(self.rules.relations))
            for target in group:
                found = self._relational(target, group, anchors, relations)
                if found is not None:
                    result.append(found)
        return sorted(result, key=lambda r: r.obj.id)

    def _relational(
        self,
        target: SceneObject,
        group: list[SceneObject],
        anchors: list[Referent],
        relations: list[Relation],
    ) -> Referent | None:
        for anchor in anchors:
            for relation in relations:
                if self._truth(relation, target, anchor.obj) is not Truth.HOLDS:
                    continue
                others = [o for o in group if o.id != target.id]
                if all(self._truth(relation, o, anchor.obj) is Truth.FAILS for o in others):
                    referent = Referent(target, relation, anchor)
                    program = _Program()
                    program.add("position", referent.emit(program))
                    if self._checked(program, list(target.position)):
                        return referent
        return None

    def _question(
        self,
        category: Category,
        kind: str,
        text: str,
        answer: Any,
        program: _Program,
        *,
        choices: Sequence[str] = (),
        objects: Sequence[Referent] = (),
        evidence: dict[str, Any] | None = None,
    ) -> Question:
        return Question(
            question_id="pending",
            scene_id=self.scene.scene_id,
            category=category,
            kind=kind,
            question=text,
            answer=answer,
            program=tuple(program.steps),
            choices=tuple(choices),
            objects=tuple(r.mention() for r in objects),
            tolerance=self.tolerance if category == "localization" else None,
            evidence=evidence or {},
        )

    # -- categories

    def localization(self, count: int) -> list[Question]:
        questions = []
        for referent in self._shuffled(self.referents)[:count]:
            program = _Program()
            program.add("position", referent.emit(program))
            answer = list(referent.obj.position)
            if not self._checked(program, answer):
                continue
            text = f"What are the coordinates (x, y, z) of the centre of {referent.text}?"
            questions.append(
                self._question(
                    "localization", "position", text, answer, program, objects=[referent]
                )
            )
        return questions

    def relationship(self, count: int) -> list[Question]:
        # One candidate per unordered pair and axis; swapping the pair flips the answer, so
        # either answer can be asked for.
        candidates: dict[Axis, list[tuple[Referent, Referent]]] = {}
        for i, first in enumerate(self.simple):
            for second in self.simple[i + 1 :]:
                for axis in self.rules.axes:
                    positive, negative = AXES[axis]
                    truth = self._truth(positive, first.obj, second.obj)
                    if truth is Truth.HOLDS or (
                        truth is Truth.FAILS
                        and self._truth(negative, first.obj, second.obj) is Truth.HOLDS
                    ):
                        candidates.setdefault(axis, []).append((first, second))
        questions: list[Question] = []
        used: set[frozenset[str]] = set()
        start = int(self.rng.integers(2))
        for k in range(count):
            axes = [
                a
                for a in self.rules.axes
                if any(
                    frozenset((p[0].obj.id, p[1].obj.id)) not in used for p in candidates.get(a, [])
                )
            ]
            fresh = [a for a in axes if a not in {q.kind for q in questions}]
            if not axes:
                break
            chosen_axis: Axis = self._pick(fresh or axes)
            pair = self._pick(
                [
                    p
                    for p in candidates[chosen_axis]
                    if frozenset((p[0].obj.id, p[1].obj.id)) not in used
                ]
            )
            used.add(frozenset((pair[0].obj.id, pair[1].obj.id)))
            wanted = AXES[chosen_axis][(start + k) % 2]
            target, anchor = pair
            if self._truth(wanted, target.obj, anchor.obj) is not Truth.HOLDS:
                target, anchor = anchor, target
            options = self._shuffled(list(AXES[chosen_axis]))
            text = _relationship_text(chosen_axis, options, target.text, anchor.text)
            program = _Program()
            program.add(
                "query_relation", target.emit(program), anchor.emit(program), value=chosen_axis
            )
            if not self._checked(program, wanted):
                continue
            evidence = _relation_evidence(
                self.views[target.obj.id], self.views[anchor.obj.id], chosen_axis
            )
            questions.append(
                self._question(
                    "relationship",
                    chosen_axis,
                    text,
                    wanted,
                    program,
                    choices=options,
                    objects=[target, anchor],
                    evidence=evidence,
                )
            )
        return questions

    def _open_counts(
        self, answerable: OpenAnswerable
    ) -> dict[str, list[tuple[str, tuple[str, ...], int]]]:
        """Counting candidates of an open scene: every class it holds that may be named, and
        those it lacks (count 0)."""
        classes = [o.class_name for o in self.objects]
        present = sorted(set(classes))
        return {
            "shape": [
                (open_plural(c), (c,), classes.count(c)) for c in [*present, *answerable.absent]
            ]
        }

    def counting(self, count: int) -> list[Question]:
        if self.open is not None:
            return self._counting(count, self._open_counts(self.open), {"shape": 1.0})
        colors = [o.color for o in self.objects]
        shapes = [o.class_name for o in self.objects]
        present = sorted({(o.color, o.class_name) for o in self.objects if o.color is not None})
        # Pairs the scene lacks, as near misses (colour or shape in the scene), so a count of
        # a colour and shape can be 0 too: where every pair is unique it would otherwise be 1.
        absent = [
            (c, s)
            for c in PALETTE_NAMES
            for s in CLASSES
            if (c, s) not in present and (c in colors or s in shapes)
        ]
        by_kind: dict[str, list[tuple[str, tuple[str, ...], int]]] = {
            "color": [(f"{c} objects", (c,), colors.count(c)) for c in PALETTE_NAMES],
            "shape": [(PLURALS[s], (s,), shapes.count(s)) for s in CLASSES],
            "color_shape": [
                (
                    f"{c} {PLURALS[s]}",
                    (c, s),
                    sum(1 for p in zip(colors, shapes, strict=True) if p == (c, s)),
                )
                for c, s in sorted([*present, *absent])
            ],
        }
        return self._counting(count, by_kind, COUNT_KINDS)

    def _counting(
        self,
        count: int,
        by_kind: dict[str, list[tuple[str, tuple[str, ...], int]]],
        shares: dict[str, float],
    ) -> list[Question]:
        questions: list[Question] = []
        asked: set[str] = set()
        values: set[int] = set()
        kinds = list(shares)
        weights = np.array([shares[k] for k in kinds])
        for _ in range(count):
            kind = kinds[int(self.rng.choice(len(kinds), p=weights / weights.sum()))]
            options = [c for c in by_kind[kind] if c[0] not in asked]
            if not options:
                continue
            # Draw the answer value first, preferring one not yet asked, so counts spread out.
            answers = sorted({c[2] for c in options})
            unseen = [a for a in answers if a not in values]
            value = int(self._pick(unseen or answers))
            words, filters, answer = self._pick([c for c in options if c[2] == value])
            program = _Program()
            found = program.add("scene")
            if kind in ("color", "color_shape"):
                found = program.add("filter_color", found, value=filters[0])
            if kind in ("shape", "color_shape"):
                found = program.add("filter_shape", found, value=filters[-1])
            program.add("count", found)
            if not self._checked(program, answer):
                continue
            asked.add(words)
            values.add(answer)
            questions.append(
                self._question(
                    "counting", kind, f"How many {words} are there in the scene?", answer, program
                )
            )
        return questions

    def existence(self, count: int) -> list[Question]:
        makers: list[Callable[[str], Question | None]] = [self._existence_attribute]
        if self.simple and self.rng.random() < RELATIONAL_EXISTENCE:
            makers.insert(0, self._existence_relational)
        questions: list[Question] = []
        first = "yes" if self.rng.integers(2) == 0 else "no"
        for k in range(count):
            wanted = first if k % 2 == 0 else ("no" if first == "yes" else "yes")
            for make in makers:
                question = make(wanted)
                if question is not None and question.question not in {
                    q.question for q in questions
                }:
                    questions.append(question)
                    break
        return questions

    def _existence_open(self, wanted: str, answerable: OpenAnswerable) -> Question | None:
        choices = (
            sorted({o.class_name for o in self.objects})
            if wanted == "yes"
            else list(answerable.absent)
        )
        if not choices:
            return None
        shape = self._pick(choices)
        program = _Program()
        program.add("exists", program.add("filter_shape", program.add("scene"), value=shape))
        if not self._checked(program, wanted):
            return None
        text = f"Is there {with_article(shape)} in the scene?"
        return self._question("existence", "shape", text, wanted, program)

    def _existence_attribute(self, wanted: str) -> Question | None:
        if self.open is not None:
            return self._existence_open(wanted, self.open)
        present = {(o.color or "", o.class_name) for o in self.objects}
        pairs: list[tuple[str, str]]
        if wanted == "yes":
            pairs = sorted(present)
        else:
            colors = {c for c, _ in present}
            shapes = {s for _, s in present}
            absent: list[tuple[str, str]] = [
                (c, s) for c in PALETTE_NAMES for s in CLASSES if (c, s) not in present
            ]
            # A near miss (the colour or the shape is in the scene) makes a "no" worth asking.
            near = [p for p in absent if p[0] in colors or p[1] in shapes]
            pairs = near or absent
        if not pairs:
            return None
        color, shape = self._pick(pairs)
        program = _Program()
        program.add(
            "exists",
            program.add(
                "filter_shape",
                program.add("filter_color", program.add("scene"), value=color),
                value=shape,
            ),
        )
        if not self._checked(program, wanted):
            return None
        return self._question(
            "existence", "color_shape", f"Is there a {color} {shape} in the scene?", wanted, program
        )

    def _existence_relational(self, wanted: str) -> Question | None:
        # Options by relation and answer. The relation is drawn first, among those that have
        # both answers in this scene, so no relation's answer is given away by how often it is
        # asked with each (stacks are few: "no" options for above and below abound).
        options: dict[Relation, dict[bool, list[tuple[Referent, Relation, str]]]] = {}
        shapes = sorted({o.class_name for o in self.objects}) if self.open else CLASSES
        for anchor in self.simple:
            for relation in self.rules.relations:
                for shape in shapes:
                    if not self.rules.can_hold(relation, shape, anchor.obj.class_name):
                        continue
                    others = [
                        o for o in self.objects if o.class_name == shape and o.id != anchor.obj.id
                    ]
                    truths = [self._truth(relation, o, anchor.obj) for o in others]
                    # A "no" about a shape the scene does not hold at all would be an attribute
                    # question.
                    if not others or Truth.UNCLEAR in truths:
                        continue
                    holds = Truth.HOLDS in truths
                    options.setdefault(relation, {True: [], False: []})[holds].append(
                        (anchor, relation, shape)
                    )
        eligible = [r for r in self.rules.relations if r in options and all(options[r].values())]
        if not eligible:
            return None
        chosen: Relation = self._pick(eligible)
        anchor, relation, shape = self._pick(options[chosen][wanted == "yes"])
        program = _Program()
        found = program.add("filter_shape", program.add("scene"), value=shape)
        program.add("exists", program.add("relate", found, anchor.emit(program), value=relation))
        if not self._checked(program, wanted):
            return None
        noun = with_article(shape) if self.open else f"a {shape}"
        text = f"Is there {noun} {RELATION_PHRASES[relation]} {anchor.text}?"
        return self._question("existence", "relational", text, wanted, program, objects=[anchor])

    def comparison(self, count: int) -> list[Question]:
        candidates: dict[Comparison, list[tuple[Referent, Referent]]] = {}
        for i, first in enumerate(self.simple):
            for second in self.simple[i + 1 :]:
                for comparison in COMPARISONS:
                    a, b = self.views[first.obj.id], self.views[second.obj.id]
                    if comparison_truth(comparison, a, b, self.margins) is not Truth.UNCLEAR:
                        candidates.setdefault(comparison, []).append((first, second))
        questions: list[Question] = []
        used: set[frozenset[str]] = set()
        start = int(self.rng.integers(2))
        for k in range(count):
            kinds = [
                c
                for c in COMPARISONS
                if any(
                    frozenset((p[0].obj.id, p[1].obj.id)) not in used for p in candidates.get(c, [])
                )
            ]
            fresh = [c for c in kinds if c not in {q.kind for q in questions}]
            if not kinds:
                break
            chosen: Comparison = self._pick(fresh or kinds)
            first, second = self._pick(
                [p for p in candidates[chosen] if frozenset((p[0].obj.id, p[1].obj.id)) not in used]
            )
            used.add(frozenset((first.obj.id, second.obj.id)))
            truth = comparison_truth(
                chosen, self.views[first.obj.id], self.views[second.obj.id], self.margins
            )
            winner_first = truth is Truth.HOLDS
            # Put the winner first or second, alternating from a random start.
            if winner_first != ((start + k) % 2 == 0):
                first, second = second, first
            choices = [first.text, second.text]
            program = _Program()
            index = program.add("compare", first.emit(program), second.emit(program), value=chosen)
            program.add("select", index, value=choices)
            answer = choices[0] if (start + k) % 2 == 0 else choices[1]
            if not self._checked(program, answer):
                continue
            text = f"{COMPARISON_WORDING[chosen]}: {first.text} or {second.text}?"
            evidence = _comparison_evidence(
                self.views[first.obj.id], self.views[second.obj.id], chosen
            )
            questions.append(
                self._question(
                    "comparison",
                    chosen,
                    text,
                    answer,
                    program,
                    choices=choices,
                    objects=[first, second],
                    evidence=evidence,
                )
            )
        return questions


def _relationship_text(axis: Axis, options: Sequence[Relation], target: str, anchor: str) -> str:
    if axis == "horizontal":
        return f"From the camera's point of view, is {target} to the {options[0]} or to the {options[1]} of {anchor}?"
    if axis == "depth":
        words = [RELATION_PHRASES[o] for o in options]
        return f"From the camera's point of view, is {target} {words[0]} or {words[1]} {anchor}?"
    return f"Is {target} {options[0]} or {options[1]} {anchor}?"


def _round(value: float) -> float:
    return round(float(value), 4) + 0.0  # + 0.0 turns -0.0 into 0.0


def _relation_evidence(a: ViewMeasures, b: ViewMeasures, axis: Axis) -> dict[str, float]:
    """The measured separations behind a relationship answer (target minus anchor)."""
    if axis == "horizontal":
        return {
            "camera_x": _round(a.camera_x - b.camera_x),
            "image_x": _round(a.image_x - b.image_x),
        }
    if axis == "depth":
        return {
            "depth": _round(a.depth - b.depth),
            "ground_depth": _round(a.ground_depth - b.ground_depth),
        }
    # The upper object's gap over the lower one's top, and how deep its centre lies inside the
    # lower one's footprint.
    upper, lower = (a, b) if a.bottom - b.top >= b.bottom - a.top else (b, a)
    return {
        "gap": _round(upper.bottom - lower.top),
        "inside": _round(depth_inside(upper.footprint.centre, lower.footprint)),
    }


def _comparison_evidence(
    a: ViewMeasures, b: ViewMeasures, comparison: Comparison
) -> dict[str, list[float]]:
    """The measured quantities behind a comparison answer (first object, second object)."""
    if comparison == "larger":
        return {"volumes": [_round(a.volume), _round(b.volume)]}
    if comparison == "taller":
        return {"heights": [_round(a.height), _round(b.height)]}
    return {
        "distances": [_round(a.distance), _round(b.distance)],
        "depths": [_round(a.depth), _round(b.depth)],
    }


def generate_scene_questions(
    scene: Scene,
    seed: int,
    *,
    localization_tolerance: float = DEFAULT_LOCALIZATION_TOLERANCE,
    margins: Margins = DEFAULT_MARGINS,
    rules: SplitRules = SplitRules(),
) -> list[Question]:
    """The questions of one scene, ids ``<scene_id>-q00``..., in ``QUOTAS`` order (``OPEN_QUOTAS``
    for a scene of the open domain). Works on any scene with a camera; ``rules`` says what its
    split's generator guarantees (by default nothing, so nothing is taken to be stacked)."""
    maker = _SceneQuestions(
        scene, question_rng(seed, scene.scene_id), margins, localization_tolerance, rules
    )
    made: list[Question] = []
    quotas = OPEN_QUOTAS if scene.domain == "open" else QUOTAS
    for category, count in quotas.items():
        made += getattr(maker, category)(count)
    return [replace(q, question_id=f"{scene.scene_id}-q{k:02d}") for k, q in enumerate(made)]


def generate_split_questions(
    scenes: Sequence[Scene],
    seed: int,
    *,
    localization_tolerance: float = DEFAULT_LOCALIZATION_TOLERANCE,
    margins: Margins = DEFAULT_MARGINS,
    rules: SplitRules = SplitRules(),
) -> list[dict[str, Any]]:
    """The ``qa.jsonl`` records of a split, scene by scene in the order given."""
    records = []
    for scene in scenes:
        for question in generate_scene_questions(
            scene,
            seed,
            localization_tolerance=localization_tolerance,
            margins=margins,
            rules=rules,
        ):
            records.append(question.to_dict())
    return records


__all__ = [
    "OPEN_QUOTAS",
    "QUOTAS",
    "OpenAnswerable",
    "Referent",
    "SplitRules",
    "generate_scene_questions",
    "generate_split_questions",
    "question_rng",
]
