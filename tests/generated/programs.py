"""Generated scene programs: a random scene, written in a code language with a random mix of
the idioms real replies use, so that the parser and the real engine can be held to each other
on code nobody wrote by hand (tests/generated/test_generated.py; docs/evaluator.md,
"Generated programs").

A program is drawn through a ``Chooser``: hypothesis's ``draw`` in the tests
(``programs(language)``, a strategy), a seeded numpy generator for a predictions file
(``tests.generated.write_predictions``). The scene comes from the benchmark's own layout
generator (``synth.layout``: objects on the ground, round sections where the shape has them),
some objects turned about every axis; the idioms (``Idioms``) say how the code lays it out:

- ``layout``: one statement block per object (``calls``), a data table walked by a loop
  (``table``), a generator function yielding the objects (``generator``), numpy arrays zipped
  in a loop (``numpy``, the Python engines);
- ``dispatch``: how a helper picks the shape: an ``if`` chain, a ``switch``/``match``
  statement, a lookup table of constructors;
- ``sizing``: sizes as the constructor's arguments, or a unit shape scaled;
- ``procedural``: cones, pyramids and tori built from vertices computed in loops;
- ``angles``: degrees converted, radians, or a quaternion;
- per object: under a parent group with a transform of its own (local values), placed by a
  matrix, copied from a template of its class (``clone()``, ``Instantiate``, ``copy()``), or
  (C#) sized through a struct copy of ``localScale``.

Each language's writer (``tests.generated.three`` for three.js and TypeScript, ``unity``,
``blender``, ``open3d``) turns a ``Program`` into a reply; the idiom writers of the
cross-language check (tests/parsers/idiom_replies.py) supply the shared pieces.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, TypeVar

import numpy as np
from hypothesis import strategies as st

from spatialbabel import Scene, SceneObject, world_aabb
from synth.layout import LayoutRules, sample_layout
from synth.tiers import TIERS
from tests.parsers.idiom_replies import GROUND_STYLES

T = TypeVar("T")

#: The code languages a program is written in; TypeScript replies are three.js replies.
LANGUAGES: Final = ("threejs", "typescript", "unity", "blender", "open3d")
#: The language a reply of each generated language is parsed and scored as.
REPLY_LANGUAGE: Final = {
    "threejs": "threejs",
    "typescript": "threejs",
    "unity": "unity",
    "blender": "blender",
    "open3d": "open3d",
}
LAYOUTS: Final[dict[str, tuple[str, ...]]] = {
    "threejs": ("calls", "table", "generator"),
    "typescript": ("calls", "table", "generator"),
    "unity": ("calls", "table", "generator"),
    "blender": ("calls", "table", "generator", "numpy"),
    "open3d": ("calls", "table", "generator", "numpy"),
}
DISPATCHES: Final = ("if", "switch", "lookup")
SIZINGS: Final = ("args", "scale")
ANGLES: Final = ("degrees", "radians", "quaternion")
GROUNDS: Final = (*GROUND_STYLES, "none")
#: The tiers drawn (3 to 10 objects): programs stay short enough to run by the dozen.
SCENE_TIERS: Final = ("T1", "T2", "T3")


class Chooser(Protocol):
    """Where a program's random choices come from."""

    def integer(self, low: int, high: int) -> int:
        """An integer in [low, high]."""

    def boolean(self, chance: float) -> bool:
        """True with about ``chance``."""

    def choice(self, options: Sequence[T]) -> T: ...


class DrawChooser:
    """Choices drawn by hypothesis (inside ``st.composite``): they shrink."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def boolean(self, chance: float) -> bool:
        # Shrinks towards False: the plainer program.
        return self.draw(st.integers(0, 999)) < round(chance * 1000)

    def choice(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))


class SeededChooser:
    """Choices from a seeded numpy generator (a predictions file, byte-identical per seed)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high + 1))

    def boolean(self, chance: float) -> bool:
        return bool(self.rng.random() < chance)

    def choice(self, options: Sequence[T]) -> T:
        return options[int(self.rng.integers(len(options)))]


@dataclass(frozen=True)
class Group:
    """A parent object the program moves its children with: a position on the ground and a turn
    about the vertical axis (degrees, canonical frame)."""

    position: tuple[float, float, float]
    yaw: float


