"""Which class a Unity object is when its primitive is only a stand-in.

Unity builds cubes, spheres and cylinders (and capsules) but no cone, pyramid or torus, so a
model makes those from a stand-in and says what it means in the object's name, its variable or
a comment: a cylinder called "Cone", a flat cylinder under ``// torus``. The rule: a primitive
Unity can build keeps its class unless the words name a class Unity cannot build; a capsule,
which is no class of ours, takes any class the words name and is a cylinder otherwise; a mesh
built from vertices that are no recognisable shape takes its class from the words. The stand-in
keeps its size: the decided shape fills the stand-in's bounding box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parsers.shape_words import class_of_word
from spatialbabel import UNIT_EXTENTS, class_from_words
from spatialbabel.frames import Matrix

#: Classes with no Unity primitive: only words can make an object one of these.
NOT_BUILDABLE = frozenset({"cone", "pyramid", "torus"})


@dataclass(frozen=True)
class ClassDecision:
    class_name: str
    #: Canonical unit primitive onto the mesh, in the object's own (Unity) frame.
    unit_to_local: Matrix
    reason: str | None = None


def _filling(box: Matrix, class_name: str) -> Matrix:
    """The unit primitive of ``class_name`` stretched over the box ``box`` (unit cube -> box)."""
    unit = np.asarray(UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0)), dtype=float)
    return np.asarray(box, dtype=float) @ np.diag([*(1.0 / unit), 1.0])


def decide_class(
    primitive: str | None,
    primitive_class: str,
    box: Matrix,
    names: list[str | None],
    comments: list[str],
    words: list[tuple[str, str]] | None = None,
    *,
    what: str | None = None,
    fill: bool = True,
) -> ClassDecision:
    """The class of an object made from ``primitive`` (None for a mesh of unknown shape) whose
    mesh fills ``box``, given what the code calls it: its name, then the words of the helpers
    that made it (enum members, strings, method names: ``shape_words.frame_words``), then its
    variable, then comments. ``fill`` False keeps the decided class's unit primitive as it is
    (a mesh whose vertices cannot be computed has no box to fill)."""
    sources: list[tuple[str, str, bool]] = (
        [(word, f"its name {word!r}", False) for word in names[:1] if word]
        + [(word, where, True) for word, where in words or []]
        + [(word, f"its variable {word!r}", False) for word in names[1:] if word]
        + [(text, f"its comment {text!r}", False) for text in comments if text]
    )
    for word, where, whole_tokens in sources:
        if whole_tokens:
            found = class_of_word(word)
        else:
            guess = class_from_words([word])
            found = guess[0] if guess is not None else None
        if found is None:
            continue
        if primitive in (None, "Capsule") or (found in NOT_BUILDABLE and found != primitive_class):
            stand_in = what or (
                f"a {primitive} stands in for it"
                if primitive
                else "a mesh built from vertices stands in for it"
            )
            return ClassDecision(
                found,
                _filling(box, found) if fill else np.asarray(box, dtype=float),
                f"from {where} ({stand_in})",
            )
    if primitive == "Capsule":
        return ClassDecision(
            "cylinder",
            _filling(box, "cylinder"),
            "a Capsule is no class of its own; read as the cylinder of its size",
        )
    if primitive is None:
        return ClassDecision("unknown", _filling(box, "cube"), None)
    return ClassDecision(primitive_class, _filling(box, primitive_class), None)
