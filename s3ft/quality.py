"""The S3-FT quality filter: which Three.js replies are good enough to learn from.

A reply is kept only if it contains ``THREE.Scene``, ``THREE.PerspectiveCamera`` and
``THREE.Mesh``, creates 1 to 50 meshes (``new THREE.Mesh(``), and every numeric
``position.set(x, y, z)`` argument lies in [-30, 30] (the paper's rule; a reply that writes
centimetres or runs away fails it). The checks read the reply's text as the model wrote it, so
they cost nothing next to parsing; an argument that is an expression (``x + 1``) is not a
number the filter can read and is left to the parser.
"""

from __future__ import annotations

import re
from typing import Final, Literal, get_args

from synth.prompts import PHASE1_MAX_MESHES, PHASE1_MIN_MESHES, PHASE1_POSITION_LIMIT

Rejection = Literal["no_scene", "no_camera", "no_mesh", "mesh_count", "position_range"]

#: Every reason a reply can be rejected for, in the order the checks run; a reply is counted
#: under its first (``primary``) reason.
REJECTIONS: Final[tuple[Rejection, ...]] = get_args(Rejection)
# The phase-1 prompt states these bounds; one place holds them (``synth.prompts``).
MIN_MESHES: Final = PHASE1_MIN_MESHES
MAX_MESHES: Final = PHASE1_MAX_MESHES
POSITION_LIMIT: Final = float(PHASE1_POSITION_LIMIT)
REJECTION_TEXT: Final[dict[Rejection, str]] = {
    "no_scene": "no THREE.Scene",
    "no_camera": "no THREE.PerspectiveCamera",
    "no_mesh": "no THREE.Mesh",
    "mesh_count": f"not {MIN_MESHES} to {MAX_MESHES} new THREE.Mesh(",
    "position_range": f"a position.set value outside [-{POSITION_LIMIT:g}, {POSITION_LIMIT:g}]",
}

# Word ends keep THREE.MeshStandardMaterial from counting as THREE.Mesh, and
# THREE.SceneUtils as THREE.Scene.
_TOKENS: Final[tuple[tuple[Rejection, re.Pattern[str]], ...]] = (
    ("no_scene", re.compile(r"\bTHREE\.Scene\b")),
    ("no_camera", re.compile(r"\bTHREE\.PerspectiveCamera\b")),
    ("no_mesh", re.compile(r"\bTHREE\.Mesh\b")),
)
_MESH_CALL: Final = re.compile(r"\bnew\s+THREE\.Mesh\s*\(")
_POSITION_SET: Final = re.compile(r"\bposition\s*\.\s*set\s*\(")
_NUMBER: Final = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def mesh_count(text: str) -> int:
    return len(_MESH_CALL.findall(text))


def _arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` is just before ``start``."""
    arguments, depth, begin = [], 0, start
    for k in range(start, len(text)):
        char = text[k]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                arguments.append(text[begin:k])
                return arguments
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[begin:k])
            begin = k + 1
    return arguments  # an unclosed call (a reply cut off): what was written


def position_values(text: str) -> list[float]:
    """Every numeric literal argument of a ``position.set(...)`` call, in order."""
    values = []
    for call in _POSITION_SET.finditer(text):
        for argument in _arguments(text, call.end()):
            argument = argument.strip()
            if _NUMBER.fullmatch(argument):
                values.append(float(argument))
    return values


def rejections(text: str) -> tuple[Rejection, ...]:
    """Every check ``text`` fails, in ``REJECTIONS`` order (empty: the reply passes)."""
    failed: list[Rejection] = [reason for reason, token in _TOKENS if not token.search(text)]
    if not MIN_MESHES <= mesh_count(text) <= MAX_MESHES:
        failed.append("mesh_count")
    if any(abs(v) > POSITION_LIMIT for v in position_values(text)):
        failed.append("position_range")
    return tuple(failed)


__all__ = [
    "MAX_MESHES",
    "MIN_MESHES",
    "POSITION_LIMIT",
    "REJECTIONS",
    "REJECTION_TEXT",
    "Rejection",
    "mesh_count",
    "position_values",
    "rejections",
]