@dataclass(frozen=True)
class Idioms:
    layout: str
    dispatch: str
    sizing: str
    procedural: bool
    angles: str
    ground: str
    hex_colours: bool
    group: Group | None
    #: Per object: under the group, placed by a matrix, copied from its class's template,
    #: sized through a struct copy (C#).
    parented: tuple[bool, ...]
    matrix: tuple[bool, ...]
    template: tuple[bool, ...]
    struct_copy: tuple[bool, ...]

    def names(self) -> list[str]:
        """The idioms this program uses, for the measurement's tally."""
        used = [f"layout:{self.layout}", f"dispatch:{self.dispatch}", f"sizing:{self.sizing}"]
        used += [f"angles:{self.angles}", f"ground:{self.ground}"]
        used += ["procedural"] if self.procedural else []
        for flag in ("parented", "matrix", "template", "struct_copy"):
            used += [flag] if any(getattr(self, flag)) else []
        return used


@dataclass(frozen=True)
class Program:
    language: str
    scene: Scene
    idioms: Idioms
    text: str

    @property
    def reply_language(self) -> str:
        return REPLY_LANGUAGE[self.language]


def _tilted(obj: SceneObject, choose: Chooser) -> SceneObject:
    """The object turned about every axis (whole degrees), lowered or raised to rest on the
    ground again."""
    x, y, z = (float(choose.integer(-60, 60)) for _ in range(3))
    angles = (x, y, z)
    moved = replace(obj, rotation=angles)
    lowest = float(world_aabb(moved)[0][1])
    x, y, z = moved.position
    return replace(moved, position=(x, round(y - lowest, 6), z))


def draw_scene(choose: Chooser, scene_id: str) -> Scene:
    seed = choose.integer(0, 2**31 - 1)
    tier = choose.choice(SCENE_TIERS)
    objects = sample_layout(np.random.default_rng(seed), TIERS[tier], LayoutRules())
    turned = tuple(_tilted(o, choose) if choose.boolean(0.25) else o for o in objects)
    return Scene(scene_id, turned, meta={"tier": tier, "layout_seed": seed})


def draw_idioms(choose: Chooser, language: str, objects: Sequence[SceneObject]) -> Idioms:
    sizing = choose.choice(SIZINGS)
    group = None
    if choose.boolean(0.5):
        group = Group(
            (float(choose.integer(-20, 20)) / 10, 0.0, float(choose.integer(-20, 20)) / 10),
            float(choose.integer(-180, 180)),
        )

    def flags(chance: float, allowed: bool = True) -> tuple[bool, ...]:
        return tuple(allowed and choose.boolean(chance) for _ in objects)

    return Idioms(
        layout=choose.choice(LAYOUTS[language]),
        dispatch=choose.choice(DISPATCHES),
        sizing=sizing,
        procedural=choose.boolean(0.4),
        angles=choose.choice(ANGLES),
        ground=choose.choice(GROUNDS),
        hex_colours=choose.boolean(0.5),
        group=group,
        parented=flags(0.4, group is not None),
        matrix=flags(0.3),
        # A template is a unit shape scaled; a torus's tube is its own, so it has none.
        template=tuple(
            flag and o.class_name != "torus"
            for flag, o in zip(flags(0.4, sizing == "scale"), objects, strict=True)
        ),
        struct_copy=flags(0.5, language == "unity"),
    )


Writer = Callable[[Scene, Idioms], str]
#: Each language's writer: its module under tests/generated and its function.
WRITERS: Final = {
    "threejs": ("three", "write_javascript"),
    "typescript": ("three", "write_typescript"),
    "unity": ("unity", "write_unity"),
    "blender": ("blender", "write_blender"),
    "open3d": ("open3d", "write_open3d"),
}


def writer(language: str) -> Writer:
    module, name = WRITERS[language]
    found: Writer = getattr(importlib.import_module(f"tests.generated.{module}"), name)
    return found


def make_program(choose: Chooser, language: str, scene_id: str) -> Program:
    scene = draw_scene(choose, scene_id)
    idioms = draw_idioms(choose, language, scene.objects)
    return Program(language, scene, idioms, writer(language)(scene, idioms))


def programs(language: str) -> st.SearchStrategy[Program]:
    """Hypothesis's strategy of programs in ``language``."""

    @st.composite
    def strategy(draw: st.DrawFn) -> Program:
        return make_program(DrawChooser(draw), language, f"generated_{language}")

    result: st.SearchStrategy[Program] = strategy()
    return result


def seeded_programs(language: str, count: int, seed: int) -> list[Program]:
    """``count`` programs in ``language``, the same for the same seed."""
    made = []
    for index in range(count):
        rng = np.random.default_rng([seed, LANGUAGES.index(language), index])
        made.append(make_program(SeededChooser(rng), language, f"gen_{language}_{index:04d}"))
    return made


def describe(program: Program) -> dict[str, Any]:
    """What a program is, for a failure message or a predictions record's note."""
    return {
        "language": program.language,
        "objects": [(o.class_name, o.position, o.rotation, o.size) for o in program.scene.objects],
        "idioms": program.idioms.names(),
    }
